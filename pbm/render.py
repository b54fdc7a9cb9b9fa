"""The board as rich renderables, drawn from a PlayerView (so nothing hidden can be drawn).

Cards are boxes with rank and suit; a side stack fans out so that every card in it shows. Colour only
repeats what the text says (suit symbols, words): the board reads the same with NO_COLOR, and
``Look(ascii=True)`` draws with ASCII alone (suit letters) for terminals that draw ♠♥♦♣ two cells wide.
The board lays itself out for the width and height it is given: one screen at 80x24, bigger cards
and the game's log beside it when there is room. Nothing here prints; the CLI hands these to its Console.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, OverflowMethod, RenderResult
from rich.text import Text

from engine._frozen import frozen_value
from engine.cards import KING, RANK_TEXT, SUIT_SYMBOLS, Card
from engine.state import PlayerView, Reason, Stack

RED_SUITS = frozenset({"h", "d"})
RED = "red"
CAPTION = 11  # the column of captions left of the cards (names are cut to fit)
BIG_WIDTH, BIG_HEIGHT = 100, 36  # from this size on, cards are drawn large
LOG_MIN = 26  # the game's log goes beside the board when this many columns are left over
PROMPT_ROOM = 4  # lines of the screen left for the prompt and a message under the board


@dataclass(frozen=True, slots=True)  # a dataclass as such: ruff (B008) knows it is immutable, as a default
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
        return Text("empty", style="dim")
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
    lines = []
    for row in range(height):
        line = Text()
        for i, block in enumerate(blocks):
            if i:
                line.append(" " * gap)
            line.append_text(_padded(block.lines[row] if row < block.height else Text(), block.width))
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


def captioned(caption: Sequence[Text], blocks: Sequence[Block], width: int, gap: int = 1, look: Look = Look()) -> list[Text]:
    """`blocks` flowed right of a caption column (wrapping under it), as lines."""
    lines: list[Text] = []
    for i, row in enumerate(flow(blocks, max(1, width - CAPTION), gap)):
        for r, line in enumerate(row.lines):
            label = caption[r] if i == 0 and r < len(caption) else Text()
            label = label.copy()
            label.truncate(CAPTION - 1, overflow=look.cut)
            lines.append(Text.assemble(_padded(label, CAPTION), line))
    return lines


# --- cards and stacks ---


FULL, RANKS, DENSE = 0, 1, 2  # how covered cards of a side stack are drawn: rank and suit, rank alone, rank in one column


def covered_label(card: Card, look: Look, detail: int) -> str:
    """A covered card of a fanned stack: ``10♠``, ``10`` or ``T`` (the notation's one-column ten)."""
    if detail == DENSE:
        return "T" if card.rank == 10 else RANK_TEXT[card.rank]
    return card_label(card, look, rank_only=detail == RANKS)


def stack_box(cards: Sequence[Card], look: Look, label: str = "", big: bool = False, detail: int = FULL) -> Block:
    """A stack as a box: every card fanned left to right, the top one (rightmost) in full; an empty stack as an empty box.

    `label` (a stack's name in move notation: ``p``, ``s1``, ``c2``) is written in the top edge. With less room,
    covered cards show their rank alone (`detail`): suits never matter in play.
    """
    tl, tr, bl, br, h, v, tj, bj, _ = tuple(look.glyphs)  # nine characters, one glyph each
    face = 5 if big else 3
    rows = 3 if big else 1
    cells: list[list[Text]] = []  # one column of text per card (all covered cards in one when DENSE), each row of it
    covered = cards[:-1]
    if detail == DENSE and covered:
        run = Text()
        for card in covered:
            run.append(covered_label(card, look, detail), card_style(card))
        cells.append([run] + [Text()] * (rows - 1))
    else:
        cells += [[Text(covered_label(card, look, detail), card_style(card))] + [Text()] * (rows - 1) for card in covered]
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
    king = Text("as " + RANK_TEXT[len(stack)], "bold") if stack and stack[-1].rank == KING else ""
    texts: list[Text | str] = [king, f"needs {need}", f"{12 - len(stack)} to go"] if need else [king, "complete"]
    return notes(box, ["", *texts] if big else texts)


def stock_block(view: PlayerView, look: Look, big: bool) -> Block:
    """The stock as a card back with its count, and the completed stacks being shuffled into it."""
    box = stack_box([], look, big=big)
    back = Text(look.glyphs[-1] * (5 if big else 3), "dim")
    side = Text(look.glyphs[5], "dim")
    lines = [box.lines[0], *(Text.assemble(side, back, side) for _ in box.lines[1:-1]), box.lines[-1]]
    texts: list[Text | str] = ["", f"stock {view.stock_count}"]
    if view.shuffling_count:
        texts.append(f"+{view.shuffling_count} shuffling in")
    return notes(Block(tuple(lines)), ["", *texts] if big else texts)


def player_lines(caption: Sequence[Text], payoff: Card | None, side: Sequence[Stack], look: Look, big: bool, width: int) -> list[Text]:
    """A player's pay-off pile and side stacks in as few rows as fit, covered cards giving up detail before a row wraps."""
    pay = stack_box([payoff] if payoff else [], look, "p", big)
    best: list[Text] = []
    for detail in (FULL, RANKS, DENSE):
        blocks = [pay] + [stack_box(s, look, f"s{i + 1}", big, detail) for i, s in enumerate(side)]
        lines = captioned(caption, blocks, width, look=look)
        if not best or len(lines) < len(best):
            best = lines
        if sum(b.width + 1 for b in blocks) <= width - CAPTION:
            break
    return best


# --- the board ---


def header(view: PlayerView, seating: Seating, look: Look = Look()) -> list[Text]:
    """The match, the game, the score, the target, the turn and whose it is, then the opponent's fingerprint under its own
    label: one line, or more on a narrow screen."""
    me, them = view.player, 1 - view.player
    names, score = seating.names, seating.score
    parts = []
    if seating.match:
        parts.append(Text(f"Match {seating.match[:8]}"))
    parts.append(Text(f"game {seating.game}"))
    parts.append(
        Text.assemble(
            (names[me], "bold"), f" {score[me]} {look.dash} ", (names[them], "bold"), f" {score[them]}, first to {seating.target}"
        )
    )
    parts.append(status(view, names))
    if seating.fingerprints[them]:
        parts.append(Text.assemble("their fingerprint ", (seating.fingerprints[them], "bold")))
    return parts


def status(view: PlayerView, names: Sequence[str]) -> Text:
    """Whose turn it is, or how the game ended, in words (never colour alone)."""
    outcome = view.outcome
    if outcome is not None:
        played = view.turn if outcome.reason is Reason.PAYOFF_EMPTY else view.turn - 1  # a tie comes before the next turn starts
        if outcome.winner is None:
            why = "the stock ran out" if outcome.reason is Reason.STOCK_EXHAUSTED else "no winner"
            return Text(f"game over after turn {played}: a tie ({why}), nobody scores", style="bold")
        who = "you win" if outcome.winner == view.player else f"{names[outcome.winner]} wins"
        if outcome.reason is Reason.RESIGNED:
            resigner = "you" if outcome.winner != view.player else names[1 - outcome.winner]
            who = f"{resigner} resigned, {who}"
        return Text(f"game over after turn {played}: {who}, {outcome.points} point{'s' if outcome.points != 1 else ''}", style="bold")
    if view.my_turn:
        return Text.assemble(f"turn {view.turn}: ", ("your turn", "bold green"))
    return Text(f"turn {view.turn}: {names[view.to_move]}'s turn")


def _joined(parts: Sequence[Text], width: int, sep: str = " · ") -> list[Text]:
    """`parts` on one line separated by `sep`, wrapped between parts when wider than `width`."""
    lines: list[Text] = [Text()]
    for part in parts:
        if lines[-1].cell_len and lines[-1].cell_len + len(sep) + part.cell_len > width:
            lines.append(Text())
        if lines[-1].cell_len:
            lines[-1].append(sep)
        lines[-1].append_text(part)
    return lines


def moves_lines(title: Text, moves: str, width: int) -> list[Text]:
    """A turn move by move, ``1. p-c1  2. 7-c2  3. Q-s2``, wrapping between moves."""
    parts = [title] + [Text(f"{i}. {m}") for i, m in enumerate(moves.split(), start=1)]
    return _joined(parts, width, "  ")


def log_lines(history: Sequence[tuple[int, str]], names: Sequence[str], height: int, width: int, look: Look = Look()) -> list[Text]:
    """This game's turns, the latest at the bottom, as many as fit in `height` lines."""
    lines = [Text("This game", style="bold")]
    rows = [Text(f"{n:>3} {names[by][:8]:<8} {moves}") for n, (by, moves) in enumerate(history, start=1)]
    for row in rows:
        row.truncate(width, overflow=look.cut)
    if not rows:
        rows = [Text("  no turns yet", style="dim")]
    return lines + rows[-max(1, height - 1) :]


@frozen_value(slots=False)
class Board:
    """Everything `view.player` may see, laid out for the console it is printed on."""

    view: PlayerView
    seating: Seating
    history: tuple[tuple[int, str], ...] = ()
    look: Look = Look()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        height = options.height or console.height
        lines = self.lines(width, height)
        yield Text("\n").join(lines)

    def lines(self, width: int, height: int = 24) -> list[Text]:
        """The board as lines of at most `width` columns, with the game's log to the right of it when there is room."""
        big = width >= BIG_WIDTH and height >= BIG_HEIGHT
        top = _joined(header(self.view, self.seating, self.look), width, self.look.dot)
        table = self._table(width, big)
        used = max(line.cell_len for line in table)
        room = width - used - 3
        if room >= LOG_MIN and self.history:
            log = log_lines(self.history, self.seating.names, len(table), min(room, 48), self.look)
            table = list(beside([Block(tuple(table)), Block(tuple(log))], gap=3).lines)
            width = used  # the last turn stays under the table, clear of the log
        lines = [*top, Text(), *table, *self._last_turn(width)]
        if len(lines) > height - PROMPT_ROOM:  # a crowded table gives up its blank lines before the screen scrolls
            lines = [line for line in lines if line.cell_len]
        return [_rstripped(line) for line in lines]

    def _table(self, width: int, big: bool) -> list[Text]:
        """The cards: the opponent's, the center and the stock, this player's, and their hand."""
        view, look = self.view, self.look
        names, me, them = self.seating.names, view.player, 1 - view.player
        opp = view.opponent
        caption = [Text(""), Text(names[them], "bold"), Text(f"hand {opp.hand_count}"), Text(f"pay-off {opp.payoff_count}")]
        lines = player_lines(caption if big else caption[1:], opp.payoff_top, opp.side, look, big, width)
        lines.append(Text())
        center = [center_block(i, s, look, big) for i, s in enumerate(view.center)]
        lines += captioned([Text(""), Text("Center", "bold")], [*center, stock_block(view, look, big)], width, gap=2, look=look)
        lines.append(Text())
        mine = [Text(""), Text(names[me], "bold"), Text("(you)"), Text(f"pay-off {view.payoff_count}")]
        lines += player_lines(mine if big else mine[1:], view.payoff_top, view.side, look, big, width)
        hand = [stack_box([card], look, big=big) for card in hand_order(view.hand)]
        hand_caption = [Text("")] * (2 if big else 1) + [Text("hand")]
        lines += captioned(hand_caption, hand or [Block((Text(""), Text("empty", style="dim")))], width, look=look)
        return lines

    def _last_turn(self, width: int) -> list[Text]:
        """The latest turn of the game, move by move, numbered as the file that carries it is (``-t7``: turn 7)."""
        if not self.history:
            return []
        by, moves = self.history[-1]
        who = "Your" if by == self.view.player else f"{self.seating.names[by]}'s"
        return moves_lines(Text(f"{who} turn {len(self.history)}:", style="bold"), moves, width)


def _rstripped(line: Text) -> Text:
    line = line.copy()
    line.rstrip()
    return line


def board(view: PlayerView, seating: Seating, history: Sequence[tuple[int, str]] = (), look: Look = Look()) -> Board:
    """The board of `view` with the match around it; `history` is this game's turns so far as (seat, moves)."""
    return Board(view, seating, tuple(history), look)


def banner(lines: Sequence[str], look: Look = Look(), width: int = 80) -> Text:
    """Lines in a box that stands out: the end of a game or of the match."""
    tl, tr, bl, br, h, v, *_ = tuple(look.glyphs)
    inner = min(max(len(line) for line in lines) + 2, width - 2)
    out = [Text(tl + h * inner + tr, "bold")]
    for line in lines:
        body = Text(" " + line)
        body.truncate(inner, overflow="ellipsis", pad=True)
        out.append(Text.assemble((v, "bold"), (body.plain, "bold"), (v, "bold")))
    out.append(Text(bl + h * inner + br, "bold"))
    return Text("\n").join(out)
