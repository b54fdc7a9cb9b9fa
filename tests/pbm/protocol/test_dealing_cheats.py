"""Every check that protects a player, with a cheat it catches."""

from __future__ import annotations

import copy
from collections.abc import Set as AbstractSet
from dataclasses import replace
from typing import Any

import pytest
from dealing_play import SMALL, make_seats, play

from engine.rules import Ruleset
from engine.state import Reason
from pbm.errors import AuditError, PointError, ProofError, ProtocolError, StaleMessageError
from pbm.protocol import group, proofs
from pbm.protocol.dealing import Party
from pbm.protocol.group import Point, Scalar
from pbm.protocol.messages import Message
from pbm.protocol.outgoing import TurnMaking
from pbm.protocol.seat import Seat

G4A_LONG = Ruleset(target_score=500)
OTHER_CARD = group.b64(group.card_point(bytes(range(16)), 1, 3))


def _tamper_first(where: Any, change: Any) -> Any:
    """A tamper hook that changes the first message for which `where(message)` holds, once."""
    done = []

    def hook(_n: int, message: dict) -> dict:
        if not done and where(message):
            done.append(True)
            message = copy.deepcopy(message)
            change(message)
        return message

    hook.done = done  # type: ignore[attr-defined]
    return hook


def _hand_reveals(message: dict) -> list[dict]:
    return [r for r in message.get("turn", {}).get("reveals", []) if r["kind"] == "hand"]


def test_a_false_hand_reveal_is_refused_on_receipt_naming_slot_and_turn() -> None:
    def change(m: dict) -> None:
        _hand_reveals(m)[0]["point"] = OTHER_CARD

    hook = _tamper_first(lambda m: _hand_reveals(m), change)
    with pytest.raises(ProofError, match=r"turn \d+: hand card \d of player \d: the strip does not prove out"):
        play(make_seats(G4A_LONG, 1), seed=1, tamper=hook)
    assert hook.done


def test_a_proof_made_for_another_hand_slot_is_refused() -> None:
    def change(m: dict) -> None:
        reveal = _hand_reveals(m)[0]
        reveal["slot"] = 1 if reveal["slot"] == 0 else 0

    hook = _tamper_first(lambda m: _hand_reveals(m), change)
    with pytest.raises(ProofError, match="hand card"):
        play(make_seats(G4A_LONG, 2), seed=2, tamper=hook)


def test_a_false_pay_off_reveal_is_refused() -> None:
    def where(m: dict) -> bool:
        return any(r["kind"] == "payoff" for r in m.get("turn", {}).get("reveals", []))

    def change(m: dict) -> None:
        next(r for r in m["turn"]["reveals"] if r["kind"] == "payoff")["point"] = OTHER_CARD

    with pytest.raises(ProofError, match="pay-off card"):
        play(make_seats(G4A_LONG, 3), seed=3, tamper=_tamper_first(where, change))


def test_a_false_draw_is_refused_naming_the_draw() -> None:
    def where(m: dict) -> bool:
        return "draw" in m.get("turn", {}).get("end", {})

    def change(m: dict) -> None:
        draw = m["turn"]["end"]["draw"]
        draw["points"][0], draw["proofs"][0] = OTHER_CARD, draw["proofs"][0]

    with pytest.raises(ProofError, match=r"draw 1 for player \d"):
        play(make_seats(G4A_LONG, 4), seed=4, tamper=_tamper_first(where, change))


def test_a_false_strip_in_the_deal_is_refused() -> None:
    def change(m: dict) -> None:
        m["deal"]["strips"][0] = OTHER_CARD

    with pytest.raises(ProofError, match="the deal: the pay-off tops and the pay-off pile and hand of player 2"):
        play(make_seats(G4A_LONG, 5), seed=5, tamper=_tamper_first(lambda m: m.get("deal", {}).get("step") == 3, change))


def test_a_wrong_move_count_of_reveals_is_refused() -> None:
    def change(m: dict) -> None:
        m["turn"]["reveals"].pop()

    with pytest.raises(ProtocolError, match="plays a hand card that the message does not reveal"):
        play(make_seats(G4A_LONG, 6), seed=6, tamper=_tamper_first(lambda m: _hand_reveals(m), change))


