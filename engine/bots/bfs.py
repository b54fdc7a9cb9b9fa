"""A breadth-first-search bot of the kind open-source Skip-Bo games ship: a yardstick for the expert, not a level.

The expert's rollouts play the expert's own next turn by its search for the pay-off card (:func:`payoff_line`,
through engine.bots.sampling.payoff_run).

Each plan is a breadth-first search over the sequences of plays to the center from the hand, the pay-off top and the
side-stack tops, seen from the bot's PlayerView only. The plan is, in this order:

1. the shortest sequence that plays the pay-off top (the pile's last card empties it and wins);
2. else the shortest sequence that empties the hand (then ``end``);
3. else the sequence that plays the most cards without spending a King, then a discard by a simple rule:
   the highest non-King card (a King only when the hand holds nothing else) onto a side stack whose top is one
   higher or the same rank, else onto an empty side stack, else onto the stack whose top is nearest above it.

The search expands at most :data:`MAX_NODES` tables per plan (distinct tables only), so it never stalls; when the cap
cuts it short, it plays the best it has found. Its budget is work, never time, and it has no randomness: the same view
gives the same plan on any machine at any load.
"""

from __future__ import annotations

from collections import deque

from engine.bots.search import Work, _targets, distance, legal, table_ranks
from engine.bots.search import _play as _put
from engine.cards import KING
from engine.moves import DISCARDS, END_MOVE, HAND, HAND_PLAYS, PAYOFF, PAYOFF_PLAYS, SIDE_PLAYS, Move
from engine.state import PlayerView

MAX_NODES = 5000
"""Tables the breadth-first search expands per plan at most (a full turn rarely reaches a few hundred)."""

Ranks = tuple[int, ...]


_Node = tuple[Ranks, tuple[Ranks, ...], Ranks, tuple[Move, ...], int]
"""A table reached by plays to the center: the mover's hand and side stacks as ranks, the center lengths, the moves
there and the Kings they spent."""


def bfs_plan(view: PlayerView, max_nodes: int = MAX_NODES) -> list[Move]:
    """The bot's moves from `view`: up to its pay-off top's play if one is reachable, else the whole turn."""
    payoff = view.payoff_top.rank if view.payoff_top is not None else None
    hand, side, center = table_ranks(view.hand, view.side, view.center)
    rules = view.ruleset
    found, emptied, most, _ = _search(hand, side, center, payoff, rules.king_starts_center, rules.complete_at, max_nodes, True)
    if found is not None:
        return list(found)
    if emptied is not None:
        return [*emptied[3], END_MOVE]
    if not most[0]:
        return [*most[3], END_MOVE]
    return [*most[3], _discard(most[0], most[1])]


def payoff_line(
    hand: Ranks,
    side: tuple[Ranks, ...],
    center: Ranks,
    payoff: int,
    king_starts: bool,
    complete_at: int,
    max_nodes: int = MAX_NODES,
    work: Work | None = None,
) -> tuple[Move, ...] | None:
    """The line :func:`bfs_plan` plays to the pay-off top from this table (`hand` sorted), or None where it finds none.

    A quick count of the cards at hand first leaves out the tables from which no order of plays can reach it. The
    tables expanded are added to `work`.
    """
    if payoff != KING and not _may_reach(hand, side, center, payoff, complete_at):
        return None
    found, _, _, expanded = _search(hand, side, center, payoff, king_starts, complete_at, max_nodes, False)
    if work is not None:
        work.steps += expanded
    return found


def _may_reach(hand: Ranks, side: tuple[Ranks, ...], center: Ranks, payoff: int, complete_at: int) -> bool:
    """False only where no center stack can be brought to the card below `payoff`, every hand and side card playable."""
    have = [0] * 14
    for rank in hand:
        have[rank] += 1
    for pile in side:
        for rank in pile:
            have[rank] += 1
    for length in set(center):
        counts, wild, need = have[:], have[KING], length + 1
        for _ in range(distance(length, payoff, complete_at)):
            if counts[need]:
                counts[need] -= 1
            elif wild:
                wild -= 1
            else:
                break
            need = need + 1 if need < complete_at else 1  # a Queen completes the stack; an Ace starts the next
        else:
            return True
    return False


