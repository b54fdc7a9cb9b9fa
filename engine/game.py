"""The rules in motion: start a game, list the legal moves, apply a move, add up a match."""

from __future__ import annotations

from engine._frozen import frozen_value, maker
from engine.cards import KING, RANK_TEXT, Card
from engine.dealer import Dealer, DealerError
from engine.moves import CENTER, DISCARDS, END, END_MOVE, HAND, HAND_PLAYS, PAYOFF, PAYOFF_PLAYS, SIDE, SIDE_PLAYS, IllegalMoveError, Move
from engine.rules import G4A, Ruleset
from engine.state import GameState, Outcome, PlayerState, PlayerView, Pool, Reason, Stack
from engine.text import N_, Message, Plural

# every move makes a new state and player: these build them at a fraction of the cost of their constructors
_make_state = maker(GameState)
_make_player = maker(PlayerState)


def new_game(dealer: Dealer, ruleset: Ruleset = G4A, starter: int = 0) -> GameState:
    """Deal a game through `dealer`; `starter` (0 or 1) plays turn 1."""
    deal = dealer.deal(ruleset, starter)
    empty_sides: tuple[Stack, ...] = ((),) * ruleset.side_stacks
    players = tuple(PlayerState(deal.hands[p], deal.payoff_tops[p], ruleset.payoff_size, empty_sides, deal.unseen[p]) for p in (0, 1))
    return GameState(
        ruleset=ruleset,
        players=players,  # type: ignore[arg-type]
        center=((),) * ruleset.center_stacks,
        stock_count=ruleset.stock_at_start,
        pools=(),
        to_move=starter,
        turn=1,
        starter=starter,
    )


def _fits(rank: int, stack: Stack, ruleset: Ruleset) -> bool:
    """Whether a card of `rank` may go on a center stack: the next rank, or a King (R2: also on an empty one)."""
    if rank == KING:
        return bool(stack) or ruleset.king_starts_center
    return rank == len(stack) + 1


# What a player reads when a card does not fit a center stack: one whole sentence per case, by the card's source
# (the pay-off pile, a side stack, the hand), by whether the stack is empty (then it needs an A), and by the article
# English puts before the rank the stack needs ("an A", "an 8", "a 2").
_MISFIT_EMPTY = {
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (always A), {rank} the card's rank.
    PAYOFF: N_("{place} is empty and needs an {need}; your pay-off {rank} does not fit"),
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (always A), {rank} the top card of side stack {side}.
    SIDE: N_("{place} is empty and needs an {need}; the {rank} on {side} does not fit"),
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (always A), {rank} a rank in the player's hand.
    HAND: N_("{place} is empty and needs an {need}; your {rank} does not fit"),
}
_MISFIT_AN = {
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (A or 8), {rank} the card's rank.
    PAYOFF: N_("{place} needs an {need}; your pay-off {rank} does not fit"),
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (A or 8), {rank} the top card of side stack {side}.
    SIDE: N_("{place} needs an {need}; the {rank} on {side} does not fit"),
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (A or 8), {rank} a rank in the player's hand.
    HAND: N_("{place} needs an {need}; your {rank} does not fit"),
}
_MISFIT_A = {
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (2-10, J or Q), {rank} the card's rank.
    PAYOFF: N_("{place} needs a {need}; your pay-off {rank} does not fit"),
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (2-10, J or Q), {rank} the top card of side stack {side}.
    SIDE: N_("{place} needs a {need}; the {rank} on {side} does not fit"),
    # TRANSLATORS: {place} is a center stack (c1-c3), {need} the rank it needs (2-10, J or Q), {rank} a rank in the player's hand.
    HAND: N_("{place} needs a {need}; your {rank} does not fit"),
}


def _misfit(rank: int, stack: Stack, target: int, move: Move) -> IllegalMoveError:
    """The error for a card of `rank`, played by `move`, that does not fit center stack `target`."""
    need = RANK_TEXT[len(stack) + 1]
    place = f"c{target + 1}"
    if rank == KING:
        # TRANSLATORS: {place} is a center stack (c1-c3).
        return IllegalMoveError(Message(N_("{place} is empty and this ruleset does not let a King start a center stack"), place=place))
    if not stack:
        templates = _MISFIT_EMPTY
    elif need in ("A", "8"):
        templates = _MISFIT_AN
    else:
        templates = _MISFIT_A
    source = move.source if move.source in (PAYOFF, SIDE) else HAND
    if source == SIDE:
        message = Message(templates[SIDE], place=place, need=need, rank=RANK_TEXT[rank], side=f"s{move.source_index + 1}")
    else:
        message = Message(templates[source], place=place, need=need, rank=RANK_TEXT[rank])
    return IllegalMoveError(message)


