"""The journal: the local record (SQLite, ``<home>/journal.sqlite``) of every save seen and the keys pinned per match.

It refuses, with named errors, what a cheating or confused opponent could send: a key change,
a replayed old file, a fork (two versions of one turn), a rollback, or a gap in the chain.
It also keeps the bytes of every file this player wrote, so an answer interrupted before it
reached the disk is written again as it was recorded, never made anew.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import json
import os
import sqlite3
import tomllib
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from engine._frozen import frozen_value
from pbm.errors import (
    ChainError,
    CrossedError,
    DamagedJournalError,
    ForkError,
    JournalError,
    KeyMismatchError,
    ReplayError,
    RollbackError,
    SpiteError,
)
from pbm.home import JOURNAL_FILE, ensure_private_dir, home_error, write_new
from pbm.i18n import _, ngettext
from pbm.identity import PublicKey
from pbm.saves import Player, SaveFile
from pbm.shown import cut

SCHEMA_VERSION = 6  # 2 adds `written` (the bytes of this player's own files); 3 the mail: addresses, mailed, received, mailboxes;
# 4 `unwritten` (invitations recorded whose file is not known to be on disk yet); 5 `messages` (the protocol message of every
# save received, the player's own being in `written`: so a game's record is made from the home alone, spite record),
# `resignations` and `void` (_RESIGN_SCHEMA), `proofs` (_PROOFS_SCHEMA); 6 `decks` (_DECKS_SCHEMA)

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
_SAVE_COLUMNS = "match, seq, game, turn, hash, prev, signer, score0, score1, path, seen_at"
_TABLES = frozenset(
    {"matches", "saves", "seats", "written", "unwritten", "messages", "addresses", "mailed", "received", "mailboxes"}
    | {"resignations", "void", "proofs", "decks"}
)
_LIVE = "hash NOT IN (SELECT hash FROM void)"  # a save that no resignation made void
_HOME_TROUBLE = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_FULL", "SQLITE_IOERR")


def _trouble(path: Path, error: sqlite3.DatabaseError, wrote: bool = False) -> SpiteError:
    """The one line for what SQLite said of the journal at `path`: the home's trouble (read-only, full, busy) or a damage."""
    if isinstance(error, sqlite3.OperationalError) and (error.sqlite_errorname or "").startswith(_HOME_TROUBLE):
        return home_error(path.parent, error)
    # TRANSLATORS: {path} is the journal file, {detail} what SQLite said of it (in English).
    damaged = _("your journal {path} is damaged ({detail})")
    return _damaged(path, damaged.format(path=path, detail=cut(str(error).strip().split(chr(10))[0])), wrote)


def _damaged(path: Path, what: str, wrote: bool = False) -> DamagedJournalError:
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
            raise _damaged(path, _("your journal {path} is damaged (no answer)").format(path=path))
        # TRANSLATORS: {path} is the journal file, {detail} what SQLite said of it (in English).
        raise _damaged(path, _("your journal {path} is damaged ({detail})").format(path=path, detail=cut(said[0])))


def _empty() -> sqlite3.Connection:
    """A new journal with no save in it, in memory."""
    db = sqlite3.connect(":memory:")
    db.executescript(_SCHEMA)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return db


class Status(enum.Enum):
    """What the journal knows of a save offered to it."""

    NEW_MATCH = "new match"  # the first save of a match never seen here: its keys get pinned
    UNKNOWN_MATCH = "unknown match"  # a later save of a match never seen here (a new machine): trust the file's chain
    CONTINUES = "continues"  # the next save after the latest known one
    LATEST = "latest"  # the latest known save itself, seen again
    CROSSING = "crossing"  # the other player's resignation in place of this player's latest file, which it makes void
    EARLIER = "earlier"  # a save recorded before the latest one: looked at again (spite show, verify), never answered


@frozen_value
class SaveRecord:
    """One save as the journal remembers it."""

    match: str
    seq: int
    game: int
    turn: int
    hash: str
    prev: str
    signer: int
    score: tuple[int, int]
    path: str
    seen_at: str


@frozen_value
class Resignation:
    """A game (with `whole_match`, the match) that the player in `seat` resigned."""

    game: int
    seat: int
    whole_match: bool


