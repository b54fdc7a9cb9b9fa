#!/usr/bin/env python3
"""Engine speed against the reference minimal simulation, measured in the same run on one core.

Plays greedy-vs-greedy games through the engine's play_game, which plays them on ranks (engine.core: typed moves,
every move checked against the rules, each bot shown its own cards), and through ``minimal_sim.py`` (plain rank lists,
no checks), in alternating rounds, and prints the median turns per second of each and their ratio (target:
engine/reference >= 1.5). The same games on engine.game's frozen states (a new state and a view per move, what play by
mail uses) are timed too, for comparison. Time is the process's CPU time, so the moments another process holds the core
count for neither side:

    python benchmarks/engine_speed.py --games 300 --rounds 5
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from engine.bots.greedy import GreedyBot
from engine.dealer import LocalDealer
from engine.play import play_game

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REFERENCE = ROOT.parent / "shared" / "bench" / "minimal_sim.py"
TARGET_RATIO = 1.5


def load_reference(path: Path) -> ModuleType:
    """The reference script as a module; it must offer ``play(seed) -> (result, turns)``."""
    spec = importlib.util.spec_from_file_location("minimal_sim", path)
    if spec is None or spec.loader is None or not path.is_file():
        raise SystemExit(f"engine_speed: cannot load the reference simulation {str(path)!r}; pass --reference PATH")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "play", None)):
        raise SystemExit(f"engine_speed: {str(path)!r} has no play(seed) function")
    return module


class FrozenGreedy:
    """Greedy that chooses from views only: play_game keeps its games on engine.game's frozen states."""

    name = "greedy"

    def __init__(self) -> None:
        self.choose = GreedyBot().choose


def engine_round(games: int, seed: int, frozen: bool = False) -> tuple[int, float]:
    """Turns played and CPU seconds taken by `games` greedy-vs-greedy engine games, starters alternating; on frozen
    states if `frozen`, else on ranks."""
    turns = 0
    start = time.process_time()
    for i in range(games):
        bots = (FrozenGreedy(), FrozenGreedy()) if frozen else (GreedyBot(), GreedyBot())
        played = play_game(bots, LocalDealer(seed * 1_000_003 + i), starter=i % 2)  # type: ignore[arg-type]
        turns += played.turns
    return turns, time.process_time() - start


def reference_round(module: ModuleType, games: int, seed: int) -> tuple[int, float]:
    """Turns played and CPU seconds taken by `games` games of the reference simulation."""
    turns = 0
    start = time.process_time()
    for i in range(games):
        _, n = module.play(seed * 1_000_003 + i)
        turns += n
    return turns, time.process_time() - start


def pin_to_one_core() -> int | None:
    """Run on a single core (the first one allowed), so both sides meet the same machine."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


def measure(games: int, rounds: int, seed: int, reference: ModuleType) -> dict[str, object]:
    """Alternate engine, reference and frozen-state rounds (the order flips each round) and summarise the rates."""
    rates: dict[str, list[float]] = {"engine": [], "reference": [], "frozen": []}
    runs: dict[str, Callable[[int], tuple[int, float]]] = {
        "engine": lambda r: engine_round(games, seed + r),
        "reference": lambda r: reference_round(reference, games, seed + r),
        "frozen": lambda r: engine_round(games, seed + r, frozen=True),
    }
    for r in range(rounds):
        order = ("engine", "reference", "frozen") if r % 2 == 0 else ("frozen", "reference", "engine")
        for name in order:
            turns, seconds = runs[name](r)
            rates[name].append(turns / seconds)
    engine, ref, frozen = (statistics.median(rates[name]) for name in ("engine", "reference", "frozen"))
    return {
        "games_per_round": games,
        "rounds": rounds,
        "engine_turns_per_s": round(engine),
        "reference_turns_per_s": round(ref),
        "frozen_turns_per_s": round(frozen),
        "ratio": round(engine / ref, 3),
        "frozen_ratio": round(frozen / ref, 3),
        "target_ratio": TARGET_RATIO,
        "clock": "process CPU time",
        "engine_rounds": [round(x) for x in rates["engine"]],
        "reference_rounds": [round(x) for x in rates["reference"]],
        "frozen_rounds": [round(x) for x in rates["frozen"]],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per round and side (default 300)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; the median is reported (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE, help="path of minimal_sim.py")
    args = parser.parse_args(argv)
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    reference = load_reference(args.reference)
    core = pin_to_one_core()
    result = measure(args.games, args.rounds, args.seed, reference)
    result["core"] = core
    print(f"engine     {result['engine_turns_per_s']:>8} turns/s of CPU time (median of {args.rounds} rounds of {args.games} games)")
    print(f"reference  {result['reference_turns_per_s']:>8} turns/s ({args.reference})")
    verdict = "meets" if float(result["ratio"]) >= TARGET_RATIO else "misses"  # type: ignore[arg-type]
    print(f"ratio      {result['ratio']:>8} (engine/reference; {verdict} the target {TARGET_RATIO})")
    print(f"frozen     {result['frozen_turns_per_s']:>8} turns/s on frozen states ({result['frozen_ratio']} of the reference)")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
