"""`spite` end to end: two players, two spite homes, files sent back and forth until the match is over."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from cli_helpers import (
    Player,
    Step,
    answer,
    assert_board_agrees,
    assert_refused,
    files,
    hand_rows,
    invite,
    make_player,
    new_file,
    play_match,
    scratch,
)

from engine.cards import RANK_TEXT, RANKS, Card
from pbm import saves
from pbm.render import card_text

VIEW_FIELDS = ("schema", "match", "game", "turn", "to_move", "earlier", "game_over", "outcome", "match_over")
VIEW_FIELDS += ("scores", "target", "history")
TABLE_FIELDS = ("next_turn", "hand", "payoff", "side", "opponent", "center", "stock", "shuffling_in")


@dataclass
class Played:
    """A whole match as two players played it, file by file."""

    alice: Player
    bob: Player
    folder: Path
    steps: list[Step]
    payoff: int
    target: int

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.alice, self.bob)

    def other(self, player: Player) -> Player:
        return self.bob if player is self.alice else self.alice


def _play(root: Path, payoff: int, target: int) -> Played:
    alice, bob, invitation = invite(root, payoff, target)
    steps = play_match(alice, bob, invitation)
    return Played(alice, bob, invitation.parent, steps, payoff, target)


@pytest.fixture(
    scope="module",
    params=[pytest.param((3, 5), id="payoff3-target5"), pytest.param((5, 10), id="payoff5-target10", marks=pytest.mark.slow)],
)
def short_match(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """A whole match of --auto turns: 20-70 files with pay-off piles of 3 (4-18 s here, with the machine busy or not), ~90 with 5 (slow)."""
    with scratch(tmp_path_factory.mktemp("short")) as root:
        yield _play(root, *request.param)


# --- the match as a whole ---


def test_every_file_verifies_for_the_receiver_and_for_its_writer(short_match: Played) -> None:
    assert len(short_match.steps) >= 6  # two games won on their first turns: the invitation, a deal step, a turn, keys, twice
    for step in short_match.steps:
        writer_verify = next(r for r in step.runs[step.writer.name] if r.args[0] == "verify")
        reader_verify = next(r for r in step.runs[step.reader.name] if r.args[0] == "verify")
        assert writer_verify.exit_code == 0 and "moves:     your own file" in writer_verify.stdout
        assert reader_verify.exit_code == 0 and reader_verify.stdout.rstrip().endswith("OK")
        signer = step.writer.name
        assert f"signature: good, by {signer}" in reader_verify.stdout
        assert "proofs:    every shuffle, card reveal and draw proof checks out" in reader_verify.stdout


def test_both_players_see_the_same_match_state_at_every_file(short_match: Played) -> None:
    last_game, last_turn = 1, 0
    for step in short_match.steps:
        a, b = step.views["Alice"], step.views["Bob"]
        assert {k: a[k] for k in VIEW_FIELDS} == {k: b[k] for k in VIEW_FIELDS}, step.path
        assert len(a["history"]) == a["turn"] and all(t["by"] in ("Alice", "Bob") and t["moves"] for t in a["history"]), step.path
        bob = "Opponent" if step is short_match.steps[0] else "Bob"  # the invitation names nobody; Bob's name comes with his answer
        assert (a["you"], b["you"]) == ("Alice", bob)
        assert a["to_move"] == (None if a["match_over"] else b["you"] if step.reader.name == "Bob" else "Alice"), step.path
        assert set(a["scores"]) == {"Alice", bob}
        assert (a["game"], a["turn"]) >= (last_game, last_turn if a["game"] == last_game else 0), step.path
        last_game, last_turn = a["game"], a["turn"]
        assert saves.read(step.path).seq == short_match.steps.index(step) + 1


def test_every_file_of_the_match_has_a_name_of_its_own_the_same_on_both_machines(short_match: Played) -> None:
    """The files share one folder here, so a name taken twice would show as '-2': each is the name any machine gives it."""
    names = [step.path.name for step in short_match.steps]
    assert len(set(names)) == len(names)
    for step in short_match.steps[1:]:  # the invitation was named with -o
        assert step.path.name == saves.default_name(saves.read(step.path)), names
    assert names[1].endswith("-g1-t0-deal2.toml") and names[-1].endswith("-keys.toml"), names  # beside g1-t0 and the last turn


def _game_results(steps: list[Step]) -> dict[int, tuple[int, str | None, int]]:
    """Each game's first file showing it over (its index), winner (None for a tie) and points: the loser's pay-off pile (R10)."""
    results: dict[int, tuple[int, str | None, int]] = {}
    for i, step in enumerate(steps):
        a = step.views["Alice"]
        if a["game_over"] and a["game"] not in results:
            mine, theirs = a["payoff"]["count"], a["opponent"]["payoff_count"]
            winner, points = ("Alice", theirs) if mine == 0 else ("Bob", mine) if theirs == 0 else (None, 0)
            results[a["game"]] = (i, winner, points)
    return results


def test_the_match_ends_with_the_right_winner_and_score(short_match: Played) -> None:
    steps = short_match.steps
    results = _game_results(steps)
    assert len(results) >= 2  # one game scores at most the pay-off pile size, less than the target
    for _, winner, points in results.values():
        assert winner is None or 1 <= points <= short_match.payoff
    # every file carries the points of exactly the games over by then
    for i, step in enumerate(steps):
        expected = {"Alice": 0, "Bob": 0}
        for over_at, winner, points in results.values():
            if winner is not None and over_at <= i:
                expected[winner] += points
        shown = {"Bob" if name == "Opponent" else name: score for name, score in step.views["Alice"]["scores"].items()}
        assert shown == expected, step.path.name
    expected = {"Alice": 0, "Bob": 0}
    for _, winner, points in results.values():
        if winner is not None:
            expected[winner] += points
    final = steps[-1].views
    for name in ("Alice", "Bob"):
        assert final[name]["match_over"] and final[name]["game_over"] and final[name]["to_move"] is None
        assert final[name]["scores"] == expected
    winner = max(expected, key=expected.__getitem__)
    loser = "Bob" if winner == "Alice" else "Alice"
    assert expected[winner] >= short_match.target > expected[loser]
    line = f"The match is over: {winner} wins {expected[winner]}–{expected[loser]}."  # the winner's score first
    for player in short_match.players:
        last_play = [r for r in player.runs if r.args[0] == "play"][-1]
        assert line in last_play.stdout, last_play
    # the winning file and the loser's last answer (their keys of the game) show the match over, no earlier file
    over = [s.views["Alice"]["match_over"] for s in steps]
    assert over[-2:] == [True, True] and not any(over[:-2])


def test_games_lists_the_finished_match_for_both_players_with_all(short_match: Played) -> None:
    """Once its last file is recorded the match is finished: `spite games` says it left it out, `--all` lists it."""
    match = short_match.steps[0].views["Alice"]["match"][:8]
    scores = short_match.steps[-1].views["Alice"]["scores"]
    for player in short_match.players:
        other = short_match.other(player)
        listed = player.ok("games").stdout
        assert match not in listed and "1 finished match is not listed: spite games --all lists it" in listed, listed
        run = player.ok("games", "--all")
        row = next(line for line in run.stdout.splitlines() if match in line)
        cells = [c.strip() for c in re.split(r"[│┃|]", row) if c.strip()]
        assert cells[:4] == [match, other.name, f"{scores[player.name]}–{scores[other.name]}", "over"], run
        assert f"{match}  key {other.identity.fingerprint}" in run.stdout, run  # 100 columns: on its line below the table


def test_a_player_who_has_sent_everything_is_told_the_result_and_writes_nothing(short_match: Played) -> None:
    last = short_match.steps[-1]
    before = files(short_match.folder)
    run = last.reader.ok("play", last.path, "--auto")
    assert new_file(before, short_match.folder) is None
    assert "The match is over" in run.stdout and "Wrote" not in run.stdout


# --- what each player may see ---


def _json_forms(hand: list[str]) -> list[str]:
    """A hand list as `show --json` prints it (indent 2, under "hand") and as compact JSON."""
    pretty = json.dumps({"hand": hand}, indent=2)[2:-2]
    return [pretty, json.dumps(hand)]


def _board_form(hand: list[str]) -> list[str]:
    """A hand as the board's "hand" row shows it: sorted by rank, then suit, a card in each box."""
    cards = sorted((Card.parse(c) for c in hand), key=lambda c: (c.rank, c.suit or "", c.copy))
    return [card_text(c).plain for c in cards]


