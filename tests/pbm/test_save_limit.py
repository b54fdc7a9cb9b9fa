"""The hard limit on a save sits above the largest file an honest client can write (docs/save-format.md, *Size*).

The file built here is larger than any real one: it holds at once every section a file can carry, each at
its largest (a deal step with its proof of shuffle of the deck, a turn that reveals every card it can, merges
eight pools into a stock of the whole deck and lays eight more, the keys returned at a game's end, the carried
sides), plus a game far longer than any seen, with a new key at every turn. Every value is random, so nothing
packs better than an honest file's would. If it is written and read back, so is every honest file.
"""

from __future__ import annotations

import base64
import dataclasses
import random
from pathlib import Path

import pytest

from engine.bots import make_bot
from engine.rules import G4A
from pbm import carry, packing, saves
from pbm.client.answer import answer, new_match, replace_rules
from pbm.client.receive import open_save
from pbm.errors import TooLargeError
from pbm.identity import Identity, load_or_create
from pbm.journal import Journal
from pbm.protocol.shuffle import proof_size
from pbm.saves import Player, SaveFile, TurnRecord

DECK = 52 * G4A.decks  # every ruleset spite starts has two decks (spite new and practice change the pay-off and target only)
PAYOFF = (DECK - 2 * G4A.hand_size) // 2  # the largest pay-off pile two decks can deal (47)
HAND = G4A.hand_size
POOLS = DECK // 12  # completed center stacks that can wait at once: at most every card of the deck in them (8)


def _text(rng: random.Random, size: int) -> str:
    """`size` random bytes as unpadded base64url: a point, a proof or a sealed blob as a file spells it."""
    return base64.urlsafe_b64encode(rng.randbytes(size)).rstrip(b"=").decode()


def _points(rng: random.Random, n: int) -> list[str]:
    return [_text(rng, 32) for _ in range(n)]


def _shuffle(rng: random.Random, n: int) -> dict[str, object]:
    return {"key": _text(rng, 32), "points": _points(rng, n), "proof": _text(rng, proof_size(n))}


def _moves(rng: random.Random) -> str:
    """A long turn: every pay-off card and hand card played, then a discard (a real one is a few moves)."""
    places = [f"s{i}" for i in range(1, 5)] + ["p"] + list("A23456789TJQK")
    return " ".join(f"{rng.choice(places)}-c{rng.randint(1, 3)}" for _ in range(PAYOFF + HAND)) + " Q-s2"


def _turn(rng: random.Random) -> str:
    """An ordinary turn, with more moves than most: one to six plays from anywhere and a discard."""
    sources = [f"s{i}" for i in range(1, 5)] + ["p"] + list("A23456789TJQK")
    plays = [f"{rng.choice(sources)}-c{rng.randint(1, 3)}" for _ in range(rng.randint(1, 6))]
    return " ".join(plays) + f" {rng.choice('A23456789TJQK')}-s{rng.randint(1, 4)}"