def _no_place(kind: str, index: int, count: int, move: Move) -> IllegalMoveError:
    values = {"move": str(move), "stack": f"{kind}{index + 1}", "first": f"{kind}1", "last": f"{kind}{count}"}
    if kind == CENTER:
        # TRANSLATORS: {move} is the move as typed (like 7-c4), {stack} the stack it names, {first}-{last} the stacks there are (c1-c3).
        return IllegalMoveError(Message(N_("{move}: there is no center stack {stack}; they are {first}-{last}"), **values))
    # TRANSLATORS: {move} is the move as typed (like 7-s5), {stack} the stack it names, {first}-{last} the stacks there are (s1-s4).
    return IllegalMoveError(Message(N_("{move}: there is no side stack {stack}; they are {first}-{last}"), **values))


def _not_held(move: Move, rank: int) -> IllegalMoveError:
    # TRANSLATORS: {move} is the move as typed (like 7-c2), {rank} a rank (A, 2-10, J, Q, K).
    return IllegalMoveError(Message(N_("{move}: you have no {rank} in your hand"), move=str(move), rank=RANK_TEXT[rank]))


def _hand_index(hand: Stack, rank: int) -> int:
    """The place of the first card of `rank` in `hand`, -1 if there is none."""
    for i, card in enumerate(hand):
        if card.rank == rank:
            return i
    return -1


def check_move(view: PlayerView, move: Move) -> None:
    """Raise IllegalMoveError, with a message for the player, unless `move` is legal in `view`."""
    if view.outcome is not None:
        raise IllegalMoveError(Message(N_("the game is over")))
    if view.player != view.to_move:
        raise IllegalMoveError(Message(N_("it is not this player's turn")))
    _check(view.ruleset, view.hand, 0, view.payoff_top, view.side, view.center, move)


def _check(
    ruleset: Ruleset, hand: Stack, unseen: int, payoff_top: Card | None, side: tuple[Stack, ...], center: tuple[Stack, ...], move: Move
) -> int:
    """The rules for one move, in terms of the mover's cards and the center stacks.

    Returns where in `hand` the card of a hand move is (-1 if it is unseen, or the move plays no hand card).
    """
    src = move.source
    if src == END:
        if hand or unseen:
            count = len(hand) + unseen
            held = Plural(
                # TRANSLATORS: {count} is how many cards the player holds; R5 is the rule's number in RULES.md.
                "you still hold {count} card: a turn ends by putting one on a side stack (R5)",
                "you still hold {count} cards: a turn ends by putting one on a side stack (R5)",
                count,
                count=count,
            )
            raise IllegalMoveError(held)
        return -1
    t = move.target_index
    if move.target == SIDE:
        if not 0 <= t < ruleset.side_stacks:
            raise _no_place(SIDE, t, ruleset.side_stacks, move)
        if src == PAYOFF:
            # TRANSLATORS: {move} is the move as typed (like p-s2); R6 is the rule's number in RULES.md.
            raise IllegalMoveError(Message(N_("{move}: pay-off cards go only to center stacks (R6)"), move=str(move)))
        if src == SIDE:
            # TRANSLATORS: {move} is the move as typed (like s1-s2); R6 is the rule's number in RULES.md.
            raise IllegalMoveError(Message(N_("{move}: side stack cards go only to center stacks (R6)"), move=str(move)))
        i = _hand_index(hand, move.source_index)
        if i < 0 and not unseen:
            raise _not_held(move, move.source_index)
        return i
    if not 0 <= t < ruleset.center_stacks:
        raise _no_place(CENTER, t, ruleset.center_stacks, move)
    stack = center[t]
    if src == PAYOFF:
        if payoff_top is None:
            # TRANSLATORS: {move} is the move as typed (like p-c1).
            raise IllegalMoveError(Message(N_("{move}: your pay-off pile is empty"), move=str(move)))
        rank, i = payoff_top.rank, -1
    elif src == SIDE:
        i = move.source_index
        if not 0 <= i < ruleset.side_stacks:
            raise _no_place(SIDE, i, ruleset.side_stacks, move)
        pile = side[i]
        if not pile:
            # TRANSLATORS: {move} is the move as typed (like s1-c2), {side} the side stack (s1-s4).
            raise IllegalMoveError(Message(N_("{move}: side stack {side} is empty"), move=str(move), side=f"s{i + 1}"))
        rank, i = pile[-1].rank, -1
    else:
        rank = move.source_index
        i = _hand_index(hand, rank)
        if i < 0 and not unseen:
            raise _not_held(move, rank)
    if not _fits(rank, stack, ruleset):
        raise _misfit(rank, stack, t, move)
    return i


