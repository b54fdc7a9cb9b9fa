"""Bot against bot over many seeded games: wins, ties, confidence intervals and think times.

Pure: no printing. Game i is dealt by LocalDealer seeded from (seed, i // 2) and started by bot i % 2,
so each deal is played once from each side. Results do not depend on the number of worker processes.
"""

from __future__ import annotations

import math
import statistics
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from engine._frozen import frozen_value
from engine.bots import make_bot
from engine.dealer import LocalDealer
from engine.game import apply, new_game
from engine.play import show_own_piles
from engine.rules import G4A, Ruleset

Progress = Callable[[int, int], None]


@frozen_value
class GameResult:
    """One arena game: the winning seat (0 or 1, None for a tie), turns played, each seat's think time per turn,
    and each seat's longest single decision (one call for one move)."""

    number: int
    winner: int | None
    turns: int
    think: tuple[tuple[float, ...], tuple[float, ...]]
    slowest: tuple[float, float] = (0.0, 0.0)


@frozen_value
class ArenaResult:
    """All games of a match-up; `names` are the two seats' display names (a duplicate gets ``#2``)."""

    names: tuple[str, str]
    games: tuple[GameResult, ...]


def seat_names(a: str, b: str) -> tuple[str, str]:
    """Display names of the two seats: two bots of one level are ``expert`` and ``expert#2``."""
    return (a, f"{b}#2") if a == b else (a, b)


def bot_seed(seed: int, number: int, seat: int) -> int:
    """The seed of one seat's bot in one game (stable across runs and processes)."""
    return zlib.crc32(f"{seed}:{number}:{seat}".encode())


def deal_of(seed: int, number: int) -> tuple[str, int]:
    """The dealer seed and the starting seat of game `number`: each deal is played twice, each seat starting once."""
    return f"{seed}:{number // 2}", number % 2


def play_arena_game(bots: tuple[str, str], seed: int, number: int, think: float | None = None, ruleset: Ruleset = G4A) -> GameResult:
    """Play game `number` of an arena between the bots named `bots` (seat 0 and seat 1)."""
    players = (make_bot(bots[0], bot_seed(seed, number, 0), think), make_bot(bots[1], bot_seed(seed, number, 1), think))
    deal_seed, starter = deal_of(seed, number)
    dealer = LocalDealer(deal_seed)
    state = new_game(dealer, ruleset, starter=starter)
    show_own_piles(players, dealer)
    times: tuple[list[float], list[float]] = ([], [])
    slowest = [0.0, 0.0]
    spent, turn = 0.0, state.turn
    while state.outcome is None:
        mover = state.to_move
        view = state.view(mover)
        start = time.perf_counter()
        move = players[mover].choose(view)
        took = time.perf_counter() - start
        spent += took
        if took > slowest[mover]:
            slowest[mover] = took
        state = apply(state, move, dealer)
        if state.turn != turn or state.outcome is not None:
            times[mover].append(spent)
            spent, turn = 0.0, state.turn
    turns = state.turn - (state.outcome.winner is None)
    return GameResult(number, state.outcome.winner, turns, (tuple(times[0]), tuple(times[1])), (slowest[0], slowest[1]))


def _play_star(args: tuple[tuple[str, str], int, int, float | None, Ruleset]) -> GameResult:
    return play_arena_game(*args)


def run_arena(
    a: str,
    b: str,
    games: int,
    seed: int = 0,
    jobs: int = 1,
    think: float | None = None,
    progress: Progress | None = None,
    ruleset: Ruleset = G4A,
) -> ArenaResult:
    """Play `games` games of bot `a` (seat 0) against bot `b` (seat 1), in `jobs` processes; `progress(done, total)` after each."""
    if games < 0 or jobs < 1:
        raise ValueError("games must be at least 0 and jobs at least 1")
    tasks = [((a, b), seed, n, think, ruleset) for n in range(games)]
    results: list[GameResult] = []
    if jobs == 1:
        for task in tasks:
            results.append(_play_star(task))
            if progress is not None:
                progress(len(results), games)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_play_star, tasks, chunksize=1):
                results.append(result)
                if progress is not None:
                    progress(len(results), games)
    return ArenaResult(seat_names(a, b), tuple(sorted(results, key=lambda r: r.number)))


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion `wins`/`n` (95% for the default z); (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def report(result: ArenaResult) -> dict:
    """The JSON-ready summary: games, ties, mean turns and per bot wins, win rate among decided games, ci95, think times.

    Think times are per turn (median and max over every turn the bot played), and the longest single decision.
    """
    games = result.games
    ties = sum(g.winner is None for g in games)
    decided = len(games) - ties
    bots: dict[str, dict] = {}
    for seat, name in enumerate(result.names):
        wins = sum(g.winner == seat for g in games)
        lo, hi = wilson(wins, decided)
        turns = [t for g in games for t in g.think[seat]]
        bots[name] = {
            "wins": wins,
            "win_rate": wins / decided if decided else 0.0,
            "ci95": [lo, hi],
            "think_median_s": statistics.median(turns) if turns else 0.0,
            "think_max_s": max(turns) if turns else 0.0,
            "decision_max_s": max((g.slowest[seat] for g in games), default=0.0),
        }
    mean_turns = statistics.fmean(g.turns for g in games) if games else 0.0
    return {"games": len(games), "ties": ties, "mean_turns": mean_turns, "bots": bots}
