#!/usr/bin/env python3
"""How big save files and their turn codes get: every file of many whole g4a games, played through the same code as `spite play`.

Each game is a match to 1 point between two fresh players (two spite homes under a temporary
directory) whose turns a bot plays; every file is written by pbm.client.answer.answer and read back
by the other player with pbm.client.receive.open_save, as the command does. Prints the size of the
largest file of each game against the game's length; the median, 99th percentile and maximum
of ordinary turn files (budget 16 KiB) and of files that carry a proof of shuffle (a deal step,
a stock shuffle or a merge: budget 32 KiB); where the bytes of the largest file go;
the longest line of any file; for the turn codes (pbm/transport/code.py) of the files: the
share that fit one chat message (of all files, of the files with moves, of the ordinary turns:
files with moves and no proof of shuffle), their median and largest length, the most parts,
and the files too big for a code (over 4 parts: sent as files); and one JSON line:

    python benchmarks/save_sizes.py [--games 20] [--bots expert,expert] [--think 0.01] [--seed 0] [--target 1] [--chat whatsapp,discord]

The turn codes are cut for Discord's messages (2,000 characters, what spite does when no chat is chosen); with
--chat NAME[,NAME...] (the names `spite chat` lists, pbm/chats.py) the same files are cut for each chat's messages
too, and for each the parts a file takes and the files that must go as attachments (over 4 parts) are printed.

With --target N each of the --games runs is a whole match to N points, whose games follow one
another: the files between two games (a game's last turn with its keys and the next deal) are
among the largest. The hard limit on a file (pbm.saves.MAX_BYTES) is printed beside the figures.

Random bots make the longest games (hundreds of turns): `--bots random,greedy`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tomllib  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from engine.rules import G4A  # noqa: E402
from pbm import carry, chats  # noqa: E402
from pbm.client.answer import answer, new_match, replace_rules  # noqa: E402
from pbm.client.receive import open_save  # noqa: E402
from pbm.identity import load_or_create  # noqa: E402
from pbm.journal import Journal  # noqa: E402
from pbm.saves import MAX_BYTES, read  # noqa: E402
from pbm.transport import code  # noqa: E402


def parts(path: Path) -> dict[str, int]:
    """Bytes of each top-level field of a save, and of its protocol message and carry, as the file spells them."""
    doc = tomllib.loads(path.read_text())
    out = {}
    for key, value in doc.items():
        if key == "protocol":
            for sub, inner in value.items():
                out[f"protocol.{sub}"] = len(json.dumps(inner, separators=(",", ":"))) if isinstance(inner, dict) else len(inner)
        elif key == "secrets":
            out[key] = sum(len(v) for v in value.values())
        else:
            out[key] = len(json.dumps(value, separators=(",", ":")))
    return out


ORDINARY_BUDGET = 16 * 1024
PROVEN_BUDGET = 32 * 1024


def carries_a_shuffle_proof(path: Path) -> bool:
    """Whether the file's protocol message holds a proof of shuffle: a deal step, or a turn that shuffles or merges the stock."""
    message = tomllib.loads(path.read_text())["protocol"]["message"]
    end = message.get("turn", {}).get("end", {})
    return "deal" in message or any(key in end for key in ("shuffle", "merge"))


def summary(sizes: list[int]) -> dict[str, float]:
    """Count, median, 99th percentile and maximum of `sizes`."""
    ordered = sorted(sizes)
    if not ordered:
        return {"files": 0}
    return {
        "files": len(ordered),
        "median": statistics.median(ordered),
        "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "max": ordered[-1],
    }


def left_out_a_side(path: Path) -> bool:
    """Whether the file goes without its receiver's side: it would not have fitted the size limit with it."""
    save = read(path)
    return save.seq > 1 and None in carry.unpack_sides(save)


