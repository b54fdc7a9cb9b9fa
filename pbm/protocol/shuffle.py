"""The proof of shuffle: that a list was re-keyed and permuted, Y_i = k·X_π(i) with K = k·B, and nothing else.

Terelius and Wikström's commitment-consistent proof of a shuffle, in the pseudo-code of Haenni,
Locher, Koenig and Dubuis ("Pseudo-code algorithms for verifiable re-encryption mix-nets", 2017),
adapted from re-encryption to re-keying: the re-encryption relation ∏e'_i^{u'_i} = ∏e_i^{u_i}·Enc(1, r)
becomes Σ u'_i·Y_i = k·Σ u_i·X_i, proven together with K = k·B. docs/protocol.md gives the
soundness argument and the cost. Non-interactive by Fiat–Shamir over SHA-512, the transcript bound
to the match, game, turn, message number and the list's name, and to every point.

A proof holds, for N points: the permutation commitment (N points), the commitment chain
(N points), the challenge, four responses and two lists of N responses: 32·(4N + 5) bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import nacl.bindings as _na
import nacl.exceptions

from engine._frozen import frozen_value
from pbm.errors import PointError, ProofError
from pbm.i18n import _, ngettext
from pbm.protocol import group, proofs
from pbm.protocol.deck import shuffled
from pbm.protocol.group import IDENTITY, SIZE, Point, Rng, Scalar

SHUFFLE_TAG = b"spite/shuffle/v1"
GENERATOR_TAG = b"spite/shuffle/generator/v1"
_ZERO = bytes(32)
_ONE = bytes([1]) + bytes(31)


@frozen_value
class ShuffleContext:
    """What a proof of shuffle is bound to: the match, game, turn (0 while dealing), message number and list name."""

    match: bytes
    game: int
    turn: int
    seq: int
    name: str

    def describe(self) -> str:
        return proofs.describe(self.game, self.turn, self.name)

    def encode(self) -> bytes:
        name = self.name.encode("utf-8")
        return b"".join(
            [
                self.match,
                self.game.to_bytes(4, "big"),
                self.turn.to_bytes(4, "big"),
                self.seq.to_bytes(8, "big"),
                len(name).to_bytes(2, "big"),
                name,
            ]
        )


@frozen_value
class ShuffleProof:
    """A non-interactive proof that `outputs` = k·`inputs`, permuted, for K = k·B (see :func:`verify`)."""

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    challenge: Scalar
    responses: tuple[Scalar, Scalar, Scalar, Scalar]
    chain_responses: tuple[Scalar, ...]
    perm_responses: tuple[Scalar, ...]

    def to_bytes(self) -> bytes:
        """The proof as 32·(4N + 5) bytes."""
        parts = [*self.commitments, *self.chain, self.challenge, *self.responses, *self.chain_responses, *self.perm_responses]
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes, count: int, what: str) -> ShuffleProof:
        """The proof of a shuffle of `count` points; raises ProofError naming `what` unless every point and scalar is canonical."""
        if len(data) != proof_size(count):
            due = ngettext(
                # TRANSLATORS: {what} names a list of a message, e.g. "the deal: the deck"; the proof shows it was shuffled honestly
                "{what}: the proof of shuffle is {size} bytes where {due} are due for {count} point",
                "{what}: the proof of shuffle is {size} bytes where {due} are due for {count} points",
                count,
            )
            raise ProofError(due.format(what=what, size=len(data), due=proof_size(count), count=count))
        items = [data[i : i + SIZE] for i in range(0, len(data), SIZE)]
        pts = items[: 2 * count]
        # the identity is refused here; every other point is checked canonical and in the prime-order subgroup by
        # libsodium in the verifier's multiplications (each c_i by u_i, each ĉ_i by e), so it is not checked twice
        if IDENTITY in pts:
            # TRANSLATORS: a point is a value of the dealing's cryptography; identity: the group's zero point, which is refused
            raise ProofError(_("{what}: the proof of shuffle holds a point that is not a group element (the identity)").format(what=what))
        scalars = items[2 * count :]
        if any(not group.is_reduced(s) for s in scalars):
            # TRANSLATORS: a scalar is a number a proof is made of; reduced: below the group's order, the one way it may be written
            raise ProofError(_("{what}: the proof of shuffle holds a scalar that is not reduced").format(what=what))
        return cls(
            commitments=tuple(pts[:count]),
            chain=tuple(pts[count:]),
            challenge=scalars[0],
            responses=(scalars[1], scalars[2], scalars[3], scalars[4]),
            chain_responses=tuple(scalars[5 : 5 + count]),
            perm_responses=tuple(scalars[5 + count :]),
        )


def proof_size(count: int) -> int:
    """The size in bytes of a proof of shuffle of `count` points."""
    return SIZE * (4 * count + 5)


# --- the arithmetic, with the identity allowed where a sum can meet it ---


def _mul(s: Scalar, p: Point) -> Point:
    """s·p, the identity when s is zero or p is the identity (libsodium refuses both)."""
    if s == _ZERO or p == IDENTITY:
        return IDENTITY
    return group.mul(s, p)


def _base(s: Scalar) -> Point:
    return IDENTITY if s == _ZERO else group.base(s)


def _add(p: Point, q: Point) -> Point:
    return _na.crypto_core_ed25519_add(p, q)


_sum = group.total
_msm = group.msm  # Σ s_i·P_i, in two threads on a long list


def _neg(s: Scalar) -> Scalar:
    return _na.crypto_core_ed25519_scalar_negate(s)


def _sub_s(a: Scalar, b: Scalar) -> Scalar:
    return _na.crypto_core_ed25519_scalar_sub(a, b)


# --- generators ---


_GENERATORS: list[Point] = []  # H, H_1, H_2 …, made as far as any proof has needed


def generators(count: int) -> list[Point]:
    """H, H_1 … H_count: independent generators by hash-to-curve (Elligator 2 in libsodium) under a fixed domain tag.

    Nobody knows a discrete-log relation among them or with G, which is what makes the commitments binding.
    """
    cache = _GENERATORS
    while len(cache) <= count:
        digest = _na.crypto_hash_sha256(GENERATOR_TAG + len(cache).to_bytes(4, "big"))
        cache.append(_na.crypto_core_ed25519_from_uniform(digest))
    return cache[: count + 1]


_GENERATOR_SUMS: list[Point] = [IDENTITY]  # H_1 + … + H_n at index n


def generator_sum(count: int) -> Point:
    """H_1 + … + H_count, kept once made: every proof of `count` points needs it."""
    sums = _GENERATOR_SUMS
    if len(sums) <= count:
        hs = generators(count)
        while len(sums) <= count:
            sums.append(_add(sums[-1], hs[len(sums)]))
    return sums[count]


# --- Fiat–Shamir ---


def _statement(
    ctx: ShuffleContext, base: Point, key: Point, inputs: Sequence[Point], outputs: Sequence[Point], commitments: Sequence[Point]
) -> bytes:
    n = len(inputs).to_bytes(4, "big")
    return _na.crypto_hash_sha512(b"".join([SHUFFLE_TAG, ctx.encode(), base, key, n, *inputs, *outputs, *commitments]))


def _weights(statement: bytes, count: int) -> list[Scalar]:
    """The verifier's random weights u_1 … u_N, drawn after the lists and the permutation commitment are fixed."""
    return [group.hash_scalar(statement + b"u" + i.to_bytes(4, "big")) for i in range(count)]


