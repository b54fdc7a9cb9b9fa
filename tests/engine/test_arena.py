"""The arena: seeded bot-against-bot games, Wilson intervals, names of duplicate bots, results independent of jobs."""

from __future__ import annotations

import json

import pytest

from engine.arena import ArenaResult, GameResult, deal_of, play_arena_game, report, run_arena, seat_names, wilson


@pytest.mark.parametrize(
    ("wins", "n", "lo", "hi"),
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662), (700, 1000, 0.6710, 0.7274)],
)
def test_wilson_interval_on_known_numbers(wins: int, n: int, lo: float, hi: float) -> None:
    got = wilson(wins, n)
    assert got == pytest.approx((lo, hi), abs=5e-4)


def test_wilson_interval_of_no_games_is_everything() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_two_bots_of_one_level_get_distinct_names() -> None:
    assert seat_names("expert", "expert") == ("expert", "expert#2")
    assert seat_names("expert", "easy") == ("expert", "easy")
    result = report(run_arena("normal", "normal", 2))
    assert list(result["bots"]) == ["normal", "normal#2"]


def test_the_report_has_the_promised_shape_and_adds_up() -> None:
    result = report(run_arena("normal", "easy", 4, seed=3))
    assert json.loads(json.dumps(result)) == result
    assert set(result) == {"games", "ties", "bots", "mean_turns"}
    assert result["games"] == 4
    bots = result["bots"]
    assert list(bots) == ["normal", "easy"]
    for stats in bots.values():
        assert set(stats) == {"wins", "win_rate", "ci95", "think_median_s", "think_max_s", "decision_max_s"}
        assert 0.0 < stats["decision_max_s"] <= stats["think_max_s"]
        assert 0.0 <= stats["ci95"][0] <= stats["win_rate"] <= stats["ci95"][1] <= 1.0
        assert 0.0 <= stats["think_median_s"] <= stats["think_max_s"] < 5.0
    assert bots["normal"]["wins"] + bots["easy"]["wins"] + result["ties"] == 4
    assert result["mean_turns"] > 10


def test_report_counts_ties_apart_from_the_win_rate() -> None:
    games = (
        GameResult(0, 0, 50, ((0.01, 0.03), (0.02,)), (0.02, 0.01)),
        GameResult(1, None, 90, ((0.05,), (0.0,))),
        GameResult(2, 1, 70, ((0.02,), (0.01, 0.04))),
        GameResult(3, 0, 60, ((0.04,), ())),
    )
    result = report(ArenaResult(("expert", "easy"), games))
    assert result["ties"] == 1
    assert result["mean_turns"] == pytest.approx(67.5)
    assert result["bots"]["expert"]["wins"] == 2
    assert result["bots"]["expert"]["win_rate"] == pytest.approx(2 / 3)
    assert result["bots"]["expert"]["ci95"] == pytest.approx(list(wilson(2, 3)))
    assert result["bots"]["expert"]["think_median_s"] == pytest.approx(0.03)
    assert result["bots"]["expert"]["think_max_s"] == pytest.approx(0.05)
    assert result["bots"]["easy"]["think_median_s"] == pytest.approx(0.015)
    assert result["bots"]["expert"]["decision_max_s"] == pytest.approx(0.02)


def test_results_do_not_depend_on_the_number_of_jobs() -> None:
    one = run_arena("normal", "easy", 6, seed=11, jobs=1)
    two = run_arena("normal", "easy", 6, seed=11, jobs=2)
    assert [(g.number, g.winner, g.turns) for g in one.games] == [(g.number, g.winner, g.turns) for g in two.games]
    assert [len(g.think[0]) for g in one.games] == [len(g.think[0]) for g in two.games]


def test_progress_is_reported_after_every_game() -> None:
    calls: list[tuple[int, int]] = []
    run_arena("easy", "random", 3, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_each_deal_is_played_from_both_sides() -> None:
    assert [deal_of(5, n) for n in range(4)] == [("5:0", 0), ("5:0", 1), ("5:1", 0), ("5:1", 1)]
    first = play_arena_game(("easy", "easy"), seed=5, number=0)
    second = play_arena_game(("easy", "easy"), seed=5, number=1)
    # the seat that starts takes the first turn, so it has as many turns as the other or one more
    assert len(first.think[0]) >= len(first.think[1])
    assert len(second.think[1]) >= len(second.think[0])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="jobs"):
        run_arena("easy", "easy", 2, jobs=0)
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena("easy", "wizard", 1)
