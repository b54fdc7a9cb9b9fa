"""Playing in a chat or by mail: whole matches whose turns travel only as turn codes through a chat client, or as
mail bodies through Python's email package, and what a turn code is to the journal (the same save as its file)."""

from __future__ import annotations

import email
import email.policy
import os
import random
import re
import shutil
import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest
from cli_helpers import (
    THINK,
    Player,
    Run,
    assert_refused,
    calm_start,
    code_of,
    copied_match,
    files,
    make_player,
    needs_pty,
    new_file,
    scratch,
)

from engine.cards import RANK_TEXT, Card
from pbm import chats, saves
from pbm.transport import code

# --- a chat client, as the receiver copies a conversation out of it ---


def hard_wrap(text: str, width: int) -> str:
    """Lines longer than `width` broken every `width` characters, as a narrow chat window or a mail client does."""
    return "\n".join(line[i : i + width] for line in text.split("\n") for i in range(0, max(len(line), 1), width))


def chat_client(parts: list[str], sender: str, rng: random.Random) -> str:
    """The parts of a turn code as a receiver copies them out of a group chat: one message each, with the client's header
    and reactions, quoted in a reply and re-wrapped at 60 columns, or exported with a date, time and name on every line,
    or joined onto one line with non-breaking spaces, or re-wrapped at 37, or joined onto one line and then re-wrapped at
    60 (inside the BEGIN and END lines); shuffled among other messages, with CRLF, a BOM."""
    messages = []
    for k, part in enumerate(parts):
        first, body = part.split("\n", 1)
        part = f"{first}\n{body[:10]}\u200b{body[10:]}"  # a zero-width space, where a client allows a break
        style = rng.randrange(6)
        if style == 0:
            part = hard_wrap("\n".join(f"> {line}" for line in part.split("\n")), 60)  # quoted, then re-wrapped
        elif style == 1:
            part = "\n".join(f"{rng.choice(('> ', '> > ', '| '))}{line}" for line in hard_wrap(part, 60).split("\n"))
        elif style == 2:  # a chat exported as text: each line after a date, a time and the sender
            part = "\n".join(f"01/12/2026, 21:{40 + n % 10} - {sender}: {line}" for n, line in enumerate(part.split("\n")))
        elif style == 3:  # joined onto one line, with non-breaking spaces
            part = part.replace("\n", " ").replace(" ", "\u00a0")
        elif style == 4:  # re-wrapped at 37 columns, a phone's narrow window
            part = hard_wrap(part, 37)
        else:  # joined onto one line, then re-wrapped at 60 columns: breaks inside the BEGIN and END lines
            part = hard_wrap(part.replace("\n", " "), 60)
        messages.append(f"{sender}\u00a0— Today at 21:0{k}\n{part}\n\n👍 1")
    messages += ["Carol — Today at 21:05\nwho is winning?", "Dana — Today at 21:06\n\tno idea lol"]
    rng.shuffle(messages)
    return "\ufeff" + "\n\n".join(messages).replace("\n", "\r\n") + "\r\n"


@dataclass
class Sent:
    """One file of a match and how it travelled: the text the receiver was given ("" if the file itself), and the
    receiver's play of it."""

    path: Path
    writer: Player
    text: str
    play: Run


def play_through(
    first: Player, second: Player, path: Path, carry: Callable[[Player, Path], str | None], folders: dict[str, Path]
) -> list[Sent]:
    """Answer with `spite play - --auto` the text `carry` makes of each file, back and forth until a player sends nothing;
    a file `carry` makes no text of travels as itself, an attachment saved into the receiver's folder.

    Each player writes to their own folder: the receiver is never given the sender's file, only the text.
    """
    writer, reader = first, second
    sent: list[Sent] = []
    for n in range(2, 400):
        text = carry(writer, path)
        out = folders[reader.name] / f"{n:03d}.toml"
        if text is None:
            attachment = folders[reader.name] / f"attachment-{n:03d}.toml"
            shutil.copyfile(path, attachment)
            run = reader.spite("play", attachment, "--auto", "--think", THINK, "-o", out)
        else:
            run = reader.spite("play", "-", "--auto", "--think", THINK, "-o", out, input=text.encode("utf-8"))
        assert run.exit_code == 0, f"{path.name}:\n{text}\n{run}"
        sent.append(Sent(path, writer, text or "", run))
        if not out.exists():
            return sent
        writer, reader, path = reader, writer, out
    raise AssertionError("the match did not end within 400 files")


