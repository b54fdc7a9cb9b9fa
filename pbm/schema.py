"""What each field of a save must be, declared once: :func:`check` walks a value against a schema and names the first field that is not.

A schema is made of a few kinds: :class:`Whole`, :class:`Text`, :class:`Flag`, :class:`Choice`, :class:`Items` (a list),
:class:`Fields` (a table with known keys, unknown ones refused), :class:`Keyed` (a table whose keys follow a pattern),
:class:`Maybe` (JSON null allowed) and :class:`Opaque` (a table whose content its own reader checks).
Every refusal is a SaveFormatError whose `field` is the dotted place (``state.players[1].side``). What a schema
describes (:meth:`Schema.describe`) is said in the player's language: the `what` of a :class:`Text` or :class:`Keyed`
is marked where it is given (``N_``) and translated here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from engine._frozen import frozen_value
from pbm.canonical import MAX_SAFE_INT, join
from pbm.errors import SaveFormatError
from pbm.i18n import _, pgettext
from pbm.shown import cut, shown

__all__ = ["Choice", "Fields", "Flag", "Items", "Keyed", "Maybe", "Opaque", "Schema", "Text", "Whole", "check"]


class Schema:
    """One kind of value; :meth:`check` raises SaveFormatError naming `where` unless `value` is one."""

    def describe(self) -> str:
        """What a value of this kind is, as a refusal says it after "should be" (in the player's language)."""
        raise NotImplementedError

    def check(self, value: Any, where: str) -> None:
        raise NotImplementedError

    def refuse(self, value: Any, where: str) -> SaveFormatError:
        # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn'); {what} says what it must hold (like
        # "a whole number from 0 to 1"); {value} is what it holds instead, as the file has it.
        refused = _("field {field} should be {what}, not {value}")
        return SaveFormatError(refused.format(field=repr(cut(where)), what=self.describe(), value=shown(value)), where)


@frozen_value(slots=False)
class Whole(Schema):
    """A whole number (never true/false) from `low` to `high`."""

    low: int = -MAX_SAFE_INT
    high: int = MAX_SAFE_INT

    def describe(self) -> str:
        if self.high == MAX_SAFE_INT:
            if self.low == -MAX_SAFE_INT:
                # TRANSLATORS: what a field of a save must hold, after "should be".
                return _("a whole number")
            # TRANSLATORS: what a field of a save must hold, after "should be": {low} is the smallest number allowed.
            return _("a whole number from {low}").format(low=self.low)
        # TRANSLATORS: what a field of a save must hold, after "should be": {low} and {high} are the smallest and largest allowed.
        return _("a whole number from {low} to {high}").format(low=self.low, high=self.high)

    def check(self, value: Any, where: str) -> None:
        if type(value) is not int or not self.low <= value <= self.high:
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Text(Schema):
    """Text of `shortest` to `longest` characters, matching `pattern` (whole) if given, and meeting `rule` if given (a rule
    kept where it is also applied to what a player types, as a name's); `what` says what it is (marked with ``N_`` where
    it is given: it is translated when shown; "" says plain text)."""

    pattern: str | None = None
    what: str = ""
    shortest: int = 0
    longest: int | None = None
    rule: Callable[[str], bool] | None = None
    _compiled: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", re.compile(self.pattern) if self.pattern is not None else None)

    def describe(self) -> str:
        if not self.what:
            # TRANSLATORS: what a field of a save must hold, after "should be": any text.
            return pgettext("what a field of a save holds", "text")
        return _(self.what)

    def check(self, value: Any, where: str) -> None:
        if type(value) is not str:
            raise self.refuse(value, where)
        if len(value) < self.shortest or (self.longest is not None and len(value) > self.longest):
            raise self.refuse(value, where)
        if self._compiled is not None and not self._compiled.fullmatch(value):
            raise self.refuse(value, where)
        if self.rule is not None and not self.rule(value):
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Flag(Schema):
    """true or false."""

    def describe(self) -> str:
        # TRANSLATORS: what a field of a save must hold, after "should be"; true and false are written so in the file: keep them.
        return _("true or false")

    def check(self, value: Any, where: str) -> None:
        if type(value) is not bool:
            raise self.refuse(value, where)


@frozen_value(slots=False)
class Choice(Schema):
    """One of a few given texts."""

    options: tuple[str, ...]

    def describe(self) -> str:
        # TRANSLATORS: what a field of a save must hold, after "should be": {options} lists the texts allowed, in quotes.
        return _("one of {options}").format(options=", ".join(repr(o) for o in self.options))

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
            # TRANSLATORS: what a field of a save must hold, after "should be": {count} items, each one {item} (like "a whole number").
            return _("a list of {count}: each {item}").format(count=self.count, item=self.item.describe())
        # TRANSLATORS: what a field of a save must hold, after "should be": a list whose items are each {item} (like "a whole number").
        return _("a list, each {item}").format(item=self.item.describe())

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
        return _a_table()

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict:
            raise self.refuse(value, where)
        if self.empty and not value:
            return
        for key in value:
            if key not in self.fields:
                place = join(where, key) if type(key) is str else where
                # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn').
                raise SaveFormatError(_("unknown field {field}").format(field=repr(cut(place))), place)
        for key, schema in self.fields.items():
            if key in value:
                schema.check(value[key], join(where, key))
            elif key not in self.optional:
                # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn').
                raise SaveFormatError(_("field {field} is missing").format(field=repr(join(where, key))), join(where, key))


@frozen_value(slots=False)
class Keyed(Schema):
    """A table whose keys are among `keys`, each holding a `value`; `what` says what the keys are, in the plural (marked
    with ``N_`` where it is given: it is translated when shown)."""

    keys: tuple[str, ...]
    value: Schema
    what: str

    def describe(self) -> str:
        return _a_table()

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict:
            raise self.refuse(value, where)
        for key, item in value.items():
            if key not in self.keys:
                place = join(where, str(key))
                keys = ", ".join(self.keys)
                # TRANSLATORS: {field} and {table} name fields of a save, in quotes; {what} says what the table's keys are (like
                # "seats"), {keys} lists them.
                unknown = _("unknown field {field}: the keys of {table} are {what} ({keys})")
                raise SaveFormatError(unknown.format(field=repr(cut(place)), table=repr(where), what=_(self.what), keys=keys), place)
            self.value.check(item, join(where, key))


@frozen_value(slots=False)
class Maybe(Schema):
    """`inner`, or null (JSON only: TOML has no null)."""

    inner: Schema

    def describe(self) -> str:
        # TRANSLATORS: what a field of a save must hold, after "should be": {what} (like "a table"), or null; null is JSON's word: keep it.
        return _("{what} or null").format(what=self.inner.describe())

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            self.inner.check(value, where)


@frozen_value(slots=False)
class Opaque(Schema):
    """A table whose content is checked by its own reader (the protocol message: pbm/protocol/)."""

    def describe(self) -> str:
        return _a_table()

    def check(self, value: Any, where: str) -> None:
        if type(value) is not dict:
            raise self.refuse(value, where)


def _a_table() -> str:
    # TRANSLATORS: what a field of a save must hold, after "should be": a table (TOML's word for a group of named fields).
    return pgettext("what a field of a save holds", "a table")


def check(schema: Schema, value: Any, where: str = "") -> None:
    """Raise SaveFormatError, naming the first field under `where` that does not fit, unless `value` fits `schema`."""
    schema.check(value, where)
