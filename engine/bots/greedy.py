"""The greedy baseline: pay-off first, then side stacks, then hand; Kings only to free a pay-off card."""

from __future__ import annotations

from engine.cards import KING
from engine.moves import CENTER, END, HAND, PAYOFF, SIDE, Move
from engine.state import PlayerView

_END = Move(END)


class GreedyBot:
    """Plays whatever fits at once, spends Kings only when the next card onto that stack is its pay-off top."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed  # greedy is deterministic; the seed is kept for a uniform interface

    def choose(self, view: PlayerView) -> Move:
        center = view.center
        needs = [len(stack) + 1 for stack in center]
        king_ok = view.ruleset.king_starts_center
        top = view.payoff_top
        if top is not None:
            if top.rank == KING:
                best = max(range(len(center)), key=lambda t: needs[t])
                if needs[best] > 1 or king_ok:
                    return Move(PAYOFF, 0, CENTER, best)
            elif top.rank in needs:
                return Move(PAYOFF, 0, CENTER, needs.index(top.rank))
        for i, pile in enumerate(view.side):
            if pile and pile[-1].rank != KING and pile[-1].rank in needs:
                return Move(SIDE, i, CENTER, needs.index(pile[-1].rank))
        for card in view.hand:
            if card.rank != KING and card.rank in needs:
                return Move(HAND, card.rank, CENTER, needs.index(card.rank))
        if top is not None and top.rank != KING and top.rank - 1 in needs and (top.rank > 2 or king_ok):
            # a King on that stack makes the pay-off top fit next
            t = needs.index(top.rank - 1)
            if any(card.rank == KING for card in view.hand):
                return Move(HAND, KING, CENTER, t)
            for i, pile in enumerate(view.side):
                if pile and pile[-1].rank == KING:
                    return Move(SIDE, i, CENTER, t)
        if not view.hand:
            return _END
        return self._discard(view)

    @staticmethod
    def _discard(view: PlayerView) -> Move:
        """Keep Kings; put the highest card where it builds downward, on its twin, or on an empty stack."""
        card = max(view.hand, key=lambda c: (c.rank != KING, c.rank))
        rank = card.rank
        side = view.side
        for i, pile in enumerate(side):
            if pile and pile[-1].rank == rank:
                return Move(HAND, rank, SIDE, i)
        for i, pile in enumerate(side):
            if not pile:
                return Move(HAND, rank, SIDE, i)
        best = min(range(len(side)), key=lambda i: abs(side[i][-1].rank - rank - 1))
        return Move(HAND, rank, SIDE, best)