def _challenge(statement: bytes, chain: Sequence[Point], ts: Sequence[Point]) -> Scalar:
    return group.hash_scalar(b"".join([statement, b"c", *chain, *ts]))


# --- making and checking ---


def shuffle(ctx: ShuffleContext, k: Scalar, base: Point, key: Point, inputs: Sequence[Point], rng: Rng) -> tuple[list[Point], ShuffleProof]:
    """Re-key every input by `k` and permute them uniformly: the outputs and their proof (`key` = k·`base`)."""
    perm = shuffled(rng, list(range(len(inputs))))
    outputs = group.each(lambda i: group.mul(k, inputs[perm[i]]), len(perm))
    return outputs, prove(ctx, k, base, key, inputs, outputs, perm, rng)


def prove(
    ctx: ShuffleContext,
    k: Scalar,
    base: Point,
    key: Point,
    inputs: Sequence[Point],
    outputs: Sequence[Point],
    perm: Sequence[int],
    rng: Rng,
) -> ShuffleProof:
    """A proof that outputs[i] = k·inputs[perm[i]] for every i, where `key` = k·`base`."""
    n = len(inputs)
    gens = generators(n)
    h, hs = gens[0], gens[1:]
    # the permutation commitment: c_{π(i)} = r_{π(i)}·G + H_i
    r = [group.random_scalar(rng) for __ in range(n)]
    commitments: list[Point] = [IDENTITY] * n
    for i, j in enumerate(perm):
        commitments[j] = _add(_base(r[j]), hs[i])
    statement = _statement(ctx, base, key, inputs, outputs, commitments)
    u = _weights(statement, n)
    u_perm = [u[j] for j in perm]
    # the commitment chain: ĉ_0 = H, ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}
    r_hat = [group.random_scalar(rng) for __ in range(n)]
    chain: list[Point] = []
    previous = h
    for i in range(n):
        previous = _add(_base(r_hat[i]), _mul(u_perm[i], previous))
        chain.append(previous)
    w1, w2, w3, w4 = (group.random_scalar(rng) for __ in range(4))
    w_hat = [group.random_scalar(rng) for __ in range(n)]
    w_perm = [group.random_scalar(rng) for __ in range(n)]
    t1 = _base(w1)
    t2 = _base(w2)
    t3 = _add(_base(w3), _msm(w_perm, hs))
    # t4 = Σ w'_i·Y_i − w4·Σ u_j·X_j = Σ_j (k·w'_{π⁻¹(j)} − w4·u_j)·X_j, as Y_i = k·X_π(i): one multiplication a point, not two
    weights = [_neg(group.smul(w4, x)) for x in u]
    for i, j in enumerate(perm):
        weights[j] = group.sadd(weights[j], group.smul(k, w_perm[i]))
    t4 = _msm(weights, inputs)
    t5 = _mul(w4, base)
    links = [h, *chain]
    t_hat = group.each(lambda i: _add(_base(w_hat[i]), _mul(w_perm[i], links[i])), n)
    e = _challenge(statement, chain, [t1, t2, t3, t4, t5, *t_hat])
    # v_i = ∏_{j>i} u'_j, so that ĉ_N = (Σ r̂_i·v_i)·G + (∏ u'_i)·H
    v = [_ONE] * n
    for i in range(n - 2, -1, -1):
        v[i] = group.smul(u_perm[i + 1], v[i + 1])
    r_bar = _ZERO
    r_tilde = _ZERO
    r_chain = _ZERO
    for j in range(n):
        r_bar = group.sadd(r_bar, r[j])
        r_tilde = group.sadd(r_tilde, group.smul(r[j], u[j]))
        r_chain = group.sadd(r_chain, group.smul(r_hat[j], v[j]))
    s1 = _sub_s(w1, group.smul(e, r_bar))
    s2 = _sub_s(w2, group.smul(e, r_chain))
    s3 = _sub_s(w3, group.smul(e, r_tilde))
    s4 = _sub_s(w4, group.smul(e, k))
    s_hat = tuple(_sub_s(w_hat[i], group.smul(e, r_hat[i])) for i in range(n))
    s_perm = tuple(_sub_s(w_perm[i], group.smul(e, u_perm[i])) for i in range(n))
    return ShuffleProof(tuple(commitments), tuple(chain), e, (s1, s2, s3, s4), s_hat, s_perm)


