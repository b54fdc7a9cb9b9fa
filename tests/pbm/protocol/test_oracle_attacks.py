"""A modified client tries to use the other player's client as a decryption oracle, and is refused before anything is stripped.

Each attack is first shown to work against a client that skips the proof of shuffle (so the test
can fail), then refused on receipt by the real client, which opens nothing of the poisoned message.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from dealing_play import MATCH, SMALL, make_seats, play, roundtrip

from pbm.errors import ProofError, ProtocolError
from pbm.protocol import group, shuffle
from pbm.protocol.dealing import Party
from pbm.protocol.deck import seeded_rng
from pbm.protocol.group import GENERATOR, Point
from pbm.protocol.messages import Shuffle
from pbm.protocol.outgoing import TurnMaking
from pbm.protocol.shuffle import ShuffleProof

N, H = SMALL.payoff_size, SMALL.hand_size
BLIND = group.random_scalar(seeded_rng("blind"))


@contextlib.contextmanager
def _strips_counted() -> Iterator[list[int]]:
    """Count every inversion of a scalar (every strip and re-key a client makes) while the block runs."""
    calls: list[int] = []
    real = group.invert

    def counting(k: bytes) -> bytes:
        calls.append(1)
        return real(k)

    group.invert = counting  # type: ignore[assignment]
    try:
        yield calls
    finally:
        group.invert = real  # type: ignore[assignment]


@contextlib.contextmanager
def _no_shuffle_checks() -> Iterator[None]:
    """A client that trusts shuffles, as spite did before proofs of shuffle: what the attacks were written against."""
    real = shuffle.verify
    shuffle.verify = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        yield
    finally:
        shuffle.verify = real  # type: ignore[assignment]


def _reprove(party: Party, data: dict[str, Any], inputs: list[Point], base: Point, k: bytes, name: str, turn: int, seq: int) -> None:
    """Replace the proof in `data` (a shuffle table) by one the honest algorithm makes for its points, as a cheater would try."""
    points = [group.point(p, "a point") for p in data["points"]]
    perm = list(range(len(points)))  # any claim: there is no permutation that makes a poisoned list honest
    ctx = shuffle.ShuffleContext(party.match, party.game.number if party.game else 1, turn, seq, name)  # type: ignore[union-attr]
    proof = shuffle.prove(ctx, k, base, group.point(data["key"], "key"), inputs, points, perm, seeded_rng("forged"))
    data["proof"] = group.b64(proof.to_bytes())


# --- attack 1: the second shuffler poisons the deal with blinded copies of the first shuffler's own cards ---


def _poisoned_deal(reprove: bool) -> tuple[Party, dict[str, Any], list[int]]:
    """Deal steps 1 and 2 with a cheating second shuffler: returns the victim, the poisoned step 2 and the poisoned slots.

    The cheater puts r·P into the slots of its own pay-off pile, for P the points of the victim's hand under the victim's lock
    alone (the cheater strips its own layer from them anyway), so the victim's step 3 opens them for her.
    """
    victim = Party(0, MATCH, SMALL, seeded_rng("victim"))
    cheater = Party(1, MATCH, SMALL, seeded_rng("cheater"))
    step1 = roundtrip(victim.send().to_data())
    cheater.receive(step1)
    message = roundtrip(cheater.send().to_data())
    deal = message["deal"]
    strips = [group.point(p, "strip") for p in deal["strips"]]
    targets = strips[N : N + H]  # the victim's hand, under the victim's lock only
    slots = list(range(N + H + 1, N + H + 1 + H))  # the bottom of the cheater's own pay-off pile
    for slot, target in zip(slots, targets, strict=True):
        deal["deck"]["points"][slot] = group.b64(group.mul(BLIND, target))
    if reprove:
        first = [group.point(p, "deck") for p in step1["deal"]["deck"]["points"]]
        _reprove(cheater, deal["deck"], first, GENERATOR, cheater.keys[1][0], "the second shuffle of the deck", 0, message["seq"])
    return victim, message, slots


def test_the_deal_attack_works_against_a_client_that_trusts_shuffles() -> None:
    victim, message, slots = _poisoned_deal(reprove=False)
    with _no_shuffle_checks():
        victim.receive(message)
    step3 = roundtrip(victim.send().to_data())["deal"]["strips"]
    # the victim stripped its lock from the poisoned slots and published r·M: the cheater removes r and reads the victim's hand
    read = []
    for slot in slots:
        opened = group.point(step3[2 + slot - (N + H + 1)], "strip")
        read.append(group.card_table(MATCH, 1, SMALL.deck_size).get(group.mul(group.invert(BLIND), opened)))
    assert sorted(read) == sorted(h.card for h in victim.game.hands[0])  # type: ignore[union-attr]


@pytest.mark.parametrize("reprove", [False, True], ids=["old proof", "proof made for the poisoned list"])
def test_the_deal_attack_is_refused_before_the_victim_strips_anything(reprove: bool) -> None:
    victim, message, _ = _poisoned_deal(reprove)
    seq = victim.seq
    with (
        _strips_counted() as strips,
        pytest.raises(ProofError, match="game 1, the deal: the second shuffle of the deck: the shuffle does not prove out"),
    ):
        victim.receive(message)
    assert strips == []  # no strip, no re-key: nothing of the poisoned deck was opened
    assert victim.seq == seq and victim.dealing is not None and victim.dealing.step == 1  # the victim is as it was
    assert victim.outbox.deal is None


def test_a_deal_without_its_proof_of_shuffle_is_refused() -> None:
    victim, message, _ = _poisoned_deal(reprove=False)
    del message["deal"]["deck"]["proof"]
    with pytest.raises(ProtocolError, match="the deck lacks proof"):
        victim.receive(message)


# --- attack 2: after its shuffle, the cheater puts blinded copies of the victim's points where the victim will strip them ---


class _PoisonedStock(TurnMaking):
    """The poisoner's turns: its stock shuffle, made honestly, then poisoned."""

    _count = 0

    def end(self, turn: int, completed: tuple, count: int) -> Any:
        self._count = count
        return super().end(turn, completed, count)

    def _rekey(self, points: list[Point], turn: int, seq: int, name: str) -> Shuffle:
        sh = super()._rekey(points, turn, seq, name)
        p = self.p
        g = p.game
        assert g is not None
        below = len(sh.points) - 1 - self._count  # the top once the victim's own draw is reserved
        if name != "the stock shuffle" or below < 10 or StockPoisoner.poisoned:
            return sh
        pts = list(sh.points)
        mine = group.invert(p._my_key(g.stock_epoch[p.me]))
        for j in range(5):
            pts[below - j] = group.mul(BLINDS[j], group.mul(mine, pts[j]))
        g.stock = pts
        StockPoisoner.poisoned = True
        return Shuffle(sh.key, tuple(pts), sh.proof)


