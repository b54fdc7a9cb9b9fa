"""The whole CLI in the pseudo-language: every letter of a translated message accented, every message a third longer,
between ⟦ and ⟧. English that nobody marked for translation shows up outside the brackets; a board or a line that a
longer language would push past 80 columns shows up too wide.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import HAS_PTY
from language_tour import (
    ALICE,
    BOB,
    HEIGHT,
    ROOT,
    SCRIPT,
    WIDTH,
    Tour,
    boards,
    cut_file_names,
    drawn_board,
    environment,
    run,
    too_wide,
    tour,
)
from rich.cells import cell_len

from pbm.render import PROMPT_ROOM

pytestmark = pytest.mark.skipif(not shutil.which("xgettext") or not shutil.which("msgfmt"), reason="GNU gettext's tools are not installed")

OPEN, CLOSE = "⟦", "⟧"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\r]")
# Words of English sentences: none of them is a name, a token of the notation, a command or an option.
ENGLISH = frozenset(
    """the your you is are not and with this that for from has have was wrote file files turn game match card cards move
    moves stack stacks send no of to an in on it be by or as at what which there their they will would can cannot now
    here who when where why all any each every only more than then if also yet still may must been did does do done
    its our we me my one two nothing something already answer answers played plays wins win lost over left right ok""".split()  # noqa: SIM905
)
QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
TOKENS = re.compile(
    r"\bspite(?: [a-z]+)?\b|(?<![\w-])--?[a-z][\w-]*|\S*[/\\]\S*|\S+\.(?:toml|html|json|pem)\b|\b[0-9a-f]{8,}\b"
    r"|\b[A-Z0-9]{4}(?:-[A-Z0-9]{4}){3}\b|spite1:\S+|Spite & Malice|\S{24,}"  # the last: a turn code's data, a key
)


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Tour, Path]]:
    """The tour of the whole CLI in the pseudo-language, made from the messages the code marks now."""
    locale = tmp_path_factory.mktemp("pseudo-locale")
    subprocess.run([sys.executable, str(SCRIPT), "pseudo", str(locale)], check=True, capture_output=True, cwd=ROOT, timeout=300)
    root = tmp_path_factory.mktemp("pseudo-tour")
    yield tour(root, "qps", localedir=locale), locale


def without_translations(text: str) -> str:
    """`text` with every ⟦…⟧ (nested too), quoted echo, name, path, command, option and key taken out: what is left was
    printed as it is written in the code."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth = max(0, depth - 1)
            out.append(" ")
        elif depth == 0:
            out.append(ch)
    rest = "".join(out)
    for name in (ALICE, BOB):
        rest = rest.replace(name, " ")
    return TOKENS.sub(" ", QUOTED.sub(" ", rest))


def english_in(text: str) -> list[str]:
    """The lines of `text` that still hold English words outside the translated messages."""
    found = []
    for line in without_translations(text).splitlines():
        words = re.findall(r"[A-Za-z]+", line)
        if any(w in ENGLISH or (w[:1].isupper() and w[1:].islower() and w.lower() in ENGLISH) for w in words):
            found.append(line.strip())
    return found


def test_the_detector_finds_english_outside_the_brackets_and_nothing_inside() -> None:
    assert english_in("⟦Ŵŕóţé ⟦x⟧ spite-1234abcd-g1-t1.toml··⟧") == []
    (line,) = english_in("spite: ⟦ţĥé ƒíĺé⟧ (see the help of 'spite play')")
    assert "the help" in line and "spite" not in line
    assert english_in("Wrote /tmp/a.toml") == ["Wrote"]


def test_every_line_the_cli_prints_in_the_pseudo_language_was_translated(pseudo: tuple[Tour, Path]) -> None:
    seen, _ = pseudo
    leftovers = {}
    for said in seen.said:
        lines = english_in(said.out + said.err)
        if lines:
            leftovers[f"[{said.who}] spite {' '.join(said.args)}"] = lines[:6]
    assert not leftovers, "\n".join(f"{cmd}:\n  " + "\n  ".join(lines) for cmd, lines in leftovers.items())


def test_nothing_the_cli_prints_in_a_third_longer_language_is_wider_than_80_columns(pseudo: tuple[Tour, Path]) -> None:
    seen, _ = pseudo
    assert boards(seen), "the tour showed no board"
    wide = too_wide(seen)
    assert not wide, "\n".join(wide[:20])
    assert not cut_file_names(seen), cut_file_names(seen)  # a command a player copies is never cut inside a word


BANNER = re.compile(r"^╭─+╮$", re.MULTILINE)  # the box that ends a game, on a line of its own


