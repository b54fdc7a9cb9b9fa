"""What a friend meets on first use (issue 20): the fingerprint step, an invitation taken, practice matches, games at 80 columns."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import THINK, answer, assert_refused, files, invite, make_player, new_file, spite_process

from pbm import saves
from pbm.journal import Journal


def test_first_contact_fingerprint_comes_after_the_board_and_says_how_to_check_it(tmp_path: Path) -> None:
    """The fingerprint is the last thing before the prompt (the board would scroll it away at 80x24); without a terminal
    the player is told where to check it later."""
    alice, bob, invitation = invite(tmp_path)
    dealt = answer(bob, invitation)
    run = alice.ok("play", dealt, "--auto", "--think", THINK)
    out = run.stdout
    fingerprint = bob.identity.fingerprint
    assert out.index(f"fingerprint: {fingerprint}") > out.rindex("hand "), out  # after the board's last row
    assert "spite games shows it" in out and "spite id" in out, out
    assert out.index("spite games shows it") < out.index("The bot played"), out  # before the turn is written


def test_a_second_answer_to_an_open_invitation_is_told_the_seat_is_taken(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    carol = make_player(tmp_path, "Carol")
    bobs = answer(bob, invitation)
    carols = answer(carol, invitation)
    answer(alice, bobs)
    before = files(invitation.parent)
    assert_refused(alice.spite("play", carols, "--auto"), "Carol's answer", "Bob took the seat first", "the seat is taken")
    assert new_file(before, invitation.parent) is None


def test_games_fits_80_columns_without_cutting_a_word(tmp_path: Path) -> None:
    """At 80 columns no line of `spite games` is wider and every name, key, address and file name is whole; wider, the table has them."""
    alice = make_player(tmp_path, "Alice")
    bob = make_player(tmp_path, "Bartholomew Featherstonehaugh")
    folder = tmp_path / "mail"
    folder.mkdir()
    invitation = folder / "invitation.toml"
    alice.ok("new", "-o", invitation)
    dealt = answer(bob, invitation)
    answer(alice, dealt)
    match = saves.read(invitation).match
    address = "bartholomew.featherstonehaugh@example.org"
    with Journal.open(alice.home) as journal:
        journal.keep_address(match, address)
    whole = [*bob.name.split(), bob.identity.fingerprint, address, f"spite-{match[:8]}-g1-t1.toml", match[:8]]
    for width in (80, 200):
        run = spite_process(alice.home, "games", COLUMNS=str(width))
        assert run.returncode == 0, run
        lines = run.stdout.splitlines()
        assert all(len(line) <= width for line in lines), run.stdout
        words = {w for line in lines for w in line.replace("│", " ").replace("┃", " ").split()}
        assert all(w in words for w in whole), run.stdout
    assert bob.identity.fingerprint in next(line for line in lines if match[:8] in line)  # 200: one row has it all


def test_practice_offers_its_unfinished_matches_and_resume_picks_one(tmp_path: Path) -> None:
    """Without a terminal `spite practice` names the unfinished match and how to go on; --resume MATCH takes that one;
    `spite games` lists practice matches with spite practice --resume, not spite play."""
    ann = make_player(tmp_path, "Ann")
    ann.ok("practice", "--think", THINK, input="q\n")
    (first,) = (m["match"] for m in json.loads(ann.ok("games", "--json").stdout)["matches"])
    second = ann.ok("practice", "--think", THINK, input="q\n")
    (latest,) = (m["match"] for m in json.loads(ann.ok("games", "--json").stdout)["matches"] if m["match"] != first)
    assert f"Your practice match {first[:8]} is unfinished: 'spite practice --resume' goes on with it." in second.stdout, second
    older = ann.ok("practice", "--resume", first[:8], "--think", THINK, input="q\n")
    assert f"Resuming {ann.home / 'practice' / 'saves' / 'spite-'}{first[:8]}" in older.stdout, older
    again = ann.ok("practice", "--resume", "--think", THINK, input="q\n").stdout
    assert "Resuming " in again  # alone, --resume takes the latest, as before (both are as recent here)
    assert_refused(ann.spite("practice", "--resume", "0000"), "no unfinished practice match starts with 0000", first[:8], latest[:8])
    games = ann.ok("games").stdout
    for match in (first, latest):
        assert f"spite practice --resume {match[:8]}" in games, games
    assert "spite play" not in games, games


def test_inbox_play_leaves_a_practice_match_to_spite_practice(tmp_path: Path) -> None:
    ann = make_player(tmp_path, "Ann")
    ann.ok("practice", "--think", THINK, input="q\n")
    for part in ("new", "cur", "tmp"):
        (tmp_path / "mail" / part).mkdir(parents=True)
    run = ann.ok("inbox", "--play", "--maildir", tmp_path / "mail")
    assert "Nothing waits for you." in run.stdout and "Opening" not in run.stdout, run
    assert "spite practice --resume" in run.stdout, run
