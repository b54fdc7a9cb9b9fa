"""Search over one's own turn: every order of plays to the center, seen from a PlayerView only.

Cards are reduced to ranks; a center stack is its length (0 empty … 11, completion resets it to 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine._frozen import frozen_value
from engine.cards import KING, Card
from engine.game import check_move
from engine.moves import DISCARDS, END_MOVE, HAND_PLAYS, PAYOFF_PLAYS, SIDE_PLAYS, IllegalMoveError, Move
from engine.state import PlayerView

Ranks = tuple[int, ...]


@frozen_value
class Line:
    """A sequence of plays to the center and the table it leaves; `payoff` when it ends by playing the pay-off top."""

    moves: tuple[Move, ...]
    hand: Ranks
    side: tuple[Ranks, ...]
    center: Ranks
    kings: int
    from_hand: int
    from_side: int
    payoff: bool


class Work:
    """The work a plan's search has done, in steps of about the same cost on any machine (some 4 µs each here; 12 µs
    before the sampled games were played on ranks): moves applied in sampled games and tables expanded by searches.
    Budgets in steps, not seconds, make a seeded bot play the same games on a fast idle machine and a slow busy one."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps = 0


def table_ranks(
    hand: Iterable[Card], side: Iterable[Iterable[Card]], center: Iterable[Sequence[Card]]
) -> tuple[Ranks, tuple[Ranks, ...], Ranks]:
    """The searches' table: the hand's ranks sorted, each side stack's ranks (bottom first) and the center's lengths."""
    return (
        tuple(sorted(card.rank for card in hand)),
        tuple(tuple(card.rank for card in pile) for pile in side),
        tuple(len(stack) for stack in center),
    )


@frozen_value
class Table:
    """The mover's cards as ranks, the center lengths and the mover's pay-off top, taken from a view."""

    hand: Ranks
    side: tuple[Ranks, ...]
    payoff: int | None
    center: Ranks
    king_starts: bool
    complete_at: int

    @classmethod
    def of(cls, view: PlayerView) -> Table:
        hand, side, center = table_ranks(view.hand, view.side, view.center)
        return cls(
            hand=hand,
            side=side,
            payoff=view.payoff_top.rank if view.payoff_top is not None else None,
            center=center,
            king_starts=view.ruleset.king_starts_center,
            complete_at=view.ruleset.complete_at,
        )


def _targets(rank: int, center: Ranks, king_starts: bool) -> list[int]:
    """Center stacks a card of `rank` may go on, one per distinct length (stacks of equal length are alike)."""
    if rank != KING:
        return [t for t, n in enumerate(center) if n + 1 == rank][:1]
    seen: set[int] = set()
    out = []
    for t, n in enumerate(center):
        if n not in seen and (n or king_starts):
            seen.add(n)
            out.append(t)
    return out


def _play(center: Ranks, t: int, complete_at: int) -> Ranks:
    n = center[t] + 1
    return center[:t] + ((0 if n >= complete_at else n),) + center[t + 1 :]


def turn_lines(table: Table, max_nodes: int = 4000) -> list[Line]:
    """Every distinct table reachable by plays to the center (depth first, at most `max_nodes` expansions).

    Lines that spend a King without reaching the pay-off card are left out: Kings are spent only where they pay.
    """
    out: list[Line] = []
    seen: set[tuple[Ranks, tuple[Ranks, ...], Ranks]] = set()
    budget = [max_nodes]
    ks, done = table.king_starts, table.complete_at

    def visit(hand: Ranks, side: tuple[Ranks, ...], center: Ranks, moves: tuple[Move, ...], kings: int, nh: int, ns: int) -> None:
        key = (hand, side, tuple(sorted(center)))
        if key in seen or budget[0] <= 0:
            return
        seen.add(key)
        budget[0] -= 1
        if kings == 0:
            out.append(Line(moves, hand, side, center, 0, nh, ns, False))
        if table.payoff is not None:
            for t in _targets(table.payoff, center, ks):
                move = PAYOFF_PLAYS[t]
                out.append(Line((*moves, move), hand, side, _play(center, t, done), kings, nh, ns, True))
        for i, pile in enumerate(side):
            if pile:
                rank = pile[-1]
                rest = side[:i] + (pile[:-1],) + side[i + 1 :]
                for t in _targets(rank, center, ks):
                    k = kings + (rank == KING)
                    visit(hand, rest, _play(center, t, done), (*moves, SIDE_PLAYS[i][t]), k, nh, ns + 1)
        for rank in sorted(set(hand)):
            j = hand.index(rank)
            rest_hand = hand[:j] + hand[j + 1 :]
            for t in _targets(rank, center, ks):
                k = kings + (rank == KING)
                visit(rest_hand, side, _play(center, t, done), (*moves, HAND_PLAYS[rank][t]), k, nh + 1, ns)

    visit(table.hand, table.side, table.center, (), 0, 0, 0)
    return out


def distance(length: int, rank: int, complete_at: int) -> int:
    """How many cards must go on a center stack of `length` before a card of `rank` fits."""
    need = length + 1
    if rank >= need:
        return rank - need
    return complete_at - length + rank - 1


def rank_counts(ranks: Iterable[int]) -> list[int]:
    """How many of each rank (index 1 … 13; index 0 unused)."""
    counts = [0] * 14
    for rank in ranks:
        counts[rank] += 1
    return counts


def chain_chance(length: int, rank: int, complete_at: int, tops: list[int], unseen: list[int], draws: int, known: list[int]) -> float:
    """Rough chance that a player holding `known` ranks, `tops` side tops and `draws` unknown cards reaches `rank` on this stack.

    Counts are per rank (see :func:`rank_counts`); `unseen` are the cards the player might draw.
    """
    steps = distance(length, rank, complete_at)
    if steps > 6:
        return 0.0
    total = max(1, sum(unseen))
    tops, known = tops[:], known[:]
    kings = known[KING] + tops[KING]
    chance = 1.0
    need = length + 1
    for _ in range(steps):
        if tops[need] > 0:
            tops[need] -= 1
        elif known[need] > 0:
            known[need] -= 1
        elif kings > 0:
            kings -= 1
        elif draws > 0:
            fit = (unseen[need] + unseen[KING]) / total
            chance *= 1.0 - (1.0 - fit) ** draws
        else:
            return 0.0
        need = need + 1 if need < complete_at else 1  # a Queen completes the stack; an Ace starts the next
    return chance


def reach_chance(
    center: Ranks, rank: int | None, complete_at: int, tops: list[int], unseen: list[int], draws: int, known: list[int]
) -> float:
    """Rough chance that a player reaches a pay-off `rank` on some center stack in one turn."""
    if rank is None:
        return 0.0
    if rank == KING:
        return 1.0
    miss = 1.0
    for length in set(center):
        miss *= 1.0 - chain_chance(length, rank, complete_at, tops, unseen, draws, known)
    return 1.0 - miss


def discard_moves(hand: Ranks, sides: int) -> list[Move]:
    """Every distinct way to end the turn from `hand`: a discard of each rank on each side stack, or ``end``."""
    if not hand:
        return [END_MOVE]
    return [move for rank in sorted(set(hand)) for move in DISCARDS[rank][:sides]]


def legal(view: PlayerView, move: Move) -> bool:
    """Whether the rules let the player of `view` make `move` now."""
    try:
        check_move(view, move)
    except IllegalMoveError:
        return False
    return True
