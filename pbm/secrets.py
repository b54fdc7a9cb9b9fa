"""Secrets encrypted to oneself: AES-256-GCM under a key derived (HKDF-SHA256) from the identity key and the match id.

A player's secrets (the seeds of their scalars, their hand) ride in the save file this way, so the
file alone lets that player continue on any machine holding their identity, and nobody else can read them.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbm.errors import SecretsError
from pbm.i18n import _
from pbm.protocol.group import b64, unb64

INFO = b"spite/secrets/v2"  # v2: the plaintext is padded to a fixed size
_NONCE = 12
PADDED = 512  # every sealed plaintext takes this many bytes (or a multiple), so its size tells nothing of the hand


def _private_bytes(identity: bytes | Ed25519PrivateKey) -> bytes:
    if isinstance(identity, Ed25519PrivateKey):
        return identity.private_bytes_raw()
    if not isinstance(identity, bytes | bytearray) or len(identity) != 32:
        raise SecretsError("an identity private key is 32 bytes")
    return bytes(identity)


def secrets_key(identity: bytes | Ed25519PrivateKey, match: bytes) -> bytes:
    """The AES-256 key for one player's secrets in one match: HKDF-SHA256(identity key, salt = match id)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=match, info=INFO).derive(_private_bytes(identity))


def seal(data: bytes, identity: bytes | Ed25519PrivateKey, match: bytes, rng=os.urandom) -> str:
    """`data` encrypted to the holder of `identity` for this match: base64url(nonce ‖ ciphertext ‖ tag)."""
    nonce = rng(_NONCE)
    size = -(-(len(data) + 2) // PADDED) * PADDED
    padded = len(data).to_bytes(2, "big") + data + bytes(size - 2 - len(data))
    return b64(nonce + AESGCM(secrets_key(identity, match)).encrypt(nonce, padded, INFO + match))


def unseal(blob: str, identity: bytes | Ed25519PrivateKey, match: bytes) -> bytes:
    """The data sealed in `blob`; raises SecretsError for a wrong key, another match or a changed blob."""
    if not isinstance(blob, str) or len(blob) < 38:  # nonce and tag alone are 28 bytes
        # TRANSLATORS: the secrets blob is the part of a save that holds a player's own secrets, sealed to their key.
        raise SecretsError(_("the secrets blob is too short to be one"))
    try:
        raw = unb64(blob, (len(blob) * 3) // 4, "the secrets blob")
    except Exception as e:
        raise SecretsError(_("the secrets blob is not base64url text")) from e
    try:
        padded = AESGCM(secrets_key(identity, match)).decrypt(raw[:_NONCE], raw[_NONCE:], INFO + match)
    except InvalidTag as e:
        raise SecretsError(
            _("the secrets in this file do not open with your identity key: another key, another match, or a changed file")
        ) from e
    size = int.from_bytes(padded[:2], "big")
    if len(padded) % PADDED or size > len(padded) - 2:  # sealed by this key, so by a client of another version
        raise SecretsError(_("the secrets in this file are not padded as this spite seals them"))
    return padded[2 : 2 + size]
