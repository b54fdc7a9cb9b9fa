"""benchmarks/screen_level.py: the variant it screens is the base level with only the named fields and weights changed."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

import engine.arena
from engine.bots.expert import LEVELS
from engine.bots.heuristics import Context, prospect
from engine.dealer import LocalDealer
from engine.game import new_game
from engine.rules import G4A
from engine.state import PlayerView

SPEC = importlib.util.spec_from_file_location("screen_level", Path(__file__).resolve().parents[2] / "benchmarks" / "screen_level.py")
assert SPEC is not None and SPEC.loader is not None
screen_level = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(screen_level)


def test_a_variant_changes_only_what_it_names() -> None:
    expert, old = LEVELS["expert"], LEVELS["expert-1"]
    weights = {f.name: getattr(expert.weights, f.name) for f in dataclasses.fields(expert.weights)}
    assert screen_level.variant_of(old, {"weights": weights}, name="expert") == expert  # expert-1 with today's weights
    variant = screen_level.variant_of(expert, {"static": 1.6, "weights": {"bury": 0.4}})
    assert variant.name == "variant" and variant.static == 1.6 and variant.weights.bury == 0.4
    assert dataclasses.replace(variant, name="expert", static=expert.static, weights=expert.weights) == expert


@pytest.mark.parametrize(
    "changes",
    [
        {"bogus": 1},
        {"name": "x"},
        {"weights": {"x": 1}},
        {"weights": 3},
        {"static": "x"},
        {"samples": 1.5},
        {"candidates": -1},
        {"fear": True},
    ],
)
def test_a_variant_refuses_what_is_not_a_level_field_or_not_a_number_in_range(changes: dict) -> None:
    with pytest.raises(ValueError):
        screen_level.variant_of(LEVELS["expert"], changes)


def test_prospect_knowing_the_draws_is_whether_the_next_turn_reaches_the_card() -> None:
    ctx = Context(unseen=[0] + [8] * 13, my_top=5, opp_top=None, opp_tops=[0] * 14, opp_draws=5, hand_size=5, complete_at=12)
    center, side = (3, 0, 0), ((), (), (), ())
    guess = prospect(ctx, center, (), side)
    assert 0.0 < guess < 1.0  # a fair judgement only guesses
    assert prospect(dataclasses.replace(ctx, draws=(4, 9, 9, 9, 9, 4)), center, (), side) == 1.0  # the 4 comes
    assert prospect(dataclasses.replace(ctx, draws=(9, 9, 9, 9, 9, 4)), center, (), side) == 0.0  # it comes a draw too late
    assert prospect(dataclasses.replace(ctx, draws=(4,)), center, (9, 9, 9, 9), side) == 1.0  # four kept: one drawn
    assert prospect(dataclasses.replace(ctx, draws=(4,)), center, (9, 9, 9, 9, 9), side) == 0.0  # a full hand draws none


def test_the_ceiling_reads_the_draws_that_follow_the_opponents(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, screen_level.VARIANT, screen_level.variant_of(LEVELS["expert"], screen_level.ALONE))
    # recorded first, so that what let_variant_see_draws replaces in the arena is put back after the test
    monkeypatch.setattr(engine.arena, "make_bot", engine.arena.make_bot)
    monkeypatch.setattr(engine.arena, "show_own_piles", engine.arena.show_own_piles)
    with pytest.raises(RuntimeError, match="given the stock"):
        screen_level.DrawsSeer().plan(new_game(LocalDealer(1), G4A).view(0))
    seen: list[tuple[PlayerView, tuple[int, ...], tuple[int, ...] | None]] = []
    context = screen_level.DrawsSeer._context

    def spy(bot: screen_level.DrawsSeer, view: PlayerView) -> Context:
        ctx = context(bot, view)
        assert bot.stock is not None
        seen.append((view, tuple(card.rank for card in reversed(bot.stock())), ctx.draws))
        return ctx

    monkeypatch.setattr(screen_level.DrawsSeer, "_context", spy)
    screen_level.let_variant_see_draws()
    result = engine.arena.play_arena_game((screen_level.VARIANT, "expert-1"), seed=0, number=0)
    assert result.turns > 0 and len(seen) > 10  # the ceiling planned many times in a whole game
    for view, stock, draws in seen:
        assert draws == stock[G4A.hand_size - view.opponent.hand_count :]  # the opponent draws first
