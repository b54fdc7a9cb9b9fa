"""Looking at files and matches: spite show, verify, code, games (spite stats counts them: pbm/cli/stats.py)."""

from pathlib import Path
from typing import Annotated

import typer

from pbm import saves
from pbm.cli.app import ChatOption, FileArg, PasteOpt, _handled, _identity, command, print_json, session
from pbm.cli.shared import (
    _board,
    _chat,
    _given,
    _hidden_line,
    _keys_line,
    _result_line,
    _say_notes,
    _say_resigned,
    _say_settled,
    _standing_json,
    is_practice,
    labelled,
    print_standings,
)
from pbm.client.receive import Opened, look
from pbm.errors import HomeError, SpiteError
from pbm.home import spite_home
from pbm.i18n import N_, _, ngettext, pgettext
from pbm.journal import Journal, Status
from pbm.shown import plain


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


@command(
    help=_("Show your view of FILE, a save or a turn code, without moving (it is verified first); an earlier file shows that position."),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite show spite-3342e18f-g1-t4.toml --json"),
)
@_handled
def show(
    file: FileArg = None,
    paste: PasteOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the whole view as JSON for scripts (docs/show-json.md)."))] = False,
) -> None:
    """Show your view of FILE without moving."""
    opened = _seen(file, paste)
    earlier = opened.check.status is Status.EARLIER
    if as_json:
        from pbm.view import summary

        _say_notes(opened, keys=False)
        print_json(summary(opened))
        return
    _say_notes(opened)
    _say_resigned(opened)
    if opened.game == opened.save.game:
        _board(opened)
    else:
        session.out.print(_("Game {game} is being dealt: its table shows once the deal is done.").format(game=opened.save.game))
    if earlier:
        latest = opened.check.latest
        assert latest is not None
        said = _(
            # TRANSLATORS: {game} and {turn} are this file's; {latest_game} and {latest_turn} the match's latest file's, at {file}
            "This is an earlier file of the match (game {game}, turn {turn}), shown as it was: "
            "the match has moved on to game {latest_game}, turn {latest_turn} ({file})."
        )
        values = {"game": opened.save.game, "turn": opened.save.turn, "latest_game": latest.game, "latest_turn": latest.turn}
        session.out.print(said.format(**values, file=latest.path), markup=False, soft_wrap=True)
        return
    line = _result_line(opened)
    if line:
        session.out.print(line, markup=False)
        if opened.owes_file and not opened.mine:
            session.out.print(_keys_line(opened, writing=False), markup=False)
    elif opened.to_move is not None:
        if opened.to_move == opened.me:
            said = _("Next file: you (play this file).")
        else:
            # TRANSLATORS: {name} is the opponent, who writes the next file of the match
            said = _("Next file: {name} (waiting for them).").format(name=opened.names[opened.to_move])
        session.out.print(said, markup=False)


@command(
    help=_("Run every check on FILE, a save or a turn code (signature, chain, moves, proofs, table, audits), and say what was checked."),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite verify spite-3342e18f-g1-t4.toml"),
)
@_handled
def verify(
    file: FileArg = None,
    paste: PasteOpt = False,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print what was checked as JSON for scripts (docs/show-json.md)."))] = False,
) -> None:
    """Run every check on FILE and say what was checked."""
    opened = _seen(file, paste)
    _say_notes(opened, keys=False)
    checked = _checked(opened)
    if as_json:  # in English, as every --json
        save = opened.save
        where = {"match": save.match, "seq": save.seq, "game": save.game, "turn": save.turn, "signer": save.players[save.signer].name}
        print_json({**where, "checked": {key.replace(" ", "_"): english for key, english, said in checked}, "ok": True})
        return
    labels = _check_labels()
    for line in labelled([(labels[key], said) for key, english, said in checked]):
        session.out.print(line)
    if not opened.mine:
        # TRANSLATORS: the last line of spite verify when every check passed
        session.out.print(pgettext("spite verify: every check passed", "OK"))


