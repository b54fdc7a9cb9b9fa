"""The shuffle-by-shuffle audit: replay one game's messages with both players' keys and name the first dishonest shuffle.

The end-of-game audit (pbm/protocol/audit.py) needs nothing but the latest state, and finds any card
that is missing, doubled or not a card. When the messages of a game are at hand (the journal
keeps every save), this replay says which shuffle or pool layer broke the deck: each must be
a re-keyed permutation of its input.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.dealer import Deal, Draw
from engine.game import apply, new_game
from engine.moves import parse_turn
from engine.rules import Ruleset
from engine.state import Pool
from pbm.errors import AuditError
from pbm.i18n import _, pgettext
from pbm.protocol import group
from pbm.protocol.group import Point, Scalar


def audit_transcript(
    messages: Sequence[dict[str, Any]], keys: Sequence[Sequence[Scalar]] | None, match: bytes, ruleset: Ruleset, game: int
) -> None:
    """Replay game `game` from `messages` (both directions, in order) with both players' scalars of that game.

    `keys` None takes them from the messages' `secrets` sections. Raises AuditError naming the first
    shuffle, split, reservation, merge or pool layer whose output is not its input under new keys.
    """
    if keys is None:
        keys = keys_of(messages, game)
        if keys is None:
            raise AuditError(_("game {game}: the messages do not hold both players' keys yet").format(game=game))
    _Replay(keys, match, ruleset, game).run(messages)


def keys_of(messages: Sequence[dict[str, Any]], game: int) -> list[list[Scalar]] | None:
    """Both players' scalars of `game` as the messages' `secrets` sections reveal them, or None while one is missing."""
    found: dict[int, list[Scalar]] = {}
    for m in messages:
        section = m.get("secrets", {})
        if section.get("game") == game:
            found[m["from"]] = [group.scalar(k, pgettext("part of a dealing message", "a revealed key")) for k in section["keys"]]
    return [found[0], found[1]] if set(found) == {0, 1} else None


@dataclass(frozen=True, slots=True)
class Opened:
    """A game's cards as both players' keys open them: the deal, and what each turn's end did to the stock (card indices).

    Piles, hands and stocks list the bottom first, the top last; `turns` maps a turn to its `TurnCards`.
    """

    starter: int
    piles: tuple[list[int], list[int]]
    hands: tuple[list[int], list[int]]
    stock: list[int]
    turns: dict[int, TurnCards]


@dataclass(slots=True)
class TurnCards:
    """One turn opened: the hand cards it played (in order), the stock after a shuffle, the draw (and where), the stock after a merge."""

    moves: str = ""
    shown: list[int] = field(default_factory=list)
    shuffle: list[int] | None = None
    draw: list[int] = field(default_factory=list)
    positions: list[int] | None = None
    merge: list[int] | None = None


def open_game(messages: Sequence[dict[str, Any]], keys: Sequence[Sequence[Scalar]], match: bytes, ruleset: Ruleset, game: int) -> Opened:
    """Every card of game `game`, opened with both players' scalars, replaying it as :func:`audit_transcript` does (same errors)."""
    replay = _Replay(keys, match, ruleset, game)
    replay.run(messages)
    return Opened(replay.first, replay.dealt_piles, replay.dealt_hands, replay.dealt_stock, replay.log)


