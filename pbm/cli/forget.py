"""Forgetting a match: spite forget withdraws a match nobody has answered yet, or takes a finished match off spite games.

A match in play is never forgotten: it ends by resigning it (spite resign --match), which the opponent's spite learns of.
"""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from pbm.cli.app import _handled, _identity, _interactive_terminal, command, confirm, session
from pbm.cli.shared import _say_settled, one_match
from pbm.client.answer import settle_invitations
from pbm.errors import SpiteError
from pbm.home import match_lock, spite_home
from pbm.i18n import _
from pbm.journal import Journal, MatchInfo
from pbm.shown import plain
from pbm.stats import finished


class _Kind(enum.Enum):
    """What forgetting a match does to it."""

    WITHDRAW = "withdraw"  # this player's invitation, or their answer to one, that nobody answered: gone, any later file refused
    DECLINE = "decline"  # an invitation to this player that they have not answered: gone (playing it later takes it up again)
    DROP = "drop"  # a finished match: off spite games, its record and stats kept


@command(
    help=_(
        "Withdraw a match nobody has answered yet, your invitation or your answer to one (a later file of it is then "
        "refused), or take a finished match off spite games (spite stats still counts it, spite record still writes it). "
        "A match in play is resigned instead (spite resign --match)."
    ),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite forget 3342e18f"),
)
@_handled
def forget(
    match: Annotated[str, typer.Argument(metavar="MATCH", help=_("The match, by its id or the first hex digits of it (spite games)."))],
    yes: Annotated[bool, typer.Option("--yes", "-y", help=_("Forget it without asking (needed where there is no terminal)."))] = False,
) -> None:
    """Withdraw a match nobody has answered yet, or take a finished match off spite games."""
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        _say_settled(settle_invitations(journal))
        info = one_match(journal, match)
        with match_lock(home, info.match):
            info = one_match(journal, info.match)  # as it is now that no other spite plays it
            me = info.seat_of(identity.public_text)
            if me is None:
                raise SpiteError(_("you ({name}) do not play in match {match}").format(name=identity.name, match=info.match[:8]))
            kind = _kind(info, me, journal)
            them = info.players[1 - me]
            other = plain(them.name) if them.key else _("your opponent")  # an open invitation: nobody has the seat yet
            _confirm_forgetting(kind, info.match, other, yes)
            if kind is _Kind.DROP:
                journal.drop(info.match)
            else:
                journal.withdraw(info.match, refuse=kind is _Kind.WITHDRAW)
    if kind is _Kind.WITHDRAW:
        # TRANSLATORS: {match} is the match's id (8 hex digits); {name} the opponent
        said = _("Withdrew match {match}: spite refuses any later file of it. Tell {name}, who may have your file already.")
    elif kind is _Kind.DECLINE:
        # TRANSLATORS: {name} is who invited the player; {match} the match's id (8 hex digits)
        said = _("Forgot {name}'s invitation of match {match}; playing its file later takes it up again.")
    else:
        said = _(
            # TRANSLATORS: {match} is the match's id (8 hex digits)
            "Match {match} is off your list: spite games leaves it out; spite stats still counts it, spite record {match} still writes it."
        )
    session.out.print(said.format(match=info.match[:8], name=other), soft_wrap=True, markup=False)


def _kind(info: MatchInfo, me: int, journal: Journal) -> _Kind:
    """What forgetting `info` does for the player in seat `me`; a SpiteError in one line for a match that may not be forgotten."""
    latest, short = info.latest, info.match[:8]
    unanswered = latest.game == 1 and latest.turn == 0 and (latest.signer == me or latest.seq == 1)  # no turn played
    came = next((row for row in journal.waiting() if row.match == info.match), None) if unanswered else None
    if came is not None:  # never hide what waits for the player
        said = _(
            # TRANSLATORS: {name} is the opponent; {match} a match's id (8 hex digits)
            "{name}'s answer to match {match} came by mail and waits to be played (spite games lists it): "
            "it is no longer a match nobody has answered"
        )
        raise SpiteError(said.format(name=plain(came.opponent), match=short))
    if unanswered:  # this player's invitation or answer to one that nobody answered (that this journal knows), or an
        return _Kind.WITHDRAW if latest.signer == me else _Kind.DECLINE  # invitation to them they have not answered
    if finished(info, journal.at(info.match, latest.seq - 1), journal.resignations(info.match)):
        return _Kind.DROP
    if info.over and latest.signer != me:  # the file that ended it came: the player's last one (the audit's keys) is owed
        said = _(
            # TRANSLATORS: {match} is a match's id (8 hex digits); {name} the opponent; "spite play" is a command: keep it
            "match {match} is over, but you still owe {name} its last file (your keys of the last game, for the audit): "
            "spite play their latest file first"
        )
        raise SpiteError(said.format(match=short, name=plain(info.players[1 - me].name)))
    if info.over:  # the player's keys went; the opponent's last file may still come, and spite games shows it then
        return _Kind.DROP
    said = _(
        # TRANSLATORS: {match} is a match's id (8 hex digits); keep the commands as they are
        "match {match} is in play: spite forget takes only a match nobody has answered yet or a finished one; "
        "to end this one, resign it: spite resign {match} --match"
    )
    raise SpiteError(said.format(match=short))


def _confirm_forgetting(kind: _Kind, match: str, other: str, yes: bool) -> None:
    """The player's word at a terminal before forgetting `match` (unless `yes`); leaves, nothing changed, if they say no."""
    if yes:
        return
    if not _interactive_terminal():
        raise SpiteError(_("forgetting a match asks you to confirm it at a terminal: give --yes to forget it without asking"))
    if kind is _Kind.WITHDRAW:
        # TRANSLATORS: {match} is the match's id (8 hex digits); {name} the opponent
        question = _("Withdraw match {match} with {name}? Any later file of it will be refused.")
    elif kind is _Kind.DECLINE:
        # TRANSLATORS: {name} is who invited the player; {match} the match's id (8 hex digits)
        question = _("Forget {name}'s invitation of match {match}?")
    else:
        # TRANSLATORS: {match} is the match's id (8 hex digits); {name} the opponent
        question = _("Take the finished match {match} against {name} off your list? Its record and stats stay.")
    if not confirm(question.format(match=match[:8], name=other), default=False):
        session.out.print(_("Nothing was written."))
        raise typer.Exit(0)
