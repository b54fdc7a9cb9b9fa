"""One named test per ruling R1-R12 of RULES.md, on small positions built by hand."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from craft import card, cards, dealer, filler, player, run, state

from engine.cards import Card, full_deck
from engine.dealer import LocalDealer
from engine.game import Match, apply, check_move, legal_moves, new_game
from engine.moves import IllegalMoveError, Move
from engine.rules import G4A, Ruleset
from engine.state import Outcome, Pool, Reason


def moves(position) -> list[str]:
    return [str(m) for m in legal_moves(position)]


def test_r1_two_decks_of_104_distinct_physical_cards() -> None:
    deck = full_deck(G4A.decks)
    assert len(deck) == 104 == G4A.deck_size
    assert len(set(deck)) == 104
    assert Counter(c.rank for c in deck) == dict.fromkeys(range(1, 14), 8)
    assert card("7h") != card("7h'")  # the two copies of a card are distinct
    assert all(Card.from_index(c.index) == c for c in deck)

    d = LocalDealer(7)
    game = new_game(d)
    dealt = [*d.stock, *d.facedown[0], *d.facedown[1]]
    for p in game.players:
        dealt += [*p.hand, p.payoff_top]
    assert sorted(dealt) == sorted(deck)
    assert game.stock_count == len(d.stock) == 104 - 2 * (20 + 5)


def test_r2_king_on_empty_center_counts_as_ace() -> None:
    g = state(player("Kh As 2s 9d", top="5d", count=3))
    assert {"K-c1", "K-c2", "K-c3", "A-c1", "A-c2", "A-c3"} <= set(moves(g))
    g = apply(g, Move.parse("K-c2"), dealer())
    assert g.center[1] == (card("Kh"),)
    assert "2-c2" in moves(g)  # the King counted as the Ace
    assert "A-c2" not in moves(g)
    with pytest.raises(IllegalMoveError, match="c2 needs a 2; your A does not fit"):
        apply(g, Move.parse("A-c2"), dealer())


def test_r2_ruleset_may_forbid_king_on_empty_center() -> None:
    strict = Ruleset(name="no-king-start", king_starts_center=False)
    g = state(player("Kh 9d"), ruleset=strict)
    assert not any(m.startswith("K-c") for m in moves(g))
    with pytest.raises(IllegalMoveError, match="c1 is empty and this ruleset does not let a King start a center stack"):
        apply(g, Move.parse("K-c1"), dealer())


def test_r3_king_on_ten_counts_as_jack() -> None:
    g = state(player("Ks Jh Qh 4d"), center=(run(1, 10), (), ()))
    g = apply(g, Move.parse("K-c1"), dealer())
    assert len(g.center[0]) == 11  # the stack now stands at Jack
    assert "J-c1" not in moves(g)
    assert "Q-c1" in moves(g)
    with pytest.raises(IllegalMoveError, match="c1 needs a Q; your J does not fit"):
        apply(g, Move.parse("J-c1"), dealer())


def test_r4_empty_hand_is_not_refilled_and_play_goes_on() -> None:
    g = state(player("3h", top="4s", count=2, side=("5s", "", "", "")), center=(run(1, 2), (), ()))
    d = dealer(facedown=((card("9c"),), ()))
    g = apply(g, Move.parse("3-c1"), d)
    assert g.players[0].hand == () and g.to_move == 0  # hand empty, still my turn, nothing drawn
    assert moves(g) == ["end", "p-c1"]
    g = apply(g, Move.parse("p-c1"), d)
    assert moves(g) == ["end", "s1-c1"]
    g = apply(g, Move.parse("s1-c1"), d)
    assert len(g.center[0]) == 5 and g.players[0].hand == () and g.turn == 1


def test_r5_turn_ends_by_discard_or_by_end_with_empty_hand_only() -> None:
    g = state(player("3h 9d"), stock_count=20)
    assert "end" not in moves(g)
    with pytest.raises(IllegalMoveError, match=r"you still hold 2 cards: a turn ends by putting one on a side stack \(R5\)"):
        apply(g, Move.parse("end"), dealer())
    after = apply(g, Move.parse("9-s3"), dealer(filler(5)))
    assert (after.to_move, after.turn) == (1, 2)
    assert after.players[0].side[2] == (card("9d"),) and after.players[0].hand == (card("3h"),)

    empty = state(player("", top="Qs", count=4), stock_count=20)
    assert moves(empty) == ["end"]
    after = apply(empty, Move.parse("end"), dealer(filler(5)))
    assert (after.to_move, after.turn) == (1, 2)


def test_r6_payoff_to_side_and_side_to_side_are_illegal() -> None:
    g = state(player("3h", top="9s", count=5, side=("4d", "", "", "")))
    listed = moves(g)
    assert not any(m.startswith(("p-s", "s1-s")) for m in listed)
    with pytest.raises(IllegalMoveError, match=r"p-s2: pay-off cards go only to center stacks \(R6\)"):
        apply(g, Move.parse("p-s2"), dealer())
    with pytest.raises(IllegalMoveError, match=r"s1-s2: side stack cards go only to center stacks \(R6\)"):
        apply(g, Move.parse("s1-s2"), dealer())


def test_r7_king_discarded_to_side_stays_wild() -> None:
    g = state(player("Kd 9d", side=("5s", "", "", "")), them=player("2d 3d 4d 5d", top="Jd", count=10), stock_count=20)
    g = apply(g, Move.parse("K-s1"), dealer(filler(5)))
    assert g.players[0].side[0] == (card("5s"), card("Kd"))
    # back to player 0 with a center stack at 6: the King on s1 fits every center stack
    g = replace(g, to_move=0, center=(run(1, 6), (), run(1, 10)))
    assert {"s1-c1", "s1-c2", "s1-c3"} <= set(moves(g))
    g = apply(g, Move.parse("s1-c1"), dealer())
    assert len(g.center[0]) == 7 and g.players[0].side[0] == (card("5s"),)


def test_r8_empty_stock_at_turn_start_with_nothing_shuffling_in_is_a_tie() -> None:
    g = state(player("9d 3h"), them=player("2d 3d 4d 5d", top="Jd", count=10), stock_count=0, turn=30)
    after = apply(g, Move.parse("9-s1"), dealer())
    assert after.outcome == Outcome(Reason.STOCK_EXHAUSTED, None, 0)
    assert after.outcome.is_tie and after.is_over
    assert legal_moves(after) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        apply(after, Move.parse("3-s1"), dealer())


def test_r8_no_tie_while_recycled_cards_are_being_shuffled_in() -> None:
    pool = Pool(29, run(1, 12, suit="h"))
    g = state(player("9d 3h"), stock_count=0, pools=(pool,), turn=30)
    after = apply(g, Move.parse("9-s1"), dealer())
    assert after.outcome is None and after.stock_count == 12  # merged at the end of turn 30

    completed_now = state(player("Qh 9d"), center=(run(1, 11), (), ()), stock_count=0, turn=30)
    after = apply(completed_now, Move.parse("Q-c1"), dealer())
    after = apply(after, Move.parse("9-s1"), dealer())
    assert after.outcome is None and after.shuffling_in == 12 and after.stock_count == 0


def test_r8_partial_draw_takes_what_is_left_and_plays_on() -> None:
    them = player("Ad 5d", top="Jd", count=10)
    g = state(player("9d 3h"), them=them, stock_count=2)
    d = dealer(stock=cards("2c 7c"))
    after = apply(g, Move.parse("9-s1"), d)
    assert after.outcome is None and after.stock_count == 0
    assert after.players[1].hand == cards("Ad 5d 7c 2c")  # fewer than 5: all that could be drawn
    assert "A-c1" in moves(after)
    # the turn after that one begins with nothing to draw: now it is a tie
    end = apply(after, Move.parse("5-s1"), d)
    assert end.outcome is not None and end.outcome.reason is Reason.STOCK_EXHAUSTED


def test_r9_starter_alternates_between_games_of_a_match() -> None:
    match = Match()
    starters = []
    for winner in (0, None, 1, 0):
        starters.append(match.next_starter)
        match = match.record(Outcome(Reason.PAYOFF_EMPTY, winner, 1) if winner is not None else Outcome(Reason.STOCK_EXHAUSTED, None))
    assert starters == [0, 1, 0, 1]
    assert new_game(LocalDealer(1), starter=1).to_move == 1
    assert new_game(LocalDealer(1), starter=1).starter == 1


def test_r10_match_ends_as_soon_as_a_player_reaches_the_target() -> None:
    match = Match().record(Outcome(Reason.PAYOFF_EMPTY, 1, 30))
    assert match.scores == (0, 30) and not match.is_over
    match = match.record(Outcome(Reason.STOCK_EXHAUSTED, None, 0))
    assert match.scores == (0, 30) and match.games == 2  # a tie scores nothing
    match = match.record(Outcome(Reason.PAYOFF_EMPTY, 1, 20))
    assert match.scores == (0, 50) and match.is_over and match.winner == 1
    with pytest.raises(ValueError, match="already over"):
        match.record(Outcome(Reason.PAYOFF_EMPTY, 0, 5))
    short = Match(Ruleset(name="short", target_score=3))
    assert short.record(Outcome(Reason.PAYOFF_EMPTY, 0, 3)).winner == 0


def test_r10_last_payoff_card_wins_and_scores_the_opponents_payoff_count() -> None:
    g = state(player("9d", top="7h", count=1), them=player("2d", top="Jd", count=13), center=(run(1, 6), (), ()))
    after = apply(g, Move.parse("p-c1"), dealer())  # no face-down card is asked for
    assert after.outcome == Outcome(Reason.PAYOFF_EMPTY, 0, 13)
    assert after.players[0].payoff_top is None and after.players[0].payoff_count == 0
    assert Match().record(after.outcome).scores == (13, 0)


def test_r11_suits_are_shown_but_never_matter() -> None:
    suited = state(player("2s 2d 3h Kc", top="3s", count=4, side=("4d", "", "", "")), center=(cards("Ah"), (), run(1, 3, "d")))
    plain = state(player("2 2 3 K", top="3", count=4, side=("4", "", "", "")), center=(cards("A"), (), cards("A 2 3")))
    assert moves(suited) == moves(plain)
    assert "2-c1" in moves(suited) and "s1-c3" in moves(suited)
    after = apply(suited, Move.parse("2-c1"), dealer())
    assert after.center[0] == cards("Ah 2s")  # the first 2 of that rank went, whatever its suit
    assert str(card("T♠")) == "10s"  # shown


def test_r12_completed_stack_is_first_drawable_at_the_end_of_turn_t_plus_2() -> None:
    t = 5
    jack_stack = run(1, 11)
    queen = card("Qh")
    pool_cards = (*jack_stack, queen)
    stock = filler(5, avoid=pool_cards)  # one for player 1 after turn t, four for player 0 after turn t+1
    them = player("2d 3d 4d 5d", top="Jd", count=10)
    g = state(player("Qh 9s 8s", top="5d", count=10), them=them, center=(jack_stack, (), ()), stock_count=5, turn=t)
    d = dealer(stock=stock)

    g = apply(g, Move.parse("Q-c1"), d)  # turn t completes c1
    assert g.center[0] == () and g.pools == (Pool(t, pool_cards),)
    assert g.view(0).shuffling_in == pool_cards == g.view(1).shuffling_in  # shown to both players

    g = apply(g, Move.parse("9-s1"), d)  # end of turn t: player 1's draw cannot take them
    assert (g.turn, g.to_move) == (t + 1, 1)
    assert g.players[1].hand == (*cards("2d 3d 4d 5d"), stock[-1])
    assert g.shuffling_in == 12 and g.stock_count == 4
    assert not set(pool_cards) & set(d.stock)  # not drawable: still outside the stock

    g = apply(g, Move.parse("5-s1"), d)  # end of turn t+1: player 0 draws first, then the pool merges
    assert (g.turn, g.to_move) == (t + 2, 0)
    assert g.players[0].hand == (card("8s"), *reversed(stock[:4]))  # the filler, none of the pool
    assert g.pools == () and g.shuffling_in == 0 and g.stock_count == 12
    assert Counter(d.stock) == Counter(pool_cards)

    g = apply(g, Move.parse("8-s2"), d)  # end of turn t+2: the first draw that can take them
    drawn = g.players[1].hand[-1:]
    assert len(g.players[1].hand) == 5 and drawn[0] in pool_cards
    assert g.stock_count == 11 and g.outcome is None


def test_queen_on_jack_completes_the_stack_into_a_pool_of_12() -> None:
    g = state(player("Qd 9s"), center=((), run(1, 11), ()), turn=8)
    g = apply(g, Move.parse("Q-c2"), dealer())
    assert g.center[1] == ()
    assert g.pools == (Pool(8, (*run(1, 11), card("Qd"))),)
    assert g.shuffling_in == 12


def test_king_on_jack_completes_the_stack_as_a_queen() -> None:
    g = state(player("9s", side=("Kh", "", "", "")), center=((), (), run(1, 11)), turn=4)
    g = apply(g, Move.parse("s1-c3"), dealer())
    assert g.center[2] == () and len(g.pools) == 1
    assert g.pools[0].cards[-1] == card("Kh") and len(g.pools[0].cards) == 12


def test_check_move_accepts_exactly_the_listed_moves_on_a_crafted_view() -> None:
    g = state(player("Kh 3s 2d", top="Ad", count=3, side=("4s", "", "Ks", "")), center=(run(1, 2), (), run(1, 10)))
    view = g.view(0)
    for move in legal_moves(view):
        check_move(view, move)
    with pytest.raises(IllegalMoveError, match="it is not this player's turn"):
        check_move(g.view(1), Move.parse("p-c2"))
