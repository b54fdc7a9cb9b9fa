"""A match as one player's client runs it: open a save, check everything, play, write the next save.

The save carries the protocol message, the public table, and each player's side of the match
(public part in `protocol.carry`, secrets sealed in `secrets`, pbm/carry.py). The journal keeps
this player's own side too; without it, the player goes on from the file (docs/save-format.md).
A turn code (pbm/transport/code.py) carries only the turn: the journal completes it into the
save it stands for, which is then opened exactly as the file would be.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nacl.bindings import crypto_hash_sha256

from engine.cards import Card
from engine.game import Match
from engine.moves import Move
from engine.rules import Ruleset
from engine.state import GameState, PlayerView
from pbm import carry, saves
from pbm.carry import Side, Sides, side_digest
from pbm.errors import (
    BusyError,
    CarryError,
    NoRecordError,
    NotAPlayerError,
    ReplayError,
    SaveFormatError,
    SpiteError,
    TableMismatchError,
    TooLargeError,
    WriteError,
)
from pbm.home import fault_point, match_lock, read_head, remove_stale, write_new
from pbm.identity import Identity
from pbm.journal import Check, Journal, Status
from pbm.protocol.dealing import Party
from pbm.protocol.seat import Seat
from pbm.saves import Player, SaveFile, TurnRecord
from pbm.schema import check
from pbm.secrets import seal, unseal
from pbm.shown import plain
from pbm.table import table_data, table_state
from pbm.transport.code import TurnCode

DEFAULT_OPPONENT = "Opponent"


@dataclass
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


def match_id_bytes(save: SaveFile) -> bytes:
    """The match id of `save` as the 16 bytes the protocol binds its proofs to."""
    return bytes.fromhex(save.match)


def _side(seat: Seat, save: SaveFile) -> Side:
    """The public part of this player's side after writing `save`: protocol state, table, and the labels of `save`."""
    return {
        "party": seat.party.export_public(),
        "state": None if seat.state is None else table_data(seat.state),
        "rules": dataclasses.asdict(save.rules),
        "players": [[p.name, p.key] for p in save.players],
        "game": save.game,
        "history": history_digest(save.history),  # the file has the turns; the side only binds them
    }


def history_digest(history: tuple[TurnRecord, ...]) -> str:
    """The hex SHA-256 of a game's turns, which a side keeps instead of the turns themselves (the file lists them)."""
    return crypto_hash_sha256(json.dumps([[t.by, t.moves] for t in history]).encode()).hex()


def _sealed(seat: Seat, side: Side, identity: Identity, save: SaveFile) -> str:
    """This player's secrets after writing `save` (keys and hand), bound to `side` and to the save's number, sealed to them."""
    secrets = {
        "seq": save.seq,
        "side": side_digest(side),
        "party": json.loads(seat.party.export_secrets()),
        "hand": [] if seat.state is None else [card.index for card in seat.state.players[seat.party.me].hand],
    }
    return seal(json.dumps(secrets, sort_keys=True).encode(), identity.private_bytes(), match_id_bytes(save))


@dataclass(frozen=True)
class _Kept:
    """This player's side as their own last file left it: their seat, and the labels that file carried."""

    seat: Seat
    side: Side
    rules: Ruleset
    players: tuple[Player, Player]
    game: int
    history: str  # history_digest of the game's turns as that file listed them
    blob: str = ""  # this player's sealed secrets as their last file carried them
    turns: tuple[TurnRecord, ...] | None = None  # the game's turns as that file listed them, if the journal kept them


def _restore(side: Side | None, blob: str | None, identity: Identity, match: bytes, seq: int) -> _Kept:
    """This player's side after their save `seq`, from its public part and their sealed secrets; refuses any that do not match."""
    if side is None or not blob:
        raise NoRecordError(
            "this machine has no record of your side of the match, and the file does not carry it: "
            "continue on the machine (spite home) where you wrote your last file, or copy that spite home here"
        )
    try:
        secrets = json.loads(unseal(blob, identity.private_bytes(), match))
        check(carry.SEALED, secrets, "secrets")
        check(carry.SIDE, side, "side")
    except (ValueError, SaveFormatError) as e:  # sealed with this player's key, so by their client: one of another version
        raise CarryError(f"your sealed secrets or side in this file are not in a form this spite reads ({e})") from e
    if secrets["seq"] != seq:
        raise CarryError(f"your sealed secrets in this file are those of save {secrets['seq']}, not of your last file (save {seq})")
    if secrets["side"] != side_digest(side):
        raise CarryError("your side of the match carried in this file is not the one you sealed with your secrets: it was changed")
    try:
        rules = Ruleset(**side["rules"])
    except ValueError as e:
        raise CarryError(f"your saved side of the match has impossible rules ({e})") from e
    party = Party.restore(side["party"], json.dumps(secrets["party"]).encode(), rules)
    hand = tuple(Card.from_index(i) for i in secrets["hand"])
    state = None if side["state"] is None else table_state(side["state"], rules, party.me, hand)
    players = (Player(*side["players"][0]), Player(*side["players"][1]))
    return _Kept(Seat(party, state), side, rules, players, side["game"], side["history"], blob)


