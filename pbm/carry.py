"""Each player's side of the match, carried in every save, so that a player can go on from a file alone.

After writing a file, a player's side of the match is public data (their protocol state, the
public table and the labels of that file) plus their secrets (keys and hand), which ride in
`secrets`, sealed to them, with the SHA-256 of the public part. Both players' public parts
travel in `protocol.carry`, packed: JSON, deflated with the rest of the file as the preset
dictionary (the two parts share most of their points, and repeat the file's message, table
and history), then base64url. docs/save-format.md, *Continuing elsewhere*.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from nacl.bindings import crypto_hash_sha256

from pbm.canonical import canonical
from pbm.errors import CarryError
from pbm.saves import SaveFile

Side = dict[str, Any]
Sides = tuple[Side | None, Side | None]

# A carry unpacks to a few tens of KiB at most; anything bigger is refused before it is built (a deflate bomb).
MAX_UNPACKED = 256 * 1024
_LEVEL = 9


def side_digest(side: Side) -> str:
    """The hex SHA-256 that binds a public side to the secrets sealed with it."""
    return crypto_hash_sha256(_json(side)).hex()


def context(save: SaveFile) -> bytes:
    """The preset dictionary of a save's carry: its message, table and history as canonical JSON (never the carry itself)."""
    message = save.protocol.get("message", {})
    history = [{"by": t.by, "moves": t.moves} for t in save.history]
    try:
        return canonical({"history": history, "message": message, "state": dict(save.state)})[-32768:]
    except Exception:  # a value canonical JSON refuses: the carry cannot match such a file; say so when it is unpacked
        return b""


def pack(sides: Sides, save: SaveFile) -> str:
    """Both seats' public sides (seat 0 first, None for a seat that has none yet), packed for `save`'s `protocol.carry`."""
    squeeze = zlib.compressobj(_LEVEL, zdict=context(save))
    raw = squeeze.compress(_json(list(sides))) + squeeze.flush()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unpack(save: SaveFile) -> Sides:
    """The two public sides that `save` carries; raises CarryError if the carry is missing, damaged or not two sides."""
    text = save.protocol.get("carry")
    if not isinstance(text, str) or not text:
        raise CarryError("the file carries no sides of the match (field 'protocol.carry')")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        stretch = zlib.decompressobj(zdict=context(save))
        data = stretch.decompress(raw, MAX_UNPACKED)
        if stretch.unconsumed_tail or not stretch.eof or stretch.unused_data:
            raise CarryError("the sides of the match carried in this file ('protocol.carry') are cut short, too big or followed by junk")
        sides = json.loads(data)
    except (binascii.Error, ValueError, RecursionError, zlib.error) as e:
        raise CarryError("the sides of the match carried in this file ('protocol.carry') are damaged: it was edited or cut") from e
    if not isinstance(sides, list) or len(sides) != 2 or not all(s is None or isinstance(s, dict) for s in sides):
        raise CarryError("the carry of this file ('protocol.carry') is not the two sides of a match")
    return sides[0], sides[1]


def _json(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
