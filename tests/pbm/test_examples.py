"""examples/ (made by scripts/make_examples.py): the demo match verifies and shows for both players, every tampered file is refused.

Every test works on a copy of examples/: spite records what it sees in the demo journals and
writes answers next to the file it reads, and the committed journals must never change.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import pbm.cli

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LATEST = "saves/14-bob.toml"  # Bob's latest turn; Alice is to answer it
ALICE, BOB = "Alice (demo)", "Bob (demo)"
WIDTH = 100


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def __str__(self) -> str:
        return f"exit {self.exit_code}\n--- stdout\n{self.stdout}--- stderr\n{self.stderr}"


@pytest.fixture
def ex(tmp_path: Path) -> Path:
    """A private copy of examples/, its keys private as `spite` wants them (git keeps no file modes but the executable bit)."""
    copy = Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))
    for key in copy.glob("keys/*/identity.pem"):
        key.chmod(0o600)
    return copy


@pytest.fixture(autouse=True)
def plain_consoles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's consoles as a 100-column terminal without colour makes them (they are built at import)."""
    plain = {"highlight": False, "markup": False, "width": WIDTH, "no_color": True, "color_system": None}
    monkeypatch.setattr(pbm.cli.session, "out", Console(**plain))
    monkeypatch.setattr(pbm.cli.session, "err", Console(stderr=True, **plain))


