"""Hostile saves: any payload signed as it is, with the sender's real key, as a cheating opponent's own program would.

A SaveFile refuses to be built with a bad field; an opponent's program is under no such rule. These
helpers sign the plain document instead, derive hostile edits of every field from the save's schema
(pbm.saves.SAVE) and of every node of the protocol message, and offer them to the receiver of a real
match, in-process, as `spite play` would open them; the same for the turn a turn code carries, pasted
(`spite play -`) and mailed (`spite inbox`, then `inbox --play`). Numbers at the edges of 64 bits are among
the values tried; one that nothing can sign leaves the file with its old signature, as it would have to.
The property tests (test_hostile.py) and the fuzz figures in the README (benchmarks/fuzz_saves.py) both
come from here.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import random
import shutil
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomli_w

from engine.bots import make_bot
from engine.rules import G4A
from pbm import carry, saves, savetext
from pbm.canonical import MAX_SAFE_INT, canonical
from pbm.client.answer import answer, new_match, replace_rules
from pbm.client.receive import completed, open_received, open_save
from pbm.errors import SaveFormatError, SpiteError
from pbm.identity import Identity, load_or_create
from pbm.journal import Journal
from pbm.schema import Fields, Items, Keyed, Maybe, Schema, Text, Whole
from pbm.transport import code

if TYPE_CHECKING:
    from pbm.inbox import Intake

# Numbers at the edges of what JSON keeps exactly and of 64 bits (SQLite's integers): past 2**53 - 1 nothing can sign them.
EDGES = (2**53, -(2**53), 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64)
# Text that no name may hold (pbm.identity.name_fault): DEL, a C1 control, a bidi override and a zero-width space.
HIDDEN_NAME = "A\x7fl\x9bi\u202ec\u200be"
# Values of every kind a save may hold (pbm/canonical.py), and past it: a hostile edit puts one that does not fit where it goes.
KINDS: tuple[Any, ...] = (
    0,
    -1,
    1,
    MAX_SAFE_INT,
    *EDGES,
    True,
    False,
    "",
    "x",
    "!" * 90,
    HIDDEN_NAME,
    [],
    [0],
    ["x"],
    [[]],
    [{}],
    {},
    {"a": 1},
)
UNKNOWN = "zz_unknown"


_TURN_LABELS = ("version", "match", "seq", "game", "turn", "prev", "signer", "score", "rules", "players")


def sign_doc(doc: dict[str, Any], identity: Identity, turn: bool = True) -> bytes:
    """`doc` (a save's payload, any content) signed by `identity` over its canonical bytes, as TOML; with `turn`, its turn
    (docs/save-format.md, *Signature*) signed again first, as a sender's own program would (not when the edit is the turn
    signature itself)."""
    body = copy.deepcopy(doc)
    body.pop("signature", None)
    protocol = body.get("protocol")
    message = protocol.get("message", {}) if isinstance(protocol, dict) else {}
    the_turn = {"format": saves.TURN_FORMAT, **{k: body[k] for k in _TURN_LABELS if k in body}, "message": message}
    if turn:
        with contextlib.suppress(SaveFormatError):  # a value nothing can sign (a float, a number past 2**53 - 1): the old one stays
            body["turn_signature"] = _b64(identity.sign(canonical(the_turn)))
    try:
        signature = _b64(identity.sign(canonical(body)))
    except SaveFormatError:
        signature = doc.get("signature", "")  # nothing can sign it: the file keeps the signature it had
    return tomli_w.dumps({**body, "signature": signature}).encode()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def resign_doc(data: bytes, identity: Identity, change: Callable[[dict[str, Any]], None]) -> bytes:
    """The save in `data` with `change(doc)` applied to its payload, signed again by `identity`."""
    doc = saves.payload(saves.parse(data))
    change(doc)
    return sign_doc(doc, identity)


# --- edits ---


@dataclass(frozen=True)
class Edit:
    """One hostile change at one place of a save's payload: a value put there, a key added inside it, or the key taken away."""

    place: tuple[str | int, ...]  # keys and list indices from the top of the payload
    how: str  # "value", "unknown key" or "missing"
    value: Any = None

    @property
    def where(self) -> str:
        """The dotted place as spite names fields: ``protocol.message.turn.reveals[0].slot``."""
        text = ""
        for step in self.place:
            text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
        return text

    def __str__(self) -> str:
        what = {"value": f"= {self.value!r}"[:60], "unknown key": f"gets key {UNKNOWN!r}", "missing": "removed"}[self.how]
        return f"{self.where} {what}"

    def apply(self, doc: dict[str, Any]) -> dict[str, Any]:
        """A copy of `doc` with this edit made."""
        out = copy.deepcopy(doc)
        if not self.place:  # only a key can be added at the top
            out[UNKNOWN] = 1
            return out
        *parents, last = self.place
        node: Any = out
        for step in parents:
            node = node[step]
        if self.how == "value":
            node[last] = self.value
        elif self.how == "unknown key":
            node[last][UNKNOWN] = 1
        else:
            del node[last]
        return out


