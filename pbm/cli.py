"""The `spite` command: the only place that prints or exits."""

import functools
import gc
import json
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from engine.cards import CardNotationError
from engine.game import legal_moves
from engine.moves import IllegalMoveError, InvalidMoveError, parse_turn
from engine.rules import G4A
from pbm import render, saves
from pbm.client import turn
from pbm.client.answer import Answered, Settled, answer, last_file_between, new_match, recorded_answer, replace_rules, settle_invitations
from pbm.client.receive import (
    DEFAULT_OPPONENT,
    FirstContact,
    Given,
    NotCarried,
    NotRecorded,
    Opened,
    Resumed,
    decode,
    look,
    open_save,
    receive,
    record_received,
    reopen,
)
from pbm.errors import HomeError, MailAuthError, NotYourTurnError, PassphraseError, ReplayError, SaveFormatError, SpiteError
from pbm.home import JOURNAL_FILE, match_lock, read_head, remove_stale, spite_home
from pbm.identity import Identity, check_name, exposure, load_or_create, needs_passphrase, player_path, rename
from pbm.journal import Journal, Status
from pbm.saves import Player, SaveFile
from pbm.shown import LINE, cut, plain
from pbm.transport import clipboard, code
from pbm.transport.code import TurnCode

if TYPE_CHECKING:
    from pbm.inbox import Standing
    from pbm.mailconf import MailSettings

# markup=False: no text spite prints is read as rich markup, so a name like "[/x]" or "[link=…]" is only text
out = Console(highlight=False, emoji=False, markup=False)
err = Console(stderr=True, highlight=False, emoji=False, markup=False)

UsageError = typer.BadParameter.__base__  # click's UsageError, whether typer uses click or its own copy of it
GLOBAL_FLAGS = ("--debug", "--ascii")


class _Spite(TyperGroup):
    """The spite command group: global flags anywhere on the line, and usage errors in one line like every other error."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        end = args.index("--") if "--" in args else len(args)
        flags = [a for a in args[:end] if a in GLOBAL_FLAGS]
        rest = [a for a in args[:end] if a not in GLOBAL_FLAGS] + args[end:]
        return super().parse_args(ctx, flags + rest)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, *rest: Any, **extra: Any) -> Any:
        standalone = extra.pop("standalone_mode", True)
        try:
            code = super().main(args, prog_name or "spite", *rest, standalone_mode=False, **extra)
        except UsageError as e:  # type: ignore[misc]
            where = e.ctx.command_path if e.ctx is not None else "spite"
            err.print(f"spite: {e.format_message()} (see '{where} --help')", markup=False, highlight=False, soft_wrap=True)
            code = e.exit_code
        except typer.Abort:
            err.print("spite: interrupted, nothing written")
            code = 130
        if not standalone:
            return code
        sys.exit(code if isinstance(code, int) else 0)


class _Command(TyperCommand):
    """A spite command: its usage line names its arguments as FILE, not typer's {FILE}."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in super().collect_usage_pieces(ctx)]


app = typer.Typer(
    name="spite",
    cls=_Spite,
    help="Spite & Malice by email or chat: every turn is a signed file that you send to your opponent.",
    epilog="Start with: spite practice (against the computer), or spite new --opponent Bob (by email or chat).",
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
command = functools.partial(app.command, cls=_Command)

_debug = False
_ascii = False
_introduced = False  # the line that explains the prompt is printed once a session
F = TypeVar("F", bound=Callable[..., Any])


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version  # only --version pays for reading the metadata

        try:
            number = version("spite")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        out.print(f"spite {number}")
        raise typer.Exit(0)


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help="Show a full traceback when something goes wrong.")] = False,
    ascii_: Annotated[
        bool, typer.Option("--ascii", help="Draw cards with ASCII and suit letters (s h d c), for terminals that draw ♠♥♦♣ badly.")
    ] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print spite's version and exit.")] = False,
) -> None:
    """Spite & Malice by email or chat."""
    global _debug, _ascii
    _debug, _ascii = debug, ascii_


def _handled(func: F) -> F:
    """Turn every error a player can cause into one line on stderr and exit status 1 (a traceback only with --debug)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, UsageError):
            raise
        except (SpiteError, InvalidMoveError, IllegalMoveError, CardNotationError, OSError) as e:
            if _debug:
                raise
            err.print(f"spite: {cut(plain(str(e)), LINE)}", soft_wrap=True)  # one line, however long or strange what it echoes
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            err.print("\nspite: interrupted, nothing written")
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def _interactive_terminal() -> bool:
    """Whether a person is at the keyboard: standard input and output are both a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _look() -> render.Look:
    """ASCII cards when asked (--ascii, SPITE_ASCII) or when the output cannot encode the card symbols."""
    if _ascii or os.environ.get("SPITE_ASCII"):
        return render.Look(ascii=True)
    try:
        "♠♥♦♣╭─╮│░·–".encode(out.encoding)
    except (UnicodeEncodeError, LookupError):
        return render.Look(ascii=True)
    return render.Look()


def _identity(home: Path, name: str | None = None, new_key: bool = False) -> Identity:
    """The player's identity: on first use at a terminal their name is asked once; a passphrase gets three tries.

    A key others can read, or a home others can change, is warned about on every command.
    """
    identity = _load_identity(home, name, new_key)
    for warning in exposure(identity, home):
        err.print(plain(warning), soft_wrap=True)
    return identity


def _load_identity(home: Path, name: str | None, new_key: bool) -> Identity:
    path = player_path(home)
    if not path.exists():
        lost = path.is_symlink() or ((home / JOURNAL_FILE).exists() and not new_key)  # load_or_create refuses: ask nothing
        if name is None and not lost and _interactive_terminal():
            from pbm.identity import login_name

            name = typer.prompt("Your name, as your opponents will see it", default=login_name()).strip() or None
        return load_or_create(home, name=name, passphrase=os.environ.get("SPITE_PASSPHRASE"), new_key=new_key)
    if new_key:
        return load_or_create(home, new_key=True)  # refuses: there is a key already
    passphrase = os.environ.get("SPITE_PASSPHRASE")
    tries = 3 if passphrase is None and needs_passphrase(path) else 0
    if tries and not sys.stdin.isatty():
        raise PassphraseError(f"your key {path} is protected by a passphrase and there is no terminal to ask for it: set SPITE_PASSPHRASE")
    identity = None
    for attempt in range(1, tries + 1):
        passphrase = typer.prompt("Passphrase for your spite key", hide_input=True)
        try:
            identity = load_or_create(home, passphrase=passphrase)
            break
        except PassphraseError:
            if attempt == tries:
                raise
            err.print(f"Wrong passphrase ({tries - attempt} more {'try' if tries - attempt == 1 else 'tries'}).")
    if identity is None:
        identity = load_or_create(home, passphrase=passphrase)
    if name is not None and name != identity.name:
        identity = rename(identity, name, passphrase)
    return identity


def _make_bot(name: str, seed: int = 0, think: float | None = None) -> Any:
    from engine.bots import make_bot  # only the commands that let a bot play pay for importing the bots

    return make_bot(name, seed, think)


# --- who you are ---

