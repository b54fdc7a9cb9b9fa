"""Play by email end to end, against real servers on localhost: spite mail setup, send, inbox, resend, play --send, games."""

from __future__ import annotations

import json
import mailbox
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import THINK, Player, Run, assert_refused, make_player, scratch
from mail_servers import Account, MailServers, free_port, mail_servers

from pbm import saves


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServers]:
    with scratch(tmp_path_factory.mktemp("mail")) as root, mail_servers(root / "mail") as running:
        yield running


@dataclass
class Mailer:
    """A player with a spite home and a mail account on the test servers; every command gets their mail password."""

    player: Player
    account: Account

    def env(self) -> dict[str, str | None]:
        return {"SPITE_MAIL_PASSWORD": self.account.password}

    def spite(self, *args: str | Path, env: dict[str, str | None] | None = None) -> Run:
        return self.player.spite(*args, env={**self.env(), **(env or {})})

    def ok(self, *args: str | Path) -> Run:
        return self.player.ok(*args, env=self.env())

    def inbox(self) -> dict[str, Any]:
        return json.loads(self.ok("inbox", "--json").stdout)


def mailer(servers: MailServers, root: Path, name: str) -> Mailer:
    m = Mailer(make_player(root, name), servers.account(name))
    run = m.ok(*servers.setup_args(m.account))
    assert "SMTP 127.0.0.1" in run.stdout and "IMAP 127.0.0.1" in run.stdout, run
    return m


@pytest.fixture()
def pair(servers: MailServers, tmp_path: Path) -> Iterator[tuple[Mailer, Mailer]]:
    with scratch(tmp_path) as root:
        yield mailer(servers, root, "Alice"), mailer(servers, root, "Bob")


def invite(alice: Mailer, bob: Mailer, payoff: int = 1, target: int = 1) -> Path:
    """Alice starts a match and mails the invitation to Bob; returns the invitation's path."""
    folder = alice.player.home / "out"
    folder.mkdir()
    path = folder / "invitation.toml"
    alice.ok("new", "--payoff", str(payoff), "--target", str(target), "-o", path)
    run = alice.ok("send", path, "--to", bob.account.address)
    assert f"to {bob.account.address}" in run.stdout, run
    return path


def waiting(view: dict[str, Any]) -> str | None:
    """The file an inbox --json says waits to be played, if any."""
    return next((r["file"] for r in view["matches"] if r["next"] == "you"), None)


def messages(account: Account) -> list[Any]:
    box = mailbox.Maildir(account.maildir, create=False)
    return [BytesParser(policy=policy.default).parsebytes(box.get_bytes(k)) for k in box.keys()]


# --- a whole match by mail ---


def test_a_whole_match_travels_by_send_and_inbox(pair: tuple[Mailer, Mailer]) -> None:
    alice, bob = pair
    invite(alice, bob)
    reader, writer = bob, alice
    files = 1
    for _ in range(200):
        view = reader.inbox()
        file = waiting(view)
        if file is None:
            break
        assert Path(file).is_relative_to(reader.player.home / "matches"), file
        run = reader.ok("play", file, "--auto", "--think", THINK, "--send")
        if "Nothing more to send" in run.stdout:
            break
        assert f"to {writer.account.address}" in run.stdout, run
        files += 1
        reader, writer = writer, reader
    else:
        raise AssertionError("the match did not end")
    assert files >= 4
    for m in (alice, bob):
        games = m.ok("games").stdout
        assert "over" in games, games
        other = bob if m is alice else alice
        assert other.account.address in games, games
    # every mail: the subject names the match, game and turn; the save attached as application/toml, base64; the code in the body
    mail = messages(bob.account)[0]
    assert mail["Subject"].startswith("[spite ") and "Alice → " in mail["Subject"] and " turn " in mail["Subject"], mail["Subject"]
    attachment = next(p for p in mail.iter_attachments())
    assert attachment.get_content_type() == "application/toml" and attachment["Content-Transfer-Encoding"] == "base64"
    assert "BEGIN SPITE TURN" in mail.get_body(("plain",)).get_content()
    saves.parse(attachment.get_content())  # the attachment is the save itself


# --- settings ---


def test_setup_keeps_the_settings_private_and_no_password(pair: tuple[Mailer, Mailer]) -> None:
    alice, _ = pair
    path = alice.player.home / "mail.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert alice.account.password not in text and alice.account.address in text


def test_a_wrong_password_is_named(servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        player = make_player(root, "Carol")
        account = servers.account("Carol")
        run = player.spite(*servers.setup_args(account), env={"SPITE_MAIL_PASSWORD": "wrong"})
        assert_refused(run, "SMTP server 127.0.0.1", "refused the user name or password", "app password")
        assert not (player.home / "mail.toml").exists()


def test_a_server_that_is_down_is_named(servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        player = make_player(root, "Dan")
        account = servers.account("Dan")
        args = servers.setup_args(account)
        args[args.index("--imap-port") + 1] = str(free_port())
        run = player.spite(*args, env={"SPITE_MAIL_PASSWORD": account.password})
        assert_refused(run, "IMAP server 127.0.0.1", "refused the connection")
        assert not (player.home / "mail.toml").exists()
