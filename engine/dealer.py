"""Chance: the Dealer interface, through which every shuffle, draw and recycling goes.

The engine asks the dealer for a card only at the moment it turns face up or reaches a
hand, so a dealer may be a seeded shuffle (:class:`LocalDealer`) or the fair-dealing
protocol of ``pbm``, which knows only what one player may know.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from engine._frozen import fast_init, frozen_value, maker
from engine.cards import Card, full_deck
from engine.rules import Ruleset
from engine.state import Pool, Stack


class DealerError(RuntimeError):
    """The dealer cannot supply what the engine asks for (a broken or exhausted dealer)."""


@fast_init
@frozen_value
class Deal:
    """The start of a game: each hand (its known cards, and how many are unseen) and both pay-off tops."""

    hands: tuple[Stack, Stack]
    payoff_tops: tuple[Card, Card]
    unseen: tuple[int, int] = (0, 0)


@fast_init
@frozen_value
class Draw:
    """Cards drawn into a hand: those the state's holder may know, and how many it may not."""

    cards: Stack
    unseen: int = 0


_NO_DRAW = Draw(())
_make_draw = maker(Draw)


class Dealer(Protocol):
    """Supplies every card the engine cannot know in advance."""

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        """Shuffle and deal: pay-off piles, hands, the rest to the stock."""
        ...

    def turn_up(self, player: int) -> Card:
        """The next card of `player`'s pay-off pile, now its face-up top."""
        ...

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        """A hand card of `rank` leaves `player`'s hand face up; `card` is the engine's pick if it knows it."""
        ...

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        """End turn `turn`: take in the `completed` pools, draw `count` cards for `player`, then merge `merging`."""
        ...


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place exactly as ``rng.shuffle(items)`` does, by the same calls to the generator (tested), at
    about half its cost: the simulations shuffle a stock each time completed stacks go back into it."""
    bits, widths = rng.getrandbits, _WIDTHS
    if len(items) >= len(widths):
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = widths[n]
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]


_WIDTHS = tuple(n.bit_length() for n in range(1024))


class LocalDealer:
    """A seeded shuffle for local play, simulation and tests: the same seed deals the same game."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self._rng = random.Random(seed)
        self.stock: list[Card] = []  # top of the stock is the end of the list
        self.facedown: tuple[list[Card], list[Card]] = ([], [])  # pay-off piles below the top, top last

    @property
    def rng(self) -> random.Random:
        """The generator of the dealer's shuffles (a game on ranks, engine.core, goes on with it)."""
        return self._rng

    @classmethod
    def holding(cls, stock: list[Card], facedown: tuple[list[Card], list[Card]], seed: int | str | None = 0) -> LocalDealer:
        """A dealer for a game already under way, holding the given stock and face-down pay-off cards."""
        dealer = cls(seed)
        dealer.stock = list(stock)
        dealer.facedown = (list(facedown[0]), list(facedown[1]))
        return dealer

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        deck = list(full_deck(ruleset.decks))
        shuffle(self._rng, deck)
        n, h = ruleset.payoff_size, ruleset.hand_size
        piles = (deck[:n], deck[n : 2 * n])
        hands = (tuple(deck[2 * n : 2 * n + h]), tuple(deck[2 * n + h : 2 * n + 2 * h]))
        self.stock = deck[2 * n + 2 * h :]
        self.facedown = (piles[0][:-1], piles[1][:-1])
        return Deal(hands=hands, payoff_tops=(piles[0][-1], piles[1][-1]))

    def turn_up(self, player: int) -> Card:
        if not self.facedown[player]:
            raise DealerError(f"player {player + 1}'s pay-off pile has no face-down card left")
        return self.facedown[player].pop()

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        if card is None:
            raise DealerError("a local dealer plays only with known hands")
        return card

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        stock = self.stock
        if count > len(stock):
            count = len(stock)
        draw = _make_draw(tuple(stock[: -count - 1 : -1]), 0) if count else _NO_DRAW  # the top `count` cards, top first
        if count:
            del stock[-count:]
        if merging:
            for pool in merging:
                stock.extend(pool.cards)
            shuffle(self._rng, stock)
        return draw
