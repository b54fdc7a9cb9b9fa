"""A damaged journal met through the command (issues 17 and 23): one line that says where it is, that nothing was
written and how to go on, for every command and listing; and a damage no command would read is noticed on opening.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import THINK, Mail, assert_refused, files


def _page(journal: Path, table: str) -> tuple[int, int]:
    """Where the first page of `table` lies in `journal` (its offset), and the page size."""
    with sqlite3.connect(journal) as db:
        size = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    return (root - 1) * size, size


def every_page_hit(journal: Path) -> None:
    """A disk that lost a stretch of every page but the first: SQLite opens the file and fails on the first read."""
    data = bytearray(journal.read_bytes())
    _, size = _page(journal, "saves")
    for at in range(size, len(data), size):
        data[at : at + 64] = b"\xa5" * 64
    journal.write_bytes(bytes(data))


def lost_table(journal: Path) -> None:
    with sqlite3.connect(journal) as db:
        db.execute("DROP TABLE saves")


def emptied(journal: Path) -> None:
    journal.write_bytes(b"")  # a copy that went wrong, a disk that filled up


def not_a_journal(journal: Path) -> None:
    journal.write_bytes(b"spite journal? " * 300)


def a_folder(journal: Path) -> None:
    journal.unlink()
    journal.mkdir()


def an_index_name_hit(journal: Path) -> None:
    """One byte of an index's name on the schema page changed: SQLite's own error names it, in bytes that are not UTF-8."""
    data = bytearray(journal.read_bytes())
    _, size = _page(journal, "saves")
    at = data.index(b"saves_by_match", 0, size)  # the first page holds the schema
    data[at + 2] = 0xFF
    journal.write_bytes(bytes(data))


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "pages": (every_page_hit, "is damaged ("),
    "lost-table": (lost_table, "has lost its table saves"),
    "empty": (emptied, "is empty (0 bytes)"),
    "not-a-journal": (not_a_journal, "is damaged (file is not a database)"),
    "folder": (a_folder, "is a folder, not a file"),
    "index-name": (an_index_name_hit, "is damaged (malformed database schema (sa\ufffdes_by_"),
}


def commands(mail: Mail) -> list[tuple[str | Path, ...]]:
    return [
        ("show", mail.latest),
        ("verify", mail.latest),
        ("play", mail.latest, "--auto", "--think", THINK),
        ("new", "-o", mail.folder / "another.toml"),
        ("games",),
        ("practice", "--resume"),
    ]


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_journal_is_one_line_for_every_command_and_nothing_is_written(mail: Mail, damage: str) -> None:
    hurt, what = DAMAGES[damage]
    journal = mail.bob.home / "journal.sqlite"
    hurt(journal)
    kept = journal.read_bytes() if journal.is_file() else None
    before = files(mail.folder)
    for args in commands(mail):
        line = assert_refused(mail.bob.spite(*args), f"your journal {journal} {what}", "nothing was written. Move it aside")
        assert "Continuing elsewhere" in line, line
        assert (journal.read_bytes() if journal.is_file() else None) == kept, args
        assert files(mail.folder) == before, args


# Issue 33, item 5: a value the journal kept, changed on the disk (a byte of it, or of its record's header): by what
# changes it, and what the line says of it. A text that is not UTF-8 (a name, a path, a side), a side that is no longer
# JSON, a number that became text.
DAMAGED_VALUES = {
    "name": ("UPDATE matches SET name0 = CAST(X'416c6963ff' AS TEXT)", "(could not decode to utf-8 column"),
    "path": ("UPDATE saves SET path = CAST(X'2f6d61696cff' AS TEXT)", "(could not decode to utf-8 column"),
    "side": ("UPDATE seats SET data = CAST(X'7b22ff' AS TEXT)", "(could not decode to utf-8 column"),
    "side-json": ("UPDATE seats SET data = '[' || data", "(the side kept after save 2 of match"),
    "number": ("UPDATE saves SET signer = 'x'", "(a value of another type than spite keeps there)"),
}
READS_NO_SIDE = {"games"}  # the list of matches reads no side


@pytest.mark.parametrize("value", sorted(DAMAGED_VALUES))
def test_a_damaged_value_in_the_journal_is_the_damaged_journal_line(mail: Mail, value: str) -> None:
    change, what = DAMAGED_VALUES[value]
    journal = mail.bob.home / "journal.sqlite"
    with contextlib.closing(sqlite3.connect(journal)) as db, db:
        assert db.execute(change).rowcount > 0
    kept, before = journal.read_bytes(), files(mail.folder)
    for args in [("show", mail.latest), ("verify", mail.latest), ("play", mail.latest, "--auto", "--think", THINK), ("games",)]:
        run = mail.bob.spite(*args)
        if value.startswith("side") and args[0] in READS_NO_SIDE:
            assert run.exit_code == 0, run
            continue
        line = assert_refused(run, f"your journal {journal} is damaged {what}", "nothing was written")
        assert "Move it aside" in line, line
        assert journal.read_bytes() == kept and files(mail.folder) == before, args


def test_a_damage_no_command_would_read_is_noticed_when_the_journal_is_opened(mail: Mail) -> None:
    journal = mail.bob.home / "journal.sqlite"
    at, _ = _page(journal, "mailboxes")  # only `spite inbox` reads it: playing a file would write on past it
    data = bytearray(journal.read_bytes())
    data[at] = 0x42  # no kind of page there is
    journal.write_bytes(bytes(data))
    before = files(mail.folder)
    line = assert_refused(mail.bob.spite("play", mail.latest, "--auto", "--think", THINK), f"your journal {journal} is damaged")
    assert "nothing was written" in line and "Move it aside" in line, line
    assert journal.read_bytes() == bytes(data) and files(mail.folder) == before
    # as the line says: moved aside, the file carries Bob's side and is played
    journal.rename(journal.with_name("journal.sqlite.damaged"))
    played = mail.bob.ok("play", mail.latest, "--auto", "--think", THINK, "--newest")  # with no record, spite asks that
    assert "no record of your side" in played.stderr, played
    assert len(files(mail.folder)) == len(before) + 1


def test_a_journal_left_empty_is_not_taken_for_a_new_one_and_a_new_one_is_made_whole(mail: Mail, tmp_path: Path) -> None:
    fresh = tmp_path / "fresh-home"
    assert_refused(mail.bob.spite("games", env={"SPITE_HOME": str(fresh)}), "there is no spite key in")  # a listing makes nothing
    assert not (fresh / "journal.sqlite").exists()
    mail.bob.ok("id", "--name", "Carol", env={"SPITE_HOME": str(fresh)})
    mail.bob.ok("new", "-o", tmp_path / "invitation.toml", env={"SPITE_HOME": str(fresh)})
    journal = fresh / "journal.sqlite"
    assert journal.stat().st_size > 0 and journal.stat().st_mode & 0o777 == 0o600
    assert not list(fresh.glob(".spite-*"))  # made whole under another name, then linked into place
    shutil.copy(journal, tmp_path / "kept.sqlite")
    emptied(journal)
    assert_refused(mail.bob.spite("games", env={"SPITE_HOME": str(fresh)}), "is empty (0 bytes)", "Move it aside")
    assert journal.stat().st_size == 0
