"""A finished game's record as one self-contained HTML page that replays it turn by turn (spite record MATCH --html FILE).

Nothing outside the page: inline CSS and JavaScript, cards drawn with CSS and the suit symbols, no network. The page
embeds the record itself (`<script type="application/json" id="record">`, exactly `spite record --json`) and the
position after the deal and after each turn (`id="frames"`), replayed here through the engine (engine/record.py).
Cards that were face down in play (hands, pay-off piles below their tops, the stock) are drawn face up, marked revealed.
The page speaks the player's language: its words are translated here and given to the page's script as data
(`id="labels"`); the record and the positions stay as they are, in every language.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from engine.cards import Card
from engine.record import Frame, log_from_data, replay
from engine.rules import Ruleset
from pbm.i18n import _, current, ngettext, npgettext, pgettext

TOP = 12  # the stock shows its top cards only, this many (the script's STOCK_TOP)


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _frame(frame: Frame, data: dict[str, Any]) -> dict[str, Any]:
    """One position as the page draws it: both players' cards (face down ones too), the center, the stock."""
    s = frame.state
    turn = data["turns"][frame.after - 1] if frame.after else None
    return {
        "after": frame.after,
        "by": turn["by"] if turn else None,
        "moves": turn["moves"] if turn else "",
        "cards": turn["cards"] if turn else [],
        "draw": turn["draw"] if turn else [],
        "reshuffled": bool(turn and (turn["shuffle"] is not None or turn["merge"] is not None)),
        "to_move": None if s.outcome is not None else s.to_move,
        "next_turn": None if s.outcome is not None else s.turn,
        "players": [
            {
                "hand": _cards(frame.hands[p]),
                "top": None if s.players[p].payoff_top is None else str(s.players[p].payoff_top),
                "pile": _cards(frame.piles[p]),
                "count": s.players[p].payoff_count,
                "side": [_cards(stack) for stack in s.players[p].side],
            }
            for p in (0, 1)
        ],
        "center": [_cards(stack) for stack in s.center],
        "stock": _cards(frame.stock),
        "shuffling_in": [str(c) for pool in s.pools for c in pool.cards],
        "over": s.outcome is not None,
    }


