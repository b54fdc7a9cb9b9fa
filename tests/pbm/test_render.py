"""The board: shows what the player may see, cards as cards, in one screen at 80x24 and more room when there is more."""

from __future__ import annotations

import dataclasses
import io
import re
import unicodedata

import pytest
from rich.cells import cell_len
from rich.console import Console

from engine.cards import Card
from engine.dealer import LocalDealer
from engine.game import new_game
from engine.rules import G4A
from engine.state import GameState, Outcome, PlayerState, PlayerView, Pool, Reason
from pbm import render as rendering
from pbm.render import Look, Seating, banner, board, card_text, log_lines, stack_box

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


def test_a_crowded_side_stack_shows_its_top_cards_and_how_many_more_at_80_columns() -> None:
    text = render(crowded().view(0), 80)
    assert "│+8│5│4│3│2♥ │" in text  # its top cards by rank (suits never matter in play), and a count of those under them
    assert "│10│9│8│7│6♦ │" in text and "│J│10│9│8│7♣ │" in text  # a stack that fits shows every card
    assert "KQJT" not in text and "JT98" not in text  # never the ranks run together
    wide = render(crowded().view(0), 200)
    assert "│K♥│Q♥│J♥│10♥│9♥│8♥│7♥│6♥│5♥│4♥│3♥│2♥ │" in wide  # with room, every card


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


# --- long names and longer languages: the layout by screen cells ---

ALICE_LONG = "Putu Ayu Kartika Dewi Wulandari"
BOB_NFD = "Nguye\u0302\u0303n Thi\u0323 Hu\u031bo\u031b\u0300ng"  # as received from a keyboard that types combining marks
WIDE = "山田太郎花子"  # six characters, twelve cells


