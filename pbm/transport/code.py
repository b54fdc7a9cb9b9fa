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
from typing import Any, NamedTuple

from nacl.bindings import crypto_hash_sha256

from engine._frozen import frozen_value
from pbm import saves, savetext
from pbm.errors import BadSignatureError, CodeError, SaveFormatError, SpiteError
from pbm.home import is_match_id
from pbm.i18n import N_, _, ngettext
from pbm.packing import CUT, EDITED, JUNK, NOT_BASE64, NOT_DATA, TOO_BIG, PackingError, deflate, inflate, to_json
from pbm.saves import SaveFile
from pbm.transport.aswritten import JOINED_MARK as _JOINED_MARK
from pbm.transport.aswritten import MARK as _MARK
from pbm.transport.aswritten import MAX_INPUT as MAX_INPUT
from pbm.transport.aswritten import SAVE_MARK as _SAVE_MARK
from pbm.transport.aswritten import flat, normal
from pbm.transport.unwrap import unwrap

PART_CHARS = 2000  # a part fits one message of Discord or Signal (about 2,000), and of Telegram (4,096); a chat's own: pbm/chats.py
LINE = 64  # characters of a line of a part
_FRAME = len("BEGIN SPITE TURN 99/99 ABCDE\r\n\r\nEND SPITE TURN 99/99 ABCDE ABCDEF")  # a part's BEGIN and END lines, CRLF
BODY_LINES = 29  # lines of code a part of PART_CHARS holds (body_lines(PART_CHARS))
MOST_LABELLED = 99  # parts a BEGIN line can number (two digits)
MAX_PARTS = 4  # past this, send the file: pasting more messages than that is no longer a chat
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
_LABEL = re.compile(  # a BEGIN or END line's label, wherever it stands in a line
    r"BEGIN SPITE TURN (?:[1-9][0-9]?/[1-9][0-9]? )?[A-Z2-7]{5}|END SPITE TURN (?:[1-9][0-9]?/[1-9][0-9]? )?[A-Z2-7]{5} [A-Z2-7]{6}"
)
_BODY = re.compile(r"[A-Za-z0-9+/]*")
_QUOTE = re.compile(r"^\s*+(?:[>|]\s?+)++")  # applied to one line at a time
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


def body_lines(chars: int) -> int:
    """The lines of code a part holds when it may take `chars` characters: with its BEGIN and END lines, and even when a
    clipboard or chat ends every line in CRLF (a chat that counts two characters for a line break takes it too)."""
    lines = (chars - _FRAME) // (LINE + 2)
    if lines < 1:
        raise ValueError(f"a part of {chars} characters holds no line of code")
    return lines


def encode(save: SaveFile, chars: int = PART_CHARS) -> list[str]:
    """The parts of `save`'s turn code, each a text of at most `chars` characters; any number of them (at most 99)."""
    return encode_turn(carried(save), chars)


def encode_turn(turn: Mapping[str, Any], chars: int = PART_CHARS) -> list[str]:
    """The parts of the turn code that carries `turn` as it is (plain data: what :func:`carried` makes of a save), each a
    text of at most `chars` characters; CodeError if it would take more parts than a BEGIN line can number."""
    raw = deflate(turn, _ZDICT)
    body = base64.b64encode(raw).decode("ascii").rstrip("=")
    tag = _base32(crypto_hash_sha256(raw))[:5]
    size = LINE * body_lines(chars)
    chunks = [body[i : i + size] for i in range(0, len(body), size)]
    if len(chunks) > MOST_LABELLED:
        raise CodeError(_too_many(len(chunks), chars, MOST_LABELLED))
    parts = []
    for k, chunk in enumerate(chunks, start=1):
        label = f"{k}/{len(chunks)} {tag}" if len(chunks) > 1 else tag
        lines = [chunk[i : i + LINE] for i in range(0, len(chunk), LINE)]
        parts.append("\n".join([f"BEGIN SPITE TURN {label}", *lines, f"END SPITE TURN {label} {_check(label, chunk)}"]))
    return parts


def armor(save: SaveFile, chars: int = PART_CHARS) -> list[str]:
    """The parts of `save`'s turn code, of at most `chars` characters each; CodeError when it would take more than
    MAX_PARTS messages."""
    parts = encode(save, chars)
    if len(parts) > MAX_PARTS:
        raise CodeError(_too_many(len(parts), chars, MAX_PARTS))
    return parts


