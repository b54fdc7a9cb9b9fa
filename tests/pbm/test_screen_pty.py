"""What a terminal shows (issue 34, items 9 and 12): spite forget asks first; practice options that start a new match do
not ask about an unfinished one; a board drawn after the window shrank fits it; the banner that ends a game at 80x24
leaves the board's header on the screen."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cli_helpers import MODULE, THINK, Player, invite, make_player, process_env, pty_pexpect

pexpect = pty_pexpect()  # or the module is skipped: no pseudo-terminals on Windows

PROMPT = "your move> "
PRESS = r"Press a key to deal game \d+"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\r]")


def _spawn(home: Path, *args: str, rows: int = 24, columns: int = 80) -> pexpect.spawn:
    """`spite ARGS` in a terminal of `rows` x `columns`, whose size COLUMNS and LINES say too, as a shell that exports them."""
    env = process_env(home, COLUMNS=str(columns), LINES=str(rows), TERM="xterm", INPUTRC="/dev/null")
    return pexpect.spawn(MODULE[0], [*MODULE[1:], *args], env=env, encoding="utf-8", timeout=60, dimensions=(rows, columns))


def _screen(child: pexpect.spawn) -> str:
    return ANSI.sub("", child.before or "")


def _finish(child: pexpect.spawn, status: int = 0) -> None:
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status, _screen(child)


def test_forget_asks_at_a_terminal_and_no_keeps_the_match(tmp_path: Path) -> None:
    alice, _bob, _invitation = invite(tmp_path)
    (row,) = json.loads(alice.ok("games", "--json").stdout)["matches"]
    for answer, said in (("n", "Nothing was written."), ("y", f"Withdrew match {row['match'][:8]}")):
        child = _spawn(alice.home, "forget", row["match"][:8])
        child.expect_exact(f"Withdraw match {row['match'][:8]} with your opponent? Any later file of it will be refused. [y/N]")
        child.sendline(answer)
        child.expect_exact(said)
        _finish(child)
        listed = json.loads(alice.ok("games", "--json").stdout)["matches"]
        assert len(listed) == (1 if answer == "n" else 0)


def test_practice_options_that_start_a_new_match_start_one_without_asking(tmp_path: Path) -> None:
    ann = make_player(tmp_path, "Ann")
    ann.ok("practice", "--level", "easy", "--think", THINK, input="q\n")  # an unfinished practice match
    child = _spawn(ann.home, "practice", "--level", "easy", "--payoff", "2", "--target", "1")
    seen = child.expect_exact(["Go on with your unfinished practice match", "New practice match"])
    assert seen == 1, _screen(child)
    child.expect_exact("first to 1.")
    child.expect_exact(PROMPT)
    child.sendline("q")
    _finish(child)
    refused = ann.spite("practice", "--resume", "--payoff", "2")
    assert refused.exit_code == 2 and "--payoff and --target set up a new match" in refused.stderr, refused


def _legal(child: pexpect.spawn) -> list[str]:
    child.sendline("?")
    child.expect(r"Legal moves: ([^\r\n]*)")
    moves = child.match.group(1).split()
    child.expect_exact(PROMPT)
    return moves


def _boards(text: str) -> list[list[str]]:
    """Each board in `text`, as its lines from its header to the line above the next prompt or question."""
    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines) if line.startswith("Match ")]
    return [lines[start : (starts[i + 1] if i + 1 < len(starts) else len(lines))] for i, start in enumerate(starts)]


def test_the_board_follows_the_window_and_the_banner_leaves_the_header_on_an_80x24_screen(tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "home")
    ann.ok("id", "--name", "Ann")
    # one pay-off card each: short games; first to 5, so that each game's end asks for a key before the next deal
    child = _spawn(ann.home, "practice", "--level", "easy", "--payoff", "1", "--target", "5", "--yes", rows=40, columns=120)
    while child.expect([PROMPT, PRESS]) == 1:  # the computer won a game before Ann's first move: deal the next
        child.send("x")
    first = _screen(child)
    assert "╭p────╮" in first and max(map(len, first.splitlines())) > 100, first  # large cards at 120x40
    child.setwinsize(24, 80)  # the window shrinks; COLUMNS and LINES still say 120 and 40
    shown = ""
    for _ in range(300):
        moves = _legal(child)
        # the pay-off card, else a hand card to the center (the center keeps moving: a random deal where Ann only
        # discards can stall for 40 moves), else a discard, else the end of a turn with an empty hand
        move = next((m for m in moves if m.startswith("p-")), None)
        move = move or next((m for m in moves if re.fullmatch(r"(?:[2-9]|10|[AJQK])-c\d", m)), None)
        child.sendline(move or next((m for m in moves if re.fullmatch(r"\w+-s\d", m)), "end"))
        seen = child.expect([PROMPT, PRESS])
        shown += _screen(child)
        if seen == 1:
            break
    else:
        raise AssertionError("a game did not end within 300 moves")
    for board in _boards(shown):
        assert max(len(line) for line in board) <= 80 and "╭p────╮" not in "\n".join(board), "\n".join(board)
    pressed = child.match.group(0)
    child.expect_exact("goes on later).")
    last = _boards(shown + pressed + _screen(child) + "goes on later).")[-1]  # down to the line that asks for a key
    rows = sum(max(1, -(-len(line) // 80)) for line in last) + 1  # as the screen shows them, and the row the cursor is on
    assert any(" is over" in line for line in last) and rows <= 24, "\n".join(last)  # the header is still on it
    child.send("q")
    _finish(child)