def _kept_text(side: Side, blob: str, history: tuple[TurnRecord, ...]) -> str:
    """What the journal keeps of this player's side after one of their files, and the game's turns it listed (for turn codes)."""
    return json.dumps({"side": side, "blob": blob, "turns": saves.pack_history(history)}, sort_keys=True)


def _kept(journal: Journal, save: SaveFile, me: int, seq: int, identity: Identity) -> _Kept | None:
    """This player's side after their save `seq` as their journal kept it, or None if it has no record of it."""
    text = journal.seat(save.match, seq)
    if text is None:
        return None
    data = json.loads(text)
    if not isinstance(data, dict) or "side" not in data:  # kept by an older spite, before files carried the sides
        return None
    kept = _restore(data["side"], data["blob"], identity, match_id_bytes(save), seq)
    turns = saves.unpack_history(data["turns"]) if isinstance(data.get("turns"), str) else None
    return dataclasses.replace(kept, turns=turns if turns is None or history_digest(turns) == kept.history else None)


def _check_carry(sides: Sides, me: int, kept: _Kept) -> None:
    """This player's side as a file carries it, unless left out (a file too big for it), must be the one they kept."""
    if sides[me] is not None and side_digest(sides[me]) != side_digest(kept.side):
        raise CarryError("the file does not carry back your side of the match as your last file had it")


def _game_label(message: dict, previous: int) -> int:
    """The game a file belongs to: that of its moves, else of its deal step, else of the keys it returns."""
    for section in ("turn", "deal", "secrets"):
        if isinstance(message.get(section), dict) and isinstance(message[section].get("game"), int):
            return message[section]["game"]
    return previous


def seat_of(save: SaveFile, identity: Identity) -> int:
    """This player's seat in the match of `save`; raises NotAPlayerError if they have none (and cannot join)."""
    return _seat(save.players, save.seq, identity, "turn code" if save.partial else "file")


def _seat(players: tuple[Player, ...], seq: int, identity: Identity, what: str) -> int:
    mine = identity.public_text
    for seat, player in enumerate(players):
        if player.key == mine:
            return seat
    if seq == 1 and players[1].key == "":
        return 1
    names = " and ".join(p.name for p in players)
    raise NotAPlayerError(f"this {what} belongs to a match between {names}; you ({identity.name}, {identity.fingerprint}) are not in it")


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
        text = journal.seat(code.match, code.seq - 1) or journal.seat(code.match, code.seq)
        side = json.loads(text).get("side") if text else None
        if not isinstance(side, dict):
            players = turn.get("players")
            if isinstance(players, list) and len(players) == 2 and all(isinstance(p, dict) for p in players):
                _seat(tuple(Player(str(p.get("name")), str(p.get("key"))) for p in players), code.seq, identity, "turn code")
            raise NoRecordError(
                f"this turn code (save {code.seq} of match {code.match[:8]}) answers a file this machine has no record of: "
                "play it where you wrote your last file, or ask for the file instead of the code"
            )
        turn.setdefault("rules", side["rules"])
        turn.setdefault("players", [{"name": name, "key": key} for name, key in side["players"]])
    return saves.from_turn(turn)


