"""spite resign: a game or the match conceded on either player's turn, through the CLI for both players."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import THINK, Player, answer, assert_refused, code_of, files, invite, make_player, new_file

from pbm import saves
from pbm.journal import Journal, Resignation
from pbm.transport import code


def _started(root: Path, turns: int) -> tuple[Player, Player, list[Path]]:
    """Alice and Bob `turns` files past the invitation: the one to move now (who reads the latest file), the other, the files."""
    alice, bob, path = invite(root, payoff=20, target=30)  # piles of 20: game 1 goes on for the few turns played here
    chain = [path]
    writer, reader = alice, bob
    for _ in range(turns):
        chain.append(answer(reader, chain[-1]))
        writer, reader = reader, writer
    return reader, writer, chain


def _code(player: Player, path: Path) -> bytes:
    """The turn code of the file at `path` as `player` would paste it: what `spite code` prints, or, for a turn that merges
    a completed center stack back into the stock (more parts than `spite code` gives), all its parts."""
    return "\n\n".join(code_of(player, path) or code.encode(saves.read(path))).encode()


def _resign(player: Player, *extra: str) -> tuple[Path, str]:
    """`player` resigns (with --yes) their only match; returns the file written and what was printed."""
    folder = player.home.parent / "mail"
    before = files(folder)
    match = json.loads(player.ok("games", "--json").stdout)["matches"][0]["match"]
    run = player.ok("resign", match[:8], "--yes", *extra)
    written = new_file(before, folder)
    assert written is not None, run
    return written, run.stdout


def _resignations(player: Player) -> list[Resignation]:
    with Journal.open(player.home, write=False) as journal:
        return journal.resignations(journal.matches()[0].match)


def _seat(player: Player) -> int:
    with Journal.open(player.home, write=False) as journal:
        seat = journal.matches()[0].seat_of(player.public_text)
        assert seat is not None
        return seat


def _pile(viewer: Player, path: Path) -> int:
    """The cards left in `viewer`'s own pay-off pile after the file at `path`."""
    count = viewer.show(path)["payoff"]["count"]
    assert isinstance(count, int)
    return count


def test_a_game_resigned_on_ones_turn_is_scored_and_the_next_game_is_dealt(tmp_path: Path) -> None:
    mover, other, chain = _started(tmp_path, 6)
    pile = _pile(mover, chain[-1])
    resigned, said = _resign(mover)
    assert f"You resigned game 1: {other.name} scores {pile}." in said
    shown = other.ok("show", resigned).stdout
    assert f"{mover.name} resigned game 1: you score {pile}." in shown and f"{mover.name} resigned, you win" in shown, shown
    assert "you resigned" in mover.ok("show", resigned).stdout
    written = answer(other, resigned)  # other's keys of game 1, and the deal step of game 2 that is due
    assert f"{mover.name} resigned game 1: you score {pile}." in other.runs[-1].stdout, other.runs[-1]
    following = answer(mover, written)  # the audit of game 1 passes, and the deal of game 2 goes on
    assert mover.show(following)["game"] == 2
    expected = [Resignation(1, _seat(mover), False)]
    assert _resignations(other) == _resignations(mover) == expected
    for player in (mover, other):
        games = json.loads(player.ok("games", "--json").stdout)["matches"][0]
        assert games["score"] == ([0, pile] if player is mover else [pile, 0]), games
        assert games["resigned"] == ["you resigned game 1" if player is mover else f"{mover.name} resigned game 1"]
    assert f"{mover.name} resigned game 1." in other.ok("games").stdout
    match = json.loads(mover.ok("games", "--json").stdout)["matches"][0]["match"]
    records = [p.ok("record", match[:8], "--game", "1", "--json").stdout for p in (mover, other)]
    assert records[0] == records[1]  # audited: the same record from both homes, replayed through the engine to the resignation
    assert json.loads(records[0])["result"] == {"winner": _seat(other), "score": pile, "how": "resigned"}
    assert f"({mover.name} resigned)" in other.ok("record", match[:8], "--game", "1").stdout


