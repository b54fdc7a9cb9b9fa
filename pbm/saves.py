"""Save files, format v1: one signed TOML file per turn (docs/save-format.md).

The signature and the hash are computed over a canonical encoding of the *parsed* payload
(RFC 8785-style JSON), never over the TOML text, so the TOML layout may vary freely.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from nacl.bindings import crypto_hash_sha256

from engine.moves import InvalidMoveError, parse_turn
from engine.rules import Ruleset
from pbm.canonical import MAX_SAFE_INT, canonical, check_values, join
from pbm.errors import BadSignatureError, PublicKeyError, SaveFormatError, TooLargeError, UnknownKeyError, UnsupportedFormatError
from pbm.home import write_atomic
from pbm.identity import Identity, PublicKey
from pbm.packing import PackingError, pack, unpack

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "Player",
    "SaveFile",
    "TurnRecord",
    "canonical",
    "default_name",
    "fresh_path",
    "new_match_id",
    "parse",
    "read",
    "sign",
    "to_toml",
    "verify",
    "write_atomic",
]

FORMAT = "spite-save"
VERSION = 1
MAX_BYTES = 32 * 1024  # a file that carries a proof of shuffle of the whole deck takes ~25 KiB; an ordinary turn under 16
_HEX = re.compile(r"[0-9a-f]+")
_HASH = re.compile(r"[0-9a-f]{64}")
_SIGNATURE = re.compile(r"[A-Za-z0-9_-]{86}")
_RULE_FIELDS = {f.name: f.type for f in dataclasses.fields(Ruleset)}


@dataclass(frozen=True, slots=True)
class Player:
    """A seat of the match: display name and shared public key text (``spite1:...``)."""

    name: str
    key: str

    @property
    def public_key(self) -> PublicKey:
        return PublicKey.parse(self.key)

    @property
    def fingerprint(self) -> str:
        return self.public_key.fingerprint


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn of the current game: the seat that played it and its moves (``p-c1 7-c2 Q-s2``)."""

    by: int
    moves: str


@dataclass(frozen=True)
class SaveFile:
    """One save: where the match stands after a file's turn, signed by the seat that wrote it.

    `seq` numbers the saves of a match from 1 (each file continues the one before, whose hash
    is `prev`); `game` and `turn` say where that is for people. `state` (public state of the
    current game) and `protocol` (pbm/protocol/dealing.py) are plain TOML-compatible dicts, `secrets`
    maps a seat to its encrypted blob. Treat the dicts as read-only. An unsigned save has
    signature "".
    """

    match: str
    seq: int
    game: int
    turn: int
    prev: str
    rules: Ruleset
    players: tuple[Player, Player]
    score: tuple[int, int]
    state: Mapping[str, Any] = field(default_factory=dict)
    history: tuple[TurnRecord, ...] = ()
    protocol: Mapping[str, Any] = field(default_factory=dict)
    secrets: Mapping[int, str] = field(default_factory=dict)
    signer: int = 0
    signature: str = ""
    format: str = FORMAT
    version: int = VERSION
    # `history` as the file packed it, kept so the payload signed is the one read (another zlib may pack otherwise)
    packed_history: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # own copies, as tuples and plain dicts: nothing the caller keeps can change this save
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "score", tuple(self.score))
        object.__setattr__(self, "history", tuple(self.history))
        object.__setattr__(self, "secrets", dict(self.secrets))
        _validate(self)
        object.__setattr__(self, "state", _plain(self.state))
        object.__setattr__(self, "protocol", _plain(self.protocol))

    @property
    def signer_key(self) -> PublicKey:
        """The public key of the seat that signed this save, as the file states it."""
        return self.players[self.signer].public_key

    @cached_property
    def hash(self) -> str:
        """Hex SHA-256 of the canonical payload, signature included: what the next save names as `prev`."""
        return crypto_hash_sha256(canonical(payload(self))).hex()  # libsodium's SHA-256 (loaded anyway), not hashlib's OpenSSL

    def signed_bytes(self) -> bytes:
        """The bytes the signature covers: the canonical payload without the signature field."""
        body = payload(self)
        del body["signature"]
        return canonical(body)


def new_match_id() -> str:
    """A fresh random match id: 16 bytes as 32 lower-case hex digits."""
    return os.urandom(16).hex()  # what secrets.token_hex does, without importing hashlib through secrets


# --- payload <-> SaveFile ---


