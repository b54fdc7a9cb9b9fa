"""Computer players. A bot sees only a PlayerView and answers one move at a time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from engine.moves import Move
from engine.state import PlayerView


class Bot(Protocol):
    """A player that chooses a legal move from its own view.

    A bot may also choose from ranks (``choose_ranks``, :data:`engine.core.RankChooser`): then
    :func:`engine.play.play_game` plays its games on ranks, the same games at a fraction of the cost.
    """

    name: str

    def choose(self, view: PlayerView) -> Move:
        """The bot's next move; always legal in `view`."""
        ...


def make_bot(name: str, seed: int = 0, think: float | None = None) -> Bot:
    """The bot called `name` (one of :data:`BOT_NAMES`), seeded with `seed`.

    `think` is the searching levels' wall-clock guard on one plan (None: their default), which their work budget
    reaches first on an ordinary machine: the same seed plays the same moves at any load. ``bfs`` is a yardstick
    (a breadth-first-search bot of the kind open-source games ship); ``expert-peek`` is the expert of a modified
    client that knows its own face-down pay-off pile, which only the arena can hand it (README, G5); ``expert-1`` is the
    expert as it played until 6 December 2026, the yardstick of a stronger one.
    """
    from engine.bots.bfs import BfsBot
    from engine.bots.expert import DEFAULT_THINK, LEVELS, ExpertBot, PeekingExpertBot
    from engine.bots.greedy import GreedyBot
    from engine.bots.random import RandomBot

    if name in LEVELS:  # normal, expert and expert-1: one searching bot at its level's budgets and weights
        return ExpertBot(seed, level=name, think=DEFAULT_THINK if think is None else think)
    if name == "expert-peek":
        return PeekingExpertBot(seed, think=DEFAULT_THINK if think is None else think)
    makers: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "easy": GreedyBot, "bfs": BfsBot}
    try:
        maker = makers[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known: {', '.join(BOT_NAMES)}") from None
    return maker(seed)


BOT_NAMES = ("random", "greedy", "easy", "normal", "expert", "bfs", "expert-peek", "expert-1")