def _too_many(n: int, chars: int, most: int) -> str:
    """What to say when a turn's code would take `n` messages of `chars` characters, more than `most`."""
    too_many = ngettext(
        # TRANSLATORS: {chars} is a number of characters, as 2,000; {most} the most messages a code may take (4)
        "this turn's code would take {n} message of {chars} characters (at most {most}): send the file instead",
        "this turn's code would take {n} messages of {chars} characters (at most {most}): send the file instead",
        n,
    )
    return too_many.format(n=n, chars=f"{chars:,}", most=most)


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
    marked = _MARK.search(plain) is not None
    # a code joined onto one line and re-wrapped may have its BEGIN and END lines broken anywhere: they show without spaces
    together = "" if marked else flat(plain)
    if marked or _JOINED_MARK.search(together):
        lines = [piece for line in plain.split("\n") for piece in _code_lines(line)]
        if any(_BEGIN.search(line) for line in lines):
            return _read_code(lines)
        joined = _joined(lines)
        if joined:
            return _one_code(joined)
        if any(_END.search(line) for line in lines):
            raise CodeError(_(_LOST_BEGIN))
        if not marked and not _SAVE_MARK.search(plain):  # its BEGIN and END lines broken, and no part of it whole
            raise CodeError(_lost(1, 1, damaged=True) if _JOINED_BEGIN in together else _(_LOST_BEGIN))
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


_LOST_BEGIN = N_("the turn code has lost its BEGIN SPITE line: copy it again from the chat, every line from BEGIN SPITE to END SPITE")


# A line of code (64 characters, or a re-wrapped piece of one), read as a save's marks are (pbm/transport/aswritten.py):
# from a line's start, its runs of whitespace ([^\S\n]: any but a newline) within that line, else cubic in blank text.
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
        self._joined = _Joined()  # the same lines run together: a code re-wrapped inside its BEGIN and END lines
        self._tags: dict[str, tuple[set[int], set[int]]] = {}  # each tag's totals, and its numbers with a good part
        self._counted = [0, 0]  # parts of self._parts and of self._joined counted in self._tags
        self._incomplete: set[str] = set()  # the tags that lack a part
        self._news: str | None = None  # the tag of a good part the last line completed
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
                self._joined.add("".join(piece.split()))
        self._whole = self._read_whole()
        return self._whole

    def awaited(self) -> tuple[list[int], int, int] | None:
        """Once after a line that completed a part of a code whose other parts are still to come: the numbers of its parts
        read, how many it has, and the first still to paste (what to tell the player who pastes one part at a time)."""
        tag, self._news = self._news, None
        if tag is None or tag not in self._incomplete:
            return None
        totals, good = self._tags[tag]
        if len(totals) != 1:
            return None
        total = next(iter(totals))
        missing = [n for n in range(1, total + 1) if n not in good]
        return (sorted(good), total, missing[0]) if missing and good else None

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
        found, joined = self._parts.parts, self._joined.parts
        new = found[self._counted[0] :] + joined[self._counted[1] :] if self._counted != [len(found), len(joined)] else []
        self._counted = [len(found), len(joined)]
        for part in new:
            totals, good = self._tags.setdefault(part.tag, (set(), set()))
            totals.add(part.total)
            if part.chunk is not None:
                good.add(part.number)
                self._news = part.tag
            if len(totals) == 1 and good.issuperset(range(1, part.total + 1)):
                self._incomplete.discard(part.tag)
            else:
                self._incomplete.add(part.tag)
        began = self._parts.open
        if began is not None and (began.tag in self._incomplete or self._tags.get(began.tag, ({0},))[0] != {began.total}):
            return False
        return bool(self._tags) and not self._incomplete


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


# A code joined onto one line and then re-wrapped by a chat (at 60 columns, say) has breaks inside its BEGIN and END lines
# and its code, with or without the spaces that stood there: read with every whitespace gone, its lines run together as
# BEGINSPITETURN1/2ABCDE<code>ENDSPITETURN1/2ABCDEFGHIJK. Its marks are literal, so each search is linear.
_JOINED_BEGIN = "BEGINSPITETURN"
_JOINED_KEEP = len(_JOINED_BEGIN) - 1  # characters at the end of a piece kept for the next search: a mark cut there
_JOINED_NUMBER = re.compile(r"([1-9][0-9]?)/")
_TOTAL = (re.compile(r"[1-9]"), re.compile(r"[1-9][0-9]"))
_TAG = re.compile(r"[A-Z2-7]{5}")
_CHECK = re.compile(r"[A-Z2-7]{6}")


class _Reading(NamedTuple):
    """One way to read the start of a part whose spaces are gone: its number, total and tag, where its code starts, and its
    label as the END line spells it without spaces."""

    number: int
    total: int
    tag: str
    start: int
    label: str


