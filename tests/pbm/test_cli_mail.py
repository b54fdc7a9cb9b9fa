"""Play by email end to end, against real servers on localhost: spite mail setup, send, inbox, resend, play --send, games."""

from __future__ import annotations

import json
import mailbox
import shutil
import socket
import stat
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import THINK, Player, Run, assert_refused, make_player, needs_pty, process_env, scratch
from mail_servers import Account, MailServers, free_port, mail_servers

from pbm import saves
from pbm.transport.code import TurnCode


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServers]:
    with scratch(tmp_path_factory.mktemp("mail")) as root, mail_servers(root / "mail") as running:
        yield running


@dataclass
class Mailer:
    """A player with a spite home and a mail account on the test servers; every command gets their mail password (from
    SPITE_MAIL_PASSWORD, or when `kept` from the file setup kept it in: there is no keyring here, nor a terminal)."""

    player: Player
    account: Account
    kept: bool = False

    def env(self) -> dict[str, str | None]:
        return {"SPITE_MAIL_PASSWORD": None if self.kept else self.account.password}

    def spite(self, *args: str | Path, env: dict[str, str | None] | None = None) -> Run:
        return self.player.spite(*args, env={**self.env(), **(env or {})})

    def ok(self, *args: str | Path) -> Run:
        return self.player.ok(*args, env=self.env())

    def inbox(self) -> dict[str, Any]:
        return json.loads(self.ok("inbox", "--json").stdout)


def mailer(servers: MailServers, root: Path, name: str, kept: bool = False) -> Mailer:
    m = Mailer(make_player(root, name), servers.account(name))
    run = m.player.ok(
        *servers.setup_args(m.account), *(["--keep-password"] if kept else []), env={"SPITE_MAIL_PASSWORD": m.account.password}
    )
    assert "SMTP 127.0.0.1" in run.stdout and "IMAP 127.0.0.1" in run.stdout, run
    if kept:  # setup says where the password will come from
        assert "Your password is kept unencrypted in" in run.stdout, run
        m.kept = True
    else:
        assert "Your password is read from SPITE_MAIL_PASSWORD" in run.stdout, run
    return m


@pytest.fixture()
def pair(servers: MailServers, tmp_path: Path) -> Iterator[tuple[Mailer, Mailer]]:
    with scratch(tmp_path) as root:
        yield mailer(servers, root, "Alice"), mailer(servers, root, "Bob")


def invite(alice: Mailer, bob: Mailer, payoff: int = 1, target: int = 1) -> Path:
    """Alice starts a match and mails the invitation to Bob (new --send); returns the invitation's path."""
    folder = alice.player.home / "out"
    folder.mkdir()
    path = folder / "invitation.toml"
    run = alice.ok("new", "--payoff", str(payoff), "--target", str(target), "-o", path, "--send", "--to", bob.account.address)
    assert f"Mailed invitation.toml to {bob.account.address}" in run.stdout, run
    return path


def waiting(view: dict[str, Any]) -> str | None:
    """The file an inbox --json says waits to be played, if any."""
    return next((r["file"] for r in view["matches"] if r["next"] == "you"), None)


def messages(account: Account) -> list[Any]:
    box = mailbox.Maildir(account.maildir, create=False)
    return [BytesParser(policy=policy.default).parsebytes(box.get_bytes(k)) for k in box.iterkeys()]


# --- a whole match by mail ---


@pytest.mark.parametrize(
    ("payoff", "target"), [pytest.param(3, 1, id="payoff3-target1"), pytest.param(3, 2, id="payoff3-target2", marks=pytest.mark.slow)]
)
def test_a_whole_match_travels_by_send_and_inbox(servers: MailServers, tmp_path: Path, payoff: int, target: int) -> None:
    """A whole match (~20 files with pay-off piles of three, ~70 with three and two games to win) by mail only, each
    player's password kept at setup (there is no keyring here): no command asks for it, where each asked before."""
    with scratch(tmp_path) as root:
        alice, bob = mailer(servers, root, "Alice", kept=True), mailer(servers, root, "Bob", kept=True)
        _whole_match(alice, bob, payoff, target)


def _whole_match(alice: Mailer, bob: Mailer, payoff: int, target: int) -> None:
    invite(alice, bob, payoff=payoff, target=target)
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
    assert files >= 4, files  # the invitation, its answer, a deal step, a turn: the deal is random
    for m in (alice, bob):
        assert "1 finished match is not listed" in m.ok("games").stdout  # its last file is in: the match is finished
        games = m.ok("games", "--all").stdout
        assert "over" in games, games
        other = bob if m is alice else alice
        assert other.account.address in games, games
    # a mail of a turn: the subject names the match, game and turn; the save attached as application/toml, base64; the code
    # in the body (a turn whose code fits: which mail comes first in the maildir's listing depends on the file system)
    coded = [m for m in messages(bob.account) if "BEGIN SPITE TURN" in m.get_body(("plain",)).get_content()]
    assert coded, "no mail to Bob carried a turn code"
    mail = coded[0]
    assert mail["Subject"].startswith("[spite ") and "Alice → " in mail["Subject"] and " turn " in mail["Subject"], mail["Subject"]
    attachment = next(p for p in mail.iter_attachments())
    assert attachment.get_content_type() == "application/toml" and attachment["Content-Transfer-Encoding"] == "base64"
    saves.parse(attachment.get_content())  # the attachment is the save itself
    kept = {path.name for path in kept_files(bob)}
    for mail in messages(bob.account):  # one name for one file: as it was mailed, as the receiver keeps it
        name = next(p for p in mail.iter_attachments()).get_filename()
        assert name in kept or name == "invitation.toml", (name, sorted(kept))  # the invitation was named with -o
    bobs = sorted((saves.read(p).seq, p) for p in (bob.player.home / "matches").rglob("spite-*.toml") if saves.read(p).signer == 1)
    assert len(bobs) >= 2, bobs
    assert_refused(bob.spite("send", bobs[0][1]), "is an old file of match", "which is over: nothing was sent")
    assert not [t for t in alice.inbox()["taken"] if t["what"] == "kept"]  # nothing came of it
    # no password was typed (no terminal, no SPITE_MAIL_PASSWORD: a command that asked would have failed); without the
    # kept password, each of these commands would have asked for it once
    mail_commands = [
        r
        for m in (alice, bob)
        for r in m.player.runs[2:]
        if r.exit_code == 0 and (r.args[0] in ("inbox", "send", "resend") or "--send" in r.args)
    ]
    assert len(mail_commands) >= 2 * files, len(mail_commands)


