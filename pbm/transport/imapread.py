"""Reading an IMAP server's answers for the inbox: the sizes a FETCH gives, and the spite mail a look passed over because
it was read already (on a phone, say), which ``spite inbox`` counts so that "no new spite mail" is not all it says.

What a server answers is outside text: every pattern here is linear in it, and every number is range-checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from engine._frozen import frozen_value
from pbm.home import is_match_id
from pbm.saves import MAX_SEQ  # 2**48: 15 digits

CHUNK = 500  # UIDs per FETCH: a command line of a few KB, as servers take


def uid_sizes(text: bytes) -> Iterator[tuple[int, int]]:
    """The (UID, size) pairs of a FETCH (RFC822.SIZE) answer, whichever order the server gives the two in."""
    for item in re.findall(rb"\(([^()]*)\)", text):
        fields = dict(re.findall(rb"(UID|RFC822\.SIZE) (\d+)", item))
        if b"UID" in fields and b"RFC822.SIZE" in fields:
            yield int(fields[b"UID"]), int(fields[b"RFC822.SIZE"])


@frozen_value(slots=False)
class ReadMail:
    """A spite mail read before spite looked at it: its match, and its save number when its Message-ID tells it."""

    match: str
    seq: int | None


# The headers spite writes on every mail it sends (pbm/transport/mail.py, compose): the match, and a Message-ID whose
# id-string is spite.<first 8 of the match>.<save number>
_MATCH = re.compile(rb"^X-Spite-Match:[ \t]*([0-9a-fA-F]{16,64})[ \t]*\r?$", re.MULTILINE | re.IGNORECASE)
_MESSAGE_ID = re.compile(rb"^Message-ID:[ \t]*<[^<>\r\n]*\.spite\.([0-9a-f]{8})\.([0-9]{1,15})@[^<>\r\n]*>", re.MULTILINE | re.IGNORECASE)


def read_spite_mail(uid: Callable[..., list[object]], looked: set[int], since: int | None) -> list[ReadMail]:
    """The spite mail of the INBOX flagged seen that this look did not fetch (the `looked` UIDs) and no earlier look
    fetched either (UIDs up to `since`, the last look's end; every one when there was none): read elsewhere first.

    `uid` runs a UID command and returns its answer (MailError if the server refuses it).
    """
    found = uid("search", "SEEN", "HEADER", "X-Spite-Match", '""')
    uids = [int(x) for x in b" ".join(x for x in found if isinstance(x, bytes)).split() if x.isdigit() and len(x) <= 10]
    uids = [u for u in uids if u not in looked and (since is None or u <= since)]
    read: list[ReadMail] = []
    for i in range(0, len(uids), CHUNK):
        answer = uid("fetch", ",".join(map(str, uids[i : i + CHUNK])), "(BODY.PEEK[HEADER.FIELDS (X-SPITE-MATCH MESSAGE-ID)])")
        for item in answer:  # (b'7 (UID 9 BODY[HEADER.FIELDS ...] {89}', b'the fields'), then b' UID 9)' or b')'
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                mail = _read_mail(item[1])
                if mail is not None:
                    read.append(mail)
    return read


def _read_mail(fields: bytes) -> ReadMail | None:
    """The match and save number in a FETCH item's header fields, or None when they name no match."""
    fields = re.sub(rb"\r?\n[ \t]+", b" ", fields)  # unfolded: a long Message-ID goes on in the next line
    match = _MATCH.search(fields)
    if match is None:
        return None
    match_id = match.group(1).decode("ascii").lower()
    if not is_match_id(match_id):
        return None
    seq = None
    message_id = _MESSAGE_ID.search(fields)
    if message_id is not None and message_id.group(1).decode("ascii").lower() == match_id[:8]:
        number_said = int(message_id.group(2))  # at most 15 digits, as the pattern reads them
        seq = number_said if 1 <= number_said <= MAX_SEQ else None
    return ReadMail(match_id, seq)
