"""Playing the computer: spite practice (a real match against a bot, in this terminal), and spite arena (bot against bot)."""

import functools
import json
from pathlib import Path
from typing import Annotated

import typer

from engine.rules import G4A
from pbm import saves
from pbm.cli.app import (
    PayoffOption,
    TargetOption,
    ThinkOption,
    UsageError,
    _handled,
    _identity,
    _interactive_terminal,
    _make_bot,
    command,
    confirm,
    session,
)
from pbm.cli.play import _bot_turn, _interactive
from pbm.cli.shared import _board, _game_over, _result_line, _say_settled, _show_game_over
from pbm.client import turn
from pbm.client.answer import answer, new_match, replace_rules, settle_invitations
from pbm.client.receive import Opened, open_save, record_received, reopen
from pbm.errors import SpiteError
from pbm.home import match_lock, spite_home
from pbm.i18n import N_, _, error_text, ngettext, pgettext
from pbm.identity import Identity, load_or_create
from pbm.journal import Journal
from pbm.shown import cut, plain, shown

LEVELS = ("easy", "normal", "expert")


def _level(value: str) -> str:
    if value not in LEVELS:
        # TRANSLATORS: {value} is what the player gave, in quotes; easy, normal and expert are the levels' names: keep them
        raise typer.BadParameter(_("{value} is not a level: choose easy, normal or expert").format(value=shown(value)))
    return value


# TRANSLATORS: follows "Nothing written;" when the player leaves a practice match
PRACTICE_AGAIN = N_("'spite practice --resume' goes on later.")


@command(
    help=_("Play against the computer in this terminal; every turn is a real, verifiable save file."),
    epilog=_("Example: spite practice --level normal --payoff 10 --target 20   (or spite practice --resume 3342e18f)"),
)
@_handled
def practice(
    level: Annotated[
        str, typer.Option("--level", metavar="LEVEL", callback=_level, help=_("How strong the computer plays: easy, normal or expert."))
    ] = "expert",
    payoff: PayoffOption = None,
    target: TargetOption = None,
    resume: Annotated[
        bool, typer.Option("--resume", help=_("Go on with an unfinished practice match: MATCH, or the latest without it."))
    ] = False,
    match: Annotated[
        str | None,
        typer.Argument(
            metavar="[MATCH]", show_default=False, help=_("With --resume: the match, its first hex digits as spite games shows.")
        ),
    ] = None,
    think: ThinkOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=_("Write each turn without asking to confirm it."))] = False,
) -> None:
    """Play against the computer in this terminal."""
    if match is not None and not resume:
        raise UsageError(_("MATCH says which practice match --resume goes on with: add --resume"))
    fresh = payoff is not None or target is not None  # they set up a new match: no unfinished one is offered in its place
    if fresh and resume:
        raise UsageError(_("--payoff and --target set up a new match: leave them out with --resume"))
    home = spite_home()
    identity = _identity(home)
    bot_home = home / "practice"
    from pbm.home import ensure_private_dir

    ensure_private_dir(bot_home)
    computer = load_or_create(bot_home, name="Computer")
    files = ensure_private_dir(bot_home / "saves")
    with Journal.open(home) as journal, Journal.open(bot_home) as bot_journal:
        _say_settled(settle_invitations(journal))
        path = None if fresh else _to_resume(unfinished(journal, bot_journal, identity, computer), (match or "") if resume else None)
        if path is None:
            rules = replace_rules(G4A, payoff, target)
            __, path = new_match(identity, journal, rules, computer.name, computer.public_text, directory=files)
            # TRANSLATORS: {level} is the computer's level (easy, normal or expert: keep it); {points} the points that win
            # the match; {quit} the word that leaves the prompt, in the player's language; {again} the sentence that says
            # how to go on later ("'spite practice --resume' goes on later.")
            started = _("New practice match against the computer ({level}), first to {points}. Type {quit} to stop; {again}")
            said = started.format(level=level, points=rules.target_score, quit=turn.first_word(turn.QUIT), again=_(PRACTICE_AGAIN))
            session.out.print(said)
        else:
            session.out.print(_("Resuming {file}").format(file=path), soft_wrap=True, markup=False)
        playing = saves.read(path).match
        with match_lock(home, playing), match_lock(bot_home, playing):
            _practise(path, identity, journal, computer, bot_journal, level, think, yes)


