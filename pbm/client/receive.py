"""Receiving a save: the receiver's checks in the order they run, from what the player gave to the save taken in.

:func:`decode` the bytes (a save, or a turn code that :func:`completed` turns into the save it stands for), then
:func:`receive`: find this player's seat, verify the signature once, place the save in the chain, restore this
player's side, take the message in (proofs, moves, table), and record it. Nothing here prints: what the player should
be told comes back as notes, data in :attr:`Opened.notes`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine._frozen import frozen_value, mutable_value
from engine.game import Match
from engine.moves import Move
from engine.state import GameState, PlayerView
from pbm import carry, saves
from pbm.carry import Sides
from pbm.client.side import _check_carry, _Kept, _kept, _restore, history_digest, match_id_bytes
from pbm.errors import (
    CrossedError,
    HomeError,
    NoRecordError,
    NotAPlayerError,
    NotYourTurnError,
    ReplayError,
    SpiteError,
    TableMismatchError,
)
from pbm.i18n import _, error_text, ngettext
from pbm.identity import Identity
from pbm.journal import Check, Journal, Status, void_after
from pbm.protocol import shuffle
from pbm.protocol.dealing import Party
from pbm.protocol.seat import Seat
from pbm.saves import Player, SaveFile, TurnRecord
from pbm.shown import plain
from pbm.table import table_data
from pbm.transport.aswritten import save_as_written

if TYPE_CHECKING:  # the turn-code reader is imported only when a turn code, or a save mail or chat changed, is read
    from pbm.transport.code import TurnCode

DEFAULT_OPPONENT = "Opponent"  # the name an invitation gives a seat nobody was named for: a save's content, never translated


@frozen_value(slots=False)
class Given:
    """What the player gave, decoded: a save or a turn code, and where an answer goes (beside the file, else a folder)."""

    item: SaveFile | TurnCode
    where: Path

    @property
    def match(self) -> str:
        return self.item.match


def decode(data: bytes, where: Path) -> Given:
    """The save or turn code in `data` (as written, or pasted, quoted or re-wrapped), read from `where`."""
    save = save_as_written(data)
    if save is not None:
        return Given(save, where)
    from pbm.transport import code  # only a turn code, or a save mail or chat changed, needs its reader

    return Given(code.read(data), where)


# --- what the player is told: notes, as data; the CLI words them ---


@frozen_value(slots=False)
class Resumed:
    """This machine has no record of the player's side of the match: it came from the file, whose chain is taken on trust."""

    match: str
    recorded: bool  # False: only looked at (spite show, verify), and not recorded: 'spite play' asks whether it is the newest


@frozen_value(slots=False)
class NotCarried:
    """The file does not carry the player's side (it answers a turn code, or would not have fitted): their journal has it."""


@frozen_value(slots=False)
class NotRecorded:
    """A file only looked at could not be recorded in the journal (`trouble` says why); it was checked all the same."""

    trouble: str


@frozen_value(slots=False)
class FirstContact:
    """A key met for the first time in this match (trusted on first use): its fingerprint should be compared.

    `confirmed`: the match in which the player went on with this very key under this very name (nothing to compare
    again), else "". `differs`: else, the match and the player in it whose other key the player went on with under
    (nearly) this name: this key is not the one they know for that name.
    """

    player: Player
    confirmed: str = ""
    differs: tuple[str, Player] | None = None


Note = Resumed | NotCarried | NotRecorded | FirstContact


