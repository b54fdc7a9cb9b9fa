"""Fairness and secrecy: honest deals are uniform, and no key a player holds opens a card it may not see."""

from __future__ import annotations

import math
from itertools import combinations_with_replacement
from typing import Any

import pytest
from dealing_play import MATCH, SMALL, make_seats, play

from pbm.protocol import group
from pbm.protocol.dealing import Party
from pbm.protocol.dealsteps import DealSteps
from pbm.protocol.deck import seeded_rng


def _dealt(seed: int) -> tuple[Party, Party]:
    """Both parties right after the three deal messages of game 1 (player 0 shuffles first)."""
    a = Party(0, MATCH, SMALL, seeded_rng(f"fair/{seed}/0"))
    b = Party(1, MATCH, SMALL, seeded_rng(f"fair/{seed}/1"))
    b.receive(a.send().to_data())
    a.receive(b.send().to_data())
    b.receive(a.send().to_data())
    return a, b


def _positions(a: Party, b: Party) -> list[int]:
    """The deck in the dealing convention, as card indices: pay-off piles (bottom to top), hands, stock (top first)."""
    table = group.card_table(MATCH, 1, SMALL.deck_size)
    ga, gb = a.game, b.game
    assert ga is not None and gb is not None and a.dealing is not None
    tops = a.dealing.tops

    def opened(points: list[bytes], *keys: bytes) -> list[int]:
        inverse = group.invert(keys[0] if len(keys) == 1 else group.smul(keys[0], keys[1]))
        return [table[group.mul(inverse, p)] for p in points]

    deck = opened(ga.piles[0], a.keys[1][0]) + [tops[0]]
    deck += [h.card for h in ga.hands[0]]  # type: ignore[misc]
    deck += opened(gb.piles[1], b.keys[1][0]) + [tops[1]]
    deck += [h.card for h in gb.hands[1]]  # type: ignore[misc]
    deck += list(reversed(opened(ga.stock, a.keys[1][0], b.keys[1][0])))
    assert sorted(deck) == list(range(SMALL.deck_size))
    return deck


@pytest.fixture
def unchecked_shuffles(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal's distribution alone is under test here: its proofs of shuffle are made but not checked (test_shuffle.py checks them)."""
    from pbm.protocol import shuffle

    monkeypatch.setattr(shuffle, "verify", lambda *args, **kwargs: None)


def _chi2_limit(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (Wilson–Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi2(counts: list[int], expected: list[float]) -> float:
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))


def _where_card_zero_lands(deals: int) -> tuple[list[int], list[int]]:
    n, h, size = SMALL.payoff_size, SMALL.hand_size, SMALL.deck_size
    bounds = [n, n + h, 2 * n + h, 2 * n + 2 * h, size]
    groups, slots = [0] * 5, [0] * size
    for seed in range(deals):
        position = _positions(*_dealt(seed)).index(0)
        slots[position] += 1
        groups[next(i for i, b in enumerate(bounds) if position < b)] += 1
    return groups, slots


@pytest.mark.usefixtures("unchecked_shuffles")
def test_card_zero_lands_in_each_part_of_the_deal_as_often_as_chance_says() -> None:
    deals = 60  # seeded: the same deals every run; -m slow runs 1,300 over every position
    groups, _ = _where_card_zero_lands(deals)
    n, h, size = SMALL.payoff_size, SMALL.hand_size, SMALL.deck_size
    sizes = [n, h, n, h, size - 2 * n - 2 * h]
    assert _chi2(groups, [deals * s / size for s in sizes]) < _chi2_limit(4)


@pytest.mark.slow
@pytest.mark.usefixtures("unchecked_shuffles")
def test_card_zero_lands_in_every_deck_position_uniformly() -> None:
    deals = 52 * 25
    _, slots = _where_card_zero_lands(deals)
    assert _chi2(slots, [deals / 52] * 52) < _chi2_limit(51)


@pytest.mark.usefixtures("unchecked_shuffles")
def test_a_biased_first_shuffle_does_not_bias_the_deal() -> None:
    """G2: the first shuffler deals its deck unshuffled; the second's shuffle alone still makes the deal uniform."""

    unshuffled: list[int] = []

    class LazySteps(DealSteps):
        def _first_deck(self, number: int) -> tuple[list[bytes], list[int]]:
            encodings = group.encodings(MATCH, number, SMALL.deck_size)
            unshuffled.append(number)
            return group.layer(self.p.keys[number][0], encodings), list(range(len(encodings)))

    class Lazy(Party):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.deals = LazySteps(self)

    deals, counts = 60, [0, 0]  # seeded; an unshuffled second deck would put card 0 in no hand or every one
    for seed in range(deals):
        a = Lazy(0, MATCH, SMALL, seeded_rng(f"lazy/{seed}/0"))
        b = Party(1, MATCH, SMALL, seeded_rng(f"lazy/{seed}/1"))
        b.receive(a.send().to_data())
        a.receive(b.send().to_data())
        b.receive(a.send().to_data())
        counts[0 in {h.card for h in a.game.hands[0]}] += 1  # type: ignore[union-attr]
    assert len(unshuffled) >= deals  # the first shuffler's deck was the encodings in order, every time
    expected_in = deals * SMALL.hand_size / SMALL.deck_size
    assert _chi2([counts[0], counts[1]], [deals - expected_in, expected_in]) < _chi2_limit(1)


def _multipliers(keys: list[bytes]) -> list[bytes]:
    """Every key, every inverse, and every product of two of them: all a player can try on a point."""
    base = [k for key in keys for k in (key, group.invert(key))]
    out = {bytes([1]) + bytes(31), *base}
    out |= {group.smul(x, y) for x, y in combinations_with_replacement(base, 2)}
    return sorted(out)


def test_no_key_a_player_holds_opens_the_other_hand_the_stock_or_the_other_pay_off_pile() -> None:
    seats = make_seats(SMALL, 21)
    looked = []

    def peek(n: int, message: dict) -> dict:
        if n % 3 == 2:  # a deal step, then every few turns on
            for seat in seats:
                party, g = seat.party, seat.party.game
                if g is None or g.number not in party.keys:
                    continue
                table = group.card_table(MATCH, g.number, SMALL.deck_size)
                hidden = [h.point for h in g.hands[party.other]] + g.stock + g.piles[party.other]
                tries = _multipliers(party.keys[g.number])
                for x in tries:
                    for point in hidden:
                        assert group.mul(x, point) not in table
                # the same attempt on my own hand does open it: the test would see a leak
                own = [h.point for h in g.hands[party.me]]
                assert all(any(group.mul(x, p) in table for x in tries) for p in own)
                looked.append(len(hidden) * len(tries))
        return message

    play(seats, ("greedy", "greedy"), seed=21, tamper=peek, stop_after_deal=2)
    assert len(looked) >= 6 and min(looked) > 50  # each look tried every multiplier on dozens of hidden points
