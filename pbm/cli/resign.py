"""Resigning: spite resign, the game under way or the whole match, on one's own turn or the opponent's.

A resignation is written as a turn is (pbm/client/answer.py) and, once recorded, is the only file that may follow the
one it follows: run again after a crash, the command writes that same file (docs/save-format.md, *Resigning*).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated

import typer

from pbm import saves
from pbm.cli.app import ChatOption, _handled, _identity, _interactive_terminal, command, confirm, session
from pbm.cli.play import _confirm_newest, _send_file
from pbm.cli.shared import _given, _how_to_send, _result_line, one_match
from pbm.client.answer import resign as write_resignation
from pbm.client.answer import rewrite
from pbm.client.receive import Given, Opened, open_save, receive
from pbm.errors import NoRecordError, ProtocolError, ReplayError, SpiteError
from pbm.home import match_lock, spite_home
from pbm.i18n import _, error_text
from pbm.identity import Identity
from pbm.journal import Journal, MatchInfo, Resignation
from pbm.saves import SaveFile
from pbm.shown import plain
from pbm.transport.code import TurnCode


@command(
    help=_(
        "Resign the game under way: your opponent wins it, scoring the cards left in your pay-off pile (--match: the match).\n\n"
        "It may be done on your turn or your opponent's; the file it writes goes to your opponent like any turn."
    ),
    epilog=_("Example: spite resign 3342e18f   (or --match to concede the whole match)"),
)
@_handled
def resign(
    match: Annotated[str, typer.Argument(metavar="MATCH", help=_("The match, by its id or the first hex digits of it (spite games)."))],
    whole: Annotated[bool, typer.Option("--match", help=_("Concede the whole match, not only the game under way."))] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help=_("Resign without asking (needed where there is no terminal)."))] = False,
    output: Annotated[Path | None, typer.Option("-o", "--output", metavar="FILE", help=_("Where to write the file."))] = None,
    copy: Annotated[bool, typer.Option("--copy", help=_("Put the file's turn code on the clipboard, to paste into a chat."))] = False,
    send: Annotated[bool, typer.Option("--send", help=_("Mail the file to your opponent at once (spite mail setup)."))] = False,
    file: Annotated[
        Path | None,
        typer.Option("--file", metavar="FILE", help=_("Your opponent's latest file or turn code (- to paste), if it came as a code.")),
    ] = None,
    paste: Annotated[bool, typer.Option("--paste", help=_("Read your opponent's latest turn code from the clipboard."))] = False,
    chat: ChatOption = None,
) -> None:
    """Resign the game under way, or with --match the whole match."""
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        info = one_match(journal, match)
        given = _given(file, paste) if file is not None or paste else None
        if given is not None and given.match != info.match:
            if isinstance(given.item, TurnCode):
                raise SpiteError(_("that turn code is of another match, not {match}").format(match=info.match[:8]))
            raise SpiteError(_("that file is of another match, not {match}").format(match=info.match[:8]))
        with match_lock(home, info.match):
            recorded = _recorded_resignation(info, identity, journal, output)
            if recorded is not None:  # made already (a spite killed before its file was on disk): the same file, again
                done, opened, written, path, rewritten = recorded
                whole, game, points = done.whole_match, done.game, _points(opened)
                if not rewritten and (not send or _practice(home, path)):  # on disk: name it (or mail it again, --send)
                    _resigned_already(done, path, opened, practice=_practice(home, path))
            else:
                rewritten = False
                opened = _resignable(info.match, identity, journal, given)
                game, points = opened.game, _points(opened)
                _confirm_resigning(opened, whole, yes, points)
                try:
                    written, path = write_resignation(opened, whole, output)
                except ProtocolError as e:
                    said = _("there is nothing to resign in match {match} now ({error})")
                    raise SpiteError(said.format(match=info.match[:8], error=error_text(e))) from e
    other = opened.names[1 - opened.me]
    if recorded is not None and not rewritten:  # on disk, and --send: mail it again
        session.out.print(_("You had resigned already: {file}").format(file=path), soft_wrap=True, markup=False)
        _send_file(path)
        return
    if rewritten:
        said = _("You had resigned already, but your file was not on disk (was spite interrupted?): it is written again, as recorded then.")
        session.out.print(said, soft_wrap=True, markup=False)
    if whole:
        # TRANSLATORS: {name} is the opponent; {points} the points they score (the cards left in the pay-off pile)
        resigned = _("You resigned the match (and game {game}): {name} scores {points}.")
    else:
        # TRANSLATORS: {name} is the opponent; {points} the points they score (the cards left in the pay-off pile)
        resigned = _("You resigned game {game}: {name} scores {points}.")
    session.out.print(resigned.format(game=game, name=other, points=points), markup=False)
    line = _result_line(opened)
    if line:
        session.out.print(line, markup=False)
    session.out.print(_("Wrote {file}").format(file=path), soft_wrap=True, markup=False)
    if _practice(home, path):  # against the computer: nothing to send
        if not whole:
            said = _("The computer answers it: spite practice --resume {match}")
            session.out.print(said.format(match=written.match[:8]), markup=False)
        return
    if send:
        _send_file(path)
        return
    _how_to_send(written, path, other, copy, chat)


def _confirm_resigning(opened: Opened, whole: bool, yes: bool, points: int) -> None:
    """The player's word at a terminal before resigning (unless `yes`); leaves, nothing written, if they say no."""
    if yes:
        return
    if not _interactive_terminal():
        raise SpiteError(_("resigning asks you to confirm it at a terminal: give --yes to resign without asking"))
    if whole:
        # TRANSLATORS: {name} is the opponent; {points} the points they score (the cards left in the pay-off pile)
        question = _("Resign the match (and game {game})? {name} scores {points}.")
    else:
        # TRANSLATORS: {name} is the opponent; {points} the points they score (the cards left in the pay-off pile)
        question = _("Resign game {game}? {name} scores {points}.")
    if not confirm(question.format(game=opened.game, name=opened.names[1 - opened.me], points=points), default=False):
        session.out.print(_("Nothing was written."))
        raise typer.Exit(0)


