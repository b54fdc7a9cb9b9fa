"""Protocol 4 hashes the whole statement into the batch weights; the messages of protocol 3 are still read by their own rule."""

from __future__ import annotations

import copy
import dataclasses
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from dealing_play import SMALL, make_seats, play, roundtrip

from pbm.errors import ProofError, ProtocolError
from pbm.protocol import proofs
from pbm.protocol.dealing import Party
from pbm.protocol.messages import VERSION, Message, parse_message

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


class Protocol3(Party):
    """A client of protocol 3: its messages say version 3 and its batch proofs draw their weights as protocol 3 did."""

    def _ctx(self, turn: int, slot: str, game: int | None = None) -> proofs.Context:
        return proofs.Context(self.match, game if game is not None else self._g().number, turn, slot, 3)

    def send(self, state: Any = None, moves: Any = ()) -> Message:
        return dataclasses.replace(super().send(state, moves), version=3)


def _batched(message: dict[str, Any]) -> set[str]:
    """The kinds of batch proof a message carries."""
    end = message.get("turn", {}).get("end", {})
    found = {"strips": "strip_proof" in message.get("deal", {}), "merge": "merge" in end, "pools": "pools" in end}
    return {kind for kind, there in found.items() if there}


def test_a_match_with_a_client_of_protocol_3_goes_on_its_batch_proofs_checked_by_its_rule() -> None:
    seats = make_seats(SMALL, 4, classes=(Protocol3, Party))
    played = play(seats, seed=4, stop_after_deal=3)
    old = [m for m in played.messages if m["from"] == 0]
    assert all(m["v"] == 3 for m in old) and set().union(*map(_batched, old)) == {"strips", "merge", "pools"}
    assert all(m["v"] == VERSION == 5 for m in played.messages if m["from"] == 1)


def test_a_batch_proof_of_protocol_4_in_a_message_said_to_be_of_protocol_3_is_refused() -> None:
    seats = make_seats(SMALL, 3)
    seats[1].receive(roundtrip(seats[0].send().to_data()))
    step2 = roundtrip(seats[1].send().to_data())
    assert step2["v"] == VERSION and "strip_proof" in step2["deal"]
    with pytest.raises(ProofError, match=r"the deal: the pay-off pile and hand of player 1 .*: the batch does not prove out"):
        seats[0].receive({**copy.deepcopy(step2), "v": 3})
    seats[0].receive(step2)  # the message as it was made goes in: the refusal changed nothing


class Upgrading(Protocol3):
    """A client of protocol 3 whose player upgrades spite after its first messages."""

    def _ctx(self, turn: int, slot: str, game: int | None = None) -> proofs.Context:
        return super()._ctx(turn, slot, game) if self.seq < 4 else Party._ctx(self, turn, slot, game)

    def send(self, state: Any = None, moves: Any = ()) -> Message:
        return super().send(state, moves) if self.seq < 4 else Party.send(self, state, moves)


def test_after_a_message_of_protocol_4_one_of_protocol_3_is_refused_even_by_a_restored_party() -> None:
    refused: list[int] = []

    def hook(_n: int, message: dict[str, Any]) -> dict[str, Any]:
        receiver = seats[1].party
        if message["from"] == 0 and receiver.their_version == VERSION and not refused:
            again = Party.restore(receiver.export_public(), receiver.export_secrets(), SMALL)
            said = f"of protocol version 3, but the other player's messages are of version {VERSION} already"
            for party in (receiver, again):
                with pytest.raises(ProtocolError, match=said):
                    party.receive({**copy.deepcopy(message), "v": 3})
            refused.append(message["seq"])
        return message

    seats = make_seats(SMALL, 4, classes=(Upgrading, Party))
    played = play(seats, seed=4, tamper=hook, stop_after_deal=2)
    versions = [m["v"] for m in played.messages if m["from"] == 0]
    assert versions[:2] == [3, 3] and set(versions[2:]) == {VERSION} and refused


@pytest.mark.parametrize("version", [2, 6, "4", True, None])
def test_a_message_of_a_protocol_this_spite_does_not_read_is_refused_in_words(version: Any) -> None:
    message = {**make_seats(SMALL, 5)[0].send().to_data(), "v": version}
    why = r"\((a newer spite wrote it: upgrade spite|this spite does not read it)\)$"
    with pytest.raises(ProtocolError, match=r"^a message of protocol version .*; this spite speaks version 5 " + why):
        parse_message(message)


@pytest.mark.parametrize(("who", "name"), [("alice", "02-bob.toml"), ("bob", "03-alice.toml")])
def test_an_example_save_of_protocol_3_with_batched_strip_proofs_still_verifies(tmp_path: Path, who: str, name: str) -> None:
    ex = Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))
    for key in ex.glob("keys/*/identity.pem"):
        key.chmod(0o600)
    message = tomllib.loads((ex / "saves" / name).read_text())["protocol"]["message"]
    assert message["v"] == 3 and "strip_proof" in message["deal"]
    env = {**os.environ, "SPITE_HOME": str(ex / "keys" / who), "NO_COLOR": "1", "COLUMNS": "100"}
    env.pop("SPITE_PASSPHRASE", None)
    run = subprocess.run([sys.executable, "-m", "pbm.cli", "verify", str(ex / "saves" / name)], env=env, capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.rstrip().endswith("OK"), run
