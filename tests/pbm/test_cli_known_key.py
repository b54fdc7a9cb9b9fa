"""A key met again in a new match (issue 34): the same opponent with the key the player went on with before is one line
and no question; another key under a name the player knows gets the whole first contact, the question, and says that
it is not the key they confirmed."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import THINK, Player, files, invite, make_player, new_file

import pbm.cli.play
from pbm import saves

QUESTION = "Go on with this key for"


@pytest.fixture()
def at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """spite play as at a terminal, the answers typed being the runner's input: it asks what it would ask a player."""
    monkeypatch.setattr(pbm.cli.play, "_interactive_terminal", lambda: True)


def _invited(alice: Player, folder: Path, name: str) -> Path:
    """A new invitation of Alice's to whoever answers (made out to Bob), written to `folder`/`name`."""
    path = folder / name
    alice.ok("new", "--opponent", "Bob", "--payoff", "5", "--target", "10", "-o", path)
    return path


def _match(path: Path) -> str:
    return saves.read(path).match[:8]


@pytest.mark.usefixtures("at_a_terminal")
def test_a_key_confirmed_in_another_match_is_one_line_and_another_key_for_that_name_is_asked(tmp_path: Path) -> None:
    alice, bob, first = invite(tmp_path)
    folder = first.parent
    run = bob.spite("play", first, input="n\n")  # Bob does not go on with Alice's key: it is kept, and not confirmed
    assert run.exit_code == 1 and QUESTION in run.stdout, run

    second = _invited(alice, folder, "second.toml")
    before = files(folder)
    run = bob.ok("play", second, input="y\n")  # met again, asked again; now each goes on with the other's key
    assert "First contact" in run.stdout and QUESTION in run.stdout and "you confirmed" not in run.stdout, run
    dealt = new_file(before, folder)
    assert dealt is not None
    assert QUESTION in alice.ok("play", dealt, "--auto", "--think", THINK, input="y\n").stdout

    third = _invited(alice, folder, "third.toml")
    run = bob.ok("play", third, input="")  # nothing typed: a question would end it
    said = f"Alice's key ({alice.identity.fingerprint}) is the key you confirmed in match {_match(second)}: nothing to check again."
    assert said in run.stdout and "First contact" not in run.stdout and QUESTION not in run.stdout, run

    # Mallory calls herself bob and invites Alice
    mallory = make_player(tmp_path, "Mallory")
    mallory.ok("id", "--name", "bob")
    forged = folder / "forged.toml"
    mallory.ok("new", "--opponent", "Alice", "-o", forged)
    before = files(folder)
    run = alice.spite("play", forged, input="n\n")
    assert run.exit_code == 1 and new_file(before, folder) is None, run
    assert f"fingerprint: {mallory.identity.fingerprint}" in run.stdout and QUESTION in run.stdout, run
    warning = f"Warning: this key differs from the one you confirmed for Bob in match {_match(second)} ({bob.identity.fingerprint}): "
    assert warning + "ask bob whether they have a new key" in run.stdout and "is the key you confirmed" not in run.stdout, run
