"""`spite stats` and `spite games --all` after real matches: practice matches against the computer and a match by files."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import THINK, Player, files, invite, make_player, new_file, scratch, spite_process

from pbm import saves
from pbm.stats import MatchSummary, Result
from pbm.stats import tally as tallied

NAME = re.compile(r"spite-([0-9a-f]{8})-g(\d+)-t(\d+)")


@dataclass
class Played:
    """Ann's spite home after her matches: one finished and one unfinished by files against Bob, two practice matches."""

    ann: Player
    bob: Player
    computer: Player  # the computer's own spite home, under Ann's (spite practice keeps it there)
    mail_done: str  # match ids
    mail_going: str
    practice_done: str
    practice_going: str


def _back_and_forth(first: Player, second: Player, path: Path, files_at_most: int = 300) -> bool:
    """`second` answers `path`, then each answers the other's file with --auto, until one has nothing to send (True: the
    match is over and its last file written) or `files_at_most` are written (False)."""
    writer, reader = first, second
    for _ in range(files_at_most):
        before = files(path.parent)
        reader.ok("play", path, "--auto", "--think", THINK)
        written = new_file(before, path.parent)
        if written is None:
            return True
        writer, reader, path = reader, writer, written
    return False


def _practice(ann: Player, computer: Player, finish: bool) -> str:
    """A practice match as `spite practice` starts it (the computer answers until it is Ann's move, and she quits); `finish`:
    then played to its end, Ann's turns by the bot in her home, the computer's in its own, the files where practice keeps them."""
    folder = ann.home / "practice" / "saves"
    before = set(folder.iterdir()) if folder.exists() else set()
    ann.ok("practice", "--level", "easy", "--payoff", "2", "--target", "3", "--think", THINK, input="q\n")
    started = sorted(set(folder.iterdir()) - before, key=lambda p: saves.read(p).seq)
    match = saves.read(started[0]).match
    if finish:
        latest = started[-1]
        assert saves.read(latest).signer_key.text == computer.public_text  # Ann's move, as she left it
        assert _back_and_forth(computer, ann, latest)
    return match


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    with scratch(tmp_path_factory.mktemp("stats")) as root:
        ann, bob, invitation = invite(root, payoff=2, target=3)
        assert _back_and_forth(ann, bob, invitation)
        mail_done = saves.read(invitation).match
        going = root / "mail" / "second.toml"
        ann.ok("new", "--payoff", "2", "--target", "3", "-o", going)
        assert not _back_and_forth(ann, bob, going, files_at_most=4)  # Bob joins, the deal, a turn or two: unfinished
        # Bob looks at Ann's latest file without answering it. With pay-off piles of 2 a turn can win a game, and a
        # player's stats cannot count it before that player has read the file: now both journals hold every file.
        last = _last_files(saves.read(going).match, going.parent)
        bob.show(last[max(last)][1])
        computer = Player("Computer", ann.home / "practice")
        practice_done = _practice(ann, computer, finish=True)
        practice_going = _practice(ann, computer, finish=False)
        yield Played(ann, bob, computer, mail_done, saves.read(going).match, practice_done, practice_going)


def _last_files(match: str, folder: Path) -> dict[int, tuple[int, Path]]:
    """The last file of each game of `match` in `folder` by its name (the loser's keys file after the one that ended it)."""
    last: dict[int, tuple[int, Path]] = {}
    for path in folder.iterdir():
        found = NAME.match(path.name)
        if found and found.group(1) == match[:8]:
            game, turn = int(found.group(2)), int(found.group(3))
            if game not in last or (turn, len(path.name)) > (last[game][0], len(last[game][1].name)):
                last[game] = (turn, path)
    return last


def _results(player: Player, match: str, folder: Path) -> tuple[list[str | None], dict[str, int]]:
    """The winner's name (None for a tie) of each game of `match` that ended, as `spite show --json` of the last file of each
    game says, and the scores by name of its latest file."""
    last = _last_files(match, folder)
    winners, scores = [], {}
    for game in sorted(last):
        view = player.show(last[game][1])
        if view["outcome"] is not None:
            winners.append(view["outcome"]["winner"])
        scores = view["scores"]
    return winners, scores


def _expected(player: Player, opponent: str, match: str, folder: Path) -> dict[str, int]:
    winners, scores = _results(player, match, folder)
    return {
        "won": winners.count(player.name),
        "lost": winners.count(opponent),
        "tied": winners.count(None),
        "for": scores[player.name],
        "against": scores[opponent],
    }


def _tally(row: dict) -> dict[str, int]:
    return {**row["games"], **row["points"]}