def _misfits(schema: Schema) -> list[Any]:
    """Values of every kind that `schema` refuses, and those just out of its range or pattern."""
    out = []
    for value in KINDS:
        try:
            schema.check(value, "")
        except SaveFormatError:
            out.append(value)
    if isinstance(schema, Whole):
        out += [schema.low - 1, schema.high + 1]
    if isinstance(schema, Text) and schema.longest is not None:
        out.append("a" * (schema.longest + 1))
    return out


def save_edits(doc: dict[str, Any], schema: Schema = saves.SAVE, place: tuple[str | int, ...] = ()) -> Iterator[Edit]:
    """Every hostile edit of a save-level field that the schema must refuse: a misfit value, an unknown key, a required key removed."""
    if isinstance(schema, Maybe):
        schema = schema.inner
    if place and place != ("signature",):  # signing sets the signature
        yield from (Edit(place, "value", v) for v in _misfits(schema))
    if isinstance(schema, Fields) and isinstance(doc, dict):
        yield Edit(place, "unknown key")
        for key, inner in schema.fields.items():
            if key in doc:
                if key not in schema.optional and key != "signature":
                    yield Edit((*place, key), "missing")
                yield from save_edits(doc[key], inner, (*place, key))
    elif isinstance(schema, Keyed) and isinstance(doc, dict):
        yield Edit(place, "unknown key")
        for key, value in doc.items():
            yield from save_edits(value, schema.value, (*place, key))
    elif isinstance(schema, Items) and isinstance(doc, list):
        for i, item in enumerate(doc[:3]):
            yield from save_edits(item, schema.item, (*place, i))


def message_edits(message: Any, place: tuple[str | int, ...] = ("protocol", "message"), top: int = 2) -> Iterator[Edit]:
    """Every hostile edit inside the protocol message (at `place`, `top` steps deep): each node another kind of value (a
    number at the edges of 64 bits for a number), each table an unknown key, each key removed."""
    if len(place) > top:
        kind = type(message)
        yield from (Edit(place, "value", v) for v in KINDS if (type(v) is not kind or v in ([], {}, "") or v in EDGES) and v != message)
    if isinstance(message, dict):
        yield Edit(place, "unknown key")
        for key, value in message.items():
            yield Edit((*place, key), "missing")
            yield from message_edits(value, (*place, key), top)
    elif isinstance(message, list):
        for i, item in enumerate(message[:3]):
            yield from message_edits(item, (*place, i), top)


def code_edits(turn: dict[str, Any]) -> Iterator[Edit]:
    """Every hostile edit of the turn a turn code carries (pbm.transport.code.carried): its labels, as the turn's schema
    (pbm.saves.TURN) must refuse them, and each node of its protocol message."""
    yield from save_edits(turn, saves.TURN)
    yield from message_edits(turn["message"], ("message",), top=1)


def sign_turn(turn: dict[str, Any], original: saves.SaveFile, identity: Identity) -> dict[str, Any]:
    """`turn` (a code's, edited) with its turn signature made again by `identity` over the whole turn it stands for: the
    rules and players it leaves out are signed too (pbm.saves.turn_payload), as they were in `original`'s."""
    whole = {key: value for key, value in turn.items() if key != "signature"}
    for key, value in saves.turn_payload(original).items():
        if key in ("rules", "players") and key not in turn:
            whole[key] = value
    try:
        return {**turn, "signature": _b64(identity.sign(canonical(whole)))}
    except SaveFormatError:
        return turn  # nothing can sign it: the code keeps the signature it had


