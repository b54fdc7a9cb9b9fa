"""Determinization: deal the cards a view cannot see at random, and play turns out in the resulting game.

This is the only place a bot builds a GameState, and it builds it from a PlayerView and a random generator only.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.bots.bfs import payoff_line
from engine.bots.greedy import greedy_move
from engine.bots.search import Work
from engine.cards import Card, full_deck
from engine.core import RankGame, SeededShuffle
from engine.dealer import LocalDealer, shuffle
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
    opp_hand, facedown, stock = _split(view, unseen, rng, own_pile)
    me, opp = view.player, 1 - view.player
    them = view.opponent
    pools = tuple(Pool(turn, cards) for turn, cards in _pools(view, old_pools))
    players: list[PlayerState] = [PlayerState((), None, 0, ()), PlayerState((), None, 0, ())]
    players[me] = PlayerState(view.hand, view.payoff_top, view.payoff_count, view.side)
    players[opp] = PlayerState(tuple(opp_hand), them.payoff_top, them.payoff_count, them.side)
    state = GameState(view.ruleset, (players[0], players[1]), view.center, len(stock), pools, view.to_move, view.turn, 0)
    return state, stock, facedown, rng.getrandbits(32)


def deal_ranks(
    view: PlayerView, unseen: Sequence[Card], rng: random.Random, old_pools: int, own_pile: Sequence[Card] | None = None
) -> tuple[RankGame, int]:
    """The game :func:`determinize` deals from `rng`, on ranks (engine.core), and the seed of its shuffles: the same cards
    in the same places, and the same shuffles to come. The rollouts play it."""
    opp_hand, facedown, stock = _split(view, unseen, rng, own_pile)
    me, opp = view.player, 1 - view.player
    them = view.opponent
    hands: list[list[int]] = [[], []]
    piles: list[list[int]] = [[], []]
    sides: list[list[list[int]]] = [[], []]
    for p, hand, top, side in ((me, view.hand, view.payoff_top, view.side), (opp, opp_hand, them.payoff_top, them.side)):
        hands[p] = [card.rank for card in hand]
        piles[p] = [card.rank for card in facedown[p]] + ([top.rank] if top is not None else [])
        sides[p] = [[card.rank for card in pile] for pile in side]
    pools = [(turn, [card.rank for card in cards]) for turn, cards in _pools(view, old_pools)]
    center = [[card.rank for card in stack] for stack in view.center]
    seed = rng.getrandbits(32)
    game = RankGame(
        view.ruleset,
        (hands[0], hands[1]),
        (piles[0], piles[1]),
        (sides[0], sides[1]),
        center,
        [card.rank for card in stock],
        pools,
        view.to_move,
        view.turn,
        0,
        SeededShuffle(seed),
    )
    return game, seed


def _split(
    view: PlayerView, unseen: Sequence[Card], rng: random.Random, own_pile: Sequence[Card] | None
) -> tuple[list[Card], tuple[list[Card], list[Card]], list[Card]]:
    """The unseen cards shuffled by `rng` and dealt: the opponent's hand, both face-down piles (`own_pile` as it is, for
    the bot that reads it) and the stock."""
    cards = list(unseen)
    if own_pile is not None:
        pile = Counter(own_pile)
        cards = [card for card in cards if not _take(pile, card)]
    shuffle(rng, cards)
    me, opp = view.player, 1 - view.player
    them = view.opponent
    hand_n = them.hand_count
    mine_n = 0 if own_pile is not None else max(0, view.payoff_count - 1)
    theirs_n = max(0, them.payoff_count - 1)
    facedown: list[list[Card]] = [[], []]
    facedown[me] = list(own_pile) if own_pile is not None else cards[hand_n : hand_n + mine_n]
    facedown[opp] = cards[hand_n + mine_n : hand_n + mine_n + theirs_n]
    return cards[:hand_n], (facedown[0], facedown[1]), cards[hand_n + mine_n + theirs_n :]


def _pools(view: PlayerView, old_pools: int) -> list[tuple[int, tuple[Card, ...]]]:
    """The completed stacks being shuffled in, each with the turn it was completed in (the first `old_pools` before this one)."""
    size = view.ruleset.complete_at
    chunks = [view.shuffling_in[i : i + size] for i in range(0, len(view.shuffling_in), size)]
    return [(view.turn - 1 if n < old_pools else view.turn, chunk) for n, chunk in enumerate(chunks)]


def _take(counts: Counter[Card], card: Card) -> bool:
    """Whether `card` is one of `counts` still untaken; takes it if so."""
    if counts[card] > 0:
        counts[card] -= 1
        return True
    return False


def play_turn(game: RankGame, max_moves: int = 200, work: Work | None = None) -> None:
    """The player to move in `game` plays a whole turn as greedy would (or the game ends); the moves go to `work`."""
    player, turn = game.to_move, game.turn
    hand, side, pile, lengths, king_starts = game.hands[player], game.sides[player], game.piles[player], game.lengths, game.king_starts
    played = 0
    while played < max_moves and game.outcome is None and game.turn == turn:
        game.play(greedy_move(lengths, pile[-1] if pile else None, side, hand, king_starts))
        played += 1
    if work is not None:
        work.steps += played


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
    :func:`determinize` from a generator in the same state; the deal is made once, and played on ranks (engine.core).
    The rollouts' work goes to `work`.
    """
    dealt, seed = deal_ranks(view, unseen, rng, old_pools, own_pile)
    me = view.player
    last = len(plans) - 1  # the last plan plays the dealt game itself, the others a copy each
    return [rollout(dealt if i == last else dealt.copy(SeededShuffle(seed)), plan, me, fear, work=work) for i, plan in enumerate(plans)]


def rollout(game: RankGame, moves: Sequence[Move], me: int, fear: float = 2.0, work: Work | None = None) -> float:
    """Play `moves` (the rest of our turn) in `game`, the opponent's greedy turn and our next turn's run of pay-off cards.

    Our next turn goes as far as :func:`payoff_run` takes it: a search for each pay-off card finds the lines through
    Kings that greedy play misses. The score is our pay-off cards played less `fear` times the opponent's; a win or
    loss counts far more. The moves applied and the tables searched go to `work`.
    """
    for move in moves:
        game.play(move)
    if work is not None:
        work.steps += len(moves)
    opp = 1 - me
    before = len(game.piles[opp])
    play_turn(game, work=work)
    if game.outcome is not None:
        return -30.0 if game.outcome.winner == opp else 0.0
    theirs = before - len(game.piles[opp])
    before = len(game.piles[me])
    payoff_run(game, work)
    if game.outcome is not None and game.outcome.winner == me:
        return 10.0 - fear * theirs
    ours = before - len(game.piles[me])
    return ours - fear * theirs


def payoff_run(game: RankGame, work: Work | None = None) -> None:
    """The player to move plays the line the breadth-first search (``bfs``) finds to each pay-off top in turn, and stops
    at the first it cannot reach, in mid-turn (what the rest of the turn would play is left out). The tables searched
    and the moves applied go to `work`."""
    me, turn = game.to_move, game.turn
    hand, side, pile, lengths = game.hands[me], game.sides[me], game.piles[me], game.lengths
    king_starts, complete_at = game.king_starts, game.complete_at
    while game.outcome is None and game.turn == turn and pile:
        line = payoff_line(tuple(sorted(hand)), tuple(map(tuple, side)), tuple(lengths), pile[-1], king_starts, complete_at, work=work)
        if line is None:
            break
        for move in line:
            game.play(move)
        if work is not None:
            work.steps += len(line)
