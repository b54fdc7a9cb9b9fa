"""The board: shows what the player may see, cards as cards, in one screen at 80x24 and more room when there is more."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from rich.console import Console

from engine.cards import Card
from engine.dealer import LocalDealer
from engine.game import new_game
from engine.rules import G4A
from engine.state import GameState, Outcome, PlayerState, PlayerView, Pool, Reason
from pbm.render import Look, Seating, banner, board, card_text, stack_box

SEATING = Seating(("Alice", "Bob"), (12, 30), 50, "172a108860bc830e", 2, ("AAAA-AAAA-AAAA-AAAA", "BBBB-BBBB-BBBB-BBBB"))
HISTORY = ((0, "Q-s1"), (1, "Q-s2"), (0, "K-c1 7-s1"), (1, "p-c1 7-c2 Q-s2"))


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
        G4A, (alice, bob), center, stock_count=39, pools=(Pool(13, cards("A 2 3 4 5 6 7 8 9 10 J Q")),), to_move=0, turn=5, starter=0
    )


def crowded() -> GameState:
    """Long side stacks on both sides, as late in a game: 29 side cards for Alice (more than in 99% of positions)."""
    state = mid_game()
    long = (
        cards("Kh Qh Jh 10h 9h 8h 7h 6h 5h 4h 3h 2h"),
        cards("Qs Js 10s 9s 8s 7s 6s"),
        cards("10d 9d 8d 7d 6d"),
        cards("Jc 10c 9c 8c 7c"),
    )
    alice = dataclasses.replace(state.players[0], side=long)
    bob = dataclasses.replace(state.players[1], side=long[::-1])
    return dataclasses.replace(state, players=(alice, bob))


def render(view: PlayerView, width: int, height: int = 24, history: tuple[tuple[int, str], ...] = HISTORY, **kwargs: object) -> str:
    console = Console(record=True, width=width, height=height, no_color=True, color_system=None)
    console.print(board(view, kwargs.pop("seating", SEATING), history, **kwargs))  # type: ignore[arg-type]
    return console.export_text()


@pytest.mark.parametrize("width", [40, 80, 120])
def test_board_shows_what_the_player_may_see(width: int) -> None:
    text = render(mid_game().view(0), width)
    for expected in [
        "Match 172a1088",
        "game 2",
        "Alice 12 – Bob 30, first to 50",
        "turn 5: your turn",
        "hand 4",  # the opponent's hand: a count only
        "pay-off 15",
        "pay-off 12",
        "│8♦ │",  # the pay-off tops, as cards
        "│5♣ │",
        "│2♣│10♠│4♥│9♥ │",  # a side stack: every card, the top one on the right
        "│6♦│6♠ │",
        "╭s1",  # stacks carry their names in move notation
        "╭c3─╮",
        "│K♠ │",
        "│3♦ │ needs 4",  # center: what it needs next and how many until complete
        "9 to go",
        "needs A",
        "12 to go",
        "stock 39",
        "+12 shuffling in",
        "Bob's turn 4:",  # the opponent's last turn, numbered as the file that carried it
        "1. p-c1",
        "3. Q-s2",
    ]:
        assert expected in text, f"{expected!r} missing at width {width}:\n{text}"
    for card in ["│3  │", "│3♠ │", "│7♥ │", "│K  │", "│Q♦ │"]:
        assert card in text
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    assert all(line == line.rstrip() for line in lines), "trailing spaces"


def test_one_screen_at_80x24_even_when_crowded() -> None:
    for state in (mid_game(), crowded()):
        lines = render(state.view(0), 80, 24).splitlines()
        assert len(lines) <= 20, "the prompt and a message need the last lines\n" + "\n".join(lines)
        assert max(len(line) for line in lines) <= 80


def test_a_crowded_side_stack_still_shows_every_card() -> None:
    text = render(crowded().view(0), 80)
    assert "│KQJT9876543│2♥ │" in text  # with little room covered cards show their rank alone: suits never matter in play
    wide = render(crowded().view(0), 200)
    assert "│K♥│Q♥│J♥│10♥│9♥│8♥│7♥│6♥│5♥│4♥│3♥│2♥ │" in wide


def test_board_never_shows_the_opponent_hand() -> None:
    for width in (40, 80, 130):
        assert "J♣" not in render(mid_game().view(0), width, 40)


def test_opponent_sees_their_own_board_and_not_mine() -> None:
    text = render(mid_game().view(1), 80, history=())
    assert "Bob" in text and "(you)" in text and "│J♣ │" in text
    assert "Alice 's turn" not in text and "turn 5: Alice's turn" in text and "your turn" not in text
    assert "7♥" not in text and "Q♦" not in text  # Alice's hand
    assert "turn 4:" not in text  # no turn played yet in that history
    assert "hand 5" in text
    own = render(mid_game().view(1), 80)  # Bob's own last turn, as his own file shows it
    assert "Your turn 4:  1. p-c1" in own


def test_king_on_a_center_stack_says_what_it_counts_as() -> None:
    state = dataclasses.replace(mid_game(), center=(cards("A 2 Kc"), (), ()))
    text = render(state.view(0), 80)
    assert "as 3" in text and "│K♣ │ needs 4" in text


def test_suit_colour_is_never_the_only_signal() -> None:
    heart, spade, suitless = card_text(Card.parse("9h")), card_text(Card.parse("9s")), card_text(Card.parse("9"))
    assert (heart.plain, spade.plain, suitless.plain) == ("9♥", "9♠", "9")
    assert "red" in str(heart.style) and "red" not in str(spade.style)
    assert card_text(None).plain == "empty"


def printed(**console: object) -> str:
    """What the board writes to a terminal: the escape codes included."""
    out = io.StringIO()
    Console(file=out, width=100, force_terminal=True, **console).print(board(mid_game().view(0), SEATING))  # type: ignore[arg-type]
    return out.getvalue()


def test_colour_when_allowed_and_none_when_not() -> None:
    coloured = printed(color_system="standard")
    assert "31m8♦" in coloured  # a red suit in red (and bold: the top of a pile)
    plain = printed(color_system="standard", no_color=True)
    assert "31m" not in plain and "32m" not in plain and "\x1b[1m" in plain  # no colour, but bold still marks what may be played
    assert re.sub(r"\x1b\[[0-9;]*m", "", plain) == re.sub(r"\x1b\[[0-9;]*m", "", coloured)  # the same words and cards


def test_ascii_draws_with_ascii_alone_and_suit_letters() -> None:
    text = render(mid_game().view(0), 80, look=Look(ascii=True))
    assert text.isascii()
    assert "|2c|10s|4h|9h |" in text and "+s1+" in text and "|8d |" in text


def test_more_room_means_bigger_cards_and_the_game_log() -> None:
    small = render(mid_game().view(0), 80, 24)
    assert "This game" not in small
    wide = render(mid_game().view(0), 130, 24)
    assert "This game" in wide and "  3 Alice    K-c1 7-s1" in wide  # the game so far beside the board
    big = render(mid_game().view(0), 130, 40)
    assert "│    Q│" in big and "│  ♦  │" in big  # large cards: rank in two corners, suit in the middle
    assert "│2♣│10♠│4♥│9    │" in big
    assert len(big.splitlines()) <= 36


def test_a_fresh_deal_and_the_end_of_a_game() -> None:
    state = new_game(LocalDealer(7))
    fresh = render(state.view(0), 80, history=())
    assert "stock 54" in fresh and "shuffling" not in fresh and "'s turn" not in fresh.replace("your turn", "")
    won = dataclasses.replace(state, outcome=Outcome(Reason.PAYOFF_EMPTY, 1, 7))
    assert "game over after turn 1: Bob wins, 7 points" in render(won.view(0), 80)
    assert "game over after turn 1: you win, 7 points" in render(won.view(1), 80)
    tie = dataclasses.replace(state, turn=9, outcome=Outcome(Reason.STOCK_EXHAUSTED, None))
    assert "game over after turn 8: a tie (the stock ran out)" in render(tie.view(0), 80)  # turn 9 never began


@pytest.mark.parametrize("width", [40, 80, 130])
def test_the_header_shows_the_opponent_fingerprint_under_its_own_label(width: int) -> None:
    for seat, theirs in ((0, "BBBB-BBBB-BBBB-BBBB"), (1, "AAAA-AAAA-AAAA-AAAA")):
        text = render(mid_game().view(seat), width)
        assert f"their fingerprint {theirs}" in text, text
        assert ("AAAA-AAAA-AAAA-AAAA" if seat == 0 else "BBBB-BBBB-BBBB-BBBB") not in text  # never one's own instead
    unknown = dataclasses.replace(SEATING, fingerprints=("AAAA-AAAA-AAAA-AAAA", ""))  # an invitation's open seat: no key yet
    assert "fingerprint" not in render(mid_game().view(0), width, seating=unknown)


def test_names_are_text_not_markup() -> None:
    seating = dataclasses.replace(SEATING, names=("[bold]Eve", "Bob"))
    assert "[bold]Eve" in render(mid_game().view(0), 80, seating=seating)


def test_an_empty_stack_and_a_single_card() -> None:
    empty = stack_box((), Look(), "s2")
    assert [line.plain for line in empty.lines] == ["╭s2─╮", "│   │", "╰───╯"]
    ten = stack_box(cards("10h"), Look(ascii=True))
    assert [line.plain for line in ten.lines] == ["+---+", "|10h|", "+---+"]


def test_banner_boxes_its_lines() -> None:
    text = banner(["Game 1 is over: you win, 7 points.", "Alice 7 – Bob 0, first to 50"]).plain.splitlines()
    assert len(text) == 4 and text[1].startswith("│ Game 1 is over") and len({len(line) for line in text}) == 1
