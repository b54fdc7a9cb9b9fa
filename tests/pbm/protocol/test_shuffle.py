"""The proof of shuffle: an honest shuffle proves out, and every way of not being one is refused."""

from __future__ import annotations

import dataclasses

import nacl.bindings
import nacl.exceptions
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.errors import ProofError
from pbm.protocol import group, shuffle
from pbm.protocol.deck import seeded_rng
from pbm.protocol.group import GENERATOR
from pbm.protocol.shuffle import ShuffleContext, ShuffleProof

MATCH = bytes(range(16))
CTX = ShuffleContext(MATCH, 1, 7, 12, "the stock shuffle")


def _made(n: int, seed: str = "s", base_key: bytes | None = None) -> tuple[list[bytes], list[bytes], ShuffleProof, bytes, bytes, bytes]:
    """A list of n points under an old key, re-keyed by k and shuffled: inputs, outputs, proof, k, base, key."""
    rng = seeded_rng(seed)
    old = base_key or group.random_scalar(rng)
    inputs = group.layer(old, group.encodings(MATCH, 1, n))
    base = group.base(old)
    k = group.random_scalar(rng)
    key = group.mul(k, base)
    outputs, proof = shuffle.shuffle(CTX, k, base, key, inputs, rng)
    return inputs, outputs, proof, k, base, key


def _roundtrip(proof: ShuffleProof, n: int) -> ShuffleProof:
    return ShuffleProof.from_bytes(proof.to_bytes(), n, "the list")


def test_an_honest_shuffle_proves_out_and_is_a_rekeyed_permutation() -> None:
    inputs, outputs, proof, k, base, key = _made(20)
    shuffle.verify(CTX, _roundtrip(proof, 20), base, key, inputs, outputs)
    assert sorted(outputs) == sorted(group.mul(k, x) for x in inputs)
    assert outputs != [group.mul(k, x) for x in inputs]  # permuted, not just re-keyed
    assert len(proof.to_bytes()) == shuffle.proof_size(20) == 32 * (4 * 20 + 5)


def _refused(inputs: list[bytes], outputs: list[bytes], proof: ShuffleProof, base: bytes, key: bytes, ctx: ShuffleContext = CTX) -> None:
    with pytest.raises(ProofError, match="the shuffle does not"):
        shuffle.verify(ctx, proof, base, key, inputs, outputs)


def test_a_wrong_permutation_claim_is_refused() -> None:
    inputs, outputs, _, k, base, key = _made(10)
    perm = [outputs.index(group.mul(k, x)) for x in inputs]  # the wrong way round: where each input went, not where each output came from
    if perm == list(range(10)):
        perm = perm[1:] + perm[:1]
    forged = shuffle.prove(CTX, k, base, key, inputs, outputs, perm, seeded_rng("p"))
    _refused(inputs, outputs, forged, base, key)


def test_a_wrong_key_is_refused() -> None:
    inputs, outputs, proof, _, base, _ = _made(10)
    _refused(inputs, outputs, proof, base, group.base(group.random_scalar(seeded_rng("other"))))
    _refused(inputs, outputs, proof, GENERATOR, group.mul(group.random_scalar(seeded_rng("o")), base))


def test_outputs_under_another_factor_are_refused_even_with_a_proof_made_for_them() -> None:
    inputs, _, _, k, base, key = _made(10)
    other = group.random_scalar(seeded_rng("x"))
    outputs = [group.mul(other, x) for x in inputs]
    _refused(inputs, outputs, shuffle.prove(CTX, k, base, key, inputs, outputs, list(range(10)), seeded_rng("p")), base, key)


@pytest.mark.parametrize("where", [0, 5, 9])
def test_one_point_replaced_is_refused(where: int) -> None:
    inputs, outputs, proof, k, base, key = _made(10)
    changed = list(outputs)
    changed[where] = group.mul(k, group.card_point(MATCH, 1, 50))
    _refused(inputs, changed, proof, base, key)
    # a proof made by the honest algorithm for the changed list is refused too
    perm = [inputs.index(group.mul(group.invert(k), y)) if group.mul(group.invert(k), y) in inputs else 0 for y in changed]
    _refused(inputs, changed, shuffle.prove(CTX, k, base, key, inputs, changed, perm, seeded_rng("p")), base, key)


def test_one_point_duplicated_is_refused() -> None:
    inputs, outputs, _, k, base, key = _made(10)
    changed = list(outputs)
    changed[3] = changed[4]
    perm = [inputs.index(group.mul(group.invert(k), y)) for y in changed]
    _refused(inputs, changed, shuffle.prove(CTX, k, base, key, inputs, changed, perm, seeded_rng("p")), base, key)


def test_a_blinded_copy_of_another_lists_point_is_refused() -> None:
    inputs, outputs, _, k, base, key = _made(10)
    victim = group.mul(group.random_scalar(seeded_rng("victim")), group.card_point(MATCH, 1, 77))  # a point of another list
    changed = list(outputs)
    changed[0] = group.mul(group.random_scalar(seeded_rng("blind")), victim)
    perm = list(range(10))
    _refused(inputs, changed, shuffle.prove(CTX, k, base, key, inputs, changed, perm, seeded_rng("p")), base, key)