@pytest.mark.parametrize("bad", [bytes([1]) + bytes(31), bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")])
def test_an_invalid_or_small_order_point_is_refused_wherever_it_comes(bad: bytes) -> None:
    text = group.b64(bad)

    def in_deck(m: dict) -> None:
        m["deal"]["deck"]["points"][7] = text

    with pytest.raises(PointError, match=r"the deck: the points \[8\]"):
        play(make_seats(SMALL, 7), seed=7, tamper=_tamper_first(lambda m: m.get("deal", {}).get("step") == 1, in_deck))

    def in_reveal(m: dict) -> None:
        _hand_reveals(m)[0]["point"] = text

    with pytest.raises(PointError, match="reveal 1"):
        play(make_seats(G4A_LONG, 8), seed=8, tamper=_tamper_first(lambda m: _hand_reveals(m), in_reveal))


def test_a_repeated_point_in_a_shuffle_is_refused_at_once() -> None:
    def change(m: dict) -> None:
        m["deal"]["deck"]["points"][5] = m["deal"]["deck"]["points"][6]

    with pytest.raises(ProtocolError, match="the same point twice"):
        play(make_seats(SMALL, 9), seed=9, tamper=_tamper_first(lambda m: m.get("deal", {}).get("step") == 2, change))


def test_a_replayed_message_from_an_earlier_turn_is_refused() -> None:
    kept: list[dict] = []
    outcome: list[Exception] = []

    def hook(n: int, message: dict) -> dict:
        kept.append(copy.deepcopy(message))
        if n == 12:
            old = kept[n - 3]  # the same sender's message of the turn before
            receiver = seats[1 - message["from"]]
            for variant in (old, {**old, "seq": message["seq"]}):
                with pytest.raises(StaleMessageError) as caught:
                    receiver.receive(copy.deepcopy(variant))
                outcome.append(caught.value)
            # even with its numbers patched to the current turn, its proofs belong to the old turn
            patched = copy.deepcopy({**old, "seq": message["seq"]})
            patched["turn"]["turn"] = message["turn"]["turn"]
            with pytest.raises(ProtocolError):
                receiver.receive(patched)
        return message

    seats = make_seats(G4A_LONG, 10)
    with pytest.raises(AssertionError, match="no end after"):
        play(seats, seed=10, tamper=hook, max_messages=14)
    assert len(outcome) == 2
    assert "not the one due" in str(outcome[0]) and "turn" in str(outcome[1])


def test_a_message_of_another_match_is_refused() -> None:
    seats = make_seats(SMALL, 11)
    message = seats[0].send().to_data()
    with pytest.raises(StaleMessageError, match="another match"):
        seats[1].receive({**message, "match": group.b64(bytes(16))})


# --- dishonest shuffles: refused on receipt, their proof does not check out ---


class _Quiet(Party):
    """A cheater's client that skips its own checks and audit, so only the honest side can catch it; its turns are made by
    its `Making` (a modified :class:`TurnMaking`, which sets `cheated` once it cheats)."""

    cheated = False
    Making: type[TurnMaking] = TurnMaking

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.making = self.Making(self)

    def _check_new(self, card: int, what: str, extra: AbstractSet[int] = frozenset()) -> None:
        return None

    def _maybe_audit(self) -> None:
        g = self.game
        if g is not None and g.over and g.number in self.theirs:
            g.audited = True


class _CheatingMaking(TurnMaking):
    """The turns of a :class:`_Quiet` party: it sets the party's `cheated` once it cheats."""

    p: _Quiet


class _SubstitutedPools(_CheatingMaking):
    def _lock_pool(self, game: int, cards: list[int], k: Scalar, pub: Point, ctx: Any) -> Any:
        swap = next(c for c in range(self.p.ruleset.deck_size) if c not in cards)
        self.p.cheated = True
        return super()._lock_pool(game, [swap, *cards[1:]], k, pub, ctx)


class PoolSubstituter(_Quiet):
    """Recycles a completed center stack with one card swapped for another card of the deck, proving the swapped list."""

    Making = _SubstitutedPools


class _PoisonedPools(_CheatingMaking):
    def _lock_pool(self, game: int, cards: list[int], k: Scalar, pub: Point, ctx: Any) -> Any:
        p = self.p
        stock = p.game.stock  # type: ignore[union-attr]
        if not stock:
            return super()._lock_pool(game, cards, k, pub, ctx)
        encodings = [group.card_point(p.match, game, c) for c in cards]
        encodings[0] = group.mul(group.random_scalar(p.rng), stock[-1])
        locked = group.layer(k, encodings)
        self.p.cheated = True
        return locked, proofs.prove_batch(ctx, k, pub, encodings, locked, p.rng)


class PoolPoisoner(_Quiet):
    """Locks a blinded copy of a stock point in place of a pool's first public card, proving the list it really locked:
    the other player would lay its stock key on that point at the merge (a decryption oracle, were it accepted)."""

    Making = _PoisonedPools


class _ReorderedPools(_CheatingMaking):
    def _lock_pool(self, game: int, cards: list[int], k: Scalar, pub: Point, ctx: Any) -> Any:
        self.p.cheated = True
        return super()._lock_pool(game, cards[::-1], k, pub, ctx)


class PoolReorderer(_Quiet):
    """Locks a completed center stack's cards in another order than the stack's, proving the order it used."""

    Making = _ReorderedPools


class _DuplicatingMerge(_CheatingMaking):
    def end(self, turn: int, completed: tuple, count: int) -> Any:
        p = self.p
        had_pools = bool(p.game.pools)  # type: ignore[union-attr]
        draw = super().end(turn, completed, count)
        end, g = p.outbox.end, p._g()
        if had_pools and end is not None and end.draw is not None and end.merge is not None and len(g.stock) > 1:
            k = p._my_key(g.stock_epoch[p.me])
            g.stock[0] = group.mul(k, end.draw.points[0])
            stock = replace(end.merge.stock, points=(g.stock[0], *end.merge.stock.points[1:]))
            p.outbox.end = replace(end, merge=replace(end.merge, stock=stock))
            self.p.cheated = True
        return draw


class MergeDuplicator(_Quiet):
    """When merging, copies the card it just reserved for the other player into the stock, dropping a stock card."""

    Making = _DuplicatingMerge


@pytest.mark.parametrize(
    ("cheat", "named"),
    [
        (PoolSubstituter, "recycling pool 1"),
        (PoolPoisoner, "recycling pool 1"),
        (PoolReorderer, "recycling pool 1"),
        (MergeDuplicator, "the merged stock"),
    ],
)
def test_a_dishonest_shuffle_or_pool_lock_is_refused_by_the_honest_player_on_receipt(cheat: type[_Quiet], named: str) -> None:
    caught = 0
    for seed in range(12):
        seats = make_seats(SMALL, seed, classes=(cheat, Party))
        try:
            play(seats, seed=seed, stop_after_deal=2, check=False)
        except ProofError as e:
            assert seats[0].party.cheated and named in str(e) and "does not prove out" in str(e)
            caught += 1
        else:
            assert not seats[0].party.cheated, f"seed {seed}: a cheat went unnoticed"
    assert caught >= 2


class _PoolsUnderOtherKey(_CheatingMaking):
    other_key = b""

    def _lock_pool(self, game: int, cards: list[int], k: Scalar, pub: Point, ctx: Any) -> Any:
        other = group.random_scalar(self.p.rng)
        self.other_key = group.base(other)
        return super()._lock_pool(game, cards, other, self.other_key, ctx)

    def end(self, turn: int, completed: tuple, count: int) -> Any:
        draw = super().end(turn, completed, count)
        p = self.p
        end = p.outbox.end
        if end is not None and end.pools:  # the message names the key the pool is really under
            p.outbox.end = replace(end, pools=tuple(replace(pool, key=self.other_key) for pool in end.pools))
            self.p.cheated = True
        return draw


class PoolOtherKey(_Quiet):
    """Locks a completed center stack under a key of its own making, not its stock key, with a proof that holds for that key."""

    Making = _PoolsUnderOtherKey


def test_a_pool_locked_under_another_key_than_the_stock_key_is_refused() -> None:
    caught = 0
    for seed in range(12):
        seats = make_seats(SMALL, seed, classes=(PoolOtherKey, Party))
        try:
            play(seats, seed=seed, stop_after_deal=2, check=False)
        except ProtocolError as e:
            assert seats[0].party.cheated and "recycling pool 1 is not under player 1's stock key" in str(e), e
            caught += 1
        else:
            assert not seats[0].party.cheated, f"seed {seed}: a cheat went unnoticed"
    assert caught >= 2


def _finished_game(seed: int) -> tuple[Any, list[list[Scalar]], Any]:
    """A record of a finished game just before its audit, and both players' keys."""
    grabbed: list[Any] = []

    class Grab(Party):
        def _maybe_audit(self) -> None:
            g = self.game
            if g is not None and not g.audited and g.over and g.number in self.theirs and not grabbed:
                keys = [[], []]
                keys[self.me], keys[self.other] = list(self.keys[g.number]), list(self.theirs[g.number])
                grabbed.append((copy.deepcopy(g), keys, self.match))
            super()._maybe_audit()

    play(make_seats(SMALL, seed, classes=(Grab, Grab)), seed=seed, stop_after_deal=2)
    return grabbed[0]


def test_the_audit_passes_an_honest_game_and_names_what_is_wrong_in_a_changed_one() -> None:
    from pbm.protocol.audit import audit_game

    record, keys, match = next(g for g in (_finished_game(s) for s in range(10)) if len(g[0].stock) >= 2)
    audit_game(record, keys, match, 52)

    bad = copy.deepcopy(record)
    bad.stock[0] = group.mul(group.random_scalar(lambda n: bytes([7]) * n), bad.stock[0])
    with pytest.raises(AuditError, match=r"the stock .* is no card"):
        audit_game(bad, keys, match, 52)

    bad = copy.deepcopy(record)
    bad.stock[0] = bad.stock[1]
    with pytest.raises(AuditError, match="twice"):
        audit_game(bad, keys, match, 52)

    wrong = [list(keys[0]), list(keys[1])]
    wrong[1][0] = wrong[0][0]
    with pytest.raises(AuditError, match="player 2's revealed key 0 does not match"):
        audit_game(record, wrong, match, 52)


def test_moves_that_do_not_end_the_turn_are_refused_on_receipt() -> None:
    def change(m: dict) -> None:
        m["turn"]["moves"] = " ".join(m["turn"]["moves"].split()[:-1])

    def where(m: dict) -> bool:
        return len(m.get("turn", {}).get("moves", "").split()) >= 2

    with pytest.raises(ProtocolError, match=r"turn \d+: the (message reveals more cards|moves do not end the turn)"):
        play(make_seats(G4A_LONG, 12), seed=12, tamper=_tamper_first(where, change))


def test_a_message_out_of_turn_or_from_the_wrong_seat_is_refused() -> None:
    seats = make_seats(SMALL, 13)
    first = seats[0].send().to_data()
    with pytest.raises(ProtocolError, match="not from the other player"):
        seats[0].receive(first)  # a player's own message sent back to it
    seats[1].receive(first)
    second = seats[1].send().to_data()
    seats[0].receive(second)
    while seats[0].my_turn:
        seats[0].play(make_bot_move(seats[0]))
    third = seats[0].send().to_data()
    seats[1].receive(third)
    # player 1 sends another turn although turn 2 is player 2's
    forged = {k: v for k, v in copy.deepcopy(third).items() if k != "deal"}
    forged["seq"], forged["turn"]["turn"] = 4, 2
    with pytest.raises(StaleMessageError, match="turn 2 is this player's own turn"):
        seats[1].receive(forged)


def make_bot_move(seat: Seat) -> Any:
    from engine.bots import make_bot

    return make_bot("greedy").choose(seat.state.view(seat.party.me))  # type: ignore[union-attr]


def test_an_illegal_move_is_refused_on_receipt_and_changes_nothing() -> None:
    from engine.cards import parse_rank

    tried: list[str] = []

    def hook(_n: int, message: dict) -> dict:
        moves = message.get("turn", {}).get("moves", "").split()
        receiver = seats[1 - message["from"]]
        if tried or not moves or receiver.state is None:
            return message
        source, target = moves[0].split("-")
        if not target.startswith("c") or source in ("p", "K") or source.startswith("s"):
            return message
        rank = parse_rank(source)
        center = receiver.state.center
        misfits = [f"c{j + 1}" for j, stack in enumerate(center) if len(stack) + 1 != rank]
        if misfits:
            forged = copy.deepcopy(message)
            forged["turn"]["moves"] = " ".join([f"{source}-{misfits[0]}", *moves[1:]])
            with pytest.raises(ProtocolError, match="is refused"):
                receiver.receive(forged)
            tried.append(forged["turn"]["moves"])
        return message  # the honest message is taken in afterwards: the refusal changed nothing

    for seed in range(14, 34):  # the first game whose opening turns play a hand card to the center
        seats = make_seats(G4A_LONG, seed)
        with pytest.raises(AssertionError, match="no end after"):
            play(seats, seed=seed, tamper=hook, max_messages=40)
        if tried:
            break
    assert tried


def test_a_refused_message_changes_nothing_and_the_honest_one_is_taken_in_after() -> None:
    seats = make_seats(G4A_LONG, 15)
    refused: list[str] = []

    def hook(_n: int, message: dict) -> dict:
        if len(refused) < 3 and "draw" in message.get("turn", {}).get("end", {}):
            forged = copy.deepcopy(message)
            forged["turn"]["end"]["draw"]["points"][0] = OTHER_CARD
            with pytest.raises(ProofError) as caught:
                seats[1 - message["from"]].receive(forged)
            refused.append(str(caught.value))
        return message

    play(seats, seed=15, tamper=hook, stop_after_deal=2)
    assert len(refused) == 3 and all("draw 1 for player" in r for r in refused)


# --- the next game's deal: only once the game before has ended ---


class Watched(Party):
    """An honest party that notes every secret scalar it makes, by game: it makes one to answer a deal step 1."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.made: list[int] = []

    def _new_key(self, game: int) -> tuple[int, Scalar, Point]:
        self.made.append(game)
        return super()._new_key(game)


class EarlyDealer(_Quiet):
    """Starts the deal of the game `ahead` games on in its first ordinary turn, while the game is still being played."""

    ahead = 1

    def send(self, state: Any = None, moves: Any = ()) -> Message:
        message = super().send(state, moves)
        g = self.game
        if not self.cheated and moves and g is not None and state.outcome is None and message.deal is None:
            message = replace(message, deal=self.deals.deal1(g.number + self.ahead, message.seq))
            self.cheated = True
        return message


@pytest.mark.parametrize(
    ("cheater", "ahead", "refusal"),
    [
        (1, 1, r"^turn \d+ does not end game 1, but the message already starts the deal of game 2: a game is dealt once"),
        (0, 1, "^the other player started the deal of game 2, which is yours to start"),
        (1, 2, "^the message starts the deal of game 3, but the next game is game 2"),
    ],
    ids=["mid-game", "not-the-starter", "not-the-next-game"],
)
def test_the_next_games_deal_in_a_turn_that_does_not_end_the_game_is_refused_before_it_is_answered(
    cheater: int, ahead: int, refusal: str
) -> None:
    classes: list[type[Party]] = [Watched, Watched]
    classes[cheater] = type("Cheater", (EarlyDealer,), {"ahead": ahead})
    seats = make_seats(SMALL, 40, classes=(classes[0], classes[1]))
    with pytest.raises(ProtocolError, match=refusal):
        play(seats, seed=40, check=False)
    victim = seats[1 - cheater].party
    assert seats[cheater].party.cheated and victim.game is not None and victim.game.number == 1 and not victim.game.over
    assert set(victim.made) == {1}, "the victim answered the early deal with a secret of the next game"


class KeylessWinner(_Quiet):
    """Ends the game and starts the next one's deal in the same message, as it should, but keeps its keys of the game."""

    def send(self, state: Any = None, moves: Any = ()) -> Message:
        message = super().send(state, moves)
        if message.turn is not None and message.deal is not None:
            self.cheated = message.secrets is not None
            message = replace(message, secrets=None)
        return message


def test_the_next_games_deal_without_the_keys_of_the_game_that_ends_is_refused_before_it_is_answered() -> None:
    for seed, reason in ((41, Reason.PAYOFF_EMPTY), (40, Reason.STOCK_EXHAUSTED)):  # a win, a tie
        honest = play(make_seats(SMALL, seed, classes=(Watched, Watched)), seed=seed, stop_after_deal=2)
        ending = [m for m in honest.messages if "turn" in m and "secrets" in m and m.get("deal", {}).get("step") == 1]
        assert ending and ending[0]["from"] == 1 and honest.outcomes[0][1].reason is reason  # player 1 ends game 1, starts game 2
        assert 2 in honest.seats[0].party.made  # the honest last turn carrying the next game's step 1 is answered

    seats = make_seats(SMALL, 41, classes=(Watched, KeylessWinner))
    with pytest.raises(ProtocolError, match=r"^the message starts the deal of game 2 without the other player's keys of game 1"):
        play(seats, seed=41, check=False)
    assert seats[1].party.cheated and set(seats[0].party.made) == {1}
