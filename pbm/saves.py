"""Save files, format v2: one signed TOML file per turn (docs/save-format.md).

Signatures and hashes are computed over a canonical encoding of the *parsed* payload (RFC
8785-style JSON), never over the TOML text, so the TOML layout may vary freely. Each save is
signed twice: its *turn* (the protocol message, its labels and the chain hash: what a turn
code carries, pbm/transport/code.py) and the whole file. The hash that chains saves and that
the journal knows them by is the turn's, so a turn code and the file of the same turn are
the same save to the journal.
"""

from __future__ import annotations

import base64
import binascii
import copy
import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

from nacl.bindings import crypto_hash_sha256

from engine._frozen import frozen_value
from engine.moves import InvalidMoveError, parse_turn
from engine.rules import Ruleset
from pbm import savetext
from pbm.canonical import MAX_SAFE_INT, canonical, check_values
from pbm.errors import BadSignatureError, PublicKeyError, SaveFormatError, TooLargeError, UnknownKeyError, UnsupportedFormatError
from pbm.home import MATCH_ID, read_head, write_atomic
from pbm.i18n import N_, _, error_text, ngettext, os_reason
from pbm.identity import Identity, PublicKey, is_name
from pbm.packing import CUT, EDITED, JUNK, NOT_BASE64, NOT_DATA, TOO_BIG, PackingError, pack, unpack
from pbm.schema import Fields, Flag, Items, Keyed, Opaque, Text, Whole, check
from pbm.shown import shown
from pbm.table import STATE

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_DOTS",
    "MAX_SEQ",
    "MAX_TURN",
    "TURN_FORMAT",
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
TURN_FORMAT = "spite-turn"  # the format named in a turn's signed bytes: never the same bytes as a whole save's
VERSION = 2
# The hard limit on a save, read or written. Not a budget (16 KiB for an ordinary turn, 32 KiB for one with a proof of
# shuffle: benchmarks/save_sizes.py): it sits far above the largest file an honest client can write, derived in
# docs/save-format.md (*Size*) and built by tests/pbm/test_save_limit.py: under 100 KiB for everything a file can hold
# at once, plus about 60 bytes for each turn of the game, so a game of 2,500 turns still fits (the longest seen: 150).
MAX_BYTES = 256 * 1024
# The numbers that place a save in its match, each held to what an honest match can reach, with room: far below the
# 2**53 - 1 that any number of a save is held to (pbm/canonical.py) and SQLite's 2**63 - 1, which are only what a number
# can be written as. A game's turns are all in its history, which unpacks to at most 4 MiB (packing.MAX_UNPACKED) at 10
# bytes or more a turn (`[0,"end"],`): no spite reads a file past turn 419,431 of a game (the longest game seen took 150).
MAX_TURN = 2**20
# A match's files (`seq`), and its games (two files at least each), come one at a time, each made, signed and checked by
# a spite and committed to both journals: 4 ms of protocol alone a file between two bots today (README). At 10,000 files a
# second, a match played without a pause for a century is 3.2e13 files; 2**48 is 2.8e14.
MAX_SEQ = 2**48
# Dots on one line of a save, at most. Python's TOML reader builds a dotted key (`a.b.c = 1`, `[a.b.c]`) one part at a
# time, each time copying the parts before: a key of 100,000 parts took 46 s. A save's lines hold a few (a table's name:
# 4 in the longest; a name of 64 dots in a string; a table nests at most 32 deep, pbm/canonical.py).
MAX_DOTS = 128
_RULE_FIELDS = {f.name: str(f.type) for f in dataclasses.fields(Ruleset)}  # the type's name: annotations are text here


@frozen_value
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


@frozen_value
class TurnRecord:
    """One turn of the current game: the seat that played it and its moves (``p-c1 7-c2 Q-s2``)."""

    by: int
    moves: str


