"""Player identities: an Ed25519 key and a display name, kept in a PEM file under the spite home.

The file is a PKCS#8 PEM block (passphrase-encrypted if one is given) preceded by one line
``spite-name: "<name>"``; PEM readers ignore text before the block (RFC 7468).
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import stat
import unicodedata
from pathlib import Path

from cryptography.exceptions import InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl.bindings import crypto_hash_sha256

from engine._frozen import frozen_value
from pbm.errors import BadSignatureError, IdentityError, PassphraseError, PublicKeyError
from pbm.home import JOURNAL_FILE, ensure_private_dir, home_error, read_head, write_atomic
from pbm.i18n import _, error_text, ngettext, os_reason
from pbm.shown import shown

PUBLIC_PREFIX = "spite1:"
IDENTITY_FILE = "identity.pem"
_NAME_LINE = "spite-name: "
_MAX_NAME = 64
# What no name may hold, in any case: a fingerprint's shape (four groups of four letters or digits joined by a hyphen or a
# dash like one) or a public key's prefix; next to a real key, such a name could pose as that key's check.
KEY_LIKE = r"(?i:[A-Z0-9]{4}(?:[-\u2010-\u2015\u2212\ufe58\ufe63\uff0d][A-Z0-9]{4}){3}|spite1:)"
_KEY_LIKE = re.compile(KEY_LIKE)
# The kinds of character (Unicode general categories) no name may hold, as they could hide or fake what a terminal shows
# next to it: controls (C0, DEL, C1), format characters (bidi overrides and isolates, zero-width ones, soft hyphen),
# surrogates, private use, line and paragraph separators, and every space but U+0020. What str.isprintable() refuses,
# but for code points unassigned (Cn) in the running Python's Unicode database: those are what the databases of the
# Pythons spite runs on disagree about (3.11 has Unicode 14, 3.13 has 15.1: "🩷" is unassigned in one, a symbol in the
# other), and the rule must say the same of a name on both sides of a match.
_HIDDEN = frozenset(("Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Zs"))
# What is wrong with a name (name_fault): nothing in it, too long, a hidden character, shaped like a key
EMPTY, LONG, HIDDEN, POSING = "empty", "long", "hidden", "posing"
_MAX_KEY_FILE = 64 * 1024
# A key file as spite writes it without a passphrase: one PKCS#8 v1 Ed25519 block (RFC 8410), this DER prefix and the 32-byte key.
_PLAIN_BEGIN, _PLAIN_END = "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----"
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")


@functools.lru_cache(maxsize=64)
def _ed25519(raw: bytes) -> Ed25519PublicKey:
    """The key `raw` as cryptography's (which checks it is a point of the curve, ~0.1 ms): a command meets each of the
    two players' keys several times. Raises ValueError on bytes that are no key."""
    return Ed25519PublicKey.from_public_bytes(raw)


