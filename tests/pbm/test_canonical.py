"""The canonical encoding's fast path gives the very bytes of the field-naming slow path, and the same refusals."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.canonical import MAX_DEPTH, MAX_SAFE_INT, _encode, canonical, check_values
from pbm.errors import SaveFormatError

scalars = st.one_of(st.booleans(), st.integers(-(2**60), 2**60), st.text(), st.floats(allow_nan=False), st.none())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=4), inner, max_size=4),
        st.dictionaries(st.text(max_size=4), inner, max_size=4).map(OrderedDict),  # a Mapping, not a dict
    ),
    max_leaves=20,
)


def slow(value: Any) -> bytes:
    return "".join(_encode(value, "", 0)).encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(values)
def test_fast_path_matches_the_slow_path(value: Any) -> None:
    try:
        expected: bytes | str = slow(value)
    except (SaveFormatError, UnicodeEncodeError) as e:
        expected = type(e).__name__ + str(e)
    try:
        got: bytes | str = canonical(value)
    except SaveFormatError as e:
        got = type(e.__cause__ or e).__name__ + str(e.__cause__ or e)
    assert got == expected


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"a": [1, {"b": 1.5}]}, "a[1].b"),
        ({"n": MAX_SAFE_INT + 1}, "n"),
        ({"x": {1: 2}}, "x"),
        ({"d": None}, "d"),
    ],
)
def test_refusals_name_the_field(value: Any, field: str) -> None:
    with pytest.raises(SaveFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        canonical(value)
    with pytest.raises(SaveFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        check_values(value)


def test_too_deep_is_refused() -> None:
    deep: Any = 1
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    with pytest.raises(SaveFormatError, match="nested more than"):
        canonical(deep)
