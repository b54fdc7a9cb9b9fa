"""Moves and their notation (RULES.md): ``p-c1``, ``7-c2``, ``s3-c1``, ``Q-s2``, ``end``."""

from __future__ import annotations

import re
from functools import lru_cache

from engine._frozen import fast_init, frozen_value
from engine.cards import RANK_TEXT, CardNotationError, parse_rank
from engine.text import N_, Message

PAYOFF, SIDE, HAND, END = "p", "s", "h", "end"
CENTER = "c"

_PLACE = re.compile(r"([sc])([1-9])")


class InvalidMoveError(ValueError):
    """Text that is not a move in the notation."""


class IllegalMoveError(ValueError):
    """A well-written move that the rules forbid in this position."""


@fast_init
@frozen_value
class Move:
    """One move: a source (pay-off top, side stack, hand rank, or ``end``) and a target stack.

    Indices are 0-based (``s1`` is side stack 0); a hand source is named by its rank.
    """

    source: str
    source_index: int = 0
    target: str = ""
    target_index: int = 0

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read one move; case-insensitive, ``T`` for 10. Raises InvalidMoveError."""
        return _parse(text.strip().lower())

    @property
    def is_discard(self) -> bool:
        """A hand card put on a side stack: it ends the turn."""
        return self.target == SIDE

    @property
    def ends_turn(self) -> bool:
        return self.target == SIDE or self.source == END

    def __str__(self) -> str:
        if self.source == END:
            return "end"
        if self.source == PAYOFF:
            src = "p"
        elif self.source == SIDE:
            src = f"s{self.source_index + 1}"
        else:
            src = RANK_TEXT[self.source_index]
        return f"{src}-{self.target}{self.target_index + 1}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


END_MOVE = Move(END)

# Every move to a stack, made once: moves are values, so the engine and its bots hand these out instead of
# building new ones. Indexed by stack (0-8) or rank (1-13; index 0 unused), then by target stack.
_STACKS = range(9)
PAYOFF_PLAYS: tuple[Move, ...] = tuple(Move(PAYOFF, 0, CENTER, t) for t in _STACKS)
SIDE_PLAYS: tuple[tuple[Move, ...], ...] = tuple(tuple(Move(SIDE, i, CENTER, t) for t in _STACKS) for i in _STACKS)
HAND_PLAYS: tuple[tuple[Move, ...], ...] = tuple(tuple(Move(HAND, r, CENTER, t) for t in _STACKS) for r in range(14))
DISCARDS: tuple[tuple[Move, ...], ...] = tuple(tuple(Move(HAND, r, SIDE, i) for i in _STACKS) for r in range(14))


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    if text == "end":
        return END_MOVE
    if text.count("-") != 1:
        # TRANSLATORS: {text} is what the player typed, in quotes; 7-c2, p-c1, Q-s2 and 'end' are moves in the notation: keep them.
        raise InvalidMoveError(Message(N_("{text} is not a move: write SOURCE-TARGET, like 7-c2, p-c1 or Q-s2, or 'end'"), text=repr(text)))
    src, dst = (part.strip() for part in text.split("-"))
    target = _PLACE.fullmatch(dst)
    if target is None:
        raise InvalidMoveError(
            # TRANSLATORS: {text} is what the player typed and {target} its part after the dash, both in quotes.
            Message(N_("{text}: the target {target} is not a stack; use c1-c3 (center) or s1-s4 (side)"), text=repr(text), target=repr(dst))
        )
    if src == "p":
        source, index = PAYOFF, 0
    elif (side := _PLACE.fullmatch(src)) is not None:
        if side.group(1) == "c":
            # TRANSLATORS: {text} is what the player typed, in quotes.
            raise InvalidMoveError(Message(N_("{text}: cards are never taken from a center stack"), text=repr(text)))
        source, index = SIDE, int(side.group(2)) - 1
    else:
        try:
            source, index = HAND, parse_rank(src)
        except CardNotationError:
            raise InvalidMoveError(_bad_source(text, src)) from None
    return Move(source, index, target.group(1), int(target.group(2)) - 1)


def _bad_source(text: str, src: str) -> Message:
    return Message(
        # TRANSLATORS: {text} is what the player typed and {source} its part before the dash, both in quotes.
        N_("{text}: the source {source} is not p, a side stack s1-s4 or a rank (A, 2-10, J, Q, K)"),
        text=repr(text),
        source=repr(src),
    )


def parse_turn(text: str) -> list[Move]:
    """Read a turn written as moves separated by spaces (``p-c1 7-c2 Q-s2``)."""
    return [Move.parse(word) for word in text.split()]
