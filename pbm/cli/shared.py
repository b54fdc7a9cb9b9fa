"""What several groups of commands read and show: what the player gives, the board, a received file's notes, the standings."""

import os
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.measure import Measurement
from rich.table import Column, Table
from rich.text import Text

from engine.state import Reason
from pbm import render
from pbm.cli.app import UsageError, _look, session
from pbm.client.receive import FirstContact, Given, NotCarried, NotRecorded, Opened, Resumed, decode
from pbm.errors import NoRecordError, SaveFormatError, SpiteError
from pbm.home import read_head, spite_home
from pbm.i18n import _, error_text, ngettext, npgettext, os_reason, pgettext
from pbm.journal import Journal, MatchInfo, Status
from pbm.saves import SaveFile
from pbm.shown import cut, plain
from pbm.transport.aswritten import MAX_INPUT

# The writing side (answers, turn codes, the clipboard) is imported by the functions that need it, so that a command that
# only looks (spite show, verify, games) loads none of it.
if TYPE_CHECKING:
    from pbm.chats import Chat
    from pbm.client.answer import Settled
    from pbm.inbox import Standing


def _say_settled(settled: "list[Settled]", aside: bool = False) -> None:
    """Say what became of each invitation a stopped `spite new` left recorded but unwritten (settle_invitations).

    `aside`: on standard error, so that standard output holds only the JSON a script reads.
    """
    console = session.err if aside else session.out
    for one in settled:
        if one.kept:
            # TRANSLATORS: {match} is a match's id (8 hex digits), {file} the invitation's file
            line = _("Match {match}: its invitation was written to {file} just before spite was stopped.").format(
                match=one.match[:8], file=plain(str(one.path))
            )
        else:
            # TRANSLATORS: {match} is a match's id (8 hex digits)
            line = _("Forgot match {match}: spite was stopped before its invitation was written, so nobody can have it.").format(
                match=one.match[:8]
            )
        console.print(line, soft_wrap=True)


def _given(file: Path | None, paste: bool) -> Given:
    """What the player gives, decoded: a save or a turn code, and where an answer goes (beside the file, else this folder)."""
    if file is None and not paste:
        raise UsageError(_("Missing argument {name}.").format(name="'FILE'"))  # the same words as any other command's missing argument
    if file is not None and paste:
        raise UsageError(_("give a FILE (- for standard input) or --paste, not both"))
    if paste:
        from pbm.transport import clipboard

        return decode(clipboard.paste().encode("utf-8"), Path.cwd())
    assert file is not None
    if str(file) == "-":
        return decode(_pasted(), Path.cwd())
    try:
        data = read_head(file, MAX_INPUT + 1)
    except OSError as e:
        # TRANSLATORS: {error} is why, as the system says it (No such file or directory)
        raise SaveFormatError(_("cannot read {file}: {error}").format(file=file, error=os_reason(e))) from e
    return decode(data, file)


def _pasted() -> bytes:
    """Standard input: all of it; at a terminal, the lines pasted until they hold a whole turn code or save (no Ctrl-D)."""
    if not sys.stdin.isatty():
        return sys.stdin.buffer.read(MAX_INPUT + 1)
    session.err.print(_("Paste the turn code (or the save): spite reads it once its last END SPITE line is in (Ctrl-D ends early)."))
    from pbm.transport import code  # read at a terminal: the turn-code reader says when it is whole

    pasted = code.Pasted()
    for line in sys.stdin:  # a terminal keeps reading after this: the prompt for moves comes next
        if pasted.add(line) or pasted.size > MAX_INPUT:
            break
        awaited = pasted.awaited()
        if awaited is not None:  # a part is in, the others are not: say so, or the terminal just waits
            session.err.print(_parts_read(*awaited), soft_wrap=True)
    return pasted.data


def _parts_read(read: list[int], total: int, number: int) -> str:
    """What to say when the parts `read` of a code of `total` parts are in and part `number` is the next to paste."""
    parts = str(read[0])
    if len(read) > 1:
        # TRANSLATORS: a list of part numbers, as "1, 2 and 3": {parts} is the numbers but the last, separated by commas
        parts = _("{parts} and {last}").format(parts=", ".join(map(str, read[:-1])), last=read[-1])
    said = ngettext(
        # TRANSLATORS: at a terminal, while the player pastes a turn code one part (chat message) at a time; {read} is the
        # part or parts pasted (a number, or a list as "1, 2 and 3"), {total} how many the code has, {number} the next one
        "Read part {read} of {total}; paste part {number}.",
        "Read parts {read} of {total}; paste part {number}.",
        len(read),
    )
    return said.format(read=parts, total=total, number=number)


