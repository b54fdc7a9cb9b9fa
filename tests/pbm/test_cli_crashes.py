"""Exactly one answer per received file, whatever happens: two plays at once, and spite killed inside the write.

Real `spite` processes on real spite homes; SPITE_FAULT names a fault point (pbm/home.py) where the
process kills itself with SIGKILL, as a power cut or `kill -9` would.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_helpers import MODULE, THINK, Mail, Player, answer, files, new_file, process_env, spite_process

from pbm import saves
from pbm.home import match_lock
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


def test_a_play_waiting_at_the_prompt_holds_the_file_until_it_is_done(mail: Mail, tmp_path: Path) -> None:
    before = files(mail.folder)
    shown, said = tmp_path / "first.out", tmp_path / "first.err"
    with shown.open("w") as out, said.open("w") as err:
        waiting = subprocess.Popen(
            [*MODULE, "play", str(mail.latest)], env=process_env(mail.bob.home), stdin=subprocess.PIPE, stdout=out, stderr=err, text=True
        )
    try:
        deadline = time.monotonic() + 60
        while "your move>" not in shown.read_text() and time.monotonic() < deadline:  # it holds the lock while it asks
            time.sleep(0.05)
        second = spite_process(mail.bob.home, "play", mail.latest, "--auto", "--think", THINK)
        one_line(second, "another spite is answering a file of match", "let it finish")
        assert new_file(before, mail.folder) is None
    finally:
        waiting.communicate("q\n", timeout=60)
    assert waiting.returncode == 0 and "Nothing written" in shown.read_text(), (shown.read_text(), said.read_text())
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


# every fault point of `spite new`, and whether the invitation was on disk when the kill fell there
NEW_FAULTS = [("invitation-recorded", False), ("temp-written", False), ("file-linked", True), ("invitation-written", True)]


def match_ids(player: Player) -> set[str]:
    """The matches `player`'s journal knows."""
    with Journal.open(player.home) as journal:
        return {info.match for info in journal.matches()}


def killed_invitation(mail: Mail, fault: str, invitation: Path) -> str:
    """Alice's `spite new -o invitation` killed at `fault`; returns the id of the match it recorded."""
    before = match_ids(mail.alice)
    killed = spite_process(mail.alice.home, "new", "-o", invitation, SPITE_FAULT=fault)
    assert killed.returncode == KILLED, killed
    [match] = match_ids(mail.alice) - before
    return match


@pytest.mark.parametrize("retry", ["new", "games"])
@pytest.mark.parametrize(("fault", "on_disk"), NEW_FAULTS)
def test_killed_while_inviting_the_next_command_keeps_a_written_invitation_and_forgets_an_unwritten_one(
    mail: Mail, fault: str, on_disk: bool, retry: str
) -> None:
    invitation = mail.folder / "second-invitation.toml"
    match = killed_invitation(mail, fault, invitation)
    assert invitation.exists() == on_disk
    args = ("new", "-o", mail.folder / "third-invitation.toml") if retry == "new" else ("games",)
    run = spite_process(mail.alice.home, *args)
    assert run.returncode == 0, run
    said = " ".join(run.stdout.split())
    assert not mail.temps(), "the temp file of the killed spite was not removed"
    games = mail.alice.ok("games").stdout
    assert "its invitation was written" not in games and "Forgot match" not in games  # settled once, and said once
    if not on_disk:
        assert f"Forgot match {match[:8]}" in said and "nobody can have it" in said, run
        assert match not in match_ids(mail.alice) and match[:8] not in games  # no match waiting for Bob forever
        assert not invitation.exists()
        return
    assert f"Match {match[:8]}: its invitation was written to {invitation}" in said, run
    with Journal.open(mail.alice.home) as journal:
        assert journal.written(saves.read(invitation).hash) == invitation.read_bytes()
    assert match[:8] in games
    joined = answer(mail.bob, invitation)  # the invitation stands: Bob joins, Alice goes on
    answer(mail.alice, joined)


@pytest.mark.parametrize("command", ["games", "stats"])
def test_json_stays_json_when_a_killed_invitation_is_settled(mail: Mail, command: str) -> None:
    """`spite games --json` and `spite stats --json` settle a stopped `spite new` as the table does, and say so on stderr:
    what a script reads is only the JSON, in which the forgotten match is not."""
    match = killed_invitation(mail, "invitation-recorded", mail.folder / "second-invitation.toml")
    run = spite_process(mail.alice.home, command, "--json")
    assert run.returncode == 0, run
    assert f"Forgot match {match[:8]}" in run.stderr and match[:8] not in run.stdout, run
    data = json.loads(run.stdout)
    if command == "stats":
        assert data["total"]["matches"]["total"] == 1  # the match with Bob, three files in
    else:
        assert [m["match"] for m in data["matches"]] == [saves.read(mail.latest).match]


def test_an_invitation_being_written_is_left_to_the_spite_writing_it(mail: Mail) -> None:
    """`spite games` while another spite holds the lock of an unwritten invitation leaves it be; once the lock is free, it is forgotten."""
    match = killed_invitation(mail, "invitation-recorded", mail.folder / "second-invitation.toml")
    with match_lock(mail.alice.home, match):  # as the `spite new` writing it would
        busy = spite_process(mail.alice.home, "games")
        assert busy.returncode == 0 and "Forgot" not in busy.stdout, busy
        assert match in match_ids(mail.alice)
    done = spite_process(mail.alice.home, "games")
    assert f"Forgot match {match[:8]}" in done.stdout and match not in match_ids(mail.alice), done


@pytest.mark.parametrize("command", ["verify", "show", "play"])
def test_the_temp_file_a_killed_write_leaves_is_refused_as_a_save(mail: Mail, command: str) -> None:
    match = killed_invitation(mail, "temp-written", mail.folder / "second-invitation.toml")
    [temp] = mail.temps()
    assert saves.parse(temp.read_bytes()).match == match  # a whole invitation, signed: only its name says it was never finished
    before = files(mail.folder)
    done = spite_process(mail.bob.home, command, temp, *(["--auto", "--think", THINK] if command == "play" else []))
    one_line(done, str(temp), "unfinished write of spite", "use the real file")
    assert files(mail.folder) == before and match not in match_ids(mail.bob)  # nothing written, nothing joined


def test_an_invitation_that_cannot_be_written_is_not_kept(mail: Mail) -> None:
    before = mail.alice.ok("games").stdout
    done = spite_process(mail.alice.home, "new", "-o", mail.folder / "no-such-folder" / "invitation.toml")
    assert done.returncode == 1 and "cannot write" in done.stderr and "the match was not started" in done.stderr, done
    assert mail.alice.ok("games").stdout == before  # no match the journal knows and nobody can ever answer
