"""`spite` refuses what a cheating or confused opponent could send: one line on stderr, exit status 1, nothing written."""

from __future__ import annotations

import dataclasses
import random
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from cli_helpers import (
    MODULE,
    Player,
    answer,
    assert_refused,
    calm_start,
    copied_match,
    files,
    make_player,
    new_file,
    scratch,
    spite_process,
)
from hostile import resign_doc

from engine.cards import RANK_TEXT, RANKS, Card
from pbm import saves
from pbm.shown import LINE
from pbm.transport import code


@dataclass
class Table:
    """Alice and Bob four files into a match (Alice has just written `latest`, Bob has not seen it) and Carol, who is not in it."""

    alice: Player
    bob: Player
    carol: Player
    folder: Path
    chain: list[Path]  # the invitation first

    @property
    def latest(self) -> Path:
        return self.chain[-1]

    def copy_of(self, player: Player, name: str) -> Player:
        """A second spite home with `player`'s key and journal as they stand now (the same player on another machine)."""
        home = player.home.parent / f"home-{name}"
        shutil.copytree(player.home, home)
        return Player(player.name, home)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with scratch(tmp_path_factory.mktemp("refusals")) as root:
        calm_start(root, 4)  # Bob joins, Alice plays turn 1, Bob turn 2, Alice turn 3; Bob's turn 4 will be ordinary
        make_player(root, "Carol")
        yield root


@pytest.fixture()
def table(base: Path, tmp_path: Path) -> Iterator[Table]:
    """A private copy of the module's match, so a test may change journals freely."""
    with copied_match(base, tmp_path) as (root, chain):
        players = (Player(name, root / f"home-{name.lower()}") for name in ("Alice", "Bob", "Carol"))
        yield Table(*players, root / "mail", chain)


def refused(player: Player, file: Path, *args: str, command: str = "play") -> str:
    """Run `spite COMMAND FILE ARGS` and check it is refused without changing FILE or writing a file; returns the refusal line."""
    before = files(file.parent)
    run = player.spite(command, file, *args)
    line = assert_refused(run)
    assert new_file(before, file.parent) is None
    return line


def refused_by_play_and_verify(player: Player, file: Path, *fragments: str) -> str:
    """Both `spite play` and `spite verify` refuse FILE with the same line, naming every fragment."""
    line = refused(player, file, command="play")
    assert refused(player, file, command="verify") == line
    for fragment in fragments:
        assert fragment.lower() in line.lower(), line
    return line


def write_doc(path: Path, doc: dict[str, Any]) -> Path:
    path.write_bytes(tomli_w.dumps(doc).encode())
    return path


def resign(save: saves.SaveFile, by: Player, **changes: Any) -> saves.SaveFile:
    """`save` with `changes`, signed again with `by`'s real key (what a cheat with their own key can make)."""
    return saves.sign(dataclasses.replace(save, **changes), by.identity)


# --- the journal: replays, rollbacks, forks ---


def answered_already(player: Player, file: Path) -> None:
    """`spite play` refuses a file the player already answered; `verify` and `show` say it is an earlier file of the match."""
    assert "already played from this file" in refused(player, file, command="play")
    checked = player.ok("verify", file)
    assert "chain:     an earlier file: " in checked.stdout and "the match has moved on to" in " ".join(checked.stdout.split())
    assert "This is an earlier file of the match" in player.ok("show", file).stdout


def test_playing_a_file_again_after_answering_it_is_a_replay(table: Table) -> None:
    reply = answer(table.bob, table.latest)
    answered_already(table.bob, table.latest)
    line = refused(table.bob, table.latest)
    assert str(reply) in line and "send it to Alice" in line  # where the answer is, to send it


def test_an_older_file_after_a_newer_one_is_a_rollback(table: Table) -> None:
    # Alice's turn-1 file, re-signed on another branch so that it is neither a file Bob has seen nor a second answer to one
    old = saves.read(table.chain[2])
    branch = resign(old, table.alice, prev="ab" * 32)
    path = table.folder / "older.toml"
    path.write_bytes(saves.to_toml(branch))
    refused_by_play_and_verify(table.bob, path, "older than the latest you have")


