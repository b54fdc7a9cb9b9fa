"""A Party's state, typed: the deal under way, the outbox, what a received message staged; the facts every step reads
from that state; and the party saved as plain data and restored.

:class:`PartyState` is what the protocol's steps need of a party (pbm/protocol/dealsteps.py, incoming.py, outgoing.py
take one); :class:`pbm.protocol.dealing.Party` is one, and holds those steps. The saved form is the one every version
of the protocol state has had (docs/protocol.md): a state written before these types existed reads the same.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Set as AbstractSet
from dataclasses import field
from typing import Any

from engine._frozen import mutable_value
from engine.cards import Card
from engine.game import Match
from engine.rules import Ruleset
from pbm.errors import CardError, ProtocolError
from pbm.i18n import _, pgettext
from pbm.protocol import group
from pbm.protocol.deck import SEED_SIZE, GameRecord, HandCard, epoch_key
from pbm.protocol.group import Point, Rng, Scalar, b64s
from pbm.protocol.messages import (
    READS,
    VERSION,
    Deal2,
    Deal3,
    End,
    Locked,
    Message,
    Reveal,
    RevealKind,
    parse_deal,
    parse_end,
    parse_reveal,
)
from pbm.protocol.proofs import Context
from pbm.protocol.shuffle import ShuffleContext

# the state's "v" is the protocol version that wrote it; protocol 4 added "their_v" and reads a state of protocol 3 as it is;
# protocol 5 adds "conceded" (only once a player resigned the match) and reads a state of 3 or 4 as it is
SECRETS_VERSION = 2  # 1 listed every scalar; 2 gives one seed per game they derive from


def starter_of(game: int) -> int:
    """Who starts game `game` (from 1): player 0 starts game 1, then they take turns (R9)."""
    return (game - 1) % 2


@mutable_value
class Dealing:
    """The next game's deal while it is under way: the last step made or taken in (1 to 3), and who shuffled first.

    After step 2 the second shuffler keeps the game as dealt so far and the first's pay-off top under its layer;
    after step 3 both know each player's pay-off top card.
    """

    game: int
    step: int
    first: int
    record: GameRecord | None = None
    top: Point | None = None
    tops: dict[int, int] | None = None

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "step": self.step, "first": self.first}
        if self.record is not None and self.top is not None:
            out["record"] = self.record.to_data()
            out["top"] = group.b64(self.top)
        if self.tops is not None:
            out["tops"] = [self.tops[0], self.tops[1]]
        return out

    @classmethod
    def from_data(cls, data: dict[str, Any], checked: bool = True) -> Dealing:
        """The deal `to_data` wrote (its points checked group elements unless `checked` is false, as GameRecord.from_data)."""
        d = cls(int(data["game"]), int(data["step"]), int(data["first"]))
        if "record" in data:
            d.record = GameRecord.from_data(data["record"], checked)
            if checked:
                d.top = group.point(data["top"], pgettext("part of a saved protocol state", "the dealt pay-off top"))
            else:
                # TRANSLATORS: the top card of a pay-off pile, as the deal left it, in the saved state
                d.top = group.unb64(data["top"], group.SIZE, pgettext("part of a saved protocol state", "the top"))
        if "tops" in data:
            d.tops = {0: int(data["tops"][0]), 1: int(data["tops"][1])}
        return d


@mutable_value
class Outbox:
    """What my next message carries that is made before it is sent: a deal step answered, my turn's reveals and its end."""

    deal: Deal2 | Deal3 | None = None
    reveals: list[Reveal] = field(default_factory=list)
    end: End | None = None
    end_turn: int = 0  # the turn `end` ends

    def to_data(self) -> dict[str, Any]:
        """As a state saves it: the message's own tables, the end with the number of its turn."""
        data: dict[str, Any] = {}
        if self.deal is not None:
            data["deal"] = self.deal.to_data()
        if self.reveals:
            data["reveals"] = [r.to_data() for r in self.reveals]
        if self.end is not None:
            data["end"] = {"turn": self.end_turn, **self.end.to_data()}
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Outbox:
        """The outbox a saved state holds; raises ProtocolError if it is not one a party writes."""
        out = cls()
        if "deal" in data:
            deal = parse_deal(data["deal"], pgettext("part of a saved protocol state", "the saved deal step"))
            if not isinstance(deal, Deal2 | Deal3):
                # TRANSLATORS: the outbox: what the player's next message will carry, kept in the save until it is sent
                raise ProtocolError(_("the saved outbox holds a deal step 1, which is never kept to send"))
            out.deal = deal
        saved_reveal = pgettext("part of a saved protocol state", "a saved reveal")
        out.reveals = [parse_reveal(r, saved_reveal) for r in data.get("reveals", [])]
        if "end" in data:
            end = dict(data["end"])
            out.end_turn = int(end.pop("turn"))
            out.end = parse_end(end, pgettext("part of a saved protocol state", "the saved end of turn"))
        return out