class StockPoisoner(Party):
    """Re-keys the stock honestly, then puts r_j·P where the victim will reserve the cheater's next draw from.

    P are stock cards deeper down with the cheater's own lock taken off, so under the victim's lock alone; when the victim
    reserves the cheater's draw it strips that lock from them and publishes r_j·M: the cheater reads future stock cards.
    """

    poisoned = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.making = _PoisonedStock(self)


BLINDS = [group.random_scalar(seeded_rng(f"blind {j}")) for j in range(5)]


def _run_poisoner(check: bool) -> tuple[list[dict[str, Any]], Exception | None, list[int]]:
    """Play small games with the poisoner as player 1 until one poisons a stock; the messages, the refusal, the victim's strips."""
    for seed in range(40):
        StockPoisoner.poisoned = False
        seats = make_seats(SMALL, seed, classes=(StockPoisoner, Party))
        seen: list[dict[str, Any]] = []
        error: Exception | None = None
        with _strips_counted() as strips, contextlib.ExitStack() as stack:
            if not check:
                stack.enter_context(_no_shuffle_checks())

            def watch(_n: int, message: dict[str, Any], seen: list[dict[str, Any]] = seen) -> dict[str, Any]:
                seen.append(message)
                strips.clear()  # from here on: what the receiver of this message strips
                return message

            try:
                play(seats, seed=seed, stop_after_deal=2, check=False, tamper=watch)
            except ProtocolError as e:
                error = e
            counted = list(strips)
        if StockPoisoner.poisoned:
            return seen, error, counted
    raise AssertionError("no game of 40 had a stock shuffle to poison")


def test_the_stock_attack_works_against_a_client_that_trusts_shuffles() -> None:
    seen, _, _ = _run_poisoner(check=False)
    table = group.card_table(MATCH, 1, SMALL.deck_size)
    # the victim reserved the cheater's draw from the poisoned places, stripping its lock: the cheater reads cards it must not see
    drawn = [m["turn"]["end"]["draw"]["points"] for m in seen if m["from"] == 1 and "draw" in m.get("turn", {}).get("end", {})]
    opened = [group.point(p, "draw") for points in drawn for p in points]
    read = [table.get(group.mul(group.invert(r), p)) for p in opened for r in BLINDS]
    assert any(c is not None for c in read)


def test_the_stock_attack_is_refused_on_receipt_before_the_victim_strips_anything() -> None:
    seen, error, strips = _run_poisoner(check=True)
    assert isinstance(error, ProofError)
    assert "the stock shuffle: the shuffle does not prove out" in str(error)
    last = seen[-1]
    assert last["from"] == 0 and "shuffle" in last["turn"]["end"]  # refused on the very message that carried the poison
    assert strips == []  # the victim stripped nothing while it received it


def test_a_shuffle_proof_is_bound_to_its_list_name_turn_and_message() -> None:
    rng = seeded_rng("bound")
    k = group.random_scalar(rng)
    inputs = group.encodings(MATCH, 1, 12)
    ctx = shuffle.ShuffleContext(MATCH, 1, 5, 9, "recycling pool 1")
    out, proof = shuffle.shuffle(ctx, k, GENERATOR, group.base(k), inputs, rng)
    for other in (
        shuffle.ShuffleContext(MATCH, 1, 5, 9, "recycling pool 2"),
        shuffle.ShuffleContext(MATCH, 1, 6, 9, "recycling pool 1"),
        shuffle.ShuffleContext(MATCH, 1, 5, 10, "recycling pool 1"),
        shuffle.ShuffleContext(MATCH, 2, 5, 9, "recycling pool 1"),
        shuffle.ShuffleContext(bytes(16), 1, 5, 9, "recycling pool 1"),
    ):
        with pytest.raises(ProofError, match="the shuffle does not prove out"):
            shuffle.verify(other, ShuffleProof.from_bytes(proof.to_bytes(), 12, "x"), GENERATOR, group.base(k), inputs, out)
