"""Looking at files and matches: spite show, verify, code, games (spite stats counts them: pbm/cli/stats.py)."""

from pathlib import Path
from typing import Annotated

import typer

from pbm import saves
from pbm.cli.app import FileArg, PasteOpt, _handled, _identity, command, session
from pbm.cli.shared import (
    _board,
    _given,
    _keys_line,
    _result_line,
    _say_notes,
    _say_resigned,
    _say_settled,
    _standing_json,
    print_standings,
)
from pbm.client.answer import settle_invitations
from pbm.client.receive import Opened, look
from pbm.errors import HomeError, SpiteError
from pbm.home import spite_home
from pbm.journal import Journal, Status
from pbm.shown import plain
from pbm.transport import clipboard, code
from pbm.transport.code import TurnCode


def _seen(file: Path | None, paste: bool) -> Opened:
    """What the player gave opened for show or verify (an earlier file of the match too), recorded as seen without a disk sync."""
    given = _given(file, paste)
    home = spite_home()
    identity = _identity(home, look=True)
    try:
        journal = Journal.open(home, check=False)  # a look: the commands that write answers check every page
    except HomeError:  # a home that cannot be written: look all the same, from the journal as it is
        journal = Journal.open(home, write=False)
    with journal:
        return look(given, identity, journal)


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
        session.out.print_json(data=summary(opened))
        return
    _say_notes(opened)
    _say_resigned(opened)
    if opened.game == opened.save.game:
        _board(opened)
    else:
        session.out.print(f"Game {opened.save.game} is being dealt: its table shows once the deal is done.")
    if earlier:
        latest = opened.check.latest
        assert latest is not None
        session.out.print(
            f"This is an earlier file of the match (game {opened.save.game}, turn {opened.save.turn}), shown as it was: "
            f"the match has moved on to game {latest.game}, turn {latest.turn} ({latest.path}).",
            markup=False,
            soft_wrap=True,
        )
        return
    line = _result_line(opened)
    if line:
        session.out.print(line, markup=False)
        if opened.owes_file and not opened.mine:
            session.out.print(_keys_line(opened, writing=False), markup=False)
    elif opened.to_move is not None:
        who = "you" if opened.to_move == opened.me else opened.names[opened.to_move]
        session.out.print(f"Next file: {who} ({'play this file' if who == 'you' else 'waiting for them'}).", markup=False)


@command(epilog="Example: spite verify spite-3342e18f-g1-t4.toml")
@_handled
def verify(
    file: FileArg = None,
    paste: PasteOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what was checked as JSON for scripts (docs/show-json.md).")] = False,
) -> None:
    """Run every check on FILE, a save or a turn code (signature, chain, moves, proofs, table, audits), and say what was checked."""
    opened = _seen(file, paste)
    _say_notes(opened, keys=False)
    checked = _checked(opened)
    if as_json:
        save = opened.save
        where = {"match": save.match, "seq": save.seq, "game": save.game, "turn": save.turn, "signer": save.players[save.signer].name}
        session.out.print_json(data={**where, "checked": {key.replace(" ", "_"): text for key, text in checked}, "ok": True})
        return
    for key, text in checked:
        session.out.print(f"{key + ':':<11}{text}")
    if not opened.mine:
        session.out.print("OK")


def _checked(opened: Opened) -> list[tuple[str, str]]:
    """What verify checked of `opened`, a line each: what was checked, and what it found (or why it was not checked here)."""
    save = opened.save
    signer = save.players[save.signer]
    lines: list[tuple[str, str]] = []
    if save.partial:
        lines.append(("format", f"a turn code of {save.format} version {save.version}: the signed turn, completed from your journal"))
        lines.append(("signature", f"good, of the turn, by {plain(signer.name)} (key fingerprint {signer.fingerprint})"))
    else:
        lines.append(("format", f"{save.format} version {save.version}, within {saves.MAX_BYTES // 1024} KiB"))
        lines.append(("signature", f"good, by {plain(signer.name)} (key fingerprint {signer.fingerprint})"))
    where = f"game {save.game}, turn {save.turn} of match {save.match[:8]} (file {save.seq} of the chain)"
    latest = opened.check.latest
    if opened.check.status is Status.EARLIER and latest is not None:
        lines.append(("chain", f"an earlier file: {where}; the match has moved on to game {latest.game}, turn {latest.turn}"))
    else:
        lines.append(("chain", f"{opened.check.status.value}: {where}"))
    if opened.resumed and not opened.mine:
        lines.append(
            (
                "not here",
                "this machine has no record of the match, so the files before this one (their chain is taken on "
                "trust) and whether this is the newest file of the match are not checked ('spite play' asks)",
            )
        )
    if save.partial:
        lines.append(("your side", "in your journal (a turn code does not carry it)"))
    elif opened.resumed:
        lines.append(("your side", "taken from this file (this machine has no record of it), sealed by you and unchanged"))
    elif opened.carries_mine and (save.seq > 1 or opened.mine):
        lines.append(("your side", "carried as your last file left it"))
    elif save.seq > 1:
        lines.append(("your side", "not carried in this file (it would not have fitted); your journal has it"))
    if opened.mine:
        lines.append(("moves", "your own file, checked when you wrote it"))
        return lines
    n = len(opened.their_moves)
    lines.append(("moves", f"{n} move{'s' if n != 1 else ''} checked against the rules"))
    lines.append(("proofs", "every shuffle, card reveal and draw proof checks out"))
    if save.partial:
        lines.append(("table", "the one the moves lead to (a turn code states none)"))
    else:
        lines.append(("table", "the table in the file is the one the moves lead to"))
    g = opened.seat.party.game
    if g is not None and g.audited:
        lines.append(("audit", f"game {g.number} audited: the revealed keys are those published, every card accounted for"))
    return lines


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
        session.out.print(f"Copied {which} to the clipboard: paste it into your chat as one message{'s each' if len(chosen) > 1 else ''}.")
        return
    session.out.print("\n\n".join(chosen), markup=False, highlight=False, soft_wrap=True)


@command(epilog="Example: spite games   (spite games --all lists finished matches too)")
@_handled
def games(
    every: Annotated[bool, typer.Option("--all", help="List finished matches too (by default only those in play).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the matches it lists as JSON for scripts (docs/show-json.md).")] = False,
) -> None:
    """List your matches in play: opponent, score, whose turn and since when, the file to play or the last file, the address."""
    from pbm.inbox import standings
    from pbm.stats import finished_matches

    home = spite_home()
    identity = _identity(home, look=True)
    with Journal.open(home, write=False) as journal:  # a list needs no quick check of every page, and writes nothing
        settle = bool(journal.unwritten())  # unless a stopped 'spite new' left an invitation to keep or forget
        rows = [] if settle else standings(identity, journal)
        done = set() if settle else finished_matches(journal)
    if settle:
        with Journal.open(home) as journal:
            _say_settled(settle_invitations(journal), aside=as_json)
            rows = standings(identity, journal)
            done = finished_matches(journal)
    shown = rows if every else [r for r in rows if r.match not in done or r.new or r.unsent]  # never hide what waits for you
    hidden = len(rows) - len(shown)
    if as_json:
        session.out.print_json(data={"matches": [_standing_json(r) for r in shown], "hidden": hidden})
        return
    print_standings(shown, hidden=hidden)
