"""The shuffle-by-shuffle audit: an honest game replays clean, and a dishonest shuffle or pool layer is named."""

from __future__ import annotations

import contextlib
import copy

import pytest
from dealing_play import MATCH, SMALL, make_seats, play
from test_dealing_cheats import MergeDuplicator, PoolSubstituter

from engine.record import ReplayError, log_data, log_from_data, replay
from engine.rules import Ruleset
from pbm.errors import AuditError, SpiteError
from pbm.protocol.dealing import Party
from pbm.protocol.transcript import audit_transcript
from pbm.record import game_log


def _recorded(
    ruleset: Ruleset, seed: int, classes: tuple[type[Party], type[Party]] = (Party, Party)
) -> tuple[list[dict], list[list[bytes]]]:
    """Game 1's messages (up to a refusal, if one comes) and both players' scalars of game 1, kept before they are forgotten."""
    seats = make_seats(ruleset, seed, classes)
    keys: list[list[bytes]] = [[], []]
    messages: list[dict] = []

    def keep(_n: int, message: dict) -> dict:
        messages.append(message)
        for p in (0, 1):
            if len(seats[p].party.keys.get(1, [])) > len(keys[p]):
                keys[p] = list(seats[p].party.keys[1])
        return message

    with contextlib.suppress(SpiteError):  # a cheat refused on receipt: its message is in the transcript all the same
        play(seats, seed=seed, tamper=keep, stop_after_deal=2, check=False)
    for p in (0, 1):  # keys made while answering the last message
        if len(seats[p].party.keys.get(1, [])) > len(keys[p]):
            keys[p] = list(seats[p].party.keys[1])
    return messages, keys


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_honest_game_replays_clean(seed: int) -> None:
    messages, keys = _recorded(SMALL, seed)
    audit_transcript(messages, keys, MATCH, SMALL, 1)


def test_an_honest_g4a_game_replays_clean() -> None:
    ruleset = Ruleset(target_score=200)
    messages, keys = _recorded(ruleset, 4)
    audit_transcript(messages, keys, MATCH, ruleset, 1)


@pytest.mark.parametrize(
    ("cheat", "named"), [(PoolSubstituter, "layer on recycling pool"), (MergeDuplicator, "merge of the recycled cards")]
)
def test_the_replay_names_the_dishonest_shuffle(cheat: type[Party], named: str) -> None:
    found = 0
    for seed in range(20):
        messages, keys = _recorded(SMALL, seed, (cheat, Party))
        cheated = any(_cheats(m) for m in messages) if cheat is MergeDuplicator else True
        try:
            audit_transcript(messages, keys, MATCH, SMALL, 1)
        except AuditError as e:
            assert named in str(e) and "player 1's" in str(e)
            found += 1
        else:
            assert not cheated or cheat is PoolSubstituter, f"seed {seed}: a dishonest merge went unnamed"
    assert found >= 3


def _cheats(message: dict) -> bool:
    """Whether player 1 merged in a turn that also reserved a draw (when MergeDuplicator copies a card)."""
    end = message.get("turn", {}).get("end", {})
    return message.get("from") == 0 and "merge" in end and "draw" in end


def test_a_wrong_revealed_key_is_named() -> None:
    messages, keys = _recorded(SMALL, 5)
    keys[1][0] = keys[0][0]
    with pytest.raises(AuditError, match="deal keys"):
        audit_transcript(messages, keys, MATCH, SMALL, 1)


def test_the_keys_can_come_from_the_messages_themselves() -> None:
    messages, _ = _recorded(SMALL, 6)
    audit_transcript(messages, None, MATCH, SMALL, 1)
    with pytest.raises(AuditError, match="do not hold both players' keys"):
        audit_transcript([m for m in messages if "secrets" not in m], None, MATCH, SMALL, 1)


def test_an_opened_game_replays_through_the_engine_with_every_reshuffle_draw_and_merge() -> None:
    """transcript.open_game's cards, written down as a log (pbm.record.game_log), replay through the rules to the game's end."""
    seen = {"shuffle": 0, "merge": 0}  # draws at random places (draw_from) are rare: tests/engine/test_game_log.py has them
    for seed in range(1, 4):
        seats = make_seats(SMALL, seed)
        played = play(seats, seed=seed, stop_after_deal=2, check=False)
        messages = played.messages
        outcome = played.outcomes[0][1]
        log = game_log(messages, MATCH.hex(), SMALL, 1, outcome)
        frames = replay(log)
        turns = [m["turn"] for m in messages if m.get("turn", {}).get("game") == 1]
        assert [" ".join(str(m) for m in t.moves) for t in log.turns] == [t["moves"] for t in turns]
        assert frames[-1].state.outcome == outcome
        for t in log.turns:
            seen["shuffle"] += t.shuffle is not None
            seen["merge"] += t.merge is not None
        data = log_data(log)
        assert log_from_data(data, SMALL) == log
        changed = copy.deepcopy(data)  # a reshuffle that is no reordering of the stock is refused
        turn = next((t for t in changed["turns"] if t["shuffle"] or t["merge"]), None)
        if turn is not None:
            key = "shuffle" if turn["shuffle"] else "merge"
            turn[key][0] = next(c for c in turn[key] if c != turn[key][0])
            with pytest.raises(ReplayError):
                log_from_data(changed, SMALL)
    assert all(seen.values()), seen
