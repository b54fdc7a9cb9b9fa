"""The fair-dealing protocol (docs/protocol.md): one player's side, as a Party that is also the engine's Dealer.

Two parties exchange only messages (plain TOML-compatible dicts). The mover applies its moves
to its own GameState with its Party as dealer, then :meth:`Party.send` gives the message; the
receiver's :meth:`Party.receive` checks every point and proof at once and returns the moves,
which the receiver applies to its own state with its Party as dealer, then calls
:meth:`Party.settle`. :class:`pbm.seat.Seat` runs that loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.dealer import Deal, DealerError, Draw
from engine.game import Match
from engine.moves import InvalidMoveError, Move, parse_turn
from engine.rules import G4A, Ruleset
from engine.state import GameState, Pool
from pbm import group, proofs
from pbm.audit import audit_game
from pbm.deck import SYSTEM_RNG, GameRecord, HandCard, PoolRecord, shuffled
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.group import Point, Rng, Scalar
from pbm.proofs import Context

VERSION = 1


def starter_of(game: int) -> int:
    """Who starts game `game` (from 1): player 0 starts game 1, then they take turns (R9)."""
    return (game - 1) % 2


@dataclass(slots=True)
class _Staged:
    """What a received turn told this party, checked, waiting for the engine's dealer calls."""

    reveals: list[tuple[str, int, int]] = field(default_factory=list)  # (kind, hand slot, card index)
    end: dict[str, Any] | None = None
    consumed_end: bool = False