def test_the_board_of_a_turn_in_the_pseudo_language_fits_24_lines(pseudo: tuple[Tour, Path]) -> None:
    """The header and the table of an ordinary turn (not the banner that ends a game, nor a note before the board, such as a
    first contact) leave the screen's last lines to the last turn, the prompt and a message, as in English."""
    seen, _ = pseudo
    turns = [board for board in boards(seen) if not BANNER.search(board)]
    assert turns, "the tour showed no board of a turn"
    for board in turns:
        drawn = drawn_board(board)
        assert len(drawn) <= HEIGHT - PROMPT_ROOM, "\n".join(drawn)


def test_json_for_scripts_is_never_translated(pseudo: tuple[Tour, Path], tmp_path: Path) -> None:
    """Every command's --json, run in the pseudo-language on the tour's match, holds no translated text."""
    seen, locale = pseudo
    latest = seen.files[-1]
    match = latest.name.split("-")[1]
    home = seen.homes["alice"]
    maildir = tmp_path / "maildir"
    for sub in ("cur", "new", "tmp"):
        (maildir / sub).mkdir(parents=True)
    from email.message import EmailMessage

    turn = seen.files[3]  # a file of Bob's
    text = turn.read_text(encoding="utf-8")
    changed = text.replace("turn = ", "turn = 9", 1)  # signed no more: refused, and its reason is in the JSON
    assert changed != text
    attached = {"own.toml": seen.files[0].read_bytes(), latest.name: latest.read_bytes(), turn.name: changed.encode()}
    for n, (name, data) in enumerate(attached.items()):  # Alice's own invitation, the latest file, a changed copy of it
        mail = EmailMessage()
        mail["From"], mail["To"], mail["Subject"] = "bob@example.com", "alice@example.com", f"[spite {match}] a turn"
        mail.set_content("a file")
        mail.add_attachment(data, maintype="application", subtype="toml", filename=name)
        (maildir / "new" / f"{n}.mail").write_bytes(bytes(mail))
    scripts = Tour()
    for args in (
        ("id", "--json"),
        ("show", "--json", latest),
        ("verify", "--json", latest),
        ("games", "--json", "--all"),
        ("stats", "--json"),
        ("record", match, "--json"),
        ("inbox", "--maildir", maildir, "--json"),
        ("arena", "--bots", "random,greedy", "--games", "2", "--json"),
    ):
        said = run(scripts, "alice", home, "qps", *args, localedir=locale, cwd=latest.parent)
        assert said.out.strip().startswith(("{", "[")), said
        assert OPEN not in said.out and CLOSE not in said.out, said
        if args[0] == "inbox":
            taken = json.loads(said.out)["taken"]
            assert any(t["what"] == "refused" and t["why"].startswith("the signature does not match") for t in taken), taken


def test_practice_at_a_terminal_in_the_pseudo_language_is_all_translated_and_fits_80x24(pseudo: tuple[Tour, Path], tmp_path: Path) -> None:
    """A practice turn typed at an 80x24 terminal: the name asked, help, legal moves, a refusal, a hint, a turn played
    and confirmed, the computer's turn, and leaving: every line translated, none wider than the screen."""
    if not HAS_PTY:
        pytest.skip("no pseudo-terminals here (Windows)")
    import gettext

    import pexpect

    _, locale = pseudo
    with open(locale / "qps" / "LC_MESSAGES" / "spite.mo", "rb") as file:
        cat = gettext.GNUTranslations(file)
    env = environment(tmp_path / "home", "qps", locale)
    env.pop("FORCE_COLOR")
    env.update(TERM="xterm", INPUTRC="/dev/null")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pbm.cli", "practice", "--level", "easy", "--payoff", "20", "--target", "5"],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(HEIGHT, WIDTH),
    )
    screen: list[str] = []
    prompt = cat.gettext("your move> ")

    def until(text: str) -> str:
        child.expect_exact(text)
        shown = ANSI.sub("", child.before or "")
        screen.append(shown)
        return shown

    try:
        until(cat.gettext("Your name, as your opponents will see it"))
        child.sendline(ALICE)
        until(prompt)
        for typed in ("help", "?", "p-s1", "hint"):
            child.sendline(typed)
            until(prompt)
        moves = re.findall(r"(?<![\w-])\w+-s[1-4](?![\w-])", screen[3])  # what ? listed
        assert moves, screen[3]
        child.sendline(moves[0])
        until("[")  # the confirmation: write it, take it back or quit
        child.sendline("")
        until(prompt)  # the computer has played its turn
        child.sendline("q")
        child.expect(pexpect.EOF)
        screen.append(ANSI.sub("", child.before or ""))
    finally:
        child.close()
    text = "\n".join(screen)
    assert "│" in text and ALICE[:8] in text
    assert not english_in(text), english_in(text)
    wide = [line for line in text.splitlines() if cell_len(line) > WIDTH]
    assert not wide, wide
