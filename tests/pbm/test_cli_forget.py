"""spite forget (issue 34, item 9): a match nobody has answered is withdrawn and a late file of it refused in one line; a
finished match leaves spite games but not spite stats or spite record; a match in play is refused, naming spite resign."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import THINK, Mail, Player, assert_refused, files, invite, make_player, new_file

from pbm.journal import Journal


def _match(player: Player, every: bool = False) -> str:
    """The id of the one match `player`'s spite games lists."""
    (row,) = json.loads(player.ok("games", "--json", *(["--all"] if every else [])).stdout)["matches"]
    return str(row["match"])


def _answer(player: Player, path: Path) -> Path | None:
    """`player` plays `path` with --auto; the one file written beside it, if any."""
    before = files(path.parent)
    player.ok("play", path, "--auto", "--think", THINK)
    return new_file(before, path.parent)


def test_an_invitation_nobody_answered_is_withdrawn_and_an_answer_to_it_is_refused_in_one_line(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    match = _match(alice)
    assert_refused(alice.spite("forget", match[:8]), "confirm it at a terminal", "--yes")  # no terminal, no --yes: nothing done
    assert _match(alice) == match
    answer = _answer(bob, invitation)  # Bob answers before he hears of it
    assert answer is not None

    done = alice.ok("forget", match[:8], "--yes")
    assert f"Withdrew match {match[:8]}" in done.stdout and "Tell your opponent" in done.stdout, done  # an open invitation
    assert "No matches yet" in alice.ok("games", "--all").stdout
    before = files(invitation.parent)
    line = assert_refused(alice.spite("play", answer), f"Bob's file is of match {match[:8]}, which you withdrew", "spite new")
    assert "spite forget" in line
    assert_refused(alice.spite("play", invitation), "which you withdrew")  # nor is the invitation itself taken up again
    assert_refused(alice.spite("show", answer), "which you withdrew")
    assert files(invitation.parent) == before and "No matches yet" in alice.ok("games", "--all").stdout


def test_an_answer_that_came_by_mail_and_waits_is_not_forgotten(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    answer = _answer(bob, invitation)
    assert answer is not None
    match = _match(alice)
    with Journal.open(alice.home) as journal:  # as spite inbox keeps it: taken, not yet played
        assert journal.take(match, 2, answer, "Bob", "bob@example.com")
    assert_refused(alice.spite("forget", match[:8], "--yes"), f"Bob's answer to match {match[:8]} came by mail and waits")
    assert _match(alice) == match


def test_an_answer_nobody_answered_is_withdrawn_too(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    answer = _answer(bob, invitation)
    assert answer is not None
    match = _match(bob)
    assert f"Withdrew match {match[:8]}" in bob.ok("forget", match[:8], "-y").stdout
    assert "No matches yet" in bob.ok("games").stdout
    turn = _answer(alice, answer)  # Alice had not heard: she plays on
    assert turn is not None
    assert_refused(bob.spite("play", turn), "Alice's file is of match", "which you withdrew")
    assert_refused(alice.spite("forget", match[:8], "--yes"), f"spite resign {match[:8]} --match")  # in play for her


def test_an_invitation_to_you_that_you_did_not_answer_is_forgotten_and_may_be_taken_up_later(tmp_path: Path) -> None:
    alice, bob = make_player(tmp_path, "Alice"), make_player(tmp_path, "Bob")
    invitation = tmp_path / "invitation.toml"
    alice.ok("new", "--opponent", "Bob", "--opponent-key", bob.public_text, "-o", invitation)
    bob.ok("show", invitation)  # seen, and so listed: Bob's move
    match = _match(bob)
    assert f"Forgot Alice's invitation of match {match[:8]}" in bob.ok("forget", match[:8], "--yes").stdout
    assert "No matches yet" in bob.ok("games").stdout
    assert _answer(bob, invitation) is not None  # declined, not withdrawn: he may still answer it
    assert _match(bob) == match


def test_a_match_in_play_is_refused_in_one_line_naming_resign_match(mail: Mail) -> None:
    match = _match(mail.alice)
    mail.bob.ok("show", mail.latest)  # Bob has seen Alice's answer to his: the match is in play for him too
    before = files(mail.folder)
    for player in (mail.alice, mail.bob):
        line = assert_refused(player.spite("forget", match[:6], "--yes"), f"match {match[:8]} is in play")
        assert line.endswith(f"resign it: spite resign {match[:8]} --match"), line
        assert _match(player) == match
    assert files(mail.folder) == before
    assert_refused(mail.alice.spite("forget", "0000", "--yes"), "no match 0000 in your journal")


def test_a_finished_match_leaves_spite_games_and_stays_in_stats_and_record(tmp_path: Path) -> None:
    alice, bob, path = invite(tmp_path, payoff=1, target=1)  # one game of one pay-off card each: a few files
    match = _match(alice)
    reader, owed = bob, False
    for _ in range(60):
        before = files(path.parent)
        played = reader.ok("play", path, "--auto", "--think", THINK)
        written = new_file(before, path.parent)
        if written is None:
            break
        reader, path = (alice if reader is bob else bob), written
        if "The match is over" in played.stdout and not owed:  # the file that ends it: its reader owes the last one (the audit)
            reader.ok("show", path)  # seen, so known to be over
            assert_refused(reader.spite("forget", match[:8], "--yes"), "you still owe", "spite play")
            owed = True
    assert owed and written is None, "the match did not end"

    assert _match(alice, every=True) == match
    said = alice.ok("forget", match[:8], "--yes").stdout
    assert f"Match {match[:8]} is off your list" in said and f"spite record {match[:8]}" in said, said
    listed = json.loads(alice.ok("games", "--json", "--all").stdout)
    assert listed == {"matches": [], "hidden": 0}  # not even among the finished ones --all lists, nor counted as hidden
    assert "No matches yet" in alice.ok("games").stdout or "No match in play" in alice.ok("games").stdout
    assert json.loads(alice.ok("stats", "--json").stdout)["total"]["matches"]["total"] == 1  # its stats stay
    assert alice.ok("record", match[:8], "--json").stdout.startswith("{")  # and its record
    assert _match(bob, every=True) == match  # Bob's list is his own