def open_received(save: SaveFile, path: Path, identity: Identity, journal: Journal, earlier: bool = False) -> Opened:
    """Verify and take in `save`, read from `path` or completed from a turn code, for `identity`: every check of a file.

    A turn code states no table, turns, carry or sealed secrets: those a file states are checked against what this
    player computes and keeps; for a code they are taken from that. With `earlier`, a save the journal recorded before
    its latest one opens too (status EARLIER), to be looked at. Raises a SpiteError that says what is wrong; records nothing.
    """
    me = seat_of(save, identity)
    saves.verify(save, journal.key_for(save))
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
        raise NoRecordError("this machine has no record of your side of the match, which a turn code does not carry: ask for the file")
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
        return Opened(save, path, me, kept.seat, check, mine=True, sides=sides, resumed=resumed)
    message = save.protocol.get("message")
    if not isinstance(message, dict):
        raise TableMismatchError("the file has no protocol message to take in")
    if kept is None:  # the invitation: this player joins
        kept = _Kept(Seat(Party(me, match_id_bytes(save), save.rules)), {}, save.rules, save.players, 1, history_digest(()), turns=())
    _check_labels_before(save, kept, me)
    seat = kept.seat
    moves = seat.receive(json.loads(json.dumps(message)))
    if save.partial:  # what the file of this turn would state, as this player computes it
        if kept.turns is None:
            raise NoRecordError("your journal does not list this game's turns (an older spite kept it): ask for the file")
        game = _game_label(message, kept.game)
        history = _turns_after(kept.turns, kept.game, game, save.signer, moves)
        save = dataclasses.replace(save, history=history, state=_table_after(seat, moves))
    _check_labels_after(save, kept, message, moves)
    _check_table(save, seat, moves)
    sides = sides or carry.unpack_sides(save)
    if seq >= 1:
        _check_carry(sides, me, kept)
    return Opened(save, path, me, seat, check, moves, sides=sides, resumed=resumed)


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
        raise TableMismatchError("the file does not carry back your sealed secrets as your last file had them")
    if save.rules != kept.rules:
        raise TableMismatchError("the file changes the rules of the match (pay-off size, target score or another number)")
    for seat in (0, 1):
        was, now = kept.players[seat], save.players[seat]
        joining = seat == 1 and save.seq == 2  # the answer to the invitation fills in what the inviter left open
        if now.key != was.key and not (joining and was.key == ""):
            raise TableMismatchError(f"the file changes the key of seat {seat} ({was.name})")
        if now.name != was.name and not (joining and was.name == DEFAULT_OPPONENT):
            raise TableMismatchError(f"the file changes the name of seat {seat} ({was.name})")


def _check_labels_after(save: SaveFile, kept: _Kept, message: dict, moves: list[Move]) -> None:
    """Game, turn, history and score in the file are those its protocol message leads to."""
    game = _game_label(message, kept.game)
    if save.game != game:
        raise TableMismatchError(f"the file says game {save.game}, its protocol message belongs to game {game}")
    earlier, this = (save.history[:-1], save.history[-1:]) if moves else (save.history, ())
    same_earlier = history_digest(earlier) == kept.history if kept.game == game else not earlier
    if not same_earlier or this != ((TurnRecord(save.signer, " ".join(map(str, moves))),) if moves else ()):
        raise TableMismatchError("the move list in the file is not this game's moves so far: an earlier turn was changed, or this one")
    if save.turn != len(save.history):
        raise TableMismatchError(f"the file says turn {save.turn}; this game has had {len(save.history)} turns")
    if tuple(save.score) != kept.seat.party.record.scores:
        raise TableMismatchError(
            f"the file says the score is {save.score[0]}-{save.score[1]}, the games played give "
            f"{kept.seat.party.record.scores[0]}-{kept.seat.party.record.scores[1]}"
        )


def _check_table(save: SaveFile, seat: Seat, moves: list[Move]) -> None:
    """A file with moves states the table they lead to, which must be the recomputed one; a file without moves states none."""
    if dict(save.state) != _table_after(seat, moves):
        raise TableMismatchError("the table in this file is not the one its moves lead to: it was edited or made wrongly")


def write_next(opened: Opened, identity: Identity, journal: Journal, out: Path | None = None) -> tuple[SaveFile, Path]:
    """Send what is due (the moves played on `opened.seat`, or a deal step) as the next save, written next to the input.

    The input file is recorded as seen and never changed; the new file never replaces an existing one.
    """
    seat, save, me = opened.seat, opened.save, opened.me
    played = list(seat.moves)
    message = seat.send().to_data()
    game = _game_label(message, save.game)
    history = _turns_after(save.history, save.game, game, me, played)
    players = list(save.players)
    name = players[me].name
    if save.seq == 1 and me == 1 and name == DEFAULT_OPPONENT:
        name = identity.name  # the inviter named nobody: the one who joins goes by their own name
    players[me] = Player(name, identity.public_text)
    new = SaveFile(
        match=save.match,
        seq=save.seq + 1,
        game=game,
        turn=len(history),
        prev=save.hash,
        rules=save.rules,
        players=(players[0], players[1]),
        score=seat.party.record.scores,
        state=_table_after(seat, played),
        history=history,
        protocol={"message": message},
        secrets=save.secrets,
    )
    signed, data, side = _signed(new, seat, identity, opened.sides[1 - me])
    path = out if out is not None else saves.fresh_path(signed, opened.path)
    if path.exists() or path.resolve() == opened.path.resolve():
        raise SpiteError(f"{path} exists already; spite never overwrites a file: choose another name with -o")
    journal.record(save, opened.file)
    # the answer is recorded before it is on disk: from here on, this is the answer, and a retry writes these bytes again
    journal.record_own(signed, data, path, _kept_text(side, signed.secrets[me], signed.history))
    fault_point("answer-recorded")
    return signed, _put(journal, signed, data, path, "your answer is recorded: run the same command again to write it")


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
        raise WriteError(f"cannot write {path}: {e.strerror or e}; {after}") from e
    return path


