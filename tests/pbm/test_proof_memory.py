"""The journal remembers the proofs of shuffle its player checked: a second look skips them, a changed one is checked anew."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Player, answer, assert_refused, invite, scratch
from hostile import resign_doc

from pbm import saves
from pbm.client.receive import NotRecorded, decode, look
from pbm.errors import ProofError
from pbm.journal import Journal
from pbm.protocol import group, proofs, shuffle


@pytest.fixture
def deal(tmp_path: Path) -> Iterator[tuple[Player, Player, Path]]:
    """Alice, Bob, and Bob's answer to Alice's invitation: his shuffle of her deck, with its proof of the whole deck."""
    with scratch(tmp_path) as root:
        alice, bob, invitation = invite(root)
        yield alice, bob, answer(bob, invitation)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each full check of a proof of shuffle from here on; the memory of this process starts empty, as a new spite's does."""
    monkeypatch.setattr(shuffle, "_PROVEN", set())
    monkeypatch.setattr(shuffle, "_NEWLY", [])
    monkeypatch.setattr(proofs, "_PROVEN", set())
    monkeypatch.setattr(proofs, "_NEWLY", [])
    made: list[int] = []
    real = shuffle._check
    monkeypatch.setattr(shuffle, "_check", lambda *a: made.append(1) or real(*a))
    return made


def _remembered(player: Player) -> int:
    with sqlite3.connect(player.home / "journal.sqlite") as db:
        count: int = db.execute("SELECT COUNT(*) FROM proofs").fetchone()[0]
    return count


def _forget_process() -> None:
    """What a new spite process knows of checked proofs: nothing but its journal."""
    shuffle._PROVEN.clear()
    shuffle._NEWLY.clear()
    proofs._PROVEN.clear()
    proofs._NEWLY.clear()


def test_a_second_look_takes_the_proof_of_shuffle_from_the_journal(deal: tuple[Player, Player, Path], checks: list[int]) -> None:
    alice, _, path = deal
    alice.ok("show", path)
    assert checks == [1] and _remembered(alice) == 2  # the proof of shuffle, and the batch proof of the strips with it
    _forget_process()
    alice.ok("verify", path)  # a new process: the journal says the proof was checked
    alice.ok("show", path)
    assert checks == [1]