def legal_moves(position: GameState | PlayerView) -> list[Move]:
    """Every legal move of the player to move, each once, sorted by its notation."""
    view = position.view(position.to_move) if isinstance(position, GameState) else position
    if view.outcome is not None or view.player != view.to_move:
        return []
    ruleset, center = view.ruleset, view.center
    targets = range(len(center))
    moves: list[Move] = []
    if view.payoff_top is not None:
        moves += [PAYOFF_PLAYS[t] for t in targets if _fits(view.payoff_top.rank, center[t], ruleset)]
    for i, pile in enumerate(view.side):
        if pile:
            moves += [SIDE_PLAYS[i][t] for t in targets if _fits(pile[-1].rank, center[t], ruleset)]
    for rank in sorted({card.rank for card in view.hand}):
        moves += [HAND_PLAYS[rank][t] for t in targets if _fits(rank, center[t], ruleset)]
        moves += DISCARDS[rank][: ruleset.side_stacks]
    if not view.hand:
        moves.append(END_MOVE)
    return sorted(moves, key=str)


def apply(state: GameState, move: Move, dealer: Dealer) -> GameState:
    """The state after `move`; raises IllegalMoveError (the state is unchanged) if the rules forbid it.

    A discard or ``end`` also ends the turn: the dealer draws for the next player and merges pools (R12).
    """
    if state.outcome is not None:
        raise IllegalMoveError(Message(N_("the game is over")))
    p = state.to_move
    players, center = state.players, state.center
    me = players[p]
    hand, unseen, payoff_top, side = me.hand, me.unseen, me.payoff_top, me.side
    ruleset = state.ruleset
    i = _check(ruleset, hand, unseen, payoff_top, side, center, move)
    src = move.source
    if src == END:
        return _end_turn(state, players, center, state.pools, dealer)
    if src == HAND:
        rank = move.source_index
        known = hand[i] if i >= 0 else None
        card = dealer.show(p, rank, known)
        if card.rank != rank:
            # TRANSLATORS: {card} is a card in the notation (like 7h), {rank} the rank the move plays (A, 2-10, J, Q, K).
            raise DealerError(Message(N_("the dealer showed {card} for a {rank}"), card=str(card), rank=RANK_TEXT[rank]))
        if i >= 0:
            hand = hand[:i] + hand[i + 1 :]
        else:
            unseen -= 1
    t = move.target_index
    if move.target == SIDE:
        side = side[:t] + (side[t] + (card,),) + side[t + 1 :]
        mine = _make_player(hand, payoff_top, me.payoff_count, side, unseen)
        return _end_turn(state, (mine, players[1]) if p == 0 else (players[0], mine), center, state.pools, dealer)
    payoff_count = me.payoff_count
    if src == PAYOFF:
        card = payoff_top  # type: ignore[assignment]
        payoff_count -= 1
        payoff_top = dealer.turn_up(p) if payoff_count else None
    elif src == SIDE:
        s = move.source_index
        pile = side[s]
        card = pile[-1]
        side = side[:s] + (pile[:-1],) + side[s + 1 :]
    stack = center[t] + (card,)
    pools = state.pools
    if len(stack) >= ruleset.complete_at:
        pools = pools + (Pool(state.turn, stack),)
        stack = ()
    center = center[:t] + (stack,) + center[t + 1 :]
    mine = _make_player(hand, payoff_top, payoff_count, side, unseen)
    outcome = None
    if src == PAYOFF and payoff_count == 0:  # the last pay-off card wins; no other move empties the pile
        outcome = Outcome(Reason.PAYOFF_EMPTY, p, players[1 - p].payoff_count)
    players = (mine, players[1]) if p == 0 else (players[0], mine)
    return _make_state(ruleset, players, center, state.stock_count, pools, p, state.turn, state.starter, outcome)


