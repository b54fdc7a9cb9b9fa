"""`spite inbox --maildir` against what a Maildir may hold besides mail: a pipe, a device, a folder, links out of it, loops.

Each is passed over with a note of one line (in the player's language) and the rest of the Maildir is read; a file is
read only as far as the largest mail an honest spite sends, with room to spare.
"""

from __future__ import annotations

import gettext
import json
import mailbox
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from cli_helpers import Player, make_player, process_env, scratch

from pbm import i18n, saves
from pbm.transport import mail

POSIX = pytest.mark.skipif(sys.platform == "win32" or not hasattr(os, "mkfifo"), reason="pipes, /dev/zero and symlinks: POSIX")
ROOT = Path(__file__).resolve().parents[2]


def invitation_mail(player: Player, folder: Path, name: str) -> bytes:
    """A mail carrying a new invitation of `player`'s, written as `folder`/`name` first."""
    path = folder / name
    player.ok("new", "-o", path)
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "alice@example.com", "bob@example.com", f"[spite {saves.read(path).match[:8]}] invitation"
    m.set_content("Your move.")
    m.add_attachment(path.read_bytes(), maintype="application", subtype="toml", filename=name)
    return m.as_bytes()


# `python -m pbm.cli` with at most 1 GiB of memory, so that reading /dev/zero whole fails fast (set in the process itself:
# a preexec_fn could deadlock where the test process has threads, as a mail server's)
LIMITED = (
    "import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    "sys.argv[0] = 'spite'; runpy.run_module('pbm.cli', run_name='__main__', alter_sys=True)"
)


def inbox(home: Path, maildir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`spite inbox --maildir MAILDIR ARGS` as a real process, which a pipe could block: it gets 60 s and 1 GiB."""
    return subprocess.run(
        [sys.executable, "-c", LIMITED, "inbox", "--maildir", str(maildir), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=process_env(home),
        timeout=60,
    )


@pytest.fixture()
def homes(tmp_path: Path) -> Iterator[tuple[Player, Player, Path]]:
    """Alice and Bob with spite homes, Bob's Maildir holding one mail of Alice's (an invitation), and a folder outside it."""
    with scratch(tmp_path) as root:
        alice, bob = make_player(root, "Alice"), make_player(root, "Bob")
        outside = root / "outside"
        outside.mkdir()
        box = mailbox.Maildir(root / "Maildir", create=True)
        box.add(invitation_mail(alice, outside, "invitation.toml"))
        yield alice, bob, root


def special(kind: str, alice: Player, root: Path) -> str:
    """Put into new/ of the Maildir under `root` one thing that is no mail of the Maildir's; returns its name."""
    new, outside = root / "Maildir" / "new", root / "outside"
    if kind == "pipe":
        os.mkfifo(new / "pipe")  # opened for reading, it blocks until a writer comes: none does
    elif kind == "dev-zero":
        (new / "dev-zero").symlink_to("/dev/zero")  # endless
    elif kind == "folder":
        (new / "folder").mkdir()
    elif kind == "link-out":  # a real spite mail, but outside the Maildir: a link is not followed out of it
        (outside / "elsewhere.eml").write_bytes(invitation_mail(alice, outside, "elsewhere.toml"))
        (new / "link-out").symlink_to(outside / "elsewhere.eml")
    elif kind == "loop":
        (new / "loop").symlink_to(new / "loop")
    elif kind == "pipe-inside":  # a link inside the Maildir is followed, but only to a regular file
        os.mkfifo(root / "Maildir" / "tmp" / "pipe")
        (new / "pipe-inside").symlink_to(root / "Maildir" / "tmp" / "pipe")
    return kind


@POSIX
@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("pipe", "not a regular file"),
        ("dev-zero", "a link that leads out of the Maildir"),
        ("folder", "it is a folder"),
        ("link-out", "a link that leads out of the Maildir"),
        ("loop", "cannot be read"),
        ("pipe-inside", "not a regular file"),
    ],
)
def test_a_special_file_in_a_maildir_is_passed_over_with_a_note_and_the_mail_is_read(
    homes: tuple[Player, Player, Path], kind: str, why: str
) -> None:
    alice, bob, root = homes
    name = special(kind, alice, root)
    done = inbox(bob.home, root / "Maildir")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done
    assert "1 new file from the mail." in done.stdout, done  # the invitation; nothing from outside the Maildir
    (note,) = done.stderr.splitlines()
    assert note.startswith(f"Passed over new/{name} in the Maildir: it ") and why in note, done
    assert len(list((bob.home / "matches").rglob("*.toml"))) == 1