NameOption = Annotated[str | None, typer.Option("--name", metavar="NAME", help="Your name as your opponents see it.")]
FileArgument = Annotated[Path, typer.Argument(metavar="FILE", help="A save file of one of your matches.", show_default=False)]
ToOption = Annotated[
    str | None,
    typer.Option("--to", metavar="ADDRESS", help="Your opponent's email address (asked once per match, then kept in your journal)."),
]


@command("id", epilog="Example: spite id --name Alice")
@_handled
def id_command(
    name: NameOption = None,
    passphrase: Annotated[
        bool,
        typer.Option(
            "--passphrase",
            help="Protect your key with a new passphrase (asked twice; empty removes it). "
            "Commands then ask for it, or read it from SPITE_PASSPHRASE.",
        ),
    ] = False,
    new_key: Annotated[
        bool, typer.Option("--new-key", help="Make a new key in a spite home whose key is lost (its matches cannot go on).")
    ] = False,
) -> None:
    """Show your name, fingerprint, public key and spite home (your key is made on first use)."""
    home = spite_home()
    identity = _identity(home, name, new_key)
    if passphrase:
        new = typer.prompt("New passphrase (empty for none)", default="", hide_input=True, confirmation_prompt=True, show_default=False)
        identity = rename(identity, identity.name, new or None)
        out.print("Your key is now protected by that passphrase." if new else "Your key has no passphrase now.")
    out.print(f"name:        {plain(identity.name)}")
    out.print(f"fingerprint: {identity.fingerprint}   (read it to your opponent to check their copy of your key)")
    out.print(f"public key:  {identity.public_text}")
    out.print(f"spite home:  {home}   (your key and journal; set SPITE_HOME to use another)", markup=False, soft_wrap=True)


# --- a match by mail ---

PayoffOption = Annotated[int | None, typer.Option("--payoff", min=1, metavar="N", help="Pay-off pile size (default 20).")]
TargetOption = Annotated[int | None, typer.Option("--target", min=1, metavar="POINTS", help="Points that win the match (default 50).")]
ThinkOption = Annotated[float | None, typer.Option("--think", min=0.01, metavar="SECONDS", help="Seconds the bot may think per plan.")]
YesOption = Annotated[
    bool,
    typer.Option(
        "--yes", "-y", help="Write your turn without asking to confirm it, and take the seat of an invitation made out to another name."
    ),
]


@command(epilog="Example: spite new --opponent Bob --opponent-key spite1:b5dAyVbC…   (then send the file it writes)")
@_handled
def new(
    name: NameOption = None,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent", metavar="NAME", show_default=False, help="Your opponent's name (default: the name they go by, once they answer)."
        ),
    ] = None,
    opponent_key: Annotated[
        str,
        typer.Option(
            "--opponent-key",
            metavar="KEY",
            show_default=False,
            help="Your opponent's public key (spite1:...); without it, whoever opens the file may join.",
        ),
    ] = "",
    payoff: PayoffOption = None,
    target: TargetOption = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", metavar="FILE", help="Where to write the invitation.")] = None,
    copy: Annotated[bool, typer.Option("--copy", help="Put the invitation's turn code on the clipboard, to paste into a chat.")] = False,
    send: Annotated[bool, typer.Option("--send", help="Mail the invitation at once (spite mail setup), to --to.")] = False,
    to: ToOption = None,
) -> None:
    """Start a match and write the invitation file to send to your opponent (as a file, or its turn code in a chat)."""
    if to is not None and not send:
        raise UsageError("--to says where --send mails the invitation: add --send")
    home = spite_home()
    identity = _identity(home, name)
    opponent = check_name(opponent) if opponent is not None else None
    if opponent_key:
        from pbm.identity import PublicKey

        opponent_key = PublicKey.parse(opponent_key).text
        if opponent_key == identity.public_text:
            raise SpiteError("that is your own key: give your opponent's (they see it with 'spite id')")
    rules = replace_rules(G4A, payoff, target)
    who = opponent or DEFAULT_OPPONENT
    with Journal.open(home) as journal:
        _say_settled(settle_invitations(journal))
        save, path = new_match(identity, journal, rules, who, opponent_key, out=output)
    me, them = plain(identity.name), plain(opponent or "your opponent")
    out.print(f"Match {save.match[:8]} started: {me} against {them}, first to {rules.target_score}.")
    out.print(f"Wrote {plain(str(path))}", soft_wrap=True)
    if send:
        send_file(path, to)
    else:
        _how_to_send(save, path, them, copy)
    out.print(f"They answer it with: spite play {plain(path.name)}, or spite play --paste (a code they copied).", soft_wrap=True)
    out.print(f"Your fingerprint is {identity.fingerprint}: {them} will see it and may check it with you.")


def _say_settled(settled: list[Settled]) -> None:
    """Say what became of each invitation a stopped `spite new` left recorded but unwritten (settle_invitations)."""
    for one in settled:
        if one.kept:
            line = f"Match {one.match[:8]}: its invitation was written to {plain(str(one.path))} just before spite was stopped."
        else:
            line = f"Forgot match {one.match[:8]}: spite was stopped before its invitation was written, so nobody can have it."
        out.print(line, soft_wrap=True)


# --- what the player received: a file, standard input or the clipboard; a save or a turn code ---

FileArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="FILE", show_default=False, help="The save file or turn code your opponent sent you: a file, or - to read what you paste."
    ),
]
PasteOpt = Annotated[bool, typer.Option("--paste", help="Read the turn code (or save) from the clipboard.")]


def _given(file: Path | None, paste: bool) -> Given:
    """What the player gives, decoded: a save or a turn code, and where an answer goes (beside the file, else this folder)."""
    if file is None and not paste:
        raise UsageError("Missing argument 'FILE'.")  # the same words as any other command's missing argument
    if file is not None and paste:
        raise UsageError("give a FILE (- for standard input) or --paste, not both")
    if paste:
        return decode(clipboard.paste().encode("utf-8"), Path.cwd())
    assert file is not None
    if str(file) == "-":
        return decode(_pasted(), Path.cwd())
    try:
        data = read_head(file, code.MAX_INPUT + 1)
    except OSError as e:
        raise SaveFormatError(f"cannot read {file}: {e.strerror or e}") from e
    return decode(data, file)


def _pasted() -> bytes:
    """Standard input: all of it; at a terminal, the lines pasted until they hold a whole turn code or save (no Ctrl-D)."""
    if not sys.stdin.isatty():
        return sys.stdin.buffer.read(code.MAX_INPUT + 1)
    err.print("Paste the turn code (or the save): spite reads it once its last END SPITE line is in (Ctrl-D ends early).")
    text = ""
    for line in sys.stdin:  # a terminal keeps reading after this: the prompt for moves comes next
        text += line
        if code.whole(text) or len(text) > code.MAX_INPUT:
            break
    return text.encode("utf-8")


def _say_notes(opened: Opened, keys: bool = True) -> None:
    """What receiving the file found to tell the player, in order; the first contact keys too, unless not `keys`."""
    for note in opened.notes:
        if isinstance(note, NotRecorded):
            why = f"Note: {note.trouble}: this file could not be recorded in your journal (it is checked all the same)."
            err.print(why, soft_wrap=True)
        elif isinstance(note, NotCarried):
            err.print(
                "Note: this file does not carry your side of the match (it answers a turn code, or would not have fitted in "
                "a save); your journal has it, so answer this file on this machine."
            )
        elif isinstance(note, Resumed):
            more = "" if note.recorded else " It is not recorded here: 'spite play' asks whether it is the newest file of the match."
            err.print(
                f"Warning: this machine has no record of your side of match {note.match[:8]}; going on from what the file "
                f"carries for you (sealed with your key). Files before it are not checked here: their chain is taken on trust.{more}",
                markup=False,
            )
    if keys:
        _announce_keys([note.player for note in opened.notes if isinstance(note, FirstContact)])