def test_a_second_look_takes_the_strips_batch_proof_from_the_journal_and_a_changed_batch_is_checked_again(
    deal: tuple[Player, Player, Path], checks: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batch proof of the strips a deal step carries is remembered as a proof of shuffle is: by the digest of all it
    was checked against, so that the same proof over one other point is checked anew (and refused)."""
    alice, _, path = deal
    batches: list[int] = []
    real = proofs._weighted
    monkeypatch.setattr(proofs, "_weighted", lambda *a: batches.append(1) or real(*a))
    alice.ok("show", path)
    assert len(batches) == 2  # Σu·cards and Σu·layered of the one batch the file carries
    _forget_process()
    alice.ok("show", path)
    assert len(batches) == 2, "the second look checked the remembered batch again"
    doc = saves.read(path).protocol["message"]["deal"]
    ctx = proofs.Context(bytes(16), 1, 0, "the strips", 5)
    cards = [group.base(group.hash_scalar(bytes([i]))) for i in range(3)]
    k = group.hash_scalar(b"k")
    layered = [group.mul(k, c) for c in cards]
    proof = proofs.prove_batch(ctx, k, group.base(k), cards, layered, random.Random(1).randbytes)
    before = len(batches)
    proofs.verify_batch(ctx, proof, group.base(k), cards, layered)
    assert len(batches) == before + 2 and "strip_proof" in doc
    proofs.verify_batch(ctx, proof, group.base(k), cards, layered)  # remembered in this process
    assert len(batches) == before + 2
    other = [*layered[:2], group.mul(k, layered[2])]
    with pytest.raises(ProofError, match="does not prove out"):
        proofs.verify_batch(ctx, proof, group.base(k), cards, other)  # the same proof over one other point: checked anew
    assert len(batches) == before + 4


def test_a_changed_point_under_a_remembered_proof_is_checked_again_and_refused(
    deal: tuple[Player, Player, Path], checks: list[int]
) -> None:
    alice, bob, path = deal
    original = saves.read(path)
    alice.ok("show", path)
    assert _remembered(alice) == 2
    with sqlite3.connect(alice.home / "journal.sqlite") as db:  # the journal as before the look, but for the proof it remembers
        db.execute("DELETE FROM saves WHERE hash = ?", (original.hash,))

    def one_point(doc: dict[str, Any]) -> None:  # the same proof and every other input, one card of the shuffled deck changed
        deck = doc["protocol"]["message"]["deal"]["deck"]["points"]
        deck[7] = group.b64(group.base(group.hash_scalar(b"another card")))

    changed = path.with_name("changed.toml")
    changed.write_bytes(resign_doc(path.read_bytes(), bob.identity, one_point))
    _forget_process()
    assert_refused(alice.spite("show", changed), "does not prove out")
    assert checks == [1, 1]  # checked anew, not taken from the journal
    _forget_process()
    alice.ok("show", path)  # the file as Bob wrote it: its proof is remembered still
    assert checks == [1, 1]


def test_a_changed_strip_under_a_remembered_batch_proof_is_checked_again_and_refused(
    deal: tuple[Player, Player, Path], checks: list[int]
) -> None:
    """A modified Bob sends his deal step again with one strip changed and the batch proof Alice's journal remembers:
    the shuffle's proof is taken from the journal, but the batch is checked anew and refused before any key is used."""
    alice, bob, path = deal
    original = saves.read(path)
    alice.ok("show", path)
    with sqlite3.connect(alice.home / "journal.sqlite") as db:  # the journal as before the look, but for the proofs it remembers
        db.execute("DELETE FROM saves WHERE hash = ?", (original.hash,))

    def one_strip(doc: dict[str, Any]) -> None:
        strips = doc["protocol"]["message"]["deal"]["strips"]
        strips[0] = group.b64(group.base(group.hash_scalar(b"another strip")))

    changed = path.with_name("changed-strip.toml")
    changed.write_bytes(resign_doc(path.read_bytes(), bob.identity, one_strip))
    _forget_process()
    assert_refused(alice.spite("show", changed), "does not prove out")
    assert checks == [1]  # the proof of shuffle was remembered: the refusal is the batch's
    _forget_process()
    alice.ok("show", path)  # the file as Bob wrote it still opens


def test_a_journal_opened_read_only_checks_the_proof_and_remembers_nothing(deal: tuple[Player, Player, Path], checks: list[int]) -> None:
    alice, _, path = deal
    for _ in range(2):  # as show and verify look when the home cannot be written
        _forget_process()
        with Journal.open(alice.home, write=False) as journal:
            opened = look(decode(path.read_bytes(), path), alice.identity, journal)
        assert any(isinstance(note, NotRecorded) for note in opened.notes)
    assert checks == [1, 1] and _remembered(alice) == 0


def test_the_first_shuffle_is_made_once_when_inviting_and_read_back_from_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pbm.protocol import dealsteps

    monkeypatch.setattr(dealsteps, "_FIRST_DECKS", {})
    monkeypatch.setattr(dealsteps, "_NEW_DECKS", [])
    made: list[int] = []
    real = group.layer
    monkeypatch.setattr(group, "layer", lambda k, cards: made.append(len(cards)) or real(k, cards))
    with scratch(tmp_path) as root:
        alice, bob, invitation = invite(root)
        assert made == [104]  # Alice's first shuffle, made for her invitation
        with sqlite3.connect(alice.home / "journal.sqlite") as db:
            assert db.execute("SELECT COUNT(*), length(points) FROM decks").fetchone() == (1, 104 * 32)
        path = answer(bob, invitation)
        dealsteps._FIRST_DECKS.clear()  # a new process: only Alice's journal knows her first shuffle
        made.clear()
        alice.ok("show", path)  # the second shuffle is checked against the first, read back, not made again
        assert 104 not in made
        with sqlite3.connect(alice.home / "journal.sqlite") as db:
            db.execute("DELETE FROM decks")  # only a cache: without it the first shuffle is made again, and all is well
        dealsteps._FIRST_DECKS.clear()
        _forget_process()
        alice.ok("verify", path)
        assert 104 in made