def test_stats_json_counts_each_opponent_practice_and_all_as_the_match_files_say(played: Played) -> None:
    ann = played.ann
    data = json.loads(ann.ok("stats", "--json").stdout)
    assert data["schema"] == 1
    (bob,) = data["opponents"]
    assert (bob["opponent"], bob["fingerprint"]) == ("Bob", played.bob.identity.fingerprint)
    mail = ann.home.parent / "mail"
    done = _expected(ann, "Bob", played.mail_done, mail)
    going = _expected(ann, "Bob", played.mail_going, mail)
    assert max(done["for"], done["against"]) >= 3  # the finished match reached its target
    assert _tally(bob) == {key: done[key] + going[key] for key in done}
    won = done["for"] >= 3
    assert bob["matches"] == {"total": 2, "won": int(won), "lost": int(not won), "resigned": 0, "they_resigned": 0, "unfinished": 1}
    assert bob["longest"]["match"] == played.mail_done and bob["longest"]["result"] == ("won" if won else "lost")
    last = _last_files(played.mail_done, mail)
    assert bob["longest"]["games"] == len(last) == sum(done[key] for key in ("won", "lost", "tied"))  # each game ended
    assert bob["longest"]["turns"] == sum(turn for turn, _ in last.values()) and bob["longest"]["days"] == 0

    practice = data["practice"]
    folder = ann.home / "practice" / "saves"
    p_done = _expected(ann, "Computer", played.practice_done, folder)
    p_going = _expected(ann, "Computer", played.practice_going, folder)
    assert _tally(practice) == {key: p_done[key] + p_going[key] for key in p_done}
    won = p_done["for"] >= 3
    assert practice["matches"] == {"total": 2, "won": int(won), "lost": int(not won), "resigned": 0, "they_resigned": 0, "unfinished": 1}
    assert practice["opponent"] == "Computer" and practice["fingerprint"] is None
    assert practice["longest"]["match"] == played.practice_done

    total = data["total"]
    assert total["matches"]["total"] == 4 and total["matches"]["unfinished"] == 2
    assert _tally(total) == {key: _tally(bob)[key] + _tally(practice)[key] for key in _tally(bob)}
    assert total["opponent"] is None


def test_stats_json_of_the_finished_match_agrees_for_both_players(played: Played) -> None:
    """Bob's journal tells the same match from his side: his games won are Ann's lost, his points hers against."""
    ann = json.loads(played.ann.ok("stats", "--json").stdout)["opponents"][0]
    (bob,) = json.loads(played.bob.ok("stats", "--json").stdout)["opponents"]
    assert bob["opponent"] == "Alice" and bob["fingerprint"] == played.ann.identity.fingerprint
    assert (bob["games"]["won"], bob["games"]["lost"], bob["games"]["tied"]) == (
        ann["games"]["lost"],
        ann["games"]["won"],
        ann["games"]["tied"],
    )
    assert (bob["points"]["for"], bob["points"]["against"]) == (ann["points"]["against"], ann["points"]["for"])
    assert (bob["matches"]["won"], bob["matches"]["lost"]) == (ann["matches"]["lost"], ann["matches"]["won"])


def test_stats_table_has_a_row_each_and_the_longest_matches(played: Played) -> None:
    data = json.loads(played.ann.ok("stats", "--json").stdout)
    run = played.ann.ok("stats")
    rows = {cells[0]: cells[1:] for cells in _stats_rows(run.stdout)}
    for name, tally in (("Bob", data["opponents"][0]), ("practice", data["practice"]), ("all", data["total"])):
        m, g, p = tally["matches"], tally["games"], tally["points"]
        counts = [str(m[key]) for key in ("total", "won", "lost", "resigned", "they_resigned", "unfinished")]
        assert rows[name] == [*counts, f"{g['won']}–{g['lost']}–{g['tied']}", f"{p['for']}–{p['against']}"], run
    longest = data["opponents"][0]["longest"]
    assert f"Longest against Bob: {played.mail_done[:8]}, {longest['games']} games, {longest['turns']} turns, within a day" in run.stdout
    assert f"Longest in practice: {played.practice_done[:8]}," in run.stdout, run


def test_stats_fits_80_columns(played: Played) -> None:
    run = spite_process(played.ann.home, "stats", COLUMNS="80")
    assert run.returncode == 0, run
    assert all(len(line) <= 80 for line in run.stdout.splitlines()), run.stdout
    assert [cells[0] for cells in _stats_rows(run.stdout)] == ["Bob", "practice", "all"], run.stdout


def test_stats_of_a_home_with_no_match(tmp_path: Path) -> None:
    fresh = make_player(tmp_path, "Cy")
    assert "No matches yet" in fresh.ok("stats").stdout
    data = json.loads(fresh.ok("stats", "--json").stdout)
    assert data["opponents"] == [] and data["practice"] is None and data["total"]["matches"]["total"] == 0


def _stats_rows(text: str) -> list[list[str]]:
    """The rows of the table of `spite stats` (no vertical lines: cells stand two spaces apart or more), the total last."""
    rows = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()]
    return [cells for cells in rows if len(cells) == 9 and cells[1].isdigit()]