def _end_turn(
    state: GameState, players: tuple[PlayerState, PlayerState], center: tuple[Stack, ...], pools: tuple[Pool, ...], dealer: Dealer
) -> GameState:
    """Draw for the next player from the stock, then merge the pools completed a turn earlier (R12).

    The next turn is a tie (R8) if that draw took nothing and neither stock nor pools hold a card.
    """
    turn, nxt = state.turn, 1 - state.to_move
    if pools:
        completed = tuple(pool for pool in pools if pool.turn == turn)
        merging = tuple(pool for pool in pools if pool.turn < turn)
    else:
        completed = merging = ()
    them = players[nxt]
    count = state.ruleset.hand_size - len(them.hand) - them.unseen  # cards due, at most what the stock holds
    if count > state.stock_count:
        count = state.stock_count
    elif count < 0:
        count = 0
    draw = dealer.end_turn(turn, completed, merging, nxt, count)
    drawn, drawn_unseen = draw.cards, draw.unseen
    if len(drawn) + drawn_unseen != count:
        # TRANSLATORS: {drawn} and {due} are numbers of cards.
        raise DealerError(Message(N_("the dealer drew {drawn} cards where {due} were due"), drawn=len(drawn) + drawn_unseen, due=count))
    stock = state.stock_count - count
    for pool in merging:
        stock += len(pool.cards)
    if count:
        them = _make_player(them.hand + drawn, them.payoff_top, them.payoff_count, them.side, them.unseen + drawn_unseen)
        players = (them, players[1]) if nxt == 0 else (players[0], them)
    outcome = None
    if count == 0 and stock == 0 and not completed:
        outcome = Outcome(Reason.STOCK_EXHAUSTED, None, 0)
    return _make_state(state.ruleset, players, center, stock, completed, nxt, turn + 1, state.starter, outcome)


def resign(state: GameState, player: int) -> GameState:
    """The state after `player` resigned the game: the other wins it, scoring the cards left in `player`'s pay-off pile (R10)."""
    if state.outcome is not None:
        raise IllegalMoveError(Message(N_("the game is over")))
    if player not in (0, 1):
        raise ValueError("a player is 0 or 1")
    outcome = Outcome(Reason.RESIGNED, 1 - player, state.players[player].payoff_count)
    return _make_state(
        state.ruleset, state.players, state.center, state.stock_count, state.pools, state.to_move, state.turn, state.starter, outcome
    )


@frozen_value
class Match:
    """Games added up to the ruleset's target (R9, R10). Player 0 created the match and starts game 1."""

    ruleset: Ruleset = G4A
    scores: tuple[int, int] = (0, 0)
    games: int = 0
    conceded: int | None = None  # the player who resigned the whole match, if one did

    @property
    def next_starter(self) -> int:
        """Who starts the next game: the players take turns (R9)."""
        return self.games % 2

    @property
    def winner(self) -> int | None:
        """The player who reached the target score, or whose opponent conceded the match, if any."""
        if self.conceded is not None:
            return 1 - self.conceded
        for p in (0, 1):
            if self.scores[p] >= self.ruleset.target_score:
                return p
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def record(self, outcome: Outcome) -> Match:
        """The match after a game ended with `outcome`."""
        if self.is_over:
            raise ValueError("the match is already over")
        scores = list(self.scores)
        if outcome.winner is not None:
            scores[outcome.winner] += outcome.points
        return Match(self.ruleset, (scores[0], scores[1]), self.games + 1)

    def concede(self, player: int) -> Match:
        """The match after `player` resigned it (their game's resignation already recorded): the other player wins it."""
        if self.conceded is not None:
            raise ValueError("the match is already conceded")
        return Match(self.ruleset, self.scores, self.games, player)
