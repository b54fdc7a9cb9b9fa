"""A save as TOML text that survives mail and pasting: no line over 76 characters, and long lines only where a break shows.

The signature covers parsed values, never the text, so the layout is free; this one keeps every
line within what mail carries unchanged (RFC 5322 asks for 78), writes long text as multi-line
strings whose lines end in a line-ending backslash (TOML joins them back), and keeps every line
that holds a space outside its key at most 40 characters. A client that re-wraps the file can
then only break lines without spaces, inside text, or at the `=` of a key, and each such break
shows (a string left open, a key with no value): pbm/transport/code.py joins them back.
docs/save-format.md, *Layout*.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

WIDTH = 76  # the longest line a save has
SPACED = 40  # the longest line with a space in a value: short enough that re-wrapping never breaks it
HEAD = "# spite save: play it with spite"  # short, as every line with spaces
TAIL = "# end of spite save"  # the tolerant reader knows a save is whole by this line
_BARE = re.compile(r"[A-Za-z0-9_-]+")
_NAMED = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def dumps(doc: Mapping[str, Any]) -> str:
    """`doc` (plain data: text, whole numbers, true/false, lists, tables) as TOML in this layout, between HEAD and TAIL."""
    lines = [HEAD]
    _table(lines, (), doc)
    lines.append(TAIL)
    return "\n".join(lines) + "\n"


def _table(lines: list[str], path: tuple[str, ...], table: Mapping[str, Any]) -> None:
    """Key/value lines of `table` first, then its tables ``[a.b]`` and arrays of tables ``[[a.b]]``, as TOML requires."""
    later = []
    for key, value in table.items():
        if isinstance(value, Mapping) or (isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value)):
            later.append((key, value))
        else:
            lines.extend(_value(value, f"{_key(key)} = ", ""))
    for key, value in later:
        name = ".".join(_key(k) for k in (*path, key))
        for item in [value] if isinstance(value, Mapping) else value:
            lines.append("")
            lines.append(f"[{name}]" if isinstance(value, Mapping) else f"[[{name}]]")
            _table(lines, (*path, key), item)


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else f'"{"".join(_units(key))}"'


def _value(value: Any, prefix: str, indent: str, tail: int = 0) -> list[str]:
    """The lines of `value` written after `prefix` (the first line starts with it); lines after the first start with `indent`.

    `tail` characters (a comma) follow the last line.
    """
    if isinstance(value, bool):
        return [prefix + ("true" if value else "false")]
    if isinstance(value, int):
        return [prefix + str(value)]
    if isinstance(value, str):
        return _string(value, prefix, indent, tail)
    if isinstance(value, Mapping):
        return _inline_table(value, prefix, indent)
    one = _one_line(value)
    if one is not None and len(prefix) + len(one) + tail <= (SPACED if " " in one else WIDTH):
        return [prefix + one]
    lines = [prefix + "["]
    for item in value:
        item_lines = _value(item, indent + " ", indent + " ", 1)
        item_lines[-1] += ","
        lines.extend(item_lines)
    lines.append(indent + "]")
    return lines


def _one_line(value: list[Any]) -> str | None:
    """A list of numbers, true/false and such lists on one line, or None if it holds text or tables."""
    parts = []
    for item in value:
        if isinstance(item, bool | int):
            parts.append(_value(item, "", "")[0])
        elif isinstance(item, list) and (inner := _one_line(item)) is not None:
            parts.append(inner)
        else:
            return None
    return "[" + ", ".join(parts) + "]"


def _inline_table(table: Mapping[str, Any], prefix: str, indent: str) -> list[str]:
    """A table inside a list: ``{ k = v, ... }``, its values' own lines in between (TOML allows newlines inside values)."""
    if not table:
        return [prefix + "{}"]
    lines = [prefix + "{ "]
    for i, (key, value) in enumerate(table.items()):
        head = lines.pop() + (", " if i else "") + f"{_key(key)} = "
        lines.extend(_value(value, head, indent + " "))
    lines[-1] += " }"
    return lines


def _units(text: str) -> list[str]:
    """`text` as the units of a TOML basic string: characters, and escapes where TOML requires them."""
    return [_NAMED.get(ch) or (f"\\u{ord(ch):04x}" if ch < " " or ch == "\x7f" else ch) for ch in text]


def _string(text: str, prefix: str, indent: str, tail: int) -> list[str]:
    """A basic string on one line if it fits, else a multi-line one: chunks on lines ending in a line-ending backslash."""
    units = _units(text)
    one = f'{prefix}"{"".join(units)}"'
    spaced = " " in text
    if len(one) + tail <= (SPACED if spaced else WIDTH):
        return [one]
    room = (SPACED if spaced else WIDTH) - len(indent) - 5  # a space before, and `\` or `""",` after
    chunks: list[str] = []
    chunk, size = "", 0
    for unit in units:
        if chunk and size + len(unit) > room:
            chunks.append(chunk)
            chunk, size = "", 0
        if not chunk and unit == " ":
            unit = "\\u0020"  # a line-ending backslash trims the whitespace that starts the next line
        chunk, size = chunk + unit, size + len(unit)
        if unit == " " and size >= room // 2:  # text with spaces breaks after one, which stays before the `\`
            chunks.append(chunk)
            chunk, size = "", 0
    if chunk:
        chunks.append(chunk)
    body = [f"{indent} {c}\\" for c in chunks]
    body[-1] = body[-1][:-1] + '"""'
    return [prefix + '"""\\', *body]
