"""Checking the other player's message on receipt: what it owes, its turn (reveals, the end of turn: shuffle, draw, merge,
pools), its resignation, revealed keys, and what a message that ends a game must bring.

A collaborator that a :class:`pbm.protocol.dealing.Party` holds, reading its
:class:`~pbm.protocol.partystate.PartyState`. Nothing is taken in here: what checks out is
staged for the engine's dealer calls, so a refused message changes nothing. Every shuffled or
re-keyed list is checked against its proof before this player applies a secret to any point of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import RANK_TEXT, Card
from engine.game import Match, Outcome
from engine.moves import HAND, PAYOFF, Move
from engine.state import Pool
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.i18n import _, ngettext
from pbm.protocol import group, proofs, shuffle
from pbm.protocol.deck import HandCard
from pbm.protocol.group import Point
from pbm.protocol.messages import Deal1, Deal3, End, Message, Secrets, Shuffle, Turn
from pbm.protocol.partystate import CheckedEnd, PartyState, starter_of

STOCK_SHUFFLE = proofs.STOCK_SHUFFLE
MERGE_LAYER = proofs.MERGE_LAYER
MERGED_STOCK = proofs.MERGED_STOCK


def pool_name(n: int) -> str:
    """The name a proof of the layer on the n-th pool completed in a turn (from 0) is bound to (English: it is hashed)."""
    return proofs.POOL_SLOT.format(n=n + 1)


class TurnChecks:
    """The receiver's checks of a message, for the party `p`: what checks out is staged in `p`."""

    def __init__(self, party: PartyState) -> None:
        self.p = party

    def check_owed(self, msg: Message) -> None:
        """Refuse a message that leaves out what the other player owes now: a deal step due, or the keys of a game that is over."""
        if msg.deal is None and msg.turn is None and msg.secrets is None:
            raise ProtocolError(_("message {seq} carries nothing: no deal step, no turn, no keys").format(seq=msg.seq))
        p = self.p
        d, g = p.dealing, p.game
        awaiting = d is not None and ((d.step == 1 and d.first == p.me) or (d.step == 2 and d.first == p.other))
        if d is not None and awaiting and msg.deal is None:
            raise ProtocolError(
                _("game {game}: the message leaves out deal step {step}, which is due").format(game=d.game, step=d.step + 1)
            )
        if g is not None and g.over and not g.audited and g.number not in p.theirs and msg.secrets is None:
            text = _("game {game} is over, but the message leaves out the other player's keys for its audit")
            raise ProtocolError(text.format(game=g.number))
        if g is not None and g.over and msg.secrets is not None and d is None and msg.deal is None:
            self._check_next_deal(g.number, p.record)

    def _check_next_deal(self, number: int, record: Match) -> None:
        """The keys of a game come with the first step of the next game's deal when their sender starts it and the match goes on."""
        if not record.is_over and starter_of(number + 1) == self.p.other:
            text = _("the message leaves out the first step of game {next}'s deal, which is due with the keys of game {game}")
            raise ProtocolError(text.format(next=number + 1, game=number))

    def on_resign(self, msg: Message) -> None:
        """Check the other player's resignation: of the game under way, without a turn, with their keys of it."""
        p = self.p
        r, g = msg.resign, p.game
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
        p._staged.ends_game = True

    def game_end(self, outcome: Outcome) -> None:
        """A received turn that ends the game must bring its mover's keys (and the next deal when that player starts it)."""
        p = self.p
        msg, g = p._staged.message, p._g()
        if msg is None or (msg.turn is None and msg.resign is None):
            return
        if msg.secrets is None or msg.secrets.game != g.number:
            if msg.turn is not None:
                text = _("game {game}, turn {turn}: the turn ends the game but leaves out its mover's keys")
            else:
                text = _("game {game}, the resignation ends the game but leaves out its mover's keys")
            raise ProtocolError(text.format(game=g.number, turn=msg.turn.turn if msg.turn is not None else 0))
        record = p.record.record(outcome)
        if msg.resign is not None and msg.resign.whole_match:
            record = record.concede(p.other)
        if msg.deal is None or isinstance(msg.deal, Deal3):
            self._check_next_deal(g.number, record)
        elif isinstance(msg.deal, Deal1) and record.is_over:
            text = _("game {game} ends the match, but the message starts the deal of a game {next}")
            raise ProtocolError(text.format(game=g.number, next=msg.deal.game))

    def on_turn(self, turn: Turn, seq: int) -> list[Move]:
        """Check the other player's `turn` (in message `seq`) and stage its reveals and end; returns its moves."""
        p, g = self.p, self.p._g()
        if turn.game != g.number or turn.turn != g.turn or g.over:
            raise StaleMessageError(
                _("a turn {turn} of game {game} where turn {due} of game {number} is due").format(
                    turn=turn.turn, game=turn.game, due=g.turn, number=g.number
                )
            )
        if g.to_move != p.other:
            raise StaleMessageError(_("turn {turn} is this player's own turn").format(turn=g.turn))
        moves = list(turn.moves)
        x, t = p.other, g.turn
        hand = list(g.hands[x])
        pile = list(g.piles[x])
        seen: set[int] = set()
        staged = p._staged
        for n, rv in enumerate(turn.reveals):
            if rv.kind == "hand":
                slot = rv.slot
                if slot is None or not 0 <= slot < len(hand):
                    # TRANSLATORS: {slot} is the number the message gives a card of the hand (counted from 0)
                    text = _("turn {turn}: reveal {n} names hand card {slot}, which player {player} does not hold")
                    raise ProtocolError(text.format(turn=t, n=n + 1, slot=slot, player=x + 1))
                entry = hand.pop(slot)
                what = proofs.HAND_SLOT.format(n=slot + 1, player=x + 1)
                proofs.verify(p._their_ctx(t, what), rv.proof, g.keys[x][entry.epoch], rv.point, entry.point)
            else:
                if not pile:
                    text = _("turn {turn}: reveal {n} turns up a pay-off card that player {player} does not have")
                    raise ProtocolError(text.format(turn=t, n=n + 1, player=x + 1))
                layered = pile.pop()
                what = proofs.PAYOFF_SLOT.format(n=len(pile) + 1, player=x + 1)
                proofs.verify(p._their_ctx(t, what), rv.proof, g.keys[x][0], rv.point, layered)
                slot = -1
            shown = proofs.shown_name(what)
            # TRANSLATORS: {what} names the card turned up, e.g. "hand card 2 of player 1"
            index = p._decode(rv.point, _("turn {turn}: the reveal of {what}").format(turn=t, what=shown))
            p._check_new(index, _("the reveal of {what}").format(what=shown), seen)
            seen.add(index)
            staged.reveals.append((rv.kind, slot, index))
        ends_game = self._match_reveals(moves, len(g.piles[x]), t)
        if ends_game and turn.end is not None:
            raise ProtocolError(_("turn {turn}: the moves end the game, but the message also ends the turn").format(turn=t))
        if not ends_game and turn.end is None:
            raise ProtocolError(_("turn {turn}: the moves end the turn, but the message does not").format(turn=t))
        if turn.end is not None:
            st = staged.end = self._check_end(turn.end, seen, seq)
            # R8: nothing is drawn, and nothing is left to draw nor recycled: a tie (engine.game._end_turn)
            ends_game = not st.draw and not st.stock and not st.pools
        staged.ends_game = ends_game
        return moves

    def _match_reveals(self, moves: list[Move], facedown: int, t: int) -> bool:
        """Check that the reveals are the cards the moves turn up, in order and of the moves' ranks; True if the moves end the game."""
        queue = list(self.p._staged.reveals)
        for n, move in enumerate(moves):
            if n and moves[n - 1].ends_turn:
                # TRANSLATORS: {move} is a move in spite's notation, e.g. 7-c2 (never translated)
                raise ProtocolError(_("turn {turn}: the move {move} comes after the turn ended").format(turn=t, move=move))
            if move.source == HAND:
                if not queue or queue[0][0] != "hand":
                    text = _("turn {turn}: the move {move} plays a hand card that the message does not reveal")
                    raise ProtocolError(text.format(turn=t, move=move))
                card = Card.from_index(queue.pop(0)[2])
                if card.rank != move.source_index:
                    # TRANSLATORS: {rank} is a card's rank (A, 2-10, J, Q, K) and {card} a card (e.g. 7h), as spite writes them
                    text = _("turn {turn}: the move {move} plays a {rank} but the card revealed is {card}")
                    raise CardError(text.format(turn=t, move=move, rank=RANK_TEXT[move.source_index], card=card))
            elif move.source == PAYOFF:
                if facedown == 0:  # the last pay-off card: the game ends with this move
                    if n != len(moves) - 1:
                        raise ProtocolError(_("turn {turn}: moves follow the one that ends the game").format(turn=t))
                    if queue:
                        raise ProtocolError(_("turn {turn}: the message reveals more cards than the moves turn up").format(turn=t))
                    return True
                if not queue or queue[0][0] != "payoff":
                    text = _("turn {turn}: the move {move} turns up a pay-off card that the message does not reveal")
                    raise ProtocolError(text.format(turn=t, move=move))
                queue.pop(0)
                facedown -= 1
        if queue:
            raise ProtocolError(_("turn {turn}: the message reveals more cards than the moves turn up").format(turn=t))
        if not moves[-1].ends_turn:
            raise ProtocolError(_("turn {turn}: the moves do not end the turn").format(turn=t))
        return False

    def _check_end(self, end: End, seen: set[int], seq: int) -> CheckedEnd:
        """Check the other's end of turn (shuffle, reservation of my draw, merge) against its proofs, and read my draw."""
        p = self.p
        g, x, me = p._g(), p.other, p.me
        t = g.turn
        stock, epoch, keys = list(g.stock), g.stock_epoch[x], list[Point]()
        key = g.keys[x][epoch]
        shuffled_flags, last = list(g.shuffled), list[int]()
        owes, merged = not g.shuffled[x], bool(g.pools)
        if (end.shuffle is not None) != (owes and not merged):
            if owes and not merged:
                raise ProtocolError(_("turn {turn}: player {player} must shuffle the stock now").format(turn=t, player=x + 1))
            raise ProtocolError(_("turn {turn}: player {player} may not shuffle the stock now").format(turn=t, player=x + 1))
        if end.shuffle is not None:
            stock = self._check_rekey(end.shuffle, key, stock, t, seq, STOCK_SHUFFLE)
            key = end.shuffle.key
            keys.append(key)
            shuffled_flags[x], last = True, [x, t]
        draw: list[HandCard] = []
        if end.draw is not None:
            pts, prfs = end.draw.points, end.draw.proofs
            if not 0 < len(pts) <= min(p.ruleset.hand_size, len(stock)):
                text = ngettext(
                    # TRANSLATORS: reserved: drawn by the other player's spite for you, face down
                    "turn {turn}: {n} card reserved from a stock of {size}",
                    "turn {turn}: {n} cards reserved from a stock of {size}",
                    len(pts),
                )
                raise ProtocolError(text.format(turn=t, n=len(pts), size=len(stock)))
            positions = end.draw.positions or tuple(range(len(pts)))
            if bool(end.draw.positions) != (owes and merged) or max(positions) >= len(stock):
                if owes and merged:
                    raise ProtocolError(_("turn {turn}: the draw is not taken from random places of the stock").format(turn=t))
                raise ProtocolError(_("turn {turn}: the draw is not taken from the top of the stock").format(turn=t))
            for i, (pt, prf, pos) in enumerate(zip(pts, prfs, positions, strict=True)):
                proofs.verify(p._their_ctx(t, proofs.DRAW_SLOT.format(n=i + 1, player=me + 1)), prf, key, pt, stock[-1 - pos])
                draw.append(HandCard(pt, g.stock_epoch[me]))
            taken = {len(stock) - 1 - pos for pos in positions}
            stock = [p for i, p in enumerate(stock) if i not in taken]
        if (end.merge is not None) != merged:
            if merged:
                # TRANSLATORS: pools: the center stacks completed last turn, whose cards go back into the stock
                raise ProtocolError(_("turn {turn}: the pools completed last turn must be merged now").format(turn=t))
            raise ProtocolError(_("turn {turn}: the pools completed last turn cannot be merged now").format(turn=t))
        if end.merge is not None:
            layered = end.merge.layered
            if [len(p) for p in layered] != [len(p.points) for p in g.pools]:
                # TRANSLATORS: layers: puts the player's secret layer on; pools: center stacks completed, to be recycled into the stock
                raise ProtocolError(_("turn {turn}: the merge layers other pools than those completed last turn").format(turn=t))
            pool_points = [p for pool in g.pools for p in pool.points]
            flat = [p for pool in layered for p in pool]
            proofs.verify_batch(p._their_ctx(t, MERGE_LAYER), end.merge.layer_proof, key, pool_points, flat)
            stock = self._check_rekey(end.merge.stock, key, stock + flat, t, seq, MERGED_STOCK)
            keys.append(end.merge.stock.key)
            shuffled_flags = [False, False]
            shuffled_flags[x], last = True, [x, t]
        if len(end.pools) > p.ruleset.center_stacks:
            # TRANSLATORS: pools: the center stacks a turn completed, whose cards are to be recycled into the stock
            raise ProtocolError(_("turn {turn}: more pools than there are center stacks").format(turn=t))
        return CheckedEnd(
            keys=keys,
            stock=stock,
            epoch=len(g.keys[x]) + len(keys) - 1 if keys else epoch,
            shuffled=shuffled_flags,
            last_shuffle=last,
            merged=merged,
            draw=draw,
            pools=list(end.pools),
            seq=seq,
            seen=seen,
        )

    def _check_rekey(self, sh: Shuffle, base: Point, inputs: Sequence[Point], t: int, seq: int, name: str) -> list[Point]:
        """The outputs of a checked shuffle of `inputs` from the key `base` to its new key; raises ProofError naming `name`."""
        if len(sh.points) != len(inputs):
            text = ngettext(
                # TRANSLATORS: {name} names a shuffled list, e.g. "the stock shuffle"
                "turn {turn}: {name} holds {n} card where {due} are due",
                "turn {turn}: {name} holds {n} cards where {due} are due",
                len(sh.points),
            )
            raise ProtocolError(text.format(turn=t, name=proofs.shown_name(name), n=len(sh.points), due=len(inputs)))
        shuffle.verify(self.p._sctx(t, name, seq), sh.proof, base, sh.key, inputs, sh.points)
        return list(sh.points)

    def finish_checks(self, turn: int, completed: Sequence[Pool]) -> list[Card]:
        """Check the other's layer on each center stack it completed this turn (the engine says which), then read my draw.

        Only now, with every proof of the message checked, does my secret touch a point of it: I open my draw.
        """
        p = self.p
        st = p._staged.end
        if st is None:
            raise ProtocolError(_("turn {turn}: the message does not end the turn").format(turn=turn))
        if not st.checked:
            self._check_pools(turn, completed, st)
            g, me = p._g(), p.me
            inverse = group.invert(p._my_key(g.stock_epoch[me]))
            for i, card in enumerate(st.draw):
                # TRANSLATORS: the {n}th card drawn for you at the end of the other player's turn
                index = card.card = p._decode(group.mul(inverse, card.point), _("turn {turn}: your draw {n}").format(turn=turn, n=i + 1))
                p._check_new(index, _("your draw {n}").format(n=i + 1), st.seen)
                st.seen.add(index)
            st.checked = True
        return [p._known(h) for h in st.draw]

    def _check_pools(self, turn: int, completed: Sequence[Pool], st: CheckedEnd) -> None:
        p = self.p
        g, x = p._g(), p.other
        if len(st.pools) != len(completed):
            text = ngettext(
                # TRANSLATORS: layers: puts the player's secret layer on; pools: center stacks completed this turn, to be recycled
                "game {game}, turn {turn}: the message layers {n} pool where {count} were completed",
                "game {game}, turn {turn}: the message layers {n} pools where {count} were completed",
                len(st.pools),
            )
            raise ProtocolError(text.format(game=g.number, turn=turn, n=len(st.pools), count=len(completed)))
        key = st.keys[-1] if st.keys else g.keys[x][st.epoch]
        for n, (pool, sh) in enumerate(zip(completed, st.pools, strict=True)):
            if sh.key != key:
                # TRANSLATORS: {pool} names a recycled center stack, e.g. "recycling pool 1"; stock key: the player's layer on the stock
                text = _("game {game}, turn {turn}: {pool} is not under player {player}'s stock key")
                raise ProtocolError(text.format(game=g.number, turn=turn, pool=proofs.shown_name(pool_name(n)), player=x + 1))
            cards = [group.card_point(p.match, g.number, c.index) for c in pool.cards]
            if len(sh.points) != len(cards):
                text = ngettext(
                    "game {game}, turn {turn}: {pool} holds {n} card where {due} are due",
                    "game {game}, turn {turn}: {pool} holds {n} cards where {due} are due",
                    len(sh.points),
                )
                raise ProtocolError(
                    text.format(game=g.number, turn=turn, pool=proofs.shown_name(pool_name(n)), n=len(sh.points), due=len(cards))
                )
            proofs.verify_batch(p._their_ctx(turn, pool_name(n)), sh.proof, key, cards, sh.points)

    def on_secrets(self, section: Secrets) -> None:
        """Keep the other player's keys of the game that ended, for its audit."""
        p = self.p
        g = p._g()
        if section.game != g.number or g.number in p.theirs:
            raise StaleMessageError(_("keys of game {game} are not due now").format(game=section.game))
        p.theirs[g.number] = list(section.keys)
