"""The game state, and the view of it that one player may see."""

from __future__ import annotations

import enum

from engine._frozen import fast_init, frozen_value, maker
from engine.cards import Card
from engine.rules import Ruleset

Stack = tuple[Card, ...]


class Reason(enum.Enum):
    """Why a game ended."""

    PAYOFF_EMPTY = "payoff_empty"  # a player played the last card of their pay-off pile
    STOCK_EXHAUSTED = "stock_exhausted"  # R8: a turn began with nothing left to draw
    RESIGNED = "resigned"  # a player conceded the game: the other wins it, scoring the resigner's pay-off pile (R10)


@fast_init
@frozen_value
class Outcome:
    """The end of a game: the winner (None for a tie), why, and the winner's points."""

    reason: Reason
    winner: int | None
    points: int = 0

    @property
    def is_tie(self) -> bool:
        return self.winner is None


@fast_init
@frozen_value
class Pool:
    """The cards of a center stack completed in `turn`, being shuffled back into the stock (R12)."""

    turn: int
    cards: Stack


@fast_init
@frozen_value
class PlayerState:
    """One player's cards. `unseen` counts hand cards whose identity the holder of this state does not know.

    In a local game every card is known and `unseen` is 0; a play-by-mail client keeps the
    opponent's hand as `unseen` only. The pay-off pile below its top lives with the dealer.
    """

    hand: Stack
    payoff_top: Card | None
    payoff_count: int
    side: tuple[Stack, ...]
    unseen: int = 0

    @property
    def hand_count(self) -> int:
        return len(self.hand) + self.unseen


@fast_init
@frozen_value
class GameState:
    """A position of one game: both players, the center stacks, the stock count and the pools.

    The stock's cards and the face-down pay-off cards are the dealer's; the state keeps counts.
    `turn` counts from 1; `to_move` is 0 or 1.
    """

    ruleset: Ruleset
    players: tuple[PlayerState, PlayerState]
    center: tuple[Stack, ...]
    stock_count: int
    pools: tuple[Pool, ...]
    to_move: int
    turn: int
    starter: int
    outcome: Outcome | None = None

    @property
    def shuffling_in(self) -> int:
        """Cards of completed center stacks not yet back in the stock."""
        return sum(len(pool.cards) for pool in self.pools)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def view(self, player: int) -> PlayerView:
        """Everything `player` may see, and nothing else."""
        me, them = self.players[player], self.players[1 - player]
        pools = self.pools
        if not pools:
            shuffling: Stack = ()
        elif len(pools) == 1:
            shuffling = pools[0].cards
        else:
            shuffling = tuple(card for pool in pools for card in pool.cards)
        return _make_view(
            self.ruleset,
            player,
            self.to_move,
            self.turn,
            me.hand,
            me.payoff_top,
            me.payoff_count,
            me.side,
            _make_opponent(len(them.hand) + them.unseen, them.payoff_top, them.payoff_count, them.side),
            self.center,
            self.stock_count,
            shuffling,
            self.outcome,
            None,
        )


@fast_init
@frozen_value
class OpponentView:
    """What a player sees of the opponent: hand size, pay-off top and count, side stacks."""

    hand_count: int
    payoff_top: Card | None
    payoff_count: int
    side: tuple[Stack, ...]


@fast_init
@frozen_value
class PlayerView:
    """One player's view of a game. It holds no card that player may not see.

    `shuffling_in` lists the (public) cards of completed center stacks not yet drawable.
    """

    ruleset: Ruleset
    player: int
    to_move: int
    turn: int
    hand: Stack
    payoff_top: Card | None
    payoff_count: int
    side: tuple[Stack, ...]
    opponent: OpponentView
    center: tuple[Stack, ...]
    stock_count: int
    shuffling_in: Stack = ()
    outcome: Outcome | None = None
    shuffling_in_count: int | None = None  # set by position files, which give a count only

    @property
    def shuffling_count(self) -> int:
        """How many cards are being shuffled in."""
        return len(self.shuffling_in) if self.shuffling_in_count is None else self.shuffling_in_count

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.player and self.outcome is None


# a view per move: these build views at a fraction of the cost of their constructors (GameState.view)
_make_view = maker(PlayerView)
_make_opponent = maker(OpponentView)
