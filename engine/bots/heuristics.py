"""Static judgement of how a turn ends: blocking the opponent, own prospects, side stacks kept playable."""

from __future__ import annotations

from collections import Counter
from dataclasses import field

from engine._frozen import frozen_value
from engine.bots.bfs import payoff_line
from engine.bots.search import Line, Ranks, rank_counts, reach_chance
from engine.cards import KING
from engine.moves import Move
from engine.state import PlayerView

DANGER = 8.0  # an opponent's pay-off play costs about this many of our own small advantages
PROSPECT = 3.0


@frozen_value
class Context:
    """What the judgement needs from a view: unseen rank counts and both pay-off tops."""

    unseen: list[int]
    my_top: int | None
    opp_top: int | None
    opp_tops: list[int]
    opp_draws: int
    hand_size: int
    complete_at: int
    king_starts: bool = True
    draws: Ranks | None = None  # the ranks the mover draws next turn, next first: given only to a ceiling (benchmarks)
    dangers: dict[Ranks, float] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, view: PlayerView) -> Context:
        seen: Counter[int] = Counter(card.rank for card in view.hand)
        for piles in (view.side, view.opponent.side, view.center):
            for pile in piles:
                seen.update(card.rank for card in pile)
        seen.update(card.rank for card in view.shuffling_in)
        for top in (view.payoff_top, view.opponent.payoff_top):
            if top is not None:
                seen[top.rank] += 1
        per_rank = 4 * view.ruleset.decks
        unseen = [0] + [max(0, per_rank - seen[rank]) for rank in range(1, 14)]
        opp = view.opponent
        opp_draws = min(view.ruleset.hand_size, opp.hand_count + view.stock_count)
        return cls(
            unseen=unseen,
            my_top=view.payoff_top.rank if view.payoff_top is not None else None,
            opp_top=opp.payoff_top.rank if opp.payoff_top is not None else None,
            opp_tops=rank_counts(pile[-1].rank for pile in opp.side if pile),
            opp_draws=opp_draws,
            hand_size=view.ruleset.hand_size,
            complete_at=view.ruleset.complete_at,
            king_starts=view.ruleset.king_starts_center,
        )


def danger(ctx: Context, center: Ranks) -> float:
    """Rough chance that the opponent plays its pay-off top next turn on these center stacks."""
    known = ctx.dangers.get(center)
    if known is None:
        known = reach_chance(center, ctx.opp_top, ctx.complete_at, ctx.opp_tops, ctx.unseen, ctx.opp_draws, [0] * 14)
        ctx.dangers[center] = known
    return known


def prospect(ctx: Context, center: Ranks, hand: Ranks, side: tuple[Ranks, ...]) -> float:
    """Rough chance that we play our pay-off top next turn if the center stayed as it is.

    Where `ctx` knows the draws to come (a ceiling that reads the stock, never a fair bot), it is 1 or 0: whether the
    search of our next turn reaches the card with the hand those draws make.
    """
    draws = max(0, ctx.hand_size - len(hand))
    if ctx.draws is not None and ctx.my_top is not None:
        full = tuple(sorted(hand + ctx.draws[:draws]))
        line = payoff_line(full, side, tuple(sorted(center)), ctx.my_top, ctx.king_starts, ctx.complete_at)
        return 0.0 if line is None else 1.0
    tops = rank_counts(pile[-1] for pile in side if pile)
    return reach_chance(center, ctx.my_top, ctx.complete_at, tops, ctx.unseen, draws, rank_counts(hand))


def bury_cost(rank: int, pile: Ranks) -> float:
    """What putting a card of `rank` on `pile` costs: nothing when it builds downward, most when it buries a lower card."""
    if not pile:
        return 0.6 - 0.04 * rank  # an empty stack is flexibility; a high card is the best foundation
    top = pile[-1]
    if rank == KING:
        return 1.2
    if top == rank + 1:
        return 0.0
    if top == rank:
        return 0.15
    if top == KING:
        return 0.5
    if rank < top:
        return 0.4 + 0.08 * (top - rank - 1)
    return 1.5 + 0.05 * (rank - top)


@frozen_value
class Weights:
    """How much each part of the judgement of a turn's end counts."""

    danger: float = DANGER
    prospect: float = PROSPECT
    from_hand: float = 0.25
    from_side: float = 0.35
    bury: float = 1.0
    line_king: float = 6.0
    line_hand: float = 1.0
    line_side: float = 0.5


BASE = Weights()


def line_value(ctx: Context, line: Line, w: Weights = BASE) -> float:
    """How good a line that reaches the pay-off card is: fewest Kings, then fewest cards spent."""
    return 100.0 - w.line_king * line.kings - w.line_hand * line.from_hand - w.line_side * line.from_side - danger(ctx, line.center)


def ending_value(ctx: Context, line: Line, discard: Move, w: Weights = BASE) -> float:
    """How good it is to end the turn with `line` and then `discard` (a hand card to a side stack, or ``end``)."""
    hand, side = line.hand, line.side
    value = w.from_hand * line.from_hand + w.from_side * line.from_side
    if discard.is_discard:
        rank, i = discard.source_index, discard.target_index
        pile = side[i]
        value -= w.bury * bury_cost(rank, pile)
        j = hand.index(rank)
        hand = hand[:j] + hand[j + 1 :]
        side = side[:i] + ((*pile, rank),) + side[i + 1 :]
    value -= w.danger * danger(ctx, line.center)
    value += w.prospect * prospect(ctx, line.center, hand, side)
    return value
