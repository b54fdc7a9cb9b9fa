"""The first contact in a real 80x24 terminal: the fingerprint is the last thing on screen when spite asks about the key."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import MODULE, answer, files, invite, new_file, process_env, pty_pexpect

pexpect = pty_pexpect()  # or the module is skipped: no pseudo-terminals on Windows

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\r]")


def _play(home: Path, file: Path) -> pexpect.spawn:
    env = process_env(home, COLUMNS="80", LINES="24", TERM="xterm", INPUTRC="/dev/null")
    return pexpect.spawn(MODULE[0], [*MODULE[1:], "play", str(file)], env=env, encoding="utf-8", timeout=60, dimensions=(24, 80))


def test_the_key_question_comes_after_the_board_and_no_keeps_the_folder_as_it_was(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    dealt = answer(bob, invitation)
    fingerprint = bob.identity.fingerprint
    before = files(dealt.parent)
    child = _play(alice.home, dealt)
    child.expect_exact("Go on with this key for Bob?")
    shown = ANSI.sub("", child.before or "").splitlines()
    last_screen = [line for line in shown if line.strip()][-6:]  # what 24 rows still show above the question, and more
    assert any(f"fingerprint: {fingerprint}" in line for line in last_screen), shown
    labelled = next(i for i, line in enumerate(shown) if f"fingerprint: {fingerprint}" in line)
    assert labelled > max(i for i, line in enumerate(shown) if "hand" in line), shown  # below the board
    child.expect_exact("[Y/n]")
    child.sendline("n")
    child.expect_exact("Nothing written. The key is kept as Bob's in this match")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1 and new_file(before, dealt.parent) is None

    again = _play(alice.home, dealt)  # the key was kept the first time (the player was told): no question now
    again.expect_exact("your move> ")
    assert "Go on with this key" not in (again.before or "")
    again.sendline("q")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0