@mutable_value(slots=False)
class Opened:
    """A verified save as seen by one player: where the match stands and what this player may do."""

    save: SaveFile
    path: Path  # the file read, or where the answer is written for a turn code or pasted text (beside it, or a folder)
    me: int
    seat: Seat
    check: Check
    their_moves: list[Move] = field(default_factory=list)
    mine: bool = False  # the file is this player's own last save
    sides: Sides = (None, None)  # both players' public sides as the file carries them
    resumed: bool = False  # this player's side came from the file: the journal had no record of it
    identity: Identity | None = None  # the player it was opened for, and their journal: what answers it
    journal: Journal | None = None
    source: SaveFile | None = None  # the save as received, before a turn code's was completed: what opens it again
    notes: tuple[Note, ...] = ()  # what the player should be told about it, in order
    recorded: bool = False  # recorded in the journal as received: the answer need not record it again
    follows: SaveFile | None = None  # a resignation made on this player's turn: the sender's file before it, new to the journal

    @property
    def resignation(self) -> dict[str, Any] | None:
        """The resignation this save makes (its `game`, and `match` for the whole match), if it makes one."""
        message = self.save.protocol.get("message")
        resign = message.get("resign") if isinstance(message, dict) else None
        return resign if isinstance(resign, dict) else None

    @property
    def file(self) -> Path | None:
        """The save file read, or None for a turn code or a save pasted on standard input (the journal records no file)."""
        return None if self.save.partial or self.path.is_dir() else self.path

    @property
    def carries_mine(self) -> bool:
        """Whether the file carries this player's side (a file that would not fit the size limit with it leaves it out)."""
        return self.sides[self.me] is not None

    @property
    def names(self) -> tuple[str, str]:
        """The players' names as they may be shown: any control, bidi or other invisible character in them escaped."""
        return (plain(self.save.players[0].name), plain(self.save.players[1].name))

    @property
    def state(self) -> GameState | None:
        return self.seat.state

    @property
    def view(self) -> PlayerView | None:
        return None if self.seat.state is None else self.seat.state.view(self.me)

    @property
    def game(self) -> int:
        """The game of the table this player sees (the file may already carry the next game's deal)."""
        g = self.seat.party.game
        return g.number if g is not None else 1

    @property
    def record(self) -> Match:
        return self.seat.party.record

    @property
    def match_over(self) -> bool:
        return self.record.is_over

    @property
    def to_move(self) -> int | None:
        """The seat that should write the next file, or None when the match is over."""
        if self.match_over:
            return None
        if self.mine:
            return 1 - self.me
        return self.me

    @property
    def can_move(self) -> bool:
        """Whether this player has a turn to play now (not merely a deal step to answer)."""
        return not self.mine and self.seat.my_turn

    @property
    def owes_file(self) -> bool:
        """Whether this player still owes a file: always before the match ends; after it, their keys of the last game."""
        party = self.seat.party
        if not self.match_over:
            return True
        return party.game is not None and party.game.number not in party.sent_secrets


def receive(given: Given, identity: Identity, journal: Journal, newest: Callable[[Opened], None]) -> Opened:
    """What the player gave, checked in full and taken in to be answered, and recorded as received (synced to disk).

    A file of a match this machine has no record of is recorded only once `newest` has let it by: it returns if the player
    says the file is the newest of the match, and raises otherwise (nothing here can tell an old file from the newest one).
    """
    return _receive(given, identity, journal, newest)


def look(given: Given, identity: Identity, journal: Journal) -> Opened:
    """What the player gave, checked in full to be looked at (spite show, verify): an earlier file of the match opens too.

    It is recorded as seen without a disk sync, unless this machine has no record of the match (that file may be an old one).
    """
    return _receive(given, identity, journal, None)