@frozen_value
class PublicKey:
    """A player's Ed25519 public key (32 raw bytes), as shared and as pinned."""

    raw: bytes

    def __post_init__(self) -> None:
        if len(self.raw) != 32:
            # TRANSLATORS: {count} is how many bytes the key that was given has.
            raise PublicKeyError(_("a public key has 32 bytes, not {count}").format(count=len(self.raw)))

    @classmethod
    def parse(cls, text: str) -> PublicKey:
        """Read the one-line form ``spite1:<base64url>``; raises PublicKeyError on anything else."""
        text = text.strip()
        if not text.startswith(PUBLIC_PREFIX):
            # TRANSLATORS: {text} is the text given (in quotes, cut short); 'spite1:' is how every public key starts: keep it.
            raise PublicKeyError(_("{text} is not a spite public key: it should start with 'spite1:'").format(text=repr(_short(text))))
        body = text[len(PUBLIC_PREFIX) :]
        if not re.fullmatch(r"[A-Za-z0-9_-]{43}", body):
            # TRANSLATORS: {text} is the text given (in quotes, cut short); 'spite1:' is how every public key starts: keep it.
            wrong = _("{text} is not a spite public key: after 'spite1:' come 43 letters, digits, - or _")
            raise PublicKeyError(wrong.format(text=repr(_short(text))))
        try:
            raw = base64.urlsafe_b64decode(body + "=")
            _ed25519(raw)
        except ValueError as e:
            # TRANSLATORS: {text} is the text given (in quotes, cut short).
            raise PublicKeyError(_("{text} is not a valid spite public key").format(text=repr(_short(text)))) from e
        if base64.urlsafe_b64encode(raw).rstrip(b"=").decode() != body:
            # TRANSLATORS: {text} is the text given (in quotes, cut short).
            raise PublicKeyError(_("{text} is not a spite public key: it was changed or mistyped").format(text=repr(_short(text))))
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
            _ed25519(self.raw).verify(signature, data)
        except InvalidSignature as e:
            raise BadSignatureError(_("the signature does not match: the file was changed after it was signed")) from e

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"PublicKey.parse({self.text!r})"


@frozen_value
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


def load_or_create(
    home: Path, name: str | None = None, passphrase: str | None = None, path: Path | None = None, new_key: bool = False
) -> Identity:
    """The identity stored at `path` (default: the player's, under `home`), created on first use.

    `name` names a new identity (default: the login name); an existing one keeps its stored
    name (see :func:`rename`). A passphrase encrypts a new key file and is needed to open an
    encrypted one: a wrong or missing one raises PassphraseError.

    A key is never made silently in place of a lost one: if the key file is a link to nothing, or
    missing from a home that has a journal (its matches need the old key), IdentityError says so,
    unless `new_key` asks for a new key in a home that has none.
    """
    path = Path(path) if path is not None else player_path(home)
    if path.exists():
        if new_key:
            # TRANSLATORS: {path} is the key file.
            raise IdentityError(_("you have a key already ({path}): spite will not replace it").format(path=path))
        return load(path, passphrase)
    if path.is_symlink():
        lost = _(
            # TRANSLATORS: {path} is the key file, {target} where its link points.
            "your identity {path} is a link to {target}, which is not there (a drive not mounted?): "
            "spite will not replace it with a new key"
        )
        raise IdentityError(lost.format(path=path, target=os.readlink(path)))
    if (path.parent / JOURNAL_FILE).exists() and not new_key:
        missing = _(
            # TRANSLATORS: {home} is the spite home (a folder), {file} the key file's name; 'spite id --new-key' is a command: keep it.
            "your spite home {home} has a journal but no identity ({file} is missing): restore it from a backup, "
            "as your matches need that key; or, to start again with a new key (those matches cannot go on), run 'spite id --new-key'"
        )
        raise IdentityError(missing.format(home=path.parent, file=path.name))
    identity = Identity(check_name(name if name is not None else login_name()), Ed25519PrivateKey.generate(), path)
    ensure_private_dir(path.parent)
    _store(identity, path, passphrase)
    return identity


def exposure(identity: Identity, home: Path) -> list[str]:
    """Warnings, one line each, for a key file others may read and a spite home others may write.

    None where files have no POSIX modes (Windows: the home is in the user's profile, private to them by its ACL).
    """
    warnings: list[str] = []
    if os.name != "posix":  # stat's mode there says only whether the file is read-only: every file would look exposed
        return warnings
    try:
        key_mode = stat.S_IMODE(identity.path.stat().st_mode) if identity.path is not None else 0
        home_mode = stat.S_IMODE(Path(home).stat().st_mode)
    except OSError:
        return warnings
    if key_mode & 0o077:
        readable = _(
            # TRANSLATORS: {path} is the key file, {mode} its permissions in octal (like 0644); keep the command chmod 600.
            "Warning: your key file {path} can be read by others (mode {mode}): anyone who reads it can play as you. Run: chmod 600 {path}"
        )
        warnings.append(readable.format(path=identity.path, mode=f"{key_mode:04o}"))
    if home_mode & 0o022:
        writable = _(
            # TRANSLATORS: {home} is the spite home (a folder), {mode} its permissions in octal (like 0777); keep the command chmod 700.
            "Warning: your spite home {home} can be changed by others (mode {mode}): "
            "they could replace your key or journal. Run: chmod 700 {home}"
        )
        warnings.append(writable.format(home=home, mode=f"{home_mode:04o}"))
    return warnings