def _say_notes(opened: Opened, keys: bool = True) -> None:
    """What receiving the file found to tell the player, in order; the first contact keys too, unless not `keys`."""
    for note in opened.notes:
        if isinstance(note, NotRecorded):
            # TRANSLATORS: {trouble} says what is wrong with the spite home (your spite home /x is read-only)
            why = _("Note: {trouble}: this file could not be recorded in your journal (it is checked all the same).")
            session.err.print(why.format(trouble=note.trouble), soft_wrap=True)
        elif isinstance(note, NotCarried):
            session.err.print(
                _(
                    "Note: this file does not carry your side of the match (it answers a turn code, or would not have fitted in "
                    "a save); your journal has it, so answer this file on this machine."
                )
            )
        elif isinstance(note, Resumed):
            said = _(
                # TRANSLATORS: {match} is a match's id (8 hex digits)
                "Warning: this machine has no record of your side of match {match}; going on from what the file "
                "carries for you (sealed with your key). Files before it are not checked here: their chain is taken on trust."
            ).format(match=note.match[:8])
            if not note.recorded:
                said += " " + _("It is not recorded here: 'spite play' asks whether it is the newest file of the match.")
            session.err.print(said, markup=False)
    if keys:
        _announce_keys([note for note in opened.notes if isinstance(note, FirstContact)])


def _announce_keys(contacts: list[FirstContact]) -> None:
    """The fingerprint of each key met for the first time, on a line of its own before the name: no name can hide or fake it.

    A key the player went on with under the same name in another match is one line instead; a key that is not the one
    they went on with under that name says so.
    """
    for contact in contacts:
        player = contact.player
        if contact.confirmed:
            said = _(
                # TRANSLATORS: {name} is the opponent, {fingerprint} their key's (XXXX-XXXX-XXXX-XXXX), {match} a match's id (8 hex digits)
                "{name}'s key ({fingerprint}) is the key you confirmed in match {match}: nothing to check again."
            )
            session.out.print(
                said.format(name=plain(player.name), fingerprint=player.fingerprint, match=contact.confirmed[:8]), soft_wrap=True
            )
            continue
        session.out.print(_("First contact: a key new to you in this match."))
        rows = [(fingerprint_label(), Text(player.fingerprint, "bold")), (name_label(), Text(plain(player.name)))]
        for line in labelled(rows, indent="  "):
            session.out.print(line)
        if contact.differs is not None:
            match, known = contact.differs
            said = _(
                # TRANSLATORS: {name} is the opponent's name in this match, {known} the name under which the player confirmed
                # another key, {fingerprint} that key's (XXXX-XXXX-XXXX-XXXX), {match} the match's id (8 hex digits)
                "Warning: this key differs from the one you confirmed for {known} in match {match} ({fingerprint}): "
                "ask {name} whether they have a new key; if not, someone else is using their name."
            )
            values = {"name": plain(player.name), "known": plain(known.name), "match": match[:8], "fingerprint": known.fingerprint}
            session.out.print("  " + said.format(**values), soft_wrap=True)
        session.out.print(
            "  " + _("Compare the fingerprint with them by phone or in person; spite will refuse any other key for them in this match."),
            soft_wrap=True,
        )


def fingerprint_label() -> str:
    """The label before a key's fingerprint, on a line of its own (spite id, a first contact)."""
    # TRANSLATORS: a label before a key's fingerprint (XXXX-XXXX-XXXX-XXXX), on a line of its own; the values of the
    # lines below it are lined up after the longest label
    return pgettext("a label before a value", "fingerprint:")


def name_label() -> str:
    """The label before a player's name, on a line of its own (spite id, a first contact)."""
    # TRANSLATORS: a label before a player's name, on a line of its own; the values of the lines around it are lined up
    # after the longest label
    return pgettext("a label before a value", "name:")