def _check_labels() -> dict[str, str]:
    """The label of each line of spite verify, by the key --json gives it (the values are lined up after the longest)."""
    return {
        # TRANSLATORS: a label of spite verify's lines (format: ..., signature: ..., chain: ...): the file's format
        "format": pgettext("spite verify: a line's label", "format:"),
        # TRANSLATORS: a label of spite verify's lines: the file's signature
        "signature": pgettext("spite verify: a line's label", "signature:"),
        # TRANSLATORS: a label of spite verify's lines: how the file follows the match's earlier files
        "chain": pgettext("spite verify: a line's label", "chain:"),
        # TRANSLATORS: a label of spite verify's lines: what was not checked on this machine
        "not here": pgettext("spite verify: a line's label", "not here:"),
        # TRANSLATORS: a label of spite verify's lines: the player's own side of the match (their sealed secrets)
        "your side": pgettext("spite verify: a line's label", "your side:"),
        # TRANSLATORS: a label of spite verify's lines: the moves of the turn
        "moves": pgettext("spite verify: a line's label", "moves:"),
        # TRANSLATORS: a label of spite verify's lines: the proofs of the fair shuffle, reveals and draws
        "proofs": pgettext("spite verify: a line's label", "proofs:"),
        # TRANSLATORS: a label of spite verify's lines: the cards on the table
        "table": pgettext("spite verify: a line's label", "table:"),
        # TRANSLATORS: a label of spite verify's lines: the check of a whole game once it is over
        "audit": pgettext("spite verify: a line's label", "audit:"),
    }


# How a file follows the match's earlier ones, by the journal's word for it; {where} is the file's place in the match.
_CHAIN = {
    # TRANSLATORS: after "chain:" in spite verify: the first file of a match never seen here; {where} says which file
    Status.NEW_MATCH: N_("new match: {where}"),
    # TRANSLATORS: after "chain:" in spite verify: a later file of a match never seen here; {where} says which file
    Status.UNKNOWN_MATCH: N_("unknown match: {where}"),
    # TRANSLATORS: after "chain:" in spite verify: the file after the latest one known; {where} says which file
    Status.CONTINUES: N_("continues: {where}"),
    # TRANSLATORS: after "chain:" in spite verify: the latest file known, seen again; {where} says which file
    Status.LATEST: N_("latest: {where}"),
    # TRANSLATORS: after "chain:" in spite verify: the opponent's resignation that crossed your latest file; {where} says which file
    Status.CROSSING: N_("crossing: {where}"),
    # TRANSLATORS: after "chain:" in spite verify: a file recorded before the latest one; {where} says which file
    Status.EARLIER: N_("earlier: {where}"),
}

Found = tuple[str, str]  # a finding of verify: in English (what --json prints) and in the player's language


def _found(template: str, **values: "str | int | Found") -> Found:
    """`template` (marked with N_) filled, in English and in the player's language; a value that is itself a Found fills each."""
    english = template.format(**{k: v[0] if isinstance(v, tuple) else v for k, v in values.items()})
    said = _(template).format(**{k: v[1] if isinstance(v, tuple) else v for k, v in values.items()})
    return english, said