def test_the_match_resigned_on_the_opponents_turn_ends_it_and_a_replay_is_refused(tmp_path: Path) -> None:
    mover, waiting, _ = _started(tmp_path, 5)
    resigned, said = _resign(waiting, "--match")  # waiting wrote the latest file: it is mover's turn
    assert "You resigned the match" in said and f"The match is over: {mover.name} wins" in said
    last = answer(mover, resigned)  # only mover's keys of the game are still owed
    run = mover.runs[-1]
    assert f"{waiting.name} resigned the match" in run.stdout and "match is over" in run.stdout.lower(), run
    assert "Nothing more to send" in waiting.ok("play", last).stdout  # the keys: audited, nothing more
    assert _resignations(mover) == _resignations(waiting) == [Resignation(1, _seat(waiting), True)]
    for player in (mover, waiting):  # a finished match leaves the list: --all shows it, over
        assert json.loads(player.ok("games", "--json").stdout)["matches"] == []
        assert json.loads(player.ok("games", "--json", "--all").stdout)["matches"][0]["next"] == "over"
    match = json.loads(waiting.ok("games", "--json", "--all").stdout)["matches"][0]["match"]
    assert_refused(waiting.spite("resign", match, "--yes"), "over")
    for player, mine, theirs in ((waiting, "resigned", "lost"), (mover, "they_resigned", "won")):  # counted by spite stats
        counts = json.loads(player.ok("stats", "--json").stdout)["total"]["matches"]
        assert counts["total"] == 1 and counts["unfinished"] == 0 and counts[mine] + counts[theirs] == 1, counts
    assert_refused(mover.spite("play", resigned), "already played")


@pytest.mark.parametrize("on_own_turn", [True, False], ids=["own-turn", "opponents-turn"])
@pytest.mark.parametrize("whole", [False, True], ids=["game", "match"])
def test_a_game_or_the_match_resigned_on_either_turn_is_taken_in_by_the_other(tmp_path: Path, on_own_turn: bool, whole: bool) -> None:
    mover, waiting, chain = _started(tmp_path, 6)
    resigner, other = (mover, waiting) if on_own_turn else (waiting, mover)
    pile = _pile(resigner, chain[-1])
    resigned, said = _resign(resigner, *(["--match"] if whole else []))
    what = "the match" if whole else "game 1"
    assert f"You resigned {what}" in said, said
    reply = answer(other, resigned)  # the other's keys of the game (and, for a game, the next deal goes on)
    heard = other.runs[-1].stdout
    assert (f"{resigner.name} resigned the match" if whole else f"{resigner.name} resigned game 1: you score {pile}.") in heard, heard
    assert _resignations(other) == _resignations(resigner) == [Resignation(1, _seat(resigner), whole)]
    last = resigner.ok("play", reply) if whole else None
    for player in (resigner, other):
        (match,) = json.loads(player.ok("games", "--json", "--all").stdout)["matches"]
        assert match["score"] == ([0, pile] if player is resigner else [pile, 0]), match  # yours first: the pile scored
        assert (match["next"] == "over") is whole, match
    if whole:
        assert last is not None and "Nothing more to send" in last.stdout, last
    else:
        assert resigner.show(answer(resigner, reply))["game"] == 2  # the audit of game 1 passes; game 2 is dealt


def test_a_resignation_crossing_the_opponents_turn_takes_its_place(tmp_path: Path) -> None:
    mover, waiting, chain = _started(tmp_path, 5)
    crossing = answer(mover, chain[-1])  # mover plays and sends his turn ...
    resigned, _ = _resign(waiting)  # ... while waiting, who has not seen it, resigns after their own last file
    reply = answer(mover, resigned)  # mover's spite takes it in place of his own turn, and answers it
    assert f"{waiting.name} resigned game 1" in mover.runs[-1].stdout, mover.runs[-1]
    assert reply not in (resigned, crossing)
    assert_refused(waiting.spite("play", crossing), "crossed", "resignation", "void")
    after = answer(waiting, reply)  # the answer to the resignation goes on as after any game's end
    assert after.exists()
    assert_refused(mover.spite("play", crossing), "void")  # his own void turn is not his to play again
    assert _resignations(mover) == _resignations(waiting) == [Resignation(1, _seat(waiting), False)]