def turn_of(doc: dict[str, Any]) -> dict[str, Any]:
    """The turn a turn code carries of the save whose payload is `doc` (signed as it is): all its labels, rules and players
    included (as a code of a match's first save has them), its protocol message and its turn signature."""
    labels = {key: doc[key] for key in _TURN_LABELS if key in doc}
    return {"format": saves.TURN_FORMAT, **labels, "message": doc["protocol"]["message"], "signature": doc["turn_signature"]}


def mail_of(text: str, sender: str = "mallory@example.com") -> bytes:
    """A mail whose body is `text` (a turn code), as `spite inbox` finds it."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "bob@example.com", "[spite 00000000] my move"
    message.set_content(text)
    return message.as_bytes()


def attached(data: bytes, sender: str = "mallory@example.com") -> bytes:
    """A mail that carries `data` as a .toml attachment, as a turn's file is mailed: `spite inbox` reads every such one."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, "bob@example.com", "[spite 00000000] my move"
    message.set_content("my move")
    message.add_attachment(data, maintype="application", subtype="toml", filename="turn.toml")
    return message.as_bytes()


def with_carry(doc: dict[str, Any], original: saves.SaveFile) -> dict[str, Any]:
    """`doc` (a message edit of `original`) with its sides packed again against the new message, as a careful cheat would pack them."""
    message = doc.get("protocol", {}).get("message")
    if not isinstance(message, dict):
        return doc
    out = copy.deepcopy(doc)
    try:
        out["protocol"]["carry"] = carry.pack_sides(carry.unpack_sides(original), original.history, message, original.state)
    except SaveFormatError:  # a message nothing can encode (a number past 2**53 - 1): the carry stays as it was
        return doc
    return out


# --- what pbm/protocol/ does not refuse yet: each case has a strict xfail in test_hostile.py, so that fixing it shows ---


def _is(place: tuple[str | int, ...], *pattern: str) -> bool:
    """Whether the key steps of `place` (list indices left out) are protocol.message and then `pattern`."""
    return tuple(s for s in place if isinstance(s, str)) == ("protocol", "message", *pattern)


# Edits of the protocol message that pbm/protocol/ accepts, though the file is then none an honest spite writes.
# (The typed messages of protocol 2 refuse what this list held before: a deal that is not a table, reveals or drawn
# points that are numbers, unknown keys, true or false for a number.)
# --- a real match to offer them in ---


@dataclass
class Offer:
    """One file of a real match as its receiver got it: the receiver's spite home is kept as it was just before."""

    data: bytes
    save: saves.SaveFile
    sender: Identity
    receiver: Identity
    home: Path

    @property
    def doc(self) -> dict[str, Any]:
        return saves.payload(self.save)

    def sections(self) -> set[str]:
        return set(self.save.protocol["message"]) & {"deal", "turn", "secrets"}


def play_match(root: Path, payoff: int = 4, target: int = 2, bots: str = "greedy,greedy", seed: int = 0) -> list[Offer]:
    """Play a whole match in-process (as `spite play` does, file by file) and keep every file with its receiver's home before it."""
    players = []
    for who in ("alice", "bob"):
        home = root / who
        home.mkdir(mode=0o700)
        players.append((load_or_create(home, name=who.title()), home))
    mail = root / "mail"
    mail.mkdir()
    thinkers = [make_bot(name, seed + p) for p, name in enumerate(bots.split(","))]
    with Journal.open(players[0][1]) as journal:
        _, path = new_match(players[0][0], journal, replace_rules(G4A, payoff, target), "Bob", out=mail / "invitation.toml")
    offers, reader = [], 1
    for n in range(2000):
        identity, home = players[reader]
        snapshot = root / f"before-{n:04d}"
        shutil.copytree(home, snapshot)
        data = path.read_bytes()
        offers.append(Offer(data, saves.parse(data), players[1 - reader][0], identity, snapshot))
        with Journal.open(home) as journal:
            opened = open_save(path, identity, journal)
            if not opened.owes_file:
                return offers
            while opened.can_move:
                opened.seat.play(thinkers[opened.me].choose(opened.view))  # type: ignore[arg-type]
            _, path = answer(opened)
        reader = 1 - reader
    raise AssertionError("the match did not end")


