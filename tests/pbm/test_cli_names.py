"""Names are plain text everywhere: never read as markup, never sent raw to the terminal, never able to fake a fingerprint.

A name a player chooses may hold brackets, but no control or bidi character; a name read from a file (which a
modified program could sign with anything the format allows) must meet the same rule, one rule in one place
(pbm.identity.name_fault), or the file is refused in one line, whichever way it comes (a file, a pasted turn code,
a mail), so that no such name reaches the terminal, a mail, the replay page or --json. A name that an earlier spite
took in before that check stays in the player's journal, their own record: it is shown escaped, never raw, and the
match it names cannot go on.
"""

from __future__ import annotations

import html as htmlmod
import json
import mailbox
import re
import tomllib
import unicodedata
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from cli_helpers import (
    MODULE,
    THINK,
    Player,
    answer,
    assert_refused,
    files,
    invite,
    make_player,
    needs_pty,
    new_file,
    play_match,
    process_env,
)
from hostile import mail_of, resign_doc, turn_of
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import G4A
from pbm import saves
from pbm.errors import IdentityError, SaveFormatError
from pbm.identity import Identity, check_name, is_name, name_fault
from pbm.saves import SaveFile
from pbm.schema import Text
from pbm.transport import code

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


# A modified program may sign any name a file allows: markup is a name like any other, shown as it is.
MARKED_UP = "[/x][bold]A[conceal]"


def test_a_name_with_markup_in_a_file_is_shown_as_it_is_everywhere(tmp_path: Path) -> None:
    """Alice's program (modified) signs an invitation naming her with rich markup: Bob's spite never reads it as markup."""
    alice, bob, invitation = invite(tmp_path)
    hostile = tmp_path / "mail" / "hostile.toml"
    hostile.write_bytes(resign_doc(invitation.read_bytes(), alice.identity, lambda doc: doc["players"][0].update(name=MARKED_UP)))
    before = files(hostile.parent)
    runs = [bob.ok("verify", hostile), bob.ok("show", hostile), bob.ok("play", hostile, "--auto", "--think", THINK)]
    reply = new_file(before, hostile.parent)
    assert reply is not None
    runs += [bob.ok("games"), bob.ok("show", reply), bob.spite("play", reply)]
    for run in runs:
        assert not raw_controls(run.output), run
    assert MARKED_UP in runs[0].stdout


