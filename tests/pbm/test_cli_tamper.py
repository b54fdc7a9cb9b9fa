"""Random edits of a real mid-game save, at the byte and at the field level: `spite` accepts none and never crashes."""

from __future__ import annotations

import dataclasses
import random
import string
import tomllib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from cli_helpers import THINK, Player, answer, assert_refused, calm_start, files, invite, new_file, scratch

from engine.moves import InvalidMoveError, parse_turn
from pbm import saves
from pbm.errors import SaveFormatError, SpiteError, UnknownKeyError
from pbm.transport import code


@dataclass
class Mid:
    """Bob's view of a match in progress: `save` is the file Alice just wrote (turn 3), which Bob has not yet seen."""

    alice: Player
    bob: Player
    folder: Path
    save: bytes
    doc: dict[str, Any]


@pytest.fixture(scope="module")
def mid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mid]:
    with scratch(tmp_path_factory.mktemp("tamper")) as root:
        alice, bob, path = calm_start(root, 4)  # game 1 going, its history three turns long
        folder = path.parent
        data = path.read_bytes()
        path.unlink()  # only edited copies are offered to Bob
        yield Mid(alice, bob, folder, data, tomllib.loads(data.decode()))


# --- the edits ---


def byte_edit(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random bit flipped, byte inserted or byte deleted at a random offset."""
    i = rng.randrange(len(data))
    kind = rng.choice(("flip", "insert", "delete"))
    if kind == "flip":
        return f"flip bit of byte {i}", data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    if kind == "insert":
        byte = rng.randrange(256)
        return f"insert {byte:#04x} at {i}", data[:i] + bytes([byte]) + data[i:]
    return f"delete byte {i} ({data[i]:#04x})", data[:i] + data[i + 1 :]


def _sites(value: Any, where: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every place a field edit can touch: (dotted place, container, key) of each leaf value and each non-empty list."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        place = f"{where}.{key}" if isinstance(value, dict) else f"{where}[{key}]"
        if isinstance(item, dict):
            yield from _sites(item, place)
        elif isinstance(item, list):
            if item:
                yield place, value, key
            yield from _sites(item, place)
        else:
            yield place, value, key


def _changed_text(text: str, rng: random.Random) -> str:
    if not text:
        return "x"
    i = rng.randrange(len(text))
    alphabet = string.ascii_letters + string.digits + "-_ "
    return text[:i] + rng.choice([c for c in alphabet if c != text[i]]) + text[i + 1 :]


def _under(place: str, fields: tuple[str, ...]) -> bool:
    """Whether `place` is one of `fields` or inside one (".turn" is not ".turn_signature")."""
    return any(f == "" or place == f or place.startswith((f"{f}.", f"{f}[")) for f in fields)


def field_edit(doc: dict[str, Any], rng: random.Random, only: tuple[str, ...] = ("",)) -> tuple[str, bytes]:
    """The save's TOML with one random field (under a place in `only`) changed: a number ±1, a text with one character
    changed, a list item dropped."""
    edited = tomllib.loads(tomli_w.dumps(doc))  # a deep copy
    place, container, key = rng.choice([site for site in _sites(edited) if _under(site[0], only)])
    value = container[key]
    if isinstance(value, bool):
        container[key], what = not value, "negate"
    elif isinstance(value, int):
        step = rng.choice((-1, 1))
        container[key], what = value + step, f"{step:+d}"
    elif isinstance(value, str):
        container[key], what = _changed_text(value, rng), "change a character of"
    else:
        del value[rng.randrange(len(value))]
        what = "drop an item of"
    assert edited != doc
    return f"{what} {place}", tomli_w.dumps(edited).encode()


# --- offering them to Bob ---


def _same_save(data: bytes, doc: dict[str, Any]) -> bool:
    """Whether `data` is the same save in another layout (the signature covers the parsed payload, not the text), or
    with only what the tolerant reader undoes (a byte after its last line, a line broken inside a packed field)."""
    try:
        if tomllib.loads(data.decode()) == doc:
            return True
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        pass
    try:
        read = code.read(data)
    except SpiteError:
        return False
    return isinstance(read, saves.SaveFile) and saves.payload(read) == doc


def offer(mid: Mid, what: str, data: bytes, tally: Counter[str]) -> None:
    """Give the edited save to Bob: `spite verify` and `spite play` refuse it (one line, exit 1), unless it is the same save."""
    path = mid.folder / "edited.toml"
    path.write_bytes(data)
    before = files(mid.folder)
    if _same_save(data, mid.doc):
        run = mid.bob.spite("verify", path)
        assert run.exit_code == 0, f"{what}: the same save in another layout is refused\n{run}"
        tally["same save, accepted"] += 1
        return
    for command in ("verify", "play"):
        run = mid.bob.spite(command, path, *(("--auto", "--think", THINK) if command == "play" else ()))
        assert run.exit_code != 0, f"{what}: spite {command} accepted an edited save\n{run}"
        line = assert_refused(run)
        tally[line.split(":")[1].strip()[:40]] += 1
    assert new_file(before, mid.folder) is None, what


def _tamper(mid: Mid, kind: str, count: int, seed: int) -> Counter[str]:
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for _ in range(count):
        what, data = byte_edit(mid.save, rng) if kind == "bytes" else field_edit(mid.doc, rng)
        offer(mid, what, data, tally)
    return tally


@pytest.mark.parametrize(("count", "seed"), [pytest.param(100, 1, id="100"), pytest.param(1000, 1001, id="1000", marks=pytest.mark.slow)])
def test_random_byte_edits_are_all_refused(mid: Mid, count: int, seed: int) -> None:
    tally = _tamper(mid, "bytes", count, seed)
    same = tally.pop("same save, accepted", 0)
    assert same < count // 4  # whitespace edits only; nearly every edit changes the save
    assert sum(tally.values()) == 2 * (count - same)


@pytest.mark.parametrize(("count", "seed"), [pytest.param(100, 2, id="100"), pytest.param(1000, 1002, id="1000", marks=pytest.mark.slow)])
def test_random_field_edits_are_all_refused(mid: Mid, count: int, seed: int) -> None:
    tally = _tamper(mid, "fields", count, seed)
    assert "same save, accepted" not in tally
    assert sum(tally.values()) == 2 * count


def test_the_untouched_save_is_accepted(mid: Mid) -> None:
    """The control: the edits are refused for being edits, not because Bob could not take this save at all."""
    tally: Counter[str] = Counter()
    offer(mid, "nothing", mid.save, tally)
    relaid = tomli_w.dumps(mid.doc, multiline_strings=False).encode()
    offer(mid, "another layout", relaid, tally)
    assert tally == {"same save, accepted": 2}


# --- edits signed again with the sender's real key: only the checks behind the signature can catch them ---

# Everything a cheat who signs with their own key might change, yet cannot: all but the signature itself (signing again
# sets it and the signer) and the sealed secrets (each player can open only their own blob).
COVERED = (
    ".format",
    ".version",
    ".match",
    ".seq",
    ".game",
    ".turn",
    ".prev",
    ".score",
    ".rules",
    ".players",
    ".state",
    ".history",
    ".protocol",
)


def resigned(mid: Mid, data: bytes) -> bytes | None:
    """The edited save signed again by Alice, the real sender; None if the edit leaves no save she could sign."""
    try:
        save = saves.parse(data)
        return saves.to_toml(saves.sign(dataclasses.replace(save, signature=""), mid.alice.identity))
    except (SaveFormatError, UnknownKeyError):  # not a save at all, or her key is no longer in it
        return None


def _same_turn(data: bytes, doc: dict[str, Any]) -> bool:
    """Whether `data` differs from `doc` only in how the protocol message spells the same moves."""
    edited = tomllib.loads(data.decode())
    try:
        theirs, ours = (d["protocol"]["message"]["turn"]["moves"] for d in (edited, doc))
        if theirs == ours or parse_turn(theirs) != parse_turn(ours):
            return False
    except (KeyError, TypeError, InvalidMoveError):
        return False
    edited["protocol"]["message"]["turn"]["moves"] = ours
    return edited == doc


@pytest.mark.parametrize(("count", "seed"), [pytest.param(60, 3, id="60"), pytest.param(600, 1003, id="600", marks=pytest.mark.slow)])
def test_resigned_edits_of_anything_but_the_sealed_secrets_are_all_refused(mid: Mid, count: int, seed: int) -> None:
    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for _ in range(count):
        what, data = field_edit(mid.doc, rng, COVERED)
        signed = resigned(mid, data)
        if signed is None:
            tally["not a save"] += 1
            continue
        assert not _same_save(signed, mid.doc), what
        if _same_turn(data, mid.doc):
            tally["the same moves spelled otherwise"] += 1  # move notation is case-insensitive on input: q-s1 is Q-s1
            continue
        offer(mid, f"{what}, signed again by Alice", signed, tally)
    assert tally["not a save"] < count // 2


def _set(doc: dict[str, Any], place: str, value: Any) -> None:
    *path, last = place.split(".")
    for key in path:
        doc = doc[int(key)] if isinstance(doc, list) else doc[key]
    doc[last] = value


@pytest.mark.parametrize(
    ("place", "change"),
    [
        ("rules.target_score", lambda v: 1),
        ("rules.payoff_size", lambda v: v + 1),
        ("game", lambda v: v + 1),
        ("turn", lambda v: v + 5),
    ],
)
def test_a_resigned_save_that_changes_the_match_outside_the_protocol_is_refused(mid: Mid, place: str, change: Any) -> None:
    """The rules, the labels and the earlier history are checked too: a cheat signing with their own key could otherwise
    lower the target score mid-match, relabel a file, or rewrite turns the receiver then signs into its own answer."""
    edited = tomllib.loads(tomli_w.dumps(mid.doc))
    value = edited
    for key in place.split("."):
        value = value[int(key)] if isinstance(value, list) else value[key]
    _set(edited, place, change(value))
    signed = resigned(mid, tomli_w.dumps(edited).encode())
    assert signed is not None
    offer(mid, f"{place} changed and signed again by Alice", signed, Counter())


def test_a_resigned_save_that_rewrites_an_earlier_turn_is_refused(mid: Mid) -> None:
    """The turns are packed in the file; a cheat who unpacks, rewrites the first turn, packs and signs again is caught."""
    save = saves.parse(tomli_w.dumps(mid.doc).encode())
    first = save.history[0]
    history = (saves.TurnRecord(first.by, "Q-s4" if first.moves != "Q-s4" else "Q-s3"), *save.history[1:])
    signed = saves.to_toml(saves.sign(dataclasses.replace(save, history=history, signature=""), mid.alice.identity))
    assert saves.parse(signed).history[0] != first
    offer(mid, "the first turn rewritten and signed again by Alice", signed, Counter())


def test_an_older_sealed_blob_of_the_receiver_swapped_in_is_refused(tmp_path: Path) -> None:
    """Alice carries Bob's sealed secrets back to him; she may not swap in an older blob of his, even re-signing."""
    with scratch(tmp_path) as root:
        alice, bob, path = invite(root)
        folder = path.parent
        written = []
        for player in (bob, alice, bob, alice):
            path = answer(player, path)
            written.append(path)
        doc = tomllib.loads(path.read_text())
        older = tomllib.loads(written[0].read_text())["secrets"]["1"]  # Bob's blob from his first answer
        assert older != doc["secrets"]["1"]
        doc["secrets"]["1"] = older
        edited = folder / "swapped.toml"
        edited.write_bytes(
            saves.to_toml(saves.sign(dataclasses.replace(saves.parse(tomli_w.dumps(doc).encode()), signature=""), alice.identity))
        )
        for command in ("verify", "play"):
            line = assert_refused(bob.spite(command, edited))
            assert "sealed secrets" in line
        bob.ok("verify", path)  # the real file still goes through