class _Replay:
    def __init__(self, keys: Sequence[Sequence[Scalar]], match: bytes, ruleset: Ruleset, game: int) -> None:
        self.keys = [list(k) for k in keys]
        self.ruleset, self.g = ruleset, game
        self.table = group.card_table(match, game, ruleset.deck_size)
        self.epoch = [0, 0]  # each player's current stock key
        self.seen = [1, 1]  # keys announced so far (the deal key first)
        self.stock: list[int] = []  # top last; unknown order after a shuffle that sent only its top
        self.piles: list[list[int]] = [[], []]
        self.reveals: list[int] = []
        self.end: dict[str, Any] = {}
        self.mover = 0
        self.first = 0
        self.dealt_piles: tuple[list[int], list[int]] = ([], [])
        self.dealt_hands: tuple[list[int], list[int]] = ([], [])
        self.dealt_stock: list[int] = []
        self.log: dict[int, TurnCards] = {}  # what each turn opened (open_game)
        self.now = TurnCards()

    def _fail(self, message: str, **values: object) -> AuditError:
        """The refusal `message` (translated, a template with {game} and `values`) of this game."""
        return AuditError(message.format(game=self.g, **values))

    def _open(self, points: Sequence[Point], *owners: int, epochs: Sequence[int] | None = None) -> list[int | None]:
        """The cards under the current keys of `owners` (or the given epochs)."""
        k = bytes([1]) + bytes(31)
        for n, p in enumerate(owners):
            k = group.smul(k, self.keys[p][epochs[n] if epochs else self.epoch[p]])
        inverse = group.invert(k)
        return [self.table.get(group.mul(inverse, pt)) for pt in points]

    def _announce(self, player: int, text: Any, what: str) -> None:
        e = self.seen[player]
        if e >= len(self.keys[player]) or group.base(self.keys[player][e]) != group.point(text, what):
            # TRANSLATORS: {what} names the shuffle that brings a new key, e.g. "turn 5: player 1's shuffle"
            text = _("game {game}: {what}: player {player}'s revealed keys do not include this key")
            raise self._fail(text, what=what, player=player + 1)
        self.epoch[player], self.seen[player] = e, e + 1

    def run(self, messages: Sequence[dict[str, Any]]) -> None:
        deals = {m["deal"]["step"]: m for m in messages if m.get("deal", {}).get("game") == self.g}
        if 1 not in deals or 2 not in deals:
            # TRANSLATORS: the transcript: every message of the game, as the journal keeps them
            raise self._fail(_("game {game}: the transcript lacks the deal"))
        self._deal(deals[1], deals[2])
        state = None
        for message in messages:
            turn = message.get("turn")
            if not turn or turn.get("game") != self.g:
                continue
            if state is None:
                state = new_game(self, self.ruleset, self.first)
            self.mover = message["from"]
            self.now = self.log[int(turn["turn"])] = TurnCards(moves=str(turn["moves"]))
            reveal = pgettext("part of a dealing message", "a reveal")
            self.reveals = [self.table[group.point(r["point"], reveal)] for r in turn.get("reveals", [])]
            self.end = turn.get("end", {})
            for move in parse_turn(turn["moves"]):
                state = apply(state, move, self)

    def _deal(self, one: dict[str, Any], two: dict[str, Any]) -> None:
        r = self.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        f, s = one["from"], two["from"]
        self.first = f
        for player, message in ((f, one), (s, two)):
            if group.base(self.keys[player][0]) != group.point(
                message["deal"]["deck"]["key"], pgettext("part of a dealing message", "a deal key")
            ):
                # TRANSLATORS: the deal keys: the public keys each player's spite sent with its shuffle of the deck
                raise self._fail(_("game {game}: the revealed keys are not the deal keys"))
        deck = self._open(group.points(one["deal"]["deck"]["points"], pgettext("part of a dealing message", "the deck")), f)
        if sorted(c for c in deck if c is not None) != list(range(size)):
            raise self._fail(_("game {game}: player {player}'s first shuffle of the deal is not the deck"), player=f + 1)
        opened = self._open(group.points(two["deal"]["deck"]["points"], pgettext("part of a dealing message", "the deal")), f, s)
        both = [c for c in opened if c is not None]
        if len(both) != len(opened) or sorted(both) != list(range(size)):
            raise self._fail(_("game {game}: player {player}'s second shuffle of the deal is not the deck"), player=s + 1)
        first, rest = both[: n + h + 1], both[n + h + 1 :]
        if self._open(group.points(two["deal"]["strips"], pgettext("part of a dealing message", "the deal")), f) != first:
            # TRANSLATORS: strips: cards with one player's secret layer taken off, so that the other can read them
            text = _("game {game}: player {player}'s strips of the deal are not the cards dealt to player {other}")
            raise self._fail(text, player=s + 1, other=f + 1)
        self.piles[f] = first[: n - 1]
        self.piles[s] = rest[: n - 1]
        self.tops = {f: first[n - 1], s: first[n + h]}
        self.stock = rest[n - 1 + h :]
        piles: list[list[int]] = [[], []]
        hands: list[list[int]] = [[], []]
        piles[f], piles[s] = first[:n], [*rest[: n - 1], first[n + h]]
        hands[f], hands[s] = first[n : n + h], rest[n - 1 : n - 1 + h]
        self.dealt_piles, self.dealt_hands, self.dealt_stock = (piles[0], piles[1]), (hands[0], hands[1]), list(self.stock)

    # --- the engine's dealer, answering from the transcript ---

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        h = ruleset.hand_size
        return Deal(hands=((), ()), payoff_tops=(Card.from_index(self.tops[0]), Card.from_index(self.tops[1])), unseen=(h, h))

    def turn_up(self, player: int) -> Card:
        self.piles[player].pop()
        return Card.from_index(self.reveals.pop(0))

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        index = self.reveals.pop(0)
        self.now.shown.append(index)
        return Card.from_index(index)

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        x, y, end = self.mover, 1 - self.mover, self.end
        if "shuffle" in end:
            self._announce(x, end["shuffle"]["key"], _("turn {turn}: player {player}'s shuffle").format(turn=turn, player=x + 1))
            new = self._open(group.points(end["shuffle"]["points"], pgettext("part of a dealing message", "the stock")), x, y)
            if None in new or Counter(new) != Counter(self.stock):
                # TRANSLATORS: re-keyed: under the player's new secret layer; a permutation: the same cards in another order
                text = _("game {game}: turn {turn}: player {player}'s shuffle of the stock is not a re-keyed permutation of it")
                raise self._fail(text, turn=turn, player=x + 1)
            self.stock = new  # type: ignore[assignment]
            self.now.shuffle = list(self.stock)
        if count:
            drawn = self._open(group.points(end["draw"]["points"], pgettext("part of a dealing message", "the draw")), y)
            positions = end["draw"].get("positions") or list(range(count))
            if drawn != [self.stock[-1 - p] for p in positions]:
                # TRANSLATORS: the reservation of the draw: the cards drawn for the other player, face down, at the end of the turn
                text = _("game {game}: turn {turn}: player {player}'s reservation of the draw is not the cards of the stock it names")
                raise self._fail(text, turn=turn, player=x + 1)
            taken = {len(self.stock) - 1 - p for p in positions}
            self.stock = [c for i, c in enumerate(self.stock) if i not in taken]
            self.now.draw = [c for c in drawn if c is not None]
            self.now.positions = list(end["draw"]["positions"]) if end["draw"].get("positions") else None
        if merging:
            self._announce(x, end["merge"]["stock"]["key"], _("turn {turn}: player {player}'s merge").format(turn=turn, player=x + 1))
            new = self._open(group.points(end["merge"]["stock"]["points"], pgettext("part of a dealing message", "the stock")), x, y)
            expected = Counter(self.stock) + Counter(c.index for pool in merging for c in pool.cards)
            if None in new or Counter(new) != expected:
                text = _(
                    "game {game}: turn {turn}: player {player}'s merge of the recycled cards into the stock "
                    "is not a re-keyed permutation of them"
                )
                raise self._fail(text, turn=turn, player=x + 1)
            self.stock = new  # type: ignore[assignment]
            self.now.merge = list(self.stock)
        for n, (pool, layer) in enumerate(zip(completed, end.get("pools", []), strict=False)):
            found = self._open(group.points(layer["points"], pgettext("part of a dealing message", "a pool")), x)
            if Counter(found) != Counter(c.index for c in pool.cards):
                # TRANSLATORS: a layer: the player's secret layer on the cards of a recycling pool (a completed center stack)
                text = _("game {game}: turn {turn}: player {player}'s layer on recycling pool {n} holds other cards than the center stack")
                raise self._fail(text, turn=turn, player=x + 1, n=n + 1)
        return Draw((), unseen=count)
