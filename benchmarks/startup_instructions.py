#!/usr/bin/env python3
"""What one `spite show` of an ordinary turn costs in each language, counted in CPU instructions (valgrind's callgrind),
which the machine's load does not move: English against every other language, and against another installation's
spite (an earlier version in a venv of its own) with --other-spite.

Each run shows examples/saves/14-bob.toml as Alice on a fresh copy of examples/, with the bytecode cached beforehand
and PYTHONHASHSEED fixed, so that runs of the same command count nearly the same; the median of --rounds is reported.
Needs valgrind. About 10 s a run.

    python benchmarks/startup_instructions.py [--rounds 3] [--langs en,vi,pt_BR,id,fil] [--other-spite PATH]
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
LATEST = Path("saves/14-bob.toml")
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def spite_command() -> list[str]:
    script = shutil.which("spite")
    return [script] if script else [sys.executable, "-m", "pbm.cli"]


def instructions(spite: list[str], lang: str, cache: str) -> int:
    """The instructions of one `spite show` of the example's latest save in language `lang`, on a fresh copy."""
    with tempfile.TemporaryDirectory() as tmp:
        ex = Path(shutil.copytree(EXAMPLES, Path(tmp) / "examples"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SPITE_", "LC_", "LANG")) and k != "PYTHONDONTWRITEBYTECODE"}
        env.update(SPITE_HOME=str(ex / "keys" / "alice"), SPITE_LANG=lang, COLUMNS="100", NO_COLOR="1")
        env.update(PYTHONHASHSEED="0", PYTHONPYCACHEPREFIX=cache)
        command = [*spite, "show", str(ex / LATEST)]
        subprocess.run(command, env=env, capture_output=True, check=True)  # the bytecode cached, the journal warm
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed under valgrind:\n{done.stderr[-2000:]}")
        found = COLLECTED.search(done.stderr)
        if found is None:
            raise SystemExit(f"callgrind said no count:\n{done.stderr[-2000:]}")
        return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each kind (the median is reported)")
    parser.add_argument("--langs", default="en,vi,pt_BR,id,fil", help="the languages, English first")
    parser.add_argument("--other-spite", type=Path, help="another installation's spite command, counted in English beside")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    spite = spite_command()
    kinds = {f"spite show, {lang}": (spite, lang) for lang in args.langs.split(",")}
    if args.other_spite:
        kinds["spite show, en, the other spite"] = ([str(args.other_spite)], "en")
    counts: dict[str, list[int]] = {name: [] for name in kinds}
    with tempfile.TemporaryDirectory(prefix="spite-bench-pyc-") as cache:
        for _ in range(args.rounds):
            for name, (command, lang) in kinds.items():
                counts[name].append(instructions(command, lang, cache))
    medians = {name: statistics.median(values) for name, values in counts.items()}
    english = medians[f"spite show, {args.langs.split(',')[0]}"]
    print(f"command: {' '.join(spite)}, {args.rounds} rounds, instructions counted by callgrind\n")
    print("| run | instructions (median) | spread | against English |")
    print("| --- | ---: | ---: | ---: |")
    for name, values in counts.items():
        spread = (max(values) - min(values)) / medians[name]
        print(f"| {name} | {medians[name]:,.0f} | {100 * spread:.2f}% | {medians[name] / english:.3f}x |")
    print()
    ratios = {name: round(value / english, 4) for name, value in medians.items()}
    print(json.dumps({"rounds": args.rounds, "instructions": medians, "against_english": ratios}))


if __name__ == "__main__":
    main()
