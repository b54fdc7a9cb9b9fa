"""Secrets encrypted to oneself: sealed under the identity key and the match id; anything else is refused by name."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from dealing_play import MATCH, SMALL, make_seats

from pbm.dealing import Party
from pbm.errors import SecretsError
from pbm.group import b64
from pbm.secrets import seal, unseal

IDENTITY = bytes(range(100, 132))


def test_sealed_secrets_open_with_the_same_identity_and_match() -> None:
    blob = seal(b"the scalars", IDENTITY, MATCH)
    assert b"the scalars" not in blob.encode() and isinstance(blob, str)
    assert unseal(blob, IDENTITY, MATCH) == b"the scalars"
    key = Ed25519PrivateKey.generate()
    assert unseal(seal(b"x", key, MATCH), key, MATCH) == b"x"


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
