"""Save files: strict parsing, signatures over canonical payloads, hashes, atomic writes."""

from __future__ import annotations

import base64
import dataclasses
import os
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import G4A, Ruleset
from pbm import packing, saves
from pbm.canonical import canonical
from pbm.errors import BadSignatureError, SaveFormatError, TooLargeError, UnknownKeyError, UnsupportedFormatError
from pbm.identity import Identity
from pbm.saves import Player, SaveFile, TurnRecord


def table(stock: int = 54) -> dict[str, Any]:
    """A public table as a save states it (pbm/table.py): two cards on the first center stack, one on a side stack."""
    return {
        "turn": 2,
        "to_move": 1,
        "starter": 0,
        "stock": stock,
        "center": [[0, 14], [], []],
        "pools": [],
        "players": [
            {"hand": 5, "payoff": 19, "top": 30, "side": [[8], [], [], []]},
            {"hand": 4, "payoff": 20, "top": 12, "side": [[], [], [], []]},
        ],
    }


def make(alice: Identity, bob: Identity, **changes: object) -> SaveFile:
    base = SaveFile(
        match="00112233445566778899aabbccddeeff",
        seq=3,
        game=1,
        turn=1,
        prev="ab" * 32,
        rules=G4A,
        players=(Player(alice.name, alice.public_text), Player(bob.name, bob.public_text)),
        score=(0, 12),
        state=table(),
        history=(TurnRecord(0, "p-c1 7-c2 Q-s2"),),
        protocol={"message": {"epoch": 2, "points": ["00" * 32, "11" * 32], "note": "héllo ♥"}, "carry": "eNqLjgUAARUAuQ"},
        secrets={0: "c2VjcmV0", 1: "b3RoZXI"},
    )
    return dataclasses.replace(base, **changes)


@pytest.fixture()
def signed(people: tuple[Identity, Identity, Identity]) -> SaveFile:
    alice, bob, _ = people
    return saves.sign(make(alice, bob), alice)


def toml_text(save: SaveFile) -> str:
    return saves.to_toml(save).decode()


# --- round trips ---


