"""This player's side of a match between their files: as their journal kept it, or restored from what a file carries.

The side's public part travels in `protocol.carry`, its secrets sealed to the player (pbm/carry.py, pbm/secrets.py);
what they wrote last is what a file must carry back unchanged (docs/save-format.md).
"""

from __future__ import annotations

import dataclasses
import json

from nacl.bindings import crypto_hash_sha256

from engine._frozen import frozen_value
from engine.cards import Card
from engine.rules import Ruleset
from pbm import carry, saves
from pbm.carry import Side, Sides, side_digest
from pbm.errors import CarryError, NoRecordError, SaveFormatError
from pbm.i18n import _, error_text
from pbm.identity import Identity
from pbm.journal import Journal
from pbm.protocol.dealing import Party
from pbm.protocol.seat import Seat
from pbm.saves import Player, SaveFile, TurnRecord
from pbm.schema import check
from pbm.secrets import unseal
from pbm.table import table_state


def match_id_bytes(save: SaveFile) -> bytes:
    """The match id of `save` as the 16 bytes the protocol binds its proofs to."""
    return bytes.fromhex(save.match)


def history_digest(history: tuple[TurnRecord, ...]) -> str:
    """The hex SHA-256 of a game's turns, which a side keeps instead of the turns themselves (the file lists them)."""
    return crypto_hash_sha256(json.dumps([[t.by, t.moves] for t in history]).encode()).hex()


@frozen_value(slots=False)
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
            _(
                "this machine has no record of your side of the match, and the file does not carry it: "
                "continue on the machine (spite home) where you wrote your last file, or copy that spite home here"
            )
        )
    try:
        secrets = json.loads(unseal(blob, identity.private_bytes(), match))
        check(carry.SEALED, secrets, "secrets")
        check(carry.SIDE, side, "side")
    except (ValueError, SaveFormatError) as e:  # sealed with this player's key, so by their client: one of another version
        # TRANSLATORS: {error} says what is wrong with them
        said = _("your sealed secrets or side in this file are not in a form this spite reads ({error})")
        raise CarryError(said.format(error=error_text(e))) from e
    if secrets["seq"] != seq:
        # TRANSLATORS: {sealed} and {seq} number the files of a match (saves), 1 for the invitation
        said = _("your sealed secrets in this file are those of save {sealed}, not of your last file (save {seq})")
        raise CarryError(said.format(sealed=secrets["seq"], seq=seq))
    if secrets["side"] != side_digest(side):
        raise CarryError(_("your side of the match carried in this file is not the one you sealed with your secrets: it was changed"))
    try:
        rules = Ruleset(**side["rules"])
    except ValueError as e:
        # TRANSLATORS: {error} says which numbers of the rules do not go together
        raise CarryError(_("your saved side of the match has impossible rules ({error})").format(error=error_text(e))) from e
    # sealed: the side is the one the player sealed with their secrets (its digest, checked above), so its points are those
    # their client checked as they came in, and are not checked again (~5 ms a file)
    party = Party.restore(side["party"], json.dumps(secrets["party"]).encode(), rules, sealed=True)
    hand = tuple(Card.from_index(i) for i in secrets["hand"])
    state = None if side["state"] is None else table_state(side["state"], rules, party.me, hand)
    players = (Player(*side["players"][0]), Player(*side["players"][1]))
    return _Kept(Seat(party, state), side, rules, players, side["game"], side["history"], blob)


def _kept(journal: Journal, save: SaveFile, me: int, seq: int, identity: Identity) -> _Kept | None:
    """This player's side after their save `seq` as their journal kept it, or None if it has no record of it."""
    text = journal.kept_side(save.match, seq)
    if text is None:
        return None
    data = json.loads(text)
    if not isinstance(data, dict) or "side" not in data:  # kept by an older spite, before files carried the sides
        return None
    side, blob, packed = data["side"], data.get("blob"), data.get("turns")  # "turns": None when an older spite kept it
    # spite keeps only its own side here, as it wrote it: anything else is a damaged disk or a hand-edited journal
    damaged = journal.unreadable(f"the side kept after save {seq} of match {save.match[:8]} is not as spite keeps it")
    if not isinstance(side, dict) or not isinstance(blob, str) or not blob or not (packed is None or isinstance(packed, str)):
        raise damaged
    try:
        kept = _restore(side, blob, identity, match_id_bytes(save), seq)
        turns = saves.unpack_history(packed) if packed is not None else None
    except (CarryError, SaveFormatError) as e:
        raise damaged from e
    return dataclasses.replace(kept, turns=turns if turns is None or history_digest(turns) == kept.history else None)


def _check_carry(sides: Sides, me: int, kept: _Kept) -> None:
    """This player's side as a file carries it, unless left out (a file too big for it), must be the one they kept."""
    carried = sides[me]
    if carried is not None and side_digest(carried) != side_digest(kept.side):
        raise CarryError(_("the file does not carry back your side of the match as your last file had it"))
