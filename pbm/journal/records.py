"""What the journal answers with: the status of a save offered to it, and what it remembers of saves, matches,
resignations and files that came in by mail. Values only: pbm/journal/journal.py reads and writes them."""

from __future__ import annotations

import enum

from engine._frozen import frozen_value
from pbm.identity import PublicKey
from pbm.saves import Player


class Status(enum.Enum):
    """What the journal knows of a save offered to it."""

    NEW_MATCH = "new match"  # the first save of a match never seen here: its keys get pinned
    UNKNOWN_MATCH = "unknown match"  # a later save of a match never seen here (a new machine): trust the file's chain
    CONTINUES = "continues"  # the next save after the latest known one
    LATEST = "latest"  # the latest known save itself, seen again
    CROSSING = "crossing"  # the other player's resignation in place of this player's unanswered file(s), which it makes void
    EARLIER = "earlier"  # a save recorded before the latest one: looked at again (spite show, verify), never answered


@frozen_value
class SaveRecord:
    """One save as the journal remembers it."""

    match: str
    seq: int
    game: int
    turn: int
    hash: str
    prev: str
    signer: int
    score: tuple[int, int]
    path: str
    seen_at: str


@frozen_value
class Resignation:
    """A game (with `whole_match`, the match) that the player in `seat` resigned."""

    game: int
    seat: int
    whole_match: bool


@frozen_value
class Received:
    """A save (or turn code) that came in by mail: where it is kept, who sent it, and when."""

    match: str
    seq: int
    path: str
    opponent: str
    sender: str
    taken_at: str


@frozen_value
class Check:
    """The journal's answer for a save: its status, the latest save known before it, and the players newly pinned."""

    status: Status
    latest: SaveRecord | None = None
    pinned: tuple[Player, ...] = ()  # keys pinned by recording this save (trust on first use): show their fingerprints
    void: tuple[str, ...] = ()  # CROSSING: the hashes of this player's files the save takes the place of, void once it is recorded

    @property
    def first_seen(self) -> bool:
        """Whether this match is new to the journal (its keys are trusted on first use)."""
        return self.status in (Status.NEW_MATCH, Status.UNKNOWN_MATCH)


@frozen_value
class MatchInfo:
    """A match for ``spite games``: its players (pinned keys), target score and latest save."""

    match: str
    players: tuple[Player, Player]
    target: int
    latest: SaveRecord
    first: int = 1  # the seq of the first save of the match recorded here: above 1 on a machine that took it up mid-way
    resignations: tuple[Resignation, ...] = ()

    @property
    def score(self) -> tuple[int, int]:
        return self.latest.score

    @property
    def conceded(self) -> int | None:
        """The seat that resigned the whole match, if one did."""
        return next((r.seat for r in self.resignations if r.whole_match), None)

    @property
    def over(self) -> bool:
        return max(self.score) >= self.target or self.conceded is not None

    @property
    def waiting_for(self) -> int | None:
        """The seat to write the next save: the one that did not write the latest (None once the match is over)."""
        return None if self.over else 1 - self.latest.signer

    def seat_of(self, key: PublicKey | str) -> int | None:
        """The seat whose pinned key is `key`, if any."""
        text = key if isinstance(key, str) else key.text
        return next((seat for seat, p in enumerate(self.players) if p.key == text), None)
