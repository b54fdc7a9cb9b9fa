"""Choosing the player's language: --lang, SPITE_LANG, the locale variables, the system's setting, the terminal."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbm import i18n
from pbm.i18n import ENGLISH, LANGUAGES, Choice, can_show, choose, language_of

ROOT = Path(__file__).resolve().parents[2]


def nothing() -> str | None:
    return None


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("vi_VN.UTF-8", "vi"),
        ("vi", "vi"),
        ("pt_BR.UTF-8", "pt_BR"),
        ("pt_PT.UTF-8", "pt_BR"),  # every Portuguese is spoken as Brazil's
        ("pt", "pt_BR"),
        ("pt-BR", "pt_BR"),  # a BCP 47 tag, as macOS and browsers write it
        ("tl_PH.UTF-8", "fil"),  # Python's gettext does not map tl to fil
        ("fil_PH", "fil"),
        ("tl", "fil"),
        ("id_ID.UTF-8", "id"),
        ("in", "id"),  # Indonesian's old code
        ("en_GB.UTF-8", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("de_DE.UTF-8", None),
        ("", None),
        ("x" * 100, None),
    ],
)
def test_a_locale_name_is_spoken_in_the_language_it_names(name: str, code: str | None) -> None:
    assert language_of(name) == code


def test_lang_on_the_command_line_comes_first_then_spite_lang_then_the_locale_variables_then_the_system() -> None:
    env = {"SPITE_LANG": "id", "LANGUAGE": "fil", "LC_ALL": "pt_BR.UTF-8", "LANG": "vi_VN.UTF-8"}
    assert choose(["play", "--lang", "vi"], env, nothing) == Choice("vi", "--lang", "vi")
    assert choose(["--lang=pt_BR", "show"], env, nothing) == Choice("pt_BR", "--lang", "pt_BR")
    assert choose(["play"], env, nothing) == Choice("id", "SPITE_LANG", "id")
    del env["SPITE_LANG"]
    assert choose([], env, nothing) == Choice("fil", "LANGUAGE", "fil")
    del env["LANGUAGE"]
    assert choose([], env, nothing) == Choice("pt_BR", "LC_ALL", "pt_BR.UTF-8")
    del env["LC_ALL"]
    assert choose([], env, nothing) == Choice("vi", "LANG", "vi_VN.UTF-8")
    assert choose([], {}, lambda: "pt-BR") == Choice("pt_BR", "system", "pt-BR")
    assert choose([], {}, nothing) == Choice(ENGLISH, "default")


def test_language_is_a_list_of_preferences_and_the_first_locale_variable_that_is_set_decides() -> None:
    assert choose([], {"LANGUAGE": "de:vi:pt", "LANG": "id_ID.UTF-8"}, nothing).code == "vi"
    assert choose([], {"LANGUAGE": "de:fr", "LANG": "id_ID.UTF-8"}, nothing) == Choice("id", "LANG", "id_ID.UTF-8")
    # a German locale gets English, not the system's language: LC_ALL said what the user wants, and spite lacks it
    assert choose([], {"LC_ALL": "de_DE.UTF-8", "LANG": "vi_VN.UTF-8"}, lambda: "pt-BR") == Choice("en", "LC_ALL", "de_DE.UTF-8")


def test_an_unknown_code_is_kept_for_the_command_to_refuse_and_the_rest_of_the_order_still_chooses() -> None:
    choice = choose(["--lang", "xx"], {"LANG": "vi_VN.UTF-8"}, nothing)
    assert (choice.code, choice.unknown, choice.unknown_source) == ("vi", "xx", "--lang")
    choice = choose([], {"SPITE_LANG": "klingon", "LANG": "pt_BR.UTF-8"}, nothing)
    assert (choice.code, choice.unknown, choice.unknown_source) == ("pt_BR", "klingon", "SPITE_LANG")
    assert choose(["--", "--lang", "xx"], {}, nothing) == Choice(ENGLISH, "default")  # after --, nothing is an option


def test_a_terminal_that_cannot_encode_a_language_gets_english_and_says_which_was_asked_for() -> None:
    assert can_show("vi", "utf-8") and can_show("pt_BR", "cp1252") and can_show("id", "ascii")
    assert not can_show("vi", "cp1252") and not can_show("pt_BR", "ascii")
    try:
        choice = i18n.setup(["--lang", "vi"], {}, encoding="cp1252")
        assert (choice.code, choice.fallback, choice.encoding) == ("en", "vi", "cp1252")
        assert i18n._("Show this message and exit.") == "Show this message and exit."
    finally:
        i18n.setup([], {"SPITE_LANG": "en"})


def spite(*args: str, env: dict[str, str] | None = None, home: Path) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SPITE_", "LC_", "LANG"))}
    run_env = {**base, "SPITE_HOME": str(home), "COLUMNS": "80", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", **(env or {})}
    return subprocess.run([sys.executable, "-m", "pbm.cli", *args], capture_output=True, text=True, env=run_env, cwd=ROOT, timeout=60)


def test_an_unknown_lang_is_one_line_listing_the_languages_and_status_2(tmp_path: Path) -> None:
    for args in (["--lang", "xx", "games"], ["games", "--lang=xx"]):
        done = spite(*args, home=tmp_path)
        assert done.returncode == 2
        lines = done.stderr.splitlines()
        assert len(lines) == 1 and "'xx'" in lines[0], done.stderr
        assert all(code in lines[0] for code in LANGUAGES)
        assert done.stdout == ""
    done = spite("games", "--lang", home=tmp_path)
    assert done.returncode == 2 and "--lang" in done.stderr and len(done.stderr.splitlines()) == 1


def test_an_unknown_spite_lang_is_one_line_and_spite_goes_on_in_the_next_choice(tmp_path: Path) -> None:
    done = spite("--help", env={"SPITE_LANG": "klingon", "LANG": "C.UTF-8"}, home=tmp_path)
    first = done.stderr.splitlines()[0]
    assert "SPITE_LANG=klingon" in first and all(code in first for code in LANGUAGES)
    assert done.returncode == 0


def test_a_terminal_that_cannot_show_the_letters_gets_english_with_one_line_why(tmp_path: Path) -> None:
    done = spite("games", "--lang", "vi", env={"PYTHONIOENCODING": "latin-1"}, home=tmp_path)
    assert "latin-1" in done.stderr.lower().replace("iso8859-1", "latin-1") or "8859" in done.stderr
    assert "English" in done.stderr
    assert done.stderr.count("\n") >= 1


def test_no_module_that_imports_the_translation_function_hides_it_behind_a_throwaway_name() -> None:
    """`a, _ = pair` in a function that also calls _() makes _ a local: the call fails (UnboundLocalError or a str called)."""
    bad = []
    for path in sorted([*(ROOT / "pbm").rglob("*.py"), *(ROOT / "engine").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports_it = any(
            isinstance(node, ast.ImportFrom) and any(alias.name == "_" and alias.asname is None for alias in node.names)
            for node in ast.walk(tree)
        )
        if not imports_it:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not bad, bad


def test_an_engine_message_is_english_as_str_and_said_in_the_players_language_with_its_values_and_plural(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine knows no language: its Message is English to str(), and pbm.i18n.say translates it, nested values
    and the plural form by the language's own rule."""
    import gettext

    from engine.moves import IllegalMoveError
    from engine.text import N_, Message, Plural

    class Shouting(gettext.NullTranslations):
        def gettext(self, message: str) -> str:  # capitals, but the placeholders as they are
            return re.sub(r"[^{}]+(?=\{|$)", lambda m: m.group().upper(), message)

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return self.gettext(singular if n == 1 else plural) + f" (form for {n})"

    inner = Message(N_("the top of {where}"), where="s2")
    outer = Message(N_("{move}: {what} is empty"), move="s2-c1", what=inner)
    counted = Plural(N_("{n} card"), N_("{n} cards"), 3, n=3)
    assert str(outer) == "s2-c1: the top of s2 is empty" and str(counted) == "3 cards"
    monkeypatch.setattr(i18n, "_active", Shouting())
    monkeypatch.setattr(i18n, "_choice", Choice("xx", "--lang", "xx"))
    assert i18n.say(outer) == "s2-c1: THE TOP OF s2 IS EMPTY"
    assert i18n.say(counted) == "3 CARDS (form for 3)"
    assert i18n.error_text(IllegalMoveError(outer)) == i18n.say(outer)
    assert str(IllegalMoveError(outer)) == "s2-c1: the top of s2 is empty"
