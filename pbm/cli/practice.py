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
    session,
)
from pbm.cli.play import _bot_turn, _interactive
from pbm.cli.shared import _board, _game_over, _result_line, _say_settled, _show_game_over
from pbm.client.answer import answer, new_match, replace_rules, settle_invitations
from pbm.client.receive import Opened, open_save, record_received, reopen
from pbm.errors import SpiteError
from pbm.home import match_lock, spite_home
from pbm.identity import Identity, load_or_create
from pbm.journal import Journal
from pbm.shown import plain

LEVELS = ("easy", "normal", "expert")


def _level(value: str) -> str:
    if value not in LEVELS:
        raise typer.BadParameter(f"{value!r} is not a level: choose easy, normal or expert")
    return value


PRACTICE_AGAIN = "'spite practice --resume' goes on later."


@command(epilog="Example: spite practice --level normal --payoff 10 --target 20   (or spite practice --resume 3342e18f)")
@_handled
def practice(
    level: Annotated[
        str, typer.Option("--level", metavar="LEVEL", callback=_level, help="How strong the computer plays: easy, normal or expert.")
    ] = "expert",
    payoff: PayoffOption = None,
    target: TargetOption = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with an unfinished practice match: MATCH, or the latest without it.")
    ] = False,
    match: Annotated[
        str | None,
        typer.Argument(metavar="[MATCH]", show_default=False, help="With --resume: the match, its first hex digits as spite games shows."),
    ] = None,
    think: ThinkOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Write each turn without asking to confirm it.")] = False,
) -> None:
    """Play against the computer in this terminal; every turn is a real, verifiable save file."""
    if match is not None and not resume:
        raise UsageError("MATCH says which practice match --resume goes on with: add --resume")
    home = spite_home()
    identity = _identity(home)
    bot_home = home / "practice"
    from pbm.home import ensure_private_dir

    ensure_private_dir(bot_home)
    computer = load_or_create(bot_home, name="Computer")
    files = ensure_private_dir(bot_home / "saves")
    with Journal.open(home) as journal, Journal.open(bot_home) as bot_journal:
        _say_settled(settle_invitations(journal))
        path = _to_resume(unfinished(journal, bot_journal, identity, computer), (match or "") if resume else None)
        if path is None:
            rules = replace_rules(G4A, payoff, target)
            _, path = new_match(identity, journal, rules, computer.name, computer.public_text, directory=files)
            started = f"New practice match against the computer ({level}), first to {rules.target_score}."
            session.out.print(f"{started} Type q to stop; {PRACTICE_AGAIN}")
        else:
            session.out.print(f"Resuming {path}", soft_wrap=True, markup=False)
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
        more = f" (and {len(matches) - 1} more: spite games lists them)" if len(matches) > 1 else ""
        if not _interactive_terminal():
            session.out.print(f"Your practice match {match[:8]} is unfinished{more}: 'spite practice --resume' goes on with it.")
            return None
        return path if typer.confirm(f"Go on with your unfinished practice match {match[:8]}{more}?", default=True) else None
    if not matches:
        raise SpiteError("there is no unfinished practice match to resume: start one with 'spite practice'")
    wanted = resume.strip().lower()
    if not wanted:
        return matches[0][1]
    chosen = [path for match, path in matches if match.startswith(wanted)]
    if not chosen:
        names = ", ".join(match[:8] for match, _ in matches)
        raise SpiteError(f"no unfinished practice match starts with {plain(resume)}: yours are {names} (spite games lists them)")
    if len(chosen) > 1:
        raise SpiteError(f"{plain(resume)} starts more than one unfinished practice match: give more of its digits")
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
                opened = _interactive(opened, think, not yes and _interactive_terminal(), again, PRACTICE_AGAIN)
        elif opened.can_move:
            _bot_turn(opened, level, think)
        _, path = answer(opened)
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
    session.out.print(f"Press a key to deal game {opened.game + 1}, q to stop ({PRACTICE_AGAIN.rstrip('.')}).", markup=False)
    key = typer.getchar()
    if key in ("q", "Q", "\x03", "\x04"):
        session.out.print(f"Nothing more written. {PRACTICE_AGAIN}", markup=False)
        raise typer.Exit(0)


@command(epilog="Example: spite arena --bots expert,easy --games 200 --jobs 2")
@_handled
def arena(
    ctx: typer.Context,
    bots: Annotated[
        str, typer.Option("--bots", metavar="BOT,BOT", help="Two bots, e.g. expert,easy (random, easy, normal, expert, bfs, expert-peek).")
    ] = "expert,easy",
    games_: Annotated[int, typer.Option("--games", min=1, metavar="N", help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Seed of the deals and the bots.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, metavar="N", help="Worker processes.")] = 1,
    think: Annotated[
        float | None, typer.Option("--think", min=0.01, metavar="SECONDS", help="Seconds a searching bot may think per plan.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Play bot against bot (alternating who starts) and report wins, ties, win rates and think times."""
    from rich.progress import Progress

    from engine.arena import report, run_arena

    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2 or not all(names):
        raise UsageError("--bots takes two bot names separated by a comma, e.g. expert,easy", ctx=ctx)
    for name in names:
        try:
            _make_bot(name)  # an unknown name fails here, before any game is played
        except ValueError as e:
            raise UsageError(f"--bots: {e}", ctx=ctx) from e
    if as_json:
        result = run_arena(names[0], names[1], games_, seed=seed, jobs=jobs, think=think)
        session.out.print(json.dumps(report(result)), soft_wrap=True)
        return
    with Progress(console=session.err, transient=True) as progress:
        task = progress.add_task(f"{names[0]} vs {names[1]}", total=games_)
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

    table = Table("bot", "wins", "win rate (decided)", "95% interval", "think median", "think max")
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
    session.out.print(f"{summary['games']} games, {summary['ties']} ties, {summary['mean_turns']:.1f} turns a game on average")
