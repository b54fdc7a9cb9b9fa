"""A tour of the whole `spite` command in one language, as two players at 80x24 terminals run it: every command's help,
usage errors, refusals, a match by files with long names (show, verify, code, games, stats, record, resign), the rules.

The tests of each language (tests/pbm/test_languages.py) and of the pseudo-language (tests/pbm/test_pseudo_language.py)
read what the tour printed; the saves it wrote are the same bytes in every language.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "catalogues.py"
WIDTH, HEIGHT = 80, 24
# long names in two scripts, one typed with combining marks (NFD) as some Vietnamese keyboards type it
ALICE = "Putu Ayu Kartika Dewi Wulandari"
BOB_TYPED = "Nguye\u0302\u0303n Thi\u0323 Hu\u031bo\u031bng"
BOB = "Nguyễn Thị Hương"
COMMANDS = (
    "id", "new", "play", "resign", "show", "verify", "code", "games", "record", "stats", "rules", "practice", "arena",
    "send", "resend", "inbox", "mail",
)  # fmt: skip


@dataclass(frozen=True)
class Said:
    """One command of the tour: who ran it, its arguments, exit status and what it printed."""

    who: str
    args: tuple[str, ...]
    code: int
    out: str
    err: str

    def __str__(self) -> str:
        return f"[{self.who}] spite {' '.join(self.args)} -> {self.code}\n{self.out}{self.err}"


@dataclass
class Tour:
    """Everything the tour printed, and the files it wrote."""

    said: list[Said] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    homes: dict[str, Path] = field(default_factory=dict)

    def text(self) -> str:
        return "\n".join(str(s) for s in self.said)


def environment(home: Path, lang: str, localedir: Path | None = None) -> dict[str, str]:
    """A player's terminal: 80x24, no colour, UTF-8, speaking `lang` (from `localedir` too, for the pseudo-language)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SPITE_", "LC_", "LANG"))}
    env.update(SPITE_HOME=str(home), SPITE_LANG=lang, COLUMNS=str(WIDTH), LINES=str(HEIGHT), NO_COLOR="1", PYTHONIOENCODING="utf-8")
    env["FORCE_COLOR"] = "1"  # rich takes the pipe for a terminal of COLUMNS x LINES: it lays text out as a player sees it
    env["PYTHONPATH"] = str(ROOT)
    if localedir is not None:
        env["SPITE_LOCALEDIR"] = str(localedir)
    return env


