"""Packed fields of a save (history, carry): what packs comes back the same, and anything else is refused by name."""

from __future__ import annotations

import base64
import zlib

import pytest

from pbm import packing
from pbm.packing import PackingError, pack, unpack

DATA = {"turns": [[0, "p-c1 7-c2 Q-s2"], [1, "s1-c3 K-s4"]], "none": None, "text": "Ünïcode"}


def _raw(data: bytes, zdict: bytes = b"") -> str:
    squeeze = zlib.compressobj(9, zdict=zdict) if zdict else zlib.compressobj(9)
    return base64.urlsafe_b64encode(squeeze.compress(data) + squeeze.flush()).decode().rstrip("=")


def test_what_packs_unpacks_the_same_and_the_same_data_packs_the_same() -> None:
    text = pack(DATA)
    assert unpack(text) == DATA and pack(DATA) == text
    assert set(text) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert unpack(pack(DATA, b"a dictionary"), b"a dictionary") == DATA


def test_repeated_text_packs_small() -> None:
    turns = [[i % 2, "p-c1 7-c2 Q-s2 s1-c3"] for i in range(200)]
    assert len(pack(turns)) < len(str(turns)) // 10


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("not*base64!", "not base64url"),
        (pack(DATA) + "+", "not base64url"),
        (pack(DATA) + "=", "not base64url"),
        (pack(DATA)[:-8], "cut short|does not unpack"),
        (_raw(b"[1]") + _raw(b"[2]"), "junk after its end|does not unpack"),
        (_raw(b"[" * 10 + b" " * (2 * packing.MAX_UNPACKED) + b"]" * 10), f"more than {packing.MAX_UNPACKED // 1024} KiB"),
        (_raw(b"\xff\xfe not json"), "does not unpack to plain data"),
        (_raw(b"[" * 100_000 + b"]" * 100_000), "does not unpack to plain data"),
    ],
)
def test_anything_else_is_refused_saying_what_is_wrong(text: str, why: str) -> None:
    with pytest.raises(PackingError, match=why):
        unpack(text)


def test_the_preset_dictionary_must_be_the_one_it_was_packed_with() -> None:
    text = pack(DATA, b"the file's message")
    with pytest.raises(PackingError, match="does not unpack"):
        unpack(text, b"another file's message")
    with pytest.raises(PackingError, match="does not unpack"):
        unpack(text)
