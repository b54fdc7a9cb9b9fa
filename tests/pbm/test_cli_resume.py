"""Going on from a file alone: a player on a machine with their identity but no journal answers the file they were sent.

Each file carries both players' sides of the match (pbm/carry.py); the owner's sealed secrets bind
their side, so the opponent can neither read nor change it without the owner noticing.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import shutil
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Player, answer, assert_refused, copied_match, files, make_player, new_file, scratch
from hostile import resign_doc

from pbm import carry, packing, saves
from pbm.errors import TooLargeError

WARNING = "no record of your side of match"


@dataclass
class Mail:
    """Alice and Bob some files into a match; Alice has just written `chain[-1]` and Bob has not seen it."""

    alice: Player
    bob: Player
    root: Path
    folder: Path
    chain: list[Path]  # the invitation first

    def elsewhere(self, player: Player, name: str) -> Player:
        """`player` on a new machine: a spite home holding their identity and nothing else."""
        home = self.root / f"home-{name}"
        home.mkdir(mode=0o700)
        shutil.copy2(player.home / "identity.pem", home / "identity.pem")
        return Player(player.name, home)


def _answer_from(player: Player, path: Path) -> tuple[Path, str]:
    """`player` answers `path` with --auto, saying it is the newest file of the match (a new machine asks);
    returns the new file and what the command said on stderr."""
    before = files(path.parent)
    run = player.ok("play", path, "--auto", "--think", "0.02", "--newest")
    written = new_file(before, path.parent)
    assert written is not None, run
    return written, " ".join(run.stderr.split())


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with scratch(tmp_path_factory.mktemp("resume")) as root:
        alice, bob = make_player(root, "Alice"), make_player(root, "Bob")
        folder = root / "mail"
        folder.mkdir()
        path = folder / "invitation.toml"
        # a game scores at most 3 (the cards left in a pile of 3), so 7 takes three games: even when the first ends within
        # the turns played here, the match deals again after them, which the whole-match test needs
        alice.ok("new", "--payoff", "3", "--target", "7", "-o", path)
        for player in (bob, alice, bob, alice, bob, alice):  # the deal, then turns 1 to 3
            path = answer(player, path)
        yield root


@pytest.fixture()
def mail(base: Path, tmp_path: Path) -> Iterator[Mail]:
    """A private copy of the module's match."""
    with copied_match(base, tmp_path) as (root, chain):
        yield Mail(Player("Alice", root / "home-alice"), Player("Bob", root / "home-bob"), root, root / "mail", chain)


def _resigned(mail: Mail, path: Path, by: Player, name: str, **changes: Any) -> Path:
    """The save at `path` with `changes`, signed again with `by`'s real key, written as `name` beside it."""
    save = saves.read(path)
    cheat = saves.sign(dataclasses.replace(save, **changes), by.identity)
    out = mail.folder / name
    out.write_bytes(saves.to_toml(cheat))
    return out


def _with_sides(save: saves.SaveFile, sides: carry.Sides) -> dict[str, Any]:
    """The protocol section of `save` carrying `sides` instead, packed as an honest client would pack them."""
    return {**save.protocol, "carry": carry.pack_sides(sides, save.history, save.protocol.get("message", {}), save.state)}


def refused(player: Player, path: Path) -> str:
    """`spite play --auto PATH` refuses in one line and writes nothing; returns the line."""
    before = files(path.parent)
    line = assert_refused(player.spite("play", path, "--auto"))
    assert new_file(before, path.parent) is None
    return line


# --- going on elsewhere ---


def test_bob_answers_on_a_new_machine_and_the_match_goes_on(mail: Mail) -> None:
    bob = mail.elsewhere(mail.bob, "bob-laptop")
    written, said = _answer_from(bob, mail.chain[-1])
    assert WARNING in said and "taken on trust" in said
    # Alice, at home, takes Bob's file as any other, and Bob's new machine now keeps his side: no warning any more
    after_alice, said = _answer_from(mail.alice, written)
    assert WARNING not in said
    _, said = _answer_from(bob, after_alice)
    assert WARNING not in said


