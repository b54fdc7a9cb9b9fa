"""Chaum–Pedersen strip proofs: made and checked, and a false one names its slot and turn."""

from __future__ import annotations

import dataclasses

import pytest

from pbm.errors import ProofError
from pbm.protocol import group, proofs
from pbm.protocol.deck import seeded_rng
from pbm.protocol.proofs import Context

MATCH = bytes(range(16))
CTX = Context(MATCH, 1, 14, "hand card 2 of player 1", 4)


def _setup() -> tuple[bytes, bytes, bytes]:
    rng = seeded_rng(5)
    k = group.random_scalar(rng)
    layered = group.mul(k, group.mul(group.random_scalar(rng), group.card_point(MATCH, 1, 7)))
    return k, group.base(k), layered


def test_an_honest_strip_proves_out() -> None:
    k, key, layered = _setup()
    card, proof = proofs.strip(CTX, k, key, layered, seeded_rng(6))
    assert group.mul(k, card) == layered and len(proof) == 64
    proofs.verify(CTX, proof, key, card, layered)


def test_a_wrong_point_is_refused_naming_slot_and_turn() -> None:
    k, key, layered = _setup()
    _, proof = proofs.strip(CTX, k, key, layered, seeded_rng(6))
    with pytest.raises(ProofError, match=r"turn 14: hand card 2 of player 1: the strip does not prove out"):
        proofs.verify(CTX, proof, key, group.card_point(MATCH, 1, 8), layered)


@pytest.mark.parametrize(
    "other",
    [
        Context(MATCH, 1, 14, "hand card 3 of player 1", 4),  # another slot
        Context(MATCH, 1, 15, "hand card 2 of player 1", 4),  # another turn
        Context(MATCH, 2, 14, "hand card 2 of player 1", 4),  # another game
        Context(bytes(16), 1, 14, "hand card 2 of player 1", 4),  # another match
    ],
)
def test_a_proof_is_good_for_its_own_slot_turn_game_and_match_only(other: Context) -> None:
    k, key, layered = _setup()
    card, proof = proofs.strip(CTX, k, key, layered, seeded_rng(6))
    with pytest.raises(ProofError, match=other.slot):
        proofs.verify(other, proof, key, card, layered)


def test_a_strip_with_another_key_or_a_changed_proof_is_refused() -> None:
    k, key, layered = _setup()
    card, proof = proofs.strip(CTX, k, key, layered, seeded_rng(6))
    other_key = group.base(group.random_scalar(seeded_rng(7)))
    with pytest.raises(ProofError):
        proofs.verify(CTX, proof, other_key, card, layered)
    for i in (0, 40):
        bad = bytearray(proof)
        bad[i] ^= 1
        with pytest.raises(ProofError):
            proofs.verify(CTX, bytes(bad), key, card, layered)
    with pytest.raises(ProofError):
        proofs.verify(CTX, proof[:63], key, card, layered)
    with pytest.raises(ProofError):
        proofs.verify(CTX, bytes(64), key, card, layered)  # zero scalars: libsodium refuses, we name it


def test_a_cheater_without_the_key_cannot_prove_a_substituted_card() -> None:
    """A proof made with a random scalar instead of the key never checks."""
    _, key, layered = _setup()
    fake = group.random_scalar(seeded_rng(8))
    card = group.mul(group.invert(fake), layered)
    proof = proofs.prove(CTX, fake, key, card, layered, seeded_rng(9))
    with pytest.raises(ProofError):
        proofs.verify(CTX, proof, key, card, layered)


def test_a_response_not_reduced_is_refused_though_it_would_verify() -> None:
    """s + ℓ satisfies the same equation as s: only the reduced form is accepted, so a proof has one spelling."""
    k, key, layered = _setup()
    card, proof = proofs.strip(CTX, k, key, layered, seeded_rng(6))
    s = int.from_bytes(proof[32:], "little") + 2**252 + 27742317777372353535851937790883648493
    with pytest.raises(ProofError, match="not reduced"):
        proofs.verify(CTX, proof[:32] + s.to_bytes(32, "little"), key, card, layered)


