#!/usr/bin/env python3
"""How strong the bot levels are, and what a game between experts costs: the arena tables of the README.

Plays expert vs easy, expert vs normal and normal vs easy (N games each, every deal once from each
side), then expert vs expert, on g4a with LocalDealer, and prints markdown tables: wins, ties, win rate
among decided games with its 95% Wilson interval, think time per turn (median and max), and for
expert vs expert the tie rate and mean game length in turns (one save file per turn by mail).
The last line is all the numbers as JSON.

    python benchmarks/arena_tables.py [--games 1000] [--mirror-games N] [--jobs 2] [--seed 0] [--think SECONDS]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.arena import report, run_arena

MATCHUPS = (("expert", "easy"), ("expert", "normal"), ("normal", "easy"))


def _progress(label: str) -> object:
    """A progress callback that writes a line to stderr every tenth of the run."""
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        if done == total or done % max(1, total // 10) == 0:
            print(f"  {label}: {done}/{total} games, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)

    return show


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def head_to_head_table(results: dict[str, dict]) -> str:
    """The markdown table of the match-ups: the first bot's results against the second."""
    rows = [
        "| match-up | games | ties | wins | losses | win rate (decided) | 95% CI | think median / max (ms) |",
        "|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for label, r in results.items():
        (a, sa), (_, sb) = r["bots"].items()
        lo, hi = sa["ci95"]
        rows.append(
            f"| {label} | {r['games']} | {r['ties']} | {sa['wins']} | {sb['wins']} | {sa['win_rate']:.1%} | "
            f"{lo:.1%} – {hi:.1%} | {_ms(sa['think_median_s'])} / {_ms(sa['think_max_s'])} ({a}) |"
        )
    return "\n".join(rows)


def mirror_table(r: dict) -> str:
    """The markdown table of expert against expert: ties, game length, think time."""
    first, second = r["bots"].values()
    tie_rate = r["ties"] / r["games"] if r["games"] else 0.0
    median = max(first["think_median_s"], second["think_median_s"])
    longest = max(first["think_max_s"], second["think_max_s"])
    return "\n".join(
        [
            "| games | wins (first seat / second) | ties | tie rate | mean turns per game | think median / max (ms) |",
            "|---:|---|---:|---:|---:|---:|",
            f"| {r['games']} | {first['wins']} / {second['wins']} | {r['ties']} | {tie_rate:.1%} | {r['mean_turns']:.1f} | "
            f"{_ms(median)} / {_ms(longest)} |",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per match-up (default 1000)")
    parser.add_argument("--mirror-games", type=int, default=None, help="games of expert vs expert (default: --games)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed (default 0)")
    parser.add_argument("--think", type=float, default=None, help="think-time cap per plan, seconds (default: the bots' own)")
    args = parser.parse_args()
    mirror_games = args.games if args.mirror_games is None else args.mirror_games

    results: dict[str, dict] = {}
    elapsed: dict[str, float] = {}
    for a, b in MATCHUPS:
        label = f"{a} vs {b}"
        start = time.perf_counter()
        arena = run_arena(a, b, args.games, seed=args.seed, jobs=args.jobs, think=args.think, progress=_progress(label))
        results[label] = report(arena)
        elapsed[label] = time.perf_counter() - start
    start = time.perf_counter()
    arena = run_arena(
        "expert", "expert", mirror_games, seed=args.seed, jobs=args.jobs, think=args.think, progress=_progress("expert vs expert")
    )
    mirror = report(arena)
    elapsed["expert vs expert"] = time.perf_counter() - start

    print(f"## Bot levels on g4a (seed {args.seed}, {args.jobs} jobs)\n")
    print(head_to_head_table(results))
    print("\n## Expert against expert\n")
    print(mirror_table(mirror))
    print()
    print(json.dumps({"matchups": results, "expert vs expert": mirror, "elapsed_s": elapsed}))


if __name__ == "__main__":
    main()
