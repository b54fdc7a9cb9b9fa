"""The engine plays the same games for the same seeds: every move and outcome of a fixed set of seeded games.

The expected digests were recorded from the engine before its hot paths were made faster; a change that
alters any move, draw, shuffle or outcome of these games changes a digest. The bots' games (normal, expert) were
recorded again when the bots' chain estimate was mended (a Queen, not an Ace, follows a Jack), and the expert's
once more when its rollouts came to play its own next turn by a search for the pay-off card, again when its
weights, static share and samples were tuned against bfs, and again when it came to spend hand cards before side cards
on the way to its pay-off card: ``expert-1``, the expert kept under a fixed name as the yardstick of a stronger one,
plays the games the expert played before that last change, move for move. The bfs games were
recorded from the breadth-first search before it was made faster: the faster one plays them move for move.
"""

from __future__ import annotations

import hashlib

import pytest

from engine.bots import make_bot
from engine.dealer import LocalDealer
from engine.play import play_game

# think caps far above what a plan needs, so the expert's sample budget, never the clock, ends its search
MATCHUPS: dict[tuple[str, str], tuple[int, float | None, str]] = {
    ("greedy", "greedy"): (40, None, "f10f9ddd30036cb60c79d775e818079eaed42ccefbdb106e2607dfe77c34440a"),
    ("random", "random"): (40, None, "64d67f645e6e8fe54c90ab27ac63b1226ee4cb0b6d64d0757e683af4f66238fd"),
    ("greedy", "random"): (40, None, "aeb8852e78fed33f37fd3ba0bb26a5be1c1418d02a3eeddf73cf715ca68b8572"),
    ("normal", "greedy"): (6, 30.0, "c3ab6d9c559ecd58d963e6ac02e5c0db3504b2cea8b2425c1dedbb5031178b70"),
    ("bfs", "greedy"): (20, None, "cb65738fe7366dacc3446b98ceb44a81e87b31a1b121c30ed928204ffd8605da"),  # before bfs was made faster
    ("expert", "normal"): (2, 30.0, "4cdf656c7156b86a11f774c9083cc4a49570194d2554833745d366a9145d484a"),
    ("expert-1", "normal"): (2, 30.0, "445c020b4322990f73f840d38a73941f04fb01188cb998597953751f70e469ec"),  # the expert's before
}


def games_digest(names: tuple[str, str], games: int, think: float | None) -> str:
    """A SHA-256 over every move, the turn count and the outcome of `games` seeded games between the bots `names`."""
    digest = hashlib.sha256()
    for g in range(games):
        bots = (make_bot(names[0], seed=2 * g, think=think), make_bot(names[1], seed=2 * g + 1, think=think))
        played = play_game(bots, LocalDealer(f"same-games:{g}"), starter=g % 2)
        out = played.outcome
        line = f"{g}|{' '.join(map(str, played.moves))}|{played.turns}|{out.reason.value}|{out.winner}|{out.points}\n"
        digest.update(line.encode())
    return digest.hexdigest()


@pytest.mark.parametrize("names", list(MATCHUPS), ids=lambda n: "-".join(n))
def test_seeded_games_are_the_games_recorded_before(names: tuple[str, str]) -> None:
    games, think, expected = MATCHUPS[names]
    assert games_digest(names, games, think) == expected
