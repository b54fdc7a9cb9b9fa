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
from pbm.i18n import _, error_text, ngettext, pgettext
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
# A refusal names where the fault is, as a path into the message: "the turn: reveal 2: the proof" (each part translated).


def _table(value: Any, what: str, required: AbstractSet[str], optional: AbstractSet[str] = frozenset()) -> dict[str, Any]:
    """`value` as a table with all of `required`, any of `optional`, and no other key."""
    if not isinstance(value, dict):
        # TRANSLATORS: {what} names a part of a message the other player's spite sent, e.g. "the deal: the deck"; a table as in TOML
        raise ProtocolError(_("{what} is not a table").format(what=what))
    missing = sorted(required - value.keys())
    if missing:
        # TRANSLATORS: {fields} lists the names of the fields that are missing, as they are written in the file (never translated)
        raise ProtocolError(_("{what} lacks {fields}").format(what=what, fields=", ".join(missing)))
    unknown = sorted(str(k)[:40] for k in value.keys() - required - optional)
    if unknown:
        fields = ", ".join(unknown)
        # TRANSLATORS: {fields} lists the names of the fields spite does not know, as they are written in the file
        text = ngettext("{what} has unknown field {fields}", "{what} has unknown fields {fields}", len(unknown))
        raise ProtocolError(text.format(what=what, fields=fields))
    return value


def _int(value: Any, what: str, low: int = 0, high: int = 2**31) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ProtocolError(_("{what} is not a whole number from {low} to {high}").format(what=what, low=low, high=high))
    return value


def _list(
    value: Any, what: str, read: Callable[[Any, str], T], limit: int = MAX_POINTS, item: Callable[[int], str] | None = None
) -> tuple[T, ...]:
    """The items of the list `value`, each read by `read`; `item` names the n-th (from 1), else "{what} [{n}]" does."""
    if not isinstance(value, list):
        raise ProtocolError(_("{what} is not a list").format(what=what))
    if len(value) > limit:
        text = ngettext("{what} holds {n} item, more than {limit}", "{what} holds {n} items, more than {limit}", len(value))
        raise ProtocolError(text.format(what=what, n=len(value), limit=limit))
    if item is None:
        # TRANSLATORS: the {n}th item of the list {what} (e.g. "the turn: the end of turn: the draw [3]")
        numbered = _("{what} [{n}]")
        return tuple(read(v, numbered.format(what=what, n=i + 1)) for i, v in enumerate(value))
    return tuple(read(v, item(i + 1)) for i, v in enumerate(value))


def _points(value: Any, what: str) -> tuple[Point, ...]:
    """A list of checked points, all different (every list of the protocol is of distinct cards)."""
    pts = _list(value, what, group.point)
    if len(set(pts)) != len(pts):
        raise ProtocolError(_("{what} holds the same point twice").format(what=what))
    return pts


def _proof(value: Any, what: str, size: int = STRIP_PROOF_SIZE) -> bytes:
    # TRANSLATORS: a part of a message: {what} names the part that holds it, e.g. "the turn: reveal 2"
    data = group.unb64(value, size, _("{what}: the proof").format(what=what))
    c, s = data[:32], data[32:64]
    if size == STRIP_PROOF_SIZE and not (group.is_reduced(c) and group.is_reduced(s)):
        # TRANSLATORS: scalars: the numbers a proof is made of; reduced: below the group's order, the one way they may be written
        raise ProtocolError(_("{what} has a proof whose scalars are not reduced").format(what=what))
    return data


def _shuffle(value: Any, what: str) -> Shuffle:
    t = _table(value, what, {"key", "points", "proof"})
    # TRANSLATORS: a part of a message: {what} names the part that holds it, e.g. "the deal: the deck"; the public key of a shuffle
    key = group.point(t["key"], _("{what}: the key").format(what=what))
    # TRANSLATORS: a part of a message: {what} names the list that holds them; points: the cards as the cryptography has them
    pts = _points(t["points"], _("{what}: the points").format(what=what))
    # TRANSLATORS: a part of a message: {what} names the part that holds it; the proof that the list was shuffled honestly
    raw = group.unb64(t["proof"], proof_size(len(pts)), _("{what}: the proof of shuffle").format(what=what))
    return Shuffle(key, pts, ShuffleProof.from_bytes(raw, len(pts), what))