def _points(opened: Opened) -> int:
    """What the opponent scores for this player's resignation: the cards left in this player's pay-off pile (R10)."""
    state = opened.state
    assert state is not None
    return state.outcome.points if state.outcome is not None else state.players[opened.me].payoff_count


def _practice(home: Path, path: Path) -> bool:
    """Whether the file at `path` is one of a game against the computer (spite practice): nobody to send it to."""
    return path.resolve().parent == (home / "practice" / "saves").resolve()


def _recorded_resignation(
    info: MatchInfo, identity: Identity, journal: Journal, output: Path | None
) -> tuple[Resignation, Opened, SaveFile, Path, bool] | None:
    """This player's resignation in `info`, if it is the match's latest file: written again (as recorded) unless it is on disk.

    A `spite resign` killed after recording it (or after writing its temp file) leaves it so: only that file may follow the
    one it follows now. Returns what it resigned, the file opened, the save, where it lies and whether it was written again.
    """
    latest, me = journal.latest(info.match), info.seat_of(identity.public_text)
    done = journal.resignation(latest.hash) if latest is not None and latest.signer == me else None
    if latest is None or done is None:
        return None
    again = rewrite(journal, latest, output)
    if again is None:  # the journal kept no bytes of it (it came from another machine's home): nothing to write
        return None
    written, path, rewritten = again
    opened = open_save(path, identity, journal, save=written)
    return done, opened, written, path, rewritten


def _resigned_already(done: Resignation, path: Path, opened: Opened, practice: bool) -> None:
    """Refuse to resign again what this player resigned already, naming their file (on disk), or how the computer answers it."""
    if practice:
        # TRANSLATORS: {game} is the game resigned; {match} the match's id (8 hex digits)
        said = _("you resigned game {game} already: the computer answers it: spite practice --resume {match}")
        if not done.whole_match:
            raise ReplayError(said.format(game=done.game, match=opened.save.match[:8]))
        raise SpiteError(_("match {match} is over: there is nothing to resign").format(match=opened.save.match[:8]))
    other = opened.names[1 - opened.me]
    if done.whole_match:
        # TRANSLATORS: {file} is the player's resignation; {name} the opponent
        said = _("you resigned the match already: your file is {file}; send it to {name}")
    else:
        # TRANSLATORS: {game} is the game resigned; {file} the player's resignation; {name} the opponent
        said = _("you resigned game {game} already: your file is {file}; send it to {name}")
    raise ReplayError(said.format(game=done.game, file=path, name=other))


def _resignable(match: str, identity: Identity, journal: Journal, given: Given | None = None) -> Opened:
    """The latest file of `match` opened for resigning: the opponent's (this player's turn) or this player's own.

    `given` is the opponent's latest file or turn code, when the journal does not know where it lies (it came as a code).
    Raises a SpiteError in one line when the match is over or no game is under way to resign.
    """
    info = next(m for m in journal.matches() if m.match == match)
    me = info.seat_of(identity.public_text)
    if me is None:
        raise SpiteError(_("you ({name}) do not play in match {match}").format(name=identity.name, match=match[:8]))
    if info.over:
        raise SpiteError(_("match {match} is over: there is nothing to resign").format(match=match[:8]))
    latest = info.latest
    where = Path(latest.path) if latest.path else Path.cwd()
    if given is not None:  # checked in full and recorded as any file played; it must be the match's latest
        opened = receive(given, identity, journal, functools.partial(_confirm_newest, newest=False))
        now = journal.latest(match)
        if now is None or opened.save.hash != now.hash:
            raise SpiteError(_("that is not the latest file of match {match}: nothing was written").format(match=match[:8]))
    elif latest.signer == me:
        data = journal.written(latest.hash)
        if data is None:
            said = _("your journal does not keep your last file of match {match}: resign where you wrote it")
            raise NoRecordError(said.format(match=match[:8]))
        opened = open_save(where, identity, journal, save=saves.parse(data))
    else:
        if not latest.path or not where.is_file():
            other = plain(info.players[1 - me].name)
            if latest.path:
                said = _(
                    # TRANSLATORS: {name} is the opponent; {path} where the journal saw their file
                    "{name}'s latest file of match {match} is not where your journal saw it ({path}): give it with --file (or --paste)"
                )
                raise NoRecordError(said.format(name=other, match=match[:8], path=plain(latest.path)))
            said = _(
                # TRANSLATORS: {name} is the opponent
                "{name}'s latest file of match {match} is not where your journal saw it (a turn code): give it with --file (or --paste)"
            )
            raise NoRecordError(said.format(name=other, match=match[:8]))
        opened = open_save(where, identity, journal)
    state, party = opened.state, opened.seat.party
    if state is not None and state.outcome is not None:
        said = _("game {game} is over already: there is nothing to resign; play the next file to go on (spite play)")
        raise SpiteError(said.format(game=opened.game))
    if state is None or party.dealing is not None or party.deal_ready:
        said = _("the cards of game {game} are being dealt: there is nothing to resign yet; play the file first")
        raise SpiteError(said.format(game=opened.game))
    return opened
