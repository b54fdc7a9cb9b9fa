"""The board as rich renderables, drawn from a PlayerView (so nothing hidden can be drawn).

Colour only repeats what the text says (suit symbols, words): the board reads the same with NO_COLOR.
Nothing here prints; the CLI hands the renderables to its Console.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from engine.cards import KING, RANK_TEXT, SUIT_SYMBOLS, Card
from engine.state import PlayerView, Reason, Stack

RED_SUITS = frozenset({"h", "d"})
RED = "red"


def card_text(card: Card | None, style: str = "") -> Text:
    """A card as ``7♥`` (hearts and diamonds in red), ``K`` when its suit is unknown, ``empty`` for None."""
    if card is None:
        return Text("empty", style="dim")
    colour = RED if card.suit in RED_SUITS else ""
    label = RANK_TEXT[card.rank] + (SUIT_SYMBOLS[card.suit] if card.suit else "")
    return Text(label, style=f"{style} {colour}".strip())


def side_stack_text(index: int, stack: Stack) -> Text:
    """A side stack: its name, its top card in bold and the cards below it, e.g. ``s1 9♥ (+3)``."""
    text = Text(f"s{index + 1} ", style="dim")
    text.append_text(card_text(stack[-1] if stack else None, "bold"))
    if len(stack) > 1:
        text.append(f" (+{len(stack) - 1})")
    return text


def center_stack_text(index: int, stack: Stack) -> Text:
    """A center stack: its top card (a King says what it counts as) and the rank it needs next."""
    text = Text(f"c{index + 1} ", style="dim")
    text.append_text(card_text(stack[-1] if stack else None, "bold"))
    if stack and stack[-1].rank == KING:
        text.append(f" as {RANK_TEXT[len(stack)]}")
    if len(stack) < 12:
        text.append(f" → needs {RANK_TEXT[len(stack) + 1]}")
    return text


def payoff_text(top: Card | None, count: int) -> Text:
    """A pay-off pile: its face-up top in bold and how many cards it holds."""
    text = Text()
    text.append_text(card_text(top, "bold"))
    if count:
        text.append(f" ({count} left)")
    return text


def moves_text(moves: Sequence[str]) -> RenderableType:
    """A turn move by move: ``1. p-c1  2. 7-c2  3. Q-s2``, wrapping between moves."""
    return Columns([Text(f"{i}. {move}") for i, move in enumerate(moves, start=1)], padding=(0, 2))


def board(
    view: PlayerView,
    names: Sequence[str],
    score: Sequence[int],
    last_turn: Sequence[str] = (),
    target: int | None = None,
) -> RenderableType:
    """Everything `view.player` may see: score, opponent, center, stock, own cards, and the opponent's last turn.

    `names` and `score` are indexed by seat; `last_turn` lists the opponent's last moves as notation.
    """
    me, them = view.player, 1 - view.player
    opponent = view.opponent
    goal = target if target is not None else view.ruleset.target_score

    heading = Text.assemble((names[me], "bold"), f" {score[me]} – ", (names[them], "bold"), f" {score[them]}  ·  first to {goal}")
    parts: list[RenderableType] = [heading, _status(view, names)]

    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    grid.add_row(Text(names[them]), Text(f"hand {opponent.hand_count} card{'s' if opponent.hand_count != 1 else ''}"))
    grid.add_row("  pay-off", payoff_text(opponent.payoff_top, opponent.payoff_count))
    grid.add_row("  side", _row(side_stack_text(i, s) for i, s in enumerate(opponent.side)))
    grid.add_row("", "")
    grid.add_row("Center", _row(center_stack_text(i, s) for i, s in enumerate(view.center)))
    stock = [Text(f"{view.stock_count} card{'s' if view.stock_count != 1 else ''}")]
    if view.shuffling_count:
        stock.append(Text(f"+{view.shuffling_count} being shuffled in"))
    grid.add_row("Stock", _row(stock))
    grid.add_row("", "")
    grid.add_row(Text(f"{names[me]} (you)"), "")
    grid.add_row("  pay-off", payoff_text(view.payoff_top, view.payoff_count))
    grid.add_row("  side", _row(side_stack_text(i, s) for i, s in enumerate(view.side)))
    hand = sorted(view.hand, key=lambda c: (c.rank, c.suit or "", c.copy))
    grid.add_row("  hand", _row(card_text(c, "bold") for c in hand) if hand else Text("empty", style="dim"))
    parts.append(grid)

    if last_turn:
        parts += [Text(f"{names[them]}'s last turn:", style="bold"), moves_text(last_turn)]
    return Group(*parts)


def _row(items: object) -> Columns:
    return Columns(list(items), padding=(0, 2))  # type: ignore[call-overload]


def _status(view: PlayerView, names: Sequence[str]) -> Text:
    """Whose turn it is, or how the game ended, in words (never colour alone)."""
    outcome = view.outcome
    if outcome is not None:
        if outcome.winner is None:
            why = "the stock ran out" if outcome.reason is Reason.STOCK_EXHAUSTED else "no winner"
            return Text(f"Game over after turn {view.turn}: a tie ({why}), nobody scores", style="bold")
        who = "you win" if outcome.winner == view.player else f"{names[outcome.winner]} wins"
        return Text(f"Game over after turn {view.turn}: {who}, {outcome.points} point{'s' if outcome.points != 1 else ''}", style="bold")
    if view.my_turn:
        return Text.assemble(f"Turn {view.turn}  ·  ", ("your turn", "bold green"))
    return Text(f"Turn {view.turn}  ·  {names[view.to_move]}'s turn")
