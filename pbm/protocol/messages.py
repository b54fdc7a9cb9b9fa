"""The protocol's messages as typed values, parsed and checked once where they enter.

A message travels as a TOML-ready table (docs/protocol.md, *What the messages carry*).
:func:`parse_message` turns one into a :class:`Message`: every field has its type, no unknown
key is allowed, every point is a checked group element, every scalar is reduced and every proof
has its size, so the steps that use a message read values, not tables. What a message must hold
given the state of the game (how many points, which steps are due) is checked by those steps.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, Literal, TypeVar

from engine._frozen import frozen_value
from engine.moves import InvalidMoveError, Move, parse_turn
from pbm.errors import ProtocolError
from pbm.protocol import group
from pbm.protocol.group import Point, Scalar, b64, b64s
from pbm.protocol.shuffle import ShuffleProof, proof_size

VERSION = 5  # 1 had no proofs of shuffle; 2 shuffled each pool with a proof of shuffle; 3 left the game and turn out of batch weights;
# 4 had no resignation (5 adds `resign`, and is otherwise 4)
READS = (3, 4, 5)  # a match begun under protocol 3 goes on: its messages are checked by the rules they were made under
STRIP_PROOF_SIZE = 64
MAX_POINTS = 1024  # far above any list of a game; bounds the work a hostile message can ask for
MAX_MOVES_TEXT = 4096

T = TypeVar("T")


# --- the messages ---


@frozen_value
class Shuffle:
    """A list re-keyed to `key` and permuted, with its proof of shuffle."""

    key: Point
    points: tuple[Point, ...]
    proof: ShuffleProof

    def to_data(self) -> dict[str, Any]:
        return {"key": b64(self.key), "points": b64s(self.points), "proof": b64(self.proof.to_bytes())}


@frozen_value
class Locked:
    """A completed center stack's public cards under the mover's stock key `key`, in the stack's order, with one batched proof."""

    key: Point
    points: tuple[Point, ...]
    proof: bytes

    def to_data(self) -> dict[str, Any]:
        return {"key": b64(self.key), "points": b64s(self.points), "proof": b64(self.proof)}


@frozen_value
class Deal1:
    """Deal step 1, the first shuffler: its deal key on every card encoding, shuffled."""

    game: int
    deck: Shuffle

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "step": 1, "deck": self.deck.to_data()}


@frozen_value
class Deal2:
    """Deal step 2, the second shuffler: its deal key on the first's deck, shuffled; its layer stripped from the first's cards.

    `strips` are the first n + h + 1 points of the deck with the second shuffler's layer taken off
    (the first shuffler's pay-off pile and hand, the second's pay-off top); one batched proof covers them.
    """

    game: int
    deck: Shuffle
    strips: tuple[Point, ...]
    strip_proof: bytes

    def to_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "step": 2,
            "deck": self.deck.to_data(),
            "strips": b64s(self.strips),
            "strip_proof": b64(self.strip_proof),
        }


@frozen_value
class Deal3:
    """Deal step 3, the first shuffler: its layer stripped from both pay-off tops and the second's pile and hand (one batched proof)."""

    game: int
    strips: tuple[Point, ...]
    strip_proof: bytes

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "step": 3, "strips": b64s(self.strips), "strip_proof": b64(self.strip_proof)}


Deal = Deal1 | Deal2 | Deal3
RevealKind = Literal["hand", "payoff"]


@frozen_value
class Reveal:
    """A hand card (`slot` from 0) or the next pay-off card, turned face up with a strip proof."""

    kind: RevealKind
    slot: int | None
    point: Point
    proof: bytes

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.slot is not None:
            data["slot"] = self.slot
        data.update(point=b64(self.point), proof=b64(self.proof))
        return data


@frozen_value
class DrawReservation:
    """The other player's draw: cards of the stock with the mover's layer stripped, a proof each.

    They are the top cards (top first), or, when the mover owes the stock a shuffle but merges in the
    same turn, the cards at `positions` (counted from the top, 0 the top) that the mover drew at random.
    """

    points: tuple[Point, ...]
    proofs: tuple[bytes, ...]
    positions: tuple[int, ...] = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"points": b64s(self.points), "proofs": b64s(self.proofs)}
        if self.positions:
            data["positions"] = list(self.positions)
        return data


