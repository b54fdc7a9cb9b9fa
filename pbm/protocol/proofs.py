"""Chaum–Pedersen strip proofs, non-interactive by Fiat–Shamir.

A strip turns a card `layered` = k·`card` into `card`; its proof shows log_G(K) = log_card(layered)
for the public key K = k·G, without telling k. The challenge hashes a domain tag, the match,
game, turn and card slot, and every point, so a proof is good for one slot of one turn only.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbm.errors import PointError, ProofError
from pbm.protocol import group
from pbm.protocol.group import Point, Rng, Scalar

PROOF_TAG = b"spite/strip/v1"
_G = group.base(bytes([1]) + bytes(31))


@dataclass(frozen=True, slots=True)
class Context:
    """What a proof is bound to: the match, the game, the turn (0 while dealing) and the card slot."""

    match: bytes
    game: int
    turn: int
    slot: str

    def describe(self) -> str:
        where = "the deal" if self.turn == 0 else f"turn {self.turn}"
        return f"game {self.game}, {where}: {self.slot}"


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
        raise ProofError(f"{ctx.describe()}: the proof is not 64 bytes")
    c, s = proof[:32], proof[32:]
    try:
        a1 = group.sub(group.base(s), group.mul(c, key))
        a2 = group.sub(group.mul(s, card), group.mul(c, layered))
    except PointError as e:
        raise ProofError(f"{ctx.describe()}: the strip does not prove out") from e
    if challenge(ctx, key, card, layered, a1, a2) != c:
        raise ProofError(f"{ctx.describe()}: the strip does not prove out")


def strip(ctx: Context, k: Scalar, key: Point, layered: Point, rng: Rng) -> tuple[Point, bytes]:
    """Strip the layer k from `layered`, with its proof: (card, proof)."""
    card = group.mul(group.invert(k), layered)
    return card, prove(ctx, k, key, card, layered, rng)


def read_proof(text: object, what: str) -> bytes:
    """An incoming proof: 64 bytes of base64url text."""
    return group.unb64(text, 64, f"{what}: the proof")


def read_proofs(texts: object, count: int, what: str) -> list[bytes]:
    """`count` incoming proofs."""
    if not isinstance(texts, list) or len(texts) != count:
        raise ProofError(f"{what}: {count} proofs are due")
    return [read_proof(t, f"{what} [{i + 1}]") for i, t in enumerate(texts)]
