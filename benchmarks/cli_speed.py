#!/usr/bin/env python3
"""How long the `spite` command takes, against merely importing its libraries, and how big a whole game's saves are.

Wall time of `spite show` and `spite play --auto` on the mid-game example save (Alice answers
examples/saves/14-bob.toml), each run on a fresh copy of examples/ because both record in the
journal and play writes a file, against ``python -c "import typer, rich, nacl, cryptography"``,
in alternating rounds (the order rotates every round). Prints the medians and the ratios to
the baseline (target: within 1.5x), then the save sizes over one whole g4a game (`spite new
--target 1`, both sides `spite play --auto`), as a markdown table and one JSON line:

    python benchmarks/cli_speed.py [--rounds 7] [--think SECONDS] [--size-think 0.05] [--no-sizes]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LATEST = Path("saves/14-bob.toml")
BASELINE = [sys.executable, "-c", "import typer, rich, nacl, cryptography"]
TARGET_RATIO = 1.5


def spite_command() -> list[str]:
    """The installed console script, as a player runs it; `python -m pbm.cli` if it is not on PATH."""
    script = shutil.which("spite")
    return [script] if script else [sys.executable, "-m", "pbm.cli"]


def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SPITE_PASSPHRASE"}
    env.update(SPITE_HOME=str(home), COLUMNS="100", NO_COLOR="1")
    return env


def timed(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, str]:
    """Wall seconds of one command run to completion, and its stdout; fails loudly on a non-zero exit."""
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return seconds, done.stdout


def speed(rounds: int, think: float | None, spite: list[str]) -> dict[str, list[float]]:
    """Seconds per run of the baseline, `show` and `play --auto`, `rounds` of each, interleaved."""
    play_args = ["play", "--auto", *(["--think", str(think)] if think is not None else [])]

    def on_copy(args: list[str]) -> Callable[[], float]:
        def run() -> float:
            with tempfile.TemporaryDirectory() as tmp:
                ex = Path(shutil.copytree(EXAMPLES, Path(tmp) / "examples"))
                return timed([*spite, *args, str(ex / LATEST)], env_for(ex / "keys" / "alice"))[0]

        return run

    kinds: dict[str, Callable[[], float]] = {
        "import baseline": lambda: timed(BASELINE)[0],
        "spite show": on_copy(["show"]),
        "spite play --auto": on_copy(play_args),
    }
    times: dict[str, list[float]] = {name: [] for name in kinds}
    names = list(kinds)
    for name in names:  # warm the file cache once, untimed
        kinds[name]()
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            times[name].append(kinds[name]())
    return times


def game_sizes(think: float, spite: list[str]) -> dict[str, object]:
    """Bytes of every save of one whole g4a game between two fresh players playing `spite play --auto`."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        homes = {who: root / who for who in ("alice", "bob")}
        for who, home in homes.items():
            timed([*spite, "id", "--name", who.title()], env_for(home))
        saves = root / "saves"
        saves.mkdir()
        _, text = timed([*spite, "new", "--target", "1", "-o", str(saves / "invite.toml")], env_for(homes["alice"]))
        path, reader, files = saves / "invite.toml", "bob", [saves / "invite.toml"]
        while True:
            _, text = timed([*spite, "play", "--auto", "--think", str(think), str(path)], env_for(homes[reader]))
            wrote = re.search(r"^Wrote (.+)$", text, re.MULTILINE)
            if wrote is None:
                break
            path = Path(wrote.group(1))
            path = path if path.is_absolute() else saves / path.name
            files.append(path)
            reader = "alice" if reader == "bob" else "bob"
        sizes = [p.stat().st_size for p in files]
    return {"files": len(sizes), "max_bytes": max(sizes), "median_bytes": statistics.median(sizes), "total_bytes": sum(sizes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed runs of each command")
    parser.add_argument("--think", type=float, default=None, help="--think for the timed play --auto (default: the bot's own)")
    parser.add_argument("--size-think", type=float, default=0.05, help="--think for the whole game of the size figures")
    parser.add_argument("--no-sizes", action="store_true", help="skip the whole game")
    args = parser.parse_args()
    spite = spite_command()
    times = speed(args.rounds, args.think, spite)
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["import baseline"]
    print(f"command: {' '.join(spite)} (python {sys.version.split()[0]}, {os.cpu_count()} cores), {args.rounds} rounds\n")
    print("| command | median s | min s | max s | ratio to import |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in times.items():
        print(f"| {name} | {medians[name]:.3f} | {min(values):.3f} | {max(values):.3f} | {medians[name] / base:.2f}x |")
    result: dict[str, object] = {
        "rounds": args.rounds,
        "median_s": {k: round(v, 4) for k, v in medians.items()},
        "ratio": {k: round(v / base, 3) for k, v in medians.items() if k != "import baseline"},
        "target_ratio": TARGET_RATIO,
        "think": args.think,
    }
    if not args.no_sizes:
        sizes = game_sizes(args.size_think, spite)
        print(f"\nOne whole g4a game (--target 1, --think {args.size_think}):\n")
        print("| files | max bytes | median bytes | total bytes |")
        print("| ---: | ---: | ---: | ---: |")
        print(f"| {sizes['files']} | {sizes['max_bytes']} | {sizes['median_bytes']:.0f} | {sizes['total_bytes']} |")
        result["game_sizes"] = {**sizes, "think": args.size_think}
    print()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
