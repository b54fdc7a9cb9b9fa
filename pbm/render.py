"""The board as rich renderables, drawn from a PlayerView (so nothing hidden can be drawn).

Cards are boxes with rank and suit; a side stack fans out so that every card in it shows (one too long for its row:
the cards nearest its top, after how many more lie under them). Colour only
repeats what the text says (suit symbols, words): the board reads the same with NO_COLOR, and
``Look(ascii=True)`` draws with ASCII alone (suit letters) for terminals that draw ♠♥♦♣ two cells wide.
The board lays itself out for the width and height it is given: one screen at 80x24, bigger cards
and the game's log beside it when there is room. Nothing here prints; the CLI hands these to its Console.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, OverflowMethod, RenderResult
from rich.text import Text

from engine._frozen import frozen_value
from engine.cards import KING, RANK_TEXT, SUIT_SYMBOLS, Card
from engine.state import PlayerView, Reason, Stack
from pbm.i18n import _, ngettext, npgettext, pgettext

RED_SUITS = frozenset({"h", "d"})
RED = "red"
CAPTION = 11  # the column of captions left of the cards (names and captions are cut to CAPTION - 1 cells)
WIDE_CAPTION = 17  # the widest the caption column grows to when a translated caption needs it and every row has room
STOCK_GAP = 3  # between the hand and the stock, when the stock has no room on the center row
LOG_NAME = 8  # cells of a name in the game's log
BIG_WIDTH, BIG_HEIGHT = 100, 36  # from this size on, cards are drawn large
LOG_MIN = 26  # the game's log goes beside the board when this many columns are left over
PROMPT_ROOM = 4  # lines of the screen left for the prompt and a message under the board


@frozen_value
class Look:
    """How cards are drawn: box-drawing and suit symbols, or ASCII boxes and suit letters (``--ascii``)."""

    ascii: bool = False

    def suit(self, suit: str) -> str:
        return suit if self.ascii else SUIT_SYMBOLS[suit]

    @property
    def dot(self) -> str:
        """What separates the parts of a line."""
        return " | " if self.ascii else " · "

    @property
    def dash(self) -> str:
        return "-" if self.ascii else "–"

    @property
    def cut(self) -> OverflowMethod:
        """How text too long for its place ends: with an ellipsis, or cut short in ASCII."""
        return "crop" if self.ascii else "ellipsis"

    @property
    def glyphs(self) -> str:
        """Corners (top left, top right, bottom left, bottom right), line, side, joints (top, bottom), card back."""
        return "++++-|++#" if self.ascii else "╭╮╰╯─│┬┴░"


@frozen_value
class Seating:
    """What the board says around the cards: the players by seat, the score, the target, the match, the game, the keys."""

    names: tuple[str, str]
    score: tuple[int, int]
    target: int
    match: str = ""
    game: int = 1
    fingerprints: tuple[str, str] = ("", "")  # of each seat's key ("" while unknown): shown apart from the names
    earlier: bool = False  # an earlier file of the match, shown as it was: whose turn it was then, never "your turn"


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def filled(template: str, **values: Text | str | int) -> Text:
    """A translated `template` as Text, each ``{name}`` in it filled with its value: a Text keeps its style, anything
    else is plain text (a name is never read as markup)."""
    out = Text()
    at = 0
    for found in _PLACEHOLDER.finditer(template):
        out.append(template[at : found.start()])
        value = values.get(found.group(1), found.group(0))
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(str(value))
        at = found.end()
    out.append(template[at:])
    return out


def cut_to(text: str, most: int, look: Look = Look()) -> str:
    """`text` cut to at most `most` screen cells: with an ellipsis (cropped in ASCII), never after a space. A wide
    character counts two cells, a combining mark none, and it stays with its letter."""
    if cell_len(text) <= most:
        return text
    ellipsis = look.cut == "ellipsis"
    line = Text(text)
    line.truncate(max(0, most - ellipsis), overflow="crop")
    return line.plain.rstrip() + ("…" if ellipsis else "")


def padded_to(text: str, width: int) -> str:
    """`text` padded with spaces to `width` screen cells."""
    return text + " " * max(0, width - cell_len(text))


Phrase = Callable[[Sequence[str]], Text]  # a phrase made with the players' names (as cut to fit)


def fitted(phrase: Phrase, names: Sequence[str], width: int, look: Look = Look()) -> Text:
    """The text `phrase` makes with `names`, the longest names cut (with an ellipsis) as far as it takes to fit `width`
    cells; a phrase that cannot fit even so comes with names of one cell."""
    made = phrase(names)
    longest = max((cell_len(name) for name in names), default=0)
    while made.cell_len > width and longest > 1:
        longest = max(1, min(longest - 1, longest - (made.cell_len - width) // max(1, len(names))))
        made = phrase([name if cell_len(name) <= longest else cut_to(name, longest, look) for name in names])
    return made


def at_spaces(line: Text, width: int, look: Look = Look()) -> list[Text]:
    """`line` cut at spaces into lines of at most `width` cells; a word wider than `width` is cut short (this is for the
    board's phrases, never for a command to copy: the CLI prints those whole)."""
    pieces: list[Text] = []
    rest = line
    while rest.cell_len > width:
        plain = rest.plain
        end = 0  # where this piece ends: at the last space that leaves it narrow enough
        for found in re.finditer(r" +", plain):
            if cell_len(plain[: found.start()]) > width:
                break
            if plain[: found.start()].strip():
                end = found.start()
        if not end:  # its first word alone is too wide
            first = re.match(r" *\S+", plain)
            end = first.end() if first else len(plain)
        piece, rest = rest[:end], rest[end:]
        piece.truncate(width, overflow=look.cut)
        pieces.append(piece)
        rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")) :]
    if rest.plain or not pieces:
        pieces.append(rest)
    return pieces


def card_label(card: Card, look: Look = Look(), rank_only: bool = False) -> str:
    """A card as ``7♥`` (``7h`` in ASCII), or its rank alone when its suit is unknown or not asked for."""
    rank = RANK_TEXT[card.rank]
    return rank if rank_only or card.suit is None else rank + look.suit(card.suit)


def card_style(card: Card, bold: bool = False) -> str:
    """Red for hearts and diamonds (the symbol says the suit too), bold for a card that may be played."""
    return " ".join(s for s in ("bold" if bold else "", RED if card.suit in RED_SUITS else "") if s)


def card_text(card: Card | None, look: Look = Look(), bold: bool = False) -> Text:
    """A card as styled text, ``empty`` for None."""
    if card is None:
        # TRANSLATORS: a stack with no card, drawn where its card would be: at most 5 cells
        return Text(pgettext("board: a stack with no card", "empty"), style="dim")
    return Text(card_label(card, look), style=card_style(card, bold))


def hand_order(hand: Iterable[Card]) -> list[Card]:
    """The hand as the board shows it: by rank, then suit."""
    return sorted(hand, key=lambda c: (c.rank, c.suit or "", c.copy))


def needs(stack: Stack) -> str | None:
    """The rank a center stack needs next (None once it holds twelve cards)."""
    return RANK_TEXT[len(stack) + 1] if len(stack) < 12 else None


# --- blocks: lines of equal width, put side by side ---


@frozen_value
class Block:
    """Lines of text drawn as one piece (a card, a stack, a caption)."""

    lines: tuple[Text, ...]

    @property
    def width(self) -> int:
        return max((line.cell_len for line in self.lines), default=0)

    @property
    def height(self) -> int:
        return len(self.lines)


def _padded(line: Text, width: int) -> Text:
    line = line.copy()
    line.pad_right(max(0, width - line.cell_len))
    return line


def beside(blocks: Sequence[Block], gap: int = 1) -> Block:
    """The blocks left to right, tops aligned."""
    height = max((b.height for b in blocks), default=0)
    widths = [block.width for block in blocks]  # once: each is the widest of its lines
    lines = []
    for row in range(height):
        line = Text()
        for i, block in enumerate(blocks):
            if i:
                line.append(" " * gap)
            line.append_text(_padded(block.lines[row] if row < block.height else Text(), widths[i]))
        lines.append(line)
    return Block(tuple(lines))


def flow(blocks: Sequence[Block], width: int, gap: int = 1) -> list[Block]:
    """The blocks in rows of at most `width` columns, as many to a row as fit (at least one)."""
    rows: list[list[Block]] = []
    used = 0
    for block in blocks:
        if rows and used + gap + block.width <= width:
            rows[-1].append(block)
            used += gap + block.width
        else:
            rows.append([block])
            used = block.width
    return [beside(row, gap) for row in rows]


def captioned(
    caption: Sequence[Text], blocks: Sequence[Block], width: int, gap: int = 1, look: Look = Look(), column: int = CAPTION
) -> list[Text]:
    """`blocks` flowed right of a caption column of `column` cells (wrapping under it), as lines; each caption is cut to
    `column` - 1 cells."""
    lines: list[Text] = []
    for i, row in enumerate(flow(blocks, max(1, width - column), gap)):
        for r, line in enumerate(row.lines):
            label = caption[r] if i == 0 and r < len(caption) else Text()
            label = label.copy()
            label.truncate(column - 1, overflow=look.cut)
            lines.append(Text.assemble(_padded(label, column), line))
    return lines


# --- cards and stacks ---


FULL, RANKS = 0, 1  # how covered cards of a side stack are drawn: rank and suit, or rank alone


def covered_label(card: Card, look: Look, detail: int) -> str:
    """A covered card of a fanned stack: ``10♠``, or ``10`` with less room."""
    return card_label(card, look, rank_only=detail == RANKS)


def stack_box(cards: Sequence[Card], look: Look, label: str = "", big: bool = False, detail: int = FULL, most: int | None = None) -> Block:
    """A stack as a box: its cards fanned left to right, the top one (rightmost) in full; an empty stack as an empty box.

    `label` (a stack's name in move notation: ``p``, ``s1``, ``c2``) is written in the top edge. With less room,
    covered cards show their rank alone (`detail`): suits never matter in play. With `most`, only the `most` covered cards
    nearest the top show, after a column that counts the others (``+8``), when that saves room (two cards or more).
    """
    tl, tr, bl, br, h, v, tj, bj, _back = tuple(look.glyphs)  # nine characters, one glyph each
    face = 5 if big else 3
    rows = 3 if big else 1
    cells: list[list[Text]] = []  # one column of text per card (and one that counts the cards left out), each row of it
    covered = cards[:-1]
    under = len(covered) - most if most is not None and len(covered) - most >= 2 else 0  # one left out saves no room
    if under:
        cells.append([Text(f"+{under}", "dim")] + [Text()] * (rows - 1))
    cells += [[Text(covered_label(card, look, detail), card_style(card))] + [Text()] * (rows - 1) for card in covered[under:]]
    if cards:
        top = cards[-1]
        rank, style = RANK_TEXT[top.rank], card_style(top, bold=True)
        if big:
            suit = look.suit(top.suit) if top.suit else ""
            cells.append([Text(rank, style), Text(suit.center(face), style), Text(rank.rjust(face), style)])
        else:
            cells.append([Text(card_label(top, look), style)])
    else:
        cells.append([Text()] * rows)
    widths = [column[0].cell_len for column in cells[:-1]] + [face]

    def edge(left: str, joint: str, right: str) -> str:
        return left + joint.join(h * w for w in widths) + right

    top_edge = edge(tl, tj, tr)
    if label:
        top_edge = top_edge[0] + label + top_edge[1 + len(label) :]
    border = "dim" if not cards else ""
    lines = [Text(top_edge, border)]
    for row in range(rows):
        line = Text(v, border)
        for column, w in zip(cells, widths, strict=True):
            line.append_text(_padded(column[row], w))
            line.append(v, border)
        lines.append(line)
    lines.append(Text(edge(bl, bj, br), border))
    return Block(tuple(lines))


def notes(block: Block, texts: Sequence[Text | str]) -> Block:
    """A block with short notes to its right, one per line from the top."""
    note = Block(tuple(Text(t) if isinstance(t, str) else t for t in texts))
    return beside([block, note])


def center_block(index: int, stack: Stack, look: Look, big: bool) -> Block:
    """A center stack: its top card (a King says what it counts as), the rank it needs next and how many until complete."""
    box = stack_box(stack[-1:], look, f"c{index + 1}", big)
    need = needs(stack)
    king: Text | str = ""
    if stack and stack[-1].rank == KING:
        # TRANSLATORS: beside a center stack whose top card is a King: the rank it counts as (A, 2-10, J, Q). At most 8
        # cells, as each note beside a center stack: the three stacks and the stock share one line of an 80-column screen
        king = Text(pgettext("board: the rank a King counts as", "as {rank}").format(rank=RANK_TEXT[len(stack)]), "bold")
    texts: list[Text | str]
    if need:
        left = 12 - len(stack)
        texts = [
            king,
            # TRANSLATORS: beside a center stack: the rank (A, 2-10, J, Q) it takes next. At most 8 cells
            pgettext("board: the rank a center stack takes next", "needs {rank}").format(rank=need),
            # TRANSLATORS: beside a center stack: how many cards until it is complete (twelve cards). At most 8 cells
            npgettext("board: cards until a center stack is complete", "{n} to go", "{n} to go", left).format(n=left),
        ]
    else:
        # TRANSLATORS: beside a center stack that holds twelve cards (Ace to Queen): at most 8 cells
        texts = [king, pgettext("board: a center stack that holds twelve cards", "complete")]
    return notes(box, ["", *texts] if big else texts)


def stock_block(view: PlayerView, look: Look, big: bool) -> Block:
    """The stock as a card back with its count, and the completed stacks being shuffled into it."""
    box = stack_box([], look, big=big)
    back = Text(look.glyphs[-1] * (5 if big else 3), "dim")
    side = Text(look.glyphs[5], "dim")
    lines = [box.lines[0], *(Text.assemble(side, back, side) for _row in box.lines[1:-1]), box.lines[-1]]
    stock = view.stock_count
    # TRANSLATORS: beside the stock (the face-down pile players draw from): how many cards it holds. At most 9 cells
    texts: list[Text | str] = ["", npgettext("board: cards in the stock", "stock {n}", "stock {n}", stock).format(n=stock)]
    if view.shuffling_count:
        shuffling = view.shuffling_count
        # TRANSLATORS: under the stock: the cards of completed center stacks that go back into it, shuffled. At most 16 cells
        shuffling_in = npgettext("board: cards shuffled into the stock", "+{n} shuffling in", "+{n} shuffling in", shuffling)
        texts.append(shuffling_in.format(n=shuffling))
    return notes(Block(tuple(lines)), ["", *texts] if big else texts)


def player_lines(
    caption: Sequence[Text], payoff: Card | None, side: Sequence[Stack], look: Look, big: bool, width: int, column: int = CAPTION
) -> list[Text]:
    """A player's pay-off pile and side stacks in as few rows as fit: covered cards give up their suits before a row wraps,
    then the longest stacks show only the cards nearest their top and how many more lie under them (``+8``)."""
    pay = stack_box([payoff] if payoff else [], look, "p", big)
    longest = max((len(s) - 1 for s in side), default=0)  # covered cards in the longest side stack
    tries = [(FULL, None), (RANKS, None), *((RANKS, most) for most in range(longest - 2, -1, -1))]
    best: list[Text] = []
    for detail, most in tries:
        blocks = [pay] + [stack_box(s, look, f"s{i + 1}", big, detail, most) for i, s in enumerate(side)]
        lines = captioned(caption, blocks, width, look=look, column=column)
        if not best or len(lines) < len(best):
            best = lines
        if sum(b.width + 1 for b in blocks) <= width - column:
            break
    return best


# --- the board ---


def header(view: PlayerView, seating: Seating, look: Look = Look(), width: int | None = None) -> list[Text]:
    """The match, the game, the score, the target, the turn and whose it is, then the opponent's fingerprint under its own
    label: phrases that go on one line, or more on a narrow screen (a line breaks between phrases, never inside one). A
    phrase with names that is wider than `width` has the longest names cut (with an ellipsis) until it fits."""
    me, them = view.player, 1 - view.player
    names, score = seating.names, seating.score

    def fit(phrase: Phrase) -> Text:
        return phrase(names) if width is None else fitted(phrase, names, width, look)

    parts = []
    if seating.match:
        # TRANSLATORS: the first part of the board's header line (its parts wrap on a narrow screen): the match's id
        parts.append(Text(pgettext("board header: the match's id", "Match {match}").format(match=seating.match[:8])))
    # TRANSLATORS: a part of the board's header line: the number of the game in the match
    parts.append(Text(pgettext("board header: the game's number in the match", "game {game}").format(game=seating.game)))
    # TRANSLATORS: a part of the board's header line: the match's score. {me} and {them} are the players' names (yours
    # first), {dash} a dash (– or -), {target} the score that wins the match
    score_line = _("{me} {my_score} {dash} {them} {their_score}, first to {target}")
    parts.append(
        fit(
            lambda cut: filled(
                score_line,
                me=Text(cut[me], "bold"),
                my_score=score[me],
                dash=look.dash,
                them=Text(cut[them], "bold"),
                their_score=score[them],
                target=seating.target,
            )
        )
    )
    parts.append(fit(lambda cut: status(view, cut, seating.earlier)))
    if seating.fingerprints[them]:
        # TRANSLATORS: a part of the board's header line: the opponent's key fingerprint (XXXX-XXXX-XXXX-XXXX)
        parts.append(filled(_("their fingerprint {fingerprint}"), fingerprint=Text(seating.fingerprints[them], "bold")))
    return parts


def status(view: PlayerView, names: Sequence[str], earlier: bool = False) -> Text:
    """Whose turn it is, or how the game ended, in words (never colour alone); of an `earlier` file, whose turn it was."""
    outcome = view.outcome
    if outcome is not None:
        played = view.turn if outcome.reason is Reason.PAYOFF_EMPTY else view.turn - 1  # a tie comes before the next turn starts
        if outcome.winner is None and outcome.reason is Reason.STOCK_EXHAUSTED:
            # TRANSLATORS: a part of the board's header line once a game is over: {turn} is the number of its last turn
            said = _("game over after turn {turn}: a tie (the stock ran out), nobody scores").format(turn=played)
        elif outcome.winner is None:
            # TRANSLATORS: a part of the board's header line once a game is over: {turn} is the number of its last turn
            said = _("game over after turn {turn}: a tie (no winner), nobody scores").format(turn=played)
        else:
            said = _won(outcome.reason is Reason.RESIGNED, outcome.winner == view.player, outcome.points).format(
                turn=played, name=names[1 - view.player], n=outcome.points
            )
        return Text(said, style="bold")
    if earlier and view.my_turn:
        # TRANSLATORS: a part of the board's header line of an earlier file of the match, shown as it was: {turn} is the
        # number of the turn that followed it, which was the player's
        return Text(_("turn {turn} was yours").format(turn=view.turn))
    if earlier:
        # TRANSLATORS: a part of the board's header line of an earlier file of the match, shown as it was: {turn} is the
        # number of the turn that followed it, {name} the opponent, whose turn it was
        return Text(_("turn {turn} was {name}'s").format(turn=view.turn, name=names[view.to_move]))
    if view.my_turn:
        # TRANSLATORS: a part of the board's header line: {turn} is the turn's number; keep the markup around "your turn"
        return Text.from_markup(_("turn {turn}: [bold green]your turn[/bold green]").format(turn=view.turn), emoji=False)
    # TRANSLATORS: a part of the board's header line: {turn} is the turn's number, {name} the opponent who moves
    return Text(_("turn {turn}: {name}'s turn").format(turn=view.turn, name=names[view.to_move]))


def _won(resigned: bool, mine: bool, n: int) -> str:
    """The header's words for a game won (by this player when `mine`), with placeholders turn, name (the opponent's) and n."""
    if resigned and mine:
        return ngettext(
            # TRANSLATORS: a part of the board's header line once a game is over: {turn} is its last turn's number, {name} the
            # opponent's name, {n} the points you scored
            "game over after turn {turn}: {name} resigned, you win, {n} point",
            "game over after turn {turn}: {name} resigned, you win, {n} points",
            n,
        )
    if resigned:
        return ngettext(
            # TRANSLATORS: a part of the board's header line once a game is over: {turn} is its last turn's number, {name} the
            # opponent's name, {n} the points they scored
            "game over after turn {turn}: you resigned, {name} wins, {n} point",
            "game over after turn {turn}: you resigned, {name} wins, {n} points",
            n,
        )
    if mine:
        # TRANSLATORS: a part of the board's header line once a game is over: {turn} is its last turn's number, {n} the
        # points you scored
        return ngettext("game over after turn {turn}: you win, {n} point", "game over after turn {turn}: you win, {n} points", n)
    # TRANSLATORS: a part of the board's header line once a game is over: {turn} is its last turn's number, {name} the
    # opponent's name, {n} the points they scored
    return ngettext("game over after turn {turn}: {name} wins, {n} point", "game over after turn {turn}: {name} wins, {n} points", n)


def _joined(parts: Sequence[Text], width: int, sep: str = " · ", look: Look = Look()) -> list[Text]:
    """`parts` on one line separated by `sep`, wrapped between parts when wider than `width`. A part wider than `width`
    alone (which only a very narrow screen makes) takes lines of its own, broken at spaces."""
    lines: list[Text] = [Text()]
    for part in parts:
        if part.cell_len > width:
            lines[-1:] = [*([lines[-1]] if lines[-1].cell_len else []), *at_spaces(part, width, look), Text()]
            continue
        if lines[-1].cell_len and lines[-1].cell_len + cell_len(sep) + part.cell_len > width:
            lines.append(Text())
        if lines[-1].cell_len:
            lines[-1].append(sep)
        lines[-1].append_text(part)
    return lines if lines[-1].cell_len or len(lines) == 1 else lines[:-1]


def moves_lines(title: Text, moves: str, width: int, look: Look = Look()) -> list[Text]:
    """A turn move by move, ``1. p-c1  2. 7-c2  3. Q-s2``, wrapping between moves."""
    parts = [title] + [Text(f"{i}. {m}") for i, m in enumerate(moves.split(), start=1)]
    return _joined(parts, width, "  ", look)


def log_lines(history: Sequence[tuple[int, str]], names: Sequence[str], height: int, width: int, look: Look = Look()) -> list[Text]:
    """This game's turns, the latest at the bottom, as many as fit in `height` lines; each names its player in
    `LOG_NAME` cells (cut with an ellipsis, padded by screen cells)."""
    # TRANSLATORS: the title of the game's log, a column beside the board: at most 26 cells
    lines = [Text(pgettext("board: the title of the game's log", "This game"), style="bold")]
    who = [padded_to(cut_to(name, LOG_NAME, look), LOG_NAME) for name in names]
    rows = [Text(f"{n:>3} {who[by]} {moves}") for n, (by, moves) in enumerate(history, start=1)]
    for row in rows:
        row.truncate(width, overflow=look.cut)
    if not rows:
        # TRANSLATORS: the game's log (a column beside the board) before the first turn: at most 24 cells
        rows = [Text("  " + _("no turns yet"), style="dim")]
    return lines + rows[-max(1, height - 1) :]


@frozen_value(slots=False)
class Board:
    """Everything `view.player` may see, laid out for the console it is printed on."""

    view: PlayerView
    seating: Seating
    history: tuple[tuple[int, str], ...] = ()
    look: Look = Look()
    below: int = 0  # lines printed under the board that must fit on the screen with it (the banner that ends a game)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        height = options.height or console.height
        lines = self.lines(width, height)
        yield Text("\n").join(lines)

    def lines(self, width: int, height: int = 24) -> list[Text]:
        """The board as lines of at most `width` columns, with the game's log to the right of it when there is room."""
        big = width >= BIG_WIDTH and height >= BIG_HEIGHT
        top = _joined(header(self.view, self.seating, self.look, width), width, self.look.dot, self.look)
        table = self._table(width, big)
        used = _widest(table)
        extra = min(WIDE_CAPTION, max(cell_len(label.plain) for label in self._captions(big)[-1]) + 1) - CAPTION
        if extra > 0:  # a translated caption longer than its column: a wider column, if it costs no row and leaves room for the log
            # the same rows as at `width`, moved right; the side stacks within `width` (a long one may show a card fewer
            # than it would: a caption cut short would lose its number)
            wider = self._table(width + extra, big, CAPTION + extra, stacks=width)
            fits = len(wider) <= len(table) and _widest(wider) <= width
            if fits and (used + 3 + LOG_MIN > width or _widest(wider) + 3 + LOG_MIN <= width):
                table, used = wider, _widest(wider)
        room = width - used - 3
        if room >= LOG_MIN and self.history:
            log = log_lines(self.history, self.seating.names, len(table), min(room, 48), self.look)
            table = list(beside([Block(tuple(table)), Block(tuple(log))], gap=3).lines)
            width = used  # the last turn stays under the table, clear of the log
        lines = [*top, Text(), *table, *self._last_turn(width)]
        if len(lines) > height - PROMPT_ROOM - self.below:  # a crowded table gives up its blank lines before the screen scrolls
            lines = [line for line in lines if line.cell_len]
        return [_rstripped(line) for line in lines]

    def _captions(self, big: bool) -> tuple[list[Text], list[Text], list[Text], list[Text], list[Text]]:
        """The captions left of the opponent's cards, of the center, of this player's cards and of their hand; then the
        translated ones among them (not the names)."""
        view, names = self.view, self.seating.names
        me, them = view.player, 1 - view.player
        held, pile, mine = view.opponent.hand_count, view.opponent.payoff_count, view.payoff_count
        # TRANSLATORS: a caption left of the opponent's cards: how many cards they hold. At most 10 cells (the
        # caption column; longer is cut)
        hand_n = Text(npgettext("board caption: cards in the opponent's hand", "hand {n}", "hand {n}", held).format(n=held))
        # TRANSLATORS: a caption left of a player's cards: how many cards are left in their pay-off pile. At most 10
        # cells (the caption column; longer is cut)
        their_pile = Text(npgettext("board caption: cards in a pay-off pile", "pay-off {n}", "pay-off {n}", pile).format(n=pile))
        # TRANSLATORS: the caption left of the three center stacks and the stock: at most 10 cells (the caption column)
        center = Text(pgettext("board caption: the center stacks", "Center"), "bold")
        # TRANSLATORS: a caption under the player's own name, left of their cards: at most 10 cells (the caption column)
        you = Text(pgettext("board caption: under the player's own name", "(you)"))
        # TRANSLATORS: a caption left of a player's cards: how many cards are left in their pay-off pile. At most 10
        # cells (the caption column; longer is cut)
        my_pile = Text(npgettext("board caption: cards in a pay-off pile", "pay-off {n}", "pay-off {n}", mine).format(n=mine))
        # TRANSLATORS: the caption left of the cards the player holds: at most 10 cells (the caption column)
        hand = Text(pgettext("board caption: the cards the player holds", "hand"))
        first = [Text("")] if big else []  # big cards are taller: their captions start a line lower
        return (
            [*first, Text(names[them], "bold"), hand_n, their_pile],
            [Text(""), center],
            [*first, Text(names[me], "bold"), you, my_pile],
            [*first, Text(""), hand],
            [hand_n, their_pile, center, you, my_pile, hand],
        )

    def _table(self, width: int, big: bool, column: int = CAPTION, stacks: int | None = None) -> list[Text]:
        """The cards: the opponent's, the center and the stock, this player's, and their hand, right of a caption column of
        `column` cells. The stock goes beside the center stacks (a cell closer together if need be); where it would take a
        row of its own, beside the hand if there is room there. `stacks`: the width the pay-off and side stacks' rows
        fit in, if not `width`."""
        view, look = self.view, self.look
        opp_caption, center_caption, my_caption, hand_caption, _labels = self._captions(big)
        lines = player_lines(opp_caption, view.opponent.payoff_top, view.opponent.side, look, big, stacks or width, column)
        lines.append(Text())
        center = [center_block(i, s, look, big) for i, s in enumerate(view.center)]
        stock = stock_block(view, look, big)
        # TRANSLATORS: in place of the player's cards when they hold none: at most 5 cells
        empty = Text(pgettext("board: a stack with no card", "empty"), style="dim")
        hand = [stack_box([card], look, big=big) for card in hand_order(view.hand)] or [Block((Text(""), empty))]
        hand_lines = captioned(hand_caption, hand, width, look=look, column=column)
        alone = captioned(center_caption, center, width, gap=2, look=look, column=column)
        for gap in (2, 1):  # the stacks a little closer, before the stock leaves their row
            center_lines = captioned(center_caption, [*center, stock], width, gap=gap, look=look, column=column)
            if len(center_lines) == len(alone):
                break
        else:  # the stock would take a row of its own: beside the hand, if it has room there
            with_stock = self._beside_hand(hand, stock, width - column, big)
            if with_stock is None:
                center_lines = captioned(center_caption, [*center, stock], width, gap=2, look=look, column=column)
            else:
                center_lines = alone
                hand_lines = captioned(hand_caption, [with_stock], width, look=look, column=column)
        lines += [*center_lines, Text()]
        lines += player_lines(my_caption, view.payoff_top, view.side, look, big, stacks or width, column)
        return lines + hand_lines

    def _beside_hand(self, hand: Sequence[Block], stock: Block, room: int, big: bool) -> Block | None:
        """The hand with the stock to its right (where a full hand would end, and a little apart), if one row of `room`
        cells holds them."""
        row = beside(hand)
        size = self.view.ruleset.hand_size
        full = size * stack_box([], self.look, big=big).width + size - 1
        joined = beside([row, stock], gap=STOCK_GAP + max(0, full - row.width))
        return joined if joined.width <= room else None

    def _last_turn(self, width: int) -> list[Text]:
        """The latest turn of the game, move by move, numbered as the file that carries it is (``-t7``: turn 7)."""
        if not self.history:
            return []
        by, moves = self.history[-1]
        number = len(self.history)
        if by == self.view.player:
            # TRANSLATORS: under the board, before the moves of the latest turn (1. p-c1  2. 7-c2); {turn} is its number
            title = Text(_("Your turn {turn}:").format(turn=number), style="bold")
        else:
            # TRANSLATORS: under the board, before the moves of the latest turn (1. p-c1  2. 7-c2); {name} is the opponent
            # who played it, {turn} its number
            theirs = _("{name}'s turn {turn}:")
            title = fitted(lambda cut: Text(theirs.format(name=cut[by], turn=number), style="bold"), self.seating.names, width, self.look)
        return moves_lines(title, moves, width, self.look)


def _widest(lines: Sequence[Text]) -> int:
    return max((line.cell_len for line in lines), default=0)


def _rstripped(line: Text) -> Text:
    line = line.copy()
    line.rstrip()
    return line


def board(view: PlayerView, seating: Seating, history: Sequence[tuple[int, str]] = (), look: Look = Look(), below: int = 0) -> Board:
    """The board of `view` with the match around it; `history` is this game's turns so far as (seat, moves). `below` lines
    printed under it must fit on the screen too."""
    return Board(view, seating, tuple(history), look, below)


def banner(lines: Sequence[str], look: Look = Look(), width: int = 80) -> Text:
    """Lines in a box that stands out: the end of a game or of the match. The box is as wide as its widest line (in
    screen cells) and at most `width`; a longer line goes on in the box, broken at spaces."""
    tl, tr, bl, br, h, v, *_rest = tuple(look.glyphs)
    inner = max(3, min(max((cell_len(line) for line in lines), default=0) + 2, width - 2))
    out = [Text(tl + h * inner + tr, "bold")]
    for line in lines:
        for piece in at_spaces(Text(line), inner - 2, look):
            body = padded_to(" " + piece.plain, inner)
            out.append(Text.assemble((v, "bold"), (body, "bold"), (v, "bold")))
    out.append(Text(bl + h * inner + br, "bold"))
    return Text("\n").join(out)
