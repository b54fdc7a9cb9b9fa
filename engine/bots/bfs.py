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
    tables expanded are added to `work`, also where the line of a table met before is given again (the lines found are
    kept: the rollouts of one plan meet the same tables).
    """
    key = (hand, side, center, payoff, king_starts, complete_at, max_nodes)
    known = _LINES.get(key)
    if known is None:
        if payoff != KING and not _may_reach(hand, side, center, payoff, complete_at):
            known = (None, 0)
        else:
            found, _, _, expanded = _search(hand, side, center, payoff, king_starts, complete_at, max_nodes, False)
            known = (found, expanded)
        if len(_LINES) >= _LINES_MOST:
            _LINES.clear()
        _LINES[key] = known
    if work is not None:
        work.steps += known[1]  # a table met again counts its search again: the work is the same on any machine
    return known[0]


_LINES: dict[tuple[object, ...], tuple[tuple[Move, ...] | None, int]] = {}
_LINES_MOST = 5_000
"""Tables whose line to the pay-off card is kept, ~0.7 KB each (the rollouts of one plan, a few hundred searches, meet
the same tables again); past it the table starts afresh."""


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
    """The breadth-first search: the first line found that plays the pay-off top (a shortest one), and, if `whole` and
    none is found, the first table that empties a non-empty hand and the table of the longest line that spends no King;
    last, the tables it expanded (where a line is found: as many as a search that takes each table from the queue in
    turn expands before it comes to the line's)."""
    # a node is (hand, heights, center, moves, kings): plain tuples, as the search makes thousands of them per plan. Side
    # stacks only lose their tops here, so the heights of the stacks stand for them (short keys, quick to hash); what a
    # card does to a center is looked up (_children), not worked out again for each table
    heights0 = tuple(map(len, side0))
    start: _Reached = (hand0, heights0, center0, (), 0)
    queue = deque([start])
    seen = {(hand0, heights0, tuple(sorted(center0)))}
    emptied: _Reached | None = None
    most = start
    expanded = 0
    known = _children(ks, done)
    add, push, pop = seen.add, queue.append, queue.popleft
    side_plays, hand_plays, king = SIDE_PLAYS, HAND_PLAYS, KING
    piles = tuple(enumerate(side0))
    ahead = payoff is not None  # each new table is looked at for the pay-off card as it is queued (_ahead)
    goal = payoff or 0
    below = goal - 1 if goal != KING else -1  # a center with a stack of this length takes the card (-1: ask _ahead)
    begin: _Node = (hand0, side0, center0, (), 0)  # what a search that finds a line, or is not `whole`, gives for `most`
    while queue and expanded < max_nodes:
        node = pop()
        hand, heights, center, moves, kings = node
        expanded += 1
        kids = known.get(center)
        if kids is None:
            kids = _kids(center, ks, done, known)
        if payoff is not None:
            fits = kids[payoff]
            if fits:
                return (*moves, PAYOFF_PLAYS[fits[0][0]]), None, begin, expanded  # breadth first: a shortest one
        if whole:
            if emptied is None and not hand and hand0:
                emptied = node
            if kings == 0 and len(moves) > len(most[3]):
                most = node
        for i, pile in piles:
            h = heights[i]
            if h:
                rank = pile[h - 1]
                fits = kids[rank]
                if fits:
                    rest = heights[:i] + (h - 1,) + heights[i + 1 :]
                    k = kings + (rank == king)
                    plays = side_plays[i]
                    for t, after, key in fits:
                        size = len(seen)
                        add((hand, rest, key))  # one hashing of the key, not two
                        if len(seen) != size:
                            child = (hand, rest, after, (*moves, plays[t]), k)
                            if ahead and (below < 0 or below in after):
                                seen_to = _ahead(child, goal, queue, expanded, max_nodes, known, ks, done)
                                if seen_to is not None:
                                    if seen_to[0] is not None or not whole:
                                        return seen_to[0], None, begin, seen_to[1]
                                    ahead = False  # the cap comes first: search on as before, which never reaches it
                            push(child)
        last = 0
        for j, rank in enumerate(hand):
            if rank == last:
                continue  # the hand is sorted: one child per distinct rank, from its first copy
            last = rank
            fits = kids[rank]
            if fits:
                rest = hand[:j] + hand[j + 1 :]
                k = kings + (rank == king)
                plays = hand_plays[rank]
                for t, after, key in fits:
                    size = len(seen)
                    add((rest, heights, key))
                    if len(seen) != size:
                        child = (rest, heights, after, (*moves, plays[t]), k)
                        if ahead and (below < 0 or below in after):
                            seen_to = _ahead(child, goal, queue, expanded, max_nodes, known, ks, done)
                            if seen_to is not None:
                                if seen_to[0] is not None or not whole:
                                    return seen_to[0], None, begin, seen_to[1]
                                ahead = False
                        push(child)
    if not whole:
        return None, None, begin, expanded
    return None, emptied and _with_side(emptied, side0), _with_side(most, side0), expanded


_Reached = tuple[Ranks, Ranks, Ranks, tuple[Move, ...], int]
"""A node as the search keeps it: the side stacks as their heights (see :data:`_Node`)."""


def _ahead(
    child: _Reached, payoff: int, queue: deque[_Reached], expanded: int, max_nodes: int, known: dict[Ranks, _Kids], ks: bool, done: int
) -> tuple[tuple[Move, ...] | None, int] | None:
    """What the search will come to if `child`, about to be queued behind `queue`, lets the pay-off card play: the line
    and the tables expanded when it is taken from the queue (no table ahead of it does: each was looked at as it was
    queued), or None and `max_nodes` if the cap comes first; None where the card does not fit on `child`'s center.

    The same answer and count as expanding every table ahead of it, without expanding them."""
    kids = known.get(child[2])
    if kids is None:
        kids = _kids(child[2], ks, done, known)
    fits = kids[payoff]
    if not fits:
        return None
    taken = expanded + len(queue) + 1
    if taken > max_nodes:
        return None, max_nodes
    return (*child[3], PAYOFF_PLAYS[fits[0][0]]), taken


def _with_side(node: _Reached, side0: tuple[Ranks, ...]) -> _Node:
    """A node of the search with its side stacks again (each of `side0` cut to its height)."""
    hand, heights, center, moves, kings = node
    return hand, tuple(pile[:h] for pile, h in zip(side0, heights, strict=True)), center, moves, kings


_Kids = list[tuple[tuple[int, Ranks, Ranks], ...]]
"""By rank (index 0 unused): each center stack a card of that rank may go on, as :func:`_fits` gives them, with the
center after it and that center sorted (the search's key: stacks of equal length are alike)."""

_KNOWN: dict[tuple[bool, int], dict[Ranks, _Kids]] = {}
_KNOWN_MOST = 100_000
"""Centers whose children are kept (a ruleset's 3 stacks of 0-11 cards have 1,728); past it the table starts afresh."""


def _children(ks: bool, done: int) -> dict[Ranks, _Kids]:
    """The centers' children looked up so far under these rules."""
    known = _KNOWN.get((ks, done))
    if known is None or len(known) > _KNOWN_MOST:
        known = _KNOWN[(ks, done)] = {}
    return known


def _kids(center: Ranks, ks: bool, done: int, known: dict[Ranks, _Kids]) -> _Kids:
    """The children of `center` by rank (:data:`_Kids`), kept in `known`."""
    kids: _Kids = [()]
    for rank in range(1, KING + 1):
        kids.append(tuple((t, after, tuple(sorted(after))) for t in _fits(rank, center, ks) for after in (_put(center, t, done),)))
    known[center] = kids
    return kids


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