@pytest.mark.parametrize(
    "other",
    [
        dataclasses.replace(CTX, turn=8),
        dataclasses.replace(CTX, game=2),
        dataclasses.replace(CTX, seq=13),
        dataclasses.replace(CTX, name="the merged stock"),
        dataclasses.replace(CTX, match=bytes(16)),
    ],
    ids=["turn", "game", "message", "list", "match"],
)
def test_a_proof_moved_to_another_turn_game_message_list_or_match_is_refused(other: ShuffleContext) -> None:
    inputs, outputs, proof, _, base, key = _made(8)
    _refused(inputs, outputs, proof, base, key, other)


def test_non_canonical_scalars_and_points_in_a_proof_are_refused() -> None:
    proof = _made(4)[2]
    raw = bytearray(proof.to_bytes())
    s = int.from_bytes(raw[-32:], "little") + 2**252 + 27742317777372353535851937790883648493  # the same response plus ℓ: below 2**253
    bad = bytes(raw[:-32]) + s.to_bytes(32, "little")
    with pytest.raises(ProofError, match="not reduced"):
        ShuffleProof.from_bytes(bad, 4, "the list")
    raw[:32] = group.IDENTITY
    with pytest.raises(ProofError, match="not a group element"):
        ShuffleProof.from_bytes(bytes(raw), 4, "the list")
    with pytest.raises(ProofError, match="bytes where"):
        ShuffleProof.from_bytes(proof.to_bytes()[:-1], 4, "the list")


# a point of order 2, (0, −1): on the curve, outside the prime-order subgroup
ORDER_TWO = bytes([0xEC]) + bytes([0xFF] * 30) + bytes([0x7F])


@pytest.mark.parametrize("where", ["commitment", "chain"])
def test_a_proof_point_outside_the_prime_order_subgroup_is_refused(where: str) -> None:
    """The parser checks only for the identity; the verifier's multiplications must refuse a point with a small-order part."""
    inputs, outputs, proof, _, base, key = _made(6)
    raw = bytearray(proof.to_bytes())
    at = 2 * 32 if where == "commitment" else (6 + 3) * 32
    raw[at : at + 32] = nacl.bindings.crypto_core_ed25519_add(bytes(raw[at : at + 32]), ORDER_TWO)
    parsed = ShuffleProof.from_bytes(bytes(raw), 6, "the list")  # it parses: 32 bytes of a point on the curve
    _refused(inputs, outputs, parsed, base, key)
    # what the verifier relies on: libsodium's multiplication refuses such a point, whatever the scalar
    with pytest.raises(nacl.exceptions.CryptoError):
        nacl.bindings.crypto_scalarmult_ed25519_noclamp(group.hash_scalar(b"u"), bytes(raw[at : at + 32]))


def test_a_shuffle_that_drops_or_adds_a_point_is_refused() -> None:
    inputs, outputs, proof, _, base, key = _made(6)
    _refused(inputs, outputs[:-1], proof, base, key)


@settings(max_examples=12, deadline=None)
@given(n=st.integers(0, 30), seed=st.integers(0, 10**6), tamper=st.integers(0, 10**6))
def test_random_sizes_prove_out_and_any_single_change_is_refused(n: int, seed: int, tamper: int) -> None:
    inputs, outputs, proof, k, base, key = _made(n, f"prop/{seed}")
    parsed = _roundtrip(proof, n)
    shuffle.verify(CTX, parsed, base, key, inputs, outputs)
    if n:
        changed = list(outputs)
        changed[tamper % n] = group.mul(k, group.card_point(MATCH, 2, tamper % 100))
        _refused(inputs, changed, parsed, base, key)
    raw = bytearray(proof.to_bytes())  # flip a bit of the proof: either it no longer parses or it no longer proves out
    raw[tamper % len(raw)] ^= 1 << (tamper % 8)
    with pytest.raises(ProofError):
        shuffle.verify(CTX, ShuffleProof.from_bytes(bytes(raw), n, "the list"), base, key, inputs, outputs)


def test_a_proof_checked_once_is_remembered_and_anything_changed_is_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    inputs, outputs, proof, _, base, key = _made(8, "memo")
    shuffle.verify(CTX, proof, base, key, inputs, outputs)
    checks = []
    real = shuffle._check
    monkeypatch.setattr(shuffle, "_check", lambda *a: checks.append(1) or real(*a))
    shuffle.verify(CTX, proof, base, key, inputs, outputs)  # the same statement and proof: remembered, not checked again
    assert checks == []
    _refused(inputs, outputs[1:] + outputs[:1], proof, base, key)  # the outputs in another order: checked, and refused
    _refused(inputs, outputs, proof, base, key, dataclasses.replace(CTX, turn=8))  # another turn: checked, and refused
    assert len(checks) == 2
