"""The greedy baseline: pay-off first, then side stacks, then hand; Kings only to free a pay-off card."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import KING
from engine.moves import DISCARDS, END_MOVE, HAND_PLAYS, PAYOFF_PLAYS, SIDE_PLAYS, Move
from engine.state import PlayerView


class GreedyBot:
    """Plays whatever fits at once, spends Kings only when the next card onto that stack is its pay-off top."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # greedy is deterministic; the seed is kept for a uniform interface

    def choose(self, view: PlayerView) -> Move:
        top = view.payoff_top
        return greedy_move(
            [len(s) for s in view.center],
            top.rank if top is not None else None,
            [[c.rank for c in s] for s in view.side],
            [c.rank for c in view.hand],
            view.ruleset.king_starts_center,
        )

    @staticmethod
    def choose_ranks(lengths: list[int], top: int | None, side: Sequence[Sequence[int]], hand: Sequence[int], king_starts: bool) -> Move:
        """The same choice from ranks (engine.core.RankChooser): what a game on ranks asks of its bots."""
        return greedy_move(lengths, top, side, hand, king_starts)


def greedy_move(lengths: list[int], top: int | None, side: Sequence[Sequence[int]], hand: Sequence[int], king_starts: bool) -> Move:
    """Greedy's move: `lengths` of the center stacks, the pay-off `top` rank, the `side` stacks' and `hand`'s ranks."""
    # a card of rank r fits (without a King) on the first stack holding r - 1 cards
    if top is not None:
        if top == KING:
            longest = max(lengths)
            if longest or king_starts:
                return PAYOFF_PLAYS[lengths.index(longest)]
        elif top - 1 in lengths:
            return PAYOFF_PLAYS[lengths.index(top - 1)]
    for i, pile in enumerate(side):
        if pile:
            rank = pile[-1]
            if rank != KING and rank - 1 in lengths:
                return SIDE_PLAYS[i][lengths.index(rank - 1)]
    for rank in hand:
        if rank != KING and rank - 1 in lengths:
            return HAND_PLAYS[rank][lengths.index(rank - 1)]
    if top is not None and top != KING and top - 2 in lengths and (top > 2 or king_starts):
        # a King on that stack makes the pay-off top fit next
        t = lengths.index(top - 2)
        if KING in hand:
            return HAND_PLAYS[KING][t]
        for i, pile in enumerate(side):
            if pile and pile[-1] == KING:
                return SIDE_PLAYS[i][t]
    if not hand:
        return END_MOVE
    return _discard(side, hand)


def _discard(side: Sequence[Sequence[int]], hand: Sequence[int]) -> Move:
    """Keep Kings; put the highest card where it builds downward, on its twin, or on an empty stack."""
    rank = 0
    for r in hand:
        if rank < r < KING:
            rank = r
    rank = rank or KING
    for i, pile in enumerate(side):
        if pile and pile[-1] == rank:
            return DISCARDS[rank][i]
    for i, pile in enumerate(side):
        if not pile:
            return DISCARDS[rank][i]
    gaps = [abs(pile[-1] - rank - 1) for pile in side]
    return DISCARDS[rank][gaps.index(min(gaps))]
