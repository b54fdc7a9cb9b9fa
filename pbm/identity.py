"""Player identities: an Ed25519 key and a display name, kept in a PEM file under the spite home.

The file is a PKCS#8 PEM block (passphrase-encrypted if one is given) preceded by one line
``spite-name: "<name>"``; PEM readers ignore text before the block (RFC 7468).
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl.bindings import crypto_hash_sha256

from pbm.errors import BadSignatureError, IdentityError, PassphraseError, PublicKeyError
from pbm.home import ensure_private_dir, write_atomic

PUBLIC_PREFIX = "spite1:"
IDENTITY_FILE = "identity.pem"
_NAME_LINE = "spite-name: "
_MAX_NAME = 64
# A key file as spite writes it without a passphrase: one PKCS#8 v1 Ed25519 block (RFC 8410), this DER prefix and the 32-byte key.
_PLAIN_BEGIN, _PLAIN_END = "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A player's Ed25519 public key (32 raw bytes), as shared and as pinned."""

    raw: bytes

    def __post_init__(self) -> None:
        if len(self.raw) != 32:
            raise PublicKeyError(f"a public key has 32 bytes, not {len(self.raw)}")

    @classmethod
    def parse(cls, text: str) -> PublicKey:
        """Read the one-line form ``spite1:<base64url>``; raises PublicKeyError on anything else."""
        text = text.strip()
        if not text.startswith(PUBLIC_PREFIX):
            raise PublicKeyError(f"{_short(text)!r} is not a spite public key: it should start with {PUBLIC_PREFIX!r}")
        body = text[len(PUBLIC_PREFIX) :]
        if not re.fullmatch(r"[A-Za-z0-9_-]{43}", body):
            raise PublicKeyError(f"{_short(text)!r} is not a spite public key: after {PUBLIC_PREFIX!r} come 43 letters, digits, - or _")
        try:
            raw = base64.urlsafe_b64decode(body + "=")
            Ed25519PublicKey.from_public_bytes(raw)
        except ValueError as e:
            raise PublicKeyError(f"{_short(text)!r} is not a valid spite public key") from e
        if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != body:
            raise PublicKeyError(f"{_short(text)!r} is not a spite public key: it was changed or mistyped")
        return cls(raw)

    @property
    def text(self) -> str:
        """The one line a player shares: ``spite1:`` and the key in unpadded base64url."""
        return PUBLIC_PREFIX + base64.urlsafe_b64encode(self.raw).rstrip(b"=").decode()

    @property
    def fingerprint(self) -> str:
        """Short and easy to read aloud: the first 10 bytes of SHA-256(key) as four groups of base32 (``ABCD-EFGH-IJKL-MNOP``)."""
        code = base64.b32encode(crypto_hash_sha256(self.raw)[:10]).decode()
        return "-".join(code[i : i + 4] for i in range(0, 16, 4))

    def verify(self, signature: bytes, data: bytes) -> None:
        """Return if `signature` is this key's signature of `data`; raise BadSignatureError otherwise."""
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, data)
        except InvalidSignature as e:
            raise BadSignatureError("the signature does not match: the file was changed after it was signed") from e

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"PublicKey.parse({self.text!r})"


@dataclass(frozen=True, slots=True)
class Identity:
    """A player: display name and Ed25519 private key; `path` is the key file it lives in."""

    name: str
    private_key: Ed25519PrivateKey
    path: Path | None = None

    @property
    def public_key(self) -> PublicKey:
        return PublicKey(self.private_key.public_key().public_bytes_raw())

    @property
    def public_text(self) -> str:
        """The one line to share with opponents (``spite1:...``)."""
        return self.public_key.text

    @property
    def fingerprint(self) -> str:
        return self.public_key.fingerprint

    def private_bytes(self) -> bytes:
        """The 32-byte private key (the protocol derives the key that encrypts this player's secrets from it)."""
        return self.private_key.private_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        """The 64-byte Ed25519 signature of `data`."""
        return self.private_key.sign(data)

    def verify(self, signature: bytes, data: bytes) -> None:
        """Raise BadSignatureError unless `signature` is this identity's signature of `data`."""
        self.public_key.verify(signature, data)

    def __repr__(self) -> str:  # never show the private key
        return f"Identity(name={self.name!r}, public={self.public_text!r}, path={self.path!r})"


def player_path(home: Path) -> Path:
    """Where the player's own identity lives: ``<home>/identity.pem``."""
    return Path(home) / IDENTITY_FILE