@frozen_value
class Merge:
    """The pools completed last turn under the mover's stock key too (`layered`, one batched proof), then the merged stock shuffled."""

    layered: tuple[tuple[Point, ...], ...]
    layer_proof: bytes
    stock: Shuffle

    def to_data(self) -> dict[str, Any]:
        return {"layered": [b64s(p) for p in self.layered], "layer_proof": b64(self.layer_proof), "stock": self.stock.to_data()}


@frozen_value
class End:
    """The end of a turn, in the order it happens: the stock shuffle, the draw, the merge, the new pools."""

    shuffle: Shuffle | None = None
    draw: DrawReservation | None = None
    merge: Merge | None = None
    pools: tuple[Locked, ...] = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.shuffle is not None:
            data["shuffle"] = self.shuffle.to_data()
        if self.draw is not None:
            data["draw"] = self.draw.to_data()
        if self.merge is not None:
            data["merge"] = self.merge.to_data()
        if self.pools:
            data["pools"] = [p.to_data() for p in self.pools]
        return data


@frozen_value
class Turn:
    """One turn of the mover: its moves, the cards they turn up, and its end (absent when the moves end the game)."""

    game: int
    turn: int
    moves: tuple[Move, ...]
    reveals: tuple[Reveal, ...] = ()
    end: End | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "turn": self.turn, "moves": " ".join(str(m) for m in self.moves)}
        if self.reveals:
            data["reveals"] = [r.to_data() for r in self.reveals]
        if self.end is not None:
            data["end"] = self.end.to_data()
        return data


@frozen_value
class Secrets:
    """The sender's secret scalars of a game that has ended, for the audit."""

    game: int
    keys: tuple[Scalar, ...]

    def to_data(self) -> dict[str, Any]:
        return {"game": self.game, "keys": b64s(self.keys)}


@frozen_value
class Resign:
    """The sender concedes game `game` (with `whole_match`, the match too); its keys of the game travel beside it, for the audit.

    `after` is set when the sender resigns on the other player's turn: the signed turn of the sender's own file that this
    one follows (a turn code's table, docs/save-format.md), so that the other player can take it in first, whatever
    they did since. The save layer checks it (pbm/client/receive.py); the protocol only carries it.
    """

    game: int
    whole_match: bool = False
    after: dict[str, Any] | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "match": self.whole_match}
        if self.after is not None:
            data["after"] = self.after
        return data


@frozen_value
class Message:
    """One message of the match: its number `seq` (from 1), the sender (0 or 1), what it carries, and its protocol version."""

    match: bytes
    seq: int
    sender: int
    deal: Deal | None = None
    turn: Turn | None = None
    secrets: Secrets | None = None
    version: int = VERSION
    resign: Resign | None = None

    def to_data(self) -> dict[str, Any]:
        """The message table, the only writer of one: an answered deal step before the turn, a deal begun after the keys."""
        data: dict[str, Any] = {"v": self.version, "match": b64(self.match), "seq": self.seq, "from": self.sender}
        if self.deal is not None and not isinstance(self.deal, Deal1):
            data["deal"] = self.deal.to_data()
        if self.turn is not None:
            data["turn"] = self.turn.to_data()
        if self.resign is not None:
            data["resign"] = self.resign.to_data()
        if self.secrets is not None:
            data["secrets"] = self.secrets.to_data()
        if isinstance(self.deal, Deal1):
            data["deal"] = self.deal.to_data()
        return data


# --- reading ---


def _fail(what: str, problem: str) -> ProtocolError:
    return ProtocolError(f"{what} {problem}")


def _table(value: Any, what: str, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()) -> dict[str, Any]:
    """`value` as a table with all of `required`, any of `optional`, and no other key."""
    if not isinstance(value, dict):
        raise _fail(what, "is not a table")
    missing = sorted(required - value.keys())
    if missing:
        raise _fail(what, f"lacks {', '.join(missing)}")
    unknown = sorted(str(k)[:40] for k in value.keys() - required - optional)
    if unknown:
        raise _fail(what, f"has unknown field(s) {', '.join(unknown)}")
    return value


def _int(value: Any, what: str, low: int = 0, high: int = 2**31) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(what, f"is not a whole number from {low} to {high}")
    return value