def test_two_different_answers_to_one_file_the_second_is_a_fork(table: Table) -> None:
    bob_elsewhere = table.copy_of(table.bob, "bob-2")
    first = answer(table.bob, table.latest)
    second = answer(bob_elsewhere, table.latest)
    assert first.read_bytes() != second.read_bytes()
    answer(table.alice, first)
    refused_by_play_and_verify(table.alice, second, "sent two different versions", "Bob")


def test_a_fork_is_refused_even_before_the_first_answer_was_played(table: Table) -> None:
    bob_elsewhere = table.copy_of(table.bob, "bob-2")
    first, second = answer(table.bob, table.latest), answer(bob_elsewhere, table.latest)
    table.alice.ok("verify", first)
    table.alice.ok("show", first)  # seeing a file records it: a second, different version is now a fork
    refused_by_play_and_verify(table.alice, second, "two different versions")


def _two_versions(table: Table) -> tuple[Path, Path]:
    """Two different answers of Bob's, both validly signed, to Alice's latest file (Bob answered it on two machines)."""
    bob_elsewhere = table.copy_of(table.bob, "bob-2")
    first, second = answer(table.bob, table.latest), answer(bob_elsewhere, table.latest)
    assert first.read_bytes() != second.read_bytes()
    return first, second


@pytest.mark.parametrize(
    "opened_by",
    [
        pytest.param(("verify",), id="verify"),
        pytest.param(("play", "q\n"), id="play-then-quit"),
        pytest.param(("play", "--moves", "zz"), id="play-with-bad-moves"),
        pytest.param(("play", "--moves", "end"), id="play-with-illegal-moves"),
    ],
)
def test_the_version_received_first_stands_whichever_command_opened_it(table: Table, opened_by: tuple[str, ...]) -> None:
    """Issue 9: opening a file with any command records it, so a second, different version of it is a fork."""
    first, second = _two_versions(table)
    command, *rest = opened_by
    if command == "verify":
        table.alice.ok("verify", first)
    elif rest == ["q\n"]:
        run = table.alice.spite("play", first, input="q\n")
        assert run.exit_code == 0 and "Nothing written" in run.stdout, run
    else:
        refused(table.alice, first, *rest)
    refused_by_play_and_verify(table.alice, second, "Bob sent two different versions", "the one you received first stands")
    reply = answer(table.alice, first)  # and the first version still plays
    table.bob.ok("verify", reply)


# --- who may play a file ---


def test_a_player_not_in_the_match_is_told_so(table: Table) -> None:
    refused_by_play_and_verify(table.carol, table.latest, "not in it", "Alice and Bob", "Carol")


def test_playing_your_own_file_says_whose_turn_it_is(table: Table) -> None:
    before = files(table.folder)
    run = table.alice.spite("play", table.latest)
    assert run.exit_code == 1 and "Traceback" not in run.output
    assert "Bob's turn" in run.output
    assert new_file(before, table.folder) is None


def test_playing_your_own_file_is_a_one_line_refusal_on_stderr(table: Table) -> None:
    line = refused(table.alice, table.latest)
    assert "Bob's turn" in line


# --- files that are not saves of this spite ---


def test_garbage_bytes_are_not_a_save(table: Table) -> None:
    path = table.folder / "garbage.toml"
    path.write_bytes(random.Random(4).randbytes(600))
    refused_by_play_and_verify(table.bob, path, "not a spite save file")
    path.write_text("this is ] not = = toml\n")
    refused_by_play_and_verify(table.bob, path, "neither a turn code", "nor a spite save")
    path.write_text("# spite save: play it with spite\nthis is ] not = = toml\n")  # a save's header: read as a save, cut or edited
    refused_by_play_and_verify(table.bob, path, "not valid TOML")


