"""A finished game written down turn by turn, and replayed through the engine: the deal, every draw, shuffle and move.

A :class:`GameLog` holds every card of a game: both pay-off piles, both hands and the stock as dealt, and for each
turn its moves, the hand cards they played, the stock after a reshuffle, the cards drawn and the stock after a
merge. :func:`replay` plays it through the rules with a dealer that answers from the log, checking each card
against what the rules allow and each reshuffle against the stock it reorders, and gives every position on the way.
:func:`log_data` and :func:`log_from_data` are its JSON form (docs/record-json.md). Pure: no files, no keys.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, CardNotationError, full_deck
from engine.dealer import Deal, Draw
from engine.game import apply, new_game, resign
from engine.moves import END, HAND, PAYOFF, SIDE, IllegalMoveError, InvalidMoveError, Move, parse_turn
from engine.rules import Ruleset
from engine.state import GameState, Outcome, Pool, Reason, Stack
from engine.text import N_, Message

SCHEMA = 1
HOW = {Reason.PAYOFF_EMPTY: "out", Reason.STOCK_EXHAUSTED: "tie", Reason.RESIGNED: "resigned"}  # the result's "how"


class ReplayError(ValueError):
    """A game log that the rules, or the cards it names, do not bear out (the message says where)."""


@dataclass(frozen=True, slots=True)
class Opening:
    """The deal: each player's pay-off pile and hand, and the stock, every list bottom first (the top last)."""

    piles: tuple[Stack, Stack]
    hands: tuple[Stack, Stack]
    stock: Stack


@dataclass(frozen=True, slots=True)
class TurnLog:
    """One turn: its number, its mover, its moves, the hand cards they played (in order), and its end of turn.

    `shuffle` is the stock after the mover reshuffled it (before the draw), `draw` the cards the next player drew,
    `draw_from` their places in the stock counted from its top (0) when they were not its top cards, and `merge`
    the stock after the completed center stacks were shuffled into it. Stocks list the bottom first.
    """

    turn: int
    by: int
    moves: tuple[Move, ...]
    shown: Stack = ()
    shuffle: Stack | None = None
    draw: Stack = ()
    draw_from: tuple[int, ...] | None = None
    merge: Stack | None = None


@dataclass(frozen=True, slots=True)
class GameLog:
    """A whole game: its rules, who started, the deal, every turn, and how it ended (None: not over yet)."""

    ruleset: Ruleset
    starter: int
    opening: Opening
    turns: tuple[TurnLog, ...]
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Frame:
    """A position of a replayed game with every card face up: the public state and what was face down in it.

    `hands` are the hands in the order the cards came, `piles` the pay-off piles below their tops, `stock` the stock,
    bottom first. `after` is the turn just played (0: the deal) and `cards` the card each of its moves moved (None for `end`).
    """

    after: int
    state: GameState
    hands: tuple[Stack, Stack]
    piles: tuple[Stack, Stack]
    stock: Stack
    cards: tuple[Card | None, ...] = ()