@mutable_value
class CheckedEnd:
    """The other player's end of turn once its proofs checked out: what it changes, waiting for the engine to take it in."""

    keys: list[Point]  # the mover's new public keys (a shuffle's, a merge's)
    stock: list[Point]
    epoch: int  # the mover's stock key after this turn
    shuffled: list[bool]
    last_shuffle: list[int]
    merged: bool
    draw: list[HandCard]  # my draw, opened only by finish_checks
    pools: list[Locked]  # the mover's locks on the stacks it completed, checked by finish_checks
    seq: int
    seen: set[int]  # cards this message turns up: a draw may not repeat one
    checked: bool = False


@mutable_value
class Staged:
    """What a received turn told this party, checked, waiting for the engine's dealer calls."""

    reveals: list[tuple[RevealKind, int, int]] = field(default_factory=list)  # (kind, hand slot or -1, card index)
    end: CheckedEnd | None = None
    consumed_end: bool = False
    ends_game: bool = False  # the turn ends its game, as the protocol reckons it on receipt
    message: Message | None = None


@mutable_value
class Snapshot:
    """What a message can change, as :meth:`PartyState.snapshot` took it."""

    game: GameRecord | None
    dealing: Dealing | None
    outbox: Outbox
    keys: dict[int, list[Scalar]]
    seeds: dict[int, bytes]
    theirs: dict[int, list[Scalar]]
    deal_ready: bool
    seq: int
    record: Match
    sent_secrets: set[int]
    their_version: int


