"""A Party's state between messages, typed: the deal under way, the outbox; and the party saved as plain data and restored.

The saved form is the one every version of the protocol state has had (docs/protocol.md): a
state written before these types existed reads the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.game import Match
from engine.rules import Ruleset
from pbm.errors import ProtocolError
from pbm.i18n import _, pgettext
from pbm.protocol import group
from pbm.protocol.deck import SEED_SIZE, GameRecord, epoch_key
from pbm.protocol.group import Point, b64s
from pbm.protocol.messages import READS, VERSION, Deal2, Deal3, End, Reveal, parse_deal, parse_end, parse_reveal

if TYPE_CHECKING:
    from pbm.protocol.dealing import Party

# the state's "v" is the protocol version that wrote it; protocol 4 added "their_v" and reads a state of protocol 3 as it is;
# protocol 5 adds "conceded" (only once a player resigned the match) and reads a state of 3 or 4 as it is
SECRETS_VERSION = 2  # 1 listed every scalar; 2 gives one seed per game they derive from


@dataclass(slots=True)
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


@dataclass(slots=True)
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


def export_public(party: Party) -> dict[str, Any]:
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


def export_secrets(party: Party) -> bytes:
    """`party`'s secrets, serialized: per game, the seed its scalars derive from and how many (seal them before they leave memory)."""
    games = {str(g): {"seed": group.b64(party.seeds[g]), "keys": len(k)} for g, k in party.keys.items()}
    return json.dumps({"v": SECRETS_VERSION, "games": games}, sort_keys=True).encode()


def load(party: Party, public: dict[str, Any], secret: bytes, ruleset: Ruleset, sealed: bool = False) -> None:
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