def _list(value: Any, what: str, read: Callable[[Any, str], T], limit: int = MAX_POINTS, item: str = "{what} [{n}]") -> tuple[T, ...]:
    if not isinstance(value, list):
        raise _fail(what, "is not a list")
    if len(value) > limit:
        raise _fail(what, f"holds {len(value)} items, more than {limit}")
    return tuple(read(v, item.format(what=what, n=i + 1)) for i, v in enumerate(value))


def _points(value: Any, what: str) -> tuple[Point, ...]:
    """A list of checked points, all different (every list of the protocol is of distinct cards)."""
    pts = _list(value, what, group.point)
    if len(set(pts)) != len(pts):
        raise _fail(what, "holds the same point twice")
    return pts


def _proof(value: Any, what: str, size: int = STRIP_PROOF_SIZE) -> bytes:
    data = group.unb64(value, size, f"{what}: the proof")
    c, s = data[:32], data[32:64]
    if size == STRIP_PROOF_SIZE and not (group.is_reduced(c) and group.is_reduced(s)):
        raise _fail(what, "has a proof whose scalars are not reduced")
    return data


def _shuffle(value: Any, what: str) -> Shuffle:
    t = _table(value, what, {"key", "points", "proof"})
    key = group.point(t["key"], f"{what}: the key")
    pts = _points(t["points"], f"{what}: the points")
    raw = group.unb64(t["proof"], proof_size(len(pts)), f"{what}: the proof of shuffle")
    return Shuffle(key, pts, ShuffleProof.from_bytes(raw, len(pts), what))


def _deal(value: Any, what: str) -> Deal:
    step = _int(_table(value, what, {"game", "step"}, {"deck", "strips", "strip_proof"})["step"], f"{what}: the step", 1, 3)
    if step == 1:
        t = _table(value, what, {"game", "step", "deck"})
        return Deal1(_int(t["game"], f"{what}: the game", 1), _shuffle(t["deck"], f"{what}: the deck"))
    if step == 2:
        t = _table(value, what, {"game", "step", "deck", "strips", "strip_proof"})
        return Deal2(
            _int(t["game"], f"{what}: the game", 1),
            _shuffle(t["deck"], f"{what}: the deck"),
            _points(t["strips"], f"{what}: the strips"),
            _proof(t["strip_proof"], f"{what}: the strips"),
        )
    t = _table(value, what, {"game", "step", "strips", "strip_proof"})
    return Deal3(
        _int(t["game"], f"{what}: the game", 1),
        _points(t["strips"], f"{what}: the strips"),
        _proof(t["strip_proof"], f"{what}: the strips"),
    )


def _reveal(value: Any, what: str) -> Reveal:
    kind = _table(value, what, {"kind", "point", "proof"}, {"slot"})["kind"]
    if kind == "hand":
        t = _table(value, what, {"kind", "slot", "point", "proof"})
        return Reveal("hand", _int(t["slot"], f"{what}: the slot", 0, 64), group.point(t["point"], what), _proof(t["proof"], what))
    if kind == "payoff":
        t = _table(value, what, {"kind", "point", "proof"})
        return Reveal("payoff", None, group.point(t["point"], what), _proof(t["proof"], what))
    raise _fail(what, "is of no known kind")


def _draw(value: Any, what: str) -> DrawReservation:
    t = _table(value, what, {"points", "proofs"}, {"positions"})
    pts = _points(t["points"], what)
    prfs = _list(t["proofs"], f"{what}: the proofs", _proof)
    if len(prfs) != len(pts):
        raise _fail(what, f"has {len(prfs)} proofs for {len(pts)} points")
    positions = _list(t.get("positions", []), f"{what}: position", lambda v, w: _int(v, w, 0, MAX_POINTS))
    if positions and (len(positions) != len(pts) or len(set(positions)) != len(positions)):
        raise _fail(what, "does not give one different position for each card")
    return DrawReservation(pts, prfs, positions)


def _locked(value: Any, what: str) -> Locked:
    t = _table(value, what, {"key", "points", "proof"})
    return Locked(group.point(t["key"], f"{what}: the key"), _points(t["points"], f"{what}: the points"), _proof(t["proof"], what))


def _merge(value: Any, what: str) -> Merge:
    t = _table(value, what, {"layered", "layer_proof", "stock"})
    return Merge(
        _list(t["layered"], f"{what}: the layered pools", _points, limit=64),
        _proof(t["layer_proof"], f"{what}: the layered pools"),
        _shuffle(t["stock"], f"{what}: the merged stock"),
    )


