"""The journal: trust on first use, and refusal of key changes, replays, forks, rollbacks and gaps."""

from __future__ import annotations

import dataclasses
import stat
from pathlib import Path

import pytest

from engine.rules import Ruleset
from pbm import saves
from pbm.errors import ChainError, ForkError, JournalError, KeyMismatchError, ReplayError, RollbackError, UnknownKeyError
from pbm.identity import Identity
from pbm.journal import SCHEMA_VERSION, Journal, Status
from pbm.saves import Player, SaveFile

MATCH = "feedfacecafebeef0011223344556677"


@pytest.fixture()
def journal(tmp_path: Path) -> Journal:
    with Journal.open(tmp_path) as j:
        yield j


def made(home: Path) -> None:
    """A journal in `home` with nothing but a mailbox looked at: a write makes the file (opening it makes none)."""
    with Journal.open(home) as journal:
        journal.keep_looked("INBOX", "1", 0)
    assert (home / "journal.sqlite").is_file()


def save_after(prev: SaveFile | None, by: Identity, people: tuple[Identity, ...], *, moves: str = "Q-s1", **changes: object) -> SaveFile:
    """The save that follows `prev` (or the first of the match), written and signed by `by`."""
    alice, bob = people[0], people[1]
    seq = prev.seq + 1 if prev else 1
    base = SaveFile(
        match=MATCH,
        seq=seq,
        game=1,
        turn=seq - 1,
        prev=prev.hash if prev else "",
        rules=Ruleset(name="tiny", payoff_size=5, target_score=10),
        players=(Player("Alice", alice.public_text), Player("Bob", bob.public_text)),
        score=(0, 0),
        history=(saves.TurnRecord(0, moves),),
        protocol={"message": {"turn": {"moves": moves}}},  # the turn, and so the hash, is the message's
    )
    return saves.sign(dataclasses.replace(base, **changes), by)


def chain(people: tuple[Identity, ...], length: int) -> list[SaveFile]:
    files: list[SaveFile] = []
    for i in range(length):
        files.append(save_after(files[-1] if files else None, people[i % 2], people))
    return files


def test_new_match_pins_both_keys_on_first_use(journal: Journal, people: tuple[Identity, ...]) -> None:
    first = chain(people, 1)[0]
    assert not journal.knows(MATCH)
    found = journal.check(first)
    assert found.status is Status.NEW_MATCH and found.first_seen
    assert [p.key for p in found.pinned] == [people[0].public_text, people[1].public_text]
    assert not journal.knows(MATCH), "check alone must not pin"
    journal.record(first, "/tmp/a.toml")
    assert journal.knows(MATCH)
    assert journal.pinned(MATCH) == first.players
    assert journal.latest(MATCH).hash == first.hash


def test_a_chain_continues_and_latest_follows(journal: Journal, people: tuple[Identity, ...], tmp_path: Path) -> None:
    files = chain(people, 5)
    journal.record(files[0], tmp_path / "f0.toml")
    for i, save in enumerate(files[1:], start=1):
        found = journal.check(save)
        assert found.status is Status.CONTINUES and not found.pinned
        assert found.latest.hash == files[i - 1].hash
        journal.record(save, tmp_path / f"f{i}.toml")
    latest = journal.latest(MATCH)
    assert (latest.seq, latest.turn, latest.signer, latest.hash) == (5, 4, 0, files[-1].hash)
    assert latest.path == str((tmp_path / "f4.toml").resolve())


def test_the_latest_file_again_is_not_an_error(journal: Journal, people: tuple[Identity, ...], tmp_path: Path) -> None:
    files = chain(people, 2)
    for save in files:
        journal.record(save, tmp_path / "x.toml")
    assert journal.check(files[1]).status is Status.LATEST
    journal.record(files[1], tmp_path / "moved.toml")
    assert journal.latest(MATCH).path.endswith("moved.toml")


def test_replay_of_a_file_already_played_from(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 15)
    for save in files:
        journal.record(save)
    with pytest.raises(ReplayError, match=r"already played from this file \(game 1, turn 13\)"):
        journal.check(files[13])
    with pytest.raises(ReplayError):
        journal.record(files[0])


def test_fork_two_versions_of_one_turn(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 15)
    for save in files:
        journal.record(save)
    # Bob signed turn 13 (seq 14); Alice answered; now he sends another version of his turn, from the same point.
    other = save_after(files[12], people[1], people, moves="K-s2")
    assert other.seq == files[13].seq and other.hash != files[13].hash
    with pytest.raises(ForkError, match="Bob sent two different versions of turn 13"):
        journal.check(other)
    assert journal.latest(MATCH).hash == files[14].hash


