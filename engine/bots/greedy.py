"""The greedy baseline: pay-off first, then side stacks, then hand; Kings only to free a pay-off card."""

from __future__ import annotations

from engine.cards import KING
from engine.moves import DISCARDS, END_MOVE, HAND_PLAYS, PAYOFF_PLAYS, SIDE_PLAYS, Move
from engine.state import PlayerView


class GreedyBot:
    """Plays whatever fits at once, spends Kings only when the next card onto that stack is its pay-off top."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # greedy is deterministic; the seed is kept for a uniform interface

    def choose(self, view: PlayerView) -> Move:
        # a card of rank r fits (without a King) on the first stack holding r - 1 cards
        lengths = tuple(map(len, view.center))
        top = view.payoff_top
        if top is not None:
            rank = top.rank
            if rank == KING:
                longest = max(lengths)
                if longest or view.ruleset.king_starts_center:
                    return PAYOFF_PLAYS[lengths.index(longest)]
            elif rank - 1 in lengths:
                return PAYOFF_PLAYS[lengths.index(rank - 1)]
        side = view.side
        for i, pile in enumerate(side):
            if pile:
                rank = pile[-1].rank
                if rank != KING and rank - 1 in lengths:
                    return SIDE_PLAYS[i][lengths.index(rank - 1)]
        hand = view.hand
        for card in hand:
            rank = card.rank
            if rank != KING and rank - 1 in lengths:
                return HAND_PLAYS[rank][lengths.index(rank - 1)]
        if top is not None and top.rank != KING and top.rank - 2 in lengths and (top.rank > 2 or view.ruleset.king_starts_center):
            # a King on that stack makes the pay-off top fit next
            t = lengths.index(top.rank - 2)
            for card in hand:
                if card.rank == KING:
                    return HAND_PLAYS[KING][t]
            for i, pile in enumerate(side):
                if pile and pile[-1].rank == KING:
                    return SIDE_PLAYS[i][t]
        if not hand:
            return END_MOVE
        return self._discard(view)

    @staticmethod
    def _discard(view: PlayerView) -> Move:
        """Keep Kings; put the highest card where it builds downward, on its twin, or on an empty stack."""
        rank = 0
        for card in view.hand:
            if rank < card.rank < KING:
                rank = card.rank
        rank = rank or KING
        side = view.side
        for i, pile in enumerate(side):
            if pile and pile[-1].rank == rank:
                return DISCARDS[rank][i]
        for i, pile in enumerate(side):
            if not pile:
                return DISCARDS[rank][i]
        gaps = [abs(pile[-1].rank - rank - 1) for pile in side]
        return DISCARDS[rank][gaps.index(min(gaps))]
