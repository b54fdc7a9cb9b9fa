"""Each language as its players meet it: practice turns at a terminal typed in the language, and a match by files
with long names at 80x24. What the player reads comes from the language's catalogue, and fits the screen."""

from __future__ import annotations

import gettext
import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import HAS_PTY
from language_tour import ALICE, BOB, HEIGHT, WIDTH, Tour, boards, cut_file_names, drawn_boards, too_wide, tour

from pbm.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

TRANSLATED = [code for code in LANGUAGES if code != "en"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\r]")


def catalogue(code: str) -> gettext.GNUTranslations:
    with open(Path(LOCALE_DIR) / code / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as file:
        return gettext.GNUTranslations(file)


def fixed_part(text: str) -> str:
    """The longest stretch of a translated message without a placeholder: what must show wherever it is printed."""
    return max(re.split(r"\{[^{}]*\}", text), key=len).strip()


# A match by files in each language takes ~8 s: by default the two whose words run longest (Filipino) and whose letters
# are the widest set (Vietnamese); every language with -m slow. The pseudo-language's tour (test_pseudo_language.py)
# checks in every run that all a player reads is translated and fits.
TOURED = [code if code in ("fil", "vi") else pytest.param(code, marks=pytest.mark.slow) for code in TRANSLATED]


@pytest.fixture(scope="module", params=TOURED)
def toured(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Tour]]:
    code = request.param
    yield code, tour(tmp_path_factory.mktemp(f"tour-{code}"), code, full=False, turns=5)


def test_a_match_by_files_speaks_the_language_and_fits_80_columns(toured: tuple[str, Tour]) -> None:
    code, seen = toured
    cat = catalogue(code)
    text = "\n".join(said.out + said.err for said in seen.said)  # what the players read (the commands hold Bob's name as typed)
    flat = " ".join(text.split())
    for message in ("Wrote {file}", "Next file: you (play this file)."):
        translated = cat.gettext(message)
        assert translated != message, f"{code} does not translate {message!r}"
        assert fixed_part(translated) in flat, (message, translated)
    assert cat.pgettext("board caption: the center stacks", "Center") in text
    assert BOB in text and ALICE[:8] in text  # the names, Bob's NFC though typed with combining marks
    assert "Nguye\u0302" not in text
    wide = too_wide(seen)
    assert not wide, "\n".join(wide[:10])
    assert not cut_file_names(seen), cut_file_names(seen)  # a command a player copies is never cut inside a word
    for board in boards(seen):
        for drawn in drawn_boards(board):  # the board a turn starts from, and the one a game ends on
            assert len(drawn) <= HEIGHT - 2, board  # the header and the table, with room for the log and a prompt


# --- practice at a terminal, typed in the language ---


def _ctrl_c_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(not HAS_PTY, reason="no pseudo-terminals here (Windows)")
@pytest.mark.parametrize("code", TRANSLATED)
def test_practice_at_a_terminal_in_the_language_with_its_own_prompt_words(code: str, tmp_path: Path) -> None:
    import pexpect

    cat = catalogue(code)
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPITE_", "LC_", "LANG"))}
    env.update(SPITE_HOME=str(home), SPITE_LANG=code, NO_COLOR="1", TERM="xterm", COLUMNS=str(WIDTH), LINES=str(HEIGHT))
    env["INPUTRC"] = "/dev/null"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pbm.cli", "practice", "--level", "easy", "--payoff", "20", "--target", "5"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(HEIGHT, WIDTH),
        preexec_fn=_ctrl_c_interrupts,
    )
    log = tmp_path / "screen.log"
    child.logfile_read = open(log, "w", encoding="utf-8")  # noqa: SIM115 (closed with the child)
    try:
        child.expect_exact(cat.gettext("Your name, as your opponents will see it"))
        child.sendline("Nguye\u0302\u0303n")  # typed with combining marks
        prompt = cat.gettext("your move> ")
        assert prompt != "your move> "
        child.expect_exact(prompt)
        shown = ANSI.sub("", child.before or "")
        assert "Nguyễn" in shown and "│" in shown
        assert max(len(line) for line in shown.splitlines()) <= WIDTH

        helpword = cat.pgettext("prompt word: help", "help").split(",")[0].strip()
        child.sendline(helpword)  # the help, asked for in the language
        child.expect_exact(prompt)
        assert helpword in ANSI.sub("", child.before or "")

        child.sendline("p-s1")  # well written, but refused (R6): the refusal in the language
        refused = fixed_part(cat.gettext("refused: {reason}"))
        child.expect_exact(prompt)
        assert refused in " ".join(ANSI.sub("", child.before or "").split())

        undo = cat.pgettext("prompt word: undo", "undo").split(",")[0].strip()
        child.sendline(undo)  # nothing to take back yet: said in the language, the word understood
        child.expect_exact(prompt)
        nothing = fixed_part(cat.gettext("nothing to take back: no move played yet this turn"))
        assert nothing in " ".join(ANSI.sub("", child.before or "").split())

        quit_word = cat.pgettext("prompt word: quit", "quit").split(",")[0].strip()
        child.sendline(quit_word)
        child.expect_exact(fixed_part(cat.gettext("Nothing written; {again}")))
        child.expect(pexpect.EOF)
    finally:
        child.close()
        print(ANSI.sub("", log.read_text(encoding="utf-8"))[-4000:])  # shown by pytest only when the test failed
    assert child.exitstatus == 0
