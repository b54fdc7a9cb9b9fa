#!/usr/bin/env python3
"""How long the `spite` command takes, against merely importing its libraries, and how big a whole game's saves are.

Wall time of `spite show`, `spite verify`, `spite games` and `spite play --auto` on the mid-game
example save (Alice answers examples/saves/14-bob.toml, an ordinary turn), and of `spite show` and
`spite verify` of a file that carries a proof of shuffle of the whole deck (Alice answers Bob's
first deal step in a fresh match), the first look at it and a second one (whose proof the journal
remembers), each run on a fresh copy because they record in the journal and play writes a file,
against two baselines, in alternating rounds (the order rotates every round): importing only the
library modules a command needs (typer, rich's console and table, cryptography's Ed25519, AES-GCM
and HKDF, nacl, sqlite3), and ``python -c "import typer, rich, nacl, cryptography"``.
Prints the medians and the ratios to the first baseline, then the targets of issue 22 and whether
each is met (show, verify and games of an ordinary turn within 1.5x the baseline, show within 1.3x for issue 35; a second look at a
proof file within 1.1x an ordinary `spite show`; the first look within 0.25 s), the target of issue 32 (`spite show`
of the same turn in Vietnamese within 1.1x the English), then the save sizes
over one whole g4a game (`spite new --target 1`, both sides `spite play --auto`), as markdown
tables and one JSON line:

    python benchmarks/cli_speed.py [--rounds 7] [--think SECONDS] [--size-think 0.05] [--no-sizes] [--breakdown] [--cpu]
                                   [--other-spite PATH]

--other-spite times `spite show` of another installation's `spite` (an earlier version in a venv of its own) in the
same rounds, and gives the ratio of this one's English `spite show` to it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
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
NEEDED = (
    "import typer, rich.console, rich.table, sqlite3, nacl.bindings; "
    "from cryptography.hazmat.primitives.asymmetric import ed25519; "
    "from cryptography.hazmat.primitives.ciphers.aead import AESGCM; "
    "from cryptography.hazmat.primitives.kdf.hkdf import HKDF"
)
BASELINE = [sys.executable, "-c", NEEDED]  # the libraries' modules a command cannot do without
TOP_LEVEL = [sys.executable, "-c", "import typer, rich, nacl, cryptography"]  # the baseline of earlier figures
TARGET_RATIO = 1.5  # show, verify and games of an ordinary turn against BASELINE
TARGET_SHOW = 1.3  # issue 35: spite show of an ordinary turn against BASELINE, once it imports only what looking needs
TARGET_SECOND_LOOK = 1.1  # a second look at a file with a proof of shuffle against spite show of an ordinary turn
TARGET_FIRST_LOOK = 0.25  # seconds: the first look at such a file
TARGET_LANGUAGE = 1.1  # spite show of an ordinary turn in Vietnamese against the same in English
OWN_PACKAGES = ("pbm", "engine")
# spite's main() freezes what the imports made (gc.freeze), which spares the collections that would walk it again,
# among them the full one at exit: the import rows marked "frozen" do the same, so that they add up to the command.
FREEZE = "; import gc; gc.freeze()"


def spite_command() -> list[str]:
    """The installed console script, as a player runs it; `python -m pbm.cli` if it is not on PATH."""
    script = shutil.which("spite")
    return [script] if script else [sys.executable, "-m", "pbm.cli"]


# Every command runs with the same environment. Unless --no-bytecode-cache, Python may write its bytecode cache, kept
# under a private prefix (not in the source tree): an installed spite has compiled .pyc files, and with
# PYTHONDONTWRITEBYTECODE=1 every run would compile the project's own modules again and measure that instead.
BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("SPITE_PASSPHRASE", "SPITE_LOCALEDIR")}
BASE_ENV["SPITE_LANG"] = "en"  # the runs read "Wrote …" from what spite says; the Vietnamese row sets its own


def use_bytecode_cache(prefix: str) -> None:
    BASE_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    BASE_ENV["PYTHONPYCACHEPREFIX"] = prefix


def env_for(home: Path) -> dict[str, str]:
    return {**BASE_ENV, "SPITE_HOME": str(home), "COLUMNS": "100", "NO_COLOR": "1"}


CLOCK = {"cpu": False}  # --cpu: time by the CPU a run used (user + system), which other people's load disturbs less than wall time


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> tuple[float, str]:
    """Seconds of one command run to completion (wall, or CPU with --cpu), and its stdout; fails loudly on a non-zero exit."""
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(args, env=env or BASE_ENV, cwd=cwd, capture_output=True, text=True)
    seconds = _cpu() - cpu if CLOCK["cpu"] else time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return seconds, done.stdout


def on_copy(spite: list[str], args: list[str], with_file: bool = True, lang: str = "en") -> Callable[[], float]:
    """A run of `spite ARGS <copy>/saves/14-bob.toml` as Alice, on a fresh copy of examples/ (copying is not timed),
    speaking language `lang`."""

    def run() -> float:
        with tempfile.TemporaryDirectory() as tmp:
            ex = Path(shutil.copytree(EXAMPLES, Path(tmp) / "examples"))
            env = {**env_for(ex / "keys" / "alice"), "SPITE_LANG": lang}
            return timed([*spite, *args, *([str(ex / LATEST)] if with_file else [])], env)[0]

    return run


def fresh_players(root: Path, spite: list[str]) -> dict[str, Path]:
    """Spite homes for Alice and Bob under `root`, each with a new identity."""
    homes = {who: root / who for who in ("alice", "bob")}
    for who, home in homes.items():
        timed([*spite, "id", "--name", who.title()], env_for(home))
    return homes


def written(text: str, folder: Path) -> Path | None:
    """The file a command said it wrote ("Wrote …"), or None."""
    wrote = re.search(r"^Wrote (.+)$", text, re.MULTILINE)
    if wrote is None:
        return None
    path = Path(wrote.group(1))
    return path if path.is_absolute() else folder / path.name


def deck_proof_match(root: Path, spite: list[str]) -> Path:
    """A fresh match in `root` where Alice is to answer Bob's first deal step, which carries a proof of shuffle of the
    whole deck (104 points, the largest proof a file carries); returns that file."""
    homes = fresh_players(root / "keys", spite)
    saves = root / "saves"
    saves.mkdir()
    invite = saves / "invite.toml"
    timed([*spite, "new", "-o", str(invite)], env_for(homes["alice"]))
    _, text = timed([*spite, "play", "--auto", str(invite)], env_for(homes["bob"]))
    path = written(text, saves)
    if path is None:
        raise SystemExit(f"Bob's answer to the invitation wrote no file:\n{text}")
    return path


def on_proof_copy(spite: list[str], args: list[str], match: Path, file: Path, again: bool = False) -> Callable[[], float]:
    """A run of `spite ARGS FILE` as Alice on a fresh copy of the match made by :func:`deck_proof_match`; with `again`,
    the second of two runs (the first, untimed, leaves its checked proof in the journal)."""

    def run() -> float:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(shutil.copytree(match, Path(tmp) / "match"))
            command, env = [*spite, *args, str(copy / file.relative_to(match))], env_for(copy / "keys" / "alice")
            if again:
                timed(command, env)
            return timed(command, env)[0]

    return run


def rounds_of(kinds: dict[str, Callable[[], float]], rounds: int) -> dict[str, list[float]]:
    """Seconds per run of each kind, `rounds` of each, interleaved, the order rotating every round (after one untimed warm-up)."""
    times: dict[str, list[float]] = {name: [] for name in kinds}
    names = list(kinds)
    for name in names:
        kinds[name]()
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            times[name].append(kinds[name]())
    return times


def speed(rounds: int, think: float | None, spite: list[str], other: list[str] | None = None) -> dict[str, list[float]]:
    """Seconds per run of the baselines, `show`, `verify`, `games` and `play --auto`, and of `show` and `verify` of a
    file that carries a proof of shuffle of the whole deck (and `show` of the `other` spite, if given)."""
    play_args = ["play", "--auto", *(["--think", str(think)] if think is not None else [])]
    with tempfile.TemporaryDirectory() as tmp:
        match = Path(tmp)
        proof_file = deck_proof_match(match, spite)
        others = {"spite show, the other spite": on_copy(other, ["show"])} if other else {}
        return rounds_of(
            {
                **others,
                "import baseline": lambda: timed(BASELINE)[0],
                "import typer, rich, nacl, cryptography": lambda: timed(TOP_LEVEL)[0],
                "spite show": on_copy(spite, ["show"]),
                "spite show, in Vietnamese": on_copy(spite, ["show"], lang="vi"),
                "spite verify": on_copy(spite, ["verify"]),
                "spite games": on_copy(spite, ["games"], with_file=False),
                "spite play --auto": on_copy(spite, play_args),
                "spite show, proof of the deck": on_proof_copy(spite, ["show"], match, proof_file),
                "spite verify, proof of the deck": on_proof_copy(spite, ["verify"], match, proof_file),
                "spite show, proof of the deck, second look": on_proof_copy(spite, ["show"], match, proof_file, again=True),
                "spite verify, proof of the deck, second look": on_proof_copy(spite, ["verify"], match, proof_file, again=True),
            },
            rounds,
        )


def library_modules() -> list[str]:
    """Every module that importing pbm.cli loads beyond a bare interpreter, but spite's own: what it really uses of its libraries.

    Aliases and cffi's lib objects (_sodium, _sodium.lib) come along with their module and cannot be imported by that name.
    """
    code = (
        "import sys; bare = set(sys.modules); import pbm.cli; "
        "print(' '.join(m for m, mod in sys.modules.items() if m not in bare "
        f"and getattr(getattr(mod, '__spec__', None), 'name', None) == m and m.split('.')[0] not in {OWN_PACKAGES!r}))"
    )
    return timed([sys.executable, "-c", code])[1].split()


def breakdown(rounds: int, spite: list[str]) -> dict[str, float]:
    """Where the wall time of `spite show` goes: interpreter, imports, the command itself (medians, s)."""
    python = [sys.executable, "-c"]
    used = "import importlib\nfor m in " + repr(library_modules()) + ":\n    importlib.import_module(m)\n"
    kinds: dict[str, Callable[[], float]] = {
        "python -c pass": lambda: timed([*python, "pass"])[0],
        "import baseline": lambda: timed(BASELINE)[0],
        "import the libraries' modules spite uses": lambda: timed([*python, used])[0],
        "import the libraries' modules spite uses, frozen": lambda: timed([*python, used + FREEZE[2:]])[0],
        "import pbm.cli": lambda: timed([*python, "import pbm.cli"])[0],
        "import pbm.cli, frozen": lambda: timed([*python, "import pbm.cli" + FREEZE])[0],
        "spite show": on_copy(spite, ["show"]),
    }
    medians = {k: statistics.median(v) for k, v in rounds_of(kinds, rounds).items()}
    medians.update(in_process())
    return medians


def import_self_times(rounds: int) -> dict[str, float]:
    """Median self time (s) of importing pbm.cli under -X importtime (which inflates it), by package.

    A standard-library module counts for the nearest package above it in the import tree (json under pbm counts
    for pbm's standard library, inspect under typer for typer's); modules that `python -c pass` loads as well are left out.
    """

    def tree(code: str) -> list[tuple[int, str, float]]:
        args = [sys.executable, "-X", "importtime", "-c", code]
        rows = []
        for line in subprocess.run(args, env=BASE_ENV, capture_output=True, text=True).stderr.splitlines():
            fields = line.removeprefix("import time:").split("|")
            if len(fields) == 3 and fields[0].strip().isdigit():
                name = fields[2].rstrip()
                rows.append((len(name) - len(name.lstrip()), name.strip(), int(fields[0]) / 1e6))
        return rows

    bare = {name for _, name, _ in tree("pass")}
    runs: list[dict[str, float]] = []
    for _ in range(rounds):
        totals: dict[str, float] = {}
        rows = tree("import pbm.cli")
        for i, (depth, name, seconds) in enumerate(rows):
            if name in bare:
                continue
            owner = name.split(".")[0]
            for d, outer, _ in rows[i + 1 :]:  # -X importtime lists a module before its importer, one level less indented
                if owner not in sys.stdlib_module_names:
                    break
                if d < depth:
                    depth, owner = d, outer.split(".")[0]
            key = owner if owner == name.split(".")[0] else f"{owner}: the standard library it imports"
            totals[key] = totals.get(key, 0.0) + seconds
        runs.append(totals)
    names = {name for run in runs for name in run}
    return dict(sorted(((n, statistics.median(run.get(n, 0.0) for run in runs)) for n in names), key=lambda kv: -kv[1]))


def in_process(n: int = 9) -> dict[str, float]:
    """Medians (s) of the steps of `spite show` run in this process on fresh copies: journal open, open_save, record."""
    from pbm.client.receive import open_save
    from pbm.identity import load_or_create
    from pbm.journal import Journal

    steps: dict[str, list[float]] = {"in-process Journal.open": [], "in-process open_save": [], "in-process journal.record": []}
    for _ in range(n):
        with tempfile.TemporaryDirectory() as tmp:
            ex = Path(shutil.copytree(EXAMPLES, Path(tmp) / "examples"))
            identity = load_or_create(ex / "keys" / "alice")
            t0 = time.perf_counter()
            journal = Journal.open(ex / "keys" / "alice")
            t1 = time.perf_counter()
            opened = open_save(ex / LATEST, identity, journal)
            t2 = time.perf_counter()
            journal.record(opened.save, ex / LATEST)
            t3 = time.perf_counter()
            journal.close()
        for name, seconds in zip(steps, (t1 - t0, t2 - t1, t3 - t2), strict=True):
            steps[name].append(seconds)
    return {k: statistics.median(v) for k, v in steps.items()}


def game_sizes(think: float, spite: list[str]) -> dict[str, object]:
    """Bytes of every save of one whole g4a game between two fresh players playing `spite play --auto`."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        homes = fresh_players(root, spite)
        saves = root / "saves"
        saves.mkdir()
        _, text = timed([*spite, "new", "--target", "1", "-o", str(saves / "invite.toml")], env_for(homes["alice"]))
        path, reader, files = saves / "invite.toml", "bob", [saves / "invite.toml"]
        while True:
            _, text = timed([*spite, "play", "--auto", "--think", str(think), str(path)], env_for(homes[reader]))
            wrote = written(text, saves)
            if wrote is None:
                break
            path = wrote
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
    parser.add_argument("--no-bytecode-cache", action="store_true", help="run with the environment's bytecode settings as they are")
    parser.add_argument("--breakdown", action="store_true", help="also split the time of spite show: startup, imports, journal")
    parser.add_argument("--cpu", action="store_true", help="time the runs by the CPU they used, not by the wall clock")
    parser.add_argument("--other-spite", type=Path, help="another installation's spite command, whose show is timed beside")
    args = parser.parse_args()
    CLOCK["cpu"] = args.cpu
    with tempfile.TemporaryDirectory(prefix="spite-bench-pyc-") as pyc:
        if not args.no_bytecode_cache:
            use_bytecode_cache(pyc)
        run(args)


