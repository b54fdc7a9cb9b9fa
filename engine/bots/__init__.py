"""Computer players. A bot sees only a PlayerView and answers one move at a time."""

from __future__ import annotations

from typing import Protocol

from engine.moves import Move
from engine.state import PlayerView


class Bot(Protocol):
    """A player that chooses a legal move from its own view."""

    name: str

    def choose(self, view: PlayerView) -> Move:
        """The bot's next move; always legal in `view`."""
        ...


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called `name` (``random``, ``greedy``, …), seeded with `seed`."""
    from engine.bots.greedy import GreedyBot
    from engine.bots.random import RandomBot

    makers = {"random": RandomBot, "greedy": GreedyBot}
    try:
        maker = makers[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(sorted(makers))}") from None
    return maker(seed)


BOT_NAMES = ("random", "greedy")
