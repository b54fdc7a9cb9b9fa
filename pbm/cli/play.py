"""Playing a file: spite play, and the prompt where a turn is typed.

`play` reads top-down as the receiver's order: read what the player gave, receive it (pbm/client/receive.py), ask for
the moves, answer (pbm/client/answer.py), and say what was written.
"""

import functools
import os
import sys
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from engine.game import legal_moves
from engine.moves import END_MOVE, IllegalMoveError, InvalidMoveError, parse_turn
from pbm import findsave
from pbm.cli.app import (
    ChatOption,
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
    confirm,
    session,
)
from pbm.cli.shared import (
    _ago,
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
from pbm.client.receive import DEFAULT_OPPONENT, FirstContact, Opened, receive, reopen
from pbm.errors import NotYourTurnError, ReplayError, SpiteError
from pbm.home import match_lock, remove_stale, spite_home
from pbm.i18n import _, error_text
from pbm.identity import Identity
from pbm.journal import Journal
from pbm.saves import SaveFile
from pbm.shown import LINE, cut, plain
from pbm.transport.code import TurnCode

NewestOption = Annotated[
    bool,
    typer.Option(
        "--newest",
        help=_("On a machine with no record of the match (a new spite home): answer FILE as the newest file of the match without asking."),
    ),
]


@command(
    help=_("Verify what your opponent sent (a file or a turn code), play your turn, and write the answer to send back."),
    epilog=_('Example: spite play spite-3342e18f-g1-t4.toml   (or --moves "p-c1 7-c2 Q-s2", or --auto)')
    + "\n\n"
    + _(
        # TRANSLATORS: {variable} is the name of an environment variable (SPITE_DOWNLOADS); FILE and --yes stay as they are
        "With no FILE, spite looks in this folder and in your Downloads folder ({variable} names another) for the newest file "
        "that is the next one of one of your matches, and asks whether to play it (--yes plays it without asking)."
    ).format(variable=findsave.DOWNLOADS_ENV),
)
@_handled
def play(
    ctx: typer.Context,
    file: FileArg = None,
    paste: PasteOpt = False,
    moves: Annotated[str | None, typer.Option("--moves", metavar="MOVES", help=_('Your whole turn, e.g. "p-c1 7-c2 Q-s2".'))] = None,
    auto: Annotated[bool, typer.Option("--auto", help=_("Let the expert bot play your turn."))] = False,
    hint: Annotated[bool, typer.Option("--hint", help=_("Show the bot's suggested turn before you move."))] = False,
    think: ThinkOption = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", metavar="FILE", help=_("Where to write your answer (never over FILE)."))
    ] = None,
    yes: YesOption = False,
    copy: Annotated[bool, typer.Option("--copy", help=_("Put your answer's turn code on the clipboard, to paste into a chat."))] = False,
    send: Annotated[bool, typer.Option("--send", help=_("Mail your answer to your opponent at once (spite mail setup)."))] = False,
    newest: NewestOption = False,
    chat: ChatOption = None,
) -> None:
    """Verify what your opponent sent, play your turn, and write the answer to send back."""
    if auto and moves is not None:
        raise UsageError(_("--auto and --moves both say how to play the turn: give one of them"), ctx=ctx)
    play_file(
        file, paste, moves=moves, auto=auto, hint=hint, think=think, output=output, yes=yes, copy=copy, send=send, newest=newest, chat=chat
    )


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
    chat: str | None = None,
) -> None:
    """`spite play FILE` (or what is pasted, `paste`): read it, receive it, ask for the moves, answer, say what was written."""
    home = spite_home()
    identity = _identity(home)
    if file is None and not paste:
        file = _find_file(home, identity, yes)
    given = _given(file, paste)
    code = isinstance(given.item, TurnCode)
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
            if code:
                raise NotYourTurnError(_("this is your own turn code: it is {name}'s turn; send it to them").format(name=other))
            raise NotYourTurnError(_("this is your own file: it is {name}'s turn; send it to them").format(name=other))
        _check_seat(opened, identity, yes)
        if not opened.owes_file:
            _board(opened)
            session.out.print(_result_line(opened) or "", markup=False)
            session.out.print(_("Nothing more to send: the match is over and every game is audited."))
            return
        if opened.can_move:
            _board(opened)
            _confirm_keys(opened, yes)
            if hint:
                _print_hint(opened, think)
            again = _play_again(file, code)
            opened = _take_turn(opened, moves, auto, think, confirm=not yes, again=again)
        elif moves:
            raise SpiteError(_("this file asks for no moves from you (the cards are being dealt); run it without --moves"))
        else:
            _confirm_keys(opened, yes)
        written, path = answer(opened, output)
    _say_written(opened, written, path, send, copy, chat)


