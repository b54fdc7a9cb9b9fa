#!/usr/bin/env python3
"""Build spite as one executable for this system, with its own Python inside, for players who have no Python at all.

PyInstaller (the `build` extras) bundles this checkout's engine/ and pbm/ with the Python running this script and every
library spite uses. PyInstaller does not cross-compile: run this on Linux for Linux, on Windows for Windows (spite.exe),
on macOS for macOS (the machine's own architecture); the result runs on that system without Python, from any folder.

    python -m pip install -e ".[build]"              # spite and its libraries, and PyInstaller
    python scripts/build_standalone.py               # dist/spite (dist\\spite.exe on Windows)
    python scripts/build_standalone.py --out DIR     # DIR/spite (PyInstaller's work files: a temporary folder)

What PyInstaller cannot see by itself is named here: the command modules that pbm/cli/app.py imports by name when a
command asks for them (every module of pbm and engine goes in), the compiled catalogues
(pbm/locale/*/LC_MESSAGES/spite.mo), spite's own metadata (for `spite --version`), and the start of the worker processes
of `spite arena --jobs N`. tests/test_standalone.py (marked slow) checks the result: every command's help, `--lang vi`,
and a practice match played to its end from a folder outside the checkout; `.ci/run` runs it.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = "spite"

# The executable's entry: spite's console script (pbm.launch:main). freeze_support() first: `spite arena --jobs N` starts
# worker processes, which in a frozen program re-run this executable (on Windows and macOS always, where they are
# spawned) and must be told apart from a player's command there.
ENTRY = """\
import multiprocessing

multiprocessing.freeze_support()

from pbm.launch import main

main()
"""


def executable_name() -> str:
    """The file PyInstaller makes: spite, or spite.exe on Windows."""
    return NAME + (".exe" if sys.platform == "win32" else "")


def catalogues() -> list[Path]:
    """The compiled catalogues the executable must carry; an error when none is there (scripts/catalogues.py compile)."""
    found = sorted((ROOT / "pbm" / "locale").glob("*/LC_MESSAGES/spite.mo"))
    if not found:
        raise SystemExit("build_standalone: no pbm/locale/*/LC_MESSAGES/spite.mo: run python scripts/catalogues.py compile")
    return found


def pyinstaller_args(entry: Path, out: Path, work: Path) -> list[str]:
    """PyInstaller's command line for one executable in `out`, its work files in `work`."""
    args = [
        str(entry),
        "--onefile",
        "--console",
        "--name",
        NAME,
        "--distpath",
        str(out),
        "--workpath",
        str(work / "build"),
        "--specpath",
        str(work),
        "--noconfirm",
        "--log-level",
        "WARN",
        # this checkout's engine and pbm, whatever spite the environment has installed (another checkout's, say)
        "--paths",
        str(ROOT),
        # pbm.cli's command modules are imported by name (app.GROUPS), and the bots by make_bot: every module goes in
        "--collect-submodules",
        "pbm",
        "--collect-submodules",
        "engine",
        "--copy-metadata",
        NAME,  # `spite --version` reads the installed distribution's version
    ]
    for mo in catalogues():
        # where pbm/i18n.py looks: <pbm's folder>/locale/CODE/LC_MESSAGES/spite.mo, inside the bundle as in the checkout
        args += ["--add-data", f"{mo}{os.pathsep}{mo.parent.relative_to(ROOT).as_posix()}"]
    return args


def build(out: Path) -> Path:
    """Build the executable into `out` and return its path; PyInstaller's work files go to a temporary folder."""
    if importlib.util.find_spec("PyInstaller") is None:
        raise SystemExit('build_standalone: PyInstaller is not installed: python -m pip install -e ".[build]"')
    try:
        importlib.metadata.version(NAME)  # installed: then so are the libraries it needs, which go into the executable
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit('build_standalone: spite is not installed in this Python: python -m pip install -e ".[build]"') from None
    pyinstaller = importlib.import_module("PyInstaller.__main__")  # by name: PyInstaller ships no type information

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="spite-build-") as scratch:
        work = Path(scratch)
        entry = work / "spite_standalone.py"
        entry.write_text(ENTRY, encoding="utf-8")
        pyinstaller.run(pyinstaller_args(entry, out.resolve(), work))
    return out / executable_name()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the folder the executable is written to (default: dist/)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    made = build(args.out)
    if not made.is_file():
        raise SystemExit(f"build_standalone: PyInstaller made no {made}")
    size = made.stat().st_size / 2**20
    where = f"{platform.system()} {platform.machine()}, Python {platform.python_version()}"
    print(f"{made}: {size:.1f} MiB, for {where}, built in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