@pytest.mark.parametrize(
    "name",
    [
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


# --- one rule for a name chosen here and a name read from a file ---

# DEL, a C1 control, a bidi override and a zero-width space at once: what issue 33 found a file could name a player.
HIDDEN = "Al\x7fi\x9bc\u202ee\u200b"
NOT_NAMES = {
    **REFUSED,
    "all four at once": HIDDEN,
    "no-break space": "Al\u00a0ice",
    "soft hyphen": "Al\u00adice",
    "private use": "Al\ue000ice",
}


@pytest.mark.parametrize("name", list(NOT_NAMES.values()), ids=list(NOT_NAMES))
def test_a_name_spite_refuses_to_choose_is_no_name_in_a_file(name: str) -> None:
    with pytest.raises(IdentityError, match="printable characters"):
        check_name(name)
    assert not is_name(name) and name_fault(name) == "hidden"
    with pytest.raises(SaveFormatError, match=r"players\[0\]\.name") as refused:
        saves.PLAYER.check({"name": name, "key": ""}, "players[0]")
    assert not raw_controls(str(refused.value))


@given(st.text(max_size=70))
def test_a_name_is_refused_as_typed_exactly_when_it_is_refused_in_a_file(text: str) -> None:
    """check_name trims and composes (NFC) what a player types, then asks the rule a file's name meets as it is."""
    typed = unicodedata.normalize("NFC", text.strip())
    try:
        chosen: str | None = check_name(typed)
    except IdentityError:
        chosen = None
    assert (chosen is not None) == is_name(typed)
    assert chosen is None or chosen == typed


def test_the_rule_says_the_same_on_every_python_spite_runs_on() -> None:
    """A character unassigned in this Python's Unicode (Python 3.11 has Unicode 14, 3.13 has 15.1) may be a symbol in
    another's: a name holding one is taken, chosen or read, so both sides of a match agree on it. A name in another
    normal form than NFC (a spite of 4 December wrote names as typed) is taken from a file as it is."""
    pink_heart = "Anna \U0001fa77"  # Unicode 15.0: unassigned in 3.11, a symbol in 3.12 and later
    assert check_name(pink_heart) == pink_heart and is_name(pink_heart)
    typed = unicodedata.normalize("NFD", "Nguyễn Thị Hương")
    assert is_name(typed) and check_name(typed) == unicodedata.normalize("NFC", typed)


def test_a_save_naming_a_player_with_hidden_characters_cannot_be_built(people: tuple[Identity, ...]) -> None:
    """So no file spite writes, and no mail it sends (its subject and body name the save's players), holds such a name."""
    alice = people[0]
    with pytest.raises(SaveFormatError, match=r"players\[1\]\.name") as refused:
        SaveFile(
            match="00112233445566778899aabbccddeeff", seq=1, game=1, turn=0, prev="", rules=G4A,
            players=(saves.Player("Alice", alice.public_text), saves.Player(HIDDEN, "")), score=(0, 0),
        )  # fmt: skip
    assert not raw_controls(str(refused.value))


def _hidden_invitation(tmp_path: Path) -> tuple[Player, Player, Path, str]:
    """Alice's program (modified) signs an invitation naming her HIDDEN: the file, and its turn code."""
    alice, bob, invitation = invite(tmp_path)
    hostile = tmp_path / "mail" / "hostile.toml"
    hostile.write_bytes(resign_doc(invitation.read_bytes(), alice.identity, lambda doc: doc["players"][0].update(name=HIDDEN)))
    turn = turn_of(tomllib.loads(hostile.read_text()))
    return alice, bob, hostile, "\n\n".join(code.encode_turn(turn))


def _home(player: Player) -> dict[str, bytes]:
    return {str(p.relative_to(player.home)): p.read_bytes() for p in sorted(player.home.rglob("*")) if p.is_file()}


def test_a_file_naming_a_player_with_hidden_characters_is_refused_every_way_it_comes(tmp_path: Path) -> None:
    """As a file (play, show, show --json, verify), as a turn code pasted (play -) and in a mail (inbox, inbox --json):
    refused in one line that shows the name escaped, and nothing of it kept (no journal entry, no file, no folder)."""
    _, bob, hostile, text = _hidden_invitation(tmp_path)
    maildir = tmp_path / "Maildir"
    box = mailbox.Maildir(maildir, create=True)
    box.add(mail_of(text, sender="alice@example.com"))  # the code in the body
    with_file = EmailMessage()
    with_file["From"], with_file["To"], with_file["Subject"] = "alice@example.com", "bob@example.com", "[spite 00112233] invitation"
    with_file.set_content("attached")
    with_file.add_attachment(hostile.read_bytes(), maintype="application", subtype="toml", filename="invitation.toml")
    box.add(with_file.as_bytes())
    folder, home = files(hostile.parent), _home(bob)
    for run in (
        bob.spite("play", hostile, "--auto", "--think", THINK),
        bob.spite("show", hostile),
        bob.spite("show", "--json", hostile),
        bob.spite("verify", hostile),
        bob.spite("play", "-", "--auto", "--think", THINK, input=text + "\n"),
    ):
        line = assert_refused(run, "players[0].name", "printable characters")
        assert "\\x7f" in line and "\\x9b" in line and "\\u202e" in line and "\\u200b" in line and not raw_controls(line)
    for run in (bob.ok("inbox", "--maildir", maildir, "--all"), bob.ok("inbox", "--maildir", maildir, "--all", "--json")):
        assert "players[0].name" in run.output and not raw_controls(run.output), run
    view = json.loads(bob.ok("inbox", "--maildir", maildir, "--all", "--json").stdout)
    # the code is taken apart and refused, saying why; the attached file, which its reader refuses, is no turn found
    assert [t["what"] for t in view["taken"]] == ["refused"] and view["matches"] == [], view
    assert files(hostile.parent) == folder and _home(bob) == home
    assert json.loads(bob.ok("games", "--all", "--json").stdout)["matches"] == []


# --- a name an earlier spite took in: the player's own record, shown escaped; the match does not go on ---

NAMES_OUT = [
    ("games", "--all"),
    ("games", "--all", "--json"),
    ("stats",),
    ("stats", "--json"),
    ("record", "MATCH"),
    ("record", "MATCH", "--json"),
]


@pytest.fixture(scope="module")
def old_match(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Player, Player, Path, str]]:
    """A whole match whose invitation named Alice HIDDEN, played as a spite that did not check names in files took it in
    (the name rule off while it is played): Bob's journal holds the name. Alice, Bob, the mail folder, the match id."""
    root = tmp_path_factory.mktemp("old-match")
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(saves.PLAYER.fields, "name", Text())  # the check a received name had before issue 33: none here
        alice, bob, invitation = invite(root, payoff=3, target=1)
        key = alice.home / "identity.pem"
        key.write_text(re.sub(r'spite-name: ".*"', lambda _: "spite-name: " + json.dumps(HIDDEN), key.read_text()))
        invitation.unlink()
        alice.ok("new", "--payoff", "3", "--target", "1", "-o", invitation)
        match = saves.read(invitation).match
        play_match(alice, bob, invitation)
    yield alice, bob, invitation.parent, match


@pytest.mark.parametrize("args", NAMES_OUT)
def test_a_name_already_in_the_journal_is_shown_escaped(old_match: tuple[Player, Player, Path, str], args: tuple[str, ...]) -> None:
    """Refusing it there would hide the player's own record (and let one file take down every listing of the home);
    escaped, every character of it shows for what it is."""
    _, bob, _, match = old_match
    run = bob.ok(*(match[:8] if arg == "MATCH" else arg for arg in args))
    assert not raw_controls(run.output), run


def test_a_name_already_in_the_journal_is_escaped_on_the_replay_page(old_match: tuple[Player, Player, Path, str], tmp_path: Path) -> None:
    """What the page shows: its title, and every text of the JSON its script reads (the record, the frames, the labels)."""
    _, bob, _, match = old_match
    page = tmp_path / "replay.html"
    bob.ok("record", match[:8], "--html", page)
    html = page.read_text()
    shown = [htmlmod.unescape(re.search(r"<title>(.*?)</title>", html, re.S).group(1))]  # type: ignore[union-attr]
    for block in re.findall(r'<script type="application/json" id="\w+">(.*?)</script>', html, re.S):
        shown += list(_texts(json.loads(block)))
    assert len(shown) > 1 and not [text for text in shown if raw_controls(text)]


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def test_an_old_file_naming_a_hidden_name_is_refused_now(old_match: tuple[Player, Player, Path, str]) -> None:
    """The files themselves: shown or verified again, each is refused in one line, as any file with such a name is now."""
    _, bob, folder, _ = old_match
    for path in sorted(folder.glob("*.toml"))[:3]:
        assert_refused(bob.spite("show", path), "players[0].name")
        assert_refused(bob.spite("verify", path), "players[0].name")


def test_a_match_whose_name_an_earlier_spite_took_in_does_not_go_on(tmp_path: Path) -> None:
    """Bob took in Alice's invitation and first turn before names in files were checked: her next file names her as every
    file of the match does, and is refused; nothing of it is kept."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(saves.PLAYER.fields, "name", Text())
        alice, bob, invitation = invite(tmp_path, payoff=20)
        key = alice.home / "identity.pem"
        key.write_text(re.sub(r'spite-name: ".*"', lambda _: "spite-name: " + json.dumps(HIDDEN), key.read_text()))
        invitation.unlink()
        alice.ok("new", "--payoff", "20", "-o", invitation)
        latest = answer(alice, answer(bob, invitation))
    home = _home(bob)
    assert_refused(bob.spite("play", latest, "--auto", "--think", THINK), "players[0].name", "printable characters")
    assert _home(bob) == home
    assert not raw_controls(bob.ok("games").output)