def test_a_changed_resignation_is_refused_and_resigning_needs_a_terminal_or_yes(tmp_path: Path) -> None:
    mover, other, _ = _started(tmp_path, 4)
    match = json.loads(mover.ok("games", "--json").stdout)["matches"][0]["match"]
    assert_refused(mover.spite("resign", match[:8]), "--yes")
    assert_refused(mover.spite("resign", "ffffffff", "--yes"), "no match")
    resigned, _ = _resign(mover)
    assert_refused(mover.spite("resign", match[:8], "--yes"), "you resigned game 1 already", str(resigned), f"send it to {other.name}")
    text = resigned.read_text()
    changed = resigned.with_name("changed.toml")
    changed.write_text(text.replace("match = false", "match = true", 1))
    assert "match = false" in text
    assert_refused(other.spite("play", changed, "--auto"), "signature")
    assert other.spite("play", resigned, "--auto", "--think", THINK).exit_code == 0
    # game 1 is over on both sides: nothing to resign until game 2 is dealt
    assert_refused(other.spite("resign", match[:8], "--yes"), "game 1 is over already")


@pytest.mark.parametrize("looked", [False, True])
def test_a_resignation_on_the_opponents_turn_as_a_turn_code_is_taken_in(tmp_path: Path, looked: bool) -> None:
    mover, waiting, chain = _started(tmp_path, 5)
    if looked:
        mover.ok("show", chain[-1])  # the file the resignation follows is the latest one mover's journal has
    resigned, _ = _resign(waiting, "--match")  # no next deal in it (its proof of shuffle would need the file)
    out = tmp_path / "reply.toml"
    played = mover.ok("play", "-", "--auto", "--think", THINK, "-o", out, input=_code(waiting, resigned))
    assert f"{waiting.name} resigned the match" in played.stdout and out.exists(), played
    waiting.ok("play", out)
    assert _resignations(mover) == _resignations(waiting) == [Resignation(1, _seat(waiting), True)]


def test_two_different_resignations_after_the_same_file_are_a_fork(tmp_path: Path) -> None:
    mover, waiting, _ = _started(tmp_path, 5)
    twin = Player(waiting.name, tmp_path / "twin-home")
    shutil.copytree(waiting.home, twin.home)  # the same player on a second machine, or a client that keeps an old journal
    first, _ = _resign(waiting)
    mover.ok("play", first, "--auto", "--think", THINK)
    second, _ = _resign(twin, "--match")
    assert second != first
    assert_refused(mover.spite("play", second), "two different versions")
    assert_refused(mover.spite("play", first), "already played")  # and the first one, answered, is not answered again


def test_a_resignation_aimed_at_an_older_file_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    """A client with an old journal (or one that rewinds it) resigns after a file its own later turn has answered already:
    the other player, who has seen that later turn, refuses it as older than what they have, and plays on from there."""
    mover, waiting, chain = _started(tmp_path, 3)
    old = Player(waiting.name, tmp_path / "old-home")
    shutil.copytree(waiting.home, old.home)  # waiting's journal as it was after writing chain[-1]
    later = answer(waiting, answer(mover, chain[-1]))
    mover.ok("show", later)  # mover has seen waiting's later turn: the match is past the file the old journal knows
    stale, _ = _resign(old)
    assert_refused(mover.spite("play", stale, "--auto"), "older than the latest you have")
    assert _resignations(mover) == []
    assert mover.spite("play", later, "--auto", "--think", THINK).exit_code == 0  # the refusal changed nothing


def test_resigning_after_a_turn_that_came_as_a_code_takes_the_code(tmp_path: Path) -> None:
    mover, waiting, chain = _started(tmp_path, 5)
    their_turn = answer(mover, chain[-1])
    pasted = _code(mover, their_turn)
    their_turn.unlink()  # it went by chat: the file is not on waiting's machine
    waiting.ok("show", "-", input=pasted)  # looked at: it is the latest file of the match in waiting's journal now
    match = json.loads(waiting.ok("games", "--json").stdout)["matches"][0]["match"]
    assert_refused(waiting.spite("resign", match[:8], "--yes"), "--file")
    resigned = tmp_path / "resigned.toml"
    run = waiting.ok("resign", match[:8], "--yes", "--file", "-", "-o", resigned, input=pasted)
    assert "You resigned game 1" in run.stdout and resigned.exists(), run
    played = mover.ok("play", resigned, "--auto", "--think", THINK)
    assert f"{waiting.name} resigned game 1" in played.stdout, played