def unfinished(journal: Journal, bot: Journal, me: Identity, computer: Identity) -> list[tuple[str, Path]]:
    """Every unfinished practice match (its id and newest file, whichever journal has it), the most recently active first."""
    found = []
    for info in journal.matches():
        if info.seat_of(me.public_key) is not None and info.seat_of(computer.public_key) is not None and not info.over:
            theirs = bot.latest(info.match)
            latest = theirs if theirs is not None and theirs.seq > info.latest.seq else info.latest
            found.append((info.match, Path(latest.path)))
    return found


def _to_resume(matches: list[tuple[str, Path]], resume: str | None) -> Path | None:
    """The newest file of the practice match to go on with (`resume`: a match id's start, "" the latest), or None for a new one.

    Without --resume, an unfinished match is offered at a terminal, and named otherwise.
    """
    if resume is None:
        if not matches:
            return None
        match, path = matches[0]
        more = len(matches) - 1
        if not _interactive_terminal():
            if more:
                said = ngettext(
                    "Your practice match {match} is unfinished (and {n} more: spite games lists them): "
                    "'spite practice --resume' goes on with it.",
                    "Your practice match {match} is unfinished (and {n} more: spite games lists them): "
                    "'spite practice --resume' goes on with it.",
                    more,
                )
            else:
                said = _("Your practice match {match} is unfinished: 'spite practice --resume' goes on with it.")
            session.out.print(said.format(match=match[:8], n=more))
            return None
        if more:
            question = ngettext(
                "Go on with your unfinished practice match {match} (and {n} more: spite games lists them)?",
                "Go on with your unfinished practice match {match} (and {n} more: spite games lists them)?",
                more,
            )
        else:
            question = _("Go on with your unfinished practice match {match}?")
        return path if confirm(question.format(match=match[:8], n=more), default=True) else None
    if not matches:
        raise SpiteError(_("there is no unfinished practice match to resume: start one with 'spite practice'"))
    wanted = resume.strip().lower()
    if not wanted:
        return matches[0][1]
    chosen = [path for match, path in matches if match.startswith(wanted)]
    if not chosen:
        names = ", ".join(match[:8] for match, __ in matches)
        # TRANSLATORS: {match} is what the player typed; {matches} the ids of their unfinished practice matches, comma-separated
        said = _("no unfinished practice match starts with {match}: yours are {matches} (spite games lists them)")
        raise SpiteError(said.format(match=plain(cut(resume)), matches=names))
    if len(chosen) > 1:
        # TRANSLATORS: {match} is what the player typed
        raise SpiteError(
            _("{match} starts more than one unfinished practice match: give more of its digits").format(match=plain(cut(resume)))
        )
    return chosen[0]


def _practise(
    path: Path, identity: Identity, journal: Journal, computer: Identity, bot: Journal, level: str, think: float | None, yes: bool
) -> None:
    """Play the practice match from `path` on, file by file, until it is over or the player quits."""
    ended: set[int] = set()  # the games whose end was shown
    while True:
        human_turn = saves.read(path).signer_key.text != identity.public_text
        who, book = (identity, journal) if human_turn else (computer, bot)
        opened = open_save(path, who, book)
        if human_turn:
            opened = record_received(opened)  # seen: 'spite games' and --resume know where the match stands at once
        if not opened.owes_file and opened.match_over:
            session.out.print(_result_line(opened) or "", markup=False)
            return
        if human_turn:
            _practice_game_over(opened, ended)
            if opened.can_move:
                _board(opened)
                again = functools.partial(reopen, opened)
                opened = _interactive(opened, think, not yes and _interactive_terminal(), again, _(PRACTICE_AGAIN))
        elif opened.can_move:
            _bot_turn(opened, level, think)
        __, path = answer(opened)
        if human_turn:
            _practice_game_over(opened, ended)


