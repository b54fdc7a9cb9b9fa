"""Numbers from outside at the edges of 64 bits: every command that reads a turn code refuses them in one line.

A turn code's save number is looked up in the journal before the code's schema is checked (to complete the code with
this player's side of the match): 2**63 and -2**63 overflowed SQLite there, a traceback in verify, show, `play -` and
`resign --file` (issue 33). The reader refuses any number no match reaches (pbm.saves.MAX_SEQ), naming the field.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import answer, assert_refused, files, invite

from pbm import saves
from pbm.transport import code

EDGES = [0, -1, saves.MAX_SEQ + 1, 2**53, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64]


def _listing(home: Path) -> dict[str, bytes]:
    """Every file under a spite home, with its bytes: a refusal leaves the home as it was."""
    return {str(p.relative_to(home)): p.read_bytes() for p in sorted(home.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("seq", EDGES)
def test_a_turn_code_numbered_at_the_edges_of_64_bits_is_refused_by_every_command(tmp_path: Path, seq: int) -> None:
    alice, bob, invitation = invite(tmp_path)
    joined = answer(bob, invitation)
    latest = answer(alice, joined)  # save 3: its code carries neither rules nor players, so the journal completes it
    turn = code.carried(saves.read(latest)) | {"seq": seq}
    forged = tmp_path / "mail" / "code.txt"
    forged.write_text("\n\n".join(code.encode_turn(turn)) + "\n")
    folder, home = files(forged.parent), _listing(bob.home)
    match = saves.read(latest).match
    runs = [
        bob.spite("verify", forged),
        bob.spite("show", forged),
        bob.spite("show", "--json", forged),
        bob.spite("play", "-", "--auto", input=forged.read_text()),
        bob.spite("resign", match[:8], "--file", forged, "--yes"),
    ]
    for run in runs:
        assert_refused(run, "field 'seq' should be a whole number from 1 to")
    assert files(forged.parent) == folder and _listing(bob.home) == home
    assert answer(bob, latest).exists()  # the genuine file plays on


def test_the_save_number_limit_is_far_above_a_real_match_and_far_below_64_bits() -> None:
    """What a match reaches: one file a turn, about two more a game (README: 74 turns a game, a few games a match)."""
    assert 10**12 < saves.MAX_SEQ < 2**53 - 1 < 2**63 - 1
    assert 419_431 < saves.MAX_TURN < 2**53 - 1
