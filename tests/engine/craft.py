"""Small exact positions for tests: GameStates built by hand, and dealers holding known cards."""

from __future__ import annotations

from collections import Counter

from engine.cards import RANK_TEXT, SUITS, Card
from engine.dealer import LocalDealer
from engine.rules import G4A, Ruleset
from engine.state import GameState, PlayerState, Pool, Stack


def card(text: str) -> Card:
    """``7h`` is the first deck's 7h, ``7h'`` the second deck's."""
    base = Card.parse(text.rstrip("'"))
    return Card(base.rank, base.suit, text.count("'"))


def cards(text: str) -> Stack:
    """Cards written with spaces between them: ``"7h Ks 3d'"``."""
    return tuple(card(word) for word in text.split())


def run(first: int, last: int, suit: str = "c", copy: int = 1) -> Stack:
    """A center stack built with the ranks first..last, all of one suit and deck copy (distinct from `card`'s)."""
    return tuple(Card(rank, suit, copy) for rank in range(first, last + 1))


def player(hand: str = "", top: str | None = "Qc'", count: int | None = None, side: tuple[str, ...] = ("", "", "", "")) -> PlayerState:
    """A player's cards; the pay-off pile defaults to the second Q♣ over 4 face-down cards (a game not over)."""
    top_card = card(top) if top is not None else None
    if count is None:
        count = 5 if top_card is not None else 0
    return PlayerState(cards(hand), top_card, count, tuple(cards(stack) for stack in side))


def state(
    me: PlayerState,
    them: PlayerState | None = None,
    center: tuple[Stack, ...] = ((), (), ()),
    stock_count: int = 20,
    pools: tuple[Pool, ...] = (),
    to_move: int = 0,
    turn: int = 1,
    starter: int = 0,
    ruleset: Ruleset = G4A,
) -> GameState:
    """A game in progress with `me` (player `to_move`) to move against `them`."""
    them = them if them is not None else player("2d 3d 4d 5d", top="Jd", count=10)
    players = (me, them) if to_move == 0 else (them, me)
    return GameState(ruleset, players, center, stock_count, pools, to_move, turn, starter)


def dealer(stock: Stack = (), facedown: tuple[Stack, Stack] = ((), ())) -> LocalDealer:
    """A dealer holding exactly these cards (top of the stock last) and face-down pay-off cards."""
    return LocalDealer.holding(list(stock), (list(facedown[0]), list(facedown[1])))


def filler(count: int, avoid: Stack = ()) -> Stack:
    """`count` distinct physical cards that are not in `avoid` (second-deck copies first)."""
    taken = Counter(avoid)
    out: list[Card] = []
    for copy in (1, 0):
        for suit in SUITS:
            for rank in RANK_TEXT:
                c = Card(rank, suit, copy)
                if not taken[c] and len(out) < count:
                    out.append(c)
    return tuple(out)