@dataclass
class Played:
    alice: Player
    bob: Player
    folders: dict[str, Path]
    sent: list[Sent]


def _match(root: Path, carry: Callable[[Player, Path], str | None], tries: int = 3, alice_chat: str | None = None) -> Played:
    """A whole match with piles of 5 played through `carry`, under `root`, with at least two ordinary turns; with
    `alice_chat`, Alice has said which chat she uses (spite chat NAME) and Bob has not.

    A game can end on its first turn (the starter plays out all five pay-off cards: 2 of 140 matches tried), and one game
    of piles of 5 scores enough for a match of 3: then the match has no ordinary turn to carry, and a new one is played.
    """
    for attempt in range(1, tries + 1):
        here = root / f"match-{attempt}"
        here.mkdir()
        alice, bob = make_player(here, "Alice"), make_player(here, "Bob")
        if alice_chat is not None:
            alice.ok("chat", alice_chat)
        folders = {p.name: here / f"files-{p.name.lower()}" for p in (alice, bob)}
        for folder in folders.values():
            folder.mkdir()
        invitation = folders["Alice"] / "001.toml"
        alice.ok("new", "--payoff", "5", "--target", "3", "-o", invitation)
        played = Played(alice, bob, folders, play_through(alice, bob, invitation, carry, folders))
        if sum(_ordinary(s.path) for s in played.sent) >= 2:
            return played
    raise AssertionError(f"{tries} matches in a row ended with fewer than two ordinary turns")