# --- settings ---


def test_setup_keeps_the_settings_private_and_no_password(pair: tuple[Mailer, Mailer]) -> None:
    alice, _ = pair
    path = alice.player.home / "mail.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert alice.account.password not in text and alice.account.address in text


def test_a_provider_fills_in_its_servers_and_a_new_security_its_port(tmp_path: Path) -> None:
    player = Player("Gina", tmp_path / "home")
    player.ok("mail", "setup", "--provider", "gmail", "--address", "Gina <gina@gmail.com>", "--no-check")
    kept = tomllib.loads((player.home / "mail.toml").read_text())
    assert kept["user"] == "gina@gmail.com"
    assert (kept["smtp_host"], kept["smtp_port"], kept["smtp_security"]) == ("smtp.gmail.com", 465, "tls")
    assert (kept["imap_host"], kept["imap_port"], kept["imap_security"]) == ("imap.gmail.com", 993, "tls")
    player.ok("mail", "setup", "--smtp-security", "starttls", "--no-check")  # the rest as kept
    kept = tomllib.loads((player.home / "mail.toml").read_text())
    assert (kept["smtp_port"], kept["smtp_security"], kept["address"]) == (587, "starttls", "Gina <gina@gmail.com>")
    usage = player.spite("mail", "setup", "--provider", "hotmeal", "--no-check")
    assert usage.exit_code == 2 and "gmail, fastmail, icloud" in usage.stderr, usage
    assert_refused(player.spite("mail", "setup", "--smtp-security", "ssl", "--no-check"), "security 'ssl' is not one of")
    assert_refused(player.spite("mail", "setup", "--address", "gina at gmail", "--no-check"), "not an email address")


def test_settings_beyond_the_basic_multilingual_plane_read_back(tmp_path: Path) -> None:
    """An emoji in the From name and the Maildir's path is kept as itself: the settings read back and a mail command starts."""
    from pbm import mailconf

    player = Player("Gina", tmp_path / "home")
    maildir = tmp_path / "Mail 📬"
    mailbox.Maildir(maildir, create=True)
    address = "Gina 📬 <gina@gmail.com>"
    player.ok("mail", "setup", "--provider", "gmail", "--address", address, "--maildir", maildir, "--no-check")
    path = player.home / "mail.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    kept = mailconf.load(player.home)
    assert (kept.address, kept.maildir, kept.user) == (address, str(maildir.resolve()), "gina@gmail.com")
    assert "No new spite mail" in player.ok("inbox").stdout


