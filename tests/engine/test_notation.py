"""Card and move notation round-trip through text, and bad text raises the named errors."""

from __future__ import annotations

import pytest

from engine.cards import RANK_TEXT, SUIT_SYMBOLS, SUITS, Card, CardNotationError, full_deck
from engine.moves import END, HAND, InvalidMoveError, Move, parse_turn

ALL_MOVES = (
    ["end"]
    + [f"p-c{t}" for t in range(1, 4)]
    + [f"s{s}-c{t}" for s in range(1, 5) for t in range(1, 4)]
    + [f"{RANK_TEXT[r]}-{place}" for r in RANK_TEXT for place in ("c1", "c2", "c3", "s1", "s2", "s3", "s4")]
)


@pytest.mark.parametrize("card", full_deck(1))
def test_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # repr is valid code


def test_second_copy_repr_is_valid_code() -> None:
    card = Card(7, "h", 1)
    assert eval(repr(card)) == card and str(card) == "7h"


@pytest.mark.parametrize("suit", SUITS)
def test_suit_symbols_read_as_letters(suit: str) -> None:
    assert Card.parse(f"Q{SUIT_SYMBOLS[suit]}") == Card(12, suit)
    assert Card.parse(f"10{SUIT_SYMBOLS[suit]}") == Card.parse(f"T{suit}") == Card(10, suit)


@pytest.mark.parametrize(
    ("text", "card"), [("t", Card(10)), ("10", Card(10)), ("K", Card(13)), ("a♠", Card(1, "s")), (" qD ", Card(12, "d"))]
)
def test_card_notation_is_lenient_on_input(text: str, card: Card) -> None:
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["", "Z", "11", "0", "7x", "♠", "10hh", "1 0"])
def test_bad_card_text_raises(text: str) -> None:
    with pytest.raises(CardNotationError):
        Card.parse(text)


@pytest.mark.parametrize("text", ALL_MOVES)
def test_move_notation_round_trips(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert eval(repr(move)) == move
    assert Move.parse(text.upper()) == move


@pytest.mark.parametrize(("text", "canonical"), [("T-C2", "10-c2"), (" q-s2 ", "Q-s2"), ("END", "end"), ("a-c1", "A-c1"), ("P-C3", "p-c3")])
def test_move_input_is_case_insensitive_and_canonical_on_output(text: str, canonical: str) -> None:
    assert str(Move.parse(text)) == canonical


def test_move_fields() -> None:
    assert Move.parse("7-c2") == Move(HAND, 7, "c", 1)
    assert Move.parse("end") == Move(END)
    assert [str(m) for m in parse_turn("p-c1 7-c2  Q-s2")] == ["p-c1", "7-c2", "Q-s2"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a move"),
        ("7c2", "is not a move"),
        ("7-c2-c3", "is not a move"),
        ("7-x1", "the target 'x1' is not a stack"),
        ("7-c0", "the target 'c0' is not a stack"),
        ("c1-c2", "cards are never taken from a center stack"),
        ("z-c1", "the source 'z' is not p"),
        ("p-", "is not a stack"),
        ("ends", "is not a move"),
    ],
)
def test_bad_move_text_raises_invalid_move_error(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        Move.parse(text)
