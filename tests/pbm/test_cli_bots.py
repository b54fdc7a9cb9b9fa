"""The computer opponent at the command line: `spite arena` and `spite play --hint`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from engine.game import legal_moves
from engine.moves import Move
from pbm.cli import app
from pbm.client.receive import open_save
from pbm.identity import load_or_create
from pbm.journal import Journal

runner = CliRunner()


def spite(home: Path, *args: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in args], env={"SPITE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100"})


def test_arena_json_has_the_documented_shape_and_names_a_second_bot_of_a_level_with_2(tmp_path: Path) -> None:
    run = spite(tmp_path, "arena", "--bots", "easy,easy", "--games", "4", "--seed", "3", "--json")
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    assert data["games"] == 4 and set(data["bots"]) == {"easy", "easy#2"}
    decided = 4 - data["ties"]
    assert sum(bot["wins"] for bot in data["bots"].values()) == decided
    for bot in data["bots"].values():
        assert set(bot) >= {"wins", "win_rate", "ci95", "think_median_s", "think_max_s"}
        lo, hi = bot["ci95"]
        assert 0 <= lo <= bot["win_rate"] + 1e-9 and bot["win_rate"] <= hi + 1e-9 and hi <= 1


def test_arena_refuses_an_unknown_bot_in_one_line(tmp_path: Path) -> None:
    run = spite(tmp_path, "arena", "--bots", "expert,grandmaster", "--games", "2")
    assert run.exit_code == 2  # a usage error, like any other bad option value
    assert (
        run.stderr == "spite: --bots: unknown bot 'grandmaster'; known: random, greedy, easy, normal, expert, bfs, expert-peek, expert-1"
        " (see 'spite arena --help')\n"
    )


def test_hint_suggests_a_legal_start_of_the_players_own_turn(tmp_path: Path) -> None:
    alice, bob, mail = tmp_path / "alice", tmp_path / "bob", tmp_path / "mail"
    mail.mkdir()
    invitation = mail / "invitation.toml"
    assert spite(alice, "new", "--name", "Alice", "--opponent", "Bob", "-o", invitation).exit_code == 0
    assert spite(bob, "id", "--name", "Bob").exit_code == 0  # the invitation is made out to Bob
    assert spite(bob, "play", invitation, "-o", mail / "dealt.toml").exit_code == 0
    # Alice's first turn: ask for a hint and play the turn with --moves to a legal end
    with Journal.open(alice) as journal:
        view = open_save(mail / "dealt.toml", load_or_create(alice), journal).view
    assert view is not None
    legal = {str(m) for m in legal_moves(view)}
    discard = next(m for m in sorted(legal) if Move.parse(m).is_discard)
    run = spite(alice, "play", mail / "dealt.toml", "--hint", "--moves", discard, "-o", mail / "turn1.toml")
    assert run.exit_code == 0, run.output
    hint = next(line for line in run.stdout.splitlines() if line.startswith("Hint: "))
    first = hint.removeprefix("Hint: ").split()[0]
    assert first in legal
