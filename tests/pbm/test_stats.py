"""The counting behind `spite stats` (pbm/stats.py), fed journal records directly: results, games, ties, resignations, tallies."""

from __future__ import annotations

from pbm.journal import MatchInfo, Resignation, SaveRecord
from pbm.saves import Player
from pbm.stats import MatchSummary, Result, finished, summarize, tally

ME, THEM = Player("Ann", "spite1:ann"), Player("Bob", "spite1:bob")


def chain(match: str, games: list[tuple[int, int | None]], first: int = 1, day: int = 1) -> list[SaveRecord]:
    """The saves of a match whose games are (turns played, the seat that scored 2 points, or None): a deal file (turn 0)
    then one file a turn, the last one of a game carrying its score; seat 0 writes odd files. `first` drops the saves
    before it (a journal that took the match up mid-way)."""
    records, score, seq = [], [0, 0], 0
    for number, (turns, scorer) in enumerate(games, start=1):
        for turn in range(turns + 1):
            seq += 1
            if turn == turns and scorer is not None:
                score[scorer] += 2
            stamp = f"2026-01-{day + number - 1:02d}T10:{turn % 60:02d}:00+00:00"
            records.append(SaveRecord(match, seq, number, turn, f"h{seq}", f"h{seq - 1}", (seq + 1) % 2, (score[0], score[1]), "", stamp))
    return [r for r in records if r.seq >= first]


def info(records: list[SaveRecord], target: int = 4, players: tuple[Player, Player] = (ME, THEM)) -> MatchInfo:
    return MatchInfo(records[0].match, players, target, records[-1], records[0].seq)


def test_a_match_won_at_the_target_counts_its_games_and_points() -> None:
    saves = chain("m1", [(9, 1), (12, 0), (7, 0)])  # Bob wins game 1, Ann games 2 and 3: 4-2, the target
    s = summarize(info(saves), saves, me=0)
    assert (s.result, s.games_won, s.games_lost, s.games_tied) == (Result.WON, 2, 1, 0)
    assert (s.points_for, s.points_against, s.games, s.turns) == (4, 2, 3, 28)
    assert s.days == 2 and s.opponent == "Bob" and s.opponent_key == "spite1:bob"
    seen_by_bob = summarize(info(saves), saves, me=1)
    assert (seen_by_bob.result, seen_by_bob.games_won, seen_by_bob.games_lost) == (Result.LOST, 1, 2)
    assert (seen_by_bob.points_for, seen_by_bob.points_against, seen_by_bob.opponent) == (2, 4, "Ann")


def test_a_game_that_scored_nothing_is_a_tie_once_another_follows_and_in_play_until_then() -> None:
    saves = chain("m1", [(30, None), (5, 1), (8, None)])  # game 1 ran out of stock; game 3 goes on
    s = summarize(info(saves), saves, me=0)
    assert (s.result, s.games_won, s.games_lost, s.games_tied) == (Result.UNFINISHED, 0, 1, 1)
    assert s.games == 3 and s.turns == 43


def test_resigning_a_game_loses_it_once_whether_or_not_it_moved_the_score() -> None:
    saves = chain("m1", [(4, None), (6, 1), (3, None)])  # game 1 resigned by Ann with no points; game 2 resigned by Ann, Bob scored
    resigned = [Resignation(game=1, seat=0, whole_match=False), Resignation(game=2, seat=0, whole_match=False)]
    s = summarize(info(saves), saves, me=0, resignations=resigned)
    assert (s.games_won, s.games_lost, s.games_tied, s.result) == (0, 2, 0, Result.UNFINISHED)  # game 3 goes on


def test_a_match_resigned_is_resigned_by_you_or_by_them_and_its_game_lost_by_who_resigned() -> None:
    saves = chain("m1", [(9, 1), (4, None)])  # Ann resigns the match in game 2, which scored nothing
    mine = summarize(info(saves), saves, me=0, resignations=[Resignation(2, 0, True)])
    assert (mine.result, mine.games_won, mine.games_lost, mine.games_tied) == (Result.RESIGNED, 0, 2, 0)
    theirs = summarize(info(saves), saves, me=1, resignations=[Resignation(2, 0, True)])
    assert (theirs.result, theirs.games_won, theirs.games_lost) == (Result.THEY_RESIGNED, 2, 0)
    assert finished(info(saves), saves[-2], [Resignation(2, 0, True)])