def _table(text: str) -> list[list[str]]:
    """The body rows of the table of `spite games`, cell by cell."""
    return [[c.strip() for c in line.strip("│").split("│")] for line in text.splitlines() if line.startswith("│")]


def test_games_leaves_finished_matches_out_unless_all(played: Played) -> None:
    ann = played.ann
    listed = ann.ok("games")
    shown = {cells[0] for cells in _table(listed.stdout)}
    assert shown == {played.mail_going[:8], played.practice_going[:8]}, listed
    assert "2 finished matches are not listed: spite games --all lists them" in listed.stdout, listed
    every = ann.ok("games", "--all")
    assert {cells[0] for cells in _table(every.stdout)} == {
        played.mail_done[:8],
        played.mail_going[:8],
        played.practice_done[:8],
        played.practice_going[:8],
    }
    assert "not listed" not in every.stdout, every
    data = json.loads(ann.ok("games", "--json").stdout)
    assert {m["match"] for m in data["matches"]} == {played.mail_going, played.practice_going} and data["hidden"] == 2
    data = json.loads(ann.ok("games", "--json", "--all").stdout)
    assert len(data["matches"]) == 4 and data["hidden"] == 0


def test_a_match_over_stays_listed_while_its_last_file_is_owed(played: Played, tmp_path: Path) -> None:
    """The file that reaches the target still has an answer to come (the loser's keys of the last game): until the journal
    has it, the match is not finished and spite games lists it; spite stats counts its result already."""
    mail = played.ann.home.parent / "mail"
    chain = sorted(mail.glob(f"spite-{played.mail_done[:8]}-*"), key=lambda p: saves.read(p).seq)
    winning, keys = saves.read(chain[-2]), saves.read(chain[-1])
    assert max(winning.score) >= 3 and keys.signer != winning.signer and keys.score == winning.score
    winner = played.ann if winning.signer_key.text == played.ann.public_text else played.bob
    before = Player(winner.name, tmp_path / "home")  # the winner's home as it was before the keys came: its last record taken out
    shutil.copytree(winner.home, before.home)
    with contextlib.closing(sqlite3.connect(before.home / "journal.sqlite")) as db, db:
        db.execute("DELETE FROM saves WHERE hash = ?", (keys.hash,))
    listed = before.ok("games").stdout
    assert played.mail_done[:8] in listed, listed
    hidden = json.loads(before.ok("games", "--json").stdout)["hidden"]
    assert hidden == (1 if winner is played.ann else 0)  # Ann's finished practice match, not this one
    assert json.loads(before.ok("stats", "--json").stdout)["opponents"][0]["matches"]["won"] == 1
    assert played.mail_done[:8] not in winner.ok("games").stdout  # with the keys recorded it is finished


def _summary(match: str, opponent: str, practice: bool = False) -> MatchSummary:
    when = "2026-12-05T10:00:00+00:00"
    key = "" if practice else f"spite1:{match}"
    return MatchSummary(match, opponent, key, practice, Result.UNFINISHED, 1, 0, 0, 12, 3, 2, 40, when, when)


def test_stats_headings_of_a_longer_language_leave_the_names_their_column(monkeypatch: pytest.MonkeyPatch) -> None:
    """Headings a third longer (as the pseudo-language makes them) than 80 columns hold side by side wrap, and fold
    within their column, rather than squeeze the opponent's column out of the table."""
    from rich.cells import cell_len
    from rich.console import Console

    from pbm.cli import stats as command
    from pbm.cli.app import session

    def longer(text: str) -> str:
        return "⟦" + text + "·" * -(-sum(ch.isalpha() for ch in text) // 3) + "⟧"

    counted = tallied(
        [_summary("3342e18f" * 8, "Nguyễn Thị Hương"), _summary("a" * 64, "Putu Ayu Kartika Dewi Wulandari"), _summary("b" * 64, "", True)]
    )
    out = Console(width=80, record=True, no_color=True, color_system=None, highlight=False, markup=False)
    monkeypatch.setattr(session, "out", out)
    command._print_stats(counted)
    english = out.export_text()
    rows = english.splitlines()
    assert re.search(r"\n opponent +matches +won +lost +resigned +resigned +play +games +points *\n", english), english  # as ever
    assert any(row.strip().startswith("Nguyễn Thị Hương ") for row in rows), english
    monkeypatch.setattr(command, "pgettext", lambda context, text: longer(text))
    command._print_stats(counted)
    text = out.export_text()
    lines = text.splitlines()
    assert all(cell_len(line) <= 80 for line in lines), text
    names = " ".join(line.split("  ")[0].strip() for line in lines if line.strip() and line.lstrip()[0] not in "⟦─")
    assert "Nguyễn Thị" in names and "Hương" in names and "Putu Ayu" in names, text  # the names keep a column of their own
    assert "1–0–0" in text and "12–3" in text and "36–9" in text  # every number whole
