"""Position files (RULES.md): a TOML table as the player to move sees it, read into a PlayerView.

Every field is checked strictly; anything malformed or impossible raises PositionError with a
message that starts with the field it is about (``me.hand[2]: 'Z' is not a card``).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.cards import KING, RANK_TEXT, Card, CardNotationError
from engine.rules import G4A, Ruleset, ruleset_named
from engine.state import OpponentView, PlayerView, Stack

_TOP_KEYS = {"ruleset": False, "me": True, "opponent": True, "table": True}  # key -> required
_ME_KEYS = {"hand": True, "payoff_top": False, "payoff_count": True, "side": True}
_OPPONENT_KEYS = {"hand_count": True, "payoff_top": False, "payoff_count": True, "side": True}
_TABLE_KEYS = {"center": True, "stock_count": True, "shuffling_in": False}

_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth"}


class PositionError(ValueError):
    """A position file that is malformed or describes a table no game can reach."""


def read_position(path: str | Path) -> PlayerView:
    """The view of the player to move described by the position file at `path`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise PositionError(f"cannot read {str(path)!r}: {getattr(e, 'strerror', None) or e}") from e
    return parse_position(text)


def parse_position(text: str) -> PlayerView:
    """The view described by the TOML text of a position file."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PositionError(f"not a TOML file: {e}") from e
    return position_from_dict(data)


def position_from_dict(data: dict[str, Any]) -> PlayerView:
    """The view described by an already parsed position table; player 0 is the player to move."""
    _check_keys(data, _TOP_KEYS, "")
    ruleset = _ruleset(data.get("ruleset", G4A.name))
    me = _table(data["me"], "me", _ME_KEYS)
    opp = _table(data["opponent"], "opponent", _OPPONENT_KEYS)
    table = _table(data["table"], "table", _TABLE_KEYS)

    seen: Counter[Card] = Counter()  # suited cards read so far, to number the copies
    hand = _cards(me["hand"], "me.hand", seen)
    if len(hand) > ruleset.hand_size:
        raise PositionError(f"me.hand: {len(hand)} cards, but a hand holds at most {ruleset.hand_size}")
    my_top, my_count = _payoff(me, "me", ruleset, seen)
    my_side = _side(me["side"], "me.side", ruleset, seen)

    opp_hand = _count(opp["hand_count"], "opponent.hand_count")
    if opp_hand > ruleset.hand_size:
        raise PositionError(f"opponent.hand_count: {opp_hand} cards, but a hand holds at most {ruleset.hand_size}")
    opp_top, opp_count = _payoff(opp, "opponent", ruleset, seen)
    opp_side = _side(opp["side"], "opponent.side", ruleset, seen)

    center = _center(table["center"], ruleset, seen)
    stock = _count(table["stock_count"], "table.stock_count")
    shuffling = _count(table.get("shuffling_in", 0), "table.shuffling_in")
    if shuffling % ruleset.complete_at:
        raise PositionError(
            f"table.shuffling_in: {shuffling} is not a multiple of {ruleset.complete_at}, the cards of a completed center stack"
        )

    view = PlayerView(
        ruleset=ruleset,
        player=0,
        to_move=0,
        turn=1,  # a position file does not say which turn it is
        hand=hand,
        payoff_top=my_top,
        payoff_count=my_count,
        side=my_side,
        opponent=OpponentView(opp_hand, opp_top, opp_count, opp_side),
        center=center,
        stock_count=stock,
        shuffling_in=(),
        shuffling_in_count=shuffling,
    )
    _check_copies(view)
    _check_total(view)
    return view


def _check_keys(data: dict[str, Any], keys: dict[str, bool], where: str) -> None:
    prefix = f"{where}." if where else ""
    for key in data:
        if key not in keys:
            known = ", ".join(keys)
            raise PositionError(f"{prefix}{key}: unknown key; {where or 'the file'} has only {known}")
    for key, required in keys.items():
        if required and key not in data:
            raise PositionError(f"{prefix}{key}: missing")


def _table(value: Any, where: str, keys: dict[str, bool]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PositionError(f"{where}: must be a table ([{where}]), not {_type(value)}")
    _check_keys(value, keys, where)
    return value


def _type(value: Any) -> str:
    names = {str: "a string", int: "an integer", float: "a number", bool: "true/false", list: "a list", dict: "a table"}
    return names.get(type(value), f"a {type(value).__name__}")


def _ruleset(value: Any) -> Ruleset:
    if not isinstance(value, str):
        raise PositionError(f"ruleset: must be a string naming a ruleset, not {_type(value)}")
    try:
        return ruleset_named(value)
    except KeyError as e:
        raise PositionError(f"ruleset: {e.args[0]}") from e


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{where}: must be a whole number, not {_type(value)}")
    if value < 0:
        raise PositionError(f"{where}: {value} is negative")
    return value


def _card(value: Any, where: str, seen: Counter[Card]) -> Card:
    """The card written `value`; a second 7h is numbered as the second deck's copy (R1: copies are distinct)."""
    if not isinstance(value, str):
        raise PositionError(f'{where}: must be a card written as a string (like "7h" or "K"), not {_type(value)}')
    try:
        card = Card.parse(value)
    except CardNotationError as e:
        raise PositionError(f"{where}: {value!r} is not a card; write rank then optional suit, like 7h, 10d, Qs or K") from e
    if card.suit is None:
        return card
    seen[card] += 1
    return Card(card.rank, card.suit, seen[card] - 1)


