"""`spite practice` in a real pseudo-terminal: typed moves, a refused one, quit, resume, and the files verify."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

PROMPT = "your move> "
LEGAL = re.compile(r"Legal moves: (.*)")


def spawn(home: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "SPITE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
    return pexpect.spawn(sys.executable, ["-m", "pbm.cli", "practice", *args], env=env, encoding="utf-8", timeout=60, dimensions=(50, 100))


def legal_moves(child: pexpect.spawn) -> list[str]:
    child.sendline("?")
    child.expect(LEGAL)
    moves = child.match.group(1).split()
    child.expect_exact(PROMPT)
    return moves


def play_a_turn(child: pexpect.spawn) -> str:
    """Type one legal discard (it ends the turn) and return it."""
    moves = legal_moves(child)
    discard = next(m for m in moves if re.fullmatch(r"\w+-s\d", m) or m == "end")
    child.sendline(discard)
    return discard


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_practice_plays_refuses_quits_resumes_and_its_files_verify(tmp_path: Path) -> None:
    home = tmp_path / "home"
    child = spawn(home, "--level", "easy", "--payoff", "5", "--target", "5")
    child.expect_exact("New practice match against the computer")
    child.expect_exact(PROMPT)

    child.sendline("p-s1")  # well written, but a pay-off card never goes to a side stack (R6)
    child.expect_exact("refused: p-s1: pay-off cards go only to center stacks (R6)")
    child.expect_exact(PROMPT)
    child.sendline("7c2")  # not notation at all
    child.expect_exact("refused: '7c2' is not a move")
    child.expect_exact(PROMPT)

    for _ in range(2):
        play_a_turn(child)
        child.expect_exact("The computer played:")
        child.expect_exact(PROMPT)
    child.sendline("q")
    child.expect_exact("Nothing written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    resumed = spawn(home, "--resume")
    resumed.expect(r"Resuming (\S+\.toml)")
    latest = Path(resumed.match.group(1))
    resumed.expect_exact(PROMPT)
    play_a_turn(resumed)
    resumed.expect_exact("The computer played:")
    resumed.expect_exact(PROMPT)
    resumed.sendline("q")
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 0

    files = sorted((home / "practice" / "saves").glob("*.toml"), key=lambda p: p.stat().st_mtime)
    assert latest in files and len(files) >= 8  # invitation, deal, and two files a turn since
    env = {**os.environ, "SPITE_HOME": str(home), "NO_COLOR": "1"}
    check = subprocess.run([sys.executable, "-m", "pbm.cli", "verify", str(files[-1])], env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert "OK" in check.stdout and "signature: good, by Computer" in check.stdout
