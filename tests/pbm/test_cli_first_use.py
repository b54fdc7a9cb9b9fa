"""What a friend meets on first use (issue 20): the fingerprint step, an invitation taken, practice matches, games at 80 columns."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import THINK, answer, assert_refused, files, invite, make_player, new_file


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
