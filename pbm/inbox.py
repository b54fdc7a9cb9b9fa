"""What came in by mail: each save or turn code kept in its match's folder under the spite home, and every match's next step.

A found turn is kept once (by match and save number); the player's own files, turns already recorded and turns whose
signature does not check out are passed over and never kept. Nothing here prints: why a turn was passed over and what
was resigned are kept as :class:`~engine.text.Message` (English, as --json gives them), said in the player's language
where they are shown (:func:`pbm.i18n.say`).
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING

from engine._frozen import frozen_value
from engine.text import Message
from pbm import saves
from pbm.errors import ChainError, CrossedError, HomeError, SpiteError
from pbm.home import ensure_private_dir, is_match_id, read_head, write_new
from pbm.i18n import N_, _
from pbm.identity import Identity
from pbm.journal import Journal, MatchInfo, Status
from pbm.saves import MAX_SEQ, Player, SaveFile
from pbm.shown import plain, shown
from pbm.transport.aswritten import MAX_INPUT, save_as_written

# Imported where needed: the mail module brings smtplib, imaplib, ssl and email (only the mail commands pay for them),
# the reader of codes only a code kept or found in the mail needs (spite games reads none).
if TYPE_CHECKING:
    from pbm.transport.code import TurnCode
    from pbm.transport.mail import Found

MATCHES_DIR = "matches"
OPPONENT = "your opponent"  # the name the journal keeps for an opponent no file named yet: journal data, in no language

# Why a turn found in the mail was passed over (Intake.why), and what was resigned in a match (Standing.resignations)
_OTHER_MATCH_ID = N_("its match id is not one spite makes")
_NO_SEQ = N_("its save number is not one spite makes")
_NO_SIGNER = N_("it names no signer")
_OTHERS_MATCH = N_("it is a turn of a match between two other players")
# TRANSLATORS: {name} is the opponent's name; {seq} the number of a save in its match; {match} a match id
_FORK = N_("{name} sent two different versions of save {seq} of match {match}: the first one stands")
_YOU_RESIGNED_GAME = N_("you resigned game {game}")
_YOU_RESIGNED_MATCH = N_("you resigned the match, in game {game}")
# TRANSLATORS: {name} is the opponent's name
_THEY_RESIGNED_GAME = N_("{name} resigned game {game}")
# TRANSLATORS: {name} is the opponent's name
_THEY_RESIGNED_MATCH = N_("{name} resigned the match, in game {game}")


class Next(enum.StrEnum):
    """Who writes the next file of a match: this player, the opponent, or nobody (the match is over)."""

    YOU = "you"
    THEM = "them"
    OVER = "over"


class Taken(enum.Enum):
    """What became of a save or turn code found in a message."""

    KEPT = "kept"
    DUPLICATE = "duplicate"  # already kept, or already recorded in the journal
    MINE = "mine"  # this player's own file (a copy sent to themself, say)
    REFUSED = "refused"  # not a turn of a match of this player's, or its signature does not check out


@frozen_value(slots=False)
class Intake:
    """What became of one save or turn code found in the mail (`what`), and where it was kept or why it was not."""

    what: Taken
    match: str
    seq: int
    path: Path | None = None
    why: Message | str = ""  # why it was refused: str() is the English (--json), pbm.i18n.say() the player's language
    mail: str = ""  # the mail it came in, as a refusal names it: the mail from X, 'Subject'


def match_folder(home: Path, match: str) -> Path:
    """The folder under the spite home where the files of `match` that came by mail are kept (HomeError unless a match id)."""
    if not is_match_id(match):
        raise HomeError(
            _("{match} is not a match id (16 to 64 lower-case hex digits): no folder is named after it").format(match=shown(match))
        )
    return ensure_private_dir(Path(home) / MATCHES_DIR / match[:8])


def take(found: Found, identity: Identity, journal: Journal) -> Intake:
    """Keep the save or turn code `found` in its match's folder, unless it is a duplicate, the player's own, or not good.

    A turn code is completed and its signature verified as `spite play` does it before anything of it is kept: a code
    that does not check out takes no save number and no file name that the genuine file of that turn needs.
    """
    item = found.item
    match, seq = item.match, item.seq
    if not is_match_id(match):  # the readers refuse it first; here it would name a folder
        return Intake(Taken.REFUSED, match[:64], seq, why=Message(_OTHER_MATCH_ID))
    if not 1 <= seq <= MAX_SEQ:  # the readers refuse it first; here it would reach the journal (never past SQLite's integers)
        return Intake(Taken.REFUSED, match, seq, why=Message(_NO_SEQ))
    signer = item.signer if isinstance(item, SaveFile) else item.turn.get("signer")
    if type(signer) is not int or signer not in (0, 1):
        return Intake(Taken.REFUSED, match, seq, why=Message(_NO_SIGNER))
    pinned = journal.pinned(match)
    players = pinned if pinned is not None else (item.players if isinstance(item, SaveFile) else None)
    whose = _whose(players, signer, identity, match, seq)
    if whose is not None:
        return whose
    if isinstance(item, SaveFile):
        save = item
    else:
        try:
            save = _completed(item, identity, journal)
        except SpiteError as e:
            return Intake(Taken.REFUSED, match, seq, why=_why(e))
        if players is None:  # a code that carries its players (an invitation, or its answer) of a match new here
            players = save.players
            whose = _whose(players, signer, identity, match, seq)
            if whose is not None:
                return whose
    refused = _refusal(save, identity, journal)
    if refused is not None:
        return refused
    latest = journal.latest(match)
    crossing = _crossing(save, journal)
    taken = journal.taken(match, seq)
    unsound = taken is not None and _sound(taken, identity, journal) is None  # an older spite kept a forged code: this takes its place
    if (latest is not None and latest.seq >= seq and not crossing) or (taken is not None and not unsound):
        return Intake(Taken.DUPLICATE, match, seq)
    from pbm.transport.mail import save_name  # `take` runs only for mail found, with the mail module loaded already

    try:
        name = save_name(item)
    except SpiteError as e:
        return Intake(Taken.REFUSED, match, seq, why=_why(e))
    opponent = players[signer].name if players is not None else OPPONENT
    path = _fresh(match_folder(journal.home, match) / name)
    write_new(path, found.data, match)
    kept = (
        journal.retake(match, seq, taken, path, opponent, found.sender)
        if taken is not None
        else journal.take(match, seq, path, opponent, found.sender)
    )
    if not kept:
        path.unlink()  # another spite took it meanwhile
        return Intake(Taken.DUPLICATE, match, seq)
    if isinstance(item, SaveFile) and found.sender and journal.address(match) is None:
        journal.keep_address(match, found.sender)  # answer whoever sent a signed turn, unless the player said otherwise
    return Intake(Taken.KEPT, match, seq, path)


def _whose(players: tuple[Player, Player] | None, signer: int, identity: Identity, match: str, seq: int) -> Intake | None:
    """The player's own turn (MINE), or a turn of a match between two others (REFUSED); None if it may be theirs to play."""
    if players is None:
        return None
    if players[signer].key == identity.public_text:
        return Intake(Taken.MINE, match, seq)
    if players[1 - signer].key not in (identity.public_text, ""):
        return Intake(Taken.REFUSED, match, seq, why=Message(_OTHERS_MATCH))
    return None