def _receive(given: Given, identity: Identity, journal: Journal, newest: Callable[[Opened], None] | None) -> Opened:
    save = completed(given.item, identity, journal) if not isinstance(given.item, SaveFile) else given.item
    try:
        opened = open_received(save, given.where, identity, journal, earlier=newest is None, looking=newest is None)
    except SpiteError as e:
        _explain_answered(save, identity, journal, e)
        raise
    notes: list[Note] = []
    if opened.resumed and not opened.mine:
        if newest is None:  # only looked at: recording it would tie this machine to a file that may be an old one
            _remember_proofs(journal)
            return dataclasses.replace(opened, notes=(Resumed(save.match, recorded=False), *_first_contacts(opened)))
        newest(opened)
    if not opened.mine and opened.check.status is not Status.EARLIER:
        # received: from now on a second, different version of it is a fork, whichever command saw it first
        try:
            opened = record_received(opened, durable=newest is not None)
        except HomeError as e:
            if newest is not None:  # only show and verify, which need not write, go on without recording it
                raise
            notes.append(NotRecorded(e.trouble))
    else:
        _remember_proofs(journal)
    if not opened.resumed and not opened.carries_mine and opened.save.seq > 1 and not opened.save.partial:
        notes.append(NotCarried())
    if opened.resumed:
        notes.append(Resumed(save.match, recorded=True))
    return dataclasses.replace(opened, notes=(*notes, *_first_contacts(opened)))


def record_received(opened: Opened, durable: bool = True) -> Opened:
    """`opened` recorded in its journal as received (on the check it was opened with, if the journal is as it was then)."""
    journal = opened.journal
    assert journal is not None
    if opened.follows is not None and journal.check(opened.follows).status is Status.CONTINUES:
        journal.record(opened.follows, None, durable=durable)  # the file a resignation follows, carried in it
        opened = dataclasses.replace(opened, check=journal.check(opened.save))
    same = opened.source is not None and opened.source.hash == opened.save.hash
    proven = shuffle.newly_proven()  # remembered with the record; were it refused, they are lost, and only checked again
    decks = _made_decks()
    journal.record(opened.save, opened.file, durable=durable, checked=opened.check if same else None, proven=proven, decks=decks)
    return dataclasses.replace(opened, recorded=True)


def _remember_proofs(journal: Journal) -> None:
    """Remember in `journal` the proofs of shuffle checked out since, if it can be written: it is only a cache."""
    proven, decks = shuffle.newly_proven(), _made_decks()
    if (proven or decks) and journal.writable:
        with contextlib.suppress(HomeError):  # a home that cannot be written checks them again next time, no more
            journal.remember_proofs(proven, decks)


def _made_decks() -> list[tuple[bytes, bytes, bytes]]:
    """The first shuffles made in this process since the last call (pbm.protocol.dealsteps.newly_made_decks): none if no
    deal step was made nor checked, which a look at an ordinary turn spares the import of the deal's steps for."""
    steps = sys.modules.get("pbm.protocol.dealsteps")
    return steps.newly_made_decks() if steps is not None else []


def _first_contacts(opened: Opened) -> tuple[FirstContact, ...]:
    """The keys pinned for the first time by this file, but the player's own, each with what the journal knows of it from
    the player's other matches (:class:`FirstContact`)."""
    mine = opened.save.players[opened.me].key
    met = [p for p in opened.check.pinned if p.key and p.key != mine]
    if not met or opened.journal is None or opened.identity is None:
        return tuple(FirstContact(p) for p in met)
    known = opened.journal.confirmed_keys(opened.identity.public_text, opened.save.match)
    return tuple(_contact(p, known) for p in met)


def _contact(player: Player, known: list[tuple[str, Player]]) -> FirstContact:
    """The first contact with `player`, given the opponents the player went on with in other matches (`known`, latest first)."""
    confirmed = next((match for match, other in known if other == player), "")
    if confirmed:
        return FirstContact(player, confirmed)
    name = _name_key(player.name)
    differs = next(((match, other) for match, other in known if other.key != player.key and _name_key(other.name) == name), None)
    return FirstContact(player, differs=differs)


def _name_key(name: str) -> str:
    """A name as it is compared with another to warn of a key that is not the one known for it: its letters and digits,
    in one case and form, so that "Bob", "bob", "B.O.B." and "Bob" with a zero-width space in it are one name."""
    return "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if c.isalnum())