@frozen_value(slots=False)
class SaveFile:
    """One save: where the match stands after a file's turn, signed by the seat that wrote it.

    `seq` numbers the saves of a match from 1 (each file continues the one before, whose hash
    is `prev`); `game` and `turn` say where that is for people. `state` (public state of the
    current game) and `protocol` (pbm/protocol/dealing.py) are plain TOML-compatible dicts, `secrets`
    maps a seat to its encrypted blob. Treat the dicts as read-only. `turn_signature` covers the
    turn (:func:`turn_payload`), `signature` the whole save, the turn signature included; an
    unsigned save has both "". A `partial` save is one a turn code stands for: its turn, completed
    by the receiver (pbm/client/receive.py), with no `signature`, carry or sealed secrets of the writer.
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
    turn_signature: str = ""
    partial: bool = False
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
        """Hex SHA-256 of the canonical turn with its turn signature: what the next save names as `prev`, and the journal's key."""
        signed_turn = {**turn_payload(self), "signature": self.turn_signature}
        return crypto_hash_sha256(canonical(signed_turn)).hex()  # libsodium's SHA-256 (loaded anyway), not hashlib's OpenSSL

    def signed_bytes(self) -> bytes:
        """The bytes the signature covers: the canonical payload without the signature field (the turn signature in it)."""
        body = payload(self)
        del body["signature"]
        return canonical(body)

    def turn_bytes(self) -> bytes:
        """The bytes the turn signature covers: the canonical turn (:func:`turn_payload`)."""
        return canonical(turn_payload(self))


def new_match_id() -> str:
    """A fresh random match id: 16 bytes as 32 lower-case hex digits."""
    return os.urandom(16).hex()  # what secrets.token_hex does, without importing hashlib through secrets


# --- payload <-> SaveFile ---


def payload(save: SaveFile) -> dict[str, Any]:
    """The save as the plain dict that TOML holds and the signature covers."""
    return _payload(save, _history_text(save))


def _payload(save: SaveFile, history: str) -> dict[str, Any]:
    return {
        "format": save.format,
        **_labels(save),
        "signature": save.signature,
        "turn_signature": save.turn_signature,
        "state": _plain(save.state),
        "history": history,
        "protocol": _plain(save.protocol),
        "secrets": {str(seat): blob for seat, blob in sorted(save.secrets.items(), key=str)},
    }


def turn_payload(save: SaveFile) -> dict[str, Any]:
    """The turn of a save, as its turn signature covers it: the protocol message, its labels and the chain hash.

    Not the table, the turns listed, the carried sides or the sealed secrets: the receiver derives or keeps those.
    """
    return {"format": TURN_FORMAT, **_labels(save), "message": _plain(save.protocol.get("message", {}))}


def _labels(save: SaveFile) -> dict[str, Any]:
    """What both the whole save and its turn state about where the match stands."""
    return {
        "version": save.version,
        "match": save.match,
        "seq": save.seq,
        "game": save.game,
        "turn": save.turn,
        "prev": save.prev,
        "signer": save.signer,
        "score": list(save.score),
        "rules": dataclasses.asdict(save.rules),
        "players": [{"name": p.name, "key": p.key} for p in save.players],
    }


def pack_history(history: tuple[TurnRecord, ...]) -> str:
    """A game's turns as the file holds them: packed JSON ``[[by, moves], ...]`` (pbm/packing.py), "" before turn 1."""
    return pack([[t.by, t.moves] for t in history]) if history else ""


# Why field 'history' does not unpack, by PackingError.reason ('history' is the field's name in the file).
_UNPACKED = {
    EDITED: N_("field 'history' does not unpack: it was edited or cut"),
    # TRANSLATORS: {size} is a number of kibibytes.
    TOO_BIG: N_("field 'history' unpacks to more than {size} KiB"),
    CUT: N_("field 'history' is cut short"),
    JUNK: N_("field 'history' has junk after its end"),
    NOT_DATA: N_("field 'history' does not unpack to plain data"),
    NOT_BASE64: N_("field 'history' is not base64url text"),
}


