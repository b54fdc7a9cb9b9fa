"""What several groups of commands read and show: what the player gives, the board, a received file's notes, the standings."""

import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.measure import Measurement
from rich.table import Column, Table
from rich.text import Text

from engine.state import Reason
from pbm import render
from pbm.cli.app import UsageError, _look, session
from pbm.client.answer import Settled
from pbm.client.receive import FirstContact, Given, NotCarried, NotRecorded, Opened, Resumed, decode
from pbm.errors import SaveFormatError, SpiteError
from pbm.home import read_head, spite_home
from pbm.saves import Player, SaveFile
from pbm.shown import plain
from pbm.transport import clipboard, code

if TYPE_CHECKING:
    from pbm.inbox import Standing


def _say_settled(settled: list[Settled], aside: bool = False) -> None:
    """Say what became of each invitation a stopped `spite new` left recorded but unwritten (settle_invitations).

    `aside`: on standard error, so that standard output holds only the JSON a script reads.
    """
    console = session.err if aside else session.out
    for one in settled:
        if one.kept:
            line = f"Match {one.match[:8]}: its invitation was written to {plain(str(one.path))} just before spite was stopped."
        else:
            line = f"Forgot match {one.match[:8]}: spite was stopped before its invitation was written, so nobody can have it."
        console.print(line, soft_wrap=True)


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
    session.err.print("Paste the turn code (or the save): spite reads it once its last END SPITE line is in (Ctrl-D ends early).")
    pasted = code.Pasted()
    for line in sys.stdin:  # a terminal keeps reading after this: the prompt for moves comes next
        if pasted.add(line) or pasted.size > code.MAX_INPUT:
            break
    return pasted.data


def _say_notes(opened: Opened, keys: bool = True) -> None:
    """What receiving the file found to tell the player, in order; the first contact keys too, unless not `keys`."""
    for note in opened.notes:
        if isinstance(note, NotRecorded):
            why = f"Note: {note.trouble}: this file could not be recorded in your journal (it is checked all the same)."
            session.err.print(why, soft_wrap=True)
        elif isinstance(note, NotCarried):
            session.err.print(
                "Note: this file does not carry your side of the match (it answers a turn code, or would not have fitted in "
                "a save); your journal has it, so answer this file on this machine."
            )
        elif isinstance(note, Resumed):
            more = "" if note.recorded else " It is not recorded here: 'spite play' asks whether it is the newest file of the match."
            session.err.print(
                f"Warning: this machine has no record of your side of match {note.match[:8]}; going on from what the file "
                f"carries for you (sealed with your key). Files before it are not checked here: their chain is taken on trust.{more}",
                markup=False,
            )
    if keys:
        _announce_keys([note.player for note in opened.notes if isinstance(note, FirstContact)])


