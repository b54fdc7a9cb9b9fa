"""The rules of Spite & Malice (RULES.md): pure, deterministic, no I/O and no crypto."""

from engine.cards import Card
from engine.dealer import Deal, Dealer, DealerError, Draw, LocalDealer
from engine.game import Match, apply, check_move, legal_moves, new_game
from engine.moves import IllegalMoveError, InvalidMoveError, Move, parse_turn
from engine.rules import G4A, Ruleset
from engine.state import GameState, OpponentView, Outcome, PlayerState, PlayerView, Pool, Reason

__all__ = [
    "G4A",
    "Card",
    "Deal",
    "Dealer",
    "DealerError",
    "Draw",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "LocalDealer",
    "Match",
    "Move",
    "OpponentView",
    "Outcome",
    "PlayerState",
    "PlayerView",
    "Pool",
    "Reason",
    "Ruleset",
    "apply",
    "check_move",
    "legal_moves",
    "new_game",
    "parse_turn",
]