def labelled(rows: Sequence[tuple[str, Text | str]], indent: str = "") -> list[Text]:
    """A line for each label and its value, the values lined up one cell after the widest label (labels are translated)."""
    width = max((cell_len(label) for label, value in rows), default=0) + 1
    lines = []
    for label, value in rows:
        line = Text(indent + label + " " * (width - cell_len(label)))
        line.append_text(value if isinstance(value, Text) else Text(value))
        lines.append(line)
    return lines


def _seating(opened: Opened) -> render.Seating:
    save = opened.save
    first, second = (p.fingerprint if p.key else "" for p in save.players)  # an invitation's open seat has no key yet
    earlier = opened.check.status is Status.EARLIER  # the header says whose turn it was, not whose it is
    fingerprints = (first, second)
    return render.Seating(opened.names, opened.record.scores, save.rules.target_score, save.match, opened.game, fingerprints, earlier)


def _history(opened: Opened) -> list[tuple[int, str]]:
    """The turns of the game on the table, as (seat, moves); none while the file already deals the next game."""
    save = opened.save
    return [(t.by, t.moves) for t in save.history] if opened.game == save.game else []


def _board(opened: Opened, below: int = 0) -> None:
    """The board of `opened`, laid out for the screen as it is now; `below` lines printed under it must fit on it too."""
    view = opened.view
    if view is None:
        return
    _fit_screen()
    # laid out to the screen's width already: rich need not wrap its lines again
    session.out.print(render.board(view, _seating(opened), _history(opened), _look(), below), no_wrap=True, overflow="ignore")


def _fit_screen() -> None:
    """The console takes the terminal's size as it is now, when it writes to one: the window may have changed since spite
    started, and COLUMNS and LINES, which a shell may export and rich then keeps, still say how it was then."""
    if not session.out.is_terminal:
        return
    try:
        size = os.get_terminal_size(session.out.file.fileno())
    except (AttributeError, OSError, ValueError):  # not a file with a descriptor (a test's), or no size to tell
        return
    if size.columns > 0 and size.lines > 0:  # a pseudo-terminal may say 0 x 0: the console's own guess stands then
        session.out.size = (size.columns, size.lines)


def _game_over(opened: Opened) -> list[str]:
    """The lines of the banner that ends a game (and the match), or none while the game on the table goes on."""
    state = opened.state
    if state is None or state.outcome is None:
        return []
    names, me, outcome = opened.names, opened.me, state.outcome
    game, n, other = opened.game, outcome.points, names[1 - me]
    if outcome.winner is None:
        # TRANSLATORS: a line of the banner that ends a game; {game} is its number in the match
        over = _("Game {game} is over: a tie (the stock ran out), nobody scores.").format(game=game)
    elif outcome.reason is Reason.RESIGNED and outcome.winner == me:
        over = ngettext(
            # TRANSLATORS: a line of the banner that ends a game; {game} is its number, {name} the opponent, {n} the points you score
            "Game {game} is over: {name} resigned: you win, {n} point.",
            "Game {game} is over: {name} resigned: you win, {n} points.",
            n,
        ).format(game=game, name=other, n=n)
    elif outcome.reason is Reason.RESIGNED:
        over = ngettext(
            # TRANSLATORS: a line of the banner that ends a game; {game} is its number, {name} the opponent, {n} the points they score
            "Game {game} is over: you resigned: {name} wins, {n} point.",
            "Game {game} is over: you resigned: {name} wins, {n} points.",
            n,
        ).format(game=game, name=other, n=n)
    elif outcome.winner == me:
        # TRANSLATORS: a line of the banner that ends a game; {game} is its number, {n} the points you score
        over = ngettext("Game {game} is over: you win, {n} point.", "Game {game} is over: you win, {n} points.", n).format(game=game, n=n)
    else:
        # TRANSLATORS: a line of the banner that ends a game; {game} is its number, {name} the opponent, {n} the points they score
        over = ngettext("Game {game} is over: {name} wins, {n} point.", "Game {game} is over: {name} wins, {n} points.", n).format(
            game=game, name=other, n=n
        )
    scores = opened.record.scores
    # TRANSLATORS: a line of the banner that ends a game: the match's score, yours first; {target} is the score that wins the match
    score = _("Score: {me} {my_score} – {them} {their_score}, first to {target}.").format(
        me=names[me], my_score=scores[me], them=other, their_score=scores[1 - me], target=opened.save.rules.target_score
    )
    lines = [over, score]
    match = _result_line(opened)
    return [*lines, match] if match else lines