def test_a_truncated_save_is_refused(table: Table) -> None:
    data = table.latest.read_bytes()
    path = table.folder / "truncated.toml"
    for cut in (len(data) // 2, data.index(b"\n[protocol"), len(data) - 40):
        path.write_bytes(data[:cut])
        line = refused_by_play_and_verify(table.bob, path)
        assert any(word in line for word in ("cut short", "missing", "signature")), line


def test_a_file_over_the_size_limit_is_refused(table: Table) -> None:
    data = table.latest.read_bytes()
    path = table.folder / "big.toml"
    tail = data.index(b"# end of spite save")  # what follows the save's last line is not the save's (a mail's footer)
    path.write_bytes(data[:tail] + b"# padding\n" * ((saves.MAX_BYTES + 1024 - len(data)) // 10 + 1) + data[tail:])
    assert path.stat().st_size > saves.MAX_BYTES + 1024
    refused_by_play_and_verify(table.bob, path, f"{saves.MAX_BYTES // 1024} KiB")
    path.write_bytes(data + b"# a footer\n" * ((code.MAX_INPUT + 1024) // 11))
    refused_by_play_and_verify(table.bob, path, f"{code.MAX_INPUT // 1024} KiB")


@pytest.mark.parametrize("source", ["sparse", "endless"])
def test_a_huge_or_endless_input_is_refused_after_reading_the_limit(table: Table, source: str) -> None:
    if source == "endless":
        if not Path("/dev/zero").exists():
            pytest.skip("no /dev/zero here")
        path = Path("/dev/zero")
    else:
        path = table.folder / "huge.toml"
        with path.open("wb") as f:
            f.truncate(1 << 30)  # 1 GiB that takes no disk: reading it whole took seconds and gigabytes
    for command in ("play", "verify", "show"):  # a file may hold a save pasted with text around it: read up to that limit
        assert_refused(table.bob.spite(command, path), f"more than {code.MAX_INPUT} bytes")


def test_echoed_input_is_cut_short(table: Table) -> None:
    long = "x" * 5000
    doc = tomllib.loads(table.latest.read_text())
    path = write_doc(table.folder / "long.toml", {**doc, "format": long})
    line = refused_by_play_and_verify(table.bob, path, "not a spite save file")
    assert len(line) < 120, line
    path = table.folder / "long-key.toml"
    path.write_bytes(resign_doc(table.latest.read_bytes(), table.alice.identity, lambda d: d["state"].update({long: 1})))
    line = refused_by_play_and_verify(table.bob, path, "unknown field")
    assert len(line) < 120, line
    line = refused(table.bob, table.latest, "--moves", long)
    assert len(line) <= len("spite: ") + LINE and "…" in line, line  # the engine echoes the token; the CLI cuts the line


def test_an_unknown_format_version_is_refused_before_the_signature(table: Table) -> None:
    data = table.latest.read_bytes()
    assert b"\nversion = 2\n" in data
    path = table.folder / "v2.toml"
    path.write_bytes(data.replace(b"\nversion = 2\n", b"\nversion = 3\n"))
    refused_by_play_and_verify(table.bob, path, "version 3", "upgrade spite")


# --- signatures and keys ---


def test_a_save_edited_by_hand_has_a_bad_signature(table: Table) -> None:
    doc = tomllib.loads(table.latest.read_text())
    edits = [
        lambda d: d["players"][0].update(name="Alicia"),
        lambda d: d["score"].__setitem__(1, d["score"][1] + 1),
        lambda d: d["rules"].update(payoff_size=d["rules"]["payoff_size"] + 1),
        lambda d: d["protocol"]["message"].update(seq=d["protocol"]["message"]["seq"] + 1),
    ]
    for edit in edits:
        edited = tomllib.loads(table.latest.read_text())
        edit(edited)
        assert edited != doc
        path = write_doc(table.folder / "edited.toml", edited)
        refused_by_play_and_verify(table.bob, path, "signature does not match", "changed after it was signed")


def test_a_save_resigned_with_another_key_is_refused_as_an_unknown_key(table: Table) -> None:
    save = saves.read(table.latest)
    alice, bob = save.players
    forged = resign(save, table.carol, players=(saves.Player(alice.name, table.carol.public_text), bob))
    path = table.folder / "forged.toml"
    path.write_bytes(saves.to_toml(forged))
    line = refused_by_play_and_verify(table.bob, path, "not the key you know for them")
    assert table.carol.identity.fingerprint in line and table.alice.identity.fingerprint in line


# --- moves and proofs ---


def test_an_illegal_move_is_refused_and_nothing_is_written(table: Table) -> None:
    view = table.bob.show(table.latest)
    held = {Card.parse(c).rank for c in view["hand"]}
    absent = RANK_TEXT[next(r for r in RANKS if r not in held)]
    line = refused(table.bob, table.latest, "--moves", f"{absent}-s1")
    assert absent in line and "nothing was written" in line
    line = refused(table.bob, table.latest, "--moves", "zz-c9")
    assert "zz" in line.lower()
    answer(table.bob, table.latest)  # the file is still good to play


def _proof_slots(message: Any) -> Iterator[tuple[Any, Any]]:
    """Every (container, key or index) that holds one proof in a protocol message: a reveal's "proof", each of "proofs"."""
    if isinstance(message, dict):
        for key, value in message.items():
            if key == "proof" and isinstance(value, str):
                yield message, key
            elif key == "proofs" and isinstance(value, list):
                yield from ((value, i) for i in range(len(value)))
            else:
                yield from _proof_slots(value)
    elif isinstance(message, list):
        for value in message:
            yield from _proof_slots(value)


def test_a_false_proof_under_the_senders_real_signature_is_refused_naming_the_proof(table: Table) -> None:
    save = saves.read(table.latest)
    protocol = saves.payload(save)["protocol"]
    slots = list(_proof_slots(protocol))
    assert slots, "a turn reveals at least the card it discards"
    proofs = [container[key] for container, key in slots]
    if len(slots) == 1:  # a well-formed proof of another card: Bob's own last reveal
        proofs.append(next(c[k] for c, k in _proof_slots(saves.payload(saves.read(table.chain[-2]))["protocol"])))
    for (container, key), proof in zip(slots, proofs[1:] + proofs[:1], strict=False):
        container[key] = proof  # each proof now speaks of another card
    cheat = resign(save, table.alice, protocol=protocol)
    path = table.folder / "false-proof.toml"
    path.write_bytes(saves.to_toml(cheat))
    line = refused_by_play_and_verify(table.bob, path, "does not prove out")
    assert any(word in line for word in ("draw", "hand card", "pay-off card", "reveal")), line  # it names which proof failed


def test_impossible_rules_are_refused_in_one_line(table: Table) -> None:
    before = files(table.folder)
    assert_refused(table.alice.spite("new", "--payoff", "100", "-o", table.folder / "big.toml"), "104 cards cannot deal")
    assert new_file(before, table.folder) is None


def test_moves_on_a_file_that_only_deals_are_refused(table: Table) -> None:
    invitation = table.folder / "second-invitation.toml"
    table.alice.ok("new", "-o", invitation)
    line = refused(table.bob, invitation, "--moves", "Q-s1")
    assert "asks for no moves" in line and "without --moves" in line
    answer(table.bob, invitation)  # and without --moves it is answered


def test_refusals_leave_the_journal_as_it_was(table: Table) -> None:
    save = saves.read(table.latest)
    alice, bob = save.players
    bad = {
        "garbage.toml": b"\x00" * 50,
        "v3.toml": table.latest.read_bytes().replace(b"\nversion = 2\n", b"\nversion = 3\n"),
        "edited.toml": table.latest.read_bytes().replace(b'name = "Alice"', b'name = "Alicia"'),
        "forged.toml": saves.to_toml(resign(save, table.carol, players=(saves.Player(alice.name, table.carol.public_text), bob))),
        "older.toml": saves.to_toml(resign(saves.read(table.chain[2]), table.alice, prev="cd" * 32)),
    }
    for name, data in bad.items():
        (table.folder / name).write_bytes(data)
        refused(table.bob, table.folder / name)
    refused(table.bob, table.latest, "--moves", "zz")
    reply = answer(table.bob, table.latest)  # the real file is still Bob's to play, once
    table.alice.ok("verify", reply)
    answered_already(table.bob, table.latest)


# --- the real entry point ---


ENTRIES = {"module": MODULE, "script": [shutil.which("spite") or "spite"]}


@pytest.mark.parametrize(("kind", "entry"), [("garbage", "module"), ("edited", "script")])
def test_the_real_command_prints_one_line_and_no_traceback(table: Table, kind: str, entry: str) -> None:
    if entry == "script" and shutil.which("spite") is None:
        pytest.skip("the spite script is not installed (pip install -e .)")
    path = table.folder / f"{kind}.toml"
    if kind == "garbage":
        path.write_bytes(b"\x00\xff" * 200)
    else:
        path.write_bytes(table.latest.read_bytes().replace(b'name = "Alice"', b'name = "Alicia"'))
    before = files(table.folder)
    done = spite_process(table.bob.home, "play", path, entry=ENTRIES[entry])
    assert done.returncode == 1, done
    assert "Traceback" not in done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: "), done
    assert new_file(before, table.folder) is None
