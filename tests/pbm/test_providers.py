"""The providers spite knows (pbm/providers.py): every entry well-formed, each with the page it was checked against."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbm import mailconf, providers
from pbm.providers import NO_PASSWORDS, PROVIDERS, for_address, takes_no_password

_HOST = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}")
_USUAL_PORTS = {"smtp": {"tls": {465}, "starttls": {587}}, "imap": {"tls": {993}, "starttls": {143}}}


@pytest.mark.parametrize("provider", PROVIDERS, ids=[p.name for p in PROVIDERS])
def test_every_provider_is_well_formed(provider: providers.Provider) -> None:
    assert re.fullmatch(r"[a-z][a-z0-9.]*", provider.name), provider.name  # what --provider takes, typed as is
    assert provider.title.strip() == provider.title and provider.title
    assert provider.domains and len(set(provider.domains)) == len(provider.domains)
    for domain in provider.domains:
        assert _HOST.fullmatch(domain), domain  # lower case, no dot at either end
        assert domain not in NO_PASSWORDS
    for kind in ("smtp", "imap"):
        host, port, security = (getattr(provider, f"{kind}_{field}") for field in ("host", "port", "security"))
        assert _HOST.fullmatch(host), host
        assert port in _USUAL_PORTS[kind][security], (kind, port, security)  # never plain: a password never crosses in clear
    first = provider.first
    assert "{provider}" in first and first.format(provider=provider.title).startswith(("Allow", provider.title))
    settings = mailconf.MailSettings(
        address=f"alice@{provider.domains[0]}",
        user=f"alice@{provider.domains[0]}",
        **{f"{kind}_{field}": getattr(provider, f"{kind}_{field}") for kind in ("smtp", "imap") for field in ("host", "port", "security")},
    )
    assert settings.smtp_host == provider.smtp_host  # the settings' own checks take it


def test_names_and_domains_are_each_one_providers() -> None:
    names = [p.name for p in PROVIDERS]
    assert len(set(names)) == len(names) and {"gmail", "fastmail", "icloud", "yahoo"} <= set(names)
    domains = [d for p in PROVIDERS for d in p.domains]
    assert len(set(domains)) == len(domains)  # an address is one provider's


def test_every_entry_names_the_page_it_was_checked_against() -> None:
    """In the source, the comment just above each entry cites at least one page (https://...)."""
    source = Path(providers.__file__).read_text(encoding="utf-8")
    body = source[source.index("PROVIDERS: tuple[Provider, ...] = (") :]
    entries = body.split("    Provider(")[1:]
    assert len(entries) == len(PROVIDERS)
    comments = body.split("    Provider(")[:-1]
    for before in comments:
        cited = [line for line in before.rstrip().splitlines()[-6:] if line.strip().startswith("#")]
        assert any("https://" in line for line in cited), before[-300:]


@pytest.mark.parametrize(
    ("address", "name"),
    [
        ("gina@gmail.com", "gmail"),
        ("Gina@GoogleMail.COM", "gmail"),
        ("gina@gmail.com.", "gmail"),
        ("fred@fastmail.fm", "fastmail"),
        ("fred@sent.com", "fastmail"),
        ("ian@me.com", "icloud"),
        ("ian@mac.com", "icloud"),
        ("yan@yahoo.co.uk", "yahoo"),
        ("yan@yahoo.fr", "yahoo"),
        ("yan@ymail.com", "yahoo"),
        ("yan@rocketmail.com", "yahoo"),
        ("al@aol.com", "aol"),
        ("gus@gmx.de", "gmx"),
        ("gus@gmx.com", "gmx.com"),
        ("max@mail.com", "mail.com"),
        ("yuri@yandex.ru", "yandex"),
        ("yuri@mail.ru", "mail.ru"),
    ],
)
def test_an_address_names_its_provider(address: str, name: str) -> None:
    found = for_address(address)
    assert found is not None and found.name == name


@pytest.mark.parametrize("address", ["alice@example.com", "alice@yahoo.co.jp", "alice@sub.gmail.com", "no-at-sign", ""])
def test_an_address_elsewhere_names_none(address: str) -> None:
    assert for_address(address) is None


def test_outlook_and_its_kin_take_no_password() -> None:
    assert all(takes_no_password(f"olly@{d}") for d in ("outlook.com", "hotmail.com", "live.com", "msn.com", "hotmail.co.uk"))
    assert not takes_no_password("olly@gmail.com") and not takes_no_password("olly@example.com")