def load_or_create(home: Path, name: str | None = None, passphrase: str | None = None, path: Path | None = None) -> Identity:
    """The identity stored at `path` (default: the player's, under `home`), created on first use.

    `name` names a new identity (default: the login name); an existing one keeps its stored
    name (see :func:`rename`). A passphrase encrypts a new key file and is needed to open an
    encrypted one: a wrong or missing one raises PassphraseError.
    """
    path = Path(path) if path is not None else player_path(home)
    if path.exists():
        return load(path, passphrase)
    identity = Identity(_check_name(name if name is not None else login_name()), Ed25519PrivateKey.generate(), path)
    ensure_private_dir(path.parent)
    _store(identity, path, passphrase)
    return identity


def load(path: Path, passphrase: str | None = None) -> Identity:
    """The identity in key file `path`; raises IdentityError (PassphraseError for passphrase trouble)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise IdentityError(f"cannot read the identity file {path}: {e}") from e
    name, pem = _split(text, path)
    if passphrase is None:
        plain = _plain_key(pem)
        if plain is not None:
            return Identity(name, plain, path)
    from cryptography.hazmat.primitives import serialization  # the PEM reader, for every other form of key file

    try:
        key = serialization.load_pem_private_key(pem.encode(), password=passphrase.encode() if passphrase is not None else None)
    except TypeError as e:
        if passphrase is None:
            raise PassphraseError(f"the identity in {path} is protected by a passphrase: give it") from e
        raise PassphraseError(f"the identity in {path} has no passphrase: do not give one") from e
    except ValueError as e:
        if passphrase is not None and needs_passphrase(path):
            raise PassphraseError(f"wrong passphrase for the identity in {path}") from e
        raise IdentityError(f"the identity file {path} is damaged: {e}") from e
    except UnsupportedAlgorithm as e:
        raise IdentityError(f"the identity file {path} holds a key spite cannot use") from e
    if not isinstance(key, Ed25519PrivateKey):
        raise IdentityError(f"the identity file {path} holds a {type(key).__name__}, not an Ed25519 key")
    return Identity(name, key, path)


def _plain_key(pem: str) -> Ed25519PrivateKey | None:
    """The key of a block exactly as spite writes it without a passphrase, else None (for the PEM reader to judge).

    The same key that load_pem_private_key gives, without OpenSSL's PEM decoder, which took ~1 ms of every command.
    """
    lines = pem.rstrip("\n").split("\n")
    if len(lines) != 3 or lines[0] != _PLAIN_BEGIN or lines[2] != _PLAIN_END or len(lines[1]) != 64:
        return None
    try:
        der = base64.b64decode(lines[1], validate=True)
    except ValueError:  # binascii.Error
        return None
    return Ed25519PrivateKey.from_private_bytes(der[16:]) if der[:16] == _PKCS8_ED25519 else None


def needs_passphrase(path: Path) -> bool:
    """Whether the key file at `path` is encrypted (so the CLI knows to ask)."""
    try:
        return "ENCRYPTED PRIVATE KEY" in Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def rename(identity: Identity, name: str, passphrase: str | None = None) -> Identity:
    """The same key under a new display name, rewritten to its file (encrypted with `passphrase` if given)."""
    renamed = Identity(_check_name(name), identity.private_key, identity.path)
    if identity.path is not None:
        _store(renamed, identity.path, passphrase)
    return renamed


def _store(identity: Identity, path: Path, passphrase: str | None) -> None:
    """Write the key file atomically with mode 0600."""
    from cryptography.hazmat.primitives import serialization

    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    pem = identity.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    header = _NAME_LINE + json.dumps(identity.name, ensure_ascii=False) + "\n"
    write_atomic(path, header.encode() + pem, mode=0o600)


def _split(text: str, path: Path) -> tuple[str, str]:
    """The name line and the PEM block of a key file."""
    start = text.find("-----BEGIN")
    if start < 0:
        raise IdentityError(f"the identity file {path} holds no key")
    name = ""
    for line in text[:start].splitlines():
        if line.startswith(_NAME_LINE):
            try:
                name = json.loads(line[len(_NAME_LINE) :])
            except ValueError as e:
                raise IdentityError(f"the name line of the identity file {path} is damaged") from e
    if not isinstance(name, str) or not name:
        name = path.stem
    return name, text[start:]


def _check_name(name: str) -> str:
    name = name.strip()
    if not name or len(name) > _MAX_NAME or any(ch < " " for ch in name):
        raise IdentityError(f"a player's name has 1 to {_MAX_NAME} printable characters; {_short(name)!r} does not do")
    return name


def login_name() -> str:
    """The name a new identity gets when none is given: the login name, else "player"."""
    import getpass  # only a new identity needs it

    try:
        return getpass.getuser() or "player"
    except Exception:  # getuser raises OSError or KeyError depending on the platform
        return "player"


def _short(text: str) -> str:
    return text if len(text) <= 24 else text[:21] + "..."
