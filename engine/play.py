"""Whole games between bots: the loop behind self-play, benchmarks and tests."""

from __future__ import annotations

from engine._frozen import frozen_value
from engine.bots import Bot
from engine.core import RankChooser, RankGame
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
    """Play one game to its end; each bot sees only its own view.

    Where both bots choose from ranks too (``choose_ranks``, engine.core.RankChooser) and the dealer is a local one, the
    game is played on ranks (engine.core): the same game, move for move, at a fraction of the cost.
    """
    rank_bots = [getattr(bot, "choose_ranks", None) for bot in bots]
    if type(dealer) is LocalDealer and rank_bots[0] is not None and rank_bots[1] is not None:
        return _play_on_ranks((rank_bots[0], rank_bots[1]), dealer, ruleset, starter, max_moves)
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


def _play_on_ranks(
    bots: tuple[RankChooser, RankChooser], dealer: LocalDealer, ruleset: Ruleset, starter: int, max_moves: int
) -> PlayedGame:
    """:func:`play_game` on ranks: each bot is shown its own cards only (its hand, side stacks and pay-off top)."""
    game = RankGame.deal(dealer, ruleset, starter)
    moves: list[Move] = []
    play, record = game.play, moves.append
    hands, piles, sides, lengths, king_starts = game.hands, game.piles, game.sides, game.lengths, game.king_starts
    for _ in range(max_moves):
        if game.outcome is not None:
            break
        p = game.to_move
        pile = piles[p]
        move = bots[p](lengths, pile[-1] if pile else None, sides[p], hands[p], king_starts)
        play(move)
        record(move)
    if game.outcome is None:
        raise RuntimeError(f"no end after {max_moves} moves")
    return PlayedGame(game.outcome, game.turn - (game.outcome.winner is None), tuple(moves))
