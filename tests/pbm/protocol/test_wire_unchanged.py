"""The protocol's bytes do not move: seeded games give the very messages and saved states they gave before.

The digests were recorded from the code before the Party was recomposed (issue 18): every message
as it is sent (its keys in the order a save writes them) and the sender's and receiver's saved
protocol state after every message, over seeded games that deal, merge, shuffle before a merge,
tie, and end a match.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from typing import Any

import tomli_w
from dealing_play import SMALL, TINY, make_seats, roundtrip

from engine.bots import make_bot
from engine.rules import Ruleset
from pbm.canonical import canonical
from pbm.protocol.dealing import Party

GAMES: dict[str, tuple[Ruleset, int, tuple[str, str], int]] = {
    # name: ruleset, seed, bots, stop once this game is dealt on both sides (0: the match to its end)
    "small-1": (SMALL, 1, ("greedy", "greedy"), 3),
    "small-70": (SMALL, 70, ("greedy", "greedy"), 2),  # owes a shuffle just before a merge: draws at random places
    "tiny-0": (TINY, 0, ("random", "random"), 3),  # ties when the stock runs out
    "g4a-match": (Ruleset(target_score=1), 7, ("greedy", "random"), 0),
}

# sha256 over the messages (in order, as written: json.dumps keeps the order of their keys) and over their canonical JSON
# with both parties' saved public state after each message, recorded from the code before the change
DIGESTS = {
    "small-1": (
        "ce433b1fee3f6584b4c53eebf7cf98652f49d73377c2ab42b7be94ae91c83379",
        "e7cb987b10eacf2543b3417a8f184033fd5700cbe84c5557fc1295511b80e7ea",
    ),
    "small-70": (
        "952f6d400ca55c2106346b2f9ca95a38d9b8c507a18568840dca038426b000c2",
        "b647bd2f41a52af3e776e85cabdebe21ad13aaf7fca0649d8c26aa256e410b21",
    ),
    "tiny-0": (
        "3fce4b1a51b5d7904f6ff1144c4ce6823b289ff8b7cce47e8e50040bffa56d00",
        "653f8c3c952792434c3130241995b2596eb0f93d8b21c1fab9e158e46faad027",
    ),
    "g4a-match": (
        "2aa79601a9333a7ccc21a93f48fcdc8cdf91462b76a663d9a3ec97a3a9ce4695",
        "a10a8c2fc1ab8003102390f06a49f0141373bd4e3296b5748347ddbc022bc031",
    ),
}


def _data(message: Any) -> dict[str, Any]:
    return _as_4(message if isinstance(message, dict) else message.to_data())


def _as_4(data: dict[str, Any]) -> dict[str, Any]:
    """A message or saved state of protocol 5 as protocol 4 wrote it: 5 changed nothing but the version number where no one resigns."""
    return {k: 4 if k in ("v", "their_v") and v == 5 else v for k, v in data.items()}


def _transcript(ruleset: Ruleset, seed: int, bots: tuple[str, str], stop: int) -> tuple[list[dict[str, Any]], list[bytes]]:
    """Every message of the seeded game as sent, and the canonical JSON of each with both parties' saved states after it."""
    seats = make_seats(ruleset, seed)
    players = [make_bot(bots[p], seed + p) for p in (0, 1)]
    messages: list[dict[str, Any]] = []
    states: list[bytes] = []
    cur = 1
    message = _data(seats[0].send())
    for _ in range(5000):
        messages.append(message)
        seat = seats[cur]
        seat.receive(roundtrip({**message, "v": 5} if message["v"] == 4 else message))
        states.append(canonical({"message": message, "sides": [_as_4(s.party.export_public()) for s in seats]}))
        if stop and all(s.party.game is not None and s.party.game.number >= stop for s in seats):
            return messages, states
        while seat.my_turn:
            seat.play(players[cur].choose(seat.state.view(cur)))  # type: ignore[union-attr]
        g, h = seat.party.game, seats[1 - cur].party.game
        done = g is not None and g.audited and g.number in seat.party.sent_secrets and h is not None and h.audited
        if seat.party.record.is_over and done:
            return messages, states
        message = _data(seat.send())
        cur = 1 - cur
    raise AssertionError("the game did not end")


def _digests(name: str) -> tuple[str, str]:
    messages, states = _transcript(*GAMES[name])
    written = hashlib.sha256("\n".join(json.dumps(m) for m in messages).encode()).hexdigest()
    return written, hashlib.sha256(b"\n".join(states)).hexdigest()


def test_seeded_games_write_the_same_messages_and_states_as_before() -> None:
    assert {name: _digests(name) for name in GAMES} == DIGESTS


def test_a_saved_state_read_back_is_saved_the_same() -> None:
    """export_public of a restored party is the state it was restored from, at every point of a seeded game (the outbox too)."""
    seats = make_seats(SMALL, 1)
    players = [make_bot("greedy", 1 + p) for p in (0, 1)]
    cur, outboxes = 1, 0
    message = _data(seats[0].send())
    while not all(s.party.game is not None and s.party.game.number >= 2 for s in seats):
        seat = seats[cur]
        seat.receive(roundtrip(message))
        for s in seats:
            public = tomllib.loads(tomli_w.dumps(s.party.export_public()))
            outboxes += bool(public["outbox"])
            restored = Party.restore(public, s.party.export_secrets(), SMALL, s.party.rng)
            assert restored.export_public() == public
        while seat.my_turn:
            seat.play(players[cur].choose(seat.state.view(cur)))  # type: ignore[union-attr]
        message = _data(seat.send())
        cur = 1 - cur
    assert outboxes >= 2  # states saved with a deal step waiting in the outbox