def test_a_wrong_password_is_named_and_the_answers_kept_for_the_next_setup(servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        player = make_player(root, "Gus")
        account = servers.account("Gus")
        run = player.spite(*servers.setup_args(account), env={"SPITE_MAIL_PASSWORD": "wrong-secret"})
        assert_refused(run, "SMTP server 127.0.0.1", "refused the user name or password", "app password", "your answers are kept")
        assert "spite mail setup offers them again" in run.stderr
        draft = player.home / "mail-draft.toml"
        assert stat.S_IMODE(draft.stat().st_mode) == 0o600 or sys.platform == "win32"
        assert "wrong-secret" not in draft.read_text() and tomllib.loads(draft.read_text())["user"] == account.user
        assert not (player.home / "mail.toml").exists()
        run = player.spite("mail", "setup", env={"SPITE_MAIL_PASSWORD": account.password})  # nothing given: the answers kept
        assert run.exit_code == 0 and "Offering the answers of the last setup" in run.stdout, run
        kept = tomllib.loads((player.home / "mail.toml").read_text())
        assert (kept["user"], kept["smtp_port"], kept["imap_port"]) == (account.user, servers.smtp_port, servers.imap_port)
        assert not draft.exists()


def test_mail_test_and_show_use_the_kept_settings(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, _ = pair
    shown = alice.ok("mail", "show").stdout
    for line in ("smtp_host = 127.0.0.1", f"smtp_port = {servers.smtp_port}", f"imap_port = {servers.imap_port}"):
        assert line in shown, shown
    assert f"user = {alice.account.user}" in shown and "read from SPITE_MAIL_PASSWORD" in shown, shown
    assert alice.account.password not in shown
    lines = alice.ok("mail", "test").stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["SMTP 127.0.0.1", "IMAP 127.0.0.1"], lines
    assert lines[0].endswith(f"logged in as {alice.account.user}.") and lines[1].endswith("logged in, INBOX opened."), lines
    run = alice.spite("mail", "test", env={"SPITE_MAIL_PASSWORD": "wrong-secret"})
    assert run.exit_code == 1, run
    lines = run.stdout.splitlines()
    assert len(lines) == 2 and all("failed: " in line and "refused the user name or password" in line for line in lines), lines
    assert "b'" not in run.stdout + run.stderr and 'b"' not in run.stdout + run.stderr  # the server's words, not a Python repr


def test_a_server_that_is_down_is_named(servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        player = make_player(root, "Dan")
        account = servers.account("Dan")
        args = servers.setup_args(account)
        args[args.index("--imap-port") + 1] = str(free_port())
        run = player.spite(*args, env={"SPITE_MAIL_PASSWORD": account.password})
        assert_refused(run, "IMAP server 127.0.0.1", "refused the connection")
        assert not (player.home / "mail.toml").exists()


# --- what goes wrong on the way ---


def match_of(path: Path) -> str:
    return saves.read(path).match


def kept_files(m: Mailer) -> list[Path]:
    return sorted((m.player.home / "matches").rglob("spite-*"))


def test_a_lost_mail_is_sent_again_with_resend(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, bob = pair
    servers.delivery.lose = 1
    invitation = invite(alice, bob)
    assert "No new spite mail" in bob.ok("inbox", "--maildir", bob.account.maildir).stdout  # a local Maildir, read directly
    games = alice.ok("games").stdout
    assert "resend" in games and bob.account.address in games, games
    run = alice.ok("resend", match_of(invitation)[:8])
    assert f"to {bob.account.address} again (last mailed just now)" in run.stdout, run
    view = json.loads(bob.ok("inbox", "--maildir", bob.account.maildir, "--json").stdout)
    assert [t["what"] for t in view["taken"]] == ["kept"]
    assert Path(waiting(view) or "").read_bytes() == invitation.read_bytes()  # the very file Alice wrote


def test_an_answer_that_failed_to_mail_is_shown_first_until_it_is_sent(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, bob = pair
    invitations = []
    for n in (1, 2):
        path = alice.player.home / f"invitation-{n}.toml"
        alice.ok("new", "-o", path, "--send", "--to", bob.account.address)
        invitations.append(path)
    first, second = (match_of(p) for p in invitations)
    files = {match_of(Path(r["file"])): r["file"] for r in bob.inbox()["matches"]}
    settings = bob.player.home / "mail.toml"
    kept = settings.read_text()
    settings.write_text(kept.replace(f"smtp_port = {servers.smtp_port}", f"smtp_port = {free_port()}"))  # the server is down
    run = bob.spite("play", files[first], "--auto", "--think", THINK, "--send")
    assert_refused(run, "written but not mailed", "refused the connection", "spite send ", f"spite resend {first[:8]}")
    settings.write_text(kept)  # the server is back
    bob.ok("play", files[second], "--auto", "--think", THINK, "--send")  # the later match is the more recently active
    for view in (json.loads(bob.ok("games", "--json").stdout), bob.inbox()):
        rows = view["matches"]
        assert [(r["match"], r["unsent"]) for r in rows] == [(first, True), (second, False)], rows
    unsent = rows[0]["file"]
    for command in ("games", "inbox"):
        out = " ".join(bob.ok(command).stdout.split())
        assert f"Not mailed: your file {Path(unsent).name} of match {first[:8]}" in out and f"spite resend {first[:8]}" in out, out
        assert f"Waiting for Alice in {first[:8]}" not in out, out  # Alice is not waiting on a file that never went
    assert f"to {alice.account.address}" in bob.ok("send", unsent).stdout
    assert "Not mailed" not in bob.ok("games").stdout
    assert [t["what"] for t in alice.inbox()["taken"]] == ["kept", "kept"]


def test_a_duplicate_delivery_is_taken_once(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, bob = pair
    invite(alice, bob)
    first = bob.inbox()
    assert [t["what"] for t in first["taken"]] == ["kept"]
    servers.deliver(bob.account, servers.delivery.delivered[-1])  # the same mail once more
    again = bob.inbox()
    assert [t["what"] for t in again["taken"]] == ["duplicate"] and len(kept_files(bob)) == 1
    run = bob.ok("inbox", "--play", "--send")  # the invitation waits: opened, answered (a deal step: no moves) and mailed
    assert f"Opening {waiting(again)}" in run.stdout and f"to {alice.account.address}" in run.stdout, run
    servers.deliver(bob.account, servers.delivery.delivered[-2])  # and once more after it was played
    assert [t["what"] for t in bob.inbox()["taken"]] == ["duplicate"]
    assert len(messages(bob.account)) == 3  # nothing is ever deleted from the mailbox


def test_mail_that_is_not_spites_is_left_alone(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    _, bob = pair
    servers.deliver(bob.account, b"From: Carol <carol@example.com>\nSubject: lunch?\n\nShall we meet at noon? BEGIN SPITE, ha.\n")
    run = bob.ok("inbox")
    assert "No new spite mail" in run.stdout and "No matches yet" in run.stdout, run
    box = mailbox.Maildir(bob.account.maildir, create=False)
    assert [box.get_message(k).get_flags() for k in box.iterkeys()] == [""]  # still unseen, still there


def answer(m: Mailer) -> Run:
    """`m` fetches their mail and answers the file waiting for them with the bot's turn, mailed at once."""
    file = waiting(m.inbox())
    assert file is not None
    return m.ok("play", file, "--auto", "--think", THINK, "--send")


def intercepted(alice: Mailer, bob: Mailer, servers: MailServers) -> bytes:
    """Play on until Alice mails Bob a turn that fits a turn code and leaves Bob a turn to play (it does not end the game:
    then Bob would only hand over his keys); take that mail out of Bob's Maildir and return it."""
    from pbm.transport import code

    invite(alice, bob, payoff=3, target=30)  # a game Alice wins is passed over, and the match goes on to the next
    for _ in range(40):
        answer(bob)
        view = alice.inbox()
        score = next(r["score"] for r in view["matches"] if r["next"] == "you")
        alice.ok("play", waiting(view), "--auto", "--think", THINK, "--send")
        mail = servers.delivery.delivered[-1]
        if b"BEGIN SPITE TURN" in mail:
            body = BytesParser(policy=policy.default).parsebytes(mail).get_body(("plain",))
            item = code.read(body.get_content().encode()) if body is not None else None
            if not isinstance(item, TurnCode) or "turn" not in item.turn["message"] or item.turn["score"] != score:
                continue  # no moves (keys or a deal step), or the turn ended a game
            box = mailbox.Maildir(bob.account.maildir, create=False)
            for key in list(box.iterkeys()):
                if "S" not in box.get_message(key).get_flags():
                    box.remove(key)  # the test's doing: only the changed copy arrives
            return mail
    raise AssertionError("no turn of Alice's fitted a turn code")


def test_a_mangled_body_does_not_hide_the_attachment(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, bob = pair
    mail = intercepted(alice, bob, servers)
    start = mail.index(b"BEGIN SPITE TURN")
    line = mail.index(b"\n", start) + 1
    mangled = mail[:line] + (b"B" if mail[line : line + 1] != b"B" else b"C") + mail[line + 1 :]
    servers.deliver(bob.account, mangled)
    view = bob.inbox()
    assert [t["what"] for t in view["taken"]] == ["kept"]
    file = Path(waiting(view) or "")
    message = BytesParser(policy=policy.default).parsebytes(mail)
    assert file.read_bytes() == next(message.iter_attachments()).get_content()  # the attachment, intact


def test_a_turn_code_in_the_body_is_enough(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, bob = pair
    message = BytesParser(policy=policy.default).parsebytes(intercepted(alice, bob, servers))
    body = message.get_body(("plain",)).get_content()
    quoted = "".join(f"> {line}\n" for line in body.splitlines())
    stripped = f"From: {alice.account.address}\nSubject: {message['Subject']}\n\n{quoted}"
    servers.deliver(bob.account, stripped.encode())  # the attachment dropped, the body quoted by a mail program
    view = bob.inbox()
    file = Path(waiting(view) or "")
    assert file.suffix == ".txt" and "BEGIN SPITE TURN" in file.read_text()
    run = bob.ok("play", file, "--auto", "--think", THINK, "--send")  # played as the file would be, and the answer mailed
    assert f"to {alice.account.address}" in run.stdout, run
    assert [t["what"] for t in alice.inbox()["taken"]] == ["kept"]


def test_a_changed_file_and_a_second_version_of_a_turn_are_passed_over(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    alice, bob = pair
    invite(alice, bob)
    message = BytesParser(policy=policy.default).parsebytes(servers.delivery.delivered[-1])
    box = mailbox.Maildir(bob.account.maildir, create=False)
    for key in list(box.iterkeys()):
        box.remove(key)
    attachment = next(message.iter_attachments())
    changed = attachment.get_content().replace(b'name = "Alice"', b'name = "Alicf"')
    attachment.set_content(changed, maintype="application", subtype="toml", filename="invitation.toml")
    servers.deliver(bob.account, message.as_bytes())
    run = bob.ok("inbox")
    assert "0 new files" in run.stdout and "Passed over a turn of match" in run.stderr, run
    assert [box.get_message(k).get_flags() for k in box.iterkeys()] == [""]  # left unseen, for the player to look at
    assert not kept_files(bob)
    # a second version of a turn: Bob answers the invitation twice (each answer shuffles anew), from a copy of his spite home
    servers.deliver(bob.account, servers.delivery.delivered[-1])  # the invitation as it was sent
    file = Path(waiting(bob.inbox()) or "")
    twin = Mailer(Player("Bob", bob.player.home.with_name("home-bob-twin")), bob.account)
    shutil.copytree(bob.player.home, twin.player.home)
    bob.ok("play", file, "--send")
    twin.ok("play", twin.player.home / file.relative_to(bob.player.home), "--send")
    taken = alice.inbox()["taken"]
    assert [t["what"] for t in taken] == ["kept", "refused"] and "two different versions" in taken[1]["why"], taken


def test_send_refuses_what_it_should(pair: tuple[Mailer, Mailer], tmp_path: Path) -> None:
    alice, bob = pair
    invitation = invite(alice, bob)
    usage = alice.spite("new", "--to", bob.account.address)
    assert usage.exit_code == 2 and "add --send" in usage.stderr, usage
    assert_refused(bob.spite("send", invitation, "--to", alice.account.address), "not yours")
    assert_refused(alice.spite("send", invitation, "--to", "not an address"), "not an email address")
    junk = tmp_path / "junk.toml"
    junk.write_text("format = 'nothing'\n")
    assert_refused(alice.spite("send", junk), "")
    assert_refused(alice.spite("send", tmp_path / "missing.toml"), "cannot read")
    assert_refused(alice.spite("resend", "zzzz"), "no match")
    for args, words in ((("inbox", "--json", "--play"), "give one of them"), (("inbox", "--send"), "add --play")):
        usage = alice.spite(*args)
        assert usage.exit_code == 2 and words in usage.stderr, usage


# --- TLS, and servers that fail ---


@pytest.fixture(scope="module")
def tls_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServers]:
    with scratch(tmp_path_factory.mktemp("tls")) as root, mail_servers(root / "mail", tls=True) as running:
        yield running


def test_tls_and_starttls_with_a_certificate_that_checks_out(tls_servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        alice, bob = (Mailer(make_player(root, n), tls_servers.account(n)) for n in ("Alice", "Bob"))
        trust = {"SSL_CERT_FILE": str(tls_servers.cert)}
        untrusted = alice.spite(*tls_servers.setup_args(alice.account))
        assert_refused(untrusted, "TLS with the SMTP server 127.0.0.1", "certificate", "set SSL_CERT_FILE")
        for m in (alice, bob):
            run = m.spite(*tls_servers.setup_args(m.account), env=trust)
            assert run.exit_code == 0 and "(tls): logged in" in run.stdout and "(starttls): logged in" in run.stdout, run
        folder = alice.player.home / "out"
        folder.mkdir()
        alice.ok("new", "--payoff", "2", "--target", "1", "-o", folder / "invitation.toml")
        assert alice.spite("send", folder / "invitation.toml", "--to", bob.account.address, env=trust).exit_code == 0
        view = json.loads(bob.spite("inbox", "--json", env=trust).stdout)
        assert [t["what"] for t in view["taken"]] == ["kept"]


def test_tls_against_a_plain_server_is_named(servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root:
        player = make_player(root, "Erin")
        account = servers.account("Erin")
        env = {"SPITE_MAIL_PASSWORD": account.password}
        args = servers.setup_args(account)
        args[args.index("--smtp-security") + 1] = "tls"
        assert_refused(player.spite(*args, env=env), "TLS with the SMTP server 127.0.0.1", "security")
        args[args.index("--smtp-security") + 1] = "starttls"
        assert_refused(player.spite(*args, env=env), "SMTP server 127.0.0.1", "does not offer STARTTLS")
        args[args.index("--smtp-security") + 1] = "plain"
        args[args.index("--imap-security") + 1] = "starttls"
        assert_refused(player.spite(*args, env=env), "IMAP server 127.0.0.1", "does not offer STARTTLS")


def test_a_server_that_does_not_answer_times_out(servers: MailServers, tmp_path: Path) -> None:
    with scratch(tmp_path) as root, socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # connections are taken in, and never answered
        player = make_player(root, "Finn")
        account = servers.account("Finn")
        args = servers.setup_args(account)
        args[args.index("--smtp-port") + 1] = str(silent.getsockname()[1])
        args[args.index("--timeout") + 1] = "0.3"
        run = player.spite(*args, env={"SPITE_MAIL_PASSWORD": account.password})
        assert_refused(run, "SMTP server 127.0.0.1", "did not answer within 0.3 s (timeout)")


def test_without_a_password_or_settings_spite_says_what_to_do(pair: tuple[Mailer, Mailer], tmp_path: Path) -> None:
    alice, bob = pair
    assert_refused(alice.spite("inbox", env={"SPITE_MAIL_PASSWORD": None}), "no mail password", "SPITE_MAIL_PASSWORD")
    (alice.player.home / "mail.toml").write_text("smtp_host = [\n")
    assert_refused(alice.spite("inbox"), "mail settings", "not valid TOML", "spite mail setup")
    (alice.player.home / "mail.toml").unlink()
    assert_refused(alice.spite("inbox"), "no mail settings yet", "spite mail setup")
    assert_refused(bob.spite("inbox", "--maildir", tmp_path), "is not a Maildir")


def read_elsewhere(account: Account) -> None:
    """Flag every message of `account` as read, as a mail program (a phone) does before spite looks."""
    box = mailbox.Maildir(account.maildir, create=False)
    for key in list(box.iterkeys()):
        message = box.get_message(key)
        message.set_subdir("cur")
        message.add_flag("S")
        box[key] = message


def test_inbox_finds_mail_read_elsewhere_since_its_last_look(pair: tuple[Mailer, Mailer]) -> None:
    alice, bob = pair
    invitation = invite(alice, bob)
    read_elsewhere(bob.account)
    assert bob.inbox()["taken"] == []  # the first look takes the unread mail only, not years of it
    assert [t["what"] for t in json.loads(bob.ok("inbox", "--all", "--json").stdout)["taken"]] == ["kept"]
    alice.ok("resend", match_of(invitation)[:8])
    read_elsewhere(bob.account)
    assert [t["what"] for t in bob.inbox()["taken"]] == ["duplicate"]  # came since the last look: read elsewhere or not
    assert bob.inbox()["taken"] == []  # and looked at once


def test_inbox_says_how_many_spite_mails_were_read_elsewhere_and_that_all_looks_at_them(
    pair: tuple[Mailer, Mailer], servers: MailServers
) -> None:
    """A phone read two invitations before spite looked: spite inbox does not only say "No new spite mail"."""
    alice, bob = pair
    for n in (1, 2):
        alice.ok("new", "-o", alice.player.home / f"invitation-{n}.toml", "--send", "--to", bob.account.address)
    servers.deliver(bob.account, b"From: Carol <carol@example.com>\nSubject: [spite lunch]\n\nNoon?\n")  # not spite's
    read_elsewhere(bob.account)
    run = bob.ok("inbox")
    said = " ".join(run.stdout.split())
    passed_over = "2 spite mails in your inbox were already read (on another device?), so spite passed them over"
    assert f"No new spite mail. {passed_over}: spite inbox --all looks at them." in said, run
    alice.ok("new", "-o", alice.player.home / "invitation-3.toml", "--send", "--to", bob.account.address)
    read_elsewhere(bob.account)
    view = bob.inbox()  # the third came since the last look: taken, read or not; the two before it still wait for --all
    assert [t["what"] for t in view["taken"]] == ["kept"] and view["read_elsewhere"] == 2, view
    assert [t["what"] for t in json.loads(bob.ok("inbox", "--all", "--json").stdout)["taken"]] == ["kept", "kept", "duplicate"]
    view = bob.inbox()
    assert view["taken"] == [] and view["read_elsewhere"] == 0, view
    assert "already read" not in bob.ok("inbox").stdout


# --- at a terminal ---


@needs_pty
def test_setup_and_send_ask_at_a_terminal(servers: MailServers, tmp_path: Path) -> None:
    import pexpect  # only where there are pseudo-terminals (needs_pty)

    with scratch(tmp_path) as root:
        home = root / "home"
        env = process_env(home, PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")  # where keyring is installed: no keyring
        env.pop("SPITE_MAIL_PASSWORD", None)
        quiet = {"capture_output": True, "text": True, "env": env, "timeout": 60}
        subprocess.run([sys.executable, "-m", "pbm.cli", "id", "--name", "Alice"], check=True, **quiet)
        invitation = root / "invitation.toml"
        subprocess.run([sys.executable, "-m", "pbm.cli", "new", "-o", invitation], check=True, **quiet)
        account, bob = servers.account("Alice"), servers.account("Bob")

        def spawn(*args: str | Path) -> pexpect.spawn:
            child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", *map(str, args)], env=env, encoding="utf-8", timeout=30)
            child.logfile_read = open(root / "screen.log", "a", encoding="utf-8")  # noqa: SIM115 (closed with the child)
            return child

        child = spawn("mail", "setup")
        child.expect_exact("spite fills in the servers of Gmail, Fastmail, iCloud Mail, Yahoo Mail")  # before the address
        for prompt, answer in (
            ("Your email address", account.address),
            ("Your mail provider, if one of gmail, fastmail, icloud", ""),  # spite.test: another provider
            ("Your user name at the mail servers", account.user),
            ("SMTP server", "127.0.0.1"),
            ("SMTP security (tls, starttls, plain) [tls]", "plain"),
            ("SMTP port [25]", str(servers.smtp_port)),
            ("IMAP server", "127.0.0.1"),
            ("IMAP security (tls, starttls, plain) [tls]", "plain"),
            ("IMAP port [143]", str(servers.imap_port)),
            (f"Mail password for {account.user}", account.password),
        ):
            child.expect_exact(prompt)
            child.sendline(answer)
        child.expect_exact("Mail settings kept in")
        child.expect_exact("There is no system keyring here")  # keep the password in a file? No: the default
        child.sendline("")
        child.expect_exact("spite asks for your password once per command")
        child.expect(pexpect.EOF)
        assert account.password not in (home / "mail.toml").read_text()

        child = spawn("send", invitation)
        child.expect_exact("Opponent's email address (kept for this match)")
        child.sendline(bob.address)
        child.expect_exact("Mail password")
        child.sendline(account.password)
        child.expect_exact(f"Mailed invitation.toml to {bob.address}")
        child.expect(pexpect.EOF)

        child = spawn("resend", match_of(invitation)[:8])  # the address is kept: only the password is asked
        child.expect_exact("Mail password")
        child.sendline(account.password)
        child.expect_exact(f"to {bob.address} again")
        child.expect(pexpect.EOF)
        assert len(messages(bob)) == 2


@needs_pty
def test_inbox_play_send_asks_for_the_password_once(pair: tuple[Mailer, Mailer]) -> None:
    import pexpect  # only where there are pseudo-terminals (needs_pty)

    alice, bob = pair
    invite(alice, bob)
    env = process_env(bob.player.home, PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")  # no keyring: asked at the terminal
    env.pop("SPITE_MAIL_PASSWORD", None)
    child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", "inbox", "--play", "--send"], env=env, encoding="utf-8", timeout=60)
    asked = 0
    while (said := child.expect_exact(["Mail password for", "Go on with this key", pexpect.EOF])) < 2:
        asked += said == 0
        child.sendline(bob.account.password if said == 0 else "y")  # the password; yes to Alice's key, met for the first time
    child.close()
    assert child.exitstatus == 0, child.before
    assert asked == 1  # the inbox's fetch and the answer's send share the one password typed
    assert [t["what"] for t in alice.inbox()["taken"]] == ["kept"]  # and the answer went


def test_a_resignation_that_crosses_a_turn_by_mail_is_taken_in_place_of_it(pair: tuple[Mailer, Mailer]) -> None:
    """Bob mails his turn while Alice, who has not fetched it, resigns and mails that: both inboxes sort it out."""
    alice, bob = pair
    invitation = invite(alice, bob, payoff=20, target=30)  # piles of 20: game 1 goes on for these few turns
    reader, writer = bob, alice
    for _ in range(5):  # a few files into game 1, then it is Bob's turn with Alice's latest file
        file = waiting(reader.inbox())
        assert file is not None
        reader.ok("play", file, "--auto", "--think", THINK, "--send")
        reader, writer = writer, reader
    if reader is not bob:
        file = waiting(reader.inbox())
        assert file is not None
        reader.ok("play", file, "--auto", "--think", THINK, "--send")
    file = waiting(bob.inbox())
    assert file is not None
    bob.ok("play", file, "--auto", "--think", THINK, "--send")  # Bob's turn goes out ...
    run = alice.ok("resign", match_of(invitation)[:8], "--yes", "--send")  # ... while Alice resigns after her own last file
    assert "You resigned game 1" in run.stdout and f"to {bob.account.address}" in run.stdout, run
    view = bob.inbox()
    resignation = waiting(view)
    assert resignation is not None and resignation.endswith("-resign.toml"), view
    played = bob.ok("play", resignation, "--auto", "--think", THINK, "--send")
    assert "Alice resigned game 1" in played.stdout, played
    view = alice.inbox()
    refused = [t for t in view["taken"] if t["what"] == "refused"]
    assert len(refused) == 1 and "crossed" in json.dumps(refused[0]), view
    answer = waiting(view)
    assert answer is not None
    alice.ok("play", answer, "--auto", "--think", THINK, "--send")
    for m in (alice, bob):
        assert m.inbox()["matches"][0]["resigned"] in (["you resigned game 1"], ["Alice resigned game 1"])


def forged_code(turn: dict[str, Any]) -> str:
    """A turn code carrying `turn` as it is, every checksum of it recomputed (they are no signature): a forger's own program."""
    import base64

    from pbm.packing import deflate
    from pbm.transport import code

    raw = deflate(turn, code._ZDICT)
    body = base64.b64encode(raw).decode("ascii").rstrip("=")
    tag = code._base32(code.crypto_hash_sha256(raw))[:5]
    lines = [body[i : i + code.LINE] for i in range(0, len(body), code.LINE)]
    return "\n".join([f"BEGIN SPITE TURN {tag}", *lines, f"END SPITE TURN {tag} {code._check(tag, body)}"])


def forged_turn(alice: Mailer, bob: Mailer, servers: MailServers) -> tuple[bytes, EmailMessage, TurnCode, dict[str, Any]]:
    """Alice's mail of her turn to Bob, held back (Bob has not got it): its bytes, the message, its turn code, and the
    code's turn with one field changed (the score; the file's name stays the genuine one's), for a forger to send."""
    from pbm.transport import code

    genuine = intercepted(alice, bob, servers)
    message = BytesParser(policy=policy.default).parsebytes(genuine)
    assert isinstance(message, EmailMessage)
    body = message.get_body(("plain",))
    assert body is not None
    item = code.read(body.get_content().encode())
    assert isinstance(item, TurnCode)
    turn = dict(item.turn)
    turn["score"] = [turn["score"][0] + 1, turn["score"][1]]
    return genuine, message, item, turn


@pytest.mark.parametrize("together", [False, True], ids=["looked-at-between", "in-one-look"])
def test_a_forged_turn_code_before_the_genuine_file_is_refused_and_takes_no_place(
    pair: tuple[Mailer, Mailer], servers: MailServers, together: bool
) -> None:
    """Mallory mails Bob, as Alice, her turn's code with its score changed, before Alice's own mail comes: refused in one
    line, and nothing of it kept (no file, no save number taken), so Alice's file is taken and played."""
    alice, bob = pair
    genuine, message, item, turn = forged_turn(alice, bob, servers)
    forged = f"From: {alice.account.address}\nSubject: {message['Subject']}\n\nmy move:\n\n{forged_code(turn)}\n"
    before = kept_files(bob)
    servers.deliver(bob.account, forged.encode())
    if together:
        servers.deliver(bob.account, genuine)  # Alice's own mail, after it in the same look
    run = bob.ok("inbox")
    refusal = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(refusal) == 1 and f"(save {item.seq})" in refusal[0] and "signature does not match" in refusal[0], run
    if not together:
        assert "0 new files" in run.stdout, run
        assert kept_files(bob) == before  # nothing of it kept
        view = bob.inbox()
        assert view["taken"] == [] and waiting(view) is None  # no save number taken: nothing waits to be played
        servers.deliver(bob.account, genuine)  # Alice's own mail comes after it
        view = bob.inbox()
        assert [t["what"] for t in view["taken"]] == ["kept"], view
    else:
        assert "1 new file from the mail." in run.stdout, run
        view = bob.inbox()
    assert len(kept_files(bob)) == len(before) + 1
    file = Path(waiting(view) or "")
    assert file.read_bytes() == next(message.iter_attachments()).get_content()  # Alice's file, as she wrote it
    opened = bob.player.spite("inbox", "--play", input="", env=bob.env())  # nobody at the keyboard: it opens, plays nothing
    assert f"Opening {file}" in opened.stdout and "your turn" in opened.stdout and "signature" not in opened.output, opened
    run = bob.ok("play", file, "--auto", "--think", THINK, "--send")
    assert f"to {alice.account.address}" in run.stdout, run
    assert [t["what"] for t in alice.inbox()["taken"]] == ["kept"]  # the match goes on


@pytest.mark.parametrize("on_turn_first", [True, False], ids=["on-turn-resigner-looks-first", "other-looks-first"])
@pytest.mark.parametrize(("on_turn_whole", "other_whole"), [(False, False), (True, False), (False, True)], ids=["games", "match", "game"])
def test_two_resignations_after_one_file_by_mail_end_the_game_alike(
    pair: tuple[Mailer, Mailer], on_turn_first: bool, on_turn_whole: bool, other_whole: bool
) -> None:
    """Bob fetches Alice's turn and resigns on his turn, while Alice resigns on it too (after her own file): both mail it.
    Whichever inbox looks first, Bob's resignation stands on both sides (docs/protocol.md, Resigning), Alice's is passed
    over as void, and Alice's answer to Bob's goes on to the next game (or ends the match) alike."""
    alice, bob = pair
    invitation = invite(alice, bob, payoff=20, target=30)  # piles of 20: game 1 goes on for these few turns
    reader, writer = bob, alice
    for _ in range(4):
        answer(reader)
        reader, writer = writer, reader
    assert reader is bob
    file = waiting(bob.inbox())  # Alice's turn, for Bob to answer
    assert file is not None
    match = match_of(invitation)[:8]
    ours = ["--match"] if on_turn_whole else []
    run = bob.ok("resign", match, "--yes", "--file", file, "--send", *ours)  # on his turn: it follows Alice's file
    assert f"to {alice.account.address}" in run.stdout, run
    pile = int(run.stdout.split("Alice scores ", 1)[1].split(".", 1)[0])
    run = alice.ok("resign", match, "--yes", "--send", *(["--match"] if other_whole else []))  # after her own file
    assert f"to {bob.account.address}" in run.stdout, run

    def bob_looks() -> None:
        view = bob.inbox()
        refused = [t for t in view["taken"] if t["what"] == "refused"]
        assert len(refused) == 1 and "crossed Bob's resignation of game 1, made on Bob's turn" in json.dumps(refused[0]), view

    if on_turn_first:
        bob_looks()
    reply = answer(alice)  # Alice's spite takes Bob's resignation in place of hers, and answers it
    assert f"Bob resigned {'the match' if on_turn_whole else f'game 1: you score {pile}.'}" in " ".join(reply.stdout.split()), reply
    if not on_turn_first:
        bob_looks()
    for m, who in ((alice, "Bob"), (bob, "you")):
        (row,) = m.inbox()["matches"]
        assert row["resigned"] == [f"{who} resigned the match, in game 1" if on_turn_whole else f"{who} resigned game 1"], row
        assert row["score"] == ([pile, 0] if m is alice else [0, pile]), row  # yours first: Bob's pile, to Alice
    last = answer(bob)  # Alice's keys of game 1 (and the deal of game 2 when the match goes on)
    if on_turn_whole:
        assert "Nothing more to send" in last.stdout, last
        for m in (alice, bob):
            assert json.loads(m.ok("games", "--json", "--all").stdout)["matches"][0]["next"] == "over"
        return
    answer(alice)  # the deal of game 2 goes on, taken in by both
    following = waiting(bob.inbox())
    assert following is not None
    for m in (alice, bob):
        assert json.loads(m.ok("show", "--json", following).stdout)["game"] == 2


def test_a_forged_code_an_older_spite_kept_gives_its_place_to_the_genuine_file(pair: tuple[Mailer, Mailer], servers: MailServers) -> None:
    """A home where an older spite kept a forged turn code (and took its save number) is not stuck: the genuine file of
    that turn, when it comes, takes the forgery's place, and the turn is played."""
    from pbm.inbox import match_folder
    from pbm.journal import Journal

    alice, bob = pair
    genuine, message, item, turn = forged_turn(alice, bob, servers)
    with Journal.open(bob.player.home) as journal:  # as spite before issue 33 kept it: unverified, its save number taken
        forged = match_folder(journal.home, item.match) / "forged.txt"
        forged.write_text(f"my move:\n\n{forged_code(turn)}\n")
        assert journal.take(item.match, item.seq, forged, "Alice", alice.account.address)
    view = bob.inbox()
    assert waiting(view) == str(forged.resolve())
    assert_refused(bob.spite("play", forged, "--auto"), "signature")  # stuck, until the genuine file comes
    servers.deliver(bob.account, genuine)
    view = bob.inbox()
    assert [t["what"] for t in view["taken"]] == ["kept"], view
    file = Path(waiting(view) or "")
    assert file != forged.resolve() and file.read_bytes() == next(message.iter_attachments()).get_content()
    run = bob.ok("play", file, "--auto", "--think", THINK, "--send")
    assert f"to {alice.account.address}" in run.stdout, run
    assert [t["what"] for t in alice.inbox()["taken"]] == ["kept"]  # the match goes on
