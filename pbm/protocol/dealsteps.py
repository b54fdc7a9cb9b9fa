"""The deal of one game in three messages (docs/protocol.md): the steps of the first and the second shuffler.

A collaborator that a :class:`pbm.protocol.dealing.Party` holds: it reads and writes that party's
:class:`~pbm.protocol.partystate.PartyState` (record, keys, deal under way and outbox). Each step checks every proof of the step it answers
before it applies any secret to its points.
"""

from __future__ import annotations

from collections.abc import Iterable

import nacl.bindings as _na

from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.i18n import _, ngettext
from pbm.protocol import group, proofs, shuffle
from pbm.protocol.deck import GameRecord, HandCard, seed_stream, shuffled
from pbm.protocol.group import GENERATOR, Point
from pbm.protocol.messages import Deal, Deal1, Deal2, Deal3, Message, Shuffle
from pbm.protocol.partystate import Dealing, PartyState
from pbm.protocol.partystate import starter_of as starter_of  # defined there: a look at a turn needs it, not this module

DECK = proofs.FIRST_SHUFFLE
DEAL = proofs.SECOND_SHUFFLE


def strip_slots(first: int, second: int) -> tuple[str, str]:
    """The names the deal's two batches of strips are bound to (English: they are hashed into the proofs)."""
    return (proofs.FIRST_STRIPS.format(first=first + 1, second=second + 1), proofs.SECOND_STRIPS.format(second=second + 1))


# --- the memory of my first shuffles: made once (104 multiplications), then read back from the player's own journal ---

FIRST_DECK_TAG = b"spite/first-deck/v1"
_FIRST_DECKS: dict[bytes, list[Point]] = {}  # my first shuffle of a game, by the digest of its seed and encodings
_NEW_DECKS: list[tuple[bytes, bytes, bytes]] = []  # (match, digest, points) made in this process, not yet in a journal


def _deck_digest(seed: bytes, k: bytes, encodings: list[Point]) -> bytes:
    """What a first shuffle is a function of, hashed: the seed (its order), the key and every card encoding."""
    return _na.crypto_hash_sha512(b"".join([FIRST_DECK_TAG, seed, k, *encodings]))


def remember_decks(rows: Iterable[tuple[bytes, bytes]]) -> None:
    """Take these (digest, points) as my first shuffles: only the player's own journal may give them (never a file)."""
    for digest, points in rows:
        if len(points) % group.SIZE == 0:
            _FIRST_DECKS[digest] = [points[i : i + group.SIZE] for i in range(0, len(points), group.SIZE)]


def newly_made_decks() -> list[tuple[bytes, bytes, bytes]]:
    """The (match, digest, points) of each first shuffle made in this process since the last call, for the journal."""
    taken = list(_NEW_DECKS)
    _NEW_DECKS.clear()
    return taken