def _say_resigned(opened: Opened) -> None:
    """A file in which the opponent resigned says so first: "Bob resigned game 3: you score 7"."""
    resign, state = opened.resignation, opened.state
    if opened.mine or resign is None or state is None or state.outcome is None:
        return
    name, game, n = opened.names[1 - opened.me], resign["game"], state.outcome.points
    if resign.get("match"):
        said = ngettext(
            # TRANSLATORS: {name} is the opponent, {game} the game's number, {n} the points you score
            "{name} resigned the match (and game {game}): you score {n}.",
            "{name} resigned the match (and game {game}): you score {n}.",
            n,
        )
    else:
        # TRANSLATORS: {name} is the opponent, {game} the game's number, {n} the points you score
        said = ngettext("{name} resigned game {game}: you score {n}.", "{name} resigned game {game}: you score {n}.", n)
    session.out.print(said.format(name=name, game=game, n=n), markup=False)


def _show_game_over(opened: Opened) -> None:
    """The final board of a game and its banner, on one screen with room for what follows them (the board's header stays)."""
    lines = _game_over(opened)
    if lines:
        _fit_screen()
        banner = render.banner(lines, _look(), session.out.width)
        _board(opened, below=banner.plain.count("\n") + 1)
        session.out.print(banner)


def _result_line(opened: Opened) -> str | None:
    """The match's result, the winner's score first, or None while it goes on."""
    record = opened.record
    if not record.is_over:
        return None
    winner = record.winner
    assert winner is not None
    values = {"name": opened.names[winner], "other": opened.names[1 - winner], "score": record.scores[winner]}
    values["other_score"] = record.scores[1 - winner]
    if record.conceded is not None:
        # TRANSLATORS: {name} won the match, {score}–{other_score} is the match's score (the winner's first); {other} resigned
        return _("The match is over: {name} wins {score}–{other_score} ({other} resigned the match).").format(**values)
    # TRANSLATORS: {name} won the match, {score}–{other_score} is the match's score (the winner's first); {other} is the loser
    return _("The match is over: {name} wins {score}–{other_score}.").format(**values)


def _keys_line(opened: Opened, writing: bool) -> str:
    """Why a file is still owed once the match is over: it hands the other player this one's keys of the last game."""
    other, game = opened.names[1 - opened.me], opened.game
    if writing:
        said = _(
            # TRANSLATORS: {name} is the opponent, {game} the number of the match's last game
            "This last file hands {name} your keys of game {game}, so that {name}'s spite can check every shuffle of that game "
            "(the audit): send it all the same."
        )
    else:
        said = _(
            # TRANSLATORS: {name} is the opponent, {game} the number of the match's last game
            "One more file is owed: play this file to hand {name} your keys of game {game}, so that {name}'s spite can check "
            "every shuffle of that game (the audit)."
        )
    return said.format(name=other, game=game)


