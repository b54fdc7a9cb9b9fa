"""Playing a file: spite play, and the prompt where a turn is typed.

`play` reads top-down as the receiver's order: read what the player gave, receive it (pbm/client/receive.py), ask for
the moves, answer (pbm/client/answer.py), and say what was written.
"""

import functools
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from engine.game import legal_moves
from engine.moves import IllegalMoveError, InvalidMoveError, parse_turn
from pbm import saves
from pbm.cli.app import (
    FileArg,
    PasteOpt,
    ThinkOption,
    UsageError,
    YesOption,
    _handled,
    _identity,
    _interactive_terminal,
    _make_bot,
    command,
    session,
)
from pbm.cli.shared import (
    _announce_keys,
    _board,
    _game_over,
    _given,
    _history,
    _how_to_send,
    _keys_line,
    _result_line,
    _say_notes,
    _say_resigned,
    _show_game_over,
)
from pbm.client import turn
from pbm.client.answer import Answered, answer, recorded_answer
from pbm.client.answer import resign as write_resignation
from pbm.client.receive import DEFAULT_OPPONENT, FirstContact, Given, Opened, open_save, receive, reopen
from pbm.errors import NoRecordError, NotYourTurnError, ProtocolError, ReplayError, SpiteError
from pbm.home import match_lock, remove_stale, spite_home
from pbm.identity import Identity
from pbm.journal import Journal
from pbm.saves import SaveFile
from pbm.shown import LINE, cut, plain
from pbm.transport.code import TurnCode

NewestOption = Annotated[
    bool,
    typer.Option(
        "--newest",
        help="On a machine with no record of the match (a new spite home): answer FILE as the newest file of the match without asking.",
    ),
]


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
    play_file(file, paste, moves=moves, auto=auto, hint=hint, think=think, output=output, yes=yes, copy=copy, send=send, newest=newest)


def play_file(
    file: Path | None,
    paste: bool = False,
    *,
    moves: str | None = None,
    auto: bool = False,
    hint: bool = False,
    think: float | None = None,
    output: Path | None = None,
    yes: bool = False,
    copy: bool = False,
    send: bool = False,
    newest: bool = False,
) -> None:
    """`spite play FILE` (or what is pasted, `paste`): read it, receive it, ask for the moves, answer, say what was written."""
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
        try:
            opened = receive(given, identity, journal, functools.partial(_confirm_newest, newest=newest))
        except SpiteError as e:
            _say_seat_taken(given.item, journal, e)
            raise
        _say_notes(opened, keys=False)  # the keys come last, after the board: the last thing on screen before the prompt
        _say_resigned(opened)
        if opened.mine:
            other = opened.names[1 - opened.me]
            raise NotYourTurnError(f"this is your own {what}: it is {other}'s turn; send it to them")
        _check_seat(opened, identity, yes)
        if not opened.owes_file:
            _board(opened)
            session.out.print(_result_line(opened) or "", markup=False)
            session.out.print("Nothing more to send: the match is over and every game is audited.")
            return
        if opened.can_move:
            _board(opened)
            _confirm_keys(opened, yes)
            if hint:
                _print_hint(opened, think)
            again = f"play {file if file is not None and str(file) != '-' else 'the ' + what} again when you are ready."
            opened = _take_turn(opened, moves, auto, think, confirm=not yes, again=again)
        elif moves:
            raise SpiteError("this file asks for no moves from you (the cards are being dealt); run it without --moves")
        else:
            _confirm_keys(opened, yes)
        written, path = answer(opened, output)
    _say_written(opened, written, path, send, copy)


