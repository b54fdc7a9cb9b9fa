#!/usr/bin/env python3
"""How strong the bot levels are, and what a game between experts costs: the arena tables of the README.

Plays expert vs bfs (the breadth-first-search yardstick of engine/bots/bfs.py, the kind of bot open-source
games ship), expert vs easy, expert vs normal and normal vs easy (N games each, every deal once from each
side), then expert vs expert-1 (the expert as it played until 6 December 2026, kept under that fixed name as the
yardstick of a stronger one; 2N games unless told), then expert vs expert, then expert-peek vs expert (README, G5:
an expert that reads its own face-down pay-off pile against the plain one), on g4a with LocalDealer, and prints
markdown tables: wins, ties, win rate among decided games with its 95% Wilson interval, think time per turn (median
and max) and the longest single decision, and for expert vs expert the tie rate and mean game length in turns (one
save file per turn by mail).
The last line is all the numbers as JSON.

    python benchmarks/arena_tables.py [--games 1000] [--yardstick-games N] [--mirror-games N] [--peek-games N]
                                      [--jobs 2] [--seed 0] [--think SECONDS] [--tables levels,yardstick,mirror,peek]
                                      [--quick]

--quick plays 40 games of each (a check that it all runs, not a measurement).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.arena import report, run_arena

MATCHUPS = (("expert", "bfs"), ("expert", "easy"), ("expert", "normal"), ("normal", "easy"))
TABLES = ("levels", "yardstick", "mirror", "peek")


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
        "| match-up | games | ties | wins | losses | win rate (decided) | 95% CI | think per turn median / max (ms) | slowest move (ms) |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    for label, r in results.items():
        (a, sa), (_, sb) = r["bots"].items()
        lo, hi = sa["ci95"]
        rows.append(
            f"| {label} | {r['games']} | {r['ties']} | {sa['wins']} | {sb['wins']} | {sa['win_rate']:.1%} | "
            f"{lo:.1%} – {hi:.1%} | {_ms(sa['think_median_s'])} / {_ms(sa['think_max_s'])} ({a}) | {_ms(sa['decision_max_s'])} |"
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


def _tables(text: str) -> tuple[str, ...]:
    """The tables named in `text` (comma-separated), each one of TABLES."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    for name in names:
        if name not in TABLES:
            raise argparse.ArgumentTypeError(f"unknown table {name!r}; known: {', '.join(TABLES)}")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per match-up (default 1000)")
    parser.add_argument("--yardstick-games", type=int, default=None, help="games of expert vs expert-1 (default: 2 x --games)")
    parser.add_argument("--mirror-games", type=int, default=None, help="games of expert vs expert (default: --games)")
    parser.add_argument("--peek-games", type=int, default=None, help="games of expert-peek vs expert (default: --games)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed (default 0)")
    parser.add_argument(
        "--think",
        type=float,
        default=None,
        help="wall-clock guard per plan, seconds (default: the bots' own, 2 s; the search is budgeted in work)",
    )
    parser.add_argument("--tables", type=_tables, default=TABLES, help=f"which tables, comma-separated (default {','.join(TABLES)})")
    parser.add_argument("--quick", action="store_true", help="40 games of each: a check that it runs, not a measurement")
    args = parser.parse_args()
    games = 40 if args.quick else args.games
    yardstick_games = games if args.quick else 2 * games if args.yardstick_games is None else args.yardstick_games
    mirror_games = games if args.mirror_games is None or args.quick else args.mirror_games
    peek_games = games if args.peek_games is None or args.quick else args.peek_games

    def play(a: str, b: str, n: int) -> tuple[dict, float]:
        start = time.perf_counter()
        arena = run_arena(a, b, n, seed=args.seed, jobs=args.jobs, think=args.think, progress=_progress(f"{a} vs {b}"))
        return report(arena), time.perf_counter() - start

    results: dict[str, dict] = {}
    elapsed: dict[str, float] = {}
    out: dict[str, object] = {"seed": args.seed}
    print(f"# Arena on g4a (seed {args.seed}, {args.jobs} jobs)")
    if "levels" in args.tables:
        for a, b in MATCHUPS:
            label = f"{a} vs {b}"
            results[label], elapsed[label] = play(a, b, games)
        print("\n## Bot levels\n")
        print(head_to_head_table(results))
        out["matchups"] = results
    if "yardstick" in args.tables:
        label = "expert vs expert-1"
        yardstick, elapsed[label] = play("expert", "expert-1", yardstick_games)
        print("\n## The expert against expert-1, the expert as it played until 6 December 2026\n")
        print(head_to_head_table({label: yardstick}))
        out[label] = yardstick
    if "mirror" in args.tables:
        mirror, elapsed["expert vs expert"] = play("expert", "expert", mirror_games)
        print("\n## Expert against expert\n")
        print(mirror_table(mirror))
        out["expert vs expert"] = mirror
    if "peek" in args.tables:
        peek, elapsed["expert-peek vs expert"] = play("expert-peek", "expert", peek_games)
        print("\n## What reading your own pay-off pile is worth (README, G5): expert-peek against expert\n")
        print(head_to_head_table({"expert-peek vs expert": peek}))
        out["expert-peek vs expert"] = peek
    out["elapsed_s"] = elapsed
    print()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
