"""`spite id`: the identity made on first use, its name (as an invitation carries it), and protecting it with a passphrase."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from typer.testing import CliRunner, Result

from pbm.cli import app
from pbm.identity import load_or_create

runner = CliRunner()


def spite(home: Path, *args: str | Path, input: str | None = None, passphrase: str | None = None) -> Result:
    env = {"SPITE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "100", "SPITE_PASSPHRASE": passphrase}
    return runner.invoke(app, [str(a) for a in args], input=input, env=env)


def test_id_creates_a_private_key_on_first_use_and_shows_the_same_key_after(tmp_path: Path) -> None:
    first = spite(tmp_path, "id", "--name", "Alice")
    assert first.exit_code == 0, first.output
    assert "name:        Alice" in first.stdout and "public key:  spite1:" in first.stdout
    assert stat.S_IMODE((tmp_path / "identity.pem").stat().st_mode) == 0o600
    again = spite(tmp_path, "id")
    assert again.stdout == first.stdout
    assert "PRIVATE KEY" not in first.output


def test_a_passphrase_protects_the_key_and_a_wrong_one_is_refused_in_one_line(tmp_path: Path) -> None:
    plain = spite(tmp_path, "id", "--name", "Alice").stdout
    set_it = spite(tmp_path, "id", "--passphrase", input="open sesame\nopen sesame\n")
    assert set_it.exit_code == 0, set_it.output
    assert "protected" in set_it.stdout
    assert b"ENCRYPTED PRIVATE KEY" in (tmp_path / "identity.pem").read_bytes()

    right = spite(tmp_path, "id", passphrase="open sesame")
    assert right.exit_code == 0 and right.stdout == plain  # the same key, the same name

    wrong = spite(tmp_path, "id", passphrase="guess")
    assert wrong.exit_code == 1
    assert wrong.stderr.startswith("spite: ") and wrong.stderr.count("\n") == 1 and "Traceback" not in wrong.output

    cleared = spite(tmp_path, "id", "--passphrase", input="\n\n", passphrase="open sesame")
    assert cleared.exit_code == 0 and "no passphrase" in cleared.stdout
    assert spite(tmp_path, "id").stdout == plain


def test_an_invitation_to_a_key_without_a_name_takes_the_joiners_own_name(tmp_path: Path) -> None:
    alice, bob, mail = tmp_path / "alice", tmp_path / "bob", tmp_path / "mail"
    mail.mkdir()
    assert spite(bob, "id", "--name", "Bob").exit_code == 0
    key = load_or_create(bob).public_text
    assert spite(alice, "new", "--name", "Alice", "--opponent-key", key, "-o", mail / "invitation.toml").exit_code == 0
    assert spite(bob, "play", mail / "invitation.toml", "-o", mail / "dealt.toml").exit_code == 0
    run = spite(alice, "show", "--json", mail / "dealt.toml")
    assert run.exit_code == 0, run.output
    assert set(json.loads(run.stdout)["scores"]) == {"Alice", "Bob"}
