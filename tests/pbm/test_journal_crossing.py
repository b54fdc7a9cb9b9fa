"""The journal's part in resignations that cross (docs/save-format.md, Resigning): of two after one file, the one made on
its maker's turn stands in both journals; a file after a void one is void; and a kept mail copy that does not verify
gives its place to a verified one."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_journal import chain, save_after

from pbm.errors import CrossedError, RollbackError
from pbm.identity import Identity
from pbm.journal import Journal, Resignation, Status
from pbm.saves import SaveFile

RESIGN = {"message": {"resign": {"game": 1, "match": False}}}
MATCH_RESIGN = {"message": {"resign": {"game": 1, "match": True}}}


def resignation(prev: SaveFile, by: Identity, people: tuple[Identity, ...], whole: bool = False) -> SaveFile:
    return save_after(prev, by, people, protocol=MATCH_RESIGN if whole else RESIGN)


def journal_of(home: Path, files: list[SaveFile]) -> Journal:
    journal = Journal.open(home)
    for save in files:
        journal.record(save)
    return journal


@pytest.mark.parametrize("whole", [False, True])
def test_of_two_resignations_after_one_file_the_one_made_on_its_makers_turn_stands_in_both_journals(
    tmp_path: Path, people: tuple[Identity, ...], whole: bool
) -> None:
    alice, bob = people[0], people[1]
    files = chain(people, 3)  # the latest is Alice's: Bob's turn
    on_turn = resignation(files[-1], bob, people)  # Bob's, on his turn
    other = resignation(files[-1], alice, people, whole)  # Alice's, on Bob's turn, after her own file
    with journal_of(tmp_path / "alice", [*files, other]) as journal:  # Alice's: hers first, then Bob's comes
        check = journal.check(on_turn)
        assert check.status is Status.CROSSING and check.void == (other.hash,)
        journal.record(on_turn)
        assert journal.latest(files[0].match).hash == on_turn.hash and journal.is_void(other.hash)
        assert journal.resignations(files[0].match) == [Resignation(1, 1, False)]
        assert [m.conceded for m in journal.matches()] == [None]  # Alice's concession of the match is void with it
        with pytest.raises(CrossedError, match="Alice's resignation of game 1 crossed Bob's resignation of game 1"):
            journal.check(other)  # her own void file is not hers to send again
    with journal_of(tmp_path / "bob", [*files, on_turn]) as journal:  # Bob's: his first, then Alice's comes
        with pytest.raises(CrossedError, match="made on Bob's turn, which stands: Alice's resignation is void"):
            journal.check(other)
        assert journal.resignations(files[0].match) == [Resignation(1, 1, False)]


def test_a_resignation_crossing_a_turn_voids_the_resignation_made_after_that_turn_too(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    alice, bob = people[0], people[1]
    files = chain(people, 3)
    turn = save_after(files[-1], bob, people)  # Bob plays his turn ...
    late = resignation(turn, bob, people, whole=True)  # ... and resigns the match after it, on Alice's turn
    stands = resignation(files[-1], alice, people)  # Alice, having seen neither, resigns after her own file
    with journal_of(tmp_path / "bob", [*files, turn, late]) as journal:
        check = journal.check(stands)
        assert check.status is Status.CROSSING and check.void == (turn.hash, late.hash)
        journal.record(stands)
        assert journal.latest(files[0].match).hash == stands.hash
        assert journal.resignations(files[0].match) == [Resignation(1, 0, False)]
        with pytest.raises(CrossedError, match="follows one that a resignation made void"):
            journal.check(late)
    with journal_of(tmp_path / "alice", [*files, stands]) as journal, pytest.raises(CrossedError, match="crossed Alice's resignation"):
        journal.check(turn)


def test_a_resignation_does_not_take_the_place_of_a_file_the_other_player_followed(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    """Only the receiver's unanswered files give way: a resignation after a file the resigner has answered since is older."""
    bob = people[1]
    files = chain(people, 5)  # Alice, Bob, Alice, Bob, Alice
    stale = resignation(files[1], bob, people)  # Bob, after his own file 2, across Alice's file 3, which he answered since
    with journal_of(tmp_path, files) as journal:  # Alice's, who has Bob's file 4 and wrote file 5 after it
        assert journal.check(resignation(files[-1], bob, people)).status is Status.CONTINUES
        with pytest.raises(RollbackError):
            journal.check(stale)


def test_retake_replaces_only_the_copy_it_was_told_of(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    match = chain(people, 1)[0].match
    with Journal.open(tmp_path) as journal:
        assert journal.take(match, 2, tmp_path / "forged.txt", "Alice", "alice@example.com")
        was = journal.taken(match, 2)
        assert was is not None
        assert not journal.retake(match, 2, str(tmp_path / "other.txt"), tmp_path / "b.toml", "Alice", "alice@example.com")
        assert journal.taken(match, 2) == was
        assert journal.retake(match, 2, was, tmp_path / "genuine.toml", "Alice", "alice@example.com")
        assert journal.taken(match, 2) == str((tmp_path / "genuine.toml").resolve())
        assert not journal.retake(match, 2, was, tmp_path / "again.toml", "Alice", "alice@example.com")  # taken meanwhile