def _said(error: BaseException) -> object:
    """What `error` says: its :class:`~engine.text.Message` when it was raised with one (so a caller may translate it), else its text."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    return str(error)


def _name(cards: Iterable[Card]) -> Counter[str]:
    """A multiset of cards by their text: the two copies of a card are the same card to a log."""
    return Counter(str(c) for c in cards)


@dataclass
class _LogDealer:
    """The engine's dealer for a replay: every card comes from the log, checked against the hands, piles and stock it tracks."""

    log: GameLog
    hands: list[list[Card]] = field(default_factory=lambda: [[], []])
    piles: list[list[Card]] = field(default_factory=lambda: [[], []])
    stock: list[Card] = field(default_factory=list)
    turn: TurnLog | None = None
    shown: list[Card] = field(default_factory=list)

    def fail(self, what: Message) -> ReplayError:
        if self.turn is not None:
            # TRANSLATORS: where a game log breaks the rules: {turn} is the turn's number, {error} what is wrong.
            return ReplayError(Message(N_("turn {turn}: {error}"), turn=self.turn.turn, error=what))
        # TRANSLATORS: a game log's deal breaks the rules: {error} says what is wrong.
        return ReplayError(Message(N_("the deal: {error}"), error=what))

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        o = self.log.opening
        for p in (0, 1):
            if len(o.piles[p]) != ruleset.payoff_size or len(o.hands[p]) != ruleset.hand_size:
                dealt = Message(
                    # TRANSLATORS: {player} is 1 or 2; {payoff} and {hand} are numbers of cards.
                    N_("player {player} was dealt {payoff} pay-off and {hand} hand cards"),
                    player=p + 1,
                    payoff=len(o.piles[p]),
                    hand=len(o.hands[p]),
                )
                raise self.fail(dealt)
        if _name([*o.piles[0], *o.piles[1], *o.hands[0], *o.hands[1], *o.stock]) != _name(full_deck(ruleset.decks)):
            raise self.fail(Message(N_("the piles, hands and stock are not the deck, each card once")))
        self.piles = [list(o.piles[0][:-1]), list(o.piles[1][:-1])]
        self.hands = [list(o.hands[0]), list(o.hands[1])]
        self.stock = list(o.stock)
        h = ruleset.hand_size
        return Deal(hands=((), ()), payoff_tops=(o.piles[0][-1], o.piles[1][-1]), unseen=(h, h))

    def turn_up(self, player: int) -> Card:
        if not self.piles[player]:
            # TRANSLATORS: {player} is 1 or 2.
            raise self.fail(Message(N_("player {player}'s pay-off pile has no card left to turn up"), player=player + 1))
        return self.piles[player].pop()

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        if not self.shown:
            raise self.fail(Message(N_("the moves play more hand cards than the log names")))
        shown = self.shown.pop(0)
        if shown.rank != rank:
            # TRANSLATORS: {rank} is a rank as a number (1 is the Ace, 13 the King), {card} a card in the notation (like 7h).
            raise self.fail(Message(N_("a move plays a {rank} from the hand, but the log names {card}"), rank=rank, card=str(shown)))
        held = next((i for i, c in enumerate(self.hands[player]) if str(c) == str(shown)), None)
        if held is None:
            # TRANSLATORS: {player} is 1 or 2, {card} a card in the notation (like 7h).
            raise self.fail(Message(N_("player {player} plays {card}, which is not in their hand"), player=player + 1, card=str(shown)))
        self.hands[player].pop(held)
        return shown

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        t = self.turn
        if t is None or t.turn != turn:
            # TRANSLATORS: {turn} is a turn's number.
            raise self.fail(Message(N_("the rules end turn {turn} here"), turn=turn))
        if t.shuffle is not None:
            if _name(t.shuffle) != _name(self.stock):
                raise self.fail(Message(N_("the reshuffled stock is not the stock it reshuffles")))
            self.stock = list(t.shuffle)
        if len(t.draw) != count:
            # TRANSLATORS: {drawn} and {count} are numbers of cards.
            raise self.fail(Message(N_("{drawn} cards are drawn where the rules draw {count}"), drawn=len(t.draw), count=count))
        places = t.draw_from if t.draw_from is not None else tuple(range(count))
        if len(places) != count or len(set(places)) != count or any(not 0 <= p < len(self.stock) for p in places):
            raise self.fail(Message(N_("the draw names places that are not in the stock")))
        if [str(self.stock[-1 - p]) for p in places] != [str(c) for c in t.draw]:
            raise self.fail(Message(N_("the cards drawn are not those of the stock at the places they are drawn from")))
        taken = {len(self.stock) - 1 - p for p in places}
        self.stock = [c for i, c in enumerate(self.stock) if i not in taken]
        self.hands[player].extend(t.draw)
        if bool(merging) != (t.merge is not None):
            raise self.fail(Message(N_("the log merges completed stacks into the stock where the rules do not, or not where they do")))
        if t.merge is not None:
            if _name(t.merge) != _name([*self.stock, *(c for pool in merging for c in pool.cards)]):
                raise self.fail(Message(N_("the stock after the merge is not the stock and the completed stacks")))
            self.stock = list(t.merge)
        return Draw((), unseen=count)

    def frame(self, after: int, state: GameState, cards: tuple[Card | None, ...] = ()) -> Frame:
        return Frame(
            after,
            state,
            (tuple(self.hands[0]), tuple(self.hands[1])),
            (tuple(self.piles[0]), tuple(self.piles[1])),
            tuple(self.stock),
            cards,
        )


def _moved(state: GameState, move: Move, dealer: _LogDealer) -> Card | None:
    """The card `move` moves in `state`: the pay-off top, a side stack's top, or the next hand card the log names."""
    me = state.players[state.to_move]
    if move.source == PAYOFF:
        return me.payoff_top
    if move.source == SIDE:
        pile = me.side[move.source_index] if move.source_index < len(me.side) else ()
        return pile[-1] if pile else None
    if move.source == HAND:
        return dealer.shown[0] if dealer.shown else None
    return None


