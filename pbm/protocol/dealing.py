"""The fair-dealing protocol (docs/protocol.md): one player's side, as a Party that is also the engine's Dealer.

Two parties exchange only messages (plain TOML-compatible tables). The mover applies its moves
to its own GameState with its Party as dealer, then :meth:`Party.send` gives the message (a typed
:class:`~pbm.protocol.messages.Message`, whose ``to_data()`` is the table that travels); the
receiver's :meth:`Party.receive` checks every point and proof at once and returns the moves,
which the receiver applies to its own state with its Party as dealer, then calls
:meth:`Party.settle`. :class:`pbm.protocol.seat.Seat` runs that loop.

The Party keeps the state (its record of the game, its keys, the deal under way, its outbox) and
makes its own turns; it holds the collaborators that check a received turn
(:class:`~pbm.protocol.incoming.TurnChecks`) and make and check the deal
(:class:`~pbm.protocol.dealsteps.DealSteps`); pbm/protocol/partystate.py saves and restores it.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Self

from engine.cards import Card
from engine.dealer import Deal, DealerError, Draw
from engine.game import Match, Outcome
from engine.game import resign as resigned_state
from engine.moves import Move
from engine.rules import G4A, Ruleset
from engine.state import GameState, Pool
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.i18n import _, ngettext, pgettext
from pbm.protocol import group, partystate, proofs, shuffle
from pbm.protocol.audit import audit_game
from pbm.protocol.dealsteps import DealSteps, starter_of
from pbm.protocol.deck import SEED_SIZE, SYSTEM_RNG, GameRecord, HandCard, PoolRecord, epoch_key, shuffled
from pbm.protocol.group import Point, Rng, Scalar
from pbm.protocol.incoming import MERGE_LAYER, MERGED_STOCK, STOCK_SHUFFLE, CheckedEnd, TurnChecks, pool_name
from pbm.protocol.messages import (
    READS,
    VERSION,
    Deal1,
    Deal3,
    DrawReservation,
    End,
    Locked,
    Merge,
    Message,
    Resign,
    Reveal,
    RevealKind,
    Secrets,
    Shuffle,
    Turn,
    parse_message,
)
from pbm.protocol.messages import Deal as DealStep
from pbm.protocol.partystate import Dealing, Outbox
from pbm.protocol.proofs import Context
from pbm.protocol.shuffle import ShuffleContext

__all__ = ["VERSION", "Party", "starter_of"]


@dataclass(slots=True)
class _Staged:
    """What a received turn told this party, checked, waiting for the engine's dealer calls."""

    reveals: list[tuple[RevealKind, int, int]] = field(default_factory=list)  # (kind, hand slot or -1, card index)
    end: CheckedEnd | None = None
    consumed_end: bool = False
    ends_game: bool = False  # the turn ends its game, as the protocol reckons it on receipt
    message: Message | None = None


@dataclass(slots=True)
class Snapshot:
    """What a message can change, as :meth:`Party.snapshot` took it."""

    game: GameRecord | None
    dealing: Dealing | None
    outbox: Outbox
    keys: dict[int, list[Scalar]]
    seeds: dict[int, bytes]
    theirs: dict[int, list[Scalar]]
    deal_ready: bool
    seq: int
    record: Match
    sent_secrets: set[int]
    their_version: int


