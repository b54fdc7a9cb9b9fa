"""Random edits of a real mid-game save, at the byte and at the field level: `spite` accepts none and never crashes."""

from __future__ import annotations

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
from cli_helpers import THINK, Player, assert_refused, files, make_player, new_file, scratch


@dataclass
class Mid:
    """Bob's view of a match in progress: `save` is the file Alice just wrote (turn 3), which Bob has not yet seen."""

    bob: Player
    folder: Path
    save: bytes
    doc: dict[str, Any]


def _answer(player: Player, path: Path) -> Path:
    before = files(path.parent)
    player.ok("play", path, "--auto", "--think", THINK)
    written = new_file(before, path.parent)
    assert written is not None
    return written


@pytest.fixture(scope="module")
def mid(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mid]:
    with scratch(tmp_path_factory.mktemp("tamper")) as root:
        alice, bob = make_player(root, "Alice"), make_player(root, "Bob")
        folder = root / "mail"
        folder.mkdir()
        path = folder / "invitation.toml"
        alice.ok("new", "--payoff", "5", "--target", "10", "-o", path)
        for player in (bob, alice, bob, alice):
            path = _answer(player, path)
        data = path.read_bytes()
        path.unlink()  # only edited copies are offered to Bob
        yield Mid(bob, folder, data, tomllib.loads(data.decode()))


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


def field_edit(doc: dict[str, Any], rng: random.Random) -> tuple[str, bytes]:
    """The save's TOML with one random field changed: a number ±1, a text with one character changed, a list item dropped."""
    edited = tomllib.loads(tomli_w.dumps(doc))  # a deep copy
    place, container, key = rng.choice(list(_sites(edited)))
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
    """Whether `data` is the same save in another layout (the signature covers the parsed payload, not the text)."""
    try:
        return tomllib.loads(data.decode()) == doc
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False


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
