"""`spite mail setup` fills in the servers of a provider it knows from the address's domain (issue 34, item 6): no host
is asked for an address at gmail.com, the known providers are offered first at a terminal, and settings set by hand stay."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from cli_helpers import Player, needs_pty, process_env


def kept(player: Player) -> dict[str, object]:
    return tomllib.loads((player.home / "mail.toml").read_text())


def servers(settings: dict[str, object]) -> tuple[object, ...]:
    return tuple(settings[f"{k}_{f}"] for k in ("smtp", "imap") for f in ("host", "port", "security"))


GMAIL = ("smtp.gmail.com", 465, "tls", "imap.gmail.com", 993, "tls")


def test_an_address_at_gmail_needs_no_server(tmp_path: Path) -> None:
    player = Player("Gina", tmp_path / "home")
    run = player.ok("mail", "setup", "--address", "Gina <gina@gmail.com>", "--no-check")  # nothing else given, no terminal
    assert "The servers of Gmail: SMTP smtp.gmail.com:465 (tls), IMAP imap.gmail.com:993 (tls)." in run.stdout, run
    assert "Gmail wants an app password for spite" in run.stdout, run
    settings = kept(player)
    assert servers(settings) == GMAIL and settings["user"] == "gina@gmail.com"


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("ian@me.com", ("smtp.mail.me.com", 587, "starttls", "imap.mail.me.com", 993, "tls")),
        ("yan@yahoo.co.uk", ("smtp.mail.yahoo.com", 465, "tls", "imap.mail.yahoo.com", 993, "tls")),
        ("fred@fastmail.fm", ("smtp.fastmail.com", 465, "tls", "imap.fastmail.com", 993, "tls")),
        ("gus@googlemail.com", GMAIL),
    ],
)
def test_each_known_domain_fills_its_providers_servers(tmp_path: Path, address: str, expected: tuple[object, ...]) -> None:
    player = Player("Ann", tmp_path / "home")
    player.ok("mail", "setup", "--address", address, "--no-check")
    assert servers(kept(player)) == expected


def test_a_domain_of_ones_own_names_its_provider_and_an_option_overrides_a_setting(tmp_path: Path) -> None:
    player = Player("Fred", tmp_path / "home")
    player.ok("mail", "setup", "--address", "fred@fred.example", "--provider", "Fastmail", "--user", "fred@fastmail.com", "--no-check")
    settings = kept(player)
    assert settings["smtp_host"] == "smtp.fastmail.com" and settings["user"] == "fred@fastmail.com"
    player.ok("mail", "setup", "--address", "gina@gmail.com", "--smtp-security", "starttls", "--no-check")
    assert servers(kept(player)) == ("smtp.gmail.com", 587, "starttls", *GMAIL[3:])  # a new security: its usual port


def test_settings_set_by_hand_for_a_domain_stay_when_setup_runs_again(tmp_path: Path) -> None:
    player = Player("Gina", tmp_path / "home")
    player.ok("mail", "setup", "--address", "gina@gmail.com", "--smtp-host", "relay.example.net", "--smtp-port", "2525", "--no-check")
    assert servers(kept(player))[:2] == ("relay.example.net", 2525)  # an option given wins over the provider's
    player.ok("mail", "setup", "--no-check")  # again, nothing given: the address and the relay as kept
    assert servers(kept(player)) == ("relay.example.net", 2525, "tls", *GMAIL[3:])


def test_an_unknown_domain_without_a_terminal_asks_for_the_servers_as_before(tmp_path: Path) -> None:
    player = Player("Ed", tmp_path / "home")
    run = player.spite("mail", "setup", "--address", "ed@example.com", "--no-check")
    assert run.exit_code == 2 and "give --smtp-host" in run.stderr, run
    outlook = player.spite("mail", "setup", "--address", "olly@hotmail.com", "--no-check")
    assert outlook.exit_code == 2 and "Outlook.com lets programs other than Microsoft's log in by OAuth only" in outlook.stderr
    usage = player.spite("mail", "setup", "--address", "x@y.example", "--provider", "hotmeal", "--no-check")
    assert usage.exit_code == 2 and "'hotmeal' is not one spite knows: gmail, fastmail, icloud, yahoo, aol" in usage.stderr, usage
    assert not (player.home / "mail.toml").exists()


@needs_pty
def test_at_a_terminal_an_address_at_gmail_asks_for_no_host_and_others_are_offered_the_providers(tmp_path: Path) -> None:
    import pexpect  # only where there are pseudo-terminals (needs_pty)

    env = process_env(tmp_path / "home")

    def spawn() -> pexpect.spawn:
        child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", "mail", "setup", "--no-check"], env=env, encoding="utf-8", timeout=30)
        child.logfile_read = open(tmp_path / "screen.log", "a", encoding="utf-8")  # noqa: SIM115 (closed with the child)
        return child

    child = spawn()
    child.expect_exact("spite fills in the servers of Gmail, Fastmail, iCloud Mail, Yahoo Mail, AOL Mail")  # offered first
    child.expect_exact("Your email address")
    child.sendline("gina@gmail.com")
    child.expect_exact("The servers of Gmail: SMTP smtp.gmail.com:465 (tls)")
    child.expect_exact("Mail settings kept in")
    child.expect(pexpect.EOF)
    screen = (tmp_path / "screen.log").read_text()
    for prompt in ("server", "security", "port", "user name", "provider"):
        assert f"{prompt} (" not in screen.split("Your email address")[1].lower(), screen  # nothing else was asked
    assert servers(kept(Player("Gina", tmp_path / "home"))) == GMAIL

    child = spawn()  # a domain of one's own: the provider is asked before any server
    child.expect_exact("Your email address")
    child.sendline("fred@fred.example")
    child.expect_exact("Your mail provider, if one of gmail, fastmail, icloud")
    child.sendline("hotmeal")
    child.expect_exact("'hotmeal' is not one spite knows")
    child.expect_exact("Your mail provider")
    child.sendline("fastmail")
    child.expect_exact("The servers of Fastmail")
    child.expect(pexpect.EOF)
    assert kept(Player("Fred", tmp_path / "home"))["smtp_host"] == "smtp.fastmail.com"
