"""Plain data packed into one line of text for a save: JSON, deflated (zlib), unpadded base64url.

Only for what would otherwise take most of a save: a game's turns, and the sides of the match;
and, deflated only, for a turn code (pbm/transport/code.py).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any

MAX_UNPACKED = 4 * 1024 * 1024  # what a packed field may unpack to: 16 times a save's limit (honest data packs 3-5 times)
_LEVEL = 9
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


# Why a text does not unpack (PackingError.reason). The error's own text is English words that end a sentence about the
# field ("field 'history' " + "is cut short"): a caller that shows it says the whole sentence in the player's language,
# one message a reason (pbm/saves.py, pbm/carry.py), for translators must see whole sentences.
EDITED, TOO_BIG, CUT, JUNK, NOT_DATA, NOT_BASE64 = "edited", "too big", "cut", "junk", "not data", "not base64"


class PackingError(ValueError):
    """Text that does not unpack: not base64url, not a whole deflate stream, too big unpacked, or not JSON.

    `reason` says which (EDITED, TOO_BIG, CUT, JUNK, NOT_DATA, NOT_BASE64), `limit` the KiB it may unpack to (TOO_BIG).
    """

    def __init__(self, message: str, reason: str, limit: int = 0) -> None:
        super().__init__(message)
        self.reason = reason
        self.limit = limit


def to_json(value: Any) -> bytes:
    """`value` as compact JSON with sorted keys: the same data always gives the same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def deflate(value: Any, zdict: bytes = b"") -> bytes:
    """`value` (plain JSON data) as compact JSON deflated by zlib; `zdict`, if any, is needed again to inflate it."""
    squeeze = zlib.compressobj(_LEVEL, zdict=zdict) if zdict else zlib.compressobj(_LEVEL)
    return squeeze.compress(to_json(value)) + squeeze.flush()


def inflate(raw: bytes, zdict: bytes = b"", limit: int = MAX_UNPACKED) -> Any:
    """The data deflated in `raw`; raises PackingError, saying what is wrong, for anything else."""
    stretch = zlib.decompressobj(zdict=zdict) if zdict else zlib.decompressobj()
    try:
        data = stretch.decompress(raw, limit)
    except zlib.error as e:
        raise PackingError("does not unpack: it was edited or cut", EDITED) from e
    if stretch.unconsumed_tail:
        raise PackingError(f"unpacks to more than {limit // 1024} KiB", TOO_BIG, limit // 1024)
    if not stretch.eof:
        raise PackingError("is cut short", CUT)
    if stretch.unused_data:
        raise PackingError("has junk after its end", JUNK)
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as e:
        raise PackingError("does not unpack to plain data", NOT_DATA) from e


def pack(value: Any, zdict: bytes = b"") -> str:
    """`value` (plain JSON data) packed into base64url text; `zdict`, if any, is needed again to unpack it."""
    return base64.urlsafe_b64encode(deflate(value, zdict)).rstrip(b"=").decode("ascii")


def unpack(text: str, zdict: bytes = b"", limit: int = MAX_UNPACKED) -> Any:
    """The data packed in `text`; raises PackingError, saying what is wrong, for anything else."""
    if not _BASE64URL.fullmatch(text):
        raise PackingError("is not base64url text", NOT_BASE64)
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as e:  # a length no base64 text has
        raise PackingError("is not base64url text", NOT_BASE64) from e
    return inflate(raw, zdict, limit)
