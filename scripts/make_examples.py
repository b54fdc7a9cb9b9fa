#!/usr/bin/env python3
"""Regenerate examples/: demo homes (Alice, Bob, Mallory), a real match in progress, and tampered saves.

Every good save is written by the real `spite` command (``python -m pbm.cli``) with SPITE_HOME
pointing at a demo home, run from the repository root so the commands in examples/README.md
work there. Keys and match ids are random, so each run gives different bytes; the file names,
the story and the errors the tampered files provoke stay the same. examples/README.md is kept.

    python scripts/make_examples.py
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
KEYS = EXAMPLES / "keys"
SAVES = EXAMPLES / "saves"
TAMPERED = SAVES / "tampered"
NAMES = {"alice": "Alice (demo)", "bob": "Bob (demo)", "mallory": "Mallory (demo)"}
FILES = 14  # saves in the real match: the last one is Bob's, and Alice is to answer it
FORKED = 12  # Bob's save that gets a second, different version (Alice has already answered the first)

WARNING = """\
DEMO KEYS ONLY -- PUBLIC ON PURPOSE -- NEVER USE THEM FOR A REAL MATCH.

This directory is the spite home of "{name}", a made-up player of the examples in
examples/saves/. Its private key (identity.pem) is published in the spite repository, so
anyone can sign saves as "{name}". Use it only to try spite:

    SPITE_HOME=examples/keys/{who} spite show examples/saves/{latest}

Your own key lives in your own spite home (made by `spite id`), never here.
Regenerate with: python scripts/make_examples.py
"""


def save_name(seq: int, who: str) -> str:
    """The example's name for save `seq`: its number and who wrote it, so `ls` lists the match in order."""
    return f"{seq:02d}-{who}.toml"


