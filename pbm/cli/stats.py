"""Counting your matches: spite stats (what each number means: docs/stats.md)."""

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.measure import Measurement
from rich.table import Column, Table
from rich.text import Text

from pbm.cli.app import _handled, _identity, command, print_json, session
from pbm.cli.shared import _say_settled, practice_file
from pbm.client.answer import settle_invitations
from pbm.home import spite_home
from pbm.i18n import N_, _, npgettext, pgettext
from pbm.journal import Journal, MatchInfo
from pbm.saves import Player
from pbm.shown import plain

if TYPE_CHECKING:
    from pbm.stats import MatchSummary, Stats, Tally

SCHEMA = 1
OPPONENT_ROOM = 10  # cells the column of names keeps, at least, when the headings of numbers must be narrowed for it


@command(
    help=_("Count your matches per opponent and for practice: won, lost, resigned, unfinished; games; points; the longest match."),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite stats --json"),
)
@_handled
def stats(
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the counts as JSON for scripts (docs/stats.md)."))] = False,
) -> None:
    """Count your matches per opponent and for practice."""
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
        print_json(stats_json(counted))
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
        session.out.print(_("No matches yet. Start one with 'spite new' or 'spite practice'."))
        return
    names = [t.opponent for t in counted.opponents]
    total = _cells(counted.total) if len(rows) > 1 else [""] * len(_headings())
    # TRANSLATORS: the last row of spite stats' table, under the column "opponent": the matches against everyone added up
    everyone = pgettext("spite stats: the row of all matches", "all")
    # TRANSLATORS: the heading of the first column of spite stats: the opponent (or practice) each row counts
    opponent = pgettext("spite stats: a column's heading", "opponent")
    labels = [_label(t, names) for t in rows]
    least = [max(cell_len(row[i]) for row in [*map(_cells, rows), total]) for i in range(len(total))]
    names_room = min(OPPONENT_ROOM, max(cell_len(text) for text in [opponent, everyone, *labels]))
    room = session.out.width - _overhead(len(total)) - names_room
    headings, widths = _fitted_headings(session.out, _headings(), least, room)
    table = _table(headings, widths, opponent, total, everyone if len(rows) > 1 else "")
    for t, label in zip(rows, labels, strict=True):
        table.add_row(Text(label), *_cells(t))
    session.out.print(table)
    # TRANSLATORS: under spite stats' table: what its columns "games" and "points" hold (keep "games" and "points" as the
    # headings say them)
    session.out.print(_("games: won–lost–tied; points: yours–theirs (your match scores added up)."))
    for t in rows:
        m = t.longest
        if m is None:
            continue
        # TRANSLATORS: in the line on the longest match of spite stats (Longest against Bob: 3342e18f, 3 games, 40 turns, ...)
        games = npgettext("spite stats: the longest match", "{n} game", "{n} games", m.games).format(n=m.games)
        # TRANSLATORS: in the line on the longest match of spite stats (Longest against Bob: 3342e18f, 3 games, 40 turns, ...)
        turns = npgettext("spite stats: the longest match", "{n} turn", "{n} turns", m.turns).format(n=m.turns)
        if m.days == 0:
            # TRANSLATORS: in the line on the longest match of spite stats: it was played within 24 hours
            days = pgettext("spite stats: the longest match", "within a day")
        else:
            # TRANSLATORS: in the line on the longest match of spite stats: how many days it took
            days = npgettext("spite stats: the longest match", "over {n} day", "over {n} days", m.days).format(n=m.days)
        values = {"match": m.match[:8], "games": games, "turns": turns, "days": days, "result": _said(m)}
        if t.practice:
            # TRANSLATORS: {match} is the match's id (8 hex digits); {games}, {turns} and {days} say how long it was (3
            # games, 40 turns, over 2 days), {result} how it stands (you won 50–32)
            said = _("Longest in practice: {match}, {games}, {turns}, {days} ({result}).")
        else:
            # TRANSLATORS: {name} is the opponent, {match} the match's id (8 hex digits); {games}, {turns} and {days} say
            # how long it was (3 games, 40 turns, over 2 days), {result} how it stands (you won 50–32)
            said = _("Longest against {name}: {match}, {games}, {turns}, {days} ({result}).")
        session.out.print(said.format(name=_label(t, names), **values), markup=False)
    session.out.print(_("What each number counts: docs/stats.md. Finished matches: spite games --all."))