def _announce_keys(players: list[Player]) -> None:
    """The fingerprint of each key met for the first time, on a line of its own before the name: no name can hide or fake it."""
    for player in players:
        session.out.print("First contact: a key new to you in this match.")
        session.out.print(Text.assemble("  fingerprint: ", (player.fingerprint, "bold")))
        session.out.print(f"  name:        {plain(player.name)}")
        session.out.print(
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
    session.out.print(render.board(view, _seating(opened), _history(opened), _look()))


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
        if outcome.reason is Reason.RESIGNED:
            result = f"{'you' if outcome.winner != me else names[1 - outcome.winner]} resigned: {result}"
    scores = opened.record.scores
    lines = [
        f"Game {opened.game} is over: {result}.",
        f"Score: {names[me]} {scores[me]} – {names[1 - me]} {scores[1 - me]}, first to {opened.save.rules.target_score}.",
    ]
    match = _result_line(opened)
    return [*lines, match] if match else lines


def _say_resigned(opened: Opened) -> None:
    """A file in which the opponent resigned says so first: "Bob resigned game 3: you score 7"."""
    resign, state = opened.resignation, opened.state
    if opened.mine or resign is None or state is None or state.outcome is None:
        return
    what = f"the match (and game {resign['game']})" if resign.get("match") else f"game {resign['game']}"
    session.out.print(f"{opened.names[1 - opened.me]} resigned {what}: you score {state.outcome.points}.", markup=False)


def _show_game_over(opened: Opened) -> None:
    """The final board of a game and its banner."""
    lines = _game_over(opened)
    if lines:
        _board(opened)
        session.out.print(render.banner(lines, _look(), session.out.width))


def _result_line(opened: Opened) -> str | None:
    """The match's result, the winner's score first, or None while it goes on."""
    record = opened.record
    if not record.is_over:
        return None
    winner = record.winner
    assert winner is not None
    how = f" ({opened.names[1 - winner]} resigned the match)" if record.conceded is not None else ""
    return f"The match is over: {opened.names[winner]} wins {record.scores[winner]}–{record.scores[1 - winner]}{how}."


def _keys_line(opened: Opened, writing: bool) -> str:
    """Why a file is still owed once the match is over: it hands the other player this one's keys of the last game."""
    other, game = opened.names[1 - opened.me], opened.game
    why = f"your keys of game {game}, so that {other}'s spite can check every shuffle of that game (the audit)"
    if writing:
        return f"This last file hands {other} {why}: send it all the same."
    return f"One more file is owed: play this file to hand {other} {why}."


def _how_to_send(save: SaveFile, path: Path, other: str, copy: bool) -> None:
    """Say both ways to send `save`: its turn code in a chat (on the clipboard with `copy`), or the file."""
    parts = code.encode(save)
    if len(parts) > code.MAX_PARTS:
        nothing = " Nothing was copied." if copy else ""
        too_long = f"its turn code would take {len(parts)} chat messages"
        session.out.print(f"Send the file to {other} ({too_long}).{nothing}", soft_wrap=True, markup=False)
        return
    messages = "one message" if len(parts) == 1 else f"{len(parts)} messages"
    if copy:
        try:
            clipboard.copy(parts[0])
        except SpiteError as e:
            session.err.print(f"spite: could not copy the turn code: {e}", markup=False, soft_wrap=True)
        else:
            more = f" (part 1 of {len(parts)}; spite code {path.name} --part 2 --copy for the next)" if len(parts) > 1 else ""
            copied = f"Its turn code is on your clipboard{more}: paste it into your chat with {other}."
            session.out.print(copied, soft_wrap=True, markup=False)
            return
    session.out.print(
        f"Send it to {other}: paste its turn code into your chat ({messages}; spite code {path.name} prints it), or attach the file.",
        soft_wrap=True,
        markup=False,
    )


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


def print_standings(rows: "list[Standing]", playing: bool = False, hidden: int = 0) -> None:
    """The one view of every match: opponent, score, whose move, since when, the opponent's address, the file.

    `playing`: inbox --play opens the file that waits next, so no line says how to. `hidden`: finished matches left out
    (spite games without --all), said in the last line.
    """
    from pbm.inbox import Next

    if not rows:
        if hidden:
            session.out.print("No match in play.")
            session.out.print(_hidden_line(hidden))
        else:
            session.out.print("No matches yet. Start one with 'spite new' or 'spite practice'.")
        return
    table = _standings_table(rows, wide=True)
    wide = Measurement.get(session.out, session.out.options.update_width(10_000), table).maximum <= session.out.width
    if not wide:  # the fingerprint, address and file go on a line of their own below the table: no word is cut
        table = _standings_table(rows, wide=False)
    session.out.print(table)
    if not wide:
        for r in rows:
            more = [f"key {r.fingerprint}" if r.fingerprint else "", plain(r.address), plain(Path(r.file).name) if r.file else ""]
            session.out.print(f"{r.match[:8]}  {'  '.join(m for m in more if m)}", markup=False)
    waiting = [r for r in rows if r.next is Next.YOU and not is_practice(r)]
    if waiting and not playing:
        session.out.print(f"Your move: spite play {plain(waiting[0].file)}   (or spite inbox --play)", soft_wrap=True, markup=False)
    for r in rows:
        if r.next is not Next.OVER and is_practice(r):
            session.out.print(f"Practice match {r.match[:8]} goes on with: spite practice --resume {r.match[:8]}", markup=False)
    for r in rows:
        if r.resigned:
            session.out.print(f"Match {r.match[:8]}: {'; '.join(r.resigned)}.", markup=False)
    for r in rows:
        if r.joined > 1:
            session.out.print(
                f"Match {r.match[:8]} was taken up on this machine at file {r.joined}: the files before it were not checked here.",
                markup=False,
            )
    for r in rows:
        if r.unsent:
            session.out.print(  # wrapped at spaces, the file named as in the table: no word cut at 80 columns
                f"Not mailed: your file {plain(Path(r.file).name)} of match {r.match[:8]} never went to {plain(r.address)}: "
                f"spite resend {r.match[:8]}",
                markup=False,
            )
    for r in rows:
        if r.next is Next.THEM and r.address and not r.unsent:
            session.out.print(
                f"Waiting for {plain(r.opponent)} in {r.match[:8]}: if your file was lost, spite resend {r.match[:8]}", markup=False
            )
    if hidden:
        session.out.print(_hidden_line(hidden))


def _hidden_line(hidden: int) -> str:
    """The line that says how many finished matches `spite games` left out, and how to list them."""
    if hidden == 1:
        return "1 finished match is not listed: spite games --all lists it, spite stats counts it."
    return f"{hidden} finished matches are not listed: spite games --all lists them, spite stats counts them."


def is_practice(r: "Standing") -> bool:
    """Whether `r` is a match against the computer: spite practice writes all its files in one folder of the spite home."""
    return practice_file(r.file)


def practice_file(file: str) -> bool:
    """Whether the save at `file` is one of a practice match: spite practice writes them all in one folder of the spite home."""
    return bool(file) and Path(file).resolve().parent == (spite_home() / "practice" / "saves").resolve()


def _standings_table(rows: "list[Standing]", wide: bool) -> Table:
    """The table of `print_standings`: match, opponent, score, next, since, and when `wide` the fingerprint, address and file."""
    from pbm.inbox import Next

    table = Table(Column("match", no_wrap=True), Column("opponent", overflow="fold"), "score", "next", "since")
    if wide:
        for column in ("fingerprint", "address", "file"):
            table.add_column(column, no_wrap=True)
    for r in rows:
        them = plain(r.opponent)
        nxt = "play it (new)" if r.new else them if r.next is Next.THEM else r.next.value
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
    sender, subject = (plain(str(headers.get(name, "")).strip()) or "nobody named" for name in ("From", "Subject"))
    return f"the mail from {sender}, '{subject}'"


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
