"""Position files: the RULES.md example reads as written, and every malformed or impossible table is refused by field."""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.cards import Card
from engine.game import legal_moves
from engine.position import PositionError, parse_position, position_from_dict, read_position

EXAMPLE = """\
ruleset = "g4a"          # optional, default g4a

[me]
hand = ["7h", "K", "3", "3s", "Q"]
payoff_top = "5"         # face-up top card; omit when the pile is empty
payoff_count = 12        # cards in the pile, the top one included
side = [["9", "8"], [], ["K"], []]

[opponent]
hand_count = 4
payoff_top = "J"
payoff_count = 15
side = [[], ["2"], [], []]

[table]
center = [["A", "2", "3"], [], ["A", "2", "K", "4", "5", "6", "7", "8", "9", "10"]]
stock_count = 51
shuffling_in = 0         # recycled cards not yet drawable (R12); optional, default 0
"""

EXAMPLE_MOVES = (
    ["s3-c1", "s3-c2", "s3-c3", "K-c1", "K-c2", "K-c3"] + [f"{r}-s{i}" for r in ("7", "K", "3", "Q") for i in range(1, 5)]
)  # fmt: skip


def example() -> dict[str, Any]:
    return tomllib.loads(EXAMPLE)


def test_docs_carry_the_same_example() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
    assert re.search(r"```toml\n(.*?)```", docs, re.S).group(1) == EXAMPLE


def test_rules_example_has_exactly_22_legal_moves() -> None:
    moves = [str(m) for m in legal_moves(parse_position(EXAMPLE))]
    assert len(moves) == 22
    assert sorted(moves) == sorted(EXAMPLE_MOVES)
    assert moves == sorted(moves)


def test_example_reads_into_the_view_of_the_player_to_move() -> None:
    view = parse_position(EXAMPLE)
    assert view.my_turn and view.player == view.to_move == 0
    assert view.hand == (Card(7, "h"), Card(13), Card(3), Card(3, "s"), Card(12))
    assert (view.payoff_top, view.payoff_count) == (Card(5), 12)
    assert view.side == ((Card(9), Card(8)), (), (Card(13),), ())
    assert (view.opponent.hand_count, view.opponent.payoff_top, view.opponent.payoff_count) == (4, Card(11), 15)
    assert [len(stack) for stack in view.center] == [3, 0, 10]
    assert view.stock_count == 51 and view.shuffling_in == () and view.shuffling_count == 0


def test_optional_fields_default() -> None:
    data = example()
    del data["ruleset"], data["table"]["shuffling_in"]
    view = position_from_dict(data)
    assert view.ruleset.name == "g4a" and view.shuffling_in_count == 0


def test_shuffling_in_is_a_count() -> None:
    data = example()
    data["table"]["stock_count"] = 39
    data["table"]["shuffling_in"] = 12
    view = position_from_dict(data)
    assert view.shuffling_in_count == 12 and view.shuffling_count == 12 and view.shuffling_in == ()


def test_empty_payoff_and_empty_hand() -> None:
    data = example()
    data["me"]["hand"] = []
    del data["me"]["payoff_top"]
    data["me"]["payoff_count"] = 0
    data["table"]["stock_count"] = 51 + 5 + 12
    view = position_from_dict(data)
    assert view.payoff_top is None and [str(m) for m in legal_moves(view)] == ["end", "s3-c1", "s3-c2", "s3-c3"]


def test_two_copies_of_a_card_are_two_physical_cards() -> None:
    data = example()
    data["me"]["side"][1] = ["7h"]
    data["table"]["stock_count"] = 50
    view = position_from_dict(data)
    assert view.hand[0] == Card(7, "h", 0) and view.side[1] == (Card(7, "h", 1),)