@pytest.fixture(scope="module")
def chat_match(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A whole match in which every file travels as a turn code through a chat client, but those `spite code` says to send
    as files, which travel as attachments: Alice is on WhatsApp (spite chat whatsapp), so each of her files is one
    message; Bob has chosen no chat, so his codes come in parts of 2,000 characters and his deal steps and turns that
    shuffle (each with a proof of shuffle) are attachments."""
    rng = random.Random(12)

    def carry(writer: Player, path: Path) -> str | None:
        parts = code_of(writer, path)
        return None if parts is None else chat_client(parts, writer.name, rng)

    with scratch(tmp_path_factory.mktemp("chat")) as root:
        yield _match(root, carry, alice_chat="whatsapp")


def _ends_the_same_for_both(played: Played) -> None:
    last = played.sent[-1]
    assert "The match is over" in last.play.stdout, last.play
    views = {p.name: p.show(last.path) for p in (played.alice, played.bob)}  # the last file: the writer's own, the reader's latest
    assert views["Alice"]["match_over"] and views["Bob"]["match_over"]
    assert views["Alice"]["scores"] == views["Bob"]["scores"]
    for player in (played.alice, played.bob):
        other = played.bob if player is played.alice else played.alice
        assert other.name not in player.ok("games").stdout  # finished, its last file recorded: listed only with --all
        row = next(line for line in player.ok("games", "--all").stdout.splitlines() if other.name in line)
        assert "over" in row, row


def _cards_shown(path: Path) -> int:
    """How many cards the file's turn shows the opponent or draws, each with its own point and proof (about 135 characters
    of code): its reveals and its drawn cards."""
    turn = saves.read(path).protocol["message"]["turn"]
    return len(turn["reveals"]) + len(turn.get("end", {}).get("draw", {}).get("points", []))


def _ordinary(path: Path) -> bool:
    """Whether the file is an ordinary turn: moves, and no proof of shuffle in its message (no deal step, no shuffle)."""
    save = saves.read(path)
    end = save.protocol["message"].get("turn", {}).get("end", {})
    return bool(save.state) and "deal" not in save.protocol["message"] and not {"shuffle", "merge", "pools"} & set(end)


def test_a_whole_match_played_with_turn_codes_through_a_chat_client(chat_match: Played) -> None:
    sent = chat_match.sent
    assert sum(_ordinary(s.path) for s in sent) >= 2  # what _match plays for
    _ends_the_same_for_both(chat_match)
    parts = [len(re.findall(r"BEGIN\sSPITE", s.text)) for s in sent]  # \s: a non-breaking space too
    # An ordinary turn is one message unless it shows many cards. A message holds at most 2,000 characters (1,856 of code);
    # an ordinary turn's is about 390, ~135 more for each card shown or drawn and ~3 a move: 7 cards and 90 moves come to
    # ~1,600. Over 1,560 ordinary turns of 30 matches with piles of 5, 10 cards took at most 1,845; 11 can take two messages.
    alice = [n for s, n in zip(sent, parts, strict=True) if s.writer is chat_match.alice]
    bob = [(s, n) for s, n in zip(sent, parts, strict=True) if s.writer is chat_match.bob]
    assert sent[0].writer is chat_match.alice and alice[0] == 1  # the invitation, a deal step: one WhatsApp message
    assert alice.count(1) == len(alice)  # on WhatsApp, each of Alice's files is one message: no attachment
    for s, n in bob:
        assert n == 1 or not _ordinary(s.path) or _cards_shown(s.path) > 7, s.path
        assert 0 < n <= code.MAX_PARTS or len(code.encode(saves.read(s.path))) > code.MAX_PARTS, s.path
    attached = parts.count(0)  # Bob's attachments: his deal steps, and turns that shuffle a stack in
    assert attached > 0 and 2 * attached <= len(bob), (attached, len(bob))  # at most half his files (a short match: 1 of 3)
    whatsapp = chats.CHATS["whatsapp"].chars
    assert all(len(code.encode(saves.read(s.path), whatsapp)) == 1 for s in sent)  # on WhatsApp, Bob's would be too
    for s in sent:
        assert "Send it to" in s.play.stdout or "Send the file to" in s.play.stdout or "The match is over" in s.play.stdout
    for folder in chat_match.folders.values():  # each player's folder holds the files they wrote, and attachments
        signers = {saves.read(p).signer for p in folder.iterdir() if not p.name.startswith("attachment-")}
        assert len(signers) == 1


def test_every_file_of_the_chat_match_fits_76_columns_and_its_code_its_writers_chat(chat_match: Played) -> None:
    for s in chat_match.sent:
        lines = s.path.read_text().splitlines()
        assert max(map(len, lines)) <= 76, s.path
        most = chats.CHATS["whatsapp"].chars if s.writer is chat_match.alice else code.PART_CHARS
        assert all(len(part.replace("\n", "\r\n")) <= most for part in code.encode(saves.read(s.path), most))


# --- mail ---


def flowed(text: str, width: int = 72) -> str:
    """`text` as a format=flowed mail client sends it (RFC 3676): long lines broken after a space, which stays (a soft
    break), and lines that start with a space, '>' or 'From ' stuffed with a space."""
    out = []
    for line in text.split("\n"):
        if line.startswith((" ", ">", "From ")):
            line = " " + line
        while len(line) > width and " " in line[1:width]:
            cut = line.rindex(" ", 1, width) + 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return "\n".join(out)


def through_mail(path: Path, kind: str) -> str:
    """The save at `path` sent as a mail body (quoted-printable, format=flowed or not) and what the receiver copies back:
    the decoded body, its quoted-printable source, or a reply quoting it re-wrapped at 60 columns."""
    text = path.read_text()
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "alice@example.org", "bob@example.org", "my turn"
    message.set_content(flowed(text) if kind == "flowed" else text, cte="quoted-printable")
    if kind == "flowed":
        message.set_param("format", "flowed")
    wire = message.as_bytes(policy=email.policy.SMTP)
    assert max(len(line) for line in wire.split(b"\r\n")) <= 78  # what mail carries unchanged
    back = email.message_from_bytes(wire, policy=email.policy.default)
    body = back.get_content()
    if kind == "source":
        return back.get_payload()
    if kind == "reply":
        return "On Monday Alice wrote:\n" + hard_wrap("\n".join(f"> {line}" for line in body.split("\n")), 60) + "\n\nnice move\n"
    return body


MAIL_KINDS = ("plain", "flowed", "source", "reply")


@pytest.fixture(scope="module")
def mail_match(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A whole match in which every file travels as a mail body, each through one of MAIL_KINDS in turn."""
    kinds = iter(MAIL_KINDS * 200)
    with scratch(tmp_path_factory.mktemp("mail")) as root:
        yield _match(root, lambda writer, path: through_mail(path, next(kinds)))


