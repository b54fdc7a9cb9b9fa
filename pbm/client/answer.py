"""Answering a save: the next one built, sealed and signed in one step, serialized, recorded, and written.

:func:`answer` sends what is due on an :class:`~pbm.client.receive.Opened` (the moves played on its seat, or a deal step);
:func:`new_match` writes a match's first save. The answer is recorded before it is on disk, so that a retry writes the
same bytes again (:func:`recorded_answer`), and no file ever replaces another.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine._frozen import frozen_value
from engine.rules import Ruleset
from pbm import carry, saves
from pbm.carry import Side, Sides, side_digest
from pbm.client.receive import (
    DEFAULT_OPPONENT,
    Given,
    Opened,
    _game_label,
    _table_after,
    _turns_after,
    completed,
    seat_of,
)
from pbm.client.side import history_digest
from pbm.errors import BusyError, SpiteError, TooLargeError, WriteError
from pbm.home import fault_point, match_lock, read_head, remove_stale, write_new
from pbm.i18n import _, error_text, os_reason
from pbm.identity import Identity
from pbm.journal import Journal, SaveRecord
from pbm.protocol import dealsteps
from pbm.protocol.dealing import Party
from pbm.protocol.seat import Seat
from pbm.saves import Player, SaveFile, TurnRecord
from pbm.secrets import seal
from pbm.table import table_data
from pbm.transport.code import TurnCode


def answer(opened: Opened, out: Path | None = None) -> tuple[SaveFile, Path]:
    """Send what is due (the moves played on `opened.seat`, or a deal step) as the next save, written next to the input.

    The input file is recorded as seen (unless receiving it did) and never changed; the new file never replaces an existing one.
    """
    played = list(opened.seat.moves)
    return _written(opened, opened.seat.send().to_data(), played, out)


def resign(opened: Opened, whole_match: bool = False, out: Path | None = None) -> tuple[SaveFile, Path]:
    """Resign the game under way (with `whole_match`, the match) in the next save, written beside `opened`'s file.

    `opened` is the other player's latest file (this player's turn) or this player's own (the other's turn: the
    resignation then carries that file's turn, docs/save-format.md). Raises ProtocolError, nothing written, when
    there is no game under way to resign.
    """
    save = opened.save
    after = {**saves.turn_payload(save), "signature": save.turn_signature} if opened.mine else None
    return _written(opened, opened.seat.resign(whole_match, after).to_data(), [], out)


def _written(opened: Opened, message: dict[str, Any], played: list[Any], out: Path | None) -> tuple[SaveFile, Path]:
    """`message` (with the moves `played`) as the save that follows `opened`, signed, recorded and written."""
    identity, journal = opened.identity, opened.journal
    assert identity is not None and journal is not None
    seat, save, me = opened.seat, opened.save, opened.me
    game = _game_label(message, save.game)
    history = _turns_after(save.history, save.game, game, me, played)
    players = list(save.players)
    name = players[me].name
    if save.seq == 1 and me == 1 and name == DEFAULT_OPPONENT:
        name = identity.name  # the inviter named nobody: the one who joins goes by their own name
    players[me] = Player(name, identity.public_text)
    draft = Draft(
        match=save.match,
        seq=save.seq + 1,
        game=game,
        prev=save.hash,
        rules=save.rules,
        players=(players[0], players[1]),
        score=seat.party.record.scores,
        state=_table_after(seat, played),
        history=history,
        message=message,
        secrets=save.secrets,
    )
    signed, data, side = _made(draft, seat, identity, opened.sides[1 - me])
    path = out if out is not None else saves.fresh_path(signed, opened.path)
    if path.exists() or path.resolve() == opened.path.resolve():
        raise _exists(path)
    if not opened.recorded:
        journal.record(save, opened.file)
    # the answer is recorded before it is on disk: from here on, this is the answer, and a retry writes these bytes again
    journal.record_own(signed, data, path, _kept_text(side, signed.secrets[me], signed.history))
    journal.remember_proofs((), dealsteps.newly_made_decks())  # a next game's first shuffle, made for this answer
    fault_point("answer-recorded")
    return signed, _put(journal, signed, data, path, _("your answer is recorded: run the same command again to write it"))


@frozen_value(slots=False)
class Draft:
    """A save being made: all of it but the writer's sealed secrets, the carry of both sides, and the signatures."""

    match: str
    seq: int
    game: int
    prev: str
    rules: Ruleset
    players: tuple[Player, Player]
    score: tuple[int, int]
    message: dict[str, Any]
    state: dict[str, Any] = dataclasses.field(default_factory=dict)
    history: tuple[TurnRecord, ...] = ()
    secrets: Mapping[int, str] = dataclasses.field(default_factory=dict)