@dataclass
class Receiver:
    """Offers edited files to the receivers of a match, each in their spite home as it was: nothing is recorded."""

    folder: Path
    _journals: dict[Path, Journal] = field(default_factory=dict)

    def open(self, offer: Offer, data: bytes) -> saves.SaveFile:
        """Open `data` as `offer`'s receiver would (`spite play` up to its moves); the save taken in, or raises what spite raises."""
        path = self.folder / "offered.toml"
        path.write_bytes(data)
        return open_save(path, offer.receiver, self._journal(offer)).save

    def paste(self, offer: Offer, data: bytes) -> saves.SaveFile:
        """Open `data` as `offer`'s receiver would if it was pasted or mailed (`spite play FILE` reads any text, pbm/transport/code.py)."""
        journal = self._journal(offer)
        read = code.read(data)
        save = completed(read, offer.receiver, journal) if isinstance(read, code.TurnCode) else read
        return open_received(save, self.folder, offer.receiver, journal).save

    def inbox(self, offer: Offer, mail: bytes) -> tuple[list[Intake], saves.SaveFile | None]:
        """Take `mail` in as `spite inbox` does for `offer`'s receiver, in a copy of their home (so nothing stays), then open
        what was kept as `inbox --play` does: what became of each turn found, and the save opened (None if none was kept).
        Raises what spite raises at `inbox --play`."""
        from pbm.inbox import Taken, take  # the mail modules: only the inbox kinds of input need them
        from pbm.transport import mail as transport

        home = self.folder / "inbox-home"
        shutil.rmtree(home, ignore_errors=True)
        shutil.copytree(offer.home, home)
        try:
            with Journal.open(home) as journal:
                taken = [take(found, offer.receiver, journal) for found in transport.found_in(mail)]
                kept = [t.path for t in taken if t.what is Taken.KEPT and t.path is not None]
                if not kept:
                    return taken, None
                read = code.read(kept[0].read_bytes())
                save = completed(read, offer.receiver, journal) if isinstance(read, code.TurnCode) else read
                return taken, open_received(save, kept[0], offer.receiver, journal).save
        finally:
            shutil.rmtree(home, ignore_errors=True)

    def _journal(self, offer: Offer) -> Journal:
        journal = self._journals.get(offer.home)
        if journal is None:
            journal = self._journals[offer.home] = Journal.open(offer.home)
        return journal

    def close(self) -> None:
        for journal in self._journals.values():
            journal.close()


# --- the campaign behind the README's figures ---


def byte_edit(data: bytes, rng: random.Random) -> bytes:
    """One random bit flipped, byte inserted or byte deleted (not signed again)."""
    i = rng.randrange(len(data))
    kind = rng.randrange(3)
    if kind == 0:
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    if kind == 1:
        return data[:i] + bytes([rng.randrange(256)]) + data[i:]
    return data[:i] + data[i + 1 :]


