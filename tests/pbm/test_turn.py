"""Typing a turn (pbm/turn.py): what a line means, completions, and taking moves back on a real file of the examples."""

from __future__ import annotations

import functools
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.moves import Move
from pbm import turn
from pbm.identity import load_or_create
from pbm.journal import Journal
from pbm.match import Opened, open_save

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def alice_to_play(tmp_path: Path) -> Iterator[tuple[Opened, functools.partial[Opened]]]:
    """Alice's turn 13 of the example match (hand 5c 5h 5s 9c Qs; c1 and c2 need a Queen), and a way to open it again."""
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
    assert any("end" in line for line in turn.HELP_LINES)


def test_completions_are_the_legal_moves_and_the_words(alice_to_play: tuple[Opened, object]) -> None:
    opened, _ = alice_to_play
    assert turn.complete(opened, "q-c") == ["Q-c1", "Q-c2"]  # case aside: the Queen fits c1 and c2, both at J
    assert turn.complete(opened, "9-s") == ["9-s1", "9-s2", "9-s3", "9-s4"]
    assert turn.complete(opened, "un") == ["undo"]
    assert turn.complete(opened, "p-") == []  # the pay-off 3 fits nowhere


def test_taking_back_replays_the_rest_of_the_turn(alice_to_play: tuple[Opened, functools.partial[Opened]]) -> None:
    opened, reopen = alice_to_play
    fresh = opened.view
    assert turn.play_line(opened, "Q-c1 9-s1") == 2  # Q completes c1; the discard ends the turn
    assert not opened.seat.my_turn and opened.view != fresh
    opened, move = turn.take_back(opened, reopen)
    assert move == Move.parse("9-s1") and opened.seat.my_turn and opened.seat.moves == [Move.parse("Q-c1")]
    opened, move = turn.take_back(opened, reopen)
    assert move == Move.parse("Q-c1") and opened.view == fresh
    with pytest.raises(turn.UndoError, match="nothing to take back"):
        turn.take_back(opened, reopen)


def test_a_pay_off_card_stays_played(alice_to_play: tuple[Opened, functools.partial[Opened]]) -> None:
    opened, reopen = alice_to_play
    opened.seat.moves.append(Move.parse("p-c3"))  # as if the pay-off card had been played: the next one is face up now
    with pytest.raises(turn.UndoError, match="p-c3 stays played: it turned up your next pay-off card"):
        turn.take_back(opened, reopen)
