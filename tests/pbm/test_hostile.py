"""Hostile saves signed with the sender's real key: every field of the save, every node of its protocol message.

Property tests (hypothesis) over a real match: each file of it, edited as a cheating opponent's own
program could and signed again, is offered to its receiver exactly as `spite play` opens it. A save-level
edit must be refused by the save's schema, naming the field; a protocol-message edit must be refused
with a SpiteError (one line, exit 1), by pbm/protocol/'s typed messages or its checks of what a file owes.
Hostile texts (each once read in time in the square of its size, blank ones in its cube) must be refused in one
line, pasted or mailed. The turn a turn code carries, edited the same way (numbers at the edges of 64 bits among
the values) and signed again, must be refused pasted (`spite play -`) and through the inbox (`spite inbox`, then
`inbox --play`). The slow campaign behind the README's fuzz figures runs the same edits and texts
(benchmarks/fuzz_saves.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import scratch
from hostile import (
    BLANK_TEXTS,
    EDGES,
    HOSTILE_TEXTS,
    Edit,
    Offer,
    Receiver,
    around,
    attached,
    campaign,
    code_edits,
    coded,
    mail_of,
    message_edits,
    play_match,
    save_edits,
    sign_doc,
    with_carry,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.errors import SaveFormatError, SpiteError
from pbm.transport import code


@dataclass
class Match:
    offers: list[Offer]
    receiver: Receiver

    def edited(self, offer: Offer, edit: Edit) -> bytes:
        """`offer`'s file with `edit` made, its sides packed again against a changed message, signed again by its sender."""
        doc = edit.apply(offer.doc)
        if edit.place[:2] == ("protocol", "message"):
            doc = with_carry(doc, offer.save)
        return sign_doc(doc, offer.sender, turn=edit.place[:1] != ("turn_signature",))


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Match]:
    """One whole match to 1 point (the deal, every kind of turn, the keys returned at the end), and its receivers."""
    with scratch(tmp_path_factory.mktemp("hostile")) as root:
        offers = play_match(root, payoff=4, target=1)
        receiver = Receiver(root)
        yield Match(offers, receiver)
        receiver.close()


@st.composite
def offered(draw: st.DrawFn, match: Match, edits: Callable[[Offer], list[Edit]]) -> tuple[Offer, Edit]:
    offer = draw(st.sampled_from(match.offers))
    return offer, draw(st.sampled_from(edits(offer)))


def _save_edits(offer: Offer) -> list[Edit]:
    return list(save_edits(offer.doc))


def _message_edits(offer: Offer) -> list[Edit]:
    return list(message_edits(offer.doc["protocol"]["message"]))


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def test_the_untouched_files_are_accepted(match: Match) -> None:
    """The control: the edits are refused for being edits, not because the receiver could not take these files at all."""
    for offer in match.offers:
        match.receiver.open(offer, offer.data)
        match.receiver.open(offer, sign_doc(offer.doc, offer.sender))  # signed again, unchanged: the same save
    assert set().union(*(o.sections() for o in match.offers)) == {"deal", "turn", "secrets"}


@SETTINGS
@given(data=st.data())
def test_every_save_field_edit_is_refused_naming_the_field(match: Match, data: st.DataObject) -> None:
    offer, edit = data.draw(offered(match, _save_edits), label="edit")
    with pytest.raises(SaveFormatError) as refusal:
        match.receiver.open(offer, match.edited(offer, edit))
    assert (refusal.value.field or "").startswith(edit.where), (str(edit), str(refusal.value))
    assert len(str(refusal.value)) < 200


@SETTINGS
@given(data=st.data())
def test_every_protocol_message_edit_is_refused(match: Match, data: st.DataObject) -> None:
    offer, edit = data.draw(offered(match, _message_edits), label="edit")
    with pytest.raises(SpiteError):
        match.receiver.open(offer, match.edited(offer, edit))


def _code_edits(offer: Offer) -> list[Edit]:
    return list(code_edits(code.carried(offer.save)))


def test_the_untouched_turn_codes_are_taken_pasted_and_through_the_inbox(match: Match) -> None:
    """The control of the code edits: each file's own turn code reads as its turn, pasted and mailed (kept, then played)."""
    for offer in match.offers:
        text = "\n\n".join(code.encode(offer.save))
        assert match.receiver.paste(offer, text.encode()).hash == offer.save.hash
        taken, opened = match.receiver.inbox(offer, mail_of(text))
        assert [t.what.value for t in taken] == ["kept"] and opened is not None and opened.hash == offer.save.hash


@SETTINGS
@given(data=st.data())
def test_every_turn_code_edit_is_refused_pasted_and_through_the_inbox(match: Match, data: st.DataObject) -> None:
    """The turn a code carries, each label or node of its message changed (to a number at the edges of 64 bits, among
    others) and signed again: refused in one line pasted, and through the inbox either not kept or refused when played."""
    offer, edit = data.draw(offered(match, _code_edits), label="edit")
    text = coded(offer, edit)
    with pytest.raises(SpiteError) as refused:
        match.receiver.paste(offer, text.encode())
    assert "\n" not in str(refused.value)
    try:
        taken, opened = match.receiver.inbox(offer, mail_of(text))
    except SpiteError:
        return  # kept, for its signature holds; refused when played
    assert opened is None and all("\n" not in str(t.why) for t in taken), (str(edit), taken)