@command(epilog="Example: spite resign 3342e18f   (or --match to concede the whole match)")
@_handled
def resign(
    match: Annotated[str, typer.Argument(metavar="MATCH", help="The match, by its id or the first hex digits of it (spite games).")],
    whole: Annotated[bool, typer.Option("--match", help="Concede the whole match, not only the game under way.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Resign without asking (needed where there is no terminal).")] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", metavar="FILE", help="Where to write the file.")] = None,
    copy: Annotated[bool, typer.Option("--copy", help="Put the file's turn code on the clipboard, to paste into a chat.")] = False,
    send: Annotated[bool, typer.Option("--send", help="Mail the file to your opponent at once (spite mail setup).")] = False,
    file: Annotated[
        Path | None,
        typer.Option("--file", metavar="FILE", help="Your opponent's latest file or turn code (- to paste), if it came as a code."),
    ] = None,
    paste: Annotated[bool, typer.Option("--paste", help="Read your opponent's latest turn code from the clipboard.")] = False,
) -> None:
    """Resign the game under way: your opponent wins it, scoring the cards left in your pay-off pile (--match: the match).

    It may be done on your turn or your opponent's; the file it writes goes to your opponent like any turn.
    """
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        found = [m for m in journal.matches() if m.match.startswith(match.strip().lower())] if match.strip() else []
        if not found:
            raise NoRecordError(f"no match {plain(cut(match))} in your journal (spite games lists them)")
        if len(found) > 1:
            raise SpiteError(f"{len(found)} matches begin with {plain(cut(match))}: give more of the id (spite games)")
        info = found[0]
        given = _given(file, paste) if file is not None or paste else None
        if given is not None and given.match != info.match:
            raise SpiteError(
                f"that {'turn code' if isinstance(given.item, TurnCode) else 'file'} is of another match, not {info.match[:8]}"
            )
        with match_lock(home, info.match):
            opened = _resignable(info.match, identity, journal, given)
            state, me = opened.state, opened.me
            assert state is not None
            other = opened.names[1 - me]
            points = state.players[me].payoff_count
            what = f"the match (and game {opened.game})" if whole else f"game {opened.game}"
            if not yes:
                if not _interactive_terminal():
                    raise SpiteError("resigning asks you to confirm it at a terminal: give --yes to resign without asking")
                if not typer.confirm(f"Resign {what}? {other} scores {points}.", default=False):
                    session.out.print("Nothing was written.")
                    return
            try:
                written, path = write_resignation(opened, whole, output)
            except ProtocolError as e:
                raise SpiteError(f"there is nothing to resign in match {info.match[:8]} now ({e})") from e
    session.out.print(f"You resigned {what}: {other} scores {points}.", markup=False)
    line = _result_line(opened)
    if line:
        session.out.print(line, markup=False)
    session.out.print(f"Wrote {path}", soft_wrap=True, markup=False)
    if path.resolve().parent == (home / "practice" / "saves").resolve():  # against the computer: nothing to send
        if not whole:
            session.out.print(f"The computer answers it: spite practice --resume {written.match[:8]}", markup=False)
        return
    if send:
        _send_file(path)
        return
    _how_to_send(written, path, other, copy)


def _resignable(match: str, identity: Identity, journal: Journal, given: Given | None = None) -> Opened:
    """The latest file of `match` opened for resigning: the opponent's (this player's turn) or this player's own.

    `given` is the opponent's latest file or turn code, when the journal does not know where it lies (it came as a code).
    Raises a SpiteError in one line when the match is over or no game is under way to resign.
    """
    info = next(m for m in journal.matches() if m.match == match)
    me = info.seat_of(identity.public_text)
    if me is None:
        raise SpiteError(f"you ({identity.name}) do not play in match {match[:8]}")
    if info.over:
        raise SpiteError(f"match {match[:8]} is over: there is nothing to resign")
    latest = info.latest
    where = Path(latest.path) if latest.path else Path.cwd()
    if given is not None:  # checked in full and recorded as any file played; it must be the match's latest
        opened = receive(given, identity, journal, functools.partial(_confirm_newest, newest=False))
        now = journal.latest(match)
        if now is None or opened.save.hash != now.hash:
            raise SpiteError(f"that is not the latest file of match {match[:8]}: nothing was written")
    elif latest.signer == me:
        data = journal.written(latest.hash)
        if data is None:
            raise NoRecordError(f"your journal does not keep your last file of match {match[:8]}: resign where you wrote it")
        opened = open_save(where, identity, journal, save=saves.parse(data))
    else:
        if not latest.path or not where.is_file():
            raise NoRecordError(
                f"{plain(info.players[1 - me].name)}'s latest file of match {match[:8]} is not where your journal saw it "
                f"({plain(latest.path) or 'a turn code'}): give it with --file (or --paste)"
            )
        opened = open_save(where, identity, journal)
    state, party = opened.state, opened.seat.party
    if state is not None and state.outcome is not None:
        raise SpiteError(f"game {opened.game} is over already: there is nothing to resign; play the next file to go on (spite play)")
    if state is None or party.dealing is not None or party.deal_ready:
        raise SpiteError(f"the cards of game {opened.game} are being dealt: there is nothing to resign yet; play the file first")
    return opened