NewestOption = Annotated[
    bool,
    typer.Option(
        "--newest",
        help="On a machine with no record of the match (a new spite home): answer FILE as the newest file of the match without asking.",
    ),
]


def _confirm_newest(opened: Opened, newest: bool) -> None:
    """A file of a match this machine has no record of is answered only once the player says it is the newest of the match.

    Nothing here can tell an old file from the newest one (G4 rests on the journal): answered on a new machine, an old
    file would let the opponent take back every turn since, and see the draws of the turns they play again.
    """
    save = opened.save
    other = opened.names[save.signer]
    why = (
        f"This machine has no record of match {save.match[:8]}: spite cannot tell whether this file ({other}'s game "
        f"{save.game}, turn {save.turn}) is the newest of the match, and answering an older one would let {other} take back "
        "the turns since."
    )
    if newest:
        return
    if not _interactive_terminal():
        raise SpiteError(f"{why} Nothing was written; if it is the newest file {other} sent you, play it again with --newest")
    err.print(why, markup=False, soft_wrap=True)
    if not typer.confirm(f"Is it the newest file {other} sent you in this match (your last turn was the one before it)?", default=False):
        out.print("Nothing written. Play the newest file of the match, or go on where your spite home with this match is.")
        raise typer.Exit(1)


def _seen(file: Path | None, paste: bool) -> Opened:
    """What the player gave opened for show or verify (an earlier file of the match too), recorded as seen without a disk sync."""
    given = _given(file, paste)
    home = spite_home()
    identity = _identity(home)
    try:
        journal = Journal.open(home, check=False)  # a look: the commands that write answers check every page
    except HomeError:  # a home that cannot be written: look all the same, from the journal as it is
        journal = Journal.open(home, write=False)
    with journal:
        return look(given, identity, journal)


def _answered_again(answered: Answered, send: bool = False) -> None:
    """This player answered the file already: say where the answer is (written again if it was not on disk); mail it with `send`."""
    received = answered.received
    other = plain(received.players[received.signer].name)
    if send:
        out.print(f"You had answered this file already: {answered.path}", soft_wrap=True, markup=False)
        send_file(answered.path)
        return
    if not answered.rewritten:
        if received.seq == 1:
            raise NotYourTurnError(
                f"you already answered this invitation (your answer is {answered.path}): send it to {other}, "
                f"then play the file {other} sends back"
            )
        raise ReplayError(f"you have already played from this file: your answer is {answered.path}; send it to {other}")
    out.print("You had answered this file already, but your answer was not on disk (was spite interrupted?).", markup=False)
    out.print(f"Wrote {answered.path} again, as recorded then.\nSend it to {other}.", soft_wrap=True, markup=False)


def _announce_keys(players: list[Player]) -> None:
    """The fingerprint of each key met for the first time, on a line of its own before the name: no name can hide or fake it."""
    for player in players:
        out.print("First contact: a key new to you in this match.")
        out.print(Text.assemble("  fingerprint: ", (player.fingerprint, "bold")))
        out.print(f"  name:        {plain(player.name)}")
        out.print(
            "  Compare the fingerprint with them by phone or in person; spite will refuse any other key for them in this match.",
            soft_wrap=True,
        )


def _seating(opened: Opened) -> render.Seating:
    save = opened.save
    first, second = (p.fingerprint if p.key else "" for p in save.players)  # an invitation's open seat has no key yet
    return render.Seating(opened.names, opened.record.scores, save.rules.target_score, save.match, opened.game, (first, second))


def _history(opened: Opened) -> list[tuple[int, str]]:
    """The turns of the game on the table, as (seat, moves); none while the file already deals the next game."""
    save = opened.save
    return [(t.by, t.moves) for t in save.history] if opened.game == save.game else []


def _board(opened: Opened) -> None:
    view = opened.view
    if view is None:
        return
    out.print(render.board(view, _seating(opened), _history(opened), _look()))


def _game_over(opened: Opened) -> list[str]:
    """The lines of the banner that ends a game (and the match), or none while the game on the table goes on."""
    state = opened.state
    if state is None or state.outcome is None:
        return []
    names, me, outcome = opened.names, opened.me, state.outcome
    if outcome.winner is None:
        result = "a tie (the stock ran out), nobody scores"
    else:
        who = "you win" if outcome.winner == me else f"{names[outcome.winner]} wins"
        result = f"{who}, {outcome.points} point{'s' if outcome.points != 1 else ''}"
    scores = opened.record.scores
    lines = [
        f"Game {opened.game} is over: {result}.",
        f"Score: {names[me]} {scores[me]} – {names[1 - me]} {scores[1 - me]}, first to {opened.save.rules.target_score}.",
    ]
    match = _result_line(opened)
    return [*lines, match] if match else lines


def _show_game_over(opened: Opened) -> None:
    """The final board of a game and its banner."""
    lines = _game_over(opened)
    if lines:
        _board(opened)
        out.print(render.banner(lines, _look(), out.width))


def _result_line(opened: Opened) -> str | None:
    """The match's result, the winner's score first, or None while it goes on."""
    record = opened.record
    if not record.is_over:
        return None
    winner = record.winner
    assert winner is not None
    return f"The match is over: {opened.names[winner]} wins {record.scores[winner]}–{record.scores[1 - winner]}."


def _keys_line(opened: Opened, writing: bool) -> str:
    """Why a file is still owed once the match is over: it hands the other player this one's keys of the last game."""
    other, game = opened.names[1 - opened.me], opened.game
    why = f"your keys of game {game}, so that {other}'s spite can check every shuffle of that game (the audit)"
    if writing:
        return f"This last file hands {other} {why}: send it all the same."
    return f"One more file is owed: play this file to hand {other} {why}."