def _explain_answered(save: SaveFile, identity: Identity, journal: Journal, error: SpiteError) -> None:
    """An invitation this player already answered says so, instead of what the journal's check made of it."""
    if save.seq != 1 or save.players[1].key:
        return
    pinned, latest = journal.pinned(save.match), journal.latest(save.match)
    if pinned is None or latest is None or pinned[1].key != identity.public_text:
        return
    inviter = plain(save.players[0].name)
    # TRANSLATORS: {file} is the player's answer; {name} is who invited them
    said = _("you already answered this invitation (your answer is {file}, game {game}, turn {turn}): play the file {name} sends back")
    raise NotYourTurnError(said.format(file=latest.path, game=latest.game, turn=latest.turn, name=inviter)) from error


def reopen(opened: Opened) -> Opened:
    """The same save opened again from scratch, as it was received (to take a move back): nothing is recorded again."""
    assert opened.source is not None and opened.identity is not None and opened.journal is not None
    again = open_received(opened.source, opened.path, opened.identity, opened.journal)
    return dataclasses.replace(again, notes=opened.notes, recorded=opened.recorded)


def open_save(path: Path, identity: Identity, journal: Journal, earlier: bool = False, save: SaveFile | None = None) -> Opened:
    """Read (unless `save` is the file already read), verify and take in the save at `path` for `identity`.

    Signature, chain, proofs, moves and table. With `earlier`, a save the journal recorded before its latest one
    opens too (status EARLIER), to be looked at. Raises a SpiteError that says what is wrong; records nothing.
    """
    return open_received(save if save is not None else saves.read(path), path, identity, journal, earlier)


def completed(code: TurnCode, identity: Identity, journal: Journal) -> SaveFile:
    """The save a turn code stands for: its turn, with what it leaves out taken from this player's journal.

    A code leaves out the match's rules after its first save and its players after its second: they are those of this
    player's last file (or of this one, if it is theirs), as the journal kept it. The save is then opened as a file is
    (:func:`open_received`).
    """
    turn = dict(code.turn)
    if "rules" not in turn or "players" not in turn:
        # this player's last file: the one the code answers, the code itself, or (a resignation on their turn) the one before
        text = next((t for n in (1, 0, 2) if (t := journal.kept_side(code.match, code.seq - n))), None)
        side = json.loads(text).get("side") if text else None
        if not isinstance(side, dict):
            players = turn.get("players")
            if isinstance(players, list) and len(players) == 2 and all(isinstance(p, dict) for p in players):
                _seat(tuple(Player(str(p.get("name")), str(p.get("key"))) for p in players), code.seq, identity, partial=True)
            said = _(
                # TRANSLATORS: {seq} numbers the files of a match (saves), 1 for the invitation
                "this turn code (save {seq} of match {match}) answers a file this machine has no record of: "
                "play it where you wrote your last file, or ask for the file instead of the code"
            )
            raise NoRecordError(said.format(seq=code.seq, match=code.match[:8]))
        turn.setdefault("rules", side["rules"])
        turn.setdefault("players", [{"name": name, "key": key} for name, key in side["players"]])
    return saves.from_turn(turn)