def payload(save: SaveFile) -> dict[str, Any]:
    """The save as the plain dict that TOML holds and the signature covers."""
    return {
        "format": save.format,
        "version": save.version,
        "match": save.match,
        "seq": save.seq,
        "game": save.game,
        "turn": save.turn,
        "prev": save.prev,
        "signer": save.signer,
        "signature": save.signature,
        "score": list(save.score),
        "rules": dataclasses.asdict(save.rules),
        "players": [{"name": p.name, "key": p.key} for p in save.players],
        "state": _plain(save.state),
        "history": _history_text(save),
        "protocol": _plain(save.protocol),
        "secrets": {str(seat): blob for seat, blob in sorted(save.secrets.items())},
    }


def pack_history(history: tuple[TurnRecord, ...]) -> str:
    """A game's turns as the file holds them: packed JSON ``[[by, moves], ...]`` (pbm/packing.py), "" before turn 1."""
    return pack([[t.by, t.moves] for t in history]) if history else ""


def unpack_history(text: str) -> tuple[TurnRecord, ...]:
    """The turns packed in `text`; raises SaveFormatError naming the field for anything else."""
    if not text:
        return ()
    try:
        entries = unpack(text)
    except PackingError as e:
        raise SaveFormatError(f"field 'history' {e}", "history") from e
    if not isinstance(entries, list):
        raise SaveFormatError("field 'history' should unpack to a list of turns", "history")
    history = []
    for i, entry in enumerate(entries):
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], str)):
            raise SaveFormatError(f"field 'history[{i}]' should be a seat and the moves of a turn", f"history[{i}]")
        history.append(TurnRecord(entry[0], entry[1]))
    return tuple(history)


def _history_text(save: SaveFile) -> str:
    packed = save.packed_history
    if packed is not None and unpack_history(packed) == save.history:
        return packed
    return pack_history(save.history)


def _plain(value: Any) -> Any:
    """A deep copy as dicts and lists, so nothing the caller keeps can change a payload."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def to_toml(save: SaveFile) -> bytes:
    """The save as TOML bytes; raises TooLargeError past MAX_BYTES (the receiver would refuse it)."""
    import tomli_w  # only the commands that write a save pay for importing the writer

    data = tomli_w.dumps(payload(save), indent=1).encode("utf-8")  # one-space indent: every byte counts
    if len(data) > MAX_BYTES:
        raise TooLargeError(f"this save would take {len(data)} bytes; a save may take at most {MAX_BYTES} (32 KiB)")
    return data


def parse(data: bytes) -> SaveFile:
    """Read TOML bytes into a signed SaveFile, strictly: size, then TOML, then format and version, then every field.

    Raises TooLargeError, UnsupportedFormatError, or SaveFormatError naming the field. It does not verify the signature.
    """
    if len(data) > MAX_BYTES:
        raise TooLargeError(f"this file has {len(data)} bytes; a spite save has at most {MAX_BYTES} (32 KiB)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveFormatError("not a spite save file: it is not text (UTF-8)") from e
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SaveFormatError(f"not a spite save file: it is not valid TOML ({e}); was it cut short or edited?") from e
    except RecursionError as e:
        raise SaveFormatError("not a spite save file: its lists or tables are nested far too deeply") from e
    _check_format(doc)
    check_values(doc)  # refuse floats, dates and huge numbers anywhere, naming the field
    return _from_payload(doc)


def read(path: Path) -> SaveFile:
    """Parse the save file at `path`, reading no more than the size limit allows."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                data += f.read()
    except OSError as e:
        raise SaveFormatError(f"cannot read {path}: {e.strerror or e}") from e
    return parse(data)


def _check_format(doc: dict[str, Any]) -> None:
    fmt = doc.get("format")
    if fmt is None:
        raise SaveFormatError("not a spite save file: it has no 'format' field", "format")
    if fmt != FORMAT:
        raise UnsupportedFormatError(f"not a spite save file: its format is {fmt!r}, not {FORMAT!r}", "format")
    version = doc.get("version")
    if version is None:
        raise SaveFormatError("field 'version' is missing", "version")
    if type(version) is not int:
        raise SaveFormatError(f"field 'version' should be a whole number, not {version!r}", "version")
    if version != VERSION:
        hint = "a newer spite wrote it: upgrade spite" if version > VERSION else "this spite no longer reads it"
        raise UnsupportedFormatError(f"this is a version {version} save; this spite reads version {VERSION} ({hint})", "version")


_TOP = ("format", "version", "match", "seq", "game", "turn", "prev", "signer", "signature", "score", "history")
_TABLES = ("rules", "players", "state", "protocol", "secrets")


