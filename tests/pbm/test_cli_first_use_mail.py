"""The words of the mail loop a friend follows (issue 20, item 11): what new --send and inbox --play tell each player."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import make_player, scratch
from mail_servers import MailServers, mail_servers


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailServers]:
    with scratch(tmp_path_factory.mktemp("mail")) as root, mail_servers(root / "mail") as running:
        yield running


def test_new_send_points_to_inbox_play_which_does_not_point_to_itself(servers: MailServers, tmp_path: Path) -> None:
    alice, bob = make_player(tmp_path, "Alice"), make_player(tmp_path, "Bob")
    accounts = {p.name: servers.account(p.name) for p in (alice, bob)}
    env = {name: {"SPITE_MAIL_PASSWORD": a.password} for name, a in accounts.items()}
    for p in (alice, bob):
        p.ok(*servers.setup_args(accounts[p.name]), env=env[p.name])
    sent = alice.ok("new", "-o", tmp_path / "invitation.toml", "--send", "--to", accounts["Bob"].address, env=env["Alice"])
    assert "They answer it with: spite inbox --play" in sent.stdout and "spite play invitation.toml" not in sent.stdout, sent
    played = bob.ok("inbox", "--play", env=env["Bob"])
    assert "Opening " in played.stdout and "spite inbox --play" not in played.stdout, played
