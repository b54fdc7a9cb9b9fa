"""The chat form of a save (turn codes) and the tolerant reader of whatever a player pastes or was mailed.

A turn code carries what a receiver who keeps a journal needs of a save: its turn (the protocol
message, its labels, the chain hash) and the turn signature (pbm/saves.py), deflated and armored
in parts that each fit one chat message, each with a checksum. The reader finds the parts
anywhere in a text, in any order, and undoes what chat and mail do to text: quote prefixes,
re-wrapping, CRLF, a BOM, odd spaces, quoted-printable. docs/save-format.md, *Turn codes*.
"""

from __future__ import annotations

import base64
import binascii
import quopri
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from nacl.bindings import crypto_hash_sha256

from engine._frozen import frozen_value
from pbm import saves, savetext
from pbm.errors import BadSignatureError, CodeError, SaveFormatError, SpiteError
from pbm.home import is_match_id
from pbm.i18n import N_, _, ngettext
from pbm.packing import CUT, EDITED, JUNK, NOT_BASE64, NOT_DATA, TOO_BIG, PackingError, deflate, inflate, to_json
from pbm.saves import SaveFile

PART_CHARS = 2000  # a part fits one message of Discord or Signal (about 2,000), and of Telegram (4,096)
LINE = 64  # characters of a line of a part
BODY_LINES = 29  # lines of code a part holds: with its BEGIN and END lines, at most PART_CHARS characters
MAX_PARTS = 4  # past this, send the file: pasting more messages than that is no longer a chat
MAX_INPUT = saves.MAX_BYTES + saves.MAX_BYTES // 4  # pasted text read at most: a save quoted or quoted-printable (a few % more)
_CODE_LIMIT = 64 * 1024  # what a turn code may unpack to: far above any turn, far below harm
_BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
# the preset dictionary of a code: a turn's keys and fixed values, which a short text would otherwise spell out (~180
# characters a code); part of the code format: another dictionary is another format
_ZDICT = to_json(
    {
        "format": "spite-turn",
        "game": 1,
        "match": "",
        "message": {
            "from": 1,
            "match": "",
            "seq": 1,
            "turn": {
                "end": {"draw": {"points": [""], "proofs": [""]}},
                "game": 1,
                "moves": "",
                "reveals": [{"kind": "hand", "point": "", "proof": "", "slot": 1}],
                "turn": 1,
            },
            "v": 2,
        },
        "prev": "",
        "score": [0, 0],
        "seq": 1,
        "signature": "",
        "signer": 1,
        "turn": 1,
        "version": saves.VERSION,
    }
)
# Every pattern here reads text from anyone, so each must be linear in it: no run is followed by one that can match the
# same characters, and runs are possessive (*+: never given back, so never tried again at another length).
_BEGIN = re.compile(r"BEGIN SPITE TURN (?:([1-9][0-9]?)/([1-9][0-9]?) )?([A-Z2-7]{5})\s*+$")
_END = re.compile(r"END SPITE TURN (?:([1-9][0-9]?)/([1-9][0-9]?) )?([A-Z2-7]{5}) ([A-Z2-7]{6})\s*+$")
_MARK = re.compile(r"(BEGIN|END) SPITE")
_LABEL = re.compile(  # a BEGIN or END line's label, wherever it stands in a line
    r"BEGIN SPITE TURN (?:[1-9][0-9]?/[1-9][0-9]? )?[A-Z2-7]{5}|END SPITE TURN (?:[1-9][0-9]?/[1-9][0-9]? )?[A-Z2-7]{5} [A-Z2-7]{6}"
)
_BODY = re.compile(r"[A-Za-z0-9+/]*")
_QUOTE = re.compile(r"^\s*+(?:[>|]\s?+)++")  # applied to one line at a time
_SPACES = dict.fromkeys(map(ord, "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t"), " ")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"))
_QUOTES = {ord("\u201c"): '"', ord("\u201d"): '"', ord("\u2018"): "'", ord("\u2019"): "'"}


