"""Exactly one answer per received file, whatever happens: two plays at once, and spite killed inside the write.

Real `spite` processes on real spite homes; SPITE_FAULT names a fault point (pbm/home.py) where the
process kills itself with SIGKILL, as a power cut or `kill -9` would.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_helpers import MODULE, THINK, Mail, Player, answer, files, new_file, process_env, spite_process

from pbm import saves
from pbm.journal import Journal

KILLED = -signal.SIGKILL
NO_RECORD = "no record of your side"


def recorded(player: Player, answer_to: Path) -> bytes:
    """The bytes of `player`'s answer to the file at `answer_to`, as their journal recorded them."""
    received = saves.read(answer_to)
    with Journal.open(player.home) as journal:
        record = journal.answer_to(received)
        assert record is not None, "no answer recorded"
        data = journal.written(record.hash)
    assert data is not None
    return data


def one_line(done: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """The refusal of a real process: exit 1, one line on stderr naming every fragment, no traceback."""
    assert done.returncode == 1, done
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: ") and "Traceback" not in done.stdout + done.stderr, done
    for fragment in fragments:
        assert fragment in lines[0], done
    return lines[0]


def the_match_goes_on(mail: Mail, reply: Path) -> None:
    """Alice takes Bob's answer (the only one on disk, the one his journal holds) and Bob takes hers: nobody is stuck."""
    back = answer(mail.alice, reply)
    mail.bob.ok("verify", back)


# --- two plays of one file at once ---


@pytest.mark.parametrize("attempt", range(3))
def test_two_plays_started_together_write_one_answer_the_journals(mail: Mail, attempt: int) -> None:
    """A double-click, two terminals: one spite answers, the other says why it did not, and only the recorded answer is on disk."""
    before = files(mail.folder)
    command = [*MODULE, "play", str(mail.latest), "--auto", "--think", "0.2"]  # both think a while: their runs overlap
    racers = [subprocess.Popen(command, env=process_env(mail.bob.home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)]
    racers.append(subprocess.Popen(command, env=process_env(mail.bob.home), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    done = [subprocess.CompletedProcess(r.args, r.wait(timeout=120), *r.communicate()) for r in racers]
    assert sorted(d.returncode for d in done) == [0, 1], done
    loser = next(d for d in done if d.returncode == 1)
    line = one_line(loser)
    assert "another spite is answering" in line or "already played from this file" in line, line
    assert "two different versions" not in line
    reply = new_file(before, mail.folder)  # fails if both wrote
    assert reply is not None and reply.read_bytes() == recorded(mail.bob, mail.latest)
    the_match_goes_on(mail, reply)


def test_a_play_waiting_at_the_prompt_holds_the_file_until_it_is_done(mail: Mail) -> None:
    before = files(mail.folder)
    waiting = subprocess.Popen(
        [*MODULE, "play", str(mail.latest)],
        env=process_env(mail.bob.home),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not list((mail.bob.home / "locks").glob("*.lock")) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the first spite has the file open and waits for Bob's moves
        second = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK)
        one_line(second, "another spite is answering a file of match", "let it finish")
        assert new_file(before, mail.folder) is None
    finally:
        out, err = waiting.communicate("q\n", timeout=60)
    assert waiting.returncode == 0 and "Nothing written" in out, (out, err)
    reply = answer(mail.bob, mail.latest)  # once the first one is done, the file is Bob's to answer
    the_match_goes_on(mail, reply)


# --- spite killed inside the write ---


def test_killed_after_recording_the_answer_the_retry_writes_the_same_answer(mail: Mail) -> None:
    before = files(mail.folder)
    killed = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK, SPITE_FAULT="answer-recorded")
    assert killed.returncode == KILLED, killed
    assert new_file(before, mail.folder) is None and not mail.temps()  # killed before the file was written
    data = recorded(mail.bob, mail.latest)
    retry = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK)
    assert retry.returncode == 0, retry
    assert "written again" in " ".join(retry.stdout.split()).lower() or "again, as recorded" in retry.stdout, retry
    assert NO_RECORD not in retry.stderr
    reply = new_file(before, mail.folder)
    assert reply is not None and reply.read_bytes() == data and reply.name == saves.default_name(saves.parse(data))
    again = spite_process(mail.bob.home, "play", mail.latest, "--auto")  # now on disk: a replay, which names the answer
    one_line(again, "already played from this file", str(reply), "send it to Alice")
    assert new_file(before, mail.folder) == reply
    the_match_goes_on(mail, reply)


def test_killed_with_a_complete_temp_file_the_retry_removes_it_and_writes_the_recorded_answer(mail: Mail) -> None:
    before = files(mail.folder)
    killed = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK, SPITE_FAULT="temp-written")
    assert killed.returncode == KILLED, killed
    [temp] = mail.temps()
    data = recorded(mail.bob, mail.latest)
    assert temp.read_bytes() == data  # complete, and the recorded answer: harmless even if it were sent
    retry = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK)
    assert retry.returncode == 0 and NO_RECORD not in retry.stderr, retry
    assert not mail.temps(), "the temp file a killed spite left was not removed"
    reply = new_file(before, mail.folder)
    assert reply is not None and reply.read_bytes() == data
    the_match_goes_on(mail, reply)


def test_an_answer_removed_from_the_disk_is_written_again_not_made_anew(mail: Mail) -> None:
    reply = answer(mail.bob, mail.latest)
    data = reply.read_bytes()
    reply.unlink()
    run = mail.bob.ok("play", mail.latest, "--auto", "--think", THINK)
    assert "again" in run.stdout and reply.read_bytes() == data, run
    the_match_goes_on(mail, reply)


def test_killed_while_inviting_leaves_no_invitation_the_journal_does_not_know(mail: Mail) -> None:
    invitation = mail.folder / "second-invitation.toml"
    killed = spite_process(mail.alice.home, "new", "-o", invitation, SPITE_FAULT="invitation-recorded")
    assert killed.returncode == KILLED, killed
    assert not invitation.exists() and not mail.temps()
    mail.alice.ok("new", "-o", invitation)  # a new invitation, recorded before it was written
    with Journal.open(mail.alice.home) as journal:
        assert journal.written(saves.read(invitation).hash) == invitation.read_bytes()
    answer(mail.bob, invitation)


def test_an_invitation_that_cannot_be_written_is_not_kept(mail: Mail) -> None:
    before = mail.alice.ok("games").stdout
    done = spite_process(mail.alice.home, "new", "-o", mail.folder / "no-such-folder" / "invitation.toml")
    assert done.returncode == 1 and "cannot write" in done.stderr and "the match was not started" in done.stderr, done
    assert mail.alice.ok("games").stdout == before  # no match the journal knows and nobody can ever answer
