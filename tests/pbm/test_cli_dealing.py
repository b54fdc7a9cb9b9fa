"""A file that only deals the cards says so (issue 34): no board comes with it, and the first board comes with the next
file. Bob's first `spite play` of an invitation, and the deal of each next game."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import THINK, Player, files, invite, new_file

from pbm import saves

DEALING = "The cards of game {game} are being dealt: this file is your part of the shuffle."
FIRST_BOARD = "Send it back to {name}; the first board of game {game} comes with {name}'s next file."


def _play(player: Player, path: Path, *args: str) -> tuple[Path, str]:
    """`player` plays the file at `path`; the file written and what was printed."""
    before = files(path.parent)
    run = player.ok("play", path, *args)
    written = new_file(before, path.parent)
    assert written is not None, run
    return written, " ".join(run.stdout.split())


def _deals_only(path: Path) -> bool:
    """Whether the file at `path` deals the cards and plays no turn."""
    message = saves.read(path).protocol["message"]
    return "deal" in message and "turn" not in message


def test_a_file_that_only_deals_says_what_is_going_on_and_when_the_board_comes(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    dealt, said = _play(bob, invitation)
    assert _deals_only(dealt)
    told = f"{DEALING} {FIRST_BOARD}".format(game=1, name="Alice")
    assert told in said and "╭" not in said, said
    assert said.index(told) < said.index(f"Wrote {dealt}") < said.index("Send the file to Alice"), said  # before what to send

    turn, said = _play(alice, dealt, "--auto", "--think", THINK)
    assert not _deals_only(turn) and "are being dealt" not in said, said  # a board, and a turn played on it

    # Bob resigns game 1: the next game is dealt, and whoever writes a file that only deals it is told so
    match = json.loads(bob.ok("games", "--json").stdout)["matches"][0]["match"]
    before = files(turn.parent)
    bob.ok("resign", match[:8], "--yes", "--file", turn)
    resigned = new_file(before, turn.parent)
    assert resigned is not None
    reader, writer, path = alice, bob, resigned
    dealing = []
    for _ in range(2):  # Alice's keys of game 1 with the deal's second step (Bob starts game 2), then Bob's first turn
        path, said = _play(reader, path, "--auto", "--think", THINK)
        told = f"{DEALING} {FIRST_BOARD}".format(game=2, name=writer.name)
        assert (told in said) is _deals_only(path), said
        dealing.append(_deals_only(path))
        reader, writer = writer, reader
    assert dealing == [True, False] and saves.read(path).game == 2, dealing