def test_a_whole_match_whose_files_travel_as_mail_bodies(mail_match: Played) -> None:
    assert sum(bool(saves.read(s.path).state) for s in mail_match.sent) >= 2
    _ends_the_same_for_both(mail_match)
    texts = [s.text for s in mail_match.sent]
    assert any("=3D" in t for t in texts) and any(t.startswith("On Monday") for t in texts)
    assert any(re.search(r"= \r?\n", t) for t in texts)  # a flowed soft break, after the '=' of a long line


# --- what a turn code is to the journal ---


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Alice and Bob four files into a match by files; Alice has just written the last one, Bob has not seen it, and his
    answer will be an ordinary turn of game 1."""
    with scratch(tmp_path_factory.mktemp("codes")) as root:
        calm_start(root, 4)
        make_player(root, "Carol")
        yield root


@dataclass
class Desk:
    alice: Player
    bob: Player
    carol: Player
    root: Path
    chain: list[Path]

    @property
    def folder(self) -> Path:
        return self.chain[0].parent


@pytest.fixture()
def desk(base: Path, tmp_path: Path) -> Iterator[Desk]:
    with copied_match(base, tmp_path) as (root, chain):
        yield Desk(*(Player(n, root / f"home-{n.lower()}") for n in ("Alice", "Bob", "Carol")), root, chain)


def _code_text(path: Path) -> str:
    """The turn code of the file at `path`, as `spite code` prints it, however many parts it has."""
    return "\n\n".join(code.encode(saves.read(path)))


def test_a_code_and_the_file_of_the_same_turn_are_one_save(desk: Desk) -> None:
    latest = desk.chain[-1]
    text = _code_text(latest)
    assert "Center" in desk.bob.ok("show", "-", input=text).stdout  # seen as a code ...
    desk.bob.ok("show", latest)  # ... then as the file: the same save, not a second version of the turn
    before = files(desk.folder)
    played = desk.bob.ok("play", "-", "--auto", "--think", THINK, "-o", desk.root / "answer.toml", input=text)
    assert "Send it to Alice" in played.stdout and new_file(before, desk.folder) is None
    for run in (desk.bob.spite("play", latest), desk.bob.spite("play", "-", input=text)):
        assert_refused(run, "you have already played from this file")
    for run in (desk.bob.ok("verify", latest), desk.bob.ok("verify", "-", input=text)):  # looked at again: as it was
        assert "chain:     an earlier file: game" in run.stdout, run
    desk.alice.ok("verify", desk.root / "answer.toml")  # Alice takes the answer to her code as she would any answer


def test_an_answer_from_a_code_is_the_answer_from_the_file(desk: Desk) -> None:
    latest = desk.chain[-1]
    twin = Player("Bob", desk.root / "home-bob-twin")
    shutil.copytree(desk.bob.home, twin.home)
    discard = f"{RANK_TEXT[Card.parse(desk.bob.show(latest)['hand'][0]).rank]}-s1"
    from_file = answer_with(desk.bob, ["play", latest], discard, desk.root / "from-file")
    from_code = answer_with(twin, ["play", "-"], discard, desk.root / "from-code", input=_code_text(latest))
    a, b = saves.read(from_file), saves.read(from_code)
    assert saves.default_name(a) == saves.default_name(b) and a.history == b.history and a.state == b.state
    assert (a.seq, a.game, a.turn, a.prev, a.score, a.players, a.rules) == (b.seq, b.game, b.turn, b.prev, b.score, b.players, b.rules)
    assert a.secrets.keys() == {0, 1} and b.secrets.keys() == {1}  # the code carried none of Alice's sealed secrets
    alice_twin = Player("Alice", desk.root / "home-alice-twin")  # each answer to one copy of Alice: the second would be a fork
    shutil.copytree(desk.alice.home, alice_twin.home)
    for alice, path in ((desk.alice, from_file), (alice_twin, from_code)):
        assert alice.ok("verify", path).stdout.rstrip().endswith("OK")


def answer_with(player: Player, args: list[str | Path], moves: str, folder: Path, input: str | None = None) -> Path:
    folder.mkdir()
    run = player.ok(*args, "--moves", moves, "-o", folder / "answer.toml", input=input)
    assert "Wrote" in run.stdout
    return folder / "answer.toml"


def test_a_second_version_of_a_turn_is_a_fork_as_a_code_too(desk: Desk) -> None:
    desk.bob.ok("show", desk.chain[-1])  # Bob has seen Alice's answer to his last file
    other_alice = Player("Alice", desk.root / "home-alice-before")  # her home as it was before she wrote it
    shutil.copytree(desk.alice.home, other_alice.home)
    _forget_last(other_alice)
    second = desk.root / "second.toml"
    other_alice.ok("play", desk.chain[-2], "--auto", "--think", THINK, "-o", second)
    assert saves.read(second).hash != saves.read(desk.chain[-1]).hash
    for run in (desk.bob.spite("play", second), desk.bob.spite("play", "-", input=_code_text(second))):
        assert_refused(run, "Alice sent two different versions of turn")


def _forget_last(player: Player) -> None:
    """Drop the player's latest save from their journal, as a copy of their home made before they wrote it would be."""
    db = sqlite3.connect(player.home / "journal.sqlite")
    with db:
        (match, seq) = db.execute("SELECT match, MAX(seq) FROM saves").fetchone()
        db.execute("DELETE FROM saves WHERE match = ? AND seq = ?", (match, seq))
        db.execute("DELETE FROM seats WHERE match = ? AND seq = ?", (match, seq))
    db.close()


