"""Two spite homes writing into one folder at once (issue 33, item 8): both players of a match on one machine, or a
folder both can write. Each spite clears away the temp files a killed spite left, and only those: a temp file another
spite is writing is never taken for a stale one, whichever home, process or machine it is of, on POSIX or Windows.

Real processes, each with its own spite home, put files of one match into one folder as spite does (pbm/client/answer.py,
`_put`: the stale temp files cleared, then the file written through a temp file), many times at once; and real `spite`
commands of Alice and Bob, one stopped inside its write while the other runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from cli_helpers import MODULE, THINK, WITHOUT_POSIX, Mail, files, new_file, process_env

from pbm import home, saves

MATCH = "0123456789abcdef0123456789abcdef"
TRIES = 400  # files each home writes: on the code before issue 33, a third to a half of them failed

# One spite home putting TRIES files of MATCH into FOLDER, each as pbm/client/answer.py puts a file; prints the failures.
_WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    if sys.argv[4] == "without-posix":
        sys.path.insert(0, {tests!r})
        import without_posix
        without_posix.install()
    from pbm.home import remove_stale, write_new
    folder, name, tries = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    failed = 0
    for n in range(tries):
        remove_stale(folder, {match!r})
        try:
            write_new(folder / f"{{name}}-{{n}}.toml", b"a save " * 2000, {match!r})
        except OSError as e:
            failed += 1
            print(type(e).__name__, e, file=sys.stderr)
    print(failed)
    """
).format(tests=str(Path(__file__).parent), match=MATCH)


@pytest.mark.parametrize("system", ["posix", "without-posix"])
def test_two_homes_writing_files_of_one_match_into_one_folder_at_once_lose_no_write(tmp_path: Path, system: str) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(folder), who, str(TRIES), system],
            env=process_env(tmp_path / f"home-{who}"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for who in ("alice", "bob")
    ]
    done = [(w.wait(timeout=300), *w.communicate()) for w in writers]
    assert [(code, out.strip()) for code, out, _ in done] == [(0, "0"), (0, "0")], done  # no write failed
    assert len(list(folder.glob("*.toml"))) == 2 * TRIES
    assert not list(folder.glob(".spite-*")), "a temp file was left"


def test_a_temp_file_of_another_machine_is_left_to_it(tmp_path: Path) -> None:
    """Only this machine can tell whether the spite writing a temp file is still at it: another machine's is its own to clear."""
    mine = tmp_path / f".spite-{MATCH}-{home.machine_tag()}-1-abcdefgh.tmp"
    other = tmp_path / f".spite-{MATCH}-{'0' * 8 if home.machine_tag() != '0' * 8 else '1' * 8}-1-abcdefgh.tmp"
    older = tmp_path / f".spite-{MATCH}-1-abcdefgh.tmp"  # named by a spite before issue 33: no machine in the name
    for path in (mine, other, older):
        path.write_bytes(b"left by a killed spite")
    assert home.remove_stale(tmp_path, MATCH) == [mine]
    assert sorted(tmp_path.iterdir()) == sorted([other, older])


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="a spite stopped inside its write needs SIGSTOP")
def test_a_spite_stopped_inside_its_write_keeps_its_temp_file_while_the_other_home_writes_into_the_folder(mail: Mail) -> None:
    """Bob answers Alice's file; while his spite is inside its write (the temp file written, not linked yet), Alice,
    in her own home, plays a file into the same folder (her own file by mistake: refused, after clearing stale temp files)."""
    before = files(mail.folder)
    bob = subprocess.Popen(
        [*MODULE, "play", str(mail.latest), "--auto", "--think", THINK],
        env=process_env(mail.bob.home, SPITE_FAULT="temp-written:stop"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, status = os.waitpid(bob.pid, os.WUNTRACED)
        assert os.WIFSTOPPED(status), status
        [temp] = mail.temps()
        alice = subprocess.run([*MODULE, "play", str(mail.latest)], env=process_env(mail.alice.home), capture_output=True, text=True)
        assert alice.returncode == 1 and "this is your own file" in alice.stderr, alice
        assert mail.temps() == [temp], "Alice's spite removed the temp file Bob's spite is writing"
    finally:
        os.kill(bob.pid, signal.SIGCONT)
    out, err = bob.communicate(timeout=120)
    assert bob.returncode == 0, (out, err)
    reply = new_file(before, mail.folder)
    assert reply is not None and saves.read(reply).prev == saves.read(mail.latest).hash
    assert not mail.temps()
    mail.alice.ok("verify", reply)


def test_without_posix_the_temp_file_of_a_killed_write_is_cleared_by_the_next(mail: Mail) -> None:
    """As on Windows (tests/pbm/without_posix.py): the temp file of a spite killed inside its write is cleared by the next."""
    killed = subprocess.run(
        [*WITHOUT_POSIX, "play", str(mail.latest), "--auto", "--think", THINK],
        env=process_env(mail.bob.home, SPITE_FAULT="temp-written"),
        capture_output=True,
        text=True,
    )
    assert killed.returncode != 0 and len(mail.temps()) == 1, killed
    again = subprocess.run(
        [*WITHOUT_POSIX, "play", str(mail.latest), "--auto"], env=process_env(mail.bob.home), capture_output=True, text=True
    )
    assert again.returncode == 0 and not mail.temps(), again