def open_received(save: SaveFile, path: Path, identity: Identity, journal: Journal, earlier: bool = False, looking: bool = False) -> Opened:
    """Verify and take in `save`, read from `path` or completed from a turn code, for `identity`: every check of a file.

    A turn code states no table, turns, carry or sealed secrets: those a file states are checked against what this
    player computes and keeps; for a code they are taken from that. With `earlier`, a save the journal recorded before
    its latest one opens too (status EARLIER), to be looked at. With `looking` (spite show, verify) every check runs, but
    the answer a deal step calls for is not made: the Opened cannot be answered. Raises a SpiteError that says what is
    wrong; records nothing.
    """
    me = seat_of(save, identity)
    source = saves.verify(save, journal.key_for(save)).save  # once: a save the reader verified already is not checked again
    after = _resigned_after(save)
    if after is not None and save.signer != me:
        return _open_resignation(save, after, path, identity, journal, source, me, earlier)
    try:
        check = journal.check(save)
    except ReplayError:
        if not earlier:
            raise
        check = Check(Status.EARLIER, journal.latest(save.match))
    seq = save.seq if save.signer == me else save.seq - 1  # this player's last file: this one, or the one it answers
    kept = _kept(journal, save, me, seq, identity) if seq >= 1 else None
    resumed = seq >= 1 and kept is None
    if resumed and save.partial:
        raise NoRecordError(_("this machine has no record of your side of the match, which a turn code does not carry: ask for the file"))
    # with the journal, the carry is unpacked last: a changed message then fails on its own checks, not on the carry's
    sides = (None, None) if save.partial else carry.unpack_sides(save) if resumed or save.signer == me else None
    if resumed:
        assert sides is not None
        kept = _restore(sides[me], save.secrets.get(me), identity, match_id_bytes(save), seq)
    if save.signer == me:
        assert kept is not None and sides is not None
        _check_carry(sides, me, kept)
        if save.partial:
            save = dataclasses.replace(save, history=kept.turns or ())
        return Opened(save, path, me, kept.seat, check, mine=True, sides=sides, resumed=resumed, **_context(identity, journal, source))
    message = save.protocol.get("message")
    if not isinstance(message, dict):
        raise TableMismatchError(_("the file has no protocol message to take in"))
    if kept is None:  # the invitation: this player joins
        kept = _Kept(Seat(Party(me, match_id_bytes(save), save.rules)), {}, save.rules, save.players, 1, history_digest(()), turns=())
    _check_labels_before(save, kept, me)
    seat = kept.seat
    shuffle.remember(journal.proven(save.match))  # the proofs this player checked before: only their journal can say so
    if "deal" in message or not looking:  # the deal's steps run: on a deal step received, or in the answer that may make one
        from pbm.protocol import dealsteps  # not for a look at an ordinary turn, which never deals

        dealsteps.remember_decks(journal.decks(save.match))  # and the first shuffles they made
    seat.party.looking = looking
    moves = seat.receive(message)  # the protocol reads it into its own typed message, leaving the save's as it is
    if save.partial:  # what the file of this turn would state, as this player computes it
        if kept.turns is None:
            raise NoRecordError(_("your journal does not list this game's turns (an older spite kept it): ask for the file"))
        game = _game_label(message, kept.game)
        history = _turns_after(kept.turns, kept.game, game, save.signer, moves)
        save = dataclasses.replace(save, history=history, state=_table_after(seat, moves))
    _check_labels_after(save, kept, message, moves)
    _check_table(save, seat, moves)
    sides = sides or carry.unpack_sides(save)
    if seq >= 1:
        _check_carry(sides, me, kept)
    return Opened(save, path, me, seat, check, moves, sides=sides, resumed=resumed, **_context(identity, journal, source))


def _resigned_after(save: SaveFile) -> dict[str, Any] | None:
    """The turn of the resigner's own file that a resignation made on the other player's turn carries, if it is one."""
    message = save.protocol.get("message")
    resign = message.get("resign") if isinstance(message, dict) else None
    after = resign.get("after") if isinstance(resign, dict) else None
    if after is not None and not isinstance(after, dict):
        raise TableMismatchError(_("the resignation's turn it follows is not a table"))
    return after