def _checked(opened: Opened) -> list[tuple[str, str, str]]:
    """What verify checked of `opened`, a line each: what was checked (the key --json gives it), and what it found (or why
    it was not checked here), in English for --json and in the player's language."""
    save = opened.save
    signer = save.players[save.signer]
    name, fingerprint = plain(signer.name), signer.fingerprint
    lines: list[tuple[str, Found]] = []
    if save.partial:
        # TRANSLATORS: after "format:" in spite verify; {format} is the format's name (spite-save), {version} its number
        said = N_("a turn code of {format} version {version}: the signed turn, completed from your journal")
        lines.append(("format", _found(said, format=save.format, version=save.version)))
        # TRANSLATORS: after "signature:" in spite verify; {name} is the player who signed, {fingerprint} their key's
        said = N_("good, of the turn, by {name} (key fingerprint {fingerprint})")
        lines.append(("signature", _found(said, name=name, fingerprint=fingerprint)))
    else:
        # TRANSLATORS: after "format:" in spite verify; {format} is the format's name (spite-save), {version} its number,
        # {size} the most a save file may hold, in KiB (kibibytes)
        said = N_("{format} version {version}, within {size} KiB")
        lines.append(("format", _found(said, format=save.format, version=save.version, size=saves.MAX_BYTES // 1024)))
        # TRANSLATORS: after "signature:" in spite verify; {name} is the player who signed, {fingerprint} their key's
        said = N_("good, by {name} (key fingerprint {fingerprint})")
        lines.append(("signature", _found(said, name=name, fingerprint=fingerprint)))
    # TRANSLATORS: in spite verify, which file this is; {match} is the match's id (8 hex digits), {seq} the file's number in
    # the match's chain of files
    said = N_("game {game}, turn {turn} of match {match} (file {seq} of the chain)")
    where = _found(said, game=save.game, turn=save.turn, match=save.match[:8], seq=save.seq)
    latest = opened.check.latest
    if opened.check.status is Status.EARLIER and latest is not None:
        # TRANSLATORS: after "chain:" in spite verify; {where} says which file this is, {game} and {turn} the match's latest
        said = N_("an earlier file: {where}; the match has moved on to game {game}, turn {turn}")
        lines.append(("chain", _found(said, where=where, game=latest.game, turn=latest.turn)))
    else:
        said = _CHAIN.get(opened.check.status, "{status}: {where}")
        lines.append(("chain", _found(said, status=opened.check.status.value, where=where)))
    if opened.resumed and not opened.mine:
        said = N_(
            # TRANSLATORS: after "not here:" in spite verify
            "this machine has no record of the match, so the files before this one (their chain is taken on "
            "trust) and whether this is the newest file of the match are not checked ('spite play' asks)"
        )
        lines.append(("not here", _found(said)))
    if save.partial:
        # TRANSLATORS: after "your side:" in spite verify: where your side of the match (your sealed secrets) is
        lines.append(("your side", _found(N_("in your journal (a turn code does not carry it)"))))
    elif opened.resumed:
        # TRANSLATORS: after "your side:" in spite verify
        said = N_("taken from this file (this machine has no record of it), sealed by you and unchanged")
        lines.append(("your side", _found(said)))
    elif opened.carries_mine and (save.seq > 1 or opened.mine):
        # TRANSLATORS: after "your side:" in spite verify
        lines.append(("your side", _found(N_("carried as your last file left it"))))
    elif save.seq > 1:
        # TRANSLATORS: after "your side:" in spite verify
        lines.append(("your side", _found(N_("not carried in this file (it would not have fitted); your journal has it"))))
    if opened.mine:
        # TRANSLATORS: after "moves:" in spite verify
        lines.append(("moves", _found(N_("your own file, checked when you wrote it"))))
        return [(key, *found) for key, found in lines]
    n = len(opened.their_moves)
    english = f"{n} move{'s' if n != 1 else ''} checked against the rules"  # for --json, which is never translated
    # TRANSLATORS: after "moves:" in spite verify; {n} is how many moves the turn had
    said = ngettext("{n} move checked against the rules", "{n} moves checked against the rules", n).format(n=n)
    lines.append(("moves", (english, said)))
    # TRANSLATORS: after "proofs:" in spite verify
    lines.append(("proofs", _found(N_("every shuffle, card reveal and draw proof checks out"))))
    if save.partial:
        # TRANSLATORS: after "table:" in spite verify
        lines.append(("table", _found(N_("the one the moves lead to (a turn code states none)"))))
    else:
        # TRANSLATORS: after "table:" in spite verify
        lines.append(("table", _found(N_("the table in the file is the one the moves lead to"))))
    g = opened.seat.party.game
    if g is not None and g.audited:
        # TRANSLATORS: after "audit:" in spite verify; {game} is the game's number
        said = N_("game {game} audited: the revealed keys are those published, every card accounted for")
        lines.append(("audit", _found(said, game=g.number)))
    return [(key, *found) for key, found in lines]


@command(
    "code",
    help=_("Print FILE's turn code: text to paste into a chat, one message per part (BEGIN SPITE to END SPITE)."),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite code spite-3342e18f-g1-t4.toml --copy"),
)
@_handled
def code_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", show_default=False, help=_("A save file (- reads it from standard input)."))],
    part: Annotated[int | None, typer.Option("--part", min=1, help=_("Only this part of a code of several parts."))] = None,
    copy: Annotated[bool, typer.Option("--copy", help=_("Put the code (or the part) on the clipboard instead of printing it."))] = False,
    chat: ChatOption = None,
) -> None:
    """Print FILE's turn code."""
    from pbm.transport import clipboard, code  # imported here: show, verify and games read no turn code of their own

    received = _given(file, False).item
    if isinstance(received, code.TurnCode):
        raise SpiteError(_("this is a turn code already: paste it as it is"))
    parts = code.armor(received, _chat(chat)[0].chars)
    n = len(parts)
    if part is not None and part > n:
        # TRANSLATORS: after "Invalid value for --part:"; {n} is how many parts (chat messages) the turn code has
        said = ngettext("this turn code has {n} part", "this turn code has {n} parts", n)
        raise typer.BadParameter(said.format(n=n), param_hint="--part")
    chosen = parts if part is None else [parts[part - 1]]
    if copy:
        clipboard.copy("\n\n".join(chosen))
        if n == 1:
            said = _("Copied the turn code to the clipboard: paste it into your chat as one message.")
        elif part:
            # TRANSLATORS: {part} is the part's number, {n} how many parts (chat messages) the turn code has
            said = _("Copied part {part} of {n} to the clipboard: paste it into your chat as one message.")
        else:
            said = ngettext(
                # TRANSLATORS: {n} is how many parts (chat messages) the turn code has, always more than one
                "Copied all {n} parts to the clipboard: paste them into your chat as one message each.",
                "Copied all {n} parts to the clipboard: paste them into your chat as one message each.",
                n,
            )
        session.out.print(said.format(part=part, n=n))
        return
    session.out.print("\n\n".join(chosen), markup=False, highlight=False, soft_wrap=True)


@command(
    help=_("List your matches in play: opponent, score, whose turn and since when, the file to play or the last file, the address."),
    epilog=_("Example: spite games   (spite games --all lists finished matches too)"),
)
@_handled
def games(
    every: Annotated[bool, typer.Option("--all", help=_("List finished matches too (by default only those in play)."))] = False,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the matches it lists as JSON for scripts (docs/show-json.md)."))] = False,
) -> None:
    """List your matches in play."""
    from pbm import mailconf
    from pbm.inbox import Next, standings
    from pbm.stats import finished_matches

    home = spite_home()
    identity = _identity(home, look=True)
    with Journal.open(home, write=False) as journal:  # a list needs no quick check of every page, and writes nothing
        settle = bool(journal.unwritten())  # unless a stopped 'spite new' left an invitation to keep or forget
        rows = [] if settle else standings(identity, journal)
        done = set() if settle else finished_matches(journal)
        dropped = journal.dropped()
    if settle:
        from pbm.client.answer import settle_invitations  # the writing side, for a stopped 'spite new' only

        with Journal.open(home) as journal:
            _say_settled(settle_invitations(journal), aside=as_json)
            rows = standings(identity, journal)
            done = finished_matches(journal)
    rows = [r for r in rows if r.match not in dropped or r.new or r.unsent]  # spite forget took them off; what waits shows
    shown = rows if every else [r for r in rows if r.match not in done or r.new or r.unsent]  # never hide what waits for you
    hidden = len(rows) - len(shown)
    if as_json:
        print_json({"matches": [_standing_json(r) for r in shown], "hidden": hidden})
        return
    if not shown or mailconf.settings_path(home).exists():
        print_standings(shown, hidden=hidden)
        return
    # no mail set up: `spite inbox --play` would only say so, so the line that names the move names spite play alone
    # (playing=True: print_standings names none itself)
    print_standings(shown, playing=True)
    waiting = [r for r in shown if r.next is Next.YOU and not is_practice(r)]
    if waiting:
        # TRANSLATORS: under the table of spite games; {file} is the save file to play next
        said = _("Your move: spite play {file}").format(file=plain(waiting[0].file))
        session.out.print(said, soft_wrap=True, markup=False)
    if hidden:
        session.out.print(_hidden_line(hidden))
