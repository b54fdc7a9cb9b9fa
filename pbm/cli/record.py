"""A game's record: spite record MATCH, as text, JSON (docs/record-json.md) or a replay page (--html)."""

from pathlib import Path
from typing import Annotated, Any

import typer

from pbm.cli.app import _handled, _identity, command, print_json, session
from pbm.errors import SpiteError
from pbm.home import spite_home
from pbm.i18n import _, current, ngettext, os_reason, pgettext
from pbm.journal import Journal
from pbm.shown import plain


def _list(cards: list[str]) -> str:
    # TRANSLATORS: in spite record, in place of a list of cards that is empty
    return " ".join(cards) if cards else pgettext("spite record: no cards", "(none)")


def _result(data: dict[str, Any], names: list[str]) -> str:
    result = data["result"]
    if result is None:
        return _("Result: the game goes on.")
    if result["winner"] is None:
        return _("Result: a tie (the stock ran out); nobody scores.")
    n, winner, loser = result["score"], names[result["winner"]], names[1 - result["winner"]]
    if result["how"] == "resigned":
        # TRANSLATORS: the last line of spite record; {winner} and {loser} are the players' names, {n} the points scored
        said = ngettext("Result: {winner} wins, {n} point ({loser} resigned).", "Result: {winner} wins, {n} points ({loser} resigned).", n)
    else:
        said = ngettext(
            # TRANSLATORS: the last line of spite record; {winner} is a player's name, {n} the points scored
            "Result: {winner} wins, {n} point (the last pay-off card played).",
            "Result: {winner} wins, {n} points (the last pay-off card played).",
            n,
        )
    return said.format(winner=winner, loser=loser, n=n)


def _text(data: dict[str, Any]) -> list[str]:
    """The record as lines for people: the deal, each turn with its cards, draws and reshuffles, the result."""
    names = [plain(name) for name in data["players"]]  # a name an earlier spite took in may hold anything (issue 33)
    values = {"match": data["match"][:8], "game": data["game"], "first": names[0], "second": names[1], "rules": data["rules"]["name"]}
    if not data["final"]:
        # TRANSLATORS: the first line of spite record; {match} is the match's id (8 hex digits), {first} and {second} the
        # players' names, {rules} the name of the rules (g4a)
        head = _("Match {match} · game {game} · {first} against {second} · {rules}").format(**values)
        # TRANSLATORS: {turn} is the number of the turn your latest file of the game carried
        said = _("The game is not over and audited yet: this is only what you see, as of your file of turn {turn}.")
        lines = [head, said.format(turn=data["as_of"]["turn"])]
        # TRANSLATORS: a line of spite record: {turn} is the turn's number, {name} the player, {moves} the moves (p-c1 7-c2)
        lines += [_("Turn {turn}, {name}: {moves}").format(turn=t["turn"], name=names[t["by"]], moves=t["moves"]) for t in data["turns"]]
        table = data["table"]
        if table is not None:
            lines.append(_("Your hand: {cards}").format(cards=_list(table["hand"])))
        lines.append(_result(data, names))
        return lines
    deal = data["deal"]
    # TRANSLATORS: the first line of spite record for a game over, every card shown; {match} is the match's id (8 hex
    # digits), {first} and {second} the players' names, {rules} the name of the rules (g4a)
    head = _("Match {match} · game {game} · {first} against {second} · {rules} · every card face up").format(**values)
    # TRANSLATORS: a line of spite record before the cards dealt; {name} is the player who starts
    lines = [head, _("Deal ({name} starts):").format(name=names[data["starter"]])]
    for p in (0, 1):
        # TRANSLATORS: a line of spite record under "Deal"; {name} is a player, {cards} the cards (7h Qs 2d)
        lines.append("  " + _("{name}'s pay-off pile, bottom to top: {cards}").format(name=names[p], cards=_list(deal["payoff"][p])))
    for p in (0, 1):
        # TRANSLATORS: a line of spite record under "Deal"; {name} is a player, {cards} the cards (7h Qs 2d)
        lines.append("  " + _("{name}'s hand: {cards}").format(name=names[p], cards=_list(deal["hands"][p])))
    n = len(deal["stock"])
    # TRANSLATORS: a line of spite record under "Deal"; {n} is how many cards the stock holds, {cards} the cards (7h Qs 2d)
    stock = ngettext("Stock, bottom to top ({n} card): {cards}", "Stock, bottom to top ({n} cards): {cards}", n)
    lines.append("  " + stock.format(n=n, cards=_list(deal["stock"])))
    for t in data["turns"]:
        cards = " ".join(c or "-" for c in t["cards"])
        name, other = names[t["by"]], names[1 - t["by"]]
        # TRANSLATORS: a line of spite record: {turn} is the turn's number, {name} the player, {moves} the moves (p-c1
        # 7-c2), {cards} the cards they moved (7h Qs)
        lines.append(_("Turn {turn}, {name}: {moves}   [{cards}]").format(turn=t["turn"], name=name, moves=t["moves"], cards=cards))
        if t["shuffle"] is not None:
            # TRANSLATORS: a line of spite record under a turn; {name} is a player, {cards} the cards (7h Qs 2d)
            lines.append("  " + _("{name} reshuffles the stock, bottom to top: {cards}").format(name=name, cards=_list(t["shuffle"])))
        if t["draw"]:
            # TRANSLATORS: a line of spite record under a turn; {name} is a player, {cards} the cards (7h Qs 2d)
            lines.append("  " + _("{name} draws {cards}").format(name=other, cards=_list(t["draw"])))
        if t["merge"] is not None:
            # TRANSLATORS: a line of spite record under a turn; {cards} are the cards (7h Qs 2d)
            said = _("the completed stacks go back into the stock, shuffled, bottom to top: {cards}")
            lines.append("  " + said.format(cards=_list(t["merge"])))
    lines.append(_result(data, names))
    return lines