def test_rollback_to_an_older_turn(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 6)
    for save in files:
        journal.record(save)
    # Bob continues from an old point of the match, as if the later turns never happened.
    old = save_after(files[1], people[1], people, moves="K-s3")
    with pytest.raises(RollbackError, match="older than the latest"):
        journal.check(old)


def test_rollback_on_a_journal_that_joined_mid_match(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 6)
    assert journal.check(files[4]).status is Status.UNKNOWN_MATCH
    journal.record(files[4])
    with pytest.raises(RollbackError):
        journal.check(files[2])
    assert journal.check(files[5]).status is Status.CONTINUES


def test_gap_in_the_chain(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 5)
    journal.record(files[0])
    journal.record(files[1])
    with pytest.raises(ChainError, match="does not follow"):
        journal.check(files[3])


def test_wrong_numbering_is_a_chain_error(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 2)
    journal.record(files[0])
    journal.record(files[1])
    skipped = save_after(files[1], people[0], people, seq=7)
    with pytest.raises(ChainError, match="numbered 7"):
        journal.check(skipped)


def test_key_change_for_a_pinned_player(journal: Journal, people: tuple[Identity, ...]) -> None:
    alice, bob, mallory = people
    files = chain(people, 2)
    journal.record(files[0])
    journal.record(files[1])
    impostor = saves.sign(
        dataclasses.replace(save_after(files[1], alice, people), players=(files[1].players[0], Player("Bob", mallory.public_text))), mallory
    )
    with pytest.raises(KeyMismatchError, match=f"key of Bob.*{bob.fingerprint}.*{mallory.fingerprint}"):
        journal.check(impostor)


def test_matches_lists_score_and_whose_turn(journal: Journal, people: tuple[Identity, ...], tmp_path: Path) -> None:
    files = chain(people, 3)
    files.append(save_after(files[-1], people[1], people, score=(0, 4)))
    for i, save in enumerate(files):
        journal.record(save, tmp_path / f"{i}.toml")
    [info] = journal.matches()
    assert info.match == MATCH and info.score == (0, 4) and info.target == 10
    assert info.latest.path.endswith("3.toml")
    assert info.waiting_for == 0 and not info.over
    assert info.seat_of(people[1].public_key) == 1 and info.seat_of(people[2].public_text) is None
    assert info.players[1].name == "Bob"


def test_a_finished_match_waits_for_nobody(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 1)
    files.append(save_after(files[0], people[1], people, score=(3, 11)))
    for save in files:
        journal.record(save)
    [info] = journal.matches()
    assert info.over and info.waiting_for is None


def test_journal_persists_and_refuses_a_damaged_file(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    files = chain(people, 2)
    with Journal.open(tmp_path) as j:
        j.record(files[0])
    with Journal.open(tmp_path) as j:
        assert j.knows(MATCH)
        assert j.check(files[1]).status is Status.CONTINUES
    (tmp_path / "journal.sqlite").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError, match="damaged"):
        Journal.open(tmp_path)


