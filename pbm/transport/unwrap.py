"""Joining the lines of a save that a chat or mail client re-wrapped: the one pass of the TOML scan that finds each
break a line cannot end at (used by the tolerant reader, pbm/transport/code.py)."""

from __future__ import annotations

import re

# TOML scan state: inside a multi-line string, array depth, inline-table depth, a value due, an `=` due, at a statement's
# start, and what the scan is inside of: "" nothing, '"' or "'" a one-line string, "]" or "]]" a table header, "#" a comment
_State = tuple[bool, int, int, bool, bool, bool, str]
_BASIC_STOP = re.compile(r'[\\"]')  # what ends a run of plain characters in a basic string
_LITERAL_STOP = re.compile("'")  # in a literal string


def unwrap(text: str) -> str:
    """`text` with the lines a re-wrapping client broke joined back: each break leaves a line that cannot end there.

    Lines end inside a one-line string, inside a multi-line string without a line-ending backslash, inside an inline
    table, after `=` or after a key alone (pbm/savetext.py writes no line that could be broken elsewhere). One pass:
    each line joined on is scanned once, from the state the scan had reached a few characters before the break.
    """
    lines = text.split("\n")
    out = []
    in_text, depth = False, 0
    i = 0
    while i < len(lines):
        if not in_text and not lines[i].strip(" \t"):  # a blank line outside a string ends there: nothing to scan
            out.append(lines[i])
            i += 1
            continue
        state: _State = (in_text, depth, 0, False, False, depth == 0 and not in_text, "")
        joined: list[str] = []  # the lines joined so far, each without the whitespace at the break
        window, at, backslashes = "", 0, 0  # the text scanned from `state` on (from `at`); backslashes ending `joined`
        piece = lines[i]
        while True:
            core = piece.rstrip()
            window += core
            text_now = window + piece[len(core) :]
            safe, at = _run(text_now, at, state, len(window) - 2)  # what no character after the break can change
            end = _run(text_now, at, safe, len(text_now))[0]
            ending = len(core) - len(core.rstrip("\\"))
            ending += backslashes if ending == len(core) else 0
            if i + 1 >= len(lines) or not _broken(end, ending):
                out.append("".join(joined) + piece)
                in_text, depth = end[0], end[1]
                break
            joined.append(core)
            window, state, at, backslashes = window[at:], safe, 0, ending
            i += 1
            piece = lines[i].lstrip()
        i += 1
    return "\n".join(out)


def _broken(state: _State, backslashes: int) -> bool:
    """Whether a line whose scan ends in `state` (its text ending in `backslashes` backslashes) cannot end there."""
    in_text, depth, braces, wants_value, wants_equals, _statement, inside = state
    if in_text:
        return backslashes % 2 == 0  # no line-ending backslash: a break
    return inside in ("'", '"', "]", "]]") or braces > 0 or wants_value or (wants_equals and depth == 0)


def _run(line: str, i: int, state: _State, stop: int) -> tuple[_State, int]:
    """The scan state of `line` from `state` at `i` on, and where it stands, once each step that starts before `stop` is taken.

    A step reads at most three characters from where it starts, so the steps before len(line) - 2 mean the same
    whatever is joined after `line`.
    """
    in_text, depth, braces, wants_value, wants_equals, statement, inside = state
    while i < stop:
        if in_text:
            found = _BASIC_STOP.search(line, i, stop)
            if found is None:
                i = stop
            else:
                i = found.start()
                if line[i] == "\\":
                    i += 2
                elif line.startswith('"""', i):
                    in_text, i = False, i + 3
                else:
                    i += 1
            continue
        if inside == "#":
            i = stop
            break
        if inside in ("]", "]]"):  # a table header: its closing bracket
            close = line.find(inside, i, stop + len(inside) - 1)
            if close < 0:
                i = stop
            else:
                inside, i = "", close + len(inside)
            continue
        if inside:  # a one-line string: basic strings have escapes, literal ones none
            found = (_BASIC_STOP if inside == '"' else _LITERAL_STOP).search(line, i, stop)
            if found is None:
                i = stop
            elif line[found.start()] == "\\":
                i = found.start() + 2
            else:
                inside, wants_value, i = "", False, found.start() + 1
            continue
        c = line[i]
        if c in " \t":
            i += 1
            continue
        if c == "#":
            inside = "#"
            continue
        if statement:
            statement = False
            if c == "[":  # a table header, [a.b] or [[a.b]]
                inside = "]]" if line.startswith("[[", i) else "]"
                continue
            wants_equals = True
        if line.startswith('"""', i):
            in_text, wants_value, i = True, False, i + 3
            continue
        if c in "\"'":
            inside, i = c, i + 1
            continue
        if c == "=":
            wants_equals, wants_value = False, True
        elif c in "[]":
            depth += 1 if c == "[" else -1
            wants_value = False
        elif c in "{}":
            braces += 1 if c == "{" else -1
            wants_value = False
        elif c not in ",":
            wants_value = False
        i += 1
    return (in_text, depth, braces, wants_value, wants_equals, statement, inside), i
