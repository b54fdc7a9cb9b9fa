#!/usr/bin/env python3
"""Screen a variant of a bot level against a yardstick: the arena's seeded pairing, one line of results.

The variant is a level of engine/bots/expert.py (``--base``, the expert by default) with some of its fields, and some of
its judgement's weights, changed by a JSON object. It plays ``--deals`` deals from both sides against ``--against``
(any bot of ``spite arena``, ``expert-1`` by default) with the seats and seeds of ``spite arena`` and
benchmarks/arena_tables.py, so a screen on seed 0 meets the very deals of the README's tables. With ``--judgement``
both sides play their judgement of a turn's end alone, without sampling: about eight times the games in the same time.
Prints the variant's win rate among decided games with its 95% Wilson interval and its think time per turn, then the
same as JSON.

    python benchmarks/screen_level.py '{"static": 1.6}' --deals 1000 --seed 0
    python benchmarks/screen_level.py '{"weights": {"danger": 7}}' --judgement --deals 1000 --seed 21
    python benchmarks/screen_level.py '{}' --judgement --sees-draws --deals 1000 --seed 21

``--sees-draws`` measures a ceiling, not a bot: the variant reads the stock, and its judgement knows the cards it will
draw next turn (engine.bots.heuristics.prospect), which no fair player can.

A gain against today's expert need not carry over to expert-1 (README): screen against the yardstick the goal names.
Worker processes (``--jobs``) are forked where the system can fork (Linux, macOS); elsewhere the screen plays in one.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import time
from collections.abc import Callable, Sequence
from typing import Any

import engine.arena
from engine.arena import report, run_arena
from engine.bots import BOT_NAMES, Bot, make_bot
from engine.bots.expert import DEFAULT_THINK, LEVELS, ExpertBot, Level
from engine.bots.heuristics import Context, Weights
from engine.cards import Card
from engine.dealer import Dealer, LocalDealer
from engine.state import PlayerView

VARIANT = "variant"
JUDGEMENT = "judgement"
ALONE = {"candidates": 1, "samples": 0}  # a level's judgement of a turn's end alone: its best ending, no sampling


def variant_of(base: Level, changes: dict[str, Any], name: str = VARIANT) -> Level:
    """`base` with the fields in `changes` changed, ``weights`` (a dict) changing only the weights it names."""
    fields = {f.name for f in dataclasses.fields(Level)} - {"name", "weights"}
    weight_names = {f.name for f in dataclasses.fields(Weights)}
    unknown = set(changes) - fields - {"weights"}
    if unknown:
        raise ValueError(f"unknown level fields {sorted(unknown)}; known: {sorted(fields | {'weights'})}")
    weights = changes.get("weights", {})
    if not isinstance(weights, dict):
        raise ValueError("weights must be a JSON object of weight names and numbers")
    if set(weights) - weight_names:
        raise ValueError(f"unknown weights {sorted(set(weights) - weight_names)}; known: {sorted(weight_names)}")
    for key, value in weights.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"weight {key} must be a number")
    plain = {key: value for key, value in changes.items() if key != "weights"}
    for key, value in plain.items():
        whole = isinstance(getattr(base, key), int)
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float) or value < 0:
            raise ValueError(f"{key} must be a {'whole number' if whole else 'number'}, 0 or more")
    return dataclasses.replace(base, name=name, weights=dataclasses.replace(base.weights, **weights), **plain)


class DrawsSeer(ExpertBot):
    """The variant where it reads the stock (``--sees-draws``): its judgement knows the ranks it draws next turn, after
    the opponent's draw, as the stock lies now (completed stacks shuffled in at the turn's end are not foreseen). A
    ceiling on what knowing them is worth, never a fair bot."""

    def __init__(self, seed: int = 0, think: float = DEFAULT_THINK) -> None:
        super().__init__(seed, level=VARIANT, think=think)
        self.stock: Callable[[], Sequence[Card]] | None = None  # the dealer's stock, top last

    def _context(self, view: PlayerView) -> Context:
        ctx = super()._context(view)
        if self.stock is None:
            raise RuntimeError("the ceiling plays only where it is given the stock (an arena game)")
        their_draw = max(0, view.ruleset.hand_size - view.opponent.hand_count)
        ranks = [card.rank for card in reversed(self.stock())]
        return dataclasses.replace(ctx, draws=tuple(ranks[their_draw:]))


def let_variant_see_draws() -> None:
    """Make the arena's variant a :class:`DrawsSeer` and hand it the stock of each game it plays (a local dealer's)."""
    show_piles = engine.arena.show_own_piles

    def make(name: str, seed: int = 0, think: float | None = None) -> Bot:
        if name == VARIANT:
            return DrawsSeer(seed, DEFAULT_THINK if think is None else think)
        return make_bot(name, seed, think)

    def show(bots: tuple[Bot, Bot], dealer: Dealer) -> None:
        show_piles(bots, dealer)
        for bot in bots:
            if isinstance(bot, DrawsSeer) and isinstance(dealer, LocalDealer):
                bot.stock = lambda dealer=dealer: dealer.stock

    engine.arena.make_bot = make  # type: ignore[assignment]
    engine.arena.show_own_piles = show


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("changes", help='the variant\'s changes as JSON, e.g. \'{"static": 1.6, "weights": {"bury": 0.4}}\'')
    parser.add_argument("--base", default="expert", choices=list(LEVELS), help="the level the changes apply to (default expert)")
    parser.add_argument("--against", default="expert-1", choices=BOT_NAMES, help="the yardstick (default expert-1)")
    parser.add_argument(
        "--judgement", action="store_true", help="both sides judge a turn's end alone, without sampling (--against a level)"
    )
    parser.add_argument(
        "--sees-draws", action="store_true", help="a ceiling, not a bot: the variant's judgement knows its next turn's draws"
    )
    parser.add_argument("--deals", type=int, default=400, help="deals, each played from both sides (default 400)")
    parser.add_argument("--seed", type=int, default=0, help="arena seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    try:
        try:
            changes = json.loads(args.changes)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the changes are not JSON: {exc}") from None
        if not isinstance(changes, dict):
            raise ValueError("the changes must be a JSON object")
        LEVELS[VARIANT] = variant_of(LEVELS[args.base], {**changes, **(ALONE if args.judgement else {})})
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    against = args.against
    if args.judgement:
        if against not in LEVELS:
            parser.error(f"--judgement needs a level to play against: {', '.join(name for name in LEVELS if name != VARIANT)}")
        LEVELS[JUDGEMENT] = variant_of(LEVELS[against], ALONE, name=JUDGEMENT)
        against = JUDGEMENT
    if args.deals < 1 or args.jobs < 1:
        parser.error("--deals and --jobs must be at least 1")
    jobs = 1  # workers started afresh (spawn, forkserver) would not know the variant: only forked ones do
    if "fork" in multiprocessing.get_all_start_methods():
        multiprocessing.set_start_method("fork", force=True)
        jobs = args.jobs
    if args.sees_draws:
        let_variant_see_draws()
    start = time.perf_counter()
    result = report(run_arena(VARIANT, against, 2 * args.deals, seed=args.seed, jobs=jobs))
    mine, theirs = result["bots"].values()
    lo, hi = mine["ci95"]
    print(
        f"{args.changes}{' seeing its draws' if args.sees_draws else ''} vs {args.against}"
        f"{' (judgement alone)' if args.judgement else ''}, seed {args.seed}: "
        f"{mine['wins']}-{theirs['wins']}, {result['ties']} ties: "
        f"{mine['win_rate']:.1%} ({lo:.1%} - {hi:.1%}) of {mine['wins'] + theirs['wins']} decided; think median "
        f"{mine['think_median_s'] * 1000:.1f} ms, max {mine['think_max_s'] * 1000:.0f} ms; {time.perf_counter() - start:.0f} s"
    )
    print(
        json.dumps(
            {
                "changes": changes,
                "against": args.against,
                "judgement": args.judgement,
                "sees_draws": args.sees_draws,
                "seed": args.seed,
                "result": result,
            }
        )
    )


if __name__ == "__main__":
    main()