def spite(who: str | Path, *args: str, home: Path | None = None) -> str:
    """Run the real `spite` command as `who` from the repository root; return its stdout, fail loudly otherwise."""
    env = {k: v for k, v in os.environ.items() if k != "SPITE_PASSPHRASE"}
    env.update(SPITE_HOME=str(home or (KEYS / str(who)).relative_to(ROOT)), COLUMNS="100", NO_COLOR="1", SPITE_LANG="en")  # read in English
    done = subprocess.run([sys.executable, "-m", "pbm.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"spite {' '.join(args)} (as {who}) failed with status {done.returncode}:\n{done.stdout}{done.stderr}")
    return done.stdout


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def make_homes() -> str:
    """Fresh demo homes with their warnings; returns Bob's public key text."""
    for who, name in NAMES.items():
        home = KEYS / who
        shutil.rmtree(home, ignore_errors=True)
        spite(who, "id", "--name", name)
        (home / "README.txt").write_text(WARNING.format(name=name, who=who, latest=save_name(FILES, "bob")))
    match = re.search(r"^public key:\s+(spite1:\S+)$", spite("bob", "id"), re.MULTILINE)
    assert match, "spite id printed no public key"
    return match.group(1)


def play_match(bob_key: str, snapshot: Path) -> None:
    """Alice invites Bob, then both let the expert bot play until FILES saves exist; Bob's home is copied before save FORKED."""
    shutil.rmtree(SAVES, ignore_errors=True)
    SAVES.mkdir(parents=True)
    first = SAVES / save_name(1, "alice")
    spite("alice", "new", "--name", NAMES["alice"], "--opponent", NAMES["bob"], "--opponent-key", bob_key,
          "--payoff", "8", "--target", "20", "-o", rel(first))  # fmt: skip
    for seq in range(2, FILES + 1):
        who = "bob" if seq % 2 == 0 else "alice"
        if seq == FORKED:
            shutil.copytree(KEYS / "bob", snapshot)
        before = SAVES / save_name(seq - 1, "alice" if who == "bob" else "bob")
        spite(who, "play", "--auto", rel(before), "-o", rel(SAVES / save_name(seq, who)))


def make_tampered(snapshot: Path) -> None:
    """The files Alice must refuse, each made from a real save as a cheat or an accident would make it."""
    from engine.cards import Card
    from pbm import saves
    from pbm.identity import load, player_path

    TAMPERED.mkdir()
    latest = SAVES / save_name(FILES, "bob")
    text = latest.read_text()

    # Bob edits the table by hand: the top card of his pay-off pile becomes an Ace (the second seat's `top`).
    state = text.index("\n[state]\n")
    tops = [m for m in re.finditer(r"^top = (\d+)$", text[state:], re.MULTILINE)]
    old = tops[1]
    ace = next(i for i in (Card.parse("Ah").index, Card.parse("As").index) if i != int(old.group(1)))
    start, end = state + old.start(), state + old.end()
    (TAMPERED / "edited-table.toml").write_text(text[:start] + f"top = {ace}" + text[end:])

    # The file is cut short in the middle of a quoted string (a mail client that lost the end).
    data = latest.read_bytes()
    cut = data.index(b'"', len(data) // 2) + 10
    (TAMPERED / "truncated.toml").write_bytes(data[:cut])

    # A save that claims a format version this spite does not read.
    assert "\nversion = 2\n" in text
    (TAMPERED / "version-3.toml").write_text(text.replace("\nversion = 2\n", "\nversion = 3\n", 1))

    # Bob sends an older file again, one Alice has already answered, hoping to take back a turn.
    shutil.copyfile(SAVES / save_name(FORKED, "bob"), TAMPERED / "replay.toml")

    # Bob plays his turn FORKED a second time, differently, from a copy of his home as it was before.
    fork = TAMPERED / "fork.toml"
    spite("bob", "play", "--auto", rel(SAVES / save_name(FORKED - 1, "alice")), "-o", rel(fork), home=snapshot)
    assert saves.read(fork).hash != saves.read(SAVES / save_name(FORKED, "bob")).hash

    # Mallory puts her own key in Bob's seat and signs the latest save with it.
    mallory = load(player_path(KEYS / "mallory"))
    save = saves.read(latest)
    players = (save.players[0], saves.Player(save.players[1].name, mallory.public_text))
    forged = saves.sign(dataclasses.replace(save, players=players, signature=""), mallory)
    (TAMPERED / "stranger.toml").write_bytes(saves.to_toml(forged))


def check() -> bool:
    """The story holds: Alice accepts Bob's latest save and it is mid-game with her to move; whether she holds a King,
    which the tests of completion need (`K-c…`), so that a run without one is made again.

    On copies of the demo homes: a command records the files it opens, and Alice has not seen Bob's latest yet.
    """
    import json

    with tempfile.TemporaryDirectory() as tmp:
        homes = {who: Path(shutil.copytree(KEYS / who, Path(tmp) / who)) for who in ("alice", "bob")}
        out = spite("alice", "verify", rel(SAVES / save_name(FILES, "bob")), home=homes["alice"])
        assert out.rstrip().endswith("OK"), out
        summary = json.loads(spite("bob", "show", "--json", rel(SAVES / save_name(FILES, "bob")), home=homes["bob"]))
        hers = json.loads(spite("alice", "show", "--json", rel(SAVES / save_name(FILES, "bob")), home=homes["alice"]))
    assert summary["to_move"] == NAMES["alice"] and not summary["game_over"], summary
    return any(card.startswith("K") for card in hers["hand"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    sys.path.insert(0, str(ROOT))
    for attempt in range(1, 31):
        with tempfile.TemporaryDirectory() as tmp:
            snapshot = Path(tmp) / "bob-before"
            bob_key = make_homes()
            play_match(bob_key, snapshot)
            make_tampered(snapshot)
        if check():
            break
        print(f"attempt {attempt}: Alice holds no King at the end; dealing again")
    else:
        raise SystemExit("30 matches without a King in Alice's last hand")
    for home in KEYS.iterdir():
        shutil.rmtree(home / "locks", ignore_errors=True)  # the lock files of a match: nothing to keep
    for path in sorted(SAVES.rglob("*.toml")):
        print(f"{path.stat().st_size:6d}  {rel(path)}")


if __name__ == "__main__":
    main()
