"""Driving `spite` in-process for the command-level tests: players with their own spite homes, whole matches, file snapshots."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import pbm.cli
from engine.cards import RANK_TEXT, Card
from pbm import saves
from pbm.identity import Identity, load_or_create
from pbm.render import card_label

WIDTH = 100
ENV = {"COLUMNS": str(WIDTH), "NO_COLOR": "1", "SPITE_PASSPHRASE": None}
THINK = "0.02"  # seconds the expert bot may think per plan: the tests check the files, not the play
_runner = CliRunner()


@dataclass(frozen=True)
class Run:
    """One `spite` command as a player ran it: arguments, exit status and what it printed."""

    args: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def __str__(self) -> str:
        return f"spite {' '.join(self.args)} -> {self.exit_code}\n--- stdout\n{self.stdout}--- stderr\n{self.stderr}"


@contextmanager
def _plain_consoles() -> Iterator[None]:
    """The CLI's two consoles as a player's terminal would make them with COLUMNS=100 and NO_COLOR=1, whatever pytest's own streams are."""
    session = pbm.cli.session
    saved = session.out, session.err
    session.out = Console(highlight=False, emoji=False, markup=False, width=WIDTH, no_color=True, color_system=None)
    session.err = Console(stderr=True, highlight=False, emoji=False, markup=False, width=WIDTH, no_color=True, color_system=None)
    try:
        yield
    finally:
        session.out, session.err = saved


@dataclass
class Player:
    """A player with their own spite home; every command they run is kept in `runs`."""

    name: str
    home: Path
    runs: list[Run] = field(default_factory=list)

    def spite(self, *args: str | Path, input: str | bytes | None = None, env: dict[str, str | None] | None = None) -> Run:
        """Run `spite ARGS` in-process as this player (`input` on standard input, `env` over the usual environment);
        fails the test on any exception other than the CLI's own exit."""
        argv = tuple(str(a) for a in args)
        with _plain_consoles():
            result = _runner.invoke(pbm.cli.app, list(argv), input=input, env={**ENV, "SPITE_HOME": str(self.home), **(env or {})})
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError(f"spite {' '.join(argv)} raised {result.exception!r}") from result.exception
        run = Run(argv, result.exit_code, result.stdout, result.stderr)
        assert "Traceback" not in run.output, run
        self.runs.append(run)
        return run

    def ok(self, *args: str | Path, input: str | bytes | None = None, env: dict[str, str | None] | None = None) -> Run:
        """Run `spite ARGS` and require exit status 0."""
        run = self.spite(*args, input=input, env=env)
        assert run.exit_code == 0, run
        return run

    def show(self, file: Path) -> dict[str, Any]:
        """`spite show --json FILE` as a dict."""
        return json.loads(self.ok("show", "--json", file).stdout)

    @property
    def identity(self) -> Identity:
        return load_or_create(self.home)

    @property
    def public_text(self) -> str:
        return self.identity.public_text


MODULE = [sys.executable, "-m", "pbm.cli"]
WITHOUT_POSIX = [sys.executable, str(Path(__file__).with_name("without_posix.py"))]  # spite as on Windows (without_posix.py)


def _has_pty() -> bool:
    try:
        import pexpect
    except ImportError:  # a Python without the pty module
        return False
    return hasattr(pexpect, "spawn")  # pexpect on Windows has no spawn: there are no pseudo-terminals


HAS_PTY = _has_pty()
needs_pty = pytest.mark.skipif(not HAS_PTY, reason="no pseudo-terminals here (Windows): the terminal tests are POSIX-only")


def pty_pexpect() -> ModuleType:
    """pexpect, for a test module that drives spite in a pseudo-terminal; the whole module is skipped where there are none."""
    if not HAS_PTY:
        pytest.skip(needs_pty.kwargs["reason"], allow_module_level=True)
    import pexpect

    return pexpect


