"""The small things a friend notices (issue 34, item 12), those that need no terminal: plain `spite`, a very long name in
an error, the header of an earlier file, what spite games suggests without mail, long side stacks at a narrow width.
The terminal's own (a practice match's options, a window that shrinks, the banner at 80x24) are in test_screen_pty.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_helpers import Mail, Player, spite_process

from pbm import mailconf

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LONG = "a" * 500


@pytest.fixture
def ex(tmp_path: Path) -> Path:
    return Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))


@pytest.mark.parametrize("args", [(), ("mail",)])
def test_spite_alone_prints_its_help_with_status_0(tmp_path: Path, args: tuple[str, ...]) -> None:
    run = Player("A", tmp_path / "home").spite(*args)
    assert run.exit_code == 0 and run.stderr == "", run
    assert f"Usage: spite {' '.join(args)}".rstrip() + " [OPTIONS] COMMAND" in run.stdout, run
    assert not (tmp_path / "home").exists()  # asking for help makes nothing


@pytest.mark.parametrize(
    "args",
    [(LONG,), ("mail", LONG), ("help", LONG), ("practice", "--level", LONG), ("arena", "--bots", f"{LONG},easy")],
)
def test_a_very_long_name_is_cut_short_in_its_error(tmp_path: Path, args: tuple[str, ...]) -> None:
    run = Player("A", tmp_path / "home").spite(*args)
    lines = run.stderr.splitlines()
    assert run.exit_code == 2 and len(lines) == 1 and lines[0].startswith("spite: "), run
    assert "a" * 38 in lines[0] and "a" * 41 not in lines[0] and "…" in lines[0], run  # recognisable, and short


def test_an_earlier_file_says_whose_turn_it_was_not_your_turn(ex: Path) -> None:
    alice = Player("Alice", ex / "keys" / "alice")
    alice.ok("show", ex / "saves" / "14-bob.toml")  # the match's latest, seen
    for name, was in (("08-bob.toml", "turn 7 was yours"), ("07-alice.toml", "turn 6 was Bob (demo)'s")):
        shown = alice.ok("show", ex / "saves" / name).stdout
        header = " ".join(shown.split("\n\n", 1)[0].split())
        assert was in header and "your turn" not in shown, shown
        assert header.index(was) < shown.index("This is an earlier file of the match")
    latest = alice.ok("show", ex / "saves" / "14-bob.toml").stdout
    assert "turn 13: your turn" in " ".join(latest.split("\n\n", 1)[0].split()), latest  # the latest file: whose it is now


def test_spite_games_names_spite_play_without_mail_and_inbox_play_with_it(mail: Mail, tmp_path: Path) -> None:
    mail.bob.ok("show", mail.latest)  # seen: Bob's move
    games = mail.bob.ok("games").stdout  # Bob plays by files: no mail set up
    assert f"Your move: spite play {mail.latest.resolve()}" in " ".join(games.split()), games
    assert "inbox" not in games, games
    settings = mailconf.MailSettings(
        address="bob@example.com", user="bob", smtp_host="localhost", smtp_port=2525, smtp_security="plain", maildir=str(tmp_path / "M")
    )
    mailconf.save(mail.bob.home, settings)
    games = mail.bob.ok("games").stdout
    assert f"Your move: spite play {mail.latest.resolve()} (or spite inbox --play)" in " ".join(games.split()), games


def test_a_long_side_stack_shows_its_top_cards_and_how_many_more(ex: Path) -> None:
    home = ex / "keys" / "alice"
    view = json.loads(spite_process(home, "show", "--json", ex / "saves" / "14-bob.toml").stdout)
    stack = max(view["side"], key=len)
    assert len(stack) >= 4  # 9♦ 8♥ 7♣ 6♣: too long for its row at 44 columns
    narrow = spite_process(home, "show", ex / "saves" / "14-bob.toml", COLUMNS="44")
    assert narrow.returncode == 0, narrow.stderr
    assert f"│+{len(stack) - 1}│6♣ │" in narrow.stdout, narrow.stdout  # the top card, and how many lie under it
    assert "987" not in narrow.stdout and max(len(line) for line in narrow.stdout.splitlines()) <= 44
