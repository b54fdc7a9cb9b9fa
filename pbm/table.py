"""The public table of a game as plain data: what a save file states and the receiver recomputes.

Cards are written by their physical index (``engine.cards.Card.index``); only cards every
player may see appear here, so the section may be read by anyone.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.cards import Card
from engine.rules import Ruleset
from engine.state import GameState, Outcome, PlayerState, Pool, Reason
from pbm.errors import SaveFormatError
from pbm.i18n import _
from pbm.schema import Choice, Fields, Items, Whole, check

_CARDS = Items(Whole(0, 1023))  # physical card indices, bottom to top; checked against the deck's size when read
_STACKS = Items(_CARDS, most=9)
TABLE = Fields(
    {
        "turn": Whole(0),
        "to_move": Whole(0, 1),
        "starter": Whole(0, 1),
        "stock": Whole(0),
        "center": _STACKS,
        "pools": Items(Fields({"turn": Whole(0), "cards": _CARDS}), most=9),
        "players": Items(Fields({"hand": Whole(0), "payoff": Whole(0), "top": Whole(-1, 1023), "side": _STACKS}), count=2),
        "outcome": Fields({"reason": Choice(tuple(r.value for r in Reason)), "winner": Whole(-1, 1), "points": Whole(0)}),
    },
    optional=frozenset({"outcome"}),
)
STATE = dataclasses.replace(TABLE, empty=True)  # a save's `state`: the table, or empty in a file without moves


def _ids(cards: tuple[Card, ...]) -> list[int]:
    return [card.index for card in cards]


def table_data(state: GameState) -> dict[str, Any]:
    """The public part of `state`: stacks, pay-off tops and counts, hand and stock counts, pools, outcome."""
    data: dict[str, Any] = {
        "turn": state.turn,
        "to_move": state.to_move,
        "starter": state.starter,
        "stock": state.stock_count,
        "center": [_ids(stack) for stack in state.center],
        "pools": [{"turn": pool.turn, "cards": _ids(pool.cards)} for pool in state.pools],
        "players": [
            {
                "hand": p.hand_count,
                "payoff": p.payoff_count,
                "top": p.payoff_top.index if p.payoff_top is not None else -1,
                "side": [_ids(stack) for stack in p.side],
            }
            for p in state.players
        ],
    }
    if state.outcome is not None:
        o = state.outcome
        data["outcome"] = {"reason": o.reason.value, "winner": -1 if o.winner is None else o.winner, "points": o.points}
    return data


def table_state(data: Any, ruleset: Ruleset, me: int, hand: tuple[Card, ...]) -> GameState:
    """The GameState that `data` describes, as player `me` holding `hand` knows it (the other hand unseen).

    Raises SaveFormatError (field 'state') for data that is not a table of this ruleset.
    """
    check(TABLE, data, "state")

    def cards(ids: list[int]) -> tuple[Card, ...]:
        if any(i >= ruleset.deck_size for i in ids):
            # TRANSLATORS: a save file that spite refuses; {most} is the highest card number of the deck (0-103)
            said = _("field 'state' does not describe a table: a card number outside 0-{most}")
            raise SaveFormatError(said.format(most=ruleset.deck_size - 1), "state")
        return tuple(Card.from_index(i) for i in ids)

    players = []
    for seat, p in enumerate(data["players"]):
        top = None if p["top"] == -1 else cards([p["top"]])[0]
        side = tuple(cards(s) for s in p["side"])
        if seat == me:
            if len(hand) != p["hand"]:
                # TRANSLATORS: a save file that spite refuses; {said} and {held} are numbers of cards in the player's hand
                said = _("field 'state' does not describe a table: it says {said} hand cards, the protocol holds {held}")
                raise SaveFormatError(said.format(said=p["hand"], held=len(hand)), "state")
            players.append(PlayerState(hand, top, p["payoff"], side))
        else:
            players.append(PlayerState((), top, p["payoff"], side, p["hand"]))
    outcome = None
    if "outcome" in data:
        o = data["outcome"]
        outcome = Outcome(Reason(o["reason"]), None if o["winner"] == -1 else o["winner"], o["points"])
    return GameState(
        ruleset=ruleset,
        players=(players[0], players[1]),
        center=tuple(cards(s) for s in data["center"]),
        stock_count=data["stock"],
        pools=tuple(Pool(p["turn"], cards(p["cards"])) for p in data["pools"]),
        to_move=data["to_move"],
        turn=data["turn"],
        starter=data["starter"],
        outcome=outcome,
    )