@frozen_value
class Received:
    """A save (or turn code) that came in by mail: where it is kept, who sent it, and when."""

    match: str
    seq: int
    path: str
    opponent: str
    sender: str
    taken_at: str


@frozen_value
class Check:
    """The journal's answer for a save: its status, the latest save known before it, and the players newly pinned."""

    status: Status
    latest: SaveRecord | None = None
    pinned: tuple[Player, ...] = ()  # keys pinned by recording this save (trust on first use): show their fingerprints

    @property
    def first_seen(self) -> bool:
        """Whether this match is new to the journal (its keys are trusted on first use)."""
        return self.status in (Status.NEW_MATCH, Status.UNKNOWN_MATCH)


@frozen_value
class MatchInfo:
    """A match for ``spite games``: its players (pinned keys), target score and latest save."""

    match: str
    players: tuple[Player, Player]
    target: int
    latest: SaveRecord
    first: int = 1  # the seq of the first save of the match recorded here: above 1 on a machine that took it up mid-way
    resignations: tuple[Resignation, ...] = ()

    @property
    def score(self) -> tuple[int, int]:
        return self.latest.score

    @property
    def conceded(self) -> int | None:
        """The seat that resigned the whole match, if one did."""
        return next((r.seat for r in self.resignations if r.whole_match), None)

    @property
    def over(self) -> bool:
        return max(self.score) >= self.target or self.conceded is not None

    @property
    def waiting_for(self) -> int | None:
        """The seat to write the next save: the one that did not write the latest (None once the match is over)."""
        return None if self.over else 1 - self.latest.signer

    def seat_of(self, key: PublicKey | str) -> int | None:
        """The seat whose pinned key is `key`, if any."""
        text = key if isinstance(key, str) else key.text
        return next((seat for seat, p in enumerate(self.players) if p.key == text), None)