def _send_file(path: Path) -> None:
    """Mail the save at `path` to the opponent (--send), as spite send does."""
    from pbm.cli.mail import send_file  # mail's commands come after play's in the app's list; inbox --play imports play

    send_file(path)


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
    session.err.print(why, markup=False, soft_wrap=True)
    if not typer.confirm(f"Is it the newest file {other} sent you in this match (your last turn was the one before it)?", default=False):
        session.out.print("Nothing written. Play the newest file of the match, or go on where your spite home with this match is.")
        raise typer.Exit(1)


def _say_seat_taken(item: SaveFile | TurnCode, journal: Journal, error: SpiteError) -> None:
    """A second answer to an open invitation whose seat someone else took says so, instead of naming a key change."""
    pinned = journal.pinned(item.match)
    if not isinstance(item, SaveFile) or item.seq != 2 or pinned is None or not pinned[1].key:
        return
    late, first = plain(item.players[1].name), plain(pinned[1].name)
    if item.players[1].key == pinned[1].key:
        return
    raise SpiteError(
        f"this is {late}'s answer to your open invitation of match {item.match[:8]}, but {first} took the seat first: "
        f"nothing was written; tell {late} the seat is taken (spite new starts a match with them)"
    ) from error


def _confirm_keys(opened: Opened, yes: bool) -> None:
    """The fingerprint of each key met for the first time, then (at a terminal, without --yes) the player's word before writing."""
    players = [note.player for note in opened.notes if isinstance(note, FirstContact)]
    if not players:
        return
    _announce_keys(players)
    other = opened.names[1 - opened.me]
    later = f"spite games shows it, and {other} sees theirs with spite id"
    if yes or not _interactive_terminal():
        session.out.print(f"Check the fingerprint with {other} later: {later}.", markup=False, soft_wrap=True)
        return
    if not typer.confirm(f"Go on with this key for {other}? (if you cannot check it now: {later})", default=True):
        session.out.print(
            f"Nothing written. The key is kept as {other}'s in this match: if the fingerprint is not the one {other} reads "
            "you, do not go on with this match (start a new one with them); if it is, play the file again.",
            markup=False,
            soft_wrap=True,
        )
        raise typer.Exit(1)


def _answered_again(answered: Answered, send: bool = False) -> None:
    """This player answered the file already: say where the answer is (written again if it was not on disk); mail it with `send`."""
    received = answered.received
    other = plain(received.players[received.signer].name)
    if send:
        session.out.print(f"You had answered this file already: {answered.path}", soft_wrap=True, markup=False)
        _send_file(answered.path)
        return
    if not answered.rewritten:
        if received.seq == 1:
            raise NotYourTurnError(
                f"you already answered this invitation (your answer is {answered.path}): send it to {other}, "
                f"then play the file {other} sends back"
            )
        raise ReplayError(f"you have already played from this file: your answer is {answered.path}; send it to {other}")
    session.out.print("You had answered this file already, but your answer was not on disk (was spite interrupted?).", markup=False)
    session.out.print(f"Wrote {answered.path} again, as recorded then.\nSend it to {other}.", soft_wrap=True, markup=False)


def _say_written(opened: Opened, written: SaveFile, path: Path, send: bool, copy: bool) -> None:
    """What the answer to `opened` ends (a game, the match), where it was written, and how to send it (or mail it, `send`)."""
    _show_game_over(opened)
    if opened.match_over:
        if not _game_over(opened):
            session.out.print(_result_line(opened) or "", markup=False)
        session.out.print(_keys_line(opened, writing=True), markup=False)
    session.out.print(f"Wrote {path}", soft_wrap=True, markup=False)
    if send:
        _send_file(path)
        return
    _how_to_send(written, path, opened.names[1 - opened.me], copy)


