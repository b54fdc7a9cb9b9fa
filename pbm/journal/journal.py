"""The Journal: what one spite home remembers of every save seen and the keys pinned per match (pbm/journal/store.py
keeps it in SQLite), and what it refuses of a cheating or confused opponent: a key change, a replayed old file, a fork
(two versions of one turn), a rollback, or a gap in the chain.

It also keeps the bytes of every file this player wrote, so an answer interrupted before it reached the disk is
written again as it was recorded, never made anew; and what came and went by mail.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from pbm.errors import (
    ChainError,
    CrossedError,
    DamagedJournalError,
    ForkError,
    JournalError,
    KeyMismatchError,
    ReplayError,
    RollbackError,
)
from pbm.i18n import _
from pbm.identity import PublicKey
from pbm.journal.records import Check, MatchInfo, Received, Resignation, SaveRecord, Status
from pbm.journal.store import Store
from pbm.saves import Player, SaveFile

_SAVE_COLUMNS = "match, seq, game, turn, hash, prev, signer, score0, score1, path, seen_at"
_SAVE_KINDS = (str, int, int, int, str, str, int, int, int, str, str)  # the types of _SAVE_COLUMNS
_LIVE = "hash NOT IN (SELECT hash FROM void)"  # a save that no resignation made void


class Journal:
    """The journal of one spite home. Use :meth:`open`; close it (or use ``with``) when done."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @classmethod
    def open(cls, home: Path, write: bool = True, check: bool | None = None) -> Journal:
        """Open the journal under `home`: to write (the first write makes it, and `home`, if missing: mode 0600), or only to read.

        With `check` (by default when opened to write) it must pass SQLite's quick check first: ~2 ms a MB of journal,
        skipped by the commands that only look (benchmarks/journal_check.py). Raises DamagedJournalError if it is
        damaged, empty, a folder or lacks tables, JournalError if too new, HomeError if the home cannot be written where
        it must be. A missing journal is an empty one, and nothing is made until something is recorded.
        """
        return cls(Store.open(home, write, check))

    @property
    def path(self) -> Path:
        return self._store.path

    @property
    def home(self) -> Path:
        return self._store.path.parent

    @property
    def writable(self) -> bool:
        """False: opened read-only, every write refused as on a read-only home."""
        return self._store.writable

    def close(self) -> None:
        self._store.close()

    def unreadable(self, what: str) -> DamagedJournalError:
        """The one line for something this journal kept that does not read as spite keeps it; `what` says which (in English)."""
        return self._store.unreadable(what)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # --- questions ---

    def knows(self, match: str) -> bool:
        """Whether this journal has seen the match (if not, the caller warns and trusts the file's own chain)."""
        return self._store.row("SELECT 1 FROM matches WHERE match = ?", (match,)) is not None

    def latest(self, match: str) -> SaveRecord | None:
        """The latest save recorded for `match`, or None if the match is unknown."""
        return next(iter(self._saves(f"WHERE match = ? AND {_LIVE} ORDER BY seq DESC LIMIT 1", (match,))), None)

    def at(self, match: str, seq: int) -> SaveRecord | None:
        """The save `seq` of `match` as recorded, if it is."""
        return next(iter(self._saves(f"WHERE match = ? AND seq = ? AND {_LIVE} LIMIT 1", (match, seq))), None)

    def resignations(self, match: str) -> list[Resignation]:
        """The games (or the match) resigned in `match`, oldest first: not one that another resignation made void."""
        return self._resignations(f"WHERE match = ? AND {_LIVE} ORDER BY seq", (match,))

    def resignation(self, digest: str) -> Resignation | None:
        """The resignation that save `digest` made, if it made one."""
        return next(iter(self._resignations("WHERE hash = ?", (digest,))), None)

    def _resignations(self, where: str, values: tuple[Any, ...]) -> list[Resignation]:
        """The resignations recorded that `where` (the rest of a SELECT from the table resignations) picks."""
        rows = self._store.rows(f"SELECT game, seat, whole_match FROM resignations {where}", values, (int, int, int))
        if any(seat not in (0, 1) for _game, seat, _whole in rows):
            raise self._store.unreadable("a resignation by a seat that is not 0 or 1")
        return [Resignation(game, seat, bool(whole)) for game, seat, whole in rows]

    def is_void(self, digest: str) -> bool:
        """Whether save `digest` is a turn that crossed the other player's resignation, made void by it."""
        return self._store.row("SELECT 1 FROM void WHERE hash = ?", (digest,)) is not None

    def pinned(self, match: str) -> tuple[Player, Player] | None:
        """The players (names and keys) pinned for `match`, or None if the match is unknown."""
        row = self._store.row("SELECT name0, key0, name1, key1 FROM matches WHERE match = ?", (match,), (str, str, str, str))
        return (Player(row[0], row[1]), Player(row[2], row[3])) if row else None

    def saves(self, match: str) -> list[SaveRecord]:
        """Every save of `match` recorded here, in the order of the chain, less the turns a resignation made void."""
        return self._saves(f"WHERE match = ? AND {_LIVE} ORDER BY seq", (match,))

    def _saves(self, where: str, values: tuple[Any, ...] = ()) -> list[SaveRecord]:
        """The saves recorded that `where` (the rest of a SELECT from the table saves) picks."""
        out = []
        for row in self._store.rows(f"SELECT {_SAVE_COLUMNS} FROM saves {where}", values, _SAVE_KINDS):
            match, seq, game, turn, digest, prev, signer, score0, score1, path, seen_at = row
            if signer not in (0, 1):
                raise self._store.unreadable(f"save {digest[:8]} is signed by seat {signer}")
            out.append(SaveRecord(match, seq, game, turn, digest, prev, signer, (score0, score1), path, seen_at))
        return out

    def confirmed_keys(self, key: str, besides: str) -> list[tuple[str, Player]]:
        """The opponents (name and key) that the player whose public key text is `key` went on with, in every match but
        `besides`: (match, opponent), the most recently active match first.

        Went on with: the player wrote a file of the match after the opponent's first one, which showed them that key.
        """
        seq = "COALESCE({}(CASE WHEN s.signer = {} THEN s.seq END), -1)"
        rows = self._store.rows(
            f"SELECT m.match, name0, key0, name1, key1, {seq.format('MIN', 0)}, {seq.format('MAX', 0)}, {seq.format('MIN', 1)}, "
            f"{seq.format('MAX', 1)}, MAX(s.seen_at) FROM matches m JOIN saves s ON s.match = m.match "
            "WHERE m.match != ? AND (key0 = ? OR key1 = ?) AND key0 != key1 AND key0 != '' AND key1 != '' GROUP BY m.match",
            (besides, key, key),
            (str, str, str, str, str, int, int, int, int, str),
        )
        out = []
        for match, name0, key0, name1, key1, first0, last0, first1, last1, _when in sorted(rows, key=lambda row: row[-1], reverse=True):
            me = 0 if key0 == key else 1
            first_theirs, last_mine = (first1, last0) if me == 0 else (first0, last1)
            if first_theirs >= 1 and last_mine > first_theirs:
                out.append((match, Player(name1, key1) if me == 0 else Player(name0, key0)))
        return out

    def key_for(self, save: SaveFile) -> PublicKey:
        """The key to verify `save` against: the one pinned for its signer, or on first use the one the file names."""
        pinned = self.pinned(save.match)
        if pinned is None or not pinned[save.signer].key:  # first use, or the one who joins an open invitation
            return save.players[save.signer].public_key
        return pinned[save.signer].public_key

    def matches(self) -> list[MatchInfo]:
        """Every match seen, the most recently active first."""
        infos = []
        rows = self._store.rows(
            "SELECT m.match, name0, key0, name1, key1, target, MIN(s.seq) FROM matches m JOIN saves s ON s.match = m.match "
            "GROUP BY m.match",
            kinds=(str, str, str, str, str, int, int),
        )
        for match, name0, key0, name1, key1, target, first in rows:
            latest = self.latest(match)
            if latest is not None:
                players = (Player(name0, key0), Player(name1, key1))
                infos.append(MatchInfo(match, players, target, latest, first, tuple(self.resignations(match))))
        return sorted(infos, key=lambda m: (m.latest.seen_at, m.latest.seq), reverse=True)

    def check(self, save: SaveFile) -> Check:
        """What the journal makes of `save`; raises KeyMismatchError, ReplayError, ForkError, RollbackError or ChainError.

        It does not check the signature: verify it first (against the pinned keys, :meth:`pinned`). A file of a match this
        player withdrew (spite forget) raises JournalError.
        """
        if self.withdrawn(save.match):
            raise JournalError(_withdrawn(save))
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
        crossed = self._store.row(
            f"SELECT game, seat FROM resignations WHERE match = ? AND prev = ? AND seat != ? AND {_LIVE}",
            (save.match, save.prev, save.signer),
        )
        if crossed is not None and not self._on_turn_resignation(save):
            mover, resigner = save.players[save.signer].name, save.players[crossed[1]].name
            resigned = _resigns(save)
            if resigned is not None:  # docs/protocol.md, Resigning: of two after one file, the one made on its maker's turn stands
                void = _(
                    # TRANSLATORS: {name} and {resigner} are the players' names; {game} the game {name} resigned, {resigned}
                    # the game {resigner} resigned.
                    "{name}'s resignation of game {game} crossed {resigner}'s resignation of game {resigned}, made on "
                    "{resigner}'s turn, which stands: {name}'s resignation is void. {name}'s answer to it is the file that comes next"
                )
                raise CrossedError(void.format(name=mover, game=resigned[0], resigner=resigner, resigned=crossed[0]))
            void = _(
                # TRANSLATORS: {mover} and {resigner} are the players' names; {game} and {turn} say which file, {resigned} which
                # game was resigned.
                "{mover}'s file of game {game}, turn {turn} crossed {resigner}'s resignation of game {resigned}, "
                "which stands: that file is void. {mover}'s answer to the resignation is the file that comes next"
            )
            raise CrossedError(void.format(mover=mover, game=save.game, turn=save.turn, resigner=resigner, resigned=crossed[0]))
        if self.is_void(save.prev):
            raise CrossedError(void_after(save))
        seen = self._saves("WHERE hash = ?", (digest,))
        if seen:
            old = seen[0]
            played = _(
                # TRANSLATORS: {game} and {turn} say which file this is; {latest_game} and {latest_turn} where the match is now.
                "you have already played from this file (game {game}, turn {turn}); "
                "the match is now at game {latest_game}, turn {latest_turn}"
            )
            raise ReplayError(played.format(game=old.game, turn=old.turn, latest_game=latest.game, latest_turn=latest.turn))
        sibling = self._store.row(
            "SELECT 1 FROM saves WHERE match = ? AND prev = ? AND signer = ? LIMIT 1", (save.match, save.prev, save.signer)
        )
        if sibling is not None:
            fork = _(
                # TRANSLATORS: {name} is the other player's name.
                "{name} sent two different versions of turn {turn} (game {game}); the one you received first stands, this one is refused"
            )
            raise ForkError(fork.format(name=save.players[save.signer].name, turn=save.turn, game=save.game))
        replaced = self._replaced_by(save)
        if replaced:  # docs/save-format.md, Resigning: it takes the place of this player's unanswered file
            return Check(Status.CROSSING, latest, void=replaced)
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

    def _on_turn_resignation(self, save: SaveFile) -> bool:
        """Whether `save` is a resignation made on its maker's turn: it follows the other player's file, as a turn would."""
        if _resigns(save) is None:
            return False
        before = self._saves("WHERE hash = ? LIMIT 1", (save.prev,))
        return bool(before) and before[0].signer != save.signer

    def _replaced_by(self, save: SaveFile) -> tuple[str, ...]:
        """The hashes of this player's files that the other's resignation `save` takes the place of (and makes void), if any.

        They are this player's file that follows the same file as `save` (numbered as it is), and what this player wrote
        after it before anything of the other's came: a resignation of theirs made on the other's turn, which follows a
        file now void. None when `save` is no resignation, or something of the other player's followed it.
        """
        if _resigns(save) is None:
            return ()
        after = self._saves(f"WHERE match = ? AND seq >= ? AND {_LIVE} ORDER BY seq", (save.match, save.seq))
        if not after or after[0].seq != save.seq or after[0].prev != save.prev or any(r.signer == save.signer for r in after):
            return ()
        return tuple(r.hash for r in after)

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
        with self._store.writing(durable):
            result = self._record(save, path, checked)
            self._remember(proven, decks)
            return result

    def proven(self, match: str) -> list[bytes]:
        """The digests of the proofs of shuffle of `match` this player checked (pbm.protocol.shuffle.remember)."""
        return [row[0] for row in self._store.rows("SELECT digest FROM proofs WHERE match = ?", (match,), (bytes,))]

    def decks(self, match: str) -> list[tuple[bytes, bytes]]:
        """The (digest, points) of this player's first shuffles of `match`'s decks (pbm.protocol.dealsteps.remember_decks)."""
        return [(d, p) for d, p in self._store.rows("SELECT digest, points FROM decks WHERE match = ?", (match,), (bytes, bytes))]

    def remember_proofs(self, proven: Iterable[tuple[bytes, bytes]], decks: Iterable[tuple[bytes, bytes, bytes]] = ()) -> None:
        """Remember (match id, digest) of proofs of shuffle that checked out here, and (match id, digest, points) of first
        shuffles made here, without a disk sync (only a cache)."""
        pairs, made = list(proven), list(decks)
        if pairs or made:
            with self._store.writing(durable=False):
                self._remember(pairs, made)

    def _remember(self, proven: Iterable[tuple[bytes, bytes]], decks: Iterable[tuple[bytes, bytes, bytes]] = ()) -> None:
        self._store.run_many("INSERT OR IGNORE INTO proofs VALUES (?, ?)", ((digest, match.hex()) for match, digest in proven))
        self._store.run_many("INSERT OR IGNORE INTO decks VALUES (?, ?, ?)", ((d, match.hex(), p) for match, d, p in decks))

    def record_own(self, save: SaveFile, data: bytes, path: Path, seat: str, unwritten: bool = False) -> Check:
        """Record a save this player is about to write, with the bytes it is written as and their side after it.

        One transaction: afterwards the save is this player's file for that turn, and :meth:`written` gives it back.
        With `unwritten` it is also listed by :meth:`unwritten` until :meth:`moved` says its file is on disk.
        """
        with self._store.writing():
            result = self._record(save, path, keep_message=False)  # `written` holds it, in the file's bytes
            self._store.run("INSERT OR REPLACE INTO written VALUES (?, ?)", (save.hash, data))
            self._store.run("INSERT OR REPLACE INTO seats VALUES (?, ?, ?)", (save.match, save.seq, seat))
            if unwritten:
                self._store.run("INSERT OR IGNORE INTO unwritten VALUES (?)", (save.hash,))
        return result

    def unwritten(self) -> list[SaveRecord]:
        """The saves recorded by :meth:`record_own` with `unwritten` whose file no :meth:`moved` has said is on disk."""
        return self._saves("WHERE hash IN (SELECT hash FROM unwritten)")

    def forget(self, save: SaveFile) -> None:
        """Undo :meth:`record_own` of a match's first save whose file could not be written: nobody has seen it."""
        if save.seq != 1:
            raise JournalError("only an unsent invitation may be forgotten")
        with self._store.writing():
            self._erase(save.match)

    def _erase(self, match: str) -> None:
        """Delete every row the files of `match` made (inside :meth:`Store.writing`): its saves, sides, proofs and decks."""
        for table in (
            "messages WHERE hash IN (SELECT hash FROM saves WHERE match = ?)",
            "unwritten WHERE hash IN (SELECT hash FROM saves WHERE match = ?)",
            "written WHERE hash IN (SELECT hash FROM saves WHERE match = ?)",
            "saves WHERE match = ?",
            "proofs WHERE match = ?",
            "decks WHERE match = ?",
        ):
            self._store.run(f"DELETE FROM {table}", (match,))
        self._store.run("DELETE FROM seats WHERE match = ?", (match,))
        self._store.run("DELETE FROM matches WHERE match = ?", (match,))

    # --- spite forget ---

    def withdraw(self, match: str, refuse: bool = True) -> None:
        """Forget `match`, in which no turn was played and nobody answered this player's latest file (spite forget): every
        row of it goes, the mail kept for it too.

        With `refuse` (this player withdraws their invitation, or their answer to one) its id stays in `forgotten`, so that
        :meth:`check` refuses every file of it from now on. JournalError if a turn of it is recorded.
        """
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.writing():
            if self._store.row("SELECT 1 FROM saves WHERE match = ? AND (game > 1 OR turn > 0) LIMIT 1", (match,)) is not None:
                raise JournalError("only a match in which no turn was played may be withdrawn")  # spite forget checked it first
            self._erase(match)
            for table in ("addresses", "mailed", "received"):
                self._store.run(f"DELETE FROM {table} WHERE match = ?", (match,))
            if refuse:
                self._store.run("INSERT OR REPLACE INTO forgotten VALUES (?, 1, ?)", (match, now))

    def drop(self, match: str) -> None:
        """Take the finished `match` off the player's list (spite forget): every row of it stays, for spite record and stats."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.writing():
            self._store.run("INSERT OR IGNORE INTO forgotten VALUES (?, 0, ?)", (match, now))

    def dropped(self) -> set[str]:
        """The finished matches taken off the player's list with :meth:`drop` (spite games leaves them out)."""
        return {row[0] for row in self._store.rows("SELECT match FROM forgotten WHERE withdrawn = 0", kinds=(str,))}

    def withdrawn(self, match: str) -> bool:
        """Whether this player withdrew `match` (:meth:`withdraw`): no file of it may be recorded again."""
        return self._store.row("SELECT 1 FROM forgotten WHERE match = ? AND withdrawn = 1", (match,)) is not None

    def _record(self, save: SaveFile, path: Path | str | None, checked: Check | None = None, keep_message: bool = True) -> Check:
        result = checked if checked is not None and self._unchanged(save.match, checked) else self.check(save)
        where = _where(path) if path is not None else ""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        if result.status is Status.LATEST:
            if where:
                self._store.run("UPDATE saves SET path = ? WHERE hash = ?", (where, save.hash))
            if keep_message and self.written(save.hash) is None:
                self._keep_message(save)  # recorded by a spite before schema 5: kept now
            return result
        if result.pinned and result.status is Status.CONTINUES:
            joined = save.players[1]
            self._store.run("UPDATE matches SET name1 = ?, key1 = ? WHERE match = ?", (joined.name, joined.key, save.match))
        elif result.pinned:
            p0, p1 = save.players
            self._store.run(
                "INSERT OR IGNORE INTO matches VALUES (?, ?, ?, ?, ?, ?, ?)",
                (save.match, p0.name, p0.key, p1.name, p1.key, save.rules.target_score, now),
            )
        self._store.run(
            f"INSERT INTO saves ({_SAVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (save.match, save.seq, save.game, save.turn, save.hash, save.prev, save.signer, *save.score, where, now),
        )
        if keep_message:
            self._keep_message(save)
        resign = _resigns(save)
        if resign is not None:
            game, whole = resign
            self._store.run(
                "INSERT OR IGNORE INTO resignations VALUES (?, ?, ?, ?, ?, ?, ?)",
                (save.hash, save.match, save.seq, save.prev, game, save.signer, int(whole)),
            )
        if result.status is Status.CROSSING:
            self._store.run_many("INSERT OR IGNORE INTO void VALUES (?)", ((digest,) for digest in result.void))
        return result

    def _keep_message(self, save: SaveFile) -> None:
        """Keep the protocol message of `save` (recorded): the save's hash covers it, so it is the file's own (spite record)."""
        message = save.protocol.get("message")
        if isinstance(message, dict):
            self._store.run("INSERT OR IGNORE INTO messages VALUES (?, ?)", (save.hash, json.dumps(message, sort_keys=True)))

    def _unchanged(self, match: str, checked: Check) -> bool:
        """Whether nothing was recorded for `match` since `checked` was made (its latest save is the one that check saw)."""
        latest, then = self.latest(match), checked.latest
        return checked.status is not Status.EARLIER and (latest.hash if latest else None) == (then.hash if then else None)

    def answer_to(self, save: SaveFile) -> SaveRecord | None:
        """The save recorded as the answer to `save` (the next one, by the other seat), if any."""
        return next(iter(self._saves("WHERE match = ? AND prev = ? AND signer != ? LIMIT 1", (save.match, save.hash, save.signer))), None)

    def message(self, digest: str) -> dict[str, Any] | None:
        """The protocol message of save `digest`, if this journal kept it: a received one (schema 5 on), or one of this player's files.

        DamagedJournalError if what it kept does not read (a damaged disk: it was checked when it was kept).
        """
        row = self._store.row("SELECT data FROM messages WHERE hash = ?", (digest,), (str,))
        data = row[0] if row else self.written(digest)
        if data is None:
            return None
        try:
            message = json.loads(data) if row else tomllib.loads(data.decode("utf-8"))["protocol"]["message"]  # or of their file
            if isinstance(message, dict):
                return dict(message)
        except (ValueError, KeyError, TypeError):  # not UTF-8, not JSON or TOML, or not a save
            pass
        raise self._store.unreadable(f"the message kept of save {digest[:8]} does not read")

    def written(self, digest: str) -> bytes | None:
        """The bytes of this player's own save `digest` as it was written, if this journal kept them."""
        row = self._store.row("SELECT data FROM written WHERE hash = ?", (digest,), (bytes,))
        return row[0] if row else None

    def moved(self, digest: str, path: Path) -> None:
        """Note that the file of save `digest` now lies at `path` (so it is written: no longer :meth:`unwritten`)."""
        with self._store.writing():
            self._store.run("UPDATE saves SET path = ? WHERE hash = ?", (_where(path), digest))
            self._store.run("DELETE FROM unwritten WHERE hash = ?", (digest,))

    # --- mail (spite send, inbox, resend) ---

    def address(self, match: str) -> str | None:
        """The opponent's mail address kept for `match`, if any."""
        row = self._store.row("SELECT address FROM addresses WHERE match = ?", (match,), (str,))
        return row[0] if row else None

    def keep_address(self, match: str, address: str) -> None:
        """Remember `address` as the opponent's for `match` (replacing the one kept before)."""
        with self._store.writing():
            self._store.run("INSERT OR REPLACE INTO addresses VALUES (?, ?)", (match, address))

    def mailed(self, save: SaveFile | str, match: str, address: str) -> None:
        """Note that the save `save` (or its hash) of `match` was mailed to `address` now."""
        digest = save if isinstance(save, str) else save.hash
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.writing():
            self._store.run("INSERT INTO mailed VALUES (?, ?, ?, ?)", (digest, match, address, now))

    def was_mailed(self, digest: str) -> bool:
        """Whether the save with hash `digest` was ever mailed from here."""
        return self._store.row("SELECT 1 FROM mailed WHERE hash = ? LIMIT 1", (digest,)) is not None

    def last_mailed(self, match: str) -> tuple[str, str, str] | None:
        """The last save of `match` mailed from here: (its hash, the address, when), if any."""
        last = "SELECT hash, address, sent_at FROM mailed WHERE match = ? ORDER BY rowid DESC LIMIT 1"
        row = self._store.row(last, (match,), (str, str, str))
        return (row[0], row[1], row[2]) if row else None

    def take(self, match: str, seq: int, path: Path, opponent: str, sender: str) -> bool:
        """Note that save `seq` of `match` came in by mail and is kept at `path`; False if one was taken for that save already."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.writing():
            taken = (match, seq, _where(path), opponent, sender, now)
            return self._store.run("INSERT OR IGNORE INTO received VALUES (?, ?, ?, ?, ?, ?)", taken) == 1

    def retake(self, match: str, seq: int, was: str, path: Path, opponent: str, sender: str) -> bool:
        """Note that save `seq` of `match` came in by mail and is kept at `path`, in place of the copy taken before at `was`
        (which did not verify: gone, damaged, or a forgery an older spite kept); False if that copy was replaced meanwhile."""
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._store.writing():
            taken = (_where(path), opponent, sender, now, match, seq, was)
            return (
                self._store.run(
                    "UPDATE received SET path = ?, opponent = ?, sender = ?, taken_at = ? WHERE match = ? AND seq = ? AND path = ?", taken
                )
                == 1
            )

    def taken(self, match: str, seq: int) -> str | None:
        """Where the save `seq` of `match` that came in by mail is kept, if one did."""
        row = self._store.row("SELECT path FROM received WHERE match = ? AND seq = ?", (match, seq), (str,))
        return row[0] if row else None

    def waiting(self) -> list[Received]:
        """The saves that came in by mail after the latest one recorded for their match, the earliest of each match first.

        A resignation that crossed this player's latest file (the same number: only such a one is kept, pbm/inbox.py) waits too.
        """
        rows = self._store.rows(
            "SELECT r.match, r.seq, r.path, r.opponent, r.sender, r.taken_at FROM received r "
            f"WHERE r.seq >= COALESCE((SELECT MAX(s.seq) FROM saves s WHERE s.match = r.match AND {_LIVE}), 0) ORDER BY r.match, r.seq",
            kinds=(str, int, str, str, str, str),
        )
        out = []
        for row in rows:
            latest = self.latest(row[0])
            if latest is None or row[1] > latest.seq or self.written(latest.hash) is not None:  # the same seq: only a crossing
                out.append(Received(*row))
        return out

    def looked(self, box: str) -> tuple[str, int] | None:
        """Where the last look at the IMAP mailbox `box` ended: its UIDVALIDITY and the highest UID looked at."""
        row = self._store.row("SELECT validity, uid FROM mailboxes WHERE box = ?", (box,), (str, int))
        return (row[0], row[1]) if row else None

    def keep_looked(self, box: str, validity: str, uid: int) -> None:
        """Remember where this look at the IMAP mailbox `box` ended (:meth:`looked`)."""
        with self._store.writing():
            self._store.run("INSERT OR REPLACE INTO mailboxes VALUES (?, ?, ?)", (box, validity, uid))

    def latest_own(self, match: str, key: str) -> SaveRecord | None:
        """The latest save of `match` this player wrote (signed with the public key text `key`), if any."""
        pinned = self.pinned(match)
        if pinned is None:
            return None
        seats = [seat for seat, p in enumerate(pinned) if p.key == key]
        if not seats:
            return None
        return next(iter(self._saves(f"WHERE match = ? AND signer = ? AND {_LIVE} ORDER BY seq DESC LIMIT 1", (match, seats[0]))), None)

    # --- this player's own side of a match ---

    def kept_side(self, match: str, seq: int) -> str | None:
        """This player's side after their save `seq` of `match` as the journal kept it (JSON text), if it kept it.

        DamagedJournalError if that text is not JSON (a damaged disk: spite keeps only JSON there).
        """
        row = self._store.row("SELECT data FROM seats WHERE match = ? AND seq = ?", (match, seq), (str,))
        if row is None:
            return None
        try:
            json.loads(row[0])
        except (ValueError, TypeError) as e:
            raise self._store.unreadable(f"the side kept after save {seq} of match {match[:8]} is not JSON") from e
        return str(row[0])


def void_after(save: SaveFile) -> str:
    """Why `save` is void: it follows a file that a resignation took the place of (docs/save-format.md, Resigning)."""
    # TRANSLATORS: {name} is the player who wrote the file; {game} and {turn} say which file
    said = _("{name}'s file of game {game}, turn {turn} follows one that a resignation made void: it is void too")
    return said.format(name=save.players[save.signer].name, game=save.game, turn=save.turn)


def _withdrawn(save: SaveFile) -> str:
    """Why a file of a match this player withdrew (spite forget) is refused."""
    # TRANSLATORS: {name} is the player who wrote the file; {match} a match's id (8 hex digits); "spite forget" and "spite
    # new" are commands: keep them
    said = _("{name}'s file is of match {match}, which you withdrew (spite forget): it is refused; spite new starts a new match")
    return said.format(name=save.players[save.signer].name, match=save.match[:8])


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