def frames(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every position of a final record, after the deal and after each turn, as the page draws them (ReplayError if it does not replay)."""
    ruleset = Ruleset(**data["rules"])
    log = log_from_data(data, ruleset)
    return [_frame(f, data) for f in replay(log)]


def _embed(value: Any) -> str:
    """JSON safe inside a <script> element: no '</' or '<!--' can close it or open a comment."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def labels(data: dict[str, Any], positions: list[dict[str, Any]]) -> dict[str, Any]:
    """The page's words in the player's language, as its script takes them: whole texts, templates whose ``{name}`` the
    script fills (names, cards, moves), and lists by count (``payoff[7]`` is the label of a pay-off pile of 7 cards, as
    many as the game needs)."""
    names = data["players"]
    most_pile = max(p["count"] for f in positions for p in f["players"])
    most_hand = max(len(p["hand"]) for f in positions for p in f["players"])
    most_stock = max(len(f["stock"]) for f in positions)
    most_shuffling = max(len(f["shuffling_in"]) for f in positions)
    turns = len(positions) - 1
    stock, reshuffled = [], []
    for n in range(most_stock + 1):
        if n > TOP:
            # TRANSLATORS: a label of the replay page, over the stock's cards: {n} cards in it, the top {top} of them shown
            stock.append(npgettext("replay page: the stock", "stock {n} (top {top})", "stock {n} (top {top})", n).format(n=n, top=TOP))
            # TRANSLATORS: a label of the replay page, over the stock's cards: {n} cards in it, the top {top} of them shown;
            # it was shuffled again in this turn
            said = npgettext("replay page: the stock", "stock {n} (top {top}), reshuffled", "stock {n} (top {top}), reshuffled", n)
            reshuffled.append(said.format(n=n, top=TOP))
        else:
            # TRANSLATORS: a label of the replay page, over the stock's cards: {n} cards in it
            stock.append(npgettext("replay page: the stock", "stock {n}", "stock {n}", n).format(n=n))
            # TRANSLATORS: a label of the replay page, over the stock's cards: {n} cards in it; it was shuffled again in this turn
            reshuffled.append(npgettext("replay page: the stock", "stock {n}, reshuffled", "stock {n}, reshuffled", n).format(n=n))
    return {
        # TRANSLATORS: a label of the replay page, over a pay-off pile's cards: {n} cards left in it
        "payoff": [npgettext("replay page: a pay-off pile", "pay-off {n}", "pay-off {n}", n).format(n=n) for n in range(most_pile + 1)],
        # TRANSLATORS: a label of the replay page, over the cards a player holds: {n} of them
        "hand": [npgettext("replay page: a player's hand", "hand {n}", "hand {n}", n).format(n=n) for n in range(most_hand + 1)],
        "stock": stock,
        "stock_reshuffled": reshuffled,
        "shuffling": [
            # TRANSLATORS: a label of the replay page, over the cards of completed center stacks going back into the stock
            npgettext("replay page: cards going back into the stock", "shuffling in {n}", "shuffling in {n}", n).format(n=n)
            for n in range(most_shuffling + 1)
        ],
        # TRANSLATORS: the replay page, beside a player's name when they play the next turn; {turn} is its number
        "to_play": _("{name} — to play turn {turn}"),
        # TRANSLATORS: the replay page, the tooltip of a card that was face down while the game was played (7h)
        "face_down": _("{card} (face down in play)"),
        # TRANSLATORS: the replay page, where it shows the position after the deal, before the first turn
        "deal": pgettext("replay page: the position after the deal", "The deal"),
        # TRANSLATORS: the replay page, which turn it shows: {turn} of the game's {turns}
        "turn_of": _("Turn {turn} of {turns}"),
        # TRANSLATORS: the replay page, under the deal; {name} is the player who starts, {n} how many turns the game had
        "start": ngettext("{name} starts. {n} turn follows.", "{name} starts. {n} turns follow.", turns).format(
            name=names[data["starter"]], n=turns
        ),
        # TRANSLATORS: the replay page, what a turn did: {name} is the player, {moves} the moves with their cards (p-c1 (7h), Q-s2 (Qs))
        "played": _("{name} played {moves}."),
        # TRANSLATORS: the replay page, what a turn did: {name} is the player, {moves} the moves with their cards (p-c1
        # (7h), Q-s2 (Qs)); then {other}, the other player, drew {cards} (7h Qs)
        "played_drew": _("{name} played {moves}; {other} drew {cards}."),
        "result": _result(data),
    }


def _result(data: dict[str, Any]) -> str:
    """How the game ended, as the page says it once it shows the last turn."""
    names, result = data["players"], data["result"]
    if result is None:
        return ""
    if result["winner"] is None:
        return _("A tie: the stock ran out.")
    values = {"name": names[result["winner"]], "loser": names[1 - result["winner"]], "n": result["score"]}
    if result["how"] == "resigned":
        # TRANSLATORS: the replay page, the end of the game; {name} won {n} points, {loser} resigned
        said = ngettext("{name} wins, {n} point: {loser} resigned.", "{name} wins, {n} points: {loser} resigned.", result["score"])
    else:
        # TRANSLATORS: the replay page, the end of the game; {name} won {n} points
        said = ngettext("{name} wins, {n} point.", "{name} wins, {n} points.", result["score"])
    return said.format(**values)


_REVEALED = '<span class="card revealed"><span class="r">7</span><span class="s">&#x2665;</span></span>'


def page(data: dict[str, Any], code: str | None = None) -> str:
    """The replay page of the final record `data` (as spite record --json gives it), as HTML text, its words in the
    player's language; `code` is that language's (pbm.i18n's, ``pt_BR``: the page names it in BCP 47, ``pt-BR``)."""
    names = data["players"]
    positions = frames(data)
    # TRANSLATORS: the replay page's title; {match} is the match's id (8 hex digits), {first} and {second} the players
    title = _("spite · match {match} · game {game} · {first} against {second}").format(
        match=data["match"][:8], game=data["game"], first=names[0], second=names[1]
    )
    legend = _(
        # TRANSLATORS: the replay page, under the board; {card} is a card drawn as it was face down (a 7 of hearts)
        "Every card is face up: {card} was face down in play (a hand, a pay-off pile below its top, the stock), revealed after the game."
    )
    values = {
        "lang": html.escape((code or current().code).replace("_", "-")),
        "title": html.escape(title),
        # TRANSLATORS: a button of the replay page that shows the deal, before the first turn
        "first": html.escape(pgettext("replay page: a button", "Deal")),
        # TRANSLATORS: the tooltip of a button of the replay page; Home is the key of that name
        "first_title": html.escape(_("The deal (Home)")),
        # TRANSLATORS: a button of the replay page that shows the turn before
        "prev": html.escape(pgettext("replay page: a button", "Back")),
        # TRANSLATORS: the tooltip of a button of the replay page
        "prev_title": html.escape(_("The turn before (left arrow)")),
        # TRANSLATORS: a button of the replay page that shows the next turn
        "next": html.escape(pgettext("replay page: a button", "Next")),
        # TRANSLATORS: the tooltip of a button of the replay page
        "next_title": html.escape(_("The next turn (right arrow)")),
        # TRANSLATORS: a button of the replay page that shows the end of the game
        "last": html.escape(pgettext("replay page: a button", "End")),
        # TRANSLATORS: the tooltip of a button of the replay page; End is the key of that name
        "last_title": html.escape(_("The end of the game (End)")),
        "keys": html.escape(_("Left and right arrow keys step through the turns.")),
        "legend": html.escape(legend).replace("{card}", _REVEALED),
        "record": _embed(data),
        "frames": _embed(positions),
        "labels": _embed(labels(data, positions)),
    }
    return re.sub(r"\{\{(\w+)\}\}", lambda found: values.get(found.group(1), found.group(0)), _PAGE)  # one pass: no value is read again


_PAGE = """<!DOCTYPE html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{{title}}</title>
<style>
body { font-family: system-ui, sans-serif; background: #1f5f3a; color: #f4f4ec; margin: 0; padding: 12px 18px; }
h1 { font-size: 1.15rem; margin: 0 0 6px; font-weight: 600; }
.bar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 8px 0; }
button { font-size: 1rem; padding: 4px 12px; border-radius: 6px; border: 1px solid #0b2f1b; background: #f4f4ec; color: #123;
  cursor: pointer; }
button:disabled { opacity: .45; cursor: default; }
#where { font-weight: 600; min-width: 16em; }
.seat { background: rgba(0,0,0,.18); border-radius: 10px; padding: 8px 10px; margin: 8px 0; }
.seat.moving { outline: 2px solid #ffd75e; }
.name { font-weight: 600; margin-bottom: 4px; }
.row { display: flex; gap: 14px; align-items: flex-start; flex-wrap: wrap; }
.place { display: flex; flex-direction: column; gap: 2px; }
.label { font-size: .75rem; opacity: .8; }
.fan { display: flex; min-height: 52px; }
.fan .card + .card { margin-left: -17px; }
.card { width: 36px; height: 50px; border-radius: 5px; background: #fffdf6; color: #1b1b1b; border: 1px solid #555;
  box-shadow: 1px 1px 2px rgba(0,0,0,.35); display: flex; flex-direction: column; justify-content: space-between;
  padding: 2px 3px; box-sizing: border-box; font-size: 14px; line-height: 1; position: relative; }
.card .r { font-weight: 700; }
.card .r.ten { letter-spacing: -2px; margin-left: -1px; }
.card .s { align-self: flex-end; font-size: 16px; }
.card.red { color: #c0152a; }
.card.revealed { background: #e4ecf7; border: 1px dashed #1d4f91; }
.card.revealed::after { content: "\\2022"; position: absolute; top: 1px; right: 3px; color: #1d4f91; font-size: 10px; }
.card.new { box-shadow: 0 0 0 2px #ffd75e; }
.empty { width: 36px; height: 50px; border-radius: 5px; border: 1px dashed rgba(255,255,255,.5); box-sizing: border-box; }
#turn { background: rgba(0,0,0,.25); border-radius: 8px; padding: 6px 10px; min-height: 1.4em; }
.legend { font-size: .8rem; opacity: .85; margin-top: 8px; }
.legend .card { display: inline-flex; vertical-align: middle; transform: scale(.7); }
#result { font-weight: 700; color: #ffd75e; }
</style>
</head>
<body>
<h1 id="title">{{title}}</h1>
<div class="bar">
  <button id="first" type="button" title="{{first_title}}">&#xAB; {{first}}</button>
  <button id="prev" type="button" title="{{prev_title}}">&#x25C0; {{prev}}</button>
  <button id="next" type="button" title="{{next_title}}">{{next}} &#x25B6;</button>
  <button id="last" type="button" title="{{last_title}}">{{last}} &#xBB;</button>
  <span id="where"></span>
</div>
<div id="turn"></div>
<div id="board"></div>
<div id="result"></div>
<div class="legend">{{keys}}
  {{legend}}</div>
<script type="application/json" id="record">{{record}}</script>
<script type="application/json" id="frames">{{frames}}</script>
<script type="application/json" id="labels">{{labels}}</script>
<script>
"use strict";
const record = JSON.parse(document.getElementById("record").textContent);
const frames = JSON.parse(document.getElementById("frames").textContent);
const L = JSON.parse(document.getElementById("labels").textContent);  // the page's words, in the player's language
const names = record.players;
const SUITS = {s: "\\u2660", h: "\\u2665", d: "\\u2666", c: "\\u2663"};
const STOCK_TOP = 12;  // replay_page.TOP
let at = 0;

function fill(template, values) {
  return template.replace(/\\{(\\w+)\\}/g, (found, key) => (key in values ? String(values[key]) : found));
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function card(text, revealed, fresh) {
  const suit = text.slice(-1), rank = text.slice(0, -1);
  const c = el("span", "card" + (suit === "h" || suit === "d" ? " red" : "") + (revealed ? " revealed" : "") + (fresh ? " new" : ""));
  c.appendChild(el("span", rank === "10" ? "r ten" : "r", rank));
  c.appendChild(el("span", "s", SUITS[suit] || suit));
  c.title = revealed ? fill(L.face_down, {card: text}) : text;
  return c;
}
function place(label, cards, opts) {
  const p = el("div", "place");
  p.appendChild(el("span", "label", label));
  const fan = el("div", "fan");
  if (!cards.length) fan.appendChild(el("span", "empty"));
  cards.forEach((t, i) => fan.appendChild(card(t, opts && opts.revealed && opts.revealed(i), opts && opts.fresh && opts.fresh(t, i))));
  p.appendChild(fan);
  return p;
}
function seat(f, p) {
  const me = f.players[p];
  const box = el("div", "seat" + (f.to_move === p ? " moving" : ""));
  box.id = "seat" + p;
  box.appendChild(el("div", "name", f.to_move === p ? fill(L.to_play, {name: names[p], turn: f.next_turn}) : names[p]));
  const row = el("div", "row");
  const pile = me.top === null ? me.pile : me.pile.concat([me.top]);
  row.appendChild(place(L.payoff[me.count], pile, {revealed: i => i < me.pile.length}));
  me.side.forEach((s, i) => row.appendChild(place("s" + (i + 1), s)));
  const drawn = f.draw.slice();
  row.appendChild(place(L.hand[me.hand.length], me.hand, {revealed: () => true,
    fresh: (t, i) => f.by !== null && f.by !== p && i >= me.hand.length - drawn.length}));
  box.appendChild(row);
  return box;
}
function show(n) {
  at = Math.max(0, Math.min(frames.length - 1, n));
  const f = frames[at];
  const board = document.getElementById("board");
  board.replaceChildren();
  board.appendChild(seat(f, 1));
  const mid = el("div", "seat");
  const row = el("div", "row");
  f.center.forEach((s, i) => row.appendChild(place("c" + (i + 1), s)));
  const top = f.stock.slice(-STOCK_TOP);
  row.appendChild(place((f.reshuffled ? L.stock_reshuffled : L.stock)[f.stock.length], top, {revealed: () => true}));
  if (f.shuffling_in.length) row.appendChild(place(L.shuffling[f.shuffling_in.length], f.shuffling_in));
  mid.appendChild(row);
  board.appendChild(mid);
  board.appendChild(seat(f, 0));
  document.getElementById("where").textContent = at === 0 ? L.deal : fill(L.turn_of, {turn: f.after, turns: frames.length - 1});
  const turn = document.getElementById("turn");
  if (at === 0) {
    turn.textContent = L.start;
  } else {
    const played = f.moves.split(" ").map((m, i) => f.cards[i] ? m + " (" + f.cards[i] + ")" : m).join(", ");
    const said = {name: names[f.by], moves: played, other: names[1 - f.by], cards: f.draw.join(" ")};
    turn.textContent = fill(f.draw.length ? L.played_drew : L.played, said);
  }
  document.getElementById("result").textContent = f.over ? L.result : "";
  document.getElementById("first").disabled = document.getElementById("prev").disabled = at === 0;
  document.getElementById("last").disabled = document.getElementById("next").disabled = at === frames.length - 1;
  document.body.dataset.at = String(at);
}
document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("prev").addEventListener("click", () => show(at - 1));
document.getElementById("next").addEventListener("click", () => show(at + 1));
document.getElementById("last").addEventListener("click", () => show(frames.length - 1));
document.addEventListener("keydown", e => {
  if (e.key === "ArrowRight") show(at + 1);
  else if (e.key === "ArrowLeft") show(at - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(frames.length - 1);
  else return;
  e.preventDefault();
});
show(0);
</script>
</body>
</html>
"""
