"""`spite id` says which language spite speaks and how it was chosen (--lang, SPITE_LANG, the locale variables, the
default), and why English when the terminal cannot show the one asked for; `spite id --json` says it untranslated."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def spite(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`spite ARGS` as a real process (the language is chosen as it starts), with only the language variables of `env`."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SPITE_", "LC_", "LANG"))}
    run_env = {**base, "SPITE_HOME": str(home), "COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", **env}
    done = subprocess.run([sys.executable, "-m", "pbm.cli", *args], capture_output=True, text=True, env=run_env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done
    return done


def language(home: Path, *args: str, **env: str) -> dict[str, Any]:
    data = json.loads(spite(home, "id", "--json", *args, **env).stdout)
    assert set(data) == {"name", "fingerprint", "public_key", "home", "language"}
    return dict(data["language"])


def language_lines(home: Path, *args: str, **env: str) -> list[str]:
    """The lines of `spite id` after the spite home's: the language's (the labels may be translated, the values' codes not)."""
    lines = spite(home, "id", *args, **env).stdout.splitlines()
    return lines[4:]


def test_spite_lang_and_lang_on_the_command_line_are_named_with_the_language(tmp_path: Path) -> None:
    assert language(tmp_path, SPITE_LANG="vi") == {"code": "vi", "source": "SPITE_LANG", "value": "vi", "fallback": None}
    [line] = language_lines(tmp_path, SPITE_LANG="vi")
    assert "Tiếng Việt (vi)" in line and "SPITE_LANG=vi" in line, line
    assert language(tmp_path, "--lang", "pt_BR", SPITE_LANG="id") == {
        "code": "pt_BR",
        "source": "--lang",
        "value": "pt_BR",
        "fallback": None,
    }
    [line] = language_lines(tmp_path, "--lang", "pt_BR", SPITE_LANG="id")
    assert "Português (Brasil) (pt_BR)" in line and "--lang pt_BR" in line, line


def test_a_locale_variable_is_named_with_what_it_said(tmp_path: Path) -> None:
    assert language(tmp_path, LANG="vi_VN.UTF-8") == {"code": "vi", "source": "LANG", "value": "vi_VN.UTF-8", "fallback": None}
    [line] = language_lines(tmp_path, LANG="vi_VN.UTF-8")
    assert "Tiếng Việt (vi)" in line and "LANG=vi_VN.UTF-8" in line, line
    assert language(tmp_path, LC_ALL="id_ID.UTF-8", LANG="vi_VN.UTF-8")["source"] == "LC_ALL"


def test_english_says_why_in_english(tmp_path: Path) -> None:
    assert language(tmp_path, SPITE_LANG="en") == {"code": "en", "source": "SPITE_LANG", "value": "en", "fallback": None}
    assert language_lines(tmp_path, SPITE_LANG="en") == ["language:    English (en), from SPITE_LANG=en"]
    assert language_lines(tmp_path, LC_ALL="de_DE.UTF-8") == [
        "language:    English (en): LC_ALL=de_DE.UTF-8 names no language spite speaks"
    ]
    if sys.platform not in ("win32", "darwin"):  # elsewhere the system names no language: English is the default
        assert language(tmp_path) == {"code": "en", "source": "default", "value": None, "fallback": None}
        assert language_lines(tmp_path) == ["language:    English (en), the default: nothing names another language"]


def test_a_terminal_that_cannot_show_the_language_asked_for_gets_english_and_id_says_why(tmp_path: Path) -> None:
    said = language(tmp_path, "--lang", "vi", PYTHONIOENCODING="latin-1")
    assert said["code"] == "en" and said["source"] == "--lang" and said["value"] == "vi"
    assert said["fallback"]["code"] == "vi" and said["fallback"]["encoding"] in ("latin-1", "iso8859-1")
    first, asked = language_lines(tmp_path, "--lang", "vi", PYTHONIOENCODING="latin-1")
    assert first.startswith("language:    English (en), because this terminal writes ") and first.endswith("(vi)"), first
    assert asked.startswith("asked for:   ") and asked.endswith(" (vi), from --lang vi"), asked  # Tiếng Việt cannot be shown here
