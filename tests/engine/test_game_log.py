"""engine/record.py: a whole game written down as a log replays through the rules to every position it passed through."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import pytest

from engine.bots import make_bot
from engine.cards import Card
from engine.dealer import Deal, Draw, LocalDealer
from engine.game import apply, new_game
from engine.moves import HAND, Move
from engine.record import GameLog, Opening, ReplayError, TurnLog, log_data, log_from_data, replay
from engine.rules import G4A, Ruleset
from engine.state import GameState, Pool


@dataclass
class _Recorder:
    """A LocalDealer that writes down what it deals: the deal, the hand cards shown, each draw and each merged stock."""

    inner: LocalDealer
    opening: Opening | None = None
    shown: list[Card] = field(default_factory=list)
    ends: dict[int, tuple[tuple[Card, ...], tuple[Card, ...] | None]] = field(default_factory=dict)

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        deal = self.inner.deal(ruleset, starter)
        piles = tuple((*self.inner.facedown[p], deal.payoff_tops[p]) for p in (0, 1))
        self.opening = Opening((piles[0], piles[1]), deal.hands, tuple(self.inner.stock))
        return deal

    def turn_up(self, player: int) -> Card:
        return self.inner.turn_up(player)

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        shown = self.inner.show(player, rank, card)
        self.shown.append(shown)
        return shown

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        draw = self.inner.end_turn(turn, completed, merging, player, count)
        self.ends[turn] = (draw.cards, tuple(self.inner.stock) if merging else None)
        return draw


def _played(seed: int, ruleset: Ruleset = G4A) -> tuple[GameLog, list[GameState]]:
    """A game between greedy bots, its log, and the position after the deal and after each turn."""
    dealer = _Recorder(LocalDealer(seed))
    state = new_game(dealer, ruleset, seed % 2)
    bots = (make_bot("greedy", seed), make_bot("greedy", seed + 1))
    states, turns = [state], []
    while state.outcome is None:
        turn, by, moves = state.turn, state.to_move, []
        dealer.shown = []
        while state.outcome is None and state.turn == turn:
            move: Move = bots[by].choose(state.view(by))
            moves.append(move)
            state = apply(state, move, dealer)
        draw, merge = dealer.ends.get(turn, ((), None))
        turns.append(TurnLog(turn, by, tuple(moves), tuple(dealer.shown), None, draw, None, merge))
        states.append(state)
    assert dealer.opening is not None
    return GameLog(ruleset, seed % 2, dealer.opening, tuple(turns), state.outcome), states


def _names(cards: tuple[Card, ...]) -> Counter[str]:
    return Counter(str(c) for c in cards)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_log_replays_to_every_position_of_its_game(seed: int) -> None:
    log, states = _played(seed)
    frames = replay(log)
    assert len(frames) == len(states) == len(log.turns) + 1
    assert any(t.merge is not None for t in log.turns), "the game should recycle a center stack"
    for frame, state in zip(frames, states, strict=True):
        got = frame.state
        assert (got.center, got.stock_count, got.pools, got.turn, got.to_move, got.outcome) == (
            state.center,
            state.stock_count,
            state.pools,
            state.turn,
            state.to_move,
            state.outcome,
        )
        for p in (0, 1):
            mine, theirs = got.players[p], state.players[p]
            assert (mine.payoff_top, mine.payoff_count, mine.side) == (theirs.payoff_top, theirs.payoff_count, theirs.side)
            assert _names(frame.hands[p]) == _names(theirs.hand) and mine.hand_count == theirs.hand_count
        assert len(frame.stock) == got.stock_count


def test_the_json_form_reads_back_to_the_same_game() -> None:
    log, _ = _played(4)
    data = json.loads(json.dumps(log_data(log)))
    again = log_from_data(data, G4A)
    assert log_data(again) == data
    assert data["result"]["how"] == "out" and data["result"]["winner"] == log.outcome.winner  # type: ignore[union-attr]
    moved = [c for t in data["turns"] for m, c in zip(t["moves"].split(), t["cards"], strict=True) if m != "end"]
    assert all(moved)


def test_a_log_the_rules_do_not_bear_out_is_refused() -> None:
    log, _ = _played(5)
    data = log_data(log)
    broken = json.loads(json.dumps(data))
    stock, pile = broken["deal"]["stock"], broken["deal"]["payoff"][0]
    stock[0] = next(c for c in pile if c != stock[0])  # a pay-off card twice, the stock's bottom card nowhere
    with pytest.raises(ReplayError, match="not the deck"):
        log_from_data(broken, G4A)
    hand = next(t for t in log.turns if any(m.source == HAND for m in t.moves))
    other = next(c for c in log.opening.stock if c.rank != hand.shown[0].rank)
    swapped = GameLog(
        log.ruleset,
        log.starter,
        log.opening,
        tuple(
            t if t is not hand else TurnLog(t.turn, t.by, t.moves, (other, *t.shown[1:]), t.shuffle, t.draw, t.draw_from, t.merge)
            for t in log.turns
        ),
        log.outcome,
    )
    with pytest.raises(ReplayError, match=f"turn {hand.turn}: "):
        replay(swapped)
    cut = GameLog(log.ruleset, log.starter, log.opening, log.turns[:-1], log.outcome)
    with pytest.raises(ReplayError, match="goes on"):
        replay(cut)


def test_a_draw_from_named_places_must_take_the_cards_there() -> None:
    log, _ = _played(6)
    n, turn = next((n, t) for n, t in enumerate(log.turns) if len(t.draw) >= 2 and t.merge is None)
    k = len(turn.draw)

    def changed(draw_from: tuple[int, ...], draw: tuple[Card, ...] = turn.draw) -> GameLog:
        again = TurnLog(turn.turn, turn.by, turn.moves, turn.shown, turn.shuffle, draw, draw_from, turn.merge)
        return GameLog(log.ruleset, log.starter, log.opening, (*log.turns[:n], again, *log.turns[n + 1 :]), log.outcome)

    assert [f.stock for f in replay(changed(tuple(range(k))))] == [f.stock for f in replay(log)]  # the top, named
    with pytest.raises(ReplayError, match="places they are drawn from"):
        replay(changed((1, 0, *range(2, k))))
    frame = replay(log)[n]  # the stock before that turn: its bottom cards, drawn from the bottom, up to that turn's end
    stock = frame.stock
    bottom = changed(tuple(range(len(stock) - 1, len(stock) - 1 - k, -1)), tuple(stock[:k]))
    upto = GameLog(log.ruleset, log.starter, log.opening, bottom.turns[: n + 1], None)
    after = replay(upto)[-1]
    assert after.stock == tuple(stock[k:]) and Counter(map(str, stock[:k])) <= Counter(map(str, after.hands[turn.by ^ 1]))
