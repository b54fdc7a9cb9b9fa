"""The engine's speed benchmarks run and say what they measure: greedy self-play on ranks against the reference, and the
expert's think CPU with a digest of its games (a checkout against itself plays the same games)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "bench" / "minimal_sim.py"


@pytest.mark.skipif(not REFERENCE.is_file(), reason="the reference simulation lies outside this checkout")
def test_engine_speed_times_ranks_frozen_states_and_the_reference() -> None:
    args = [sys.executable, "benchmarks/engine_speed.py", "--games", "3", "--rounds", "1"]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["engine_turns_per_s"] > 0 and result["frozen_turns_per_s"] > 0 and result["target_ratio"] == 1.5


def test_think_speed_finds_a_checkout_plays_the_same_games_as_itself() -> None:
    args = [sys.executable, "benchmarks/think_speed.py", "--games", "1", "--rounds", "1", "--baseline", str(ROOT)]
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["same_games"] is True and result["this"]["plans"] == result["baseline"]["plans"] > 0
