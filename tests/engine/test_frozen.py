"""The values the engine hands out stay frozen dataclasses, however cheaply its hot paths build them."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from engine._frozen import frozen_value, maker
from engine.bots.greedy import GreedyBot
from engine.cards import Card, CardNotationError
from engine.dealer import Draw, LocalDealer
from engine.game import apply, new_game
from engine.moves import Move
from engine.rules import G4A
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


def _pair(slots: bool) -> tuple[type, type]:
    """The same class made by dataclasses and by frozen_value."""

    def body() -> dict[str, object]:
        return {"__annotations__": {"a": "int", "b": "str", "c": "tuple[int, ...]"}, "b": "x", "c": (), "__doc__": "A value."}

    return dataclasses.dataclass(frozen=True, slots=slots)(type("V", (), body())), frozen_value(slots=slots)(type("V", (), body()))


@pytest.mark.parametrize("slots", [True, False])
def test_frozen_value_makes_the_frozen_dataclass_that_dataclasses_makes(slots: bool) -> None:
    import copy
    import pickle

    stock, cheap = _pair(slots)
    for cls in (stock, cheap):
        v = cls(1)
        assert (v.a, v.b, v.c) == (1, "x", ())
        assert v == cls(1, "x") and v != cls(2) and v != (1, "x", ()) and hash(v) == hash(cls(1))
        assert dataclasses.replace(v, b="y") == cls(1, "y") and dataclasses.astuple(v) == (1, "x", ())
        assert copy.deepcopy(v) == v and copy.copy(v) == v
        for change, args in ((setattr, ("a", 2)), (delattr, ("a",)), (setattr, ("other", 1))):
            with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
                change(v, *args)
        assert v.a == 1
        assert cls.__dataclass_params__.frozen and [f.name for f in dataclasses.fields(cls)] == ["a", "b", "c"]
    assert repr(cheap(1)) == repr(stock(1)) == "V(a=1, b='x', c=())"
    assert hash(cheap(1, "y", (2,))) == hash(stock(1, "y", (2,)))
    assert inspect.signature(cheap) == inspect.signature(stock)
    assert cheap.__match_args__ == stock.__match_args__ and ("__slots__" in cheap.__dict__) is slots
    assert pickle.loads(pickle.dumps(G4A)) == G4A  # a frozen_value of the engine's, pickled and read back


def test_frozen_value_runs_post_init_and_leaves_a_field_spec_to_dataclasses() -> None:
    @frozen_value
    class Checked:
        n: int

        def __post_init__(self) -> None:
            if self.n < 0:
                raise ValueError("negative")

    with pytest.raises(ValueError, match="negative"):
        Checked(-1)

    @frozen_value
    class Listed:
        items: list[int] = dataclasses.field(default_factory=list)

    assert Listed() == Listed([]) and Listed().items is not Listed().items


@pytest.mark.parametrize("annotations", [{}, {"a": "int"}, {"a": "int", "b": "str"}])
def test_a_value_of_no_field_or_one_hashes_compares_and_shows_as_the_stock_one(annotations: dict[str, str]) -> None:
    stock = dataclasses.dataclass(frozen=True, slots=True)(type("W", (), {"__annotations__": dict(annotations), "__doc__": "W."}))
    cheap = frozen_value(type("W", (), {"__annotations__": dict(annotations), "__doc__": "W."}))
    args = list(range(len(annotations)))
    assert hash(cheap(*args)) == hash(stock(*args)) and repr(cheap(*args)) == repr(stock(*args))
    assert cheap(*args) == cheap(*args) and (cheap(*args) == stock(*args)) is False
    if args:
        assert cheap(*args) != cheap(*[a + 1 for a in args])
    assert inspect.signature(cheap) == inspect.signature(stock)
