"""A finished game's record as one self-contained HTML page that replays it turn by turn (spite record MATCH --html FILE).

Nothing outside the page: inline CSS and JavaScript, cards drawn with CSS and the suit symbols, no network. The page
embeds the record itself (`<script type="application/json" id="record">`, exactly `spite record --json`) and the
position after the deal and after each turn (`id="frames"`), replayed here through the engine (engine/record.py).
Cards that were face down in play (hands, pay-off piles below their tops, the stock) are drawn face up, marked revealed.
"""

from __future__ import annotations

import html
import json
from typing import Any

from engine.cards import Card
from engine.record import Frame, log_from_data, replay
from engine.rules import Ruleset


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


def page(data: dict[str, Any]) -> str:
    """The replay page of the final record `data` (as spite record --json gives it), as HTML text."""
    names = data["players"]
    title = f"spite · match {data['match'][:8]} · game {data['game']} · {names[0]} against {names[1]}"
    return _PAGE.replace("{{title}}", html.escape(title)).replace("{{record}}", _embed(data)).replace("{{frames}}", _embed(frames(data)))


_PAGE = """<!DOCTYPE html>
<html lang="en">
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
  <button id="first" type="button" title="The deal (Home)">&#xAB; Deal</button>
  <button id="prev" type="button" title="The turn before (left arrow)">&#x25C0; Back</button>
  <button id="next" type="button" title="The next turn (right arrow)">Next &#x25B6;</button>
  <button id="last" type="button" title="The end of the game (End)">End &#xBB;</button>
  <span id="where"></span>
</div>
<div id="turn"></div>
<div id="board"></div>
<div id="result"></div>
<div class="legend">Left and right arrow keys step through the turns. Every card is face up:
  <span class="card revealed"><span class="r">7</span><span class="s">&#x2665;</span></span> was face down in play
  (a hand, a pay-off pile below its top, the stock), revealed after the game.</div>
<script type="application/json" id="record">{{record}}</script>
<script type="application/json" id="frames">{{frames}}</script>
<script>
"use strict";
const record = JSON.parse(document.getElementById("record").textContent);
const frames = JSON.parse(document.getElementById("frames").textContent);
const names = record.players;
const SUITS = {s: "\\u2660", h: "\\u2665", d: "\\u2666", c: "\\u2663"};
let at = 0;

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
  c.title = text + (revealed ? " (face down in play)" : "");
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
  box.appendChild(el("div", "name", names[p] + (f.to_move === p ? " \\u2014 to play turn " + f.next_turn : "")));
  const row = el("div", "row");
  const pile = me.top === null ? me.pile : me.pile.concat([me.top]);
  row.appendChild(place("pay-off " + me.count, pile, {revealed: i => i < me.pile.length}));
  me.side.forEach((s, i) => row.appendChild(place("s" + (i + 1), s)));
  const drawn = f.draw.slice();
  row.appendChild(place("hand " + me.hand.length, me.hand, {revealed: () => true,
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
  const top = f.stock.slice(-12);
  row.appendChild(place("stock " + f.stock.length + (f.stock.length > 12 ? " (top 12)" : "") + (f.reshuffled ? ", reshuffled" : ""),
    top, {revealed: () => true}));
  if (f.shuffling_in.length) row.appendChild(place("shuffling in " + f.shuffling_in.length, f.shuffling_in));
  mid.appendChild(row);
  board.appendChild(mid);
  board.appendChild(seat(f, 0));
  document.getElementById("where").textContent = at === 0 ? "The deal" : "Turn " + f.after + " of " + (frames.length - 1);
  const turn = document.getElementById("turn");
  if (at === 0) {
    turn.textContent = names[record.starter] + " starts. " + (frames.length - 1) + " turns follow.";
  } else {
    const played = f.moves.split(" ").map((m, i) => f.cards[i] ? m + " (" + f.cards[i] + ")" : m).join(", ");
    const drew = f.draw.length ? "; " + names[1 - f.by] + " drew " + f.draw.join(" ") : "";
    turn.textContent = names[f.by] + " played " + played + drew + ".";
  }
  const result = document.getElementById("result");
  const r = record.result;
  const won = r && r.winner !== null ? names[r.winner] + " wins, " + r.score + " point" + (r.score === 1 ? "" : "s")
    + (r.how === "resigned" ? ": " + names[1 - r.winner] + " resigned." : ".") : "";
  result.textContent = f.over && r ? (r.winner === null ? "A tie: the stock ran out." : won) : "";
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
