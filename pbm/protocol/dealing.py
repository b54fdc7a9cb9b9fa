"""The fair-dealing protocol (docs/protocol.md): one player's side, as a Party that is also the engine's Dealer.

Two parties exchange only messages (plain TOML-compatible tables). The mover applies its moves
to its own GameState with its Party as dealer, then :meth:`Party.send` gives the message (a typed
:class:`~pbm.protocol.messages.Message`, whose ``to_data()`` is the table that travels); the
receiver's :meth:`Party.receive` checks every point and proof at once and returns the moves,
which the receiver applies to its own state with its Party as dealer, then calls
:meth:`Party.settle`. :class:`pbm.protocol.seat.Seat` runs that loop.

The Party is a :class:`~pbm.protocol.partystate.PartyState` (its record of the game, its keys, the deal
under way, its outbox, and the facts read from them; pbm/protocol/partystate.py saves and restores it)
that answers the engine and takes messages in and out, in order. It holds the collaborators that make
its own turn (:class:`~pbm.protocol.outgoing.TurnMaking`), check a received message
(:class:`~pbm.protocol.incoming.TurnChecks`) and make and check the deal
(:class:`~pbm.protocol.dealsteps.DealSteps`); each takes the PartyState, and none imports this module.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Self

from engine.cards import Card
from engine.dealer import Deal, DealerError, Draw
from engine.game import Outcome
from engine.game import resign as resigned_state
from engine.moves import Move
from engine.rules import G4A, Ruleset
from engine.state import GameState, Pool
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.i18n import _, ngettext, pgettext
from pbm.protocol import group, partystate
from pbm.protocol.deck import SYSTEM_RNG, PoolRecord
from pbm.protocol.group import Rng, Scalar
from pbm.protocol.incoming import TurnChecks
from pbm.protocol.messages import VERSION, Deal1, Deal3, Message, Resign, RevealKind, Secrets, Turn, parse_message
from pbm.protocol.messages import Deal as DealStep
from pbm.protocol.partystate import Outbox, PartyState, Staged, starter_of

if TYPE_CHECKING:  # made when first needed (Party.making, Party.deals): a look at an ordinary turn needs neither
    from pbm.protocol.dealsteps import DealSteps
    from pbm.protocol.outgoing import TurnMaking

__all__ = ["VERSION", "Party", "starter_of"]


class Party(PartyState):
    """One player's side of the protocol: its secrets, its record of the game, and the Dealer for its own engine.

    It holds `making` (my own turn, proven), `checks` (a received message's checks) and `deals` (the deal's steps); the
    underscored facts of its PartyState are theirs too. A test's modified party overrides those facts, or puts a
    modified collaborator in their place.
    """

    def __init__(self, me: int, match: bytes, ruleset: Ruleset = G4A, rng: Rng | None = None) -> None:
        super().__init__(me, match, ruleset, rng or SYSTEM_RNG)
        self.checks = TurnChecks(self)

    # My own turn and the deal's steps are made when first asked for (a test may put its own in their place first): a
    # party that only looks at an ordinary turn (spite show, verify) makes neither, nor imports their modules.

    @functools.cached_property
    def making(self) -> TurnMaking:
        """The maker of my own turn, proven."""
        from pbm.protocol.outgoing import TurnMaking

        return TurnMaking(self)

    @functools.cached_property
    def deals(self) -> DealSteps:
        """The deal's steps, made and checked."""
        from pbm.protocol.dealsteps import DealSteps

        return DealSteps(self)

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
            index = self.making.turn_up()
        else:
            _kind, _slot, index = self._next_staged("payoff")
            g.piles[player].pop()
        g.face_up.add(index)
        return Card.from_index(index)

    def show(self, player: int, rank: int, card: Card | None) -> Card:
        if player == self.me:
            return self.making.show(card)
        g = self._g()
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
        return self.making.end(turn, completed, count)

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

    def _receive(self, msg: Message) -> list[Move]:
        self._staged = Staged(message=msg)
        self.checks.check_owed(msg)
        deal = msg.deal
        moves: list[Move] = []
        if isinstance(deal, Deal3):
            self.deals.on_deal(deal, msg.seq)
            deal = None
        if msg.turn is not None:
            moves = self.checks.on_turn(msg.turn, msg.seq)
        if msg.resign is not None:
            self.checks.on_resign(msg)
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

    def check_game_end(self, outcome: Outcome) -> None:
        """A received turn that ends the game must bring its mover's keys (and the next deal when that player starts it)."""
        self.checks.game_end(outcome)

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
        from pbm.protocol.audit import audit_game  # only once a game is over and both players' keys are known

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
