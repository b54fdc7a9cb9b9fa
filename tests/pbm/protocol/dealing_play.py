"""Helpers for the dealing tests: two parties in memory, driven by engine bots, checked after every message."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tomli_w

from engine.bots import make_bot
from engine.rules import Ruleset
from pbm.protocol.dealing import Party
from pbm.protocol.deck import seeded_rng
from pbm.protocol.seat import Seat

MATCH = bytes(range(16))
SMALL = Ruleset(name="small", decks=1, payoff_size=5, hand_size=3, side_stacks=2, center_stacks=2, target_score=100)
TINY = Ruleset(name="tiny", decks=1, payoff_size=3, hand_size=2, side_stacks=1, center_stacks=1, target_score=100)


def make_seats(ruleset: Ruleset, seed: int | str, classes: tuple[type[Party], type[Party]] = (Party, Party)) -> list[Seat]:
    """Two seats of a fresh match, each party with its own seeded randomness."""
    return [Seat(classes[p](p, MATCH, ruleset, seeded_rng(f"{seed}/{p}"))) for p in (0, 1)]


def public(seat: Seat) -> dict[str, Any]:
    """The public record of the current game, without the flags that legitimately differ for a moment."""
    data = seat.party.game.to_data()  # type: ignore[union-attr]
    del data["over"], data["audited"]
    return data


def table_of(seat: Seat) -> tuple[Any, ...]:
    """What both players see alike: center, side stacks, pay-off tops and counts, hand counts, stock and pools."""
    s = seat.state
    assert s is not None
    players = tuple((p.payoff_top, p.payoff_count, p.side, p.hand_count) for p in s.players)
    return (s.turn, s.to_move, s.center, s.stock_count, s.pools, players, s.outcome)


def roundtrip(message: dict[str, Any]) -> dict[str, Any]:
    """The message as the other side reads it from TOML."""
    return tomllib.loads(tomli_w.dumps(message))


def _comparable(seat: Seat, other: Seat) -> bool:
    """Both seats in the same game at the same turn (or its end), neither game audited (audits drop the points)."""
    a, b = seat.party.game, other.party.game
    if seat.state is None or other.state is None or a is None or b is None or a.number != b.number or a.audited or b.audited:
        return False
    return seat.state.turn == other.state.turn or seat.state.outcome is not None


def _match_done(seat: Seat, other: Seat) -> bool:
    g, h = seat.party.game, other.party.game
    return seat.party.record.is_over and g is not None and g.audited and g.number in seat.party.sent_secrets and h is not None and h.audited


@dataclass
class Played:
    seats: list[Seat]
    messages: list[dict[str, Any]] = field(default_factory=list)
    games_dealt: int = 0
    merges: int = 0
    outcomes: list[Any] = field(default_factory=list)


def play(
    seats: list[Seat],
    bots: tuple[str, str] = ("greedy", "greedy"),
    seed: int = 0,
    max_messages: int = 20_000,
    stop_after_deal: int | None = None,
    tamper: Callable[[int, dict[str, Any]], dict[str, Any]] | None = None,
    check: bool = True,
) -> Played:
    """Play until the match is over (or game `stop_after_deal` is dealt), both sides checked after every message."""
    players = [make_bot(bots[p], seed + p) for p in (0, 1)]
    out = Played(seats)
    message = seats[0].send().to_data()
    cur = 1
    while len(out.messages) < max_messages:
        message = roundtrip(message)
        out.messages.append(message)
        if "merge" in message.get("turn", {}).get("end", {}):
            out.merges += 1
        if tamper is not None:
            message = tamper(len(out.messages), message)
        seat, other = seats[cur], seats[1 - cur]
        before = seat.state
        seat.receive(message)
        if seat.state is not before and seat.state is not None and seat.state.turn == 1 and not seat.moves:
            out.games_dealt += 1
        if seat.state is not None and seat.state.outcome is not None and (not out.outcomes or out.outcomes[-1][0] != id(seat.state)):
            out.outcomes.append((id(seat.state), seat.state.outcome))
        if check and _comparable(seat, other):
            assert table_of(seat) == table_of(other)
            assert public(seat) == public(other)
        if stop_after_deal is not None and all(s.party.game is not None and s.party.game.number >= stop_after_deal for s in seats):
            return out
        while seat.my_turn:
            seat.play(players[cur].choose(seat.state.view(cur)))  # type: ignore[union-attr]
        if _match_done(seat, other):
            return out
        message = seat.send().to_data()
        cur = 1 - cur
    raise AssertionError(f"no end after {max_messages} messages")
