"""`spite show --json`: one player's whole view of a save as plain data (schema in docs/show-json.md).

Everything the board shows is here, in the board's order, and nothing hidden from that player.
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from engine.state import Stack
from pbm import render
from pbm.client.receive import Opened
from pbm.journal import Status

SCHEMA = 1


def _card(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _stack(stack: Stack) -> list[str]:
    return [str(card) for card in stack]


def summary(opened: Opened) -> dict[str, Any]:
    """Where the match stands for this player: labels, score and turns, and the table when one is dealt."""
    save, record, names, me = opened.save, opened.record, opened.names, opened.me
    view, to_move = opened.view, opened.to_move
    shown = view is not None and opened.game == save.game  # a file may carry the next game's deal before its table shows
    outcome = view.outcome if shown and view is not None else None
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "match": save.match,
        "game": save.game,
        "turn": save.turn,  # the turn this file carries, as in its name (-t7) and on the board ("Bob's turn 7")
        "next_turn": view.turn if shown and view is not None and outcome is None else None,  # the board's "turn 8"
        "you": names[me],
        "to_move": None if to_move is None else names[to_move],  # who writes the next file
        "earlier": opened.check.status is Status.EARLIER,  # an earlier file of the match, shown as it was
        "game_over": outcome is not None,
        "outcome": None
        if outcome is None
        else {
            "winner": None if outcome.winner is None else names[outcome.winner],
            "reason": outcome.reason.value,
            "points": outcome.points,
        },
        "match_over": record.is_over,
        "scores": {names[0]: record.scores[0], names[1]: record.scores[1]},
        "target": save.rules.target_score,
        "history": [{"turn": n, "by": names[t.by], "moves": t.moves} for n, t in enumerate(save.history, start=1)],
    }
    if not shown or view is None:
        return data
    opponent = view.opponent
    data |= {
        "hand": [str(c) for c in render.hand_order(view.hand)],
        "payoff": {"top": _card(view.payoff_top), "count": view.payoff_count},
        "side": [_stack(s) for s in view.side],
        "opponent": {
            "name": names[1 - me],
            "hand_count": opponent.hand_count,
            "payoff_count": opponent.payoff_count,
            "payoff_top": _card(opponent.payoff_top),
            "side": [_stack(s) for s in opponent.side],
        },
        "center": [{"cards": _stack(s), "needs": render.needs(s), "to_go": 12 - len(s)} for s in view.center],
        "stock": view.stock_count,
        "shuffling_in": view.shuffling_count,
    }
    return data
