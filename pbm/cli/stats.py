"""Counting your matches: spite stats (what each number means: docs/stats.md)."""

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Column, Table
from rich.text import Text

from pbm.cli.app import _handled, _identity, command, session
from pbm.cli.shared import _say_settled, practice_file
from pbm.client.answer import settle_invitations
from pbm.home import spite_home
from pbm.journal import Journal, MatchInfo
from pbm.saves import Player
from pbm.shown import plain

if TYPE_CHECKING:
    from pbm.stats import MatchSummary, Stats, Tally

SCHEMA = 1


@command(epilog="Example: spite stats --json")
@_handled
def stats(
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON for scripts (docs/stats.md).")] = False,
) -> None:
    """Count your matches per opponent and for practice: won, lost, resigned, unfinished; games; points; the longest match."""
    from pbm.stats import from_journal, tally

    home = spite_home()
    identity = _identity(home, look=True)
    key = identity.public_text

    def practice(info: MatchInfo) -> bool:
        return practice_file(info.latest.path)

    with Journal.open(home, write=False) as journal:  # counting writes nothing and needs no quick check of every page
        settle = bool(journal.unwritten())  # unless a stopped 'spite new' left an invitation to keep or forget, as games does
        summaries = [] if settle else from_journal(journal, key, practice)
    if settle:
        with Journal.open(home) as journal:
            _say_settled(settle_invitations(journal), aside=as_json)
            summaries = from_journal(journal, key, practice)
    counted = tally(summaries)
    if as_json:
        session.out.print_json(data=stats_json(counted))
        return
    _print_stats(counted)


def stats_json(counted: "Stats") -> dict[str, Any]:
    """`spite stats --json` (docs/stats.md)."""
    return {
        "schema": SCHEMA,
        "opponents": [_tally_json(t) for t in counted.opponents],
        "practice": _tally_json(counted.practice) if counted.practice else None,
        "total": _tally_json(counted.total),
    }


def _tally_json(t: "Tally") -> dict[str, Any]:
    longest = t.longest
    return {
        "opponent": t.opponent or None,
        "fingerprint": Player(t.opponent, t.opponent_key).fingerprint if t.opponent_key else None,
        "matches": {
            "total": t.matches,
            "won": t.won,
            "lost": t.lost,
            "resigned": t.resigned,
            "they_resigned": t.they_resigned,
            "unfinished": t.unfinished,
        },
        "games": {"won": t.games_won, "lost": t.games_lost, "tied": t.games_tied},
        "points": {"for": t.points_for, "against": t.points_against},
        "longest": _longest_json(longest) if longest else None,
    }


def _longest_json(m: "MatchSummary") -> dict[str, Any]:
    return {
        "match": m.match,
        "opponent": m.opponent,
        "result": m.result.value,
        "games": m.games,
        "turns": m.turns,
        "days": m.days,
        "started": m.started,
        "last": m.last,
    }


def _print_stats(counted: "Stats") -> None:
    """The table of `spite stats`: a row per opponent, one for practice, one for all; then the longest match of each."""
    rows = [*counted.opponents, *([counted.practice] if counted.practice else [])]
    if not rows:
        session.out.print("No matches yet. Start one with 'spite new' or 'spite practice'.")
        return
    names = [t.opponent for t in counted.opponents]
    headers = ("matches", "won", "lost", "you\nresigned", "they\nresigned", "in\nplay", "games", "points")
    total = _cells(counted.total) if len(rows) > 1 else [""] * len(headers)
    table = Table(  # no vertical lines: nine columns and a name fit 80 columns
        Column("opponent", overflow="fold", min_width=8, footer="all" if len(rows) > 1 else ""),
        *(Column(h, justify="right", no_wrap=True, footer=f) for h, f in zip(headers, total, strict=True)),
        box=box.SIMPLE,
        show_footer=len(rows) > 1,
        collapse_padding=True,
        pad_edge=False,
    )
    for t in rows:
        table.add_row(Text(_label(t, names)), *_cells(t))
    session.out.print(table)
    session.out.print("games: won–lost–tied; points: yours–theirs (your match scores added up).")
    for t in rows:
        m = t.longest
        if m is None:
            continue
        games = f"{m.games} game{'s' if m.games != 1 else ''}"
        turns = f"{m.turns} turn{'s' if m.turns != 1 else ''}"
        days = "within a day" if m.days == 0 else f"over {m.days} day{'s' if m.days != 1 else ''}"
        what = "in practice" if t.practice else f"against {_label(t, names)}"
        session.out.print(f"Longest {what}: {m.match[:8]}, {games}, {turns}, {days} ({_said(m)}).", markup=False)
    session.out.print("What each number counts: docs/stats.md. Finished matches: spite games --all.")


def _label(t: "Tally", names: list[str]) -> str:
    """The row's name: practice, or the opponent's (with their fingerprint where two opponents share a name)."""
    if t.practice:
        return "practice"
    name = plain(t.opponent)
    if t.opponent_key and names.count(t.opponent) > 1:
        return f"{name} ({Player(t.opponent, t.opponent_key).fingerprint})"
    return name


def _cells(t: "Tally") -> list[str]:
    return [
        str(t.matches),
        str(t.won),
        str(t.lost),
        str(t.resigned),
        str(t.they_resigned),
        str(t.unfinished),
        f"{t.games_won}–{t.games_lost}–{t.games_tied}",
        f"{t.points_for}–{t.points_against}",
    ]


def _said(m: "MatchSummary") -> str:
    """A match's result in a few words, its score yours first."""
    from pbm.stats import Result

    words = {
        Result.WON: "you won",
        Result.LOST: "you lost",
        Result.RESIGNED: "you resigned",
        Result.THEY_RESIGNED: "they resigned",
        Result.UNFINISHED: "in play",
    }
    return f"{words[m.result]} {m.points_for}–{m.points_against}"