@pytest.mark.parametrize("number", EDGES)
@pytest.mark.parametrize("label", ["seq", "game", "turn", "signer"])
def test_a_turn_code_numbered_at_the_edges_of_64_bits_is_refused_pasted_and_through_the_inbox(
    match: Match, label: str, number: int
) -> None:
    """2**63 and -2**63 as the save number overflowed SQLite before the code's schema was checked (issue 33)."""
    offer = match.offers[3]
    edit = Edit((label,), "value", number)
    text = coded(offer, edit)
    with pytest.raises(SpiteError):
        match.receiver.paste(offer, text.encode())
    taken, opened = match.receiver.inbox(offer, mail_of(text))
    assert opened is None and all(t.what.value == "refused" for t in taken)


@pytest.mark.parametrize("section", ["deal", "secrets"])
def test_a_file_that_leaves_out_what_it_owes_is_refused(match: Match, section: str) -> None:
    """A deal step, or a game's keys, left out of the file that owes them: once accepted, now refused."""
    offer, edit = next(
        (o, e) for o in match.offers for e in _message_edits(o) if e.place == ("protocol", "message", section) and e.how == "missing"
    )
    with pytest.raises(SpiteError, match=r"leaves out|carries nothing"):
        match.receiver.open(offer, match.edited(offer, edit))


@pytest.mark.parametrize("name", HOSTILE_TEXTS)
def test_a_hostile_text_as_long_as_the_reader_takes_is_refused_in_one_line(match: Match, name: str) -> None:
    """Each text that the tolerant reader once took time for in the square of its size (20 s at 32 KiB, minutes at this size)."""
    with pytest.raises(SpiteError) as refused:
        match.receiver.paste(match.offers[-1], HOSTILE_TEXTS[name](code.MAX_INPUT))
    assert str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("name", HOSTILE_TEXTS)
def test_a_hostile_text_pasted_at_a_terminal_is_read_whole_once_at_most(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Line by line, as `spite play -` takes a paste: each line is looked at once, not the whole text again (minutes at 32 KiB)."""
    reads: list[int] = []
    read = code.read
    monkeypatch.setattr(code, "read", lambda data: reads.append(len(data)) or read(data))
    pasted = code.Pasted()
    lines = HOSTILE_TEXTS[name](code.MAX_INPUT).decode("utf-8", errors="ignore").splitlines(keepends=True)
    assert not [line for line in lines if pasted.add(line)] and pasted.size == sum(map(len, lines))
    assert len(reads) <= 1


# the texts that hold no save's first line and no turn code: around them the file is what the reader finds
@pytest.mark.parametrize("name", [name for name, text in HOSTILE_TEXTS.items() if b"SPITE" not in text(99).upper()])
def test_a_file_re_wrapped_between_hostile_texts_reads_as_itself(match: Match, name: str) -> None:
    """The longest file of the match, re-wrapped by a chat client between two hostile texts that fill the read limit."""
    offer = max(match.offers, key=lambda o: len(o.data))
    text = around(offer.data, name, 44)
    assert len(text) > code.MAX_INPUT - 100
    taken = match.receiver.paste(offer, text)
    assert taken == offer.save and taken.hash == offer.save.hash


@pytest.mark.parametrize("name", BLANK_TEXTS)
def test_blank_text_is_refused_in_time_in_proportion_to_its_size(match: Match, name: str) -> None:
    """Blank and near-blank text at the read limit (the reader once took it in the cube of its size: hours at this size)."""
    started = time.process_time()
    with pytest.raises(SpiteError) as refused:
        match.receiver.paste(match.offers[-1], BLANK_TEXTS[name](code.MAX_INPUT))
    assert time.process_time() - started < 5 and "\n" not in str(refused.value)
    started = time.process_time()
    taken, opened = match.receiver.inbox(match.offers[-1], attached(BLANK_TEXTS[name](code.MAX_INPUT)))
    assert (taken, opened) == ([], None) and time.process_time() - started < 5  # passed over: no turn in it


def test_a_blank_attachment_is_passed_over_by_the_inbox_at_once(match: Match) -> None:
    """A mail whose .toml attachment is 8,000 newlines: `spite inbox` was still running at 40 s (issue 33)."""
    started = time.process_time()
    taken, opened = match.receiver.inbox(match.offers[-1], attached(b"\n" * 8000))
    assert (taken, opened) == ([], None) and time.process_time() - started < 2


@pytest.mark.slow
def test_the_fuzz_campaign_has_no_traceback_and_accepts_nothing_changed(tmp_path: Path) -> None:
    """The README's fuzz figures, as a test: 5,000 inputs of each kind over a longer match, 1,000 of the turn codes also
    through the inbox (benchmarks/fuzz_saves.py prints them)."""
    with scratch(tmp_path) as root:
        offers = play_match(root, payoff=5, target=5)
        receiver = Receiver(root)
        try:
            tallies = campaign(offers, receiver, 5000, seed=10, inbox=1000)
        finally:
            receiver.close()
    for kind, tally in tallies.items():
        assert tally.tried == tally.refused + tally.same + len(tally.accepted) + tally.tracebacks
        assert not [(where, str(edit)) for where, edit in tally.crashed], kind
        assert not [str(edit) for edit in tally.accepted], kind