class Party:
    """One player's side of the protocol: its secrets, its record of the game, and the Dealer for its own engine."""

    def __init__(self, me: int, match: bytes, ruleset: Ruleset = G4A, rng: Rng | None = None) -> None:
        if me not in (0, 1):
            raise ValueError("a player is 0 (who created the match) or 1")
        if len(match) != 16:
            raise ValueError("a match id is 16 bytes")
        self.me = me
        self.match = match
        self.ruleset = ruleset
        self.rng: Rng = rng or SYSTEM_RNG
        self.seq = 0  # messages of the match so far
        self.record = Match(ruleset)
        self.game: GameRecord | None = None
        self.dealing: dict[str, Any] | None = None  # the next game's deal while it is under way
        self.keys: dict[int, list[Scalar]] = {}  # my secret scalars, by game
        self.theirs: dict[int, list[Scalar]] = {}  # the opponent's revealed scalars, by game
        self.sent_secrets: set[int] = set()
        self.outbox: dict[str, Any] = {}
        self._staged = _Staged()
        self._deal_ready = False

    # --- facts ---

    @property
    def other(self) -> int:
        return 1 - self.me

    @property
    def deal_ready(self) -> bool:
        """Whether a new game is dealt and waits for the engine's :meth:`deal`."""
        return self._deal_ready

    def _table(self, game: int) -> dict[Point, int]:
        return group.card_table(self.match, game, self.ruleset.deck_size)

    def _ctx(self, turn: int, slot: str, game: int | None = None) -> Context:
        return Context(self.match, game if game is not None else self._g().number, turn, slot)

    def _g(self) -> GameRecord:
        if self.game is None:
            raise ProtocolError("no game has been dealt yet")
        return self.game

    def _my_key(self, epoch: int) -> Scalar:
        return self.keys[self._g().number][epoch]

    def _new_key(self, game: int) -> tuple[int, Scalar, Point]:
        """A fresh secret scalar for `game`: its epoch number, the scalar and its public key."""
        k = group.random_scalar(self.rng)
        self.keys.setdefault(game, []).append(k)
        return len(self.keys[game]) - 1, k, group.base(k)

    def _check_new(self, card: int, what: str, extra: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        """A card that turns up or is drawn must not be face up already, nor in my hand."""
        g = self._g()
        mine = {h.card for h in g.hands[self.me]}
        if card in g.face_up or card in mine or card in extra:
            raise CardError(f"game {g.number}, turn {g.turn}: {what} is {Card.from_index(card)}, a card already in play elsewhere")

    def _decode(self, pt: Point, what: str, game: int | None = None) -> int:
        index = self._table(game or self._g().number).get(pt)
        if index is None:
            raise CardError(f"{what} is no card")
        return index

    # --- the deal ---

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
        self.outbox["deal"] = {"game": number, "step": 2, "key": group.b64(pub), "first": _b64s(first), "rest": _b64s(rest)}

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
            "points": _b64s([c for c, _, _ in strips]),
            "proofs": _b64s([p for _, _, p in strips]),
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
        prfs = _proofs(section.get("proofs"), n + h + 1, "the deal's strips")
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

    # --- the Dealer ---

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        if not self._deal_ready or self.dealing is None:
            raise DealerError("the deal is not complete: its messages have not all arrived")
        g = self._g()
        if ruleset != self.ruleset or starter != g.starter:
            raise DealerError(f"game {g.number} is dealt for player {g.starter + 1} to start under ruleset {self.ruleset.name}")
        tops = self.dealing["tops"]
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[self.me] = tuple(Card.from_index(c.card) for c in g.hands[self.me])  # type: ignore[arg-type]
        unseen = [0, 0]
        unseen[self.other] = len(g.hands[self.other])
        self._deal_ready = False
        self.dealing = None
        return Deal(
            hands=(hands[0], hands[1]),
            payoff_tops=(Card.from_index(tops[0]), Card.from_index(tops[1])),
            unseen=(unseen[0], unseen[1]),
        )

    def turn_up(self, player: int) -> Card:
        g = self._g()
        if player == self.me:
            layered = g.piles[player].pop()
            slot = f"pay-off card {len(g.piles[player]) + 1} of player {player + 1}"
            card_pt, proof = proofs.strip(self._ctx(g.turn, slot), self._my_key(0), g.keys[player][0], layered, self.rng)
            index = self._decode(card_pt, f"game {g.number}, turn {g.turn}: your next pay-off card")
            self._check_new(index, "your next pay-off card")
            self.outbox.setdefault("reveals", []).append({"kind": "payoff", "point": group.b64(card_pt), "proof": group.b64(proof)})
        else:
            _, _, index = self._next_staged("payoff")
            g.piles[player].pop()
        g.face_up.add(index)
        return Card.from_index(index)

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        g = self._g()
        if player == self.me:
            if card is None:
                raise DealerError("the engine must name which of my own cards it plays")
            slot = next((i for i, h in enumerate(g.hands[player]) if h.card == card.index), None)
            if slot is None:
                raise DealerError(f"{card} is not in this player's hand")
            entry = g.hands[player].pop(slot)
            ctx = self._ctx(g.turn, f"hand card {slot + 1} of player {player + 1}")
            card_pt, proof = proofs.strip(ctx, self._my_key(entry.epoch), g.keys[player][entry.epoch], entry.point, self.rng)
            reveal = {"kind": "hand", "slot": slot, "point": group.b64(card_pt), "proof": group.b64(proof)}
            self.outbox.setdefault("reveals", []).append(reveal)
            g.face_up.add(card.index)
            return card
        _, slot, index = self._next_staged("hand")
        shown = Card.from_index(index)
        if shown.rank != rank:
            raise CardError(f"game {g.number}, turn {g.turn}: the move plays a {rank} but the card revealed is {shown}")
        g.hands[player].pop(slot)
        g.face_up.add(index)
        return shown

    def _next_staged(self, kind: str) -> tuple[str, int, int]:
        g = self._g()
        if not self._staged.reveals:
            raise ProtocolError(f"game {g.number}, turn {g.turn}: the moves turn up more cards than the message reveals")
        item = self._staged.reveals.pop(0)
        if item[0] != kind:
            raise ProtocolError(f"game {g.number}, turn {g.turn}: the message reveals a {item[0]} card where a {kind} card turns up")
        return item

    def end_turn(self, turn: int, completed: tuple[Pool, ...], merging: tuple[Pool, ...], player: int, count: int) -> Draw:
        g = self._g()
        if turn != g.turn:
            raise DealerError(f"the engine ends turn {turn} but the protocol is at turn {g.turn}")
        merging_cards = [sorted(c.index for c in p.cards) for p in merging]
        if merging_cards != [sorted(p.cards) for p in g.pools]:
            raise DealerError(f"turn {turn}: the pools to merge are not those completed last turn")
        if player == self.me:
            return self._receive_end(turn, completed, count)
        return self._make_end(turn, completed, count)

    def _make_end(self, turn: int, completed: tuple[Pool, ...], count: int) -> Draw:
        """My end of turn: shuffle the stock if I must, reserve the other's draw, merge the pools, layer the new ones."""
        g, me, other = self._g(), self.me, self.other
        end: dict[str, Any] = {}
        if not g.shuffled[me]:
            epoch, k, pub = self._new_key(g.number)
            factor = group.ratio(k, self._my_key(g.stock_epoch[me]))
            g.stock = shuffled(self.rng, group.layer(factor, g.stock))
            g.keys[me].append(pub)
            g.stock_epoch[me], g.shuffled[me], g.last_shuffle = epoch, True, [me, turn]
            end["shuffle"] = {"key": group.b64(pub), "stock": _b64s(g.stock)}
        if count > len(g.stock):
            raise DealerError(f"turn {turn}: {count} cards are due from a stock of {len(g.stock)}")
        if count:
            k_cur = self._my_key(g.stock_epoch[me])
            pub = g.keys[me][g.stock_epoch[me]]
            drawn, prfs = [], []
            for i in range(count):
                ctx = self._ctx(turn, f"draw {i + 1} for player {other + 1}")
                pt, proof = proofs.strip(ctx, k_cur, pub, g.stock[-1 - i], self.rng)
                drawn.append(pt)
                prfs.append(proof)
                g.hands[other].append(HandCard(pt, g.stock_epoch[other]))
            del g.stock[len(g.stock) - count :]
            end["draw"] = {"points": _b64s(drawn), "proofs": _b64s(prfs)}
        if g.pools:
            epoch, k, pub = self._new_key(g.number)
            factor = group.ratio(k, self._my_key(g.stock_epoch[me]))
            merged = group.layer(factor, g.stock) + [group.mul(k, p) for pool in g.pools for p in pool.points]
            g.stock = shuffled(self.rng, merged)
            g.keys[me].append(pub)
            g.stock_epoch[me], g.shuffled, g.last_shuffle = epoch, [True, True], [me, turn]
            g.shuffled[other] = False
            for pool in g.pools:
                g.face_up.difference_update(pool.cards)
            g.pools = []
            end["merge"] = {"key": group.b64(pub), "stock": _b64s(g.stock)}
        if completed:
            k_cur = self._my_key(g.stock_epoch[me])
            layered_pools = []
            for pool in completed:
                cards = [c.index for c in pool.cards]
                pts = self._layer_pool(g.number, cards, k_cur)
                g.pools.append(PoolRecord(turn, cards, pts, me, g.stock_epoch[me]))
                layered_pools.append(_b64s(pts))
            end["pools"] = layered_pools
        end["turn"] = turn
        self.outbox["end"] = end
        g.turn += 1
        return Draw((), unseen=count)

    def _layer_pool(self, game: int, cards: list[int], k: Scalar) -> list[Point]:
        """A completed center stack's public cards under my layer `k`, shuffled."""
        return shuffled(self.rng, [group.mul(k, group.card_point(self.match, game, c)) for c in cards])

    def _receive_end(self, turn: int, completed: tuple[Pool, ...], count: int) -> Draw:
        """The other's end of turn, checked at receipt: take it in and read my draw."""
        g, me, other = self._g(), self.me, self.other
        st = self._staged.end
        if st is None or self._staged.consumed_end:
            raise ProtocolError(f"game {g.number}, turn {turn}: the message does not end the turn")
        if self._staged.reveals:
            raise ProtocolError(f"game {g.number}, turn {turn}: the message reveals more cards than the moves turn up")
        if len(st["draw"]) != count:
            raise ProtocolError(f"game {g.number}, turn {turn}: {len(st['draw'])} cards were reserved where {count} are due")
        if len(st["pools"]) != len(completed) or any(len(p.cards) != len(pts) for p, pts in zip(completed, st["pools"], strict=False)):
            raise ProtocolError(
                f"game {g.number}, turn {turn}: the message layers {len(st['pools'])} pools where {len(completed)} were completed"
            )
        self._staged.consumed_end = True
        g.keys[other].extend(st["keys"])
        g.stock, g.stock_epoch[other], g.shuffled = st["stock"], st["epoch"], st["shuffled"]
        if st["last_shuffle"]:
            g.last_shuffle = st["last_shuffle"]
        for pool in g.pools if st["merged"] else []:
            g.face_up.difference_update(pool.cards)
        if st["merged"]:
            g.pools = []
        g.hands[me].extend(st["draw"])
        for pool, pts in zip(completed, st["pools"], strict=True):
            g.pools.append(PoolRecord(turn, [c.index for c in pool.cards], pts, other, st["epoch"]))
        g.turn += 1
        return Draw(tuple(Card.from_index(h.card) for h in st["draw"]))  # type: ignore[arg-type]

    # --- messages ---

    def send(self, state: GameState | None = None, moves: list[Move] | tuple[Move, ...] = ()) -> dict[str, Any]:
        """The next message: what is due of the deal, my turn's `moves` with their reveals, my keys after a game's end.

        `state` is my engine state after the moves (None before the first deal).
        """
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError("the last message received has not been played through: call settle() after its moves")
        msg: dict[str, Any] = {"v": VERSION, "match": group.b64(self.match), "seq": self.seq + 1, "from": self.me}
        if "deal" in self.outbox:
            msg["deal"] = self.outbox.pop("deal")
        g = self.game
        if moves:
            if g is None:
                raise ProtocolError("there are no moves before the deal")
            end = self.outbox.pop("end", None)
            turn = end.pop("turn") if end else g.turn
            section: dict[str, Any] = {"game": g.number, "turn": turn, "moves": " ".join(str(m) for m in moves)}
            if self.outbox.get("reveals"):
                section["reveals"] = self.outbox.pop("reveals")
            if end is not None:
                section["end"] = end
            msg["turn"] = section
        elif self.outbox.get("reveals") or "end" in self.outbox:
            raise ProtocolError("cards were played but no moves are given to send")
        self.outbox.pop("reveals", None)
        if state is not None and state.outcome is not None and g is not None:
            self._game_over(state)
            if g.number not in self.sent_secrets:
                msg["secrets"] = {"game": g.number, "keys": _b64s(self.keys[g.number])}
                self.sent_secrets.add(g.number)
                self._maybe_audit()
                self._prune()
        if self.game is None and self.dealing is None and self.me == starter_of(1) and self.seq == 0:
            msg["deal"] = self._deal1(1)
        elif g is not None and g.over and not self.record.is_over and self.dealing is None:
            nxt = g.number + 1
            if starter_of(nxt) == self.me:
                if "deal" in msg:
                    raise ProtocolError("two deal steps in one message")
                msg["deal"] = self._deal1(nxt)
        if len(msg) == 4:
            raise ProtocolError("there is nothing to send now")
        self.seq += 1
        return msg

    def receive(self, msg: Any) -> list[Move]:
        """Check a message from the other player; returns the moves to apply, with this party as dealer, before settle()."""
        if not isinstance(msg, dict):
            raise ProtocolError("a message is a table")
        if msg.get("v") != VERSION:
            raise ProtocolError(f"a message of protocol version {msg.get('v')!r}; this spite speaks version {VERSION}")
        if msg.get("match") != group.b64(self.match):
            raise StaleMessageError("the message belongs to another match")
        if msg.get("from") != self.other:
            raise ProtocolError("the message is not from the other player")
        seq = msg.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq != self.seq + 1:
            raise StaleMessageError(f"message {seq} is not the one due (message {self.seq + 1}): a message replayed, lost or out of order")
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError("the previous message has not been played through")
        saved = (
            self.game,
            self.dealing,
            dict(self.outbox),
            {g: list(k) for g, k in self.keys.items()},
            dict(self.theirs),
            self._deal_ready,
        )
        try:
            return self._receive(msg, seq)
        except BaseException:
            self.game, self.dealing, self.outbox, self.keys, self.theirs, self._deal_ready = saved
            self._staged = _Staged()
            raise

    def _receive(self, msg: dict[str, Any], seq: int) -> list[Move]:
        self._staged = _Staged()
        deal, turn, secrets = msg.get("deal"), msg.get("turn"), msg.get("secrets")
        moves: list[Move] = []
        if deal is not None and deal.get("step") == 3:
            self._on_deal(deal)
            deal = None
        if turn is not None:
            moves = self._on_turn(turn)
        if secrets is not None:
            self._on_secrets(secrets)
            if turn is None:
                self._maybe_audit()
        if deal is not None:
            self._on_deal(deal)
        self.seq = seq
        return moves

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

    def _on_turn(self, section: Any) -> list[Move]:
        g = self._g()
        if not isinstance(section, dict):
            raise ProtocolError("the turn section is not a table")
        if section.get("game") != g.number or section.get("turn") != g.turn or g.over:
            raise StaleMessageError(
                f"a turn {section.get('turn')} of game {section.get('game')} where turn {g.turn} of game {g.number} is due"
            )
        if g.to_move != self.other:
            raise StaleMessageError(f"turn {g.turn} is this player's own turn")
        try:
            moves = parse_turn(str(section.get("moves", "")))
        except InvalidMoveError as e:
            raise ProtocolError(f"turn {g.turn}: {e}") from e
        if not moves:
            raise ProtocolError(f"turn {g.turn}: the message has no moves")
        x, t = self.other, g.turn
        hand = list(g.hands[x])
        pile = list(g.piles[x])
        seen: set[int] = set()
        for n, rv in enumerate(section.get("reveals", [])):
            if not isinstance(rv, dict):
                raise ProtocolError(f"turn {t}: reveal {n + 1} is not a table")
            pt = group.point(rv.get("point"), f"turn {t}: reveal {n + 1}")
            prf = _proof(rv.get("proof"), f"turn {t}: reveal {n + 1}")
            if rv.get("kind") == "hand":
                slot = rv.get("slot")
                if not isinstance(slot, int) or not 0 <= slot < len(hand):
                    raise ProtocolError(f"turn {t}: reveal {n + 1} names hand card {slot}, which player {x + 1} does not hold")
                entry = hand.pop(slot)
                what = f"hand card {slot + 1} of player {x + 1}"
                proofs.verify(self._ctx(t, what), prf, g.keys[x][entry.epoch], pt, entry.point)
            elif rv.get("kind") == "payoff":
                if not pile:
                    raise ProtocolError(f"turn {t}: reveal {n + 1} turns up a pay-off card that player {x + 1} does not have")
                layered = pile.pop()
                what = f"pay-off card {len(pile) + 1} of player {x + 1}"
                proofs.verify(self._ctx(t, what), prf, g.keys[x][0], pt, layered)
                slot = -1
            else:
                raise ProtocolError(f"turn {t}: reveal {n + 1} is of no known kind")
            index = self._decode(pt, f"turn {t}: the reveal of {what}")
            self._check_new(index, f"the reveal of {what}", seen)
            seen.add(index)
            self._staged.reveals.append((rv["kind"], slot, index))
        if "end" in section:
            self._staged.end = self._check_end(section["end"], seen)
        return moves

    def _check_end(self, end: Any, seen: set[int]) -> dict[str, Any]:
        """Check the other's end of turn (shuffle, reservation of my draw, merge, pool layers) and read my draw."""
        g, x, me, t = self._g(), self.other, self.me, self._g().turn
        if not isinstance(end, dict):
            raise ProtocolError(f"turn {t}: the end of turn is not a table")
        stock, epoch, keys = list(g.stock), g.stock_epoch[x], []
        shuffled_flags, last = list(g.shuffled), []
        if ("shuffle" in end) != (not g.shuffled[x]):
            raise ProtocolError(f"turn {t}: player {x + 1} {'must' if not g.shuffled[x] else 'may not'} shuffle the stock now")
        if "shuffle" in end:
            sh = _table_of(end["shuffle"], f"turn {t}: the shuffle")
            keys.append(group.point(sh.get("key"), f"turn {t}: the shuffle's key"))
            stock = group.points(sh.get("stock"), f"turn {t}: the shuffled stock", len(stock))
            epoch = len(g.keys[x]) + len(keys) - 1
            shuffled_flags[x], last = True, [x, t]
        key = keys[-1] if keys else g.keys[x][epoch]
        draw: list[HandCard] = []
        if "draw" in end:
            dr = _table_of(end["draw"], f"turn {t}: the draw")
            n = len(dr.get("points", []))
            if not 0 < n <= min(self.ruleset.hand_size, len(stock)):
                raise ProtocolError(f"turn {t}: {n} cards reserved from a stock of {len(stock)}")
            pts = group.points(dr.get("points"), f"turn {t}: the draw", n)
            prfs = _proofs(dr.get("proofs"), n, f"turn {t}: the draw")
            mine = self._my_key(g.stock_epoch[me])
            inverse = group.invert(mine)
            for i, (pt, prf) in enumerate(zip(pts, prfs, strict=True)):
                proofs.verify(self._ctx(t, f"draw {i + 1} for player {me + 1}"), prf, key, pt, stock[-1 - i])
                index = self._decode(group.mul(inverse, pt), f"turn {t}: your draw {i + 1}")
                self._check_new(index, f"your draw {i + 1}", seen)
                seen.add(index)
                draw.append(HandCard(pt, g.stock_epoch[me], index))
            stock = stock[: len(stock) - n]
        merged = bool(g.pools)
        if ("merge" in end) != merged:
            raise ProtocolError(f"turn {t}: the pools completed last turn {'must' if merged else 'cannot'} be merged now")
        if merged:
            mg = _table_of(end["merge"], f"turn {t}: the merge")
            keys.append(group.point(mg.get("key"), f"turn {t}: the merge's key"))
            size = len(stock) + sum(len(p.cards) for p in g.pools)
            stock = group.points(mg.get("stock"), f"turn {t}: the merged stock", size)
            epoch = len(g.keys[x]) + len(keys) - 1
            shuffled_flags = [False, False]
            shuffled_flags[x], last = True, [x, t]
        pools = []
        for i, pool in enumerate(end.get("pools", [])):
            pools.append(group.points(pool, f"turn {t}: pool {i + 1}", self.ruleset.complete_at))
        return {
            "keys": keys,
            "stock": stock,
            "epoch": epoch,
            "shuffled": shuffled_flags,
            "last_shuffle": last,
            "merged": merged,
            "draw": draw,
            "pools": pools,
        }

    def _on_secrets(self, section: Any) -> None:
        g = self._g()
        if not isinstance(section, dict) or section.get("game") != g.number or g.number in self.theirs:
            raise StaleMessageError(f"keys of game {section.get('game') if isinstance(section, dict) else '?'} are not due now")
        keys = section.get("keys")
        if not isinstance(keys, list):
            raise ProtocolError("the revealed keys are not a list")
        self.theirs[g.number] = [group.scalar(k, f"revealed key {i}") for i, k in enumerate(keys)]

    def settle(self, state: GameState | None) -> None:
        """After the received moves are applied: check that the message was used up, note a game's end, audit it."""
        g = self.game
        if self._staged.reveals:
            raise ProtocolError(f"turn {g.turn if g else 0}: the message reveals more cards than the moves turn up")
        if self._staged.end is not None and not self._staged.consumed_end:
            raise ProtocolError(f"turn {g.turn if g else 0}: the message ends a turn that the moves do not end")
        if state is not None and state.outcome is not None:
            self._game_over(state)
        elif g is not None and g.number in self.theirs and not g.over:
            raise ProtocolError(f"game {g.number}: keys revealed before the game is over")
        self._maybe_audit()

    def _game_over(self, state: GameState) -> None:
        g = self._g()
        if not g.over:
            g.over = True
            self.record = self.record.record(state.outcome)  # type: ignore[arg-type]

    def _maybe_audit(self) -> None:
        g = self.game
        if g is None or g.audited or not g.over or g.number not in self.theirs:
            return
        secrets: list[list[Scalar]] = [[], []]
        secrets[self.me], secrets[self.other] = self.keys[g.number], self.theirs[g.number]
        audit_game(g, secrets, self.match, self.ruleset.deck_size)
        g.audited = True
        # an audited game's points protect nothing any more: drop them so saves stay small
        g.keys, g.stock, g.piles, g.hands, g.pools, g.face_up = [[], []], [], [[], []], [[], []], [], set()
        del self.theirs[g.number]
        self._prune()

    def _prune(self) -> None:
        """Forget my keys of an audited game once they were sent."""
        g = self.game
        if g is not None and g.audited and g.number in self.sent_secrets:
            self.keys.pop(g.number, None)

    # --- saving and restoring ---

    def export_public(self) -> dict[str, Any]:
        """This party's protocol state as plain TOML-compatible data (no secret in it)."""
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError("a received message is half played through; settle it before saving")
        data: dict[str, Any] = {
            "v": VERSION,
            "me": self.me,
            "match": group.b64(self.match),
            "seq": self.seq,
            "scores": list(self.record.scores),
            "games": self.record.games,
            "theirs": {str(g): _b64s(k) for g, k in self.theirs.items()},
            "sent_secrets": sorted(self.sent_secrets),
            "deal_ready": self._deal_ready,
            "outbox": self.outbox,
        }
        if self.game is not None:
            data["game"] = self.game.to_data()
        if self.dealing is not None:
            data["dealing"] = _dealing_data(self.dealing)
        return json.loads(json.dumps(data))  # a deep copy of plain data

    def export_secrets(self) -> bytes:
        """My secret scalars, serialized (seal them with pbm.secrets before they leave memory)."""
        return json.dumps({"v": VERSION, "keys": {str(g): _b64s(k) for g, k in self.keys.items()}}, sort_keys=True).encode()

    @classmethod
    def restore(cls, public: dict[str, Any], secret: bytes, ruleset: Ruleset = G4A, rng: Rng | None = None) -> Party:
        """The party that :meth:`export_public` and :meth:`export_secrets` describe."""
        try:
            match = group.unb64(public["match"], 16, "the match id")
            party = cls(int(public["me"]), match, ruleset, rng)
            party.seq = int(public["seq"])
            party.record = Match(ruleset, (int(public["scores"][0]), int(public["scores"][1])), int(public["games"]))
            party.theirs = {int(g): [group.scalar(k, "a revealed key") for k in ks] for g, ks in public["theirs"].items()}
            party.sent_secrets = {int(g) for g in public["sent_secrets"]}
            party._deal_ready = bool(public["deal_ready"])
            party.outbox = json.loads(json.dumps(public["outbox"]))
            secrets = json.loads(secret)
            party.keys = {int(g): [group.scalar(k, "a secret key") for k in ks] for g, ks in secrets["keys"].items()}
            if "game" in public:
                party.game = GameRecord.from_data(public["game"])
                table = party._table(party.game.number)
                for h in party.game.hands[party.me]:
                    h.card = table.get(group.mul(group.invert(party.keys[party.game.number][h.epoch]), h.point))
                    if h.card is None:
                        raise ProtocolError("a hand card of the saved game does not open with the saved keys")
            if "dealing" in public:
                party.dealing = _dealing_from(public["dealing"])
        except (KeyError, TypeError, ValueError) as e:
            raise ProtocolError(f"the saved protocol state is incomplete or malformed ({e})") from e
        return party


def _b64s(items: list[bytes]) -> list[str]:
    return [group.b64(x) for x in items]


def _proof(text: Any, what: str) -> bytes:
    return group.unb64(text, 64, f"{what}: the proof")


def _proofs(texts: Any, count: int, what: str) -> list[bytes]:
    if not isinstance(texts, list) or len(texts) != count:
        raise ProtocolError(f"{what}: {count} proofs are due")
    return [_proof(t, f"{what} [{i + 1}]") for i, t in enumerate(texts)]


def _table_of(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} is not a table")
    return value


def _dealing_data(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"game": d["game"], "step": d["step"], "first": d["first"]}
    if "record" in d:
        out["record"] = d["record"].to_data()
        out["top"] = group.b64(d["top"])
    if "tops" in d:
        out["tops"] = [d["tops"][0], d["tops"][1]]
    return out


def _dealing_from(data: dict[str, Any]) -> dict[str, Any]:
    d: dict[str, Any] = {"game": int(data["game"]), "step": int(data["step"]), "first": int(data["first"])}
    if "record" in data:
        d["record"] = GameRecord.from_data(data["record"])
        d["top"] = group.point(data["top"], "the dealt pay-off top")
    if "tops" in data:
        d["tops"] = {0: int(data["tops"][0]), 1: int(data["tops"][1])}
    return d