def test_no_output_of_a_player_ever_shows_the_other_players_hand(short_match: Played) -> None:
    checked = 0
    for player in short_match.players:
        other = short_match.other(player)
        own_hands = [sorted(s.views[player.name].get("hand") or ()) for s in short_match.steps]
        seen = "\n".join(run.output for run in player.runs)
        for step in short_match.steps:
            hand = step.views[other.name].get("hand")
            if not hand or len(hand) < 3 or sorted(hand) in own_hands:
                continue  # too short to be told apart from other cards on the table, or a hand the player also held
            for form in _json_forms(hand):
                assert form not in seen, f"{player.name} was shown {other.name}'s hand {hand} of {step.path.name}"
            # on the board, the only hand row is the player's own: never the other's hand at that moment
            rows = [row for run in step.runs[player.name] for row in hand_rows(run.stdout)]
            assert _board_form(hand) not in rows, f"{player.name}'s board of {step.path.name} shows {other.name}'s hand {hand}"
            checked += 1
    assert checked >= len(short_match.steps) // 2


def _one_table(step: Step) -> bool:
    """Whether both players' views of the file are of the same deal: not so, for now, in the files that deal the next game."""
    a, b = step.views["Alice"], step.views["Bob"]
    dealing_next = a["game"] > 1 and a["turn"] == 0
    return "hand" in a and "hand" in b and not dealing_next and (a["game_over"], a["stock"]) == (b["game_over"], b["stock"])


