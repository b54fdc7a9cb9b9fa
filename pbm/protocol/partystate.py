"""Saving and restoring a Party: its public protocol state as plain data, its secret scalars as bytes to seal.

A mixin of :class:`pbm.protocol.dealing.Party`.
"""

from __future__ import annotations

import json
from typing import Any, Self

from engine.game import Match
from engine.rules import G4A, Ruleset
from pbm.errors import ProtocolError
from pbm.protocol import group
from pbm.protocol.deck import SEED_SIZE, GameRecord, epoch_key
from pbm.protocol.group import Rng, b64s
from pbm.protocol.messages import READS, VERSION

# the state's "v" is the protocol version that wrote it; protocol 4 added "their_v" and reads a state of protocol 3 as it is
SECRETS_VERSION = 2  # 1 listed every scalar; 2 gives one seed per game they derive from


class Persistence:
    """export_public / export_secrets / restore."""

    def export_public(self) -> dict[str, Any]:
        """This party's protocol state as plain TOML-compatible data (no secret in it)."""
        if self._staged.reveals or (self._staged.end is not None and not self._staged.consumed_end):
            raise ProtocolError("a received message is half played through; settle it before saving")
        data: dict[str, Any] = {
            "v": VERSION,
            "me": self.me,
            "match": group.b64(self.match),
            "seq": self.seq,
            "scores": list(self.record.scores),
            "games": self.record.games,
            "theirs": {str(g): b64s(k) for g, k in self.theirs.items()},
            "sent_secrets": sorted(self.sent_secrets),
            "their_v": self.their_version,
            "deal_ready": self._deal_ready,
            "outbox": self.outbox,
        }
        if self.game is not None:
            data["game"] = self.game.to_data()
        if self.dealing is not None:
            data["dealing"] = _dealing_data(self.dealing)
        return json.loads(json.dumps(data))  # a deep copy of plain data

    def export_secrets(self) -> bytes:
        """My secrets, serialized: per game, the seed my scalars derive from and how many (seal them before they leave memory)."""
        games = {str(g): {"seed": group.b64(self.seeds[g]), "keys": len(k)} for g, k in self.keys.items()}
        return json.dumps({"v": SECRETS_VERSION, "games": games}, sort_keys=True).encode()

    @classmethod
    def restore(cls, public: dict[str, Any], secret: bytes, ruleset: Ruleset = G4A, rng: Rng | None = None) -> Self:
        """The party that :meth:`export_public` and :meth:`export_secrets` describe."""
        try:
            match = group.unb64(public["match"], 16, "the match id")
            party = cls(int(public["me"]), match, ruleset, rng)
            party.seq = int(public["seq"])
            party.record = Match(ruleset, (int(public["scores"][0]), int(public["scores"][1])), int(public["games"]))
            party.theirs = {int(g): [group.scalar(k, "a revealed key") for k in ks] for g, ks in public["theirs"].items()}
            party.sent_secrets = {int(g) for g in public["sent_secrets"]}
            party.their_version = int(public.get("their_v", READS[0]))  # a state of protocol 3 does not say: its messages were 3
            party._deal_ready = bool(public["deal_ready"])
            party.outbox = json.loads(json.dumps(public["outbox"]))
            secrets = json.loads(secret)
            if secrets.get("v") != SECRETS_VERSION:
                raise ProtocolError(f"saved secrets of version {secrets.get('v')!r}; this spite reads version {SECRETS_VERSION}")
            for g, mine in secrets["games"].items():
                party.seeds[int(g)] = group.unb64(mine["seed"], SEED_SIZE, "a key seed")
                party.keys[int(g)] = [epoch_key(party.seeds[int(g)], int(g), e) for e in range(int(mine["keys"]))]
            if "game" in public:
                party.game = GameRecord.from_data(public["game"])
                table = party._table(party.game.number)
                for h in party.game.hands[party.me]:
                    h.card = table.get(group.mul(group.invert(party.keys[party.game.number][h.epoch]), h.point))
                    if h.card is None:
                        raise ProtocolError("a hand card of the saved game does not open with the saved keys")
            if "dealing" in public:
                party.dealing = _dealing_from(public["dealing"])
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise ProtocolError(f"the saved protocol state is incomplete or malformed ({e})") from e
        return party


def _dealing_data(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"game": d["game"], "step": d["step"], "first": d["first"]}
    if "record" in d:
        out["record"] = d["record"].to_data()
        out["top"] = group.b64(d["top"])
    if "tops" in d:
        out["tops"] = [d["tops"][0], d["tops"][1]]
    return out


def _dealing_from(data: dict[str, Any]) -> dict[str, Any]:
    d: dict[str, Any] = {"game": int(data["game"]), "step": int(data["step"]), "first": int(data["first"])}
    if "record" in data:
        d["record"] = GameRecord.from_data(data["record"])
        d["top"] = group.point(data["top"], "the dealt pay-off top")
    if "tops" in data:
        d["tops"] = {0: int(data["tops"][0]), 1: int(data["tops"][1])}
    return d
