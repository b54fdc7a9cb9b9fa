"""Every kind of move, legal and illegal, with the message a player reads when it is refused."""

from __future__ import annotations

import pytest
from craft import card, cards, dealer, filler, player, run, state

from engine.game import apply, check_move, legal_moves
from engine.moves import IllegalMoveError, Move


def table():
    """Player 0 to move: hand 9 4 K 3, pay-off 4 over 3 more, s1 holds a 6, s2 a King; c1 at 3, c2 at 5, c3 empty."""
    me = player("9h 4c Kd 3s", top="4h", count=4, side=("6c", "Ks", "", ""))
    return state(me, center=(run(1, 3, "d"), run(1, 5, "s"), ()))


def refused(move: str, message: str) -> None:
    g = table()
    with pytest.raises(IllegalMoveError) as caught:
        apply(g, Move.parse(move), dealer(filler(5)))
    assert str(caught.value) == message
    with pytest.raises(IllegalMoveError):
        check_move(g.view(0), Move.parse(move))
    assert Move.parse(move) not in legal_moves(g)


def test_payoff_to_center_legal() -> None:
    g = table()
    d = dealer(facedown=(cards("2h 8s"), ()))
    after = apply(g, Move.parse("p-c1"), d)
    assert after.center[0][-1] == card("4h")
    assert after.players[0].payoff_top == card("8s") and after.players[0].payoff_count == 3  # the next card turned up
    assert after.to_move == 0  # playing to the center never ends the turn


def test_payoff_to_center_illegal() -> None:
    refused("p-c2", "c2 needs a 6; your pay-off 4 does not fit")
    refused("p-c3", "c3 is empty and needs an A; your pay-off 4 does not fit")


def test_payoff_from_an_empty_pile_is_refused() -> None:
    g = state(player("3s", top=None), center=(run(1, 3), (), ()))
    with pytest.raises(IllegalMoveError, match="p-c1: your pay-off pile is empty"):
        check_move(g.view(0), Move.parse("p-c1"))


def test_side_to_center_legal() -> None:
    g = table()
    after = apply(g, Move.parse("s1-c2"), dealer())
    assert after.center[1][-1] == card("6c") and len(after.center[1]) == 6
    assert after.players[0].side[0] == () and after.to_move == 0


def test_side_to_center_illegal() -> None:
    refused("s1-c1", "c1 needs a 4; the 6 on s1 does not fit")
    refused("s3-c1", "s3-c1: side stack s3 is empty")
    refused("s5-c1", "s5-c1: there is no side stack s5; they are s1-s4")


def test_hand_to_center_legal() -> None:
    after = apply(table(), Move.parse("4-c1"), dealer())
    assert after.center[0][-1] == card("4c")
    assert after.players[0].hand == cards("9h Kd 3s") and after.to_move == 0


def test_hand_to_center_illegal() -> None:
    refused("9-c2", "c2 needs a 6; your 9 does not fit")
    refused("8-c2", "8-c2: you have no 8 in your hand")
    refused("3-c4", "3-c4: there is no center stack c4; they are c1-c3")


def test_king_to_any_center_stack_legal() -> None:
    listed = {str(m) for m in legal_moves(table())}
    assert {"K-c1", "K-c2", "K-c3", "s2-c1", "s2-c2", "s2-c3"} <= listed


def test_discard_legal_ends_the_turn() -> None:
    g = table()
    after = apply(g, Move.parse("9-s2"), dealer(filler(5)))
    assert after.players[0].side[1] == cards("Ks 9h")  # a hand card goes on any side stack, whatever lies there
    assert (after.to_move, after.turn) == (1, 2)
    assert Move.parse("9-s2").ends_turn and Move.parse("9-s2").is_discard


def test_discard_illegal() -> None:
    refused("8-s1", "8-s1: you have no 8 in your hand")
    refused("9-s5", "9-s5: there is no side stack s5; they are s1-s4")
    refused("p-s1", "p-s1: pay-off cards go only to center stacks (R6)")
    refused("s1-s3", "s1-s3: side stack cards go only to center stacks (R6)")


def test_end_legal_only_with_an_empty_hand() -> None:
    refused("end", "you still hold 4 cards: a turn ends by putting one on a side stack (R5)")
    one = state(player("5d"))
    with pytest.raises(IllegalMoveError, match="you still hold 1 card:"):
        check_move(one.view(0), Move.parse("end"))
    empty = state(player(""))
    check_move(empty.view(0), Move.parse("end"))
    assert Move.parse("end") in legal_moves(empty)


def test_no_move_when_it_is_not_your_turn_or_the_game_is_over() -> None:
    g = table()
    with pytest.raises(IllegalMoveError, match="it is not this player's turn"):
        check_move(g.view(1), Move.parse("2-c3"))
    assert legal_moves(g.view(1)) == []


def test_legal_moves_are_sorted_canonical_and_once_per_rank() -> None:
    g = state(player("3s 3h 3d"), center=(run(1, 2), (), ()))
    listed = [str(m) for m in legal_moves(g)]
    assert listed == ["3-c1", "3-s1", "3-s2", "3-s3", "3-s4"]
    assert listed == sorted(listed)