@frozen_value(slots=False)
class TurnCode:
    """A turn code as read: the turn it carries with its signature (the rules and players only where it carries them)."""

    turn: Mapping[str, Any]
    parts: int

    @property
    def match(self) -> str:
        return str(self.turn.get("match", ""))

    @property
    def seq(self) -> int:
        seq = self.turn.get("seq")
        if type(seq) is not int:
            raise CodeError(_("the turn code has no save number ('seq'): it was not made by spite"))
        return seq


# --- writing ---


def carried(save: SaveFile) -> dict[str, Any]:
    """What a turn code carries of `save`: its turn and turn signature, without what the receiver already has.

    The rules are the match's from its first save on, the players from its second (who joins fills in seat 1).
    """
    turn = {**saves.turn_payload(save), "signature": save.turn_signature}
    if save.seq > 1:
        del turn["rules"]
    if save.seq > 2:
        del turn["players"]
    return turn


def encode(save: SaveFile) -> list[str]:
    """The parts of `save`'s turn code, each a text of at most PART_CHARS characters; any number of them."""
    return encode_turn(carried(save))


def encode_turn(turn: Mapping[str, Any]) -> list[str]:
    """The parts of the turn code that carries `turn` as it is (plain data: what :func:`carried` makes of a save)."""
    raw = deflate(turn, _ZDICT)
    body = base64.b64encode(raw).decode("ascii").rstrip("=")
    tag = _base32(crypto_hash_sha256(raw))[:5]
    size = LINE * BODY_LINES
    chunks = [body[i : i + size] for i in range(0, len(body), size)]
    parts = []
    for k, chunk in enumerate(chunks, start=1):
        label = f"{k}/{len(chunks)} {tag}" if len(chunks) > 1 else tag
        lines = [chunk[i : i + LINE] for i in range(0, len(chunk), LINE)]
        parts.append("\n".join([f"BEGIN SPITE TURN {label}", *lines, f"END SPITE TURN {label} {_check(label, chunk)}"]))
    return parts


def armor(save: SaveFile) -> list[str]:
    """The parts of `save`'s turn code; raises CodeError when it would take more than MAX_PARTS messages."""
    parts = encode(save)
    if len(parts) > MAX_PARTS:
        too_many = ngettext(
            # TRANSLATORS: {chars} is a number of characters, as 2,000; {most} the most messages a code may take (4)
            "this turn's code would take {n} message of {chars} characters (at most {most}): send the file instead",
            "this turn's code would take {n} messages of {chars} characters (at most {most}): send the file instead",
            len(parts),
        )
        raise CodeError(too_many.format(n=len(parts), chars=f"{PART_CHARS:,}", most=MAX_PARTS))
    return parts


def _check(label: str, chunk: str) -> str:
    """The checksum of one part: its label and its code, so that a changed character or a cut is seen."""
    return _base32(crypto_hash_sha256(f"{label}\n{chunk}".encode()))[:6]


def _base32(raw: bytes) -> str:
    return base64.b32encode(raw).decode("ascii").rstrip("=")


# --- reading ---


def read(data: bytes) -> SaveFile | TurnCode:
    """What `data` holds: a save (as written, or pasted, quoted, re-wrapped or mailed whole) or a turn code.

    Raises CodeError naming a missing, damaged or cut part, or the save's own SaveFormatError.
    """
    if len(data) > MAX_INPUT:
        raise CodeError(
            _("this text has more than {bytes} bytes; pasted text has at most {kib} KiB (a save itself at most {save_kib} KiB)").format(
                bytes=MAX_INPUT, kib=MAX_INPUT // 1024, save_kib=saves.MAX_BYTES // 1024
            )
        )
    text = data.decode("utf-8", errors="replace")
    plain = normal(text)  # a chat's non-breaking or zero-width spaces inside BEGIN SPITE hide nothing
    if _MARK.search(plain):
        lines = [piece for line in plain.split("\n") for piece in _code_lines(line)]
        if any(_BEGIN.search(line) for line in lines):
            return _read_code(lines)
        if any(_END.search(line) for line in lines):
            raise CodeError(
                _("the turn code has lost its BEGIN SPITE line: copy it again from the chat, every line from BEGIN SPITE to END SPITE")
            )
    elif not _SAVE_MARK.search(plain) and "\ufffd" not in text:  # text, but not a save's (bytes that are not text: the save reader says so)
        if _CODE_LINE.search(plain):
            raise CodeError(
                _(
                    "this text has lines of a turn code but no BEGIN SPITE or END SPITE line: "
                    "copy it again from the chat, every line from BEGIN SPITE to END SPITE"
                )
            )
        raise CodeError(_("this text holds neither a turn code (no BEGIN SPITE line) nor a spite save (no spite-save format line)"))
    return _read_save(data, text)


