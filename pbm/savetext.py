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
    """A basic string on one line if it fits, else a multi-line one cut into lines that end in a line-ending backslash.

    The lines are as long as allowed and not indented: a long proof would otherwise cost a few percent more bytes.
    """
    units = _units(text)
    spaced = " " in text
    limit = SPACED if spaced else WIDTH
    one = f'{prefix}"{"".join(units)}"'
    if len(one) + tail <= limit:
        return [one]
    lines: list[str] = []
    line, fresh = prefix + '"""', False  # fresh: the line continues the string after a line-ending backslash
    for unit in units:
        if len(line) + len(unit) + 1 > limit and line.strip('"' + " ="):
            lines.append(line + "\\")
            line, fresh = "", True
        if fresh and unit == " ":
            unit = "\\u0020"  # a line-ending backslash trims the whitespace that starts the next line
        line, fresh = line + unit, False
        if spaced and unit == " " and len(line) >= limit // 2:  # text with spaces breaks after one, which stays before the `\`
            lines.append(line + "\\")
            line, fresh = "", True
    if len(line) + 3 + tail > limit:
        lines.append(line + "\\")
        line = ""
    lines.append(line + '"""')
    return lines
