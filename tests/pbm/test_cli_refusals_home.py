"""A refusal leaves the spite home as it was (issue 33, item 12): every file and folder of it, byte for byte.

A representative set of what spite refuses, each by every command that can be given it: a file whose match id was
changed, a file of another match's players, a changed or forged signature, a rollback, a gap, a table that is not what
the moves make, bytes that are no save, a replay, a fork, a player's own file, a file of a match a new home has no
record of, and the refusals of `resign` and `new`. Each is run against a home that holds a journal and, where it can
be, a home that has none yet (made by `spite id` alone): neither a journal, nor a lock, nor a folder may be left.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Player, answer, assert_refused, calm_start, copied_match, make_player, scratch
from hostile import resign_doc

from pbm import saves
from pbm.transport import code


@dataclass
class Table:
    """Alice and Bob four files into a match (Alice has just written `latest`, Bob has not seen it), and Carol, who has
    only her key (`spite id`): no journal, no lock folder."""

    alice: Player
    bob: Player
    carol: Player
    folder: Path
    chain: list[Path]  # the invitation first

    @property
    def latest(self) -> Path:
        return self.chain[-1]

    def put(self, name: str, data: bytes) -> Path:
        path = self.folder / name
        path.write_bytes(data)
        return path

    def signed(self, by: Player, name: str, **changes: object) -> Path:
        """The latest file with `changes`, signed again with `by`'s real key (what a cheat's own program makes)."""
        save = dataclasses.replace(saves.read(self.latest), **changes)
        return self.put(name, saves.to_toml(saves.sign(save, by.identity)))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with scratch(tmp_path_factory.mktemp("refusals-home")) as root:
        calm_start(root, 4)
        make_player(root, "Carol")
        yield root


@pytest.fixture()
def table(base: Path, tmp_path: Path) -> Iterator[Table]:
    with copied_match(base, tmp_path) as (root, chain):
        alice, bob, carol = (Player(name, root / f"home-{name.lower()}") for name in ("Alice", "Bob", "Carol"))
        assert sorted(p.name for p in carol.home.iterdir()) == ["identity.pem"]
        yield Table(alice, bob, carol, root / "mail", chain)


def home_as_it_is(home: Path) -> dict[str, bytes | None]:
    """Every file (with its bytes) and folder (None) under `home`."""
    return {str(p.relative_to(home)): None if p.is_dir() else p.read_bytes() for p in sorted(home.rglob("*"))}


def refused_alike(player: Player, *args: str | Path, fragment: str = "", input: bytes | None = None) -> None:
    """`spite ARGS` is refused in one line (naming `fragment`) and leaves `player`'s spite home and the mail as they were."""
    home, mail = home_as_it_is(player.home), home_as_it_is(player.home.parent / "mail")
    assert_refused(player.spite(*args, input=input), fragment)
    assert home_as_it_is(player.home) == home, f"spite {args[0]} changed the home: {_changed(home, home_as_it_is(player.home))}"
    assert home_as_it_is(player.home.parent / "mail") == mail


def _changed(before: dict[str, bytes | None], after: dict[str, bytes | None]) -> list[str]:
    return sorted(name for name in before.keys() | after.keys() if name not in before or name not in after or before[name] != after[name])


LOOKS = ("verify", "show")


def every_command(player: Player, path: Path, fragment: str = "") -> None:
    """`spite play`, `verify` and `show` each refuse the file at `path`, leaving the home as it was."""
    refused_alike(player, "play", path, "--auto", fragment=fragment)
    for look in LOOKS:
        refused_alike(player, look, path, fragment=fragment)


# --- files whose content is refused ---


def _one_card_less_in_the_stock(doc: dict[str, Any]) -> None:
    doc["state"]["stock"] -= 1


