"""How text that came from outside (a file, a key file, the command line) is shown: cut short, escaped, never interpreted.

Names and echoed values may hold anything a hostile file can: terminal escapes, C1 controls, bidi overrides,
rich markup, kilobytes of text. What spite prints of them is plain and short.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from rich.cells import get_character_cell_size

SHORT = 40  # screen cells of an echoed value a message keeps: enough to recognise it
LINE = 400  # screen cells of a whole message line (names and paths included)


def _cells(ch: str) -> int:
    """The screen cells `ch` takes as `cut` counts them: two for a wide character, none for a combining mark, and one for
    any other character a terminal would show as nothing (a control or format character: plain() shows it escaped)."""
    size = get_character_cell_size(ch)
    return size if size or unicodedata.category(ch) in ("Mn", "Me") else 1


def cut(text: str, most: int = SHORT) -> str:
    """`text` shortened to `most` screen cells, an ellipsis marking the cut; a combining mark stays with its letter. However
    many marks a hostile value piles up, at most 4 x `most` characters are kept."""
    used = 0
    for n, ch in enumerate(text):
        used += _cells(ch)
        if used > most or n >= 4 * most:
            break
    else:
        return text
    kept, used = 0, 0
    for ch in text[: 4 * most - 1]:
        used += _cells(ch)
        if used > most - 1:
            break
        kept += 1
    return text[:kept] + "…"


def shown(value: Any, most: int = SHORT) -> str:
    """`value` as a message echoes it: its repr (which escapes every non-printable character), cut to `most` characters."""
    return cut(repr(value), most)


def plain(text: str) -> str:
    """`text` with every non-printable character escaped as Python writes it (``\\x1b``, ``\\u202e``): what a terminal may show."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def json_text(data: Any, indent: int | None = 2) -> str:
    """`data` as JSON for scripts, with every character a terminal would act on or hide escaped (``\\u009b``): a reader of
    the JSON gets the text as it is, a terminal that shows it shows nothing hidden."""
    import json

    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if text.replace("\n", "").isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    """A character as JSON escapes it: \\uXXXX, as a surrogate pair beyond the Basic Multilingual Plane."""
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