def issue_targets(medians: dict[str, float]) -> list[tuple[str, float, float, str]]:
    """Each target of issues 22, 32 and 35 with its figure: (what, figure, target, unit), a ratio ("x") or seconds (" s")."""
    base, show = medians["import baseline"], medians["spite show"]
    rows = [(f"{name}, ordinary turn, against the baseline", medians[name] / base, TARGET_RATIO, "x") for name in COMMANDS]
    rows.append(("spite show, ordinary turn, against the baseline (issue 35)", show / base, TARGET_SHOW, "x"))
    for name in ("spite show", "spite verify"):
        again = medians[f"{name}, proof of the deck, second look"]
        what = f"{name}, proof of the deck, second look, against spite show of an ordinary turn"
        rows.append((what, again / show, TARGET_SECOND_LOOK, "x"))
    for name in ("spite show", "spite verify"):
        rows.append((f"{name}, proof of the deck, first look", medians[f"{name}, proof of the deck"], TARGET_FIRST_LOOK, " s"))
    rows.append(
        ("spite show, ordinary turn, in Vietnamese against English", medians["spite show, in Vietnamese"] / show, TARGET_LANGUAGE, "x")
    )
    return rows


COMMANDS = ("spite show", "spite verify", "spite games")


def run(args: argparse.Namespace) -> None:
    spite = spite_command()
    times = speed(args.rounds, args.think, spite, [str(args.other_spite)] if args.other_spite else None)
    medians = {name: statistics.median(values) for name, values in times.items()}
    base = medians["import baseline"]
    cache = "no bytecode cache" if args.no_bytecode_cache else "bytecode cached"
    clock = "CPU seconds (user + system)" if args.cpu else "wall seconds"
    print(f"command: {' '.join(spite)} (python {sys.version.split()[0]}, {os.cpu_count()} cores, {cache}), {args.rounds} rounds, {clock}\n")
    print(f"baseline: python -c {NEEDED!r}\n")
    print("| command | median s | min s | max s | ratio to the baseline |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in times.items():
        print(f"| {name} | {medians[name]:.3f} | {min(values):.3f} | {max(values):.3f} | {medians[name] / base:.2f}x |")
    targets = issue_targets(medians)
    if args.other_spite:
        other = medians["spite show, the other spite"]
        print(f"\nspite show against the other spite ({args.other_spite}): {medians['spite show'] / other:.3f}x\n")
    print("\nThe targets of issues 22, 32 and 35:\n")
    print("| what | figure | target | met |")
    print("| --- | ---: | ---: | --- |")
    for what, figure, target, unit in targets:
        print(f"| {what} | {figure:.2f}{unit} | {target:.2f}{unit} | {'yes' if figure <= target else 'no'} |")
    result: dict[str, object] = {
        "rounds": args.rounds,
        "median_s": {k: round(v, 4) for k, v in medians.items()},
        "ratio": {k: round(v / base, 3) for k, v in medians.items() if k != "import baseline"},
        "targets": {what: {"figure": round(figure, 3), "target": target, "met": figure <= target} for what, figure, target, _ in targets},
        "think": args.think,
        "bytecode_cache": not args.no_bytecode_cache,
        "clock": "cpu" if args.cpu else "wall",
    }
    if args.other_spite:
        result["show_against_other_spite"] = round(medians["spite show"] / medians["spite show, the other spite"], 3)
    if args.breakdown:
        parts = breakdown(args.rounds, spite)
        print("\nWhere `spite show` spends its time (medians):\n")
        print("| step | ms |")
        print("| --- | ---: |")
        for name, seconds in parts.items():
            print(f"| {name} | {seconds * 1000:.1f} |")
        result["breakdown_ms"] = {k: round(v * 1000, 1) for k, v in parts.items()}
        selfs = import_self_times(args.rounds)
        print("\nSelf time of importing pbm.cli by package (python -X importtime, which inflates it; medians):\n")
        print("| package | ms |")
        print("| --- | ---: |")
        for name, seconds in selfs.items():
            if seconds >= 0.0003:
                print(f"| {name} | {seconds * 1000:.1f} |")
        result["import_self_ms"] = {k: round(v * 1000, 2) for k, v in selfs.items()}
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
