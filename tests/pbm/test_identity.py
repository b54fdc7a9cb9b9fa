"""Identities: created once, kept private (0600), passphrase-protected, shared as one line."""

from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path

import pytest

from pbm import home as spite_home_module
from pbm.errors import BadSignatureError, IdentityError, PassphraseError, PublicKeyError
from pbm.identity import PublicKey, check_name, load, load_or_create, needs_passphrase, player_path, rename


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_created_on_first_use_then_loaded(tmp_path: Path) -> None:
    first = load_or_create(tmp_path, "Alice")
    again = load_or_create(tmp_path, "ignored for an existing identity")
    assert first.path == player_path(tmp_path) == tmp_path / "identity.pem"
    assert again.name == "Alice"
    assert again.public_text == first.public_text
    assert again.private_bytes() == first.private_bytes()
    assert len(first.private_bytes()) == 32


def test_key_file_has_mode_0600_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        identity = load_or_create(tmp_path, "Alice")
        bot = load_or_create(tmp_path, "Bot", path=tmp_path / "bots" / "greedy.pem")
    finally:
        os.umask(old)
    assert mode(identity.path) == 0o600
    assert mode(bot.path) == 0o600
    assert mode(tmp_path / "bots") == 0o700
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_spite_home_from_env_is_created_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPITE_HOME", str(tmp_path / "h"))
    home = spite_home_module.spite_home()
    assert home == tmp_path / "h"
    assert mode(home) == 0o700


def test_another_local_player_lives_apart_and_differs_from_the_player(tmp_path: Path) -> None:
    me = load_or_create(tmp_path, "Alice")
    computer = load_or_create(tmp_path / "practice", "Computer")  # spite practice keeps the computer's key this way
    assert computer.path == tmp_path / "practice" / "identity.pem"
    assert computer.public_text != me.public_text


def test_passphrase_protects_the_key(tmp_path: Path) -> None:
    made = load_or_create(tmp_path, "Alice", passphrase="correct horse")
    assert needs_passphrase(made.path)
    assert b"PRIVATE KEY" in made.path.read_bytes()
    assert made.private_bytes() not in made.path.read_bytes()
    assert load(made.path, "correct horse").public_text == made.public_text
    with pytest.raises(PassphraseError, match="wrong passphrase"):
        load(made.path, "wrong")
    with pytest.raises(PassphraseError, match="protected by a passphrase"):
        load(made.path)


def test_passphrase_for_a_plain_key_is_refused(tmp_path: Path) -> None:
    made = load_or_create(tmp_path, "Alice")
    assert not needs_passphrase(made.path)
    with pytest.raises(PassphraseError, match="no passphrase"):
        load(made.path, "something")


def test_damaged_key_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "identity.pem"
    path.write_text('spite-name: "A"\n-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n')
    with pytest.raises(IdentityError, match="identity"):
        load(path)
    path.write_text("hello")
    with pytest.raises(IdentityError, match="no key"):
        load(path)


def test_a_plain_key_file_reads_as_the_pem_reader_reads_it(tmp_path: Path) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    made = load_or_create(tmp_path, "Alice")
    text = made.path.read_text()
    pem = text[text.index("-----BEGIN") :]
    by_reader = serialization.load_pem_private_key(pem.encode(), password=None)
    assert isinstance(by_reader, Ed25519PrivateKey)
    assert load(made.path).private_bytes() == by_reader.private_bytes_raw() == made.private_bytes()
    # other layouts of the same key go to the PEM reader and give the same key
    made.path.write_text(text.replace("\n", "\r\n"))
    assert load(made.path).private_bytes() == made.private_bytes()
    # a block of the same shape holding another kind of key is still refused
    plain = serialization.NoEncryption()
    x25519 = X25519PrivateKey.generate().private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, plain)
    made.path.write_bytes(b'spite-name: "A"\n' + x25519)
    with pytest.raises(IdentityError, match="not an Ed25519 key"):
        load(made.path)


def test_rename_keeps_the_key(tmp_path: Path) -> None:
    made = load_or_create(tmp_path, "Alice")
    renamed = rename(made, "Alicia")
    loaded = load(made.path)
    assert loaded.name == "Alicia"
    assert loaded.public_text == made.public_text == renamed.public_text


# "Nguyễn Thị Hương" as some Vietnamese keyboards type it: each letter and its marks as separate characters (NFD).
NFC_NAME = "Nguyễn Thị Hương"
NFD_NAME = unicodedata.normalize("NFD", NFC_NAME)


def test_a_name_typed_with_combining_marks_is_kept_in_nfc(tmp_path: Path) -> None:
    assert NFD_NAME != NFC_NAME and len(NFD_NAME) > len(NFC_NAME)
    assert check_name(NFD_NAME) == NFC_NAME
    made = load_or_create(tmp_path, NFD_NAME)
    assert made.name == NFC_NAME
    assert load(made.path).name == NFC_NAME
    assert NFC_NAME.encode() in made.path.read_bytes() and NFD_NAME.encode() not in made.path.read_bytes()
    rename(made, "Alice")
    assert rename(load(made.path), "  " + NFD_NAME + " ").name == NFC_NAME
    assert load(made.path).name == NFC_NAME


def test_public_text_round_trips_and_fingerprint_is_short(tmp_path: Path) -> None:
    me = load_or_create(tmp_path, "Alice")
    assert me.public_text.startswith("spite1:") and len(me.public_text) == 7 + 43
    assert "\n" not in me.public_text
    assert PublicKey.parse("  " + me.public_text + "\n") == me.public_key
    fp = me.fingerprint
    assert len(fp) == 19 and fp.count("-") == 3
    assert all(c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567-" for c in fp)


@pytest.mark.parametrize(
    "text",
    ["", "hello", "spite1:", "spite1:abc", "spite2:" + "A" * 43, "spite1:" + "A" * 42 + "!", "spite1:" + "A" * 44],
)
def test_garbage_public_text_is_refused(text: str) -> None:
    with pytest.raises(PublicKeyError, match="not a"):
        PublicKey.parse(text)


def test_non_canonical_public_text_is_refused() -> None:
    assert PublicKey.parse("spite1:" + "A" * 43).raw == bytes(32)
    with pytest.raises(PublicKeyError, match="changed or mistyped"):
        PublicKey.parse("spite1:" + "A" * 42 + "B")  # same bytes, but the 2 unused bits are set


def test_sign_and_verify(tmp_path: Path) -> None:
    me = load_or_create(tmp_path, "Alice")
    other = load_or_create(tmp_path, "Bob", path=tmp_path / "bob.pem")
    signature = me.sign(b"turn 14")
    assert len(signature) == 64
    me.verify(signature, b"turn 14")
    me.public_key.verify(signature, b"turn 14")
    with pytest.raises(BadSignatureError):
        me.verify(signature, b"turn 15")
    with pytest.raises(BadSignatureError):
        other.verify(signature, b"turn 14")


def test_repr_hides_the_private_key(tmp_path: Path) -> None:
    me = load_or_create(tmp_path, "Alice")
    assert me.private_bytes().hex() not in repr(me)
    assert "Alice" in repr(me)