# A save's header, footer or format line, however mangled; and a line of code (64 characters, or a re-wrapped piece of
# one). Each reads a line from its start, its runs of whitespace ([^\S\n]: any but a newline) within that line: two `\s*`
# after a `^` under re.M took blank text in cubic time (each start of a line, and each way to share the newlines after it
# between the two runs: 2,400 newlines took 11 s, and 8,000 in a mail stalled spite inbox).
_SAVE_MARK = re.compile(r"spite.save|^[^\S\n]*+(?:[>|][^\S\n]*+)?format\s*+=", re.M)
_CODE_LINE = re.compile(r"^[^\S\n]*+[A-Za-z0-9+/]{40,}+[^\S\n]*+$", re.M)


def _code_lines(line: str) -> list[str]:
    """A pasted line as lines of a turn code: its quote prefix gone, and each BEGIN or END label on a line of its own, as
    a chat that joined the lines of a code into one, or put its time and sender's name before each, leaves them."""
    line = _QUOTE.sub("", line)
    if "SPITE" not in line:
        return [line]
    pieces, at = [], 0
    for label in _LABEL.finditer(line):
        pieces += [line[at : label.start()], label.group()]
        at = label.end()
    pieces.append(line[at:])
    return [piece for piece in pieces if piece.strip()]


