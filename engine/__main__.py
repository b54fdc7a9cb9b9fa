"""The developer entry point: ``python -m engine legal POSITION.toml`` and ``python -m engine selfplay``.

The logic lives in functions that return values; only :func:`main` prints.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.arena import seat_names
from engine.bots import BOT_NAMES, make_bot
from engine.dealer import LocalDealer
from engine.game import legal_moves
from engine.play import play_game
from engine.position import PositionError, read_position

USAGE_ERROR = 2


class UsageError(ValueError):
    """Arguments the entry point cannot run with; the message says which and why."""


def legal(path: str | Path) -> list[str]:
    """The legal moves of the player to move in the position file at `path`, canonical and sorted."""
    return [str(move) for move in legal_moves(read_position(path))]


def game_seed(seed: int, game: int) -> int:
    """The dealer seed of game `game` of a self-play run seeded `seed`."""
    return seed * 1_000_003 + game


def parse_bots(text: str) -> list[str]:
    """Two known bot names from ``greedy,random``."""
    names = [name.strip().lower() for name in text.split(",")]
    if len(names) != 2 or not all(names):
        raise UsageError(f"--bots: give two bots separated by a comma, like greedy,random (got {text!r})")
    for name in names:
        if name not in BOT_NAMES:
            raise UsageError(f"--bots: unknown bot {name!r}; known: {', '.join(BOT_NAMES)}")
    return names


def selfplay(games: int, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """Play `games` seeded games between `bots`, alternating the starter, and return the tally.

    Game i is dealt by ``LocalDealer(game_seed(seed, i))`` and starts with player ``i % 2``.
    """
    if games < 1:
        raise UsageError(f"--games: {games}; play at least one game")
    labels = list(seat_names(bots[0], bots[1]))
    wins = dict.fromkeys(labels, 0)
    ties = turns = 0
    start = time.perf_counter()
    for i in range(games):
        s = game_seed(seed, i)
        players = (make_bot(bots[0], 2 * s), make_bot(bots[1], 2 * s + 1))
        played = play_game(players, LocalDealer(s), starter=i % 2)
        turns += played.turns
        if played.outcome.winner is None:
            ties += 1
        else:
            wins[labels[played.outcome.winner]] += 1
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "seed": seed,
        "bots": labels,
        "wins": wins,
        "ties": ties,
        "mean_turns": round(turns / games, 1),
        "turns_per_s": round(turns / seconds) if seconds > 0 else None,
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Spite & Malice engine tools for developers.")
    commands = parser.add_subparsers(dest="command", required=True)
    legal_cmd = commands.add_parser("legal", help="print the legal moves of a position file, one per line")
    legal_cmd.add_argument("position", help="a position file (TOML, see RULES.md)")
    play_cmd = commands.add_parser("selfplay", help="play seeded games between bots and print one JSON line")
    play_cmd.add_argument("--games", type=int, default=100, help="how many games (default 100)")
    play_cmd.add_argument("--seed", type=int, default=1, help="seed of the whole run (default 1)")
    play_cmd.add_argument("--bots", default="greedy,greedy", help=f"two bots, comma-separated, from {', '.join(BOT_NAMES)}")
    return parser


def _selfplay_line(args: argparse.Namespace) -> str:
    return json.dumps(selfplay(args.games, args.seed, parse_bots(args.bots)))


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit status (2 for bad input, with a one-line message on stderr)."""
    args = _parser().parse_args(argv)
    try:
        lines = legal(args.position) if args.command == "legal" else [_selfplay_line(args)]
    except PositionError as e:
        print(f"{args.position}: {e}".replace("\n", " "), file=sys.stderr)
        return USAGE_ERROR
    except UsageError as e:
        print(f"python -m engine selfplay: {e}", file=sys.stderr)
        return USAGE_ERROR
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
