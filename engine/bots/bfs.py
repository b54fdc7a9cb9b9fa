"""A breadth-first-search bot of the kind open-source Skip-Bo games ship: a yardstick for the expert, not a level.

The expert's rollouts also let it play the expert's own next turn (engine.bots.expert.Level.follow).

Each plan is a breadth-first search over the sequences of plays to the center from the hand, the pay-off top and the
side-stack tops, seen from the bot's PlayerView only. The plan is, in this order:

1. the shortest sequence that plays the pay-off top (the pile's last card empties it and wins);
2. else the shortest sequence that empties the hand (then ``end``);
3. else the sequence that plays the most cards without spending a King, then a discard by a simple rule:
   the highest non-King card (a King only when the hand holds nothing else) onto a side stack whose top is one
   higher or the same rank, else onto an empty side stack, else onto the stack whose top is nearest above it.

The search expands at most :data:`MAX_NODES` tables per plan (distinct tables only), so it never stalls; when the cap
cuts it short, it plays the best it has found. It has no randomness: the same view gives the same plan.
"""

from __future__ import annotations

from collections import deque

from engine._frozen import frozen_value
from engine.bots.search import _play as _put
from engine.bots.search import _targets, legal
from engine.cards import KING
from engine.moves import DISCARDS, END_MOVE, HAND, HAND_PLAYS, PAYOFF, PAYOFF_PLAYS, SIDE_PLAYS, Move
from engine.state import PlayerView

MAX_NODES = 5000
"""Tables the breadth-first search expands per plan at most (a full turn rarely reaches a few hundred)."""

Ranks = tuple[int, ...]


@frozen_value
class _Node:
    """A table reached by plays to the center: the mover's hand and side stacks as ranks, the center lengths."""

    hand: Ranks
    side: tuple[Ranks, ...]
    center: Ranks
    moves: tuple[Move, ...]
    kings: int


def bfs_plan(view: PlayerView, max_nodes: int = MAX_NODES) -> list[Move]:
    """The bot's moves from `view`: up to its pay-off top's play if one is reachable, else the whole turn."""
    ks, done = view.ruleset.king_starts_center, view.ruleset.complete_at
    payoff = view.payoff_top.rank if view.payoff_top is not None else None
    start = _Node(
        tuple(sorted(card.rank for card in view.hand)),
        tuple(tuple(card.rank for card in pile) for pile in view.side),
        tuple(len(stack) for stack in view.center),
        (),
        0,
    )
    queue = deque([start])
    seen = {(start.hand, start.side, tuple(sorted(start.center)))}
    emptied: _Node | None = None
    most = start
    expanded = 0
    while queue and expanded < max_nodes:
        node = queue.popleft()
        expanded += 1
        if payoff is not None:
            targets = _targets(payoff, node.center, ks)
            if targets:
                return [*node.moves, PAYOFF_PLAYS[targets[0]]]  # breadth first: the first found is a shortest one
        if emptied is None and not node.hand and view.hand:
            emptied = node
        if node.kings == 0 and len(node.moves) > len(most.moves):
            most = node
        children: list[_Node] = []
        for i, pile in enumerate(node.side):
            if pile:
                rank = pile[-1]
                rest = node.side[:i] + (pile[:-1],) + node.side[i + 1 :]
                k = node.kings + (rank == KING)
                for t in _targets(rank, node.center, ks):
                    children.append(_Node(node.hand, rest, _put(node.center, t, done), (*node.moves, SIDE_PLAYS[i][t]), k))
        for rank in sorted(set(node.hand)):
            j = node.hand.index(rank)
            rest_hand = node.hand[:j] + node.hand[j + 1 :]
            k = node.kings + (rank == KING)
            for t in _targets(rank, node.center, ks):
                children.append(_Node(rest_hand, node.side, _put(node.center, t, done), (*node.moves, HAND_PLAYS[rank][t]), k))
        for child in children:
            key = (child.hand, child.side, tuple(sorted(child.center)))
            if key not in seen:
                seen.add(key)
                queue.append(child)
    if emptied is not None:
        return [*emptied.moves, END_MOVE]
    if not most.hand:
        return [*most.moves, END_MOVE]
    return [*most.moves, _discard(most.hand, most.side)]


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