def code_row(path: Path) -> tuple[str, int, int, int]:
    """A file's kind (an ordinary turn, another turn, no moves), its turn code's parts and characters, its longest line."""
    save = read(path)
    parts = code.encode(save)
    moves = bool(save.state)  # only a file with moves states a table
    kind = ("turn" if carries_a_shuffle_proof(path) else "ordinary") if moves else "other"
    return kind, len(parts), sum(len(p) for p in parts), max(len(line) for line in path.read_text().splitlines())


def chat_parts(path: Path, chat: chats.Chat) -> int:
    """How many messages of `chat` the turn code of the file at `path` takes."""
    return len(code.encode(read(path), chat.chars))


def share(rows: list[tuple[str, int, int, int]], kinds: tuple[str, ...]) -> tuple[int, float]:
    """How many of the files of `kinds` there are, and the share whose code is one part."""
    chosen = [r for r in rows if r[0] in kinds]
    return len(chosen), sum(r[1] == 1 for r in chosen) / max(1, len(chosen))


def one_game(root: Path, bots: tuple[str, str], think: float, seed: int, target: int = 1) -> tuple[int, list[tuple[int, Path]]]:
    """Play one game (a match to `target` points: games until then) to its end and back (keys returned); the longest
    game's turns and every file with its size. The players' homes stay under `root` (alice/, bob/)."""
    players = []
    for who in ("alice", "bob"):
        home = root / who
        home.mkdir(mode=0o700)
        players.append((load_or_create(home, name=who.title()), Journal.open(home)))
    mail = root / "mail"
    mail.mkdir()
    save, path = new_match(players[0][0], players[0][1], replace_rules(G4A, None, target), "Bob", out=mail / "invitation.toml")
    files = [(path.stat().st_size, path)]
    thinkers = [make_bot(bots[p], seed * 2 + p, think=think) for p in (0, 1)]
    reader, turns = 1, 0
    while True:
        identity, journal = players[reader]
        opened = open_save(path, identity, journal)
        if not opened.owes_file:
            break
        while opened.can_move:
            opened.seat.play(thinkers[opened.me].choose(opened.view))  # type: ignore[arg-type]
        save, path = answer(opened)
        files.append((path.stat().st_size, path))
        turns = max(turns, save.turn)
        reader = 1 - reader
    for _, journal in players:
        journal.close()
    return turns, files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--bots", default="expert,expert", help="the two bots, e.g. expert,expert or random,greedy")
    parser.add_argument("--think", type=float, default=0.01, help="seconds a searching bot may think per plan")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--target", type=int, default=1, help="points each match is played to: 1 plays one game a match")
    parser.add_argument("--chat", default="", help="chats to cut the codes for too, comma-separated, e.g. whatsapp,discord")
    args = parser.parse_args()
    chosen = [chats.find(name) for name in args.chat.split(",") if name.strip()]
    per_chat: dict[str, list[int]] = {chat.name: [] for chat in chosen}  # each file's parts, cut for each chat
    bots = tuple(args.bots.split(","))
    assert len(bots) == 2, "--bots takes two bot names"
    started = time.perf_counter()
    games, every, biggest, codes, sideless = [], [], (0, {}), [], 0
    kinds: dict[bool, list[int]] = {False: [], True: []}
    for g in range(args.games):
        with tempfile.TemporaryDirectory() as tmp:
            turns, files = one_game(Path(tmp), bots, args.think, args.seed + g, args.target)  # type: ignore[arg-type]
            size, path = max(files)
            games.append((turns, len(files), size))
            every += [s for s, _ in files]
            for s, p in files:
                kinds[carries_a_shuffle_proof(p)].append(s)
            codes += [code_row(p) for _, p in files]
            for chat in chosen:
                per_chat[chat.name] += [chat_parts(p, chat) for _, p in files]
            sideless += sum(left_out_a_side(p) for _, p in files)
            if size > biggest[0]:
                biggest = (size, parts(path))
        what = "game" if args.target == 1 else f"match to {args.target}"
        print(f"{what} {g + 1}: {turns} turns (longest game), {len(files)} files, largest {size:,} B", flush=True)
    every.sort()
    result = {
        "games": args.games,
        "bots": list(bots),
        "files": len(every),
        "median_bytes": statistics.median(every),
        "p99_bytes": every[min(len(every) - 1, int(0.99 * len(every)))],
        "max_bytes": every[-1],
        "limit_bytes": MAX_BYTES,
        "ordinary": summary(kinds[False]),
        "with_shuffle_proof": summary(kinds[True]),
        "longest_game_turns": max(t for t, _, _ in games),
        "largest_file_parts": biggest[1],
        "longest_line": max(r[3] for r in codes),
        "files_without_the_receivers_side": sideless,
        "code_one_part_share": {
            name: {"files": n, "share": round(one, 4)}
            for name, kinds in (("all", ("ordinary", "turn", "other")), ("turns", ("ordinary", "turn")), ("ordinary", ("ordinary",)))
            for n, one in [share(codes, kinds)]
        },
        "code_chars_median": statistics.median(r[2] for r in codes),
        "code_chars_median_ordinary": statistics.median(r[2] for r in codes if r[0] == "ordinary"),
        "code_chars_max": max(r[2] for r in codes),
        "code_parts_max": max(r[1] for r in codes),
        "code_parts_histogram": {n: sum(r[1] == n for r in codes) for n in sorted({r[1] for r in codes})},
        "files_over_max_parts": sum(r[1] > code.MAX_PARTS for r in codes),
        "chats": {
            name: {
                "part_chars": chats.find(name).chars,
                "one_part": sum(n == 1 for n in counts),
                "parts_max": max(counts),
                "parts_histogram": {n: counts.count(n) for n in sorted(set(counts))},
                "files_as_attachments": sum(n > code.MAX_PARTS for n in counts),
            }
            for name, counts in per_chat.items()
        },
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(f"\n{len(every)} files in {args.games} games ({args.bots}); longest game {result['longest_game_turns']} turns")
    median, p99, top = result["median_bytes"], result["p99_bytes"], result["max_bytes"]
    print(f"median {median:,.0f} B, 99th percentile {p99:,} B, max {top:,} B, limit {MAX_BYTES:,} B")
    for label, kind, budget in (("ordinary turn files", False, ORDINARY_BUDGET), ("files with a proof of shuffle", True, PROVEN_BUDGET)):
        k = summary(kinds[kind])
        if k["files"]:
            verdict = "ok" if k["max"] <= budget else "OVER"
            spread = f"median {k['median']:,.0f} B, p99 {k['p99']:,} B, max {k['max']:,} B"
            print(f"{label}: {k['files']}, {spread}; budget {budget:,} B: {verdict}")
    print(f"longest line of any file: {result['longest_line']} characters")
    print(f"files that left out the receiver's side (they would not have fitted with it): {sideless}")
    for name, row in result["code_one_part_share"].items():
        print(f"turn codes in one message, {name}: {row['share']:.1%} of {row['files']:,} files")
    print(
        f"turn code length: median {result['code_chars_median']:,.0f} characters "
        f"(ordinary turns {result['code_chars_median_ordinary']:,.0f}), max {result['code_chars_max']:,}; "
        f"most parts {result['code_parts_max']}, parts per file {result['code_parts_histogram']}, "
        f"{result['files_over_max_parts']} files over {code.MAX_PARTS} parts (sent as files)"
    )
    for name, row in result["chats"].items():
        print(
            f"cut for {chats.find(name).title} (parts of at most {row['part_chars']:,} characters): {row['one_part']} of {len(every)} "
            f"files in one message, most parts {row['parts_max']}, parts per file {row['parts_histogram']}, "
            f"{row['files_as_attachments']} files over {code.MAX_PARTS} parts (sent as attachments)"
        )
    print("largest file, bytes by field: " + ", ".join(f"{k} {v:,}" for k, v in sorted(biggest[1].items(), key=lambda kv: -kv[1])))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