def _completed(turn: TurnCode, identity: Identity, journal: Journal) -> SaveFile:
    """The save the turn code `turn` stands for (pbm.client.receive.completed), its signature verified against the key
    pinned for its signer; SpiteError (no record to complete it with, a changed field, another key) if it is not good."""
    from pbm.client.receive import completed  # the protocol's modules: only a turn code found in the mail needs them

    save = completed(turn, identity, journal)
    saves.verify(save, journal.key_for(save))
    return save


def _refusal(save: SaveFile, identity: Identity, journal: Journal) -> Intake | None:
    """Why `save` (a file, or a code completed) is not kept (a duplicate, a bad signature, a fork, a key change), or None if it may be."""
    match, seq, name = save.match, save.seq, save.players[save.signer].name
    fork = Message(_FORK, name=name, seq=seq, match=match[:8])
    try:
        saves.verify(save, journal.key_for(save))
    except SpiteError as e:
        return Intake(Taken.REFUSED, match, seq, why=_why(e))
    latest = journal.latest(match)
    if latest is not None and seq <= latest.seq and not _crossing(save, journal):  # the same file again, or another version
        recorded = journal.at(match, seq)
        same = recorded is None or recorded.hash == save.hash  # None: the journal began later in the match
        if same:
            return Intake(Taken.DUPLICATE, match, seq)
        try:
            journal.check(save)
        except CrossedError as e:  # a turn that crossed this player's resignation: void, and said so
            return Intake(Taken.REFUSED, match, seq, why=_why(e))
        except SpiteError:
            pass
        return Intake(Taken.REFUSED, match, seq, why=fork)
    try:
        journal.check(save)
    except ChainError:
        pass  # a file in between has not come yet: this one waits for it
    except SpiteError as e:  # another key, or a second version of the turn after the latest
        return Intake(Taken.REFUSED, match, seq, why=_why(e))
    kept = journal.taken(match, seq)
    first = _sound(kept, identity, journal) if kept is not None else None
    if first is not None and first.hash != save.hash:
        return Intake(Taken.REFUSED, match, seq, why=fork)
    return None  # none kept, the same one, or one gone, damaged or not genuine, whose place a verified copy takes


