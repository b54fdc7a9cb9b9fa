"""Checking the other player's turn on receipt: reveals, the end of turn (shuffle, draw, merge, pools), revealed keys.

A mixin of :class:`pbm.protocol.dealing.Party`. Nothing is taken in here: what checks out is staged
for the engine's dealer calls, so a refused message changes nothing.
"""

from __future__ import annotations

from typing import Any

from engine.cards import RANK_TEXT, Card
from engine.moves import HAND, PAYOFF, InvalidMoveError, Move, parse_turn
from pbm.errors import CardError, ProtocolError, StaleMessageError
from pbm.protocol import group, proofs
from pbm.protocol.deck import HandCard
from pbm.protocol.proofs import read_proof, read_proofs


class TurnChecks:
    """The receiver's checks of a turn message."""

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
            prf = read_proof(rv.get("proof"), f"turn {t}: reveal {n + 1}")
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
        ends_game = self._match_reveals(moves, len(g.piles[x]), t)
        if ends_game and "end" in section:
            raise ProtocolError(f"turn {t}: the moves end the game, but the message also ends the turn")
        if not ends_game and "end" not in section:
            raise ProtocolError(f"turn {t}: the moves end the turn, but the message does not")
        if "end" in section:
            self._staged.end = self._check_end(section["end"], seen)
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

    def _check_end(self, end: Any, seen: set[int]) -> dict[str, Any]:
        """Check the other's end of turn (shuffle, reservation of my draw, merge, pool layers) and read my draw."""
        g, x, me, t = self._g(), self.other, self.me, self._g().turn
        if not isinstance(end, dict):
            raise ProtocolError(f"turn {t}: the end of turn is not a table")
        stock, epoch, keys = list(g.stock), g.stock_epoch[x], []
        top: list[bytes] | None = None
        shuffled_flags, last = list(g.shuffled), []
        if ("shuffle" in end) != (not g.shuffled[x]):
            raise ProtocolError(f"turn {t}: player {x + 1} {'must' if not g.shuffled[x] else 'may not'} shuffle the stock now")
        if "shuffle" in end:
            sh = _table_of(end["shuffle"], f"turn {t}: the shuffle")
            keys.append(group.point(sh.get("key"), f"turn {t}: the shuffle's key"))
            if "top" in sh:  # a merge follows in this turn: only the cards reserved from this shuffle travel
                if not g.pools:
                    raise ProtocolError(f"turn {t}: a shuffle must send the whole stock unless a merge follows")
                top = group.points(sh.get("top"), f"turn {t}: the top of the shuffled stock")
                if len(top) > len(stock) or len(top) != len(_table_of(end.get("draw", {"points": []}), "the draw").get("points", [])):
                    raise ProtocolError(f"turn {t}: the top of the shuffled stock is not the reserved draw")
            else:
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
            prfs = read_proofs(dr.get("proofs"), n, f"turn {t}: the draw")
            mine = self._my_key(g.stock_epoch[me])
            inverse = group.invert(mine)
            for i, (pt, prf) in enumerate(zip(pts, prfs, strict=True)):
                layered = top[i] if top is not None else stock[-1 - i]
                proofs.verify(self._ctx(t, f"draw {i + 1} for player {me + 1}"), prf, key, pt, layered)
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
        if not isinstance(end.get("pools", []), list) or len(end.get("pools", [])) > self.ruleset.center_stacks:
            raise ProtocolError(f"turn {t}: more pools than there are center stacks")
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


def _table_of(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError(f"{what} is not a table")
    return value