def longer(text: str) -> str:
    """A message as a language a third longer says it, between ⟦ and ⟧ (as the pseudo-language does, unaccented)."""
    return "⟦" + text + "·" * -(-sum(ch.isalpha() for ch in text) // 3) + "⟧"


@pytest.fixture
def long_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board speaks a language a third longer than English."""
    monkeypatch.setattr(rendering, "_", longer)
    monkeypatch.setattr(rendering, "pgettext", lambda context, text: longer(text))
    monkeypatch.setattr(rendering, "ngettext", lambda one, many, n: longer(one if n == 1 else many))
    monkeypatch.setattr(rendering, "npgettext", lambda context, one, many, n: longer(one if n == 1 else many))


def header_lines(text: str) -> list[str]:
    return text.split("\n\n")[0].splitlines()


def test_a_header_with_long_names_at_80_columns_breaks_only_between_phrases(long_language: None) -> None:
    seating = dataclasses.replace(SEATING, names=(ALICE_LONG, "Nguyễn Thị Hương"), score=(0, 0), target=10)
    for seat in (0, 1):
        top = header_lines(render(mid_game().view(seat), 80, seating=seating))
        assert 2 <= len(top) <= 4 and all(cell_len(line) <= 80 for line in top), top
        phrases = [phrase for line in top for phrase in line.split(" · ")]
        assert all(p.startswith("⟦") and p.endswith("⟧") for p in phrases), top  # every phrase whole, on one line
        (score,) = (p for p in phrases if "first to 10" in p)
        assert "Nguyễn Thị Hương" in score and ALICE_LONG not in score and "Putu Ayu Kartika Dewi" in score and "…" in score
        assert cell_len(score) == 80  # the longer name cut only as far as it must


def test_a_header_cuts_names_only_where_a_phrase_has_no_room() -> None:
    seating = dataclasses.replace(SEATING, names=(ALICE_LONG, BOB_NFD))
    english = header_lines(render(mid_game().view(0), 80, seating=seating))
    assert f"{ALICE_LONG} 12 – {BOB_NFD} 30, first to 50" in english  # room for both names whole, marks and all
    assert "turn 5: your turn · their fingerprint BBBB-BBBB-BBBB-BBBB" in english
    narrow = header_lines(render(mid_game().view(0), 40, seating=dataclasses.replace(SEATING, names=(ALICE_LONG, WIDE))))
    assert all(cell_len(line) <= 40 for line in narrow), narrow
    (score,) = (line for line in narrow if "first to 50" in line)
    assert score == "Putu Ayu… 12 – 山田太郎… 30, first to 50"  # both names cut to the same room, by cells


def test_log_rows_are_padded_by_screen_cells_with_combining_marks_and_wide_characters() -> None:
    rows = log_lines(HISTORY, (BOB_NFD, WIDE), 10, 40)[1:]
    assert [row.plain.split()[-1] for row in rows] == ["Q-s1", "Q-s2", "7-s1", "Q-s2"]
    for row, (_by, moves) in zip(rows, HISTORY, strict=True):
        before = row.plain[: row.plain.index(moves)]
        assert cell_len(before) == 3 + 1 + 8 + 1, row.plain  # the moves line up, whatever the names
    names = [unicodedata.normalize("NFC", row.plain[4 : row.plain.index(moves)]) for row, (_by, moves) in zip(rows, HISTORY, strict=True)]
    assert names[:2] == ["Nguyễn…  ", "山田太…  "]  # cut to 8 cells with an ellipsis (a wide character never split)
    seating = dataclasses.replace(SEATING, names=(BOB_NFD, WIDE))
    lines = render(mid_game().view(0), 130, seating=seating).splitlines()
    title = next(line for line in lines if "This game" in line)
    column = cell_len(title[: title.index("This game")])
    log = [after_cells(line, column) for line in lines[lines.index(title) + 1 : lines.index(title) + 1 + len(HISTORY)]]
    assert [cell_len(row[: row.index(moves)]) for row, (_by, moves) in zip(log, HISTORY, strict=True)] == [13] * len(HISTORY), log


def after_cells(line: str, cells: int) -> str:
    """What `line` holds after its first `cells` screen cells."""
    at = 0
    while at < len(line) and cell_len(line[:at]) < cells:
        at += 1
    return line[at:]


def test_the_banner_is_as_wide_as_its_lines_in_screen_cells() -> None:
    lines = [f"Game 1 is over: {BOB_NFD} wins, 7 points.", f"Score: {WIDE} 0 – {BOB_NFD} 7, first to 50."]
    box = banner(lines).plain.splitlines()
    assert len(box) == 4 and len({cell_len(line) for line in box}) == 1
    assert cell_len(box[0]) == max(cell_len(line) for line in lines) + 4 and box[2].endswith(" │")
    narrow = banner(lines, width=30).plain.splitlines()  # a line too long for the screen goes on in the box, at spaces
    assert len({cell_len(line) for line in narrow}) == 1 and cell_len(narrow[0]) <= 30 and len(narrow) > 4
    assert " ".join(line.strip("│ ") for line in narrow[1:-1]) == " ".join(lines)


def center_and_hand(text: str) -> tuple[str, str]:
    """The middle line of the center row (its caption's) and of the hand's."""
    lines = text.splitlines()
    center = next(line for line in lines if "Center" in line)
    hand = next(line for line in lines if re.match(r"\S*hand\S*\s+│", line))
    return center, hand


def test_the_stock_keeps_its_place_on_the_center_row_in_english() -> None:
    center, hand = center_and_hand(render(mid_game().view(0), 80))
    assert "│7  │ needs 8  │░░░│ stock 39" in center and "░" not in hand


def test_longer_notes_beside_the_center_stacks_keep_the_stock_on_the_row_when_it_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    words = {"needs {rank}": "pede {rank}", "{n} to go": "faltam {n}", "stock {n}": "monte {n}", "+{n} shuffling in": "+{n} embaralhando"}
    monkeypatch.setattr(rendering, "pgettext", lambda context, text: words.get(text, text))
    monkeypatch.setattr(rendering, "npgettext", lambda context, one, many, n: words.get(one, one))
    calm = dataclasses.replace(mid_game(), pools=())  # nothing shuffling in
    text = render(calm.view(0), 80)
    center, hand = center_and_hand(text)
    assert "│3♦ │ pede 4    │   │ pede A     │7  │ pede 8    │░░░│ monte 39" in center, text  # columns as wide as their notes
    assert "░" not in hand
    assert "faltam 12  ╰───╯ faltam 5" in text
    shuffling = render(mid_game().view(0), 80)  # "+12 embaralhando" too: the stacks a cell closer, the stock stays
    center, hand = center_and_hand(shuffling)
    assert "│3♦ │ pede 4   │   │ pede A    │7  │ pede 8   │░░░│ monte 39" in center and "░" not in hand, shuffling
    assert "faltam 9 ╰───╯ faltam 12 ╰───╯ faltam 5 ╰───╯ +12 embaralhando" in shuffling


def test_a_longer_language_fits_80x24_with_long_names(long_language: None) -> None:
    seating = dataclasses.replace(SEATING, names=(ALICE_LONG, BOB_NFD))
    for state in (mid_game(), crowded()):
        text = render(state.view(0), 80, seating=seating)
        lines = text.splitlines()
        assert len(lines) <= 20 and all(cell_len(line) <= 80 for line in lines), text
        center, hand = center_and_hand(text)
        assert "░" not in center and "│░░░│ ⟦stock 39··⟧" in hand  # no room on the center row: beside the hand
        assert "⟦pay-off 12···⟧ " in text and "⟦pay-off 15···⟧ " in text  # the caption column widened for them
        assert "Putu Ayu Kartika" in text and "Nguyễn Thị Hư" in unicodedata.normalize("NFC", text)
    wide = render(mid_game().view(0), 100, seating=seating)
    center, hand = center_and_hand(wide)
    assert "│░░░│ ⟦stock 39··⟧" in center and "░" not in hand  # with room the stock is back on the center row


def test_a_wider_caption_column_never_costs_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    narrow = render(crowded().view(0), 60)
    original = rendering.pgettext
    long_caption = {"(you)": "(you, in person)"}  # 16 cells: as wide as the column grows
    monkeypatch.setattr(rendering, "pgettext", lambda context, text: long_caption.get(text, original(context, text)))
    wider = render(crowded().view(0), 60)
    assert len(wider.splitlines()) == len(narrow.splitlines()) and all(cell_len(line) <= 60 for line in wider.splitlines())
    assert "(you, in …" in wider  # no row had room for it: cut, as before
    widened = render(dataclasses.replace(mid_game(), pools=()).view(0), 80)
    assert "(you, in person) │5♣ │" in widened, widened  # the rows have room: the column widens for it
