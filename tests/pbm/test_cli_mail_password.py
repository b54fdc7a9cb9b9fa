"""The mail password without a system keyring (issue 34, item 7), against real SMTP and IMAP servers on localhost.

A password typed and refused is asked again (three tries in all); where there is no keyring, setup offers to keep it in
a file of the spite home, readable by the player only (as git's credential store does), and then no mail command asks
for it; a kept password the server refuses is said in one line with what to do; with a keyring nothing is typed either.
"""

from __future__ import annotations

import stat
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from cli_helpers import Player, assert_refused, make_player, needs_pty, process_env, scratch
from mail_servers import Account, MailServers, mail_servers

from pbm import credentials, mailconf

NO_PASSWORD = {"SPITE_MAIL_PASSWORD": None}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServers]:
    with scratch(tmp_path_factory.mktemp("mail")) as root, mail_servers(root / "mail") as running:
        yield running


@pytest.fixture()
def root(tmp_path: Path) -> Iterator[Path]:
    with scratch(tmp_path) as made:
        yield made


def set_up(servers: MailServers, root: Path, name: str, *extra: str) -> tuple[Player, Account]:
    """A player with a spite home and a mail account, set up with the password given in SPITE_MAIL_PASSWORD."""
    player, account = make_player(root, name), servers.account(name)
    player.ok(*servers.setup_args(account), *extra, env={"SPITE_MAIL_PASSWORD": account.password})
    return player, account


def invitation(player: Player, root: Path) -> Path:
    path = root / f"invitation-{player.name.lower()}.toml"
    player.ok("new", "--payoff", "2", "--target", "1", "-o", path)
    return path


class Terminal:
    """`spite` in a pseudo-terminal with no keyring and no SPITE_MAIL_PASSWORD: every mail password is typed, and counted."""

    def __init__(self, home: Path, root: Path) -> None:
        self.env = process_env(home, PYTHON_KEYRING_BACKEND="keyring.backends.null.Keyring")
        self.env.pop("SPITE_MAIL_PASSWORD", None)
        self.log = root / "screen.log"
        self.typed = 0

    def run(self, args: list[str | Path], passwords: list[str], *answers: tuple[str, str]) -> tuple[int, str]:
        """Run `spite ARGS`, typing `passwords` in turn at each password prompt and each answer at its question; the exit
        status and what the screen showed. Fails if more passwords are asked than given."""
        import pexpect  # only where there are pseudo-terminals (needs_pty)

        child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", *map(str, args)], env=self.env, encoding="utf-8", timeout=60)
        child.logfile_read = screen = _Screen()
        questions = [q for q, _a in answers]
        while (said := child.expect_exact(["Mail password for", *questions, pexpect.EOF])) <= len(questions):
            if said == 0:
                assert passwords, f"a password asked once more than expected:\n{screen.text}"
                child.sendline(passwords.pop(0))
                self.typed += 1
            else:
                child.sendline(answers[said - 1][1])
        child.close()
        with self.log.open("a", encoding="utf-8") as log:
            log.write(screen.text)
        assert not passwords, f"fewer passwords asked than expected:\n{screen.text}"
        return child.exitstatus, " ".join(screen.text.split())  # as one line: the terminal's width wraps long ones