def _find_file(home: Path, identity: Identity, yes: bool) -> Path:
    """The file to play when the player names none: the newest next file of one of their matches in this folder or the
    Downloads folder, once the player says so (at a terminal; `yes` takes it without asking)."""
    where = findsave.folders(Path.cwd(), findsave.downloads_folder())
    with Journal.open(home, write=False) as journal:
        found = findsave.find(where, journal, identity.public_text)
    if found is None:
        said = _(
            # TRANSLATORS: {folders} are the folders spite looked in, separated by commas
            "no file to play: none of the newest .toml and .txt files in {folders} is the next file of one of your "
            "matches; give the file your opponent sent: spite play FILE"
        )
        raise SpiteError(said.format(folders=", ".join(str(folder) for folder in where)))
    shown = _shown_path(found.path)
    ago = _ago(datetime.fromtimestamp(found.modified, UTC).isoformat())
    values = {"name": plain(found.sender), "match": found.match[:8], "game": found.game, "turn": found.turn, "ago": ago}
    if found.invitation:
        # TRANSLATORS: {name} invited the player; {match} is a match's id (8 hex digits); {ago} says how long ago, like "3 min ago"
        what = _("{name}'s invitation to match {match}, saved {ago}:").format(**values)
    else:
        # TRANSLATORS: {name} is the opponent; {match} a match's id (8 hex digits); {ago} says how long ago, like "3 min ago"
        what = _("{name}'s file of match {match} (game {game}, turn {turn}), saved {ago}:").format(**values)
    if not yes and not _interactive_terminal():
        said = _(
            # TRANSLATORS: {found} names the file, like "Bob's file of match 3342e18f (game 1, turn 4), saved 3 min ago:"; {file} is it
            "{found} {file}; nothing was played: give it (spite play FILE), or add --yes to play it"
        )
        raise SpiteError(said.format(found=what, file=shown))
    session.out.print(what, soft_wrap=True, markup=False)
    session.out.print(f"  {shown}", soft_wrap=True, no_wrap=True, markup=False)  # whole on its line, to copy: spaces and all
    if not yes and not confirm(_("Play it?"), default=True):
        session.out.print(_("Nothing written: give the file to play (spite play FILE)."), markup=False)
        raise typer.Exit(0)
    return found.path


def _shown_path(path: Path) -> Path:
    """`path` as a message shows it: its name alone in the current folder, else whole."""
    return Path(path.name) if path.parent == Path.cwd() else path


def _play_again(file: Path | None, code: bool) -> str:
    """How to go on with the turn later, after "Nothing written;" (the file named as the player gave it)."""
    if file is not None and str(file) != "-":
        # TRANSLATORS: follows "Nothing written;" when the player leaves the prompt; {file} is the file they gave
        return _("play {file} again when you are ready.").format(file=file)
    if code:
        # TRANSLATORS: follows "Nothing written;" when the player leaves the prompt
        return _("play the turn code again when you are ready.")
    # TRANSLATORS: follows "Nothing written;" when the player leaves the prompt
    return _("play the file again when you are ready.")


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
    if newest:
        return
    why = _(
        # TRANSLATORS: {name} is the opponent, who wrote the file
        "This machine has no record of match {match}: spite cannot tell whether this file ({name}'s game {game}, turn {turn}) "
        "is the newest of the match, and answering an older one would let {name} take back the turns since."
    ).format(match=save.match[:8], name=other, game=save.game, turn=save.turn)
    if not _interactive_terminal():
        said = _("Nothing was written; if it is the newest file {name} sent you, play it again with --newest")
        raise SpiteError(f"{why} {said.format(name=other)}")
    session.err.print(why, markup=False, soft_wrap=True)
    question = _("Is it the newest file {name} sent you in this match (your last turn was the one before it)?").format(name=other)
    if not confirm(question, default=False):
        session.out.print(_("Nothing written. Play the newest file of the match, or go on where your spite home with this match is."))
        raise typer.Exit(1)