def _end(value: Any, what: str) -> End:
    t = _table(value, what, set(), {"shuffle", "draw", "merge", "pools"})
    return End(
        shuffle=_shuffle(t["shuffle"], f"{what}: the shuffle") if "shuffle" in t else None,
        draw=_draw(t["draw"], f"{what}: the draw") if "draw" in t else None,
        merge=_merge(t["merge"], f"{what}: the merge") if "merge" in t else None,
        pools=_list(t.get("pools", []), f"{what}: the pools", _locked, limit=64),
    )


def _turn(value: Any, what: str) -> Turn:
    t = _table(value, what, {"game", "turn", "moves"}, {"reveals", "end"})
    number = _int(t["turn"], f"{what}: the turn number", 1)
    where = f"turn {number}"
    text = t["moves"]
    if not isinstance(text, str) or len(text) > MAX_MOVES_TEXT:
        raise _fail(f"{where}: the moves", "are not text of a sane length")
    try:
        moves = tuple(parse_turn(text))
    except InvalidMoveError as e:
        raise ProtocolError(f"{where}: {e}") from e
    if not moves:
        raise ProtocolError(f"{where}: the message has no moves")
    return Turn(
        game=_int(t["game"], f"{what}: the game", 1),
        turn=number,
        moves=moves,
        reveals=_list(t.get("reveals", []), f"{where}: the reveals", _reveal, limit=64, item=f"{where}: reveal {{n}}"),
        end=_end(t["end"], f"{where}: the end of turn") if "end" in t else None,
    )


def _secrets(value: Any, what: str) -> Secrets:
    t = _table(value, what, {"game", "keys"})
    return Secrets(_int(t["game"], f"{what}: the game", 1), _list(t["keys"], f"{what}: key", group.scalar, limit=MAX_POINTS))


RESIGN_SINCE = 5  # the first protocol version with resignations


def _resign(value: Any, what: str) -> Resign:
    t = _table(value, what, {"game", "match"}, {"after"})
    whole = t["match"]
    if not isinstance(whole, bool):
        raise _fail(f"{what}: 'match'", "is not true or false")
    after = t.get("after")
    if after is not None and not isinstance(after, dict):
        raise _fail(f"{what}: the turn it follows", "is not a table")
    return Resign(_int(t["game"], f"{what}: the game", 1), whole, after)


def parse_deal(data: Any, what: str) -> Deal:
    """The typed deal step that `data` holds; raises ProtocolError naming `what` if it is malformed."""
    return _deal(data, what)


def parse_reveal(data: Any, what: str) -> Reveal:
    """The typed reveal that `data` holds; raises ProtocolError naming `what` if it is malformed."""
    return _reveal(data, what)


def parse_end(data: Any, what: str) -> End:
    """The typed end of turn that `data` holds; raises ProtocolError naming `what` if it is malformed."""
    return _end(data, what)


def parse_message(data: Any) -> Message:
    """The typed message that `data` (a message table) holds; raises ProtocolError (naming the field) if it is malformed."""
    if not isinstance(data, dict):
        raise ProtocolError("a message is a table")
    version = data.get("v")
    if isinstance(version, bool) or version not in READS:
        hint = "a newer spite wrote it: upgrade spite" if isinstance(version, int) and version > VERSION else "this spite does not read it"
        raise ProtocolError(f"a message of protocol version {str(version)[:20]!r}; this spite speaks version {VERSION} ({hint})")
    optional = {"deal", "turn", "secrets", "resign"} if version >= RESIGN_SINCE else {"deal", "turn", "secrets"}
    t = _table(data, "the message", {"v", "match", "seq", "from"}, optional)
    return Message(
        match=group.unb64(t["match"], 16, "the message's match id"),
        seq=_int(t["seq"], "the message number", 1),
        sender=_int(t["from"], "the message's sender", 0, 1),
        deal=_deal(t["deal"], "the deal") if "deal" in t else None,
        turn=_turn(t["turn"], "the turn") if "turn" in t else None,
        secrets=_secrets(t["secrets"], "the revealed keys") if "secrets" in t else None,
        version=version,
        resign=_resign(t["resign"], "the resignation") if "resign" in t else None,
    )
