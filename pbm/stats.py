"""Counting a player's matches for ``spite stats``: pure functions over what the journal recorded, and the two that read it.

What every number means is in docs/stats.md. In short: a game is won or lost by the score it moved (the winner scores the
cards left in the loser's pay-off pile, always at least one); a game resigned without a score is lost by the one who
resigned; a game that moved no score and that another game followed is a tie (the stock ran out, RULES R8).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from pbm.journal import Journal, MatchInfo, Resignation, SaveRecord


class Result(enum.StrEnum):
    """How a match stands for the player: won or lost at the target score, resigned by either side, or not over yet."""

    WON = "won"  # the player reached the target score
    LOST = "lost"  # the opponent reached the target score
    RESIGNED = "resigned"  # the player resigned the match
    THEY_RESIGNED = "they_resigned"  # the opponent resigned the match
    UNFINISHED = "unfinished"


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """One match as the player's journal tells it: the result, the games won, lost and tied, the points, and its length."""

    match: str
    opponent: str  # the opponent's name as pinned
    opponent_key: str  # their pinned public key ("" while an open invitation is unanswered)
    practice: bool
    result: Result
    games_won: int
    games_lost: int
    games_tied: int
    points_for: int  # the player's match score
    points_against: int  # the opponent's
    games: int  # games begun: the number of the latest game recorded
    turns: int  # turns played in the games recorded here (each turn is one file)
    started: str  # when the first file recorded here was seen (ISO 8601, UTC)
    last: str  # when the latest was

    @property
    def days(self) -> int:
        """Whole days from the first file recorded to the latest (0 for a match played within 24 hours)."""
        try:
            return max(0, (datetime.fromisoformat(self.last) - datetime.fromisoformat(self.started)).days)
        except ValueError:
            return 0

    @property
    def length(self) -> tuple[int, int, int]:
        """What "longest" compares: games begun, then turns, then days."""
        return (self.games, self.turns, self.days)


@dataclass(frozen=True, slots=True)
class Tally:
    """The matches against one opponent (one pinned key), or the practice matches, or all of them, counted."""

    opponent: str  # the name ("" for the total)
    opponent_key: str  # "" for practice, the total, and an opponent who never joined
    practice: bool
    matches: int
    won: int
    lost: int
    resigned: int
    they_resigned: int
    unfinished: int
    games_won: int
    games_lost: int
    games_tied: int
    points_for: int
    points_against: int
    longest: MatchSummary | None  # the most games begun, then the most turns, then the most days; None without a match


@dataclass(frozen=True, slots=True)
class Stats:
    """Every tally: one per opponent (most matches first), the practice matches (if any), and the total of all."""

    opponents: tuple[Tally, ...]
    practice: Tally | None
    total: Tally


def summarize(
    info: MatchInfo, saves: Sequence[SaveRecord], me: int, resignations: Sequence[Resignation] = (), practice: bool = False
) -> MatchSummary:
    """The summary of one match for the player in seat `me`, from its saves as recorded (chain order) and its resignations."""
    them = 1 - me
    by_game: dict[int, list[SaveRecord]] = {}
    for save in sorted(saves, key=lambda s: s.seq):
        by_game.setdefault(save.game, []).append(save)
    latest_game = max(by_game, default=info.latest.game)
    won = lost = tied = 0
    for number, records in by_game.items():
        winner = _game_winner(number, records, resignations, followed=number < latest_game)
        if winner is None:
            continue
        if winner == "tie":
            tied += 1
        elif winner == me:
            won += 1
        else:
            lost += 1
    score = info.score
    whole = next((r for r in resignations if r.whole_match), None)
    if whole is not None and max(score) < info.target:  # resigned before either reached the target (the journal calls it over)
        result = Result.RESIGNED if whole.seat == me else Result.THEY_RESIGNED
    elif info.over and max(score) >= info.target:
        result = Result.WON if score[me] >= info.target else Result.LOST
    else:
        result = Result.UNFINISHED
    opponent = info.players[them]
    ordered = sorted(saves, key=lambda s: s.seq)
    return MatchSummary(
        match=info.match,
        opponent=opponent.name,
        opponent_key=opponent.key,
        practice=practice,
        result=result,
        games_won=won,
        games_lost=lost,
        games_tied=tied,
        points_for=score[me],
        points_against=score[them],
        games=latest_game,
        turns=sum(max(s.turn for s in records) for records in by_game.values()),
        started=ordered[0].seen_at if ordered else info.latest.seen_at,
        last=info.latest.seen_at,
    )


