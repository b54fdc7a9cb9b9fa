"""The group layer: encodings, validation of incoming points, layers that commute, strip and re-key."""

from __future__ import annotations

import nacl.bindings as na
import pytest

from pbm.errors import PointError
from pbm.protocol import group
from pbm.protocol.deck import seeded_rng

MATCH = bytes(range(16))
# encodings of points of small order (the 8-torsion of edwards25519), from libsodium's own blocklist
SMALL_ORDER = [
    bytes.fromhex("0100000000000000000000000000000000000000000000000000000000000000"),  # identity
    bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),  # order 2
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000000"),  # order 4
    bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000080"),  # order 4
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),  # order 8
]


def test_card_encodings_differ_by_card_game_and_match() -> None:
    table = group.card_table(MATCH, 1, 104)
    assert len(table) == 104 and sorted(table.values()) == list(range(104))
    other_game = set(group.card_table(MATCH, 2, 104))
    other_match = set(group.card_table(bytes(16), 1, 104))
    assert not set(table) & other_game and not set(table) & other_match
    assert all(group.is_point(p) for p in table)


def test_card_encoding_is_the_documented_hash_to_group() -> None:
    import hashlib

    digest = hashlib.sha256(b"spite/card/v1" + MATCH + (3).to_bytes(4, "big") + (57).to_bytes(2, "big")).digest()
    assert group.card_point(MATCH, 3, 57) == na.crypto_core_ed25519_from_uniform(digest)


def test_layers_commute_strip_and_rekey() -> None:
    rng = seeded_rng(1)
    a, b, c = (group.random_scalar(rng) for _ in range(3))
    m = group.card_point(MATCH, 1, 0)
    ab = group.mul(b, group.mul(a, m))
    assert ab == group.mul(a, group.mul(b, m))
    assert group.mul(group.invert(a), ab) == group.mul(b, m)
    # re-key a's layer to c without ever removing it
    assert group.mul(group.ratio(c, a), ab) == group.mul(c, group.mul(b, m))
    assert group.layer(group.invert(b), group.layer(b, [m])) == [m]


@pytest.mark.parametrize("bad", SMALL_ORDER)
def test_small_order_points_and_the_identity_are_refused(bad: bytes) -> None:
    assert not group.is_point(bad)
    with pytest.raises(PointError, match="not a valid group element"):
        group.point(group.b64(bad), "the test point")


def test_non_canonical_and_off_subgroup_points_are_refused() -> None:
    m = group.card_point(MATCH, 1, 5)
    off_subgroup = na.crypto_core_ed25519_add(m, SMALL_ORDER[4])  # on the curve, but with a small-order component
    non_canonical = bytes.fromhex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # y = p, not reduced
    for bad in (off_subgroup, non_canonical, bytes(31) + b"\x81"):
        with pytest.raises(PointError):
            group.point(group.b64(bad), "the test point")
    assert group.point(group.b64(m), "fine") == m


def test_text_must_be_canonical_base64url_of_the_right_size() -> None:
    m = group.card_point(MATCH, 1, 5)
    text = group.b64(m)
    assert len(text) == 43 and "=" not in text
    for bad in (text + "=", text[:-1], text[:-1] + ("B" if text[-1] != "B" else "C"), 5, None, text.replace(text[0], "+", 1)):
        with pytest.raises(PointError):
            group.point(bad, "the test point")


def test_scalars_must_be_reduced() -> None:
    order = (2**252 + 27742317777372353535851937790883648493).to_bytes(32, "little")
    with pytest.raises(PointError, match="not a reduced scalar"):
        group.scalar(group.b64(order), "the test scalar")
    k = group.random_scalar(seeded_rng(2))
    assert group.scalar(group.b64(k), "fine") == k


def test_libsodium_failures_become_our_error() -> None:
    m = group.card_point(MATCH, 1, 5)
    with pytest.raises(PointError):
        group.mul(bytes(32), m)  # the zero scalar gives the identity, which libsodium refuses
    with pytest.raises(PointError):
        group.mul(group.random_scalar(seeded_rng(3)), SMALL_ORDER[0])
    with pytest.raises(PointError):
        group.invert(bytes(32))


def test_injected_randomness_is_reproducible_and_scalars_are_never_zero() -> None:
    a = [group.random_scalar(seeded_rng(9)) for _ in range(3)]
    assert a == [group.random_scalar(seeded_rng(9)) for _ in range(3)]
    zeros = iter([bytes(64), bytes(64), b"\x01" + bytes(63)])
    assert group.random_scalar(lambda n: next(zeros)) == b"\x01" + bytes(31)