class Pasted:
    """Text pasted at a terminal, given line by line, and whether it holds all it will: every part of a turn code, or a save
    to its last line. Each line is looked at once; the text is read whole only when the parts in it make whole codes."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self.size = 0  # characters
        self._parts = _Parts()
        self._tags: dict[str, tuple[set[int], set[int]]] = {}  # each tag's totals, and its numbers with a good part
        self._counted = 0  # parts of self._parts counted in self._tags
        self._incomplete: set[str] = set()  # the tags that lack a part
        self._refused = False  # refused once every code in it had its parts: no line added can make it read
        self._whole = False  # what the parts said at the last line that was not a save's last

    @property
    def data(self) -> bytes:
        return "".join(self._lines).encode("utf-8")

    def add(self, line: str) -> bool:
        """Take `line` (with its line break) and say whether the text now holds all it will."""
        self._lines.append(line)
        self.size += len(line)
        if savetext.TAIL in line:
            return True
        if line.isspace():  # a blank line adds nothing to a part, open or not: the parts say what they said
            return self._whole
        text = normal(line)
        for each in (text[:-1] if text.endswith("\n") else text).split("\n"):
            for piece in _code_lines(each):
                self._parts.add(piece)
        self._whole = self._read_whole()
        return self._whole

    def _read_whole(self) -> bool:
        """Whether the parts make whole codes and the text then reads (once: what makes it fail stays)."""
        if self._refused or not self._whole_codes():
            return False
        try:
            read(self.data)
        except SpiteError:
            self._refused = True  # what makes it fail stays: more lines only add parts, whole or not
            return False
        return True

    def _whole_codes(self) -> bool:
        """Whether there are codes and each has its parts, of one count, each whole (a part still open counts as cut)."""
        for part in self._parts.parts[self._counted :]:
            totals, good = self._tags.setdefault(part.tag, (set(), set()))
            totals.add(part.total)
            if part.chunk is not None:
                good.add(part.number)
            if len(totals) == 1 and good.issuperset(range(1, part.total + 1)):
                self._incomplete.discard(part.tag)
            else:
                self._incomplete.add(part.tag)
        self._counted = len(self._parts.parts)
        began = self._parts.open
        if began is not None and (began.tag in self._incomplete or self._tags.get(began.tag, ({0},))[0] != {began.total}):
            return False
        return bool(self._tags) and not self._incomplete


def normal(text: str) -> str:
    """`text` with what chat and mail change undone where nothing is lost: BOM, CRLF, odd and invisible spaces, tabs."""
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_INVISIBLE).translate(_SPACES)


@frozen_value(slots=False)
class _Part:
    """One part of a turn code as pasted: its number of the total, its tag, and its lines of code."""

    number: int
    total: int
    tag: str
    chunk: str | None  # None: damaged or cut


class _Parts:
    """The parts of turn codes in lines given one at a time (quote prefixes gone), each found by its BEGIN line."""

    def __init__(self) -> None:
        self.parts: list[_Part] = []
        self.open: _Part | None = None  # a part begun: its lines so far in self._body
        self._body: list[str] = []

    def add(self, line: str) -> None:
        """Take the next line."""
        if self.open is not None:
            if not _MARK.search(line):
                words = line.split()
                if _BODY.fullmatch("".join(words)):  # spaces a client put in (re-wrapped, joined) are not the code's
                    self._body.append("".join(words))
                elif _BODY.fullmatch(words[-1]):  # a chat's time and sender before the line (a WhatsApp export)
                    self._body.append(words[-1])
                return  # else a chat's own words between the lines: not code (the part's checksum says if any was lost)
            number, total, tag = self.open.number, self.open.total, self.open.tag
            end = _END.search(line)
            if end is not None and (int(end[1] or 1), int(end[2] or 1), end[3]) == (number, total, tag):
                label = f"{number}/{total} {tag}" if total > 1 else tag
                text = "".join(self._body)
                good = _BODY.fullmatch(text) is not None and _check(label, text) == end[4]
                self._close(text if good else None)
                return
            self._close(None)  # cut: another BEGIN or END line came first
        begin = _BEGIN.search(line)
        if begin is not None:
            self.open, self._body = _Part(int(begin[1] or 1), int(begin[2] or 1), begin[3], None), []

    def end(self) -> list[_Part]:
        """Every part, once the last line came (a part still open is cut)."""
        if self.open is not None:
            self._close(None)
        return self.parts

    def _close(self, chunk: str | None) -> None:
        assert self.open is not None
        self.parts.append(replace(self.open, chunk=chunk))
        self.open = None


def _read_code(lines: list[str]) -> TurnCode:
    """The one turn code in `lines` (quote prefixes gone); the newest of a match if several, each part found by its BEGIN line."""
    found = _Parts()
    for line in lines:
        found.add(line)
    parts = found.end()
    by_tag: dict[str, list[_Part]] = {}
    for part in parts:
        by_tag.setdefault(part.tag, []).append(part)
    codes: dict[str, TurnCode | SpiteError] = {}
    for tag, its_parts in by_tag.items():
        try:
            codes[tag] = _whole(tag, its_parts)
        except (CodeError, SaveFormatError) as e:
            codes[tag] = e
    good = [c for c in codes.values() if isinstance(c, TurnCode)]
    broken = [c for c in codes.values() if isinstance(c, SpiteError)]
    if broken:
        raise broken[-1]  # the last code pasted is the one most likely meant
    matches = {c.match for c in good}
    if len(matches) > 1:
        raise CodeError(_("this text holds turn codes of different matches: paste the code of one turn"))
    return max(good, key=lambda c: c.seq)


def _whole(tag: str, parts: list[_Part]) -> TurnCode:
    """The turn code whose parts are `parts` (all of one tag), or CodeError naming the first part missing, damaged or cut."""
    total = parts[0].total
    if any(p.total != total for p in parts):
        # TRANSLATORS: {tag} is the five letters that name a turn code, as in BEGIN SPITE TURN 1/2 ABCDE
        raise CodeError(_("the parts of turn code {tag} disagree on how many parts it has: some are damaged").format(tag=tag))
    chunks: list[str] = []
    read = sorted({p.number for p in parts if p.chunk is not None})
    for number in range(1, total + 1):
        found = [p for p in parts if p.number == number]
        good = next((p.chunk for p in found if p.chunk is not None), None)
        if good is None and not found and read:  # the parts pasted so far are whole: the rest are still to come
            raise CodeError(_still_to_come(read, number, total))
        if good is None:
            raise CodeError(_lost(number, total, damaged=bool(found)))
        chunks.append(good)
    body = "".join(chunks)
    try:
        raw = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError) as e:
        raise CodeError(
            # TRANSLATORS: {tag} is the five letters that name a turn code
            _("turn code {tag} is damaged: copy it again from the chat, every line from BEGIN SPITE to END SPITE").format(tag=tag)
        ) from e
    if _base32(crypto_hash_sha256(raw))[:5] != tag:
        raise CodeError(
            _(
                # TRANSLATORS: {tag} is the five letters that name a turn code
                "the parts of turn code {tag} do not belong together: copy it again from the chat, every line from BEGIN SPITE to END SPITE"
            ).format(tag=tag)
        )
    try:
        turn = inflate(raw, _ZDICT, _CODE_LIMIT)
    except PackingError as e:
        raise CodeError(_(_UNPACKED[e.reason]).format(tag=tag, size=e.limit)) from e
    if not isinstance(turn, dict):
        # TRANSLATORS: {tag} is the five letters that name a turn code
        raise CodeError(_("turn code {tag} does not hold a turn: it was not made by spite").format(tag=tag))
    if not is_match_id(turn.get("match")):  # checked before anything else: the match id names the match's files and lock
        raise CodeError(
            # TRANSLATORS: {tag} is the five letters that name a turn code
            _("turn code {tag} names no match spite makes (its 'match' is not 16 to 64 lower-case hex digits)").format(tag=tag),
            "match",
        )
    whole = TurnCode(turn, total)
    # the save number too: it is looked up in the journal (to complete the code, to see if it was had) before the code's
    # schema is checked, so one no match reaches (2**63 overflowed SQLite) is refused here, as the schema would refuse it
    saves.SAVE.fields["seq"].check(whole.seq, "seq")
    return whole


# Why a turn code does not unpack, by PackingError.reason; {tag} is the five letters that name the code.
_UNPACKED = {
    # TRANSLATORS: {tag} is the five letters that name a turn code, as in BEGIN SPITE TURN ABCDE
    EDITED: N_("turn code {tag} does not unpack: it was edited or cut"),
    # TRANSLATORS: {tag} is the five letters that name a turn code; {size} a number of kibibytes
    TOO_BIG: N_("turn code {tag} unpacks to more than {size} KiB"),
    # TRANSLATORS: {tag} is the five letters that name a turn code
    CUT: N_("turn code {tag} is cut short"),
    # TRANSLATORS: {tag} is the five letters that name a turn code
    JUNK: N_("turn code {tag} has junk after its end"),
    # TRANSLATORS: {tag} is the five letters that name a turn code
    NOT_DATA: N_("turn code {tag} does not unpack to plain data"),
    # TRANSLATORS: {tag} is the five letters that name a turn code
    NOT_BASE64: N_("turn code {tag} is not base64url text"),
}


def _still_to_come(read: list[int], number: int, total: int) -> str:
    """What to say when the parts `read` of a code of `total` parts are whole and part `number` is still to be pasted."""
    parts = str(read[0])
    if len(read) > 1:
        # TRANSLATORS: a list of part numbers, as "1, 2 and 3": {parts} is the numbers but the last, separated by commas
        parts = _("{parts} and {last}").format(parts=", ".join(map(str, read[:-1])), last=read[-1])
    message = ngettext(
        # TRANSLATORS: {read} is the part or parts pasted already (a number, or a list as "1, 2 and 3"); {number} the part to paste
        "part {read} of {total} read; paste part {number} as well (part {number} of {total} is missing): "
        "copy it again from the chat, every line from BEGIN SPITE to END SPITE",
        "parts {read} of {total} read; paste part {number} as well (part {number} of {total} is missing): "
        "copy it again from the chat, every line from BEGIN SPITE to END SPITE",
        len(read),
    )
    return message.format(read=parts, total=total, number=number)


def _lost(number: int, total: int, damaged: bool) -> str:
    """What to say when part `number` of a code of `total` parts is damaged (or cut), or missing."""
    if total > 1 and damaged:
        message = _("part {number} of {total} is damaged or cut: copy it again from the chat, every line from BEGIN SPITE to END SPITE")
    elif total > 1:
        message = _("part {number} of {total} is missing: copy it again from the chat, every line from BEGIN SPITE to END SPITE")
    elif damaged:
        message = _("the turn code is damaged or cut: copy it again from the chat, every line from BEGIN SPITE to END SPITE")
    else:
        message = _("the turn code is missing: copy it again from the chat, every line from BEGIN SPITE to END SPITE")
    return message.format(number=number, total=total)


# --- a save that was pasted, quoted, re-wrapped or mailed ---


def _read_save(data: bytes, text: str) -> SaveFile:
    """The save in `data`: as it is if it reads and its signature holds, else the first repair of the text that does.

    A repair whose signature fails is returned for the checks to refuse; with none that reads, the error of `data` as it is.
    """
    first_error: SaveFormatError | None = None
    unverified: SaveFile | None = None
    for candidate in _candidates(data, text):
        try:
            save = saves.parse(candidate)
        except SaveFormatError as e:
            first_error = first_error or e
            continue
        try:
            saves.verify(save, save.signer_key)  # signed by the key it names: whole; the real check, against the pinned key, follows
            return save
        except BadSignatureError:
            unverified = unverified or save
    if unverified is not None:
        return unverified
    assert first_error is not None
    raise first_error


def _candidates(data: bytes, text: str) -> Iterator[bytes]:
    """`data` as it is, then its repairs, worked out only if it does not do (they cost 13 ms of a 200 ms `spite show`)."""
    yield data
    yield from _repairs(text)


def _repairs(text: str) -> list[bytes]:
    """The text of a save as it was written, from what mail or chat made of it: a few readings, the likeliest first."""
    # spite writes no line that starts or ends with whitespace it needs (a format=flowed client stuffs spaces in)
    plain = "\n".join(_QUOTE.sub("", line).strip() for line in normal(text).split("\n"))
    readings = [plain, plain.translate(_QUOTES)]
    if "=3D" in plain or re.search(r"=\n", plain):  # quoted-printable, as a mail's source shows it
        readings.append(normal(quopri.decodestring(plain.encode("utf-8")).decode("utf-8", errors="replace")))
    repaired = []
    for cut in dict.fromkeys(map(_cut, readings)):  # each text unwrapped once: most readings are the same
        candidate = unwrap(cut).encode("utf-8")
        if candidate not in repaired:
            repaired.append(candidate)
    return repaired


def _cut(text: str) -> str:
    """The lines from the save's first line to its last (savetext.HEAD and TAIL), without what a client put around them."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if savetext.HEAD in line or line.startswith('format = "')), 0)
    end = next((i for i in range(start, len(lines)) if savetext.TAIL in lines[i]), len(lines) - 1)
    return "\n".join(lines[start : end + 1])


