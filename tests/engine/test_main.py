"""`python -m engine legal|selfplay`: output, one-line errors and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_position import EXAMPLE, EXAMPLE_MOVES

from engine.__main__ import game_seed, main, selfplay
from engine.bots import make_bot
from engine.dealer import LocalDealer
from engine.play import play_game


@pytest.fixture
def position(tmp_path: Path):
    def write(text: str) -> str:
        path = tmp_path / "position.toml"
        path.write_text(text, encoding="utf-8")
        return str(path)

    return write


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str], list[str]]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out.splitlines(), err.splitlines()


def test_legal_prints_the_22_moves_of_the_rules_example(position, capsys) -> None:
    code, out, err = run(["legal", position(EXAMPLE)], capsys)
    assert code == 0 and err == []
    assert out == sorted(EXAMPLE_MOVES)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("me = [", "not a TOML file"),
        (EXAMPLE.replace('hand = ["7h", "K", "3", "3s", "Q"]\n', ""), "me.hand: missing"),
        (EXAMPLE.replace("stock_count = 51", "stock_count = 52"), "counts add up to 105 cards, the ruleset has 104"),
        (EXAMPLE.replace('"9", "10"]]', '"9", "J"]]'), "table.center[2]: a J cannot follow a 9"),
        (EXAMPLE.replace('"7h", "K"', '"Z", "K"'), "me.hand[0]: 'Z' is not a card"),
    ],
)
def test_legal_refuses_bad_positions_with_one_line_and_status_2(position, capsys, text: str, message: str) -> None:
    path = position(text)
    code, out, err = run(["legal", path], capsys)
    assert code == 2 and out == []
    assert len(err) == 1 and err[0].startswith(f"{path}: {message}")


def test_legal_refuses_a_missing_file(tmp_path: Path, capsys) -> None:
    code, out, err = run(["legal", str(tmp_path / "none.toml")], capsys)
    assert code == 2 and out == [] and len(err) == 1 and "cannot read" in err[0]


def test_python_dash_m_engine_runs_without_traceback(position) -> None:
    good = subprocess.run([sys.executable, "-m", "engine", "legal", position(EXAMPLE)], capture_output=True, text=True, check=False)
    assert good.returncode == 0 and len(good.stdout.splitlines()) == 22
    bad = subprocess.run([sys.executable, "-m", "engine", "legal", position("x = [")], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_selfplay_prints_one_json_line_with_the_tally(capsys) -> None:
    code, out, err = run(["selfplay", "--games", "4", "--seed", "3", "--bots", "greedy,greedy"], capsys)
    assert code == 0 and err == [] and len(out) == 1
    result = json.loads(out[0])
    assert result["games"] == 4
    assert set(result["wins"]) == {"greedy", "greedy#2"}
    assert sum(result["wins"].values()) + result["ties"] == 4
    assert result["mean_turns"] > 0 and result["turns_per_s"] > 0


def test_selfplay_is_seeded_and_alternates_the_starter() -> None:
    first = selfplay(4, 11, ["greedy", "random"])
    again = selfplay(4, 11, ["greedy", "random"])
    assert {k: v for k, v in first.items() if k != "turns_per_s"} == {k: v for k, v in again.items() if k != "turns_per_s"}
    turns = 0
    for i in range(4):
        s = game_seed(11, i)
        played = play_game((make_bot("greedy", 2 * s), make_bot("random", 2 * s + 1)), LocalDealer(s), starter=i % 2)
        turns += played.turns
    assert first["mean_turns"] == round(turns / 4, 1)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["selfplay", "--bots", "greedy,wizard"], "unknown bot 'wizard'"),
        (["selfplay", "--bots", "greedy"], "give two bots"),
        (["selfplay", "--bots", "greedy,greedy,random"], "give two bots"),
        (["selfplay", "--games", "0"], "play at least one game"),
    ],
)
def test_selfplay_refuses_bad_arguments_with_status_2(capsys, argv: list[str], message: str) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == []
    assert len(err) == 1 and message in err[0]


@pytest.mark.parametrize("argv", [["selfplay", "--games", "many"], ["dance"], []])
def test_usage_errors_exit_2(capsys, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