def _game_winner(number: int, records: Sequence[SaveRecord], resignations: Sequence[Resignation], followed: bool) -> int | str | None:
    """The seat that won game `number`, "tie", or None while it is in play or its start was not recorded here.

    `records` are the game's saves in chain order; `followed`: a later game was recorded, so this one ended.
    """
    first, last = records[0], records[-1]
    if first.turn != 0:  # the journal took the match up mid-game: the score before this game is not known
        return None
    moved = [seat for seat in (0, 1) if last.score[seat] > first.score[seat]]
    if moved:
        return moved[0]
    resigned = next((r for r in resignations if r.game == number), None)
    if resigned is not None:
        return 1 - resigned.seat
    return "tie" if followed else None


def finished(info: MatchInfo, before_latest: SaveRecord | None, resignations: Sequence[Resignation] = ()) -> bool:
    """Whether nothing more is to come in the match: it was resigned, or it is over and its last file (the loser's keys of
    the last game, the audit) is recorded too. `before_latest` is the save before the latest, if recorded."""
    if any(r.whole_match for r in resignations):
        return True
    if not info.over:
        return False
    return before_latest is None or max(before_latest.score) >= info.target  # the file that reached the target has its answer


def tally(summaries: Iterable[MatchSummary]) -> Stats:
    """The summaries counted per opponent (by pinned key; by name for one who never joined), for practice, and in all."""
    groups: dict[tuple[bool, str], list[MatchSummary]] = {}
    every = list(summaries)
    for s in every:
        key = (True, "") if s.practice else (False, s.opponent_key or f"name:{s.opponent}")
        groups.setdefault(key, []).append(s)
    practice = groups.pop((True, ""), None)
    opponents = [_count(_newest(ms).opponent, _newest(ms).opponent_key, False, ms) for ms in groups.values()]
    opponents.sort(key=lambda t: (-t.matches, t.opponent.casefold(), t.opponent_key))
    return Stats(
        opponents=tuple(opponents),
        practice=_count(_newest(practice).opponent, "", True, practice) if practice else None,
        total=_count("", "", False, every),
    )


def _newest(matches: Sequence[MatchSummary]) -> MatchSummary:
    """The most recently active of `matches` (its opponent's name names the tally: a key may have had other names)."""
    return max(matches, key=lambda m: m.last)


def _count(opponent: str, key: str, practice: bool, matches: Sequence[MatchSummary]) -> Tally:
    """One tally of `matches`."""

    def results(result: Result) -> int:
        return sum(m.result is result for m in matches)

    return Tally(
        opponent=opponent,
        opponent_key=key,
        practice=practice,
        matches=len(matches),
        won=results(Result.WON),
        lost=results(Result.LOST),
        resigned=results(Result.RESIGNED),
        they_resigned=results(Result.THEY_RESIGNED),
        unfinished=results(Result.UNFINISHED),
        games_won=sum(m.games_won for m in matches),
        games_lost=sum(m.games_lost for m in matches),
        games_tied=sum(m.games_tied for m in matches),
        points_for=sum(m.points_for for m in matches),
        points_against=sum(m.points_against for m in matches),
        longest=max(matches, key=lambda m: m.length, default=None),
    )


def from_journal(journal: Journal, key: str, practice: Callable[[MatchInfo], bool]) -> list[MatchSummary]:
    """The summary of every match of the player whose public key text is `key` that `journal` recorded, the most recent first.

    `practice` says which matches are against the computer. It only reads the journal.
    """
    found = []
    for info in journal.matches():
        me = info.seat_of(key)
        if me is None:
            continue
        found.append(summarize(info, journal.saves(info.match), me, journal.resignations(info.match), practice(info)))
    return found


def finished_matches(journal: Journal) -> set[str]:
    """The matches of `journal` that are :func:`finished`."""
    done = set()
    for info in journal.matches():
        if finished(info, journal.at(info.match, info.latest.seq - 1), journal.resignations(info.match)):
            done.add(info.match)
    return done
