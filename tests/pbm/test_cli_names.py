"""Names are plain text everywhere: never read as markup, never sent raw to the terminal, never able to fake a fingerprint.

A name a player chooses may hold brackets, but no control or bidi character; a name read from a file
(which a modified program could sign with anything the format allows) is shown escaped.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from cli_helpers import MODULE, THINK, Player, answer, assert_refused, files, invite, make_player, needs_pty, new_file, process_env
from hostile import resign_doc

from pbm import saves

MARKUP = ["[/x]", "[link=https://example.org]Alice[/link]", "Alice[conceal]"]
REFUSED = {
    "escape": "Al\x1b[31mice",
    "C1 CSI": "Al\x9bice",
    "NEL": "Al\x85ice",
    "DEL": "Al\x7fice",
    "bidi override": "Alice\u202e",
    "bidi isolate": "\u2067Alice",
    "zero width": "Al\u200bice",
    "line separator": "Al\u2028ice",
}
FINGERPRINT = re.compile(r"[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}")


def raw_controls(text: str) -> list[str]:
    """Characters a terminal would act on or hide, found in `text` (newlines and tabs excepted)."""
    return [ch for ch in text if ch not in "\n\t" and not ch.isprintable() and unicodedata.category(ch) != "Zs"]


@pytest.mark.parametrize("name", MARKUP)
def test_a_name_with_markup_is_taken_and_shown_as_typed_on_both_sides(tmp_path: Path, name: str) -> None:
    alice, bob = make_player(tmp_path, "Alice"), make_player(tmp_path, "Bob")
    shown = alice.ok("id", "--name", name)
    assert f"name:        {name}\n" in shown.stdout
    folder = tmp_path / "mail"
    folder.mkdir()
    invitation = folder / "invitation.toml"
    alice.ok("new", "--opponent", name + " 2", "-o", invitation)
    joined = bob.ok("play", invitation, "--yes")  # made out to another name: Bob takes the seat all the same
    assert f"  name:        {name}\n" in joined.stdout, joined  # Bob's first contact shows it literally
    reply = new_file({"invitation.toml": invitation.read_bytes()}, folder)
    assert reply is not None
    answer(alice, reply)
    for player in (alice, bob):
        games = player.ok("games")
        assert "Traceback" not in games.output
    assert name[:12] in bob.ok("games").stdout  # the table may wrap it in its cell, not drop or interpret it


@pytest.mark.parametrize("name", list(REFUSED.values()), ids=list(REFUSED))
def test_a_name_with_control_or_bidi_characters_is_refused_when_chosen(tmp_path: Path, name: str) -> None:
    player = Player("x", tmp_path / "home")
    line = assert_refused(player.spite("id", "--name", name), "printable characters")
    assert not raw_controls(line), line  # the refusal echoes it escaped
    assert not (tmp_path / "home" / "identity.pem").exists()
    alice = make_player(tmp_path, "Alice")
    assert_refused(alice.spite("new", "--opponent", name, "-o", tmp_path / "invitation.toml"), "printable characters")
    assert not (tmp_path / "invitation.toml").exists()


def test_a_name_typed_with_combining_marks_is_stored_and_shown_in_nfc(tmp_path: Path) -> None:
    """Some Vietnamese keyboards type "ễ" as e and two combining marks (NFD): spite keeps and shows the composed name (NFC)."""
    composed = "Nguyễn Thị Hương"
    typed = unicodedata.normalize("NFD", composed)
    assert typed != composed
    player = Player("x", tmp_path / "home")
    shown = player.ok("id", "--name", typed)
    assert f"name:        {composed}\n" in shown.stdout
    assert typed not in shown.stdout
    assert composed.encode() in (tmp_path / "home" / "identity.pem").read_bytes()
    assert f"name:        {composed}\n" in player.ok("id").stdout


# A modified program may sign any name a file allows (no C0 control): every other invisible character at once, or markup.
HOSTILE = ["\x9b\x85\x7f\u202e\u2067\u200b\u2028Alice", "[/x][bold]A[conceal]"]  # C1, DEL, bidi, zero width, separator


@pytest.mark.parametrize("name", HOSTILE, ids=["controls", "markup"])
def test_a_hostile_name_in_a_file_is_shown_escaped_everywhere(tmp_path: Path, name: str) -> None:
    """Alice's program (modified) signs an invitation naming her with control or bidi characters: Bob's terminal never gets them raw."""
    alice, bob, invitation = invite(tmp_path)
    hostile = tmp_path / "mail" / "hostile.toml"
    hostile.write_bytes(resign_doc(invitation.read_bytes(), alice.identity, lambda doc: doc["players"][0].update(name=name)))
    before = files(hostile.parent)
    runs = [bob.ok("verify", hostile), bob.ok("show", hostile), bob.ok("play", hostile, "--auto", "--think", THINK)]
    reply = new_file(before, hostile.parent)
    assert reply is not None
    runs += [bob.ok("games"), bob.ok("show", reply), bob.spite("play", reply)]
    for run in runs:
        assert not raw_controls(run.output), run
    assert "\\" in runs[0].stdout or name in runs[0].stdout  # shown escaped (or, for markup, as it is)


@pytest.mark.parametrize(
    "name",
    [
        "x\u202e",  # would reverse what follows on the line
        "[conceal]",
        "Alice" + " " * 58 + ".",  # pushes the rest of a line far right
    ],
)
def test_the_fingerprint_at_first_contact_cannot_be_hidden_or_faked_by_a_name(tmp_path: Path, name: str) -> None:
    alice, bob, invitation = invite(tmp_path)
    hostile = tmp_path / "mail" / "hostile.toml"
    hostile.write_bytes(resign_doc(invitation.read_bytes(), alice.identity, lambda doc: doc["players"][0].update(name=name)))
    lines = bob.ok("play", hostile, "--auto", "--think", THINK).stdout.splitlines()
    start = lines.index("First contact: a key new to you in this match.")
    assert lines[start + 1] == f"  fingerprint: {alice.identity.fingerprint}"  # the line after the heading, before the name
    assert lines[start + 2].startswith("  name:        ")
    assert not any(FINGERPRINT.search(line) for line in lines[: start + 1])


# Names that would pose as a checked key next to the real one: a fingerprint's shape in any case or with a dash, or a key.
POSING = {
    "fingerprint": "Bob (fingerprint 3AOG-7QXK-M2LD-PZ4E)",
    "lower case": "bob, key 3aog-7qxk-m2ld-pz4e",
    "en dash": "Bob 3AOG–7QXK–M2LD–PZ4E",
    "public key": "Bob spite1:b5dAyVbC",
    "key in capitals": "SPITE1:Bob",
}
POSES = "may not look like a key's fingerprint"


@pytest.mark.parametrize("name", list(POSING.values()), ids=list(POSING))
def test_a_name_shaped_like_a_fingerprint_or_a_key_is_refused_wherever_it_is_chosen(tmp_path: Path, name: str) -> None:
    player = Player("x", tmp_path / "home")
    assert_refused(player.spite("id", "--name", name), POSES)
    assert not (tmp_path / "home" / "identity.pem").exists()
    alice = make_player(tmp_path, "Alice")
    assert_refused(alice.spite("id", "--name", name), POSES)
    assert alice.identity.name == "Alice"  # the key file is left as it was
    assert_refused(alice.spite("new", "--opponent", name, "-o", tmp_path / "invitation.toml"), POSES)
    assert not (tmp_path / "invitation.toml").exists()
    assert "Bob 3AOG-7QXK" in alice.ok("id", "--name", "Bob 3AOG-7QXK").stdout  # two groups are no fingerprint


@needs_pty
def test_the_name_asked_at_first_use_cannot_pose_as_a_key(tmp_path: Path) -> None:
    import pexpect  # only where there are pseudo-terminals (needs_pty)

    home = tmp_path / "home"
    env = {**process_env(home), "TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    child = pexpect.spawn(MODULE[0], [*MODULE[1:], "practice"], env=env, encoding="utf-8", timeout=60, dimensions=(24, 80))
    child.expect_exact("Your name, as your opponents will see it")
    child.sendline(POSING["fingerprint"])
    child.expect_exact(POSES)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert not (home / "identity.pem").exists()


@pytest.mark.parametrize("name", list(POSING.values()), ids=list(POSING))
def test_a_file_whose_name_poses_as_a_key_is_refused_in_one_line(tmp_path: Path, name: str) -> None:
    """Alice's program (modified) signs an invitation naming her as a verified key: Bob refuses it and keeps nothing of it."""
    alice, bob, invitation = invite(tmp_path)
    hostile = tmp_path / "mail" / "hostile.toml"
    hostile.write_bytes(resign_doc(invitation.read_bytes(), alice.identity, lambda doc: doc["players"][0].update(name=name)))
    before = files(hostile.parent)
    for command in ("play", "show", "verify"):
        assert_refused(bob.spite(command, hostile, "--auto", "--think", THINK) if command == "play" else bob.spite(command, hostile),
                       "players[0].name", "shaped like a fingerprint or key")  # fmt: skip
    assert files(hostile.parent) == before
    assert "No matches yet" in bob.ok("games").stdout


