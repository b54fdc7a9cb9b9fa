"""A game's record: spite record MATCH, as text, JSON (docs/record-json.md) or a replay page (--html)."""

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from pbm.cli.app import _handled, _identity, command, session
from pbm.errors import SpiteError
from pbm.home import spite_home
from pbm.journal import Journal


def _list(cards: list[str]) -> str:
    return " ".join(cards) if cards else "(none)"


def _result(data: dict[str, Any], names: list[str]) -> str:
    result = data["result"]
    if result is None:
        return "Result: the game goes on."
    if result["winner"] is None:
        return "Result: a tie (the stock ran out); nobody scores."
    points = result["score"]
    how = f"{names[1 - result['winner']]} resigned" if result["how"] == "resigned" else "the last pay-off card played"
    return f"Result: {names[result['winner']]} wins, {points} point{'s' if points != 1 else ''} ({how})."


def _text(data: dict[str, Any]) -> list[str]:
    """The record as lines for people: the deal, each turn with its cards, draws and reshuffles, the result."""
    names = data["players"]
    head = f"Match {data['match'][:8]} · game {data['game']} · {names[0]} against {names[1]} · {data['rules']['name']}"
    if not data["final"]:
        lines = [head, f"The game is not over and audited yet: this is only what you see, as of your file of turn {data['as_of']['turn']}."]
        lines += [f"Turn {t['turn']}, {names[t['by']]}: {t['moves']}" for t in data["turns"]]
        table = data["table"]
        if table is not None:
            lines.append(f"Your hand: {_list(table['hand'])}")
        lines.append(_result(data, names))
        return lines
    deal = data["deal"]
    lines = [head + " · every card face up", f"Deal ({names[data['starter']]} starts):"]
    for p in (0, 1):
        lines.append(f"  {names[p]}'s pay-off pile, bottom to top: {_list(deal['payoff'][p])}")
    for p in (0, 1):
        lines.append(f"  {names[p]}'s hand: {_list(deal['hands'][p])}")
    lines.append(f"  Stock, bottom to top ({len(deal['stock'])} cards): {_list(deal['stock'])}")
    for t in data["turns"]:
        cards = " ".join(c or "-" for c in t["cards"])
        lines.append(f"Turn {t['turn']}, {names[t['by']]}: {t['moves']}   [{cards}]")
        other = names[1 - t["by"]]
        if t["shuffle"] is not None:
            lines.append(f"  {names[t['by']]} reshuffles the stock, bottom to top: {_list(t['shuffle'])}")
        if t["draw"]:
            lines.append(f"  {other} draws {_list(t['draw'])}")
        if t["merge"] is not None:
            lines.append(f"  the completed stacks go back into the stock, shuffled, bottom to top: {_list(t['merge'])}")
    lines.append(_result(data, names))
    return lines


@command(epilog="Example: spite record 3342e18f --game 1 --html game1.html")
@_handled
def record(
    match: Annotated[
        str, typer.Argument(metavar="MATCH", show_default=False, help="The match: its first hex digits, as spite games shows.")
    ],
    game: Annotated[int | None, typer.Option("--game", min=1, help="The game of the match (default: the latest finished one).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the record as JSON for scripts (docs/record-json.md).")] = False,
    html: Annotated[
        Path | None, typer.Option("--html", metavar="FILE", dir_okay=False, help="Write a page that replays the game turn by turn.")
    ] = None,
) -> None:
    """The record of a game: the deal, every draw, reshuffle and move, and the result, every card face up once it is over."""
    from pbm.record import find_match
    from pbm.record import record as make_record

    home = spite_home()
    identity = _identity(home, look=True)
    with Journal.open(home, write=False) as journal:
        data = make_record(journal, identity, find_match(journal, match), game)
    if html is not None:
        from pbm.replay_page import page

        if not data["final"]:
            raise SpiteError(
                f"game {data['game']} is not over and audited yet: its replay page shows every card, so it waits for both keys"
            )
        try:
            html.write_text(page(data), encoding="utf-8")
        except OSError as e:
            raise SpiteError(f"cannot write {html}: {e.strerror or e}") from e
        session.out.print(f"Wrote {html}: open it in a browser (it needs nothing else).", markup=False, soft_wrap=True)
        return
    if as_json:
        session.out.print(json.dumps(data, ensure_ascii=False), markup=False, soft_wrap=True, highlight=False)
        return
    for line in _text(data):
        session.out.print(line, markup=False, soft_wrap=True, highlight=False)