def _lines(size: int, first: str, line: str) -> bytes:
    """`first`, then `line` again and again: `size` bytes of text."""
    return (first + line * (size // len(line) + 1)).encode()[:size]


def _tags(size: int) -> bytes:
    """BEGIN lines of turn code parts, each of its own tag: `size` bytes."""
    rng = random.Random(size)
    return "".join(f"BEGIN SPITE TURN {base64.b32encode(rng.randbytes(5)).decode()[:5]}\n" for _ in range(size // 23)).encode()


# Texts that the tolerant reader took time for in the square of their size (a 32 KiB one 20 s; pasted at a terminal,
# minutes), each line broken where a line cannot end or one more part to sort: what a stranger's mail or chat can be;
# and blank text, which it took in the cube of its size (BLANK_TEXTS, below).
HOSTILE_TEXTS: dict[str, Callable[[int], bytes]] = {
    "a basic string left open, then short lines": lambda n: _lines(n, 'a = "\n', "xy\n"),
    "a literal string left open, then short lines": lambda n: _lines(n, "a = '\n", "xy\n"),
    "a multi-line string without backslashes": lambda n: _lines(n, 'a = """\n', "x\n"),
    "an inline table left open": lambda n: _lines(n, "a = {\n", "b\n"),
    "a table header left open": lambda n: _lines(n, "[a\n", "b\n"),
    "keys alone": lambda n: _lines(n, "", "a\n"),
    "keys and = alone": lambda n: _lines(n, "", "a =\n"),
    "each line ending in a string it opens": lambda n: _lines(n, "", 'a = "x\n'),
    "each line ending in an escape": lambda n: _lines(n, 'a = "', "x\\\n"),
    "quote prefixes on an open string": lambda n: _lines(n, '> a = "\n', "> > > > x\n"),
    "quoted-printable soft breaks in an open string": lambda n: _lines(n, 'a = "=3D\n', "x=\n"),
    "a save's first line, then an open string": lambda n: _lines(n, f'{savetext.HEAD}\nformat = "', "x\n"),
    "turn code parts, each of its own tag": _tags,
    "a turn code part that never ends": lambda n: _lines(n, "BEGIN SPITE TURN AAAAA\n", "QUJD\n"),
    "a turn code's BEGIN line, then END lines": lambda n: _lines(n, "BEGIN SPITE TURN AAAAA\n", "END SPITE TURN AAAAA AAAAAA\n"),
    "an END SPITE line, then short lines": lambda n: _lines(n, "END SPITE\n", "xy\n"),
    # Python's TOML reader copies a dotted key's parts at each part: a key of 100,000 parts took 46 s
    "a save's format line, then a key of many parts": lambda n: _lines(n, 'format = "spite-save"\na', ".a"),
    "a save's format line, then tables of 128 parts": lambda n: _lines(n, 'format = "spite-save"\n', "[a" + ".a" * 127 + "]\n"),
}


def _blank(unit: str, end: str = "") -> Callable[[int], bytes]:
    """`unit` again and again, then `end`: at most `size` bytes of text, each character whole."""
    return lambda size: unit.encode() * ((size - len(end.encode())) // len(unit.encode())) + end.encode()


# Blank and near-blank text, as a file, a paste or a mail attachment may be: two `\s*` under re.M took it in cubic time
# (2,400 newlines 11 s; 8,000 in a mail stalled spite inbox), and each repair of a save scans it line by line.
BLANK_TEXTS: dict[str, Callable[[int], bytes]] = {
    "blank: newlines": _blank("\n"),
    "blank: spaces": _blank(" "),
    "blank: CRLF": _blank("\r\n"),
    "blank: spaces and newlines": _blank(" \n"),
    "blank: tabs, vertical tabs and form feeds": _blank("\t\x0b\x0c\n"),
    "blank: odd spaces, zero-width spaces and line separators": _blank("\u00a0\u200b\u2028\u3000\n"),
    "blank: quote marks": _blank("> \n"),
    "near-blank: newlines, then a word": _blank("\n", "format"),
    "near-blank: newlines, then a format line": _blank("\n", "format = 1"),
    "near-blank: newlines, then 39 characters of code": _blank("\n", "A" * 39),
}
HOSTILE_TEXTS.update(BLANK_TEXTS)


def text_edit(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A hostile text (HOSTILE_TEXTS) of up to code.MAX_INPUT bytes: alone, or around `data` re-wrapped by a chat client.

    Around it, the file must still read as itself: the reader cuts what is before its first line and after its last.
    """
    name = rng.choice(list(HOSTILE_TEXTS))
    size = int(2 ** rng.uniform(10, code.MAX_INPUT.bit_length() - 1))  # 1 KiB to the read limit, as many of each size's order
    if rng.randrange(2):
        return HOSTILE_TEXTS[name](size), name
    width = rng.randrange(44, 77)
    return around(data, name, width, min(len(data) + size, code.MAX_INPUT)), f"{name}, around the file re-wrapped at {width}"


def around(data: bytes, name: str, width: int, size: int | None = None) -> bytes:
    """The text of `data` re-wrapped at `width` as a chat client does, between two halves of the hostile text `name`: `size`
    bytes in all (code.MAX_INPUT if None), or the file alone if it takes them."""
    lines = data.decode().split("\n")
    wrapped = "\n".join(line[i : i + width] for line in lines for i in range(0, max(len(line), 1), width))
    room = max((code.MAX_INPUT if size is None else size) - len(wrapped.encode()) - 2, 0) // 2
    junk = HOSTILE_TEXTS[name](room).decode("utf-8", errors="ignore")
    return f"{junk}\n{wrapped}\n{junk}".encode()


@dataclass
class Tally:
    """What became of the inputs of one kind: refused in one SpiteError, accepted, or another exception (a traceback)."""

    tried: int = 0
    refused: int = 0
    same: int = 0  # accepted, and rightly: the same save in another layout (a byte edit of spacing or a comment)
    accepted: list[Edit | str | None] = field(default_factory=list)  # accepted though changed: None for a byte edit, a text's name
    crashed: list[tuple[str, Edit | str | None]] = field(default_factory=list)  # "TypeError at incoming.py:42", and the edit

    @property
    def tracebacks(self) -> int:
        return len(self.crashed)


KIND_BYTES, KIND_FIELDS, KIND_MESSAGE = "bytes, not signed again", "save fields, signed again", "protocol message, signed again"
KIND_TEXT = "hostile text, pasted or mailed"
KIND_CODE, KIND_INBOX = "turn codes, signed again, pasted", "turn codes, signed again, through inbox"


def coded(o: Offer, edit: Edit) -> str:
    """The turn code of `o`'s file with `edit` made to the turn it carries, its turn signed again by its sender (unless the
    edit is the signature's): the text a cheat pastes into a chat or mails."""
    turn = edit.apply(code.carried(o.save))
    if edit.place[:1] != ("signature",):
        turn = sign_turn(turn, o.save, o.sender)
    return "\n\n".join(code.encode_turn(turn))


def campaign(offers: list[Offer], receiver: Receiver, count: int, seed: int, inbox: int | None = None) -> dict[str, Tally]:
    """`count` inputs of each kind (`inbox` of those through the inbox, `count` if None), drawn with `seed`, offered to
    the receivers of `offers`; what became of each."""
    rng, texts, codes = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)  # each kind drawn apart
    kinds = (KIND_BYTES, KIND_FIELDS, KIND_MESSAGE, KIND_TEXT, KIND_CODE, KIND_INBOX)
    tallies = {kind: Tally() for kind in kinds}

    def offer(kind: str, o: Offer, data: bytes, edit: Edit | str | None) -> None:
        tally = tallies[kind]
        tally.tried += 1
        try:
            if kind == KIND_INBOX:
                intakes, taken = receiver.inbox(o, mail_of(data.decode()))
                if any("\n" in str(t.why) for t in intakes):  # each turn passed over says why in one line
                    raise ValueError(f"a refusal in more than one line: {intakes}")
            else:
                taken = (receiver.paste if kind in (KIND_TEXT, KIND_CODE) else receiver.open)(o, data)
        except SpiteError:
            tally.refused += 1
        except Exception as e:  # the measuring instrument counts what spite would show as a traceback
            frame = traceback.extract_tb(e.__traceback__)[-1]
            tally.crashed.append((f"{type(e).__name__} at {Path(frame.filename).name}:{frame.lineno}", edit))
        else:
            if taken is None:  # nothing kept from the mail: passed over, each turn found with why in one line
                tally.refused += 1
            elif taken.hash == o.save.hash and (taken == o.save or kind in (KIND_CODE, KIND_INBOX)):  # a code: its turn
                tally.same += 1
            else:
                tally.accepted.append(edit)

    edits = {id(o): (list(save_edits(o.doc)), list(message_edits(o.doc["protocol"]["message"]))) for o in offers}
    turns = {id(o): list(code_edits(code.carried(o.save))) for o in offers}
    # every other code edit puts a number at the edges of 64 bits somewhere (a label, a node of the message): among all
    # the edits of a code they are few, and a code's numbers are the ones read before its schema is checked
    edges = {key: [e for e in edits if e.how == "value" and type(e.value) is int and e.value in EDGES] for key, edits in turns.items()}
    for n in range(count):
        o = rng.choice(offers)
        offer(KIND_BYTES, o, byte_edit(o.data, rng), None)
        fields, message = edits[id(o)]
        e = rng.choice(fields)
        offer(KIND_FIELDS, o, sign_doc(e.apply(o.doc), o.sender, turn=e.place[:1] != ("turn_signature",)), e)
        e = rng.choice(message)
        offer(KIND_MESSAGE, o, sign_doc(with_carry(e.apply(o.doc), o.save), o.sender), e)
        offer(KIND_TEXT, o, *text_edit(o.data, texts))
        o = codes.choice(offers)
        e = codes.choice((edges if n % 2 else turns)[id(o)])
        text = coded(o, e).encode()
        offer(KIND_CODE, o, text, e)
        if inbox is None or n < inbox:
            offer(KIND_INBOX, o, text, e)
    return tallies
