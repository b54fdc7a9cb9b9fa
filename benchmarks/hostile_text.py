#!/usr/bin/env python3
"""How long the tolerant reader takes over hostile text: the worst time to refuse or read it, by size.

Each text of tests/pbm/hostile.py's HOSTILE_TEXTS (a string left open then short lines, keys alone, quote
prefixes, many turn code parts...; each once took the reader time in the square of its size, 20 s at 32 KiB)
is read as `spite play FILE`, `show` and `inbox` read any text (pbm.transport.code.read): alone, around the
longest example save re-wrapped at 44 columns (which must then read as itself), and pasted line by line at a
terminal (`spite play -`: code.Pasted says when the paste is whole, then it is read). Sizes past today's read
limit (code.MAX_INPUT) are read as if the limit were raised to them. CPU seconds, the best of `--repeat` runs.

Then blank and near-blank text (BLANK_TEXTS: newlines, spaces, CRLF, odd spaces, quote marks, and each then a word
or a format line: the reader once took such text in the cube of its size, 11 s for 2,400 newlines) from 1 KiB to
1 MiB, read as a file, pasted at a terminal, and as the attachment of a mail (`spite inbox`: pbm.transport.mail.found_in).
The last column is the time at the largest size over the time at a quarter of it: about 4 for a reader linear in its
input (16 if it took the square of the size, 64 the cube).

    python benchmarks/hostile_text.py [--sizes 32,128,256,320] [--blank-sizes 1,4,16,64,256,1024] [--repeat 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "pbm")]

from hostile import BLANK_TEXTS, HOSTILE_TEXTS, around, attached  # noqa: E402

from pbm import saves  # noqa: E402
from pbm.errors import SpiteError  # noqa: E402
from pbm.transport import code  # noqa: E402
from pbm.transport import mail as transport  # noqa: E402


def timed(data: bytes, repeat: int, pasted: bool = False, mailed: bool = False) -> tuple[float, str]:
    """The best CPU time of reading `data` (`pasted`: line by line, as at a terminal, then read; `mailed`: found in a mail
    that carries it as an attachment, as `spite inbox` looks for turns), and what became of it."""
    best, what = float("inf"), ""
    mail = attached(data) if mailed else b""
    for _ in range(repeat):
        started = time.process_time()
        if mailed:
            what = "found" if transport.found_in(mail) else "passed over"
            best = min(best, time.process_time() - started)
            continue
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


def blank(sizes: list[int], repeat: int) -> None:
    """The table of blank and near-blank text: CPU seconds by size, each way it comes in, and how the time grows."""
    print(f"\n| blank or near-blank text | {' | '.join(_size(size) for size in sizes)} | growth, last x4 |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    worst = dict.fromkeys(sizes, 0.0)
    for name, make in BLANK_TEXTS.items():
        for where in ("as a file", "pasted at a terminal", "in a mail"):
            seconds = []
            for size in sizes:
                spent, _what = timed(make(size), repeat, pasted=where == "pasted at a terminal", mailed=where == "in a mail")
                seconds.append(spent)
                worst[size] = max(worst[size], spent)
            growth = seconds[-1] / max(seconds[-2], 1e-6) if len(sizes) > 1 else 0.0
            print(f"| {name}, {where} | " + " | ".join(f"{t:.4f} s" for t in seconds) + f" | {growth:.1f} |")
    growth = worst[sizes[-1]] / max(worst[sizes[-2]], 1e-6) if len(sizes) > 1 else 0.0
    print("| **worst** | " + " | ".join(f"**{worst[size]:.4f} s**" for size in sizes) + f" | **{growth:.1f}** |")
    print("\nper KiB, the worst: " + ", ".join(f"{_size(size)} {worst[size] / (size / 1024) * 1e6:.0f} µs" for size in sizes))


def _size(size: int) -> str:
    return f"{size // 1024 // 1024} MiB" if size >= 1024 * 1024 else f"{size // 1024} KiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=f"32,128,{saves.MAX_BYTES // 1024},{code.MAX_INPUT // 1024}", help="KiB, comma-separated")
    parser.add_argument("--blank-sizes", default="1,4,16,64,256,1024", help="KiB, comma-separated: the blank text's, in fours")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(kib) * 1024 for kib in args.sizes.split(",")]
    blank_sizes = [int(kib) * 1024 for kib in args.blank_sizes.split(",")]
    limit = code.MAX_INPUT
    code.MAX_INPUT = max(limit, *sizes, *blank_sizes)  # past today's limit: as the reader would do were it raised
    example = max((ROOT / "examples" / "saves").glob("*.toml"), key=lambda p: p.stat().st_size)
    text = example.read_bytes()
    save = saves.parse(text)
    print(f"read limit {limit // 1024} KiB; around: {example.name} ({example.stat().st_size:,} bytes) re-wrapped at 44\n")
    print("| text | " + " | ".join(f"{size // 1024} KiB" for size in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    worst = dict.fromkeys(sizes, 0.0)
    for name, make in HOSTILE_TEXTS.items():
        if name in BLANK_TEXTS:  # in a table of their own, below, by size up to 1 MiB
            continue
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
    blank(blank_sizes, args.repeat)


if __name__ == "__main__":
    main()
