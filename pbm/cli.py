"""The `spite` command: the only place that prints or exits."""

import functools
import gc
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console

from engine.game import legal_moves
from engine.moves import IllegalMoveError, InvalidMoveError, parse_turn
from engine.rules import G4A
from pbm import render, saves
from pbm.errors import NotYourTurnError, SpiteError
from pbm.home import spite_home
from pbm.identity import Identity, load_or_create, needs_passphrase, player_path, rename
from pbm.journal import Journal
from pbm.match import DEFAULT_OPPONENT, Opened, last_file_between, new_match, open_save, replace_rules, write_next

out = Console(highlight=False, emoji=False)
err = Console(stderr=True, highlight=False, emoji=False)

app = typer.Typer(
    name="spite",
    help="Spite & Malice by email or chat: every turn is a signed file that you send to your opponent.",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

_debug = False
F = TypeVar("F", bound=Callable[..., Any])


@app.callback()
def _main(debug: Annotated[bool, typer.Option("--debug", help="Show a full traceback when something goes wrong.")] = False) -> None:
    """Spite & Malice by email or chat."""
    global _debug
    _debug = debug


def _handled(func: F) -> F:
    """Turn every error a player can cause into one line on stderr and exit status 1 (a traceback only with --debug)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except (SpiteError, ValueError, OSError, KeyError) as e:
            if _debug:
                raise
            message = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
            err.print(f"spite: {message}", markup=False, soft_wrap=True)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            err.print("spite: interrupted; nothing was written")
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def _identity(home: Path, name: str | None = None) -> Identity:
    path = player_path(home)
    passphrase = os.environ.get("SPITE_PASSPHRASE")
    if passphrase is None and path.exists() and needs_passphrase(path):
        passphrase = typer.prompt("Passphrase for your spite key", hide_input=True)
    identity = load_or_create(home, name=name, passphrase=passphrase)
    if name is not None and name != identity.name:
        identity = rename(identity, name, passphrase)
    return identity


def _make_bot(name: str, seed: int = 0, think: float | None = None) -> Any:
    from engine.bots import make_bot  # only the commands that let a bot play pay for importing the bots

    return make_bot(name, seed, think)


# --- who you are ---


@app.command("id")
@_handled
def id_command(
    name: Annotated[str | None, typer.Option("--name", help="Set the name your opponents see.")] = None,
    passphrase: Annotated[
        bool, typer.Option("--passphrase", help="Protect your key with a new passphrase (asked twice; empty removes it).")
    ] = False,
) -> None:
    """Show your name, fingerprint and public key (created on first use)."""
    home = spite_home()
    identity = _identity(home, name)
    if passphrase:
        new = typer.prompt("New passphrase (empty for none)", default="", hide_input=True, confirmation_prompt=True, show_default=False)
        identity = rename(identity, identity.name, new or None)
        out.print("Your key is now protected by that passphrase." if new else "Your key has no passphrase now.")
    out.print(f"name:        {identity.name}")
    out.print(f"fingerprint: {identity.fingerprint}   (read it to your opponent to check their copy of your key)")
    out.print(f"public key:  {identity.public_text}")


# --- a match by mail ---


@app.command()
@_handled
def new(
    name: Annotated[str | None, typer.Option("--name", help="Your name as your opponent sees it.")] = None,
    opponent: Annotated[str, typer.Option("--opponent", help="Your opponent's name (default: the name they go by).")] = DEFAULT_OPPONENT,
    opponent_key: Annotated[
        str, typer.Option("--opponent-key", help="Your opponent's public key (spite1:...); without it, whoever opens the file may join.")
    ] = "",
    payoff: Annotated[int | None, typer.Option("--payoff", min=1, help="Pay-off pile size (default 20).")] = None,
    target: Annotated[int | None, typer.Option("--target", min=1, help="Points that win the match (default 50).")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Where to write the invitation.")] = None,
) -> None:
    """Start a match and write the invitation file to send to your opponent."""
    home = spite_home()
    identity = _identity(home, name)
    if opponent_key:
        from pbm.identity import PublicKey

        opponent_key = PublicKey.parse(opponent_key).text
        if opponent_key == identity.public_text:
            raise SpiteError("that is your own key: give your opponent's (they see it with 'spite id')")
    rules = replace_rules(G4A, payoff, target)
    with Journal.open(home) as journal:
        save, path = new_match(identity, journal, rules, opponent, opponent_key, out=output)
    out.print(f"Match {save.match[:8]} started: {identity.name} against {opponent}, first to {rules.target_score}.")
    out.print(f"Wrote {path}", soft_wrap=True)
    out.print(f"Send this file to {opponent}. They run: spite play {path.name}", soft_wrap=True)
    out.print(f"Your fingerprint is {identity.fingerprint}: {opponent} will see it and may check it with you.")


def _open(path: Path) -> tuple[Path, Identity, Journal, Opened]:
    home = spite_home()
    identity = _identity(home)
    journal = Journal.open(home)
    try:
        opened = open_save(path, identity, journal)
    except BaseException:
        journal.close()
        raise
    if not opened.resumed and not opened.carries_mine and opened.save.seq > 1:
        err.print(
            "Note: this file does not carry your side of the match (it would not have fitted in 32 KiB); "
            "your journal has it, so answer this file on this machine."
        )
    if opened.resumed:
        err.print(
            f"Warning: this machine has no record of your side of match {opened.save.match[:8]}; going on from what the file "
            "carries for you (sealed with your key). Files before it are not checked here: their chain is taken on trust."
        )
    return home, identity, journal, opened


def _announce_keys(opened: Opened) -> None:
    for player in opened.check.pinned:
        if player.key and player.key != opened.save.players[opened.me].key:
            out.print(
                f"First contact: {player.name}'s key has fingerprint [bold]{player.fingerprint}[/bold]. "
                "Compare it with them by phone or in person; spite will refuse any other key for them in this match."
            )


def _board(opened: Opened) -> None:
    view = opened.view
    if view is None:
        return
    last = [str(m) for m in opened.their_moves]
    if not last and opened.save.history and opened.save.history[-1].by != opened.me:
        last = opened.save.history[-1].moves.split()
    out.print(render.board(view, opened.names, opened.record.scores, last, opened.save.rules.target_score))


def _result_line(opened: Opened) -> str | None:
    record = opened.record
    if record.is_over:
        winner = opened.names[record.winner]  # type: ignore[index]
        return f"The match is over: {winner} wins {record.scores[0]}-{record.scores[1]}."
    return None


@app.command()
@_handled
def play(
    file: Annotated[Path, typer.Argument(help="The save file your opponent sent you.")],
    moves: Annotated[str | None, typer.Option("--moves", help='Your whole turn, e.g. "p-c1 7-c2 Q-s2".')] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the expert bot play your turn.")] = False,
    hint: Annotated[bool, typer.Option("--hint", help="Show the bot's suggested turn before you move.")] = False,
    think: Annotated[float | None, typer.Option("--think", min=0.01, help="Seconds the bot may think per plan.")] = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Where to write your answer (never over FILE).")] = None,
) -> None:
    """Verify FILE, play your turn (or join the match), and write the file to send back."""
    _home, identity, journal, opened = _open(file)
    with journal:
        _announce_keys(opened)
        if opened.mine:
            other = opened.names[1 - opened.me]
            raise NotYourTurnError(f"this is your own file: it is {other}'s turn; send them {file}")
        if not opened.owes_file:
            _board(opened)
            journal.record(opened.save, file)
            out.print(_result_line(opened) or "")
            return
        if opened.can_move:
            _board(opened)
            if hint:
                _print_hint(opened, think)
            _take_turn(opened, moves, auto, think)
        elif moves:
            raise SpiteError("this file asks for no moves from you (the cards are being dealt); run it without --moves")
        _, path = write_next(opened, identity, journal, output)
    other = opened.names[1 - opened.me]
    if opened.state is not None and opened.state.outcome is not None:
        _board(opened)
    line = _result_line(opened)
    if line:
        out.print(line)
    out.print(f"Wrote {path}\nSend it to {other}.", soft_wrap=True)


def _take_turn(opened: Opened, moves: str | None, auto: bool, think: float | None) -> None:
    seat = opened.seat
    if moves is not None:
        for move in parse_turn(moves):
            if not seat.my_turn:
                raise IllegalMoveError(f"{move}: your turn is already over")
            try:
                seat.play(move)
            except IllegalMoveError as e:
                raise IllegalMoveError(f"{e}; nothing was written") from e
        if seat.my_turn:
            raise IllegalMoveError("those moves do not end your turn: finish with a discard (like Q-s2), or 'end' with an empty hand")
        return
    if auto:
        _bot_turn(opened, "expert", think)
        out.print(f"The bot played: {' '.join(map(str, seat.moves))}")
        return
    _interactive(opened, think)


def _print_hint(opened: Opened, think: float | None) -> None:
    bot = _make_bot("expert", seed=0, think=think)
    plan = bot.plan(opened.view)
    out.print(f"Hint: {' '.join(map(str, plan))}")


def _interactive(opened: Opened, think: float | None) -> None:
    """Ask for moves until the turn is over; 'q' leaves without writing anything."""
    seat = opened.seat
    out.print(
        "Type a move like [bold]p-c1[/bold], [bold]7-c2[/bold] or [bold]Q-s2[/bold] (several at once are fine); "
        "[bold]?[/bold] lists your legal moves, [bold]hint[/bold] asks the bot, [bold]q[/bold] quits without saving."
    )
    while seat.my_turn:
        try:
            text = typer.prompt("your move", prompt_suffix="> ").strip()
        except (EOFError, typer.Abort):
            raise SpiteError("no more input: nothing was written") from None
        if text.lower() in ("q", "quit", "exit"):
            out.print("Nothing written. Play the same file again when you are ready.")
            raise typer.Exit(0)
        if text in ("?", "help", "moves"):
            out.print("Legal moves: " + " ".join(map(str, legal_moves(seat.state.view(opened.me)))))  # type: ignore[union-attr]
            continue
        if text.lower() == "hint":
            _print_hint(opened, think)
            continue
        try:
            for move in parse_turn(text):
                if not seat.my_turn:
                    break
                seat.play(move)
        except (InvalidMoveError, IllegalMoveError) as e:
            err.print(f"refused: {e}", markup=False)
        if seat.my_turn:
            _board(opened)


@app.command()
@_handled
def show(
    file: Annotated[Path, typer.Argument(help="A save file of one of your matches.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON summary instead of the board.")] = False,
) -> None:
    """Show your view of FILE without moving (it is verified first)."""
    _, _, journal, opened = _open(file)
    with journal:
        if not opened.mine:
            journal.record(opened.save, file, durable=False)  # seen: a second, different version of it is a fork from now on
    if as_json:
        out.print_json(data=opened.summary())
        return
    _announce_keys(opened)
    if opened.game == opened.save.game:
        _board(opened)
    else:
        out.print(f"Game {opened.save.game} is being dealt: its table shows once the deal is done.")
    line = _result_line(opened)
    if line:
        out.print(line)
    elif opened.to_move is not None:
        who = "you" if opened.to_move == opened.me else opened.names[opened.to_move]
        out.print(f"Next file: {who} ({'play this file' if who == 'you' else 'waiting for them'}).")


@app.command()
@_handled
def verify(file: Annotated[Path, typer.Argument(help="A save file of one of your matches.")]) -> None:
    """Run every check on FILE (signature, chain, moves, proofs, table, audits) and say what was checked."""
    _, _, journal, opened = _open(file)
    journal.close()
    save = opened.save
    signer = save.players[save.signer]
    out.print(f"format:    {save.format} version {save.version}, within 32 KiB")
    out.print(f"signature: good, by {signer.name} ({signer.fingerprint})")
    out.print(f"chain:     {opened.check.status.value} (save {save.seq} of match {save.match[:8]})")
    if opened.resumed:
        out.print("your side: taken from this file (this machine has no record of it), sealed by you and unchanged")
    elif opened.carries_mine and (save.seq > 1 or opened.mine):
        out.print("your side: carried as your last file left it")
    elif save.seq > 1:
        out.print("your side: not carried in this file (it would not have fitted); your journal has it")
    if opened.mine:
        out.print("moves:     your own file, checked when you wrote it")
        return
    n = len(opened.their_moves)
    out.print(f"moves:     {n} move{'s' if n != 1 else ''} checked against the rules")
    out.print("proofs:    every shuffle, card reveal and draw proof checks out")
    out.print("table:     the table in the file is the one the moves lead to")
    g = opened.seat.party.game
    if g is not None and g.audited:
        out.print(f"audit:     game {g.number} audited: the revealed keys are those published, every card accounted for")
    out.print("OK")


@app.command()
@_handled
def games() -> None:
    """List your matches: opponent, score, whose turn, and the last file."""
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        infos = journal.matches()
    if not infos:
        out.print("No matches yet. Start one with 'spite new' or 'spite practice'.")
        return
    from rich.table import Table

    table = Table("match", "opponent", "score", "next", "last file")
    for info in infos:
        me = info.seat_of(identity.public_key)
        if me is None:
            continue
        them = info.players[1 - me]
        score = f"{info.score[me]}-{info.score[1 - me]}"
        waiting = info.waiting_for
        nxt = "over" if info.over else ("you" if waiting == me else them.name)
        table.add_row(info.match[:8], them.name, score, nxt, info.latest.path if info.latest else "")
    out.print(table)


# --- the computer opponent ---

LEVELS = ("easy", "normal", "expert")


def _bot_turn(opened: Opened, level: str, think: float | None) -> None:
    """Let the bot of `level` play this player's whole turn."""
    seat = opened.seat
    bot = _make_bot(level, seed=int.from_bytes(os.urandom(4), "big"), think=think)
    while seat.my_turn:
        seat.play(bot.choose(seat.state.view(opened.me)))  # type: ignore[union-attr]


@app.command()
@_handled
def practice(
    level: Annotated[str, typer.Option("--level", help="How strong the computer plays: easy, normal or expert.")] = "expert",
    payoff: Annotated[int | None, typer.Option("--payoff", min=1, help="Pay-off pile size (default 20).")] = None,
    target: Annotated[int | None, typer.Option("--target", min=1, help="Points that win the match (default 50).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Go on with your last unfinished practice match.")] = False,
    think: Annotated[float | None, typer.Option("--think", min=0.01, help="Seconds the computer may think per plan.")] = None,
) -> None:
    """Play against the computer in this terminal; every turn is a real, verifiable save file."""
    if level not in LEVELS:
        raise SpiteError(f"unknown level {level!r}: choose easy, normal or expert")
    home = spite_home()
    identity = _identity(home)
    bot_home = home / "practice"
    from pbm.home import ensure_private_dir

    ensure_private_dir(bot_home)
    computer = load_or_create(bot_home, name="Computer")
    files = ensure_private_dir(bot_home / "saves")
    with Journal.open(home) as journal, Journal.open(bot_home) as bot_journal:
        path = last_file_between(journal, bot_journal, identity, computer) if resume else None
        if resume and path is None:
            raise SpiteError("there is no unfinished practice match to resume: start one with 'spite practice'")
        if path is None:
            rules = replace_rules(G4A, payoff, target)
            _, path = new_match(identity, journal, rules, computer.name, computer.public_text, directory=files)
            out.print(
                f"New practice match against the computer ({level}), first to {rules.target_score}. Type q to stop; "
                "'spite practice --resume' goes on later."
            )
        else:
            out.print(f"Resuming {path}", soft_wrap=True)
        while True:
            human_turn = saves.read(path).signer_key.text != identity.public_text
            who, book = (identity, journal) if human_turn else (computer, bot_journal)
            opened = open_save(path, who, book)
            if not opened.owes_file and opened.match_over:
                if human_turn:
                    journal.record(opened.save, path)
                out.print(_result_line(opened) or "")
                return
            if human_turn:
                _board(opened)
                if opened.can_move:
                    _interactive(opened, think)
            elif opened.can_move:
                _bot_turn(opened, level, think)
                out.print(f"The computer played: {' '.join(map(str, opened.seat.moves))}")
            _, path = write_next(opened, who, book)


@app.command()
@_handled
def arena(
    bots: Annotated[str, typer.Option("--bots", help="Two bots, e.g. expert,easy (random, easy, normal, expert).")] = "expert,easy",
    games_: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Worker processes.")] = 1,
    think: Annotated[float | None, typer.Option("--think", min=0.01, help="Seconds a searching bot may think per plan.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")] = False,
) -> None:
    """Play bot against bot (alternating who starts) and report wins, ties, win rates and think times."""
    from rich.progress import Progress

    from engine.arena import report, run_arena

    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2 or not all(names):
        raise SpiteError("--bots takes two bot names separated by a comma, e.g. expert,easy")
    for name in names:
        _make_bot(name)  # an unknown name fails here, before any game is played
    if as_json:
        result = run_arena(names[0], names[1], games_, seed=seed, jobs=jobs, think=think)
        out.print(json.dumps(report(result)), soft_wrap=True)
        return
    with Progress(console=err, transient=True) as progress:
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
    out.print(table)
    out.print(f"{summary['games']} games, {summary['ties']} ties, {summary['mean_turns']:.1f} turns a game on average")


def main() -> None:
    """Console entry point."""
    # What the imports made (modules, classes, functions) lives until exit: out of the collector's sight, neither the
    # collections during the command nor the full one at exit walk it again, ~20 ms of every command. What the
    # command itself makes is collected as usual.
    gc.freeze()
    app()


if __name__ == "__main__":
    main()
