"""How fast and how big the fair-dealing protocol is: a proof of shuffle, CPU per turn and per game, bytes per message.

A proof of shuffle of the whole deck (104 points) is made and checked `--rounds` times. Then two
parties in memory play whole g4a games with the engine's bots; only the time spent inside the
Party (dealer calls, send, receive, settle) counts, not the engine or the bots.

    python benchmarks/protocol_speed.py [--games 5] [--seed 1] [--bots greedy greedy] [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import tomli_w

from engine.bots import make_bot
from engine.rules import Ruleset
from pbm.protocol import group, shuffle
from pbm.protocol.dealing import Party
from pbm.protocol.deck import seeded_rng
from pbm.protocol.seat import Seat

TURN_BUDGET_MS = 20.0
GAME_BUDGET_S = 5.0
PROOF_BUDGET_MS = 250.0


class TimedParty(Party):
    """A Party that adds up the CPU time spent in its public methods."""

    spent = 0.0

    def _timed(self, name: str, *args: Any) -> Any:
        start = time.process_time()
        try:
            return getattr(super(), name)(*args)
        finally:
            self.spent += time.process_time() - start

    def deal(self, *a: Any) -> Any:
        return self._timed("deal", *a)

    def turn_up(self, *a: Any) -> Any:
        return self._timed("turn_up", *a)

    def show(self, *a: Any) -> Any:
        return self._timed("show", *a)

    def end_turn(self, *a: Any) -> Any:
        return self._timed("end_turn", *a)

    def send(self, *a: Any) -> Any:
        return self._timed("send", *a)

    def receive(self, *a: Any) -> Any:
        return self._timed("receive", *a)

    def settle(self, *a: Any) -> Any:
        return self._timed("settle", *a)


def one_game(seed: int, bots: tuple[str, str]) -> tuple[list[float], list[float], float, list[int], list[int]]:
    """Play game 1 of a match to its audit: (mover ms per turn, receiver ms per turn, game s both sides, turn sizes, deal sizes)."""
    ruleset = Ruleset(target_score=1)
    match = seed.to_bytes(16, "big")
    seats = [Seat(TimedParty(p, match, ruleset, seeded_rng(f"bench/{seed}/{p}"))) for p in (0, 1)]
    players = [make_bot(bots[p], seed + p) for p in (0, 1)]
    mover_ms: list[float] = []
    receiver_ms: list[float] = []
    turn_sizes: list[int] = []
    deal_sizes: list[int] = []
    message = seats[0].send().to_data()
    cur = 1
    while True:
        size = len(tomli_w.dumps(message).encode())
        (turn_sizes if "turn" in message else deal_sizes).append(size)
        seat = seats[cur]
        before = seat.party.spent
        seat.receive(message)
        if "turn" in message:
            receiver_ms.append((seat.party.spent - before) * 1000)
        if seat.party.record.is_over and seats[1 - cur].party.game.audited and seat.party.game.audited:  # type: ignore[union-attr]
            break
        before = seat.party.spent
        moved = seat.my_turn
        while seat.my_turn:
            seat.play(players[cur].choose(seat.state.view(cur)))  # type: ignore[union-attr]
        message = seat.send().to_data()
        if moved:
            mover_ms.append((seat.party.spent - before) * 1000)
        cur = 1 - cur
    total = seats[0].party.spent + seats[1].party.spent
    return mover_ms, receiver_ms, total, turn_sizes, deal_sizes


def proof_timings(rounds: int, size: int = 104) -> tuple[list[float], list[float]]:
    """CPU ms to make, and to parse and check, a proof of shuffle of `size` points, `rounds` times."""
    rng = seeded_rng("bench/proof")
    match = bytes(16)
    ctx = shuffle.ShuffleContext(match, 1, 0, 1, "the first shuffle of the deck")
    inputs = group.encodings(match, 1, size)
    make, check = [], []
    for _ in range(rounds):
        k = group.random_scalar(rng)
        key = group.base(k)
        start = time.process_time()
        outputs, proof = shuffle.shuffle(ctx, k, group.GENERATOR, key, inputs, rng)
        raw = proof.to_bytes()
        middle = time.process_time()
        shuffle.verify(ctx, shuffle.ShuffleProof.from_bytes(raw, size, "bench"), group.GENERATOR, key, inputs, outputs)
        make.append((middle - start) * 1000)
        check.append((time.process_time() - middle) * 1000)
    return make, check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", nargs=2, default=["greedy", "greedy"])
    parser.add_argument("--rounds", type=int, default=7, help="proofs of shuffle of 104 points to time")
    args = parser.parse_args()
    make, check = proof_timings(args.rounds)
    both = [m + c for m, c in zip(make, check, strict=True)]
    print(f"proof of shuffle of 104 points, {args.rounds} rounds, CPU time: make median {statistics.median(make):.1f} ms, ", end="")
    print(f"parse and check median {statistics.median(check):.1f} ms, both median {statistics.median(both):.1f} ms", end="")
    print(f" (max {max(both):.1f} ms)")
    print(f"  budget (make and check) <= {PROOF_BUDGET_MS:.0f} ms: {'ok' if statistics.median(both) <= PROOF_BUDGET_MS else 'OVER'}")
    movers, receivers, games, sizes, deals, turns = [], [], [], [], [], []
    for g in range(args.games):
        m, r, total, s, d = one_game(args.seed + g, tuple(args.bots))  # type: ignore[arg-type]
        movers += m
        receivers += r
        games.append(total)
        turns.append(len(m))
        sizes += s
        deals += d
    print(f"g4a, {args.games} games, {len(movers)} turns, bots {args.bots[0]} vs {args.bots[1]}, CPU time inside the Party only")
    print(f"  mover    per turn: median {statistics.median(movers):6.2f} ms   p90 {_p90(movers):6.2f} ms   max {max(movers):6.2f} ms")
    print(
        f"  receiver per turn: median {statistics.median(receivers):6.2f} ms   p90 {_p90(receivers):6.2f} ms   max {max(receivers):6.2f} ms"
    )
    longest = turns[games.index(max(games))]
    print(
        f"  whole game, both sides, deal and audit included: median {statistics.median(games):.3f} s   "
        f"max {max(games):.3f} s (a game of {longest} turns)"
    )
    print(f"  turn message (TOML, tomli_w): median {statistics.median(sizes):.0f} B   max {max(sizes)} B")
    print(f"  deal and end-of-game messages: max {max(deals)} B")
    ok_turn = max(statistics.median(movers), statistics.median(receivers)) <= TURN_BUDGET_MS
    ok_game = max(games) <= GAME_BUDGET_S
    print(f"  budget per turn (one side, median) <= {TURN_BUDGET_MS:.0f} ms: {'ok' if ok_turn else 'OVER'}")
    print(f"  budget per game (both sides) <= {GAME_BUDGET_S:.0f} s: {'ok' if ok_game else 'OVER'}")


def _p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * (len(values) - 1))]


if __name__ == "__main__":
    main()
