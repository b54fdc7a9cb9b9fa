"""spite rules: the rules as a player needs them, every sentence a message to translate, in lines that fit 80 columns."""

from __future__ import annotations

import ast
import gettext
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import Player
from rich.cells import cell_len
from rich.console import Console

from engine.rules import G4A
from pbm import i18n, rulebook
from pbm.cli.rules import rule_lines

ROOT = Path(__file__).resolve().parents[2]
NOTATION = re.compile(r"(?:p|end|[AJQKT]|10|[2-9]|[sc][1-9]|(?:p|[sS][1-9]|10|[2-9]|[AJQKT])-[sc][1-9])")


def one_line(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What `spite rules` prints, in English."""
    run = Player("A", tmp_path_factory.mktemp("rules")).ok("rules")
    assert run.stderr == "", run
    return run.stdout


@pytest.mark.parametrize(
    "sentence",
    [
        # the table
        "A hand of 5 cards.",
        "A pay-off pile of 20 cards. Only its top card is face up.",
        "4 side stacks, empty at the start.",
        "3 center stacks, empty at the start.",
        "The stock: all the other cards, face down.",
        # the moves, and how a turn ends
        "Play the top card of your pay-off pile onto a center stack.",
        "Play the top card of one of your side stacks onto a center stack.",
        "Play a card from your hand onto a center stack.",
        "Put a card from your hand onto one of your side stacks. This ends your turn.",
        "You may not move a card from one side stack to another, nor from your pay-off pile to a side stack.",
        "the only way to end your turn is to put one on a side stack.",
        "When you are done, the move end ends your turn.",
        # Kings
        "Kings are wild: a King counts as the rank the center stack needs next.",
        "On an empty center stack, a King counts as an Ace.",
        "On a 10, a King counts as a Jack.",
        "You may put a King on a side stack. It is still wild when you play it from there.",
        # completed stacks
        "A center stack that reaches Queen is complete",
        "Its 12 cards are shuffled back into the stock",
        '"being shuffled in"',
        "the next two draws, one for each player, cannot take them.",
        # drawing
        "At the start of your turn, you draw cards from the stock until you hold 5.",
        "If your hand empties during your turn, you get no new cards until your next turn.",
        # the end of a game, and of a match
        "You win the game when you play the last card of your pay-off pile onto a center stack.",
        "You score one point for each card left in your opponent's pay-off pile.",
        "If the stock has run out when a turn begins, the game is a tie and nobody scores.",
        "The first player to reach 50 points wins the match.",
        "After that, the players take turns starting a game.",
        # the notation
        "7-c2 plays a 7 from your hand onto center stack c2.",
        "several moves on one line, separated by spaces: p-c1 7-c2 Q-s2.",
    ],
)
def test_the_rules_name_every_part_of_the_game(said: str, sentence: str) -> None:
    assert sentence in one_line(said), sentence


def test_the_notation_has_a_legend_and_examples(said: str) -> None:
    rows: dict[str, str] = {}
    for line in said.splitlines():
        found = re.fullmatch(r"  (\S+(?: \S+)*?) {2,}(\S.*)", line)
        if found and NOTATION.fullmatch(found.group(1).split()[0]):
            rows.setdefault(found.group(1), found.group(2))
    assert rows["p"] == "the top card of your pay-off pile"
    assert rows["s1 s2 s3 s4"].startswith("your side stacks") and rows["c1 c2 c3"].startswith("the center stacks")
    assert rows["A"] == "an Ace from your hand" and rows["J"] == "a Jack from your hand"
    assert rows["Q"] == "a Queen from your hand" and rows["K"] == "a King from your hand"
    assert rows["2 3 4 5 6 7 8 9 10"] == "a card of that rank from your hand" and rows["T"] == "the same as 10"
    assert rows["end"] == "end your turn when your hand is empty"
    for move in ("p-c1", "7-c2", "s3-c1", "K-c3", "Q-s2"):
        assert move in rows, move
    assert rows["Q-s2"].startswith("a Queen from your hand onto side stack s2")


def test_the_rules_have_their_headings(said: str) -> None:
    lines = said.splitlines()
    for heading in (
        "The rules of Spite & Malice",
        "The table",
        "Your turn",
        "The center stacks",
        "Kings",
        "The end of a game",
        "The match",
    ):
        n = lines.index(heading)
        assert lines[n + 1] == "─" * len(heading), heading  # underlined: a pager shows a heading without bold too
    assert "Writing moves" in lines


def test_the_numbers_are_the_ones_of_the_rules(said: str) -> None:
    rules = one_line((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    hand = re.search(r"a \*\*hand\*\* of (\d+) cards", rules)
    payoff = re.search(r"a \*\*pay-off pile\*\* of (\d+) cards", rules)
    side = re.search(r"and (\d+) \*\*side stacks\*\*", rules)
    center = re.search(r"The table has (\d+) \*\*center stacks\*\*", rules)
    target = re.search(r"The first player to reach (\d+) points wins the \*\*match\*\*", rules)
    assert hand and payoff and side and center and target
    numbers = [int(found.group(1)) for found in (hand, payoff, side, center, target)]
    assert numbers == [5, 20, 4, 3, 50] == [G4A.hand_size, G4A.payoff_size, G4A.side_stacks, G4A.center_stacks, G4A.target_score]
    text = one_line(said)
    assert f"A hand of {numbers[0]} cards." in text and f"until you hold {numbers[0]}." in text
    assert f"A pay-off pile of {numbers[1]} cards." in text
    assert f"{numbers[2]} side stacks," in text and "s1 s2 s3 s4 " in said
    assert f"{numbers[3]} center stacks," in text and "c1 c2 c3 " in said
    assert f"to reach {numbers[4]} points wins the match." in text


def test_the_rules_fit_80_columns_at_any_width_and_read_well_in_a_pager(tmp_path: Path) -> None:
    env = {**os.environ, "SPITE_HOME": str(tmp_path), "NO_COLOR": "1"}
    for columns in (80, 200):
        done = subprocess.run(
            [sys.executable, "-m", "pbm.cli", "rules"], env={**env, "COLUMNS": str(columns)}, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and done.stderr == "", done
        lines = done.stdout.splitlines()
        assert len(lines) > 40 and "\x1b[" not in done.stdout
        assert max(cell_len(line) for line in lines) <= 80, done.stdout
        assert [line for line in lines if line != line.rstrip()] == [], done.stdout
    ascii_ = subprocess.run([sys.executable, "-m", "pbm.cli", "--ascii", "rules"], env=env, capture_output=True, text=True, timeout=60)
    assert ascii_.returncode == 0 and ascii_.stdout.isascii(), ascii_


@pytest.mark.parametrize("width", [30, 50, 80])
def test_every_line_fits_a_narrow_terminal_too(width: int) -> None:
    lines = rule_lines(Console(width=width, color_system=None), width)
    assert max(line.cell_len for line in lines) <= width
    assert all(line.plain == line.plain.rstrip() for line in lines)


def _marked_in(tree: ast.AST) -> tuple[set[str], list[str]]:
    """The messages marked with N_ under `tree`, and every other string in it that is not a notation token of a Row."""
    marked: set[str] = set()
    unmarked: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "N_":
                (arg,) = node.args
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), ast.dump(arg)
                marked.add(arg.value)
                return
            if node.func.id == "Row":  # the token is notation, never translated; its meaning is visited
                for meaning in node.args[1:]:
                    visit(meaning)
                return
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            unmarked.append(node.value)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return marked, unmarked


def test_every_sentence_of_the_rulebook_is_marked_for_translation() -> None:
    tree = ast.parse(Path(rulebook.__file__).read_text(encoding="utf-8"))
    (sections,) = [
        node.value
        for node in tree.body
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "SECTIONS" and node.value
    ]
    marked, unmarked = _marked_in(sections)
    assert unmarked == []
    shown: list[str] = []
    tokens: list[str] = []
    for section in rulebook.SECTIONS:
        shown.append(section.heading)
        for block in section.blocks:
            if isinstance(block, rulebook.Notation):
                shown += [row.meaning for row in block.rows]
                tokens += [row.token for row in block.rows]
            else:
                shown.append(block.text)
    assert set(shown) <= marked and len(marked) >= 40
    assert all(NOTATION.fullmatch(word) for token in tokens for word in token.split()), tokens
    for message in shown:  # the numbers come from the ruleset
        assert set(re.findall(r"\{(\w+)\}", message)) <= rulebook.VALUES.keys(), message


class _Marked(gettext.NullTranslations):
    """A catalogue that shows each message it translated between « and »."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"


def test_every_message_is_translated_where_it_is_printed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_choice", i18n.Choice("en", "default"))
    monkeypatch.setattr(i18n, "_active", _Marked())
    text = " ".join(line.plain for line in rule_lines(Console(width=80, color_system=None), 80))
    assert (
        text.count("«")
        == text.count("»")
        == sum(1 + sum(len(b.rows) if isinstance(b, rulebook.Notation) else 1 for b in s.blocks) for s in rulebook.SECTIONS)
    )
    left = re.sub(r"«[^»]*»", " ", text).split()
    assert [word for word in left if not NOTATION.fullmatch(word) and word.strip("•─") != ""] == []


def test_the_help_says_what_rules_prints_with_an_example(tmp_path: Path) -> None:
    text = one_line(Player("A", tmp_path).ok("rules", "--help").stdout)
    assert "Usage: spite rules [OPTIONS]" in text and "Print the rules of Spite & Malice in your language" in text
    assert "Example: spite rules" in text
    assert "rules " in Player("A", tmp_path).ok("--help").stdout  # listed among the commands
