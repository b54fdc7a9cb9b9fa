"""The breadth-first-search yardstick bot and the pile-reading expert: legal moves only, whole games, seeded replays."""

from __future__ import annotations

import pytest

from engine.bots import make_bot
from engine.bots.bfs import BfsBot, bfs_plan, payoff_line
from engine.bots.expert import PeekingExpertBot
from engine.bots.search import table_ranks
from engine.dealer import LocalDealer
from engine.game import apply, legal_moves, new_game
from engine.play import play_game
from tests.engine.craft import card, player, run, state


def test_the_shortest_line_to_the_payoff_card_is_played() -> None:
    # 5 then 6 from the hand reaches the pay-off 7 on c1; the side stack's 5 would do as well as the hand's
    me = player("5h 6s 9c Js Qd", top="7h", count=12, side=("", "", "", ""))
    view = state(me, center=(run(1, 4), (), ())).view(0)
    assert [str(m) for m in bfs_plan(view)] == ["5-c1", "6-c1", "p-c1"]


def test_a_king_is_spent_when_it_is_the_shortest_way_to_the_payoff_card() -> None:
    me = player("Kh 9s 9c Js Qd", top="6h", count=12)
    view = state(me, center=(run(1, 4), (), ())).view(0)
    assert [str(m) for m in bfs_plan(view)] == ["K-c1", "p-c1"]


def test_without_the_payoff_card_the_hand_is_emptied_if_it_can_be() -> None:
    me = player("A 2 3", top="9h", count=12)
    view = state(me).view(0)
    assert [str(m) for m in bfs_plan(view)] == ["A-c1", "2-c1", "3-c1", "end"]


def test_otherwise_the_most_cards_are_played_without_kings_then_the_highest_is_discarded() -> None:
    me = player("A 2 Kd 9c 7s", top="Qh", count=12, side=("10d", "", "", ""))
    view = state(me).view(0)
    plan = [str(m) for m in bfs_plan(view)]
    assert plan == ["A-c1", "2-c1", "9-s1"]  # no King spent for nothing; the 9 builds down on the 10


def test_the_node_cap_bounds_the_search_and_the_plan_stays_legal() -> None:
    me = player("A 2 3 4 5", top="Qh", count=12)
    s = state(me)
    tiny = bfs_plan(s.view(0), max_nodes=2)
    assert len(tiny) <= 3
    for move in tiny:
        assert move in legal_moves(s.view(0))
        s = apply(s, move, LocalDealer.holding([card("2d'")] * 20, ([], [])))


@pytest.mark.parametrize("opponent", ["random", "easy", "expert"])
def test_every_move_is_legal_and_games_end(opponent: str) -> None:
    for g in range(3 if opponent != "expert" else 1):
        dealer = LocalDealer(f"bfs:{opponent}:{g}")
        s = new_game(dealer, starter=g % 2)
        bots = (BfsBot(), make_bot(opponent, seed=g, think=0.01))
        moves = 0
        while s.outcome is None:
            view = s.view(s.to_move)
            move = bots[s.to_move].choose(view)
            if s.to_move == 0:
                assert move in legal_moves(view), f"{move} is not legal"
            s = apply(s, move, dealer)
            moves += 1
            assert moves < 20_000
        assert s.outcome is not None


def test_the_rollouts_search_for_the_payoff_card_finds_the_line_bfs_plays_and_no_other() -> None:
    # the expert's rollouts play their own next turn by payoff_line: it must reach the pay-off card exactly where the bot
    # does, by the same moves, though it first leaves out the tables that a count of the cards shows cannot reach it
    reached = missed = 0
    for g in range(6):
        dealer = LocalDealer(f"payoff-line:{g}")
        s = new_game(dealer, starter=g % 2)
        bots = (BfsBot(), make_bot("easy"))
        while s.outcome is None:
            view = s.view(s.to_move)
            if view.payoff_top is not None:
                plan = bfs_plan(view)
                hand, side, center = table_ranks(view.hand, view.side, view.center)
                rules = view.ruleset
                line = payoff_line(hand, side, center, view.payoff_top.rank, rules.king_starts_center, rules.complete_at)
                if plan[-1].source == "p":
                    assert line == tuple(plan)
                    reached += 1
                else:
                    assert line is None
                    missed += 1
            s = apply(s, bots[s.to_move].choose(view), dealer)
    assert reached > 50 and missed > 200


def test_the_same_deal_plays_the_same_game() -> None:
    first = play_game((BfsBot(1), BfsBot(2)), LocalDealer("bfs-same"))
    again = play_game((make_bot("bfs", 1), make_bot("bfs", 2)), LocalDealer("bfs-same"))
    assert first.moves == again.moves and first.outcome == again.outcome


