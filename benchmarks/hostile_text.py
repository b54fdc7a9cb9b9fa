#!/usr/bin/env python3
"""How long the tolerant reader takes over hostile text: the worst time to refuse or read it, by size.

Each text of tests/pbm/hostile.py's HOSTILE_TEXTS (a string left open then short lines, keys alone, quote
prefixes, many turn code parts...; each once took the reader time in the square of its size, 20 s at 32 KiB)
is read as `spite play FILE`, `show` and `inbox` read any text (pbm.transport.code.read): alone, around the
longest example save re-wrapped at 44 columns (which must then read as itself), and pasted line by line at a
terminal (`spite play -`: code.Pasted says when the paste is whole, then it is read). Sizes past today's read
limit (code.MAX_INPUT) are read as if the limit were raised to them. CPU seconds, the best of `--repeat` runs.

    python benchmarks/hostile_text.py [--sizes 32,128,256,320] [--repeat 3]   (by default up to the save limit and the read limit)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "pbm")]

from hostile import HOSTILE_TEXTS, around  # noqa: E402

from pbm import saves  # noqa: E402
from pbm.errors import SpiteError  # noqa: E402
from pbm.transport import code  # noqa: E402


def timed(data: bytes, repeat: int, pasted: bool = False) -> tuple[float, str]:
    """The best CPU time of reading `data` (`pasted`: line by line, as at a terminal, then read), and what became of it."""
    best, what = float("inf"), ""
    for _ in range(repeat):
        started = time.process_time()
        try:
            if pasted:
                paste = code.Pasted()
                for line in data.decode("utf-8", errors="replace").splitlines(keepends=True):
                    if paste.add(line):
                        break
                data = paste.data
            code.read(data)
            what = "read"
        except SpiteError:
            what = "refused"
        best = min(best, time.process_time() - started)
    return best, what


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=f"32,128,{saves.MAX_BYTES // 1024},{code.MAX_INPUT // 1024}", help="KiB, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(kib) * 1024 for kib in args.sizes.split(",")]
    limit = code.MAX_INPUT
    code.MAX_INPUT = max(limit, *sizes)  # past today's limit: as the reader would do were it raised
    example = max((ROOT / "examples" / "saves").glob("*.toml"), key=lambda p: p.stat().st_size)
    text = example.read_bytes()
    save = saves.parse(text)
    print(f"read limit {limit // 1024} KiB; around: {example.name} ({example.stat().st_size:,} bytes) re-wrapped at 44\n")
    print("| text | " + " | ".join(f"{size // 1024} KiB" for size in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    worst = dict.fromkeys(sizes, 0.0)
    for name, make in HOSTILE_TEXTS.items():
        for where in ("alone", "around a save", "pasted at a terminal"):
            cells = []
            for size in sizes:
                data = around(text, name, 44, size) if where == "around a save" else make(size)
                seconds, what = timed(data, args.repeat, pasted=where == "pasted at a terminal")
                if where == "around a save" and b"SPITE" not in make(99).upper():
                    assert what == "read" and code.read(data) == save, name  # the file, still read as itself
                worst[size] = max(worst[size], seconds)
                cells.append(f"{seconds:.3f} s {what}")
            print(f"| {name}, {where} | " + " | ".join(cells) + " |")
    print("| **worst** | " + " | ".join(f"**{worst[size]:.3f} s**" for size in sizes) + " |")


if __name__ == "__main__":
    main()