# TOML scan state: inside a multi-line string, array depth, inline-table depth, a value due, an `=` due, at a statement's
# start, and what the scan is inside of: "" nothing, '"' or "'" a one-line string, "]" or "]]" a table header, "#" a comment
_State = tuple[bool, int, int, bool, bool, bool, str]
_BASIC_STOP = re.compile(r'[\\"]')  # what ends a run of plain characters in a basic string
_LITERAL_STOP = re.compile("'")  # in a literal string


def unwrap(text: str) -> str:
    """`text` with the lines a re-wrapping client broke joined back: each break leaves a line that cannot end there.

    Lines end inside a one-line string, inside a multi-line string without a line-ending backslash, inside an inline
    table, after `=` or after a key alone (pbm/savetext.py writes no line that could be broken elsewhere). One pass:
    each line joined on is scanned once, from the state the scan had reached a few characters before the break.
    """
    lines = text.split("\n")
    out = []
    in_text, depth = False, 0
    i = 0
    while i < len(lines):
        if not in_text and not lines[i].strip(" \t"):  # a blank line outside a string ends there: nothing to scan
            out.append(lines[i])
            i += 1
            continue
        state: _State = (in_text, depth, 0, False, False, depth == 0 and not in_text, "")
        joined: list[str] = []  # the lines joined so far, each without the whitespace at the break
        window, at, backslashes = "", 0, 0  # the text scanned from `state` on (from `at`); backslashes ending `joined`
        piece = lines[i]
        while True:
            core = piece.rstrip()
            window += core
            text_now = window + piece[len(core) :]
            safe, at = _run(text_now, at, state, len(window) - 2)  # what no character after the break can change
            end = _run(text_now, at, safe, len(text_now))[0]
            ending = len(core) - len(core.rstrip("\\"))
            ending += backslashes if ending == len(core) else 0
            if i + 1 >= len(lines) or not _broken(end, ending):
                out.append("".join(joined) + piece)
                in_text, depth = end[0], end[1]
                break
            joined.append(core)
            window, state, at, backslashes = window[at:], safe, 0, ending
            i += 1
            piece = lines[i].lstrip()
        i += 1
    return "\n".join(out)


