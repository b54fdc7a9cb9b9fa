"""What `spite inbox` makes of a message, without servers: real mail parsed by the email package, a real journal and keys.

Hostile or broken mail is passed over, one message at a time, and never names a folder outside the spite home.
"""

from __future__ import annotations

import base64
import gettext
import random
import re
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbm import i18n, saves
from pbm.errors import MailSettingsError
from pbm.identity import Identity
from pbm.inbox import Taken, take
from pbm.journal import Journal
from pbm.mailconf import MailSettings
from pbm.packing import deflate
from pbm.transport import code, mail
from pbm.transport.code import TurnCode

MATCH = "feedfacecafebeef0011223344556677"


def armored(turn: dict[str, Any]) -> str:
    """A well-formed turn code carrying `turn` as it is, as a stranger's own program could make it."""
    raw = deflate(turn, code._ZDICT)
    body = base64.b64encode(raw).decode("ascii").rstrip("=")
    tag = code._base32(code.crypto_hash_sha256(raw))[:5]
    lines = [body[i : i + code.LINE] for i in range(0, len(body), code.LINE)]
    return "\n".join([f"BEGIN SPITE TURN {tag}", *lines, f"END SPITE TURN {tag} {code._check(tag, body)}"])


def message(body: str, sender: str = "mallory@example.com") -> bytes:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "alice@example.com", "[spite feedface] your move"
    m.set_content(body)
    return m.as_bytes()


@pytest.mark.parametrize(
    ("turn", "why"),
    [
        ({"match": "../../../../tmp/evil", "seq": 2, "signer": 1, "game": 1, "turn": 1}, "match id"),
        ({"match": MATCH, "seq": 2, "signer": True, "game": 1, "turn": 1}, "no signer"),
        ({"match": MATCH, "seq": 2, "signer": 7, "game": 1, "turn": 1}, "no signer"),
        ({"match": MATCH, "seq": 2, "signer": 1, "game": "../x", "turn": 1}, "no record of"),  # nothing to verify it with
    ],
)
def test_a_hostile_code_is_refused_and_names_no_folder(tmp_path: Path, people: tuple[Identity, ...], turn: dict, why: str) -> None:
    data = message(f"my move:\n\n{armored(turn)}\n")
    found = mail.found_in(data)
    if why == "match id":  # the turn-code reader refuses it, so it is no turn found; the inbox refuses it too, as a second line
        assert found == []
        found = [mail.Found(TurnCode(turn, 1), data, "mallory@example.com")]
    assert len(found) == 1 and isinstance(found[0].item, TurnCode)
    with Journal.open(tmp_path / "home") as journal:
        outcome = take(found[0], people[0], journal)
        assert outcome.what is Taken.REFUSED and why in str(outcome.why), outcome  # str(): the English, as --json gives it
        assert journal.waiting() == [] and journal.address(MATCH) is None
    assert not (tmp_path / "home" / "matches").exists()  # refused before any folder is made


@pytest.mark.parametrize("seq", [0, -1, 2**53, 2**63 - 1, 2**63, -(2**63), 2**64])
def test_a_code_numbered_past_what_spite_makes_is_refused_and_kept_nowhere(tmp_path: Path, people: tuple[Identity, ...], seq: int) -> None:
    """A save number at the edges of 64 bits (and past the 2^53 - 1 of a save) is refused before the journal is asked."""
    turn = {"match": MATCH, "seq": seq, "signer": 1, "game": 1, "turn": 1}
    data = message(f"my move:\n\n{armored(turn)}\n")
    found = mail.found_in(data) or [mail.Found(TurnCode(turn, 1), data, "mallory@example.com")]  # the reader may refuse it first
    assert [f.item.seq for f in found] == [seq]
    with Journal.open(tmp_path / "home") as journal:
        outcome = take(found[0], people[0], journal)
        assert outcome.what is Taken.REFUSED and outcome.seq == seq, outcome
        assert journal.waiting() == []
    assert not (tmp_path / "home" / "matches").exists()


def test_broken_and_foreign_mail_holds_no_turn() -> None:
    rng = random.Random(13)
    broken = [
        b"",
        bytes(rng.randrange(256) for _ in range(4000)),
        b"Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: application/toml\nContent-Transfer-Encoding: base64\n\n!!!",
        message("BEGIN SPITE TURN ABCDE\nnot a code\nEND SPITE TURN ABCDE AAAAAA"),
        message("format = 'spite-save'\nversion = 2\n"),
        message("Lunch at noon? BEGIN SPITE, END SPITE."),
    ]
    big = EmailMessage()
    big.set_content("see attached")
    big.add_attachment(b"x" * (code.MAX_INPUT + 10), maintype="application", subtype="toml", filename="huge.toml")
    for data in [*broken, big.as_bytes()]:
        assert mail.found_in(data) == []


