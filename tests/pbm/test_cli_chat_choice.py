"""spite chat: the player says once which chat they paste turn codes into, and every command that writes a code cuts it
for that chat's messages (--chat NAME for one run); the choice is kept in the spite home (pbm/chats.py)."""

from __future__ import annotations

import re
from pathlib import Path

from cli_helpers import THINK, assert_refused, invite, make_player

from pbm import chats, saves
from pbm.transport import code


def _parts(text: str) -> list[str]:
    return re.findall(r"BEGIN SPITE TURN.*?END SPITE TURN [^\n]*", text, re.S)


def test_chat_alone_lists_the_chats_and_says_none_is_chosen(tmp_path: Path) -> None:
    alice = make_player(tmp_path, "Alice")
    said = alice.ok("chat").stdout
    assert said.startswith("No chat chosen: turn codes come in parts of 2,000 characters (Discord's messages)")
    for chat in chats.CHATS.values():
        assert re.search(rf"^  {re.escape(chat.name)} +{re.escape(chat.title)} +{chat.chars:,}$", said, re.M), chat.name
    assert not (alice.home / chats.CHOICE_FILE).exists()  # looking writes nothing


def test_a_chosen_chat_is_kept_and_every_file_it_writes_is_one_whatsapp_message(tmp_path: Path) -> None:
    """The invitation (a deal step, ~24,000 characters of code: 13 Discord messages) is one WhatsApp message."""
    alice = make_player(tmp_path, "Alice")
    said = alice.ok("chat", "WhatsApp").stdout
    assert said.startswith("Your chat is WhatsApp: turn codes now come in parts of at most 65,536 characters")
    assert re.search(r"^\* whatsapp +WhatsApp +65,536$", alice.ok("chat").stdout, re.M)
    invitation = tmp_path / "invitation.toml"
    run = alice.ok("new", "--opponent", "Bob", "-o", invitation)
    assert "Send it to Bob: paste its turn code into your chat (one message; spite code invitation.toml prints it)" in run.stdout
    (part,) = _parts(alice.ok("code", invitation).stdout)
    assert len(part.replace("\n", "\r\n")) <= 65_536 and len(code.encode(saves.read(invitation))) > code.MAX_PARTS
    bob = make_player(tmp_path, "Bob")
    bob.ok("play", "-", "-o", tmp_path / "answer.toml", input=part)  # read as any code is: parts of any size
    for chat, parts in (("discord", 13), ("telegram", 7)):  # --chat, for one run
        refused = assert_refused(alice.spite("code", invitation, "--chat", chat), "send the file instead")
        assert f"of {chats.CHATS[chat].chars:,} characters (at most 4)" in refused and abs(int(refused.split()[6]) - parts) <= 1
    run = alice.ok("new", "--opponent", "Carol", "-o", tmp_path / "second.toml", "--chat", "telegram")
    assert re.search(r"Send the file to Carol \(its turn code would take \d chat messages\)\.\n", run.stdout), run
    assert re.search(r"^\* whatsapp", alice.ok("chat").stdout, re.M)  # --chat changed nothing kept


def test_an_unknown_chat_is_a_usage_error_and_nothing_is_written(tmp_path: Path) -> None:
    alice = make_player(tmp_path, "Alice")
    for args in (("chat", "whatsap"), ("new", "-o", tmp_path / "inv.toml", "--chat", "whatsap")):
        run = alice.spite(*args)
        lines = run.stderr.splitlines()
        assert run.exit_code == 2 and len(lines) == 1 and run.stdout == "", run
        assert "spite knows no chat called 'whatsap': it knows whatsapp, telegram, discord" in lines[0]
    assert not (tmp_path / "inv.toml").exists() and not (alice.home / chats.CHOICE_FILE).exists()
    assert alice.ok("games").stdout.startswith("No matches")
    run = alice.spite("chat", "\x1b[31m" + "x" * 500)  # echoed escaped and cut short
    assert run.exit_code == 2 and "\\x1b[31mxxx" in run.stderr and "x" * 100 not in run.stderr and "\x1b" not in run.stderr


def test_a_damaged_choice_is_said_and_the_file_is_written_with_discords_parts(tmp_path: Path) -> None:
    alice = make_player(tmp_path, "Alice")
    choice = alice.home / chats.CHOICE_FILE
    for damaged in (b"\xff\xfe not text", b'chat = "myspace"\n', b"chat = 3\n", b"chat = [" + b"[" * 9000):
        choice.write_bytes(damaged)
        out = tmp_path / f"inv-{len(damaged)}.toml"
        run = alice.ok("new", "-o", out)
        assert out.exists() and "Send the file to your opponent (its turn code would take 13 chat messages)" in run.stdout
        note = run.stderr.strip().splitlines()
        assert len(note) == 1 and note[0].startswith("Note: ") and "Until then, turn codes come in parts of 2,000 characters." in note[0]
        assert "damaged: choose your chat again with spite chat NAME" in note[0] or "no chat called 'myspace'" in note[0]
        assert alice.ok("chat").stdout.startswith("Note: ")
    alice.ok("chat", "signal")
    assert chats.chosen(alice.home) == chats.CHATS["signal"]


def test_play_and_resign_cut_their_codes_for_the_chat_given(tmp_path: Path) -> None:
    """--chat on play and resign: the answer's code is cut for that chat, and spite code is told the same chat."""
    alice, bob, invitation = invite(tmp_path)
    answer = tmp_path / "answer.toml"
    run = bob.ok("play", invitation, "-o", answer, "--chat", "whatsapp")
    assert "(one message; spite code answer.toml --chat whatsapp prints it)" in run.stdout, run
    dealt = tmp_path / "dealt.toml"
    run = alice.ok("play", answer, "--auto", "--think", THINK, "-o", dealt, "--chat", "sms")
    assert re.search(r"\((one message|\d messages); spite code dealt.toml --chat sms prints it\)", run.stdout), run
    assert all(len(part) <= 918 for part in _parts(alice.ok("code", dealt, "--chat", "sms").stdout))
    match = saves.read(dealt).match[:8]
    run = bob.ok("resign", match, "--yes", "--file", dealt, "-o", tmp_path / "resign.toml", "--chat", "whatsapp")
    assert "(one message; spite code resign.toml --chat whatsapp prints it)" in run.stdout, run
