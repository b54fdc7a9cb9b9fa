"""Chaum–Pedersen strip proofs, non-interactive by Fiat–Shamir.

A strip turns a card `layered` = k·`card` into `card`; its proof shows log_G(K) = log_card(layered)
for the public key K = k·G, without telling k. The challenge hashes a domain tag, the match,
game, turn and card slot, and every point, so a proof is good for one slot of one turn only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache

import nacl.bindings as _na

from engine._frozen import frozen_value
from pbm.errors import PointError, ProofError
from pbm.i18n import N_, _
from pbm.protocol import group
from pbm.protocol.group import Point, Rng, Scalar

PROOF_TAG = b"spite/strip/v1"
BATCH_TAG = b"spite/batch/v2"  # protocol 4 on: the weights hash the whole context
BATCH_TAG_3 = b"spite/batch/v1"  # protocol 3: the weights left out the game and the turn
FULL_CONTEXT = 4  # the first protocol version whose batch weights hash the whole context
_G = group.GENERATOR

# The names a proof is bound to: a strip proof's card slot (Context.slot), a proof of shuffle's list (ShuffleContext.name).
# The English name, filled in, is hashed into the proof: it never changes and is never translated there. A refusal shows
# it in the player's language (shown_name). Marked here, so that the catalogue holds them.
# TRANSLATORS: what a proof is about: the {n}th card of player {player}'s hand
HAND_SLOT = N_("hand card {n} of player {player}")
# TRANSLATORS: what a proof is about: the {n}th card of player {player}'s pay-off pile, counted from the bottom
PAYOFF_SLOT = N_("pay-off card {n} of player {player}")
# TRANSLATORS: what a proof is about: the {n}th card drawn for player {player} at the end of the other player's turn
DRAW_SLOT = N_("draw {n} for player {player}")
# TRANSLATORS: what a proof is about: the {n}th center stack completed in a turn, whose cards go back into the stock
POOL_SLOT = N_("recycling pool {n}")
# TRANSLATORS: what a proof is about: the stock as a player's spite shuffles it
STOCK_SHUFFLE = N_("the stock shuffle")
# TRANSLATORS: what a proof is about: the completed center stacks under a player's secret layer, before they join the stock
MERGE_LAYER = N_("the pools to merge")
# TRANSLATORS: what a proof is about: the stock with the completed center stacks shuffled into it
MERGED_STOCK = N_("the merged stock")
# TRANSLATORS: what a proof is about: the deck as the first player's spite shuffles it for the deal
FIRST_SHUFFLE = N_("the first shuffle of the deck")
# TRANSLATORS: what a proof is about: the deck as the second player's spite shuffles it again for the deal
SECOND_SHUFFLE = N_("the second shuffle of the deck")
# TRANSLATORS: what a proof is about: the cards of the deal the second shuffler's spite unlocks (takes its layer off)
FIRST_STRIPS = N_("the pay-off pile and hand of player {first} and the pay-off top of player {second}")
# TRANSLATORS: what a proof is about: the cards of the deal the first shuffler's spite then unlocks (takes its layer off)
SECOND_STRIPS = N_("the pay-off tops and the pay-off pile and hand of player {second}")
NAMES = (
    HAND_SLOT,
    PAYOFF_SLOT,
    DRAW_SLOT,
    POOL_SLOT,
    STOCK_SHUFFLE,
    MERGE_LAYER,
    MERGED_STOCK,
    FIRST_SHUFFLE,
    SECOND_SHUFFLE,
    FIRST_STRIPS,
    SECOND_STRIPS,
)


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """What a name made from `template` looks like: its text, each {placeholder} a number."""
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(f"(?P<{part}>[0-9]+)" if i % 2 else re.escape(part) for i, part in enumerate(parts)))


def shown_name(name: str) -> str:
    """A name a proof is bound to (one of :data:`NAMES`, filled in) in the player's language; any other name as it is."""
    for template in NAMES:
        found = _pattern(template).fullmatch(name)
        if found:
            return _(template).format(**found.groupdict())
    return name


@frozen_value
class Context:
    """What a proof is bound to: the match, the game, the turn (0 while dealing) and the card slot.

    `version` is the protocol version of the message the proof travels in: it says how a batch's weights are drawn.
    """

    match: bytes
    game: int
    turn: int
    slot: str
    version: int

    def describe(self) -> str:
        return describe(self.game, self.turn, self.slot)