@dataclass(frozen=True)
class Answered:
    """This player's answer to a file, recorded earlier: where it lies, and whether it had to be written again."""

    save: SaveFile
    path: Path
    rewritten: bool  # it was not on disk (a write interrupted by a crash, a full disk, or a file removed): written again


def recorded_answer(received: SaveFile, identity: Identity, journal: Journal, out: Path | None = None) -> Answered | None:
    """This player's recorded answer to `received`, written again (the same bytes) if it is not on disk; None if there is none.

    Only an answer that is still the latest file of the match counts: a file answered since is a replay, which
    :func:`open_save` refuses.
    """
    me = seat_of(received, identity)
    record = journal.answer_to(received) if received.signer != me else None
    latest = journal.latest(received.match)
    data = journal.written(record.hash) if record is not None else None
    if record is None or data is None or latest is None or latest.hash != record.hash:
        return None
    answer = saves.parse(data)
    path = out if out is not None else Path(record.path) if record.path else saves.fresh_path(answer, Path.cwd())
    if _holds(path, data):
        return Answered(answer, path, rewritten=False)
    if path.exists():
        if out is not None:
            raise SpiteError(f"{path} exists already; spite never overwrites a file: choose another name with -o")
        path = saves.fresh_path(answer, path)
    path = _put(journal, answer, data, path, "run the same command again to write it")
    journal.moved(answer.hash, path)
    return Answered(answer, path, rewritten=True)


def _holds(path: Path, data: bytes) -> bool:
    """Whether the file at `path` holds exactly `data` (reading no more than that and one byte)."""
    try:
        return read_head(path, len(data) + 1) == data
    except OSError:
        return False


def _signed(draft: SaveFile, seat: Seat, identity: Identity, their_side: Side | None) -> tuple[SaveFile, bytes, Side]:
    """`draft` completed with the writer's sealed secrets and both sides' carry, signed, and as TOML; and the writer's side.

    Should the file not fit the size limit (saves.MAX_BYTES), it goes without the other player's side: their journal has it.
    """
    me = seat.party.me
    side = _side(seat, draft)
    secrets = {**draft.secrets, me: _sealed(seat, side, identity, draft)}
    # both sides; else without theirs; else, in a game of thousands of turns, without either: both journals have them
    tries: list[tuple[Side | None, Side | None]] = [(side, their_side), (side, None), (None, None)]
    for mine, theirs in tries if their_side is not None else tries[1:]:
        sides: Sides = (mine, theirs) if me == 0 else (theirs, mine)
        protocol = {**draft.protocol, "carry": carry.pack_sides(sides, draft)}
        signed = saves.sign(dataclasses.replace(draft, secrets=secrets, protocol=protocol), identity)
        try:
            return signed, saves.to_toml(signed), side
        except TooLargeError:
            if mine is None:
                raise
    raise AssertionError("unreachable")


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
    save = SaveFile(
        match=match_hex,
        seq=1,
        game=1,
        turn=0,
        prev="",
        rules=rules,
        players=(Player(identity.name, identity.public_text), Player(opponent, opponent_key)),
        score=(0, 0),
        protocol={"message": message},
    )
    signed, data, side = _signed(save, seat, identity, None)
    path = out if out is not None else (directory or Path.cwd()) / saves.default_name(signed)
    if path.exists():
        raise SpiteError(f"{path} exists already; spite never overwrites a file: choose another name with -o")
    kept = _kept_text(side, signed.secrets[0], signed.history)
    journal.record_own(signed, data, path, kept, unwritten=True)  # first: a full or read-only home is refused, left as it was
    fault_point("invitation-recorded")
    with match_lock(journal.home, match_hex):  # :func:`settle_invitations` leaves it alone until it is written
        if not journal.knows(match_hex):  # a settle_invitations took it for a killed spite's in the instant before the lock
            journal.record_own(signed, data, path, kept, unwritten=True)
        try:
            path = _put(journal, signed, data, path, "nothing was kept: the match was not started")
        except SpiteError:
            journal.forget(signed)  # nobody can have seen an invitation that was never written
            raise
        fault_point("invitation-written")
        journal.moved(signed.hash, path)  # on disk: from here on the match stands, whatever becomes of the file
    return signed, path


@dataclass(frozen=True)
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
        raise SpiteError(f"no match with those rules: {e}") from e


def last_file_between(journal: Journal, other: Journal, me: Identity, them: Identity) -> Path | None:
    """The newest file of the latest unfinished match between `me` and `them`, whichever of the two journals has it."""
    for info in journal.matches():
        if info.seat_of(me.public_key) is not None and info.seat_of(them.public_key) is not None and not info.over:
            theirs = other.latest(info.match)
            latest = theirs if theirs is not None and theirs.seq > info.latest.seq else info.latest
            return Path(latest.path)
    return None
