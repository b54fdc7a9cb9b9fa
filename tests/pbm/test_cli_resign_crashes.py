"""spite resign killed inside its write (SPITE_FAULT, pbm/home.py): the same command again writes the recorded file, as a
replayed `spite play` does, and the match goes on from it. Real `spite` processes on real spite homes."""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import Mail, Player, answer, files, invite, new_file, scratch, spite_process

from pbm import saves
from pbm.journal import Journal

KILLED = -signal.SIGKILL


@pytest.fixture()
def mail(tmp_path: Path) -> Iterator[Mail]:
    """Alice and Bob three files into a match of piles of 20 and a target of 30 (a game resigned leaves the match going):
    its latest file is Alice's, for Bob to answer. Made for each test: the journals name where the files lie."""
    with scratch(tmp_path) as root:
        alice, bob, path = invite(root, payoff=20, target=30)
        yield Mail(alice, bob, root / "mail", answer(alice, answer(bob, path)))


def latest_own(player: Player) -> tuple[str, bytes]:
    """Where `player`'s journal says their latest file of the only match lies, and its bytes as recorded."""
    with Journal.open(player.home, write=False) as journal:
        info = journal.matches()[0]
        data = journal.written(info.latest.hash)
        assert data is not None and info.latest.signer == info.seat_of(player.public_text)
        return info.latest.path, data


# Each kill point with each way to resign (on one's turn, on it with the opponent's file given, on the opponent's turn),
# and each of those with a game and with the match: six runs in place of all twelve.
KILLS = [
    ("answer-recorded", "own-turn", False),
    ("answer-recorded", "own-turn-file", True),
    ("answer-recorded", "other-turn", True),
    ("temp-written", "own-turn", True),
    ("temp-written", "own-turn-file", False),
    ("temp-written", "other-turn", False),
]


@pytest.mark.parametrize(("fault", "how", "whole"), KILLS, ids=[f"{f}-{h}-{'match' if w else 'game'}" for f, h, w in KILLS])
def test_a_killed_resignation_is_written_again_as_recorded(mail: Mail, fault: str, how: str, whole: bool) -> None:
    """Killed once its resignation is recorded (or its temp file written), `spite resign` run again writes that very file
    where the journal says it lies, and says so; once it is on disk, once more names it and writes nothing."""
    if how == "own-turn":
        mail.bob.ok("show", mail.latest)  # Bob has Alice's latest file: it is his turn
    resigner, other = (mail.alice, mail.bob) if how == "other-turn" else (mail.bob, mail.alice)
    match = saves.read(mail.latest).match[:8]
    given = ("--file", str(mail.latest)) if how == "own-turn-file" else ()  # Alice's latest file, which Bob's journal has not seen
    args = ("resign", match, "--yes", *given, *(["--match"] if whole else []))
    before = files(mail.folder)
    killed = spite_process(resigner.home, *args, SPITE_FAULT=fault)
    assert killed.returncode == KILLED, killed
    where, data = latest_own(resigner)
    temps = mail.temps()
    if fault == "temp-written":
        assert len(temps) == 1 and temps[0].read_bytes() == data  # the whole resignation, hidden in a temp file
        before[temps[0].name] = data
    assert not temps or fault == "temp-written"
    assert new_file(before, mail.folder) is None
    assert not Path(where).exists()  # spite games names it: the same command again writes it there
    for temp in temps:
        del before[temp.name]
    games = spite_process(resigner.home, "games", "--all", "--json")
    assert games.returncode == 0 and json.loads(games.stdout)["matches"][0]["file"] == where, games
    retry = spite_process(resigner.home, *args)
    assert retry.returncode == 0, retry
    said = " ".join(retry.stdout.split())
    assert "not on disk" in said and "again, as recorded" in said, retry
    assert ("You resigned the match" if whole else "You resigned game 1") in said, retry
    assert not mail.temps(), "the temp file of the killed spite was not removed"
    written = new_file(before, mail.folder)
    assert written is not None and written.read_bytes() == data and str(written.resolve()) == where
    again = spite_process(resigner.home, *args)  # on disk now: it names the file, and writes nothing
    assert again.returncode == 1 and str(written) in again.stderr and "already" in again.stderr, again
    assert new_file(before, mail.folder) == written
    reply = answer(other, written)  # the match goes on from the recorded resignation
    assert reply.exists()
