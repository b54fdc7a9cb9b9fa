"""The rules of the game in the player's language: spite rules (the text is pbm/rulebook.py)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from pbm.cli.app import _handled, _look, command, session
from pbm.i18n import _
from pbm.rulebook import SECTIONS, VALUES, Block, Bullet, Notation, Paragraph

WIDTH = 80  # the rules are read in lines of at most 80 cells, however wide the terminal
INDENT = "  "  # before a bullet and a notation table
GAP = "  "  # between a notation token and its meaning
NARROW = 24  # a meaning narrower than this goes on the line below its token


@command(
    help=_("Print the rules of Spite & Malice in your language: the table, a turn, Kings, scoring and how to write moves."),
    epilog=_("Example: spite rules"),
)
@_handled
def rules() -> None:
    """Print the rules of the game."""
    console = session.out
    width = max(min(console.width, WIDTH), 20)
    ascii_ = _look().ascii
    for line in rule_lines(console, width, bullet="-" if ascii_ else "•", rule="-" if ascii_ else "─"):
        console.print(line, soft_wrap=True)


def _said(message: str) -> str:
    """A message of the rulebook in the player's language, its numbers filled in."""
    return _(message).format(**VALUES)


def _wrapped(console: Console, text: str, width: int, first: str = "", rest: str = "", style: str = "") -> list[Text]:
    """`text` wrapped to `width` cells, its first line after `first` and the others after `rest` (a hanging indent)."""
    room = max(width - max(cell_len(first), cell_len(rest)), 10)
    lines = Text(text, style=style).wrap(console, room, overflow="fold")
    out = []
    for n, line in enumerate(lines):
        line.rstrip()
        out.append(Text.assemble(first if n == 0 else rest, line))
    return out


def _block(console: Console, block: Block, width: int, bullet: str) -> list[Text]:
    """The lines of one block: a paragraph, a bullet with a hanging indent, or a notation table in two columns."""
    if isinstance(block, Paragraph):
        return _wrapped(console, _said(block.text), width)
    if isinstance(block, Bullet):
        first = f"{INDENT}{bullet} "
        return _wrapped(console, _said(block.text), width, first, " " * cell_len(first))
    column = max(cell_len(row.token) for row in block.rows)
    lines: list[Text] = []
    for row in block.rows:
        meaning = _said(row.meaning)
        if width - cell_len(INDENT + GAP) - column >= NARROW:
            first = INDENT + row.token + " " * (column - cell_len(row.token)) + GAP
            lines += _wrapped(console, meaning, width, first, " " * cell_len(first))
        else:  # too narrow for two columns: the meaning below its token
            lines.append(Text(INDENT + row.token))
            lines += _wrapped(console, meaning, width, INDENT * 2, INDENT * 2)
    return lines


def rule_lines(console: Console, width: int = WIDTH, bullet: str = "•", rule: str = "─") -> list[Text]:
    """The rules as lines of at most `width` cells: headings (bold, underlined with `rule` so that a pager shows them
    too), paragraphs, bullets and notation tables."""
    lines: list[Text] = []
    for n, section in enumerate(SECTIONS):
        if n:
            lines.append(Text(""))
        heading = _wrapped(console, _said(section.heading), width, style="bold")
        lines += [*heading, Text(rule * max(line.cell_len for line in heading))]
        previous: Block | None = None
        for block in section.blocks:
            # a paragraph and a table stand apart; a bullet follows its lead-in or the bullet before it
            if previous is not None and (not isinstance(block, Bullet) or isinstance(previous, Notation)):
                lines.append(Text(""))
            lines += _block(console, block, width, bullet)
            previous = block
    return lines
