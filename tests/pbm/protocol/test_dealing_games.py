"""Whole games between two parties in memory, driven by the engine's bots, with both sides checked after every message."""

from __future__ import annotations

import tomli_w
from dealing_play import MATCH, SMALL, TINY, make_seats, play

from engine.rules import G4A, Ruleset
from pbm.protocol.dealing import Party
from pbm.secrets import seal

G4A_ONE_GAME = Ruleset(target_score=1)


def test_a_g4a_game_plays_through_the_protocol_is_audited_and_the_next_game_is_dealt() -> None:
    seats = make_seats(Ruleset(target_score=200), 1)
    played = play(seats, ("greedy", "greedy"), seed=1, stop_after_deal=2)
    assert played.games_dealt >= 2
    for seat in seats:
        assert seat.party.record.games == 1
    # the first game ended, was audited on both sides, and game 2 is dealt with fresh encodings
    assert all(seat.party.game.number == 2 for seat in seats)
    assert all(seat.state is not None and seat.state.starter == 1 and seat.state.outcome is None for seat in seats)


def test_a_g4a_match_to_its_end_audits_every_game_on_both_sides() -> None:
    seats = make_seats(G4A_ONE_GAME, 7)
    played = play(seats, ("greedy", "random"), seed=7)
    assert seats[0].party.record.is_over and seats[1].party.record.is_over
    assert seats[0].party.record == seats[1].party.record
    assert all(seat.party.game.audited for seat in seats)
    assert len(played.messages) > 10


def test_recycled_center_stacks_are_merged_back_and_drawn_from() -> None:
    seats = make_seats(SMALL, 1)
    played = play(seats, ("greedy", "greedy"), seed=1, stop_after_deal=2)
    assert played.merges >= 1
    assert all(seat.party.game.number == 2 for seat in seats)


def test_ties_when_the_stock_runs_out_are_audited_and_the_next_game_follows() -> None:
    seats = make_seats(TINY, 0)
    played = play(seats, ("random", "random"), seed=0, stop_after_deal=3)
    assert any(outcome.winner is None for _, outcome in played.outcomes)
    assert all(seat.party.game.number == 3 for seat in seats)


def test_many_small_games_keep_both_sides_in_agreement() -> None:
    merges, shuffles, at_random = 0, 0, 0
    # seed 70 is one of the rare matches (about 1 in 70) where a player owes a shuffle just before a merge
    for seed in (*range(7), 70):
        played = play(make_seats(SMALL, seed), ("greedy", "greedy"), seed=seed, stop_after_deal=2)
        merges += played.merges
        ends = [m["turn"]["end"] for m in played.messages if "end" in m.get("turn", {})]
        shuffles += sum("shuffle" in end for end in ends)
        at_random += sum("positions" in end.get("draw", {}) for end in ends)
    assert merges >= 3
    # both ways of owing the stock a shuffle: shuffle it, or (when a merge follows at once) draw at random places
    assert shuffles >= 1 and at_random >= 1


def test_messages_are_plain_toml_data_and_small() -> None:
    seats = make_seats(Ruleset(target_score=200), 3)
    played = play(seats, ("greedy", "greedy"), seed=3, stop_after_deal=2)

    def plain(value: object) -> bool:
        if isinstance(value, dict):
            return all(isinstance(k, str) and plain(v) for k, v in value.items())
        if isinstance(value, list):
            return all(plain(v) for v in value)
        return isinstance(value, str | int | bool) and not isinstance(value, float)

    for message in played.messages:
        assert plain(message)
        proven = "deal" in message or any(k in message.get("turn", {}).get("end", {}) for k in ("shuffle", "merge"))
        assert len(tomli_w.dumps(message).encode()) < (26 if proven else 8) * 1024


