"""Making this player's own turn: the strips that turn its cards up, and its end of turn (shuffle, draw, merge, pools).

A collaborator that a :class:`pbm.protocol.dealing.Party` holds, reading and writing its
:class:`~pbm.protocol.partystate.PartyState`: what it makes goes into the outbox, with a proof for
every point, for :meth:`~pbm.protocol.dealing.Party.send`. The other side of pbm/protocol/incoming.py.
"""

from __future__ import annotations

from engine.cards import Card
from engine.dealer import DealerError, Draw
from engine.state import Pool
from pbm.i18n import _
from pbm.protocol import group, proofs, shuffle
from pbm.protocol.deck import HandCard, PoolRecord, shuffled
from pbm.protocol.group import Point, Scalar
from pbm.protocol.incoming import MERGE_LAYER, MERGED_STOCK, STOCK_SHUFFLE, pool_name
from pbm.protocol.messages import DrawReservation, End, Locked, Merge, Reveal, Shuffle
from pbm.protocol.partystate import PartyState
from pbm.protocol.proofs import Context


class TurnMaking:
    """The mover's side of a turn, for the party `p`: each card it turns up and its end of turn, proven, in `p`'s outbox."""

    def __init__(self, party: PartyState) -> None:
        self.p = party

    def turn_up(self) -> int:
        """My next pay-off card, stripped of my layer with a proof: its card index."""
        p = self.p
        g, me = p._g(), p.me
        layered = g.piles[me].pop()
        slot = proofs.PAYOFF_SLOT.format(n=len(g.piles[me]) + 1, player=me + 1)
        card_pt, proof = proofs.strip(p._ctx(g.turn, slot), p._my_key(0), g.keys[me][0], layered, p.rng)
        index = p._decode(card_pt, _("game {game}, turn {turn}: your next pay-off card").format(game=g.number, turn=g.turn))
        p._check_new(index, _("your next pay-off card"))
        p.outbox.reveals.append(Reveal("payoff", None, card_pt, proof))
        return index

    def show(self, card: Card | None) -> Card:
        """My hand card `card`, which a move plays, stripped of my layer with a proof."""
        p = self.p
        g, me = p._g(), p.me
        if card is None:
            raise DealerError("the engine must name which of my own cards it plays")
        slot = next((i for i, h in enumerate(g.hands[me]) if h.card == card.index), None)
        if slot is None:
            raise DealerError(f"{card} is not in this player's hand")
        entry = g.hands[me].pop(slot)
        ctx = p._ctx(g.turn, proofs.HAND_SLOT.format(n=slot + 1, player=me + 1))
        card_pt, proof = proofs.strip(ctx, p._my_key(entry.epoch), g.keys[me][entry.epoch], entry.point, p.rng)
        p.outbox.reveals.append(Reveal("hand", slot, card_pt, proof))
        g.face_up.add(card.index)
        return card

    def end(self, turn: int, completed: tuple[Pool, ...], count: int) -> Draw:
        """My end of turn: shuffle the stock if I must, reserve the other's draw, merge the pools, layer the new ones, with proofs."""
        p = self.p
        g, me, other = p._g(), p.me, p.other
        seq = p.seq + 1  # the message this end of turn travels in
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
            positions = shuffled(p.rng, list(range(len(g.stock))))[:count] if at_random else list(range(count))
            k_cur = p._my_key(g.stock_epoch[me])
            pub = g.keys[me][g.stock_epoch[me]]
            drawn: list[Point] = []
            prfs: list[bytes] = []
            for i, pos in enumerate(positions):
                ctx = p._ctx(turn, proofs.DRAW_SLOT.format(n=i + 1, player=other + 1))
                pt, proof = proofs.strip(ctx, k_cur, pub, g.stock[-1 - pos], p.rng)
                drawn.append(pt)
                prfs.append(proof)
                g.hands[other].append(HandCard(pt, g.stock_epoch[other]))
            taken = {len(g.stock) - 1 - pos for pos in positions}
            g.stock = [pt for i, pt in enumerate(g.stock) if i not in taken]
            draw_msg = DrawReservation(tuple(drawn), tuple(prfs), tuple(positions) if at_random else ())
        if g.pools:
            k_cur, pub = p._my_key(g.stock_epoch[me]), g.keys[me][g.stock_epoch[me]]
            pool_points = [pt for pool in g.pools for pt in pool.points]
            layered = group.layer(k_cur, pool_points)
            layer_proof = proofs.prove_batch(p._ctx(turn, MERGE_LAYER), k_cur, pub, pool_points, layered, p.rng)
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
            k_cur, pub = p._my_key(g.stock_epoch[me]), g.keys[me][g.stock_epoch[me]]
            for n, pool in enumerate(completed):
                cards = [c.index for c in pool.cards]
                pts, proof = self._lock_pool(g.number, cards, k_cur, pub, p._ctx(turn, pool_name(n)))
                g.pools.append(PoolRecord(turn, cards, pts, me, g.stock_epoch[me]))
                pools.append(Locked(pub, tuple(pts), proof))
        p.outbox.end, p.outbox.end_turn = End(shuffle_msg, draw_msg, merge_msg, tuple(pools)), turn
        g.turn += 1
        return Draw((), unseen=count)

    def _rekey(self, points: list[Point], turn: int, seq: int, name: str) -> Shuffle:
        """Move my layer on `points` to a fresh stock key and shuffle them, with the proof; they become the stock."""
        p = self.p
        g, me = p._g(), p.me
        old = g.keys[me][g.stock_epoch[me]]
        factor_from = p._my_key(g.stock_epoch[me])
        epoch, k, pub = p._new_key(g.number)
        stock, proof = shuffle.shuffle(p._sctx(turn, name, seq), group.ratio(k, factor_from), old, pub, points, p.rng)
        g.stock = stock
        g.keys[me].append(pub)
        g.stock_epoch[me] = epoch
        return Shuffle(pub, tuple(stock), proof)

    def _lock_pool(self, game: int, cards: list[int], k: Scalar, pub: Point, ctx: Context) -> tuple[list[Point], bytes]:
        """A completed center stack's public cards under my layer `k`, in the stack's order, with one batched proof.

        No shuffle: both players know which card each point is, and the merge shuffles them before anyone draws one.
        """
        p = self.p
        encodings = [group.card_point(p.match, game, c) for c in cards]
        locked = group.layer(k, encodings)
        return locked, proofs.prove_batch(ctx, k, pub, encodings, locked, p.rng)
