"""Reading what an IMAP server answers about spite mail read elsewhere (pbm/transport/imapread.py): spite's own headers as
servers give them back (folded, in any case), and whatever else a server or a stranger's mail holds, in linear time."""

from __future__ import annotations

import time
from email.utils import make_msgid

import pytest

from pbm.saves import MAX_SEQ
from pbm.transport.imapread import ReadMail, read_spite_mail

MATCH = "3342e18fcafebeef0011223344556677"


def fields(match: str, message_id: str) -> bytes:
    return f"X-Spite-Match: {match}\r\nMessage-ID:\r\n {message_id}\r\n\r\n".encode()  # folded, as a long one is


def server(*items: bytes, seen: bytes = b"4 7") -> object:
    """A UID command's answers, as imaplib gives them: a SEARCH, then a FETCH of one tuple per message."""

    def uid(command: str, *args: str) -> list[object]:
        if command == "search":
            return [seen]
        return [x for i, item in enumerate(items) for x in ((f"{i} (UID {i} BODY[...] {{9}}".encode(), item), b")")]

    return uid


def test_spites_headers_give_the_match_and_save_number() -> None:
    mail = fields(MATCH, make_msgid(f"spite.{MATCH[:8]}.5", domain="spite.test"))
    assert read_spite_mail(server(mail), set(), None) == [ReadMail(MATCH, 5)]
    upper = mail.replace(b"X-Spite-Match", b"x-spite-match").replace(MATCH.encode(), MATCH.upper().encode())
    assert read_spite_mail(server(upper), set(), None) == [ReadMail(MATCH, 5)]


@pytest.mark.parametrize(
    ("looked", "since", "searched"),
    [({4}, None, ["7"]), (set(), 5, ["4"]), ({4, 7}, None, [])],
    ids=["fetched-this-look", "after-the-last-look", "every-one-fetched"],
)
def test_only_mail_no_look_fetched_is_asked_for(looked: set[int], since: int | None, searched: list[str]) -> None:
    asked: list[str] = []

    def uid(command: str, *args: str) -> list[object]:
        if command == "search":
            return [b"4 7"]
        asked.extend(args[0].split(","))
        return []

    read_spite_mail(uid, looked, since)
    assert asked == searched


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (fields(MATCH, "<1.2.spite.3342e18f.0@x>"), ReadMail(MATCH, None)),  # no save 0
        (fields(MATCH, f"<1.2.spite.3342e18f.{MAX_SEQ + 1}@x>"), ReadMail(MATCH, None)),  # past the largest
        (fields(MATCH, "<1.2.spite.3342e18f.1234567890123456@x>"), ReadMail(MATCH, None)),  # 16 digits
        (fields(MATCH, "<1.2.spite.deadbeef.5@x>"), ReadMail(MATCH, None)),  # another match's number
        (fields(MATCH, "<rewritten@mail.example>"), ReadMail(MATCH, None)),  # a server's own Message-ID
        (fields(MATCH[:-1], "<1.spite.3342e18f.5@x>"), None),  # not a match id
        (fields("../../etc", "<1.spite.3342e18f.5@x>"), None),
        (b"Subject: lunch\r\n\r\n", None),
        (b"", None),
    ],
)
def test_what_is_not_spites_own_is_read_as_nothing_or_no_number(header: bytes, expected: ReadMail | None) -> None:
    assert read_spite_mail(server(header), set(), None) == ([expected] if expected else [])


def test_a_huge_or_strange_answer_is_read_in_linear_time() -> None:
    junk = [b"Message-ID: <" + b"a." * 200_000, b"X-Spite-Match: " + b"ab" * 200_000, b"\r\n \t" * 100_000, b"\xff" * 400_000]
    for item in junk:
        start = time.perf_counter()
        assert read_spite_mail(server(item), set(), None) == []
        assert time.perf_counter() - start < 1.0
