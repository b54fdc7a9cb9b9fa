"""The deal of one game in three messages (docs/protocol.md): the steps of the first and the second shuffler.

A mixin of :class:`pbm.protocol.dealing.Party`; it reads and writes the party's fields.
"""

from __future__ import annotations

from typing import Any

from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.protocol import group, proofs
from pbm.protocol.deck import GameRecord, HandCard, shuffled
from pbm.protocol.group import Point, b64s
from pbm.protocol.proofs import read_proofs


def starter_of(game: int) -> int:
    """Who starts game `game` (from 1): player 0 starts game 1, then they take turns (R9)."""
    return (game - 1) % 2


class DealSteps:
    """Making and checking the deal's messages."""

    def _on_deal(self, section: Any) -> None:
        if not isinstance(section, dict):
            raise ProtocolError("the deal section is not a table")
        number, step = section.get("game"), section.get("step")
        expected = 1 if self.game is None else self.game.number + 1
        if number != expected:
            raise StaleMessageError(f"a deal of game {number} where game {expected} is next")
        if step == 1 and self.dealing is None and starter_of(number) == self.other:
            self._on_deal1(section, number)
        elif step == 2 and self.dealing is not None and self.dealing["step"] == 1 and self.dealing["game"] == number:
            self._on_deal2(section, number)
        elif step == 3:
            self._on_deal3(section, number)
        else:
            raise StaleMessageError(f"deal step {step} of game {number} is not due now")

    def _deal1(self, number: int) -> dict[str, Any]:
        """Step 1: my layer on every card encoding, shuffled."""
        epoch, k, pub = self._new_key(number)
        assert epoch == 0
        deck = shuffled(self.rng, group.layer(k, group.encodings(self.match, number, self.ruleset.deck_size)))
        self.dealing = {"game": number, "step": 1, "first": self.me}
        return {"game": number, "step": 1, "key": group.b64(pub), "deck": [group.b64(p) for p in deck]}

    def _on_deal1(self, section: dict[str, Any], number: int) -> None:
        """Step 2 (the second shuffler): pick the first player's cards from its deck, layer and shuffle the rest."""
        r = self.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        their_key = group.point(section.get("key"), "the first shuffler's key")
        deck = group.points(section.get("deck"), "the shuffled deck", size)
        _, k, pub = self._new_key(number)
        deck = shuffled(self.rng, deck)
        first, rest = deck[: n + h + 1], group.layer(k, deck[n + h + 1 :])
        f = self.other
        rec = GameRecord(number=number, starter=f, keys=[[], []])
        rec.keys[f], rec.keys[self.me] = [their_key], [pub]
        rec.piles[f] = first[:n]
        rec.hands[f] = [HandCard(p, 0) for p in first[n : n + h]]
        rec.piles[self.me] = rest[: n - 1]
        rec.hands[self.me] = [HandCard(p, 0) for p in rest[n - 1 : n - 1 + h]]
        rec.stock = rest[n - 1 + h :]
        self.dealing = {"game": number, "step": 2, "first": f, "record": rec, "top": first[n + h]}
        self.outbox["deal"] = {"game": number, "step": 2, "key": group.b64(pub), "first": b64s(first), "rest": b64s(rest)}

    def _on_deal2(self, section: dict[str, Any], number: int) -> None:
        """Step 3 (the first shuffler): read my cards, strip my layer from the tops and the other's pile and hand."""
        r = self.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        s, me = self.other, self.me
        their_key = group.point(section.get("key"), "the second shuffler's key")
        first = group.points(section.get("first"), "the cards picked for the first shuffler", n + h + 1)
        rest = group.points(section.get("rest"), "the layered deck", size - n - h - 1)
        if set(first) & set(rest):
            raise ProtocolError("the second shuffler's deck holds a point twice")
        k = self.keys[number][0]
        pub = group.base(k)
        inverse = group.invert(k)
        table = self._table(number)
        plain = group.layer(inverse, first)
        indices = [table.get(p) for p in plain]
        if None in indices or len(set(indices)) != len(indices):
            bad = indices.index(None) + 1 if None in indices else 0
            raise ProtocolError(f"game {number}, the deal: card {bad or 'of'} the first shuffler's cards is not from its deck")
        rec = GameRecord(number=number, starter=me, keys=[[], []])
        rec.keys[me], rec.keys[s] = [pub], [their_key]
        rec.piles[me] = first[: n - 1]
        rec.hands[me] = [HandCard(p, 0, i) for p, i in zip(first[n : n + h], indices[n : n + h], strict=True)]
        rec.stock = rest[n - 1 + h :]
        strips: list[tuple[Point, Point, bytes]] = []  # (stripped, layered, proof)
        slots = [(f"pay-off top of player {me + 1}", first[n - 1]), (f"pay-off top of player {s + 1}", first[n + h])]
        slots += [(f"pay-off card {i + 1} of player {s + 1}", p) for i, p in enumerate(rest[: n - 1])]
        slots += [(f"hand card {i + 1} of player {s + 1}", p) for i, p in enumerate(rest[n - 1 : n - 1 + h])]
        for slot, layered in slots:
            card, proof = proofs.strip(self._ctx(0, slot, number), k, pub, layered, self.rng)
            strips.append((card, layered, proof))
        tops = (indices[n - 1], indices[n + h])
        rec.piles[s] = [c for c, _, _ in strips[2 : n + 1]]
        rec.hands[s] = [HandCard(c, 0) for c, _, _ in strips[n + 1 :]]
        rec.face_up = set(tops)
        self.dealing = {"game": number, "step": 3, "first": me, "tops": {me: tops[0], s: tops[1]}}
        self.outbox["deal"] = {
            "game": number,
            "step": 3,
            "points": b64s([c for c, _, _ in strips]),
            "proofs": b64s([p for _, _, p in strips]),
        }
        self._switch(rec)

    def _on_deal3(self, section: dict[str, Any], number: int) -> None:
        """The second shuffler checks the first's strips, reads both tops and its own hand."""
        if self.dealing is None or self.dealing.get("step") != 2 or self.dealing["game"] != number:
            raise StaleMessageError(f"a deal step 3 of game {number} was not expected now")
        r = self.ruleset
        n, h = r.payoff_size, r.hand_size
        rec: GameRecord = self.dealing["record"]
        f, me = self.other, self.me
        pts = group.points(section.get("points"), "the deal's strips", n + h + 1, distinct=False)
        prfs = read_proofs(section.get("proofs"), n + h + 1, "the deal's strips")
        key = rec.keys[f][0]
        layered = [rec.piles[f][-1], self.dealing["top"], *rec.piles[me], *(c.point for c in rec.hands[me])]
        slots = [f"pay-off top of player {f + 1}", f"pay-off top of player {me + 1}"]
        slots += [f"pay-off card {i + 1} of player {me + 1}" for i in range(n - 1)]
        slots += [f"hand card {i + 1} of player {me + 1}" for i in range(h)]
        for slot, pt, prf, lay in zip(slots, pts, prfs, layered, strict=True):
            proofs.verify(self._ctx(0, slot, number), prf, key, pt, lay)
        table = self._table(number)
        top_f = table.get(pts[0])
        top_me = table.get(pts[1])
        if top_f is None or top_me is None or top_f == top_me:
            raise CardError(f"game {number}, the deal: a revealed pay-off top is no card")
        inverse = group.invert(self.keys[number][0])
        hand = [table.get(group.mul(inverse, p)) for p in pts[n + 1 :]]
        if None in hand or len({*hand, top_f, top_me}) != h + 2:
            raise CardError(f"game {number}, the deal: your hand does not decode to {h} different cards")
        rec.piles[f] = rec.piles[f][:-1]
        rec.piles[me] = pts[2 : n + 1]
        rec.hands[me] = [HandCard(p, 0, i) for p, i in zip(pts[n + 1 :], hand, strict=True)]
        rec.face_up = {top_f, top_me}
        self.dealing = {"game": number, "step": 3, "first": f, "tops": {f: top_f, me: top_me}}
        self._switch(rec)

    def _switch(self, rec: GameRecord) -> None:
        if self.game is not None and not self.game.audited:
            raise ProtocolError(f"game {rec.number} cannot start before game {self.game.number} is over and audited")
        self.game = rec
        self._deal_ready = True
