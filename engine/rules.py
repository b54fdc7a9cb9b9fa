"""The ruleset: every number of the game, with ``g4a`` as the default (RULES.md)."""

from __future__ import annotations

from engine._frozen import frozen_value
from engine.cards import QUEEN


@frozen_value
class Ruleset:
    """All the numbers of a game of Spite & Malice; ``G4A`` is the one the project plays."""

    name: str = "g4a"
    decks: int = 2
    payoff_size: int = 20
    hand_size: int = 5
    side_stacks: int = 4
    center_stacks: int = 3
    target_score: int = 50
    king_starts_center: bool = True

    def __post_init__(self) -> None:
        if self.decks < 1 or self.hand_size < 1 or self.payoff_size < 1:
            raise ValueError("a ruleset needs at least one deck, one hand card and one pay-off card")
        if not 1 <= self.side_stacks <= 9 or not 1 <= self.center_stacks <= 9:
            raise ValueError("side and center stacks are numbered 1 to 9")
        if self.target_score < 1:
            raise ValueError("the target score must be at least 1")
        if 2 * (self.payoff_size + self.hand_size) > self.deck_size:
            raise ValueError(f"{self.deck_size} cards cannot deal two pay-off piles and two hands")

    @property
    def deck_size(self) -> int:
        """How many physical cards the game uses."""
        return 52 * self.decks

    @property
    def complete_at(self) -> int:
        """A center stack with this many cards has reached Queen and is complete."""
        return QUEEN

    @property
    def stock_at_start(self) -> int:
        """Cards left in the stock right after the deal."""
        return self.deck_size - 2 * (self.payoff_size + self.hand_size)


G4A = Ruleset()
RULESETS: dict[str, Ruleset] = {"g4a": G4A}


def ruleset_named(name: str) -> Ruleset:
    """The ruleset called `name`; raises ``KeyError`` with the known names otherwise."""
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(RULESETS)}") from None