def test_a_practice_game_resigned_is_answered_by_the_computer(tmp_path: Path) -> None:
    ann = make_player(tmp_path, "Ann")
    ann.ok("practice", "--think", THINK, input="q\n")
    (match,) = (m["match"] for m in json.loads(ann.ok("games", "--json").stdout)["matches"])
    run = ann.ok("resign", match[:8], "--yes")
    assert "You resigned game 1" in run.stdout and f"spite practice --resume {match[:8]}" in run.stdout, run
    again = ann.ok("practice", "--resume", match[:8], "--think", THINK, input="q\n")
    assert "Resuming " in again.stdout, again
    with Journal.open(ann.home, write=False) as journal:
        assert journal.resignations(match) == [Resignation(1, 0, False)]
        latest = journal.latest(match)
        assert latest is not None and latest.game == 2, latest  # the computer's keys came, and game 2 is being dealt


def test_nothing_is_resigned_while_dealing_and_a_first_turn_resignation_deals_the_game_first(tmp_path: Path) -> None:
    mover, waiting, chain = _started(tmp_path, 1)  # the answer to the invitation: the first shuffler owes deal step 3 and turn 1
    match = json.loads(waiting.ok("games", "--json").stdout)["matches"][0]["match"]
    assert_refused(waiting.spite("resign", match[:8], "--yes"), "being dealt")
    assert_refused(mover.spite("resign", match[:8], "--yes"), "being dealt")  # not before the answer is seen
    mover.ok("show", chain[-1])
    resigned, said = _resign(mover)
    assert "You resigned game 1" in said
    run = waiting.ok("play", resigned, "--auto", "--think", THINK)
    assert f"{mover.name} resigned game 1: you score 20." in run.stdout, run  # the whole pile of 20: not one card was played


def test_a_resignation_carrying_a_changed_copy_of_the_file_it_follows_is_refused(tmp_path: Path) -> None:
    """A modified resigner, on the other's turn, signs a resignation whose `after` is not the turn it sent (other moves):
    it does not hash to the file the resignation names as its `prev`, and the other player refuses it before taking it in."""
    import dataclasses

    mover, waiting, _ = _started(tmp_path, 5)
    resigned, _ = _resign(waiting)  # on mover's turn: it carries waiting's last turn as `after`
    save = saves.read(resigned)
    after = save.protocol["message"]["resign"]["after"]
    moves = after["message"]["turn"]["moves"]
    forged_after = {**after, "message": {**after["message"], "turn": {**after["message"]["turn"], "moves": moves + " 2-s1"}}}
    message = {**save.protocol["message"], "resign": {**save.protocol["message"]["resign"], "after": forged_after}}
    forged = dataclasses.replace(save, protocol={**save.protocol, "message": message}, signature="", turn_signature="")
    bad = resigned.with_name("forged-resign.toml")
    bad.write_bytes(saves.to_toml(saves.sign(forged, waiting.identity)))
    assert_refused(mover.spite("play", bad, "--auto"), "does not carry the file it follows")
    assert mover.spite("play", resigned, "--auto", "--think", THINK).exit_code == 0  # the refusal changed nothing


@pytest.mark.parametrize("on_own_turn", [True, False], ids=["own-turn", "opponents-turn"])
def test_a_resignation_taken_in_shows_and_verifies_again_as_any_earlier_file(tmp_path: Path, on_own_turn: bool) -> None:
    mover, waiting, chain = _started(tmp_path, 5)
    resigner, other = (mover, waiting) if on_own_turn else (waiting, mover)
    if on_own_turn:
        mover.ok("show", chain[-1])
    resigned, _ = _resign(resigner)
    before = {player.name: player.show(resigned) for player in (other, resigner)}
    reply = answer(other, resigned)
    for player in (other, resigner):
        shown = player.ok("show", resigned).stdout  # an earlier file now: shown as it was
        assert "resigned" in shown and " win" in shown, shown
        again = player.show(resigned)
        assert again.pop("earlier") is (player is other) and {**before[player.name], "earlier": None} == {**again, "earlier": None}
        verified = " ".join(player.ok("verify", resigned).stdout.split())
        assert ("an earlier file: game 1" in verified and verified.endswith("OK")) if player is other else "your own file" in verified
    assert _resignations(other) == _resignations(resigner) == [Resignation(1, _seat(resigner), False)]
    assert resigner.ok("play", reply, "--auto", "--think", THINK).exit_code == 0  # the match goes on from the answer
