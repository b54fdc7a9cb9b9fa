"""The words of the mail loop a friend follows (issue 20, item 11): what new --send and inbox --play tell each player."""

from __future__ import annotations

import mailbox
from collections.abc import Iterator
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest
from cli_helpers import Player, make_player, scratch
from mail_servers import Account, MailServers, mail_servers


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServers]:
    with scratch(tmp_path_factory.mktemp("mail")) as root, mail_servers(root / "mail") as running:
        yield running


def _pair(servers: MailServers, root: Path) -> tuple[Player, Player, dict[str, Account], dict[str, dict[str, str | None]]]:
    """Alice and Bob, each with a mail account set up on the test servers, and the environment that gives its password."""
    alice, bob = make_player(root, "Alice"), make_player(root, "Bob")
    accounts = {p.name: servers.account(p.name) for p in (alice, bob)}
    env: dict[str, dict[str, str | None]] = {name: {"SPITE_MAIL_PASSWORD": a.password} for name, a in accounts.items()}
    for p in (alice, bob):
        p.ok(*servers.setup_args(accounts[p.name]), env=env[p.name])
    return alice, bob, accounts, env


def test_new_send_points_to_inbox_play_which_does_not_point_to_itself(servers: MailServers, tmp_path: Path) -> None:
    alice, bob, accounts, env = _pair(servers, tmp_path)
    sent = alice.ok("new", "-o", tmp_path / "invitation.toml", "--send", "--to", accounts["Bob"].address, env=env["Alice"])
    assert "They answer it with: spite inbox --play" in sent.stdout and "spite play invitation.toml" not in sent.stdout, sent
    played = bob.ok("inbox", "--play", env=env["Bob"])
    assert "Opening " in played.stdout and "spite inbox --play" not in played.stdout, played


def test_an_inbox_refusal_names_the_mail_by_sender_and_subject(servers: MailServers, tmp_path: Path) -> None:
    alice, bob, accounts, env = _pair(servers, tmp_path)
    alice.ok("new", "-o", tmp_path / "invitation.toml", "--send", "--to", accounts["Bob"].address, env=env["Alice"])
    message = BytesParser(policy=policy.default).parsebytes(servers.delivery.delivered[-1])
    box = mailbox.Maildir(accounts["Bob"].maildir, create=False)
    for key in list(box.iterkeys()):
        box.remove(key)
    attachment = next(message.iter_attachments())
    changed = attachment.get_content().replace(b'name = "Alice"', b'name = "Alicf"')  # no longer what Alice signed
    attachment.set_content(changed, maintype="application", subtype="toml", filename="invitation.toml")
    servers.deliver(accounts["Bob"], message.as_bytes())
    run = bob.ok("inbox", env=env["Bob"])
    assert f"in the mail from {accounts['Alice'].address}, '{message['Subject']}': " in run.stderr, run