def _sound(kept: str, identity: Identity, journal: Journal) -> SaveFile | None:
    """The save of the copy kept at `kept` for a save number, its signature verified; None if it is gone, damaged or not
    genuine (an older spite kept a turn code without verifying it)."""
    try:
        data = read_head(Path(kept), MAX_INPUT + 1)
        item: SaveFile | TurnCode | None = save_as_written(data)
        if item is None:  # a turn code kept: only then the reader of codes is imported (spite games reads none)
            from pbm.transport import code

            item = code.read(data)
        save = item if isinstance(item, SaveFile) else _completed(item, identity, journal)
        saves.verify(save, journal.key_for(save))
    except (OSError, SpiteError):
        return None
    return save


def _why(error: SpiteError) -> Message | str:
    """Why a turn was refused, from the error that refused it: the engine's Message as it is, else the error's text."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Message) else str(error)


def _resigned(info: MatchInfo, me: int) -> tuple[Message, ...]:
    """The games (or the match) resigned in `info`, in words for player `me`: "you resigned game 2", "Bob resigned game 3"."""
    them = plain(info.players[1 - me].name)
    said = []
    for r in info.resignations:
        if r.seat == me:
            said.append(Message(_YOU_RESIGNED_MATCH if r.whole_match else _YOU_RESIGNED_GAME, game=r.game))
        else:
            said.append(Message(_THEY_RESIGNED_MATCH if r.whole_match else _THEY_RESIGNED_GAME, name=them, game=r.game))
    return tuple(said)


def _crossing(save: SaveFile, journal: Journal) -> bool:
    """Whether `save` is the other player's resignation that crossed this player's latest file (docs/save-format.md)."""
    try:
        return journal.check(save).status is Status.CROSSING
    except SpiteError:
        return False


def _fresh(path: Path) -> Path:
    """`path`, or the first of `…-2`, `…-3` … that does not exist yet."""
    candidate, n = path, 2
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        n += 1
    return candidate


@frozen_value(slots=False)
class Standing:
    """Where one match stands for this player: whose move, since when, the file to play or the last file, the address."""

    match: str
    opponent: str
    score: tuple[int, int] | None  # mine first; None for an invitation not yet played
    next: Next
    since: str  # when the latest file was written or came in (ISO 8601, UTC)
    file: str  # the file to play when it is this player's move, else the last file
    address: str
    new: bool = False  # it came in by mail and waits to be played
    joined: int = 1  # the first file of the match this machine recorded: above 1, the files before it were not checked here
    fingerprint: str = ""  # of the opponent's pinned key; "" until their key is pinned (first contact shows it)
    unsent: bool = False  # this player's latest file of a match played by mail (an address is kept) was never mailed
    resigned: tuple[str, ...] = ()  # the games (or the match) resigned, in English words: "you resigned game 2" (--json)
    resignations: tuple[Message, ...] = ()  # the same, to be said in the player's language (pbm.i18n.say)


def standings(identity: Identity, journal: Journal) -> list[Standing]:
    """Every match of this player's: answers written but never mailed first, then those with a file waiting to be played,
    then the most recently active."""
    infos = {info.match: info for info in journal.matches()}  # the most recently active first
    waiting: dict[str, Standing] = {}
    for row in journal.waiting():
        if row.match in waiting:
            continue
        latest = journal.latest(row.match)
        if latest is not None and row.seq not in (latest.seq + 1, latest.seq):  # the same seq: a crossing resignation
            continue  # a file in between is missing: the row shows what the journal knows (and resend asks for it)
        info = infos.get(row.match)
        me = info.seat_of(identity.public_key) if info is not None else None
        score = (info.score[me], info.score[1 - me]) if info is not None and me is not None else None
        address = journal.address(row.match) or row.sender
        them = info.players[1 - me] if info is not None and me is not None else None
        fingerprint = them.fingerprint if them is not None and them.key else ""
        resigned = _resigned(info, me) if info is not None and me is not None else ()
        waiting[row.match] = Standing(
            row.match, row.opponent, score, Next.YOU, row.taken_at, row.path, address, new=True, fingerprint=fingerprint,
            resigned=tuple(map(str, resigned)), resignations=resigned,
        )  # fmt: skip
    rows = list(waiting.values())
    for info in infos.values():
        me = info.seat_of(identity.public_key)
        if me is None or info.match in waiting:
            continue
        them = info.players[1 - me]
        latest = info.latest
        nxt = Next.OVER if info.over else Next.YOU if info.waiting_for == me else Next.THEM
        score = (info.score[me], info.score[1 - me])
        address, fingerprint = journal.address(info.match) or "", them.fingerprint if them.key else ""
        unsent = latest.signer == me and bool(address) and not journal.was_mailed(latest.hash)
        resigned = _resigned(info, me)
        standing = Standing(
            info.match, them.name, score, nxt, latest.seen_at, latest.path, address, joined=info.first, fingerprint=fingerprint,
            unsent=unsent, resigned=tuple(map(str, resigned)), resignations=resigned,
        )  # fmt: skip
        rows.append(standing)
    return sorted(rows, key=lambda r: not r.unsent)  # stable: the order above within each part
