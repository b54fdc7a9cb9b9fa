"""`spite id`: the identity made on first use, its name (as an invitation carries it), and protecting it with a passphrase."""

from __future__ import annotations

import json
import os
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


# --- a lost or exposed key ---


def one_line(result: Result, *fragments: str) -> str:
    assert result.exit_code == 1, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: ") and "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def test_a_home_with_a_journal_but_no_key_is_refused_and_gets_no_new_key(tmp_path: Path) -> None:
    home, mail = tmp_path / "alice", tmp_path / "mail"
    mail.mkdir()
    assert spite(home, "new", "--name", "Alice", "-o", mail / "invitation.toml").exit_code == 0
    key = home / "identity.pem"
    key.unlink()
    for args in (("id",), ("show", mail / "invitation.toml"), ("play", mail / "invitation.toml"), ("new",), ("games",)):
        one_line(spite(home, *args), "has a journal but no identity", "restore it from a backup", "spite id --new-key")
        assert not key.exists()
    made = spite(home, "id", "--new-key", "--name", "Alice")
    assert made.exit_code == 0 and key.exists(), made.output
    one_line(spite(home, "id", "--new-key"), "you have a key already")
    assert spite(home, "id").stdout == made.stdout


def test_a_link_to_a_key_that_is_not_there_is_never_replaced(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    key = home / "identity.pem"
    key.symlink_to(tmp_path / "usb-stick" / "identity.pem")
    for args in (("id",), ("id", "--name", "Alice"), ("new", "-o", tmp_path / "invitation.toml")):
        one_line(spite(home, *args), "is a link to", "which is not there", "will not replace it")
        assert key.is_symlink() and os.readlink(key) == str(tmp_path / "usb-stick" / "identity.pem")
    assert not (tmp_path / "invitation.toml").exists()


def test_a_link_to_a_key_stays_a_link_when_the_name_changes(tmp_path: Path) -> None:
    home, stick = tmp_path / "home", tmp_path / "usb-stick"
    assert spite(stick, "id", "--name", "Alice").exit_code == 0
    home.mkdir(mode=0o700)
    (home / "identity.pem").symlink_to(stick / "identity.pem")
    renamed = spite(home, "id", "--name", "Alicia")
    assert renamed.exit_code == 0 and "name:        Alicia" in renamed.stdout, renamed.output
    assert (home / "identity.pem").is_symlink()
    key_lines = renamed.stdout.splitlines()[:3]  # name, fingerprint, public key (the spite home line differs)
    assert spite(stick, "id").stdout.splitlines()[:3] == key_lines  # the key the link points to got the new name


def test_a_key_file_others_can_read_is_warned_about(tmp_path: Path) -> None:
    assert spite(tmp_path, "id", "--name", "Alice").stderr == ""
    key = tmp_path / "identity.pem"
    for mode in (0o644, 0o666, 0o640):
        key.chmod(mode)
        run = spite(tmp_path, "id")
        assert run.exit_code == 0 and f"can be read by others (mode {mode:04o})" in run.stderr and "chmod 600" in run.stderr, run.output
    key.chmod(0o600)
    tmp_path.chmod(0o777)
    run = spite(tmp_path, "id")
    assert "can be changed by others (mode 0777)" in run.stderr and "chmod 700" in run.stderr, run.output
    tmp_path.chmod(0o700)
    assert spite(tmp_path, "id").stderr == ""


def test_the_journal_is_private_from_its_first_byte(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        assert spite(tmp_path, "new", "--name", "Alice", "-o", tmp_path / "invitation.toml").exit_code == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "journal.sqlite").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "identity.pem").stat().st_mode) == 0o600


def test_a_key_file_that_never_ends_is_refused_in_one_line(tmp_path: Path) -> None:
    tmp_path.chmod(0o700)
    (tmp_path / "identity.pem").symlink_to("/dev/zero")
    one_line(spite(tmp_path, "id"), "far too big to be a key file")


def test_a_command_that_only_looks_never_makes_a_key_in_a_home_without_one(tmp_path: Path) -> None:
    """A mistyped SPITE_HOME: games, show and verify name the home that has no key, and leave it as it was."""
    real = tmp_path / "home"
    assert spite(real, "id", "--name", "Alice").exit_code == 0
    mistyped = tmp_path / "hmoe"
    saved = Path(__file__).parents[2] / "examples" / "saves" / "01-alice.toml"
    for args in (("games",), ("show", saved), ("verify", saved)):
        run = spite(mistyped, *args)
        assert run.exit_code == 1, run.output
        assert f"there is no spite key in {mistyped} (SPITE_HOME)" in " ".join(run.stderr.split()), run.output
        assert not mistyped.exists() or not any(mistyped.iterdir()), run.output
    run = spite(mistyped, "games")
    assert "Nothing was made; 'spite id' makes a key there" in " ".join(run.stderr.split())
    assert "No matches yet" in spite(real, "games").stdout  # the real home lists as before