def test_a_whole_match_where_every_file_is_answered_on_a_new_machine(mail: Mail) -> None:
    """Deal steps, turns, game ends and returned keys: each answered by a player with nothing but their identity."""
    players, path, sections = (mail.alice, mail.bob), mail.chain[-1], set()
    last_machine: dict[str, Player] = {}
    for n in range(400):
        save = saves.read(path)
        sections |= set(save.protocol["message"]) & {"deal", "turn", "secrets"}
        player = players[1 - save.signer]
        before = files(mail.folder)
        if carry.unpack_sides(save)[1 - save.signer] is None:
            # a file that would not have fitted a save with the receiver's side leaves it out (docs/save-format.md): it is
            # answered where the receiver wrote their last file, as spite says; rare (a game's end, its keys and the next deal)
            run = last_machine[player.name].ok("play", path, "--auto", "--think", "0.02")
            assert "does not carry your side of the match" in " ".join(run.stderr.split()), run
        else:
            last_machine[player.name] = fresh = mail.elsewhere(player, f"{player.name.lower()}-{n}")
            run = fresh.ok("play", path, "--auto", "--think", "0.02", "--newest")
            assert WARNING in " ".join(run.stderr.split()), run
        written = new_file(before, mail.folder)
        if written is None:
            break
        path = written
    else:
        raise AssertionError("the match did not end within 400 files")
    view = mail.elsewhere(mail.alice, "alice-last").show(path)
    assert view["match_over"] and max(view["scores"].values()) >= 7, view
    assert sections == {"deal", "turn", "secrets"}, sections  # a new deal and keys returned after a game were among them


def test_a_new_machine_answers_only_the_file_its_player_says_is_the_newest(mail: Mail) -> None:
    """The rewind: Alice plays a turn, sees Bob's answer (and the draw it reserves for her), then plays that turn again
    from Bob's earlier file and gives the new version to Bob on a machine with no record of the match."""
    bobs_earlier = mail.chain[-2]
    answer(mail.bob, mail.chain[-1])  # Bob answers Alice's turn at home: Alice now sees her next draw
    alice_again = mail.elsewhere(mail.alice, "alice-rewinds")  # Alice's own spite, as she went back to before her turn
    replayed, _ = _answer_from(alice_again, bobs_earlier)
    laptop = mail.elsewhere(mail.bob, "bob-laptop")
    for command in (("show", replayed), ("verify", replayed)):  # looked at: shown, and nothing recorded here
        run = laptop.ok(*command)
        assert WARNING in " ".join(run.stderr.split()), run
    assert "not here:" in laptop.ok("verify", replayed).stdout
    line = refused(laptop, replayed)
    assert "cannot tell whether this file" in line and "take back" in line and "--newest" in line
    assert "No matches yet" in laptop.ok("games").stdout  # nothing recorded: the newest file can still be answered here
    written, said = _answer_from(laptop, replayed)  # Bob says it is the newest: the match goes on from it
    assert WARNING in said
    games = laptop.ok("games").stdout
    assert "taken up on this machine at file" in " ".join(games.split())
    answer(alice_again, written)  # and Alice's answer to it: the new journal holds the chain from here as usual


def test_ones_own_file_opens_on_a_new_machine(mail: Mail) -> None:
    alice = mail.elsewhere(mail.alice, "alice-laptop")
    run = alice.ok("show", mail.chain[-1])
    assert WARNING in " ".join(run.stderr.split())
    assert "waiting for them" in run.stdout
    verified = alice.ok("verify", mail.chain[-1]).stdout
    assert "your own file" in verified and "your side: taken from this file" in verified
    assert "your side: carried as your last file left it" in mail.alice.ok("verify", mail.chain[-1]).stdout


def test_a_file_of_an_older_spite_without_the_sides_is_refused_on_a_new_machine(mail: Mail) -> None:
    bare = {k: v for k, v in saves.read(mail.chain[-1]).protocol.items() if k != "carry"}
    path = _resigned(mail, mail.chain[-1], mail.alice, "bare.toml", protocol=bare)
    line = refused(mail.elsewhere(mail.bob, "bob-laptop"), path)
    assert "carries no sides of the match" in line