def largest_message(rng: random.Random, turns: int) -> dict[str, object]:
    """Every section a message can carry, each at its largest; a key for every one of the mover's turns of the game."""
    reveal = [{"kind": "hand", "slot": rng.randint(0, 4), "point": _text(rng, 32), "proof": _text(rng, 64)} for _ in range(HAND)]
    reveal += [{"kind": "payoff", "point": _text(rng, 32), "proof": _text(rng, 64)} for _ in range(PAYOFF)]
    pools = [{"key": _text(rng, 32), "points": _points(rng, 12), "proof": _text(rng, 64)} for _ in range(POOLS)]
    end = {
        "draw": {"points": _points(rng, HAND), "proofs": [_text(rng, 64) for _ in range(HAND)], "positions": list(range(HAND))},
        "merge": {"groups": [_points(rng, 12) for _ in range(POOLS)], "proof": _text(rng, 64), "stock": _shuffle(rng, DECK)},
        "shuffle": _shuffle(rng, DECK),
        "pools": pools,
    }
    strips = PAYOFF + HAND + 1
    return {
        "v": 3,
        "match": _text(rng, 16),
        "seq": 2 * turns + 4,
        "from": 1,
        "deal": {"game": 2, "step": 2, "deck": _shuffle(rng, DECK), "strips": _points(rng, strips), "strip_proof": _text(rng, 64)},
        "turn": {"game": 1, "turn": turns, "moves": _moves(rng), "reveals": reveal, "end": end},
        "secrets": {"game": 1, "keys": _points(rng, turns // 2 + 2)},
    }


def carried_sides(rng: random.Random, turns: int) -> str:
    """Both sides as incompressible text: each holds a game's points and a deal's, and both players' keys of the game."""
    points = 2 * (DECK + DECK + PAYOFF + HAND + 1 + POOLS * 12 + 2 * (turns // 2 + 2))
    return _text(rng, 33 * points)  # deflate cannot shrink random points: 32 bytes each and a little framing


def largest_save(alice: Identity, bob: Identity, turns: int, sides: bool) -> SaveFile:
    """The save of `largest_message` after a game of `turns` turns, with both sides carried (`sides`) or neither."""
    rng = random.Random(turns)
    history = tuple(TurnRecord(t % 2, _moves(rng) if t % 50 == 0 else _turn(rng)) for t in range(turns))
    name = "\U0001d504" * 64  # the longest name, in characters of four bytes
    state = {
        "turn": turns + 1,
        "to_move": 0,
        "starter": 0,
        "stock": 0,
        "center": [[], [], []],
        "pools": [],
        "players": [{"hand": HAND, "payoff": PAYOFF, "top": 103, "side": [list(range(s * 26, s * 26 + 26)), [], [], []]} for s in (0, 1)],
    }
    protocol = {"message": largest_message(rng, turns), "carry": carried_sides(rng, turns) if sides else packing.pack([None, None])}
    save = SaveFile(
        match="ff" * 32,
        seq=2 * turns + 4,
        game=1,
        turn=turns,
        prev="ab" * 32,
        rules=dataclasses.replace(G4A, name="custom", payoff_size=PAYOFF, target_score=10**6),
        players=(Player(name, alice.public_text), Player(name, bob.public_text)),
        score=(10**5, 10**5),
        state=state,
        history=history,
        protocol=protocol,
        secrets={0: _text(rng, 2048), 1: _text(rng, 2048)},
        signer=1,
    )
    return saves.sign(save, bob)


@pytest.mark.parametrize(("turns", "sides"), [(600, True), (4_000, False)])
def test_the_largest_file_an_honest_client_can_write_is_written_and_read(people: tuple[Identity, ...], turns: int, sides: bool) -> None:
    """Both sides up to a game of 600 turns (four times the longest seen); past that the writer leaves them out: 4,000 fit."""
    alice, bob, _ = people
    save = largest_save(alice, bob, turns, sides)
    data = saves.to_toml(save)
    assert len(data) > 4 * 32 * 1024  # far larger than any real file (the largest in 40 expert games: 31 KiB)
    assert len(data) < saves.MAX_BYTES * 0.95, len(data)  # and with room to spare
    back = saves.parse(data)
    assert back == save
    saves.verify(back, bob.public_text)
    assert len(save.history) == turns and saves.unpack_history(saves.pack_history(save.history)) == save.history
    # the turns pack no better than a real game's: 8 characters a turn in a long one (542 for 66 turns, greedy bots)
    assert len(saves.pack_history(save.history)) > 9 * turns


def largest_resignation(alice: Identity, bob: Identity, turns: int, sides: bool) -> SaveFile:
    """The largest resignation: made on the other player's turn after a game of `turns` turns (docs/save-format.md, *Resigning*).

    It carries the signed turn of the resigner's own file before it (`after`: in a game of many turns that file holds a turn
    and no deal step, which rides only with a game's first turn, and no keys, which come only at its end), the next game's
    deal step 1 and the resigner's keys of the game; it has no turn of its own.
    """
    base = largest_save(alice, bob, turns, sides)
    rng = random.Random(-turns)
    before = largest_message(rng, turns)
    before.pop("deal")
    before.pop("secrets")
    earlier = dataclasses.replace(base, seq=base.seq - 2, protocol={**base.protocol, "message": before})
    after = {**saves.turn_payload(earlier), "signature": _text(rng, 64)}
    message = {
        "v": 5,
        "match": _text(rng, 16),
        "seq": base.seq,
        "from": 1,
        "resign": {"game": 1, "match": False, "after": after},
        "deal": {"game": 2, "step": 1, "deck": _shuffle(rng, DECK)},
        "secrets": {"game": 1, "keys": _points(rng, turns // 2 + 2)},
    }
    return saves.sign(dataclasses.replace(base, protocol={**base.protocol, "message": message}), bob)


@pytest.mark.parametrize(("turns", "sides"), [(600, True), (4_000, False)])
def test_the_largest_resignation_is_written_and_read_too(people: tuple[Identity, ...], turns: int, sides: bool) -> None:
    """A resignation on the other player's turn carries their file's turn before its own deal step: it fits where a turn does."""
    alice, bob, _ = people
    save = largest_resignation(alice, bob, turns, sides)
    data = saves.to_toml(save)
    assert len(data) > 4 * 32 * 1024 and len(data) < saves.MAX_BYTES * 0.95, len(data)
    back = saves.parse(data)
    assert back == save and back.protocol["message"]["resign"]["after"]["message"]["turn"]["turn"] == turns
    saves.verify(back, bob.public_text)


def test_a_save_over_the_limit_is_still_refused(people: tuple[Identity, ...]) -> None:
    alice, bob, _ = people
    save = largest_save(alice, bob, 600, True)
    big = saves.sign(dataclasses.replace(save, protocol={**save.protocol, "carry": "A" * saves.MAX_BYTES}), bob)
    with pytest.raises(TooLargeError, match=f"{saves.MAX_BYTES // 1024} KiB"):
        saves.to_toml(big)


@pytest.mark.slow
def test_a_real_match_writes_and_reads_the_files_between_its_games_past_32_kib(tmp_path: Path) -> None:
    """The files that end a game and deal the next (a last turn, its keys, a proof of shuffle of the deck) pass 32 KiB in a
    real match; each is written and read by the other player (greedy bots, pay-off piles of 10, seed 0: within 4 games)."""
    players = []
    for who in ("alice", "bob"):
        (tmp_path / who).mkdir(mode=0o700)
        players.append((load_or_create(tmp_path / who, name=who.title()), Journal.open(tmp_path / who)))
    mail = tmp_path / "mail"
    mail.mkdir()
    _, path = new_match(*players[0], replace_rules(G4A, 10, 30), "Bob", out=mail / "invitation.toml")
    bots = [make_bot("greedy", seat) for seat in (0, 1)]
    reader, biggest = 1, 0
    while biggest <= 32 * 1024:
        identity, journal = players[reader]
        opened = open_save(path, identity, journal)
        assert opened.owes_file, "the match ended before a file passed 32 KiB"
        while opened.can_move:
            opened.seat.play(bots[opened.me].choose(opened.view))  # type: ignore[arg-type]
        _, path = answer(opened)
        biggest = max(biggest, path.stat().st_size)
        reader = 1 - reader
    opened = open_save(path, *players[reader])  # the file past 32 KiB, read and checked by the other player
    assert opened.save.hash == saves.read(path).hash and carry.unpack_sides(opened.save)[opened.me] is not None
