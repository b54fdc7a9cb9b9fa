"""A game's record from the player's own spite home: every card of a finished game, opened with both players' revealed keys.

The journal keeps the protocol message of every save of a match (table `messages` those received, `written` the player's
own files; for a journal older than schema 5, the file each received save was read from). A game's messages hold both players'
scalars once it is over and both sent them (the `secrets` sections), and with them every point of the deal, each
shuffle, draw and merge opens (pbm/protocol/transcript.py, which checks each against its input as it goes). So both
players' homes give the same record, byte for byte. A game still in play gives only what the player may see.
docs/record-json.md.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engine.cards import Card
from engine.moves import parse_turn
from engine.record import SCHEMA, GameLog, Opening, ReplayError, TurnLog, log_data
from engine.rules import Ruleset
from engine.state import Outcome, Reason
from pbm import saves
from pbm.carry import SIDE
from pbm.errors import SpiteError
from pbm.i18n import _, error_text
from pbm.identity import Identity
from pbm.journal import Journal, SaveRecord
from pbm.protocol.transcript import keys_of, open_game
from pbm.schema import check
from pbm.shown import plain
from pbm.table import table_state


class RecordError(SpiteError):
    """A record that cannot be made: no such match or game, a message the journal lacks, a game that does not replay."""


def find_match(journal: Journal, wanted: str) -> str:
    """The match of the journal whose id starts with `wanted` (hex digits, as spite games shows them)."""
    start = wanted.strip().lower()
    ids = [m.match for m in journal.matches()]
    chosen = [m for m in ids if start and m.startswith(start)]
    if not chosen:
        # TRANSLATORS: {wanted} is what the player typed for a match's id (its first hex digits)
        raise RecordError(_("your journal has no match that starts with {wanted} (spite games lists yours)").format(wanted=plain(wanted)))
    if len(chosen) > 1:
        # TRANSLATORS: {wanted} is what the player typed for a match's id (its first hex digits)
        raise RecordError(_("{wanted} starts more than one of your matches: give more of its digits").format(wanted=plain(wanted)))
    return chosen[0]


def _message(journal: Journal, record: SaveRecord) -> dict[str, Any]:
    """The protocol message of one recorded save: as the journal kept it (received, or the player's own file), else from its file."""
    kept = journal.message(record.hash)
    if kept is not None:
        return kept
    where = {"seq": record.seq, "game": record.game, "turn": record.turn, "path": record.path}
    if record.path and not Path(record.path).exists():
        # TRANSLATORS: {seq} is the save's number in its match, {game} and {turn} where it is in the match, {path} its file
        said = _("the file of save {seq} (game {game}, turn {turn}) is not at {path} any more: a record of its game needs it (put it back)")
        raise RecordError(said.format(**where))
    try:
        save = saves.read(Path(record.path)) if record.path else None
    except SpiteError as e:
        # TRANSLATORS: {seq} is the save's number in its match, {game} and {turn} where it is in the match, {path} its file,
        # {error} why it does not read
        said = _("the file of save {seq} (game {game}, turn {turn}), {path}, no longer reads ({error}): its record needs it")
        raise RecordError(said.format(**where, error=error_text(e))) from e
    if save is None or save.hash != record.hash:  # the journal keeps the hash of what it recorded
        if record.path:
            said = _(
                # TRANSLATORS: {seq} is the save's number in its match, {game} and {turn} where it is in the match, {path} its file
                "the file of save {seq} (game {game}, turn {turn}) at {path} is another file now: "
                "a record of its game needs it (put it back)"
            )
        else:
            said = _(
                # TRANSLATORS: {seq} is the save's number in its match, {game} and {turn} where it is in the match
                "the file of save {seq} (game {game}, turn {turn}) came as a turn code, which the journal did not keep: "
                "a record of its game needs it (put it back)"
            )
        raise RecordError(said.format(**where))
    return dict(save.protocol["message"])


def _messages(journal: Journal, match: str, game: int, cache: dict[str, dict[str, Any]]) -> tuple[list[SaveRecord], list[dict[str, Any]]]:
    """The saves of `match` that may hold a message of `game` (those of the games beside it too), with their messages.

    `cache` keeps the messages read, by the save's hash, for the next call.
    """
    records = [r for r in journal.saves(match) if game - 1 <= r.game <= game + 1]
    for r in records:
        if r.hash not in cache:
            cache[r.hash] = _message(journal, r)
    return records, [cache[r.hash] for r in records]


def _ruleset(journal: Journal, match: str) -> tuple[Ruleset, tuple[str, str]]:
    """The rules and the two players' names of `match`, as the player's own latest file carried them."""
    pinned = journal.pinned(match)
    assert pinned is not None  # find_match took the match from the journal
    for r in reversed(journal.saves(match)):
        text = journal.kept_side(match, r.seq)
        if text is not None:
            side = json.loads(text).get("side")
            if isinstance(side, dict):
                check(SIDE, side, "side")
                return Ruleset(**side["rules"]), (pinned[0].name, pinned[1].name)
    raise RecordError(
        # TRANSLATORS: {match} is the match's id (8 hex digits)
        _("your journal keeps no file of yours of match {match}: a record is made from your side of it").format(match=match[:8])
    )


def _outcome(records: Sequence[SaveRecord], messages: Sequence[dict[str, Any]], game: int) -> Outcome:
    """How `game` ended, from the match score before and after its last turn (which the journal recorded as each file came).

    A game resigned ends with the resignation's message: the sender conceded it, and the other scored what the rules say.
    """
    conceded = [n for n, m in enumerate(messages) if isinstance(m.get("resign"), dict) and m["resign"].get("game") == game]
    if conceded:
        n = conceded[0]
        before, after = records[n - 1].score if n else (0, 0), records[n].score
        winner = 1 - int(messages[n]["from"])
        return Outcome(Reason.RESIGNED, winner, after[winner] - before[winner])
    last = max(n for n, m in enumerate(messages) if m.get("turn", {}).get("game") == game)
    before, after = records[last - 1].score if last else (0, 0), records[last].score
    gained = [after[p] - before[p] for p in (0, 1)]
    for p in (0, 1):
        if gained[p] > 0:
            return Outcome(Reason.PAYOFF_EMPTY, p, gained[p])
    return Outcome(Reason.STOCK_EXHAUSTED, None, 0)


def _cards(indices: Sequence[int]) -> tuple[Card, ...]:
    return tuple(Card.from_index(i) for i in indices)


def game_log(messages: Sequence[dict[str, Any]], match: str, ruleset: Ruleset, game: int, outcome: Outcome) -> GameLog:
    """Game `game` of the messages, every card opened with both players' keys (RecordError while one has not sent them)."""
    keys = keys_of(messages, game)
    if keys is None:
        raise RecordError(_("game {game}: the messages do not hold both players' keys yet").format(game=game))
    opened = open_game(messages, keys, bytes.fromhex(match), ruleset, game)
    turns = []
    for number in sorted(opened.turns):
        t = opened.turns[number]
        by = opened.starter if number % 2 == 1 else 1 - opened.starter
        turns.append(
            TurnLog(
                number,
                by,
                tuple(parse_turn(t.moves)),
                _cards(t.shown),
                None if t.shuffle is None else _cards(t.shuffle),
                _cards(t.draw),
                None if t.positions is None else tuple(t.positions),
                None if t.merge is None else _cards(t.merge),
            )
        )
    opening = Opening(
        (_cards(opened.piles[0]), _cards(opened.piles[1])), (_cards(opened.hands[0]), _cards(opened.hands[1])), _cards(opened.stock)
    )
    return GameLog(ruleset, opened.starter, opening, tuple(turns), outcome)


def games_of(journal: Journal, match: str) -> int:
    """The latest game of `match` the journal has a save of."""
    latest = journal.latest(match)
    return latest.game if latest is not None else 0


def record(journal: Journal, identity: Identity, match: str, game: int | None = None) -> dict[str, Any]:
    """The record of `game` of `match` (the latest finished one by default, else the one in play), as JSON data.

    A game over whose keys both players sent is the whole game (`final`: true), the same from either player's home;
    one still in play holds only what this player may see (`final`: false). RecordError says why there is none.
    """
    ruleset, names = _ruleset(journal, match)
    latest = games_of(journal, match)
    cache: dict[str, dict[str, Any]] = {}
    if game is None:
        game = latest
        while game > 1 and keys_of(_messages(journal, match, game, cache)[1], game) is None:
            game -= 1
        if keys_of(_messages(journal, match, game, cache)[1], game) is None:
            game = latest
    if not 1 <= game <= latest:
        raise RecordError(
            # TRANSLATORS: {match} is the match's id (8 hex digits), {game} the game asked for, {latest} the number of its latest game
            _("match {match} has no game {game}: its games so far are 1 to {latest}").format(match=match[:8], game=game, latest=latest)
        )
    records, messages = _messages(journal, match, game, cache)
    head = {
        "schema": SCHEMA,
        "match": match,
        "game": game,
        "players": list(names),
        "rules": dataclasses.asdict(ruleset),
    }
    if keys_of(messages, game) is not None:
        log = game_log(messages, match, ruleset, game, _outcome(records, messages, game))
        try:
            return {**head, "final": True, **log_data(log)}
        except ReplayError as e:
            # TRANSLATORS: {match} is the match's id (8 hex digits), {error} why the game does not replay
            said = _("game {game} of match {match} does not replay: {error}")
            raise RecordError(said.format(game=game, match=match[:8], error=error_text(e))) from e
    return {**head, "final": False, **_in_play(journal, identity, match, game, names)}


def _in_play(journal: Journal, identity: Identity, match: str, game: int, names: tuple[str, str]) -> dict[str, Any]:
    """What the player may see of a game not yet audited, as of their own latest file of it: the moves, the table, their hand."""
    from pbm.client.side import _restore

    pinned = journal.pinned(match)
    assert pinned is not None
    me = next((seat for seat, p in enumerate(pinned) if p.key == identity.public_text), None)
    if me is None:
        raise RecordError(_("you are not a player of match {match}").format(match=match[:8]))
    own = [r for r in journal.saves(match) if r.signer == me and r.game == game and journal.kept_side(match, r.seq) is not None]
    if not own:
        # TRANSLATORS: {match} is the match's id (8 hex digits)
        said = _("game {game} of match {match} has no file of yours yet: its record starts with your first")
        raise RecordError(said.format(game=game, match=match[:8]))
    last = own[-1]
    data = json.loads(journal.kept_side(match, last.seq) or "{}")
    kept = _restore(data.get("side"), data.get("blob"), identity, bytes.fromhex(match), last.seq)
    turns = saves.unpack_history(data["turns"]) if isinstance(data.get("turns"), str) else ()
    state = kept.seat.state
    out: dict[str, Any] = {
        "you": me,
        "as_of": {"seq": last.seq, "turn": last.turn},
        "turns": [{"turn": n + 1, "by": t.by, "moves": t.moves} for n, t in enumerate(turns)],
        "result": None,
        "table": None,
    }
    if state is not None and kept.game == game:
        side = data["side"]
        state = table_state(side["state"], kept.rules, me, state.players[me].hand)
        out["table"] = {
            "hand": [str(c) for c in state.players[me].hand],
            "hand_count": [p.hand_count for p in state.players],
            "payoff": [{"top": None if p.payoff_top is None else str(p.payoff_top), "count": p.payoff_count} for p in state.players],
            "side": [[[str(c) for c in s] for s in p.side] for p in state.players],
            "center": [[str(c) for c in s] for s in state.center],
            "stock": state.stock_count,
            "shuffling_in": state.shuffling_in,
        }
        if state.outcome is not None:
            o = state.outcome
            out["result"] = {"winner": o.winner, "score": o.points, "how": "out" if o.reason is Reason.PAYOFF_EMPTY else "tie"}
    return out