def test_a_save_stays_under_its_budget_at_every_point_of_a_g4a_game() -> None:
    """Message plus the sender's whole protocol state (public data packed against the message, as a save carries it, and
    sealed secrets) after every send: 16 KiB for an ordinary turn, 32 KiB for one with a proof of shuffle (PROTOCOL.md).
    """
    from pbm.packing import pack, to_json

    seats = make_seats(Ruleset(target_score=200), 4)
    identity = bytes(range(32))
    worst = {False: 0, True: 0}

    def measure(_n: int, message: dict) -> dict:
        sender = seats[message["from"]].party
        size = len(tomli_w.dumps({"message": message}).encode()) + len(pack(sender.export_public(), to_json(message)))
        size += len(seal(sender.export_secrets(), identity, MATCH))
        proven = "deal" in message or any(k in message.get("turn", {}).get("end", {}) for k in ("shuffle", "merge"))
        worst[proven] = max(worst[proven], size)
        return message

    play(seats, ("greedy", "greedy"), seed=4, stop_after_deal=2, tamper=measure)
    assert 0 < worst[False] <= 16 * 1024
    assert 0 < worst[True] <= 32 * 1024


def test_party_state_restored_from_saved_data_continues_the_match() -> None:
    import tomllib

    from pbm.secrets import unseal

    seats = make_seats(SMALL, 5)
    identity = bytes(32 * [7])
    swaps = 0

    def swap(n: int, message: dict) -> dict:
        nonlocal swaps
        if n % 5 == 0:  # the receiver continues "on another machine" from its saved state alone
            seat = seats[1 - message["from"]]
            if seat.party.game is not None:
                public = tomllib.loads(tomli_w.dumps(seat.party.export_public()))
                blob = seal(seat.party.export_secrets(), identity, MATCH)
                seat.party = Party.restore(public, unseal(blob, identity, MATCH), SMALL, seat.party.rng)
                swaps += 1
        return message

    play(seats, ("greedy", "greedy"), seed=5, stop_after_deal=3, tamper=swap)
    assert swaps > 3


def test_the_first_message_is_the_first_shuffle_of_game_one() -> None:
    seats = make_seats(G4A, 0)
    message = seats[0].send().to_data()
    assert message["deal"]["step"] == 1 and message["deal"]["game"] == 1
    assert len(message["deal"]["deck"]["points"]) == 104
    assert all(len(p) == 43 for p in message["deal"]["deck"]["points"])


def test_a_turn_cannot_be_sent_before_it_ends() -> None:
    import pytest

    from engine.bots import make_bot
    from pbm.errors import ProtocolError

    bot = make_bot("greedy")
    for seed in range(16, 40):  # a deal whose first move does not end the turn
        seats = make_seats(G4A, seed)
        seats[1].receive(seats[0].send().to_data())
        seats[0].receive(seats[1].send().to_data())
        move = bot.choose(seats[0].state.view(0))  # type: ignore[union-attr]
        if not move.ends_turn:
            break
    seats[0].play(move)
    with pytest.raises(ProtocolError, match="the turn is not over yet"):
        seats[0].send()


def _changeable(value: object) -> list[object]:
    """Every list, set, dict and record inside `value` (itself included), depth first."""
    import dataclasses

    found: list[object] = []
    if isinstance(value, (list, set, dict)) or (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        found.append(value)
    if isinstance(value, dict):
        items: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, (list, set, tuple)):
        items = list(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        items = []
    for item in items:
        found += _changeable(item)
    return found


def test_a_game_record_copies_as_deepcopy_would_sharing_nothing_changeable() -> None:
    import copy

    seats = make_seats(SMALL, 3)
    play(seats, ("greedy", "greedy"), seed=3, stop_after_deal=2)  # a record with merged pools, hands and piles
    record = seats[0].party.game
    assert record is not None and any(record.hands) and any(record.piles)
    record.face_up.add(1)
    copied = copy.deepcopy(record)
    assert copied == record and copied.to_data() == record.to_data()
    assert [h.card for hand in copied.hands for h in hand] == [h.card for hand in record.hands for h in hand]
    shared = {id(v) for v in _changeable(record)} & {id(v) for v in _changeable(copied)}
    assert not shared  # no list, set or record of the copy is the original's: a rollback puts back what was
