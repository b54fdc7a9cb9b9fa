"""The values the engine hands out stay frozen dataclasses, however cheaply its hot paths build them."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from engine._frozen import maker
from engine.bots.greedy import GreedyBot
from engine.cards import Card, CardNotationError
from engine.dealer import Draw, LocalDealer
from engine.game import apply, new_game
from engine.moves import Move
from engine.state import GameState, OpponentView, Outcome, PlayerState, PlayerView, Pool


def _values_of_a_game() -> list[object]:
    """Every state, player, view and opponent view of one greedy game, as apply and view hand them out."""
    dealer, bot = LocalDealer(5), GreedyBot()
    state = new_game(dealer)
    found: list[object] = []
    while state.outcome is None:
        view = state.view(state.to_move)
        found += [state, *state.players, view, view.opponent]
        state = apply(state, bot.choose(view), dealer)
    return found


def test_what_apply_and_view_hand_out_is_frozen_and_of_its_own_class() -> None:
    values = _values_of_a_game()
    assert {type(v) for v in values} == {GameState, PlayerState, PlayerView, OpponentView}
    for value in values[:200]:
        assert not hasattr(value, "__dict__")
        field = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)
        copy = dataclasses.replace(value)  # type: ignore[type-var]
        assert copy == value and hash(copy) == hash(value) and repr(copy) == repr(value)


def test_the_constructors_keep_their_parameters_defaults_and_checks() -> None:
    assert list(inspect.signature(Outcome).parameters) == ["reason", "winner", "points"]
    assert Draw(()).unseen == 0 and Move("end").target == ""
    assert PlayerState((), None, 0, ()) == PlayerState(hand=(), payoff_top=None, payoff_count=0, side=(), unseen=0)
    with pytest.raises(CardNotationError):
        Card(14)
    with pytest.raises(TypeError):
        Pool(1)  # type: ignore[call-arg]


def test_a_private_constructor_refuses_a_class_that_checks_its_fields() -> None:
    with pytest.raises(TypeError, match="__post_init__"):
        maker(Card)