def _say_seat_taken(item: SaveFile | TurnCode, journal: Journal, error: SpiteError) -> None:
    """A second answer to an open invitation whose seat someone else took says so, instead of naming a key change."""
    pinned = journal.pinned(item.match)
    if not isinstance(item, SaveFile) or item.seq != 2 or pinned is None or not pinned[1].key:
        return
    late, first = plain(item.players[1].name), plain(pinned[1].name)
    if item.players[1].key == pinned[1].key:
        return
    said = _(
        # TRANSLATORS: {late} answered the player's open invitation after {first} had taken the seat
        "this is {late}'s answer to your open invitation of match {match}, but {first} took the seat first: "
        "nothing was written; tell {late} the seat is taken (spite new starts a match with them)"
    )
    raise SpiteError(said.format(late=late, match=item.match[:8], first=first)) from error


def _confirm_keys(opened: Opened, yes: bool) -> None:
    """The fingerprint of each key met for the first time, then (at a terminal, without --yes) the player's word before writing.

    A key the player went on with under the same name in another match is said in one line, and asks nothing.
    """
    contacts = [note for note in opened.notes if isinstance(note, FirstContact)]
    if not contacts:
        return
    _announce_keys(contacts)
    if all(contact.confirmed for contact in contacts):
        return
    other = opened.names[1 - opened.me]
    if yes or not _interactive_terminal():
        # TRANSLATORS: {name} is the opponent whose key was met for the first time
        said = _("Check the fingerprint with {name} later: spite games shows it, and {name} sees theirs with spite id.")
        session.out.print(said.format(name=other), markup=False, soft_wrap=True)
        return
    # TRANSLATORS: {name} is the opponent whose key was met for the first time
    question = _("Go on with this key for {name}? (if you cannot check it now: spite games shows it, and {name} sees theirs with spite id)")
    if not confirm(question.format(name=other), default=True):
        said = _(
            # TRANSLATORS: {name} is the opponent whose key was met for the first time
            "Nothing written. The key is kept as {name}'s in this match: if the fingerprint is not the one {name} reads "
            "you, do not go on with this match (start a new one with them); if it is, play the file again."
        )
        session.out.print(said.format(name=other), markup=False, soft_wrap=True)
        raise typer.Exit(1)


def _answered_again(answered: Answered, send: bool = False) -> None:
    """This player answered the file already: say where the answer is (written again if it was not on disk); mail it with `send`."""
    received = answered.received
    other = plain(received.players[received.signer].name)
    if send:
        session.out.print(_("You had answered this file already: {file}").format(file=answered.path), soft_wrap=True, markup=False)
        _send_file(answered.path)
        return
    if not answered.rewritten:
        if received.seq == 1:
            said = _(
                # TRANSLATORS: {file} is the player's answer; {name} the opponent
                "you already answered this invitation (your answer is {file}): send it to {name}, then play the file {name} sends back"
            )
            raise NotYourTurnError(said.format(file=answered.path, name=other))
        # TRANSLATORS: {file} is the player's answer; {name} the opponent
        said = _("you have already played from this file: your answer is {file}; send it to {name}")
        raise ReplayError(said.format(file=answered.path, name=other))
    session.out.print(_("You had answered this file already, but your answer was not on disk (was spite interrupted?)."), markup=False)
    # TRANSLATORS: {file} is the player's answer, written again; {name} the opponent
    said = _("Wrote {file} again, as recorded then.\nSend it to {name}.")
    session.out.print(said.format(file=answered.path, name=other), soft_wrap=True, markup=False)


def _say_written(opened: Opened, written: SaveFile, path: Path, send: bool, copy: bool, chat: str | None = None) -> None:
    """What the answer to `opened` ends (a game, the match), where it was written, and how to send it (or mail it, `send`)."""
    _show_game_over(opened)
    if opened.match_over:
        if not _game_over(opened):
            session.out.print(_result_line(opened) or "", markup=False)
        session.out.print(_keys_line(opened, writing=True), markup=False)
    _say_dealing(written, opened.names[1 - opened.me])
    session.out.print(_("Wrote {file}").format(file=path), soft_wrap=True, markup=False)
    if send:
        _send_file(path)
        return
    _how_to_send(written, path, opened.names[1 - opened.me], copy, chat)