def unpack_history(text: str) -> tuple[TurnRecord, ...]:
    """The turns packed in `text`; raises SaveFormatError naming the field for anything else."""
    if not text:
        return ()
    try:
        entries = unpack(text)
    except PackingError as e:
        raise SaveFormatError(_(_UNPACKED[e.reason]).format(size=e.limit), "history") from e
    if not isinstance(entries, list):
        raise SaveFormatError(_("field 'history' should unpack to a list of turns"), "history")
    history = []
    for i, entry in enumerate(entries):
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], str)):
            # TRANSLATORS: {field} names a field of a save, in quotes (like 'history[3]').
            refused = _("field {field} should be a seat and the moves of a turn")
            raise SaveFormatError(refused.format(field=repr(f"history[{i}]")), f"history[{i}]")
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
    """The save as TOML bytes, no line over 76 characters (pbm/savetext.py); raises TooLargeError past MAX_BYTES."""
    data = savetext.dumps(payload(save)).encode("utf-8")
    if len(data) > MAX_BYTES:
        too_large = ngettext(
            # TRANSLATORS: {size} and {most} are numbers of bytes, {kib} the same limit in kibibytes.
            "this save would take {size} byte; a save may take at most {most} ({kib} KiB)",
            "this save would take {size} bytes; a save may take at most {most} ({kib} KiB)",
            len(data),
        )
        raise TooLargeError(too_large.format(size=len(data), most=MAX_BYTES, kib=MAX_BYTES // 1024))
    return data


def parse(data: bytes) -> SaveFile:
    """Read TOML bytes into a signed SaveFile, strictly: size, then TOML, then format and version, then every field.

    Raises TooLargeError, UnsupportedFormatError, or SaveFormatError naming the field. It does not verify the signature.
    """
    if len(data) > MAX_BYTES:
        # TRANSLATORS: {most} is a number of bytes, {kib} the same in kibibytes.
        too_large = _("this file has more than {most} bytes; a spite save has at most {most} ({kib} KiB)")
        raise TooLargeError(too_large.format(most=MAX_BYTES, kib=MAX_BYTES // 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SaveFormatError(_("not a spite save file: it is not text (UTF-8)")) from e
    if any(line.count(".") > MAX_DOTS for line in text.split("\n")):  # before the TOML reader, which takes such keys in their square
        # TRANSLATORS: {most} is a number (128).
        dotted = _("not a spite save file: a line of it holds more than {most} dots, which no line of a save does")
        raise SaveFormatError(dotted.format(most=MAX_DOTS))
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # TRANSLATORS: {error} is what the TOML reader found wrong, in its own English words.
        not_toml = _("not a spite save file: it is not valid TOML ({error}); was it cut short or edited?")
        raise SaveFormatError(not_toml.format(error=error_text(e))) from e
    except RecursionError as e:
        raise SaveFormatError(_("not a spite save file: its lists or tables are nested far too deeply")) from e
    except ValueError as e:  # Python's limit on converting a number of thousands of digits (sys.get_int_max_str_digits)
        # TRANSLATORS: {most} is the largest number a save may hold.
        huge = _("not a spite save file: it holds a number of thousands of digits (at most {most} is allowed)")
        raise SaveFormatError(huge.format(most=MAX_SAFE_INT)) from e
    _check_format(doc)
    check_values(doc)  # refuse floats, dates and huge numbers anywhere, naming the field
    return _from_payload(doc)


def read(path: Path) -> SaveFile:
    """Parse the save file at `path`, reading at most one byte more than the size limit (so /dev/zero is refused too)."""
    try:
        data = read_head(path, MAX_BYTES + 1)
    except OSError as e:
        # TRANSLATORS: {path} is the file, {error} the system's reason.
        raise SaveFormatError(_("cannot read {path}: {error}").format(path=path, error=os_reason(e))) from e
    return parse(data)


def _check_format(doc: dict[str, Any], expected: str = FORMAT) -> None:
    fmt = doc.get("format")
    if fmt is None:
        if expected == FORMAT:
            raise SaveFormatError(_("not a spite save file: it has no 'format' field"), "format")
        raise SaveFormatError(_("not a spite turn: it has no 'format' field"), "format")
    if fmt != expected:
        if expected == FORMAT:
            # TRANSLATORS: {found} is the format the file names, {expected} the one a save names ('spite-save'), both in quotes.
            other = _("not a spite save file: its format is {found}, not {expected}")
        else:
            # TRANSLATORS: {found} is the format the turn names, {expected} the one a turn names ('spite-turn'), both in quotes.
            other = _("not a spite turn: its format is {found}, not {expected}")
        raise UnsupportedFormatError(other.format(found=shown(fmt), expected=repr(expected)), "format")
    version = doc.get("version")
    if version is None:
        # TRANSLATORS: {field} names a field of a save, in quotes (like 'state.turn').
        raise SaveFormatError(_("field {field} is missing").format(field=repr("version")), "version")
    if type(version) is not int:
        raise Whole().refuse(version, "version")
    if version != VERSION:
        if version > VERSION:
            # TRANSLATORS: {version} and {current} are version numbers of the save format.
            other = _("this is a version {version} save; this spite reads version {current} (a newer spite wrote it: upgrade spite)")
        else:
            # TRANSLATORS: {version} and {current} are version numbers of the save format.
            other = _("this is a version {version} save; this spite reads version {current} (this spite no longer reads it)")
        raise UnsupportedFormatError(other.format(version=version, current=VERSION), "version")


_BASE64URL = r"[A-Za-z0-9_-]*"
# What each Text holds is said after "should be" in a refusal (pbm/schema.py translates it there).
# TRANSLATORS: what a field of a save must hold, after "should be".
_RULE_KINDS = {"bool": Flag(), "int": Whole(1), "str": Text(r"[a-z0-9][a-z0-9_-]{0,31}", N_("a short lower-case name"))}
RULES = Fields({name: _RULE_KINDS[kind] for name, kind in _RULE_FIELDS.items()} | {"decks": Whole(1, 8)})
PLAYER = Fields(
    {
        "name": Text(
            # TRANSLATORS: what a player's name in a save must be, after "should be".
            what=N_("1 to 64 printable characters, none shaped like a fingerprint or key"),
            rule=is_name,  # the rule of a name chosen here (pbm/identity.py): never a character a terminal hides or acts on
        ),
        "key": Text(
            r"(?:spite1:[A-Za-z0-9_-]{43})?",
            # TRANSLATORS: what a field of a save must hold, after "should be"; spite1:... is the start of a public key: keep it.
            N_("a public key (spite1:...), or empty for the seat an invitation leaves open"),
        ),
    }
)
# A whole save, field by field (docs/save-format.md); what one field says about another is checked by _validate.
SAVE = Fields(
    {
        "format": Text(what=f"{FORMAT!r}"),
        "version": Whole(),
        # TRANSLATORS: what a field of a save must hold, after "should be".
        "match": Text(MATCH_ID, N_("16 to 64 lower-case hex digits")),
        "seq": Whole(1, MAX_SEQ),
        "game": Whole(1, MAX_SEQ),
        "turn": Whole(0, MAX_TURN),
        # TRANSLATORS: what a field of a save must hold, after "should be".
        "prev": Text(r"(?:[0-9a-f]{64})?", N_("64 lower-case hex digits (a SHA-256), or empty for the first save")),
        "signer": Whole(0, 1),
        # TRANSLATORS: what a field of a save must hold, after "should be".
        "signature": Text(r"(?:[A-Za-z0-9_-]{86})?", N_("86 base64url characters (an Ed25519 signature)")),
        # TRANSLATORS: what a field of a save must hold, after "should be".
        "turn_signature": Text(r"(?:[A-Za-z0-9_-]{86})?", N_("86 base64url characters (an Ed25519 signature)")),
        "score": Items(Whole(0), count=2),
        "rules": RULES,
        "players": Items(PLAYER, count=2),
        "state": STATE,
        # TRANSLATORS: what a field of a save must hold, after "should be".
        "history": Text(_BASE64URL, N_("packed turns (base64url text)")),
        "protocol": Fields(
            # TRANSLATORS: what a field of a save must hold, after "should be".
            {"message": Opaque(), "carry": Text(_BASE64URL, N_("packed sides (base64url text)"))},
            optional=frozenset({"message", "carry"}),
        ),
        "secrets": Keyed(
            ("0", "1"),
            # TRANSLATORS: what a field of a save must hold, after "should be".
            Text(_BASE64URL, N_("sealed secrets (base64url text)")),
            # TRANSLATORS: what the keys of the table 'secrets' of a save are (0 and 1), in "the keys of 'secrets' are seats (0, 1)".
            N_("seats"),
        ),
    }
)


_LABELS = ("version", "match", "seq", "game", "turn", "prev", "signer", "score", "rules", "players")
# A turn as a turn code carries it (docs/save-format.md, *Turn codes*), the rules and players it may leave out filled in.
TURN = Fields(
    {"format": Text(what=f"{TURN_FORMAT!r}")}
    | {name: SAVE.fields[name] for name in _LABELS}
    | {"message": Opaque(), "signature": SAVE.fields["signature"]}
)


def from_turn(doc: dict[str, Any]) -> SaveFile:
    """The partial save a turn code stands for: `doc` is its turn as signed (:func:`turn_payload`) and its "signature".

    Raises UnsupportedFormatError or SaveFormatError naming the field; it does not verify the signature.
    """
    _check_format(doc, TURN_FORMAT)
    check_values(doc)
    check(TURN, doc)
    if doc["signature"] == "":
        raise SaveFormatError(_("field 'signature' is empty: the turn was never signed"), "signature")
    return SaveFile(**_labels_from(doc), protocol={"message": doc["message"]}, turn_signature=doc["signature"], partial=True)


def _from_payload(doc: dict[str, Any]) -> SaveFile:
    """The SaveFile a parsed document holds: every field is checked against SAVE first, then taken as it is."""
    check(SAVE, doc)
    for name in ("signature", "turn_signature"):
        if doc[name] == "":
            # TRANSLATORS: {field} names a field of a save, in quotes ('signature' or 'turn_signature').
            raise SaveFormatError(_("field {field} is empty: the file was never signed").format(field=repr(name)), name)
    return SaveFile(
        **_labels_from(doc),
        state=doc["state"],
        history=unpack_history(doc["history"]),
        packed_history=doc["history"],
        protocol=doc["protocol"],
        secrets={int(seat): blob for seat, blob in doc["secrets"].items()},
        signature=doc["signature"],
        turn_signature=doc["turn_signature"],
    )


def _labels_from(doc: dict[str, Any]) -> dict[str, Any]:
    """The fields :func:`_labels` writes, read back from `doc` (checked against its schema) as SaveFile arguments."""
    try:
        ruleset = Ruleset(**doc["rules"])
    except ValueError as e:  # numbers each fine, together impossible
        # TRANSLATORS: {error} says why the rules of a save cannot be played (in English: only a changed file has such rules).
        raise SaveFormatError(_("field 'rules': {error}").format(error=error_text(e)), "rules") from e
    return {
        "match": doc["match"],
        "seq": doc["seq"],
        "game": doc["game"],
        "turn": doc["turn"],
        "prev": doc["prev"],
        "rules": ruleset,
        "players": (Player(**doc["players"][0]), Player(**doc["players"][1])),
        "score": (doc["score"][0], doc["score"][1]),
        "signer": doc["signer"],
    }


def _validate(save: SaveFile) -> None:
    """The checks shared by parsing and building: every field against SAVE, then what fields say of each other.

    Each names the field it refuses.
    """

    def bad(where: str, message: str, **values: object) -> SaveFormatError:
        """The refusal of field `where`: `message` (translated) names it as {field}."""
        return SaveFormatError(message.format(field=repr(where), **values), where)

    # what only a caller's mistake can make (a save read from a file never has it) is said in English
    if save.format != FORMAT or save.version != VERSION:
        raise UnsupportedFormatError(f"this spite writes {FORMAT} version {VERSION} only", "format")
    if not (isinstance(save.rules, Ruleset) and all(isinstance(p, Player) for p in save.players)):
        raise bad("rules", "field {field} and players should be a Ruleset and two Players")
    if not all(isinstance(t, TurnRecord) for t in save.history):
        raise bad("history", "field {field} should list turn records")
    check_values(save.state, "state")
    check_values(save.protocol, "protocol")
    check(SAVE, _payload(save, ""))  # the turns are checked as records below, not as the text that packs them
    if save.partial and save.signature:
        raise bad("signature", "field {field} is not in a turn code: only its turn is signed")
    if (save.seq == 1) != (save.prev == ""):
        raise bad("prev", _("field 'prev' should be empty exactly in the first save of a match (seq 1)"))
    for i, player in enumerate(save.players):
        if i == 1 and player.key == "" and save.seq == 1:
            continue  # an open invitation: whoever joins takes seat 1 with their key
        try:
            player.public_key  # noqa: B018 -- parsing is the check
        except PublicKeyError as e:
            # TRANSLATORS: {field} names a field of a save, in quotes (like 'players[1].key'); {error} says what is wrong with it.
            raise bad(f"players[{i}].key", _("field {field} is not a public key: {error}"), error=error_text(e)) from e
    if save.players[0].key == save.players[1].key:
        raise bad("players", _("field 'players' names the same key for both seats"))
    for i, record in enumerate(save.history):
        if record.by not in (0, 1):
            # TRANSLATORS: {field} names a field of a save, in quotes (like 'history[3].by').
            raise bad(f"history[{i}].by", _("field {field} should be a seat, 0 or 1"))
        try:
            if not parse_turn(record.moves):
                # TRANSLATORS: {field} names a field of a save, in quotes (like 'history[3].moves').
                raise bad(f"history[{i}].moves", _("field {field} is empty: every turn has at least one move"))
        except InvalidMoveError as e:
            # TRANSLATORS: {field} names a field of a save, in quotes (like 'history[3].moves'); {error} says what is wrong with it.
            raise bad(f"history[{i}].moves", _("field {field} is not a turn: {error}"), error=error_text(e)) from e


# --- signing ---


def sign(save: SaveFile, identity: Identity) -> SaveFile:
    """The save signed by `identity`, whose key must be one of its players' (that seat becomes the signer)."""
    mine = identity.public_text
    seats = [seat for seat, player in enumerate(save.players) if player.key == mine]
    if not seats:
        # TRANSLATORS: {name} is the player's name, {fingerprint} their key's fingerprint (ABCD-EFGH-IJKL-MNOP).
        not_yours = _("you ({name}, {fingerprint}) are not a player of this match, so you cannot sign its saves")
        raise UnknownKeyError(not_yours.format(name=identity.name, fingerprint=identity.fingerprint))
    unsigned = _signed_copy(save, signer=seats[0], signature="", turn_signature="")
    turn_signed = _signed_copy(unsigned, turn_signature=_b64(identity.sign(unsigned.turn_bytes())))
    return _signed_copy(turn_signed, signature=_b64(identity.sign(turn_signed.signed_bytes())))


def _signed_copy(save: SaveFile, **signing: Any) -> SaveFile:
    """`save` with the signer and signatures :func:`sign` computed: the rest was checked when `save` was made, not again."""
    new = copy.copy(save)  # a copy of the fields as they are, without __post_init__ (the schema) running again
    new.__dict__.pop("hash", None)  # cached from the turn signature, which changes
    new.__dict__.pop(_VERIFIED, None)
    for name, value in signing.items():
        object.__setattr__(new, name, value)
    return new


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


_VERIFIED = "_verified_by"  # where a save keeps the key its signatures held for, so that checking it again costs nothing


@frozen_value(slots=False)
class Verified:
    """A save whose signatures hold for `key` (:func:`verify`): what the receiver goes on with, nothing verifying it again."""

    save: SaveFile
    key: PublicKey


def verify(save: SaveFile, expected_public_key: PublicKey | str) -> Verified:
    """`save` as signed by `expected_public_key` (the key pinned for its signer): the whole file and its turn.

    A partial save (from a turn code) has only its turn signed. Raises UnknownKeyError when the save names
    another key for its signer, BadSignatureError when a signature does not match the content (it was changed).
    A save already verified for that key (by the reader that picked it, pbm/transport/code.py) is not checked again:
    a SaveFile cannot change.
    """
    expected = PublicKey.parse(expected_public_key) if isinstance(expected_public_key, str) else expected_public_key
    signer = save.players[save.signer]
    if signer.public_key != expected:
        if save.partial:
            # TRANSLATORS: {name} is the signer's name; {fingerprint} and {expected} are fingerprints of keys (ABCD-EFGH-IJKL-MNOP).
            other = _("this turn code is signed by {name} with key {fingerprint}, which is not the key you know for them ({expected})")
        else:
            # TRANSLATORS: {name} is the signer's name; {fingerprint} and {expected} are fingerprints of keys (ABCD-EFGH-IJKL-MNOP).
            other = _("this file is signed by {name} with key {fingerprint}, which is not the key you know for them ({expected})")
        raise UnknownKeyError(other.format(name=signer.name, fingerprint=signer.fingerprint, expected=expected.fingerprint))
    if save.__dict__.get(_VERIFIED) == expected:
        return Verified(save, expected)
    if not save.partial:
        _check_signature(save.signature, save.signed_bytes(), expected)
    _check_signature(save.turn_signature, save.turn_bytes(), expected)
    save.__dict__[_VERIFIED] = expected  # as `hash` is cached: a value of the save, computed once
    return Verified(save, expected)


def _check_signature(signature: str, data: bytes, key: PublicKey) -> None:
    if not signature:
        raise BadSignatureError(_("this file is not signed"))
    try:
        raw = base64.urlsafe_b64decode(signature + "==")
    except (binascii.Error, ValueError) as e:
        raise BadSignatureError(_("the signature is damaged")) from e
    if _b64(raw) != signature:  # one signature, one text: otherwise a changed file could keep a valid signature
        raise BadSignatureError(_("the signature is damaged: it was changed after signing"))
    key.verify(raw, data)


# --- files ---


def default_name(save: SaveFile) -> str:
    """The usual file name of a save, the same on both machines and no other file's of its match (name_stem)."""
    return f"{name_stem(save.match, save.game, save.turn, save.protocol.get('message'))}.toml"


def name_stem(match: str, game: int, turn: int, message: object) -> str:
    """``spite-<first 8 of match>-g<game>-t<turn>``, and ``-deal2`` for the file that answers a deal's first step or
    ``-keys`` for one that only hands over keys: the two kinds of file that share a game and turn with another; and
    ``-resign`` for a resignation, which follows the game's last turn."""
    stem = f"spite-{match[:8]}-g{game}-t{turn}"
    if not isinstance(message, Mapping) or "turn" in message:
        return stem  # a file with moves: the only one of its game and turn
    if "resign" in message:
        return f"{stem}-resign"
    deal = message.get("deal")
    if isinstance(deal, Mapping) and deal.get("step") == 2:
        return f"{stem}-deal2"  # beside the first step (the invitation, or the file that ended the game before)
    return f"{stem}-keys" if "deal" not in message and "secrets" in message else stem  # beside the match's last turn


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
