"""Invariants over random seeded games: cards conserved, moves legal, views hiding what they must, replay exact."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import make_bot
from engine.cards import RANK_TEXT, Card, full_deck
from engine.dealer import LocalDealer
from engine.game import apply, check_move, legal_moves, new_game
from engine.moves import IllegalMoveError, Move
from engine.rules import Ruleset
from engine.state import GameState, OpponentView, Outcome, PlayerView, Reason

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MAX_MOVES = 3000
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
BOTS = st.sampled_from(["random", "greedy"])

# every move the notation can write, including stacks the ruleset does not have
CANDIDATES = [Move.parse("end")] + [
    Move.parse(f"{source}-{target}")
    for source in ["p", *(f"s{i}" for i in range(1, 6)), *RANK_TEXT.values()]
    for target in [*(f"c{i}" for i in range(1, 5)), *(f"s{i}" for i in range(1, 6))]
]


def physical_cards(state: GameState, dealer: LocalDealer) -> list[Card]:
    """Every card of the game wherever it lies: hands, pay-off piles, side and center stacks, pools, stock."""
    out: list[Card] = [*dealer.stock, *dealer.facedown[0], *dealer.facedown[1]]
    for p in state.players:
        out += p.hand
        out += [p.payoff_top] if p.payoff_top is not None else []
        out += [c for stack in p.side for c in stack]
    out += [c for stack in state.center for c in stack]
    out += [c for pool in state.pools for c in pool.cards]
    return out


def check_conserved(state: GameState, dealer: LocalDealer) -> None:
    assert sorted(physical_cards(state, dealer)) == sorted(full_deck(state.ruleset.decks))
    assert state.stock_count == len(dealer.stock)
    for p, player in enumerate(state.players):
        assert player.unseen == 0
        assert player.payoff_count == (len(dealer.facedown[p]) + 1 if player.payoff_top is not None else 0)
    assert all(len(stack) < state.ruleset.complete_at for stack in state.center)
    # R12: a pool is either completed in this turn or in the last one, and is merged after that
    assert all(pool.turn in (state.turn - 1, state.turn) and len(pool.cards) == state.ruleset.complete_at for pool in state.pools)


VIEW_TYPES = (PlayerView, OpponentView, Ruleset, Card, Outcome, Reason, tuple, int, str, bool, type(None))


def reachable(obj: object) -> Iterator[object]:
    """Every object reachable from `obj` through dataclass fields and tuples."""
    yield obj
    if isinstance(obj, tuple):
        for item in obj:
            yield from reachable(item)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, (Card, enum.Enum)):
        for field in dataclasses.fields(obj):
            yield from reachable(getattr(obj, field.name))


def check_view(state: GameState, dealer: LocalDealer, player: int) -> None:
    """The view holds only cards `player` may see, and nothing that leads to the state or the dealer."""
    view = state.view(player)
    assert not hasattr(view, "__dict__") and not hasattr(view.opponent, "__dict__")  # no attribute beyond the fields
    objects = list(reachable(view))
    assert all(isinstance(o, VIEW_TYPES) for o in objects), {type(o) for o in objects} - set(VIEW_TYPES)
    seen = {o for o in objects if isinstance(o, Card)}
    me, them = state.players[player], state.players[1 - player]
    may_see = {*me.hand, *(c for s in me.side for c in s), *(c for s in them.side for c in s)}
    may_see |= {c for s in state.center for c in s} | {c for pool in state.pools for c in pool.cards}
    may_see |= {p.payoff_top for p in state.players if p.payoff_top is not None}
    assert seen <= may_see
    assert not seen & {*them.hand, *dealer.stock, *dealer.facedown[0], *dealer.facedown[1]}
    assert view.opponent.hand_count == len(them.hand)


def check_legal_moves_match_apply(state: GameState, dealer: LocalDealer) -> None:
    """legal_moves lists exactly the moves apply and check_move accept."""
    listed = set(legal_moves(state))
    accepted = set()
    for move in CANDIDATES:
        try:
            apply(state, move, LocalDealer.holding(dealer.stock, dealer.facedown))  # a fresh copy: apply may draw
        except IllegalMoveError:
            with pytest.raises(IllegalMoveError):
                check_move(state.view(state.to_move), move)
            continue
        check_move(state.view(state.to_move), move)
        accepted.add(move)
    assert accepted == listed


def play(seed: int, starter: int, choose, check_every: int = 0) -> tuple[list[GameState], list[Move]]:
    """Play one game from `seed`, checking the invariants after every move; returns the states and moves."""
    dealer = LocalDealer(seed)
    state = new_game(dealer, starter=starter)
    states, moves = [state], []
    check_conserved(state, dealer)
    while state.outcome is None and len(moves) < MAX_MOVES:
        if check_every and len(moves) % check_every == 0:
            check_legal_moves_match_apply(state, dealer)
        move = choose(state)
        assert move in legal_moves(state.view(state.to_move))
        state = apply(state, move, dealer)
        check_conserved(state, dealer)
        check_view(state, dealer, 0)
        check_view(state, dealer, 1)
        states.append(state)
        moves.append(move)
    return states, moves


def replay(seed: int, starter: int, moves: list[Move]) -> list[GameState]:
    dealer = LocalDealer(seed)
    states = [new_game(dealer, starter=starter)]
    for move in moves:
        states.append(apply(states[-1], move, dealer))
    return states


@FAST
@given(seed=SEEDS, starter=st.integers(0, 1), names=st.tuples(BOTS, BOTS))
def test_bot_games_keep_every_invariant_and_replay_exactly(seed: int, starter: int, names: tuple[str, str]) -> None:
    bots = (make_bot(names[0], seed), make_bot(names[1], seed + 1))
    states, moves = play(seed, starter, lambda s: bots[s.to_move].choose(s.view(s.to_move)), check_every=25)
    assert states[-1].outcome is not None
    assert replay(seed, starter, moves) == states


@FAST
@given(seed=SEEDS, starter=st.integers(0, 1), data=st.data())
def test_moves_chosen_by_hypothesis_keep_every_invariant(seed: int, starter: int, data: st.DataObject) -> None:
    picks = iter(data.draw(st.lists(st.integers(0, 200), min_size=150, max_size=150)))  # then the first legal move

    def choose(state: GameState) -> Move:
        options = legal_moves(state)
        return options[next(picks, 0) % len(options)]

    states, moves = play(seed, starter, choose, check_every=10)
    assert states[-1].outcome is not None
    assert replay(seed, starter, moves) == states


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(seed=SEEDS, starter=st.integers(0, 1), names=st.tuples(BOTS, BOTS))
def test_many_bot_games_keep_every_invariant(seed: int, starter: int, names: tuple[str, str]) -> None:
    test_bot_games_keep_every_invariant_and_replay_exactly.hypothesis.inner_test(seed, starter, names)