class _Screen:
    """What a child printed, kept (pexpect's logfile_read)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, data: str) -> None:
        self.text += data

    def flush(self) -> None:
        pass


@needs_pty
def test_a_password_typed_wrong_is_asked_again_three_tries_in_all(servers: MailServers, root: Path) -> None:
    alice, account = set_up(servers, root, "Alice")
    bob, bob_account = set_up(servers, root, "Bob")
    invited = invitation(alice, root)
    terminal = Terminal(alice.home, root)
    status, screen = terminal.run(["send", invited, "--to", bob_account.address], ["wrong-1", "wrong-2", "wrong-3"])
    assert status == 1 and terminal.typed == 3, screen  # three tries, then one line that says what failed
    assert screen.count("refused the user name or password") == 3 and "Once more" in screen, screen
    assert "spite: invitation-alice.toml is written but not mailed" in screen.rsplit("Once more:", 1)[1], screen
    status, screen = terminal.run(["send", invited], ["wrong", account.password])  # the address was kept
    assert status == 0 and f"Mailed {invited.name} to {bob_account.address}" in screen, screen
    bobs = Terminal(bob.home, root)
    status, screen = bobs.run(["inbox"], ["wrong", bob_account.password])
    assert status == 0 and "1 new file from the mail." in screen, screen
    assert terminal.typed - 3 + bobs.typed == 4  # a send and an inbox with a wrong first try: 2 + 2 passwords typed


@needs_pty
def test_a_password_kept_at_setup_is_never_asked_again(servers: MailServers, root: Path) -> None:
    alice, account = make_player(root, "Alice"), servers.account("Alice")
    terminal = Terminal(alice.home, root)
    keep = ("Keep it in", "y")
    status, screen = terminal.run(servers.setup_args(account), [account.password], keep)
    assert status == 0 and terminal.typed == 1, screen
    assert "There is no system keyring here" in screen and "UNENCRYPTED, as git's credential store does?" in screen, screen
    assert "Your password is kept unencrypted in" in screen and "which only you can read" in screen, screen
    kept = alice.home / credentials.PASSWORD_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert tomllib.loads(kept.read_text())["password"] == account.password
    assert account.password not in (alice.home / "mail.toml").read_text()
    bob_account = servers.account("Bob")
    invited = invitation(alice, root)
    typed = terminal.typed
    status, screen = terminal.run(["send", invited, "--to", bob_account.address], [])
    assert status == 0 and "Mailed" in screen, screen
    status, screen = terminal.run(["inbox"], [])
    assert status == 0 and terminal.typed == typed, screen  # a send and an inbox: no password typed
    assert "kept unencrypted" in alice.ok("mail", "show", env=NO_PASSWORD).stdout
    alice.ok(*servers.setup_args(account), "--no-keep-password", env={"SPITE_MAIL_PASSWORD": account.password})
    assert not kept.exists()  # the player no longer wants it kept: the file goes
    assert "spite asks for your password once per command" in alice.ok("mail", "show", env=NO_PASSWORD).stdout


def test_a_kept_password_the_server_refuses_is_one_line_that_says_how_to_fix_it(servers: MailServers, root: Path) -> None:
    alice, account = set_up(servers, root, "Alice", "--keep-password")  # no terminal: the option keeps it
    bob, bob_account = set_up(servers, root, "Bob")
    kept = alice.home / credentials.PASSWORD_FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 or sys.platform == "win32"
    invited = invitation(alice, root)
    assert f"to {bob_account.address}" in alice.ok("send", invited, "--to", bob_account.address, env=NO_PASSWORD).stdout
    assert "1 new file" in bob.ok("inbox", env={"SPITE_MAIL_PASSWORD": bob_account.password}).stdout
    credentials.save(alice.home, f"{account.user}@127.0.0.1", "an-old-password")  # changed at the provider since
    line = assert_refused(alice.spite("inbox", env=NO_PASSWORD), "IMAP server", "refused the user name or password")
    assert f"the password kept in {kept} is refused: run 'spite mail setup' to give the new one" in line
    line = assert_refused(alice.spite("send", invited, env=NO_PASSWORD), "written but not mailed", "SMTP server")
    assert "is refused: run 'spite mail setup'" in line
    line = assert_refused(alice.spite("send", invited, env={"SPITE_MAIL_PASSWORD": "wrong"}), "written but not mailed")
    assert "(the password given in SPITE_MAIL_PASSWORD)" in line  # no terminal: one line, nothing asked
    credentials.save(alice.home, "someone-else@127.0.0.1", account.password)  # kept for another login: never sent
    assert_refused(alice.spite("inbox", env=NO_PASSWORD), "no mail password")


@pytest.mark.parametrize(
    "content",
    [b"password = [\n", b'entry = "a@b"\n', b'entry = "a@b"\npassword = 7\n', b"\xff\xfe", b"#" * (credentials.MAX_FILE + 1)],
    ids=["not-toml", "no-password", "not-a-string", "not-utf8", "too-big"],
)
def test_a_damaged_password_file_is_one_line(servers: MailServers, root: Path, content: bytes) -> None:
    alice, _account = set_up(servers, root, "Alice", "--keep-password")
    (alice.home / credentials.PASSWORD_FILE).write_bytes(content)
    assert_refused(alice.spite("inbox", env=NO_PASSWORD), "mail-password.toml is damaged", "spite mail setup")


def test_a_password_too_long_to_keep_is_refused_and_nothing_kept(tmp_path: Path) -> None:
    with pytest.raises(mailconf.MailSettingsError, match="1 to 1024 characters"):
        credentials.save(tmp_path, "a@b", "x" * (credentials.MAX_PASSWORD + 1))
    credentials.save(tmp_path, "a@b", "\x01" * credentials.MAX_PASSWORD)  # the worst an honest player keeps fits
    assert (tmp_path / credentials.PASSWORD_FILE).stat().st_size < credentials.MAX_FILE
    assert credentials.load(tmp_path, "a@b") == "\x01" * credentials.MAX_PASSWORD


def test_on_windows_the_file_is_said_to_be_in_the_user_profile(servers: MailServers, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _account = set_up(servers, root, "Alice", "--keep-password")
    monkeypatch.setattr(credentials, "is_posix", lambda: False)
    shown = " ".join(alice.ok("mail", "show", env=NO_PASSWORD).stdout.split())
    assert "kept unencrypted in" in shown and "in your user profile" in shown, shown


class _Keyring:
    """A system keyring, as the keyring package gives one: what spite keeps there, in memory."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], str] = {}
        self.asked = 0

    def get_keyring(self) -> Any:
        return SimpleNamespace()

    def get_password(self, service: str, user: str) -> str | None:
        self.asked += 1
        return self.kept.get((service, user))

    def set_password(self, service: str, user: str, password: str) -> None:
        self.kept[(service, user)] = password


def test_with_a_keyring_setup_keeps_it_there_and_nothing_is_typed(
    servers: MailServers, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ring = _Keyring()
    monkeypatch.setattr(mailconf, "_keyring", lambda: ring)
    alice, account = set_up(servers, root, "Alice", "--keep-password")
    bob_account = servers.account("Bob")
    assert ring.kept == {("spite-mail", f"{account.user}@127.0.0.1"): account.password}
    assert not (alice.home / credentials.PASSWORD_FILE).exists()  # in the keyring only: never in a file as well
    invited = invitation(alice, root)
    alice.ok("send", invited, "--to", bob_account.address, env=NO_PASSWORD)  # no terminal, no variable: the keyring's
    alice.ok("inbox", env=NO_PASSWORD)
    assert "kept in the system keyring" in alice.ok("mail", "show", env=NO_PASSWORD).stdout
