"""Whole games between bots: the loop behind self-play, benchmarks and tests."""

from __future__ import annotations

from engine._frozen import frozen_value
from engine.bots import Bot
from engine.dealer import Dealer, LocalDealer
from engine.game import apply, new_game
from engine.moves import Move
from engine.rules import G4A, Ruleset
from engine.state import Outcome


@frozen_value
class PlayedGame:
    """A finished game: its outcome, the number of turns played and every move in order."""

    outcome: Outcome
    turns: int
    moves: tuple[Move, ...]


def show_own_piles(bots: tuple[Bot, Bot], dealer: Dealer) -> None:
    """Hand each bot that reads its own face-down pay-off pile (``expert-peek``, README G5) that pile, from a local dealer."""
    if not isinstance(dealer, LocalDealer):
        return
    for seat, bot in enumerate(bots):
        see = getattr(bot, "see_own_pile", None)
        if see is not None:
            see(lambda seat=seat: dealer.facedown[seat])


def play_game(bots: tuple[Bot, Bot], dealer: Dealer, ruleset: Ruleset = G4A, starter: int = 0, max_moves: int = 100_000) -> PlayedGame:
    """Play one game to its end; each bot sees only its own view."""
    state = new_game(dealer, ruleset, starter)
    show_own_piles(bots, dealer)
    moves: list[Move] = []
    choose, play = (bots[0].choose, bots[1].choose), moves.append
    for _ in range(max_moves):
        if state.outcome is not None:
            break
        p = state.to_move
        move = choose[p](state.view(p))
        state = apply(state, move, dealer)
        play(move)
    if state.outcome is None:
        raise RuntimeError(f"no end after {max_moves} moves")
    return PlayedGame(state.outcome, state.turn - (state.outcome.winner is None), tuple(moves))