def _open_resignation(
    save: SaveFile, after: dict[str, Any], path: Path, identity: Identity, journal: Journal, source: SaveFile, me: int, earlier: bool
) -> Opened:
    """A resignation made on this player's turn (docs/save-format.md, Resigning): the file it follows, then the resignation.

    It follows the resigner's own last file, whose turn it carries: that turn is taken in first (it is the latest file
    here, or new, or, when this player already answered it, the file their answer made: the resignation takes that
    answer's place, which becomes void). Then the resignation, with every check of a file. With `earlier`, one taken in
    before opens too (status EARLIER), to be looked at.
    """
    try:
        before = saves.from_turn(after)
    except SpiteError as e:
        # TRANSLATORS: {error} says what is wrong with the copy
        said = _("the resignation carries a damaged copy of the file it follows ({error})")
        raise TableMismatchError(said.format(error=error_text(e))) from e
    if before.hash != save.prev or before.signer != save.signer or before.seq != save.seq - 1 or before.match != save.match:
        raise TableMismatchError(_("the resignation does not carry the file it follows"))
    try:
        first = open_received(before, path, identity, journal, earlier=True)
    except CrossedError as e:  # the file it follows crossed this player's resignation: void, and so is what follows it
        raise CrossedError(void_after(save)) from e
    if first.check.status is Status.CONTINUES:
        check = Check(Status.CONTINUES, first.check.latest, first.check.pinned)  # the file it follows is new here too
    else:
        try:
            check = journal.check(save)  # the latest file here is the one it follows, or this player's answer to it: CROSSING
        except ReplayError:
            if not earlier:
                raise
            check = Check(Status.EARLIER, journal.latest(save.match))  # taken in already: looked at again (spite show, verify)
    kept = _kept(journal, save, me, save.seq - 2, identity)
    if kept is None:
        raise NoRecordError(_("this machine has no record of your side of the match: play this file where you wrote your last one"))
    _check_labels_before(save, kept, me)
    seat = first.seat
    message = save.protocol["message"]
    moves = seat.receive(message)
    after_first = dataclasses.replace(kept, seat=seat, game=first.save.game, history=history_digest(first.save.history))
    if save.partial:  # a turn code: what the file of it would state, as this player computes it
        history = _turns_after(first.save.history, first.save.game, _game_label(message, first.save.game), save.signer, moves)
        save = dataclasses.replace(save, history=history, state=_table_after(seat, moves))
    _check_labels_after(save, after_first, message, moves)
    _check_table(save, seat, moves)
    sides = (None, None) if save.partial else carry.unpack_sides(save)
    _check_carry(sides, me, kept)
    follows = before if first.check.status is Status.CONTINUES else None
    return Opened(save, path, me, seat, check, moves, sides=sides, follows=follows, **_context(identity, journal, source))


def _context(identity: Identity, journal: Journal, source: SaveFile) -> dict[str, Any]:
    """What an Opened keeps of how it was opened: for whom, with which journal, from which save."""
    return {"identity": identity, "journal": journal, "source": source}


def seat_of(save: SaveFile, identity: Identity) -> int:
    """This player's seat in the match of `save`; raises NotAPlayerError if they have none (and cannot join)."""
    return _seat(save.players, save.seq, identity, partial=save.partial)


def _seat(players: tuple[Player, ...], seq: int, identity: Identity, partial: bool) -> int:
    """The seat of `identity` among `players` of save `seq` (a turn code's if `partial`); raises NotAPlayerError if none."""
    mine = identity.public_text
    for seat, player in enumerate(players):
        if player.key == mine:
            return seat
    if seq == 1 and players[1].key == "":
        return 1
    if partial:
        # TRANSLATORS: {first} and {second} are the match's players; {name} and {fingerprint} the reader's name and key
        said = _("this turn code belongs to a match between {first} and {second}; you ({name}, {fingerprint}) are not in it")
    else:
        # TRANSLATORS: {first} and {second} are the match's players; {name} and {fingerprint} the reader's name and key
        said = _("this file belongs to a match between {first} and {second}; you ({name}, {fingerprint}) are not in it")
    first, second = players[0].name, players[1].name
    raise NotAPlayerError(said.format(first=first, second=second, name=identity.name, fingerprint=identity.fingerprint))


def _game_label(message: dict, previous: int) -> int:
    """The game a file belongs to: that it resigns, else of its moves, else of its deal step, else of the keys it returns."""
    for section in ("resign", "turn", "deal", "secrets"):
        if isinstance(message.get(section), dict) and isinstance(message[section].get("game"), int):
            return message[section]["game"]
    return previous


