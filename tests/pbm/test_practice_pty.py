"""`spite practice` in a real pseudo-terminal, as a player types: every feature of the prompt, the end of a game, and the files verify.

The name asked once, refused moves, help, Tab completion, line editing with the arrow keys and Home/End, history,
undo, the confirmation of a turn, Ctrl-D, Ctrl-C, q, resuming, `spite games` after a quit, and the banner that ends
a game with the pause before the next deal.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import pty_pexpect

pexpect = pty_pexpect()  # or the module is skipped: no pseudo-terminals on Windows

PROMPT = "your move> "
CONFIRM = re.compile(r"Your turn (\d+): (.*?)\. Write it\? \[Enter: yes, u: undo, q: quit\] ")
LEGAL = re.compile(r"Legal moves: ([^\r\n]*)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\r]")
UP, LEFT, HOME, END = "\x1b[A", "\x1b[D", "\x1b[H", "\x1b[F"
CTRL_C, CTRL_D = "\x03", "\x04"


def _ctrl_c_interrupts() -> None:
    """In the child, before spite starts: Ctrl-C interrupts, as in a player's shell. A test run started in the background
    by a shell without job control inherits SIGINT ignored, and spite would then never hear the Ctrl-C the test types."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(home: Path, *args: str) -> pexpect.spawn:
    """`spite practice ARGS` in an 80x24 terminal; all it shows is also kept in <home>/../screen.log (pytest shows it on failure)."""
    env = {**os.environ, "SPITE_HOME": str(home), "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "80", "LINES": "24", "INPUTRC": "/dev/null"}
    env.pop("SPITE_PASSPHRASE", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pbm.cli", "practice", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 80),
        preexec_fn=_ctrl_c_interrupts,
    )
    child.logfile_read = open(home.parent / "screen.log", "a", encoding="utf-8")  # noqa: SIM115 (closed with the child)
    return child


@pytest.fixture(autouse=True)
def screen_log_on_failure(tmp_path: Path) -> Iterator[None]:
    yield
    log = tmp_path / "screen.log"
    if log.exists():
        print(ANSI.sub("", log.read_text(encoding="utf-8"))[-6000:])  # shown by pytest only when the test failed


def spite(home: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPITE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("SPITE_PASSPHRASE", None)
    return subprocess.run([sys.executable, "-m", "pbm.cli", *map(str, args)], env=env, capture_output=True, text=True, timeout=60)


def legal_moves(child: pexpect.spawn) -> list[str]:
    child.sendline("?")
    child.expect(LEGAL)
    moves = child.match.group(1).split()
    child.expect_exact(PROMPT)
    return moves


def discard_of(moves: list[str]) -> str:
    return next(m for m in moves if re.fullmatch(r"\w+-s\d", m) or m == "end")


def finish_turn(child: pexpect.spawn) -> str:
    """At the prompt: play the pay-off card if it fits (with a pile of one card, that wins the game), else a legal discard."""
    moves = legal_moves(child)
    payoff = [m for m in moves if m.startswith("p-")]
    move = payoff[0] if payoff else discard_of(moves)
    child.sendline(move)
    return move


def screen(child: pexpect.spawn) -> str:
    """What the terminal showed since the last match, without its escape codes."""
    return ANSI.sub("", child.before or "")


def test_the_prompt_edits_completes_recalls_takes_back_and_confirms(tmp_path: Path) -> None:
    home = tmp_path / "home"
    child = spawn(home, "--level", "easy", "--payoff", "20", "--target", "5")  # piles of 20: the computer cannot win turn 2
    child.expect_exact("Your name, as your opponents will see it")  # asked once, on first use, instead of the login name
    child.sendline("Ann")
    child.expect_exact("New practice match against the computer")
    child.expect_exact(PROMPT)
    assert "│" in screen(child) and "Ann" in screen(child) and "turn 1: your turn" in screen(child)  # the board

    child.sendline("p-s1")  # well written, but a pay-off card never goes to a side stack (R6)
    child.expect_exact("refused: p-s1: pay-off cards go only to center stacks (R6)")
    child.expect_exact(PROMPT)
    assert "Center" not in screen(child), "a refused move does not draw the board again"
    child.sendline("7c2")  # not notation at all
    child.expect_exact("refused: '7c2' is not a move")
    child.expect_exact(PROMPT)
    child.sendline("end")  # documented, and refused while cards are in hand
    child.expect_exact("refused: you still hold")
    child.expect_exact(PROMPT)
    child.sendline("help")
    child.expect_exact("end     ends your turn when your hand is empty")
    child.expect_exact("Tab completes a move")
    child.expect_exact(PROMPT)

    moves = legal_moves(child)
    discard = discard_of(moves)
    rank = discard.split("-")[0]
    child.send(f"{rank}-s\t\t")  # Tab twice: the four side stacks are listed
    child.expect_exact(f"{rank}-s1  {rank}-s2  {rank}-s3  {rank}-s4")
    child.send("\x15")  # Ctrl-U: clear the line
    child.send(f"s1{LEFT}{LEFT}{HOME}{rank}-{END}\r")  # edited with the arrow keys, Home and End: not echoed as ^[[D
    child.expect(CONFIRM)
    assert child.match.group(1) == "1" and child.match.group(2) == f"{rank}-s1"
    assert "^[" not in screen(child)
    child.sendline("u")  # the discard is not final before the file is written
    child.expect_exact(f"Took back {rank}-s1.")
    child.expect_exact(PROMPT)
    child.sendline("undo")
    child.expect_exact("refused: nothing to take back")
    child.expect_exact(PROMPT)
    child.send(UP)  # history: the lines typed come back, latest first ("undo"), the answer "u" to the question is not kept
    child.expect_exact("undo")
    child.send(UP)
    child.expect_exact(f"{rank}-s1")
    child.send("\r")
    child.expect(CONFIRM)
    child.sendline("")  # Enter writes the turn
    child.expect(r"turn 3: (\x1b\[[0-9;]*m)*your turn")  # the board, once the computer has played
    child.expect(r"Computer's turn 2:")  # its turn, move by move, under the board
    child.expect_exact(PROMPT)

    child.send(CTRL_D)  # leaves like q, with one line
    child.expect_exact("Nothing written; 'spite practice --resume' goes on later.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    games = spite(home, "games")  # right after a quit: the computer's latest file, and it is the player's turn
    row = next(line for line in games.stdout.splitlines() if "Computer" in line)
    assert "│ you " in row, games.stdout
    files = sorted((home / "practice" / "saves").glob("*.toml"), key=lambda p: p.stat().st_mtime)
    match = files[-1].name.split("-")[1]
    assert f"{match}  key " in games.stdout and files[-1].name in games.stdout, games.stdout  # the file's name, whole
    assert f"spite practice --resume {match}" in games.stdout and "spite play" not in games.stdout, games.stdout

    resumed = spawn(home, "--resume")
    resumed.expect(r"Resuming\s+(\S+\.toml)")
    assert Path(resumed.match.group(1)) == files[-1]
    resumed.expect_exact(PROMPT)
    resumed.send(CTRL_C)
    resumed.expect_exact("spite: interrupted, nothing written; 'spite practice --resume' goes on later.")
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert resumed.exitstatus == 130

    check = spite(home, "verify", files[-1])
    assert check.returncode == 0, check.stderr
    assert "OK" in check.stdout and "signature: good, by Computer" in check.stdout


def test_a_game_ends_with_a_banner_and_a_pause_before_the_next_deal(tmp_path: Path) -> None:
    home = tmp_path / "home"
    child = spawn(home, "--level", "easy", "--payoff", "1", "--target", "2", "--yes")  # one pay-off card each: short games
    child.expect_exact("Your name")
    child.sendline("Ann")
    for _ in range(60):
        index = child.expect_exact([PROMPT, "Press a key to deal game 2"])
        if index == 1:
            break
        finish_turn(child)  # --yes: written without a question
    else:
        pytest.fail("game 1 did not end within 60 turns")
    shown = screen(child)
    assert re.search(r"Game 1 is over: (you win|Computer wins|a tie)", shown), shown
    assert "Score: Ann " in shown and "first to 2" in shown
    child.send("x")  # any key deals the next game
    while (seen := child.expect_exact([PROMPT, "The match is over", "Press a key to deal game"])) == 2:
        child.send("x")  # the computer started that game and won it at once with its only pay-off card: deal again
    assert re.search(r"game [2-9]", screen(child)), screen(child)
    if seen == 0:
        child.sendline("q")
        child.expect_exact("Nothing written; 'spite practice --resume' goes on later.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_practice_at_a_terminal_asks_to_go_on_with_an_unfinished_match(tmp_path: Path) -> None:
    home = tmp_path / "home"
    child = spawn(home, "--level", "easy")
    child.expect_exact("Your name")
    child.sendline("Ann")
    child.expect_exact(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    match = next((home / "practice" / "saves").glob("*.toml")).name.split("-")[1]
    again = spawn(home, "--level", "easy")
    again.expect_exact(f"Go on with your unfinished practice match {match}? [Y/n]")
    again.sendline("")
    again.expect(r"Resuming\s+(\S+\.toml)")
    assert Path(again.match.group(1)).name.startswith(f"spite-{match}")
    again.expect_exact(PROMPT)
    again.sendline("q")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0


def test_moves_typed_after_the_discard_are_refused_before_the_turn_is_offered(tmp_path: Path) -> None:
    home = tmp_path / "home"
    child = spawn(home, "--level", "easy", "--payoff", "5", "--target", "5")
    child.expect_exact("Your name, as your opponents will see it")
    child.sendline("Ann")
    child.expect_exact(PROMPT)
    discard = discard_of(legal_moves(child))
    child.sendline(f"{discard} {discard}")  # the discard ends the turn: the move after it is refused, not dropped
    child.expect_exact(f"refused: {discard}: your turn ended with {discard}, so it was not played")
    child.expect(CONFIRM)
    assert child.match.group(2) == discard
    child.sendline("q")
    child.expect_exact("Nothing written")
    child.expect(pexpect.EOF)
