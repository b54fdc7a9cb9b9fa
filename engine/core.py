"""The rules on plain ints, for simulation: a game whose cards are ranks, kept in lists that each move changes in place.

:mod:`engine.game` is the rules on frozen values, which play by mail, the command and the tests see. This module plays
the very same games where only the result is wanted, at a fraction of the cost: self-play of bots that choose from ranks
(:func:`engine.play.play_game`) and the expert's rollouts (:mod:`engine.bots.sampling`). Its moves are
:class:`~engine.moves.Move` values, checked against the same rules (an illegal one is refused with engine.game's own
message), and its draws and shuffles are a :class:`~engine.dealer.LocalDealer`'s, card for card: the shuffles permute
lists of the same lengths with the same generator, so a seeded game goes the same way move by move
(tests/engine/test_core.py plays both).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import KING, Card
from engine.dealer import LocalDealer, shuffle
from engine.game import check_move
from engine.moves import CENTER, END, HAND, PAYOFF, SIDE, IllegalMoveError, Move
from engine.rules import Ruleset
from engine.state import GameState, Outcome, PlayerState, Pool, Reason

Ranks = list[int]


class RankGame:
    """One game on ranks: both hands (in the order the cards came), pay-off piles (top last), side stacks, the center
    stacks, the stock (top last) and the stacks completed but not yet shuffled in, with the turn and whose it is.

    Mutable and private to a simulation; nothing outside it holds its lists. `outcome` is set when the game ends.
    """

    __slots__ = (
        "_shuffle",
        "center",
        "complete_at",
        "hand_size",
        "hands",
        "king_starts",
        "lengths",
        "outcome",
        "piles",
        "pools",
        "ruleset",
        "sides",
        "starter",
        "stock",
        "to_move",
        "turn",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        hands: tuple[Ranks, Ranks],
        piles: tuple[Ranks, Ranks],
        sides: tuple[list[Ranks], list[Ranks]],
        center: list[Ranks],
        stock: Ranks,
        pools: list[tuple[int, Ranks]],
        to_move: int,
        turn: int,
        starter: int,
        shuffle: Callable[[list[int]], None],
    ) -> None:
        self.ruleset = ruleset
        self.hand_size, self.complete_at, self.king_starts = ruleset.hand_size, ruleset.complete_at, ruleset.king_starts_center
        self.hands, self.piles, self.sides, self.center = hands, piles, sides, center
        self.lengths = [len(s) for s in center]  # kept with the center: what the bots and searches look at
        self.stock, self.pools = stock, pools
        self.to_move, self.turn, self.starter = to_move, turn, starter
        self.outcome: Outcome | None = None
        self._shuffle = shuffle

    @classmethod
    def deal(cls, dealer: LocalDealer, ruleset: Ruleset, starter: int = 0) -> RankGame:
        """Deal a game through `dealer` as :func:`engine.game.new_game` does; the game goes on with the dealer's generator."""
        deal = dealer.deal(ruleset, starter)
        hands = ([c.rank for c in deal.hands[0]], [c.rank for c in deal.hands[1]])
        piles = tuple([*(c.rank for c in dealer.facedown[p]), deal.payoff_tops[p].rank] for p in (0, 1))
        sides: tuple[list[Ranks], list[Ranks]] = ([[] for _ in range(ruleset.side_stacks)], [[] for _ in range(ruleset.side_stacks)])
        center: list[Ranks] = [[] for _ in range(ruleset.center_stacks)]
        stock = [c.rank for c in dealer.stock]
        rng = dealer.rng
        return cls(ruleset, hands, (piles[0], piles[1]), sides, center, stock, [], starter, 1, starter, lambda cards: shuffle(rng, cards))

    def copy(self, shuffle: Callable[[list[int]], None]) -> RankGame:
        """The same game, in lists of its own, whose shuffles are `shuffle`'s."""
        game = RankGame(
            self.ruleset,
            (self.hands[0][:], self.hands[1][:]),
            (self.piles[0][:], self.piles[1][:]),
            ([s[:] for s in self.sides[0]], [s[:] for s in self.sides[1]]),
            [s[:] for s in self.center],
            self.stock[:],
            self.pools[:],  # a completed stack's list is never changed again: shared
            self.to_move,
            self.turn,
            self.starter,
            shuffle,
        )
        game.outcome = self.outcome
        return game

    def state(self) -> GameState:
        """The game as engine.game's frozen state (cards of rank only, no suits)."""
        cards = (Card(KING), *(Card(r) for r in range(1, 14)))  # by rank (index 0 unused)

        def stack(ranks: Ranks) -> tuple[Card, ...]:
            return tuple(cards[r] for r in ranks)

        players = tuple(
            PlayerState(
                stack(self.hands[p]),
                cards[self.piles[p][-1]] if self.piles[p] else None,
                len(self.piles[p]),
                tuple(stack(s) for s in self.sides[p]),
            )
            for p in (0, 1)
        )
        pools = tuple(Pool(turn, stack(ranks)) for turn, ranks in self.pools)
        center = tuple(stack(s) for s in self.center)
        return GameState(self.ruleset, players, center, len(self.stock), pools, self.to_move, self.turn, self.starter, self.outcome)  # type: ignore[arg-type]

    def _refuse(self, move: Move) -> IllegalMoveError:
        """engine.game's refusal of `move` here, with its message for the player."""
        try:
            check_move(self.state().view(self.to_move), move)
        except IllegalMoveError as error:
            return error
        raise AssertionError(f"the game on ranks refused {move}, which engine.game allows")  # the two must agree

    def play(self, move: Move) -> None:
        """Make `move` (IllegalMoveError, the game unchanged, if the rules forbid it); a discard or ``end`` ends the turn:
        the next player draws from the stock and the stacks completed a turn earlier are shuffled in (R12)."""
        if self.outcome is not None:
            raise self._refuse(move)
        p = self.to_move
        src = move.source
        if move.target == CENTER:
            t = move.target_index
            center = self.center
            if not 0 <= t < len(center):
                raise self._refuse(move)
            stack = center[t]
            if src == HAND:
                rank = move.source_index
                hand = self.hands[p]
                if rank not in hand:
                    raise self._refuse(move)
            elif src == PAYOFF:
                pile = self.piles[p]
                if not pile:
                    raise self._refuse(move)
                rank = pile[-1]
            elif src == SIDE:
                s = move.source_index
                sides = self.sides[p]
                if not 0 <= s < len(sides) or not sides[s]:
                    raise self._refuse(move)
                rank = sides[s][-1]
            else:
                raise self._refuse(move)
            if rank == KING:
                if not (stack or self.king_starts):
                    raise self._refuse(move)
            elif rank != len(stack) + 1:
                raise self._refuse(move)
            if src == HAND:
                hand.remove(rank)
            elif src == PAYOFF:
                pile.pop()
                if not pile:  # the last pay-off card wins; no other move empties the pile
                    self.outcome = Outcome(Reason.PAYOFF_EMPTY, p, len(self.piles[1 - p]))
            else:
                sides[s].pop()
            stack.append(rank)
            if len(stack) >= self.complete_at:
                self.pools.append((self.turn, stack))
                center[t] = []
                self.lengths[t] = 0
            else:
                self.lengths[t] += 1
            return
        if src == END:
            if self.hands[p]:
                raise self._refuse(move)
        elif src == HAND and move.target == SIDE:
            rank, t = move.source_index, move.target_index
            hand, sides = self.hands[p], self.sides[p]
            if not 0 <= t < len(sides) or rank not in hand:
                raise self._refuse(move)
            hand.remove(rank)
            sides[t].append(rank)
        else:
            raise self._refuse(move)
        self._end_turn()

    def _end_turn(self) -> None:
        """Draw for the next player, then shuffle in the stacks completed a turn earlier (R12); a tie (R8) if that draw
        took nothing and neither stock nor pools hold a card."""
        turn, nxt = self.turn, 1 - self.to_move
        pools, stock, hand = self.pools, self.stock, self.hands[nxt]
        count = self.hand_size - len(hand)
        if count > len(stock):
            count = len(stock)
        if count > 0:
            hand += stock[: -count - 1 : -1]  # the top `count` cards, top first
            del stock[-count:]
        else:
            count = 0
        if pools:
            completed = [pool for pool in pools if pool[0] == turn]
            merging = [pool for pool in pools if pool[0] < turn]
            if merging:
                for _, cards in merging:
                    stock += cards
                self._shuffle(stock)
            self.pools = completed
        self.to_move, self.turn = nxt, turn + 1
        if count == 0 and not stock and not self.pools:
            self.outcome = Outcome(Reason.STOCK_EXHAUSTED, None, 0)


class SeededShuffle:
    """The shuffles of ``LocalDealer.holding(..., seed)``: its generator is made at the first shuffle (most rollouts of
    the expert have none)."""

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    def __call__(self, cards: list[int]) -> None:
        if self._rng is None:
            self._rng = random.Random(self._seed)
        shuffle(self._rng, cards)


RankChooser = Callable[[list[int], "int | None", Sequence[Ranks], Ranks, bool], Move]
"""A bot that chooses from ranks (``choose_ranks``): the center stacks' lengths, its pay-off top, its side stacks
(bottom first) and hand (in the order the cards came), and whether a King may start a center stack; it reads them
and changes nothing."""