def test_show_json_gives_only_the_opponents_counts(short_match: Played) -> None:
    compared = 0
    for step in short_match.steps:
        for name, view in step.views.items():
            theirs = step.views["Bob" if name == "Alice" else "Alice"]
            if "hand" not in view:
                assert "opponent" not in view
                continue
            assert set(view) == {*VIEW_FIELDS, "you", *TABLE_FIELDS}
            assert set(view["opponent"]) == {"name", "hand_count", "payoff_count", "payoff_top", "side"}  # no hand: its count
            if _one_table(step):
                assert view["opponent"]["hand_count"] == len(theirs["hand"])
                assert view["opponent"]["payoff_count"] == theirs["payoff"]["count"]
                compared += 1
    games = short_match.steps[-1].views["Alice"]["game"]
    assert compared >= 2 * (len(short_match.steps) - 2 - 2 * games)  # all but the deal files of each game


def test_at_turn_0_of_a_game_both_pay_off_piles_are_full(short_match: Played) -> None:
    """No card has been played at turn 0, so a summary with a table there shows both pay-off piles whole."""
    for step in short_match.steps:
        for name, view in step.views.items():
            if "hand" in view and view["turn"] == 0:
                assert (view["payoff"]["count"], view["opponent"]["payoff_count"]) == (short_match.payoff,) * 2, (
                    f"{name}'s show --json of {step.path.name}: {view}"
                )


def test_a_file_that_deals_the_next_game_is_labelled_with_that_game(short_match: Played) -> None:
    """A game once shown over is never shown running again: the file dealing the next game carries the next number."""
    for name in ("Alice", "Bob"):
        over: set[int] = set()
        for step in short_match.steps:
            view = step.views[name]
            if view["game_over"]:
                over.add(view["game"])
            else:
                assert view["game"] not in over, f"{name}'s show --json of {step.path.name}: game {view['game']} is over, yet shown running"


