"""spite record: a finished game from either player's home, byte for byte the same, replayed through the engine; its page."""

from __future__ import annotations

import copy
import json
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import Player, answer, assert_refused, invite, scratch, spite_process

from engine.cards import Card
from engine.record import ReplayError, log_from_data, replay
from engine.rules import Ruleset
from pbm import saves


@dataclass(frozen=True)
class Played:
    """A match played into game 2 or later (turn 2 or later of it): game 1 over and audited by both, game `playing` in play."""

    alice: Player
    bob: Player
    root: Path
    match: str
    files: list[Path]
    playing: int


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    """Game 1 of piles of 3 played out, and game 2 two turns in. Game 1 is dealt again when it ended on its first turn (the
    starter played out all three pay-off cards, about 1 game in 40): the browser test steps through at least two turns."""
    with scratch(tmp_path_factory.mktemp("record")) as scratch_root:
        for attempt in range(1, 4):
            root = scratch_root / f"match-{attempt}"
            root.mkdir()
            alice, bob, path = invite(root, payoff=3, target=20)
            files = [path]
            for n in range(200):
                path = answer((bob, alice)[n % 2], path)
                files.append(path)
                save = saves.read(path)
                if save.game >= 2 and save.turn >= 2 and not save.state.get("outcome"):
                    break
            if _game_end(files, 1).turn >= 2:
                break
        yield Played(alice, bob, root, save.match, files, save.game)


def _json(player: Player, match: str, *more: str) -> dict[str, Any]:
    return json.loads(player.ok("record", match[:8], "--json", *more).stdout)


def _game_end(files: list[Path], game: int) -> saves.SaveFile:
    """The save of the file whose turn ended `game`: its public table has the outcome."""
    return next(s for s in map(saves.read, files) if s.game == game and s.state.get("outcome"))


def test_both_players_records_of_a_finished_game_are_byte_identical(played: Played) -> None:
    a = played.alice.ok("record", played.match[:8], "--game", "1", "--json").stdout
    b = played.bob.ok("record", played.match[:8], "--game", "1", "--json").stdout
    assert a == b
    assert played.alice.ok("record", played.match[:8]).stdout == played.bob.ok("record", played.match[:8]).stdout
    data = json.loads(a)
    assert data["final"] is True and data["game"] == 1 and data["players"] == ["Alice", "Bob"]
    assert _json(played.alice, played.match) == _json(played.alice, played.match, "--game", str(played.playing - 1))  # by default


def test_the_record_replays_through_the_engine_to_the_moves_table_and_result_of_the_files(played: Played) -> None:
    data = _json(played.alice, played.match, "--game", "1")
    ruleset = Ruleset(**data["rules"])
    frames = replay(log_from_data(data, ruleset))
    end = _game_end(played.files, 1)
    assert [(t.by, t.moves) for t in end.history] == [(t["by"], t["moves"]) for t in data["turns"]]
    last, table = frames[-1].state, end.state
    cards = lambda ids: [str(Card.from_index(i)) for i in ids]  # noqa: E731
    assert [[str(c) for c in s] for s in last.center] == [cards(s) for s in table["center"]]
    assert last.stock_count == table["stock"] == len(frames[-1].stock)
    for p, seen in enumerate(table["players"]):
        me = last.players[p]
        assert [[str(c) for c in s] for s in me.side] == [cards(s) for s in seen["side"]]
        assert (me.payoff_count, me.hand_count) == (seen["payoff"], seen["hand"])
        assert (str(me.payoff_top) if me.payoff_top else -1) == (cards([seen["top"]])[0] if seen["top"] != -1 else -1)
    outcome = table["outcome"]
    tie = outcome["winner"] == -1
    assert data["result"] == {"winner": None if tie else outcome["winner"], "score": outcome["points"], "how": "tie" if tie else "out"}
    assert end.score == tuple(data["result"]["score"] if p == data["result"]["winner"] else 0 for p in (0, 1))
    # every card of the deck once in the deal, and both hands dealt as the players held them
    deal = data["deal"]
    assert sorted(deal["payoff"][0] + deal["payoff"][1] + deal["hands"][0] + deal["hands"][1] + deal["stock"]) == sorted(
        str(c) for c in (Card.from_index(i) for i in range(ruleset.deck_size))
    )
    assert frames[-1].hands[0] or frames[-1].hands[1]


