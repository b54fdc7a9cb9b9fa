"""Cheaper construction of the engine's frozen, slotted dataclasses; the values made are the same frozen values.

:func:`frozen_value` makes a frozen dataclass at a fraction of the import cost of ``@dataclass(frozen=True)`` (which
compiles six methods one at a time), for the ~70 value types every command imports: only ``__init__`` is compiled (it
writes the slots directly, as :func:`fast_init` does); equality, hash and repr read the fields through one
``operator.attrgetter``, and the frozen ``__setattr__`` and ``__delattr__`` are closures.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, which looks the field up by
name every time. :func:`fast_init` gives a class an ``__init__`` with the same parameters that writes the slots
through their descriptors instead (about half the cost, or less). :func:`maker` goes further for the engine's hot
paths (a new state, player and view per move): it fills an open twin of the class, a plain class with the very same
slots, by ordinary assignment, then turns it into the frozen class (about a third of the cost of stock construction
for a 9-field GameState, a fifth for a 14-field PlayerView). No caller ever holds the twin.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


def _fields(cls: type) -> list[dataclasses.Field[Any]]:
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    fields = list(dataclasses.fields(cls))
    for field in fields:
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: only plain fields with plain defaults are handled")
    return fields


def _compile(name: str, source: str, names: dict[str, Any]) -> Callable[..., Any]:
    exec(source, names)  # the way dataclasses itself writes __init__
    made: Callable[..., Any] = names[name]
    return made


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass `cls` an ``__init__`` that writes its slots directly (same parameters and defaults)."""
    if cls.__dict__.get("_fast_init"):  # frozen_value made it so
        return cls
    params: list[str] = []
    body: list[str] = []
    names: dict[str, Any] = {}
    for field in _fields(cls):
        names[f"_set_{field.name}"] = cls.__dict__[field.name].__set__
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            names[f"_default_{field.name}"] = field.default
            params.append(f"{field.name}=_default_{field.name}")
        body.append(f"    _set_{field.name}(self, {field.name})\n")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    init = _compile("__init__", f"def __init__(self, {', '.join(params)}) -> None:\n{''.join(body)}", names)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    setattr(cls, "__init__", init)  # noqa: B010 (a class's method replaced, as dataclasses does)
    return cls


def maker(cls: type[T]) -> Callable[..., T]:
    """A private constructor of the frozen, slotted dataclass `cls`: every field, positionally, in order; no defaults, no checks."""
    fields = [field.name for field in _fields(cls)]
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} checks its fields in __post_init__; build it through its constructor")
    twin = type(f"_Open{cls.__name__}", (), {"__slots__": cls.__slots__, "__module__": cls.__module__})  # type: ignore[attr-defined]
    body = "".join(f"    self.{name} = {name}\n" for name in fields)
    source = f"def make({', '.join(fields)}):\n    self = _new(_twin)\n{body}    self.__class__ = _cls\n    return self\n"
    make = _compile("make", source, {"_new": object.__new__, "_twin": twin, "_cls": cls})
    make.__qualname__ = make.__name__ = f"make_{cls.__name__}"
    make.__module__ = cls.__module__
    return make


_MADE = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")
_OWN = (*_MADE, "__post_init__")


def _plain(cls: type) -> bool:
    """Whether `frozen_value` makes `cls` itself: fields with plain defaults only (no field()), no dataclass base, none of its methods."""
    if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]):
        return False
    if any(name in cls.__dict__ for name in _OWN if name != "__post_init__"):
        return False
    return not any(isinstance(default, dataclasses.Field) for default in vars(cls).values())


def _init(cls: type, fields: list[dataclasses.Field[Any]]) -> Callable[..., None]:
    """The ``__init__`` of `cls` with the fields' parameters and defaults, compiled: it writes each slot through its
    descriptor (a plain class: through object.__setattr__, as a frozen dataclass does), then runs ``__post_init__``."""
    slotted = "__slots__" in cls.__dict__
    scope: dict[str, Any] = {"_set": object.__setattr__}
    params, body = [], []
    for field in fields:
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            scope[f"_default_{field.name}"] = field.default
            params.append(f"{field.name}=_default_{field.name}")
        if slotted:
            scope[f"_set_{field.name}"] = cls.__dict__[field.name].__set__
            body.append(f"    _set_{field.name}(self, {field.name})\n")
        else:
            body.append(f"    _set(self, {field.name!r}, {field.name})\n")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    init = _compile("__init__", f"def __init__(self, {', '.join(params)}):\n{''.join(body) or '    pass'}\n", scope)
    init.__annotations__ = {f.name: f.type for f in fields} | {"return": None}
    return init


def _methods(cls: type, names: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
    """``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and ``__delattr__`` of the frozen value `cls`, as
    ``@dataclass(frozen=True)`` writes them, made without compiling anything: one attrgetter reads the fields as a tuple."""
    get = operator.attrgetter(*names) if len(names) > 1 else (lambda self: (getattr(self, names[0]),)) if names else (lambda self: ())

    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in names)})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(get(self) == get(other))
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(get(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    return {"__repr__": __repr__, "__eq__": __eq__, "__hash__": __hash__, "__setattr__": __setattr__, "__delattr__": __delattr__}


def _made(cls: type[T]) -> type[T]:
    """The dataclass `cls` (already made with init, repr and eq off, not frozen) given __init__, __repr__, __eq__, __hash__,
    __setattr__ and __delattr__ that behave as ``@dataclass(frozen=True)`` writes them: the frozen value."""
    fields = list(dataclasses.fields(cls))  # type: ignore[arg-type]
    methods = {"__init__": _init(cls, fields), **_methods(cls, tuple(f.name for f in fields))}
    for name, method in methods.items():
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        method.__module__ = cls.__module__
        setattr(cls, name, method)
    if "__slots__" in cls.__dict__:  # as dataclasses gives a frozen slotted class, so that copy and pickle can fill it in
        setattr(cls, "__getstate__", _getstate)  # noqa: B010 (methods set on a class, as dataclasses does)
        setattr(cls, "__setstate__", _setstate)  # noqa: B010
    setattr(cls, "_fast_init", True)  # noqa: B010 (its __init__ already writes the slots directly: fast_init has nothing to do)
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    params.init = params.repr = params.eq = params.frozen = True  # what it is now, as dataclasses reads it (a frozen base)
    return cls


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for field, item in zip(dataclasses.fields(self), state, strict=True):
        object.__setattr__(self, field.name, item)


@overload
def frozen_value(cls: type[T], /) -> type[T]: ...
@overload
def frozen_value(*, slots: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen_value(cls: type[T] | None = None, /, *, slots: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """``@dataclass(frozen=True, slots=slots)``, the same frozen value (fields, equality, hash, repr, replace), made cheaper.

    A class with a field(), a dataclass base or a method of its own among those generated is made by dataclasses itself.
    """

    def make(cls: type[T]) -> type[T]:
        if not _plain(cls):
            return dataclasses.dataclass(frozen=True, slots=slots)(cls)
        return _made(dataclasses.dataclass(init=False, repr=False, eq=False, slots=slots)(cls))

    return make if cls is None else make(cls)
