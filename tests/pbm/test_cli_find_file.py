"""`spite play` with no FILE: the newest next file of one of the player's matches, in this folder or Downloads (issue 34).

It names the file with its age and asks at a terminal; --yes takes it; without a terminal it names it and plays
nothing; none found is one line saying where it looked. Renamed attachments ("x (1).toml") and turn codes saved as
.txt count; the player's own files, files already answered and anything that is not spite's do not.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from cli_helpers import MODULE, THINK, assert_refused, code_of, files, invite, new_file, process_env, pty_pexpect

from pbm import findsave, saves
from pbm.transport import code


def _aged(path: Path, seconds_ago: float) -> Path:
    """`path`, its modification time set `seconds_ago` before now: the order in which a browser saved the files."""
    when = time.time() - seconds_ago
    os.utime(path, (when, when))
    return path


def test_play_with_no_file_takes_the_next_file_of_a_match_from_downloads_or_this_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, invitation = invite(tmp_path)
    downloads, work = tmp_path / "Downloads", tmp_path / "work"
    downloads.mkdir()
    work.mkdir()
    monkeypatch.chdir(work)
    env = {findsave.DOWNLOADS_ENV: str(downloads)}
    saved = _aged(Path(shutil.copy(invitation, downloads / "spite-invitation (1).toml")), 180)  # a chat's renamed copy
    (downloads / "notes.txt").write_text("dear Bob,\n")  # newer, and not spite's
    (downloads / "pyproject.toml").write_text('[project]\nname = "x"\n')

    before = files(downloads)
    said = assert_refused(bob.spite("play", env=env), "Alice's invitation to match", "saved 3 min ago", str(saved), "--yes")
    assert new_file(before, downloads) is None, said  # no terminal, no --yes: it names the file and plays nothing

    run = bob.ok("play", "--yes", env=env)
    assert f"Alice's invitation to match {saves.read(invitation).match[:8]}, saved 3 min ago:\n  {saved}\n" in run.stdout, run
    dealt = new_file(before, downloads)
    assert dealt is not None and saves.read(dealt).seq == 2  # the answer beside the file it answers, as for any FILE

    # Alice saved Bob's answer in the folder she works in: the invitation there is her own, the answer the one to play
    monkeypatch.chdir(downloads)
    elsewhere = {findsave.DOWNLOADS_ENV: str(work)}
    before = files(downloads)
    run = alice.ok("play", "--yes", "--auto", "--think", THINK, env=elsewhere)
    assert f"Bob's file of match {saves.read(dealt).match[:8]} (game 1, turn 0), saved just now:\n  {dealt.name}\n" in run.stdout, run
    turn = new_file(before, downloads)
    assert turn is not None and saves.read(turn).prev == saves.read(dealt).hash

    # the turn as a code a chat saved to a text file: the invitation is answered, the deal step Bob's own
    parts = code_of(alice, turn)
    assert parts is not None
    message = downloads / "WhatsApp message.txt"
    message.write_text("Alice: here you go\n" + "\n\n".join(parts) + "\n", encoding="utf-8")
    turn.unlink()
    monkeypatch.chdir(work)
    left = bob.spite("play", "--yes", input="", env=env)  # looked at, recorded, left at the prompt: still the one to play
    assert left.exit_code == 1 and "no more input: nothing was written" in left.stderr, left
    run = bob.ok("play", "--yes", "--auto", "--think", THINK, env=env)
    assert f"Alice's file of match {saves.read(dealt).match[:8]} (game 1, turn 1), saved just now:\n  {message}\n" in run.stdout, run

    # nothing left to play: one line that says where it looked
    assert_refused(bob.spite("play", env=env), "no file to play", f"{work}, {downloads}", "spite play FILE")


def test_only_the_newest_files_of_a_folder_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, bob, invitation = invite(tmp_path)
    monkeypatch.chdir(invitation.parent)
    env = {findsave.DOWNLOADS_ENV: str(invitation.parent)}
    _aged(invitation, 600)
    (invitation.parent / "huge.toml").write_bytes(b"#" * (code.MAX_INPUT + 1))  # over what spite reads: skipped unread
    for n in range(findsave.MOST_PER_FOLDER - 1):
        (invitation.parent / f"other-{n}.toml").write_text("[x]\n")
        _aged(invitation.parent / f"other-{n}.toml", 60)
    assert "Alice's invitation" in bob.spite("play", env=env).stderr  # the 16th newest: still read

    (invitation.parent / "one-more.toml").write_text("[x]\n")
    said = assert_refused(bob.spite("play", env=env), "no file to play", "newest")
    assert str(invitation.parent) in said


def test_the_downloads_folder_of_each_platform(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "Downloads").mkdir(parents=True)
    (home / "Téléchargements").mkdir()
    assert findsave.downloads_folder({}, "darwin", home) == home / "Downloads"
    assert findsave.downloads_folder({"USERPROFILE": str(home)}, "win32", home) == home / "Downloads"  # no shell32 here
    assert findsave.downloads_folder({}, "linux", home) == home / "Downloads"  # no user-dirs.dirs
    (home / ".config").mkdir()
    dirs = '# a comment\nXDG_DESKTOP_DIR="$HOME/Desktop"\nXDG_DOWNLOAD_DIR="$HOME/Téléchargements"\n'
    (home / ".config" / "user-dirs.dirs").write_text(dirs, encoding="utf-8")
    assert findsave.downloads_folder({}, "linux", home) == home / "Téléchargements"
    assert findsave.downloads_folder({findsave.DOWNLOADS_ENV: str(tmp_path)}, "linux", home) == tmp_path
    assert findsave.downloads_folder({findsave.DOWNLOADS_ENV: str(tmp_path / "none")}, "linux", home) is None
    setting = findsave.downloads_setting
    assert setting('XDG_DOWNLOAD_DIR="/data/dl"\n', home) == Path("/data/dl")
    assert setting('XDG_DOWNLOAD_DIR="$HOME/"\n', home) is None  # the format's "no such folder"
    assert setting('XDG_DOWNLOAD_DIR="relative"\nXDG_DOWNLOAD_DIR=$HOME/b', home) == home / "b"
    assert setting("XDG_DOWNLOAD_DIR=" + '"' * 100_000, home) is None


def test_at_a_terminal_it_asks_before_playing_the_file_it_found(tmp_path: Path) -> None:
    pexpect = pty_pexpect()
    _, bob, invitation = invite(tmp_path)
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    saved = Path(shutil.copy(invitation, downloads / "spite-invitation (1).toml"))
    env = process_env(bob.home, COLUMNS="80", LINES="24", TERM="xterm", INPUTRC="/dev/null", **{findsave.DOWNLOADS_ENV: str(downloads)})
    ask = pexpect.spawn(MODULE[0], [*MODULE[1:], "play"], env=env, cwd=str(tmp_path), encoding="utf-8", timeout=60, dimensions=(24, 80))
    ask.expect_exact("Play it? [Y/n]")
    assert f"Alice's invitation to match {saves.read(invitation).match[:8]}, saved just now:\r\n  {saved}\r\n" in (ask.before or "")
    ask.sendline("")
    ask.expect_exact("Go on with this key for Alice?")
    ask.sendline("")
    ask.expect_exact("The cards of game 1 are being dealt")
    ask.expect(pexpect.EOF)
    ask.close()
    assert ask.exitstatus == 0
    assert any(re.search(r"-deal2\.toml$", p.name) for p in downloads.iterdir())
