"""The journal's file: an SQLite database (``<home>/journal.sqlite``) of schema version :data:`SCHEMA_VERSION`.

It is opened (and made by its first write, so a command that writes nothing leaves no journal), checked, read and written
in transactions; whatever SQLite says of it, a damage or the home's trouble (read-only, full, busy), becomes one line.
"""

from __future__ import annotations

import contextlib
import errno
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pbm.errors import DamagedJournalError, JournalError, SpiteError
from pbm.home import JOURNAL_FILE, ensure_private_dir, home_error, remove_stale, write_new
from pbm.i18n import _, ngettext
from pbm.shown import cut

SCHEMA_VERSION = 7  # 2 adds `written` (the bytes of this player's own files); 3 the mail: addresses, mailed, received, mailboxes;
# 4 `unwritten` (invitations recorded whose file is not known to be on disk yet); 5 `messages` (the protocol message of every
# save received, the player's own being in `written`: so a game's record is made from the home alone, spite record),
# `resignations` and `void` (_RESIGN_SCHEMA), `proofs` (_PROOFS_SCHEMA); 6 `decks` (_DECKS_SCHEMA); 7 `forgotten` (_FORGOTTEN_SCHEMA)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match TEXT PRIMARY KEY,
    name0 TEXT NOT NULL, key0 TEXT NOT NULL,
    name1 TEXT NOT NULL, key1 TEXT NOT NULL,
    target INTEGER NOT NULL,
    pinned_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS saves (
    hash TEXT PRIMARY KEY,
    match TEXT NOT NULL REFERENCES matches(match),
    seq INTEGER NOT NULL, game INTEGER NOT NULL, turn INTEGER NOT NULL,
    prev TEXT NOT NULL, signer INTEGER NOT NULL,
    score0 INTEGER NOT NULL, score1 INTEGER NOT NULL,
    path TEXT NOT NULL, seen_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    match TEXT NOT NULL, seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (match, seq)
);
CREATE TABLE IF NOT EXISTS written (
    hash TEXT PRIMARY KEY REFERENCES saves(hash),
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS unwritten (
    hash TEXT PRIMARY KEY REFERENCES saves(hash)
);
CREATE TABLE IF NOT EXISTS messages (
    hash TEXT PRIMARY KEY REFERENCES saves(hash),
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS addresses (
    match TEXT PRIMARY KEY,
    address TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS mailed (
    hash TEXT NOT NULL, match TEXT NOT NULL,
    address TEXT NOT NULL, sent_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS received (
    match TEXT NOT NULL, seq INTEGER NOT NULL,
    path TEXT NOT NULL, opponent TEXT NOT NULL, sender TEXT NOT NULL, taken_at TEXT NOT NULL,
    PRIMARY KEY (match, seq)
);
CREATE TABLE IF NOT EXISTS mailboxes (
    box TEXT PRIMARY KEY,
    validity TEXT NOT NULL, uid INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS saves_by_match ON saves(match, seq);
CREATE INDEX IF NOT EXISTS saves_by_prev ON saves(match, prev);
"""
# schema 5, one self-contained step: the resignations recorded, and the turns a resignation made void (a turn that crossed it)
_RESIGN_SCHEMA = """
CREATE TABLE IF NOT EXISTS resignations (
    hash TEXT PRIMARY KEY REFERENCES saves(hash),
    match TEXT NOT NULL, seq INTEGER NOT NULL, prev TEXT NOT NULL,
    game INTEGER NOT NULL, seat INTEGER NOT NULL, whole_match INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS void (
    hash TEXT PRIMARY KEY REFERENCES saves(hash)
);
"""
_SCHEMA += _RESIGN_SCHEMA
# schema 5: the proofs of shuffle this player checked, by the digest of the proof and everything it was checked against
# (pbm.protocol.shuffle.verify), so that a second look at a file does not check them again. Only a cache: losing a row
# only means checking that proof once more, and a proof with any input changed has another digest.
_PROOFS_SCHEMA = """
CREATE TABLE IF NOT EXISTS proofs (
    digest BLOB PRIMARY KEY,
    match TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS proofs_by_match ON proofs(match);
"""
_SCHEMA += _PROOFS_SCHEMA
# schema 6: this player's first shuffle of each game's deck (pbm.protocol.dealsteps), by the digest of what it is made
# from (the game's seed, key and card encodings), so that checking the second shuffle does not make it again (104
# multiplications). Only a cache too: a lost row is made again, and a row of another seed has another digest.
_DECKS_SCHEMA = """
CREATE TABLE IF NOT EXISTS decks (
    digest BLOB PRIMARY KEY,
    match TEXT NOT NULL,
    points BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS decks_by_match ON decks(match);
"""
_SCHEMA += _DECKS_SCHEMA
# schema 7: the matches `spite forget` took off the player's list. An invitation withdrawn (`withdrawn` 1) leaves only its
# id here, so that a late answer to it, or the invitation itself, is refused rather than taken for a new match; a finished
# match dropped from `spite games` (`withdrawn` 0) keeps every row of it (spite record and spite stats still read them).
_FORGOTTEN_SCHEMA = """
CREATE TABLE IF NOT EXISTS forgotten (
    match TEXT PRIMARY KEY,
    withdrawn INTEGER NOT NULL,
    forgotten_at TEXT NOT NULL
);
"""
_SCHEMA += _FORGOTTEN_SCHEMA
_TABLES = frozenset(
    {"matches", "saves", "seats", "written", "unwritten", "messages", "addresses", "mailed", "received", "mailboxes"}
    | {"resignations", "void", "proofs", "decks", "forgotten"}
)
_HOME_TROUBLE = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_FULL", "SQLITE_IOERR")
# What SQLite raises: its errors, and UnicodeDecodeError where Python cannot read its message as UTF-8 (a name in a
# damaged schema that is not UTF-8 text).
_SQLITE_ERRORS = (sqlite3.DatabaseError, UnicodeDecodeError)

Row = tuple[Any, ...]


class Store:
    """The journal's SQLite file at `path`, to read and write rows of; every error of SQLite comes out as one line.

    Use :meth:`open`. Opened to write where there is no journal yet, it reads as an empty one until the first write
    (:meth:`writing`) makes the file.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path, writable: bool = True, missing: bool = False) -> None:
        self._db = connection
        self.path = path
        self.writable = writable  # False: opened read-only (or none there yet), every write refused as on a read-only home
        self._missing = missing  # opened to write, with no file there yet: `_db` is an empty journal in memory
        self._wrote = False  # whether a write of this journal was committed: a damage found later says so

    @classmethod
    def open(cls, home: Path, write: bool = True, check: bool | None = None) -> Store:
        """The journal under `home`, to write or only to read; with `check`, SQLite's quick check of its pages first.

        Raises DamagedJournalError if it is damaged, empty, a folder or lacks tables, JournalError if too new, HomeError
        if it cannot be opened. A missing journal is an empty one: to write, the first write makes it (and `home`).
        """
        home = Path(home)
        path = home / JOURNAL_FILE
        try:
            if path.is_dir():
                # TRANSLATORS: {path} is the journal file.
                raise damaged(path, _("your journal {path} is a folder, not a file").format(path=path))
            if not path.exists():
                return cls(_empty(), path, writable=write, missing=write)
            if path.stat().st_size == 0:  # spite never leaves one so (it writes a new journal whole): it lost what it held
                # TRANSLATORS: {path} is the journal file.
                raise damaged(path, _("your journal {path} is empty (0 bytes)").format(path=path))
            db = sqlite3.connect(path) if write else sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        except (OSError, sqlite3.OperationalError) as e:
            raise home_error(home, e) from e
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]  # the first read: SQLite reads the schema here
            if version > SCHEMA_VERSION:
                # TRANSLATORS: {path} is the journal file.
                raise JournalError(_("the journal {path} was written by a newer spite: upgrade spite").format(path=path))
            if version < SCHEMA_VERSION and not write:  # an older journal is upgraded, which is a write
                db.close()
                return cls.open(home)
            if write if check is None else check:
                _check_pages(db, path)
            if version < SCHEMA_VERSION:  # only an older journal is written to on opening
                with db:
                    db.executescript(_SCHEMA)
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            _check_tables(db, path)
        except SpiteError:
            db.close()
            raise
        except _SQLITE_ERRORS as e:
            db.close()
            raise trouble(path, e) from e
        return cls(db, path, writable=write)

    def row(self, sql: str, values: Iterable[Any] = (), kinds: tuple[type, ...] = ()) -> Row | None:
        """The first row that `sql` gives, if any; with `kinds`, DamagedJournalError unless its values are of those types."""
        rows = self._fetch(sql, values, 1)
        return self._of_kinds(rows, kinds)[0] if rows else None

    def rows(self, sql: str, values: Iterable[Any] = (), kinds: tuple[type, ...] = ()) -> list[Row]:
        """Every row that `sql` gives; with `kinds`, DamagedJournalError unless their values are of those types."""
        return self._of_kinds(self._fetch(sql, values), kinds)

    def _fetch(self, sql: str, values: Iterable[Any], most: int | None = None) -> list[Row]:
        try:
            cursor = self._db.execute(sql, tuple(values))
            return cursor.fetchall() if most is None else cursor.fetchmany(most)
        except _SQLITE_ERRORS as e:
            raise trouble(self.path, e, self._wrote) from e

    def _of_kinds(self, rows: list[Row], kinds: tuple[type, ...]) -> list[Row]:
        """`rows`, each of whose values is of its type in `kinds` (if given): SQLite keeps any value in any column, and a
        damaged disk can change one's type (one bit of a record's header)."""
        for row in rows if kinds else ():
            if len(row) != len(kinds) or any(type(value) is not kind for value, kind in zip(row, kinds, strict=False)):
                raise self.unreadable("a value of another type than spite keeps there")
        return rows

    def run(self, sql: str, values: Iterable[Any] = ()) -> int:
        """Run the change `sql` (inside :meth:`writing`); how many rows it changed."""
        try:
            return self._db.execute(sql, tuple(values)).rowcount
        except _SQLITE_ERRORS as e:
            raise trouble(self.path, e, self._wrote) from e

    def run_many(self, sql: str, values: Iterable[Iterable[Any]]) -> None:
        """Run the change `sql` once for each of `values` (inside :meth:`writing`)."""
        try:
            self._db.executemany(sql, (tuple(v) for v in values))
        except _SQLITE_ERRORS as e:
            raise trouble(self.path, e, self._wrote) from e

    @contextlib.contextmanager
    def writing(self, durable: bool = True) -> Iterator[None]:
        """One write transaction, taken before anything is read for it; a read-only or full home raises HomeError, nothing kept.

        `durable=False` skips the disk sync, for what losing in a crash loses nothing. The first write makes the journal's file.
        """
        if not self.writable:
            raise home_error(self.path.parent, PermissionError(errno.EACCES, "opened read-only"))
        if self._missing:
            self._make()
        try:
            self._db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'OFF'}")
            self._db.execute("BEGIN IMMEDIATE")  # checks and writes see one state: two spites cannot both record a turn
        except _SQLITE_ERRORS as e:
            raise trouble(self.path, e, self._wrote) from e
        try:
            yield
            self._db.commit()
            self._wrote = True
        except BaseException as e:
            try:
                self._db.rollback()
            except _SQLITE_ERRORS as again:
                raise trouble(self.path, again, self._wrote) from e
            if isinstance(e, _SQLITE_ERRORS):
                raise trouble(self.path, e, self._wrote) from e
            raise

    def _make(self) -> None:
        """Make the journal's file, empty, whole and private (mode 0600) from its first byte, and use it from now on."""
        home = self.path.parent
        try:
            ensure_private_dir(home)
            remove_stale(home, "journal")  # what a spite killed while making one left
            with contextlib.closing(_empty()) as new:
                write_new(self.path, new.serialize(), "journal", mode=0o600)
        except FileExistsError:
            pass  # another spite made it meanwhile: the transaction about to begin sees what it holds
        except OSError as e:
            raise home_error(home, e) from e
        try:
            db = sqlite3.connect(self.path)
        except sqlite3.OperationalError as e:
            raise home_error(home, e) from e
        self._db.close()
        self._db, self._missing = db, False

    def unreadable(self, what: str) -> DamagedJournalError:
        """The one line for a value the journal kept that does not read as spite keeps it; `what` says which (in English,
        as SQLite says what it found)."""
        # TRANSLATORS: {path} is the journal file, {detail} what SQLite said of it (in English).
        hurt = _("your journal {path} is damaged ({detail})")
        return damaged(self.path, hurt.format(path=self.path, detail=what), self._wrote)

    def close(self) -> None:
        self._db.close()


def trouble(path: Path, error: BaseException, wrote: bool = False) -> SpiteError:
    """The one line for what SQLite said of the journal at `path`: the home's trouble (read-only, full, busy) or a damage."""
    name = getattr(error, "sqlite_errorname", None) or ""  # only SQLite's own errors have it; not Python's, of text it cannot read
    if isinstance(error, sqlite3.OperationalError) and name.startswith(_HOME_TROUBLE):
        return home_error(path.parent, error)
    said = bytes(error.object).decode("utf-8", "replace") if isinstance(error, UnicodeDecodeError) else str(error)
    # TRANSLATORS: {path} is the journal file, {detail} what SQLite said of it (in English).
    hurt = _("your journal {path} is damaged ({detail})")
    return damaged(path, hurt.format(path=path, detail=cut(said.strip().split("\n")[0])), wrote)


def damaged(path: Path, what: str, wrote: bool = False) -> DamagedJournalError:
    """The one line for a journal at `path` of which `what` says what is wrong ("your journal … is damaged", "… is a
    folder"…), in the player's language: what was written, and how to go on."""
    if wrote:
        stopped = _(
            # TRANSLATORS: {trouble} says what is wrong with the journal (like "your journal /home/ana/journal.sqlite is empty
            # (0 bytes)"); {name} is the name to move it to; "Continuing elsewhere" is a section of docs/save-format.md.
            "{trouble}: the command stopped there. Move it aside (to {name}, say) and run this again: "
            "the files of each match carry your side of it (docs/save-format.md, Continuing elsewhere)"
        )
    else:
        stopped = _(
            # TRANSLATORS: {trouble} says what is wrong with the journal (like "your journal /home/ana/journal.sqlite is empty
            # (0 bytes)"); {name} is the name to move it to; "Continuing elsewhere" is a section of docs/save-format.md.
            "{trouble}: nothing was written. Move it aside (to {name}, say) and run this again: "
            "the files of each match carry your side of it (docs/save-format.md, Continuing elsewhere)"
        )
    return DamagedJournalError(stopped.format(trouble=what, name=f"{path.name}.damaged"))


def _check_pages(db: sqlite3.Connection, path: Path) -> None:
    """SQLite's quick check of the journal's pages and indexes: DamagedJournalError, before anything is written into it, unless ok."""
    said = [row[0] for row in db.execute("PRAGMA quick_check")]
    if said != ["ok"]:
        if not said:
            # TRANSLATORS: {path} is the journal file; SQLite gave no answer when asked to check it.
            raise damaged(path, _("your journal {path} is damaged (no answer)").format(path=path))
        # TRANSLATORS: {path} is the journal file, {detail} what SQLite said of it (in English).
        raise damaged(path, _("your journal {path} is damaged ({detail})").format(path=path, detail=cut(said[0])))


def _check_tables(db: sqlite3.Connection, path: Path) -> None:
    """DamagedJournalError unless every table of the journal is there (its whole schema read: every name in it is text)."""
    lost = _TABLES - {name for kind, name in db.execute("SELECT type, name FROM sqlite_master") if kind == "table"}
    if lost:
        gone = ngettext(
            # TRANSLATORS: {path} is the journal file, {tables} the names of its SQLite tables that are missing.
            "your journal {path} has lost its table {tables}",
            "your journal {path} has lost its tables {tables}",
            len(lost),
        )
        raise damaged(path, gone.format(path=path, tables=", ".join(sorted(lost))))


def _empty() -> sqlite3.Connection:
    """A new journal with no save in it, in memory."""
    db = sqlite3.connect(":memory:")
    db.executescript(_SCHEMA)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return db