def verify(ctx: ShuffleContext, proof: ShuffleProof, base: Point, key: Point, inputs: Sequence[Point], outputs: Sequence[Point]) -> None:
    """Raise ProofError naming the list unless `proof` shows outputs = k·inputs permuted, for `key` = k·`base`.

    Every point given must already be a checked group element (pbm.protocol.group.point); the
    proof's scalars are checked by :meth:`ShuffleProof.from_bytes`, its points by the check's
    multiplications. A proof that checked out once in this process, or that the player's journal
    remembers checking (:func:`remember`), is not checked again: it is known by the digest of the
    statement (context, B, K, every input, output and commitment) and the proof's bytes, so a proof
    whose inputs differ in any byte is checked anew.
    """
    n = len(inputs)
    if (
        len(outputs) != n
        or len(proof.commitments) != n
        or len(proof.chain) != n
        or len(proof.chain_responses) != n
        or len(proof.perm_responses) != n
    ):
        # TRANSLATORS: {where} says which list, e.g. "game 1, turn 7: the stock shuffle"; points: the cards as the cryptography has them
        raise ProofError(_("{where}: the shuffle does not keep the number of points").format(where=ctx.describe()))
    # the statement hashes the context, B, K, every input, output and commitment; with the proof's bytes, all the check reads
    statement = _statement(ctx, base, key, inputs, outputs, proof.commitments)
    digest = _na.crypto_hash_sha512(statement + proof.to_bytes())
    if digest in _PROVEN:
        return
    try:
        ok = _check(statement, proof, base, key, inputs, outputs)
    except (PointError, nacl.exceptions.CryptoError) as e:
        raise ProofError(_("{where}: the shuffle does not prove out").format(where=ctx.describe())) from e
    if not ok:
        # TRANSLATORS: {where} says which list, e.g. "game 1, turn 7: the stock shuffle"; its proof of shuffle did not check out
        raise ProofError(_("{where}: the shuffle does not prove out").format(where=ctx.describe()))
    _PROVEN.add(digest)
    _NEWLY.append((ctx.match, digest))