def replay(log: GameLog) -> list[Frame]:
    """Every position of `log`'s game: after the deal, then after each turn; raises ReplayError where the log breaks the rules.

    The moves must be legal, each turn's moves must end it, the hand cards played must be in the hand, each reshuffle
    must reorder the stock it shuffles, each draw must be the stock's cards, and the game must end as `log.outcome` says.
    """
    r = log.ruleset
    dealer = _LogDealer(log)
    state = new_game(dealer, r, log.starter)
    frames = [dealer.frame(0, state)]
    for t in log.turns:
        dealer.turn, dealer.shown = t, list(t.shown)
        if state.outcome is not None:
            raise dealer.fail(Message(N_("the game is over already")))
        if t.turn != state.turn or t.by != state.to_move:
            due = Message(
                # TRANSLATORS: {player} and {by} are 1 or 2, {turn} a turn's number.
                N_("the rules have player {player} play turn {turn} here, not player {by}"),
                player=state.to_move + 1,
                turn=state.turn,
                by=t.by + 1,
            )
            raise dealer.fail(due)
        if not t.moves:
            raise dealer.fail(Message(N_("a turn has at least one move")))
        cards: list[Card | None] = []
        for n, move in enumerate(t.moves):
            if state.outcome is not None or state.turn != t.turn:
                # TRANSLATORS: {n} is the move's number in its turn, {move} the move in the notation (like 7-c2).
                raise dealer.fail(Message(N_("the turn is over before its move {n}, {move}"), n=n + 1, move=str(move)))
            cards.append(_moved(state, move, dealer))
            try:
                state = apply(state, move, dealer)
            except IllegalMoveError as e:
                # TRANSLATORS: {move} is a move in the notation (like 7-c2), {error} why the rules refuse it.
                raise dealer.fail(Message(N_("{move}: {error}"), move=str(move), error=_said(e))) from e
        if dealer.shown:
            raise dealer.fail(Message(N_("the log names more hand cards than the moves play")))
        if state.outcome is None and state.turn == t.turn:
            raise dealer.fail(Message(N_("the moves do not end the turn")))
        frames.append(dealer.frame(t.turn, state, tuple(None if m.source == END else c for m, c in zip(t.moves, cards, strict=True))))
    dealer.turn = None
    if state.outcome is None and log.outcome is not None and log.outcome.reason is Reason.RESIGNED and log.outcome.winner is not None:
        state = resign(state, 1 - log.outcome.winner)  # the loser conceded after the last turn: the rules score it (R10)
        frames[-1] = dealer.frame(frames[-1].after, state, frames[-1].cards)
    if state.outcome != log.outcome:
        raise ReplayError(_ends_otherwise(log.outcome, state.outcome))
    return frames


def _ends_otherwise(said: Outcome | None, got: Outcome | None) -> Message:
    """What a player reads when a log says its game ends as `said` (None: it goes on) and its moves say `got`."""
    if said is None:
        assert got is not None, "the log and its moves differ"
        # TRANSLATORS: {got} is how the game ended, as data: {'winner': 0, 'score': 3, 'how': 'out'}.
        return Message(N_("the log says the game goes on, but its moves say it ends {got}"), got=outcome_data(got))
    if got is None:
        # TRANSLATORS: {said} is how the game ended, as data: {'winner': 0, 'score': 3, 'how': 'out'}.
        return Message(N_("the log says the game ends {said}, but its moves say it goes on"), said=outcome_data(said))
    # TRANSLATORS: {said} and {got} are how the game ended, as data: {'winner': 0, 'score': 3, 'how': 'out'}.
    return Message(N_("the log says the game ends {said}, but its moves say it ends {got}"), said=outcome_data(said), got=outcome_data(got))


# --- the JSON form (docs/record-json.md) ---


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """How a game ended, as the record says it: the winner's seat (None for a tie), the points they scored, and how."""
    return {"winner": outcome.winner, "score": outcome.points, "how": HOW[outcome.reason]}


def log_data(log: GameLog) -> dict[str, Any]:
    """`log` as plain JSON data: the deal, then each turn with the card each move moved (replayed, so checked: ReplayError)."""
    frames = replay(log)
    o = log.opening
    turns = []
    for t, frame in zip(log.turns, frames[1:], strict=True):
        turns.append(
            {
                "turn": t.turn,
                "by": t.by,
                "moves": " ".join(str(m) for m in t.moves),
                "cards": [None if c is None else str(c) for c in frame.cards],
                "shuffle": None if t.shuffle is None else _cards(t.shuffle),
                "draw": _cards(t.draw),
                "draw_from": None if t.draw_from is None else list(t.draw_from),
                "merge": None if t.merge is None else _cards(t.merge),
            }
        )
    return {
        "starter": log.starter,
        "deal": {"payoff": [_cards(p) for p in o.piles], "hands": [_cards(h) for h in o.hands], "stock": _cards(o.stock)},
        "turns": turns,
        "result": None if log.outcome is None else outcome_data(log.outcome),
    }