def _broken(state: _State, backslashes: int) -> bool:
    """Whether a line whose scan ends in `state` (its text ending in `backslashes` backslashes) cannot end there."""
    in_text, depth, braces, wants_value, wants_equals, _statement, inside = state
    if in_text:
        return backslashes % 2 == 0  # no line-ending backslash: a break
    return inside in ("'", '"', "]", "]]") or braces > 0 or wants_value or (wants_equals and depth == 0)


def _run(line: str, i: int, state: _State, stop: int) -> tuple[_State, int]:
    """The scan state of `line` from `state` at `i` on, and where it stands, once each step that starts before `stop` is taken.

    A step reads at most three characters from where it starts, so the steps before len(line) - 2 mean the same
    whatever is joined after `line`.
    """
    in_text, depth, braces, wants_value, wants_equals, statement, inside = state
    while i < stop:
        if in_text:
            found = _BASIC_STOP.search(line, i, stop)
            if found is None:
                i = stop
            else:
                i = found.start()
                if line[i] == "\\":
                    i += 2
                elif line.startswith('"""', i):
                    in_text, i = False, i + 3
                else:
                    i += 1
            continue
        if inside == "#":
            i = stop
            break
        if inside in ("]", "]]"):  # a table header: its closing bracket
            close = line.find(inside, i, stop + len(inside) - 1)
            if close < 0:
                i = stop
            else:
                inside, i = "", close + len(inside)
            continue
        if inside:  # a one-line string: basic strings have escapes, literal ones none
            found = (_BASIC_STOP if inside == '"' else _LITERAL_STOP).search(line, i, stop)
            if found is None:
                i = stop
            elif line[found.start()] == "\\":
                i = found.start() + 2
            else:
                inside, wants_value, i = "", False, found.start() + 1
            continue
        c = line[i]
        if c in " \t":
            i += 1
            continue
        if c == "#":
            inside = "#"
            continue
        if statement:
            statement = False
            if c == "[":  # a table header, [a.b] or [[a.b]]
                inside = "]]" if line.startswith("[[", i) else "]"
                continue
            wants_equals = True
        if line.startswith('"""', i):
            in_text, wants_value, i = True, False, i + 3
            continue
        if c in "\"'":
            inside, i = c, i + 1
            continue
        if c == "=":
            wants_equals, wants_value = False, True
        elif c in "[]":
            depth += 1 if c == "[" else -1
            wants_value = False
        elif c in "{}":
            braces += 1 if c == "{" else -1
            wants_value = False
        elif c not in ",":
            wants_value = False
        i += 1
    return (in_text, depth, braces, wants_value, wants_equals, statement, inside), i