def _from_payload(doc: dict[str, Any]) -> SaveFile:
    unknown = sorted(set(doc) - set(_TOP) - set(_TABLES))
    if unknown:
        raise SaveFormatError(f"unknown field {unknown[0]!r} in a version {VERSION} save", unknown[0])
    if "signature" in doc and doc["signature"] == "":
        raise SaveFormatError("field 'signature' is empty: the file was never signed", "signature")
    rules = _table(doc, "rules")
    _exact_keys(rules, _RULE_FIELDS, "rules")
    for name, kind in _RULE_FIELDS.items():
        _typed(rules, name, bool if kind == "bool" else int if kind == "int" else str, f"rules.{name}")
    try:
        ruleset = Ruleset(**rules)
    except ValueError as e:
        raise SaveFormatError(f"field 'rules': {e}", "rules") from e
    players = _typed(doc, "players", list, "players")
    if len(players) != 2:
        raise SaveFormatError(f"field 'players' should list 2 players, not {len(players)}", "players")
    seats = []
    for i, entry in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(entry, dict):
            raise SaveFormatError(f"field {where!r} should be a table with name and key", where)
        _exact_keys(entry, ("name", "key"), where)
        seats.append(Player(_typed(entry, "name", str, f"{where}.name"), _typed(entry, "key", str, f"{where}.key")))
    score = _typed(doc, "score", list, "score")
    if len(score) != 2 or any(type(s) is not int for s in score):
        raise SaveFormatError("field 'score' should be two whole numbers, one per seat", "score")
    packed_history = _typed(doc, "history", str, "history")
    history = unpack_history(packed_history)
    secrets = {}
    for seat in _table(doc, "secrets"):
        if seat not in ("0", "1"):
            raise SaveFormatError(f"field 'secrets': {seat!r} is not a seat (0 or 1)", f"secrets.{seat}")
        secrets[int(seat)] = _typed(doc["secrets"], seat, str, f"secrets.{seat}")
    return SaveFile(
        match=_typed(doc, "match", str, "match"),
        seq=_typed(doc, "seq", int, "seq"),
        game=_typed(doc, "game", int, "game"),
        turn=_typed(doc, "turn", int, "turn"),
        prev=_typed(doc, "prev", str, "prev"),
        rules=ruleset,
        players=(seats[0], seats[1]),
        score=(score[0], score[1]),
        state=_table(doc, "state"),
        history=history,
        packed_history=packed_history,
        protocol=_table(doc, "protocol"),
        secrets=secrets,
        signer=_typed(doc, "signer", int, "signer"),
        signature=_typed(doc, "signature", str, "signature"),
    )


_KIND_NAMES = {int: "a whole number", str: "text", bool: "true or false", list: "a list", dict: "a table"}


