"""Determinization: deal the cards a view cannot see at random, and play turns out in the resulting game.

This is the only place a bot builds a GameState, and it builds it from a PlayerView and a random generator only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.bots import Bot
from engine.bots.bfs import payoff_line
from engine.bots.greedy import GreedyBot
from engine.bots.search import Work, table_ranks
from engine.cards import Card, full_deck
from engine.dealer import LocalDealer
from engine.game import apply
from engine.moves import Move
from engine.state import GameState, PlayerState, PlayerView, Pool


def unseen_cards(view: PlayerView) -> list[Card]:
    """The full deck minus every card visible in `view`, in a fixed order."""
    deck: Counter[Card] = Counter(full_deck(view.ruleset.decks))
    spare: dict[int, list[Card]] = {}
    for card in deck:
        spare.setdefault(card.rank, []).append(card)
    visible = [*view.hand, *view.shuffling_in]
    for piles in (view.side, view.opponent.side, view.center):
        for pile in piles:
            visible.extend(pile)
    visible += [top for top in (view.payoff_top, view.opponent.payoff_top) if top is not None]
    for card in visible:
        if card.suit is not None and deck[card] > 0:
            deck[card] -= 1
            continue
        # a card written without its suit (position files) stands for any copy of its rank
        for other in spare[card.rank]:
            if deck[other] > 0:
                deck[other] -= 1
                break
    return list(deck.elements())


def determinize(
    view: PlayerView, unseen: Sequence[Card], rng: random.Random, old_pools: int, own_pile: Sequence[Card] | None = None
) -> tuple[GameState, LocalDealer]:
    """A full game consistent with `view`: the unseen cards dealt at random to the opponent's hand, the stock and the piles.

    `old_pools` is how many of the completed stacks being shuffled in were completed before this turn. `own_pile`,
    given only to a bot that cheats (README, G5), is the mover's true face-down pay-off pile (top last): it is dealt
    as it is, and only the other unseen cards are shuffled.
    """
    state, stock, facedown, seed = _deal(view, unseen, rng, old_pools, own_pile)
    return state, LocalDealer.holding(stock, facedown, seed)


def _deal(
    view: PlayerView, unseen: Sequence[Card], rng: random.Random, old_pools: int, own_pile: Sequence[Card] | None
) -> tuple[GameState, list[Card], tuple[list[Card], list[Card]], int]:
    """What :func:`determinize` deals: the state, the stock, the face-down piles and the seed of the dealer's shuffles."""
    cards = list(unseen)
    if own_pile is not None:
        pile = Counter(own_pile)
        cards = [card for card in cards if not _take(pile, card)]
    rng.shuffle(cards)
    me, opp = view.player, 1 - view.player
    them = view.opponent
    hand_n = them.hand_count
    mine_n = 0 if own_pile is not None else max(0, view.payoff_count - 1)
    theirs_n = max(0, them.payoff_count - 1)
    opp_hand = tuple(cards[:hand_n])
    facedown: list[list[Card]] = [[], []]
    facedown[me] = list(own_pile) if own_pile is not None else cards[hand_n : hand_n + mine_n]
    facedown[opp] = cards[hand_n + mine_n : hand_n + mine_n + theirs_n]
    stock = cards[hand_n + mine_n + theirs_n :]
    size = view.ruleset.complete_at
    chunks = [view.shuffling_in[i : i + size] for i in range(0, len(view.shuffling_in), size)]
    pools = tuple(Pool(view.turn - 1 if n < old_pools else view.turn, chunk) for n, chunk in enumerate(chunks))
    players: list[PlayerState] = [PlayerState((), None, 0, ()), PlayerState((), None, 0, ())]
    players[me] = PlayerState(view.hand, view.payoff_top, view.payoff_count, view.side)
    players[opp] = PlayerState(opp_hand, them.payoff_top, them.payoff_count, them.side)
    state = GameState(view.ruleset, (players[0], players[1]), view.center, len(stock), pools, view.to_move, view.turn, 0)
    return state, stock, (facedown[0], facedown[1]), rng.getrandbits(32)


def _take(counts: Counter[Card], card: Card) -> bool:
    """Whether `card` is one of `counts` still untaken; takes it if so."""
    if counts[card] > 0:
        counts[card] -= 1
        return True
    return False


GREEDY = GreedyBot()


def play_turn(state: GameState, dealer: LocalDealer, policy: Bot = GREEDY, max_moves: int = 200, work: Work | None = None) -> GameState:
    """The state after the player to move plays a whole turn as `policy` would (or the game ends); the moves go to `work`."""
    player, turn = state.to_move, state.turn
    played = 0
    while played < max_moves and state.outcome is None and state.turn == turn:
        state = apply(state, policy.choose(state.view(player)), dealer)
        played += 1
    if work is not None:
        work.steps += played
    return state


def rollouts(
    view: PlayerView,
    unseen: Sequence[Card],
    rng: random.Random,
    old_pools: int,
    plans: Sequence[Sequence[Move]],
    fear: float,
    own_pile: Sequence[Card] | None = None,
    work: Work | None = None,
) -> list[float]:
    """The :func:`rollout` score of each of `plans` (the rest of our turn) on one deal from `rng`, the same deal for all.

    Every plan meets the same cards and the same shuffles (common random numbers), as if each were dealt by
    :func:`determinize` from a generator in the same state; the deal is made once. The rollouts' work goes to `work`.
    """
    state, stock, facedown, seed = _deal(view, unseen, rng, old_pools, own_pile)
    me = view.player
    return [rollout(state, LocalDealer.holding(stock, facedown, seed), plan, me, fear, work=work) for plan in plans]


def rollout(
    state: GameState, dealer: LocalDealer, moves: Sequence[Move], me: int, fear: float = 2.0, reply: Bot = GREEDY, work: Work | None = None
) -> float:
    """Play `moves` (the rest of our turn), the opponent's `reply` turn and our next turn's run of pay-off cards.

    Our next turn goes as far as :func:`payoff_run` takes it: a search for each pay-off card finds the lines through
    Kings that greedy play misses. The score is our pay-off cards played less `fear` times the opponent's; a win or
    loss counts far more. The moves applied and the tables searched go to `work`.
    """
    for move in moves:
        state = apply(state, move, dealer)
    if work is not None:
        work.steps += len(moves)
    opp = 1 - me
    before = state.players[opp].payoff_count
    state = play_turn(state, dealer, reply, work=work)
    if state.outcome is not None:
        return -30.0 if state.outcome.winner == opp else 0.0
    theirs = before - state.players[opp].payoff_count
    before = state.players[me].payoff_count
    state = payoff_run(state, dealer, work)
    if state.outcome is not None and state.outcome.winner == me:
        return 10.0 - fear * theirs
    ours = before - state.players[me].payoff_count
    return ours - fear * theirs


def payoff_run(state: GameState, dealer: LocalDealer, work: Work | None = None) -> GameState:
    """The player to move plays the line the breadth-first search (``bfs``) finds to each pay-off top in turn, and stops
    at the first it cannot reach: the state there, in mid-turn (what the rest of the turn would play is left out).
    The tables searched and the moves applied go to `work`."""
    me, turn, rules = state.to_move, state.turn, state.ruleset
    while state.outcome is None and state.turn == turn:
        player = state.players[me]
        if player.payoff_top is None:
            break
        hand, side, center = table_ranks(player.hand, player.side, state.center)
        line = payoff_line(hand, side, center, player.payoff_top.rank, rules.king_starts_center, rules.complete_at, work=work)
        if line is None:
            break
        for move in line:
            state = apply(state, move, dealer)
        if work is not None:
            work.steps += len(line)
    return state
