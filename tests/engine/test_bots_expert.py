"""The normal and expert bots: they see a view only, always move legally, replay with a seed, and play sensibly."""

from __future__ import annotations

import ast
import dataclasses
import random
import time
from pathlib import Path

import pytest

from engine.bots import BOT_NAMES, make_bot
from engine.bots.expert import LEVELS, ExpertBot
from engine.bots.greedy import GreedyBot
from engine.bots.sampling import determinize, unseen_cards
from engine.bots.search import Table, chain_chance, rank_counts, turn_lines
from engine.cards import Card
from engine.dealer import LocalDealer
from engine.game import apply, legal_moves, new_game
from engine.moves import Move
from engine.state import GameState, PlayerState, PlayerView
from tests.engine.craft import card, player, run, state

BOTS_DIR = Path(__file__).resolve().parents[2] / "engine" / "bots"


def _walk(obj: object, seen: set[int]) -> list[object]:
    """Every object reachable from `obj` through dataclass fields, tuples and lists."""
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    found = [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for field in dataclasses.fields(obj):
            found += _walk(getattr(obj, field.name), seen)
    elif isinstance(obj, tuple | list):
        for item in obj:
            found += _walk(item, seen)
    return found


def test_a_view_holds_no_path_to_the_state_or_the_dealer() -> None:
    dealer = LocalDealer(3)
    view = new_game(dealer).view(0)
    reachable = _walk(view, set())
    assert not any(isinstance(obj, GameState | PlayerState | LocalDealer) for obj in reachable)
    assert not hasattr(view, "__dict__")  # slots: nothing can be hung on a view
    hidden = set(dealer.stock) | set(dealer.facedown[0]) | set(dealer.facedown[1])
    assert not hidden & {obj for obj in reachable if isinstance(obj, Card)}


def test_only_the_determinization_module_builds_game_states_or_dealers() -> None:
    forbidden = {"GameState", "PlayerState", "LocalDealer", "apply", "new_game", "RankGame"}
    for path in BOTS_DIR.glob("*.py"):
        if path.name == "sampling.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                names = {alias.name for alias in node.names}
                assert not names & forbidden, f"{path.name} imports {names & forbidden}"


@pytest.mark.parametrize("level", ["normal", "expert"])
def test_the_bot_plays_from_a_bare_view(level: str) -> None:
    me = player("5h 8s Kd 2c 9h", top="7h", count=12)
    view = state(me, center=(run(1, 4), (), ())).view(0)
    move = make_bot(level, seed=1).choose(view)
    assert move in legal_moves(view)


def test_a_king_is_spent_between_cards_to_free_the_payoff_card() -> None:
    me = player("5h Kd 9s 9c Js", top="7h", count=12)
    view = state(me, center=(run(1, 4), (), ())).view(0)
    moves = _one_turn(ExpertBot(seed=0, level="normal"), state(me, center=(run(1, 4), (), ())))
    assert moves[:3] == ["5-c1", "K-c1", "p-c1"]
    assert [str(move) for move in ExpertBot(seed=0).plan(view)] == ["5-c1", "K-c1", "p-c1"]
    assert view.payoff_top == card("7h")


def test_no_king_is_spent_where_it_does_not_reach_the_payoff_card() -> None:
    table = Table((5, 13), ((), (), (), ()), 9, (4, 0, 0), True, 12)
    lines = turn_lines(table)
    assert not any(line.payoff for line in lines)
    assert all(line.kings == 0 for line in lines)


def test_the_bot_does_not_hand_the_opponent_its_payoff_card() -> None:
    # playing the 5 would make c1 need a 6: the opponent's pay-off top
    me = player("5h 9s 9c Js Qd", top="2h", count=12)
    them = player("", top="6d", count=10)
    s = state(me, them, center=(run(1, 4), run(1, 9), run(1, 10)))
    greedy_move = GreedyBot().choose(s.view(0))
    assert str(greedy_move) == "5-c1"
    turn = _one_turn(make_bot("expert", seed=2), s)  # blocking is the expert's: normal leaves it out by design
    assert "5-c1" not in turn and turn[-1].endswith(("s1", "s2", "s3", "s4"))


def _one_turn(bot: object, s: GameState) -> list[str]:
    """The moves `bot` makes in the turn of the player to move in `s`."""
    dealer = LocalDealer.holding([card("2d'")] * 10, ([card("2d'")] * 20, [card("2d'")] * 20))
    moves: list[str] = []
    turn = s.turn
    while s.turn == turn and s.outcome is None:
        move = bot.choose(s.view(s.to_move))  # type: ignore[attr-defined]
        moves.append(str(move))
        s = apply(s, move, dealer)
    return moves


def test_discards_build_side_stacks_downward() -> None:
    me = player("7h 2c 2d 3s 3h", top="Qh", count=12, side=("8s", "Js", "10d", "9h"))
    s = state(me, center=(run(1, 4), run(1, 4), run(1, 5)))
    for level in ("normal", "expert"):
        assert str(make_bot(level).choose(s.view(0))) == "7-s1"


def test_a_chain_of_plays_runs_through_the_queen_to_the_ace() -> None:
    # a stack at the Ten needs a Jack and a Queen, which completes it, before an Ace starts it again
    tops, none = rank_counts([11, 12]), rank_counts([])
    assert chain_chance(10, 1, 12, tops, none, 0, none) == 1.0
    assert chain_chance(10, 1, 12, rank_counts([11, 1]), none, 0, none) == 0.0
    assert chain_chance(10, 2, 12, tops, none, 0, rank_counts([1])) == 1.0


def _decisions(levels: tuple[str, str], games: int, think: float, max_moves: int = 400) -> list[tuple[PlayerView, Move]]:
    """Seeded games between bots of `levels`, each cut at `max_moves`; every (view, move) of seat 0."""
    out = []
    for g in range(games):
        dealer = LocalDealer(1000 + g)
        s = new_game(dealer, starter=g % 2)
        bots = (make_bot(levels[0], seed=g, think=think), make_bot(levels[1], seed=g + 1, think=think))
        for _ in range(max_moves):
            if s.outcome is not None:
                break
            view = s.view(s.to_move)
            move = bots[s.to_move].choose(view)
            if s.to_move == 0:
                out.append((view, move))
            s = apply(s, move, dealer)
    return out


@pytest.mark.parametrize(
    ("levels", "games"),
    [(("easy", "random"), 6), (("normal", "random"), 4), (("normal", "greedy"), 3), (("expert", "normal"), 3), (("expert", "random"), 4)],
)
def test_every_move_is_legal_in_hundreds_of_positions(levels: tuple[str, str], games: int) -> None:
    decisions = _decisions(levels, games, think=0.01)
    assert len(decisions) >= 150
    for view, move in decisions:
        assert move in legal_moves(view), f"{move} is not legal"


def test_the_same_seed_plays_the_same_moves() -> None:
    first = [str(move) for _, move in _decisions(("expert", "expert"), 1, think=5.0, max_moves=40)]
    again = [str(move) for _, move in _decisions(("expert", "expert"), 1, think=5.0, max_moves=40)]
    assert first == again


def test_a_bot_recovers_when_the_view_is_not_the_one_its_plan_expected() -> None:
    bot = make_bot("expert", seed=4)
    me = player("5h Kd 9s 9c Js", top="7h", count=12)
    first = state(me, center=(run(1, 4), (), ())).view(0)
    assert str(bot.choose(first)) == "5-c1"
    other = state(player("2h 3h 9s 9c Js", top="Qh", count=12), center=(run(1, 1), (), ())).view(0)
    assert bot.choose(other) in legal_moves(other)


def test_the_determinized_game_matches_the_view_and_holds_every_card_once() -> None:
    dealer = LocalDealer(7)
    s = new_game(dealer)
    rng = random.Random(0)
    bots = (GreedyBot(), GreedyBot())
    for _ in range(60):
        s = apply(s, bots[s.to_move].choose(s.view(s.to_move)), dealer)
    view = s.view(s.to_move)
    unseen = unseen_cards(view)
    guess, guessed_dealer = determinize(view, unseen, rng, old_pools=0)
    assert guess.view(view.player) == view
    mine = guess.players[view.player]
    theirs = guess.players[1 - view.player]
    everything = [*mine.hand, *theirs.hand, *guessed_dealer.stock, *guessed_dealer.facedown[0], *guessed_dealer.facedown[1]]
    for who in (mine, theirs):
        everything += [card for pile in who.side for card in pile] + ([who.payoff_top] if who.payoff_top else [])
    everything += [card for pile in guess.center for card in pile] + list(view.shuffling_in)
    assert sorted(everything) == sorted(Card.from_index(i) for i in range(104))
    real_opponent_hand = set(s.players[1 - view.player].hand)
    assert set(theirs.hand) <= set(unseen) and len(theirs.hand) == len(real_opponent_hand)


def test_the_levels_are_named() -> None:
    assert {"random", "greedy", "easy", "normal", "expert", "expert-1"} <= set(BOT_NAMES)
    assert isinstance(make_bot("easy"), GreedyBot)
    yardstick = make_bot("expert-1")
    assert isinstance(yardstick, ExpertBot) and yardstick.name == "expert-1"
    # the yardstick is the expert it replaced: the same budgets, its own weights (its games: test_same_games.py)
    assert dataclasses.replace(LEVELS["expert-1"], name="expert", weights=LEVELS["expert"].weights) == LEVELS["expert"]
    assert LEVELS["expert-1"].weights != LEVELS["expert"].weights
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster")


@pytest.mark.slow
def test_expert_beats_easy_most_of_the_time() -> None:
    from engine.arena import report, run_arena

    result = report(run_arena("expert", "easy", 40))
    assert result["bots"]["expert"]["win_rate"] >= 0.7


def test_the_think_cap_bounds_a_plan() -> None:
    dealer = LocalDealer(21)
    s = new_game(dealer)
    bots = (GreedyBot(), GreedyBot())
    for _ in range(40):
        s = apply(s, bots[s.to_move].choose(s.view(s.to_move)), dealer)
    slowest = 0.0
    bot = ExpertBot(seed=3, think=0.001)
    for _ in range(20):  # the rest of this turn and the next ones, as the expert
        view = s.view(s.to_move)
        start = time.perf_counter()
        move = bot.choose(view)
        slowest = max(slowest, time.perf_counter() - start)
        s = apply(s, move, dealer)
    assert slowest < 0.5
    with pytest.raises(ValueError, match="think"):
        ExpertBot(think=0)