def test_a_journal_is_made_by_its_first_write_not_by_opening_it(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    """Issue 33, item 12: a command that records nothing (a refusal) leaves no journal behind; the first write makes it,
    whole and private, or uses the one another spite made meanwhile."""
    home = tmp_path / "home"
    first = save_after(None, people[0], people)
    with Journal.open(home) as journal:
        assert journal.matches() == [] and journal.check(first).status is Status.NEW_MATCH
        assert not home.exists()
        with Journal.open(home) as other:  # another spite, opened at the same time, writes first
            other.keep_address(MATCH, "bob@example.com")
        journal.record(first, tmp_path / "a.toml")
    assert stat.S_IMODE((home / "journal.sqlite").stat().st_mode) == 0o600 and stat.S_IMODE(home.stat().st_mode) == 0o700
    assert sorted(p.name for p in home.iterdir()) == ["journal.sqlite"]  # no temp file left
    with Journal.open(home, write=False) as journal:
        assert journal.latest(MATCH).hash == first.hash and journal.address(MATCH) == "bob@example.com"


def test_two_players_two_journals_a_whole_exchange(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    """Alice and Bob each keep a journal; every file goes through parse, verify against the pinned key, check, record."""
    alice, _, mallory = people
    journals = {0: Journal.open(tmp_path / "a"), 1: Journal.open(tmp_path / "b")}
    try:
        files = chain(people, 4)
        for i, save in enumerate(files):
            writer, reader = i % 2, 1 - i % 2
            journals[writer].record(save)
            received = saves.parse(saves.to_toml(save))
            saves.verify(received, journals[reader].key_for(received))
            found = journals[reader].record(received)
            assert found.status is (Status.NEW_MATCH if i == 0 else Status.CONTINUES)
        # Mallory, in the middle, re-signs Alice's next turn with her own key in Alice's seat.
        nxt = save_after(files[-1], alice, people)
        forged = saves.sign(dataclasses.replace(nxt, players=(Player("Alice", mallory.public_text), nxt.players[1])), mallory)
        with pytest.raises(UnknownKeyError):
            saves.verify(forged, journals[1].key_for(forged))
    finally:
        for j in journals.values():
            j.close()


# --- mail: addresses, files mailed, files taken from the mail ---


def test_a_version_2_journal_gains_the_mail_tables_and_keeps_its_saves(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    import sqlite3

    first = save_after(None, people[0], people)
    with Journal.open(tmp_path) as j:
        j.record(first, tmp_path / "a.toml")
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        for table in ("addresses", "mailed", "received", "mailboxes"):
            db.execute(f"DROP TABLE {table}")
        db.execute("PRAGMA user_version = 2")  # as spite before mail left it
    db.close()
    with Journal.open(tmp_path) as j:
        assert j.latest(MATCH) is not None and j.latest(MATCH).hash == first.hash
        assert j.address(MATCH) is None
        j.keep_address(MATCH, "bob@example.com")
        assert j.address(MATCH) == "bob@example.com"


def test_a_version_3_journal_gains_the_unwritten_table_and_an_invitation_stays_unwritten_until_it_moved(
    tmp_path: Path, people: tuple[Identity, ...]
) -> None:
    import sqlite3

    first = save_after(None, people[0], people)
    made(tmp_path)
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        db.execute("DROP TABLE unwritten")
        db.execute("PRAGMA user_version = 3")  # as spite before 4 left it
    db.close()
    with Journal.open(tmp_path) as j:
        j.record_own(first, b"the bytes", tmp_path / "a.toml", "side", unwritten=True)
        assert [r.hash for r in j.unwritten()] == [first.hash]
        j.moved(first.hash, tmp_path / "b.toml")  # the file is on disk: the match stands from here on
        assert j.unwritten() == [] and j.latest(MATCH).path == str((tmp_path / "b.toml").resolve())


def test_a_version_4_journal_gains_the_messages_table_and_keeps_a_message_when_its_save_is_seen_again(
    tmp_path: Path, people: tuple[Identity, ...]
) -> None:
    import sqlite3

    first = save_after(None, people[0], people)
    with Journal.open(tmp_path) as j:
        j.record(first, tmp_path / "a.toml")
        assert j.message(first.hash) == dict(first.protocol["message"])
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        db.execute("DROP TABLE messages")
        db.execute("PRAGMA user_version = 4")  # as spite before 5 left it
    db.close()
    with Journal.open(tmp_path) as j:
        assert j.latest(MATCH).hash == first.hash and j.message(first.hash) is None
        j.record(first, tmp_path / "a.toml")  # the latest save seen again
        assert j.message(first.hash) == dict(first.protocol["message"])
        assert [r.hash for r in j.saves(MATCH)] == [first.hash]


def test_mail_records(journal: Journal, people: tuple[Identity, ...], tmp_path: Path) -> None:
    first = save_after(None, people[0], people)
    journal.record(first, tmp_path / "a.toml")
    journal.mailed(first, MATCH, "bob@example.com")
    assert journal.last_mailed(MATCH)[:2] == (first.hash, "bob@example.com")
    assert journal.latest_own(MATCH, people[0].public_text).hash == first.hash
    assert journal.latest_own(MATCH, people[1].public_text) is None
    assert journal.take(MATCH, 2, tmp_path / "b.toml", "Bob", "bob@example.com")
    assert not journal.take(MATCH, 2, tmp_path / "c.toml", "Bob", "bob@example.com")  # one file per save
    assert journal.taken(MATCH, 2) == str((tmp_path / "b.toml").resolve())
    assert [(r.seq, r.sender) for r in journal.waiting()] == [(2, "bob@example.com")]
    journal.record(save_after(first, people[1], people))
    assert journal.waiting() == []  # recorded: no longer waiting


def test_a_version_4_journal_gains_the_resignation_tables_and_keeps_its_saves(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    import sqlite3

    first = save_after(None, people[0], people)
    with Journal.open(tmp_path) as j:
        j.record(first, tmp_path / "a.toml")
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        db.execute("DROP TABLE resignations")
        db.execute("DROP TABLE void")
        db.execute("PRAGMA user_version = 4")  # as spite before resignations left it
    db.close()
    with Journal.open(tmp_path, write=False) as j:  # only to look: upgraded all the same, as an older journal always is
        assert j.latest(MATCH) is not None and j.latest(MATCH).hash == first.hash
        assert j.resignations(MATCH) == [] and not j.is_void(first.hash)
        assert [m.conceded for m in j.matches()] == [None]
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_version_4_journal_gains_the_proofs_table_and_remembers_checked_proofs_by_match(tmp_path: Path) -> None:
    import sqlite3

    made(tmp_path)
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        db.execute("DROP TABLE proofs")
        db.execute("PRAGMA user_version = 4")  # as spite before 5 left it
    db.close()
    match = bytes.fromhex(MATCH)
    with Journal.open(tmp_path) as j:
        assert j.proven(MATCH) == []
        j.remember_proofs([(match, b"d" * 64), (match, b"d" * 64), (bytes(16), b"e" * 64)])
    with Journal.open(tmp_path, write=False) as j:
        assert j.proven(MATCH) == [b"d" * 64] and j.proven(bytes(16).hex()) == [b"e" * 64]


def test_an_invitation_forgotten_leaves_nothing_of_its_match_behind(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    """An unsent invitation forgotten takes its proofs and first shuffles with it; another match's rows stay."""
    first = save_after(None, people[0], people)
    match, other = bytes.fromhex(MATCH), bytes(16)
    with Journal.open(tmp_path) as j:
        j.record_own(first, b"the bytes", tmp_path / "a.toml", "side", unwritten=True)
        j.remember_proofs([(match, b"d" * 64), (other, b"e" * 64)], [(match, b"f" * 32, b"points"), (other, b"g" * 32, b"more")])
        assert j.decks(MATCH) == [(b"f" * 32, b"points")] and j.proven(MATCH) == [b"d" * 64]
        j.forget(first)
        assert not j.knows(MATCH) and j.unwritten() == [] and j.latest(MATCH) is None
        assert j.decks(MATCH) == [] and j.proven(MATCH) == []
        assert j.decks(other.hex()) == [(b"g" * 32, b"more")] and j.proven(other.hex()) == [b"e" * 64]


def test_a_version_6_journal_gains_the_forgotten_table_and_keeps_its_saves(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    import sqlite3

    first = save_after(None, people[0], people)
    with Journal.open(tmp_path) as j:
        j.record(first, tmp_path / "a.toml")
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    with db:
        db.execute("DROP TABLE forgotten")
        db.execute("PRAGMA user_version = 6")  # as spite before spite forget left it
    db.close()
    with Journal.open(tmp_path, write=False) as j:  # only to look: upgraded all the same
        assert j.latest(MATCH).hash == first.hash and j.dropped() == set() and not j.withdrawn(MATCH)
    with Journal.open(tmp_path) as j:
        j.drop(MATCH)
        assert j.dropped() == {MATCH} and j.latest(MATCH).hash == first.hash  # dropped from the list, every row kept
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
    db.close()


def test_a_withdrawn_match_leaves_only_its_id_and_every_file_of_it_is_refused(tmp_path: Path, people: tuple[Identity, ...]) -> None:
    first = save_after(None, people[0], people)
    answer = save_after(first, people[1], people)
    with Journal.open(tmp_path) as j:
        j.record_own(first, b"the bytes", tmp_path / "a.toml", "side")
        j.keep_address(MATCH, "bob@example.com")
        j.withdraw(MATCH)
        assert not j.knows(MATCH) and j.matches() == [] and j.address(MATCH) is None and j.withdrawn(MATCH)
        for late in (answer, first):  # the answer that comes after all, and the invitation itself
            with pytest.raises(JournalError, match="which you withdrew"):
                j.record(late)
        assert not j.knows(MATCH)


def test_only_a_match_in_which_no_turn_was_played_may_be_withdrawn(journal: Journal, people: tuple[Identity, ...]) -> None:
    files = chain(people, 3)  # the third file carries turn 2
    for save in files:
        journal.record(save)
    with pytest.raises(JournalError, match="no turn was played"):
        journal.withdraw(MATCH)
    assert journal.latest(MATCH).hash == files[-1].hash and not journal.withdrawn(MATCH)