def _say_dealing(written: SaveFile, other: str) -> None:
    """A file that deals the cards and plays no turn says so: it shows no board, and the first board comes with the next file."""
    message = written.protocol.get("message")
    if not isinstance(message, dict):
        return
    deal = message.get("deal")
    if not isinstance(deal, dict) or "turn" in message or "resign" in message:  # a deal step riding with a turn shows its board
        return
    said = _(
        # TRANSLATORS: {game} is the number of the game being dealt, {name} the opponent
        "The cards of game {game} are being dealt: this file is your part of the shuffle. "
        "Send it back to {name}; the first board of game {game} comes with {name}'s next file."
    )
    session.out.print(said.format(game=deal.get("game", written.game), name=other), soft_wrap=True, markup=False)


def _check_seat(opened: Opened, identity: Identity, yes: bool) -> None:
    """An open invitation made out to another name: warn, and take the seat only if the player says so."""
    save = opened.save
    meant = save.players[1].name
    if save.seq != 1 or save.players[1].key or meant in (DEFAULT_OPPONENT, identity.name):
        return
    # TRANSLATORS: {inviter} wrote the invitation for {meant}; {name} is the player reading it
    warning = _("This invitation from {inviter} is made out to {meant}, and you are {name}.").format(
        inviter=plain(save.players[0].name), meant=plain(meant), name=plain(identity.name)
    )
    if yes:
        # TRANSLATORS: {warning} is a whole sentence: "This invitation from Ann is made out to Bob, and you are Carl."
        session.err.print(_("Warning: {warning} Taking the seat (--yes).").format(warning=warning), markup=False)
        return
    if not _interactive_terminal():
        raise SpiteError(warning + " " + _("Nothing was written; add --yes to take the seat anyway"))
    # TRANSLATORS: {warning} is a whole sentence: "This invitation from Ann is made out to Bob, and you are Carl."
    session.err.print(_("Warning: {warning}").format(warning=warning), markup=False)
    if not confirm(_("Take the seat as {name}?").format(name=plain(identity.name)), default=False):
        session.out.print(_("Nothing written."))
        raise typer.Exit(0)


def _take_turn(opened: Opened, moves: str | None, auto: bool, think: float | None, confirm: bool, again: str) -> Opened:
    """This player's turn played on `opened`: from --moves, by the bot, or typed at the prompt; returns the opened file to write."""
    seat = opened.seat
    if moves is not None:
        for move in parse_turn(moves):
            if not seat.my_turn:
                raise IllegalMoveError(_("{move}: your turn is already over").format(move=move))
            try:
                seat.play(move)
            except IllegalMoveError as e:
                # TRANSLATORS: {error} says why a move was refused
                raise IllegalMoveError(_("{error}; nothing was written").format(error=error_text(e))) from e
        if seat.my_turn:
            raise IllegalMoveError(_("those moves do not end your turn: finish with a discard (like Q-s2), or 'end' with an empty hand"))
        return opened
    if auto:
        _bot_turn(opened, "expert", think)
        session.out.print(_("The bot played: {moves}").format(moves=" ".join(map(str, seat.moves))))
        return opened
    return _interactive(opened, think, confirm and _interactive_terminal(), functools.partial(reopen, opened), again)


def _print_hint(opened: Opened, think: float | None) -> None:
    bot = _make_bot("expert", seed=0, think=think)
    plan = bot.plan(opened.seat.state.view(opened.me))  # type: ignore[union-attr]
    session.out.print(_("Hint: {moves}").format(moves=" ".join(map(str, plan))))


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
    """One line typed at `prompt` (NFC); Ctrl-C leaves (status 130) and Ctrl-D leaves like q, each with one line."""
    try:
        return unicodedata.normalize("NFC", input(prompt))
    except KeyboardInterrupt:
        # TRANSLATORS: {again} says how to go on later, like "play the file again when you are ready."
        said = _("interrupted, nothing written; {again}").format(again=again)
        session.err.print(f"\nspite: {said}", markup=False, soft_wrap=True)
        raise typer.Exit(130) from None
    except EOFError:
        if not sys.stdin.isatty():
            raise SpiteError(_("no more input: nothing was written")) from None
        session.out.print("\n" + _nothing_written(again), markup=False, soft_wrap=True)
        raise typer.Exit(0) from None


