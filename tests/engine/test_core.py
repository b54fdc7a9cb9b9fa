"""The game on ranks (engine.core) is engine.game's rules, move for move: the same legal moves, the same tables, the same
draws and shuffles, the same refusals, and the same whole games where play_game takes it."""

from __future__ import annotations

import random

import pytest

from engine.bots.greedy import GreedyBot
from engine.bots.sampling import deal_ranks, determinize, unseen_cards
from engine.cards import Card
from engine.core import RankGame
from engine.dealer import LocalDealer, shuffle
from engine.game import apply, legal_moves, new_game
from engine.moves import IllegalMoveError, Move
from engine.play import play_game
from engine.rules import G4A, Ruleset
from engine.state import GameState, PlayerView
from tests.engine.test_properties import CANDIDATES

SMALL = Ruleset(name="small", payoff_size=5, decks=1, hand_size=4, side_stacks=3, center_stacks=2, king_starts_center=False)


class ViewOnly:
    """A greedy bot that chooses from views only: play_game keeps it on engine.game's frozen states."""

    name = "greedy-views"

    def choose(self, view: PlayerView) -> Move:
        return GreedyBot().choose(view)


def ranks(state: GameState) -> tuple[object, ...]:
    """Everything a game on ranks keeps of `state`: the ranks wherever they lie, the counts, the turn and the outcome."""

    def of(cards: tuple[Card, ...]) -> tuple[int, ...]:
        return tuple(card.rank for card in cards)

    players = tuple(
        (of(p.hand), p.payoff_top.rank if p.payoff_top else None, p.payoff_count, tuple(of(s) for s in p.side)) for p in state.players
    )
    pools = tuple((pool.turn, of(pool.cards)) for pool in state.pools)
    return (players, tuple(of(s) for s in state.center), state.stock_count, pools, state.to_move, state.turn, state.outcome)


def lists(game: RankGame) -> str:
    """Every list of `game`, and whose turn it is, as text."""
    assert game.lengths == [len(s) for s in game.center]
    return repr((game.hands, game.piles, game.sides, game.center, game.stock, game.pools, game.to_move, game.turn, game.outcome))


def refusal(play: object, move: Move) -> str | None:
    """The message with which `play(move)` refuses `move`, None where it takes it."""
    try:
        play(move)  # type: ignore[operator]
    except IllegalMoveError as error:
        return str(error)
    return None


@pytest.mark.parametrize("ruleset", [G4A, SMALL], ids=["g4a", "small"])
def test_every_move_is_legal_on_ranks_exactly_where_engine_game_allows_it_and_refused_with_its_message(ruleset: Ruleset) -> None:
    for g in range(3):
        dealer, twin = LocalDealer(f"core:{g}"), LocalDealer(f"core:{g}")
        state, game = new_game(dealer, ruleset, g % 2), RankGame.deal(twin, ruleset, g % 2)
        rng = random.Random(g)
        for n in range(3000):
            assert ranks(game.state()) == ranks(state) and game.lengths == [len(s) for s in game.center]
            if state.outcome is not None:
                break
            allowed = legal_moves(state)
            for move in CANDIDATES if n % 3 == 0 else ():  # every move the notation can write, at every third move
                trial = game.copy(random.Random(0).shuffle)
                before = lists(trial)
                said = refusal(trial.play, move)
                assert (said is None) == (move in allowed), move
                if said is not None:
                    assert said == refusal(lambda m, s=state, d=dealer: apply(s, m, d), move)  # the same words
                    assert lists(trial) == before  # refused: nothing changed
            move = rng.choice(allowed)
            state = apply(state, move, dealer)
            game.play(move)
        assert state.outcome is not None and game.outcome == state.outcome
        assert refusal(game.play, CANDIDATES[0]) == "the game is over"


@pytest.mark.parametrize("ruleset", [G4A, SMALL], ids=["g4a", "small"])
def test_play_game_on_ranks_plays_the_very_games_of_the_frozen_engine(ruleset: Ruleset) -> None:
    for g in range(40):
        fast = play_game((GreedyBot(), GreedyBot()), LocalDealer(f"ranks:{g}"), ruleset, starter=g % 2)
        frozen = play_game((ViewOnly(), ViewOnly()), LocalDealer(f"ranks:{g}"), ruleset, starter=g % 2)  # type: ignore[arg-type]
        assert fast == frozen


def test_a_sampled_deal_goes_on_with_its_own_shuffles_on_ranks_as_on_frozen_states() -> None:
    """The expert's rollouts: the game deal_ranks deals is determinize's, and played on ranks it draws and shuffles as
    on frozen states with LocalDealer.holding; the peeking expert's own pile too."""
    played = 0
    for g in range(8):
        dealer = LocalDealer(f"sampled:{g}")
        truth = new_game(dealer, starter=g % 2)
        for _ in range(25 + 9 * g):  # into the game, where stacks are completed and shuffled back
            truth = apply(truth, GreedyBot().choose(truth.view(truth.to_move)), dealer)
            if truth.outcome is not None:
                break
        if truth.outcome is not None:
            continue
        view = truth.view(truth.to_move)
        for own in (None, tuple(dealer.facedown[truth.to_move])):
            state, frozen_dealer = determinize(view, unseen_cards(view), random.Random(g), 1, own_pile=own)
            game, _ = deal_ranks(view, unseen_cards(view), random.Random(g), 1, own_pile=own)
            moves = 0
            while state.outcome is None:
                assert ranks(game.state()) == ranks(state)
                move = GreedyBot().choose(state.view(state.to_move))
                state = apply(state, move, frozen_dealer)
                game.play(move)
                moves += 1
            assert game.outcome == state.outcome and moves > 20
            played += 1
    assert played >= 8


def test_a_copy_is_a_game_of_its_own() -> None:
    game = RankGame.deal(LocalDealer(4), G4A)
    copy = game.copy(random.Random(1).shuffle)
    before = ranks(game.state())
    copy.play(GreedyBot().choose_ranks(copy.lengths, copy.piles[0][-1], copy.sides[0], copy.hands[0], copy.king_starts))
    assert ranks(game.state()) == before and ranks(copy.state()) != before


def test_the_engines_shuffle_is_the_generators_own_call_for_call() -> None:
    """engine.dealer.shuffle stands in for random.Random.shuffle in every dealer: the same order, the generator left alike."""
    for seed in range(200):
        for length in (0, 1, 2, 3, 17, 64, 104, 1500):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, other = list(range(length)), list(range(length))
            shuffle(ours, mine)
            theirs.shuffle(other)
            assert mine == other and ours.getstate() == theirs.getstate()