def test_the_real_fingerprint_stands_apart_from_the_name_on_the_board_in_games_and_verify(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path)
    theirs = alice.identity.fingerprint
    played = bob.ok("play", invitation, "--auto", "--think", THINK)
    reply = new_file({"invitation.toml": invitation.read_bytes()}, invitation.parent)
    assert reply is not None
    assert f"  fingerprint: {theirs}\n  name:        Alice\n" in played.stdout  # first contact: a line each, labelled
    shown = alice.ok("show", reply).stdout
    assert f"their fingerprint {bob.identity.fingerprint}" in shown  # the board's header, under its own label
    assert theirs not in shown  # never Alice's own in place of Bob's
    assert f"by Bob (key fingerprint {bob.identity.fingerprint})" in alice.ok("verify", reply).stdout
    table = bob.ok("games").stdout.splitlines()
    head = [cell.strip() for cell in next(line for line in table if "opponent" in line).split("┃")]
    body = [[cell.strip() for cell in line.split("│")] for line in table if line.startswith("│")]
    assert "".join(cells[head.index("opponent")] for cells in body) == "Alice"  # in its own labelled column, whole
    match = saves.read(invitation).match[:8]
    assert f"{match}  key {theirs}  " in bob.ok("games").stdout  # 100 columns: labelled, on the match's line below the table
