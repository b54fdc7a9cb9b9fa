"""The prime-order subgroup of edwards25519, through libsodium (PyNaCl): the only group arithmetic the protocol uses.

Points and scalars are 32-byte strings. Every point that arrives from outside goes through
:func:`point` (or :func:`points`), which refuses anything but a canonical point of the
prime-order subgroup other than the identity. On the wire both are base64url without padding.
"""

from __future__ import annotations

import base64
import binascii
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

import nacl.bindings as _na
import nacl.exceptions

from pbm.errors import PointError
from pbm.i18n import N_, _, ngettext

Point = bytes
Scalar = bytes
Rng = Callable[[int], bytes]

SIZE = 32
CARD_TAG = b"spite/card/v1"
IDENTITY = bytes([1]) + bytes(31)
_ZERO = bytes(32)
T = TypeVar("T")


# --- text ---


def b64(data: bytes) -> str:
    """`data` as base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: object, size: int, what: str) -> bytes:
    """The `size` bytes that `text` (base64url, no padding, canonical) encodes; raises PointError naming `what`."""
    if not isinstance(text, str) or len(text) != (size * 4 + 2) // 3:
        # TRANSLATORS: {what} names a value of a dealing message or a save, e.g. "the turn: reveal 2: the proof"; base64url: bytes as text
        text = ngettext("{what} is not {size} byte of base64url text", "{what} is not {size} bytes of base64url text", size)
        raise PointError(text.format(what=what, size=size))
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as e:
        raise PointError(_("{what} is not base64url text").format(what=what)) from e
    if len(data) != size or b64(data) != text:
        # TRANSLATORS: canonical: written the one way it must be (no other spelling of the same bytes is taken)
        text = ngettext("{what} is not canonical base64url for {size} byte", "{what} is not canonical base64url for {size} bytes", size)
        raise PointError(text.format(what=what, size=size))
    return data


# --- validation ---


def is_point(data: bytes) -> bool:
    """Whether `data` is a canonical point of the prime-order subgroup, not the identity and not of small order."""
    return len(data) == SIZE and data != IDENTITY and bool(_na.crypto_core_ed25519_is_valid_point(data))


def point(text: object, what: str) -> Point:
    """Decode and validate one incoming point; raises PointError naming `what`."""
    data = unb64(text, SIZE, what)
    if not is_point(data):
        # TRANSLATORS: a point stands for a card or key in the dealing's cryptography; small order, identity: points it refuses (math terms)
        raise PointError(_("{what} is not a valid group element (small order, identity or not canonical)").format(what=what))
    return data


def points(texts: object, what: str, count: int | None = None, distinct: bool = True) -> list[Point]:
    """Decode and validate a list of incoming points (all different unless `distinct` is false)."""
    if not isinstance(texts, list):
        # TRANSLATORS: a point stands for a card or a key in the dealing's cryptography
        raise PointError(_("{what} is not a list of points").format(what=what))
    if count is not None and len(texts) != count:
        text = ngettext("{what} holds {n} points where {count} is due", "{what} holds {n} points where {count} are due", count)
        raise PointError(text.format(what=what, n=len(texts), count=count))
    # TRANSLATORS: the {n}th item of the list {what} (e.g. "the turn: the end of turn: the draw [3]")
    item = _("{what} [{n}]")
    out = [point(t, item.format(what=what, n=i + 1)) for i, t in enumerate(texts)]
    if distinct and len(set(out)) != len(out):
        raise PointError(_("{what} holds the same point twice").format(what=what))
    return out


def is_reduced(s: bytes) -> bool:
    """Whether `s` is a canonical scalar: 32 bytes below the group order."""
    return len(s) == SIZE and _na.crypto_core_ed25519_scalar_reduce(s + _ZERO) == s


def scalar(text: object, what: str) -> Scalar:
    """Decode one incoming scalar, which must be reduced (below the group order)."""
    data = unb64(text, SIZE, what)
    if not is_reduced(data):
        # TRANSLATORS: a scalar is a secret number of the dealing's cryptography (a key); reduced: below the group's order, as it must be
        raise PointError(_("{what} is not a reduced scalar").format(what=what))
    return data


# --- scalars ---


def random_scalar(rng: Rng) -> Scalar:
    """A uniform non-zero scalar from 64 bytes of `rng` (reduced mod the group order)."""
    while True:
        k = _na.crypto_core_ed25519_scalar_reduce(rng(64))
        if k != _ZERO:
            return k


def hash_scalar(data: bytes) -> Scalar:
    """SHA-512 of `data` reduced to a scalar."""
    return _na.crypto_core_ed25519_scalar_reduce(_na.crypto_hash_sha512(data))


def invert(k: Scalar) -> Scalar:
    """k⁻¹ mod the group order."""
    if k == _ZERO:
        # TRANSLATORS: a scalar is a secret number of the dealing's cryptography (a key); zero has no inverse, as in division
        raise PointError(_("the zero scalar has no inverse"))
    return _na.crypto_core_ed25519_scalar_invert(k)


def smul(a: Scalar, b: Scalar) -> Scalar:
    return _na.crypto_core_ed25519_scalar_mul(a, b)


def sadd(a: Scalar, b: Scalar) -> Scalar:
    return _na.crypto_core_ed25519_scalar_add(a, b)


def ratio(new: Scalar, old: Scalar) -> Scalar:
    """new·old⁻¹: the factor that moves a layer from key `old` to key `new` (a re-key)."""
    return smul(new, invert(old))


# --- points ---


GENERATOR: Point = _na.crypto_scalarmult_ed25519_base_noclamp(bytes([1]) + bytes(31))  # G, the base point


# TRANSLATORS: a point: a value of the dealing's cryptography that stands for a card or a key
def mul(k: Scalar, p: Point, what: str = N_("a point")) -> Point:
    """k·p; raises PointError if `p` is not valid or the result is the identity (`what`, marked with N_, names `p`)."""
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(k, p)
    except nacl.exceptions.CryptoError as e:  # libsodium refuses invalid inputs and an identity result
        # TRANSLATORS: {what} names a point (a card or key of the cryptography); scalar: a secret number; identity: the zero point
        raise PointError(_("{what}: scalar multiplication failed (invalid point or identity result)").format(what=_(what))) from e


def base(k: Scalar) -> Point:
    """k·G, the public key of the secret scalar `k`."""
    try:
        return _na.crypto_scalarmult_ed25519_base_noclamp(k)
    except nacl.exceptions.CryptoError as e:
        # TRANSLATORS: a scalar is a secret number of the dealing's cryptography (a key); zero makes no public key
        raise PointError(_("the zero scalar has no public key")) from e


def sub(p: Point, q: Point) -> Point:
    """p − q."""
    try:
        return _na.crypto_core_ed25519_sub(p, q)
    except nacl.exceptions.CryptoError as e:
        # TRANSLATORS: a point stands for a card or a key in the dealing's cryptography
        raise PointError(_("point subtraction failed")) from e


def layer(k: Scalar, cards: Sequence[Point]) -> list[Point]:
    """Put the layer `k` on every card (k·C); to strip, pass k⁻¹; to re-key, pass :func:`ratio`."""
    return each(lambda i: mul(k, cards[i]), len(cards))


# --- many at once: libsodium multiplies without holding the GIL, so a second thread takes half of a long list ---

PARALLEL_FROM = 32  # items below which one thread does it all: a thread costs ~0.1 ms to start, a multiplication ~0.1 ms
_CORES = os.cpu_count() or 1


def each(work: Callable[[int], T], count: int) -> list[T]:
    """[work(0), …, work(count − 1)], the second half in a second thread when there are many and a second core.

    `work` must depend on nothing but its index (and not print, nor touch shared state); an exception in either half is
    raised here, the first half's first. The results are the same as one thread's: only the time differs.
    """
    if count < PARALLEL_FROM or _CORES < 2:
        return [work(i) for i in range(count)]
    half = count // 2
    first, second = in_two(lambda: [work(i) for i in range(half)], lambda: [work(i) for i in range(half, count)])
    return first + second


def in_two(here: Callable[[], T], there: Callable[[], T]) -> tuple[T, T]:
    """(here(), there()), `there` run in a second thread meanwhile; an exception of either is raised (here's first)."""
    done: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(there())
        except BaseException as e:  # handed to the caller's thread, which raises it
            failed.append(e)

    thread = threading.Thread(target=run, name="spite-group", daemon=True)
    thread.start()
    try:
        mine = here()
    finally:
        thread.join()
    if failed:
        raise failed[0]
    return mine, done[0]


def total(points: Iterable[Point]) -> Point:
    """The sum of `points` (the identity for none)."""
    result = IDENTITY
    for p in points:
        result = _na.crypto_core_ed25519_add(result, p)
    return result


def msm(scalars: Sequence[Scalar], points: Sequence[Point]) -> Point:
    """Σ s_i·P_i, a term whose s_i is zero or whose P_i is the identity left out; raises PointError for a P_i not in the
    prime-order subgroup (each other term's multiplication checks it). Two threads sum a half each on a long list."""
    if len(scalars) != len(points):
        raise ValueError("msm: as many scalars as points are needed")

    def part(lo: int, hi: int) -> Point:
        result = IDENTITY
        for s, p in zip(scalars[lo:hi], points[lo:hi], strict=True):
            if s != _ZERO and p != IDENTITY:
                # TRANSLATORS: one of many points (values of the dealing's cryptography) multiplied and added up to check a proof
                result = _na.crypto_core_ed25519_add(result, mul(s, p, N_("a point of a sum")))
        return result

    count = len(points)
    if count < PARALLEL_FROM or _CORES < 2:
        return part(0, count)
    first, second = in_two(lambda: part(0, count // 2), lambda: part(count // 2, count))
    return _na.crypto_core_ed25519_add(first, second)


# --- card encodings ---


def card_point(match: bytes, game: int, index: int) -> Point:
    """M_i = from_uniform(SHA-256("spite/card/v1" | match | game | i)), game and i as 4 and 2 bytes big-endian."""
    digest = _na.crypto_hash_sha256(CARD_TAG + match + game.to_bytes(4, "big") + index.to_bytes(2, "big"))
    return _na.crypto_core_ed25519_from_uniform(digest)


@lru_cache(maxsize=8)
def card_table(match: bytes, game: int, deck_size: int) -> dict[Point, int]:
    """Every card encoding of one game, mapped to its card index."""
    table = {card_point(match, game, i): i for i in range(deck_size)}
    if len(table) != deck_size:  # a hash collision: never expected, but decoding would be ambiguous
        # TRANSLATORS: a card's encoding is the point (a value of the dealing's cryptography) that stands for the card in one game
        raise PointError(_("two cards share an encoding in this game"))
    return table


def encodings(match: bytes, game: int, deck_size: int) -> list[Point]:
    """The card encodings M_0 … M_{n-1} of one game, in index order."""
    return list(card_table(match, game, deck_size))


def b64s(items: Iterable[bytes]) -> list[str]:
    """Each of `items` as base64url without padding."""
    return [b64(x) for x in items]