def _search(
    hand0: Ranks,
    side0: tuple[Ranks, ...],
    center0: Ranks,
    payoff: int | None,
    ks: bool,
    done: int,
    max_nodes: int,
    whole: bool,
) -> tuple[tuple[Move, ...] | None, _Node | None, _Node, int]:
    """The breadth-first search: the first line found that plays the pay-off top (a shortest one), and, if `whole`, the
    first table that empties a non-empty hand and the table of the longest line that spends no King; last, the tables
    it expanded."""
    # a node is (hand, side, center, moves, kings): plain tuples, as the search makes thousands of them per plan
    start: _Node = (hand0, side0, center0, (), 0)
    queue = deque([start])
    seen = {(hand0, side0, tuple(sorted(center0)))}
    emptied: _Node | None = None
    most = start
    expanded = 0

    def grow(
        hand: Ranks, side: tuple[Ranks, ...], center: Ranks, moves: tuple[Move, ...], kings: int, rank: int, plays: tuple[Move, ...]
    ) -> None:
        """Queue each new table that playing a card of `rank` (`plays[t]` onto stack t) leaves, with `hand` and `side` left."""
        k = kings + (rank == KING)
        for t in _fits(rank, center, ks):
            after = _put(center, t, done)
            key = (hand, side, tuple(sorted(after)))
            if key not in seen:
                seen.add(key)
                queue.append((hand, side, after, (*moves, plays[t]), k))

    while queue and expanded < max_nodes:
        node = queue.popleft()
        hand, side, center, moves, kings = node
        expanded += 1
        if payoff is not None:
            targets = _fits(payoff, center, ks)
            if targets:
                return (*moves, PAYOFF_PLAYS[targets[0]]), emptied, most, expanded  # breadth first: a shortest one
        if whole:
            if emptied is None and not hand and hand0:
                emptied = node
            if kings == 0 and len(moves) > len(most[3]):
                most = node
        for i, pile in enumerate(side):
            if pile:
                rank = pile[-1]
                rest = side[:i] + (pile[:-1],) + side[i + 1 :]
                grow(hand, rest, center, moves, kings, rank, SIDE_PLAYS[i])
        last = 0
        for j, rank in enumerate(hand):
            if rank == last:
                continue  # the hand is sorted: one child per distinct rank, from its first copy
            last = rank
            grow(hand[:j] + hand[j + 1 :], side, center, moves, kings, rank, HAND_PLAYS[rank])
    return None, emptied, most, expanded


def _fits(rank: int, center: Ranks, king_starts: bool) -> list[int] | tuple[int, ...]:
    """The center stacks `rank` may go on, as :func:`engine.bots.search._targets` gives them (the common case inline)."""
    if rank != KING:
        return (center.index(rank - 1),) if rank - 1 in center else ()
    return _targets(rank, center, king_starts)


def _discard(hand: Ranks, side: tuple[Ranks, ...]) -> Move:
    """The simple discard: the highest non-King card onto a stack one higher or alike, else an empty one, else the nearest above."""
    plain = [rank for rank in hand if rank != KING]
    rank = max(plain) if plain else KING
    for want in (rank + 1, rank):
        for i, pile in enumerate(side):
            if pile and pile[-1] == want:
                return DISCARDS[rank][i]
    for i, pile in enumerate(side):
        if not pile:
            return DISCARDS[rank][i]
    above = [(pile[-1] - rank if pile[-1] > rank else 100 + rank - pile[-1], i) for i, pile in enumerate(side)]
    return DISCARDS[rank][min(above)[1]]


class BfsBot:
    """Plans by breadth-first search (:func:`bfs_plan`) and replays the plan while the view is what the plan expects."""

    name = "bfs"

    def __init__(self, seed: int = 0, max_nodes: int = MAX_NODES) -> None:
        self.seed = seed  # the bot is deterministic; the seed is kept for a uniform interface
        self.max_nodes = max_nodes
        self._plan: list[Move] = []
        self._expect: tuple[int, int, int] | None = None

    def choose(self, view: PlayerView) -> Move:
        key = (view.turn, view.payoff_count, len(view.hand))
        if not (self._plan and key == self._expect and legal(view, self._plan[0])):
            self._plan = bfs_plan(view, self.max_nodes)
        move = self._plan.pop(0)
        self._expect = (view.turn, view.payoff_count - (move.source == PAYOFF), len(view.hand) - (move.source == HAND))
        return move