def _turns_after(turns: tuple[TurnRecord, ...], was: int, game: int, by: int, moves: list[Move]) -> tuple[TurnRecord, ...]:
    """This game's turns after a file of `game` with `moves` by seat `by`, from the turns of game `was` before it."""
    earlier = turns if game == was else ()
    return (*earlier, TurnRecord(by, " ".join(map(str, moves)))) if moves else earlier


def _table_after(seat: Seat, moves: list[Move]) -> dict[str, Any]:
    """The table a file with `moves` states (the one they lead to); a file without moves states none."""
    return {} if seat.state is None or not moves else table_data(seat.state)


def _check_labels_before(save: SaveFile, kept: _Kept, me: int) -> None:
    """Rules and players are those of the match as this player last wrote them (seat 1 is filled in once, on joining)."""
    if kept.blob and me in save.secrets and save.secrets[me] != kept.blob:  # left out in an answer to a turn code
        raise TableMismatchError(_("the file does not carry back your sealed secrets as your last file had them"))
    if save.rules != kept.rules:
        raise TableMismatchError(_("the file changes the rules of the match (pay-off size, target score or another number)"))
    for seat in (0, 1):
        was, now = kept.players[seat], save.players[seat]
        joining = seat == 1 and save.seq == 2  # the answer to the invitation fills in what the inviter left open
        if now.key != was.key and not (joining and was.key == ""):
            # TRANSLATORS: {seat} is 0 (the inviter's seat) or 1; {name} the name of the player in it
            raise TableMismatchError(_("the file changes the key of seat {seat} ({name})").format(seat=seat, name=was.name))
        if now.name != was.name and not (joining and was.name == DEFAULT_OPPONENT):
            # TRANSLATORS: {seat} is 0 (the inviter's seat) or 1; {name} the name of the player in it
            raise TableMismatchError(_("the file changes the name of seat {seat} ({name})").format(seat=seat, name=was.name))


def _check_labels_after(save: SaveFile, kept: _Kept, message: dict, moves: list[Move]) -> None:
    """Game, turn, history and score in the file are those its protocol message leads to."""
    game = _game_label(message, kept.game)
    if save.game != game:
        raise TableMismatchError(
            # TRANSLATORS: {said} is the game the file's label says, {game} the game its content belongs to
            _("the file says game {said}, its protocol message belongs to game {game}").format(said=save.game, game=game)
        )
    earlier, this = (save.history[:-1], save.history[-1:]) if moves else (save.history, ())
    same_earlier = history_digest(earlier) == kept.history if kept.game == game else not earlier
    if not same_earlier or this != ((TurnRecord(save.signer, " ".join(map(str, moves))),) if moves else ()):
        raise TableMismatchError(_("the move list in the file is not this game's moves so far: an earlier turn was changed, or this one"))
    if save.turn != len(save.history):
        said = ngettext(
            # TRANSLATORS: {turn} is the turn the file's label says; {n} how many turns the game has had
            "the file says turn {turn}; this game has had {n} turn",
            "the file says turn {turn}; this game has had {n} turns",
            len(save.history),
        )
        raise TableMismatchError(said.format(turn=save.turn, n=len(save.history)))
    if tuple(save.score) != kept.seat.party.record.scores:
        scores = kept.seat.party.record.scores
        # TRANSLATORS: {said} is the score the file's label says, {score} the one its games give, both like 12-30
        said = _("the file says the score is {said}, the games played give {score}")
        raise TableMismatchError(said.format(said=f"{save.score[0]}-{save.score[1]}", score=f"{scores[0]}-{scores[1]}"))


def _check_table(save: SaveFile, seat: Seat, moves: list[Move]) -> None:
    """A file with moves states the table they lead to, which must be the recomputed one; a file without moves states none."""
    if dict(save.state) != _table_after(seat, moves):
        raise TableMismatchError(_("the table in this file is not the one its moves lead to: it was edited or made wrongly"))
