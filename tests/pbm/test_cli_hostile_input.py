"""Hostile input met through the command: one line, never a traceback, and nothing named or written outside the spite home.

A turn code whose match id is a path, a save holding a number of thousands of digits, a file whose name is not UTF-8,
a named pipe given as FILE (issues 17 and 23).
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from cli_helpers import Mail, assert_refused, files

from pbm import saves
from pbm.errors import HomeError
from pbm.home import match_lock
from pbm.inbox import match_folder
from pbm.transport import code


def relabelled_code(path: Path, match: object, monkeypatch: pytest.MonkeyPatch) -> str:
    """The turn code of the save at `path` with its match id replaced by `match`: what a modified client would send."""
    carried = code.carried
    with monkeypatch.context() as patch:
        patch.setattr(code, "carried", lambda save: {**carried(save), "match": match})
        return "\n\n".join(code.encode(saves.read(path)))


def locks_anywhere(root: Path) -> list[Path]:
    return sorted(root.rglob("*.lock"))


@pytest.mark.parametrize(
    "match",
    ["outside/evil", "../../evil", "ab" * 7, "ab" * 33, "ab" * 16 + "\x00", "AB" * 16, 1234, None],
    ids=["absolute", "up", "short", "long", "nul", "upper-case", "number", "none"],
)
def test_a_turn_code_whose_match_id_is_not_one_names_nothing_and_is_one_line(
    mail: Mail, match: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = mail.folder.parent
    if match == "outside/evil":
        match = str(root / "outside" / "evil")  # an absolute path: the lock file would be <path>.lock, anywhere
        (root / "outside").mkdir()
    pasted = mail.folder / "pasted.txt"
    pasted.write_text(relabelled_code(mail.latest, match, monkeypatch))
    before, locks = files(mail.folder), locks_anywhere(root)
    for command in ("play", "show", "verify"):
        args = ("play", pasted, "--auto") if command == "play" else (command, pasted)
        assert_refused(mail.bob.spite(*args), "names no match spite makes")
        assert_refused(mail.bob.spite(command, "-", input=pasted.read_text()), "names no match spite makes")
    assert locks_anywhere(root) == locks  # no lock (nor any file) made for it, in the home or outside it
    assert not (root / "outside" / "evil.lock").exists() and not (root / "evil.lock").exists()
    assert files(mail.folder) == before


@pytest.mark.parametrize("name", ["../../evil", "/outside/evil", "ab" * 7, "AB" * 8, "ab" * 8 + "\x00"])
def test_the_lock_and_the_inbox_refuse_a_name_that_is_not_a_match_id(tmp_path: Path, name: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    if name.startswith("/"):
        name = str(tmp_path / name[1:])
    with pytest.raises(HomeError, match="is not a match id"), match_lock(home, name):
        pass
    with pytest.raises(HomeError, match="is not a match id"):
        match_folder(home, name)  # where the inbox keeps what came by mail
    assert sorted(tmp_path.rglob("*")) == [home]  # no lock, no folder: nothing is named after it


def test_a_number_of_thousands_of_digits_in_a_save_is_one_line(mail: Mail) -> None:
    data = mail.latest.read_bytes()
    for field in (b"seq = ", b"stock = "):  # a label, and a number in a table further down
        at = data.index(b"\n" + field) + 1
        end = data.index(b"\n", at)
        huge = mail.folder / "huge.toml"
        huge.write_bytes(data[:at] + field + b"7" * 5000 + data[end:])
        for command in ("show", "verify", "play", "code", "send"):
            assert_refused(mail.bob.spite(command, huge), "not a spite save file", "thousands of digits")


def test_a_file_whose_name_is_not_utf8_is_one_line_and_not_recorded(mail: Mail) -> None:
    odd = Path(os.fsdecode(bytes(mail.folder) + b"/\xff.toml"))
    shutil.copy(mail.latest, odd)
    journal = (mail.bob.home / "journal.sqlite").read_bytes()
    before = files(mail.folder)
    for command in ("show", "verify", "play"):
        assert_refused(mail.bob.spite(command, odd), "is not UTF-8", "rename the file")
    assert files(mail.folder) == before and (mail.bob.home / "journal.sqlite").read_bytes() == journal
    renamed = mail.folder / "renamed.toml"
    odd.rename(renamed)
    mail.bob.ok("play", renamed, "--auto", "--think", "0.02")  # as the message says, renamed it is played


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_given_as_file_is_refused_without_waiting(mail: Mail) -> None:
    fifo = mail.folder / "pipe.toml"
    os.mkfifo(fifo)
    stuck = threading.Timer(60, lambda: open(fifo, "wb").close())  # should spite wait for a writer, one comes after a minute
    stuck.start()
    try:
        for command in ("show", "verify", "play", "code", "send"):
            assert_refused(mail.bob.spite(command, fifo), f"cannot read {fifo}", "named pipe")
    finally:
        stuck.cancel()