def _how_to_send(save: SaveFile, path: Path, other: str, copy: bool, chat: str | None = None) -> None:
    """Say both ways to send `save`: its turn code in a chat (on the clipboard with `copy`), or the file. The code is cut
    for the messages of `chat` (--chat, for this run), else of the chat chosen with `spite chat`, else of Discord."""
    from pbm.transport import clipboard, code  # only a command that wrote a file says how to send it

    mine, chosen = _chat(chat)
    parts = code.encode(save, mine.chars)
    n = len(parts)
    file = path.name if chat is None else f"{path.name} --chat {mine.name}"  # spite code cuts the same parts
    if n > code.MAX_PARTS:
        said = ngettext(
            # TRANSLATORS: {name} is the opponent (or "your opponent"), {n} how many chat messages the turn code would take
            "Send the file to {name} (its turn code would take {n} chat message).",
            "Send the file to {name} (its turn code would take {n} chat messages).",
            n,
        ).format(name=other, n=n)
        if copy:
            said += " " + _("Nothing was copied.")
        if not chosen:
            said += " " + _("Chats whose messages hold more take it as a code: say which one you use with spite chat NAME.")
        session.out.print(said, soft_wrap=True, markup=False)
        return
    if copy:
        try:
            clipboard.copy(parts[0])
        except SpiteError as e:
            # TRANSLATORS: {error} says why (there is no clipboard here: ...)
            said = _("could not copy the turn code: {error}").format(error=error_text(e))
            session.err.print(f"spite: {said}", markup=False, soft_wrap=True)
        else:
            if n > 1:
                copied = _(
                    # TRANSLATORS: {n} is how many parts (chat messages) the turn code has, {file} the save file's name, {name}
                    # the opponent (or "your opponent")
                    "Its turn code is on your clipboard (part 1 of {n}; spite code {file} --part 2 --copy for the next): "
                    "paste it into your chat with {name}."
                )
            else:
                # TRANSLATORS: {name} is the opponent (or "your opponent")
                copied = _("Its turn code is on your clipboard: paste it into your chat with {name}.")
            session.out.print(copied.format(n=n, file=file, name=other), soft_wrap=True, markup=False)
            return
    said = ngettext(
        # TRANSLATORS: {name} is the opponent (or "your opponent"), {n} how many chat messages the turn code takes, {file} the
        # save file's name
        "Send it to {name}: paste its turn code into your chat (one message; spite code {file} prints it), or attach the file.",
        "Send it to {name}: paste its turn code into your chat ({n} messages; spite code {file} prints it), or attach the file.",
        n,
    )
    session.out.print(said.format(name=other, n=n, file=file), soft_wrap=True, markup=False)


def _chat(name: str | None) -> tuple["Chat", bool]:
    """The chat whose messages a turn code is cut for, and whether the player named one: `name` (--chat), else the one
    chosen with `spite chat NAME`, else Discord's 2,000 characters. A chat.toml that cannot be read is said, not fatal:
    the file is written by then, and only how its code is cut depends on it."""
    from pbm import chats  # only a command that writes a code pays for the table

    if name is not None:
        return chats.find(name), True
    try:
        chosen = chats.chosen(spite_home(create=False))
    except chats.ChatError as e:
        # TRANSLATORS: {trouble} says what is wrong with the file that keeps the chosen chat; {chars} is 2,000
        said = _("Note: {trouble}. Until then, turn codes come in parts of {chars} characters.")
        session.err.print(said.format(trouble=error_text(e), chars=f"{chats.DEFAULT.chars:,}"), soft_wrap=True, markup=False)
        return chats.DEFAULT, False
    return (chosen, True) if chosen is not None else (chats.DEFAULT, False)


