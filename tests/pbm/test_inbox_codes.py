"""Turn codes found by `spite inbox` in a local Maildir: each is completed and its signature verified before anything of it
is kept, so that a changed code takes no save number and no file name that the genuine file of its turn needs.

(Through real SMTP and IMAP servers: tests/pbm/test_cli_mail.py.)
"""

from __future__ import annotations

import base64
import json
import mailbox
import shutil
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import THINK, Mail, Player, code_of

from pbm import saves
from pbm.packing import deflate
from pbm.transport import code


def forged(turn: dict[str, Any]) -> str:
    """A turn code carrying `turn` as it is, every checksum recomputed (they are no signature): a forger's own program."""
    raw = deflate(turn, code._ZDICT)
    body = base64.b64encode(raw).decode("ascii").rstrip("=")
    tag = code._base32(code.crypto_hash_sha256(raw))[:5]
    lines = [body[i : i + code.LINE] for i in range(0, len(body), code.LINE)]
    return "\n".join([f"BEGIN SPITE TURN {tag}", *lines, f"END SPITE TURN {tag} {code._check(tag, body)}"])


def deliver(maildir: Path, body: str, attached: Path | None = None) -> None:
    """A mail from Bob into `maildir`: `body` as its text, `attached` (a save) as its attachment."""
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "bob@example.com", "alice@example.com", "[spite] your move"
    m.set_content(body)
    if attached is not None:
        m.add_attachment(attached.read_bytes(), maintype="application", subtype="toml", filename=attached.name)
    mailbox.Maildir(maildir, create=True).add(m.as_bytes())


def inbox(player: Player, maildir: Path) -> dict[str, Any]:
    return json.loads(player.ok("inbox", "--maildir", maildir, "--json").stdout)


@pytest.fixture()
def answered(mail: Mail) -> tuple[Player, Player, Path, Path]:
    """Alice and Bob three files into a match (cli_helpers.Mail); Bob's answer to Alice's turn, a turn whose code fits a
    chat, written beside her file; and Alice's Maildir."""
    answer = mail.latest.with_name("answer.toml")
    mail.bob.ok("play", mail.latest, "--auto", "--think", THINK, "-o", answer)
    return mail.alice, mail.bob, answer, mail.folder.with_name("Maildir-alice")


def test_a_changed_code_before_the_file_is_refused_and_the_file_is_taken(answered: tuple[Player, Player, Path, Path]) -> None:
    """Three codes of Bob's turn, each with one field changed (its checksums recomputed), come before his file: each is
    refused, nothing of them is kept and nothing waits; then his file is taken, and Alice plays it."""
    alice, bob, answer, maildir = answered
    parts = code_of(bob, answer)
    assert parts is not None
    item = code.read("\n\n".join(parts).encode())
    assert isinstance(item, code.TurnCode)
    for field, value in (("score", [1, 0]), ("turn", item.turn["turn"] + 1), ("prev", "0" * 64)):
        deliver(maildir, f"my move:\n\n{forged({**item.turn, field: value})}\n")
    view = inbox(alice, maildir)
    assert [t["what"] for t in view["taken"]] == ["refused"] * 3, view
    assert all("signature does not match" in t["why"] for t in view["taken"]), view
    assert not (alice.home / "matches").exists() and not [r for r in view["matches"] if r["next"] == "you"]
    deliver(maildir, "my move, the file attached", answer)
    view = inbox(alice, maildir)
    assert sorted(t["what"] for t in view["taken"]) == ["kept", "refused", "refused", "refused"], view  # still unseen: again
    file = next(r["file"] for r in view["matches"] if r["next"] == "you")
    assert Path(file).read_bytes() == answer.read_bytes()
    alice.ok("play", file, "--auto", "--think", THINK)  # the genuine file plays


def test_a_second_version_after_a_code_kept_is_a_fork(mail: Mail) -> None:
    """Bob answers Alice's turn twice, from a copy of his home, with two different discards: the code of the one came
    first and was kept; the other's file is refused as a second version, not passed over as one Alice already had."""
    alice, bob, maildir = mail.alice, mail.bob, mail.folder.with_name("Maildir-alice")
    twin = Player("Bob", bob.home.with_name("home-bob-twin"))
    shutil.copytree(bob.home, twin.home)
    ranks = list(dict.fromkeys(card[:-1] for card in bob.show(mail.latest)["hand"]))
    assert len(ranks) >= 2, ranks
    one, other = mail.latest.with_name("one.toml"), mail.latest.with_name("other.toml")
    bob.ok("play", mail.latest, "--moves", f"{ranks[0]}-s1", "-o", one)
    twin.ok("play", mail.latest, "--moves", f"{ranks[1]}-s1", "-o", other)
    assert saves.read(other).hash != saves.read(one).hash
    parts = code_of(bob, one)
    assert parts is not None
    deliver(maildir, "\n\n".join(parts))
    assert [t["what"] for t in inbox(alice, maildir)["taken"]] == ["kept"]
    deliver(maildir, "my move, the file attached", other)
    taken = inbox(alice, maildir)["taken"]
    assert [t["what"] for t in taken] == ["refused"] and "two different versions" in taken[0]["why"], taken