@command(epilog='Example: spite play spite-3342e18f-g1-t4.toml   (or --moves "p-c1 7-c2 Q-s2", or --auto)')
@_handled
def play(
    ctx: typer.Context,
    file: FileArg = None,
    paste: PasteOpt = False,
    moves: Annotated[str | None, typer.Option("--moves", metavar="MOVES", help='Your whole turn, e.g. "p-c1 7-c2 Q-s2".')] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the expert bot play your turn.")] = False,
    hint: Annotated[bool, typer.Option("--hint", help="Show the bot's suggested turn before you move.")] = False,
    think: ThinkOption = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", metavar="FILE", help="Where to write your answer (never over FILE).")
    ] = None,
    yes: YesOption = False,
    copy: Annotated[bool, typer.Option("--copy", help="Put your answer's turn code on the clipboard, to paste into a chat.")] = False,
    send: Annotated[bool, typer.Option("--send", help="Mail your answer to your opponent at once (spite mail setup).")] = False,
    newest: NewestOption = False,
) -> None:
    """Verify what your opponent sent (a file or a turn code), play your turn, and write the answer to send back."""
    if auto and moves is not None:
        raise UsageError("--auto and --moves both say how to play the turn: give one of them", ctx=ctx)
    given = _given(file, paste)
    home = spite_home()
    identity = _identity(home)
    what = "turn code" if isinstance(given.item, TurnCode) else "file"
    with Journal.open(home) as journal, match_lock(home, given.match):  # one spite at a time answers a file of this match
        remove_stale(given.where if given.where.is_dir() else given.where.parent, given.match)
        answered = recorded_answer(given, identity, journal, output)
        if answered is not None:
            _answered_again(answered, send)
            return
        opened = receive(given, identity, journal, functools.partial(_confirm_newest, newest=newest))
        _say_notes(opened)
        if opened.mine:
            other = opened.names[1 - opened.me]
            raise NotYourTurnError(f"this is your own {what}: it is {other}'s turn; send it to them")
        _check_seat(opened, identity, yes)
        if not opened.owes_file:
            _board(opened)
            out.print(_result_line(opened) or "", markup=False)
            out.print("Nothing more to send: the match is over and every game is audited.")
            return
        if opened.can_move:
            _board(opened)
            if hint:
                _print_hint(opened, think)
            again = f"play {file if file is not None and str(file) != '-' else 'the ' + what} again when you are ready."
            opened = _take_turn(opened, moves, auto, think, confirm=not yes, again=again)
        elif moves:
            raise SpiteError("this file asks for no moves from you (the cards are being dealt); run it without --moves")
        written, path = answer(opened, output)
    _say_written(opened, written, path, send, copy)


def _say_written(opened: Opened, written: SaveFile, path: Path, send: bool, copy: bool) -> None:
    """What the answer to `opened` ends (a game, the match), where it was written, and how to send it (or mail it, `send`)."""
    _show_game_over(opened)
    if opened.match_over:
        if not _game_over(opened):
            out.print(_result_line(opened) or "", markup=False)
        out.print(_keys_line(opened, writing=True), markup=False)
    out.print(f"Wrote {path}", soft_wrap=True, markup=False)
    if send:
        send_file(path)
        return
    _how_to_send(written, path, opened.names[1 - opened.me], copy)


def _how_to_send(save: SaveFile, path: Path, other: str, copy: bool) -> None:
    """Say both ways to send `save`: its turn code in a chat (on the clipboard with `copy`), or the file."""
    parts = code.encode(save)
    if len(parts) > code.MAX_PARTS:
        nothing = " Nothing was copied." if copy else ""
        out.print(f"Send the file to {other} (its turn code would take {len(parts)} chat messages).{nothing}", soft_wrap=True, markup=False)
        return
    messages = "one message" if len(parts) == 1 else f"{len(parts)} messages"
    if copy:
        try:
            clipboard.copy(parts[0])
        except SpiteError as e:
            err.print(f"spite: could not copy the turn code: {e}", markup=False, soft_wrap=True)
        else:
            more = f" (part 1 of {len(parts)}; spite code {path.name} --part 2 --copy for the next)" if len(parts) > 1 else ""
            out.print(f"Its turn code is on your clipboard{more}: paste it into your chat with {other}.", soft_wrap=True, markup=False)
            return
    out.print(
        f"Send it to {other}: paste its turn code into your chat ({messages}; spite code {path.name} prints it), or attach the file.",
        soft_wrap=True,
        markup=False,
    )


def _check_seat(opened: Opened, identity: Identity, yes: bool) -> None:
    """An open invitation made out to another name: warn, and take the seat only if the player says so."""
    save = opened.save
    meant = save.players[1].name
    if save.seq != 1 or save.players[1].key or meant in (DEFAULT_OPPONENT, identity.name):
        return
    warning = f"This invitation from {plain(save.players[0].name)} is made out to {plain(meant)}, and you are {plain(identity.name)}."
    if yes:
        err.print(f"Warning: {warning} Taking the seat (--yes).", markup=False)
        return
    if not _interactive_terminal():
        raise SpiteError(f"{warning} Nothing was written; add --yes to take the seat anyway")
    err.print(f"Warning: {warning}", markup=False)
    if not typer.confirm(f"Take the seat as {plain(identity.name)}?", default=False):
        out.print("Nothing written.")
        raise typer.Exit(0)


def _take_turn(opened: Opened, moves: str | None, auto: bool, think: float | None, confirm: bool, again: str) -> Opened:
    """This player's turn played on `opened`: from --moves, by the bot, or typed at the prompt; returns the opened file to write."""
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
        return opened
    if auto:
        _bot_turn(opened, "expert", think)
        out.print(f"The bot played: {' '.join(map(str, seat.moves))}")
        return opened
    return _interactive(opened, think, confirm and _interactive_terminal(), functools.partial(reopen, opened), again)


def _print_hint(opened: Opened, think: float | None) -> None:
    bot = _make_bot("expert", seed=0, think=think)
    plan = bot.plan(opened.seat.state.view(opened.me))  # type: ignore[union-attr]
    out.print(f"Hint: {' '.join(map(str, plan))}")


def _setup_line_editing(opened: Callable[[], Opened]) -> None:
    """Line editing, history and Tab completion of legal moves at a terminal (GNU readline or libedit); nothing without one."""
    if not _interactive_terminal():
        return
    try:
        import readline
    except ImportError:  # a Python built without it: plain input still works
        return

    def completer(text: str, state: int) -> str | None:
        matches = turn.complete(opened(), text)
        return matches[state] if state < len(matches) else None

    readline.set_completer_delims(" \t\n")
    readline.set_completer(completer)
    readline.parse_and_bind("bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete")


