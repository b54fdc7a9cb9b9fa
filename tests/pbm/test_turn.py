"""Typing a turn (pbm/client/turn.py): what a line means, completions, and taking moves back on a real file of the examples."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.cards import RANK_TEXT
from engine.game import legal_moves
from engine.moves import CENTER, HAND, IllegalMoveError, Move
from pbm.client import turn
from pbm.client.receive import Opened, open_save
from pbm.identity import load_or_create
from pbm.journal import Journal

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def alice_to_play(tmp_path: Path) -> Iterator[tuple[Opened, functools.partial[Opened]]]:
    """Alice's turn 13 of the example match (a King in her hand), and a way to open it again."""
    ex = Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))
    journal = Journal.open(ex / "keys" / "alice")
    reopen = functools.partial(open_save, ex / "saves" / "14-bob.toml", load_or_create(ex / "keys" / "alice"), journal)
    yield reopen(), reopen
    journal.close()


def test_words_and_answers() -> None:
    words = [turn.command(w) for w in ("q", "?", "Undo", " help ", "b", "7-c2")]
    assert words == [turn.QUIT, turn.MOVES, turn.UNDO, turn.HELP, turn.BOARD, None]
    assert turn.confirm_answer("") == turn.Confirm(write=True) and turn.confirm_answer("Y") == turn.Confirm(write=True)
    assert turn.confirm_answer("u") == turn.Confirm(undo=True) and turn.confirm_answer("q") == turn.Confirm(quit=True)
    assert turn.confirm_answer("maybe") is None
    assert any("end" in line for line in turn.help_lines())


def test_completions_are_the_legal_moves_and_the_words(alice_to_play: tuple[Opened, object]) -> None:
    opened, _ = alice_to_play
    legal = [str(m) for m in legal_moves(opened.view)]
    rank = RANK_TEXT[opened.view.hand[0].rank]
    assert turn.complete(opened, f"{rank}-s") == [f"{rank}-s{i}" for i in (1, 2, 3, 4)]  # any hand card onto any side stack
    king = [m for m in legal if m.startswith("K-c")]
    assert king and turn.complete(opened, "k-c") == king  # case aside
    assert turn.complete(opened, "un") == ["undo"]
    assert turn.complete(opened, "") == [*legal, "board", "help", "hint", "moves", "quit", "undo"]


def test_taking_back_replays_the_rest_of_the_turn(alice_to_play: tuple[Opened, functools.partial[Opened]]) -> None:
    opened, reopen = alice_to_play
    fresh = opened.view
    first = next(m for m in legal_moves(fresh) if m.source == HAND and m.target == CENTER)
    turn.play_line(opened, str(first))
    discard = next(m for m in legal_moves(opened.view) if m.is_discard)
    with pytest.raises(IllegalMoveError, match=f"{discard} {first}: your turn ended with {discard}, so these moves were not played"):
        turn.play_line(opened, f"{discard} {discard} {first}")  # the discard ends the turn: what follows is refused, not dropped
    assert opened.seat.moves == [first, discard]
    assert not opened.seat.my_turn and opened.view != fresh
    opened, move = turn.take_back(opened, reopen)
    assert move == discard and opened.seat.my_turn and opened.seat.moves == [first]
    opened, move = turn.take_back(opened, reopen)
    assert move == first and opened.view == fresh
    with pytest.raises(turn.UndoError, match="nothing to take back"):
        turn.take_back(opened, reopen)


def test_a_pay_off_card_stays_played(alice_to_play: tuple[Opened, functools.partial[Opened]]) -> None:
    opened, reopen = alice_to_play
    opened.seat.moves.append(Move.parse("p-c3"))  # as if the pay-off card had been played: the next one is face up now
    with pytest.raises(turn.UndoError, match="p-c3 stays played: it turned up your next pay-off card"):
        turn.take_back(opened, reopen)