def test_a_changed_record_does_not_replay(played: Played) -> None:
    data = _json(played.alice, played.match, "--game", "1")
    ruleset = Ruleset(**data["rules"])
    dealt = copy.deepcopy(data)  # a third copy of a card in the deal (two decks hold two of each)
    stock = dealt["deal"]["stock"]
    stock[0] = next(c for c in dealt["deal"]["hands"][0] + dealt["deal"]["hands"][1] + stock if c != stock[0])
    with pytest.raises(ReplayError):
        log_from_data(dealt, ruleset)
    drawing = copy.deepcopy(data)
    drawn = next((t for t in drawing["turns"] if t["draw"]), None)  # a short game may end before anyone draws
    if drawn is not None:
        drawn["draw"][0] = "Kc" if drawn["draw"][0] != "Kc" else "Kd"
        with pytest.raises(ReplayError):
            log_from_data(drawing, ruleset)
    moves = copy.deepcopy(data)
    moves["turns"][0]["moves"] = "end"
    moves["turns"][0]["cards"] = [None]
    with pytest.raises(ReplayError):
        log_from_data(moves, ruleset)
    result = copy.deepcopy(data)
    winner = result["result"]["winner"]
    result["result"]["winner"] = 0 if winner is None else 1 - winner
    with pytest.raises(ReplayError, match="ends"):
        log_from_data(result, ruleset)


def test_the_record_needs_nothing_but_the_home_once_the_files_are_gone(played: Played, tmp_path: Path) -> None:
    before = played.bob.ok("record", played.match[:8], "--game", "1", "--json").stdout
    mail, away = played.root / "mail", played.root / "mail-away"
    home = tmp_path / "old-home"
    shutil.copytree(played.bob.home, home)
    mail.rename(away)  # every file of the match gone: the journal's messages are enough
    try:
        alone = played.bob.ok("record", played.match[:8], "--game", "1", "--json").stdout
        # a journal of before it kept the messages (schema 4) has only its own files' bytes and the received files' places
        with sqlite3.connect(home / "journal.sqlite") as db:
            db.execute("DELETE FROM messages")
        old = Player("Bob", home)
        assert_refused(old.spite("record", played.match[:8], "--game", "1"), "is not at", "any more", "put it back")
    finally:
        away.rename(mail)
    assert alone == before
    assert old.ok("record", played.match[:8], "--game", "1", "--json").stdout == before  # read again from the files


def test_a_game_in_play_gives_only_what_the_player_may_see(played: Played) -> None:
    for player, seat in ((played.alice, 0), (played.bob, 1)):
        data = _json(player, played.match, "--game", str(played.playing))
        assert data["final"] is False and data["you"] == seat and data["result"] is None
        assert "deal" not in data and all(set(t) == {"turn", "by", "moves"} for t in data["turns"])
        table = data["table"]
        assert len(table["hand"]) == table["hand_count"][seat]
        assert "hands" not in table and all(set(p) == {"top", "count"} for p in table["payoff"])
    text = played.alice.ok("record", played.match[:8], "--game", str(played.playing)).stdout
    assert "not over and audited yet" in text
    run = played.alice.spite("record", played.match[:8], "--game", str(played.playing), "--html", played.root / "no.html")
    assert_refused(run, "not over and audited yet")
    assert not (played.root / "no.html").exists()


def test_refusals_name_what_is_wrong_in_one_line(played: Played) -> None:
    assert_refused(played.alice.spite("record", "ffffffff"), "no match that starts with ffffffff")
    assert_refused(played.alice.spite("record", played.match[:8], "--game", "99"), "has no game 99")
    run = played.alice.spite("record", played.match[:8], "--game", "1", "--html", played.root)
    assert run.exit_code == 2 and run.stdout == "" and run.stderr.count("\n") == 1 and "is a directory" in run.stderr, run


class _Page(HTMLParser):
    """What a page refers to outside itself, its embedded JSON, its elements, and the text of its title and heading."""

    def __init__(self) -> None:
        super().__init__()
        self.outside: list[str] = []
        self.scripts: dict[str, str] = {}
        self.tags: list[str] = []
        self.texts: dict[str, str] = {"title": "", "h1": ""}
        self._script: str | None = None
        self._text: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "srcset", "action", "data", "poster") or (value and "url(" in value):
                self.outside.append(f"<{tag} {name}={value}>")
        if tag in ("link", "iframe", "object", "embed", "img", "base"):
            self.outside.append(tag)
        self._script = dict(attrs).get("id") or "" if tag == "script" else None
        self._text = tag if tag in self.texts else None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] = self.scripts.get(self._script, "") + data
        if self._text is not None:
            self.texts[self._text] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None
        self._text = None


