"""The words of the move prompt in the player's language (pbm/client/turn.py): every catalogue's words are words, never
moves or cards, and no two meanings share one; the English always work; help names the player's words beside the English.

The catalogues checked are those that exist (pbm/locale/*/LC_MESSAGES/spite.mo), English always among them: with none
translated yet, the English is checked, and each language is checked as soon as its catalogue lands.
"""

from __future__ import annotations

import shutil
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.cards import Card, CardNotationError
from engine.moves import DISCARDS, END_MOVE, HAND_PLAYS, PAYOFF_PLAYS, SIDE_PLAYS, InvalidMoveError, Move
from pbm import i18n
from pbm.client import turn
from pbm.client.receive import open_save
from pbm.i18n import DOMAIN, LOCALE_DIR
from pbm.identity import load_or_create
from pbm.journal import Journal

CATALOGUES = sorted(path.parents[1].name for path in Path(LOCALE_DIR).glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
# What the notation names on its own: ranks (T and 1 too), the pay-off pile, the stacks, and the move end.
NOTATION = {
    *(rank.lower() for rank in ("A", "1", "T", "J", "Q", "K", *map(str, range(2, 11)))),
    "p",
    "end",
    *(f"{place}{n}" for place in "sc" for n in range(1, 10)),
}
# Every move there is (with the stacks of the rules and more), as the notation writes it.
MOVES = sorted({str(m) for m in (*PAYOFF_PLAYS, *(m for row in (*SIDE_PLAYS, *HAND_PLAYS[1:], *DISCARDS[1:]) for m in row), END_MOVE)})


@pytest.fixture(params=["en", *CATALOGUES])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    """The run speaks each language that has a catalogue in turn, English first; English again afterwards."""
    code = request.param
    try:
        i18n.setup(["--lang", code], {i18n.LOCALEDIR_ENV: LOCALE_DIR}, encoding="utf-8")
        assert i18n.current().code == code
        yield code
    finally:
        i18n.setup([], {"SPITE_LANG": "en"})


def _parses(parse: Callable[[str], object], error: type[Exception], word: str) -> bool:
    try:
        parse(word)
    except error:
        return False
    return True


def test_every_translated_word_is_a_word_and_never_a_move_or_a_card(language: str) -> None:
    for meaning in turn.ENGLISH:
        for word in turn.translated(meaning):
            where = f"{language}: {meaning} {word!r}"
            assert word and not any(ch.isspace() or ch == "," for ch in word), where
            assert word == unicodedata.normalize("NFC", word).lower(), where
            assert word.lower() not in NOTATION, f"{where} is written like the notation"
            assert not _parses(Move.parse, InvalidMoveError, word), f"{where} reads as a move"
            assert not _parses(Card.parse, CardNotationError, word), f"{where} reads as a card"
            assert turn.command(word) == meaning, f"{where} is not taken at the prompt"
            assert turn.command(word.upper()) == meaning, f"{where}: case aside"


def test_no_two_meanings_share_a_word(language: str) -> None:
    meanings: dict[str, set[str]] = {}
    for meaning, english in turn.ENGLISH.items():
        for word in (*english, *turn.translated(meaning)):
            meanings.setdefault(word, set()).add(meaning)
    shared = {word: sorted(found) for word, found in meanings.items() if len(found) > 1}
    assert not shared, f"{language}: {shared}"
    answers = turn.answer_words()
    for one, other in ((turn.WRITE, turn.UNDO), (turn.WRITE, turn.QUIT), (turn.UNDO, turn.QUIT)):
        both = set(answers[one]) & set(answers[other])
        assert not both, f"{language}: {sorted(both)} answer both {one} and {other} to 'write this turn?'"


def test_the_english_words_always_work_and_a_move_is_never_a_word(language: str) -> None:
    for word, meaning in turn.WORDS.items():
        assert turn.command(word) == meaning, f"{language}: {word!r}"
        assert not _parses(Move.parse, InvalidMoveError, word), word
    assert turn.command("end") is None  # the English 'end' is the move
    for move in MOVES:
        assert turn.command(move) is None, f"{language}: the move {move} reads as a word"
        assert turn.command(move.upper()) is None, f"{language}: the move {move.upper()} reads as a word"
    assert turn.confirm_answer("") == turn.Confirm(write=True)
    for meaning, confirmed in (
        (turn.WRITE, turn.Confirm(write=True)),
        (turn.UNDO, turn.Confirm(undo=True)),
        (turn.QUIT, turn.Confirm(quit=True)),
    ):
        for word in turn.answer_words()[meaning]:
            assert turn.confirm_answer(word) == confirmed, f"{language}: {word!r} answers 'write this turn?'"


def test_help_names_the_players_words_beside_the_english(language: str) -> None:
    shown = "\n".join(turn.help_lines())
    for meaning, english in turn.ENGLISH.items():
        assert english[0] in shown
        for word in turn.own_words(meaning):
            assert f"{english[0]}, " in shown and word in shown, f"{language}: help does not name {word!r} ({meaning})"


# --- the mechanism, on a made-up catalogue: what a translator could get wrong is left out, the rest works ---

MADE_UP = {
    "prompt word: undo": "batal, Urung,7-c2",  # a move: left out
    "prompt word: quit": "keluar,a,s1,batal",  # a card, a stack, and undo's word: left out
    "prompt word: end": "selesai,end",  # the English 'end' stays the move
    "prompt word: help": "bantuan,tolong lagi",  # a space: left out
    "prompt word: moves": "langkah",
    "prompt word: hint": "petunjuk",
    "prompt word: board": "papan,cafe\u0301",  # NFD in the catalogue: read as NFC
    "answers yes": "ya",
    "answers no": "tidak",
}


@pytest.fixture
def made_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turn, "pgettext", lambda context, message: MADE_UP.get(context, message))