class PartyState:
    """One player's side of the protocol as data: its secrets, its record of the game and of the match, the deal under way,
    its outbox, and what a received message staged; with the facts every step of the protocol reads from them.

    The underscored facts are what a test's modified party overrides (a :class:`pbm.protocol.dealing.Party` subclass).
    """

    def __init__(self, me: int, match: bytes, ruleset: Ruleset, rng: Rng) -> None:
        if me not in (0, 1):
            raise ValueError("a player is 0 (who created the match) or 1")
        if len(match) != 16:
            raise ValueError("a match id is 16 bytes")
        self.me = me
        self.match = match
        self.ruleset = ruleset
        self.rng: Rng = rng
        self.seq = 0  # messages of the match so far
        self.record = Match(ruleset)
        self.game: GameRecord | None = None
        self.dealing: Dealing | None = None  # the next game's deal while it is under way
        self.keys: dict[int, list[Scalar]] = {}  # my secret scalars, by game
        self.seeds: dict[int, bytes] = {}  # the seed each game's scalars derive from (pbm.protocol.deck.epoch_key)
        self.theirs: dict[int, list[Scalar]] = {}  # the opponent's revealed scalars, by game
        self.sent_secrets: set[int] = set()
        self.their_version = READS[0]  # the protocol version of the other's latest message: none older is taken after it
        self.outbox = Outbox()
        self._staged = Staged()
        self._deal_ready = False
        # only looked at (spite show, verify): every check runs, but no answer is made (a deal step's shuffle or strips),
        # so the party cannot send nor be saved (the opponent's points of a deal it answered are not stripped)
        self.looking = False

    @property
    def other(self) -> int:
        return 1 - self.me

    @property
    def deal_ready(self) -> bool:
        """Whether a new game is dealt and waits for the engine's :meth:`~pbm.protocol.dealing.Party.deal`."""
        return self._deal_ready

    def _table(self, game: int) -> dict[Point, int]:
        return group.card_table(self.match, game, self.ruleset.deck_size)

    def _ctx(self, turn: int, slot: str, game: int | None = None) -> Context:
        """The context of a proof I make now: it travels in my next message, of the current protocol version."""
        return Context(self.match, game if game is not None else self._g().number, turn, slot, VERSION)

    def _their_ctx(self, turn: int, slot: str, game: int | None = None) -> Context:
        """The context of a proof in the message under check: checked by the rules of that message's protocol version."""
        msg = self._staged.message
        return dataclasses.replace(self._ctx(turn, slot, game), version=msg.version if msg is not None else VERSION)

    def _sctx(self, turn: int, name: str, seq: int, game: int | None = None) -> ShuffleContext:
        return ShuffleContext(self.match, game if game is not None else self._g().number, turn, seq, name)

    def _g(self) -> GameRecord:
        if self.game is None:
            raise ProtocolError(_("no game has been dealt yet"))
        return self.game

    def _my_key(self, epoch: int) -> Scalar:
        return self.keys[self._g().number][epoch]

    def _new_key(self, game: int) -> tuple[int, Scalar, Point]:
        """A fresh secret scalar for `game`: its epoch number, the scalar and its public key."""
        if game not in self.seeds:
            self.seeds[game] = self.rng(SEED_SIZE)
        keys = self.keys.setdefault(game, [])
        keys.append(epoch_key(self.seeds[game], game, len(keys)))
        return len(keys) - 1, keys[-1], group.base(keys[-1])

    def _check_new(self, card: int, what: str, extra: AbstractSet[int] = frozenset()) -> None:
        """A card that turns up or is drawn must not be face up already, nor in my hand."""
        g = self._g()
        mine = {h.card for h in g.hands[self.me]}
        if card in g.face_up or card in mine or card in extra:
            # TRANSLATORS: {what} names a card that turned up, e.g. "the reveal of hand card 2 of player 1"; {card} is a card, e.g. 7h
            text = _("game {game}, turn {turn}: {what} is {card}, a card already in play elsewhere")
            raise CardError(text.format(game=g.number, turn=g.turn, what=what, card=Card.from_index(card)))

    def _known(self, hand: HandCard) -> Card:
        """One of my own hand cards, which I know."""
        if hand.card is None:
            raise ProtocolError(_("game {game}: a card of your hand is not known").format(game=self._g().number))
        return Card.from_index(hand.card)

    def _decode(self, pt: Point, what: str, game: int | None = None) -> int:
        index = self._table(game or self._g().number).get(pt)
        if index is None:
            # TRANSLATORS: {what} names a card that turned up, e.g. "turn 5: your draw 2": it decodes to no card of the deck
            raise CardError(_("{what} is no card").format(what=what))
        return index

    def snapshot(self) -> Snapshot:
        """What a message can change, to put back with :meth:`rollback` if it is refused."""
        return Snapshot(
            copy.deepcopy(self.game),
            copy.deepcopy(self.dealing),
            dataclasses.replace(self.outbox, reveals=list(self.outbox.reveals)),  # the rest of it is frozen
            {g: list(k) for g, k in self.keys.items()},
            dict(self.seeds),
            dict(self.theirs),
            self._deal_ready,
            self.seq,
            self.record,
            set(self.sent_secrets),
            self.their_version,
        )

    def rollback(self, saved: Snapshot) -> None:
        """Put back what :meth:`snapshot` took, and forget what the refused message staged."""
        self.game, self.dealing, self.outbox, self.keys, self.seeds = saved.game, saved.dealing, saved.outbox, saved.keys, saved.seeds
        self.theirs, self._deal_ready, self.seq, self.record = saved.theirs, saved.deal_ready, saved.seq, saved.record
        self.sent_secrets, self.their_version = saved.sent_secrets, saved.their_version
        self._staged = Staged()