def _practice_game_over(opened: Opened, ended: set[int]) -> None:
    """Once per game: its final board and banner, then wait for a key so the next deal does not scroll it away."""
    if opened.game in ended or not _game_over(opened):
        return
    ended.add(opened.game)
    _show_game_over(opened)
    if opened.match_over or not _interactive_terminal():
        return
    # TRANSLATORS: {game} is the number of the next game; q is the key that stops (it is a key, not a word: keep it)
    said = _("Press a key to deal game {game}, q to stop ('spite practice --resume' goes on later).")
    session.out.print(said.format(game=opened.game + 1), markup=False)
    key = typer.getchar()
    if key in ("q", "Q", "\x03", "\x04"):
        # TRANSLATORS: {again} is the sentence that says how to go on later ("'spite practice --resume' goes on later.")
        session.out.print(_("Nothing more written. {again}").format(again=_(PRACTICE_AGAIN)), markup=False)
        raise typer.Exit(0)


@command(
    help=_("Play bot against bot (alternating who starts) and report wins, ties, win rates and think times."),
    epilog=_("Example: spite arena --bots expert,easy --games 200 --jobs 2"),
)
@_handled
def arena(
    ctx: typer.Context,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="BOT,BOT",
            help=_("Two bots, e.g. expert,easy (random, easy, normal, expert, bfs, expert-peek, expert-1)."),
        ),
    ] = "expert,easy",
    games_: Annotated[int, typer.Option("--games", min=1, metavar="N", help=_("How many games."))] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help=_("Seed of the deals and the bots."))] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, metavar="N", help=_("Worker processes."))] = 1,
    think: ThinkOption = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print one JSON object instead of a table."))] = False,
) -> None:
    """Play bot against bot and report wins, ties, win rates and think times."""
    from rich.progress import Progress

    from engine.arena import report, run_arena

    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2 or not all(names):
        raise UsageError(_("--bots takes two bot names separated by a comma, e.g. expert,easy"), ctx=ctx)
    for name in names:
        try:
            _make_bot(cut(name))  # an unknown name fails here, before any game is played (cut short: the error echoes it)
        except ValueError as e:
            raise UsageError(f"--bots: {error_text(e)}", ctx=ctx) from e
    if as_json:
        result = run_arena(names[0], names[1], games_, seed=seed, jobs=jobs, think=think)
        session.out.print(json.dumps(report(result)), soft_wrap=True)
        return
    with Progress(console=session.err, transient=True) as progress:
        # TRANSLATORS: the progress bar's label while two bots play; {bot} and {other} are the bots' names
        task = progress.add_task(_("{bot} vs {other}").format(bot=names[0], other=names[1]), total=games_)
        result = run_arena(
            names[0],
            names[1],
            games_,
            seed=seed,
            jobs=jobs,
            think=think,
            progress=lambda done, total: progress.update(task, completed=done),
        )
    summary = report(result)
    from rich.table import Table

    table = Table(
        # TRANSLATORS: a heading of spite arena's table: the bot's name
        pgettext("arena table heading", "bot"),
        # TRANSLATORS: a heading of spite arena's table: how many games the bot won
        pgettext("arena table heading", "wins"),
        # TRANSLATORS: a heading of spite arena's table: the share of the games with a winner (not a tie) that the bot won
        pgettext("arena table heading", "win rate (decided)"),
        # TRANSLATORS: a heading of spite arena's table: the 95% confidence interval of the win rate
        # xgettext:no-python-format
        pgettext("arena table heading", "95% interval"),
        # TRANSLATORS: a heading of spite arena's table: the median time the bot thought about a turn
        pgettext("arena table heading", "think median"),
        # TRANSLATORS: a heading of spite arena's table: the longest time the bot thought about a turn
        pgettext("arena table heading", "think max"),
    )
    for name, row in summary["bots"].items():
        lo, hi = row["ci95"]
        table.add_row(
            name,
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{lo:.1%} – {hi:.1%}",
            f"{row['think_median_s'] * 1000:.1f} ms",
            f"{row['think_max_s'] * 1000:.0f} ms",
        )
    session.out.print(table)
    games, ties = summary["games"], summary["ties"]
    # TRANSLATORS: the line under spite arena's table; {games} is "100 games", {ties} "3 ties", and {turns} a number with one
    # decimal, the turns a game lasted on average
    said = _("{games}, {ties}, {turns} turns a game on average").format(
        games=ngettext("{n} game", "{n} games", games).format(n=games),
        ties=ngettext("{n} tie", "{n} ties", ties).format(n=ties),
        turns=f"{summary['mean_turns']:.1f}",
    )
    session.out.print(said)
