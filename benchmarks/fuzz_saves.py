#!/usr/bin/env python3
"""The fuzz figures in the README: hostile inputs offered to the receivers of a real match, and what became of each.

A match (pay-off piles of 5, first to 5 points, greedy bots) is played in-process as `spite play` plays it;
then, `--count` times, one of its files is drawn and offered to its receiver four ways: a random byte edit
(not signed again), a hostile edit of a save-level field derived from the save's schema, a hostile edit
of a node of the protocol message (both signed again with the sender's real key, the carry packed again),
and a hostile text (one that cost the tolerant reader time in the square of its size, or blank text, in its
cube, up to the read limit) alone or around the file re-wrapped by a chat client, read as pasted or mailed text.
And a file's turn code, a label or a node of its message edited and its turn signed again, is pasted (as `spite
play -` reads it) and, `--inbox` times, mailed (taken in as `spite inbox` does, into a copy of the receiver's
home, then played as `inbox --play` does). The values an edit puts include numbers at the edges of 64 bits
(2**53, 2**63 - 1, 2**63, -2**63, 2**64), which nothing can sign: such a file keeps its old signature.
Each is opened as `spite play` opens it (tests/pbm/hostile.py) and counted: refused with a SpiteError (one
line, exit 1; from the mail: not kept, each turn passed over saying why in one line, or kept and refused
when played), accepted as the same save (a byte edit of layout only), accepted though changed, or another
exception (what a player would see as a traceback). The same run, as a test: `pytest -m slow tests/pbm/test_hostile.py`.

    python benchmarks/fuzz_saves.py [--count 5000] [--inbox 1000] [--seed 10]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "pbm")]

from hostile import Receiver, campaign, play_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=5000, help="inputs of each kind")
    parser.add_argument("--inbox", type=int, default=1000, help="of the turn codes, those also mailed (each copies a spite home)")
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:
        offers = play_match(Path(tmp), payoff=5, target=5)
        receiver = Receiver(Path(tmp))
        try:
            tallies = campaign(offers, receiver, args.count, args.seed, inbox=min(args.inbox, args.count))
        finally:
            receiver.close()
    mailed = min(args.inbox, args.count)
    print(f"{len(offers)} files of one match; {args.count} inputs of each kind, {mailed} codes through the inbox (seed {args.seed})\n")
    print("| inputs | tried | refused in one line | accepted, the same save | accepted, changed | tracebacks |")
    print("|---|---:|---:|---:|---:|---:|")
    total = Counter()
    for kind, t in tallies.items():
        row = {"tried": t.tried, "refused": t.refused, "same": t.same, "accepted": len(t.accepted), "tracebacks": t.tracebacks}
        total.update(row)
        print(f"| {kind} | {t.tried:,} | {t.refused:,} | {t.same:,} | {len(t.accepted):,} | {t.tracebacks:,} |")
    print(f"| all | {total['tried']:,} | {total['refused']:,} | {total['same']:,} | {total['accepted']:,} | {total['tracebacks']:,} |")
    cases: Counter[str] = Counter()
    for t in tallies.values():
        cases.update(f"traceback ({where}): {edit}" for where, edit in t.crashed)
        cases.update(f"accepted: {edit}" for edit in t.accepted)
    if cases:
        print("\nwhat was not refused:")
        for case, n in sorted(cases.items()):
            print(f"  {n:5,}  {case}")
    print(json.dumps({**total, "files": len(offers), "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
