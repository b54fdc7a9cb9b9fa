"""The language tour's own helpers, on outputs shaped as the command prints them."""

from __future__ import annotations

from language_tour import drawn_boards

BOARD = """Match 1a2b3c4d · game 1 · turn {turn}
╭──────────────╮
│ Center  A 2  │
│ You     7 K  │
╰──────────────╯"""


def test_drawn_boards_splits_a_game_ending_turn_into_the_board_it_started_from_and_the_one_it_ended_on() -> None:
    output = "\n".join(
        ["Your bot plays.", BOARD.format(turn=9), "  1. h7 c2", "  2. p c3", BOARD.format(turn=10), "You win the game.", "Wrote x.toml"]
    )
    first, last = drawn_boards(output)
    assert first == BOARD.format(turn=9).splitlines()  # the moves printed between the boards belong to neither
    assert last == BOARD.format(turn=10).splitlines()  # nor do the lines after the last table


def test_drawn_boards_finds_one_board_in_an_ordinary_turn_and_the_whole_output_without_a_header() -> None:
    assert drawn_boards("Next file: you.\n" + BOARD.format(turn=3) + "\nWrote x.toml") == [BOARD.format(turn=3).splitlines()]
    headless = "╭──╮\n│ 7 │\n╰──╯\nafter"
    assert drawn_boards(headless) == [headless.splitlines()[:3]]