def _ask(prompt: str, again: str) -> str:
    """One line typed at `prompt`; Ctrl-C leaves (status 130) and Ctrl-D leaves like q, each with one line."""
    try:
        return input(prompt)
    except KeyboardInterrupt:
        err.print(f"\nspite: interrupted, nothing written; {again}", markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    except EOFError:
        if not sys.stdin.isatty():
            raise SpiteError("no more input: nothing was written") from None
        out.print(f"\nNothing written; {again}", markup=False, soft_wrap=True)
        raise typer.Exit(0) from None


def _forget_last_line() -> None:
    """Keep an answer to a question out of the move history that the up arrow recalls."""
    readline = sys.modules.get("readline")
    if readline is not None and readline.get_current_history_length():
        readline.remove_history_item(readline.get_current_history_length() - 1)


def _interactive(opened: Opened, think: float | None, confirm: bool, reopen: Callable[[], Opened], again: str) -> Opened:
    """Ask for moves until the turn is over (and confirmed, when `confirm`); 'q' leaves without writing anything.

    Returns the opened file with the turn played on it: taking a move back opens the file again (`reopen`).
    """
    global _introduced
    current = [opened]
    _setup_line_editing(lambda: current[0])
    if not _introduced:
        _introduced = True
        out.print(
            "Type a move like [bold]p-c1[/bold], [bold]7-c2[/bold] or [bold]Q-s2[/bold] (several at once are fine; Tab completes); "
            "[bold]?[/bold] lists your legal moves, [bold]undo[/bold] takes one back, [bold]help[/bold] says more, "
            "[bold]q[/bold] leaves without writing.",
            markup=True,  # spite's own words, no name in them
        )
    while True:
        opened = current[0]
        seat = opened.seat
        if not seat.my_turn:
            if not confirm:
                return opened
            question = f"Your turn {len(_history(opened)) + 1}: {' '.join(map(str, seat.moves))}. Write it? [Enter: yes, u: undo, q: quit] "
            answer = turn.confirm_answer(_ask(question, again))
            _forget_last_line()
            if answer is None:
                continue
            if answer.write:
                return opened
            if answer.quit:
                out.print(f"Nothing written; {again}", markup=False, soft_wrap=True)
                raise typer.Exit(0)
            text = "undo"
        else:
            text = _ask("your move> ", again).strip()
        word = turn.command(text)
        if not text:
            continue
        if word == turn.QUIT:
            out.print(f"Nothing written; {again}", markup=False, soft_wrap=True)
            raise typer.Exit(0)
        if word == turn.MOVES:
            moves = " ".join(map(str, legal_moves(seat.state.view(opened.me))))  # type: ignore[union-attr]
            out.print(f"Legal moves: {moves}", soft_wrap=True)  # one line, however long: the terminal wraps it
        elif word == turn.HELP:
            out.print("\n".join(turn.HELP_LINES), markup=False)
        elif word == turn.HINT:
            _print_hint(opened, think)
        elif word == turn.BOARD:
            _board(opened)
        elif word == turn.UNDO:
            try:
                current[0], move = turn.take_back(opened, reopen)
            except turn.UndoError as e:
                err.print(f"refused: {cut(plain(str(e)), LINE)}")
                continue
            out.print(f"Took back {move}.")
            _board(current[0])
        else:
            try:
                played = turn.play_line(opened, text)
            except (InvalidMoveError, IllegalMoveError) as e:
                err.print(f"refused: {cut(plain(str(e)), LINE)}")
                played = 1 if seat.moves and seat.my_turn else 0  # moves before the refused one stay played
            if played and seat.my_turn:
                _board(opened)


@command(epilog="Example: spite show spite-3342e18f-g1-t4.toml --json")
@_handled
def show(
    file: FileArg = None,
    paste: PasteOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the whole view as JSON for scripts (docs/show-json.md).")] = False,
) -> None:
    """Show your view of FILE, a save or a turn code, without moving (it is verified first); an earlier file shows that position."""
    opened = _seen(file, paste)
    earlier = opened.check.status is Status.EARLIER
    if as_json:
        from pbm.view import summary

        _say_notes(opened, keys=False)
        out.print_json(data=summary(opened))
        return
    _say_notes(opened)
    if opened.game == opened.save.game:
        _board(opened)
    else:
        out.print(f"Game {opened.save.game} is being dealt: its table shows once the deal is done.")
    if earlier:
        latest = opened.check.latest
        assert latest is not None
        out.print(
            f"This is an earlier file of the match (game {opened.save.game}, turn {opened.save.turn}), shown as it was: "
            f"the match has moved on to game {latest.game}, turn {latest.turn} ({latest.path}).",
            markup=False,
            soft_wrap=True,
        )
        return
    line = _result_line(opened)
    if line:
        out.print(line, markup=False)
        if opened.owes_file and not opened.mine:
            out.print(_keys_line(opened, writing=False), markup=False)
    elif opened.to_move is not None:
        who = "you" if opened.to_move == opened.me else opened.names[opened.to_move]
        out.print(f"Next file: {who} ({'play this file' if who == 'you' else 'waiting for them'}).", markup=False)


@command(epilog="Example: spite verify spite-3342e18f-g1-t4.toml")
@_handled
def verify(file: FileArg = None, paste: PasteOpt = False) -> None:
    """Run every check on FILE, a save or a turn code (signature, chain, moves, proofs, table, audits), and say what was checked."""
    opened = _seen(file, paste)
    _say_notes(opened, keys=False)
    save = opened.save
    signer = save.players[save.signer]
    if save.partial:
        out.print(f"format:    a turn code of {save.format} version {save.version}: the signed turn, completed from your journal")
        out.print(f"signature: good, of the turn, by {plain(signer.name)} (key fingerprint {signer.fingerprint})")
    else:
        out.print(f"format:    {save.format} version {save.version}, within {saves.MAX_BYTES // 1024} KiB")
        out.print(f"signature: good, by {plain(signer.name)} (key fingerprint {signer.fingerprint})")
    where = f"game {save.game}, turn {save.turn} of match {save.match[:8]} (file {save.seq} of the chain)"
    latest = opened.check.latest
    if opened.check.status is Status.EARLIER and latest is not None:
        out.print(f"chain:     an earlier file: {where}; the match has moved on to game {latest.game}, turn {latest.turn}")
    else:
        out.print(f"chain:     {opened.check.status.value}: {where}")
    if opened.resumed and not opened.mine:
        out.print(
            "not here:  this machine has no record of the match, so the files before this one (their chain is taken on "
            "trust) and whether this is the newest file of the match are not checked ('spite play' asks)"
        )
    if save.partial:
        out.print("your side: in your journal (a turn code does not carry it)")
    elif opened.resumed:
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
    if save.partial:
        out.print("table:     the one the moves lead to (a turn code states none)")
    else:
        out.print("table:     the table in the file is the one the moves lead to")
    g = opened.seat.party.game
    if g is not None and g.audited:
        out.print(f"audit:     game {g.number} audited: the revealed keys are those published, every card accounted for")
    out.print("OK")


@command("code", epilog="Example: spite code spite-3342e18f-g1-t4.toml --copy")
@_handled
def code_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", show_default=False, help="A save file (- reads it from standard input).")],
    part: Annotated[int | None, typer.Option("--part", min=1, help="Only this part of a code of several parts.")] = None,
    copy: Annotated[bool, typer.Option("--copy", help="Put the code (or the part) on the clipboard instead of printing it.")] = False,
) -> None:
    """Print FILE's turn code: text to paste into a chat, one message per part (BEGIN SPITE to END SPITE)."""
    received = _given(file, False).item
    if isinstance(received, TurnCode):
        raise SpiteError("this is a turn code already: paste it as it is")
    parts = code.armor(received)
    if part is not None and part > len(parts):
        raise typer.BadParameter(f"this turn code has {len(parts)} part{'s' if len(parts) != 1 else ''}", param_hint="--part")
    chosen = parts if part is None else [parts[part - 1]]
    if copy:
        clipboard.copy("\n\n".join(chosen))
        which = "the turn code" if len(parts) == 1 else f"part {part} of {len(parts)}" if part else f"all {len(parts)} parts"
        out.print(f"Copied {which} to the clipboard: paste it into your chat as one message{'s each' if len(chosen) > 1 else ''}.")
        return
    out.print("\n\n".join(chosen), markup=False, highlight=False, soft_wrap=True)


@command(epilog="Example: spite games")
@_handled
def games() -> None:
    """List your matches: opponent, score, whose turn and since when, the file to play or the last file, the opponent's address."""
    from pbm.inbox import standings

    home = spite_home()
    identity = _identity(home)
    with Journal.open(home, write=False) as journal:  # a list needs no quick check of every page, and writes nothing
        settle = bool(journal.unwritten())  # unless a stopped 'spite new' left an invitation to keep or forget
        rows = [] if settle else standings(identity, journal)
    if settle:
        with Journal.open(home) as journal:
            _say_settled(settle_invitations(journal))
            rows = standings(identity, journal)
    print_standings(rows)