def _page(played: Played) -> tuple[Path, str]:
    path = played.root / "game1.html"
    if not path.exists():
        run = played.alice.ok("record", played.match[:8], "--game", "1", "--html", path)
        assert "Wrote" in run.stdout
    return path, path.read_text(encoding="utf-8")


def test_the_page_is_self_contained_and_embeds_the_record(played: Played) -> None:
    _, text = _page(played)
    parser = _Page()
    parser.feed(text)
    assert parser.outside == []
    assert "http://" not in text and "https://" not in text and "@import" not in text
    assert json.loads(parser.scripts["record"]) == _json(played.bob, played.match, "--game", "1")
    frames = json.loads(parser.scripts["frames"])
    data = json.loads(parser.scripts["record"])
    assert len(frames) == len(data["turns"]) + 1 and frames[-1]["over"] and not frames[0]["over"]
    assert frames[0]["players"][0]["hand"] == data["deal"]["hands"][0]


def test_the_page_names_its_language_and_keeps_the_record_as_it_is(played: Played) -> None:
    from pbm.replay_page import page

    data = _json(played.alice, played.match, "--game", "1")
    _, english = _page(played)
    assert '<html lang="en">' in english
    assert '<html lang="pt-BR">' in page(data, "pt_BR") and '<html lang="fil">' in page(data, "fil")  # BCP 47
    path = played.root / "game1-vi.html"
    done = spite_process(
        played.alice.home, "record", played.match[:8], "--game", "1", "--html", path, SPITE_LANG="vi", PYTHONIOENCODING="utf-8"
    )
    assert done.returncode == 0, done.stderr
    text = path.read_text(encoding="utf-8")
    assert '<html lang="vi">' in text
    parser = _Page()
    parser.feed(text)
    assert json.loads(parser.scripts["record"]) == data  # the record is never translated
    labels = json.loads(parser.scripts["labels"])
    assert len(labels["payoff"]) > max(p["count"] for f in json.loads(parser.scripts["frames"]) for p in f["players"])


def _placeholders() -> list[str]:
    """Every placeholder of the page's template, as it is written there (``{{record}}``)."""
    from pbm.replay_page import _PAGE

    found = sorted(set(re.findall(r"\{\{\w+\}\}", _PAGE)))
    assert "{{record}}" in found and "{{title}}" in found
    return found


def _hostile_names() -> list[tuple[str, str]]:
    """Pairs of player names that a page filled by chained replaces, or a script not escaped, would break."""
    every = " ".join(_placeholders())
    return [
        ("Bob {{record}}", "Alice {{title}}"),
        (f"Bob {every}", f"Alice {every}"),
        ("</script><script>document.title='owned'</script>", "<!-- \"Al\" & 'Ice' &amp; </SCRIPT --> ]]>"),
        ("{name} {turn} {moves} {other} {cards} {n} {loser} {card}", "$& $1 \\1 \\g<0> {{ }} {{}}"),
    ]


def _title(data: dict[str, Any]) -> str:
    first, second = data["players"]
    return f"spite · match {data['match'][:8]} · game {data['game']} · {first} against {second}"


def test_names_holding_the_templates_placeholders_or_markup_leave_the_page_whole(played: Played) -> None:
    from pbm.replay_page import page

    data = _json(played.alice, played.match, "--game", "1")
    plain = page(data, "en")
    assert re.search(r"\{\{\w*\}\}", plain) is None  # every placeholder of the template is filled
    assert set(_placeholders()) <= set(re.findall(r"\{\{\w+\}\}", _hostile_names()[1][0]))  # the names hold every one
    for names in _hostile_names():
        hostile = copy.deepcopy(data)
        hostile["players"] = list(names)
        text = page(hostile, "en")
        parser = _Page()
        parser.feed(text)
        parser.close()
        assert json.loads(parser.scripts["record"]) == hostile, names  # the record, whole, parses
        assert len(json.loads(parser.scripts["frames"])) == len(data["turns"]) + 1
        labels = json.loads(parser.scripts["labels"])
        assert names[data["starter"]] in labels["start"]
        assert parser.texts["title"] == parser.texts["h1"] == _title(hostile), names  # shown as written, nothing pasted in
        assert parser.tags.count("script") == 4 and set(parser.scripts) == {"record", "frames", "labels", ""}, names
        assert parser.outside == []
        # nothing of the page was filled in again: it grew by the names alone (a few times each), not by a record or a frame
        assert len(text) - len(plain) < 12 * len("".join(names)), names