_PROVEN: set[bytes] = set()  # digests of the proofs that checked out, with everything they were checked against
_NEWLY: list[tuple[bytes, bytes]] = []  # (match, digest) of those checked in this process and not yet taken to a journal


def remember(digests: Iterable[bytes]) -> None:
    """Take as checked the proofs of these digests, of shuffles and of strip batches (pbm.protocol.proofs): only the
    player's own journal may say so (never a file). The digests of the two kinds are domain-separated."""
    digests = list(digests)
    _PROVEN.update(digests)
    proofs.remember(digests)


def newly_proven() -> list[tuple[bytes, bytes]]:
    """The (match, digest) of each proof of shuffle or strip batch checked out in this process since the last call, for
    the journal to remember."""
    taken = [*_NEWLY, *proofs.newly_proven()]
    _NEWLY.clear()
    return taken


def _check(statement: bytes, proof: ShuffleProof, base: Point, key: Point, inputs: Sequence[Point], outputs: Sequence[Point]) -> bool:
    """Whether `proof` proves out for the `statement` (:func:`_statement`) it was made for."""
    n = len(inputs)
    gens = generators(n)
    h, hs = gens[0], gens[1:]
    c, chain, e = proof.commitments, proof.chain, proof.challenge
    s1, s2, s3, s4 = proof.responses
    u = _weights(statement, n)
    u_product = _ONE
    for x in u:
        u_product = group.smul(u_product, x)
    if e == _ZERO or _ZERO in u:  # a hash that came out zero (probability 2⁻²⁵²) would let a point pass unchecked below
        return False
    c_bar = group.sub(_sum(c), generator_sum(n))
    c_hat = group.sub(chain[-1] if n else h, _mul(u_product, h))
    c_tilde = _msm(u, c)  # every c_i times a non-zero u_i: libsodium refuses one outside the prime-order subgroup
    a = _msm(u, inputs)
    t1 = _add(_base(s1), _mul(e, c_bar))
    t2 = _add(_base(s2), _mul(e, c_hat))
    t3 = _add(_add(_base(s3), _msm(proof.perm_responses, hs)), _mul(e, c_tilde))
    t4 = group.sub(_msm(proof.perm_responses, outputs), _mul(s4, a)) if n else IDENTITY
    t5 = _add(_mul(s4, base), _mul(e, key))
    previous = [h, *chain]
    # every ĉ_i times the non-zero e: libsodium refuses one outside the prime-order subgroup
    s_hat, s_perm = proof.chain_responses, proof.perm_responses
    t_hat = group.each(lambda i: _add(_add(_base(s_hat[i]), _mul(s_perm[i], previous[i])), group.mul(e, chain[i])), n)
    return _challenge(statement, chain, [t1, t2, t3, t4, t5, *t_hat]) == e
