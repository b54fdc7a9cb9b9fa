"""A faster ``__init__`` for the engine's frozen, slotted dataclasses: same signature, same frozen values.

A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``, which looks the field up
by name every time; setting the slots through their descriptors instead costs about a fifth (see
``benchmarks/engine_speed.py``). Instances stay frozen: only ``__init__`` writes the slots.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass `cls` an ``__init__`` that writes its slots directly (same parameters and defaults)."""
    params: list[str] = []
    body: list[str] = []
    names: dict[str, Any] = {}
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: fast_init handles plain fields with plain defaults only")
        names[f"_set_{field.name}"] = cls.__dict__[field.name].__set__
        if field.default is dataclasses.MISSING:
            params.append(field.name)
        else:
            names[f"_default_{field.name}"] = field.default
            params.append(f"{field.name}=_default_{field.name}")
        body.append(f"_set_{field.name}(self, {field.name})")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}) -> None:\n    " + "\n    ".join(body) + "\n"
    exec(source, names)  # the way dataclasses itself writes __init__
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
    return cls