FILES: dict[str, tuple[Callable[[Table], Path], str]] = {
    "match id changed": (lambda t: t.signed(t.alice, "match.toml", match="ab" * 16), "do not open with your identity key"),
    "signature": (lambda t: t.put("edited.toml", t.latest.read_bytes().replace(b'name = "Alice"', b'name = "Alicia"')), "signature"),
    "forged key": (
        lambda t: t.signed(t.carol, "forged.toml", players=(saves.Player("Alice", t.carol.public_text), saves.read(t.latest).players[1])),
        "not the key you know",
    ),
    "rollback": (lambda t: t.signed(t.alice, "older.toml", seq=2, prev="cd" * 32), "older than the latest"),
    "gap": (lambda t: t.signed(t.alice, "gap.toml", seq=saves.read(t.latest).seq + 1, prev="ef" * 32), "a file in between is missing"),
    "table": (lambda t: t.put("table.toml", resign_doc(t.latest.read_bytes(), t.alice.identity, _one_card_less_in_the_stock)), ""),
    "not a save": (lambda t: t.put("garbage.toml", b"\x00\xff" * 300), "not a spite save"),
    "unknown version": (lambda t: t.put("v3.toml", t.latest.read_bytes().replace(b"\nversion = 2\n", b"\nversion = 3\n")), "version 3"),
    "temp file": (lambda t: t.put(".spite-0123456789abcdef-1-x.tmp", t.latest.read_bytes()), "unfinished write of spite"),
}


@pytest.mark.parametrize("kind", sorted(FILES))
def test_a_refused_file_leaves_the_home_as_it_was(table: Table, kind: str) -> None:
    make, fragment = FILES[kind]
    path = make(table)
    every_command(table.bob, path, fragment)
    if kind == "match id changed":  # its turn code too, pasted
        pasted = "\n\n".join(code.encode(saves.read(path))).encode()
        refused_alike(table.bob, "play", "-", "--auto", input=pasted, fragment="no record")


def test_a_file_of_a_match_of_two_others_leaves_a_home_with_or_without_a_journal_as_it_was(table: Table) -> None:
    every_command(table.carol, table.latest, "you (Carol")  # a home with no journal yet
    answer(table.alice, answer(table.bob, table.latest))  # Bob and Alice go on: Carol's home gets its journal by another match
    table.carol.ok("new", "-o", table.folder / "carols-invitation.toml")
    every_command(table.carol, table.latest, "you (Carol")


def test_a_file_of_a_match_a_new_home_has_no_record_of_is_refused_until_newest_and_leaves_it_as_it_was(table: Table) -> None:
    elsewhere = Player("Bob", table.bob.home.parent / "home-bob-elsewhere")
    elsewhere.home.mkdir()
    shutil.copy(table.bob.home / "identity.pem", elsewhere.home)  # Bob's key on a new machine: no journal, no record of the match
    refused_alike(elsewhere, "play", table.latest, "--auto", fragment="no record of match")


def test_a_replay_a_fork_and_ones_own_file_leave_the_home_as_it_was(table: Table) -> None:
    refused_alike(table.alice, "play", table.latest, "--auto", fragment="this is your own file")
    twin = Player("Bob", table.bob.home.parent / "home-bob-twin")
    shutil.copytree(table.bob.home, twin.home)  # Bob on a second machine, with the same journal
    first, second = answer(table.bob, table.latest), answer(twin, table.latest)
    refused_alike(table.bob, "play", table.latest, "--auto", fragment="already played from this file")
    answer(table.alice, first)
    every_command(table.alice, second, "two different versions")


def test_refused_resignations_and_invitations_leave_the_home_as_it_was(table: Table) -> None:
    match = saves.read(table.latest).match
    refused_alike(table.bob, "resign", "ffffffff", "--yes", fragment="no match ffffffff")
    refused_alike(table.bob, "resign", match[:8], fragment="--yes")
    refused_alike(table.carol, "resign", match[:8], "--yes", fragment="no match")
    refused_alike(table.carol, "new", "--payoff", "100", "-o", table.folder / "big.toml", fragment="104 cards cannot deal")
    refused_alike(table.bob, "new", "--payoff", "100", "-o", table.folder / "big.toml", fragment="104 cards cannot deal")