# --- the computer opponent ---

LEVELS = ("easy", "normal", "expert")


def _bot_turn(opened: Opened, level: str, think: float | None) -> None:
    """Let the bot of `level` play this player's whole turn."""
    seat = opened.seat
    bot = _make_bot(level, seed=int.from_bytes(os.urandom(4), "big"), think=think)
    while seat.my_turn:
        seat.play(bot.choose(seat.state.view(opened.me)))  # type: ignore[union-attr]


def _level(value: str) -> str:
    if value not in LEVELS:
        raise typer.BadParameter(f"{value!r} is not a level: choose easy, normal or expert")
    return value


PRACTICE_AGAIN = "'spite practice --resume' goes on later."


@command(epilog="Example: spite practice --level normal --payoff 10 --target 20")
@_handled
def practice(
    level: Annotated[
        str, typer.Option("--level", metavar="LEVEL", callback=_level, help="How strong the computer plays: easy, normal or expert.")
    ] = "expert",
    payoff: PayoffOption = None,
    target: TargetOption = None,
    resume: Annotated[bool, typer.Option("--resume", help="Go on with your last unfinished practice match.")] = False,
    think: ThinkOption = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Write each turn without asking to confirm it.")] = False,
) -> None:
    """Play against the computer in this terminal; every turn is a real, verifiable save file."""
    home = spite_home()
    identity = _identity(home)
    bot_home = home / "practice"
    from pbm.home import ensure_private_dir

    ensure_private_dir(bot_home)
    computer = load_or_create(bot_home, name="Computer")
    files = ensure_private_dir(bot_home / "saves")
    with Journal.open(home) as journal, Journal.open(bot_home) as bot_journal:
        _say_settled(settle_invitations(journal))
        path = last_file_between(journal, bot_journal, identity, computer) if resume else None
        if resume and path is None:
            raise SpiteError("there is no unfinished practice match to resume: start one with 'spite practice'")
        if path is None:
            rules = replace_rules(G4A, payoff, target)
            _, path = new_match(identity, journal, rules, computer.name, computer.public_text, directory=files)
            out.print(f"New practice match against the computer ({level}), first to {rules.target_score}. Type q to stop; {PRACTICE_AGAIN}")
        else:
            out.print(f"Resuming {path}", soft_wrap=True, markup=False)
        match = saves.read(path).match
        with match_lock(home, match), match_lock(bot_home, match):
            _practise(path, identity, journal, computer, bot_journal, level, think, yes)


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
            out.print(_result_line(opened) or "", markup=False)
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
    out.print(f"Press a key to deal game {opened.game + 1}, q to stop ({PRACTICE_AGAIN.rstrip('.')}).", markup=False)
    key = typer.getchar()
    if key in ("q", "Q", "\x03", "\x04"):
        out.print(f"Nothing more written. {PRACTICE_AGAIN}", markup=False)
        raise typer.Exit(0)