def test_a_code_of_a_match_the_receiver_is_not_in_is_refused(desk: Desk) -> None:
    text = _code_text(desk.chain[-1])
    line = assert_refused(desk.carol.spite("play", "-", input=text), "no record")
    assert "ask for the file" in line
    joined = _code_text(desk.chain[1])  # the code of the answer to the invitation names both players
    for run in (desk.carol.spite("play", "-", input=joined), desk.carol.spite("play", desk.chain[1])):
        assert_refused(run, "a match between Alice and Bob; you (Carol")


# --- damage, at the command ---


def test_each_damage_of_a_pasted_code_is_named_and_nothing_is_written(desk: Desk) -> None:
    parts = code.encode(saves.read(desk.chain[0]))  # the invitation's code, of many parts: a reader takes any number
    n = len(parts)
    assert n > 3
    lines = parts[2].split("\n")
    changed = "\n".join([*lines[:2], lines[2][:5] + ("A" if lines[2][5] != "A" else "B") + lines[2][6:], *lines[3:]])
    damages = {
        f"part 2 of {n} is missing": [parts[0], *parts[2:]],
        f"part 2 of {n} is damaged or cut": [parts[0], "\n".join(parts[1].split("\n")[:-4]), *parts[2:]],
        f"part 3 of {n} is damaged or cut": [*parts[:2], changed, *parts[3:]],
    }
    fresh = make_player(desk.root, "Dana")
    before = files(desk.folder)
    for named, pasted in damages.items():
        run = fresh.spite("play", "-", "--auto", input="\n\n".join(pasted))
        line = assert_refused(run, named, "copy it again")
        assert run.stdout == "", line
    assert new_file(before, desk.folder) is None and fresh.ok("games").stdout.startswith("No matches")
    fresh.ok("verify", "-", input="\n\n".join(reversed(parts)))  # all of them, in any order: the invitation, whole


