"""Cards, ranks, suits and the card notation of RULES.md (rank, then an optional suit)."""

from __future__ import annotations

from functools import lru_cache

from engine._frozen import frozen_value
from engine.text import N_, Message

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANKS: tuple[int, ...] = tuple(range(1, 14))
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_SYMBOL_TO_SUIT = {v: k for k, v in SUIT_SYMBOLS.items()}

RANK_TEXT: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
_TEXT_RANK: dict[str, int] = {v: k for k, v in RANK_TEXT.items()} | {"T": 10, "1": 1}


class CardNotationError(ValueError):
    """Text that is not a card in the notation of RULES.md."""


def parse_rank(text: str) -> int:
    """The rank named by `text` (``A``, ``2`` … ``10``, ``T``, ``J``, ``Q``, ``K``, any case)."""
    rank = _TEXT_RANK.get(text.strip().upper())
    if rank is None:
        # TRANSLATORS: {text} is what was typed, in quotes; A, 2-10, J, Q and K are the ranks in the notation: keep them.
        raise CardNotationError(Message(N_("{text} is not a rank: use A, 2-10, J, Q or K"), text=repr(text)))
    return rank


@frozen_value(order=True)
class Card:
    """One physical card: rank 1-13 (Ace to King), suit (None when unknown) and deck copy."""

    rank: int
    suit: str | None = None
    copy: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardNotationError(f"rank {self.rank} is not between 1 (Ace) and 13 (King)")
        if self.suit is not None and self.suit not in SUITS:
            raise CardNotationError(f"suit {self.suit!r} is not one of s, h, d, c")
        if self.copy < 0:
            raise CardNotationError("a deck copy is never negative")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``7h``, ``10d``, ``Qs``, ``K``, ``T♠``; the copy is always 0."""
        raw = text.strip()
        if not raw:
            raise CardNotationError(Message(N_("an empty string is not a card")))
        suit: str | None = None
        last = raw[-1]
        if last in _SYMBOL_TO_SUIT:
            suit, raw = _SYMBOL_TO_SUIT[last], raw[:-1]
        elif last.lower() in SUITS and len(raw) > 1:
            suit, raw = last.lower(), raw[:-1]
        try:
            return cls(parse_rank(raw), suit)
        except CardNotationError:
            # TRANSLATORS: {text} is what was typed, in quotes; 7h, 10d, Qs and K are cards in the notation: keep them.
            message = Message(N_("{text} is not a card: write rank then suit, like 7h, 10d, Qs or K"), text=repr(text))
            raise CardNotationError(message) from None

    @property
    def index(self) -> int:
        """A number 0 … 52*decks-1, one per physical card (needs a suit)."""
        if self.suit is None:
            raise CardNotationError(f"{self} has no suit, so it names no physical card")
        return (self.copy * 4 + SUITS.index(self.suit)) * 13 + self.rank - 1

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card whose :attr:`index` is `index`."""
        if index < 0:
            # TRANSLATORS: {index} is the number a saved or received file gives a card.
            raise CardNotationError(Message(N_("card index {index} is negative"), index=index))
        rest, rank0 = divmod(index, 13)
        copy, suit = divmod(rest, 4)
        return cls(rank0 + 1, SUITS[suit], copy)

    @property
    def is_king(self) -> bool:
        return self.rank == KING

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + (self.suit or "")

    def __repr__(self) -> str:
        if self.copy:
            return f"Card({self.rank}, {self.suit!r}, {self.copy})"
        return f"Card.parse({str(self)!r})"


@lru_cache(maxsize=16)
def full_deck(decks: int) -> tuple[Card, ...]:
    """Every physical card of `decks` standard decks, in index order (one shared tuple per number of decks)."""
    return tuple(Card.from_index(i) for i in range(52 * decks))
