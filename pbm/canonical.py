"""Canonical bytes of parsed data (RFC 8785-style JSON), the only thing spite ever signs or hashes.

Only text, whole numbers (at most 2**53-1 in size, so every JSON reader agrees), true/false,
lists and tables with text keys are allowed: a float, a date or a null is refused, naming
where it sits.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from json.encoder import encode_basestring
from typing import Any

from pbm.errors import SaveFormatError
from pbm.i18n import _, ngettext

MAX_SAFE_INT = 2**53 - 1  # RFC 8785 numbers are IEEE doubles: larger integers would not survive
MAX_DEPTH = 32  # lists and tables nest at most this deep: deeper is never needed, and recursion has limits


def canonical(value: Any) -> bytes:
    """The canonical JSON of `value`: keys sorted by UTF-16 code units, no whitespace, UTF-8; raises SaveFormatError."""
    try:
        parts: list[str] = []
        if not _fast(value, parts, 0):
            parts = list(_encode(value, "", 0))  # raises the error that names the field
        return "".join(parts).encode("utf-8")
    except UnicodeEncodeError as e:
        raise SaveFormatError(_("a text field holds characters that are not valid Unicode")) from e


def check_values(value: Any, where: str = "") -> None:
    """Raise SaveFormatError, naming the field under `where`, unless `value` can be encoded canonically."""
    if _fast(value, [], 0):
        return
    for _part in _encode(value, where, 0):
        pass


def join(where: str, key: str) -> str:
    """The dotted name of field `key` inside `where`."""
    return f"{where}.{key}" if where else key


def _fast(value: Any, out: list[str], depth: int) -> bool:
    """Append the canonical JSON of `value` to `out`; False, for :func:`_encode` to explain, at anything it would refuse.

    The same encoding as :func:`_encode` for plain str, int, bool, list, tuple and dict (subclasses go the slow
    way), without building a field name for every value: that made hashing and checking a save several ms.
    """
    if depth > MAX_DEPTH:
        return False
    kind = type(value)
    if kind is str:
        out.append(encode_basestring(value))
    elif kind is bool:
        out.append("true" if value else "false")
    elif kind is int:
        if abs(value) > MAX_SAFE_INT:
            return False
        out.append(str(value))
    elif kind is list or kind is tuple:
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            if not _fast(item, out, depth + 1):
                return False
        out.append("]")
    elif kind is dict:
        if any(type(key) is not str for key in value):
            return False
        out.append("{")
        # ASCII keys sort the same by code point as by UTF-16 unit, without loading the utf-16 codec (~0.3 ms)
        keys = sorted(value) if all(key.isascii() for key in value) else sorted(value, key=_utf16_units)
        for i, key in enumerate(keys):
            if i:
                out.append(",")
            out.append(encode_basestring(key))
            out.append(":")
            if not _fast(value[key], out, depth + 1):
                return False
        out.append("}")
    else:
        return False
    return True


def _utf16_units(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _encode(value: Any, where: str, depth: int) -> Iterator[str]:
    if depth > MAX_DEPTH:
        nested = ngettext(
            # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn'); {most} is a number (32).
            "field {field} is nested more than {most} level deep",
            "field {field} is nested more than {most} levels deep",
            MAX_DEPTH,
        )
        raise SaveFormatError(nested.format(field=repr(where), most=MAX_DEPTH), where)
    if value is True or value is False:
        yield "true" if value else "false"
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INT:
            # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn'); {value} is the number it holds.
            too_large = _("field {field}: the number {value} is too large (at most {most})")
            raise SaveFormatError(too_large.format(field=repr(where), value=value, most=MAX_SAFE_INT), where)
        yield str(value)
    elif isinstance(value, str):
        yield json.dumps(value, ensure_ascii=False)  # escapes exactly as RFC 8785 (ECMAScript) does
    elif isinstance(value, list | tuple):
        yield "["
        for i, item in enumerate(value):
            if i:
                yield ","
            yield from _encode(item, f"{where}[{i}]", depth + 1)
        yield "]"
    elif isinstance(value, Mapping):
        yield "{"
        for i, key in enumerate(sorted(value, key=lambda k: _utf16(k, where))):
            if i:
                yield ","
            yield json.dumps(key, ensure_ascii=False)
            yield ":"
            yield from _encode(value[key], join(where, key), depth + 1)
        yield "}"
    else:
        if isinstance(value, float):
            refused = _(
                # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn'); true/false is written so in a save: keep it.
                "field {field}: floating-point numbers are not allowed in a save (use whole numbers, text, true/false, lists, tables)"
            )
        else:
            # TRANSLATORS: {field} names a field of a save, in quotes; {kind} is a kind of value, as Python names it (like NoneType,
            # datetime); true/false is written so in a save: keep it.
            refused = _("field {field}: {kind} values are not allowed in a save (use whole numbers, text, true/false, lists, tables)")
        raise SaveFormatError(refused.format(field=repr(where), kind=type(value).__name__), where)


def _utf16(key: Any, where: str) -> bytes:
    if not isinstance(key, str):
        # TRANSLATORS: {field} names a field of a save, in quotes; {kind} is a kind of value, as Python names it (like int), {key} the key.
        refused = _("field {field}: table keys are text, not {kind} ({key})")
        raise SaveFormatError(refused.format(field=repr(where), kind=type(key).__name__, key=repr(key)), where)
    return key.encode("utf-16-be", "surrogatepass")