def describe(game: int, turn: int, what: str) -> str:
    """Where a proof stands, as a refusal names it: 'game 1, turn 14: hand card 2 of player 1' (turn 0 is the deal).

    `what` is the name the proof is bound to, shown in the player's language (:func:`shown_name`).
    """
    if turn == 0:
        # TRANSLATORS: where a proof of the deal stands; {what} names the cards it proves, e.g. "the first shuffle of the deck"
        return _("game {game}, the deal: {what}").format(game=game, what=shown_name(what))
    # TRANSLATORS: where a proof stands; {what} names the cards it proves, e.g. "hand card 2 of player 1"
    return _("game {game}, turn {turn}: {what}").format(game=game, turn=turn, what=shown_name(what))


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(2, "big") + data


def challenge(ctx: Context, key: Point, card: Point, layered: Point, a1: Point, a2: Point) -> Scalar:
    """The Fiat–Shamir challenge of one strip proof."""
    parts = [PROOF_TAG, ctx.match, ctx.game.to_bytes(4, "big"), ctx.turn.to_bytes(4, "big"), ctx.slot.encode("utf-8")]
    parts += [_G, key, card, layered, a1, a2]
    return group.hash_scalar(b"".join(_field(p) for p in parts))


def prove(ctx: Context, k: Scalar, key: Point, card: Point, layered: Point, rng: Rng) -> bytes:
    """A proof (c‖s, 64 bytes) that `layered` = k·`card` where `key` = k·G."""
    r = group.random_scalar(rng)
    a1, a2 = group.base(r), group.mul(r, card)
    c = challenge(ctx, key, card, layered, a1, a2)
    return c + group.sadd(r, group.smul(c, k))


def verify(ctx: Context, proof: bytes, key: Point, card: Point, layered: Point) -> None:
    """Raise ProofError, naming the slot and turn, unless `proof` shows `layered` = k·`card` for `key` = k·G."""
    if len(proof) != 64:
        # TRANSLATORS: {where} says which proof, e.g. "game 1, turn 14: hand card 2 of player 1"; it shows a card was turned up honestly
        raise ProofError(_("{where}: the proof is not 64 bytes").format(where=ctx.describe()))
    c, s = proof[:32], proof[32:]
    if not (group.is_reduced(c) and group.is_reduced(s)):  # s + L would verify too: only one form of a proof is accepted
        # TRANSLATORS: scalars: the numbers a proof is made of; reduced: below the group's order, the one way they may be written
        raise ProofError(_("{where}: the proof's scalars are not reduced").format(where=ctx.describe()))
    try:
        a1 = group.sub(group.base(s), group.mul(c, key))
        a2 = group.sub(group.mul(s, card), group.mul(c, layered))
    except PointError as e:
        raise ProofError(_("{where}: the strip does not prove out").format(where=ctx.describe())) from e
    if challenge(ctx, key, card, layered, a1, a2) != c:
        # TRANSLATORS: a strip takes a player's secret layer off a face-down card to turn it up; its proof did not check out
        raise ProofError(_("{where}: the strip does not prove out").format(where=ctx.describe()))


def strip(ctx: Context, k: Scalar, key: Point, layered: Point, rng: Rng) -> tuple[Point, bytes]:
    """Strip the layer k from `layered`, with its proof: (card, proof)."""
    card = group.mul(group.invert(k), layered)
    return card, prove(ctx, k, key, card, layered, rng)


def batch_weights(ctx: Context, key: Point, cards: Sequence[Point], layered: Sequence[Point]) -> list[Scalar]:
    """The batch's weights u_i, from a hash of the whole statement: the context, the key and every point of both lists.

    Protocol 3 hashed the match and the list's name but not the game and the turn; its messages are still checked so.
    """
    if len(cards) != len(layered) or not cards:
        # TRANSLATORS: a batch proof is one proof for many cards at once; pairs: each card before and after a player's layer
        raise ProofError(_("{where}: a batch proof covers a non-empty list of pairs").format(where=ctx.describe()))
    n = len(cards).to_bytes(4, "big")
    slot = _field(ctx.slot.encode("utf-8"))
    if ctx.version < FULL_CONTEXT:
        head = [BATCH_TAG_3, ctx.match, slot]
    else:
        head = [BATCH_TAG, ctx.match, ctx.game.to_bytes(4, "big"), ctx.turn.to_bytes(4, "big"), slot]
    seed = _na.crypto_hash_sha512(b"".join([*head, key, n, *cards, *layered]))
    return [group.hash_scalar(seed + i.to_bytes(4, "big")) for i in range(len(cards))]