def test_the_board_shows_the_opponents_hand_as_a_count_only(short_match: Played) -> None:
    boards = 0
    for step in short_match.steps:
        for run in step.runs[step.reader.name]:
            if run.args[0] != "play" or "Center" not in run.stdout:
                continue
            me, other = step.views[step.reader.name], step.views[step.writer.name]
            if "opponent" not in me:
                continue  # a file that deals the next game: its summary shows no table until the deal is done
            opponent_rows = re.findall(rf"^{re.escape(step.writer.name[:10])} *╭.*\n^hand (\d+) ", run.stdout, re.M)
            assert opponent_rows, run
            n = me["opponent"]["hand_count"]
            if _one_table(step):
                assert n == len(other["hand"])
            assert all(int(row) == n for row in opponent_rows), run
            # the only hand row is the player's own: the hand they received, or what is left of it after their turn
            own = Counter(_board_form(me["hand"]))
            for row in hand_rows(run.stdout):
                assert Counter(row) <= own, run
            boards += 1
    assert boards >= len(short_match.steps) // 3  # about one board for every file with a turn to play


def test_every_board_shows_what_show_json_says(short_match: Played) -> None:
    """The board a player is shown before their turn, against `spite show --json` of the same file for them."""
    compared = 0
    for step in short_match.steps:
        view = step.views[step.reader.name]
        play = step.runs[step.reader.name][-1]
        if "hand" not in view or "Center" not in play.stdout:
            continue  # a deal step or the match's last file: nothing to play, no board
        board = re.split(r"^(?:The bot played|Wrote )", play.stdout, flags=re.M)[0]
        assert_board_agrees(board, view)
        compared += 1
    assert compared >= len(short_match.steps) // 3


# --- playing with --moves ---


@pytest.fixture()
def first_turn(tmp_path: Path) -> Iterator[tuple[Player, Player, Path]]:
    """Alice to play her first turn: Bob has joined and answered the deal."""
    with scratch(tmp_path) as root:
        alice, bob, invitation = invite(root)
        folder = invitation.parent
        bob.ok("play", invitation)
        dealt = next(p for p in folder.iterdir() if p != invitation)
        yield alice, bob, dealt


def test_an_open_invitation_still_shows_and_verifies_for_its_writer_once_someone_joined(tmp_path: Path) -> None:
    alice, bob, invitation = invite(tmp_path, 3, 3)
    joined = answer(bob, invitation)
    alice.ok("show", joined)  # Bob's key is pinned for seat 1 now; the invitation named none
    for command in ("show", "verify"):
        run = alice.ok(command, invitation)
        assert "earlier file" in run.stdout, run


def test_play_with_moves_refuses_an_illegal_move_then_takes_a_legal_discard(first_turn: tuple[Player, Player, Path]) -> None:
    alice, bob, dealt = first_turn
    folder = dealt.parent
    view = alice.show(dealt)
    held = {Card.parse(c).rank for c in view["hand"]}
    absent = RANK_TEXT[next(r for r in RANKS if r not in held)]
    before = files(folder)
    refused = alice.spite("play", dealt, "--moves", f"{absent}-s1")
    line = assert_refused(refused, "nothing was written")
    assert absent in line
    assert new_file(before, folder) is None

    discard = sorted(view["hand"], key=lambda c: Card.parse(c).rank)[0]
    rank = RANK_TEXT[Card.parse(discard).rank]
    alice.ok("play", dealt, "--moves", f"{rank}-s1")
    written = new_file(before, folder)
    assert written is not None
    save = saves.read(written)
    assert save.history[-1].by == 0 and save.history[-1].moves == f"{rank}-s1"
    check = bob.ok("verify", written)
    assert "moves:     1 move checked against the rules" in check.stdout
    after = bob.show(written)
    assert after["to_move"] == "Bob" and after["turn"] == 1
    assert after["opponent"]["hand_count"] == len(view["hand"]) - 1  # she draws again when her next turn begins