def _cards(value: Any, where: str, seen: Counter[Card]) -> Stack:
    if not isinstance(value, list):
        raise PositionError(f"{where}: must be a list of cards, not {_type(value)}")
    return tuple(_card(item, f"{where}[{i}]", seen) for i, item in enumerate(value))


def _payoff(data: dict[str, Any], where: str, ruleset: Ruleset, seen: Counter[Card]) -> tuple[Card | None, int]:
    count = _count(data["payoff_count"], f"{where}.payoff_count")
    if count > ruleset.payoff_size:
        raise PositionError(f"{where}.payoff_count: {count}, but a pay-off pile starts with only {ruleset.payoff_size} cards")
    if "payoff_top" not in data:
        if count > 0:
            raise PositionError(f"{where}.payoff_top: missing, but {where}.payoff_count says the pile holds {count}")
        return None, 0
    top = _card(data["payoff_top"], f"{where}.payoff_top", seen)
    if count < 1:
        raise PositionError(f"{where}.payoff_count: {count}, but {where}.payoff_top shows a card; the count includes the top")
    return top, count


def _side(value: Any, where: str, ruleset: Ruleset, seen: Counter[Card]) -> tuple[Stack, ...]:
    if not isinstance(value, list):
        raise PositionError(f"{where}: must be a list of {ruleset.side_stacks} side stacks, not {_type(value)}")
    if len(value) != ruleset.side_stacks:
        raise PositionError(f"{where}: {len(value)} side stacks, the ruleset has {ruleset.side_stacks}")
    return tuple(_cards(stack, f"{where}[{i}]", seen) for i, stack in enumerate(value))


def _center(value: Any, ruleset: Ruleset, seen: Counter[Card]) -> tuple[Stack, ...]:
    where = "table.center"
    if not isinstance(value, list):
        raise PositionError(f"{where}: must be a list of {ruleset.center_stacks} center stacks, not {_type(value)}")
    if len(value) != ruleset.center_stacks:
        raise PositionError(f"{where}: {len(value)} center stacks, the ruleset has {ruleset.center_stacks}")
    stacks = tuple(_cards(stack, f"{where}[{i}]", seen) for i, stack in enumerate(value))
    for i, stack in enumerate(stacks):
        place = f"{where}[{i}]"
        if len(stack) >= ruleset.complete_at:
            raise PositionError(f"{place}: {len(stack)} cards; a stack of {ruleset.complete_at} is complete and leaves the table")
        for height, card in enumerate(stack):
            if card.rank == KING:
                if height == 0 and not ruleset.king_starts_center:
                    raise PositionError(f"{place}: this ruleset does not let a King start a center stack")
            elif card.rank != height + 1:
                if height == 0:
                    raise PositionError(f"{place}: {_a(card.rank)} cannot start a center stack; it starts with an A")
                raise PositionError(f"{place}: {_a(card.rank)} cannot follow {_a(height)}")
    return stacks


def _visible(view: PlayerView) -> Iterator[tuple[str, Card]]:
    """Every face-up card of the position with the field it comes from, in file order."""
    for i, card in enumerate(view.hand):
        yield f"me.hand[{i}]", card
    if view.payoff_top is not None:
        yield "me.payoff_top", view.payoff_top
    for i, stack in enumerate(view.side):
        for j, card in enumerate(stack):
            yield f"me.side[{i}][{j}]", card
    if view.opponent.payoff_top is not None:
        yield "opponent.payoff_top", view.opponent.payoff_top
    for i, stack in enumerate(view.opponent.side):
        for j, card in enumerate(stack):
            yield f"opponent.side[{i}][{j}]", card
    for i, stack in enumerate(view.center):
        for j, card in enumerate(stack):
            yield f"table.center[{i}][{j}]", card


def _check_copies(view: PlayerView) -> None:
    """No card (rank and suit) more often than there are decks, no rank more often than four times that."""
    decks = view.ruleset.decks
    ranks: Counter[int] = Counter()
    cards: Counter[tuple[int, str]] = Counter()
    for where, card in _visible(view):
        ranks[card.rank] += 1
        if ranks[card.rank] > 4 * decks:
            raise PositionError(
                f"{where}: a {_ordinal(ranks[card.rank])} {RANK_TEXT[card.rank]}, but {_decks(decks)} hold only {4 * decks}"
            )
        if card.suit is not None:  # copies were numbered while reading, so count rank and suit only
            cards[card.rank, card.suit] += 1
            if cards[card.rank, card.suit] > decks:
                raise PositionError(f"{where}: a {_ordinal(cards[card.rank, card.suit])} {card}, but {_decks(decks)} hold only {decks}")


def _check_total(view: PlayerView) -> None:
    me, opp = view, view.opponent
    total = (
        len(me.hand)
        + me.payoff_count
        + sum(map(len, me.side))
        + opp.hand_count
        + opp.payoff_count
        + sum(map(len, opp.side))
        + sum(map(len, view.center))
        + view.stock_count
        + view.shuffling_count
    )
    if total != view.ruleset.deck_size:
        raise PositionError(
            f"counts add up to {total} cards, the ruleset has {view.ruleset.deck_size} "
            "(hands, pay-off piles, side and center stacks, table.stock_count and table.shuffling_in)"
        )


def _a(rank: int) -> str:
    """The rank with its article, as a player says it: "an A", "an 8", "a 7"."""
    text = RANK_TEXT[rank]
    return f"an {text}" if text in ("A", "8") else f"a {text}"


def _ordinal(n: int) -> str:
    return _ORDINALS.get(n, f"{n}th")


def _decks(decks: int) -> str:
    return "one deck" if decks == 1 else f"{decks} decks"