def _ago(stamp: str) -> str:
    """How long ago the ISO time `stamp` was, in a few characters."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    seconds = max(0, int((datetime.now(UTC) - then).total_seconds()))
    if seconds >= 86400:
        days = seconds // 86400
        # TRANSLATORS: how long ago, in a column of spite games and in "(last mailed 3 d ago)": keep it short (d: days)
        return npgettext("how long ago", "{n} d ago", "{n} d ago", days).format(n=days)
    if seconds >= 3600:
        hours = seconds // 3600
        # TRANSLATORS: how long ago, in a column of spite games and in "(last mailed 3 h ago)": keep it short (h: hours)
        return npgettext("how long ago", "{n} h ago", "{n} h ago", hours).format(n=hours)
    if seconds >= 60:
        minutes = seconds // 60
        # TRANSLATORS: how long ago, in a column of spite games and in "(last mailed 5 min ago)": keep it short (min: minutes)
        return npgettext("how long ago", "{n} min ago", "{n} min ago", minutes).format(n=minutes)
    # TRANSLATORS: how long ago, in a column of spite games and in "(last mailed just now)": keep it short
    return pgettext("how long ago", "just now")


def print_standings(rows: "list[Standing]", playing: bool = False, hidden: int = 0) -> None:
    """The one view of every match: opponent, score, whose move, since when, the opponent's address, the file.

    `playing`: inbox --play opens the file that waits next, so no line says how to. `hidden`: finished matches left out
    (spite games without --all), said in the last line.
    """
    from pbm.inbox import Next

    if not rows:
        if hidden:
            session.out.print(_("No match in play."))
            session.out.print(_hidden_line(hidden))
        else:
            session.out.print(_("No matches yet. Start one with 'spite new' or 'spite practice'."))
        return
    table = _standings_table(rows, wide=True)
    wide = Measurement.get(session.out, session.out.options.update_width(10_000), table).maximum <= session.out.width
    if not wide:  # the fingerprint, address and file go on a line of their own below the table: no word is cut
        table = _standings_table(rows, wide=False)
    session.out.print(table)
    if not wide:
        for r in rows:
            # TRANSLATORS: under the table of spite games, before a key's fingerprint (XXXX-XXXX-XXXX-XXXX)
            key = pgettext("spite games: a label before a key's fingerprint", "key {fingerprint}").format(fingerprint=r.fingerprint)
            more = [key if r.fingerprint else "", plain(r.address), plain(Path(r.file).name) if r.file else ""]
            session.out.print(f"{r.match[:8]}  {'  '.join(m for m in more if m)}", markup=False)
    waiting = [r for r in rows if r.next is Next.YOU and not is_practice(r)]
    if waiting and not playing:
        said = _("Your move: spite play {file}   (or spite inbox --play)").format(file=plain(waiting[0].file))
        session.out.print(said, soft_wrap=True, markup=False)
    for r in rows:
        if r.next is not Next.OVER and is_practice(r):
            # TRANSLATORS: {match} is a match's id (8 hex digits)
            said = _("Practice match {match} goes on with: spite practice --resume {match}").format(match=r.match[:8])
            session.out.print(said, markup=False)
    for r in rows:
        if r.resigned:
            # TRANSLATORS: {match} is a match's id (8 hex digits); {resigned} what was resigned in it, separated by "; " (you
            # resigned game 2; Bob resigned game 3)
            said = _("Match {match}: {resigned}.").format(match=r.match[:8], resigned="; ".join(r.resigned))
            session.out.print(said, markup=False)
    for r in rows:
        if r.joined > 1:
            # TRANSLATORS: {match} is a match's id (8 hex digits), {n} the number of the first file of it this machine saw
            said = _("Match {match} was taken up on this machine at file {n}: the files before it were not checked here.")
            session.out.print(said.format(match=r.match[:8], n=r.joined), markup=False)
    for r in rows:
        if r.unsent:
            # TRANSLATORS: {file} is a save file's name, {match} a match's id (8 hex digits), {address} a mail address
            said = _("Not mailed: your file {file} of match {match} never went to {address}: spite resend {match}")
            # wrapped at spaces, the file named as in the table: no word cut at 80 columns
            session.out.print(said.format(file=plain(Path(r.file).name), match=r.match[:8], address=plain(r.address)), markup=False)
    for r in rows:
        if r.next is Next.THEM and r.address and not r.unsent:
            # TRANSLATORS: {name} is the opponent, {match} a match's id (8 hex digits)
            said = _("Waiting for {name} in {match}: if your file was lost, spite resend {match}")
            session.out.print(said.format(name=plain(r.opponent), match=r.match[:8]), markup=False)
    if hidden:
        session.out.print(_hidden_line(hidden))


def _hidden_line(hidden: int) -> str:
    """The line that says how many finished matches `spite games` left out, and how to list them."""
    return ngettext(
        "{n} finished match is not listed: spite games --all lists it, spite stats counts it.",
        "{n} finished matches are not listed: spite games --all lists them, spite stats counts them.",
        hidden,
    ).format(n=hidden)


def is_practice(r: "Standing") -> bool:
    """Whether `r` is a match against the computer: spite practice writes all its files in one folder of the spite home."""
    return practice_file(r.file)


def practice_file(file: str) -> bool:
    """Whether the save at `file` is one of a practice match: spite practice writes them all in one folder of the spite home."""
    return bool(file) and Path(file).resolve().parent == (spite_home() / "practice" / "saves").resolve()


def _standings_table(rows: "list[Standing]", wide: bool) -> Table:
    """The table of `print_standings`: match, opponent, score, next, since, and when `wide` the fingerprint, address and file."""
    from pbm.inbox import Next

    table = Table(
        # TRANSLATORS: the heading of the column of spite games (and inbox) that gives the match's id: short, a word if you can
        Column(pgettext("spite games: a column's heading", "match"), no_wrap=True),
        # TRANSLATORS: the heading of the column of spite games (and inbox) that names the opponent: short, a word if you can
        Column(pgettext("spite games: a column's heading", "opponent"), overflow="fold"),
        # TRANSLATORS: the heading of the column of spite games (and inbox) that gives the match's score: a word if you can
        pgettext("spite games: a column's heading", "score"),
        # TRANSLATORS: the heading of the column of spite games (and inbox) that says who writes the next file of a match
        pgettext("spite games: a column's heading", "next"),
        # TRANSLATORS: the heading of the column of spite games (and inbox) that says how long ago the latest file came or went
        pgettext("spite games: a column's heading", "since"),
    )
    if wide:
        headings = (
            # TRANSLATORS: the heading of the column of spite games (and inbox) that gives the opponent's key fingerprint
            pgettext("spite games: a column's heading", "fingerprint"),
            # TRANSLATORS: the heading of the column of spite games (and inbox) that gives the opponent's mail address
            pgettext("spite games: a column's heading", "address"),
            # TRANSLATORS: the heading of the column of spite games (and inbox) that names the file to play or the last file
            pgettext("spite games: a column's heading", "file"),
        )
        for column in headings:
            table.add_column(column, no_wrap=True)
    # TRANSLATORS: in the column "next" of spite games: a file that came by mail waits for you to play it
    new = pgettext("spite games: who writes the next file", "play it (new)")
    # TRANSLATORS: in the column "next" of spite games: you write the next file of the match
    you = pgettext("spite games: who writes the next file", "you")
    # TRANSLATORS: in the column "next" of spite games: the match is over, nobody writes a file
    over = pgettext("spite games: who writes the next file", "over")
    for r in rows:
        them = plain(r.opponent)
        nxt = new if r.new else them if r.next is Next.THEM else you if r.next is Next.YOU else over
        score = f"{r.score[0]}–{r.score[1]}" if r.score else ""
        cells: list[Text | str] = [Text(them), score, Text(nxt), _ago(r.since)]
        if wide:  # the file's name: the whole path is in the line below the table, and in --json
            cells += [r.fingerprint, Text(plain(r.address)), Text(plain(Path(r.file).name) if r.file else "")]
        table.add_row(r.match[:8], *cells)
    return table


def _mail_named(data: bytes) -> str:
    """A mail as a refusal names it, from its headers: the mail from X, 'Subject' (each shown safely)."""
    from email.parser import BytesHeaderParser
    from email.policy import default

    headers = BytesHeaderParser(policy=default).parsebytes(data)
    # TRANSLATORS: in place of a mail's sender or subject that is missing or empty
    nobody = pgettext("a mail's empty sender or subject", "nobody named")
    sender, subject = (plain(str(headers.get(name, "")).strip()) or nobody for name in ("From", "Subject"))
    # TRANSLATORS: a mail, as a refusal names it ("a turn of match 3342e18f (save 4) in the mail from X, 'Subject'"); {sender}
    # is its From, {subject} its Subject
    return _("the mail from {sender}, '{subject}'").format(sender=sender, subject=subject)


def _standing_json(r: "Standing") -> dict[str, Any]:
    """A match as `spite games --json` and `inbox --json` list it (docs/show-json.md)."""
    return {
        "match": r.match,
        "opponent": r.opponent,
        "score": list(r.score) if r.score else None,
        "next": r.next.value,
        "since": r.since,
        "file": r.file,
        "address": r.address or None,
        "fingerprint": r.fingerprint or None,
        "new": r.new,
        "joined": r.joined,
        "unsent": r.unsent,
        "resigned": list(r.resigned),
    }


def one_match(journal: Journal, match: str) -> MatchInfo:
    """The one match of `journal` whose id begins with `match` (as spite games shows it); NoRecordError or SpiteError else."""
    wanted = match.strip().lower()
    found = [m for m in journal.matches() if m.match.startswith(wanted)] if wanted else []
    if not found:
        # TRANSLATORS: {match} is what the player typed for the match's id
        raise NoRecordError(_("no match {match} in your journal (spite games lists them)").format(match=plain(cut(match))))
    if len(found) > 1:
        said = ngettext(
            # TRANSLATORS: {match} is what the player typed for the match's id; {n} is 2 or more
            "{n} match begins with {match}: give more of the id (spite games)",
            "{n} matches begin with {match}: give more of the id (spite games)",
            len(found),
        )
        raise SpiteError(said.format(n=len(found), match=plain(cut(match))))
    return found[0]
