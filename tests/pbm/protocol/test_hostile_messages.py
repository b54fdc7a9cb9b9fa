"""Hostile messages, as a modified client could sign them: any field changed, dropped, added or of another type is refused in one
named error (a SpiteError), never a crash, and the receiver is left as it was."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from dealing_play import SMALL, make_seats, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.errors import SpiteError
from pbm.protocol.seat import Seat

ODD_VALUES = [None, 0, -1, 2**40, True, "", "x" * 50, [], [1, "a"], {}, {"a": 1}, 1.5, "AAAA", ["AAAA"]]


@cache
def _moments() -> tuple[tuple[Seat, dict[str, Any]], ...]:
    """(the receiver just before, the message) for every message of a small game: deal steps, turns, merges, pools, keys."""
    seats = make_seats(SMALL, 1)
    kept: list[tuple[Seat, dict[str, Any]]] = []

    def keep(_n: int, message: dict[str, Any]) -> dict[str, Any]:
        kept.append((copy.deepcopy(seats[1 - message["from"]]), copy.deepcopy(message)))
        return message

    play(seats, seed=1, tamper=keep, stop_after_deal=2)
    return tuple(kept)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a message (table keys and list indices)."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):  # the first items of a list stand for the rest
            out += _paths(v, (*prefix, i))
    return out


def _mutate(message: dict[str, Any], path: tuple[Any, ...], how: int, odd: Any) -> dict[str, Any]:
    out = copy.deepcopy(message)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == 0:
        parent[last] = odd  # another type or value
    elif how == 1 and isinstance(parent, dict):
        del parent[last]  # a field dropped
    elif how == 1:
        parent.pop(last)  # an item dropped
    elif isinstance(parent, dict):
        parent[f"{last}_extra"] = odd  # an unknown field
    else:
        parent.append(parent[last])  # an item repeated
    return out


def test_the_recorded_game_covers_every_kind_of_message() -> None:
    kinds = set()
    for _, m in _moments():
        kinds |= {f"deal {m['deal']['step']}"} if "deal" in m else set()
        end = m.get("turn", {}).get("end", {})
        kinds |= {k for k in ("shuffle", "draw", "merge", "pools") if k in end} | ({"secrets"} if "secrets" in m else set())
    assert {"deal 1", "deal 2", "deal 3", "draw", "merge", "pools", "secrets"} <= kinds


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_a_hostile_message_is_refused_by_name_and_changes_nothing(data: st.DataObject) -> None:
    moments = _moments()
    seat, message = moments[data.draw(st.integers(0, len(moments) - 1), label="message")]
    paths = _paths(message)
    path = paths[data.draw(st.integers(0, len(paths) - 1), label="field")]
    hostile = _mutate(message, path, data.draw(st.integers(0, 2), label="how"), data.draw(st.sampled_from(ODD_VALUES), label="odd"))
    receiver = copy.deepcopy(seat)
    before = receiver.party.export_public()
    try:
        receiver.receive(hostile)
    except SpiteError as e:
        assert str(e) and "\n" not in str(e)
        assert receiver.party.export_public() == before  # a refused message changes nothing
    except Exception as e:  # anything else is a crash a player would see as a traceback
        pytest.fail(f"{type(e).__name__} on {path}: {e}")


@pytest.mark.parametrize("how", ["one key short", "one key too many", "a key changed"])
def test_keys_that_fail_the_audit_leave_the_receiver_as_it_was(how: str) -> None:
    """The turn that ends a game brings its mover's keys, which the audit checks only after the moves are played:
    a refusal there must still undo everything the message did (seen once by the property test above)."""
    ending = [(seat, m) for seat, m in _moments() if "turn" in m and "secrets" in m]
    assert ending, "the recorded game has no turn that ends it with its keys"
    seat, message = ending[0]
    hostile = copy.deepcopy(message)
    keys = hostile["secrets"]["keys"]
    if how == "one key short":
        keys.pop()
    elif how == "one key too many":
        keys.append(keys[0])
    else:
        keys[0] = keys[-1] if len(keys) > 1 else "AQ" + keys[0][2:]
    receiver = copy.deepcopy(seat)
    before, state = receiver.party.export_public(), receiver.state
    with pytest.raises(SpiteError) as refused:
        receiver.receive(hostile)
    assert "\n" not in str(refused.value)
    assert receiver.party.export_public() == before and receiver.state is state
    receiver.receive(copy.deepcopy(message))  # the honest message still goes in afterwards
    assert receiver.party.game is not None and receiver.party.game.over