def _typed(table: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise SaveFormatError(f"field {where!r} is missing", where)
    value = table[key]
    if type(value) is not kind:
        raise SaveFormatError(f"field {where!r} should be {_KIND_NAMES[kind]}, not {value!r}", where)
    return value


def _table(doc: dict[str, Any], key: str) -> dict[str, Any]:
    return _typed(doc, key, dict, key)


def _exact_keys(table: dict[str, Any], expected: Any, where: str) -> None:
    for key in table:
        if key not in expected:
            raise SaveFormatError(f"unknown field {join(where, key)!r}", join(where, key))


def _validate(save: SaveFile) -> None:
    """Value checks shared by parsing and building: each names the field it refuses."""

    def bad(where: str, why: str) -> SaveFormatError:
        return SaveFormatError(f"field {where!r} {why}", where)

    if save.format != FORMAT or save.version != VERSION:
        raise UnsupportedFormatError(f"this spite writes {FORMAT} version {VERSION} only", "format")
    if not (_HEX.fullmatch(save.match) and 16 <= len(save.match) <= 64 and len(save.match) % 2 == 0):
        raise bad("match", "should be 16 to 64 lower-case hex digits")
    for name, low in (("seq", 1), ("game", 1), ("turn", 0)):
        value = getattr(save, name)
        if type(value) is not int or not low <= value <= MAX_SAFE_INT:
            raise bad(name, f"should be a whole number from {low}")
    if save.prev and not _HASH.fullmatch(save.prev):
        raise bad("prev", "should be 64 lower-case hex digits (a SHA-256), or empty for the first save")
    if (save.seq == 1) != (save.prev == ""):
        raise bad("prev", "should be empty exactly in the first save of a match (seq 1)")
    if len(save.players) != 2 or not all(isinstance(p, Player) for p in save.players):
        raise bad("players", "should be two players")
    if len(save.score) != 2:
        raise bad("score", "should be two whole numbers, one per seat")
    if not all(isinstance(t, TurnRecord) for t in save.history):
        raise bad("history", "should list turn records")
    for i, player in enumerate(save.players):
        if not player.name or len(player.name) > 64 or any(ch < " " for ch in player.name):
            raise bad(f"players[{i}].name", "should be 1 to 64 printable characters")
        if i == 1 and player.key == "" and save.seq == 1:
            continue  # an open invitation: whoever joins takes seat 1 with their key
        try:
            player.public_key  # noqa: B018 -- parsing is the check
        except PublicKeyError as e:
            raise bad(f"players[{i}].key", f"is not a public key: {e}") from e
    if save.players[0].key == save.players[1].key:
        raise bad("players", "names the same key for both seats")
    if any(type(s) is not int or not 0 <= s <= MAX_SAFE_INT for s in save.score):
        raise bad("score", "should be two whole numbers from 0")
    for i, record in enumerate(save.history):
        if record.by not in (0, 1):
            raise bad(f"history[{i}].by", "should be a seat, 0 or 1")
        try:
            if not parse_turn(record.moves):
                raise bad(f"history[{i}].moves", "is empty: every turn has at least one move")
        except InvalidMoveError as e:
            raise bad(f"history[{i}].moves", f"is not a turn: {e}") from e
    if save.signer not in (0, 1):
        raise bad("signer", "should be a seat, 0 or 1")
    if save.signature and not _SIGNATURE.fullmatch(save.signature):
        raise bad("signature", "should be 86 base64url characters (an Ed25519 signature)")
    if any(seat not in (0, 1) or not isinstance(blob, str) for seat, blob in save.secrets.items()):
        raise bad("secrets", "should map seats 0 and 1 to text")
    check_values(save.state, "state")
    check_values(save.protocol, "protocol")


# --- signing ---


def sign(save: SaveFile, identity: Identity) -> SaveFile:
    """The save signed by `identity`, whose key must be one of its players' (that seat becomes the signer)."""
    mine = identity.public_text
    seats = [seat for seat, player in enumerate(save.players) if player.key == mine]
    if not seats:
        raise UnknownKeyError(f"you ({identity.name}, {identity.fingerprint}) are not a player of this match, so you cannot sign its saves")
    unsigned = dataclasses.replace(save, signer=seats[0], signature="")
    signature = identity.sign(unsigned.signed_bytes())
    return dataclasses.replace(unsigned, signature=_b64(signature))


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def verify(save: SaveFile, expected_public_key: PublicKey | str) -> None:
    """Return if `save` is signed by `expected_public_key` (the key pinned for its signer).

    Raises UnknownKeyError when the file names another key for its signer, BadSignatureError when
    the signature does not match the content (the file was changed).
    """
    expected = PublicKey.parse(expected_public_key) if isinstance(expected_public_key, str) else expected_public_key
    signer = save.players[save.signer]
    if signer.public_key != expected:
        raise UnknownKeyError(
            f"this file is signed by {signer.name} with key {signer.fingerprint}, "
            f"which is not the key you know for them ({expected.fingerprint})"
        )
    if not save.signature:
        raise BadSignatureError("this file is not signed")
    try:
        raw = base64.urlsafe_b64decode(save.signature + "==")
    except (binascii.Error, ValueError) as e:
        raise BadSignatureError("the signature is damaged") from e
    if _b64(raw) != save.signature:  # one signature, one text: otherwise a changed file could keep a valid signature
        raise BadSignatureError("the signature is damaged: it was changed after signing")
    expected.verify(raw, save.signed_bytes())


# --- files ---


def default_name(save: SaveFile) -> str:
    """The usual file name of a save: ``spite-<first 8 of match>-g<game>-t<turn>.toml``."""
    return f"spite-{save.match[:8]}-g{save.game}-t{save.turn}.toml"


def fresh_path(save: SaveFile, beside: Path) -> Path:
    """A path for `save` in the directory of `beside` (or `beside` itself if a directory) that exists nowhere yet.

    Adds ``-2``, ``-3`` … to the default name if needed, so the input file is never overwritten.
    """
    beside = Path(beside)
    folder = beside if beside.is_dir() else beside.parent
    base = default_name(save)
    candidate = folder / base
    n = 2
    while candidate.exists() or candidate == beside:
        candidate = folder / f"{base.removesuffix('.toml')}-{n}.toml"
        n += 1
    return candidate
