"""One `spite play` of an ordinary turn checks each thing once: the signature, the save's schema, the journal's chain.

Before the client package (pbm/client/) it made 4 Ed25519 verifications, 6 schema checks and 4 journal checks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import THINK, files, mail_copy, new_file, started_match

from pbm import journal, saves
from pbm.identity import PublicKey


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with started_match(tmp_path_factory.mktemp("counts")) as root:
        yield root


def counted(calls: Counter[str], name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return func(*args, **kwargs)

    return wrapper


def play_counts(base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """What Bob's `spite play --auto` of an ordinary turn (the third file of a match) costs in checks."""
    calls: Counter[str] = Counter()
    monkeypatch.setattr(PublicKey, "verify", counted(calls, "ed25519", PublicKey.verify))
    monkeypatch.setattr(saves, "_validate", counted(calls, "schema", saves._validate))
    monkeypatch.setattr(journal.Journal, "check", counted(calls, "journal", journal.Journal.check))
    with mail_copy(base, tmp_path) as mail:
        before = files(mail.folder)
        calls.clear()
        mail.bob.ok("play", mail.latest, "--auto", "--think", THINK)
        assert new_file(before, mail.folder) is not None
    return calls


def test_an_ordinary_turn_checks_each_thing_once(base: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = play_counts(base, tmp_path, monkeypatch)
    assert calls["ed25519"] == 2, calls  # the file's signature and its turn's, once: the reader's check is not made again
    assert calls["schema"] == 2, calls  # the file read, and the answer once it is whole (not each step of signing it)
    assert calls["journal"] == 2, calls  # the received file placed in the chain, and the answer recorded after it