class Journal:
    """The journal of one spite home. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, connection: sqlite3.Connection, path: Path, writable: bool = True) -> None:
        self._db = connection
        self.path = path
        self.writable = writable  # False: opened read-only (or none there yet), every write refused as on a read-only home
        self._wrote = False  # whether a write of this journal was committed: a damage found later says so

    @classmethod
    def open(cls, home: Path, write: bool = True, check: bool | None = None) -> Journal:
        """Open the journal under `home`: to write (creating it and `home` if missing, mode 0600), or only to read.

        With `check` (by default when opened to write) it must pass SQLite's quick check first: ~2 ms a MB of journal,
        skipped by the commands that only look (benchmarks/journal_check.py). Raises DamagedJournalError if it is
        damaged, empty, a folder or lacks tables, JournalError if too new, HomeError if the home cannot be written where
        it must be. Read-only, a missing journal is an empty one, and nothing is created.
        """
        home = Path(home)
        path = home / JOURNAL_FILE
        try:
            if write:
                ensure_private_dir(home)
            if path.is_dir():
                # TRANSLATORS: {path} is the journal file.
                raise _damaged(path, _("your journal {path} is a folder, not a file").format(path=path))
            if not path.exists() and not write:
                return cls(_empty(), path, writable=False)
            if not path.exists():
                with contextlib.closing(_empty()) as new:
                    write_new(path, new.serialize(), "journal", mode=0o600)  # whole and private from its first byte
            elif path.stat().st_size == 0:  # spite never leaves one so (it writes a new journal whole): it lost what it held
                # TRANSLATORS: {path} is the journal file.
                raise _damaged(path, _("your journal {path} is empty (0 bytes)").format(path=path))
            db = sqlite3.connect(path) if write else sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        except FileExistsError:  # another spite made it meanwhile
            db = sqlite3.connect(path)
        except (OSError, sqlite3.OperationalError) as e:
            raise home_error(home, e) from e
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
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
            lost = _TABLES - {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if lost:
                gone = ngettext(
                    # TRANSLATORS: {path} is the journal file, {tables} the names of its SQLite tables that are missing.
                    "your journal {path} has lost its table {tables}",
                    "your journal {path} has lost its tables {tables}",
                    len(lost),
                )
                raise _damaged(path, gone.format(path=path, tables=", ".join(sorted(lost))))
        except SpiteError:
            db.close()
            raise
        except sqlite3.DatabaseError as e:
            db.close()
            raise _trouble(path, e) from e
        return cls(db, path, writable=write)

    @property
    def home(self) -> Path:
        return self.path.parent

    @contextlib.contextmanager
    def _writing(self, durable: bool = True) -> Iterator[None]:
        """One write transaction, taken before anything is read for it; a read-only or full home raises HomeError, nothing kept."""
        if not self.writable:
            raise home_error(self.home, PermissionError(errno.EACCES, "opened read-only"))
        try:
            self._db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'OFF'}")
            self._db.execute("BEGIN IMMEDIATE")  # checks and writes see one state: two spites cannot both record a turn
        except sqlite3.DatabaseError as e:
            raise _trouble(self.path, e, self._wrote) from e
        try:
            yield
            self._db.commit()
            self._wrote = True
        except BaseException as e:
            self._db.rollback()
            if isinstance(e, sqlite3.DatabaseError):
                raise _trouble(self.path, e, self._wrote) from e
            raise

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        """Close the journal; a damage SQLite found while it was used becomes the one line :func:`_trouble` makes of it."""
        self.close()
        if isinstance(error, sqlite3.DatabaseError):
            raise _trouble(self.path, error, self._wrote) from error

    # --- questions ---

    def knows(self, match: str) -> bool:
        """Whether this journal has seen the match (if not, the caller warns and trusts the file's own chain)."""
        return self._db.execute("SELECT 1 FROM matches WHERE match = ?", (match,)).fetchone() is not None

    def latest(self, match: str) -> SaveRecord | None:
        """The latest save recorded for `match`, or None if the match is unknown."""
        row = self._db.execute(
            f"SELECT {_SAVE_COLUMNS} FROM saves WHERE match = ? AND {_LIVE} ORDER BY seq DESC LIMIT 1", (match,)
        ).fetchone()
        return _record(row) if row else None

    def at(self, match: str, seq: int) -> SaveRecord | None:
        """The save `seq` of `match` as recorded, if it is."""
        row = self._db.execute(
            f"SELECT {_SAVE_COLUMNS} FROM saves WHERE match = ? AND seq = ? AND {_LIVE} LIMIT 1", (match, seq)
        ).fetchone()
        return _record(row) if row else None

    def resignations(self, match: str) -> list[Resignation]:
        """The games (or the match) resigned in `match`, oldest first."""
        rows = self._db.execute("SELECT game, seat, whole_match FROM resignations WHERE match = ? ORDER BY seq", (match,))
        return [Resignation(game, seat, bool(whole)) for game, seat, whole in rows.fetchall()]

    def resignation(self, digest: str) -> Resignation | None:
        """The resignation that save `digest` made, if it made one."""
        row = self._db.execute("SELECT game, seat, whole_match FROM resignations WHERE hash = ?", (digest,)).fetchone()
        return Resignation(row[0], row[1], bool(row[2])) if row else None

    def is_void(self, digest: str) -> bool:
        """Whether save `digest` is a turn that crossed the other player's resignation, made void by it."""
        return self._db.execute("SELECT 1 FROM void WHERE hash = ?", (digest,)).fetchone() is not None

    def pinned(self, match: str) -> tuple[Player, Player] | None:
        """The players (names and keys) pinned for `match`, or None if the match is unknown."""
        row = self._db.execute("SELECT name0, key0, name1, key1 FROM matches WHERE match = ?", (match,)).fetchone()
        return (Player(row[0], row[1]), Player(row[2], row[3])) if row else None

    def saves(self, match: str) -> list[SaveRecord]:
        """Every save of `match` recorded here, in the order of the chain, less the turns a resignation made void."""
        rows = self._db.execute(f"SELECT {_SAVE_COLUMNS} FROM saves WHERE match = ? AND {_LIVE} ORDER BY seq", (match,)).fetchall()
        return [_record(row) for row in rows]

    def key_for(self, save: SaveFile) -> PublicKey:
        """The key to verify `save` against: the one pinned for its signer, or on first use the one the file names."""
        pinned = self.pinned(save.match)
        if pinned is None or not pinned[save.signer].key:  # first use, or the one who joins an open invitation
            return save.players[save.signer].public_key
        return pinned[save.signer].public_key

    def matches(self) -> list[MatchInfo]:
        """Every match seen, the most recently active first."""
        infos = []
        rows = self._db.execute(
            "SELECT m.match, name0, key0, name1, key1, target, MIN(s.seq) FROM matches m JOIN saves s ON s.match = m.match GROUP BY m.match"
        )
        for match, name0, key0, name1, key1, target, first in rows.fetchall():
            latest = self.latest(match)
            if latest is not None:
                players = (Player(name0, key0), Player(name1, key1))
                infos.append(MatchInfo(match, players, target, latest, first, tuple(self.resignations(match))))
        return sorted(infos, key=lambda m: (m.latest.seen_at, m.latest.seq), reverse=True)

    def check(self, save: SaveFile) -> Check:
        """What the journal makes of `save`; raises KeyMismatchError, ReplayError, ForkError, RollbackError or ChainError.

        It does not check the signature: verify it first (against the pinned keys, :meth:`pinned`).
        """
        pinned = self.pinned(save.match)
        if pinned is None:
            status = Status.NEW_MATCH if save.seq == 1 else Status.UNKNOWN_MATCH
            return Check(status, None, save.players)
        newly: tuple[Player, ...] = ()
        if pinned[1].key == "" and save.players[1].key and save.players[0].key == pinned[0].key:
            newly, pinned = (save.players[1],), (pinned[0], save.players[1])  # the invitation was open: pin who joined
        for seat, (known, offered) in enumerate(zip(pinned, save.players, strict=True)):
            if seat == 1 and save.seq == 1 and offered.key == "":
                continue  # the open invitation itself, seen again after someone joined it: it named no key for seat 1
            if known.key != offered.key:
                changed = _(
                    # TRANSLATORS: {name} is a player's name, {seat} their seat (0 or 1); {pinned} and {offered} are fingerprints
                    # of keys (ABCD-EFGH-IJKL-MNOP).
                    "the key of {name} (seat {seat}) has changed in this match: you pinned {pinned}, "
                    "this file says {offered}. Someone may be impersonating {name}; "
                    "if they really have a new key, they should start a new match"
                )
                raise KeyMismatchError(changed.format(name=known.name, seat=seat, pinned=known.fingerprint, offered=offered.fingerprint))
        latest = self.latest(save.match)
        if latest is None:  # a match row without saves: only an interrupted record could leave that
            return Check(Status.NEW_MATCH, None, ())
        digest = save.hash
        if digest == latest.hash:
            return Check(Status.LATEST, latest)
        crossed = self._db.execute(
            "SELECT game, seat FROM resignations WHERE match = ? AND prev = ? AND seat != ?", (save.match, save.prev, save.signer)
        ).fetchone()
        if crossed is not None:
            mover, resigner = save.players[save.signer].name, save.players[crossed[1]].name
            void = _(
                # TRANSLATORS: {mover} and {resigner} are the players' names; {game} and {turn} say which file, {resigned} which
                # game was resigned.
                "{mover}'s file of game {game}, turn {turn} crossed {resigner}'s resignation of game {resigned}, "
                "which stands: that file is void. {mover}'s answer to the resignation is the file that comes next"
            )
            raise CrossedError(void.format(mover=mover, game=save.game, turn=save.turn, resigner=resigner, resigned=crossed[0]))
        seen = self._db.execute(f"SELECT {_SAVE_COLUMNS} FROM saves WHERE hash = ?", (digest,)).fetchone()
        if seen is not None:
            old = _record(seen)
            played = _(
                # TRANSLATORS: {game} and {turn} say which file this is; {latest_game} and {latest_turn} where the match is now.
                "you have already played from this file (game {game}, turn {turn}); "
                "the match is now at game {latest_game}, turn {latest_turn}"
            )
            raise ReplayError(played.format(game=old.game, turn=old.turn, latest_game=latest.game, latest_turn=latest.turn))
        sibling = self._db.execute(
            f"SELECT {_SAVE_COLUMNS} FROM saves WHERE match = ? AND prev = ? AND signer = ? LIMIT 1", (save.match, save.prev, save.signer)
        ).fetchone()
        if sibling is not None:
            fork = _(
                # TRANSLATORS: {name} is the other player's name.
                "{name} sent two different versions of turn {turn} (game {game}); the one you received first stands, this one is refused"
            )
            raise ForkError(fork.format(name=save.players[save.signer].name, turn=save.turn, game=save.game))
        if save.seq == latest.seq and latest.signer != save.signer and save.prev == latest.prev and _resigns(save):
            return Check(Status.CROSSING, latest)  # docs/save-format.md, Resigning: it takes the place of this player's unanswered file
        if save.seq <= latest.seq:
            older = _(
                # TRANSLATORS: {game} and {turn} say which file this is; {latest_game} and {latest_turn} the latest one the player has.
                "this file is older than the latest you have: it is game {game}, turn {turn}, "
                "and you already have game {latest_game}, turn {latest_turn}"
            )
            raise RollbackError(older.format(game=save.game, turn=save.turn, latest_game=latest.game, latest_turn=latest.turn))
        if save.prev != latest.hash:
            gap = _(
                # TRANSLATORS: {game} and {turn} say which file this is; {latest_game} and {latest_turn} the latest one the player has.
                "this file (game {game}, turn {turn}) does not follow the latest save you have "
                "(game {latest_game}, turn {latest_turn}): a file in between is missing"
            )
            raise ChainError(gap.format(game=save.game, turn=save.turn, latest_game=latest.game, latest_turn=latest.turn))
        if save.seq != latest.seq + 1:
            # TRANSLATORS: {seq} and {latest} are the numbers of files in a match's chain of files.
            misnumbered = _("this file is numbered {seq} but follows save {latest}: it was made wrongly")
            raise ChainError(misnumbered.format(seq=save.seq, latest=latest.seq))
        return Check(Status.CONTINUES, latest, newly)

    # --- changes ---

    def record(
        self,
        save: SaveFile,
        path: Path | str | None = None,
        durable: bool = True,
        checked: Check | None = None,
        proven: Iterable[tuple[bytes, bytes]] = (),
        decks: Iterable[tuple[bytes, bytes, bytes]] = (),
    ) -> Check:
        """Check `save` (as :meth:`check`, same errors) and remember it, pinning the keys of a new match.

        Recording the latest save again only updates where its file lies. `durable=False` skips
        the disk sync, for a save merely looked at: losing that record in a crash loses nothing.
        `checked` is what :meth:`check` made of `save` earlier: it stands if the match's latest save is still the one it saw.
        `proven` are proofs of shuffle checked on the way and `decks` first shuffles made (:meth:`remember_proofs`),
        remembered in the same transaction.
        """
        with self._writing(durable):
            result = self._record(save, path, checked)
            self._remember(proven, decks)
            return result

    def proven(self, match: str) -> list[bytes]:
        """The digests of the proofs of shuffle of `match` this player checked (pbm.protocol.shuffle.remember)."""
        return [bytes(row[0]) for row in self._db.execute("SELECT digest FROM proofs WHERE match = ?", (match,))]

    def decks(self, match: str) -> list[tuple[bytes, bytes]]:
        """The (digest, points) of this player's first shuffles of `match`'s decks (pbm.protocol.dealsteps.remember_decks)."""
        return [(bytes(d), bytes(p)) for d, p in self._db.execute("SELECT digest, points FROM decks WHERE match = ?", (match,))]

    def remember_proofs(self, proven: Iterable[tuple[bytes, bytes]], decks: Iterable[tuple[bytes, bytes, bytes]] = ()) -> None:
        """Remember (match id, digest) of proofs of shuffle that checked out here, and (match id, digest, points) of first
        shuffles made here, without a disk sync (only a cache)."""
        pairs, made = list(proven), list(decks)
        if pairs or made:
            with self._writing(durable=False):
                self._remember(pairs, made)

    def _remember(self, proven: Iterable[tuple[bytes, bytes]], decks: Iterable[tuple[bytes, bytes, bytes]] = ()) -> None:
        self._db.executemany("INSERT OR IGNORE INTO proofs VALUES (?, ?)", ((digest, match.hex()) for match, digest in proven))
        self._db.executemany("INSERT OR IGNORE INTO decks VALUES (?, ?, ?)", ((d, match.hex(), p) for match, d, p in decks))

    def record_own(self, save: SaveFile, data: bytes, path: Path, seat: str, unwritten: bool = False) -> Check:
        """Record a save this player is about to write, with the bytes it is written as and their side after it.

        One transaction: afterwards the save is this player's file for that turn, and :meth:`written` gives it back.
        With `unwritten` it is also listed by :meth:`unwritten` until :meth:`moved` says its file is on disk.
        """
        with self._writing():
            result = self._record(save, path, keep_message=False)  # `written` holds it, in the file's bytes
            self._db.execute("INSERT OR REPLACE INTO written VALUES (?, ?)", (save.hash, data))
            self._db.execute("INSERT OR REPLACE INTO seats VALUES (?, ?, ?)", (save.match, save.seq, seat))
            if unwritten:
                self._db.execute("INSERT OR IGNORE INTO unwritten VALUES (?)", (save.hash,))
        return result

    def unwritten(self) -> list[SaveRecord]:
        """The saves recorded by :meth:`record_own` with `unwritten` whose file no :meth:`moved` has said is on disk."""
        rows = self._db.execute(f"SELECT {_SAVE_COLUMNS} FROM saves WHERE hash IN (SELECT hash FROM unwritten)").fetchall()
        return [_record(row) for row in rows]

    def forget(self, save: SaveFile) -> None:
        """Undo :meth:`record_own` of a match's first save whose file could not be written: nobody has seen it."""
        if save.seq != 1:
            raise JournalError("only an unsent invitation may be forgotten")
        with self._writing():
            for table in (
                "messages WHERE hash IN (SELECT hash FROM saves WHERE match = ?)",
                "unwritten WHERE hash IN (SELECT hash FROM saves WHERE match = ?)",
                "written WHERE hash IN (SELECT hash FROM saves WHERE match = ?)",
                "saves WHERE match = ?",
                "proofs WHERE match = ?",
                "decks WHERE match = ?",
            ):
                self._db.execute(f"DELETE FROM {table}", (save.match,))
            self._db.execute("DELETE FROM seats WHERE match = ?", (save.match,))
            self._db.execute("DELETE FROM matches WHERE match = ?", (save.match,))

    def _record(self, save: SaveFile, path: Path | str | None, checked: Check | None = None, keep_message: bool = True) -> Check:
        result = checked if checked is not None and self._unchanged(save.match, checked) else self.check(save)
        where = _where(path) if path is not None else ""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        if result.status is Status.LATEST:
            if where:
                self._db.execute("UPDATE saves SET path = ? WHERE hash = ?", (where, save.hash))
            if keep_message and self.written(save.hash) is None:
                self._keep_message(save)  # recorded by a spite before schema 5: kept now
            return result
        if result.pinned and result.status is Status.CONTINUES:
            joined = save.players[1]
            self._db.execute("UPDATE matches SET name1 = ?, key1 = ? WHERE match = ?", (joined.name, joined.key, save.match))
        elif result.pinned:
            p0, p1 = save.players
            self._db.execute(
                "INSERT OR IGNORE INTO matches VALUES (?, ?, ?, ?, ?, ?, ?)",
                (save.match, p0.name, p0.key, p1.name, p1.key, save.rules.target_score, now),
            )
        self._db.execute(
            f"INSERT INTO saves ({_SAVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (save.match, save.seq, save.game, save.turn, save.hash, save.prev, save.signer, *save.score, where, now),
        )
        if keep_message:
            self._keep_message(save)
        resign = _resigns(save)
        if resign is not None:
            game, whole = resign
            self._db.execute(
                "INSERT OR IGNORE INTO resignations VALUES (?, ?, ?, ?, ?, ?, ?)",
                (save.hash, save.match, save.seq, save.prev, game, save.signer, int(whole)),
            )
        if result.status is Status.CROSSING and result.latest is not None:
            self._db.execute("INSERT OR IGNORE INTO void VALUES (?)", (result.latest.hash,))
        return result

    def _keep_message(self, save: SaveFile) -> None:
        """Keep the protocol message of `save` (recorded): the save's hash covers it, so it is the file's own (spite record)."""
        message = save.protocol.get("message")
        if isinstance(message, dict):
            self._db.execute("INSERT OR IGNORE INTO messages VALUES (?, ?)", (save.hash, json.dumps(message, sort_keys=True)))

    def _unchanged(self, match: str, checked: Check) -> bool:
        """Whether nothing was recorded for `match` since `checked` was made (its latest save is the one that check saw)."""
        latest, then = self.latest(match), checked.latest
        return checked.status is not Status.EARLIER and (latest.hash if latest else None) == (then.hash if then else None)

    def answer_to(self, save: SaveFile) -> SaveRecord | None:
        """The save recorded as the answer to `save` (the next one, by the other seat), if any."""
        row = self._db.execute(
            f"SELECT {_SAVE_COLUMNS} FROM saves WHERE match = ? AND prev = ? AND signer != ? LIMIT 1", (save.match, save.hash, save.signer)
        ).fetchone()
        return _record(row) if row else None

    def message(self, digest: str) -> dict[str, Any] | None:
        """The protocol message of save `digest`, if this journal kept it: a received one (schema 5 on), or one of this player's files."""
        row = self._db.execute("SELECT data FROM messages WHERE hash = ?", (digest,)).fetchone()
        if row:
            return json.loads(row[0])
        data = self.written(digest)
        if data is None:
            return None
        message = tomllib.loads(data.decode("utf-8"))["protocol"]["message"]  # the player's own file, checked as it was written
        return dict(message)

    def written(self, digest: str) -> bytes | None:
        """The bytes of this player's own save `digest` as it was written, if this journal kept them."""
        row = self._db.execute("SELECT data FROM written WHERE hash = ?", (digest,)).fetchone()
        return bytes(row[0]) if row else None

    def moved(self, digest: str, path: Path) -> None:
        """Note that the file of save `digest` now lies at `path` (so it is written: no longer :meth:`unwritten`)."""
        with self._writing():
            self._db.execute("UPDATE saves SET path = ? WHERE hash = ?", (_where(path), digest))
            self._db.execute("DELETE FROM unwritten WHERE hash = ?", (digest,))

    # --- mail (spite send, inbox, resend) ---

    def address(self, match: str) -> str | None:
        """The opponent's mail address kept for `match`, if any."""
        row = self._db.execute("SELECT address FROM addresses WHERE match = ?", (match,)).fetchone()
        return row[0] if row else None

    def keep_address(self, match: str, address: str) -> None:
        """Remember `address` as the opponent's for `match` (replacing the one kept before)."""
        with self._writing():
            self._db.execute("INSERT OR REPLACE INTO addresses VALUES (?, ?)", (match, address))

    def mailed(self, save: SaveFile | str, match: str, address: str) -> None:
        """Note that the save `save` (or its hash) of `match` was mailed to `address` now."""
        digest = save if isinstance(save, str) else save.hash
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._writing():
            self._db.execute("INSERT INTO mailed VALUES (?, ?, ?, ?)", (digest, match, address, now))

    def was_mailed(self, digest: str) -> bool:
        """Whether the save with hash `digest` was ever mailed from here."""
        return self._db.execute("SELECT 1 FROM mailed WHERE hash = ? LIMIT 1", (digest,)).fetchone() is not None

    def last_mailed(self, match: str) -> tuple[str, str, str] | None:
        """The last save of `match` mailed from here: (its hash, the address, when), if any."""
        row = self._db.execute("SELECT hash, address, sent_at FROM mailed WHERE match = ? ORDER BY rowid DESC LIMIT 1", (match,)).fetchone()
        return (row[0], row[1], row[2]) if row else None

    def take(self, match: str, seq: int, path: Path, opponent: str, sender: str) -> bool:
        """Note that save `seq` of `match` came in by mail and is kept at `path`; False if one was taken for that save already."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._writing():
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO received VALUES (?, ?, ?, ?, ?, ?)", (match, seq, _where(path), opponent, sender, now)
            )
            return cursor.rowcount == 1

    def taken(self, match: str, seq: int) -> str | None:
        """Where the save `seq` of `match` that came in by mail is kept, if one did."""
        row = self._db.execute("SELECT path FROM received WHERE match = ? AND seq = ?", (match, seq)).fetchone()
        return row[0] if row else None

    def waiting(self) -> list[Received]:
        """The saves that came in by mail after the latest one recorded for their match, the earliest of each match first.

        A resignation that crossed this player's latest file (the same number: only such a one is kept, pbm/inbox.py) waits too.
        """
        rows = self._db.execute(
            "SELECT r.match, r.seq, r.path, r.opponent, r.sender, r.taken_at FROM received r "
            f"WHERE r.seq >= COALESCE((SELECT MAX(s.seq) FROM saves s WHERE s.match = r.match AND {_LIVE}), 0) ORDER BY r.match, r.seq"
        ).fetchall()
        out = []
        for row in rows:
            latest = self.latest(row[0])
            if latest is None or row[1] > latest.seq or self.written(latest.hash) is not None:  # the same seq: only a crossing
                out.append(Received(*row))
        return out

    def looked(self, box: str) -> tuple[str, int] | None:
        """Where the last look at the IMAP mailbox `box` ended: its UIDVALIDITY and the highest UID looked at."""
        row = self._db.execute("SELECT validity, uid FROM mailboxes WHERE box = ?", (box,)).fetchone()
        return (row[0], row[1]) if row else None

    def keep_looked(self, box: str, validity: str, uid: int) -> None:
        """Remember where this look at the IMAP mailbox `box` ended (:meth:`looked`)."""
        with self._writing():
            self._db.execute("INSERT OR REPLACE INTO mailboxes VALUES (?, ?, ?)", (box, validity, uid))

    def latest_own(self, match: str, key: str) -> SaveRecord | None:
        """The latest save of `match` this player wrote (signed with the public key text `key`), if any."""
        pinned = self.pinned(match)
        if pinned is None:
            return None
        seats = [seat for seat, p in enumerate(pinned) if p.key == key]
        if not seats:
            return None
        row = self._db.execute(
            f"SELECT {_SAVE_COLUMNS} FROM saves WHERE match = ? AND signer = ? AND {_LIVE} ORDER BY seq DESC LIMIT 1", (match, seats[0])
        ).fetchone()
        return _record(row) if row else None

    # --- this player's own side of a match ---

    def kept_side(self, match: str, seq: int) -> str | None:
        """This player's side after their save `seq` of `match` as the journal kept it (JSON text), if it kept it."""
        row = self._db.execute("SELECT data FROM seats WHERE match = ? AND seq = ?", (match, seq)).fetchone()
        return row[0] if row else None


def _resigns(save: SaveFile) -> tuple[int, bool] | None:
    """The game a save resigns and whether the whole match, if its protocol message is a resignation (it was checked)."""
    message = save.protocol.get("message")
    resign = message.get("resign") if isinstance(message, dict) else None
    if not isinstance(resign, dict) or not isinstance(resign.get("game"), int):
        return None
    return resign["game"], resign.get("match") is True


def _where(path: Path | str) -> str:
    """Where the file at `path` lies, as the journal keeps it; JournalError for a name that is not UTF-8 text, which it cannot keep."""
    where = str(Path(path).resolve())
    try:
        where.encode("utf-8")
    except UnicodeEncodeError as e:
        name = os.fsencode(where).decode("utf-8", "backslashreplace")
        # TRANSLATORS: {name} is a file's path.
        not_utf8 = _("the name of {name} is not UTF-8 text, which your journal keeps: rename the file; nothing was written")
        raise JournalError(not_utf8.format(name=name)) from e
    return where


def _record(row: tuple) -> SaveRecord:
    match, seq, game, turn, digest, prev, signer, score0, score1, path, seen_at = row
    return SaveRecord(match, seq, game, turn, digest, prev, signer, (score0, score1), path, seen_at)