@POSIX
def test_every_note_is_one_line_with_json_too_and_the_files_are_left_as_they_were(homes: tuple[Player, Player, Path]) -> None:
    alice, bob, root = homes
    names = [special(kind, alice, root) for kind in ("pipe", "dev-zero", "folder", "link-out", "loop")]
    (root / "Maildir" / "new" / "two\nlines\x1b[31m").mkdir()  # a name that would break the line, or colour the terminal
    done = inbox(bob.home, root / "Maildir", "--json")
    assert done.returncode == 0, done
    assert [t["what"] for t in json.loads(done.stdout)["taken"]] == ["kept"]
    notes = done.stderr.splitlines()
    assert len(notes) == 6 and all(n.startswith("Passed over new/") for n in notes), notes
    assert "Passed over new/two\\nlines\\x1b[31m in the Maildir: it is a folder, not a mail" in notes, notes
    assert all(any(f"new/{name} " in n for n in notes) for name in names), notes
    again = inbox(bob.home, root / "Maildir")  # still there, still unseen, passed over again
    assert again.returncode == 0 and len(again.stderr.splitlines()) == 6 and "No new spite mail" in again.stdout, again
    assert sorted(p.name for p in (root / "Maildir" / "new").iterdir()) == sorted([*names, "two\nlines\x1b[31m"])


def test_a_folder_in_a_maildir_stops_nothing(homes: tuple[Player, Player, Path]) -> None:
    """In-process, on every system: the folder's note, and the mail beside it taken."""
    _, bob, root = homes
    (root / "Maildir" / "new" / "a-folder").mkdir()
    (root / "Maildir" / "cur" / "b-folder").mkdir()  # unseen: no S among its flags
    run = bob.spite("inbox", "--maildir", root / "Maildir")
    assert run.exit_code == 0 and "1 new file from the mail." in run.stdout, run
    assert run.stderr.splitlines() == [
        "Passed over new/a-folder in the Maildir: it is a folder, not a mail",
        "Passed over cur/b-folder in the Maildir: it is a folder, not a mail",
    ], run


@pytest.mark.skipif(not shutil.which("xgettext") or not shutil.which("msgfmt"), reason="GNU gettext's tools are not installed")
def test_the_notes_are_in_the_players_language(homes: tuple[Player, Player, Path], tmp_path: Path) -> None:
    """In the pseudo-language every word of a note is translated: the line is one message, ⟦…⟧, its reason inside it."""
    _, bob, root = homes
    locale = tmp_path / "locale"
    script = ROOT / "scripts" / "catalogues.py"
    subprocess.run([sys.executable, str(script), "pseudo", str(locale)], check=True, capture_output=True, cwd=ROOT, timeout=300)
    (root / "Maildir" / "new" / "a-folder").mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "pbm.cli", "inbox", "--maildir", str(root / "Maildir")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=process_env(bob.home, SPITE_LANG="qps", SPITE_LOCALEDIR=str(locale)),
        timeout=60,
    )
    assert done.returncode == 0, done
    (note,) = done.stderr.splitlines()
    assert note.startswith("⟦") and note.endswith("⟧") and "new/a-folder" in note and note.count("⟦") == 2, note
    assert "folder" not in note.replace("new/a-folder", ""), note  # the reason is translated too


class _Marked(gettext.NullTranslations):
    """A language of the test's own, every message between ⟦ and ⟧: a mail's words in it are not ASCII (quoted-printable)."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"


def test_the_largest_honest_mail_is_read_and_the_bound_leaves_room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save of the largest size spite writes, attached, its turn code in the body, its words quoted-printable, with the
    headers servers add: within LARGEST_MAIL, which the bound holds twice; a file past the bound is not read at all."""
    data = (ROOT / "examples" / "saves" / "03-alice.toml").read_bytes()
    save = saves.parse(data)
    padded = data + (b"# " + b"x" * 76 + b"\n") * (saves.MAX_BYTES // 79 + 1)
    padded = padded[: saves.MAX_BYTES - 1] + b"\n"
    assert len(padded) == saves.MAX_BYTES and saves.parse(padded).hash == save.hash  # comments: no signed byte changes
    monkeypatch.setattr(i18n, "_active", _Marked())  # undone after the test: English again
    message = mail.compose(save, padded, "spite-largest.toml", "Ålice Ünïcode <alice@example.com>", "bob@example.com")
    assert message.get_body(("plain",))["Content-Transfer-Encoding"] == "quoted-printable"
    received = b"".join(b"Received: from relay%d.example.net by mx.example.com; " % n + b"x" * 150 + b"\r\n" for n in range(40))
    raw = received + message.as_bytes()
    assert len(raw) <= mail.LARGEST_MAIL and 2 * mail.LARGEST_MAIL <= mail.MAX_MESSAGE, (len(raw), mail.LARGEST_MAIL)
    mailbox.Maildir(tmp_path / "Maildir", create=True).add(raw)
    (tmp_path / "Maildir" / "new" / "photos").write_bytes(b"x" * (mail.MAX_MESSAGE + 1))  # not spite's: not read, no note
    with mail.maildir_box(tmp_path / "Maildir") as maildir:
        read = list(maildir.messages())
        assert [len(m.data) for m in read] == [len(raw)] and maildir.skipped == ()
    found = mail.found_in(read[0].data)
    assert [(f.item.match, f.item.seq) for f in found] == [(save.match, save.seq)]
    assert found[0].data == padded  # the attachment, whole