def run(tour: Tour, who: str, home: Path, lang: str, *args: str | Path, localedir: Path | None = None, cwd: Path | None = None) -> Said:
    """`spite ARGS` as a real process for `who`; the result is kept in the tour."""
    done = subprocess.run(
        [sys.executable, "-m", "pbm.cli", *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=environment(home, lang, localedir),
        cwd=cwd or home.parent,
        timeout=120,
    )
    said = Said(who, tuple(map(str, args)), done.returncode, ANSI.sub("", done.stdout), ANSI.sub("", done.stderr))
    assert "Traceback" not in said.out + said.err, said
    tour.said.append(said)
    return said


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
WROTE = re.compile(r"(spite-[0-9a-f]{8}-g\d+-t\d+(?:-[a-z]+)?\.toml)")


def _written(said: Said, folder: Path, before: set[Path]) -> Path | None:
    new = sorted(set(folder.glob("*.toml")) - before)
    assert len(new) <= 1, (new, said)
    return new[0] if new else None


def tour(root: Path, lang: str, localedir: Path | None = None, full: bool = True, turns: int = 8) -> Tour:
    """Run the tour under `root` (two spite homes and a mail folder) in language `lang`; `full` adds every command's help,
    the usage errors and the refusals."""
    homes = {"alice": root / "alice", "bob": root / "bob"}
    result = Tour(homes=homes)
    mail = root / "mail"
    mail.mkdir(parents=True)

    def spite(who: str, *args: str | Path) -> Said:
        return run(result, who, homes[who], lang, *args, localedir=localedir, cwd=mail)

    spite("alice", "id", "--name", ALICE)
    spite("bob", "id", "--name", BOB_TYPED)
    spite("bob", "id")
    if full:
        spite("alice", "--help")
        for command in COMMANDS:
            spite("alice", command, "--help")
        spite("alice", "mail", "setup", "--help")
        spite("alice", "play")  # a missing FILE
        spite("alice", "play", "--nope")  # an unknown option
        spite("alice", "new", "--payoff", "x")  # a bad value
        spite("alice", "nosuch")  # an unknown command
        spite("alice", "show", mail / "nothing-here.toml")  # no such file
        (mail / "garbage.toml").write_text("this is not a save\n", encoding="utf-8")
        spite("alice", "show", mail / "garbage.toml")
        spite("alice", "rules")
    invitation = mail / "invitation.toml"
    spite("alice", "new", "--opponent", BOB, "--payoff", "5", "--target", "10", "-o", invitation)
    result.files.append(invitation)
    path, reader, writer = invitation, "bob", "alice"
    for turn in range(turns):
        spite(reader, "show", path)
        if full and turn in (0, 3):
            spite(reader, "verify", path)
            spite(writer, "verify", path)
            spite(writer, "code", path)
        if full and turn == 2:
            spite(writer, "play", path)  # the wrong player's turn: refused
            spite(reader, "play", path, "--moves", "zz-c9")  # not a move
        before = set(mail.glob("*.toml"))
        said = spite(reader, "play", path, "--auto", "--think", "0.02", "--yes")
        written = _written(said, mail, before)
        if written is None:
            break
        result.files.append(written)
        if full and turn == 1:
            spite(reader, "play", path, "--auto", "--yes")  # already answered: refused
        path, reader, writer = written, writer, reader
    spite("alice", "games")
    spite("bob", "games", "--all")
    spite("alice", "stats")
    if full:
        match = re.search(r"spite-([0-9a-f]{8})-", " ".join(p.name for p in result.files[1:]))
        if match:
            spite("alice", "record", match.group(1))
            spite("alice", "resign", match.group(1), "--yes")  # maybe not the player's turn: said either way
    return result


def too_wide(tour: Tour) -> list[str]:
    """Lines of the tour wider than the terminal, in screen cells; but not a word wider than the screen (a file's path in
    a deep folder), which stays whole on a line of its own: the terminal wraps it, and a mouse copies it whole."""
    lines = [line for said in tour.said for line in (said.out + said.err).splitlines()]
    return [f"{cell_len(line)}: {line}" for line in lines if cell_len(line) > WIDTH and " " in line.strip()]


BOARD_TOP = re.compile(r"^Match |╭")


def boards(tour: Tour) -> list[str]:
    """The outputs of `spite show` and `spite play` (a board each), as printed."""
    return [said.out for said in tour.said if said.args[:1] in (("show",), ("play",)) and "--help" not in said.args and "│" in said.out]


def drawn_board(output: str) -> list[str]:
    """The lines of the board in a command's output: from the header (the line that names the match, the first with
    " · ") to the table's last line."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if " · " in line), 0)
    end = max((i for i, line in enumerate(lines) if "╰" in line), default=len(lines) - 1)
    return lines[start : end + 1]


MATCH_HEADER = re.compile(r"[0-9a-f]{8} · ")  # the board's first line names the match: "Match 1a2b3c4d · game 1"


def drawn_boards(output: str) -> list[list[str]]:
    """Each board in a command's output, as :func:`drawn_board` draws it: a turn that ends the game (``play --auto``
    whose bot plays the last pay-off card) prints the board it started from and then the board the game ended on."""
    lines = output.splitlines()
    starts = [i for i, line in enumerate(lines) if MATCH_HEADER.search(line)] or [0]
    ends = [*starts[1:], len(lines)]
    return [drawn_board("\n".join(lines[start:end])) for start, end in zip(starts, ends, strict=True)]


FILE_NAME = re.compile(r"spite-[0-9a-f]{8}-g\d+-t\d+(?:-[a-z0-9]+)*\.toml")
FILE_TAIL = re.compile(r"(?<![\w-])[\w-]*g\d+-t\d+(?:-[a-z0-9]+)*\.toml")


def cut_file_names(tour: Tour) -> list[str]:
    """Lines where a save's name was cut in two at the screen's edge (its end on a line without its beginning)."""
    cut = []
    for said in tour.said:
        for line in (said.out + said.err).splitlines():
            tails = [m.group() for m in FILE_TAIL.finditer(line)]
            if any(not tail.startswith("spite-") for tail in tails):
                cut.append(line)
    return cut
