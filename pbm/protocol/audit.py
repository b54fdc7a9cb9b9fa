"""The end-of-game audit: with both players' keys revealed, every face-down card must decode, and the deck add up.

Strip proofs already check every card that turned face up or was drawn. What is left to check
is what no proof covers: the shuffles and pool layers. The audit decodes every point still
face down (stock, pools, hands, pay-off piles) and requires that, with the face-up cards,
they are exactly the deck, each card once. See docs/protocol.md for why this suffices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import reduce

from engine.cards import Card
from pbm.errors import AuditError
from pbm.i18n import _, ngettext, pgettext
from pbm.protocol import group
from pbm.protocol.deck import GameRecord
from pbm.protocol.group import Point, Scalar


def check_keys(keys: Sequence[Scalar], public: Sequence[Point], player: int, game: int) -> None:
    """Raise AuditError unless the revealed scalars are exactly the keys behind `player`'s public keys."""
    if len(keys) != len(public):
        text = ngettext(
            # TRANSLATORS: the secret keys a player's spite reveals once a game is over, against the public keys it sent during the game
            "game {game}: player {player} revealed {n} key but published {count}",
            "game {game}: player {player} revealed {n} keys but published {count}",
            len(keys),
        )
        raise AuditError(text.format(game=game, player=player + 1, n=len(keys), count=len(public)))
    for e, (k, pub) in enumerate(zip(keys, public, strict=True)):
        if group.base(k) != pub:
            # TRANSLATORS: {key} numbers the player's keys of the game from 0
            text = _("game {game}: player {player}'s revealed key {key} does not match the public key it published")
            raise AuditError(text.format(game=game, player=player + 1, key=e))


def _name(index: int) -> str:
    return str(Card.from_index(index))


def audit_game(record: GameRecord, secrets: Sequence[Sequence[Scalar]], match: bytes, deck_size: int) -> None:
    """Raise AuditError, saying what is wrong and where, unless the face-down cards and the face-up ones make the deck."""
    g = record.number
    for p in (0, 1):
        check_keys(secrets[p], record.keys[p], p, g)
    table = group.card_table(match, g, deck_size)
    # TRANSLATORS: where a card is found: the audit lists the places of a card found twice, e.g. "face up and in the stock"
    face_up = pgettext("where a card is found", "face up")
    where: dict[int, list[str]] = {i: [face_up] for i in record.face_up}

    def decode(points: Sequence[Point], key: Scalar, place: str) -> list[int]:
        inverse = group.invert(key)
        out = []
        for n, pt in enumerate(points):
            index = table.get(group.mul(inverse, pt))
            if index is None:
                # TRANSLATORS: {place} names a face-down pile, e.g. "player 1's pay-off pile"; the keys: both players' secrets, revealed
                text = _("game {game}: {place} (card {n}) is no card under the keys both players revealed")
                raise AuditError(text.format(game=g, place=place, n=n + 1))
            out.append(index)
        return out

    k0, k1 = secrets[0][record.stock_epoch[0]], secrets[1][record.stock_epoch[1]]
    shuffler, turn = record.last_shuffle
    if turn:
        stock_place = _("the stock (last shuffled by player {player} in turn {turn})").format(player=shuffler + 1, turn=turn)
    else:
        stock_place = _("the stock (as dealt)")
    in_stock = _("in the stock")
    for index in decode(record.stock, group.smul(k0, k1), stock_place):
        where.setdefault(index, []).append(in_stock)
    for pool in record.pools:
        # TRANSLATORS: a recycling pool: a completed center stack on its way back into the stock, under one player's secret layer
        place = _("the recycling pool of turn {turn}, layered by player {player}").format(turn=pool.turn, player=pool.by + 1)
        found = decode(pool.points, secrets[pool.by][pool.epoch], place)
        if Counter(found) != Counter(pool.cards):
            raise AuditError(_("game {game}: {place} holds other cards than the center stack it came from").format(game=g, place=place))
    for p in (0, 1):
        in_pile = _("in player {player}'s pay-off pile").format(player=p + 1)
        for index in decode(record.piles[p], secrets[p][0], _("player {player}'s pay-off pile").format(player=p + 1)):
            where.setdefault(index, []).append(in_pile)
        in_hand = _("in player {player}'s hand").format(player=p + 1)
        for n, hand in enumerate(record.hands[p]):
            (index,) = decode([hand.point], secrets[p][hand.epoch], _("player {player}'s hand").format(player=p + 1))
            if hand.card is not None and hand.card != index:
                text = _("game {game}: player {player}'s hand card {n} is not the card its owner holds")
                raise AuditError(text.format(game=g, player=p + 1, n=n + 1))
            where.setdefault(index, []).append(in_hand)
    for index, places in sorted(where.items()):
        if len(places) > 1:
            # TRANSLATORS: two places where one card is found, e.g. "face up and in the stock" (a third is joined the same way)
            both = reduce(lambda first, second: _("{first} and {second}").format(first=first, second=second), places)
            # TRANSLATORS: {card} is a card as spite writes it, e.g. 7h; {places} where it is found, e.g. "face up and in the stock"
            text = _("game {game}: the card {card} is in the game twice ({places}): a shuffle was dishonest")
            raise AuditError(text.format(game=g, card=_name(index), places=both))
    missing = [i for i in range(deck_size) if i not in where]
    if missing or len(where) != deck_size:
        names = ", ".join(_name(i) for i in missing[:5])
        text = ngettext(
            # TRANSLATORS: {names} lists the first (at most 5) missing cards as spite writes them, e.g. "7h, Qs"
            "game {game}: {n} card went missing ({names}): a shuffle was dishonest",
            "game {game}: {n} cards went missing ({names}): a shuffle was dishonest",
            len(missing),
        )
        raise AuditError(text.format(game=g, n=len(missing), names=names))