def test_a_page_of_players_with_hostile_names_shows_them_as_written_in_a_real_browser(played: Played) -> None:
    from pbm.replay_page import page

    data = _json(played.alice, played.match, "--game", "1")
    browser = _browser()
    from selenium.webdriver.common.by import By

    turns = len(data["turns"])
    try:
        for n, names in enumerate(_hostile_names()):
            hostile = copy.deepcopy(data)
            hostile["players"] = list(names)
            path = played.root / f"hostile-{n}.html"
            path.write_text(page(hostile, "en"), encoding="utf-8")
            browser.get(path.resolve().as_uri())
            body = browser.find_element(By.TAG_NAME, "body")
            assert body.get_attribute("data-at") == "0", names  # the page's script ran
            assert browser.title == _title(hostile) and browser.find_element(By.ID, "title").text == _title(hostile).strip()
            assert browser.execute_script("return document.scripts.length") == 4
            seats = [browser.find_element(By.CSS_SELECTOR, f"#seat{p} .name").get_attribute("textContent") for p in (0, 1)]
            assert all(seat.startswith(names[p]) for p, seat in enumerate(seats)), (names, seats)
            starter = names[data["starter"]]
            assert browser.find_element(By.ID, "turn").get_attribute("textContent").startswith(f"{starter} starts."), names
            browser.find_element(By.ID, "next").click()
            mover = names[data["turns"][0]["by"]]
            assert browser.find_element(By.ID, "turn").get_attribute("textContent").startswith(f"{mover} played "), names
            browser.find_element(By.ID, "last").click()
            assert body.get_attribute("data-at") == str(turns)
            winner = data["result"]["winner"]
            said = "A tie" if winner is None else f"{names[winner]} wins"
            assert browser.find_element(By.ID, "result").get_attribute("textContent").startswith(said), names
            errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
            assert errors == [], names
    finally:
        browser.quit()


def _browser() -> Any:
    """A headless Chromium driven by selenium, or a skip saying what is missing."""
    chromium, driver = shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("no chromium and chromedriver installed (apt-get install chromium chromium-driver): the page's browser test is skipped")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]'): the page's browser test is skipped")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"]
    flags += ["--disable-component-update", "--disable-sync", f"--user-data-dir={tempfile.mkdtemp()}", "--window-size=1100,900"]
    for flag in flags:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver), options=options)


def test_the_page_steps_through_the_game_in_a_real_browser(played: Played) -> None:
    path, _ = _page(played)
    browser = _browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    data = _json(played.alice, played.match, "--game", "1")
    turns = len(data["turns"])
    try:
        browser.get(path.resolve().as_uri())
        at = lambda: int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-at"))  # noqa: E731
        where = lambda: browser.find_element(By.ID, "where").text  # noqa: E731
        assert at() == 0 and where() == "The deal"
        hand = [c.get_attribute("title").split()[0] for c in browser.find_elements(By.CSS_SELECTOR, "#seat0 .place:last-child .card")]
        assert hand == data["deal"]["hands"][0]
        browser.find_element(By.ID, "next").click()
        assert (
            at() == 1
            and where() == f"Turn 1 of {turns}"
            and data["turns"][0]["moves"].split()[0] in browser.find_element(By.ID, "turn").text
        )
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT)
        assert at() == 2
        body.send_keys(Keys.ARROW_LEFT)
        assert at() == 1
        browser.find_element(By.ID, "last").click()
        assert at() == turns and where() == f"Turn {turns} of {turns}"
        assert browser.find_element(By.ID, "next").get_attribute("disabled") is not None
        winner = data["result"]["winner"]
        said = "A tie" if winner is None else f"{data['players'][winner]} wins"
        assert browser.find_element(By.ID, "result").text.startswith(said)
        assert browser.find_elements(By.CSS_SELECTOR, ".card.revealed")
        shot = played.root / "game1.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 1000
        body.send_keys(Keys.HOME)
        assert at() == 0
        errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
        assert errors == []
    finally:
        browser.quit()