def test_round_trip_keeps_every_field_signature_and_hash(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    back = saves.parse(saves.to_toml(signed))
    assert back == signed
    assert back.hash == signed.hash
    saves.verify(back, people[0].public_text)
    assert back.signer == 0


def test_signer_is_the_seat_of_the_signing_key(people: tuple[Identity, ...]) -> None:
    alice, bob, mallory = people
    save = saves.sign(make(alice, bob), bob)
    assert save.signer == 1
    saves.verify(saves.parse(saves.to_toml(save)), bob.public_key)
    with pytest.raises(UnknownKeyError, match="not a player"):
        saves.sign(make(alice, bob), mallory)


def test_signature_ignores_toml_layout(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    text = toml_text(signed)
    relaid = "# a comment someone added\n" + text.replace(" = ", "   =   ").replace('"spite-save"', "'spite-save'")
    back = saves.parse(relaid.encode())
    saves.verify(back, people[0].public_text)
    assert back.hash == signed.hash


def test_hash_chains_and_is_the_turns_with_its_signature(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    nxt = saves.sign(make(alice, bob, seq=4, turn=2, prev=signed.hash), bob)
    assert nxt.prev == signed.hash
    assert len(signed.hash) == 64
    assert signed.hash != dataclasses.replace(signed, turn_signature=nxt.turn_signature).hash
    turn = {**saves.turn_payload(signed), "signature": signed.turn_signature}
    assert signed.hash == __import__("hashlib").sha256(canonical(turn)).hexdigest()
    assert turn["format"] == "spite-turn" and turn["message"] == signed.protocol["message"] and turn["prev"] == signed.prev


def test_the_turn_signature_covers_the_turn_and_not_what_the_receiver_keeps(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    """A turn code carries the turn: the same turn with another table, carry or secrets is the same save to the journal."""
    alice = people[0]
    protocol = {**signed.protocol, "message": {"turn": {"moves": "p-c1"}}}
    with_message = saves.sign(dataclasses.replace(signed, protocol=protocol), alice)
    other_rest = saves.sign(dataclasses.replace(with_message, state={}, secrets={0: "b3RoZXI"}, history=()), alice)
    assert other_rest.hash == with_message.hash and other_rest.turn_signature == with_message.turn_signature
    assert other_rest.signature != with_message.signature
    as_code = dataclasses.replace(other_rest, signature="", partial=True)  # what a turn code of it stands for
    saves.verify(as_code, alice.public_text)
    assert as_code.hash == with_message.hash
    for change in ({"score": (1, 12)}, {"prev": "cd" * 32}, {"game": 2}, {"protocol": {"message": {"turn": {"moves": "p-c2"}}}}):
        changed = dataclasses.replace(as_code, **change)
        assert changed.hash != with_message.hash, change
        with pytest.raises(BadSignatureError):
            saves.verify(changed, alice.public_text)


def test_first_save_has_empty_prev_and_no_null_anywhere(people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    first = saves.sign(make(alice, bob, seq=1, turn=0, prev="", history=(), state={}, protocol={}, secrets={}), alice)
    back = saves.parse(saves.to_toml(first))
    assert back == first and back.prev == ""
    with pytest.raises(SaveFormatError, match="prev"):
        make(alice, bob, seq=1)
    with pytest.raises(SaveFormatError, match="prev"):
        make(alice, bob, seq=2, prev="")


def test_canonical_encoding_is_rfc8785_style() -> None:
    assert (
        canonical({"b": 1, "a": [True, False, "x"], "é": {"z": "\n\u2028"}})
        == '{"a":[true,false,"x"],"b":1,"é":{"z":"\\n\u2028"}}'.encode()
    )
    # RFC 8785 sorts keys by UTF-16 code units: U+FF5E sorts after U+1F600's surrogates, unlike code points
    assert canonical({"\uff5e": 1, "\U0001f600": 2}) == '{"\U0001f600":2,"\uff5e":1}'.encode()
    with pytest.raises(SaveFormatError, match="floating-point"):
        canonical({"a": [1.5]})


toml_values = st.recursive(
    st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(message=st.dictionaries(st.text(max_size=6), toml_values, max_size=4), stock=st.integers(0, 2**53 - 1))
def test_any_plain_protocol_message_and_any_table_round_trip(people: tuple[Identity, ...], message: dict, stock: int) -> None:
    alice, bob, _ = people
    save = saves.sign(make(alice, bob, state=table(stock), protocol={"message": message}), alice)
    back = saves.parse(saves.to_toml(save))
    assert back == save
    saves.verify(back, alice.public_text)


# --- refusals: format and size ---


def test_too_big_is_refused_before_anything_else() -> None:
    with pytest.raises(TooLargeError, match=f"{saves.MAX_BYTES // 1024} KiB"):
        saves.parse(b"\xff" * (saves.MAX_BYTES + 1))
    with pytest.raises(TooLargeError):
        saves.parse(b'format = "other"\n' + b"#" * saves.MAX_BYTES)


def test_writing_a_too_big_save_is_refused(people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    save = saves.sign(make(alice, bob, protocol={"message": {"blob": "x" * saves.MAX_BYTES}}), alice)
    with pytest.raises(TooLargeError):
        saves.to_toml(save)


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02garbage", b"hello world", b"[[[", "\u00e9".encode("latin-1")])
def test_garbage_is_not_a_save(data: bytes) -> None:
    with pytest.raises(SaveFormatError, match="not a spite save"):
        saves.parse(data)


def test_truncated_file_is_refused(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    data = saves.to_toml(signed)
    for cut in range(0, data.index(b"\n# end of spite save"), 7):  # the last line is a comment: without it the save is whole
        # TOML has no end marker: a cut between two fields parses, and then the signature fails.
        with pytest.raises((SaveFormatError, BadSignatureError)):
            saves.verify(saves.parse(data[:cut]), people[0].public_text)


def test_unknown_format_or_version_is_unsupported(signed: SaveFile) -> None:
    text = toml_text(signed)
    with pytest.raises(UnsupportedFormatError, match="version 3"):
        saves.parse(text.replace("version = 2", "version = 3").encode())
    with pytest.raises(UnsupportedFormatError, match="no longer reads it"):
        saves.parse(text.replace("version = 2", "version = 1").encode())
    with pytest.raises(UnsupportedFormatError, match="format"):
        saves.parse(text.replace('format = "spite-save"', 'format = "chess-pgn"').encode())
    with pytest.raises(SaveFormatError, match="version"):
        saves.parse(text.replace("version = 2", 'version = "2"').encode())


def test_a_float_anywhere_is_refused_naming_the_field(signed: SaveFile) -> None:
    text = toml_text(signed)
    with pytest.raises(SaveFormatError, match=r"'state\.stock'.*floating-point") as info:
        saves.parse(text.replace("stock = 54", "stock = 54.0").encode())
    assert info.value.field == "state.stock"
    with pytest.raises(SaveFormatError, match="turn"):
        saves.parse(text.replace("turn = 1", "turn = 1.0").encode())


def test_dates_are_refused(signed: SaveFile) -> None:
    text = toml_text(signed).replace("stock = 54", "stock = 1979-05-27")
    with pytest.raises(SaveFormatError, match=r"state\.stock"):
        saves.parse(text.encode())


@pytest.mark.parametrize(
    "field",
    ["match", "seq", "game", "turn", "prev", "signer", "signature", "score", "rules", "players", "state", "history", "protocol", "secrets"],
)
def test_missing_field_is_named(signed: SaveFile, field: str) -> None:
    doc = saves.payload(signed)
    del doc[field]
    with pytest.raises(SaveFormatError, match=repr(field)) as info:
        saves.parse(__import__("tomli_w").dumps(doc).encode())
    assert info.value.field == field


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("turn = 1", 'turn = "one"', "turn"),
        ("signer = 0", "signer = 2", "signer"),
        ("seq = 3", "seq = 0", "seq"),
        ("decks = 2", "decks = true", "rules.decks"),
        ("payoff_size = 20", "payoff_size = 60", "rules"),
        ('match = "00112233445566778899aabbccddeeff"', 'match = "not hex"', "match"),
        ("score = [", "extra = 1\nscore = [", "extra"),
        ('carry = "', 'extra = 1\ncarry = "', "protocol.extra"),
        ('carry = "eNqLjgUAARUAuQ"', "carry = 7", "protocol.carry"),
        ("[protocol.message]", "[protocol.message]\n[protocol.other]", "protocol.other"),
        ("king_starts_center = true", "king_starts_center = true\nextra = 1", "rules.extra"),
        ("decks = 2", "decks = 100000", "rules.decks"),
        ('[[players]]\nname = "Alice"', '[[players]]\nhat = 1\nname = "Alice"', "players[0].hat"),
        ('name = "Bob"', "name = 7", "players[1].name"),
        ("stock = 54", "stock = -1", "state.stock"),
        ("stock = 54", 'stock = "54"', "state.stock"),
        ("to_move = 1", "to_move = 2", "state.to_move"),
        ("pools = []", "pools = 3", "state.pools"),
        ("pools = []", 'pools = [{ turn = 1, cards = ["A"] }]', "state.pools[0].cards[0]"),
        ("pools = []", "pools = []\nweather = 1", "state.weather"),
        ("hand = 4", "hand = true", "state.players[1].hand"),
        ("top = 30", "top = 30\nhat = 1", "state.players[0].hat"),
        ("stock = 54", "stock = 54\noutcome = { reason = 'bored', winner = 0, points = 1 }", "state.outcome.reason"),
        ('0 = "c2VjcmV0"', '2 = "c2VjcmV0"', "secrets.2"),
        ('0 = "c2VjcmV0"', "0 = 5", "secrets.0"),
        ('1 = "b3RoZXI"', '1 = "not base64!"', "secrets.1"),
        ('history = "', 'history = "!', "history"),
    ],
)
def test_ill_typed_or_impossible_field_is_named(signed: SaveFile, old: str, new: str, field: str) -> None:
    text = toml_text(signed)
    assert old in text
    with pytest.raises(SaveFormatError) as info:
        saves.parse(text.replace(old, new, 1).encode())
    assert info.value.field == field
    assert field in str(info.value)


@pytest.mark.parametrize(
    ("turns", "field"),
    [
        ([[0, "p-c1 x-c9"]], "history[0].moves"),
        ([[3, "p-c1 7-c2 Q-s2"]], "history[0].by"),
        ([[0, ""]], "history[0].moves"),
        ([["0", "p-c1"]], "history[0]"),
        ({"by": 0, "moves": "p-c1"}, "history"),
        ("not packed at all!", "history"),
    ],
)
def test_ill_typed_or_impossible_turns_are_named(signed: SaveFile, turns: Any, field: str) -> None:
    text = toml_text(signed)
    packed = saves.pack_history(signed.history)
    assert f'history = "{packed}"' in text
    bad = turns if isinstance(turns, str) else packing.pack(turns)
    with pytest.raises(SaveFormatError) as info:
        saves.parse(text.replace(packed, bad, 1).encode())
    assert info.value.field == field
    assert field in str(info.value)


def test_the_turns_are_read_back_as_written_whatever_packs_them(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    """Another zlib may deflate the same turns into other bytes: the signature covers the text as written, not a re-packing."""
    squeeze = zlib.compressobj(1)  # not spite's level: other bytes, the same turns
    other = base64.urlsafe_b64encode(squeeze.compress(packing.to_json([[0, "p-c1 7-c2 Q-s2"]])) + squeeze.flush()).decode().rstrip("=")
    assert other != saves.pack_history(signed.history)
    unsigned = saves.parse(toml_text(signed).replace(saves.pack_history(signed.history), other, 1).encode())
    resigned = saves.parse(saves.to_toml(saves.sign(dataclasses.replace(unsigned, signature=""), people[0])))
    assert resigned.history == signed.history and f'history = "{other}"' in saves.to_toml(resigned).decode()
    saves.verify(resigned, people[0].public_text)


def test_unsigned_file_is_refused(people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    with pytest.raises(SaveFormatError, match="never signed"):
        saves.parse(saves.to_toml(make(alice, bob)))


# --- refusals: signatures ---


def test_any_change_breaks_the_signature(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    alice = people[0]
    text = toml_text(signed)
    for old, new in [
        ("stock = 54", "stock = 53"),
        ("score = [0, 12]", "score = [12, 0]"),
        (saves.pack_history(signed.history), saves.pack_history((TurnRecord(0, "p-c1 7-c2 Q-s3"),))),
        ("turn = 1", "turn = 2"),
    ]:
        assert old in text, old
        tampered = saves.parse(text.replace(old, new).encode())
        with pytest.raises(BadSignatureError, match="changed"):
            saves.verify(tampered, alice.public_text)


def test_signature_by_another_key_is_unknown_not_bad(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    alice, bob, mallory = people
    # Mallory puts her own key in Alice's seat and signs: a valid signature, but not by the pinned key.
    forged = saves.sign(dataclasses.replace(signed, players=(Player("Alice", mallory.public_text), signed.players[1])), mallory)
    back = saves.parse(saves.to_toml(forged))
    with pytest.raises(UnknownKeyError, match=mallory.fingerprint):
        saves.verify(back, alice.public_text)
    with pytest.raises(UnknownKeyError):
        saves.verify(signed, bob.public_key)


def test_signature_swapped_in_from_another_save_is_bad(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    other = saves.sign(make(alice, bob, turn=5), alice)
    with pytest.raises(BadSignatureError):
        saves.verify(dataclasses.replace(signed, signature=other.signature), alice.public_text)


# --- files ---


def test_write_atomic_replaces_whole_files(tmp_path: Path, signed: SaveFile) -> None:
    path = tmp_path / "a.toml"
    saves.write_atomic(path, b"old")
    saves.write_atomic(path, saves.to_toml(signed))
    assert saves.read(path) == signed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.toml"]
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_read_refuses_a_huge_file_and_a_missing_one(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (saves.MAX_BYTES * 4))
    with pytest.raises(TooLargeError):
        saves.read(big)
    with big.open("r+b") as f:
        f.truncate(1 << 40)  # a sparse terabyte: reading it whole would take hours, reading the limit + 1 takes nothing
    with pytest.raises(TooLargeError, match=f"more than {saves.MAX_BYTES} bytes"):
        saves.read(big)
    with pytest.raises(SaveFormatError, match="cannot read"):
        saves.read(tmp_path / "missing.toml")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_read_refuses_an_endless_input() -> None:
    with pytest.raises(TooLargeError, match=f"{saves.MAX_BYTES // 1024} KiB"):
        saves.read(Path("/dev/zero"))


def test_an_echoed_value_is_cut_short(signed: SaveFile) -> None:
    text = toml_text(signed)
    for old, new in [("turn = 1", f'turn = "{"x" * 5000}"'), ('format = "spite-save"', f'format = "{"y" * 5000}"')]:
        with pytest.raises(SaveFormatError) as info:
            saves.parse(text.replace(old, new, 1).encode())
        assert len(str(info.value)) < 200, str(info.value)
    with pytest.raises(SaveFormatError) as info:
        saves.parse(text.replace("pools = []", f"pools = []\n{'k' * 5000} = 1").encode())
    assert len(str(info.value)) < 200, str(info.value)


def test_fresh_path_never_overwrites(tmp_path: Path, signed: SaveFile) -> None:
    name = saves.default_name(signed)
    assert name == "spite-00112233-g1-t1.toml"
    incoming = tmp_path / name
    incoming.write_bytes(b"x")
    fresh = saves.fresh_path(signed, incoming)
    assert fresh.parent == tmp_path and fresh != incoming and not fresh.exists()
    assert fresh.name == "spite-00112233-g1-t1-2.toml"
    assert saves.fresh_path(signed, tmp_path / "elsewhere.toml") == incoming.with_name(fresh.name)
    other_dir = tmp_path / "d"
    other_dir.mkdir()
    assert saves.fresh_path(signed, other_dir) == other_dir / name


def test_new_match_ids_are_fresh_hex() -> None:
    a, b = saves.new_match_id(), saves.new_match_id()
    assert a != b and len(a) == 32 and int(a, 16) >= 0


def test_small_rulesets_round_trip(people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    tiny = Ruleset(name="tiny", payoff_size=5, target_score=10)
    save = saves.sign(make(alice, bob, rules=tiny), bob)
    assert saves.parse(saves.to_toml(save)).rules == tiny


@pytest.mark.parametrize("data", [b"a = " + b"[" * 16000, b"a = " + b"[" * 900 + b"]" * 900, b"a = " + b"{x=" * 3000])
def test_absurd_nesting_is_refused_not_a_crash(data: bytes) -> None:
    with pytest.raises(SaveFormatError, match="nested"):
        saves.parse(data)


def test_deep_state_is_refused_by_field(people: tuple[Identity, ...], signed: SaveFile) -> None:
    deep: list = []
    for _ in range(40):
        deep = [deep]
    text = toml_text(signed).replace("stock = 54", f"stock = {deep!r}".replace(" ", ""))
    with pytest.raises(SaveFormatError, match=r"state\.stock.*nested"):
        saves.parse(text.encode())


@pytest.mark.parametrize("name", ["signature", "turn_signature"])
def test_a_re_encoded_signature_is_refused(signed: SaveFile, people: tuple[Identity, ...], name: str) -> None:
    # 86 base64url characters carry 4 spare bits; flipping them keeps the bytes but changes the text signed or hashed.
    last = getattr(signed, name)[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    twin = alphabet[alphabet.index(last) ^ 1]
    tampered = dataclasses.replace(signed, **{name: getattr(signed, name)[:-1] + twin})
    assert saves.payload(tampered) != saves.payload(signed)
    with pytest.raises(BadSignatureError):
        saves.verify(tampered, people[0].public_text)


def test_a_save_keeps_its_own_copy_of_what_it_was_given(people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    state = table()
    save = saves.sign(
        make(alice, bob, state=state, players=[Player(alice.name, alice.public_text), Player(bob.name, bob.public_text)]), alice
    )
    state["center"][0].append(28)
    assert save.state == table()
    assert isinstance(save.players, tuple)
    saves.verify(saves.parse(saves.to_toml(save)), alice.public_text)


# --- the numbers that place a save in its match: held to what a match reaches ---


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seq", saves.MAX_SEQ + 1),
        ("seq", 2**63),
        ("seq", -(2**63)),
        ("seq", 0),
        ("game", saves.MAX_SEQ + 1),
        ("game", 2**64),
        ("turn", saves.MAX_TURN + 1),
        ("turn", -(2**63)),
    ],
)
def test_a_save_numbered_past_what_a_match_reaches_is_refused_naming_the_field(signed: SaveFile, field: str, value: int) -> None:
    """Past 2**53 - 1 a number is refused anywhere (canonical JSON); below it seq, game and turn are held to MAX_SEQ and
    MAX_TURN, before anything uses them (the journal's SQLite columns hold 2**63 - 1, no match reaches 2**48)."""
    text = toml_text(signed)
    old = f"\n{field} = {getattr(signed, field)}\n"
    assert old in text
    with pytest.raises(SaveFormatError) as info:
        saves.parse(text.replace(old, f"\n{field} = {value}\n", 1).encode())
    assert info.value.field == field and "\n" not in str(info.value)


def test_the_largest_numbers_a_match_reaches_are_read(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    save = saves.sign(dataclasses.replace(signed, seq=saves.MAX_SEQ, game=saves.MAX_SEQ, turn=saves.MAX_TURN), people[0])
    back = saves.parse(saves.to_toml(save))
    assert (back.seq, back.game, back.turn) == (saves.MAX_SEQ, saves.MAX_SEQ, saves.MAX_TURN)
    with pytest.raises(SaveFormatError, match="'turn'"):
        dataclasses.replace(signed, turn=saves.MAX_TURN + 1)  # nor can spite write one past them


def test_the_turn_limit_is_above_the_longest_game_any_file_can_carry() -> None:
    """A game's turns all ride in its history, at 10 bytes at least a turn unpacked, and it unpacks to at most MAX_UNPACKED."""
    shortest = len(packing.to_json([[0, "end"]])) - 1  # `[0,"end"],` in a list of many
    assert packing.MAX_UNPACKED // shortest + 1 < saves.MAX_TURN


@pytest.mark.parametrize(
    "text",
    [
        "a" + ".a" * 100_000 + " = 1\n",  # Python's TOML reader took 46 s over this key: it copies its parts at each part
        "[a" + ".a" * 100_000 + "]\n",
        "x = [{a" + ".a" * 100_000 + " = 1}]\n",
    ],
    ids=["key", "table", "inline table"],
)
def test_a_key_of_many_parts_is_refused_before_the_toml_reader_takes_it(text: str) -> None:
    data = f'format = "spite-save"\nversion = 2\n{text}'.encode()
    started = time.process_time()
    with pytest.raises(SaveFormatError, match=f"more than {saves.MAX_DOTS} dots"):
        saves.parse(data)
    assert time.process_time() - started < 0.5


def test_the_lines_of_a_save_hold_far_fewer_dots_than_the_limit(signed: SaveFile, people: tuple[Identity, ...]) -> None:
    """A name of 64 dots, on its line, reads: the limit is above what any line of a save holds."""
    dotted = saves.sign(dataclasses.replace(signed, players=(Player("." * 64, people[0].public_text), signed.players[1])), people[0])
    text = saves.to_toml(dotted)
    assert max(line.count(b".") for line in text.split(b"\n")) == 64 < saves.MAX_DOTS
    assert saves.parse(text) == dotted
