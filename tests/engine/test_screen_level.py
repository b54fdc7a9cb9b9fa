"""benchmarks/screen_level.py: the variant it screens is the base level with only the named fields and weights changed."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

from engine.bots.expert import LEVELS

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
