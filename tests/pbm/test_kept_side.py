"""A side the journal kept that is JSON of another shape than spite keeps (a damaged disk, a hand-edited journal) is the
one-line damaged-journal error, never a traceback, and changes nothing."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from cli_helpers import Mail, assert_refused, files

from pbm import saves


def kept(mail: Mail, seq: int) -> dict[str, Any]:
    db = sqlite3.connect(mail.bob.home / "journal.sqlite")
    try:
        (text,) = db.execute("SELECT data FROM seats WHERE match = ? AND seq = ?", (saves.read(mail.latest).match, seq)).fetchone()
    finally:
        db.close()
    return json.loads(text)


def keep(mail: Mail, seq: int, data: Any) -> None:
    db = sqlite3.connect(mail.bob.home / "journal.sqlite")
    with db:
        db.execute("UPDATE seats SET data = ? WHERE match = ? AND seq = ?", (json.dumps(data), saves.read(mail.latest).match, seq))
    db.close()


SHAPES = {
    "side-not-a-table": lambda k: {**k, "side": 5},
    "side-empty": lambda k: {**k, "side": {}},
    "no-blob": lambda k: {"side": k["side"], "turns": k.get("turns")},
    "blob-a-number": lambda k: {**k, "blob": 5},
    "blob-empty": lambda k: {**k, "blob": ""},
    "turns-a-number": lambda k: {**k, "turns": 5},
    "turns-not-packed": lambda k: {**k, "turns": "not packed"},
    "side-missing-a-part": lambda k: {**k, "side": {key: v for key, v in k["side"].items() if key != "party"}},
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_kept_side_of_another_shape_is_a_damaged_journal(mail: Mail, shape: str) -> None:
    keep(mail, 2, SHAPES[shape](kept(mail, 2)))  # Bob's side after his last file (save 2), which his answer starts from
    before = files(mail.folder)
    line = assert_refused(mail.bob.spite("play", mail.latest, "--auto"), "your journal", "is damaged")
    assert "side kept after save 2" in line, line
    assert files(mail.folder) == before