def test_a_file_too_big_for_the_receivers_side_goes_without_it(mail: Mail, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rather than no file at all: the receiver's journal has their side, and spite tells them to answer at home."""
    real = saves.to_toml

    def too_big_with_both_sides(save: saves.SaveFile) -> bytes:
        if all(side is not None for side in carry.unpack_sides(save)):
            raise TooLargeError("this save would take 17000 bytes")  # as if it did: the largest files seen take 14 KiB
        return real(save)

    monkeypatch.setattr(saves, "to_toml", too_big_with_both_sides)
    written = answer(mail.bob, mail.chain[-1])
    monkeypatch.undo()
    alices, bobs = carry.unpack_sides(saves.read(written))
    assert alices is None and bobs is not None
    line = refused(mail.elsewhere(mail.alice, "alice-laptop"), written)
    assert "does not carry it" in line
    assert "your side: not carried in this file" in mail.alice.ok("verify", written).stdout
    reply, said = _answer_from(mail.alice, written)
    assert "does not carry your side of the match" in said and "on this machine" in said
    assert carry.unpack_sides(saves.read(reply))[1] == bobs  # Bob's side goes back to him as ever
    answer(mail.bob, reply)


# --- cheats: the opponent cannot change what they carry for you ---


def _alices_side_changed(mail: Mail) -> Path:
    """Bob's answer to Alice's file, re-signed by Bob with one point of Alice's carried side changed."""
    written = answer(mail.bob, mail.chain[-1])
    save = saves.read(written)
    sides = carry.unpack_sides(save)
    alice = json.loads(json.dumps(sides[0]))
    stock = alice["party"]["game"]["stock"]
    if len(stock) >= 2:
        stock[0], stock[-1] = stock[-1], stock[0]  # two cards of the stock swapped: Bob would know where they went
    else:  # a game that ended in its first turns was audited, and its points dropped: her file's number changed instead
        alice["party"]["seq"] += 1
    return _resigned(mail, written, mail.bob, "swapped.toml", protocol=_with_sides(save, (alice, sides[1])))


def test_a_changed_side_is_refused_by_its_owner_at_home(mail: Mail) -> None:
    line = refused(mail.alice, _alices_side_changed(mail))
    assert "does not carry back your side of the match" in line


def test_a_changed_side_is_refused_by_its_owner_on_a_new_machine(mail: Mail) -> None:
    line = refused(mail.elsewhere(mail.alice, "alice-laptop"), _alices_side_changed(mail))
    assert "not the one you sealed" in line


def test_an_older_side_with_its_own_sealed_secrets_is_refused_on_a_new_machine(mail: Mail) -> None:
    """Bob carries back Alice's side and secrets of her previous file, consistent with each other: a rollback of her state."""
    written = answer(mail.bob, mail.chain[-1])
    save, old = saves.read(written), saves.read(mail.chain[-3])
    sides = carry.unpack_sides(save)
    protocol = _with_sides(save, (carry.unpack_sides(old)[0], sides[1]))
    secrets = {**save.secrets, 0: old.secrets[0]}
    path = _resigned(mail, written, mail.bob, "older-side.toml", protocol=protocol, secrets=secrets)
    line = refused(mail.elsewhere(mail.alice, "alice-laptop"), path)
    assert f"those of save {old.seq}, not of your last file (save {save.seq - 1})" in line


def test_another_players_sealed_secrets_do_not_open(mail: Mail) -> None:
    written = answer(mail.bob, mail.chain[-1])
    save = saves.read(written)
    path = _resigned(mail, written, mail.bob, "bobs-secrets.toml", secrets={0: save.secrets[1], 1: save.secrets[1]})
    line = refused(mail.elsewhere(mail.alice, "alice-laptop"), path)
    assert "do not open with your identity key" in line


@pytest.mark.parametrize("how", ["garbage", "cut", "bomb", "not-two-sides"])
def test_a_damaged_carry_is_refused_in_one_line(mail: Mail, how: str) -> None:
    save = saves.read(mail.chain[-1])
    text = save.protocol["carry"]
    if how == "garbage":  # not even base64url: refused as a field of the save, before the carry is unpacked
        path = mail.folder / "garbage.toml"
        garbage = resign_doc(mail.chain[-1].read_bytes(), mail.alice.identity, lambda doc: doc["protocol"].update(carry="not*base64!"))
        path.write_bytes(garbage)
        for bob in (mail.bob, mail.elsewhere(mail.bob, "bob-laptop")):
            assert "protocol.carry" in refused(bob, path)
        return
    if how == "cut":
        text = text[: len(text) // 2]
    else:
        squeeze = zlib.compressobj(9, zdict=carry.context(save))
        data = b"[" + b" " * (8 * packing.MAX_UNPACKED) + b"]" if how == "bomb" else b"[{}]"
        text = base64.urlsafe_b64encode(squeeze.compress(data) + squeeze.flush()).decode().rstrip("=")
    path = _resigned(mail, mail.chain[-1], mail.alice, f"{how}.toml", protocol={**save.protocol, "carry": text})
    for bob in (mail.bob, mail.elsewhere(mail.bob, "bob-laptop")):
        line = refused(bob, path)
        assert "protocol.carry" in line, line