def _deal(value: Any, what: str) -> Deal:
    # TRANSLATORS: a part of a message: {what} names the deal step that holds it, e.g. "the deal"; which step of the deal (1 to 3)
    step_name = _("{what}: the step").format(what=what)
    step = _int(_table(value, what, {"game", "step"}, {"deck", "strips", "strip_proof"})["step"], step_name, 1, 3)
    # TRANSLATORS: a part of a message: {what} names the part that holds it, e.g. "the deal"; the number of the game
    game = _("{what}: the game").format(what=what)
    # TRANSLATORS: a part of a message: {what} names the deal step that holds it; the cards of the deck, shuffled
    deck = _("{what}: the deck").format(what=what)
    # TRANSLATORS: a part of a message: {what} names the deal step; strips: cards with one player's secret layer taken off
    strips = _("{what}: the strips").format(what=what)
    if step == 1:
        t = _table(value, what, {"game", "step", "deck"})
        return Deal1(_int(t["game"], game, 1), _shuffle(t["deck"], deck))
    if step == 2:
        t = _table(value, what, {"game", "step", "deck", "strips", "strip_proof"})
        return Deal2(
            _int(t["game"], game, 1),
            _shuffle(t["deck"], deck),
            _points(t["strips"], strips),
            _proof(t["strip_proof"], strips),
        )
    t = _table(value, what, {"game", "step", "strips", "strip_proof"})
    return Deal3(
        _int(t["game"], game, 1),
        _points(t["strips"], strips),
        _proof(t["strip_proof"], strips),
    )


def _reveal(value: Any, what: str) -> Reveal:
    kind = _table(value, what, {"kind", "point", "proof"}, {"slot"})["kind"]
    if kind == "hand":
        t = _table(value, what, {"kind", "slot", "point", "proof"})
        # TRANSLATORS: a part of a message: {what} names the reveal that holds it, e.g. "turn 5: reveal 2"; which card of the hand
        slot = _int(t["slot"], _("{what}: the slot").format(what=what), 0, 64)
        return Reveal("hand", slot, group.point(t["point"], what), _proof(t["proof"], what))
    if kind == "payoff":
        t = _table(value, what, {"kind", "point", "proof"})
        return Reveal("payoff", None, group.point(t["point"], what), _proof(t["proof"], what))
    # TRANSLATORS: {what} names a card the other player turns up, e.g. "turn 5: reveal 2": neither of a hand card nor of a pay-off card
    raise ProtocolError(_("{what} is of no known kind").format(what=what))


def _draw(value: Any, what: str) -> DrawReservation:
    t = _table(value, what, {"points", "proofs"}, {"positions"})
    pts = _points(t["points"], what)
    # TRANSLATORS: a part of a message: {what} names the draw that holds them, e.g. "turn 5: the end of turn: the draw"
    prfs = _list(t["proofs"], _("{what}: the proofs").format(what=what), _proof)
    if len(prfs) != len(pts):
        # TRANSLATORS: {what} names the other player's draw of cards for you, e.g. "turn 5: the end of turn: the draw"
        text = ngettext("{what} has {n} proof for {count} points", "{what} has {n} proofs for {count} points", len(prfs))
        raise ProtocolError(text.format(what=what, n=len(prfs), count=len(pts)))
    # TRANSLATORS: a part of a message: {what} names the draw that holds them; the places in the stock the cards are drawn from
    positions = _list(t.get("positions", []), _("{what}: position").format(what=what), lambda v, w: _int(v, w, 0, MAX_POINTS))
    if positions and (len(positions) != len(pts) or len(set(positions)) != len(positions)):
        raise ProtocolError(_("{what} does not give one different position for each card").format(what=what))
    return DrawReservation(pts, prfs, positions)


def _locked(value: Any, what: str) -> Locked:
    t = _table(value, what, {"key", "points", "proof"})
    key = group.point(t["key"], _("{what}: the key").format(what=what))
    return Locked(key, _points(t["points"], _("{what}: the points").format(what=what)), _proof(t["proof"], what))


def _merge(value: Any, what: str) -> Merge:
    t = _table(value, what, {"layered", "layer_proof", "stock"})
    # TRANSLATORS: a part of a message: {what} names the merge; the recycled center stacks under the player's secret layer
    layered = _("{what}: the layered pools").format(what=what)
    return Merge(
        _list(t["layered"], layered, _points, limit=64),
        _proof(t["layer_proof"], layered),
        # TRANSLATORS: a part of a message: {what} names the merge; the stock with the recycled cards shuffled into it
        _shuffle(t["stock"], _("{what}: the merged stock").format(what=what)),
    )


def _end(value: Any, what: str) -> End:
    t = _table(value, what, set(), {"shuffle", "draw", "merge", "pools"})
    # TRANSLATORS: parts of a message: {what} names the end of a turn, e.g. "turn 5: the end of turn"; the stock's shuffle in it
    shuffled = _("{what}: the shuffle").format(what=what)
    # TRANSLATORS: a part of a message: {what} names the end of a turn; the cards drawn for the other player
    draw = _("{what}: the draw").format(what=what)
    # TRANSLATORS: a part of a message: {what} names the end of a turn; the recycled cards merged into the stock
    merge = _("{what}: the merge").format(what=what)
    # TRANSLATORS: a part of a message: {what} names the end of a turn; pools: center stacks completed, to be recycled
    pools = _("{what}: the pools").format(what=what)
    return End(
        shuffle=_shuffle(t["shuffle"], shuffled) if "shuffle" in t else None,
        draw=_draw(t["draw"], draw) if "draw" in t else None,
        merge=_merge(t["merge"], merge) if "merge" in t else None,
        pools=_list(t.get("pools", []), pools, _locked, limit=64),
    )


