"""Cheaper construction of the project's dataclasses; the classes made are the same dataclasses.

:func:`frozen_value` (``@dataclass(frozen=True, slots=..., order=...)``) and :func:`mutable_value` (``@dataclass(slots=...)``)
make the ~80 value types every command imports at a small part of dataclasses' import cost (~0.7 ms a class in a
fresh process, most of it compiling methods one at a time; ~30 µs here): the fields are found and checked as
dataclasses finds them, as the same ``Field`` objects (so ``fields``, ``replace``, ``asdict`` and subclasses by
dataclasses work); equality, hash, order and repr read the fields through one ``operator.attrgetter``; the frozen
``__setattr__`` and ``__delattr__`` are closures; and ``__init__``, the one method that must be compiled, is compiled
only once a class has been constructed :data:`EARLY_CALLS` times (or its signature is asked for), so a command pays
only for the classes it builds often. A class with more for dataclasses to do (a
dataclass base, InitVar, KW_ONLY, a method of its own that dataclasses would refuse to replace) is made by dataclasses.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, which looks the field up by
name every time. :func:`fast_init` gives a class an ``__init__`` with the same parameters that writes the slots
through their descriptors instead (about half the cost, or less), as the values made here have already. :func:`maker`
goes further for the engine's hot paths (a new state, player and view per move): it fills an open twin of the class,
a plain class with the very same slots, by ordinary assignment, then turns it into the frozen class (about a third of
the cost of stock construction for a 9-field GameState, a fifth for a 14-field PlayerView). No caller ever holds the twin.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import operator
from collections.abc import Callable
from dataclasses import MISSING
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


_GENERATED_ORDER = ("__lt__", "__le__", "__gt__", "__ge__")
_FACTORY = type("_Factory", (), {"__repr__": lambda self: "<factory>", "__slots__": ()})()  # a default the field's factory makes


_FIELD = dataclasses._FIELD  # type: ignore[attr-defined]  # the mark dataclasses.fields() looks for on a field
_OPTIONS = {"init": True, "repr": True, "eq": True, "unsafe_hash": False, "match_args": True, "kw_only": False, "weakref_slot": False}


@functools.cache
def _params(frozen: bool, order: bool, slots: bool) -> Any:
    """The ``__dataclass_params__`` dataclasses gives a class made with these options (one, shared by every such class);
    built as dataclasses builds it, without making a class for it (the first dataclasses makes costs ~0.6 ms)."""
    kind = dataclasses._DataclassParams  # type: ignore[attr-defined]
    params = object.__new__(kind)
    options = {**_OPTIONS, "frozen": frozen, "order": order, "slots": slots}
    for name in kind.__slots__:  # Python 3.11 has the first six; 3.12 adds match_args, kw_only, slots, weakref_slot
        setattr(params, name, options[name])
    return params


def _kind(annotation: object) -> str | None:
    """The typing or dataclasses marker a text annotation starts with (``ClassVar``, ``InitVar``, ``KW_ONLY``), or None;
    "?" for an annotation that is not text (a module without ``from __future__ import annotations``)."""
    if not isinstance(annotation, str):
        return "?"
    head = annotation.split("[", 1)[0].strip().rpartition(".")[2]
    return head if head in ("ClassVar", "InitVar", "KW_ONLY") else None


def _value_fields(cls: type) -> dict[str, dataclasses.Field[Any]] | None:
    """The fields of `cls` as dataclasses would find them (named, typed, marked), checked as it checks them; None where
    only dataclasses can make the class (an annotation that is not text, InitVar, KW_ONLY, a keyword-only field)."""
    own = cls.__dict__
    fields: dict[str, dataclasses.Field[Any]] = {}
    defaulted = False
    for name, annotation in own.get("__annotations__", {}).items():
        kind = _kind(annotation)
        if kind == "ClassVar":
            continue
        if kind is not None:
            return None
        default = own.get(name, MISSING)
        field: dataclasses.Field[Any] = default if isinstance(default, dataclasses.Field) else dataclasses.field(default=default)
        if field.kw_only is True:
            return None
        if field.default is not MISSING and type(field.default).__hash__ is None:
            raise ValueError(f"mutable default {type(field.default)} for field {name} is not allowed: use default_factory")
        field.name, field.type, field._field_type = name, annotation, _FIELD  # type: ignore[attr-defined]
        if field.init:
            has_default = field.default is not MISSING or field.default_factory is not MISSING
            if defaulted and not has_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
            defaulted = defaulted or has_default
        fields[name] = field
    return fields


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function reading the fields `names` of a value as one tuple."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        name = names[0]
        return lambda self: (getattr(self, name),)
    return lambda self: ()


def _compile_init(cls: type, fields: dict[str, dataclasses.Field[Any]], frozen: bool) -> Callable[..., None]:
    """The ``__init__`` dataclasses would write for `cls`: the init fields' parameters and defaults, each field set
    (through its slot's descriptor, or object.__setattr__ where frozen), then ``__post_init__``."""
    slotted = "__slots__" in cls.__dict__
    scope: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    params: list[str] = []
    body: list[str] = []
    for name, field in fields.items():
        if field.default_factory is not MISSING:
            scope[f"_make_{name}"] = field.default_factory
            value = f"_make_{name}() if {name} is _FACTORY else {name}" if field.init else f"_make_{name}()"
        elif field.init:
            value = name
        else:
            if field.default is MISSING:
                continue  # dataclasses leaves such a field unset too
            scope[f"_default_{name}"] = field.default
            value = f"_default_{name}"
        if field.init:
            if field.default_factory is not MISSING:
                params.append(f"{name}=_FACTORY")
            elif field.default is not MISSING:
                scope[f"_default_{name}"] = field.default
                params.append(f"{name}=_default_{name}")
            else:
                params.append(name)
        if slotted:
            scope[f"_set_{name}"] = cls.__dict__[name].__set__
            body.append(f"    _set_{name}(self, {value})\n")
        elif frozen:
            body.append(f"    _set(self, {name!r}, {value})\n")
        else:
            body.append(f"    self.{name} = {value}\n")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()\n")
    init = _compile("__init__", f"def __init__(self, {', '.join(params)}):\n{''.join(body) or '    pass'}\n", scope)
    init.__annotations__ = {name: field.type for name, field in fields.items() if field.init} | {"return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


EARLY_CALLS = 8
"""Constructions of a value before its ``__init__`` is compiled (~0.1 ms): most classes a command imports are built a
few times or never; the engine's hot ones, thousands of times."""


def _early_init(cls: type, fields: dict[str, dataclasses.Field[Any]], frozen: bool) -> Callable[..., None]:
    """An ``__init__`` for `cls` that binds its arguments itself, as the compiled one would (same parameters, defaults,
    factories, errors, ``__post_init__``), without compiling anything, at ~8 times the compiled one's cost a call (1.9 µs
    against 0.25 µs for three fields)."""
    slotted = "__slots__" in cls.__dict__
    names = tuple(name for name, field in fields.items() if field.init)
    known = frozenset(names)
    setters = {name: (cls.__dict__[name].__set__ if slotted else None) for name in fields}
    owner = f"{cls.__qualname__}.__init__()"
    required = tuple(name for name in names if fields[name].default is MISSING and fields[name].default_factory is MISSING)
    post_init = hasattr(cls, "__post_init__")

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{owner} takes {len(names) + 1} positional arguments but {len(args) + 1} were given")
        given = dict(zip(names, args, strict=False))  # fewer arguments than names: the rest by keyword or default
        for name, item in kwargs.items():
            if name not in known:
                raise TypeError(f"{owner} got an unexpected keyword argument {name!r}")
            if name in given:
                raise TypeError(f"{owner} got multiple values for argument {name!r}")
            given[name] = item
        missing = [name for name in required if name not in given]
        if missing:
            quoted = [repr(name) for name in missing]
            listed = " and ".join(quoted) if len(quoted) < 3 else ", ".join(quoted[:-1]) + ", and " + quoted[-1]  # as Python says it
            raise TypeError(f"{owner} missing {len(missing)} required positional argument{'s' if len(missing) > 1 else ''}: {listed}")
        for name, field in fields.items():
            if name in given:
                item = given[name]
            elif field.default_factory is not MISSING:
                item = field.default_factory()
            elif field.default is not MISSING:
                item = field.default
            else:
                continue  # an init=False field without a default: dataclasses leaves it unset too
            setter = setters[name]
            if setter is not None:
                setter(self, item)
            elif frozen:
                object.__setattr__(self, name, item)
            else:
                setattr(self, name, item)
        if post_init:
            self.__post_init__()

    return init


class _Signature:
    """``__signature__`` of a value whose ``__init__`` is compiled on first use: compiles it, for inspect.signature."""

    def __init__(self, cls: type, init: Callable[[], Callable[..., None]]) -> None:
        self.cls, self.init = cls, init

    def __get__(self, obj: object, owner: type) -> inspect.Signature:
        if obj is not None or owner.__init__ is not self.cls.__dict__["__init__"]:  # type: ignore[misc]
            raise AttributeError("__signature__")  # an instance, or a subclass with an __init__ of its own: inspect looks on
        sig = inspect.signature(self.init())
        return sig.replace(parameters=tuple(sig.parameters.values())[1:])


def _methods(cls: type, fields: dict[str, dataclasses.Field[Any]], frozen: bool, order: bool) -> dict[str, Any]:
    """The methods dataclasses would add to `cls` (none it defines itself), made without compiling anything: the fields
    read as a tuple through one attrgetter; ``__init__`` compiled only when first called (or its signature asked for)."""
    own = cls.__dict__
    compared = _getter(tuple(name for name, f in fields.items() if f.compare))
    hashed = _getter(tuple(name for name, f in fields.items() if (f.compare if f.hash is None else f.hash)))
    shown = tuple(name for name, f in fields.items() if f.repr)
    made: dict[str, Any] = {}

    def compiled() -> Callable[..., None]:
        init = own.get("__init__")
        if init is stub or init is None:
            init = _compile_init(cls, fields, frozen)
            setattr(cls, "__init__", init)  # noqa: B010 (the stub replaces itself)
        return init

    early = _early_init(cls, fields, frozen)
    calls = [0]

    def stub(self: Any, *args: Any, **kwargs: Any) -> None:
        calls[0] += 1
        if calls[0] <= EARLY_CALLS:
            early(self, *args, **kwargs)
        else:
            compiled()(self, *args, **kwargs)

    if "__init__" not in own:
        made["__init__"] = stub
        made["__signature__"] = _Signature(cls, compiled)
    if "__repr__" not in own:

        def __repr__(self: Any) -> str:
            return f"{self.__class__.__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in shown)})"

        made["__repr__"] = __repr__
    if "__eq__" not in own:

        def __eq__(self: Any, other: object) -> bool:
            if other.__class__ is self.__class__:
                return bool(compared(self) == compared(other))
            return NotImplemented

        made["__eq__"] = __eq__
    if not ("__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)):  # no __hash__ of its own

        def __hash__(self: Any) -> int:
            return hash(hashed(self))

        made["__hash__"] = __hash__ if frozen else None
    if order:
        for name, test in zip(_GENERATED_ORDER, (operator.lt, operator.le, operator.gt, operator.ge), strict=True):
            made[name] = _comparison(test, compared)
    if frozen:
        names = frozenset(fields)

        def __setattr__(self: Any, name: str, value: Any) -> None:
            if type(self) is cls or name in names:
                raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
            super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

        def __delattr__(self: Any, name: str) -> None:
            if type(self) is cls or name in names:
                raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
            super(cls, self).__delattr__(name)  # type: ignore[arg-type]

        made["__setattr__"], made["__delattr__"] = __setattr__, __delattr__
        if "__slots__" in own and "__getstate__" not in own:  # as dataclasses gives a frozen slotted class (copy, pickle)
            made["__getstate__"], made["__setstate__"] = _getstate, _setstate
    if "__match_args__" not in own:
        made["__match_args__"] = tuple(name for name, f in fields.items() if f.init)
    if "__replace__" not in own:
        made["__replace__"] = _replace
    return made


def _comparison(test: Callable[[Any, Any], bool], compared: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], bool]:
    def compare(self: Any, other: object) -> bool:
        if other.__class__ is self.__class__:
            return test(compared(self), compared(other))
        return NotImplemented

    return compare


def _replace(self: Any, /, **changes: Any) -> Any:
    """``copy.replace`` of a value (Python 3.13), as dataclasses gives one: :func:`dataclasses.replace`."""
    return dataclasses.replace(self, **changes)


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for field, item in zip(dataclasses.fields(self), state, strict=True):
        object.__setattr__(self, field.name, item)


def _value(cls: type[T], frozen: bool, slots: bool, order: bool) -> type[T]:
    """`cls` made the dataclass ``@dataclass(frozen=frozen, slots=slots, order=order)`` makes, at a small part of the
    cost, or made by dataclasses itself where it has more to do (a dataclass base, InitVar, KW_ONLY, a method of the
    class's own that dataclasses would refuse to replace)."""
    own = cls.__dict__
    by_dataclasses = (
        any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:])
        or (frozen and ("__setattr__" in own or "__delattr__" in own))
        or (order and any(name in own for name in _GENERATED_ORDER))
    )
    fields = None if by_dataclasses else _value_fields(cls)
    if fields is None:
        return dataclasses.dataclass(frozen=frozen, slots=slots, order=order)(cls)
    if slots:
        body = {name: value for name, value in own.items() if name not in fields and name not in ("__dict__", "__weakref__")}
        body["__slots__"] = tuple(fields)
        qualname = cls.__qualname__
        cls = type(cls)(cls.__name__, cls.__bases__, body)  # type: ignore[misc]
        cls.__qualname__ = qualname
    else:
        for name, field in fields.items():  # as dataclasses leaves them: a field() gives way to its default, if any
            if isinstance(own.get(name), dataclasses.Field):
                if field.default is MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, field.default)
    for name, method in _methods(cls, fields, frozen, order).items():
        if callable(method) and method not in (_replace, _getstate, _setstate) and not isinstance(method, _Signature):
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            method.__module__ = cls.__module__
        setattr(cls, name, method)
    cls.__dataclass_fields__ = fields  # type: ignore[attr-defined]
    cls.__dataclass_params__ = _params(frozen, order, slots)  # type: ignore[attr-defined]
    cls._fast_init = True  # type: ignore[attr-defined]  # its __init__ writes the slots directly: fast_init has nothing to do
    return cls


@overload
def frozen_value(cls: type[T], /) -> type[T]: ...
@overload
def frozen_value(*, slots: bool = True, order: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen_value(cls: type[T] | None = None, /, *, slots: bool = True, order: bool = False) -> type[T] | Callable[[type[T]], type[T]]:
    """``@dataclass(frozen=True, slots=slots, order=order)``: the same frozen value (fields, equality, hash, order, repr,
    replace, pickling), made at a small part of the import cost."""

    def make(cls: type[T]) -> type[T]:
        return _value(cls, True, slots, order)

    return make if cls is None else make(cls)


@overload
def mutable_value(cls: type[T], /) -> type[T]: ...
@overload
def mutable_value(*, slots: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field,))
def mutable_value(cls: type[T] | None = None, /, *, slots: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """``@dataclass(slots=slots)``: the same changeable record (fields, equality, repr, replace), made at a small part of
    the import cost."""

    def make(cls: type[T]) -> type[T]:
        return _value(cls, False, slots, False)

    return make if cls is None else make(cls)