def _set(*path: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value

    return change


def _drop(*path: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for key in path[:-1]:
            data = data[key]
        del data[path[-1]]

    return change


def _both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        for c in changes:
            c(data)

    return change


BAD = {
    "not a card": (_set("me", "hand", 2, value="Z"), "me.hand[2]: 'Z' is not a card"),
    "bad suit": (_set("opponent", "side", 1, 0, value="2x"), "opponent.side[1][0]: '2x' is not a card"),
    "card not a string": (_set("me", "payoff_top", value=5), "me.payoff_top: must be a card written as a string"),
    "out of sequence": (_set("table", "center", 1, value=["A", "2", "3", "4", "5", "7"]), "table.center[1]: a 7 cannot follow a 5"),
    "bad start": (_set("table", "center", 1, value=["2"]), "table.center[1]: a 2 cannot start a center stack"),
    "complete stack": (
        _set("table", "center", 0, value=["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "K"]),
        "table.center[0]: 12 cards; a stack of 12 is complete",
    ),
    "too few cards": (_set("table", "stock_count", value=50), "counts add up to 103 cards, the ruleset has 104"),
    "too many cards": (_set("table", "shuffling_in", value=12), "counts add up to 116 cards, the ruleset has 104"),
    "third copy of a card": (
        _both(_set("me", "side", 1, value=["7h"]), _set("opponent", "side", 0, value=["7h"])),
        "opponent.side[0][0]: a third 7h, but 2 decks hold only 2",
    ),
    "ninth of a rank": (
        _both(_set("me", "side", 1, value=["3", "3", "3"]), _set("opponent", "side", 0, value=["3", "3", "3", "3"])),
        "opponent.side[0][3]: a ninth 3, but 2 decks hold only 8",
    ),
    "count is text": (_set("me", "payoff_count", value="12"), "me.payoff_count: must be a whole number, not a string"),
    "count is bool": (_set("opponent", "hand_count", value=True), "opponent.hand_count: must be a whole number, not true/false"),
    "count is float": (_set("table", "stock_count", value=51.0), "table.stock_count: must be a whole number, not a number"),
    "negative count": (_set("table", "stock_count", value=-1), "table.stock_count: -1 is negative"),
    "hand not a list": (_set("me", "hand", value="7h K"), "me.hand: must be a list of cards, not a string"),
    "section not a table": (_set("opponent", value=3), "opponent: must be a table ([opponent]), not an integer"),
    "unknown top key": (_set("score", value=3), "score: unknown key"),
    "unknown key in me": (_set("me", "hand_count", value=5), "me.hand_count: unknown key"),
    "missing hand": (_drop("me", "hand"), "me.hand: missing"),
    "missing table": (_drop("table"), "table: missing"),
    "missing side": (_drop("opponent", "side"), "opponent.side: missing"),
    "missing stock": (_drop("table", "stock_count"), "table.stock_count: missing"),
    "top without count": (_set("me", "payoff_count", value=0), "me.payoff_count: 0, but me.payoff_top shows a card"),
    "count without top": (
        _drop("opponent", "payoff_top"),
        "opponent.payoff_top: missing, but opponent.payoff_count says the pile holds 15",
    ),
    "pile too big": (_set("me", "payoff_count", value=21), "me.payoff_count: 21, but a pay-off pile starts with only 20 cards"),
    "three side stacks": (_set("me", "side", value=[[], [], []]), "me.side: 3 side stacks, the ruleset has 4"),
    "five side stacks": (_set("opponent", "side", value=[[], [], [], [], []]), "opponent.side: 5 side stacks, the ruleset has 4"),
    "side not a list": (_set("me", "side", 2, value="K"), "me.side[2]: must be a list of cards"),
    "two center stacks": (_set("table", "center", value=[[], []]), "table.center: 2 center stacks, the ruleset has 3"),
    "unknown ruleset": (_set("ruleset", value="g5b"), "ruleset: unknown ruleset 'g5b'; known: g4a"),
    "ruleset not text": (_set("ruleset", value=4), "ruleset: must be a string"),
    "hand too big": (_set("me", "hand", value=["7h", "K", "3", "3s", "Q", "2"]), "me.hand: 6 cards, but a hand holds at most 5"),
    "opponent hand too big": (_set("opponent", "hand_count", value=6), "opponent.hand_count: 6 cards, but a hand holds at most 5"),
    "shuffling not whole stacks": (
        _both(_set("table", "shuffling_in", value=5), _set("table", "stock_count", value=46)),
        "table.shuffling_in: 5 is not a multiple of 12",
    ),
}


@pytest.mark.parametrize(("change", "message"), BAD.values(), ids=BAD.keys())
def test_bad_positions_are_refused_naming_the_field(change: Callable[[dict[str, Any]], None], message: str) -> None:
    data = copy.deepcopy(example())
    change(data)
    with pytest.raises(PositionError) as caught:
        position_from_dict(data)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_not_toml_is_refused() -> None:
    with pytest.raises(PositionError, match="not a TOML file"):
        parse_position("[me\nhand = 3")


def test_read_position_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "position.toml"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert len(legal_moves(read_position(path))) == 22


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PositionError, match="cannot read"):
        read_position(tmp_path / "missing.toml")
    with pytest.raises(PositionError, match="cannot read"):
        read_position(tmp_path)  # a directory
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PositionError, match="cannot read"):
        read_position(binary)