def _check_seat(opened: Opened, identity: Identity, yes: bool) -> None:
    """An open invitation made out to another name: warn, and take the seat only if the player says so."""
    save = opened.save
    meant = save.players[1].name
    if save.seq != 1 or save.players[1].key or meant in (DEFAULT_OPPONENT, identity.name):
        return
    warning = f"This invitation from {plain(save.players[0].name)} is made out to {plain(meant)}, and you are {plain(identity.name)}."
    if yes:
        session.err.print(f"Warning: {warning} Taking the seat (--yes).", markup=False)
        return
    if not _interactive_terminal():
        raise SpiteError(f"{warning} Nothing was written; add --yes to take the seat anyway")
    session.err.print(f"Warning: {warning}", markup=False)
    if not typer.confirm(f"Take the seat as {plain(identity.name)}?", default=False):
        session.out.print("Nothing written.")
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
        session.out.print(f"The bot played: {' '.join(map(str, seat.moves))}")
        return opened
    return _interactive(opened, think, confirm and _interactive_terminal(), functools.partial(reopen, opened), again)


def _print_hint(opened: Opened, think: float | None) -> None:
    bot = _make_bot("expert", seed=0, think=think)
    plan = bot.plan(opened.seat.state.view(opened.me))  # type: ignore[union-attr]
    session.out.print(f"Hint: {' '.join(map(str, plan))}")


def _bot_turn(opened: Opened, level: str, think: float | None) -> None:
    """Let the bot of `level` play this player's whole turn."""
    seat = opened.seat
    bot = _make_bot(level, seed=int.from_bytes(os.urandom(4), "big"), think=think)
    while seat.my_turn:
        seat.play(bot.choose(seat.state.view(opened.me)))  # type: ignore[union-attr]


def _setup_line_editing(opened: Callable[[], Opened]) -> None:
    """Line editing, history and Tab completion of legal moves at a terminal (readline, libedit or pyreadline3); nothing without one."""
    if not _interactive_terminal():
        return
    try:
        import readline  # on Windows, the module of pyreadline3
    except Exception:  # none (or one that fails in this console): plain input still works
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
        session.err.print(f"\nspite: interrupted, nothing written; {again}", markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    except EOFError:
        if not sys.stdin.isatty():
            raise SpiteError("no more input: nothing was written") from None
        session.out.print(f"\nNothing written; {again}", markup=False, soft_wrap=True)
        raise typer.Exit(0) from None


def _forget_last_line() -> None:
    """Keep an answer to a question out of the move history that the up arrow recalls."""
    readline = sys.modules.get("readline")
    remove = getattr(readline, "remove_history_item", None)  # pyreadline3 has none
    if remove is not None and readline.get_current_history_length():  # type: ignore[union-attr]
        remove(readline.get_current_history_length() - 1)  # type: ignore[union-attr]


def _interactive(opened: Opened, think: float | None, confirm: bool, reopen: Callable[[], Opened], again: str) -> Opened:
    """Ask for moves until the turn is over (and confirmed, when `confirm`); 'q' leaves without writing anything.

    Returns the opened file with the turn played on it: taking a move back opens the file again (`reopen`).
    """
    current = [opened]
    _setup_line_editing(lambda: current[0])
    if not session.introduced:
        session.introduced = True
        session.out.print(
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
                session.out.print(f"Nothing written; {again}", markup=False, soft_wrap=True)
                raise typer.Exit(0)
            text = "undo"
        else:
            text = _ask("your move> ", again).strip()
        word = turn.command(text)
        if not text:
            continue
        if word == turn.QUIT:
            session.out.print(f"Nothing written; {again}", markup=False, soft_wrap=True)
            raise typer.Exit(0)
        if word == turn.MOVES:
            moves = " ".join(map(str, legal_moves(seat.state.view(opened.me))))  # type: ignore[union-attr]
            session.out.print(f"Legal moves: {moves}", soft_wrap=True)  # one line, however long: the terminal wraps it
        elif word == turn.HELP:
            session.out.print("\n".join(turn.HELP_LINES), markup=False)
        elif word == turn.HINT:
            _print_hint(opened, think)
        elif word == turn.BOARD:
            _board(opened)
        elif word == turn.UNDO:
            try:
                current[0], move = turn.take_back(opened, reopen)
            except turn.UndoError as e:
                session.err.print(f"refused: {cut(plain(str(e)), LINE)}")
                continue
            session.out.print(f"Took back {move}.")
            _board(current[0])
        else:
            try:
                played = turn.play_line(opened, text)
            except (InvalidMoveError, IllegalMoveError) as e:
                session.err.print(f"refused: {cut(plain(str(e)), LINE)}")
                played = 1 if seat.moves and seat.my_turn else 0  # moves before the refused one stay played
            if played and seat.my_turn:
                _board(opened)
