"""Fixtures shared by the pbm tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import Mail, mail_copy, started_match

from pbm.identity import Identity, load_or_create


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> tuple[Identity, Identity, Identity]:
    """Alice, Bob and Mallory: three identities with keys of their own."""
    home = tmp_path_factory.mktemp("keys")
    return (
        load_or_create(home, "Alice"),
        load_or_create(home, "Bob", path=home / "bob.pem"),
        load_or_create(home, "Mallory", path=home / "mallory.pem"),
    )


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A match of Alice's and Bob's, three files in, played once per test module (see cli_helpers.Mail)."""
    with started_match(tmp_path_factory.mktemp("started")) as root:
        yield root


@pytest.fixture()
def mail(started: Path, tmp_path: Path) -> Iterator[Mail]:
    """A private copy of the module's started match, for one test to change freely."""
    with mail_copy(started, tmp_path) as copy:
        yield copy
