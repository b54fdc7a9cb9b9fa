"""The layout of a save's text: the same data back, no line over 76 characters, spaces only on short lines."""

from __future__ import annotations

import re
import tomllib

from hypothesis import given, settings
from hypothesis import strategies as st

from pbm import savetext

texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=300)
base64ish = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=40, max_size=5000)
scalars = st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | texts | base64ish
keys = st.text(st.characters(codec="ascii", min_codepoint=32, max_codepoint=126), min_size=1, max_size=12)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4), max_leaves=10)
tables = st.recursive(
    st.dictionaries(keys, values, max_size=5),
    lambda inner: st.dictionaries(keys, values | inner | st.lists(inner, min_size=1, max_size=3), max_size=4),
    max_leaves=6,
)


def _line_in_a_string(text: str) -> list[bool]:
    """For each line of `text`: whether it continues a multi-line string (its spaces are then the string's)."""
    inside, flags = False, []
    for line in text.splitlines():
        flags.append(inside)
        inside ^= line.count('"""') % 2 == 1
    return flags


@settings(max_examples=150, deadline=None)
@given(doc=tables)
def test_any_plain_data_comes_back_the_same_within_76_columns(doc: dict) -> None:
    text = savetext.dumps(doc)
    assert tomllib.loads(text) == doc
    lines = text.splitlines()
    assert lines[0] == savetext.HEAD and lines[-1] == savetext.TAIL
    assert max(len(line) for line in lines) <= savetext.WIDTH
    for line, continued in zip(lines, _line_in_a_string(text), strict=True):
        value = line.strip() if continued else line.partition(" = ")[2]
        if " " in value.rstrip("\\"):
            assert len(line) <= savetext.SPACED, line  # a line a re-wrapping client could break at a space is short


def test_long_text_is_cut_into_lines_that_end_in_a_backslash() -> None:
    carry = "A-_b" * 500
    text = savetext.dumps({"protocol": {"carry": carry}, "moves": " ".join(["p-c1", "7-c2", "Q-s2"] * 9)})
    assert tomllib.loads(text)["protocol"]["carry"] == carry
    body = [line for line in text.splitlines() if re.fullmatch(r"[A-Za-z0-9_-]+\\", line)]
    assert len(body) >= len(carry) // savetext.WIDTH - 1 and all(len(line) == savetext.WIDTH for line in body)  # full lines
    moves = text.split('moves = """', 1)[1].split('"""', 1)[0].splitlines()
    assert len(moves) > 1 and all(line.endswith(" \\") for line in moves[:-1])  # text with spaces breaks after a space


def test_a_space_that_starts_a_line_of_text_is_kept() -> None:
    name = "x" * 30 + "  " + "y" * 30  # a line-ending backslash would eat a space at the start of the next line
    assert tomllib.loads(savetext.dumps({"name": name}))["name"] == name