def test_a_target_reached_stands_before_a_resignation() -> None:
    saves = chain("m1", [(9, 0), (9, 0)])  # 4-0: over
    s = summarize(info(saves), saves, me=1, resignations=[Resignation(2, 1, True)])
    assert s.result is Result.LOST


def test_a_match_taken_up_mid_game_counts_only_the_games_whose_start_was_recorded() -> None:
    whole = chain("m1", [(9, 1), (12, 0), (7, 0)])
    saves = [r for r in whole if r.seq >= 15]  # from game 2, turn 4
    s = summarize(info(saves), saves, me=0)
    assert (s.games_won, s.games_lost, s.games_tied) == (1, 0, 0)  # game 3 only; game 1 and 2 began before the journal
    assert (s.points_for, s.points_against, s.games) == (4, 2, 3)  # the match's score and length are known all the same
    from_deal = [r for r in whole if r.seq >= 11]  # from game 2's deal: its start score is known
    assert summarize(info(from_deal), from_deal, me=0).games_won == 2


def test_finished_only_once_the_last_file_after_the_target_is_recorded() -> None:
    saves = chain("m1", [(9, 0), (9, 0)])
    keys = SaveRecord("m1", saves[-1].seq + 1, 2, 9, "keys", saves[-1].hash, 1, saves[-1].score, "", saves[-1].seen_at)
    assert not finished(info(saves), saves[-2])  # the loser still owes their keys of the last game
    assert finished(info([*saves, keys]), saves[-1])
    going = chain("m2", [(9, 0), (3, None)])
    assert not finished(info(going), going[-2])


def _summary(match: str, opponent: Player, result: Result, games: int, turns: int, practice: bool = False, last: str = "") -> MatchSummary:
    """A match's summary with one game won, two lost, 3 points for and 4 against, begun on 1 January."""
    start = "2026-01-01T00:00:00+00:00"
    return MatchSummary(match, opponent.name, opponent.key, practice, result, 1, 2, 0, 3, 4, games, turns, start, last)


def test_tally_counts_per_opponent_key_for_practice_and_in_all() -> None:
    bob_again = Player("Bobby", "spite1:bob")  # the same key under another name: the same opponent, named as lately
    other_bob = Player("Bob", "spite1:another")
    computer = Player("Computer", "spite1:computer")
    counted = tally(
        [
            _summary("a", THEM, Result.WON, 3, 50, last="2026-01-02T00:00:00+00:00"),
            _summary("b", bob_again, Result.THEY_RESIGNED, 3, 60, last="2026-01-05T00:00:00+00:00"),
            _summary("c", THEM, Result.UNFINISHED, 5, 10, last="2026-01-03T00:00:00+00:00"),
            _summary("d", other_bob, Result.LOST, 1, 9, last="2026-01-04T00:00:00+00:00"),
            _summary("e", computer, Result.RESIGNED, 2, 9, practice=True, last="2026-01-04T00:00:00+00:00"),
            _summary("f", computer, Result.WON, 2, 19, practice=True, last="2026-01-01T00:00:00+00:00"),
        ]
    )
    first, second = counted.opponents
    assert (first.opponent, first.opponent_key, first.matches) == ("Bobby", "spite1:bob", 3)
    assert (first.won, first.they_resigned, first.unfinished, first.lost, first.resigned) == (1, 1, 1, 0, 0)
    assert (first.games_won, first.games_lost, first.points_for, first.points_against) == (3, 6, 9, 12)
    assert first.longest is not None and first.longest.match == "c"  # most games, whatever the turns
    assert (second.opponent_key, second.lost, second.longest and second.longest.match) == ("spite1:another", 1, "d")
    practice = counted.practice
    assert practice is not None and (practice.matches, practice.won, practice.resigned) == (2, 1, 1)
    assert practice.longest is not None and practice.longest.match == "f"  # as many games: the more turns
    total = counted.total
    assert (total.matches, total.won, total.lost, total.resigned, total.they_resigned, total.unfinished) == (6, 2, 1, 1, 1, 1)
    assert total.longest is not None and total.longest.match == "c"


def test_tally_of_nothing() -> None:
    counted = tally([])
    assert counted.opponents == () and counted.practice is None
    assert counted.total.matches == 0 and counted.total.longest is None