def test_a_quoted_code_in_a_quoted_printable_body_is_found_with_its_sender() -> None:
    turn = {"match": MATCH, "seq": 3, "signer": 1, "game": 1, "turn": 2}
    text = f"> {armored(turn)}".replace("\n", "\n> ")
    m = EmailMessage()
    m["From"] = "Bob <bob@example.com>"
    m.set_content(text, cte="quoted-printable")
    found = mail.found_in(m.as_bytes())
    assert [(f.item.match, f.item.seq, f.sender) for f in found] == [(MATCH, 3, "bob@example.com")]
    assert mail.save_name(found[0].item) == f"spite-{MATCH[:8]}-g1-t2.txt"


@pytest.mark.parametrize("host", ["smtp.example.com", "10.0.0.5", "localhost.example.com"])
def test_plain_security_is_refused_for_a_server_not_on_this_machine(host: str) -> None:
    """Without TLS the password would cross the network in clear: plain is for a server on this machine only."""
    with pytest.raises(MailSettingsError, match="unencrypted"):
        MailSettings("alice@example.com", "alice", host, 25, "plain", maildir="/tmp/maildir")
    for local in ("localhost", "127.0.0.1", "127.0.0.53"):
        assert MailSettings("alice@example.com", "alice", local, 25, "plain", maildir="/tmp/maildir").smtp_host == local
    assert MailSettings("alice@example.com", "alice", host, 465, "tls", maildir="/tmp/maildir").smtp_host == host


class _Marked(gettext.NullTranslations):
    """A language of the test's own: every message from the catalogue comes between ⟦ and ⟧, so what was translated shows."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"


def test_a_mail_is_in_the_senders_language_but_its_turn_code_and_subject_tag_are_in_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """The text of a mail comes from the catalogue of the spite that sends it; the turn code and the subject's tag, which
    filters, threads and every spite read whatever language wrote them, stay as they are, and the inbox finds the turn."""
    data = (Path(__file__).resolve().parents[3] / "examples" / "saves" / "03-alice.toml").read_bytes()
    save = saves.parse(data)
    parts = code.encode(save)
    assert len(parts) <= code.MAX_PARTS  # the body carries the turn code
    english = mail.compose(save, data, "turn.toml", "alice@example.com", "bob@example.com")
    monkeypatch.setattr(i18n, "_active", _Marked())  # the language undone after the test: English again
    monkeypatch.setattr(i18n, "_choice", i18n.Choice("qps", "--lang", "qps"))
    sent = mail.compose(save, data, "turn.toml", "alice@example.com", "bob@example.com")

    body = sent.get_body(("plain",)).get_content()
    words, turn_code, after = body.partition("\n\n".join(parts))
    assert turn_code and not after.strip(), body  # the turn code as spite writes it, untouched
    lines = [line for line in words.split("\n") if line.strip()]
    assert len(lines) == 4 and all("⟦" in line or "⟧" in line for line in lines), lines  # every line from the catalogue
    assert "⟦" not in english.get_body(("plain",)).get_content()

    tag = re.compile(r"\[spite ([0-9a-f]{8})\] ")  # what a mail filter, a thread or another spite finds in a subject
    for subject in (str(sent["Subject"]), str(english["Subject"])):
        found = tag.match(subject)
        assert found is not None and found[1] == save.match[:8], subject
    assert str(sent["Subject"]).startswith(f"{mail.subject_tag(save.match)} ⟦") and "Alice (demo)" in str(sent["Subject"])
    assert f"Subject: [spite {save.match[:8]}] ".encode() in sent.as_bytes()  # as a filter of raw headers sees it, too

    found = mail.found_in(sent.as_bytes())  # the attachment, and the code in the body: one turn
    assert [(f.item.match, f.item.seq, f.sender) for f in found] == [(save.match, save.seq, "alice@example.com")]
    coded = mail.found_in(message(body, sender="alice@example.com"))  # a mail program that dropped the attachment
    assert [(type(f.item), f.item.match, f.item.seq) for f in coded] == [(TurnCode, save.match, save.seq)]