def _made(draft: Draft, seat: Seat, identity: Identity, their_side: Side | None) -> tuple[SaveFile, bytes, Side]:
    """`draft` sealed (the writer's secrets), carried (both sides), signed, and as TOML; and the writer's side.

    The save's schema runs once, on the whole save. Should the file not fit the size limit (saves.MAX_BYTES), it goes
    without the other player's side: their journal has it.
    """
    me = seat.party.me
    side = _side(seat, draft)
    secrets = {**draft.secrets, me: _sealed(seat, side, identity, draft)}
    # both sides; else without theirs; else, in a game of thousands of turns, without either: both journals have them
    tries: list[tuple[Side | None, Side | None]] = [(side, their_side), (side, None), (None, None)]
    for mine, theirs in tries if their_side is not None else tries[1:]:
        sides: Sides = (mine, theirs) if me == 0 else (theirs, mine)
        carried = carry.pack_sides(sides, draft.history, draft.message, draft.state)
        whole = SaveFile(
            match=draft.match,
            seq=draft.seq,
            game=draft.game,
            turn=len(draft.history),
            prev=draft.prev,
            rules=draft.rules,
            players=draft.players,
            score=draft.score,
            state=draft.state,
            history=draft.history,
            protocol={"message": draft.message, "carry": carried},
            secrets=secrets,
        )
        signed = saves.sign(whole, identity)
        try:
            return signed, saves.to_toml(signed), side
        except TooLargeError:
            if mine is None:
                raise
    raise AssertionError("unreachable")


def _side(seat: Seat, draft: Draft) -> Side:
    """The public part of this player's side after writing `draft`: protocol state, table, and the labels of `draft`."""
    return {
        "party": seat.party.export_public(),
        "state": None if seat.state is None else table_data(seat.state),
        "rules": dataclasses.asdict(draft.rules),
        "players": [[p.name, p.key] for p in draft.players],
        "game": draft.game,
        "history": history_digest(draft.history),  # the file has the turns; the side only binds them
    }


def _sealed(seat: Seat, side: Side, identity: Identity, draft: Draft) -> str:
    """This player's secrets after writing `draft` (keys and hand), bound to `side` and to the save's number, sealed to them."""
    secrets = {
        "seq": draft.seq,
        "side": side_digest(side),
        "party": json.loads(seat.party.export_secrets()),
        "hand": [] if seat.state is None else [card.index for card in seat.state.players[seat.party.me].hand],
    }
    return seal(json.dumps(secrets, sort_keys=True).encode(), identity.private_bytes(), bytes.fromhex(draft.match))


def _kept_text(side: Side, blob: str, history: tuple[TurnRecord, ...]) -> str:
    """What the journal keeps of this player's side after one of their files, and the game's turns it listed (for turn codes)."""
    return json.dumps({"side": side, "blob": blob, "turns": saves.pack_history(history)}, sort_keys=True)


def _put(journal: Journal, save: SaveFile, data: bytes, path: Path, after: str) -> Path:
    """Write the recorded file of `save` (`data`) at `path`, or beside it if a file took that name meanwhile; returns where.

    Temp files a killed spite left there for this match go first. `after` says what a player may do if the write fails.
    """
    remove_stale(path.parent, save.match)
    try:
        try:
            write_new(path, data, save.match)
        except FileExistsError:  # made by something else than spite since the name was chosen
            path = saves.fresh_path(save, path)
            write_new(path, data, save.match)
            journal.moved(save.hash, path)
    except OSError as e:
        # TRANSLATORS: {error} is the system's reason (in the system's words); {after} says what the player may do now
        raise WriteError(_("cannot write {file}: {error}; {after}").format(file=path, error=os_reason(e), after=after)) from e
    return path


def _exists(path: Path) -> SpiteError:
    """The refusal to write over a file that exists."""
    return SpiteError(_("{file} exists already; spite never overwrites a file: choose another name with -o").format(file=path))


@frozen_value(slots=False)
class Answered:
    """This player's answer to a file, recorded earlier: where it lies, and whether it had to be written again."""

    received: SaveFile  # the file it answers
    save: SaveFile
    path: Path
    rewritten: bool  # it was not on disk (a write interrupted by a crash, a full disk, or a file removed): written again


def recorded_answer(given: Given, identity: Identity, journal: Journal, out: Path | None = None) -> Answered | None:
    """This player's recorded answer to what they gave, written again (the same bytes) if it is not on disk; None if there is none.

    Only an answer that is still the latest file of the match counts: a file answered since is a replay, which
    :func:`~pbm.client.receive.receive` refuses.
    """
    received = completed(given.item, identity, journal) if isinstance(given.item, TurnCode) else given.item
    me = seat_of(received, identity)
    record = journal.answer_to(received) if received.signer != me else None
    latest = journal.latest(received.match)
    if record is None or latest is None or latest.hash != record.hash:
        return None
    again = rewrite(journal, record, out)
    return None if again is None else Answered(received, *again)


