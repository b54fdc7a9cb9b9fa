"""Checking the other player's turn on receipt: reveals, the end of turn (shuffle, draw, merge, pools), revealed keys.

A mixin of :class:`pbm.protocol.dealing.Party`. Nothing is taken in here: what checks out is
staged for the engine's dealer calls, so a refused message changes nothing. Every shuffled or
re-keyed list is checked against its proof before this player applies a secret to any point of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import RANK_TEXT, Card
from engine.moves import HAND, PAYOFF, Move
from engine.state import Pool
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.protocol import group, proofs, shuffle
from pbm.protocol.deck import HandCard
from pbm.protocol.group import Point
from pbm.protocol.messages import End, Locked, Secrets, Shuffle, Turn

STOCK_SHUFFLE = "the stock shuffle"
MERGE_LAYER = "the pools to merge"
MERGED_STOCK = "the merged stock"


def pool_name(n: int) -> str:
    """The name a proof of the layer on the n-th pool completed in a turn (from 0) is bound to."""
    return f"recycling pool {n + 1}"


@dataclass(slots=True)
class CheckedEnd:
    """The other player's end of turn once its proofs checked out: what it changes, waiting for the engine to take it in."""

    keys: list[Point]  # the mover's new public keys (a shuffle's, a merge's)
    stock: list[Point]
    epoch: int  # the mover's stock key after this turn
    shuffled: list[bool]
    last_shuffle: list[int]
    merged: bool
    draw: list[HandCard]  # my draw, opened only by finish_checks
    pools: list[Locked]  # the mover's locks on the stacks it completed, checked by finish_checks
    seq: int
    seen: set[int]  # cards this message turns up: a draw may not repeat one
    checked: bool = False