def export_public(party: PartyState) -> dict[str, Any]:
    """`party`'s protocol state as plain TOML-compatible data (no secret in it)."""
    data: dict[str, Any] = {
        "v": VERSION,
        "me": party.me,
        "match": group.b64(party.match),
        "seq": party.seq,
        "scores": list(party.record.scores),
        "games": party.record.games,
        **({"conceded": party.record.conceded} if party.record.conceded is not None else {}),
        "theirs": {str(g): b64s(k) for g, k in party.theirs.items()},
        "sent_secrets": sorted(party.sent_secrets),
        "their_v": party.their_version,
        "deal_ready": party.deal_ready,
        "outbox": party.outbox.to_data(),
    }
    if party.game is not None:
        data["game"] = party.game.to_data()
    if party.dealing is not None:
        data["dealing"] = party.dealing.to_data()
    result: dict[str, Any] = json.loads(json.dumps(data))  # a deep copy of plain data
    return result


def export_secrets(party: PartyState) -> bytes:
    """`party`'s secrets, serialized: per game, the seed its scalars derive from and how many (seal them before they leave memory)."""
    games = {str(g): {"seed": group.b64(party.seeds[g]), "keys": len(k)} for g, k in party.keys.items()}
    return json.dumps({"v": SECRETS_VERSION, "games": games}, sort_keys=True).encode()


def load(party: PartyState, public: dict[str, Any], secret: bytes, ruleset: Ruleset, sealed: bool = False) -> None:
    """Put into a fresh `party` the state that :func:`export_public` and :func:`export_secrets` describe.

    `sealed`: the state is this player's own, as their client saved it and sealed it (pbm/client/side.py checks the seal
    first), so the points of its game are not checked again as group elements: they were checked when they came in.
    """
    try:
        party.seq = int(public["seq"])
        conceded = public.get("conceded")  # protocol 5: the seat that resigned the match
        scores = (int(public["scores"][0]), int(public["scores"][1]))
        party.record = Match(ruleset, scores, int(public["games"]), None if conceded is None else int(conceded))
        revealed = pgettext("part of a saved protocol state", "a revealed key")
        party.theirs = {int(g): [group.scalar(k, revealed) for k in ks] for g, ks in public["theirs"].items()}
        party.sent_secrets = {int(g) for g in public["sent_secrets"]}
        party.their_version = int(public.get("their_v", READS[0]))  # a state of protocol 3 does not say: its messages were 3
        party._deal_ready = bool(public["deal_ready"])
        party.outbox = Outbox.from_data(public["outbox"])
        secrets = json.loads(secret)
        if secrets.get("v") != SECRETS_VERSION:
            # TRANSLATORS: the saved secrets: the player's own keys of the fair dealing, sealed in the save; {version} is in quotes
            text = _("saved secrets of version {version}; this spite reads version {current}")
            raise ProtocolError(text.format(version=repr(secrets.get("v")), current=SECRETS_VERSION))
        for g, mine in secrets["games"].items():
            party.seeds[int(g)] = group.unb64(mine["seed"], SEED_SIZE, pgettext("part of a saved protocol state", "a key seed"))
            party.keys[int(g)] = [epoch_key(party.seeds[int(g)], int(g), e) for e in range(int(mine["keys"]))]
        if "game" in public:
            game = party.game = GameRecord.from_data(public["game"], checked=not sealed)
            table = party._table(game.number)
            for h in game.hands[party.me]:
                h.card = table.get(group.mul(group.invert(party.keys[game.number][h.epoch]), h.point))
                if h.card is None:
                    raise ProtocolError(_("a hand card of the saved game does not open with the saved keys"))
        if "dealing" in public:
            party.dealing = Dealing.from_data(public["dealing"], checked=not sealed)
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        # TRANSLATORS: the protocol state: a player's record of the fair dealing, kept in the save; {error} is Python's own (English)
        raise ProtocolError(_("the saved protocol state is incomplete or malformed ({error})").format(error=e)) from e