def test_a_batch_proof_covers_every_pair_and_one_false_pair_is_refused() -> None:
    rng = seeded_rng(9)
    k = group.random_scalar(rng)
    key = group.base(k)
    layered = [group.mul(k, group.card_point(MATCH, 1, i)) for i in range(6)]
    cards, proof = proofs.strip_batch(CTX, k, key, layered, rng)
    assert cards == [group.card_point(MATCH, 1, i) for i in range(6)]
    proofs.verify_batch(CTX, proof, key, cards, layered)
    changed = [*cards[:3], group.card_point(MATCH, 1, 40), *cards[4:]]
    with pytest.raises(ProofError, match="hand card 2 of player 1: the batch does not prove out"):
        proofs.verify_batch(CTX, proof, key, changed, layered)
    with pytest.raises(ProofError, match="the batch does not prove out"):
        proofs.verify_batch(Context(MATCH, 1, 15, CTX.slot, 4), proof, key, cards, layered)


# --- the batch's weights hash the whole statement (protocol 4; protocol 3's messages are still checked by their rule) ---

OLD = dataclasses.replace(CTX, version=3)
ELSEWHERE = {
    "another match": dataclasses.replace(CTX, match=bytes(16)),
    "another game": dataclasses.replace(CTX, game=2),
    "another turn": dataclasses.replace(CTX, turn=15),
    "another list": dataclasses.replace(CTX, slot="recycling pool 1"),
    "protocol 3's rule": OLD,
}


def _batch(ctx: Context) -> tuple[bytes, list[bytes], list[bytes], bytes]:
    rng = seeded_rng(9)
    k = group.random_scalar(rng)
    layered = [group.mul(k, group.card_point(MATCH, 1, i)) for i in range(6)]
    cards, proof = proofs.strip_batch(ctx, k, group.base(k), layered, rng)
    return group.base(k), cards, layered, proof


@pytest.mark.parametrize("where", list(ELSEWHERE))
def test_a_batch_proof_made_under_one_context_is_refused_under_another(where: str) -> None:
    key, cards, layered, proof = _batch(CTX)
    proofs.verify_batch(CTX, proof, key, cards, layered)
    with pytest.raises(ProofError, match="the batch does not prove out"):
        proofs.verify_batch(ELSEWHERE[where], proof, key, cards, layered)
    other_key = group.base(group.random_scalar(seeded_rng(7)))
    with pytest.raises(ProofError, match="the batch does not prove out"):
        proofs.verify_batch(CTX, proof, other_key, cards, layered)


def test_the_batch_weights_hash_every_part_of_the_statement_and_protocol_3s_are_kept_for_its_messages() -> None:
    key, cards, layered, _ = _batch(CTX)
    weights = proofs.batch_weights(CTX, key, cards, layered)
    for where, ctx in ELSEWHERE.items():
        assert proofs.batch_weights(ctx, key, cards, layered) != weights, where
    assert proofs.batch_weights(CTX, group.base(group.random_scalar(seeded_rng(7))), cards, layered) != weights
    # protocol 3 drew them from the match, the list's name, the key and the points only: its old files check as they were made
    old = proofs.batch_weights(OLD, key, cards, layered)
    for ctx in (dataclasses.replace(OLD, game=2), dataclasses.replace(OLD, turn=15)):
        assert proofs.batch_weights(ctx, key, cards, layered) == old
    for ctx in (dataclasses.replace(OLD, match=bytes(16)), dataclasses.replace(OLD, slot="recycling pool 1")):
        assert proofs.batch_weights(ctx, key, cards, layered) != old
    key3, cards3, layered3, proof3 = _batch(OLD)
    proofs.verify_batch(OLD, proof3, key3, cards3, layered3)
