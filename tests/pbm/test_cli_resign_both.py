"""Two resignations after one file: the one made on its maker's turn stands, from either order of arrival (docs/protocol.md,
*Resigning*), and both spites go on (or end the match) alike. Through the CLI, by files; by mail in test_cli_mail.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import Player, answer, assert_refused, files, invite, new_file

from pbm.journal import Journal, Resignation


def started(root: Path, turns: int) -> tuple[Player, Player, Path]:
    """Alice and Bob `turns` files past the invitation: the one to move now (who has seen the latest file), the other, that file."""
    alice, bob, path = invite(root, payoff=20, target=30)  # piles of 20: game 1 goes on for the few turns played here
    writer, reader = alice, bob
    for _ in range(turns):
        path = answer(reader, path)
        writer, reader = reader, writer
    reader.ok("show", path)  # the file is in the journal of the one to move: they may resign on their turn
    return reader, writer, path


def resign(player: Player, folder: Path, whole: bool) -> Path:
    """`player` resigns (with --yes) the game, or with `whole` the match, of their only match; returns the file written."""
    before = files(folder)
    match = json.loads(player.ok("games", "--json").stdout)["matches"][0]["match"]
    player.ok("resign", match[:8], "--yes", *(["--match"] if whole else []))
    written = new_file(before, folder)
    assert written is not None
    return written


def seat(player: Player) -> int:
    with Journal.open(player.home, write=False) as journal:
        found = journal.matches()[0].seat_of(player.public_text)
        assert found is not None
        return found


def standing(player: Player) -> dict:
    """`spite games --json --all` of `player`'s only match."""
    (match,) = json.loads(player.ok("games", "--json", "--all").stdout)["matches"]
    return match


def resignations(player: Player) -> list[Resignation]:
    with Journal.open(player.home, write=False) as journal:
        return journal.resignations(journal.matches()[0].match)


# Two games and two matches resigned, in both orders of arrival; a game against a match and a match against a game, each
# in one order (the order and the kinds are decided apart: the kind only says what stands once one does).
CROSSINGS = [
    (True, False, False),
    (False, False, False),
    (True, True, True),
    (False, True, True),
    (True, False, True),
    (False, True, False),
]


@pytest.mark.parametrize(
    ("on_turn_first", "on_turn_whole", "other_whole"),
    CROSSINGS,
    ids=[
        "games-on-turn-one-first",
        "games-other-first",
        "matches-on-turn-one-first",
        "matches-other-first",
        "game-against-match",
        "match-against-game",
    ],
)
def test_two_resignations_after_one_file_the_one_made_on_its_makers_turn_stands(
    tmp_path: Path, on_turn_first: bool, on_turn_whole: bool, other_whole: bool
) -> None:
    """Mover resigns on his turn while Waiting resigns on it too (after his own latest file): both follow that file.
    Mover's stands on both sides, whichever file is taken in first; Waiting's is void, and Waiting answers Mover's."""
    mover, waiting, last = started(tmp_path, 5)
    folder = last.parent
    pile = mover.show(last)["payoff"]["count"]
    ours = resign(mover, folder, on_turn_whole)  # follows `last`, the other's latest file, as a turn would
    theirs = resign(waiting, folder, other_whole)  # follows `last` too: his own latest file, on mover's turn
    if on_turn_first:
        refused = assert_refused(mover.spite("play", theirs, "--auto"), "void")
        reply = answer(waiting, ours)  # waiting's spite takes mover's resignation in place of his own, and answers it
        heard = waiting.runs[-1].stdout
    else:
        reply = answer(waiting, ours)
        heard = waiting.runs[-1].stdout
        refused = assert_refused(mover.spite("play", theirs, "--auto"), "void")
    assert f"{waiting.name}'s resignation of game 1 crossed {mover.name}'s resignation of game 1" in refused, refused
    what = "the match" if on_turn_whole else f"game 1: you score {pile}."
    assert f"{mover.name} resigned {what}" in " ".join(heard.split()), heard
    assert_refused(waiting.spite("play", theirs), "void")  # his own void resignation is not his to send again
    assert_refused(mover.spite("play", theirs), "void")  # nor, later, mover's to take in
    expected = [Resignation(1, seat(mover), on_turn_whole)]
    assert resignations(mover) == resignations(waiting) == expected
    for player in (mover, waiting):
        match = standing(player)
        assert match["score"] == ([0, pile] if player is mover else [pile, 0]), match  # yours first: mover's pile, to waiting
        assert (match["next"] == "over") is on_turn_whole, match
    if on_turn_whole:
        assert "Nothing more to send" in mover.ok("play", reply).stdout  # waiting's keys: audited, the match is over
        return
    following = answer(mover, reply)  # the audit of game 1 passes, and both deal game 2 alike
    assert mover.show(following)["game"] == 2 and waiting.show(following)["game"] == 2
    after = answer(waiting, following)
    assert answer(mover, after).exists()
    match = standing(mover)["match"]
    records = [p.ok("record", match[:8], "--game", "1", "--json").stdout for p in (mover, waiting)]
    assert records[0] == records[1]
    assert json.loads(records[0])["result"] == {"winner": seat(waiting), "score": pile, "how": "resigned"}


@pytest.mark.parametrize("crossed_first", [True, False], ids=["crossed-turn-first", "resignation-first"])
def test_a_resignation_that_follows_a_turn_made_void_is_void_too(tmp_path: Path, crossed_first: bool) -> None:
    """Mover plays his turn and then resigns after it (on waiting's turn), while waiting, who has seen neither, resigns after
    his own latest file: waiting's resignation takes the place of mover's turn, so mover's resignation, which follows that
    void turn, is void too. Both spites say so from either order of arrival, and the match goes on alike."""
    mover, waiting, last = started(tmp_path, 5)
    folder = last.parent
    pile = waiting.show(last)["payoff"]["count"]
    turn = answer(mover, last)
    late = resign(mover, folder, whole=True)  # after his own turn: it follows a file that waiting's resignation voids
    stands = resign(waiting, folder, whole=False)  # after `last`, his own latest file: it crosses mover's turn
    if crossed_first:
        assert_refused(waiting.spite("play", turn, "--auto"), "crossed", "void")
        assert_refused(waiting.spite("play", late, "--auto"), "follows one that a resignation made void")
        reply = answer(mover, stands)
    else:
        reply = answer(mover, stands)  # mover's spite takes it in place of his turn and of his resignation after it
        assert_refused(waiting.spite("play", late, "--auto"), "follows one that a resignation made void")
        assert_refused(waiting.spite("play", turn, "--auto"), "crossed", "void")
    assert f"{waiting.name} resigned game 1: you score {pile}." in " ".join(mover.runs[-1].stdout.split())
    assert resignations(mover) == resignations(waiting) == [Resignation(1, seat(waiting), False)]
    for player in (mover, waiting):
        match = standing(player)
        assert match["score"] == ([pile, 0] if player is mover else [0, pile]), match
        assert match["next"] != "over", match
    assert_refused(
        mover.spite("play", late), "follows one that a resignation made void"
    )  # mover's own void files are not his to send again
    following = answer(waiting, reply)
    assert mover.show(following)["game"] == 2 and waiting.show(following)["game"] == 2
    answer(mover, following)
