"""spite as on Windows, tested from Linux: a Python without fcntl, termios, pwd, grp, resource, readline, tty and pty,
without os.fchmod and os.getuid (tests/pbm/without_posix.py), plays a whole match by files, holds its lock, and
prompts without readline; every file name it writes is one Windows accepts, and a code page without ♠ gets ASCII.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from cli_helpers import THINK, WITHOUT_POSIX, Mail, files, needs_pty, new_file, process_env, scratch, spite_process

from pbm import home
from pbm.identity import exposure, load_or_create

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
        spite(alice, "new", "--payoff", "3", "--target", "1", "-o", mail / "invitation.toml")  # one game: its length is the deal's
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
        assert not [n for n in names if n.endswith(".tmp")], names  # a match may end in a few files: the deal decides
        assert [n for n in names if ILLEGAL.search(n)] == [], "file names Windows refuses"


def test_output_in_a_code_page_without_the_symbols_is_ascii_or_replaced(mail: Mail) -> None:
    """The legacy console's code page 437 has ♠ but not '–' or '╭': the board is ASCII, the rest replaces what it cannot say."""
    board = spite(mail.bob.home, "show", mail.latest, PYTHONIOENCODING="cp437").stdout
    assert board.isascii() and re.search(r"\|[0-9AJQK]{1,2}[cdhs] *\|", board), board
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


@needs_pty
def test_the_prompt_works_without_readline(tmp_path: Path) -> None:
    """At a terminal with no readline module (Windows without pyreadline3): moves are typed, taken back, and q leaves."""
    import pexpect

    home = tmp_path / "home"
    spite(home, "id", "--name", "Ann")
    env = {**process_env(home), "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    child = pexpect.spawn(WITHOUT_POSIX[0], [*WITHOUT_POSIX[1:], "practice", "--level", "easy"], env=env, encoding="utf-8", timeout=60)
    child.expect_exact("your move> ")
    child.sendline("?")
    child.expect(r"Legal moves: ([^\r\n]*)")
    discard = next(m for m in child.match.group(1).split() if re.fullmatch(r"\w+-s\d", m))
    child.expect_exact("your move> ")
    child.sendline(discard)
    child.expect_exact("Write it? [Enter: yes, u: undo, q: quit]")
    child.sendline("u")  # the answer is kept out of the history, where there is one
    child.expect_exact(f"Took back {discard}.")
    child.expect_exact("your move> ")
    child.sendline("q")
    child.expect_exact("Nothing written")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_history_is_trimmed_only_by_a_readline_that_can(monkeypatch: pytest.MonkeyPatch) -> None:
    """pyreadline3, Windows' readline, has no remove_history_item: answering 'Write it?' must not fail for want of it."""
    from pbm.cli import play

    pyreadline3 = types.SimpleNamespace(get_current_history_length=lambda: 2)
    monkeypatch.setitem(sys.modules, "readline", pyreadline3)
    play._forget_last_line()
    removed: list[int] = []
    gnu = types.SimpleNamespace(get_current_history_length=lambda: 2, remove_history_item=removed.append)
    monkeypatch.setitem(sys.modules, "readline", gnu)
    play._forget_last_line()
    assert removed == [1]


def test_no_permission_warnings_where_files_have_no_posix_modes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' stat says 0666 of every file and 0777 of every folder: spite must not warn about them on every command."""
    identity = load_or_create(tmp_path / "home", "Ann")
    os.chmod(identity.path, 0o666)  # type: ignore[arg-type]
    os.chmod(tmp_path / "home", 0o777)
    assert len(exposure(identity, tmp_path / "home")) == 2  # on POSIX both are warned about
    monkeypatch.setattr(os, "name", "nt")
    try:
        warnings = exposure(identity, tmp_path / "home")
    finally:
        monkeypatch.undo()  # at once: pathlib and pytest need the real os.name
    assert warnings == []


def test_files_get_their_modes_without_os_fchmod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows' Python before 3.13 has no os.fchmod: a save gets 0666 less the umask, a key file exactly its mode."""
    monkeypatch.delattr(os, "fchmod")
    home.write_atomic(tmp_path / "key", b"secret", mode=0o640)
    home.write_new(tmp_path / "save.toml", b"turn", tag="0123abcd")
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE((tmp_path / "key").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "save.toml").stat().st_mode) == 0o666 & ~mask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["key", "save.toml"]


@pytest.mark.parametrize(
    ("system", "folders", "expected"),
    [
        ("windows.Windows", {"LOCALAPPDATA": r"C:\Users\ann\AppData\Local"}, r"C:\Users\ann\AppData\Local{sep}spite"),
        ("macos.MacOS", {"HOME": "/Users/ann"}, "/Users/ann/Library/Application Support/spite"),
        ("unix.Unix", {"HOME": "/home/ann"}, "/home/ann/.local/share/spite"),
    ],
)
def test_the_home_is_where_each_platform_keeps_user_data(
    system: str, folders: dict[str, str], expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """%LOCALAPPDATA%\\spite on Windows (not spite\\spite), ~/Library/Application Support/spite on macOS, XDG on Linux."""
    import importlib

    import platformdirs

    module, name = system.split(".")
    monkeypatch.setattr(platformdirs, "PlatformDirs", getattr(importlib.import_module(f"platformdirs.{module}"), name))
    monkeypatch.setattr("platformdirs.windows.get_win_folder", lambda csidl: folders["LOCALAPPDATA"])
    monkeypatch.delenv(home.HOME_ENV, raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    for variable, value in folders.items():
        monkeypatch.setenv(variable, value)
    assert str(home.spite_home(create=False)) == expected.format(sep=os.sep)
