"""The end-of-game audit: with both players' keys revealed, every face-down card must decode, and the deck add up.

Strip proofs already check every card that turned face up or was drawn. What is left to check
is what no proof covers: the shuffles and pool layers. The audit decodes every point still
face down (stock, pools, hands, pay-off piles) and requires that, with the face-up cards,
they are exactly the deck, each card once. See docs/protocol.md for why this suffices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.cards import Card
from pbm.errors import AuditError
from pbm.protocol import group
from pbm.protocol.deck import GameRecord
from pbm.protocol.group import Point, Scalar


def check_keys(keys: Sequence[Scalar], public: Sequence[Point], player: int, game: int) -> None:
    """Raise AuditError unless the revealed scalars are exactly the keys behind `player`'s public keys."""
    if len(keys) != len(public):
        raise AuditError(f"game {game}: player {player + 1} revealed {len(keys)} keys but published {len(public)}")
    for e, (k, pub) in enumerate(zip(keys, public, strict=True)):
        if group.base(k) != pub:
            raise AuditError(f"game {game}: player {player + 1}'s revealed key {e} does not match the public key it published")


def _name(index: int) -> str:
    return str(Card.from_index(index))


def audit_game(record: GameRecord, secrets: Sequence[Sequence[Scalar]], match: bytes, deck_size: int) -> None:
    """Raise AuditError, saying what is wrong and where, unless the face-down cards and the face-up ones make the deck."""
    g = record.number
    for p in (0, 1):
        check_keys(secrets[p], record.keys[p], p, g)
    table = group.card_table(match, g, deck_size)
    where: dict[int, list[str]] = {i: ["face up"] for i in record.face_up}

    def decode(points: Sequence[Point], key: Scalar, place: str) -> list[int]:
        inverse = group.invert(key)
        out = []
        for n, pt in enumerate(points):
            index = table.get(group.mul(inverse, pt))
            if index is None:
                raise AuditError(f"game {g}: {place} (card {n + 1}) is no card under the keys both players revealed")
            out.append(index)
        return out

    k0, k1 = secrets[0][record.stock_epoch[0]], secrets[1][record.stock_epoch[1]]
    shuffler, turn = record.last_shuffle
    stock_place = f"the stock (last shuffled by player {shuffler + 1} in turn {turn})" if turn else "the stock (as dealt)"
    for index in decode(record.stock, group.smul(k0, k1), stock_place):
        where.setdefault(index, []).append("in the stock")
    for pool in record.pools:
        place = f"the recycling pool of turn {pool.turn}, layered by player {pool.by + 1}"
        found = decode(pool.points, secrets[pool.by][pool.epoch], place)
        if Counter(found) != Counter(pool.cards):
            raise AuditError(f"game {g}: {place} holds other cards than the center stack it came from")
    for p in (0, 1):
        for index in decode(record.piles[p], secrets[p][0], f"player {p + 1}'s pay-off pile"):
            where.setdefault(index, []).append(f"in player {p + 1}'s pay-off pile")
        for n, hand in enumerate(record.hands[p]):
            (index,) = decode([hand.point], secrets[p][hand.epoch], f"player {p + 1}'s hand")
            if hand.card is not None and hand.card != index:
                raise AuditError(f"game {g}: player {p + 1}'s hand card {n + 1} is not the card its owner holds")
            where.setdefault(index, []).append(f"in player {p + 1}'s hand")
    for index, places in sorted(where.items()):
        if len(places) > 1:
            raise AuditError(f"game {g}: the card {_name(index)} is in the game twice ({' and '.join(places)}): a shuffle was dishonest")
    missing = [i for i in range(deck_size) if i not in where]
    if missing or len(where) != deck_size:
        names = ", ".join(_name(i) for i in missing[:5])
        raise AuditError(f"game {g}: {len(missing)} card(s) went missing ({names}): a shuffle was dishonest")