def _turn(value: Any, what: str) -> Turn:
    t = _table(value, what, {"game", "turn", "moves"}, {"reveals", "end"})
    # TRANSLATORS: a part of a message: {what} names the turn that holds it, e.g. "the turn"
    number = _int(t["turn"], _("{what}: the turn number").format(what=what), 1)
    text = t["moves"]
    if not isinstance(text, str) or len(text) > MAX_MOVES_TEXT:
        raise ProtocolError(_("turn {turn}: the moves are not text of a sane length").format(turn=number))
    try:
        moves = tuple(parse_turn(text))
    except InvalidMoveError as e:
        # TRANSLATORS: {error} says what is wrong with the moves the other player's file gives
        raise ProtocolError(_("turn {turn}: {error}").format(turn=number, error=error_text(e))) from e
    if not moves:
        raise ProtocolError(_("turn {turn}: the message has no moves").format(turn=number))
    # TRANSLATORS: a part of a message: the cards a turn turns up
    reveals = _("turn {turn}: the reveals").format(turn=number)

    def reveal(n: int) -> str:
        # TRANSLATORS: a part of a message: the {n}th card a turn turns up
        return _("turn {turn}: reveal {n}").format(turn=number, n=n)

    return Turn(
        game=_int(t["game"], _("{what}: the game").format(what=what), 1),
        turn=number,
        moves=moves,
        reveals=_list(t.get("reveals", []), reveals, _reveal, limit=64, item=reveal),
        # TRANSLATORS: a part of a message: how a turn ends (the stock shuffled, the draw, the recycled cards)
        end=_end(t["end"], _("turn {turn}: the end of turn").format(turn=number)) if "end" in t else None,
    )


def _secrets(value: Any, what: str) -> Secrets:
    t = _table(value, what, {"game", "keys"})
    game = _int(t["game"], _("{what}: the game").format(what=what), 1)
    # TRANSLATORS: a part of a message: {what} names the keys a player reveals after a game; one of those keys
    return Secrets(game, _list(t["keys"], _("{what}: key").format(what=what), group.scalar, limit=MAX_POINTS))


RESIGN_SINCE = 5  # the first protocol version with resignations


def _resign(value: Any, what: str) -> Resign:
    t = _table(value, what, {"game", "match"}, {"after"})
    whole = t["match"]
    if not isinstance(whole, bool):
        # TRANSLATORS: {what} names the resignation in a message; 'match' is the name of a field of the file: keep it as it is
        raise ProtocolError(_("{what}: 'match' is not true or false").format(what=what))
    after = t.get("after")
    if after is not None and not isinstance(after, dict):
        # TRANSLATORS: {what} names the resignation in a message; the turn: the one of the resigning player's own last file
        raise ProtocolError(_("{what}: the turn it follows is not a table").format(what=what))
    return Resign(_int(t["game"], _("{what}: the game").format(what=what), 1), whole, after)


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
        raise ProtocolError(_("a message is a table"))
    version = data.get("v")
    if isinstance(version, bool) or version not in READS:
        shown = repr(str(version)[:20])
        if isinstance(version, int) and version > VERSION:
            # TRANSLATORS: the protocol: the rules of the fair dealing that two spites follow; {version} is a number, in quotes
            text = _("a message of protocol version {version}; this spite speaks version {current} (a newer spite wrote it: upgrade spite)")
        else:
            text = _("a message of protocol version {version}; this spite speaks version {current} (this spite does not read it)")
        raise ProtocolError(text.format(version=shown, current=VERSION))
    optional = {"deal", "turn", "secrets", "resign"} if version >= RESIGN_SINCE else {"deal", "turn", "secrets"}
    t = _table(data, pgettext("part of a dealing message", "the message"), {"v", "match", "seq", "from"}, optional)
    return Message(
        match=group.unb64(t["match"], 16, pgettext("part of a dealing message", "the message's match id")),
        seq=_int(t["seq"], pgettext("part of a dealing message", "the message number"), 1),
        sender=_int(t["from"], pgettext("part of a dealing message", "the message's sender"), 0, 1),
        deal=_deal(t["deal"], pgettext("part of a dealing message", "the deal")) if "deal" in t else None,
        turn=_turn(t["turn"], pgettext("part of a dealing message", "the turn")) if "turn" in t else None,
        secrets=_secrets(t["secrets"], pgettext("part of a dealing message", "the revealed keys")) if "secrets" in t else None,
        version=version,
        resign=_resign(t["resign"], pgettext("part of a dealing message", "the resignation")) if "resign" in t else None,
    )