@command(epilog="Example: spite arena --bots expert,easy --games 200 --jobs 2")
@_handled
def arena(
    ctx: typer.Context,
    bots: Annotated[
        str, typer.Option("--bots", metavar="BOT,BOT", help="Two bots, e.g. expert,easy (random, easy, normal, expert).")
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


# --- mail: spite mail setup, send, inbox, resend ---

_play_command = play  # for inbox --play, whose own option of that name hides the command




def _setting(label: str, given: Any, default: Any, flag: str, kind: type = str) -> Any:
    """A setting: as given, else asked at a terminal (offering `default`), else `default`; a usage error when there is none."""
    if given is not None:
        return given
    if sys.stdin.isatty():
        return typer.prompt(label, default=default, type=kind) if default not in (None, "") else typer.prompt(label, type=kind)
    if default in (None, ""):
        raise UsageError(f"give {flag} (there is no terminal to ask at)")
    return default


mail_app = typer.Typer(help="Your mail settings, for spite send and spite inbox.", no_args_is_help=True)
app.add_typer(mail_app, name="mail")


@mail_app.command("setup", cls=_Command, epilog="Example: spite mail setup --provider fastmail --address alice@fastmail.com")
@_handled
def setup(
    provider: Annotated[
        str | None, typer.Option("--provider", metavar="NAME", help="Fill in the servers of gmail, fastmail or icloud (app passwords).")
    ] = None,
    address: Annotated[str | None, typer.Option("--address", metavar="ADDRESS", help="Your email address (the From of your mail).")] = None,
    user: Annotated[
        str | None, typer.Option("--user", metavar="NAME", help="Your login name at the servers (default: the address).")
    ] = None,
    smtp_host: Annotated[str | None, typer.Option("--smtp-host", metavar="HOST", help="The SMTP server that sends your mail.")] = None,
    smtp_port: Annotated[
        int | None, typer.Option("--smtp-port", metavar="PORT", help="Its port (default by security: 465, 587, 25).")
    ] = None,
    smtp_security: Annotated[
        str | None, typer.Option("--smtp-security", metavar="KIND", help="tls, starttls, or plain (a local server only).")
    ] = None,
    imap_host: Annotated[str | None, typer.Option("--imap-host", metavar="HOST", help="The IMAP server of your inbox.")] = None,
    imap_port: Annotated[int | None, typer.Option("--imap-port", metavar="PORT", help="Its port (default by security: 993, 143).")] = None,
    imap_security: Annotated[
        str | None, typer.Option("--imap-security", metavar="KIND", help="tls, starttls, or plain (a local server only).")
    ] = None,
    maildir: Annotated[
        Path | None, typer.Option("--maildir", metavar="DIR", help="Read a local Maildir instead of an IMAP server.")
    ] = None,
    timeout: Annotated[float | None, typer.Option("--timeout", metavar="SECONDS", help="How long to wait for a server (30).")] = None,
    no_check: Annotated[bool, typer.Option("--no-check", help="Keep the settings without trying the servers.")] = False,
) -> None:
    """Set up mail: servers, ports, security, user name and From address; tries them, then keeps them in your spite home."""
    from pbm import mailconf

    home = spite_home()
    try:
        old: MailSettings | None = mailconf.load(home)
    except SpiteError:
        old = None
    preset = None
    if provider is not None:
        preset = mailconf.PROVIDERS.get(provider.lower())
        if preset is None:
            raise typer.BadParameter(f"{provider!r} is not one spite knows: {', '.join(mailconf.PROVIDERS)}", param_hint="--provider")

    def default(name: str) -> Any:
        """The provider's value, else the one kept before, else None."""
        if preset is not None and hasattr(preset, name):
            return getattr(preset, name)
        return getattr(old, name, None)

    def port(kind: str, security: str) -> int:
        """The port kept or the provider's for that security; another security gets its usual port."""
        same = security.strip().lower() == default(f"{kind}_security")
        return (default(f"{kind}_port") if same else None) or mailconf.DEFAULT_PORTS[kind].get(security.strip().lower(), 465)

    address = _setting("Your email address", address, default("address"), "--address")
    user = _setting("Your user name at the mail servers", user, default("user") or mailconf.bare_address(address), "--user")
    smtp_host = _setting("SMTP server (sends your mail)", smtp_host, default("smtp_host"), "--smtp-host")
    smtp_security = _setting("SMTP security (tls, starttls, plain)", smtp_security, default("smtp_security") or "tls", "--smtp-security")
    smtp_port = _setting("SMTP port", smtp_port, port("smtp", smtp_security), "--smtp-port", int)
    settings_maildir = str(maildir.expanduser().resolve()) if maildir is not None else ""
    if not settings_maildir and imap_host is None and old is not None and old.maildir and preset is None:
        settings_maildir = old.maildir
    if not settings_maildir:
        imap_host = _setting("IMAP server (your inbox)", imap_host, default("imap_host"), "--imap-host")
        imap_security = _setting(
            "IMAP security (tls, starttls, plain)", imap_security, default("imap_security") or "tls", "--imap-security"
        )
        imap_port = _setting("IMAP port", imap_port, port("imap", imap_security), "--imap-port", int)
    settings = mailconf.MailSettings(
        address=address.strip(),
        user=user.strip(),
        smtp_host=smtp_host.strip(),
        smtp_port=smtp_port,
        smtp_security=smtp_security.strip().lower(),
        imap_host=(imap_host or "").strip(),
        imap_port=imap_port or 993,
        imap_security=(imap_security or "tls").strip().lower(),
        maildir=settings_maildir,
        timeout=timeout if timeout is not None else (old.timeout if old is not None else 30.0),
    )
    asked = False
    if not no_check:
        password, asked = password_for(settings, ask_first=True)
        _try_servers(settings, password)
    path = mailconf.save(home, settings)
    out.print(f"Mail settings kept in {path} (readable by you only; no password in it).", soft_wrap=True)
    if asked and mailconf.remember_password(settings, password):
        out.print("Your password is kept in the system keyring.")
    elif not no_check and not mailconf.stored_password(settings):
        out.print(f"spite asks for your password each time (or set {mailconf.PASSWORD_ENV}): there is no system keyring here.")


def _try_servers(settings: "MailSettings", password: str) -> None:
    """Log in to both servers (or find the Maildir) and say so; MailError naming what failed."""
    from pbm.transport import mail

    mail.check_smtp(settings, password)
    out.print(
        f"SMTP {settings.smtp_host}:{settings.smtp_port} ({settings.smtp_security}): logged in as {settings.user}.", soft_wrap=True
    )
    if settings.uses_imap:
        mail.check_imap(settings, password)
        out.print(
            f"IMAP {settings.imap_host}:{settings.imap_port} ({settings.imap_security}): logged in, INBOX opened.", soft_wrap=True
        )
    else:
        with mail.maildir_box(Path(settings.maildir)):
            out.print(f"Maildir {settings.maildir}: found.", soft_wrap=True)


def password_for(settings: "MailSettings", ask_first: bool = False) -> tuple[str, bool]:
    """The mail password (from SPITE_MAIL_PASSWORD, the keyring or the terminal) and whether it was asked for.

    `ask_first` (setup): at a terminal the password is asked even if the keyring has one, which may be an old one.
    """
    import os

    from pbm import mailconf

    asking = ask_first and sys.stdin.isatty() and not os.environ.get(mailconf.PASSWORD_ENV)
    stored = None if asking else mailconf.stored_password(settings)
    if stored is not None:
        return stored, False
    if not sys.stdin.isatty():
        raise MailAuthError(f"no mail password: set {mailconf.PASSWORD_ENV}, or run this at a terminal to be asked")
    return typer.prompt(f"Mail password for {settings.user} (an app password for Gmail, Fastmail, iCloud)", hide_input=True), True


# --- sending ---


def _address(journal: Journal, save: SaveFile, to: str | None, me: int) -> str:
    """Where `save` goes: --to (then kept), else the address kept for its match, else asked once at a terminal and kept."""
    from pbm.mailconf import valid_address

    them = plain(save.players[1 - me].name)
    if to is not None:
        address = valid_address(to)
    else:
        kept = journal.address(save.match)
        if kept:
            return kept
        if not sys.stdin.isatty():
            raise SpiteError(f"spite has no email address for {them} in match {save.match[:8]}: give it once with --to ADDRESS")
        address = valid_address(typer.prompt(f"{them}'s email address (kept for this match)"))
    if journal.address(save.match) != address:
        journal.keep_address(save.match, address)
    return address


def mail_save(identity: Identity, journal: Journal, save: SaveFile, data: bytes, name: str, to: str | None) -> str:
    """Mail this player's own save (`data`, parsed as `save`) to their opponent; returns the address it went to."""
    from pbm import mailconf
    from pbm.transport import mail

    me = save.signer
    if save.players[me].key != identity.public_text:
        who = plain(save.players[me].name)
        raise SpiteError(
            f"this file is {who}'s turn, not yours: spite send mails your own files (answer theirs with spite play FILE --send)"
        )
    settings = mailconf.load(journal.home)
    address = _address(journal, save, to, me)
    password, _ = password_for(settings)
    mail.send(settings, password, mail.compose(save, data, name, settings.address, address))
    journal.mailed(save, save.match, address)
    return address


def send_file(path: Path, to: str | None = None) -> None:
    """Mail the save at `path` and say so (used by send and by play --send)."""
    from pbm.transport import code, mail

    try:
        data = read_head(path, code.MAX_INPUT + 1)
    except OSError as e:
        raise SaveFormatError(f"cannot read {path}: {e.strerror or e}") from e
    save = code.read(data)  # a save as written, or pasted, quoted or re-wrapped whole
    if not isinstance(save, SaveFile):
        raise SpiteError(f"{path} holds a turn code, not a save: spite send mails the save file it was made from")
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        address = mail_save(identity, journal, save, data, path.name, to)
    out.print(f"Mailed {path.name} to {address}: {plain(mail.subject(save))}", soft_wrap=True, markup=False)


@command("send", epilog="Example: spite send spite-3342e18f-g1-t5.toml --to bob@example.com")
@_handled
def send(
    file: Annotated[Path, typer.Argument(metavar="FILE", show_default=False, help="Your save file to mail to your opponent.")],
    to: ToOption = None,
) -> None:
    """Mail your save FILE to your opponent: attached, with its turn code in the text for mail programs that hide files."""
    send_file(file, to)


@command("resend", epilog="Example: spite resend 3342e18f")
@_handled
def resend(
    match: Annotated[
        str, typer.Argument(metavar="MATCH", show_default=False, help="The match (its first 8 characters, as spite games shows).")
    ],
    to: ToOption = None,
) -> None:
    """Mail your last file of MATCH again (your opponent says it never came)."""
    from pbm import saves

    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        info = _find_match(journal, match)
        record = journal.latest_own(info.match, identity.public_text)
        if record is None:
            raise SpiteError(f"you have written no file in match {info.match[:8]} yet: nothing to resend")
        data = journal.written(record.hash)
        if data is None:
            try:
                data = read_head(Path(record.path), saves.MAX_BYTES + 1)
            except OSError as e:
                raise SpiteError(f"your last file of match {info.match[:8]} is gone from {record.path}: {e.strerror or e}") from e
        save = saves.parse(data)
        before = journal.last_mailed(info.match)
        address = mail_save(identity, journal, save, data, saves.default_name(save), to)
        latest = journal.latest(info.match)
    when = f" (last mailed {_ago(before[2])})" if before is not None and before[0] == record.hash else ""
    out.print(
        f"Mailed your last file (game {save.game}, turn {save.turn}) of match {info.match[:8]} to {address} again{when}.", soft_wrap=True
    )
    if latest is not None and latest.seq > record.seq:
        out.print(f"Note: {plain(info.players[1 - record.signer].name)} has answered it already ({latest.path}).", soft_wrap=True)


def _find_match(journal: Journal, prefix: str) -> Any:
    """The match whose id starts with `prefix` (4 characters at least)."""
    prefix = prefix.strip().lower()
    found = [i for i in journal.matches() if i.match.startswith(prefix)] if len(prefix) >= 4 else []
    if len(found) != 1:
        what = "no match" if not found else f"{len(found)} matches"
        raise SpiteError(f"{what} of yours starts with {prefix!r}: give the first 8 characters that spite games shows")
    return found[0]


# --- fetching ---


@command("inbox", epilog="Example: spite inbox --play")
@_handled
def inbox(
    maildir: Annotated[
        Path | None, typer.Option("--maildir", metavar="DIR", help="Read this local Maildir instead of your mail settings' inbox.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Look at every message, not only the unseen ones.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what came in and every match as JSON, for scripts.")] = False,
    play: Annotated[bool, typer.Option("--play", help="Then open the next file that waits for you, as spite play does.")] = False,
    send: Annotated[bool, typer.Option("--send", help="With --play: mail your answer at once.")] = False,
) -> None:
    """Fetch new mail: keep every save and turn code in its match's folder, mark that mail seen, and show what to do next."""
    if play and as_json:
        raise UsageError("--json prints for scripts and --play plays at the keyboard: give one of them")
    if send and not play:
        raise UsageError("--send mails the answer that --play writes: add --play")
    from pbm import inbox as kept
    from pbm import mailconf
    from pbm.transport import mail

    home = spite_home()
    identity = _identity(home)
    where = ""  # the IMAP mailbox, whose last look the journal keeps
    outcomes: list[kept.Outcome] = []
    with Journal.open(home) as journal:
        if maildir is not None:
            box = mail.maildir_box(maildir, every)
        else:
            settings = mailconf.load(home)
            if settings.uses_imap:
                password, _ = password_for(settings)
                where = f"{settings.user}@{settings.imap_host}:{settings.imap_port}"
                last = journal.looked(where)
                box = mail.imap_box(settings, password, every, mail.Mark(*last) if last else None)
            else:
                box = mail.maildir_box(Path(settings.maildir), every)
        with box as messages:
            for message in messages.messages():
                found = mail.found_in(message.data)
                taken = [kept.take(f, identity, journal) for f in found]
                outcomes += taken
                if any(t.what is not kept.Taken.REFUSED for t in taken):
                    messages.mark_seen(message)
            if where and messages.looked is not None:
                journal.keep_looked(where, messages.looked.validity, messages.looked.uid)
        rows = kept.standings(identity, journal)
    if as_json:
        out.print_json(data={"taken": [_outcome_json(o) for o in outcomes], "matches": [_standing_json(r) for r in rows]})
        return
    _report(outcomes)
    print_standings(rows)
    if play:
        mine = next((r for r in rows if r.next == "you"), None)
        if mine is None:
            out.print("Nothing waits for you.")
            return
        out.print(f"Opening {mine.file}", soft_wrap=True, markup=False)
        _play_command.__wrapped__(None, file=Path(mine.file), send=send)  # the play command itself, with its defaults


def _report(outcomes: list[Any]) -> None:
    from pbm.inbox import Taken

    new = [o for o in outcomes if o.what is Taken.KEPT]
    if not outcomes:
        out.print("No new spite mail.")
    else:
        again = sum(o.what is Taken.DUPLICATE for o in outcomes)
        note = f" ({again} already had)" if again else ""
        out.print(f"{len(new)} new file{'s' if len(new) != 1 else ''} from the mail{note}.")
    for o in outcomes:
        if o.what is Taken.REFUSED:
            err.print(f"Passed over a turn of match {o.match[:8]} (save {o.seq}): {plain(o.why)}", soft_wrap=True, markup=False)


def _ago(stamp: str) -> str:
    """How long ago the ISO time `stamp` was, in a few characters."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    seconds = max(0, int((datetime.now(UTC) - then).total_seconds()))
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size} {unit} ago"
    return "just now"


def print_standings(rows: "list[Standing]") -> None:
    """The one view of every match: opponent, score, whose move, since when, the opponent's address, the file."""
    from rich.table import Column, Table

    if not rows:
        out.print("No matches yet. Start one with 'spite new' or 'spite practice'.")
        return
    table = Table(
        Column("match", no_wrap=True), Column("opponent", overflow="fold"), Column("fingerprint", no_wrap=True), "score", "next", "since",
        Column("address", no_wrap=True, overflow="fold"), Column("file", overflow="fold"),
    )  # fmt: skip; where room is short the file name folds first (the file to play is named in full below)
    wide = out.width >= 110  # else a fingerprint takes two lines of two groups
    for r in rows:
        them = plain(r.opponent)
        nxt = "play it (new)" if r.new else {"you": "you", "them": them, "over": "over"}[r.next]
        score = f"{r.score[0]}–{r.score[1]}" if r.score else ""
        name = Path(r.file).name if r.file else ""  # the whole path is in the line below the table, and in --json
        key = r.fingerprint if wide or not r.fingerprint else r.fingerprint[:10] + "\n" + r.fingerprint[10:]
        cells = (Text(them), key, score, Text(nxt), _ago(r.since), Text(plain(r.address)), Text(plain(name)))
        table.add_row(r.match[:8], *cells)
    out.print(table)
    waiting = [r for r in rows if r.next == "you"]
    if waiting:
        out.print(f"Your move: spite play {plain(waiting[0].file)}   (or spite inbox --play)", soft_wrap=True, markup=False)
    for r in rows:
        if r.joined > 1:
            out.print(
                f"Match {r.match[:8]} was taken up on this machine at file {r.joined}: the files before it were not checked here.",
                markup=False,
            )
    for r in rows:
        if r.next == "them" and r.address:
            out.print(
                f"Waiting for {plain(r.opponent)} in {r.match[:8]}: if your file was lost, spite resend {r.match[:8]}", markup=False
            )


def _outcome_json(o: Any) -> dict[str, Any]:
    return {"match": o.match, "seq": o.seq, "what": o.what.value, "file": str(o.path) if o.path else None, "why": o.why or None}


def _standing_json(r: "Standing") -> dict[str, Any]:
    return {
        "match": r.match,
        "opponent": r.opponent,
        "score": list(r.score) if r.score else None,
        "next": r.next,
        "since": r.since,
        "file": r.file,
        "address": r.address or None,
        "fingerprint": r.fingerprint or None,
        "new": r.new,
        "joined": r.joined,
    }




def main() -> None:
    """Console entry point."""
    # What the imports made (modules, classes, functions) lives until exit: out of the collector's sight, neither the
    # collections during the command nor the full one at exit walk it again, ~20 ms of every command. What the
    # command itself makes is collected as usual.
    gc.freeze()
    app(prog_name="spite")


if __name__ == "__main__":
    main()
