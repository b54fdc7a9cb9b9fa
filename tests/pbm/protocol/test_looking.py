"""A party that only looks (spite show, verify) runs every check of a deal step but makes no answer, and cannot send one."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from dealing_play import MATCH, SMALL, make_seats, roundtrip, table_of

from pbm.errors import ProofError, ProtocolError
from pbm.protocol import group
from pbm.protocol.dealing import Party
from pbm.protocol.deck import seeded_rng
from pbm.protocol.seat import Seat


def _looking(seat: Seat) -> Seat:
    """A copy of `seat` that only looks."""
    look = copy.deepcopy(seat)
    look.party.looking = True
    return look


def _changed_deck(message: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(message)
    changed["deal"]["deck"]["points"][2] = group.b64(group.base(group.hash_scalar(b"another card")))
    return changed


def test_looking_at_deal_step_1_checks_its_proof_and_makes_no_shuffle() -> None:
    first, _ = make_seats(SMALL, "look-1")
    step1 = roundtrip(first.send().to_data())
    look = Seat(Party(1, MATCH, SMALL, seeded_rng("look")))
    look.party.looking = True
    with pytest.raises(ProofError, match="does not prove out"):
        _looking(look).receive(_changed_deck(step1))
    look.receive(step1)
    assert look.party.dealing is not None and look.party.dealing.step == 2 and look.party.outbox.deal is None
    assert look.party.keys == {}  # no key drawn for a shuffle never made
    with pytest.raises(ProtocolError, match="makes no answer"):
        look.send()
    with pytest.raises(ProtocolError, match="not saved"):
        look.party.export_public()


def test_looking_at_deal_step_2_checks_it_and_shows_the_same_table_without_the_answers_strips() -> None:
    first, second = make_seats(SMALL, "look-2")
    second.receive(roundtrip(first.send().to_data()))
    step2 = roundtrip(second.send().to_data())
    with pytest.raises(ProofError, match="does not prove out"):
        _looking(first).receive(_changed_deck(step2))
    look = _looking(first)
    look.receive(step2)
    first.receive(step2)
    assert first.party.outbox.deal is not None and look.party.outbox.deal is None
    assert look.state is not None and table_of(look) == table_of(first)
    assert look.state.players[0].hand == first.state.players[0].hand  # type: ignore[union-attr]
    with pytest.raises(ProtocolError, match="makes no answer"):
        look.send()
