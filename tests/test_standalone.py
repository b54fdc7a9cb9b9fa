"""The standalone executable (scripts/build_standalone.py), run as a player with no Python runs it: copied into a folder
outside the checkout, with none of the tests' Python variables, virtual environment or spite home.

It must carry what PyInstaller cannot see by itself: the command modules that pbm/cli/app.py imports by name, the
compiled catalogues (`--lang vi`), spite's metadata (`--version`), and worker processes for `spite arena --jobs`.
And it plays a practice match to its end at a terminal, as a player would.

Marked slow (building takes ~40 s): `python -m pytest -m slow tests/test_standalone.py` builds one (skipped where
PyInstaller is not installed: `pip install -e ".[build]"`); `.ci/run` builds it once and names it in SPITE_STANDALONE.
"""

from __future__ import annotations

import gettext
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from pbm.cli.app import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
STANDALONE_ENV = "SPITE_STANDALONE"  # an executable built already (.ci/run): tested instead of building one here

pytestmark = pytest.mark.slow

PROMPT = "your move> "
LEGAL = re.compile(r"Legal moves: ([^\r\n]*)")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\x07\r]")


@pytest.fixture(scope="module")
def spite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The executable, copied into a folder of its own outside the checkout, as a player would keep it."""
    folder = tmp_path_factory.mktemp("player")
    given = os.environ.get(STANDALONE_ENV)
    if given:
        built = Path(given)
        assert built.is_file(), f"{STANDALONE_ENV}={given}: no such file"
    else:
        pytest.importorskip("PyInstaller", reason='PyInstaller is not installed: pip install -e ".[build]"')
        out = tmp_path_factory.mktemp("dist")
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_standalone.py"), "--out", str(out)], check=True, timeout=900)
        built = out / ("spite.exe" if sys.platform == "win32" else "spite")
    exe = folder / built.name
    shutil.copy2(built, exe)
    assert not exe.resolve().is_relative_to(ROOT)
    return exe


def player_env(home: Path, **extra: str) -> dict[str, str]:
    """A player's environment: no PYTHON* or SPITE_* variables, no virtual environment, nothing of the checkout on PATH;
    English unless a command says --lang (the tests assert the English)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "SPITE_", "VIRTUAL_ENV"))}
    outside = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p and not _under(Path(p), Path(sys.prefix), ROOT)]
    env.update(PATH=os.pathsep.join(outside), SPITE_HOME=str(home), SPITE_LANG="en", NO_COLOR="1", **extra)
    return env


def _under(path: Path, *folders: Path) -> bool:
    """Whether `path` is one of `folders` or inside one."""
    return any(path.resolve().is_relative_to(folder.resolve()) for folder in folders)


def run(spite: Path, *args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`spite ARGS` in the executable's own folder (a spite home there, unless `home`); a failure shows what it said."""
    env = player_env(home or spite.parent / "home", COLUMNS="200")
    done = subprocess.run([str(spite), *args], cwd=spite.parent, env=env, capture_output=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done


def next_move(moves: list[str]) -> str:
    """The pay-off card if it fits, else a card to a center stack (bringing the pay-off card's rank nearer), else a discard."""
    for wanted in (r"p-c\d", r"\w+-c\d", r"\w+-s\d|end"):
        found = [m for m in moves if re.fullmatch(wanted, m)]
        if found:
            return found[0]
    raise AssertionError(f"no move to make among {moves}")


def words(text: str) -> str:
    """`text` with every run of white space one space: the help's lines wrap where the terminal ends."""
    return " ".join(text.split())


def test_every_command_its_version_a_language_and_worker_processes(spite: Path) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert run(spite, "--version").stdout.strip() == f"spite {version}"  # the metadata went in

    listed = run(spite, "--help").stdout  # imports every module of commands, by name
    missing = [name for name in COMMANDS if name not in ("help", "version") and f"│ {name} " not in listed]
    assert not missing, listed
    assert "Usage: spite rules" in words(run(spite, "rules", "--help").stdout)  # a command that imports its module alone

    vi = gettext.translation("spite", ROOT / "pbm" / "locale", ["vi"])
    english = "Spite & Malice by email or chat: every turn is a signed file that you send to your opponent."
    assert vi.gettext(english) != english
    assert words(vi.gettext(english)) in words(run(spite, "--lang", "vi", "--help").stdout)  # the catalogue went in
    title = "The rules of Spite & Malice"
    assert vi.gettext(title) != title and vi.gettext(title) in run(spite, "--lang", "vi", "rules").stdout

    arena = json.loads(run(spite, "arena", "--bots", "easy,easy", "--games", "2", "--jobs", "2", "--json").stdout)
    assert arena["games"] == 2, arena  # two worker processes of the executable played them


def test_a_practice_match_to_its_end_at_a_terminal(spite: Path) -> None:
    """`spite practice` at an 80x24 terminal, as a player types: the name asked, then move by move (:func:`next_move`, from
    the legal moves `?` lists), a tied game's next deal asked for with a key, until the match is over; its last file verifies."""
    pexpect = pytest.importorskip("pexpect")
    if not hasattr(pexpect, "spawn"):
        pytest.skip("no pseudo-terminals here (Windows): the terminal test is POSIX-only")
    home = spite.parent / "practice-home"
    child = pexpect.spawn(
        str(spite),
        ["practice", "--level", "easy", "--payoff", "2", "--target", "1", "--yes"],
        cwd=str(spite.parent),
        env=player_env(home, TERM="xterm", COLUMNS="80", LINES="24", INPUTRC=os.devnull),
        encoding="utf-8",
        timeout=60,
        dimensions=(24, 80),
    )
    child.logfile_read = log = open(spite.parent / "screen.log", "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    try:
        child.expect_exact("Your name")
        child.sendline("Ann")
        for _ in range(200):
            seen = child.expect_exact([PROMPT, "Press a key to deal game", "The match is over"])
            if seen == 2:
                break
            if seen == 1:
                child.send("x")  # a tie scores nothing: the next game
                continue
            child.sendline("?")
            child.expect(LEGAL)
            moves = child.match.group(1).split()
            child.expect_exact(PROMPT)
            child.sendline(next_move(moves))
        else:
            pytest.fail("the match did not end within 200 moves")
        child.expect(pexpect.EOF)
        child.close()
    finally:
        log.close()
    shown = ANSI.sub("", (spite.parent / "screen.log").read_text(encoding="utf-8"))
    assert child.exitstatus == 0, shown[-3000:]
    assert re.search(r"The match is over: (Ann|Computer) wins [1-9]–0\.", shown), shown[-3000:]
    assert "Traceback" not in shown

    files = sorted((home / "practice" / "saves").glob("*.toml"), key=lambda p: p.stat().st_mtime)
    check = run(spite, "verify", str(files[-1]), home=home)  # the last file: the keys of the game, after its end
    assert re.search(r"signature: good, by (Ann|Computer)", check.stdout), check.stdout