class DealSteps:
    """Making and checking the deal's messages, for the party `p`."""

    def __init__(self, party: PartyState) -> None:
        self.p = party

    def on_deal(self, deal: Deal, seq: int) -> None:
        """Take in a deal step of the other player (message `seq`): check it, and answer it in the outbox when an answer is due."""
        p, d = self.p, self.p.dealing
        expected = 1 if p.game is None else p.game.number + 1
        if deal.game != expected:
            raise StaleMessageError(_("a deal of game {game} where game {next} is next").format(game=deal.game, next=expected))
        if isinstance(deal, Deal1) and d is None and starter_of(deal.game) == p.other:
            self._on_deal1(deal, seq)
        elif isinstance(deal, Deal2) and d is not None and d.step == 1 and d.game == deal.game:
            self._on_deal2(deal, seq)
        elif isinstance(deal, Deal3) and d is not None and d.step == 2 and d.game == deal.game:
            self._on_deal3(deal, d)
        else:
            step = 1 if isinstance(deal, Deal1) else 2 if isinstance(deal, Deal2) else 3
            raise StaleMessageError(_("deal step {step} of game {game} is not due now").format(step=step, game=deal.game))

    def check_deal1(self, deal: Deal1, msg: Message) -> None:
        """Refuse deal step 1 unless it begins the next game, sent by the player who starts it, once the game before has ended.

        The game before ends in this message's turn or earlier, and this message brings the sender's keys of it.
        Checked on receipt, before this player answers the step (or applies any secret to the message).
        """
        p, g = self.p, self.p.game
        number = deal.game
        expected = 1 if g is None else g.number + 1
        if number != expected:
            text = _("the message starts the deal of game {game}, but the next game is game {next}")
            raise StaleMessageError(text.format(game=number, next=expected))
        if starter_of(number) != p.other:
            text = _("the other player started the deal of game {game}, which is yours to start (the players take turns)")
            raise ProtocolError(text.format(game=number))
        if p.dealing is not None:
            raise StaleMessageError(_("the message starts the deal of game {game} again: it is under way").format(game=number))
        if g is None:
            return
        if not g.over and not p._staged.ends_game:
            if msg.turn:
                text = _(
                    "turn {turn} does not end game {number}, but the message already starts the deal of game {game}: "
                    "a game is dealt once the one before has ended"
                )
            else:
                text = _(
                    "game {number} is still being played, but the message already starts the deal of game {game}: "
                    "a game is dealt once the one before has ended"
                )
            raise ProtocolError(text.format(turn=msg.turn.turn if msg.turn else 0, number=g.number, game=number))
        if g.over and p.record.is_over:
            raise ProtocolError(_("the match is over, but the message starts the deal of a game {game}").format(game=number))
        if msg.secrets is None or msg.secrets.game != g.number:
            text = _("the message starts the deal of game {game} without the other player's keys of game {number}, which come with it")
            raise ProtocolError(text.format(game=number, number=g.number))

    def deal1(self, number: int, seq: int) -> Deal1:
        """Step 1, to travel in message `seq`: my layer on every card encoding, shuffled, with its proof."""
        p = self.p
        epoch, k, pub = p._new_key(number)
        assert epoch == 0
        encodings = group.encodings(p.match, number, p.ruleset.deck_size)
        deck, perm = self._first_deck(number)
        proof = shuffle.prove(p._sctx(0, DECK, seq, number), k, GENERATOR, pub, encodings, deck, perm, p.rng)
        p.dealing = Dealing(number, 1, p.me)
        return Deal1(number, Shuffle(pub, tuple(deck), proof))

    def _first_deck(self, number: int) -> tuple[list[Point], list[int]]:
        """My first shuffle of game `number` and its permutation, which the game's seed determines.

        So the deck need not be carried in files until the second shuffle of it comes back to be checked: it is made
        again, or read back from the player's own journal (:func:`remember_decks`), which keeps it from when it was made.
        """
        p = self.p
        k = p.keys[number][0]
        encodings = group.encodings(p.match, number, p.ruleset.deck_size)
        perm = shuffled(seed_stream(p.seeds[number], b"spite/first-shuffle/v1"), list(range(len(encodings))))
        digest = _deck_digest(p.seeds[number], k, encodings)
        deck = _FIRST_DECKS.get(digest)
        if deck is None or len(deck) != len(encodings):
            deck = group.layer(k, [encodings[j] for j in perm])
            _FIRST_DECKS[digest] = deck
            _NEW_DECKS.append((p.match, digest, b"".join(deck)))
        return list(deck), perm

    def _on_deal1(self, deal: Deal1, seq: int) -> None:
        """Step 2 (the second shuffler): check the first shuffle, shuffle again under my layer, strip it from the first's cards."""
        p = self.p
        r = p.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        number, f, me = deal.game, p.other, p.me
        given = deal.deck
        if len(given.points) != size:
            text = ngettext(
                "game {game}, the deal: the first shuffle holds {n} card where {due} are due",
                "game {game}, the deal: the first shuffle holds {n} cards where {due} are due",
                len(given.points),
            )
            raise ProtocolError(text.format(game=number, n=len(given.points), due=size))
        encodings = group.encodings(p.match, number, size)
        shuffle.verify(p._sctx(0, DECK, seq, number), given.proof, GENERATOR, given.key, encodings, given.points)
        if p.looking:  # only looked at (spite show, verify): the answer, a shuffle of the whole deck, is never sent
            p.dealing = Dealing(number, 2, f)
            return
        __, k, pub = p._new_key(number)
        deck, proof = shuffle.shuffle(p._sctx(0, DEAL, seq + 1, number), k, GENERATOR, pub, given.points, p.rng)
        first = deck[: n + h + 1]
        ctx = p._ctx(0, strip_slots(f, me)[0], number)
        strips, strip_proof = proofs.strip_batch(ctx, k, pub, first, p.rng)
        rec = GameRecord(number=number, starter=f, keys=[[], []])
        rec.keys[f], rec.keys[me] = [given.key], [pub]
        rec.piles[f] = strips[:n]
        rec.hands[f] = [HandCard(pt, 0) for pt in strips[n : n + h]]
        rest = deck[n + h + 1 :]
        rec.piles[me] = rest[: n - 1]
        rec.hands[me] = [HandCard(pt, 0) for pt in rest[n - 1 : n - 1 + h]]
        rec.stock = rest[n - 1 + h :]
        p.dealing = Dealing(number, 2, f, record=rec, top=strips[n + h])
        p.outbox.deal = Deal2(number, Shuffle(pub, tuple(deck), proof), tuple(strips), strip_proof)

    def _on_deal2(self, deal: Deal2, seq: int) -> None:
        """Step 3 (the first shuffler): check the second shuffle and its strips, read my cards, strip my layer from the other's."""
        p = self.p
        r = p.ruleset
        n, h, size = r.payoff_size, r.hand_size, r.deck_size
        number, s, me = deal.game, p.other, p.me
        mine, __ = self._first_deck(number)
        given = deal.deck
        if len(given.points) != size or len(deal.strips) != n + h + 1:
            # TRANSLATORS: strips: cards with the second shuffler's secret layer taken off, so that the first can read them
            raise ProtocolError(_("game {game}, the deal: the second shuffle does not hold the deck and its strips").format(game=number))
        shuffle.verify(p._sctx(0, DEAL, seq, number), given.proof, GENERATOR, given.key, mine, given.points)
        deck = list(given.points)
        proofs.verify_batch(p._their_ctx(0, strip_slots(me, s)[0], number), deal.strip_proof, given.key, deal.strips, deck[: n + h + 1])
        k = p.keys[number][0]
        pub = group.base(k)
        table = p._table(number)
        inverse = group.invert(k)
        hand = [table.get(group.mul(inverse, pt)) for pt in deal.strips[n : n + h]]
        rec = GameRecord(number=number, starter=me, keys=[[], []])
        rec.keys[me], rec.keys[s] = [pub], [given.key]
        rec.piles[me] = list(deal.strips[: n - 1])
        cards = [_card(i, _("a card of your hand"), number) for i in hand]
        rec.hands[me] = [HandCard(pt, 0, c) for pt, c in zip(deal.strips[n : n + h], cards, strict=True)]
        rest = deck[n + h + 1 :]
        rec.stock = rest[n - 1 + h :]
        layered = [deal.strips[n - 1], deal.strips[n + h], *rest[: n - 1 + h]]
        ctx = p._ctx(0, strip_slots(me, s)[1], number)
        if p.looking:  # only looked at: the answer's strips are never sent, but the tops they turn up are shown
            strips, strip_proof = [*(group.mul(inverse, pt) for pt in layered[:2]), *layered[2:]], b""
        else:
            strips, strip_proof = proofs.strip_batch(ctx, k, pub, layered, p.rng)
        top_me, top_s = (_card(table.get(pt), _("a pay-off top"), number) for pt in strips[:2])
        rec.piles[s] = strips[2 : n + 1]
        rec.hands[s] = [HandCard(c, 0) for c in strips[n + 1 :]]
        rec.face_up = {top_me, top_s}
        p.dealing = Dealing(number, 3, me, tops={me: top_me, s: top_s})
        p.outbox.deal = None if p.looking else Deal3(number, tuple(strips), strip_proof)
        self._switch(rec)

    def _on_deal3(self, deal: Deal3, dealing: Dealing) -> None:
        """The second shuffler checks the first's strips, reads both tops and its own hand."""
        p = self.p
        r = p.ruleset
        n, h = r.payoff_size, r.hand_size
        number = deal.game
        rec, top = dealing.record, dealing.top
        if rec is None or top is None:
            raise ProtocolError(_("game {game}, the deal: step 2 was not made here, so step 3 cannot be taken in").format(game=number))
        f, me = p.other, p.me
        if len(deal.strips) != n + h + 1:
            text = ngettext(
                # TRANSLATORS: strips: cards with the first shuffler's secret layer taken off, so that the second can read them
                "game {game}, the deal: {n} strip where {due} are due",
                "game {game}, the deal: {n} strips where {due} are due",
                len(deal.strips),
            )
            raise ProtocolError(text.format(game=number, n=len(deal.strips), due=n + h + 1))
        layered = [rec.piles[f][-1], top, *rec.piles[me], *(c.point for c in rec.hands[me])]
        proofs.verify_batch(p._their_ctx(0, strip_slots(f, me)[1], number), deal.strip_proof, rec.keys[f][0], deal.strips, layered)
        table = p._table(number)
        top_f, top_me = table.get(deal.strips[0]), table.get(deal.strips[1])
        if top_f is None or top_me is None or top_f == top_me:
            raise CardError(_("game {game}, the deal: a revealed pay-off top is no card").format(game=number))
        inverse = group.invert(p.keys[number][0])
        pts = deal.strips
        hand = [table.get(group.mul(inverse, pt)) for pt in pts[n + 1 :]]
        if None in hand or len({*hand, top_f, top_me}) != h + 2:
            text = ngettext(
                "game {game}, the deal: your hand does not decode to {n} different card",
                "game {game}, the deal: your hand does not decode to {n} different cards",
                h,
            )
            raise CardError(text.format(game=number, n=h))
        rec.piles[f] = rec.piles[f][:-1]
        rec.piles[me] = list(pts[2 : n + 1])
        rec.hands[me] = [HandCard(pt, 0, i) for pt, i in zip(pts[n + 1 :], hand, strict=True)]
        rec.face_up = {top_f, top_me}
        p.dealing = Dealing(number, 3, f, tops={f: top_f, me: top_me})
        self._switch(rec)

    def _switch(self, rec: GameRecord) -> None:
        p = self.p
        if p.game is not None and not p.game.audited:
            # TRANSLATORS: audited: checked, once over, that every card was dealt fairly, with both players' keys
            text = _("game {game} cannot start before game {number} is over and audited")
            raise ProtocolError(text.format(game=rec.number, number=p.game.number))
        p.game = rec
        p._deal_ready = True


def _card(index: int | None, what: str, game: int) -> int:
    """A card that a point of the deal decoded to; CardError naming `what` if it decoded to none."""
    if index is None:  # a hand card: cannot happen after the proofs unless my own deck was not the deck
        # TRANSLATORS: {what} names a card dealt, e.g. "a card of your hand": it decodes to no card of the deck
        raise CardError(_("game {game}, the deal: {what} is no card").format(game=game, what=what))
    return index
