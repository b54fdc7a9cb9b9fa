"""`spite show --json` against the board of the same file (docs/show-json.md): the same cards, counts and turn numbers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import Player, assert_board_agrees

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DOC = Path(__file__).resolve().parents[2] / "docs" / "show-json.md"


@pytest.fixture
def ex(tmp_path: Path) -> Path:
    return Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))


@pytest.mark.parametrize("who", ["alice", "bob"])
def test_the_view_and_the_board_of_a_mid_game_file_agree(ex: Path, who: str) -> None:
    player = Player(who.title(), ex / "keys" / who)
    latest = ex / "saves" / "14-bob.toml"
    view = player.show(latest)
    assert view["schema"] == 1 and view["turn"] == 12 and latest.name.startswith("14")
    assert sum(len(s) for s in view["opponent"]["side"]) + sum(len(s) for s in view["side"]) >= 4  # stacks worth comparing
    assert_board_agrees(player.ok("show", latest).stdout, view)


def test_every_field_is_documented(ex: Path) -> None:
    view = Player("Alice", ex / "keys" / "alice").show(ex / "saves" / "14-bob.toml")
    doc = DOC.read_text()
    fields = [*view, *(f"payoff.{k}" for k in view["payoff"]), *(f"opponent.{k}" for k in view["opponent"])]
    fields += [f"outcome.{k}" for k in ("winner", "reason", "points")]
    for field in fields:
        name = field.split(".")[-1]
        assert f"`{name}`" in doc, f"{field} is not in docs/show-json.md"
    assert json.loads(json.dumps(view)) == view


def test_an_earlier_file_says_so(ex: Path) -> None:
    view = Player("Alice", ex / "keys" / "alice").show(ex / "saves" / "tampered" / "replay.toml")
    assert view["earlier"] is True and view["turn"] == 10