def _readings(head: str) -> list[_Reading]:
    """The ways `head` (what follows BEGIN SPITE TURN, spaces gone) starts with a part's label: one, or two when the total's
    second digit could be the tag's first (1/23ABCD: part 1 of 2, tag 3ABCD, or of 23, tag ABCD and a letter of code)."""
    number = _JOINED_NUMBER.match(head)
    if number is None:
        return [_Reading(1, 1, head[:5], 5, head[:5])] if _TAG.fullmatch(head, 0, 5) else []
    found = []
    for total in _TOTAL:
        digits = total.match(head, number.end())
        if digits is not None and _TAG.fullmatch(head, digits.end(), digits.end() + 5):
            start = digits.end() + 5
            found.append(_Reading(int(number[1]), int(digits[0]), head[digits.end() : start], start, head[:start]))
    return found


class _Joined:
    """The parts of turn codes in text given a piece at a time with every whitespace gone (quote prefixes too). A part is
    taken only when its END line and its checksum hold: a reading of a label that does not is never taken for a part."""

    def __init__(self) -> None:
        self.parts: list[_Part] = []
        self._text = ""  # the text from self._at on is not settled yet: a few characters, but for an END line being read
        self._at = 0
        self._code: list[str] | None = None  # a part begun: what followed its BEGIN mark so far (its label, then its code)
        self._head = ""  # at its END mark, all of it
        self._open: list[_Reading] | None = None  # at its END mark, the readings of its label not tried yet

    def add(self, piece: str) -> None:
        """Take the next piece of text (without whitespace)."""
        text = self._text[self._at :] + piece
        if self._code is None and _JOINED_BEGIN not in text:  # no part begun, none begins: keep what may start a mark
            self._text, self._at = text[-_JOINED_KEEP:], 0
            return
        self._text, self._at = text, 0
        self._settle(final=False)

    def end(self) -> list[_Part]:
        """Every part whose END line and checksum hold, once the last piece came."""
        self._settle(final=True)
        return self.parts

    def _settle(self, final: bool) -> None:
        text = self._text
        while True:
            if self._code is None:
                found = text.find(_JOINED_BEGIN, self._at)
                if found < 0:
                    self._at = len(text) if final else max(self._at, len(text) - _JOINED_KEEP)
                    return
                self._code, self._at = [], found + len(_JOINED_BEGIN)
                continue
            if self._open is None:
                mark = _JOINED_MARK.search(text, self._at)
                if mark is None:
                    if final:  # never ended: cut (the line reader names it)
                        self._code, self._at = None, len(text)
                        return
                    kept = max(self._at, len(text) - _JOINED_KEEP)
                    self._code.append(text[self._at : kept])
                    self._at = kept
                    return
                self._code.append(text[self._at : mark.start()])
                if mark[1] == "BEGIN":  # another part began before this one ended: this one is cut
                    self._code, self._at = None, mark.start()
                    continue
                self._at = mark.end()
                self._head = "".join(self._code)
                self._open = _readings(self._head)
            took = self._close(text, final)
            if took is None:
                return
            self._at += took
            self._code, self._open, self._head = None, None, ""

    def _close(self, text: str, final: bool) -> int | None:
        """At the open part's END mark (its END line follows self._at): the characters of the END line taken when a reading
        of the label holds (the part is then taken), 0 when none does, None while one waits for more text."""
        assert self._open is not None
        waiting = []
        for reading in self._open:
            end = self._at + len(reading.label) + 6
            if len(text) < end and not final:
                waiting.append(reading)
                continue
            check = text[end - 6 : end]
            if text.startswith(reading.label, self._at) and _CHECK.fullmatch(check):
                chunk = self._head[reading.start :]
                label = f"{reading.number}/{reading.total} {reading.tag}" if reading.total > 1 else reading.tag
                if _BODY.fullmatch(chunk) and _check(label, chunk) == check:
                    self.parts.append(_Part(reading.number, reading.total, reading.tag, chunk))
                    return end - self._at
        self._open = waiting
        return None if waiting else 0


def _joined(lines: list[str]) -> list[_Part]:
    """The parts :class:`_Joined` finds in `lines` (quote prefixes gone) run together without whitespace."""
    joined = _Joined()
    joined.add("".join("".join(lines).split()))
    return joined.end()


def _read_code(lines: list[str]) -> TurnCode:
    """The one turn code in `lines` (quote prefixes gone); the newest of a match if several, each part found by its BEGIN
    line, or, where its lines were broken elsewhere (a code joined onto one line, then re-wrapped), in the text joined."""
    found = _Parts()
    for line in lines:
        found.add(line)
    parts = found.end()
    try:
        return _one_code(parts)
    except SpiteError:
        joined = _joined(lines)  # only now: an intact code never pays for it
        if not joined:
            raise
        return _one_code(parts + joined)


def _one_code(parts: list[_Part]) -> TurnCode:
    """The one turn code `parts` make (the newest of a match if several), or the error of the last code that is not whole."""
    if not parts:
        raise CodeError(_(_LOST_BEGIN))
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
