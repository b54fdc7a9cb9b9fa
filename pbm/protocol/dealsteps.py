"""The deal of one game in three messages (docs/protocol.md): the steps of the first and the second shuffler.

A mixin of :class:`pbm.protocol.dealing.Party`; it reads and writes the party's fields. Each
step checks every proof of the step it answers before it applies any secret to its points.
"""

from __future__ import annotations

from typing import Any

from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.protocol import group, proofs, shuffle
from pbm.protocol.deck import GameRecord, HandCard, seed_stream, shuffled
from pbm.protocol.group import GENERATOR, Point
from pbm.protocol.messages import Deal, Deal1, Deal2, Deal3, Message, Shuffle


def starter_of(game: int) -> int:
    """Who starts game `game` (from 1): player 0 starts game 1, then they take turns (R9)."""
    return (game - 1) % 2


DECK = "the first shuffle of the deck"
DEAL = "the second shuffle of the deck"


def strip_slots(first: int, second: int) -> tuple[str, str]:
    """The names the deal's two batches of strips are bound to."""
    return (
        f"the pay-off pile and hand of player {first + 1} and the pay-off top of player {second + 1}",
        f"the pay-off tops and the pay-off pile and hand of player {second + 1}",
    )


class DealSteps:
    """Making and checking the deal's messages."""

    def _on_deal(self, deal: Deal, seq: int) -> None:
        expected = 1 if self.game is None else self.game.number + 1
        if deal.game != expected:
            raise StaleMessageError(f"a deal of game {deal.game} where game {expected} is next")
        step = {Deal1: 1, Deal2: 2, Deal3: 3}[type(deal)]
        if isinstance(deal, Deal1) and self.dealing is None and starter_of(deal.game) == self.other:
            self._on_deal1(deal, seq)
        elif isinstance(deal, Deal2) and self.dealing is not None and self.dealing["step"] == 1 and self.dealing["game"] == deal.game:
            self._on_deal2(deal, seq)
        elif isinstance(deal, Deal3) and self.dealing is not None and self.dealing["step"] == 2 and self.dealing["game"] == deal.game:
            self._on_deal3(deal)
        else:
            raise StaleMessageError(f"deal step {step} of game {deal.game} is not due now")

    def check_deal1(self, deal: Deal1, msg: Message) -> None:
        """Refuse deal step 1 unless it begins the next game, sent by the player who starts it, once the game before has ended.

        The game before ends in this message's turn or earlier, and this message brings the sender's keys of it.
        Checked on receipt, before this player answers the step (or applies any secret to the message).
        """
        g = self.game
        number = deal.game
        expected = 1 if g is None else g.number + 1
        if number != expected:
            raise StaleMessageError(f"the message starts the deal of game {number}, but the next game is game {expected}")
        if starter_of(number) != self.other:
            raise ProtocolError(f"the other player started the deal of game {number}, which is yours to start (the players take turns)")
        if self.dealing is not None:
            raise StaleMessageError(f"the message starts the deal of game {number} again: it is under way")
        if g is None:
            return
        if not g.over and not self._staged.ends_game:
            playing = f"turn {msg.turn.turn} does not end game {g.number}" if msg.turn else f"game {g.number} is still being played"
            raise ProtocolError(
                f"{playing}, but the message already starts the deal of game {number}: a game is dealt once the one before has ended"
            )
        if g.over and self.record.is_over:
            raise ProtocolError(f"the match is over, but the message starts the deal of a game {number}")
        if msg.secrets is None or msg.secrets.game != g.number:
            raise ProtocolError(
                f"the message starts the deal of game {number} without the other player's keys of game {g.number}, which come with it"
            )

    def _deal1(self, number: int, seq: int) -> dict[str, Any]:
        """Step 1: my layer on every card encoding, shuffled, with its proof."""
        epoch, k, pub = self._new_key(number)
        assert epoch == 0
        encodings = group.encodings(self.match, number, self.ruleset.deck_size)
        deck, perm = self._first_deck(number)
        proof = shuffle.prove(self._sctx(0, DECK, seq, number), k, GENERATOR, pub, encodings, deck, perm, self.rng)
        self.dealing = {"game": number, "step": 1, "first": self.me}
        return Deal1(number, Shuffle(pub, tuple(deck), proof)).to_data()

    def _first_deck(self, number: int) -> tuple[list[Point], list[int]]:
        """My first shuffle of game `number` and its permutation, which the game's seed determines.

        So the deck need not be kept (nor carried in files) until the second shuffle of it comes back to be checked.
        """
        k = self.keys[number][0]
        encodings = group.encodings(self.match, number, self.ruleset.deck_size)
        perm = shuffled(seed_stream(self.seeds[number], b"spite/first-shuffle/v1"), list(range(len(encodings))))
        return [group.mul(k, encodings[j]) for j in perm], perm

    def _on_deal1(self, deal: Deal1, seq: int) -> None:
        """Step 2 (the second shuffler): check the first shuffle, shuffle again under my layer, strip it from the first's cards."""
        r = self.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        number, f = deal.game, self.other
        given = deal.deck
        if len(given.points) != size:
            raise ProtocolError(f"game {number}, the deal: the first shuffle holds {len(given.points)} cards where {size} are due")
        encodings = group.encodings(self.match, number, size)
        shuffle.verify(self._sctx(0, DECK, seq, number), given.proof, GENERATOR, given.key, encodings, given.points)
        _, k, pub = self._new_key(number)
        deck, proof = shuffle.shuffle(self._sctx(0, DEAL, seq + 1, number), k, GENERATOR, pub, given.points, self.rng)
        first = deck[: n + h + 1]
        ctx = self._ctx(0, strip_slots(f, self.me)[0], number)
        strips, strip_proof = proofs.strip_batch(ctx, k, pub, first, self.rng)
        rec = GameRecord(number=number, starter=f, keys=[[], []])
        rec.keys[f], rec.keys[self.me] = [given.key], [pub]
        rec.piles[f] = strips[:n]
        rec.hands[f] = [HandCard(p, 0) for p in strips[n : n + h]]
        rest = deck[n + h + 1 :]
        rec.piles[self.me] = rest[: n - 1]
        rec.hands[self.me] = [HandCard(p, 0) for p in rest[n - 1 : n - 1 + h]]
        rec.stock = rest[n - 1 + h :]
        self.dealing = {"game": number, "step": 2, "first": f, "record": rec, "top": strips[n + h]}
        self.outbox["deal"] = Deal2(number, Shuffle(pub, tuple(deck), proof), tuple(strips), strip_proof).to_data()

    def _on_deal2(self, deal: Deal2, seq: int) -> None:
        """Step 3 (the first shuffler): check the second shuffle and its strips, read my cards, strip my layer from the other's."""
        r = self.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        number, s, me = deal.game, self.other, self.me
        mine, _ = self._first_deck(number)
        given = deal.deck
        if len(given.points) != size or len(deal.strips) != n + h + 1:
            raise ProtocolError(f"game {number}, the deal: the second shuffle does not hold the deck and its strips")
        shuffle.verify(self._sctx(0, DEAL, seq, number), given.proof, GENERATOR, given.key, mine, given.points)
        deck = list(given.points)
        proofs.verify_batch(self._their_ctx(0, strip_slots(me, s)[0], number), deal.strip_proof, given.key, deal.strips, deck[: n + h + 1])
        k = self.keys[number][0]
        pub = group.base(k)
        table = self._table(number)
        inverse = group.invert(k)
        hand = [table.get(group.mul(inverse, p)) for p in deal.strips[n : n + h]]
        if None in hand:  # cannot happen after the proofs unless my own deck was not the deck
            raise CardError(f"game {number}, the deal: a card of your hand is no card")
        rec = GameRecord(number=number, starter=me, keys=[[], []])
        rec.keys[me], rec.keys[s] = [pub], [given.key]
        rec.piles[me] = list(deal.strips[: n - 1])
        rec.hands[me] = [HandCard(p, 0, i) for p, i in zip(deal.strips[n : n + h], hand, strict=True)]
        rest = deck[n + h + 1 :]
        rec.stock = rest[n - 1 + h :]
        layered = [deal.strips[n - 1], deal.strips[n + h], *rest[: n - 1 + h]]
        ctx = self._ctx(0, strip_slots(me, s)[1], number)
        strips, strip_proof = proofs.strip_batch(ctx, k, pub, layered, self.rng)
        tops = (table.get(strips[0]), table.get(strips[1]))
        if None in tops:
            raise CardError(f"game {number}, the deal: a pay-off top is no card")
        rec.piles[s] = strips[2 : n + 1]
        rec.hands[s] = [HandCard(c, 0) for c in strips[n + 1 :]]
        rec.face_up = set(tops)  # type: ignore[arg-type]
        self.dealing = {"game": number, "step": 3, "first": me, "tops": {me: tops[0], s: tops[1]}}
        self.outbox["deal"] = Deal3(number, tuple(strips), strip_proof).to_data()
        self._switch(rec)

    def _on_deal3(self, deal: Deal3) -> None:
        """The second shuffler checks the first's strips, reads both tops and its own hand."""
        r = self.ruleset
        n, h = r.payoff_size, r.hand_size
        number = deal.game
        rec: GameRecord = self.dealing["record"]  # type: ignore[index]
        f, me = self.other, self.me
        if len(deal.strips) != n + h + 1:
            raise ProtocolError(f"game {number}, the deal: {len(deal.strips)} strips where {n + h + 1} are due")
        layered = [rec.piles[f][-1], self.dealing["top"], *rec.piles[me], *(c.point for c in rec.hands[me])]  # type: ignore[index]
        proofs.verify_batch(self._their_ctx(0, strip_slots(f, me)[1], number), deal.strip_proof, rec.keys[f][0], deal.strips, layered)
        table = self._table(number)
        top_f, top_me = table.get(deal.strips[0]), table.get(deal.strips[1])
        if top_f is None or top_me is None or top_f == top_me:
            raise CardError(f"game {number}, the deal: a revealed pay-off top is no card")
        inverse = group.invert(self.keys[number][0])
        pts = deal.strips
        hand = [table.get(group.mul(inverse, p)) for p in pts[n + 1 :]]
        if None in hand or len({*hand, top_f, top_me}) != h + 2:
            raise CardError(f"game {number}, the deal: your hand does not decode to {h} different cards")
        rec.piles[f] = rec.piles[f][:-1]
        rec.piles[me] = list(pts[2 : n + 1])
        rec.hands[me] = [HandCard(p, 0, i) for p, i in zip(pts[n + 1 :], hand, strict=True)]
        rec.face_up = {top_f, top_me}
        self.dealing = {"game": number, "step": 3, "first": f, "tops": {f: top_f, me: top_me}}
        self._switch(rec)

    def _switch(self, rec: GameRecord) -> None:
        if self.game is not None and not self.game.audited:
            raise ProtocolError(f"game {rec.number} cannot start before game {self.game.number} is over and audited")
        self.game = rec
        self._deal_ready = True
