#!/usr/bin/env python3
"""What SQLite's quick check of the journal costs when a command opens it to write (pbm/journal/store.py, Store.open).

Plays a whole match between two bots through the same code as `spite play` (benchmarks/save_sizes.py one_game),
then times, on the journal of the player who started it, each way of opening it: to write (with the quick check),
read-only (without it, as `spite games` does), and the quick check alone; prints the journal's size and the medians:

    python benchmarks/journal_check.py [--target 10] [--bots expert,expert] [--think 0.01] [--rounds 30]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from save_sizes import one_game  # noqa: E402

from pbm.home import JOURNAL_FILE  # noqa: E402
from pbm.journal import Journal  # noqa: E402


def median_ms(step: object, rounds: int) -> float:
    """The median wall time of `step()` over `rounds` runs, in milliseconds."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        step()  # type: ignore[operator]
        times.append(time.perf_counter() - started)
    return round(statistics.median(times) * 1000, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", type=int, default=10, help="points the match is played to (spite new's default: 10)")
    parser.add_argument("--bots", default="expert,expert")
    parser.add_argument("--think", type=float, default=0.01)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        turns, files = one_game(Path(tmp), tuple(args.bots.split(",")), args.think, args.seed, args.target)  # type: ignore[arg-type]
        played = time.perf_counter() - started
        home = Path(tmp) / "alice"
        path = home / JOURNAL_FILE
        db = sqlite3.connect(path)
        result = {
            "target": args.target,
            "files": len(files),
            "longest_game_turns": turns,
            "journal_bytes": path.stat().st_size,
            "journal_pages": db.execute("PRAGMA page_count").fetchone()[0],
            "open_to_write_ms": median_ms(lambda: Journal.open(home).close(), args.rounds),
            "open_read_only_ms": median_ms(lambda: Journal.open(home, write=False).close(), args.rounds),
            "quick_check_ms": median_ms(lambda: db.execute("PRAGMA quick_check").fetchall(), args.rounds),
            "seconds_to_play": round(played, 1),
        }
        db.close()
    pages = result["journal_pages"]
    print(
        f"a match to {args.target} ({args.bots}): {len(files)} files; the journal of its first player: "
        f"{result['journal_bytes']:,} B in {pages} pages"
    )
    print(
        f"open to write (with the quick check) {result['open_to_write_ms']} ms, read-only {result['open_read_only_ms']} ms, "
        f"the quick check alone (on an open connection) {result['quick_check_ms']} ms (medians of {args.rounds})"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
