"""The fair-dealing protocol (docs/protocol.md): one player's side, as a Party that is also the engine's Dealer.

Two parties exchange only messages (plain TOML-compatible dicts). The mover applies its moves
to its own GameState with its Party as dealer, then :meth:`Party.send` gives the message; the
receiver's :meth:`Party.receive` checks every point and proof at once and returns the moves,
which the receiver applies to its own state with its Party as dealer, then calls
:meth:`Party.settle`. :class:`pbm.protocol.seat.Seat` runs that loop.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.dealer import Deal, DealerError, Draw
from engine.game import Match
from engine.moves import Move
from engine.rules import G4A, Ruleset
from engine.state import GameState, Pool
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.protocol import group, proofs
from pbm.protocol.audit import audit_game
from pbm.protocol.dealsteps import DealSteps, starter_of
from pbm.protocol.deck import SEED_SIZE, SYSTEM_RNG, GameRecord, HandCard, PoolRecord, epoch_key, shuffled
from pbm.protocol.group import Point, Rng, Scalar, b64s
from pbm.protocol.incoming import TurnChecks
from pbm.protocol.partystate import VERSION, Persistence
from pbm.protocol.proofs import Context

__all__ = ["VERSION", "Party", "starter_of"]


@dataclass(slots=True)
class _Staged:
    """What a received turn told this party, checked, waiting for the engine's dealer calls."""

    reveals: list[tuple[str, int, int]] = field(default_factory=list)  # (kind, hand slot, card index)
    end: dict[str, Any] | None = None
    consumed_end: bool = False


class Party(DealSteps, TurnChecks, Persistence):
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
        self.seeds: dict[int, bytes] = {}  # the seed each game's scalars derive from (pbm.protocol.deck.epoch_key)
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
        if game not in self.seeds:
            self.seeds[game] = self.rng(SEED_SIZE)
        keys = self.keys.setdefault(game, [])
        keys.append(epoch_key(self.seeds[game], game, len(keys)))
        return len(keys) - 1, keys[-1], group.base(keys[-1])

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

    # --- the Dealer ---

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        deal = self.peek_deal(ruleset, starter)
        self._deal_ready = False
        self.dealing = None
        return deal

    def peek_deal(self, ruleset: Ruleset, starter: int) -> Deal:
        """What :meth:`deal` will answer, without taking the deal (for a dry run of a received message)."""
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
        return Deal(
            hands=(hands[0], hands[1]),
            payoff_tops=(Card.from_index(tops[0]), Card.from_index(tops[1])),
            unseen=(unseen[0], unseen[1]),
        )

    def staged(self) -> tuple[list[Card], list[Card]]:
        """The cards a received message will turn up, in order, and my draw: what the dealer calls will answer."""
        end = self._staged.end
        return [Card.from_index(i) for _, _, i in self._staged.reveals], [Card.from_index(h.card) for h in (end["draw"] if end else [])]  # type: ignore[arg-type]

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
            if g.pools and count <= len(g.stock):  # the merge below re-shuffles at once: only the reserved top need travel
                end["shuffle"] = {"key": group.b64(pub), "top": b64s(g.stock[len(g.stock) - i - 1] for i in range(count))}
            else:
                end["shuffle"] = {"key": group.b64(pub), "stock": b64s(g.stock)}
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
            end["draw"] = {"points": b64s(drawn), "proofs": b64s(prfs)}
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
            end["merge"] = {"key": group.b64(pub), "stock": b64s(g.stock)}
        if completed:
            k_cur = self._my_key(g.stock_epoch[me])
            layered_pools = []
            for pool in completed:
                cards = [c.index for c in pool.cards]
                pts = self._layer_pool(g.number, cards, k_cur)
                g.pools.append(PoolRecord(turn, cards, pts, me, g.stock_epoch[me]))
                layered_pools.append(b64s(pts))
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
            if "end" not in self.outbox and (state is None or state.outcome is None):
                raise ProtocolError("the turn is not over yet: it ends with a discard to a side stack, or 'end'")
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
        if state is not None and state.outcome is not None and g is not None and not self._deal_ready:
            self._game_over(state)
            if g.number not in self.sent_secrets:
                msg["secrets"] = {"game": g.number, "keys": b64s(self.keys[g.number])}
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

    def receive(self, msg: Any, check: Callable[[list[Move]], None] | None = None) -> list[Move]:
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
            dict(self.seeds),
            dict(self.theirs),
            self._deal_ready,
            self.seq,
        )
        try:
            moves = self._receive(msg, seq)
            if check is not None:  # e.g. the moves played through on a copy of the engine's state
                check(moves)
            return moves
        except BaseException:
            self.game, self.dealing, self.outbox, self.keys, self.seeds, self.theirs, self._deal_ready, self.seq = saved
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

    def settle(self, state: GameState | None) -> None:
        """After the received moves are applied: check that the message was used up, note a game's end, audit it."""
        g = self.game
        if self._staged.reveals:
            raise ProtocolError(f"turn {g.turn if g else 0}: the message reveals more cards than the moves turn up")
        if self._staged.end is not None and not self._staged.consumed_end:
            raise ProtocolError(f"turn {g.turn if g else 0}: the message ends a turn that the moves do not end")
        if state is not None and state.outcome is not None and not self._deal_ready:
            self._game_over(state)
        elif g is not None and g.number in self.theirs and not g.over:
            raise ProtocolError(f"game {g.number}: keys revealed before the game is over")
        self._maybe_audit()

    def _game_over(self, state: GameState) -> None:
        """Note that the game ended as `state` says; the state must be this game's (its turn is the protocol's)."""
        g = self._g()
        if not g.over:
            if state.turn != g.turn:
                raise ProtocolError(f"the finished game given is at turn {state.turn}, but game {g.number} is at turn {g.turn}")
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
            self.seeds.pop(g.number, None)