def _table(headings: Sequence[str], widths: Sequence[int] | None, opponent: str, total: Sequence[str], footer: str = "") -> Table:
    """The table of spite stats, without rows: the opponent's column (a long name wraps in it), then the columns of
    numbers, at `widths` when given (their headings are laid out for them), with a footer row of `total` when `footer`
    names it."""
    numbers = (
        Column(h, justify="right", no_wrap=True, footer=f, width=widths[i] if widths else None)
        for i, (h, f) in enumerate(zip(headings, total, strict=True))
    )
    return Table(  # no vertical lines: nine columns and a name fit 80 columns
        Column(opponent, overflow="fold", min_width=8, footer=footer),
        *numbers,
        box=box.SIMPLE,
        show_footer=bool(footer),
        collapse_padding=True,
        pad_edge=False,
    )


def _overhead(columns: int) -> int:
    """The cells the table of spite stats takes besides what its columns hold (edges, gaps, padding)."""
    bare = _table(["x"] * columns, None, "x" * 8, [""] * columns)
    return Measurement.get(session.out, session.out.options.update_width(10_000), bare).maximum - 8 - columns


def _fitted_headings(console: Console, headings: Sequence[str], least: Sequence[int], room: int) -> tuple[list[str], list[int] | None]:
    """The headings of the columns of numbers, and their widths, for `room` cells (all the columns side by side): as the
    translation writes them when they fit (no widths: the columns are as wide as they need); else each broken at every
    space, as narrow as its longest word; else the widest ones narrower still, a word folded across lines. A column is
    never narrower than its numbers (`least`)."""
    written = [max(cell_len(line) for line in h.split("\n")) for h in headings]
    if sum(max(w, n) for w, n in zip(written, least, strict=True)) <= room:
        return list(headings), None
    widths = [max(n, *(cell_len(word) for word in h.split())) for h, n in zip(headings, least, strict=True)]
    while sum(widths) > room:
        narrower = [i for i, w in enumerate(widths) if w > max(least[i], 2)]
        if not narrower:
            break
        widest = max(narrower, key=lambda i: widths[i])
        widths[widest] -= 1
    laid = []
    for heading, width in zip(headings, widths, strict=True):
        lines = Text(" ".join(heading.split())).wrap(console, width, overflow="fold")
        laid.append("\n".join(line.plain.rstrip() for line in lines))
    return laid, widths


def _headings() -> tuple[str, ...]:
    """The headings of spite stats' columns of numbers."""
    # Nine columns and the opponent's name fit 80 columns: each heading at most 8 cells a line.
    return (
        # TRANSLATORS: a heading of spite stats' table: matches played; at most 8 cells
        pgettext("spite stats: a column's heading", "matches"),
        # TRANSLATORS: a heading of spite stats' table: matches you won; at most 8 cells
        pgettext("spite stats: a column's heading", "won"),
        # TRANSLATORS: a heading of spite stats' table: matches you lost; at most 8 cells
        pgettext("spite stats: a column's heading", "lost"),
        # TRANSLATORS: a heading of spite stats' table: matches you resigned; two lines (\n between them) of at most 8 cells
        pgettext("spite stats: a column's heading", "you\nresigned"),
        # TRANSLATORS: a heading of spite stats' table: matches your opponent resigned; two lines (\n between them) of at
        # most 8 cells
        pgettext("spite stats: a column's heading", "they\nresigned"),
        # TRANSLATORS: a heading of spite stats' table: matches not over yet; two lines (\n between them) of at most 8 cells
        pgettext("spite stats: a column's heading", "in\nplay"),
        # TRANSLATORS: a heading of spite stats' table: games won–lost–tied; at most 8 cells
        pgettext("spite stats: a column's heading", "games"),
        # TRANSLATORS: a heading of spite stats' table: points yours–theirs; at most 8 cells
        pgettext("spite stats: a column's heading", "points"),
    )


def _label(t: "Tally", names: list[str]) -> str:
    """The row's name: practice, or the opponent's (with their fingerprint where two opponents share a name)."""
    if t.practice:
        # TRANSLATORS: the row of spite stats' table that counts the matches against the computer (spite practice)
        return pgettext("spite stats: the row of practice matches", "practice")
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
        # TRANSLATORS: how the longest match stands, in spite stats; {yours}–{theirs} is its score
        Result.WON: N_("you won {yours}–{theirs}"),
        # TRANSLATORS: how the longest match stands, in spite stats; {yours}–{theirs} is its score
        Result.LOST: N_("you lost {yours}–{theirs}"),
        # TRANSLATORS: how the longest match stands, in spite stats; {yours}–{theirs} is its score
        Result.RESIGNED: N_("you resigned {yours}–{theirs}"),
        # TRANSLATORS: how the longest match stands, in spite stats; {yours}–{theirs} is its score
        Result.THEY_RESIGNED: N_("they resigned {yours}–{theirs}"),
        # TRANSLATORS: how the longest match stands, in spite stats (not over yet); {yours}–{theirs} is its score
        Result.UNFINISHED: N_("in play {yours}–{theirs}"),
    }
    return _(words[m.result]).format(yours=m.points_for, theirs=m.points_against)