def process_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a real `spite` process run by a player whose spite home is `home` (this worktree's code first)."""
    env = {k: v for k, v in os.environ.items() if k != "SPITE_PASSPHRASE"}
    root = str(Path(__file__).resolve().parents[2])
    env.update({k: v for k, v in ENV.items() if v is not None}, SPITE_HOME=str(home), PYTHONPATH=root, **extra)
    return env


def spite_process(home: Path, *args: str | Path, entry: list[str] = MODULE, **extra: str) -> subprocess.CompletedProcess[str]:
    """Run `spite ARGS` as a real process for the player whose home is `home`; `extra` adds to its environment."""
    return subprocess.run([*entry, *map(str, args)], capture_output=True, text=True, env=process_env(home, **extra), timeout=120)


@contextmanager
def scratch(fallback: Path) -> Iterator[Path]:
    """A fresh directory for spite homes and mail, removed afterwards: on tmpfs when the machine has one, else `fallback`.

    Every command opens and commits the SQLite journal and fsyncs each save it writes: ~20 ms a command on a disk,
    which would triple the time of a whole match.
    """
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        fallback.mkdir(parents=True, exist_ok=True)
        yield fallback
        return
    root = Path(tempfile.mkdtemp(prefix="spite-test-", dir=shm))
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def copied_match(base: Path, fallback: Path) -> Iterator[tuple[Path, list[Path]]]:
    """A private copy of a match played under `base` (spite homes and mail/), so a test may change it freely.

    Yields the copy's root and its files in the order of the chain, the invitation first.
    """
    with scratch(fallback) as root:
        shutil.copytree(base, root, dirs_exist_ok=True)
        yield root, sorted((root / "mail").iterdir(), key=lambda p: saves.read(p).seq)


def make_player(root: Path, name: str) -> Player:
    """A player called `name` with a fresh spite home under `root` (created by `spite id --name`)."""
    player = Player(name, root / f"home-{name.lower()}")
    player.ok("id", "--name", name)
    return player


def files(folder: Path) -> dict[str, bytes]:
    """Every file in `folder` by name, with its bytes: compare before and after a command."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def new_file(before: dict[str, bytes], folder: Path) -> Path | None:
    """The one file a command wrote in `folder` since `before` (None if it wrote none); fails if it changed or wrote more."""
    after = files(folder)
    for name, data in before.items():
        assert after.get(name) == data, f"{name} was changed or removed"
    added = sorted(set(after) - set(before))
    assert len(added) <= 1, f"one command wrote several files: {added}"
    return folder / added[0] if added else None


def assert_refused(run: Run, *fragments: str) -> str:
    """A refusal: exit status 1, nothing on stdout, one line on stderr ("spite: ...") containing every fragment; returns it."""
    assert run.exit_code == 1, run
    assert "Traceback" not in run.output, run
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: "), run
    for fragment in fragments:
        assert fragment.lower() in lines[0].lower(), f"{fragment!r} not in the refusal\n{run}"
    return lines[0]


@dataclass
class Step:
    """One file of a match: who wrote it, and both players' `show --json` of it."""

    path: Path
    writer: Player
    reader: Player
    views: dict[str, dict[str, Any]]  # player name -> show --json
    runs: dict[str, list[Run]]  # player name -> the commands that player ran on this file: verify, show --json, and the reader's play


GAME_OVER = re.compile(r"Game over after turn \d+: (?:(you) win|(\S+) wins|a tie)")


def play_match(first: Player, second: Player, invitation: Path, max_files: int = 400) -> list[Step]:
    """Answer files with `spite play --auto` back and forth until a player has nothing more to send.

    Every file is verified by both players (the writer's own and the receiver's copy) and shown with --json to both,
    before the receiver plays it. Returns the files in order, the invitation first.
    """
    folder = invitation.parent
    writer, reader = first, second
    path = invitation
    steps: list[Step] = []
    for _ in range(max_files):
        mine = writer.ok("verify", path)
        assert "your own file" in mine.stdout, mine
        theirs = reader.ok("verify", path)
        assert theirs.stdout.rstrip().endswith("OK"), theirs
        views = {writer.name: writer.show(path), reader.name: reader.show(path)}
        runs = {writer.name: [mine, writer.runs[-1]], reader.name: [theirs, reader.runs[-1]]}
        steps.append(Step(path, writer, reader, views, runs))
        before = files(folder)
        runs[reader.name].append(reader.ok("play", path, "--auto", "--think", THINK))
        written = new_file(before, folder)
        if written is None:
            return steps
        writer, reader, path = reader, writer, written
    raise AssertionError(f"the match did not end within {max_files} files")


def answer(player: Player, path: Path) -> Path:
    """`player` answers the file at `path` with `spite play --auto`; returns the one new file written beside it."""
    before = files(path.parent)
    player.ok("play", path, "--auto", "--think", THINK)
    written = new_file(before, path.parent)
    assert written is not None
    return written


def invite(root: Path, payoff: int = 5, target: int = 10) -> tuple[Player, Player, Path]:
    """Alice and Bob with homes under `root`; Alice's invitation written to `root`/mail/invitation.toml, returned."""
    alice, bob = make_player(root, "Alice"), make_player(root, "Bob")
    folder = root / "mail"
    folder.mkdir()
    invitation = folder / "invitation.toml"
    alice.ok("new", "--payoff", str(payoff), "--target", str(target), "-o", invitation)
    return alice, bob, invitation


# --- the board and `spite show --json` of the same file ---

HAND_ROW = re.compile(r"^hand {2,}(.*?)$", re.M)  # the caption of the player's own hand (the opponent's says "hand 5")
CARD_FACE = re.compile(r"│([^│\s░]+) *│")  # not the stock's back (░░░), which may be beside the hand


def hand_rows(board: str) -> list[list[str]]:
    """The cards of every own-hand row of the boards in `board`, as they are drawn."""
    return [CARD_FACE.findall(row) for row in HAND_ROW.findall(board)]


def _face(card: str) -> str:
    return card_label(Card.parse(card))


def fan_forms(stack: list[str]) -> list[str]:
    """How the board may draw the middle row of a side stack: covered cards with their suits, by rank, or the top ones by
    rank after a count of the others (``+8``)."""
    cards = [Card.parse(c) for c in stack]
    top = _face(stack[-1]).ljust(3) + "│"
    full = "│" + "".join(_face(c) + "│" for c in stack[:-1]) + top
    ranks = "│" + "".join(RANK_TEXT[c.rank] + "│" for c in cards[:-1]) + top
    covered = cards[:-1]
    counted = [  # the `shown` covered cards nearest the top, after how many lie under them (two or more)
        f"│+{len(covered) - shown}│" + "".join(RANK_TEXT[c.rank] + "│" for c in covered[len(covered) - shown :]) + top
        for shown in range(len(covered) - 1)
    ]
    return [full, ranks, *counted] if len(stack) > 1 else [full]


def assert_board_agrees(board: str, view: dict[str, Any]) -> None:
    """Every card and number of a `spite show --json` view is on the board of the same file, in the board's order."""
    opponent, you = view["opponent"], view["you"]
    assert hand_rows(board)[0] == [_face(c) for c in view["hand"]], board
    for stack in [*view["side"], *opponent["side"]]:
        if stack:
            assert any(form in board for form in fan_forms(stack)), f"side stack {stack} not on the board\n{board}"
    for top in (view["payoff"]["top"], opponent["payoff_top"]):
        if top is not None:
            assert f"│{_face(top):<3}│" in board, board
    assert f"pay-off {view['payoff']['count']}" in board and f"pay-off {opponent['payoff_count']}" in board, board
    assert re.search(rf"^hand {opponent['hand_count']} ", board, re.M), board
    for stack in view["center"]:
        face = _face(stack["cards"][-1]) if stack["cards"] else ""
        assert f"│{face:<3}│ needs {stack['needs']}" in board or f"│{face:<3}│ as " in board, (stack, board)
        assert f"needs {stack['needs']}" in board and f"{stack['to_go']} to go" in board, (stack, board)
    assert f"stock {view['stock']}" in board, board
    assert (f"+{view['shuffling_in']} shuffling in" in board) if view["shuffling_in"] else "shuffling in" not in board, board
    header = " ".join(board.split("\n\n", 1)[0].split())
    if view["next_turn"] is not None:
        assert f"turn {view['next_turn']}: " in header, board
    assert f"{you} {view['scores'][you]} – {opponent['name']} {view['scores'][opponent['name']]}" in header, board
    if view["history"]:
        latest = view["history"][-1]
        who = "Your" if latest["by"] == you else f"{latest['by']}'s"
        assert f"{who} turn {latest['turn']}:" in board and latest["turn"] == view["turn"], board


@dataclass
class Mail:
    """Alice and Bob three files into a match (the invitation, Bob's joining, Alice's answer): `latest` is for Bob to answer."""

    alice: Player
    bob: Player
    folder: Path
    latest: Path

    def temps(self) -> list[Path]:
        """The temp files spite left in the mail folder (a killed write)."""
        return sorted(self.folder.glob(".spite-*.tmp"))


def code_of(player: Player, path: Path) -> list[str] | None:
    """The parts of the turn code `spite code` prints for `path`; None when it says to send the file instead."""
    run = player.spite("code", path)
    if run.exit_code == 1 and "send the file instead" in run.stderr:
        return None
    assert run.exit_code == 0, run
    return run.stdout.strip().split("\n\n")


def calm(writer: Player, path: Path) -> bool:
    """Whether the file at `path`, as its writer sees it, leaves game 1 going with no completed center stack set aside:
    the next turn is then an ordinary turn of game 1, which merges nothing into the stock (its turn code fits a chat)."""
    view = writer.show(path)
    return view["game"] == 1 and view["outcome"] is None and view["shuffling_in"] == 0


def calm_start(root: Path, answers: int, tries: int = 5) -> tuple[Player, Player, Path]:
    """Alice's invitation (piles of 20: no game ends within a few turns) answered `answers` times under `root`, dealt again
    until the latest file is :func:`calm` (a center stack is completed that early now and then); returns Alice,
    Bob and the latest file."""
    for _ in range(tries):
        for child in root.iterdir():  # the last try's homes and mail
            if child.is_dir():
                shutil.rmtree(child)
            else:
                child.unlink()
        alice, bob, path = invite(root, payoff=20)
        reader, writer = bob, alice
        for _ in range(answers):
            path = answer(reader, path)
            reader, writer = writer, reader
        if calm(writer, path):
            return alice, bob, path
    raise AssertionError(f"{tries} deals in a row gave no calm position after {answers} answers")


@contextmanager
def started_match(fallback: Path) -> Iterator[Path]:
    """A match started under a scratch root (spite homes and mail/) as :class:`Mail` describes: copy it with :func:`mail_copy`."""
    with scratch(fallback) as root:
        calm_start(root, 2)  # Bob joins, Alice plays turn 1
        yield root


@contextmanager
def mail_copy(base: Path, fallback: Path) -> Iterator[Mail]:
    """A private copy of a :func:`started_match`, so a test may change it freely."""
    with copied_match(base, fallback) as (root, chain):
        alice, bob = (Player(name, root / f"home-{name.lower()}") for name in ("Alice", "Bob"))
        yield Mail(alice, bob, root / "mail", chain[-1])
