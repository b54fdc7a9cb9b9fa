"""Typing a turn at the prompt: what a line asks for, completing a half-typed move, and taking moves back.

No terminal here: the CLI reads the lines, prints the answers and decides when to ask.
Nothing a player types is final before the file is written, so a move may be taken back, except
one that turned up a card the player had not seen (the next card of their pay-off pile).
"""

from __future__ import annotations

from collections.abc import Callable

from engine._frozen import frozen_value
from engine.game import legal_moves
from engine.moves import PAYOFF, IllegalMoveError, Move, parse_turn
from pbm.client.receive import Opened
from pbm.errors import SpiteError

QUIT, MOVES, HELP, HINT, UNDO, BOARD = "quit", "moves", "help", "hint", "undo", "board"
WORDS: dict[str, str] = {
    "q": QUIT,
    "quit": QUIT,
    "exit": QUIT,
    "?": MOVES,
    "moves": MOVES,
    "help": HELP,
    "h": HELP,
    "hint": HINT,
    "undo": UNDO,
    "u": UNDO,
    "board": BOARD,
    "b": BOARD,
}
HELP_LINES = (
    "Moves (several on a line are fine; suits are never needed):",
    "  p-c1    your pay-off card to center stack c1",
    "  7-c2    a 7 from your hand to c2 (A, 2-10, J, Q, K; T for 10)",
    "  s3-c1   the top card of your side stack s3 to c1",
    "  Q-s2    a Queen from your hand onto side stack s2: a discard, which ends your turn",
    "  end     ends your turn when your hand is empty",
    "Words:",
    "  ?       your legal moves now          hint   the computer's suggestion",
    "  undo    take back your last move      board  the board again",
    "  help    this help                     q      leave without writing anything",
    "Tab completes a move, the arrow keys edit the line and recall earlier ones.",
)


class UndoError(SpiteError):
    """A move that cannot be taken back, or nothing to take back."""


def command(text: str) -> str | None:
    """The word a line asks for (QUIT, MOVES, ...), or None if the line is moves."""
    return WORDS.get(text.strip().lower())


def candidates(opened: Opened) -> list[str]:
    """What may be typed now: the legal moves (``end`` among them when it is one) and the words."""
    state = opened.seat.state
    moves = [str(m) for m in legal_moves(state.view(opened.me))] if state is not None else []
    return moves + sorted({"undo", "hint", "help", "moves", "board", "quit"})


def complete(opened: Opened, word: str) -> list[str]:
    """The completions of a half-typed `word`, case aside: legal moves first, then words."""
    low = word.lower()
    return [c for c in candidates(opened) if c.lower().startswith(low)]


def play_line(opened: Opened, text: str) -> int:
    """Play the moves written on `text` in order until one is refused; returns how many were played.

    Raises InvalidMoveError or IllegalMoveError for the first move refused (the ones before it stay played), and
    IllegalMoveError for moves written after the one that ended the turn: they are never dropped without a word.
    """
    played = 0
    moves = parse_turn(text)
    for n, move in enumerate(moves):
        if not opened.seat.my_turn:
            after = " ".join(map(str, moves[n:]))
            ended = f"ended with {opened.seat.moves[-1]}" if opened.seat.moves else "is over"
            raise IllegalMoveError(f"{after}: your turn {ended}, so {'these moves were' if len(moves) - n > 1 else 'it was'} not played")
        opened.seat.play(move)
        played += 1
    return played


def take_back(opened: Opened, reopen: Callable[[], Opened]) -> tuple[Opened, Move]:
    """The turn without its last move: the file opened again and the other moves played again; returns it and the move.

    A pay-off card cannot be taken back: playing it turned up the next card of the pile.
    """
    played = list(opened.seat.moves)
    if not played:
        raise UndoError("nothing to take back: no move played yet this turn")
    last = played[-1]
    if last.source == PAYOFF:
        raise UndoError(f"{last} stays played: it turned up your next pay-off card")
    again = reopen()
    for move in played[:-1]:
        again.seat.play(move)
    return again, last


@frozen_value
class Confirm:
    """The answer to "write this turn?": write it, take back the discard, or leave."""

    write: bool = False
    undo: bool = False
    quit: bool = False


def confirm_answer(text: str) -> Confirm | None:
    """What an answer to the confirmation means; None when it means nothing (ask again)."""
    word = text.strip().lower()
    if word in ("", "y", "yes", "w", "write"):
        return Confirm(write=True)
    if word in ("n", "no", "u", "undo"):
        return Confirm(undo=True)
    if WORDS.get(word) == QUIT:
        return Confirm(quit=True)
    return None