class Party:
    """One player's side of the protocol: its secrets, its record of the game, and the Dealer for its own engine.

    It holds `checks` (a received turn's checks) and `deals` (the deal's steps); the underscored helpers under
    *facts* are theirs too (and what a test's modified party overrides).
    """

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
        self.dealing: Dealing | None = None  # the next game's deal while it is under way
        self.keys: dict[int, list[Scalar]] = {}  # my secret scalars, by game
        self.seeds: dict[int, bytes] = {}  # the seed each game's scalars derive from (pbm.protocol.deck.epoch_key)
        self.theirs: dict[int, list[Scalar]] = {}  # the opponent's revealed scalars, by game
        self.sent_secrets: set[int] = set()
        self.their_version = READS[0]  # the protocol version of the other's latest message: none older is taken after it
        self.outbox = Outbox()
        self._staged = _Staged()
        self._deal_ready = False
        # only looked at (spite show, verify): every check runs, but no answer is made (a deal step's shuffle or strips),
        # so the party cannot send nor be saved (the opponent's points of a deal it answered are not stripped)
        self.looking = False
        self.checks = TurnChecks(self)
        self.deals = DealSteps(self)

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
        """The context of a proof I make now: it travels in my next message, of the current protocol version."""
        return Context(self.match, game if game is not None else self._g().number, turn, slot, VERSION)

    def _their_ctx(self, turn: int, slot: str, game: int | None = None) -> Context:
        """The context of a proof in the message under check: checked by the rules of that message's protocol version."""
        msg = self._staged.message
        return dataclasses.replace(self._ctx(turn, slot, game), version=msg.version if msg is not None else VERSION)

    def _sctx(self, turn: int, name: str, seq: int, game: int | None = None) -> ShuffleContext:
        return ShuffleContext(self.match, game if game is not None else self._g().number, turn, seq, name)

    def _g(self) -> GameRecord:
        if self.game is None:
            raise ProtocolError(_("no game has been dealt yet"))
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

    def _check_new(self, card: int, what: str, extra: AbstractSet[int] = frozenset()) -> None:
        """A card that turns up or is drawn must not be face up already, nor in my hand."""
        g = self._g()
        mine = {h.card for h in g.hands[self.me]}
        if card in g.face_up or card in mine or card in extra:
            # TRANSLATORS: {what} names a card that turned up, e.g. "the reveal of hand card 2 of player 1"; {card} is a card, e.g. 7h
            text = _("game {game}, turn {turn}: {what} is {card}, a card already in play elsewhere")
            raise CardError(text.format(game=g.number, turn=g.turn, what=what, card=Card.from_index(card)))

    def _known(self, hand: HandCard) -> Card:
        """One of my own hand cards, which I know."""
        if hand.card is None:
            raise ProtocolError(_("game {game}: a card of your hand is not known").format(game=self._g().number))
        return Card.from_index(hand.card)

    def _decode(self, pt: Point, what: str, game: int | None = None) -> int:
        index = self._table(game or self._g().number).get(pt)
        if index is None:
            # TRANSLATORS: {what} names a card that turned up, e.g. "turn 5: your draw 2": it decodes to no card of the deck
            raise CardError(_("{what} is no card").format(what=what))
        return index

    # --- the Dealer ---

    def deal(self, ruleset: Ruleset, starter: int) -> Deal:
        deal = self.peek_deal(ruleset, starter)
        self._deal_ready = False
        self.dealing = None
        return deal

    def peek_deal(self, ruleset: Ruleset, starter: int) -> Deal:
        """What :meth:`deal` will answer, without taking the deal (for a dry run of a received message)."""
        tops = self.dealing.tops if self.dealing is not None else None
        if not self._deal_ready or tops is None:
            raise DealerError("the deal is not complete: its messages have not all arrived")
        g = self._g()
        if ruleset != self.ruleset or starter != g.starter:
            raise DealerError(f"game {g.number} is dealt for player {g.starter + 1} to start under ruleset {self.ruleset.name}")
        hands: list[tuple[Card, ...]] = [(), ()]
        hands[self.me] = tuple(self._known(c) for c in g.hands[self.me])
        unseen = [0, 0]
        unseen[self.other] = len(g.hands[self.other])
        return Deal(
            hands=(hands[0], hands[1]),
            payoff_tops=(Card.from_index(tops[0]), Card.from_index(tops[1])),
            unseen=(unseen[0], unseen[1]),
        )

    def staged(self) -> list[Card]:
        """The cards a received message will turn up, in order: what the dealer calls will answer."""
        return [Card.from_index(i) for _kind, _slot, i in self._staged.reveals]

    def turn_up(self, player: int) -> Card:
        g = self._g()
        if player == self.me:
            layered = g.piles[player].pop()
            slot = proofs.PAYOFF_SLOT.format(n=len(g.piles[player]) + 1, player=player + 1)
            card_pt, proof = proofs.strip(self._ctx(g.turn, slot), self._my_key(0), g.keys[player][0], layered, self.rng)
            index = self._decode(card_pt, _("game {game}, turn {turn}: your next pay-off card").format(game=g.number, turn=g.turn))
            self._check_new(index, _("your next pay-off card"))
            self.outbox.reveals.append(Reveal("payoff", None, card_pt, proof))
        else:
            _kind, _slot, index = self._next_staged("payoff")
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
            ctx = self._ctx(g.turn, proofs.HAND_SLOT.format(n=slot + 1, player=player + 1))
            card_pt, proof = proofs.strip(ctx, self._my_key(entry.epoch), g.keys[player][entry.epoch], entry.point, self.rng)
            self.outbox.reveals.append(Reveal("hand", slot, card_pt, proof))
            g.face_up.add(card.index)
            return card
        __, slot, index = self._next_staged("hand")
        shown = Card.from_index(index)
        if shown.rank != rank:
            # TRANSLATORS: {rank} is a card's rank as a number (1 to 13) and {card} a card as spite writes it, e.g. 7h
            text = _("game {game}, turn {turn}: the move plays a {rank} but the card revealed is {card}")
            raise CardError(text.format(game=g.number, turn=g.turn, rank=rank, card=shown))
        g.hands[player].pop(slot)
        g.face_up.add(index)
        return shown

    def _next_staged(self, kind: RevealKind) -> tuple[RevealKind, int, int]:
        g = self._g()
        if not self._staged.reveals:
            text = _("game {game}, turn {turn}: the moves turn up more cards than the message reveals")
            raise ProtocolError(text.format(game=g.number, turn=g.turn))
        item = self._staged.reveals.pop(0)
        if item[0] != kind:
            if item[0] == "hand":
                text = _("game {game}, turn {turn}: the message reveals a hand card where a payoff card turns up")
            else:
                text = _("game {game}, turn {turn}: the message reveals a payoff card where a hand card turns up")
            raise ProtocolError(text.format(game=g.number, turn=g.turn))
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
        """My end of turn: shuffle the stock if I must, reserve the other's draw, merge the pools, layer the new ones, with proofs."""
        g, me, other = self._g(), self.me, self.other
        seq = self.seq + 1  # the message this end of turn travels in
        shuffle_msg: Shuffle | None = None
        merge_msg: Merge | None = None
        draw_msg: DrawReservation | None = None
        owes = not g.shuffled[me]
        at_random = owes and bool(g.pools)  # a merge follows at once and shuffles everything
        if owes and not g.pools:
            shuffle_msg = self._rekey(g.stock, turn, seq, STOCK_SHUFFLE)
            g.shuffled[me], g.last_shuffle = True, [me, turn]
        if count > len(g.stock):
            raise DealerError(f"turn {turn}: {count} cards are due from a stock of {len(g.stock)}")
        if count:
            # drawing at random places stands in for the shuffle I owe when the merge shuffles everything at once
            positions = shuffled(self.rng, list(range(len(g.stock))))[:count] if at_random else list(range(count))
            k_cur = self._my_key(g.stock_epoch[me])
            pub = g.keys[me][g.stock_epoch[me]]
            drawn: list[Point] = []
            prfs: list[bytes] = []
            for i, pos in enumerate(positions):
                ctx = self._ctx(turn, proofs.DRAW_SLOT.format(n=i + 1, player=other + 1))
                pt, proof = proofs.strip(ctx, k_cur, pub, g.stock[-1 - pos], self.rng)
                drawn.append(pt)
                prfs.append(proof)
                g.hands[other].append(HandCard(pt, g.stock_epoch[other]))
            taken = {len(g.stock) - 1 - pos for pos in positions}
            g.stock = [p for i, p in enumerate(g.stock) if i not in taken]
            draw_msg = DrawReservation(tuple(drawn), tuple(prfs), tuple(positions) if at_random else ())
        if g.pools:
            k_cur, pub = self._my_key(g.stock_epoch[me]), g.keys[me][g.stock_epoch[me]]
            pool_points = [p for pool in g.pools for p in pool.points]
            layered = group.layer(k_cur, pool_points)
            layer_proof = proofs.prove_batch(self._ctx(turn, MERGE_LAYER), k_cur, pub, pool_points, layered, self.rng)
            sizes = [len(pool.points) for pool in g.pools]
            groups = tuple(tuple(layered[sum(sizes[:i]) : sum(sizes[: i + 1])]) for i in range(len(sizes)))
            merged = self._rekey(g.stock + layered, turn, seq, MERGED_STOCK)
            g.shuffled, g.last_shuffle = [False, False], [me, turn]
            g.shuffled[me] = True
            for recycled in g.pools:
                g.face_up.difference_update(recycled.cards)
            g.pools = []
            merge_msg = Merge(groups, layer_proof, merged)
        pools: list[Locked] = []
        if completed:
            k_cur, pub = self._my_key(g.stock_epoch[me]), g.keys[me][g.stock_epoch[me]]
            for n, pool in enumerate(completed):
                cards = [c.index for c in pool.cards]
                pts, proof = self._lock_pool(g.number, cards, k_cur, pub, self._ctx(turn, pool_name(n)))
                g.pools.append(PoolRecord(turn, cards, pts, me, g.stock_epoch[me]))
                pools.append(Locked(pub, tuple(pts), proof))
        self.outbox.end, self.outbox.end_turn = End(shuffle_msg, draw_msg, merge_msg, tuple(pools)), turn
        g.turn += 1
        return Draw((), unseen=count)

    def _rekey(self, points: list[Point], turn: int, seq: int, name: str) -> Shuffle:
        """Move my layer on `points` to a fresh stock key and shuffle them, with the proof; they become the stock."""
        g, me = self._g(), self.me
        old = g.keys[me][g.stock_epoch[me]]
        factor_from = self._my_key(g.stock_epoch[me])
        epoch, k, pub = self._new_key(g.number)
        stock, proof = shuffle.shuffle(self._sctx(turn, name, seq), group.ratio(k, factor_from), old, pub, points, self.rng)
        g.stock = stock
        g.keys[me].append(pub)
        g.stock_epoch[me] = epoch
        return Shuffle(pub, tuple(stock), proof)

    def _lock_pool(self, game: int, cards: list[int], k: Scalar, pub: Point, ctx: Context) -> tuple[list[Point], bytes]:
        """A completed center stack's public cards under my layer `k`, in the stack's order, with one batched proof.

        No shuffle: both players know which card each point is, and the merge shuffles them before anyone draws one.
        """
        encodings = [group.card_point(self.match, game, c) for c in cards]
        locked = group.layer(k, encodings)
        return locked, proofs.prove_batch(ctx, k, pub, encodings, locked, self.rng)

    def _receive_end(self, turn: int, completed: tuple[Pool, ...], count: int) -> Draw:
        """The other's end of turn, checked at receipt: take it in and read my draw."""
        g, me, other = self._g(), self.me, self.other
        st = self._staged.end
        if st is None or self._staged.consumed_end:
            raise ProtocolError(_("game {game}, turn {turn}: the message does not end the turn").format(game=g.number, turn=turn))
        if self._staged.reveals:
            text = _("game {game}, turn {turn}: the message reveals more cards than the moves turn up")
            raise ProtocolError(text.format(game=g.number, turn=turn))
        if len(st.draw) != count:
            text = ngettext(
                # TRANSLATORS: reserved: drawn for you, face down, by the other player's spite at the end of their turn
                "game {game}, turn {turn}: {n} card was reserved where {due} are due",
                "game {game}, turn {turn}: {n} cards were reserved where {due} are due",
                len(st.draw),
            )
            raise ProtocolError(text.format(game=g.number, turn=turn, n=len(st.draw), due=count))
        drawn = self.checks.finish_checks(turn, completed)
        self._staged.consumed_end = True
        g.keys[other].extend(st.keys)
        g.stock, g.stock_epoch[other], g.shuffled = st.stock, st.epoch, st.shuffled
        if st.last_shuffle:
            g.last_shuffle = st.last_shuffle
        if st.merged:
            for recycled in g.pools:
                g.face_up.difference_update(recycled.cards)
            g.pools = []
        g.hands[me].extend(st.draw)
        for pool, layer in zip(completed, st.pools, strict=True):
            g.pools.append(PoolRecord(turn, [c.index for c in pool.cards], list(layer.points), other, st.epoch))
        g.turn += 1
        return Draw(tuple(drawn))

    # --- messages ---

    def send(self, state: GameState | None = None, moves: list[Move] | tuple[Move, ...] = ()) -> Message:
        """The next message: what is due of the deal, my turn's `moves` with their reveals, my keys after a game's end.

        `state` is my engine state after the moves (None before the first deal). Its ``to_data()`` is the table that travels.
        """
        if self.looking:
            # TRANSLATORS: a party: one player's side of the fair dealing; it only looked (spite show, verify), so it answers nothing
            raise ProtocolError(_("a party that only looked at a message makes no answer to it"))
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            # TRANSLATORS: settle() is the name of a function of spite's code: keep it as it is
            raise ProtocolError(_("the last message received has not been played through: call settle() after its moves"))
        outbox = self.outbox
        deal: DealStep | None = outbox.deal
        turn: Turn | None = None
        secrets: Secrets | None = None
        g = self.game
        if moves:
            if g is None:
                raise ProtocolError(_("there are no moves before the deal"))
            if outbox.end is None and (state is None or state.outcome is None):
                # TRANSLATORS: 'end' is the move that ends a turn, as the player types it: keep it as it is
                raise ProtocolError(_("the turn is not over yet: it ends with a discard to a side stack, or 'end'"))
            number = outbox.end_turn if outbox.end is not None else g.turn
            turn = Turn(g.number, number, tuple(moves), tuple(outbox.reveals), outbox.end)
        elif outbox.reveals or outbox.end is not None:
            raise ProtocolError(_("cards were played but no moves are given to send"))
        if state is not None and state.outcome is not None and g is not None and not self._deal_ready:
            self._game_over(state.turn, state.outcome)
            if g.number not in self.sent_secrets:
                secrets = Secrets(g.number, tuple(self.keys[g.number]))
                self.sent_secrets.add(g.number)
                self._maybe_audit()
                self._prune()
        if self.game is None and self.dealing is None and self.me == starter_of(1) and self.seq == 0:
            deal = self.deals.deal1(1, self.seq + 1)
        elif g is not None and g.over and not self.record.is_over and self.dealing is None:
            nxt = g.number + 1
            if starter_of(nxt) == self.me:
                if deal is not None:
                    raise ProtocolError(_("two deal steps in one message"))
                deal = self.deals.deal1(nxt, self.seq + 1)
        if deal is None and turn is None and secrets is None:
            raise ProtocolError(_("there is nothing to send now"))
        self.outbox = Outbox()
        self.seq += 1
        return Message(self.match, self.seq, self.me, deal, turn, secrets, VERSION)

    def resign(self, state: GameState | None, whole_match: bool = False, after: dict[str, Any] | None = None) -> tuple[Message, GameState]:
        """My resignation of the game under way (with `whole_match`, of the match too), with my keys of it; and my state after it.

        It may be sent on my turn or the other's (`after`: the turn of my own last file, docs/save-format.md); it carries
        the deal step I owe (the first shuffler's step 3, in the game's first turn) and the next game's first step when I
        start it, as the file that ends a game does. Raises ProtocolError, changing nothing, when there is no game to resign.
        """
        g = self.game
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError(_("the last message received has not been played through: call settle() after its moves"))
        if g is None or state is None or g.over or state.outcome is not None or self._deal_ready or self.dealing is not None:
            raise ProtocolError(_("there is no game under way to resign"))
        if self.outbox.reveals or self.outbox.end is not None:
            raise ProtocolError(_("cards were played this turn: send or take back the turn before resigning"))
        if self.record.is_over:
            raise ProtocolError(_("the match is over"))
        ended = resigned_state(state, self.me)
        assert ended.outcome is not None
        deal: DealStep | None = self.outbox.deal
        saved = self.snapshot()
        try:
            self._game_over(ended.turn, ended.outcome)
            if whole_match:
                self.record = self.record.concede(self.me)
            secrets = Secrets(g.number, tuple(self.keys[g.number]))
            self.sent_secrets.add(g.number)
            if not self.record.is_over and starter_of(g.number + 1) == self.me:
                if deal is not None:
                    raise ProtocolError(_("two deal steps in one message"))
                deal = self.deals.deal1(g.number + 1, self.seq + 1)
        except BaseException:
            self.rollback(saved)
            raise
        self.outbox = Outbox()
        self.seq += 1
        return Message(self.match, self.seq, self.me, deal, None, secrets, VERSION, Resign(g.number, whole_match, after)), ended

    @property
    def resigning(self) -> Resign | None:
        """The other player's resignation in the message being taken in (between :meth:`receive` and :meth:`settle`)."""
        msg = self._staged.message
        return msg.resign if msg is not None else None

    def receive(self, msg: Any, check: Callable[[list[Move]], None] | None = None) -> list[Move]:
        """Check a message from the other player; returns the moves to apply, with this party as dealer, before settle()."""
        message = parse_message(msg)
        if message.match != self.match:
            raise StaleMessageError(_("the message belongs to another match"))
        if message.sender != self.other:
            raise ProtocolError(_("the message is not from the other player"))
        if message.version < self.their_version:
            text = _(
                # TRANSLATORS: the protocol: the rules of the fair dealing that two spites follow; a client: a player's spite
                "message {seq} is of protocol version {version}, but the other player's messages are of version {theirs} already: "
                "a client does not go back to an older protocol"
            )
            raise ProtocolError(text.format(seq=message.seq, version=message.version, theirs=self.their_version))
        if message.seq != self.seq + 1:
            text = _("message {seq} is not the one due (message {due}): a message replayed, lost or out of order")
            raise StaleMessageError(text.format(seq=message.seq, due=self.seq + 1))
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError(_("the previous message has not been played through"))
        saved = self.snapshot()
        try:
            moves = self._receive(message)
            if check is not None:  # e.g. the moves played through on a copy of the engine's state
                check(moves)
            if isinstance(message.deal, Deal1):  # the next game's deal, answered once this message is known to end the game
                self.deals.on_deal(message.deal, message.seq)
            self.their_version = message.version
            return moves
        except BaseException:
            self.rollback(saved)
            raise

    def snapshot(self) -> Snapshot:
        """What a message can change, to put back with :meth:`rollback` if it is refused."""
        return Snapshot(
            copy.deepcopy(self.game),
            copy.deepcopy(self.dealing),
            dataclasses.replace(self.outbox, reveals=list(self.outbox.reveals)),  # the rest of it is frozen
            {g: list(k) for g, k in self.keys.items()},
            dict(self.seeds),
            dict(self.theirs),
            self._deal_ready,
            self.seq,
            self.record,
            set(self.sent_secrets),
            self.their_version,
        )

    def rollback(self, saved: Snapshot) -> None:
        """Put back what :meth:`snapshot` took, and forget what the refused message staged."""
        self.game, self.dealing, self.outbox, self.keys, self.seeds = saved.game, saved.dealing, saved.outbox, saved.keys, saved.seeds
        self.theirs, self._deal_ready, self.seq, self.record = saved.theirs, saved.deal_ready, saved.seq, saved.record
        self.sent_secrets, self.their_version = saved.sent_secrets, saved.their_version
        self._staged = _Staged()

    def _receive(self, msg: Message) -> list[Move]:
        self._staged = _Staged(message=msg)
        self._check_owed(msg)
        deal = msg.deal
        moves: list[Move] = []
        if isinstance(deal, Deal3):
            self.deals.on_deal(deal, msg.seq)
            deal = None
        if msg.turn is not None:
            moves = self.checks.on_turn(msg.turn, msg.seq)
        if msg.resign is not None:
            self._on_resign(msg)
        if isinstance(deal, Deal1):
            self.deals.check_deal1(deal, msg)
            deal = None  # answered by receive() once the whole message checked out
        if msg.secrets is not None:
            self.checks.on_secrets(msg.secrets)
            if msg.turn is None:
                self._maybe_audit()
        if deal is not None:
            self.deals.on_deal(deal, msg.seq)
        self.seq = msg.seq
        return moves

    def _on_resign(self, msg: Message) -> None:
        """Check the other player's resignation: of the game under way, without a turn, with their keys of it."""
        r, g = msg.resign, self.game
        assert r is not None
        if msg.turn is not None:
            raise ProtocolError(_("message {seq} resigns game {game} and plays a turn in it as well").format(seq=msg.seq, game=r.game))
        if g is None or r.game != g.number or g.over:
            if g is None:
                text = _("the message resigns game {game}, but no game is under way")
            elif g.over:
                text = _("the message resigns game {game}, but game {number} is over")
            else:
                text = _("the message resigns game {game}, but game {number} is under way")
            raise StaleMessageError(text.format(game=r.game, number=g.number if g is not None else 0))
        if msg.secrets is None or msg.secrets.game != g.number:
            # TRANSLATORS: the audit: the check, once a game is over, that every card was dealt fairly, with both players' keys
            text = _("the message resigns game {game} but leaves out its sender's keys of it, for the audit")
            raise ProtocolError(text.format(game=g.number))
        self._staged.ends_game = True

    def _check_owed(self, msg: Message) -> None:
        """Refuse a message that leaves out what the other player owes now: a deal step due, or the keys of a game that is over."""
        if msg.deal is None and msg.turn is None and msg.secrets is None:
            raise ProtocolError(_("message {seq} carries nothing: no deal step, no turn, no keys").format(seq=msg.seq))
        d, g = self.dealing, self.game
        awaiting = d is not None and ((d.step == 1 and d.first == self.me) or (d.step == 2 and d.first == self.other))
        if d is not None and awaiting and msg.deal is None:
            raise ProtocolError(
                _("game {game}: the message leaves out deal step {step}, which is due").format(game=d.game, step=d.step + 1)
            )
        if g is not None and g.over and not g.audited and g.number not in self.theirs and msg.secrets is None:
            text = _("game {game} is over, but the message leaves out the other player's keys for its audit")
            raise ProtocolError(text.format(game=g.number))
        if g is not None and g.over and msg.secrets is not None and d is None and msg.deal is None:
            self._check_next_deal(g.number, self.record)

    def _check_next_deal(self, number: int, record: Match) -> None:
        """The keys of a game come with the first step of the next game's deal when their sender starts it and the match goes on."""
        if not record.is_over and starter_of(number + 1) == self.other:
            text = _("the message leaves out the first step of game {next}'s deal, which is due with the keys of game {game}")
            raise ProtocolError(text.format(next=number + 1, game=number))

    def check_game_end(self, outcome: Outcome) -> None:
        """A received turn that ends the game must bring its mover's keys (and the next deal when that player starts it)."""
        msg, g = self._staged.message, self._g()
        if msg is None or (msg.turn is None and msg.resign is None):
            return
        if msg.secrets is None or msg.secrets.game != g.number:
            if msg.turn is not None:
                text = _("game {game}, turn {turn}: the turn ends the game but leaves out its mover's keys")
            else:
                text = _("game {game}, the resignation ends the game but leaves out its mover's keys")
            raise ProtocolError(text.format(game=g.number, turn=msg.turn.turn if msg.turn is not None else 0))
        record = self.record.record(outcome)
        if msg.resign is not None and msg.resign.whole_match:
            record = record.concede(self.other)
        if msg.deal is None or isinstance(msg.deal, Deal3):
            self._check_next_deal(g.number, record)
        elif isinstance(msg.deal, Deal1) and record.is_over:
            text = _("game {game} ends the match, but the message starts the deal of a game {next}")
            raise ProtocolError(text.format(game=g.number, next=msg.deal.game))

    def settle(self, state: GameState | None) -> None:
        """After the received moves are applied: check that the message was used up, note a game's end, audit it."""
        g = self.game
        if self._staged.reveals:
            raise ProtocolError(_("turn {turn}: the message reveals more cards than the moves turn up").format(turn=g.turn if g else 0))
        if self._staged.end is not None and not self._staged.consumed_end:
            raise ProtocolError(_("turn {turn}: the message ends a turn that the moves do not end").format(turn=g.turn if g else 0))
        if state is not None and state.outcome is not None and not self._deal_ready:
            self._game_over(state.turn, state.outcome)
            r = self.resigning
            if r is not None and r.whole_match and self.record.conceded is None:
                self.record = self.record.concede(self.other)
        elif g is not None and g.number in self.theirs and not g.over:
            raise ProtocolError(_("game {game}: keys revealed before the game is over").format(game=g.number))
        msg = self._staged.message  # a second line behind check_deal1: the engine must agree that the game ended
        if msg is not None and isinstance(msg.deal, Deal1) and g is not None and g.number < msg.deal.game and not g.over:
            text = _("game {game} goes on, but the message starts the deal of game {next}")
            raise ProtocolError(text.format(game=g.number, next=msg.deal.game))
        self._maybe_audit()

    def _game_over(self, turn: int, outcome: Outcome) -> None:
        """Note that the game ended at `turn` with `outcome`, as the engine's state says; its turn must be the protocol's."""
        g = self._g()
        if not g.over:
            if turn != g.turn:
                text = _("the finished game given is at turn {turn}, but game {game} is at turn {now}")
                raise ProtocolError(text.format(turn=turn, game=g.number, now=g.turn))
            g.over = True
            self.record = self.record.record(outcome)

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

    # --- saving ---

    def export_public(self) -> dict[str, Any]:
        """This party's protocol state as plain TOML-compatible data (no secret in it)."""
        if self.looking:
            raise ProtocolError(_("a party that only looked at a message is not saved"))
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError(_("a received message is half played through; settle it before saving"))
        return partystate.export_public(self)

    def export_secrets(self) -> bytes:
        """My secrets, serialized: per game, the seed my scalars derive from and how many (seal them before they leave memory)."""
        return partystate.export_secrets(self)

    @classmethod
    def restore(cls, public: dict[str, Any], secret: bytes, ruleset: Ruleset = G4A, rng: Rng | None = None, sealed: bool = False) -> Self:
        """The party that :meth:`export_public` and :meth:`export_secrets` describe (`sealed`: as partystate.load)."""
        try:
            party = cls(
                int(public["me"]),
                group.unb64(public["match"], 16, pgettext("part of a saved protocol state", "the match id")),
                ruleset,
                rng,
            )
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            # TRANSLATORS: the protocol state: a player's record of the fair dealing, kept in the save; {error} is Python's own (English)
            raise ProtocolError(_("the saved protocol state is incomplete or malformed ({error})").format(error=e)) from e
        partystate.load(party, public, secret, ruleset, sealed)
        return party
