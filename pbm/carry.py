"""Each player's side of the match, carried in every save, so that a player can go on from a file alone.

After writing a file, a player's side of the match is public data (their protocol state, the
public table and the labels of that file) plus their secrets (keys and hand), which ride in
`secrets`, sealed to them, with the SHA-256 of the public part. Both players' public parts
travel in `protocol.carry`, packed (pbm/packing.py) with the rest of the file as the preset
dictionary: the two parts share most of their points, and repeat the file's message and table.
docs/save-format.md, *Continuing elsewhere*.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nacl.bindings import crypto_hash_sha256

from pbm.canonical import canonical
from pbm.errors import CarryError, SaveFormatError
from pbm.i18n import N_, _, error_text
from pbm.packing import CUT, EDITED, JUNK, NOT_BASE64, NOT_DATA, TOO_BIG, PackingError, pack, to_json, unpack
from pbm.saves import MAX_SEQ, RULES, SaveFile, TurnRecord
from pbm.schema import Fields, Items, Maybe, Opaque, Text, Whole, check
from pbm.table import TABLE

Side = dict[str, Any]
Sides = tuple[Side | None, Side | None]

# TRANSLATORS: what a field of a save must hold, after "should be".
_SHA256 = Text(r"[0-9a-f]{64}", N_("a SHA-256 in hex"))
# One player's public side after one of their files (pbm.client.answer._side); `party` is the protocol's own (Party.export_public).
SIDE = Fields(
    {
        "party": Opaque(),
        "state": Maybe(TABLE),
        "rules": RULES,
        "players": Items(Items(Text(), count=2), count=2),
        "game": Whole(1, MAX_SEQ),
        "history": _SHA256,
    }
)
SIDES = Items(Maybe(SIDE), count=2)
# What a player seals for themselves after one of their files (pbm.client.answer._sealed); `party` is Party.export_secrets.
SEALED = Fields({"seq": Whole(1, MAX_SEQ), "side": _SHA256, "party": Opaque(), "hand": Items(Whole(0, 1023))})


# Why the sides carried in a file do not unpack, by PackingError.reason: 'protocol.carry' is the field's name in the file.
_UNPACKED = {
    EDITED: N_("the sides of the match carried in this file ('protocol.carry') does not unpack: it was edited or cut"),
    # TRANSLATORS: {size} is a number of kibibytes.
    TOO_BIG: N_("the sides of the match carried in this file ('protocol.carry') unpacks to more than {size} KiB"),
    CUT: N_("the sides of the match carried in this file ('protocol.carry') is cut short"),
    JUNK: N_("the sides of the match carried in this file ('protocol.carry') has junk after its end"),
    NOT_DATA: N_("the sides of the match carried in this file ('protocol.carry') does not unpack to plain data"),
    NOT_BASE64: N_("the sides of the match carried in this file ('protocol.carry') is not base64url text"),
}


def side_digest(side: Side) -> str:
    """The hex SHA-256 that binds a public side to the secrets sealed with it."""
    return crypto_hash_sha256(to_json(side)).hex()


def context(save: SaveFile) -> bytes:
    """The preset dictionary of a save's carry: its message, table and turns as canonical JSON (never the carry itself)."""
    return _context(save.history, save.protocol.get("message", {}), save.state)


def _context(history: tuple[TurnRecord, ...], message: Mapping[str, Any], state: Mapping[str, Any]) -> bytes:
    turns = [[t.by, t.moves] for t in history]
    # a SaveFile has only values canonical JSON takes (saves._validate); zlib uses at most the last 32 KiB
    return canonical({"history": turns, "message": message, "state": dict(state)})[-32768:]


def pack_sides(sides: Sides, history: tuple[TurnRecord, ...], message: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Both seats' public sides (seat 0 first, None for a seat that has none yet), packed for the `protocol.carry` of a
    save with these turns, protocol message and table."""
    return pack(list(sides), _context(history, message, state))


def unpack_sides(save: SaveFile) -> Sides:
    """The two public sides that `save` carries; raises CarryError if the carry is missing, damaged or not two sides."""
    text = save.protocol.get("carry")
    if not isinstance(text, str) or not text:
        raise CarryError(_("the file carries no sides of the match (field 'protocol.carry')"))
    try:
        sides = unpack(text, context(save))
    except PackingError as e:
        raise CarryError(_(_UNPACKED[e.reason]).format(size=e.limit)) from e
    try:
        check(SIDES, sides, "protocol.carry")
    except SaveFormatError as e:
        # TRANSLATORS: {error} says which field is wrong and how.
        refused = _("the carry of this file ('protocol.carry') is not the two sides of a match: {error}")
        raise CarryError(refused.format(error=error_text(e))) from e
    return sides[0], sides[1]
