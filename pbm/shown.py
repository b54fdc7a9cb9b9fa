"""How text that came from outside (a file, a key file, the command line) is shown: cut short, escaped, never interpreted.

Names and echoed values may hold anything a hostile file can: terminal escapes, C1 controls, bidi overrides,
rich markup, kilobytes of text. What spite prints of them is plain and short.
"""

from __future__ import annotations

from typing import Any

SHORT = 40  # characters of an echoed value a message keeps: enough to recognise it
LINE = 400  # characters of a whole message line (names and paths included)


def cut(text: str, most: int = SHORT) -> str:
    """`text` shortened to `most` characters, an ellipsis marking the cut."""
    return text if len(text) <= most else text[: most - 1] + "…"


def shown(value: Any, most: int = SHORT) -> str:
    """`value` as a message echoes it: its repr (which escapes every non-printable character), cut to `most` characters."""
    return cut(repr(value), most)


def plain(text: str) -> str:
    """`text` with every non-printable character escaped as Python writes it (``\\x1b``, ``\\u202e``): what a terminal may show."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