def test_a_file_whose_code_would_take_more_than_four_messages_is_sent_as_a_file(desk: Desk, tmp_path: Path) -> None:
    invitation = desk.chain[0]  # a deal step: its proof of shuffle of the deck takes ~25 KB
    assert len(code.encode(saves.read(invitation))) > code.MAX_PARTS
    line = assert_refused(desk.alice.spite("code", invitation), "send the file instead")
    assert re.search(r"would take \d+ messages of 2,000 characters \(at most 4\)", line)
    other = make_player(desk.root, "Erin")
    run = other.ok("new", "-o", tmp_path / "invitation.toml", "--copy")
    assert re.search(r"Send the file to your opponent \(its turn code would take \d+ chat messages\)\. Nothing was copied", run.stdout), run


def test_play_takes_a_file_standard_input_or_the_clipboard_one_of_them(desk: Desk) -> None:
    """A FILE and --paste together are a usage error (with neither, spite play looks for the file: issue 34, item 2)."""
    run = desk.bob.spite("play", desk.chain[-1], "--paste")
    said = "give a FILE (- for standard input) or --paste, not both"
    assert run.exit_code == 2 and said in run.stderr and "see 'spite play --help'" in run.stderr, run


def test_a_save_given_on_standard_input_is_played_and_recorded_without_a_file(desk: Desk, tmp_path: Path) -> None:
    out = tmp_path / "answer.toml"
    desk.bob.ok("play", "-", "--auto", "--think", THINK, "-o", out, input=desk.chain[-1].read_text())
    received = saves.read(desk.chain[-1])
    assert saves.read(out).prev == received.hash
    db = sqlite3.connect(desk.bob.home / "journal.sqlite")
    paths = dict(db.execute("SELECT hash, path FROM saves"))
    db.close()
    assert paths[received.hash] == "" and paths[saves.read(out).hash] == str(out.resolve())  # no folder taken for a file