def load(path: Path, passphrase: str | None = None) -> Identity:
    """The identity in key file `path`; raises IdentityError (PassphraseError for passphrase trouble)."""
    path = Path(path)
    text = _read_key_file(path)
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
            # TRANSLATORS: {path} is the key file.
            raise PassphraseError(_("the identity in {path} is protected by a passphrase: give it").format(path=path)) from e
        # TRANSLATORS: {path} is the key file.
        raise PassphraseError(_("the identity in {path} has no passphrase: do not give one").format(path=path)) from e
    except ValueError as e:
        if passphrase is not None and needs_passphrase(path):
            # TRANSLATORS: {path} is the key file.
            raise PassphraseError(_("wrong passphrase for the identity in {path}").format(path=path)) from e
        # TRANSLATORS: {path} is the key file, {error} what the key reader found wrong (in its own English words).
        raise IdentityError(_("the identity file {path} is damaged: {error}").format(path=path, error=error_text(e))) from e
    except UnsupportedAlgorithm as e:
        # TRANSLATORS: {path} is the key file.
        raise IdentityError(_("the identity file {path} holds a key spite cannot use").format(path=path)) from e
    if not isinstance(key, Ed25519PrivateKey):
        # TRANSLATORS: {path} is the key file, {kind} the kind of key it holds (a Python class name, like RSAPrivateKey).
        raise IdentityError(_("the identity file {path} holds a {kind}, not an Ed25519 key").format(path=path, kind=type(key).__name__))
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
        return "ENCRYPTED PRIVATE KEY" in _read_key_file(Path(path))
    except IdentityError:
        return False


