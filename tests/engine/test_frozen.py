"""The values the engine hands out stay frozen dataclasses, however cheaply its hot paths build them."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable

import pytest

from engine._frozen import EARLY_CALLS, frozen_value, maker, mutable_value
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


def _stock_and_cheap(body: Callable[[], dict[str, object]], **options: bool) -> tuple[type, type]:
    """The class `body` makes, by dataclasses and by engine._frozen, with the same options (frozen or not, slots, order)."""
    frozen = options.pop("frozen", True)
    stock = dataclasses.dataclass(frozen=frozen, **options)(type("R", (), body()))
    if frozen:
        return stock, frozen_value(**options)(type("R", (), body()))
    return stock, mutable_value(slots=options.get("slots", True))(type("R", (), body()))


@pytest.mark.parametrize("slots", [True, False])
def test_a_changeable_value_is_the_record_dataclasses_makes(slots: bool) -> None:
    def body() -> dict[str, object]:
        return {
            "__annotations__": {"a": "int", "items": "list[int]", "seen": "int", "note": "str"},
            "items": dataclasses.field(default_factory=list),
            "seen": dataclasses.field(default=0, compare=False, repr=False),
            "note": dataclasses.field(init=False, default="-"),
        }

    stock, cheap = _stock_and_cheap(body, frozen=False, slots=slots)
    for cls in (stock, cheap):
        v = cls(1)
        assert (v.a, v.items, v.seen, v.note) == (1, [], 0, "-") and cls(1).items is not v.items
        v.items.append(2)
        v.a = 5  # a record changes
        assert v == cls(5, [2], seen=9) and v != cls(5) and cls.__hash__ is None
        assert dataclasses.replace(v, a=6).a == 6 and dataclasses.asdict(v) == {"a": 5, "items": [2], "seen": 0, "note": "-"}
        assert repr(v) == "R(a=5, items=[2], note='-')"
        assert [f.name for f in dataclasses.fields(cls)] == ["a", "items", "seen", "note"]
        assert ("__slots__" in cls.__dict__) is slots and cls.__match_args__ == ("a", "items", "seen")
        assert repr(cls.__dataclass_params__) == repr(stock.__dataclass_params__)
        with pytest.raises(TypeError):
            cls(1, note="x")  # type: ignore[call-arg]
    assert str(inspect.signature(cheap)) == str(inspect.signature(stock))


def test_an_ordered_value_sorts_as_the_stock_one_and_keeps_the_methods_it_defines() -> None:
    def body() -> dict[str, object]:
        return {"__annotations__": {"rank": "int", "suit": "str"}, "suit": "", "__str__": lambda self: f"{self.rank}{self.suit}"}

    stock, cheap = _stock_and_cheap(body, slots=True, order=True)
    for cls in (stock, cheap):
        cards = [cls(3, "s"), cls(1), cls(3, "h"), cls(12, "d")]
        assert [str(c) for c in sorted(cards)] == ["1", "3h", "3s", "12d"]
        assert cls(2) < cls(3) and cls(3) >= cls(3, "") and not cls(4) <= cls(3)
        with pytest.raises(TypeError):
            assert cls(2) < (3, "")
        assert repr(cls.__dataclass_params__) == repr(stock.__dataclass_params__)
    assert sorted([Card(5), Card(2, "s"), Card(2, "h")]) == [Card(2, "h"), Card(2, "s"), Card(5)]  # the engine's own
    assert repr(Card.parse("Qs")) == "Card.parse('Qs')"  # Card's own __repr__ kept


@pytest.mark.parametrize("make", [frozen_value, mutable_value])
def test_a_value_keeps_a_replace_of_its_own_as_dataclasses_keeps_it(make: Callable[[type], type]) -> None:
    @make
    class Own:
        a: int

        def __replace__(self, **changes: int) -> str:
            return "its own"

    @make
    class Plain:
        a: int

    assert Own(1).__replace__(a=2) == "its own"  # the class's method, not the one values are given
    assert Plain(1).__replace__(a=2) == Plain(2)  # the one values are given, where a class has none


def test_a_value_compiles_its_constructor_only_when_first_needed_and_its_signature_is_there_before() -> None:
    @frozen_value
    class Late:
        a: int
        b: str = "x"

    assert Late.__init__.__name__ == "stub"  # not compiled yet
    assert list(inspect.signature(Late).parameters) == ["a", "b"]  # asking for it compiles __init__ ...
    assert Late.__init__.__name__ == "__init__" and Late(1) == Late(1, "x")  # ... which constructs from then on

    class Sub(Late):
        def __init__(self, n: int) -> None:
            super().__init__(n, "sub")

    assert list(inspect.signature(Sub).parameters) == ["n"] and Sub(2).b == "sub"  # a subclass's own __init__ is its signature

    @frozen_value
    class Fresh:
        a: int

    class Before(Fresh):
        pass

    assert Before(3).a == 3 and Fresh(4).a == 4  # a subclass met first compiles its base's __init__, for both
    with pytest.raises(TypeError):
        Fresh()  # type: ignore[call-arg]


def test_a_value_refuses_what_dataclasses_refuses() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        frozen_value(type("Bad", (), {"__annotations__": {"a": "int", "b": "int"}, "a": 1}))
    with pytest.raises(ValueError, match="mutable default"):
        mutable_value(type("Bad", (), {"__annotations__": {"a": "list[int]"}, "a": []}))
    made = frozen_value(type("Kinds", (), {"__annotations__": {"a": "int", "K": "ClassVar[int]"}, "K": 7}))
    assert [f.name for f in dataclasses.fields(made)] == ["a"] and made.K == 7 and made(1).a == 1


@pytest.mark.parametrize("slots", [True, False])
@pytest.mark.parametrize("frozen", [True, False])
def test_a_value_built_before_its_init_is_compiled_is_the_one_built_after(slots: bool, frozen: bool) -> None:
    def body() -> dict[str, object]:
        return {
            "__annotations__": {"a": "int", "b": "int", "c": "list[int]", "d": "str", "e": "int"},
            "c": dataclasses.field(default_factory=list),
            "d": "d",
            "e": dataclasses.field(init=False, default=5),
            "__post_init__": lambda self: None if self.a >= 0 else (_ for _ in ()).throw(ValueError("negative")),
        }

    stock, cheap = _stock_and_cheap(body, frozen=frozen, slots=slots)
    calls: list[tuple[tuple[object, ...], dict[str, object]]] = [
        ((1, 2), {}),
        ((1,), {"b": 2, "d": "x"}),
        ((), {"a": 1, "b": 2, "c": [3]}),
        ((1, 2, [3], "y"), {}),
        ((-1, 2), {}),  # __post_init__ refuses it
        ((1,), {}),  # b missing
        ((), {}),  # a and b missing
        ((1, 2, [], "d", 9), {}),  # too many
        ((1, 2), {"a": 1}),  # a twice
        ((1, 2), {"e": 1}),  # not a parameter
    ]

    def outcome(cls: type, args: tuple[object, ...], kwargs: dict[str, object]) -> object:
        try:
            made = cls(*args, **kwargs)
        except (TypeError, ValueError) as e:
            return type(e), str(e).replace(cls.__qualname__, "R") if "missing" in str(e) or "keyword" in str(e) else ""
        return dataclasses.astuple(made)

    early = [outcome(cheap, args, kwargs) for args, kwargs in calls]  # the first EARLY_CALLS constructions ...
    assert len(calls) > EARLY_CALLS
    later = [outcome(cheap, args, kwargs) for args, kwargs in calls]  # ... and the compiled __init__'s
    assert cheap.__init__.__name__ == "__init__"
    assert early == later == [outcome(stock, args, kwargs) for args, kwargs in calls]
    assert early[0] == (1, 2, [], "d", 5) and early[5][0] is TypeError and early[4][0] is ValueError