def _weighted(weights: Sequence[Scalar], points: Sequence[Point]) -> Point:
    total = group.IDENTITY
    for u, p in zip(weights, points, strict=True):
        total = _na.crypto_core_ed25519_add(total, group.mul(u, p))
    return total


def _batch_context(ctx: Context, count: int) -> Context:
    return Context(ctx.match, ctx.game, ctx.turn, f"{ctx.slot} (batch of {count})", ctx.version)


def prove_batch(ctx: Context, k: Scalar, key: Point, cards: Sequence[Point], layered: Sequence[Point], rng: Rng) -> bytes:
    """One proof (64 bytes) that layered_i = k·cards_i for every i, where `key` = k·G.

    The batched Chaum–Pedersen proof of RFC 9497 (section 2.2): weights from a hash of the whole statement
    (:func:`batch_weights`), so a single false pair makes the weighted sums disagree except with probability 1/ℓ.
    """
    a = _weighted(batch_weights(ctx, key, cards, layered), cards)
    # Σu_i·layered_i = k·Σu_i·cards_i for honest pairs: one multiplication instead of N (a false pair still fails the check)
    return prove(_batch_context(ctx, len(cards)), k, key, a, group.mul(k, a), rng)


def verify_batch(ctx: Context, proof: bytes, key: Point, cards: Sequence[Point], layered: Sequence[Point]) -> None:
    """Raise ProofError naming `ctx` unless `proof` shows layered_i = k·cards_i for every i, for `key` = k·G.

    A batch that checked out in this process, or that the player's journal remembers checking (:func:`remember`), is
    not checked again: it is known by the digest of everything the check reads (:func:`_checked_digest`).
    """
    weights = batch_weights(ctx, key, cards, layered)
    digest = _checked_digest(ctx, proof, key, cards, layered)
    if digest in _PROVEN:
        return
    try:
        a, b = _weighted(weights, cards), _weighted(weights, layered)
        if a == group.IDENTITY or b == group.IDENTITY:
            raise ProofError(_("{where}: the batch does not prove out").format(where=ctx.describe()))
        verify(_batch_context(ctx, len(cards)), proof, key, a, b)
    except (ProofError, PointError) as e:
        # TRANSLATORS: the batch: many cards under one proof (of a player's layer on them); the proof did not check out
        raise ProofError(_("{where}: the batch does not prove out").format(where=ctx.describe())) from e
    _PROVEN.add(digest)
    _NEWLY.append((ctx.match, digest))


CHECKED_TAG = b"spite/checked-batch/v1"
_PROVEN: set[bytes] = set()  # digests of the batch proofs that checked out, with everything they were checked against
_NEWLY: list[tuple[bytes, bytes]] = []  # (match, digest) of those checked in this process and not yet taken to a journal


def _checked_digest(ctx: Context, proof: bytes, key: Point, cards: Sequence[Point], layered: Sequence[Point]) -> bytes:
    """SHA-512 of the whole context, the key, every point of both lists (checked points, 32 bytes each) and the proof,
    each list and the proof framed by its length, so that no two statements share one input."""
    head = [CHECKED_TAG, ctx.match, ctx.game.to_bytes(4, "big"), ctx.turn.to_bytes(4, "big"), _field(ctx.slot.encode("utf-8"))]
    head += [ctx.version.to_bytes(2, "big"), key, len(cards).to_bytes(4, "big"), len(layered).to_bytes(4, "big")]
    return _na.crypto_hash_sha512(b"".join([*head, *cards, *layered, _field(proof)]))


def remember(digests: Iterable[bytes]) -> None:
    """Take as checked the batch proofs of these digests: only the player's own journal may say so (never a file)."""
    _PROVEN.update(digests)


def newly_proven() -> list[tuple[bytes, bytes]]:
    """The (match, digest) of each batch proof checked out in this process since the last call."""
    taken = list(_NEWLY)
    _NEWLY.clear()
    return taken


def strip_batch(ctx: Context, k: Scalar, key: Point, layered: Sequence[Point], rng: Rng) -> tuple[list[Point], bytes]:
    """Strip the layer k from every point of `layered`, with one proof for all: (cards, proof)."""
    inverse = group.invert(k)
    cards = [group.mul(inverse, p) for p in layered]
    return cards, prove_batch(ctx, k, key, cards, layered, rng)
