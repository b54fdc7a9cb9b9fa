"""What the engine says to a player, kept as an English template and its values, so that the caller may say it in the
player's language: the engine itself knows no languages. ``str()`` of a :class:`Message` is the English sentence."""

from __future__ import annotations

from collections.abc import Mapping


def N_(template: str) -> str:
    """Marks `template` for the catalogue of translations (it is translated where it is shown, not here)."""
    return template


class Message:
    """A sentence for a player: an English `template` with ``{name}`` placeholders, and the values that fill them."""

    __slots__ = ("template", "values")

    def __init__(self, template: str, /, **values: object) -> None:
        self.template = template
        self.values: Mapping[str, object] = values

    def __str__(self) -> str:
        return self.template.format(**{name: str(value) for name, value in self.values.items()})

    def __repr__(self) -> str:
        args = "".join(f", {name}={value!r}" for name, value in self.values.items())
        return f"Message({self.template!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Message) and (self.template, dict(self.values)) == (other.template, dict(other.values))

    def __hash__(self) -> int:
        return hash(self.template)


class Plural(Message):
    """A sentence whose form depends on a number `n`: the English `template` for one, `plural` for any other; the
    caller's language picks its own form by its own rule. The number is one of the values, by the name the text uses."""

    __slots__ = ("n", "plural")

    def __init__(self, template: str, plural: str, n: int, /, **values: object) -> None:
        super().__init__(template, **values)
        self.plural = plural
        self.n = n

    def __str__(self) -> str:
        chosen = self.template if self.n == 1 else self.plural
        return chosen.format(**{name: str(value) for name, value in self.values.items()})

    def __repr__(self) -> str:
        args = "".join(f", {name}={value!r}" for name, value in self.values.items())
        return f"Plural({self.template!r}, {self.plural!r}, {self.n!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plural) and super().__eq__(other) and (self.plural, self.n) == (other.plural, other.n)

    def __hash__(self) -> int:
        return hash((self.template, self.plural))