def rewrite(journal: Journal, record: SaveRecord, out: Path | None = None) -> tuple[SaveFile, Path, bool] | None:
    """This player's own file `record`, written again (the same bytes, where it was recorded or at `out`) unless it is on
    disk there: the save, where it lies, and whether it had to be written again. None if the journal kept no bytes of it."""
    data = journal.written(record.hash)
    if data is None:
        return None
    save = saves.parse(data)
    path = out if out is not None else Path(record.path) if record.path else saves.fresh_path(save, Path.cwd())
    if _holds(path, data):
        return save, path, False
    if path.exists():
        if out is not None:
            raise _exists(path)
        path = saves.fresh_path(save, path)
    path = _put(journal, save, data, path, _("run the same command again to write it"))
    journal.moved(save.hash, path)
    return save, path, True


def _holds(path: Path, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (reading no more than that and one byte)."""
    try:
        return read_head(path, len(data) + 1) == data
    except OSError:
        return False


def new_match(
    identity: Identity,
    journal: Journal,
    rules: Ruleset,
    opponent: str,
    opponent_key: str = "",
    out: Path | None = None,
    directory: Path | None = None,
) -> tuple[SaveFile, Path]:
    """Start a match as seat 0 and write the invitation (deal step 1)."""
    match_hex = saves.new_match_id()
    match = bytes.fromhex(match_hex)
    seat = Seat(Party(0, match, rules))
    message = seat.send().to_data()
    draft = Draft(
        match=match_hex,
        seq=1,
        game=1,
        prev="",
        rules=rules,
        players=(Player(identity.name, identity.public_text), Player(opponent, opponent_key)),
        score=(0, 0),
        message=message,
    )
    signed, data, side = _made(draft, seat, identity, None)
    path = out if out is not None else (directory or Path.cwd()) / saves.default_name(signed)
    if path.exists():
        raise _exists(path)
    kept = _kept_text(side, signed.secrets[0], signed.history)
    journal.record_own(signed, data, path, kept, unwritten=True)  # first: a full or read-only home is refused, left as it was
    fault_point("invitation-recorded")
    with match_lock(journal.home, match_hex):  # :func:`settle_invitations` leaves it alone until it is written
        if not journal.knows(match_hex):  # a settle_invitations took it for a killed spite's in the instant before the lock
            journal.record_own(signed, data, path, kept, unwritten=True)
        try:
            path = _put(journal, signed, data, path, _("nothing was kept: the match was not started"))
        except SpiteError:
            journal.forget(signed)  # nobody can have seen an invitation that was never written
            raise
        fault_point("invitation-written")
        journal.moved(signed.hash, path)  # on disk: from here on the match stands, whatever becomes of the file
        journal.remember_proofs((), dealsteps.newly_made_decks())  # its first shuffle, to check the second against
    return signed, path


@frozen_value(slots=False)
class Settled:
    """An invitation a stopped `spite new` recorded but never said it wrote: kept (its file is on disk) or forgotten."""

    match: str
    path: Path
    kept: bool


def settle_invitations(journal: Journal) -> list[Settled]:
    """Settle the invitations a killed `spite new` left recorded but not known to be written, and remove its temp files.

    One whose file holds the recorded bytes (or that was answered) stands; one never written is forgotten: nobody can
    have it. An invitation another spite is writing right now is left to it.
    """
    settled = []
    for record in journal.unwritten():
        try:
            with match_lock(journal.home, record.match):
                if record.hash not in {r.hash for r in journal.unwritten()}:
                    continue  # the spite that was writing it has finished meanwhile
                path, data, latest = Path(record.path), journal.written(record.hash), journal.latest(record.match)
                remove_stale(path.parent, record.match)
                if data is not None and latest is not None and latest.hash == record.hash and not _holds(path, data):
                    journal.forget(saves.parse(data))
                    settled.append(Settled(record.match, path, kept=False))
                else:
                    journal.moved(record.hash, path)
                    settled.append(Settled(record.match, path, kept=True))
        except BusyError:
            continue  # being written right now
    return settled


def replace_rules(rules: Ruleset, payoff: int | None, target: int | None) -> Ruleset:
    """`rules` with a shorter pay-off pile or target score, named so players see the match is not plain g4a."""
    changes: dict[str, object] = {}
    if payoff is not None:
        changes["payoff_size"] = payoff
    if target is not None:
        changes["target_score"] = target
    if not changes:
        return rules
    try:
        return dataclasses.replace(rules, name="custom", **changes)  # type: ignore[arg-type]
    except ValueError as e:  # numbers each fine, together impossible: more cards dealt than the decks hold
        # TRANSLATORS: {error} says which numbers do not go together (a pay-off pile too large for the decks)
        raise SpiteError(_("no match with those rules: {error}").format(error=error_text(e))) from e