def _nothing_written(again: str) -> str:
    """What leaving the prompt says: nothing written, and how to go on later (`again`)."""
    # TRANSLATORS: {again} says how to go on later, like "play the file again when you are ready."
    return _("Nothing written; {again}").format(again=again)


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
        said = _(
            # TRANSLATORS: the words in [bold] are what the player types: {undo}, {help} and {quit} are the prompt's words
            # in the player's language (prompt word: undo, help, quit); keep the moves, '?' and the [bold] markup as they are
            "Type a move like [bold]p-c1[/bold], [bold]7-c2[/bold] or [bold]Q-s2[/bold] (several at once are fine; Tab completes); "
            "[bold]?[/bold] lists your legal moves, [bold]{undo}[/bold] takes one back, [bold]{help}[/bold] says more, "
            "[bold]{quit}[/bold] leaves without writing."
        )
        words = {
            name: escape(turn.first_word(meaning)) for name, meaning in (("undo", turn.UNDO), ("help", turn.HELP), ("quit", turn.QUIT))
        }
        session.out.print(said.format(**words), markup=True)  # spite's own words, no name in them
    while True:
        opened = current[0]
        seat = opened.seat
        if not seat.my_turn:
            if not confirm:
                return opened
            # TRANSLATORS: the question before a turn is written; {n} is the turn's number, {moves} its moves (like
            # "7-c2 Q-s2"); u and q are what the player types to take back the last move or to leave (they always work)
            question = _("Your turn {n}: {moves}. Write it? [Enter: yes, u: undo, q: quit] ").format(
                n=len(_history(opened)) + 1, moves=" ".join(map(str, seat.moves))
            )
            answer = turn.confirm_answer(_ask(question, again))
            _forget_last_line()
            if answer is None:
                continue
            if answer.write:
                return opened
            if answer.quit:
                session.out.print(_nothing_written(again), markup=False, soft_wrap=True)
                raise typer.Exit(0)
            word: str | None = turn.UNDO
            text = ""
        else:
            # TRANSLATORS: the prompt where the player types their moves; keep the space at the end
            text = turn.typed(_ask(_("your move> "), again))
            if not text:
                continue
            word = turn.command(text)
        if word == turn.END:  # 'end' in the player's language: the move of the notation
            word, text = None, str(END_MOVE)
        if word == turn.QUIT:
            session.out.print(_nothing_written(again), markup=False, soft_wrap=True)
            raise typer.Exit(0)
        if word == turn.MOVES:
            moves = " ".join(map(str, legal_moves(seat.state.view(opened.me))))  # type: ignore[union-attr]
            # one line, however long: the terminal wraps it
            session.out.print(_("Legal moves: {moves}").format(moves=moves), soft_wrap=True)
        elif word == turn.HELP:
            session.out.print("\n".join(turn.help_lines()), markup=False)
        elif word == turn.HINT:
            _print_hint(opened, think)
        elif word == turn.BOARD:
            _board(opened)
        elif word == turn.UNDO:
            try:
                current[0], move = turn.take_back(opened, reopen)
            except turn.UndoError as e:
                session.err.print(_refused(e))
                continue
            session.out.print(_("Took back {move}.").format(move=move))
            _board(current[0])
        else:
            try:
                played = turn.play_line(opened, text)
            except (InvalidMoveError, IllegalMoveError) as e:
                session.err.print(_refused(e))
                played = 1 if seat.moves and seat.my_turn else 0  # moves before the refused one stay played
            if played and seat.my_turn:
                _board(opened)


def _refused(error: Exception) -> str:
    """The line that says a move (or taking one back) was refused, and why."""
    # TRANSLATORS: {reason} says why a move typed at the prompt was refused
    return _("refused: {reason}").format(reason=cut(plain(error_text(error)), LINE))
