"""spite as on Windows, tested from Linux: a Python without fcntl, termios, pwd, grp, resource, readline, tty and pty,
without os.fchmod and os.getuid (tests/pbm/without_posix.py), plays a whole match by files, holds its lock, and
prompts without readline; every file name it writes is one Windows accepts, and a code page without ♠ gets ASCII.
"""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest
from cli_helpers import THINK, WITHOUT_POSIX, Mail, files, new_file, process_env, scratch, spite_process

# What Windows refuses in a file name: these characters, names of devices, and a trailing dot or space.
ILLEGAL = re.compile(r'[<>:"/\\|?*\x00-\x1f]|[. ]$|^(?:CON|PRN|AUX|NUL|COM\d|LPT\d)(?:\..*)?$', re.IGNORECASE)
WINDOWS_PIPE = {"PYTHONIOENCODING": "cp1252"}  # what a Windows pipe or file gets: the ANSI code page, which has no ♠


def spite(home: Path, *args: str | Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """`spite ARGS` run without POSIX, as a player on Windows runs it with its output piped; must exit 0 without a traceback."""
    env = process_env(home, **{**WINDOWS_PIPE, **extra})
    command = [*WITHOUT_POSIX, *map(str, args)]
    done = subprocess.run(command, capture_output=True, encoding=env["PYTHONIOENCODING"], env=env, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done
    return done


def test_a_whole_match_by_files_without_posix(tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        alice, bob, mail = root / "home-alice", root / "home-bob", root / "mail"
        mail.mkdir()
        spite(alice, "--version")
        spite(alice, "id", "--name", "Alice")
        spite(bob, "id", "--name", "Bob")
        spite(alice, "new", "--payoff", "3", "--target", "3", "-o", mail / "invitation.toml")
        path, reader, writer, played = mail / "invitation.toml", bob, alice, []
        for _ in range(200):
            before = files(mail)
            played.append(spite(reader, "play", path, "--auto", "--think", THINK))
            written = new_file(before, mail)
            if written is None:
                break
            path, reader, writer = written, writer, reader
        else:
            pytest.fail("the match did not end within 200 files")
        assert "Nothing more to send: the match is over" in played[-1].stdout, played[-1]
        assert "your own file" in spite(writer, "verify", path).stdout
        assert spite(reader, "verify", path).stdout.rstrip().endswith("OK")
        board = spite(reader, "show", path).stdout
        assert "+p--+" in board and not re.search("[♠♥♦♣╭│]", board), board  # cp1252 cannot encode the suits: ASCII cards
        spite(alice, "games")
        names = [p.name for p in root.rglob("*")]
        assert len(played) > 10 and not [n for n in names if n.endswith(".tmp")], names
        assert [n for n in names if ILLEGAL.search(n)] == [], "file names Windows refuses"


def test_output_in_a_code_page_without_the_symbols_is_ascii_or_replaced(mail: Mail) -> None:
    """The legacy console's code page 437 has ♠ but not '–' or '╭': the board is ASCII, the rest replaces what it cannot say."""
    board = spite(mail.bob.home, "show", mail.latest, PYTHONIOENCODING="cp437").stdout
    assert board.isascii() and "|8d |" not in board and re.search(r"\|[0-9AJQK]{1,2}[cdhs] *\|", board), board
    games = spite(mail.bob.home, "games", PYTHONIOENCODING="cp437").stdout
    assert "Alice" in games and "?" in games, games  # the score's en dash, replaced


def test_the_lock_holds_without_fcntl(mail: Mail, tmp_path: Path) -> None:
    """msvcrt.locking, as on Windows: a second play of the file while the first waits at the prompt says another spite answers it."""
    before = files(mail.folder)
    shown = tmp_path / "first.out"
    with shown.open("w") as out:
        waiting = subprocess.Popen(
            [*WITHOUT_POSIX, "play", str(mail.latest)], env=process_env(mail.bob.home), stdin=subprocess.PIPE, stdout=out, text=True
        )
    try:
        deadline = time.monotonic() + 60
        while "your move>" not in shown.read_text() and time.monotonic() < deadline:  # it holds the lock while it asks
            time.sleep(0.05)
        second = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK, entry=WITHOUT_POSIX)
        assert second.returncode == 1 and "another spite is answering a file of match" in second.stderr, second
        assert new_file(before, mail.folder) is None
    finally:
        waiting.communicate("q\n", timeout=60)
    assert waiting.returncode == 0 and "Nothing written" in shown.read_text()
    spite(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK)  # released: the file is Bob's to answer
    assert new_file(before, mail.folder) is not None