def spite(ex: Path, who: str, *args: str | Path, input: str | None = None) -> Run:
    """`spite ARGS` in-process with SPITE_HOME=<copy>/keys/<who>; no command may end in a traceback."""
    env = {"SPITE_HOME": str(ex / "keys" / who), "COLUMNS": str(WIDTH), "NO_COLOR": "1", "SPITE_PASSPHRASE": None}
    result = CliRunner().invoke(pbm.cli.app, [str(a) for a in args], env=env, input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"spite {args} raised {result.exception!r}") from result.exception
    run = Run(result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in run.stdout + run.stderr, run
    return run


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- the demo homes ---


@pytest.mark.parametrize("who", ["alice", "bob", "mallory"])
def test_every_demo_home_says_its_keys_are_public(who: str) -> None:
    home = EXAMPLES / "keys" / who
    assert "DEMO KEYS ONLY" in (home / "README.txt").read_text()
    assert "(demo)" in (home / "identity.pem").read_text().splitlines()[0]  # the name line
    assert "DEMO KEYS ONLY" in (EXAMPLES / "README.md").read_text().split("\n## ")[0]


def test_every_file_the_readme_names_exists() -> None:
    named = set(re.findall(r"`((?:saves/)?(?:tampered/)?[\w-]+\.toml)`", (EXAMPLES / "README.md").read_text()))
    assert LATEST in named or LATEST.removeprefix("saves/") in named
    for name in named:
        assert (EXAMPLES / name).is_file() or (EXAMPLES / "saves" / name).is_file() or (EXAMPLES / "saves/tampered" / name).is_file(), name


# --- the good saves ---


def test_alice_verifies_bobs_latest_save(ex: Path) -> None:
    run = spite(ex, "alice", "verify", ex / LATEST)
    assert run.exit_code == 0, run
    assert f"signature: good, by {BOB}" in run.stdout
    assert "chain:     continues" in run.stdout
    assert run.stdout.rstrip().endswith("OK"), run


@pytest.mark.parametrize(("who", "latest_own"), [("bob", LATEST), ("alice", "saves/13-alice.toml")])
def test_each_player_verifies_their_own_latest_save(ex: Path, who: str, latest_own: str) -> None:
    run = spite(ex, who, "verify", ex / latest_own)
    assert run.exit_code == 0, run
    assert "your own file" in run.stdout


def test_show_gives_each_player_their_own_view_only(ex: Path) -> None:
    before = digests(EXAMPLES)
    views = {}
    for who, name, other in (("alice", ALICE, BOB), ("bob", BOB, ALICE)):
        data = json.loads(spite(ex, who, "show", "--json", ex / LATEST).stdout)
        assert data["you"] == name and data["to_move"] == ALICE and not data["game_over"]
        assert "hand" not in data["opponent"] and data["opponent"]["hand_count"] >= 1  # the opponent's hand: a count
        board = spite(ex, who, "show", ex / LATEST)
        assert board.exit_code == 0, board
        assert re.search(rf"^{re.escape(name[:9])}\S* *╭.*\n^\(you\) ", board.stdout, re.MULTILINE), board
        assert re.search(rf"^{re.escape(other[:9])}\S* *╭.*\n^hand {data['opponent']['hand_count']} ", board.stdout, re.MULTILINE), board
        assert len(re.findall(r"^hand  ", board.stdout, re.MULTILINE)) == 1, board  # one hand shown card by card: theirs
        assert ("Next file: you" in board.stdout) == (who == "alice"), board
        views[who] = data
    assert views["alice"]["hand"] != views["bob"]["hand"]
    assert views["alice"]["opponent"]["hand_count"] == len(views["bob"]["hand"])
    assert views["bob"]["opponent"]["hand_count"] == len(views["alice"]["hand"])
    assert digests(EXAMPLES) == before, "a test changed the committed examples"


def test_alice_answers_and_bob_accepts_her_answer(ex: Path) -> None:
    saves = ex / "saves"
    before = set(saves.iterdir())
    run = spite(ex, "alice", "play", "--auto", "--think", "0.02", ex / LATEST)
    assert run.exit_code == 0, run
    (answer,) = set(saves.iterdir()) - before
    check = spite(ex, "bob", "verify", answer)
    assert check.exit_code == 0 and check.stdout.rstrip().endswith("OK"), check


def test_alice_checks_the_turn_code_of_bobs_latest_file(ex: Path) -> None:
    code = spite(ex, "bob", "code", ex / LATEST)
    assert code.exit_code == 0 and code.stdout.startswith("BEGIN SPITE TURN"), code
    check = spite(ex, "alice", "verify", "-", input=code.stdout)
    assert check.exit_code == 0 and "a turn code" in check.stdout and check.stdout.rstrip().endswith("OK"), check


# --- the tampered saves ---

REFUSALS = {
    "edited-table.toml": "the signature does not match: the file was changed after it was signed",
    "truncated.toml": "it is not valid TOML",
    "version-3.toml": "this is a version 3 save; this spite reads version 2",
    "replay.toml": "you have already played from this file",  # play refuses it; show and verify say where it stands
    "fork.toml": f"{BOB} sent two different versions of turn",
    "stranger.toml": f"this file is signed by {BOB} with key",
}


def test_every_tampered_file_has_an_expected_refusal() -> None:
    assert {p.name for p in (EXAMPLES / "saves" / "tampered").iterdir()} == set(REFUSALS)


@pytest.mark.parametrize("command", ["verify", "show", "play"])
@pytest.mark.parametrize(("name", "fragment"), REFUSALS.items(), ids=list(REFUSALS))
def test_alice_refuses_a_tampered_file_and_writes_nothing(ex: Path, name: str, fragment: str, command: str) -> None:
    if name == "replay.toml" and command != "play":
        pytest.skip("an earlier file is shown as it was, not refused (test_an_earlier_file_is_shown_and_verified_as_it_was)")
    folder = ex / "saves" / "tampered"
    files = set(folder.iterdir())
    args = ("play", "--auto", "--think", "0.02") if command == "play" else (command,)
    run = spite(ex, "alice", *args, folder / name)
    assert run.exit_code == 1, run
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: "), run
    assert fragment in lines[0], run
    assert run.stdout == "", run
    assert set(folder.iterdir()) == files


def test_an_earlier_file_is_shown_and_verified_as_it_was(ex: Path) -> None:
    earlier = ex / "saves" / "tampered" / "replay.toml"
    before = digests(ex / "keys" / "alice")
    shown = spite(ex, "alice", "show", earlier)
    assert shown.exit_code == 0 and shown.stderr == "", shown
    assert "This is an earlier file of the match (game 1, turn 10), shown as it was" in " ".join(shown.stdout.split()), shown
    assert "the match has moved on to game 1, turn 11" in " ".join(shown.stdout.split()), shown
    assert "Center" in shown.stdout and "Next file" not in shown.stdout
    data = json.loads(spite(ex, "alice", "show", "--json", earlier).stdout)
    assert data["earlier"] and data["turn"] == 10 and data["history"][-1]["turn"] == 10
    checked = spite(ex, "alice", "verify", earlier)
    assert checked.exit_code == 0, checked
    said = " ".join(checked.stdout.split())
    assert "chain: an earlier file: game 1, turn 10 of match" in said
    assert "the match has moved on to game 1, turn 11" in said and said.endswith("OK")
    assert digests(ex / "keys" / "alice") == before, "looking at an earlier file recorded something"
