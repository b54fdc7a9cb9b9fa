"""Resigning a game or the match: a message with the resigner's keys, audited and followed by the next deal as after any end."""

from __future__ import annotations

import pytest
from dealing_play import SMALL, make_seats, play, roundtrip

from engine.bots import make_bot
from engine.state import Reason
from pbm.errors import ProtocolError, StaleMessageError
from pbm.protocol.seat import Seat


def _playing(seed: int, turns: int) -> tuple[list[Seat], int, dict]:
    """Two seats in game 1 after a few turns: the seats, who is to receive the last message, and that message."""
    seats = make_seats(SMALL, seed)
    played = play(seats, seed=seed, stop_after_deal=1)
    bots = [make_bot("greedy", seed + p) for p in (0, 1)]
    cur = next(p for p in (0, 1) if seats[p].my_turn)
    message = None
    for _ in range(turns):
        seat = seats[cur]
        while seat.my_turn:
            seat.play(bots[cur].choose(seat.state.view(cur)))  # type: ignore[union-attr]
        message = roundtrip(seat.send().to_data())
        cur = 1 - cur
        if seats[cur].state is not None and seats[cur].state.outcome is not None:
            break
        seats[cur].receive(message)
        if seats[cur].state.outcome is not None:  # type: ignore[union-attr]
            pytest.skip("the game ended too soon")
    assert played.games_dealt >= 0
    return seats, cur, message  # type: ignore[return-value]


def _finish_exchange(seats: list[Seat], resigner: int, message: dict) -> None:
    """The other takes in the resignation, answers with its keys (and the deal step due), and the resigner takes that in."""
    other = 1 - resigner
    seats[other].receive(message)
    state = seats[other].state
    assert state is not None and state.outcome is not None
    assert state.outcome.reason is Reason.RESIGNED and state.outcome.winner == other
    answer = roundtrip(seats[other].send().to_data())
    assert "secrets" in answer
    seats[resigner].receive(answer)
    assert seats[0].party.record == seats[1].party.record
    for s in seats:
        assert s.party.game is not None and s.party.game.audited


def test_a_game_resigned_on_ones_turn_scores_the_resigners_pile_and_the_next_game_is_dealt() -> None:
    seats, cur, _ = _playing(5, 3)
    resigner = cur  # it is cur's turn now
    assert seats[resigner].my_turn
    pile = seats[resigner].state.players[resigner].payoff_count  # type: ignore[union-attr]
    message = roundtrip(seats[resigner].resign().to_data())
    assert message["resign"] == {"game": 1, "match": False} and message["v"] == 5 and "secrets" in message
    _finish_exchange(seats, resigner, message)
    assert seats[0].party.record.scores[1 - resigner] == pile and seats[0].party.record.games == 1
    # the next game's deal goes on as after any game's end
    assert play_on(seats, resigner) == 2


def play_on(seats: list[Seat], cur: int) -> int:
    """Exchange messages (from seat `cur`) until a seat has a turn of the next game to play; returns that game."""
    for _ in range(6):
        message = roundtrip(seats[cur].send().to_data())
        cur = 1 - cur
        seats[cur].receive(message)
        if seats[cur].my_turn:
            return seats[cur].party.game.number  # type: ignore[union-attr]
    return 0


def test_a_match_resigned_on_the_opponents_turn_ends_the_match() -> None:
    seats, cur, message = _playing(6, 2)
    resigner = 1 - cur  # cur has the resigner's last message but has not answered it
    assert not seats[resigner].my_turn
    res = roundtrip(seats[resigner].resign(whole_match=True).to_data())
    assert res["seq"] == message["seq"] + 1 and res["resign"]["match"] is True and "deal" not in res
    _finish_exchange(seats, resigner, res)
    for s in seats:
        assert s.party.record.is_over and s.party.record.winner == 1 - resigner
    with pytest.raises(ProtocolError):
        seats[resigner].send()


def test_a_resignation_is_refused_without_keys_with_a_turn_or_for_another_game() -> None:
    seats, cur, _ = _playing(7, 2)
    msg = roundtrip(seats[cur].resign().to_data())
    other = seats[1 - cur]
    for bad in ({k: v for k, v in msg.items() if k != "secrets"}, {**msg, "resign": {"game": 2, "match": False}}):
        with pytest.raises((ProtocolError, StaleMessageError)):
            other.receive(bad)
    with pytest.raises(ProtocolError, match="unknown field"):
        other.receive({**msg, "v": 4})
    other.receive(msg)  # the refusals changed nothing
    assert other.state.outcome is not None  # type: ignore[union-attr]