def _parse_cards(value: Any, what: str) -> Stack:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        # TRANSLATORS: {field} names a field of a record's JSON (like deal.stock or turns[3].draw).
        raise ReplayError(Message(N_("{field} is not a list of cards"), field=what))
    try:
        cards = tuple(Card.parse(c) for c in value)
    except CardNotationError as e:
        # TRANSLATORS: {field} names a field of a record's JSON (like deal.stock or turns[3].draw), {error} what is wrong with it.
        raise ReplayError(Message(N_("{field}: {error}"), field=what, error=_said(e))) from e
    if any(c.suit is None for c in cards):
        # TRANSLATORS: {field} names a field of a record's JSON (like deal.stock or turns[3].draw).
        raise ReplayError(Message(N_("{field}: every card of a record has its suit"), field=what))
    return cards


def _bad_result(value: Any) -> Message:
    # TRANSLATORS: {result} is the result as a record's JSON gives it.
    return Message(N_("the result {result} is not one a record holds"), result=repr(value))


def _outcome(value: Any) -> Outcome | None:
    if value is None:
        return None
    how = {v: k for k, v in HOW.items()}
    if not isinstance(value, Mapping) or value.get("how") not in how:
        raise ReplayError(_bad_result(value))
    winner, points = value.get("winner"), value.get("score")
    if winner not in (0, 1, None) or type(points) is not int:
        raise ReplayError(_bad_result(value))
    return Outcome(how[value["how"]], winner, points)


def log_from_data(data: Mapping[str, Any], ruleset: Ruleset) -> GameLog:
    """The log that :func:`log_data` wrote; raises ReplayError if `data` is not one, or its game does not replay to it."""
    try:
        deal = data["deal"]
        opening = Opening(
            (_parse_cards(deal["payoff"][0], "deal.payoff[0]"), _parse_cards(deal["payoff"][1], "deal.payoff[1]")),
            (_parse_cards(deal["hands"][0], "deal.hands[0]"), _parse_cards(deal["hands"][1], "deal.hands[1]")),
            _parse_cards(deal["stock"], "deal.stock"),
        )
        turns = []
        for n, t in enumerate(data["turns"]):
            where = f"turns[{n}]"
            moves = tuple(parse_turn(t["moves"]))
            cards = t["cards"]
            if not isinstance(cards, list) or len(cards) != len(moves):
                # TRANSLATORS: {field} names a field of a record's JSON (like turns[3].cards).
                raise ReplayError(Message(N_("{field} does not name one card a move"), field=f"{where}.cards"))
            shown = _parse_cards([c for m, c in zip(moves, cards, strict=True) if m.source == HAND], f"{where}.cards")
            turns.append(
                TurnLog(
                    int(t["turn"]),
                    int(t["by"]),
                    moves,
                    shown,
                    None if t["shuffle"] is None else _parse_cards(t["shuffle"], f"{where}.shuffle"),
                    _parse_cards(t["draw"], f"{where}.draw"),
                    None if t["draw_from"] is None else tuple(int(p) for p in t["draw_from"]),
                    None if t["merge"] is None else _parse_cards(t["merge"], f"{where}.merge"),
                )
            )
        log = GameLog(ruleset, int(data["starter"]), opening, tuple(turns), _outcome(data["result"]))
    except (KeyError, IndexError, TypeError, ValueError, InvalidMoveError) as e:
        if isinstance(e, ReplayError):
            raise
        # TRANSLATORS: {error} is what the reading found wrong (often in Python's own English words).
        raise ReplayError(Message(N_("the record is incomplete or malformed ({error})"), error=_said(e))) from e
    again = log_data(log)
    for key in ("starter", "deal", "turns", "result"):
        if again[key] != data[key]:
            # TRANSLATORS: {key} is a key of a record's JSON (starter, deal, turns or result).
            raise ReplayError(Message(N_("the record's {key} is not what its game replays to"), key=key))
    return log


def hand_order(cards: Sequence[Card]) -> list[Card]:
    """A hand as a board shows it: by rank, then suit."""
    return sorted(cards, key=lambda c: (c.rank, c.suit or "", c.copy))
