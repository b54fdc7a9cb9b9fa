"""The board: shows what the player may see, in words and symbols that survive NO_COLOR and narrow terminals."""

from __future__ import annotations

import pytest
from rich.console import Console

from engine.cards import Card
from engine.dealer import LocalDealer
from engine.game import new_game
from engine.rules import G4A
from engine.state import GameState, Outcome, PlayerState, PlayerView, Pool, Reason
from pbm.render import board, card_text, center_stack_text, side_stack_text


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(word) for word in text.split())


def mid_game() -> GameState:
    """Alice (seat 0) to move; Bob's hand holds only Jacks of clubs, a card seen nowhere else."""
    alice = PlayerState(
        hand=cards("7h K 3 3s Qd"),
        payoff_top=Card.parse("5c"),
        payoff_count=12,
        side=(cards("2c 10s 4h 9h"), (), cards("Ks"), ()),
    )
    bob = PlayerState(
        hand=cards("Jc Jc Jc Jc"),
        payoff_top=Card.parse("8d"),
        payoff_count=15,
        side=((), cards("2s"), (), cards("6d 6s")),
    )
    center = (cards("A 2 3d"), (), cards("A 2 K 4 5 6h 7"))
    return GameState(
        G4A, (alice, bob), center, stock_count=39, pools=(Pool(13, cards("A 2 3 4 5 6 7 8 9 10 J Q")),), to_move=0, turn=14, starter=0
    )


def render(view: PlayerView, width: int, last_turn: tuple[str, ...] = ("p-c1", "7-c2", "Q-s2"), **kwargs: object) -> str:
    console = Console(record=True, width=width, no_color=True, color_system=None)
    console.print(board(view, ("Alice", "Bob"), (12, 30), last_turn, **kwargs))
    return console.export_text()


@pytest.mark.parametrize("width", [40, 100])
def test_board_shows_what_the_player_may_see(width: int) -> None:
    text = render(mid_game().view(0), width)
    for expected in [
        "Alice 12 – Bob 30",
        "first to 50",
        "Turn 14",
        "your turn",
        "hand 4 cards",  # the opponent's hand: a count only
        "8♦ (15 left)",  # opponent pay-off top and count
        "5♣ (12 left)",  # own pay-off
        "s1 9♥ (+3)",  # a side stack: top card and depth
        "s3 K♠",
        "s4 6♠ (+1)",
        "c1 3♦ → needs 4",
        "c2 empty → needs A",
        "c3 7 → needs 8",
        "39 cards",
        "+12 being shuffled in",
        "Bob's last turn",
        "1. p-c1",
        "3. Q-s2",
    ]:
        assert expected in text, f"{expected!r} missing at width {width}:\n{text}"
    for card in ["3", "3♠", "7♥", "K", "Q♦"]:
        assert card in text
    assert max(len(line) for line in text.splitlines()) <= width


@pytest.mark.parametrize("width", [40, 100])
def test_board_never_shows_the_opponent_hand(width: int) -> None:
    text = render(mid_game().view(0), width)
    assert "J♣" not in text


def test_opponent_sees_their_own_board_and_not_mine() -> None:
    text = render(mid_game().view(1), 60, last_turn=())
    assert "Bob (you)" in text and "J♣" in text
    assert "Alice's turn" in text and "your turn" not in text
    assert "7♥" not in text and "Q♦" not in text  # Alice's hand
    assert "last turn" not in text
    assert "hand 5 cards" in text


def test_king_on_a_center_stack_says_what_it_counts_as() -> None:
    line = center_stack_text(2, cards("A 2 K")).plain
    assert line == "c3 K as 3 → needs 4"


def test_suit_colour_is_never_the_only_signal() -> None:
    heart, spade, suitless = card_text(Card.parse("9h")), card_text(Card.parse("9s")), card_text(Card.parse("9"))
    assert (heart.plain, spade.plain, suitless.plain) == ("9♥", "9♠", "9")
    assert "red" in str(heart.style) and "red" not in str(spade.style)
    assert side_stack_text(0, ()).plain == "s1 empty"


def test_colour_when_allowed_and_none_when_not() -> None:
    view = mid_game().view(0)
    colour = Console(record=True, width=100, force_terminal=True, color_system="truecolor")
    colour.print(board(view, ("Alice", "Bob"), (0, 0)))
    assert "\x1b[" in colour.export_text(styles=True)
    plain = Console(record=True, width=100, force_terminal=True, no_color=True)
    plain.print(board(view, ("Alice", "Bob"), (0, 0)))
    assert "\x1b[31m" not in plain.export_text(styles=True) and "\x1b[91m" not in plain.export_text(styles=True)


def words(text: str) -> str:
    return " ".join(text.split())


def test_a_fresh_deal_and_the_end_of_a_game() -> None:
    state = new_game(LocalDealer(7))
    fresh = render(state.view(0), 40, last_turn=())
    assert "54 cards" in fresh and "being shuffled" not in fresh
    won = GameState(**{**{f: getattr(state, f) for f in state.__slots__}, "outcome": Outcome(Reason.PAYOFF_EMPTY, 1, 7)})
    assert "Bob wins, 7 points" in words(render(won.view(0), 40))
    assert "you win, 7 points" in words(render(won.view(1), 40))
    tie = GameState(**{**{f: getattr(state, f) for f in state.__slots__}, "outcome": Outcome(Reason.STOCK_EXHAUSTED, None)})
    assert "a tie (the stock ran out)" in words(render(tie.view(0), 40))


def test_names_are_text_not_markup() -> None:
    console = Console(record=True, width=80, no_color=True)
    console.print(board(mid_game().view(0), ("[bold]Eve", "Bob"), (0, 0)))
    assert "[bold]Eve (you)" in console.export_text()


def test_target_score_can_come_from_the_match() -> None:
    assert "first to 10" in render(mid_game().view(0), 100, target=10)