def test_an_interactive_turn_lists_legal_moves_and_q_leaves_without_writing(first_turn: tuple[Player, Player, Path]) -> None:
    alice, bob, dealt = first_turn
    folder = dealt.parent
    hand = alice.show(dealt)["hand"]
    discard = f"{RANK_TEXT[Card.parse(hand[0]).rank]}-s1"
    before = files(folder)
    quit_ = alice.spite("play", dealt, input="q\n")
    assert quit_.exit_code == 0 and "Nothing written" in quit_.stdout, quit_
    ran_dry = alice.spite("play", dealt, input="")
    assert_refused(ran_dry, "no more input", "nothing was written")
    assert new_file(before, folder) is None

    played = alice.spite("play", dealt, input=f"?\nzz\n{discard}\n")
    assert played.exit_code == 0, played
    legal = played.stdout.split("Legal moves: ", 1)[1].split("your move>", 1)[0].split()  # the list wraps at 100 columns
    assert discard in legal and all("-" in move or move == "end" for move in legal)
    assert "refused: " in played.stderr  # "zz" was refused and asked again, not fatal
    written = new_file(before, folder)
    assert written is not None and saves.read(written).history[-1].moves == discard
    bob.ok("verify", written)


def test_moves_typed_after_the_discard_are_refused_at_the_prompt_not_dropped(first_turn: tuple[Player, Player, Path]) -> None:
    alice, _, dealt = first_turn
    folder = dealt.parent
    hand = alice.show(dealt)["hand"]
    discard, after = f"{RANK_TEXT[Card.parse(hand[0]).rank]}-s1", f"{RANK_TEXT[Card.parse(hand[1]).rank]}-s2"
    before = files(folder)
    played = alice.spite("play", dealt, input=f"{discard} {after}\n\n")  # then Enter: write the turn as it stands
    assert played.exit_code == 0, played
    said = " ".join(played.stderr.split())
    assert f"refused: {after}: your turn ended with {discard}, so it was not played" in said, played
    written = new_file(before, folder)
    assert written is not None and saves.read(written).history[-1].moves == discard


def test_play_never_writes_over_an_existing_file(first_turn: tuple[Player, Player, Path]) -> None:
    alice, _, dealt = first_turn
    folder = dealt.parent
    hand = alice.show(dealt)["hand"]
    discard = f"{RANK_TEXT[Card.parse(hand[0]).rank]}-s1"
    other = folder / "keep-me.toml"
    other.write_bytes(b"precious")
    before = files(folder)
    for target in (other, dealt):
        line = assert_refused(alice.spite("play", dealt, "--moves", discard, "-o", target), "exists already", "never overwrites")
        assert target.name in line
        assert new_file(before, folder) is None
    alice.ok("play", dealt, "--moves", discard, "-o", folder / "answer.toml")
    assert new_file(before, folder) == folder / "answer.toml"


# --- one whole g4a game ---


def test_a_one_game_g4a_match_end_to_end(tmp_path: Path) -> None:
    """A whole g4a game (pay-off piles of 20) as a one-game match: 5-15 s here, so it stays in the default run."""
    with scratch(tmp_path) as root:
        alice, bob = make_player(root, "Alice"), make_player(root, "Bob")
        (root / "mail").mkdir()
        alice.ok("new", "--target", "1", "-o", root / "mail" / "invitation.toml")
        played = Played(alice, bob, root / "mail", play_match(alice, bob, root / "mail" / "invitation.toml"), 20, 1)
        final = played.steps[-1].views["Alice"]
        assert final["match_over"] and final["target"] == 1
        results = _game_results(played.steps)
        _, winner, points = results[final["game"]]  # a tie (the stock ran out) scores nothing and another game follows
        assert winner is not None and final["scores"][winner] == points >= 1
        assert len(played.steps) > 20