def test_a_resignation_on_the_first_turn_carries_the_deal_step_it_owes() -> None:
    seats = make_seats(SMALL, 8)
    message = roundtrip(seats[0].send().to_data())  # deal step 1
    seats[1].receive(message)
    seats[0].receive(roundtrip(seats[1].send().to_data()))  # deal step 2: the first shuffler now owes step 3 and turn 1
    first = next(p for p in (0, 1) if seats[p].my_turn)
    res = roundtrip(seats[first].resign().to_data())
    assert res["deal"]["step"] == 3 and res["resign"]["game"] == 1
    _finish_exchange(seats, first, res)
    assert seats[1 - first].party.record.scores[1 - first] == SMALL.payoff_size
    assert play_on(seats, first) == 2


def test_nothing_is_resigned_between_games_or_twice() -> None:
    seats, cur, _ = _playing(9, 2)
    before = seats[cur].party.export_public()
    seats[cur].resign()
    with pytest.raises(ProtocolError, match="no game under way"):
        seats[cur].resign()
    fresh = make_seats(SMALL, 9)
    with pytest.raises(ProtocolError, match="no game under way"):
        fresh[0].resign()
    assert before["seq"] + 1 == seats[cur].party.seq


def test_a_resignation_whose_keys_do_not_open_the_game_is_refused_before_the_game_ends() -> None:
    """A modified resigner sends a key of its own making (or drops one) in place of its real keys of the game: the audit of
    the keys against the game's shuffles refuses it, and the receiver is left as it was."""
    import random

    from pbm.protocol.group import b64, random_scalar

    seats, cur, _ = _playing(11, 4)
    msg = roundtrip(seats[cur].resign().to_data())
    other = seats[1 - cur]
    keys = msg["secrets"]["keys"]
    assert keys, "a game under way has keys of the resigner's to hand over"
    forged = {**msg, "secrets": {**msg["secrets"], "keys": [b64(random_scalar(random.Random(5).randbytes)), *keys[1:]]}}
    dropped = {**msg, "secrets": {**msg["secrets"], "keys": keys[:-1]}}
    for bad in (forged, dropped):
        with pytest.raises(ProtocolError):
            other.receive(bad)
        assert other.state.outcome is None  # type: ignore[union-attr]
    other.receive(msg)  # the honest resignation is taken in after the refusals
    assert other.state.outcome is not None and other.state.outcome.reason is Reason.RESIGNED  # type: ignore[union-attr]


@pytest.mark.parametrize("on_own_turn", [True, False])
def test_a_resignation_carrying_a_false_first_deal_step_of_the_next_game_is_refused_and_changes_nothing(on_own_turn: bool) -> None:
    """A modified resigner who starts the next game puts a doctored step 1 of its deal in the resignation (a point
    repeated in its shuffle, or a point off the group): the receiver refuses the whole message, game and deal alike, and
    takes the honest resignation afterwards."""
    import copy

    from pbm.errors import PointError
    from pbm.protocol import group

    seats, cur, _ = _playing(13, 3)
    resigner = 1  # player 1 starts game 2, so its resignation of game 1 carries game 2's deal step 1
    if (cur == resigner) != on_own_turn:
        seats, cur, _ = _playing(13, 4)
    assert seats[resigner].my_turn is on_own_turn
    msg = roundtrip(seats[resigner].resign().to_data())
    assert msg["deal"]["step"] == 1 and msg["deal"]["game"] == 2
    other = seats[1 - resigner]
    seq, state = other.party.seq, other.state
    repeated, off_group = copy.deepcopy(msg), copy.deepcopy(msg)
    repeated["deal"]["deck"]["points"][5] = repeated["deal"]["deck"]["points"][6]
    off_group["deal"]["deck"]["points"][7] = group.b64(bytes([1]) + bytes(31))
    with pytest.raises(ProtocolError, match="the same point twice"):
        other.receive(repeated)
    with pytest.raises(PointError, match=r"the deck: the points \[8\]"):
        other.receive(off_group)
    assert other.party.seq == seq and other.state is state and other.state.outcome is None  # type: ignore[union-attr]
    other.receive(msg)
    assert other.state.outcome is not None and other.state.outcome.reason is Reason.RESIGNED  # type: ignore[union-attr]
    assert play_on(seats, 1 - resigner) == 2  # the honest step 1 is answered and game 2 is dealt