@command(
    help=_("The record of a game: the deal, every draw, reshuffle and move, and the result, every card face up once it is over."),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite record 3342e18f --game 1 --html game1.html"),
)
@_handled
def record(
    match: Annotated[
        str, typer.Argument(metavar="MATCH", show_default=False, help=_("The match: its first hex digits, as spite games shows."))
    ],
    game: Annotated[int | None, typer.Option("--game", min=1, help=_("The game of the match (default: the latest finished one)."))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print the record as JSON for scripts (docs/record-json.md)."))] = False,
    html: Annotated[
        Path | None, typer.Option("--html", metavar="FILE", dir_okay=False, help=_("Write a page that replays the game turn by turn."))
    ] = None,
) -> None:
    """The record of a game."""
    from pbm.record import find_match
    from pbm.record import record as make_record

    home = spite_home()
    identity = _identity(home, look=True)
    with Journal.open(home, write=False) as journal:
        data = make_record(journal, identity, find_match(journal, match), game)
    if html is not None:
        from pbm.replay_page import page

        if not data["final"]:
            # TRANSLATORS: {game} is the game's number
            said = _("game {game} is not over and audited yet: its replay page shows every card, so it waits for both keys")
            raise SpiteError(said.format(game=data["game"]))
        try:
            shown = {**data, "players": [plain(name) for name in data["players"]]}  # an old file's name, escaped (issue 33)
            html.write_text(page(shown, current().code), encoding="utf-8")
        except OSError as e:
            # TRANSLATORS: {error} is why, as the system says it (Permission denied)
            raise SpiteError(_("cannot write {file}: {error}").format(file=html, error=os_reason(e))) from e
        said = _("Wrote {file}: open it in a browser (it needs nothing else).").format(file=html)
        session.out.print(said, markup=False, soft_wrap=True)
        return
    if as_json:
        print_json(data, indent=None)
        return
    for line in _text(data):
        session.out.print(line, markup=False, soft_wrap=True, highlight=False)
