"""A bot that plays a uniformly random legal move: the floor every other bot must beat."""

from __future__ import annotations

import random

from engine.game import legal_moves
from engine.moves import Move
from engine.state import PlayerView


class RandomBot:
    """Picks any legal move, seeded."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Move:
        return self._rng.choice(legal_moves(view))
