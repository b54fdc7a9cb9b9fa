"""What each field of a save must be, declared once: :func:`check` walks a value against a schema and names the first field that is not.

A schema is made of a few kinds: :class:`Whole`, :class:`Text`, :class:`Flag`, :class:`Choice`, :class:`Items` (a list),
:class:`Fields` (a table with known keys, unknown ones refused), :class:`Keyed` (a table whose keys follow a pattern),
:class:`Maybe` (JSON null allowed) and :class:`Opaque` (a table whose content its own reader checks).
Every refusal is a SaveFormatError whose `field` is the dotted place (``state.players[1].side``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from engine._frozen import frozen_value
from pbm.canonical import MAX_SAFE_INT, join
from pbm.errors import SaveFormatError
from pbm.shown import cut, shown

__all__ = ["Choice", "Fields", "Flag", "Items", "Keyed", "Maybe", "Opaque", "Schema", "Text", "Whole", "check"]


class Schema:
    """One kind of value; :meth:`check` raises SaveFormatError naming `where` unless `value` is one."""

    def describe(self) -> str:
        raise NotImplementedError

    def check(self, value: Any, where: str) -> None:
        raise NotImplementedError

    def refuse(self, value: Any, where: str) -> SaveFormatError:
        return SaveFormatError(f"field {cut(where)!r} should be {self.describe()}, not {shown(value)}", where)


@frozen_value(slots=False)
class Whole(Schema):
    """A whole number (never true/false) from `low` to `high`."""

    low: int = -MAX_SAFE_INT
    high: int = MAX_SAFE_INT

    def describe(self) -> str:
        if self.high == MAX_SAFE_INT:
            return "a whole number" if self.low == -MAX_SAFE_INT else f"a whole number from {self.low}"
        return f"a whole number from {self.low} to {self.high}"

    def check(self, value: Any, where: str) -> None:
        if type(value) is not int or not self.low <= value <= self.high:
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Text(Schema):
    """Text of `shortest` to `longest` characters, matching `pattern` (whole) if given; `what` says what it is."""

    pattern: str | None = None
    what: str = "text"
    shortest: int = 0
    longest: int | None = None
    _compiled: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", re.compile(self.pattern) if self.pattern is not None else None)

    def describe(self) -> str:
        return self.what

    def check(self, value: Any, where: str) -> None:
        if type(value) is not str:
            raise self.refuse(value, where)
        if len(value) < self.shortest or (self.longest is not None and len(value) > self.longest):
            raise self.refuse(value, where)
        if self._compiled is not None and not self._compiled.fullmatch(value):
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Flag(Schema):
    """true or false."""

    def describe(self) -> str:
        return "true or false"

    def check(self, value: Any, where: str) -> None:
        if type(value) is not bool:
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Choice(Schema):
    """One of a few given texts."""

    options: tuple[str, ...]

    def describe(self) -> str:
        return "one of " + ", ".join(repr(o) for o in self.options)

    def check(self, value: Any, where: str) -> None:
        if type(value) is not str or value not in self.options:
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Items(Schema):
    """A list of `item`s: exactly `count` of them if given, else at most `most`."""

    item: Schema
    count: int | None = None
    most: int | None = None

    def describe(self) -> str:
        if self.count is not None:
            return f"a list of {self.count}: each {self.item.describe()}"
        return f"a list, each {self.item.describe()}"

    def check(self, value: Any, where: str) -> None:
        if type(value) is not list:
            raise self.refuse(value, where)
        if (self.count is not None and len(value) != self.count) or (self.most is not None and len(value) > self.most):
            raise self.refuse(value, where)
        for i, item in enumerate(value):
            self.item.check(item, f"{where}[{i}]")


@frozen_value(slots=False)
class Fields(Schema):
    """A table with exactly these keys (those in `optional` may be left out); `empty` allows the empty table too."""

    fields: Mapping[str, Schema]
    optional: frozenset[str] = frozenset()
    empty: bool = False

    def describe(self) -> str:
        return "a table"

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict:
            raise self.refuse(value, where)
        if self.empty and not value:
            return
        for key in value:
            if key not in self.fields:
                place = join(where, key) if type(key) is str else where
                raise SaveFormatError(f"unknown field {cut(place)!r}", place)
        for key, schema in self.fields.items():
            if key in value:
                schema.check(value[key], join(where, key))
            elif key not in self.optional:
                raise SaveFormatError(f"field {join(where, key)!r} is missing", join(where, key))


@frozen_value(slots=False)
class Keyed(Schema):
    """A table whose keys are among `keys`, each holding a `value`."""

    keys: tuple[str, ...]
    value: Schema
    what: str = "key"

    def describe(self) -> str:
        return "a table"

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict:
            raise self.refuse(value, where)
        for key, item in value.items():
            if key not in self.keys:
                place = join(where, str(key))
                keys = ", ".join(self.keys)
                raise SaveFormatError(f"unknown field {cut(place)!r}: the keys of {where!r} are {self.what}s ({keys})", place)
            self.value.check(item, join(where, key))


@frozen_value(slots=False)
class Maybe(Schema):
    """`inner`, or null (JSON only: TOML has no null)."""

    inner: Schema

    def describe(self) -> str:
        return f"{self.inner.describe()} or null"

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)


@frozen_value(slots=False)
class Opaque(Schema):
    """A table whose content is checked by its own reader (the protocol message: pbm/protocol/)."""

    def describe(self) -> str:
        return "a table"

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict:
            raise self.refuse(value, where)


def check(schema: Schema, value: Any, where: str = "") -> None:
    """Raise SaveFormatError, naming the first field under `where` that does not fit, unless `value` fits `schema`."""
    schema.check(value, where)