@pytest.mark.usefixtures("made_up")
def test_a_made_up_catalogue_gives_its_words_and_leaves_out_what_could_be_read_otherwise() -> None:
    assert turn.own_words(turn.UNDO) == ["batal", "urung"]
    assert turn.own_words(turn.QUIT) == ["keluar"]
    assert turn.own_words(turn.END) == ["selesai"]
    assert turn.own_words(turn.HELP) == ["bantuan"]
    assert turn.own_words(turn.BOARD) == ["papan", "café"]
    assert turn.command(" Batal ") == turn.UNDO and turn.command("u") == turn.UNDO  # the English too
    assert turn.command("SELESAI") == turn.END and turn.command("end") is None  # 'end' is the move
    assert turn.command("cafe\u0301") == turn.BOARD  # typed in NFD, read as NFC
    assert turn.command("7-c2") is None and turn.command("a") is None and turn.command("s1") is None
    assert turn.first_word(turn.QUIT) == "keluar" and turn.first_word(turn.HINT) == "petunjuk"
    assert turn.confirm_answer("ya") == turn.Confirm(write=True) and turn.confirm_answer("tidak") == turn.Confirm(undo=True)
    assert turn.confirm_answer("batal") == turn.Confirm(undo=True) and turn.confirm_answer("keluar") == turn.Confirm(quit=True)
    shown = turn.help_lines()
    assert "  undo, batal, urung  " in "\n".join(shown) and "  q, keluar  " in "\n".join(shown)
    assert any(line.startswith("  end, selesai  ") for line in shown)
    assert all(len(line) <= turn.WIDTH for line in shown if not line.startswith("  Q-s2"))


@pytest.mark.usefixtures("made_up")
def test_tab_completes_the_players_words_too(tmp_path: Path) -> None:
    examples = Path(shutil.copytree(Path(__file__).resolve().parents[2] / "examples", tmp_path / "examples"))
    with Journal.open(examples / "keys" / "alice") as journal:
        opened = open_save(examples / "saves" / "14-bob.toml", load_or_create(examples / "keys" / "alice"), journal)
        assert turn.complete(opened, "BA") == ["bantuan", "batal"]
        assert turn.complete(opened, "u") == ["undo", "urung"]
        assert "selesai" not in turn.candidates(opened)  # 'end' is no legal move with cards in hand: nor is its word