def test_the_peeking_expert_needs_its_pile_and_plays_legally_with_it() -> None:
    dealer = LocalDealer(5)
    s = new_game(dealer)
    with pytest.raises(RuntimeError, match="pay-off pile"):
        PeekingExpertBot().choose(s.view(0))
    bots = (make_bot("expert-peek", seed=1, think=0.01), make_bot("expert", seed=2, think=0.01))
    played = play_game(bots, LocalDealer(6))
    assert played.outcome is not None


def test_the_peeking_expert_samples_its_true_pile() -> None:
    import random

    from engine.bots.sampling import determinize, unseen_cards

    dealer = LocalDealer(8)
    s = new_game(dealer)
    view = s.view(0)
    truth = tuple(dealer.facedown[0])
    for seed in range(3):
        guess, guessed = determinize(view, unseen_cards(view), random.Random(seed), 0, own_pile=truth)
        assert tuple(guessed.facedown[0]) == truth
        rest = [*guess.players[1].hand, *guessed.stock, *guessed.facedown[1]]
        assert sorted(rest) == sorted(s.players[1].hand + tuple(dealer.stock) + tuple(dealer.facedown[1]))


def _plain_search(hand0, side0, center0, payoff, ks, done, max_nodes, whole):  # type: ignore[no-untyped-def]
    """The search as its rules read, without shortcuts: every table taken from the queue in turn and expanded."""
    from collections import deque

    from engine.bots.search import _play, _targets
    from engine.cards import KING
    from engine.moves import HAND_PLAYS, PAYOFF_PLAYS, SIDE_PLAYS

    start = (hand0, side0, center0, (), 0)
    queue, seen = deque([start]), {(hand0, side0, tuple(sorted(center0)))}
    emptied, most, expanded = None, start, 0
    while queue and expanded < max_nodes:
        node = queue.popleft()
        hand, side, center, moves, kings = node
        expanded += 1
        if payoff is not None and _targets(payoff, center, ks):
            return (*moves, PAYOFF_PLAYS[_targets(payoff, center, ks)[0]]), expanded
        if whole:
            if emptied is None and not hand and hand0:
                emptied = node
            if kings == 0 and len(moves) > len(most[3]):
                most = node
        children = [(hand, side[:i] + (pile[:-1],) + side[i + 1 :], pile[-1], SIDE_PLAYS[i]) for i, pile in enumerate(side) if pile]
        children += [(hand[:j] + hand[j + 1 :], side, r, HAND_PLAYS[r]) for j, r in enumerate(hand) if j == 0 or hand[j - 1] != r]
        for h, s, rank, plays in children:
            for t in _targets(rank, center, ks):
                after = _play(center, t, done)
                if (h, s, tuple(sorted(after))) not in seen:
                    seen.add((h, s, tuple(sorted(after))))
                    queue.append((h, s, after, (*moves, plays[t]), kings + (rank == KING)))
    return None, expanded, emptied, most


def test_the_search_finds_what_a_plain_breadth_first_search_finds_and_counts_the_same_tables() -> None:
    """Where it meets a line, the search stops at once and counts the tables a plain search would have expanded first:
    the same line and the same work (which the expert's budget adds up) on thousands of tables from real games."""
    import random

    from engine.bots.bfs import _search

    rng = random.Random(7)
    compared = found = capped = 0
    for g in range(5):
        dealer = LocalDealer(f"plain-search:{g}")
        s = new_game(dealer, starter=g % 2)
        while s.outcome is None and compared < 1500:
            view = s.view(s.to_move)
            hand, side, center = table_ranks(view.hand, view.side, view.center)
            for payoff in (view.payoff_top.rank if view.payoff_top else None, rng.randint(1, 13)):
                for cap, whole in ((5000, True), (5000, False), (rng.randint(1, 40), True), (rng.randint(1, 40), False)):
                    ours = _search(hand, side, center, payoff, True, 12, cap, whole)
                    plain = _plain_search(hand, side, center, payoff, True, 12, cap, whole)
                    if plain[0] is not None:
                        assert (ours[0], ours[3]) == plain[:2]
                        found += 1
                    else:
                        assert ours[0] is None and ours[3] == plain[1]
                        capped += plain[1] == cap
                        if whole:
                            assert (ours[1], ours[2]) == (plain[2], plain[3])
                    compared += 1
            s = apply(s, make_bot("easy").choose(view), dealer)
    assert found > 300 and capped > 100
