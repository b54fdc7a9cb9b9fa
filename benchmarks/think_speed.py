#!/usr/bin/env python3
"""The expert's think CPU per plan, and whether it plays the same games: this checkout against another (a baseline).

Plays the same seeded arena games (the expert against ``normal`` by default, as ``spite arena --seed`` deals them) in
child processes, alternating this checkout and the baseline's each round, and times every plan the first seat makes in
process CPU time (the moments another process holds the core count for neither). Prints each side's median, 90th
percentile and largest plan, their ratio, and a digest of every move of the games: the same digest on both sides means
the same games, move for move, so the speed was not bought with strength.

    python benchmarks/think_speed.py --games 12 --rounds 3 --baseline ../old-checkout
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def child(games: int, seed: int, bots: tuple[str, str]) -> dict[str, object]:
    """Play the games here (the engine on sys.path); each expert plan's CPU seconds and a digest of the games."""
    from engine.arena import bot_seed, deal_of
    from engine.bots import make_bot
    from engine.bots.expert import ExpertBot
    from engine.dealer import LocalDealer
    from engine.game import apply, new_game

    plans: list[float] = []
    digest = hashlib.sha256()
    for number in range(games):
        players = [make_bot(bots[seat], bot_seed(seed, number, seat)) for seat in (0, 1)]
        for bot in players[:1]:  # the first seat's plans (the second is the opponent it meets)
            if isinstance(bot, ExpertBot):
                made = bot._make_plan

                def timed(view: object, made: object = made) -> object:
                    start = time.process_time()
                    plan = made(view)  # type: ignore[operator]
                    plans.append(time.process_time() - start)
                    return plan

                bot._make_plan = timed  # type: ignore[method-assign]
        deal_seed, starter = deal_of(seed, number)
        dealer = LocalDealer(deal_seed)
        state = new_game(dealer, starter=starter)
        moves = []
        while state.outcome is None:
            move = players[state.to_move].choose(state.view(state.to_move))
            state = apply(state, move, dealer)
            moves.append(str(move))
        digest.update(f"{number}|{' '.join(moves)}|{state.outcome.winner}|{state.outcome.points}\n".encode())
    return {"plans": plans, "digest": digest.hexdigest()}


def run(tree: Path, games: int, seed: int, bots: tuple[str, str]) -> dict[str, object]:
    """:func:`child` in a process of its own, with `tree`'s engine first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, str(Path(__file__).resolve()), "--child", "--games", str(games), "--seed", str(seed), "--bots", ",".join(bots)]
    done = subprocess.run(args, env=env, cwd=tree, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def summary(plans: list[float]) -> dict[str, float]:
    ms = sorted(p * 1000 for p in plans)
    return {
        "plans": len(ms),
        "median_ms": round(statistics.median(ms), 2),
        "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 2),
        "max_ms": round(ms[-1], 1),
        "total_s": round(sum(ms) / 1000, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="arena games per round and side (default 12)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians over all plans (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bots", default="expert,normal", help="the two seats, as spite arena --bots (default expert,normal)")
    parser.add_argument("--baseline", type=Path, help="another checkout of spite to compare with")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    bots = tuple(args.bots.split(","))
    if len(bots) != 2 or args.games < 1 or args.rounds < 1:
        parser.error("--bots takes two names; --games and --rounds at least 1")
    if args.child:
        print(json.dumps(child(args.games, args.seed, (bots[0], bots[1]))))
        return 0
    trees = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    plans: dict[str, list[float]] = {name: [] for name in trees}
    digests: dict[str, set[str]] = {name: set() for name in trees}
    for r in range(args.rounds):
        for name in trees if r % 2 == 0 else reversed(list(trees)):
            result = run(trees[name], args.games, args.seed, (bots[0], bots[1]))
            plans[name] += result["plans"]  # type: ignore[arg-type]
            digests[name].add(str(result["digest"]))
    out: dict[str, object] = {
        "games": args.games,
        "rounds": args.rounds,
        "seed": args.seed,
        "bots": list(bots),
        "clock": "process CPU time",
    }
    for name in trees:
        figures = summary(plans[name])
        out[name] = figures | {"digest": sorted(digests[name])}
        median, p90, most, count = figures["median_ms"], figures["p90_ms"], figures["max_ms"], figures["plans"]
        print(f"{name:<9} median {median:>7} ms  p90 {p90:>7} ms  max {most:>7} ms per plan ({count} plans)")
    if "baseline" in trees:
        ratio = summary(plans["baseline"])["median_ms"] / max(1e-9, summary(plans["this"])["median_ms"])
        total = summary(plans["baseline"])["total_s"] / max(1e-9, summary(plans["this"])["total_s"])
        same = digests["this"] == digests["baseline"] and len(digests["this"]) == 1
        out |= {"median_speedup": round(ratio, 2), "total_speedup": round(total, 2), "same_games": same}
        print(f"speed-up  {ratio:.2f}x at the median, {total:.2f}x in all; the same games: {'yes' if same else 'NO'}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
