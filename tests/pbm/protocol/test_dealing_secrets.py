"""Secrets encrypted to oneself: sealed under the identity key and the match id; anything else is refused by name."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from dealing_play import MATCH, SMALL, make_seats, play

from pbm.errors import SecretsError
from pbm.protocol.dealing import Party
from pbm.protocol.group import b64
from pbm.secrets import seal, unseal

IDENTITY = bytes(range(100, 132))


def test_sealed_secrets_open_with_the_same_identity_and_match() -> None:
    blob = seal(b"the scalars", IDENTITY, MATCH)
    assert b"the scalars" not in blob.encode() and isinstance(blob, str)
    assert unseal(blob, IDENTITY, MATCH) == b"the scalars"
    key = Ed25519PrivateKey.generate()
    assert unseal(seal(b"x", key, MATCH), key, MATCH) == b"x"


def test_the_sealed_size_does_not_depend_on_the_hand() -> None:
    """The opponent sees the blob's length in every file: it must not follow how many digits the hand's card numbers have."""
    import json

    hands = [[], [1], [3, 4, 5, 6, 7], [103, 102, 101, 100, 99], [10, 2, 99]]
    sizes = {
        len(
            seal(
                json.dumps({"seq": 7, "hand": h, "party": {"v": 2, "games": {"1": {"seed": "x" * 43, "keys": 12}}}}).encode(),
                IDENTITY,
                MATCH,
            )
        )
        for h in hands
    }
    assert len(sizes) == 1
    assert unseal(seal(b"", IDENTITY, MATCH), IDENTITY, MATCH) == b""


def test_a_wrong_identity_another_match_or_a_changed_blob_is_refused() -> None:
    blob = seal(b"the scalars", IDENTITY, MATCH)
    with pytest.raises(SecretsError, match="do not open with your identity key"):
        unseal(blob, bytes(32), MATCH)
    with pytest.raises(SecretsError):
        unseal(blob, IDENTITY, bytes(16))
    changed = blob[:20] + ("A" if blob[20] != "A" else "B") + blob[21:]
    with pytest.raises(SecretsError):
        unseal(changed, IDENTITY, MATCH)
    with pytest.raises(SecretsError):
        unseal("short", IDENTITY, MATCH)
    with pytest.raises(SecretsError):
        unseal(blob[:-1] + "!", IDENTITY, MATCH)


def test_a_party_exports_its_keys_and_only_its_keys_in_the_blob() -> None:
    seats = make_seats(SMALL, 11)
    party = seats[0].party
    party.send()  # game 1's first shuffle creates the deal key
    blob = seal(party.export_secrets(), IDENTITY, MATCH)
    restored = Party.restore(party.export_public(), unseal(blob, IDENTITY, MATCH), SMALL)
    assert restored.keys == party.keys
    # the public part holds no secret scalar
    text = repr(party.export_public())
    for scalars in party.keys.values():
        for k in scalars:
            assert b64(k) not in text


def test_a_games_keys_derive_from_one_seed_so_the_blob_does_not_grow_with_reshuffles() -> None:
    seats = make_seats(SMALL, 12)

    def stop_at_four_keys(_n: int, message: dict) -> dict:
        if any(len(keys) >= 4 for seat in seats for keys in seat.party.keys.values()):
            raise _Enough
        return message

    with pytest.raises(_Enough):
        play(seats, ("greedy", "greedy"), seed=12, tamper=stop_at_four_keys)
    party = max((s.party for s in seats), key=lambda p: max(map(len, p.keys.values())))
    game = max(party.keys, key=lambda g: len(party.keys[g]))
    assert len(party.keys[game]) >= 4  # a deal key and several reshuffles
    restored = Party.restore(party.export_public(), party.export_secrets(), SMALL)
    assert restored.keys == party.keys and len(set(party.keys[game])) == len(party.keys[game])
    one_key = Party(0, MATCH, SMALL)
    one_key._new_key(1)
    assert len(party.export_secrets()) <= len(one_key.export_secrets()) + 20 * len(party.keys)
    # the seed never leaves in the clear: only the scalars of a finished game are ever revealed, and they do not give it
    assert b64(party.seeds[game]) not in repr(party.export_public())


class _Enough(Exception):
    """Stops a match once it has shown what a test needs."""
