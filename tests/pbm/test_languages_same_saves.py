"""Two players of different languages play one match, each in their own: the files are byte for byte what they would
be in English. The same seeded match is played twice, once with both players in English and once with Alice in
Vietnamese and Bob in Portuguese, and every file is compared."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Player, make_player

import pbm.cli.play
import pbm.protocol.dealing
import pbm.protocol.deck
import pbm.secrets
from pbm import i18n
from pbm.protocol.deck import seeded_rng

FILES = 14  # the invitation, the deal of game 1 and enough turns to draw, complete stacks and reshuffle now and then


def greedy(name: str, seed: int = 0, think: float | None = None) -> Any:
    """The bot that plays `--auto`, made deterministic: the expert stops on a wall clock (which load may move)."""
    from engine.bots import make_bot

    return make_bot("greedy", seed)


def play(root: Path, homes: Path, langs: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, bytes], list[str]]:
    """The seeded match under `root` with copies of the homes in `homes`, each player speaking their language of `langs`;
    returns every file it wrote, by name, and all that the players were told."""
    rng = seeded_rng("same saves in every language")
    monkeypatch.setattr(pbm.protocol.deck, "SYSTEM_RNG", rng)
    monkeypatch.setattr(pbm.protocol.dealing, "SYSTEM_RNG", rng)
    monkeypatch.setattr(pbm.secrets.seal, "__defaults__", (rng,))
    monkeypatch.setattr("os.urandom", rng)  # the match id, the seed of the bot
    monkeypatch.setattr(pbm.cli.play, "_make_bot", greedy)
    shutil.copytree(homes, root)
    players = {name: Player(name, root / f"home-{name.lower()}") for name in ("Alice", "Bob")}
    told: list[str] = []

    def spite(name: str, *args: str | Path) -> str:
        i18n.setup(["--lang", langs[name]], {}, encoding="utf-8")
        try:
            run = players[name].ok("--lang", langs[name], *args)
        finally:
            i18n.setup([], {"SPITE_LANG": "en"})
        told.append(run.output)
        return run.output

    mail = root / "mail"
    mail.mkdir()
    spite("Alice", "new", "--opponent", "Bob", "--payoff", "5", "--target", "10", "-o", mail / "invitation.toml")
    path, reader = mail / "invitation.toml", "Bob"
    while len(list(mail.iterdir())) < FILES:
        before = set(mail.iterdir())
        spite(reader, "play", path, "--auto", "--yes")
        new = sorted(set(mail.iterdir()) - before)
        if not new:
            break
        (path,) = new
        reader = "Alice" if reader == "Bob" else "Bob"
    return {p.name: p.read_bytes() for p in sorted(mail.iterdir())}, told


def test_a_match_between_players_of_two_languages_writes_the_same_bytes_as_in_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    homes = tmp_path / "homes"
    for name in ("Alice", "Bob"):
        make_player(homes, name)
    english, told_english = play(tmp_path / "english", homes, {"Alice": "en", "Bob": "en"}, monkeypatch)
    mixed, told_mixed = play(tmp_path / "mixed", homes, {"Alice": "vi", "Bob": "pt_BR"}, monkeypatch)
    assert len(english) >= 8, sorted(english)
    assert sorted(mixed) == sorted(english)
    for name, data in english.items():
        assert mixed[name] == data, f"{name} differs between the English match and the Vietnamese-Portuguese one"
    assert "Wrote " in told_english[0] and "Wrote " not in told_mixed[0], told_mixed[0]  # each player read their own language
    i18n.setup(["--lang", "vi"], {}, encoding="utf-8")
    try:
        wrote_vi = i18n._("Wrote {file}").split("{file}")[0]
    finally:
        i18n.setup([], {"SPITE_LANG": "en"})
    assert wrote_vi.strip() and wrote_vi in told_mixed[0], told_mixed[0]