def _read_key_file(path: Path) -> str:
    """The text of a key file, reading at most 64 KiB and a byte (a key file is under 1 KiB); raises IdentityError."""
    try:
        data = read_head(path, _MAX_KEY_FILE + 1)
    except OSError as e:
        # TRANSLATORS: {path} is the key file, {error} the system's reason.
        raise IdentityError(_("cannot read the identity file {path}: {error}").format(path=path, error=os_reason(e))) from e
    if len(data) > _MAX_KEY_FILE:
        # TRANSLATORS: {path} is the file, {size} a number of kibibytes (64).
        too_big = _("the identity file {path} is far too big to be a key file (over {size} KiB)")
        raise IdentityError(too_big.format(path=path, size=_MAX_KEY_FILE // 1024))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        # TRANSLATORS: {path} is the file.
        raise IdentityError(_("the identity file {path} is not text: it holds no key").format(path=path)) from e


def rename(identity: Identity, name: str, passphrase: str | None = None) -> Identity:
    """The same key under a new display name, rewritten to its file (encrypted with `passphrase` if given)."""
    renamed = Identity(check_name(name), identity.private_key, identity.path)
    if identity.path is not None:
        _store(renamed, identity.path, passphrase)
    return renamed


def _store(identity: Identity, path: Path, passphrase: str | None) -> None:
    """Write the key file atomically with mode 0600 (where a link points, if it is one: the link stays)."""
    from cryptography.hazmat.primitives import serialization

    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    pem = identity.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    header = _NAME_LINE + json.dumps(identity.name, ensure_ascii=False) + "\n"
    target = path.resolve() if path.is_symlink() else path
    try:
        write_atomic(target, header.encode() + pem, mode=0o600)
    except OSError as e:
        raise home_error(target.parent, e) from e


def _split(text: str, path: Path) -> tuple[str, str]:
    """The name line and the PEM block of a key file."""
    start = text.find("-----BEGIN")
    if start < 0:
        # TRANSLATORS: {path} is the file.
        raise IdentityError(_("the identity file {path} holds no key").format(path=path))
    name = ""
    for line in text[:start].splitlines():
        if line.startswith(_NAME_LINE):
            try:
                name = json.loads(line[len(_NAME_LINE) :])
            except ValueError as e:
                # TRANSLATORS: {path} is the key file.
                raise IdentityError(_("the name line of the identity file {path} is damaged").format(path=path)) from e
    if not isinstance(name, str) or not name:
        name = path.stem
    return name, text[start:]


def name_fault(name: str) -> str | None:
    """What keeps `name`, as it is, from being a player's name (EMPTY, LONG, HIDDEN or POSING), or None if it is one.

    The one rule for names: 1 to 64 characters, none hidden (_HIDDEN), nothing shaped like a fingerprint or a public key.
    A name chosen here meets it once trimmed and in NFC (:func:`check_name`); a name read from a file, as it is (the
    file's schema, pbm/saves.py).
    """
    if not name.isprintable() and any(ch != " " and unicodedata.category(ch) in _HIDDEN for ch in name):
        return HIDDEN
    if not name:
        return EMPTY
    if len(name) > _MAX_NAME:
        return LONG
    if _KEY_LIKE.search(name):
        return POSING
    return None


def is_name(name: str) -> bool:
    """Whether `name`, as it is, may be a player's name (:func:`name_fault`): the check of every name read from a file."""
    return name_fault(name) is None


def check_name(name: str) -> str:
    """`name` without the spaces around it, in NFC, if a player may choose it: 1 to 64 printable characters, no fingerprint or key.

    Control characters (C0, C1, DEL), bidi overrides and other invisible format characters are refused:
    they could hide or fake what a terminal shows next to the name. So is what looks like a fingerprint
    (ABCD-EFGH-IJKL-MNOP) or a public key (KEY_LIKE). Brackets are fine: names are never markup.
    The rule is :func:`name_fault`'s, the same for a name read from a file.

    A name is kept in NFC, the composed form: "ễ" typed as e and two combining marks (as some keyboards type it) is one
    character, so that the same name is the same text however it was typed.
    """
    name = unicodedata.normalize("NFC", name.strip())
    fault = name_fault(name)
    if fault == HIDDEN:
        # TRANSLATORS: {most} is the longest a name may be (64), {name} the name given, in quotes.
        refused = _("a player's name has 1 to {most} printable characters; {name} has control, bidi or other invisible characters")
        raise IdentityError(refused.format(most=_MAX_NAME, name=shown(name)))
    if fault == EMPTY:
        # TRANSLATORS: {most} is the longest a name may be (64).
        raise IdentityError(_("a player's name has 1 to {most} printable characters; this one is empty").format(most=_MAX_NAME))
    if fault == LONG:
        # TRANSLATORS: {most} is the longest a name may be (64), {name} the name given (cut short), in quotes, {n} its length.
        refused = ngettext(
            "a player's name has 1 to {most} printable characters; {name} has {n} characters",
            "a player's name has 1 to {most} printable characters; {name} has {n} characters",
            len(name),
        )
        raise IdentityError(refused.format(most=_MAX_NAME, name=shown(name), n=len(name)))
    if fault == POSING:
        posing = _(
            # TRANSLATORS: {name} is the name given, in quotes; keep ABCD-EFGH-IJKL-MNOP (a fingerprint's shape) and spite1:...
            "a player's name may not look like a key's fingerprint (ABCD-EFGH-IJKL-MNOP) or a public key (spite1:...), "
            "as {name} does: spite shows the real fingerprint apart from the name"
        )
        raise IdentityError(posing.format(name=shown(name)))
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