@needs_pty
def test_a_code_pasted_at_a_terminal_is_read_without_ctrl_d_and_the_turn_played_at_the_prompt(desk: Desk) -> None:
    import pexpect

    env = {**os.environ, "SPITE_HOME": str(desk.bob.home), "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "80", "INPUTRC": "/dev/null"}
    env.pop("SPITE_PASSPHRASE", None)
    child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", "play", "-"], env=env, cwd=str(desk.root), encoding="utf-8", timeout=60)
    child.expect_exact("Paste the turn code")
    for line in _code_text(desk.chain[-1]).split("\n"):
        child.sendline(line)
    child.expect_exact("your move> ")  # the code was whole at its END line: the board and the prompt follow
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Nothing written" in child.before


def _two_parts(path: Path) -> list[str]:
    """The turn code of the file at `path` cut in two parts (as for a chat whose messages hold half of it)."""
    save = saves.read(path)
    lines = len(code.encode(save, 65_536)[0].split("\n")) - 2
    parts = code.encode(save, code._FRAME + (code.LINE + 2) * -(-lines // 2))
    assert len(parts) == 2
    return parts


@needs_pty
def test_a_code_pasted_one_part_at_a_time_at_a_terminal_says_which_part_to_paste_next(desk: Desk) -> None:
    """Issue 34: after part 1 of a two-part code, `spite play -` waited without a word."""
    import pexpect

    env = {**os.environ, "SPITE_HOME": str(desk.bob.home), "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "80", "INPUTRC": "/dev/null"}
    env.pop("SPITE_PASSPHRASE", None)
    child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", "play", "-"], env=env, cwd=str(desk.root), encoding="utf-8", timeout=60)
    child.expect_exact("Paste the turn code")
    first, second = _two_parts(desk.chain[-1])
    for line in first.split("\n"):
        child.sendline(line)
    child.expect_exact("Read part 1 of 2; paste part 2.")
    for line in second.split("\n"):
        child.sendline(line)
    child.expect_exact("your move> ")  # whole at the last part's END line
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Nothing written" in child.before and "Read part" not in child.before


def test_a_code_joined_onto_one_line_and_re_wrapped_by_a_chat_is_played(desk: Desk) -> None:
    """Issue 34: a code joined onto one line, then re-wrapped at 60 columns (inside its BEGIN and END lines), was refused
    as damaged."""
    parts = _two_parts(desk.chain[-1])
    for joined in (" ", ""):  # with the spaces of its lines, or none at all
        text = "\n\n".join(hard_wrap(joined.join(part.split()), 60) for part in parts)
        verify = desk.bob.ok("verify", "-", input=text)
        assert verify.stdout.rstrip().endswith("OK"), verify
    run = desk.bob.ok("play", "-", "--auto", "--think", THINK, "-o", desk.root / "answer.toml", input=text)
    assert "Send it to Alice" in run.stdout and saves.read(desk.root / "answer.toml").prev == saves.read(desk.chain[-1]).hash


# --- the clipboard ---


NO_DISPLAY = {"DISPLAY": None, "WAYLAND_DISPLAY": None}


def test_without_a_clipboard_spite_says_what_is_missing_and_still_writes_the_file(desk: Desk, tmp_path: Path) -> None:
    out = tmp_path / "answer.toml"
    run = desk.bob.ok("play", desk.chain[-1], "--auto", "--think", THINK, "-o", out, "--copy", env=NO_DISPLAY)
    assert out.exists() and "Send it to Alice" in run.stdout
    assert "could not copy the turn code: there is no clipboard here" in run.stderr and "DISPLAY" in run.stderr
    assert_refused(desk.alice.spite("play", "--paste", env=NO_DISPLAY), "no clipboard here", "neither DISPLAY nor WAYLAND_DISPLAY")
    assert_refused(desk.alice.spite("code", out, "--copy", env=NO_DISPLAY), "no clipboard here")


@pytest.fixture(scope="module")
def display(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real X display (Xvfb) for the clipboard, with xclip to reach it; skipped where the machine has neither."""
    import subprocess

    if not (shutil.which("Xvfb") and shutil.which("xclip")):
        pytest.skip("no Xvfb and xclip here: the clipboard tests need a real X display")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        number = numbers.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)


def test_copy_then_paste_carries_a_turn_through_a_real_clipboard(desk: Desk, display: str, tmp_path: Path) -> None:
    env = {"DISPLAY": display, "WAYLAND_DISPLAY": None}
    out = tmp_path / "bob.toml"
    run = desk.bob.ok("play", desk.chain[-1], "--auto", "--think", THINK, "-o", out, "--copy", env=env)
    assert "Its turn code is on your clipboard: paste it into your chat with Alice" in run.stdout, run
    answer_ = tmp_path / "alice.toml"
    desk.alice.ok("play", "--paste", "--auto", "--think", THINK, "-o", answer_, env=env)
    assert saves.read(answer_).seq == saves.read(out).seq + 1
    desk.alice.ok("code", answer_, "--copy", env=env)
    assert desk.bob.ok("verify", "--paste", env=env).stdout.rstrip().endswith("OK")


def test_a_display_without_a_clipboard_tool_is_named(desk: Desk, display: str, tmp_path: Path) -> None:
    bare = tmp_path / "bin"
    bare.mkdir()
    (bare / "which").symlink_to(shutil.which("which"))  # pyperclip asks `which` for each tool
    run = desk.alice.spite("code", desk.chain[-1], "--copy", env={"DISPLAY": display, "WAYLAND_DISPLAY": None, "PATH": str(bare)})
    assert_refused(run, "no clipboard tool was found: install xclip or xsel")