class TurnChecks:
    """The receiver's checks of a turn message."""

    def _on_turn(self, turn: Turn, seq: int) -> list[Move]:
        g = self._g()
        if turn.game != g.number or turn.turn != g.turn or g.over:
            raise StaleMessageError(f"a turn {turn.turn} of game {turn.game} where turn {g.turn} of game {g.number} is due")
        if g.to_move != self.other:
            raise StaleMessageError(f"turn {g.turn} is this player's own turn")
        moves = list(turn.moves)
        x, t = self.other, g.turn
        hand = list(g.hands[x])
        pile = list(g.piles[x])
        seen: set[int] = set()
        for n, rv in enumerate(turn.reveals):
            if rv.kind == "hand":
                slot = rv.slot
                if slot is None or not 0 <= slot < len(hand):
                    raise ProtocolError(f"turn {t}: reveal {n + 1} names hand card {slot}, which player {x + 1} does not hold")
                entry = hand.pop(slot)
                what = f"hand card {slot + 1} of player {x + 1}"
                proofs.verify(self._their_ctx(t, what), rv.proof, g.keys[x][entry.epoch], rv.point, entry.point)
            else:
                if not pile:
                    raise ProtocolError(f"turn {t}: reveal {n + 1} turns up a pay-off card that player {x + 1} does not have")
                layered = pile.pop()
                what = f"pay-off card {len(pile) + 1} of player {x + 1}"
                proofs.verify(self._their_ctx(t, what), rv.proof, g.keys[x][0], rv.point, layered)
                slot = -1
            index = self._decode(rv.point, f"turn {t}: the reveal of {what}")
            self._check_new(index, f"the reveal of {what}", seen)
            seen.add(index)
            self._staged.reveals.append((rv.kind, slot, index))
        ends_game = self._match_reveals(moves, len(g.piles[x]), t)
        if ends_game and turn.end is not None:
            raise ProtocolError(f"turn {t}: the moves end the game, but the message also ends the turn")
        if not ends_game and turn.end is None:
            raise ProtocolError(f"turn {t}: the moves end the turn, but the message does not")
        if turn.end is not None:
            st = self._staged.end = self._check_end(turn.end, seen, seq)
            # R8: nothing is drawn, and nothing is left to draw nor recycled: a tie (engine.game._end_turn)
            ends_game = not st.draw and not st.stock and not st.pools
        self._staged.ends_game = ends_game
        return moves

    def _match_reveals(self, moves: list[Move], facedown: int, t: int) -> bool:
        """Check that the reveals are the cards the moves turn up, in order and of the moves' ranks; True if the moves end the game."""
        queue = list(self._staged.reveals)
        for n, move in enumerate(moves):
            if n and moves[n - 1].ends_turn:
                raise ProtocolError(f"turn {t}: the move {move} comes after the turn ended")
            if move.source == HAND:
                if not queue or queue[0][0] != "hand":
                    raise ProtocolError(f"turn {t}: the move {move} plays a hand card that the message does not reveal")
                card = Card.from_index(queue.pop(0)[2])
                if card.rank != move.source_index:
                    raise CardError(f"turn {t}: the move {move} plays a {RANK_TEXT[move.source_index]} but the card revealed is {card}")
            elif move.source == PAYOFF:
                if facedown == 0:  # the last pay-off card: the game ends with this move
                    if n != len(moves) - 1:
                        raise ProtocolError(f"turn {t}: moves follow the one that ends the game")
                    if queue:
                        raise ProtocolError(f"turn {t}: the message reveals more cards than the moves turn up")
                    return True
                if not queue or queue[0][0] != "payoff":
                    raise ProtocolError(f"turn {t}: the move {move} turns up a pay-off card that the message does not reveal")
                queue.pop(0)
                facedown -= 1
        if queue:
            raise ProtocolError(f"turn {t}: the message reveals more cards than the moves turn up")
        if not moves[-1].ends_turn:
            raise ProtocolError(f"turn {t}: the moves do not end the turn")
        return False

    def _check_end(self, end: End, seen: set[int], seq: int) -> CheckedEnd:
        """Check the other's end of turn (shuffle, reservation of my draw, merge) against its proofs, and read my draw."""
        g, x, me, t = self._g(), self.other, self.me, self._g().turn
        stock, epoch, keys = list(g.stock), g.stock_epoch[x], []
        key = g.keys[x][epoch]
        shuffled_flags, last = list(g.shuffled), []
        owes, merged = not g.shuffled[x], bool(g.pools)
        if (end.shuffle is not None) != (owes and not merged):
            due = "must" if owes and not merged else "may not"
            raise ProtocolError(f"turn {t}: player {x + 1} {due} shuffle the stock now")
        if end.shuffle is not None:
            stock = self._check_rekey(end.shuffle, key, stock, t, seq, STOCK_SHUFFLE)
            key = end.shuffle.key
            keys.append(key)
            shuffled_flags[x], last = True, [x, t]
        draw: list[HandCard] = []
        if end.draw is not None:
            pts, prfs = end.draw.points, end.draw.proofs
            if not 0 < len(pts) <= min(self.ruleset.hand_size, len(stock)):
                raise ProtocolError(f"turn {t}: {len(pts)} cards reserved from a stock of {len(stock)}")
            positions = end.draw.positions or tuple(range(len(pts)))
            if bool(end.draw.positions) != (owes and merged) or max(positions) >= len(stock):
                raise ProtocolError(
                    f"turn {t}: the draw is not taken from {'random places' if owes and merged else 'the top'} of the stock"
                )
            for i, (pt, prf, pos) in enumerate(zip(pts, prfs, positions, strict=True)):
                proofs.verify(self._their_ctx(t, f"draw {i + 1} for player {me + 1}"), prf, key, pt, stock[-1 - pos])
                draw.append(HandCard(pt, g.stock_epoch[me]))
            taken = {len(stock) - 1 - pos for pos in positions}
            stock = [p for i, p in enumerate(stock) if i not in taken]
        if (end.merge is not None) != merged:
            raise ProtocolError(f"turn {t}: the pools completed last turn {'must' if merged else 'cannot'} be merged now")
        if end.merge is not None:
            layered = end.merge.layered
            if [len(p) for p in layered] != [len(p.points) for p in g.pools]:
                raise ProtocolError(f"turn {t}: the merge layers other pools than those completed last turn")
            pool_points = [p for pool in g.pools for p in pool.points]
            flat = [p for pool in layered for p in pool]
            proofs.verify_batch(self._their_ctx(t, MERGE_LAYER), end.merge.layer_proof, key, pool_points, flat)
            stock = self._check_rekey(end.merge.stock, key, stock + flat, t, seq, MERGED_STOCK)
            keys.append(end.merge.stock.key)
            shuffled_flags = [False, False]
            shuffled_flags[x], last = True, [x, t]
        if len(end.pools) > self.ruleset.center_stacks:
            raise ProtocolError(f"turn {t}: more pools than there are center stacks")
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
            raise ProtocolError(f"turn {t}: {name} holds {len(sh.points)} cards where {len(inputs)} are due")
        shuffle.verify(self._sctx(t, name, seq), sh.proof, base, sh.key, inputs, sh.points)
        return list(sh.points)

    def finish_checks(self, turn: int, completed: Sequence[Pool]) -> list[Card]:
        """Check the other's layer on each center stack it completed this turn (the engine says which), then read my draw.

        Only now, with every proof of the message checked, does my secret touch a point of it: I open my draw.
        """
        st = self._staged.end
        if st is None:
            raise ProtocolError(f"turn {turn}: the message does not end the turn")
        if not st.checked:
            self._check_pools(turn, completed, st)
            g, me = self._g(), self.me
            inverse = group.invert(self._my_key(g.stock_epoch[me]))
            for i, card in enumerate(st.draw):
                card.card = self._decode(group.mul(inverse, card.point), f"turn {turn}: your draw {i + 1}")
                self._check_new(card.card, f"your draw {i + 1}", st.seen)
                st.seen.add(card.card)
            st.checked = True
        return [Card.from_index(h.card) for h in st.draw]  # type: ignore[arg-type]

    def _check_pools(self, turn: int, completed: Sequence[Pool], st: CheckedEnd) -> None:
        g, x = self._g(), self.other
        if len(st.pools) != len(completed):
            raise ProtocolError(
                f"game {g.number}, turn {turn}: the message layers {len(st.pools)} pools where {len(completed)} were completed"
            )
        key = st.keys[-1] if st.keys else g.keys[x][st.epoch]
        for n, (pool, sh) in enumerate(zip(completed, st.pools, strict=True)):
            if sh.key != key:
                raise ProtocolError(f"game {g.number}, turn {turn}: {pool_name(n)} is not under player {x + 1}'s stock key")
            cards = [group.card_point(self.match, g.number, c.index) for c in pool.cards]
            if len(sh.points) != len(cards):
                raise ProtocolError(f"game {g.number}, turn {turn}: {pool_name(n)} holds {len(sh.points)} cards where {len(cards)} are due")
            proofs.verify_batch(self._their_ctx(turn, pool_name(n)), sh.proof, key, cards, sh.points)

    def _on_secrets(self, section: Secrets) -> None:
        g = self._g()
        if section.game != g.number or g.number in self.theirs:
            raise StaleMessageError(f"keys of game {section.game} are not due now")
        self.theirs[g.number] = list(section.keys)
