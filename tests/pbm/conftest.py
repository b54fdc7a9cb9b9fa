"""Fixtures shared by the pbm tests."""

from __future__ import annotations

import pytest

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
