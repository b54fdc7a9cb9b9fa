"""The spite command as a whole: version, completion, help, one style of error, global flags, and the small courtesies."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import Player, assert_refused, files, make_player, needs_pty, new_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
COMMANDS = (
    "id",
    "new",
    "play",
    "show",
    "verify",
    "games",
    "record",
    "stats",
    "practice",
    "arena",
    "chat",
    "send",
    "inbox",
    "resend",
    "resign",
    "forget",
)
WITH_FILE = ("play", "show", "verify")


def process(home: Path, *args: str | Path, columns: int = 100) -> subprocess.CompletedProcess[str]:
    """`python -m pbm.cli ARGS` as a real process with its output to a pipe."""
    env = {**os.environ, "SPITE_HOME": str(home), "NO_COLOR": "1", "COLUMNS": str(columns)}
    env.pop("SPITE_PASSPHRASE", None)
    return subprocess.run([sys.executable, "-m", "pbm.cli", *map(str, args)], env=env, capture_output=True, text=True, timeout=60)


def usage_error(run_: object, *fragments: str) -> str:
    """A usage error: exit status 2, one line on stderr, `spite: ...`, pointing at the help."""
    exit_code, stderr = getattr(run_, "exit_code", None), run_.stderr  # type: ignore[attr-defined]
    exit_code = getattr(run_, "returncode", exit_code)
    assert exit_code == 2, run_
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: ") and re.search(r"\(see 'spite( \w+)? --help'\)$", lines[0]), run_
    for fragment in fragments:
        assert fragment in lines[0], run_
    return lines[0]


def test_version(tmp_path: Path) -> None:
    run = Player("A", tmp_path).ok("--version")
    assert re.fullmatch(r"spite \S+\n", run.stdout), run


def test_shell_completion_is_offered_and_completes_commands(tmp_path: Path) -> None:
    assert "--install-completion" in Player("A", tmp_path).ok("--help").stdout
    env = {**os.environ, "SPITE_HOME": str(tmp_path), "_SPITE_COMPLETE": "complete_bash", "COMP_WORDS": "spite pra", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "pbm.cli"], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["practice"], done


@pytest.mark.parametrize("name", COMMANDS)
def test_every_help_has_an_example_and_names_its_file_FILE(tmp_path: Path, name: str) -> None:
    text = Player("A", tmp_path).ok(name, "--help").stdout
    assert f"Example: spite {name}" in " ".join(text.split()), text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage and "<" not in usage, usage
    if name in WITH_FILE:  # FILE may be left out for --paste (the clipboard)
        assert usage.split() == ["Usage:", "spite", name, "[OPTIONS]", "[FILE]"], usage


def test_no_contradictory_default_for_the_opponent(tmp_path: Path) -> None:
    text = " ".join(Player("A", tmp_path).ok("new", "--help").stdout.split())
    assert "default: the name they go by" in text and "[default: Opponent]" not in text


def test_debug_goes_before_or_after_the_command(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    plain = process(tmp_path, "show", missing)
    assert plain.returncode == 1 and plain.stderr.startswith("spite: cannot read") and "Traceback" not in plain.stderr
    for args in (("--debug", "show", missing), ("show", missing, "--debug"), ("show", "--debug", missing)):
        debug = process(tmp_path, *args)
        assert debug.returncode == 1 and "Traceback" in debug.stderr and "SaveFormatError" in debug.stderr, (args, debug)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("show",), "Missing argument 'FILE'"),  # spite play with no FILE looks for one: tests/pbm/test_cli_find_file.py
        (("show", "--bogus", "x.toml"), "No such option: --bogus"),
        (("bogus",), "No such command 'bogus'"),
        (("new", "--payoff", "0"), "--payoff"),
        (("practice", "--level", "grandmaster"), "'grandmaster' is not a level"),
        (("play", "--auto", "--moves", "p-c1", "x.toml"), "--auto and --moves both say how to play the turn"),
        (("arena", "--bots", "expert"), "--bots takes two bot names"),
    ],
)
def test_a_usage_error_is_one_line_with_status_2(tmp_path: Path, args: tuple[str, ...], fragment: str) -> None:
    usage_error(Player("A", tmp_path).spite(*args), fragment)


def test_a_usage_error_of_the_real_command_is_one_line_too(tmp_path: Path) -> None:
    line = usage_error(process(tmp_path, "show"), "Missing argument 'FILE'")
    assert line == "spite: Missing argument 'FILE'. (see 'spite show --help')"


def test_an_unreadable_file_is_a_refusal_not_a_usage_error(tmp_path: Path) -> None:
    player = Player("A", tmp_path / "home")
    (tmp_path / "notes.txt").write_text("dear Bob,\n")
    for target, fragment in ((tmp_path / "missing.toml", "cannot read"), (tmp_path, "cannot read"), (tmp_path / "notes.txt", "neither")):
        for command in WITH_FILE:
            assert_refused(player.spite(command, target), fragment)


def test_id_says_where_the_spite_home_is(tmp_path: Path) -> None:
    run = Player("A", tmp_path / "home").ok("id", "--name", "Ann")
    assert f"spite home:  {tmp_path / 'home'}" in run.stdout
    assert "SPITE_PASSPHRASE" in " ".join(Player("A", tmp_path).ok("id", "--help").stdout.split())


def test_show_into_a_pipe_has_no_trailing_spaces(tmp_path: Path) -> None:
    ex = Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))
    for columns in (80, 100, 140):
        done = process(ex / "keys" / "alice", "show", ex / "saves" / "14-bob.toml", columns=columns)
        assert done.returncode == 0, done.stderr
        assert "Center" in done.stdout and "\x1b[" not in done.stdout
        assert [line for line in done.stdout.splitlines() if line != line.rstrip()] == [], done.stdout
        assert max(len(line) for line in done.stdout.splitlines()) <= columns


def test_ascii_draws_the_board_with_ascii_alone(tmp_path: Path) -> None:
    ex = Path(shutil.copytree(EXAMPLES, tmp_path / "examples"))
    view = json.loads(process(ex / "keys" / "alice", "show", "--json", ex / "saves" / "14-bob.toml").stdout)
    stack = next(s for s in view["side"] + view["opponent"]["side"] if len(s) > 1)
    fan = "|" + "|".join(stack[:-1]) + "|" + stack[-1].ljust(3) + "|"  # the notation's suit letters: 10h, Kc
    for args in (("--ascii", "show"), ("show", "--ascii")):
        done = process(ex / "keys" / "alice", *args, ex / "saves" / "14-bob.toml")
        assert done.returncode == 0 and done.stdout.isascii() and fan in done.stdout, done.stdout


# --- invitations ---


def test_answering_an_invitation_twice_says_it_was_answered(tmp_path: Path) -> None:
    alice, bob = make_player(tmp_path, "Alice"), make_player(tmp_path, "Bob")
    invitation = tmp_path / "invitation.toml"
    alice.ok("new", "--opponent", "Bob", "-o", invitation)
    bob.ok("play", invitation)
    before = files(tmp_path)
    line = assert_refused(bob.spite("play", invitation), "you already answered this invitation", "play the file Alice sends back")
    assert "spite-" in line and "public key" not in line
    assert new_file(before, tmp_path) is None


def test_an_invitation_made_out_to_someone_else_is_not_taken_without_a_yes(tmp_path: Path) -> None:
    alice, carol = make_player(tmp_path, "Alice"), make_player(tmp_path, "Carol")
    invitation = tmp_path / "invitation.toml"
    alice.ok("new", "--opponent", "Bob", "-o", invitation)
    before = files(tmp_path)
    assert_refused(carol.spite("play", invitation), "made out to Bob, and you are Carol", "--yes")
    assert new_file(before, tmp_path) is None
    taken = carol.ok("play", invitation, "--yes")
    assert "Warning: This invitation from Alice is made out to Bob, and you are Carol." in " ".join(taken.stderr.split())
    assert new_file(before, tmp_path) is not None


def test_an_invitation_to_anyone_or_to_this_name_is_taken_without_a_word(tmp_path: Path) -> None:
    alice, bob = make_player(tmp_path, "Alice"), make_player(tmp_path, "Bob")
    for n, opponent in enumerate(((), ("--opponent", "Bob"))):
        invitation = tmp_path / f"invitation-{n}.toml"
        alice.ok("new", *opponent, "-o", invitation)
        assert "Warning" not in bob.ok("play", invitation).stderr


# --- the passphrase ---


def test_a_passphrase_without_a_terminal_says_what_to_do(tmp_path: Path) -> None:
    player = Player("A", tmp_path / "home")
    player.ok("id", "--name", "Ann")
    player.spite("id", "--passphrase", input="open sesame\nopen sesame\n")
    assert_refused(player.spite("games"), "protected by a passphrase", "no terminal", "SPITE_PASSPHRASE")


@needs_pty
def test_a_passphrase_gets_three_tries_at_a_terminal(tmp_path: Path) -> None:
    import pexpect  # only where there are pseudo-terminals (needs_pty)

    home = tmp_path / "home"
    player = Player("A", home)
    player.ok("id", "--name", "Ann")
    player.spite("id", "--passphrase", input="open sesame\nopen sesame\n")
    env = {k: v for k, v in os.environ.items() if k != "SPITE_PASSPHRASE"} | {"SPITE_HOME": str(home), "NO_COLOR": "1"}
    for answers, status in ((["wrong", "open sesame"], 0), (["wrong", "worse", "worst"], 1)):
        child = pexpect.spawn(sys.executable, ["-m", "pbm.cli", "id"], env=env, encoding="utf-8", timeout=60)
        for n, answer in enumerate(answers):
            child.expect_exact("Passphrase for your spite key")
            child.sendline(answer)
            if n < len(answers) - 1:
                child.expect_exact(f"Wrong passphrase ({2 - n} more {'try' if n == 1 else 'tries'}).")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == status, child.before
        if status:
            assert "spite: wrong passphrase" in child.before
        else:
            assert "name:        Ann" in child.before


def test_version_and_help_work_as_users_type_them(tmp_path: Path) -> None:
    player = Player("A", tmp_path / "home")
    assert player.ok("version").stdout == player.ok("--version").stdout
    assert "Usage: spite [OPTIONS] COMMAND" in player.ok("help").stdout
    assert player.ok("help", "play").stdout.rstrip() == player.ok("play", "--help").stdout.rstrip()
    unknown = player.spite("help", "nope")
    assert unknown.exit_code == 2 and "No such command 'nope'" in unknown.stderr
    assert not (tmp_path / "home").exists()  # asking for help makes nothing


def test_id_games_and_verify_list_as_json_too(tmp_path: Path) -> None:
    from cli_helpers import answer, invite

    alice, bob, invitation = invite(tmp_path, 3, 3)
    joined = answer(bob, invitation)
    me = json.loads(alice.ok("id", "--json").stdout)
    assert me["name"] == "Alice" and me["public_key"].startswith("spite1:") and me["home"] == str(alice.home)
    assert me["fingerprint"] in alice.ok("id").stdout
    checked = json.loads(alice.ok("verify", "--json", joined).stdout)
    assert checked["ok"] is True and checked["signer"] == "Bob" and checked["seq"] == 2
    assert checked["checked"]["proofs"] == "every shuffle, card reveal and draw proof checks out"
    (match,) = json.loads(alice.ok("games", "--json").stdout)["matches"]
    assert match["opponent"] == "Bob" and match["next"] == "you" and match["file"] == str(joined.resolve())


def test_every_command_is_listed_with_the_module_that_adds_it_and_a_command_imports_only_its_own(tmp_path: Path) -> None:
    import importlib

    import typer.main

    app_module = importlib.import_module("pbm.cli.app")  # the module: pbm.cli.app is the app itself

    group = typer.main.get_command(app_module.app)
    assert set(group.commands) == set(app_module.COMMANDS)  # type: ignore[attr-defined]
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        module = command.callback.__module__ if command.callback is not None else "pbm.cli.mail"  # a group: mail's
        assert module == f"pbm.cli.{app_module.COMMANDS[name]}", name
    # a command that only looks imports nothing of the writing side: no answer, no deal step, no turn code (none is read);
    # pbm.protocol.dealing it needs, whose Party checks the turn received. What the interpreter had before spite (a site
    # .pth file may import tempfile) is not spite's doing
    code = (
        "import json, sys; before = set(sys.modules); import pbm.cli; sys.argv = ['spite', '--ascii', *sys.argv[1:]]\n"
        "try:\n    pbm.cli.main()\nexcept SystemExit:\n    pass\n"
        "own = ('pbm.cli.app', 'pbm.cli.clicktext', 'pbm.cli.shared')\n"
        "writing = ('pbm.client.answer', 'pbm.protocol.dealsteps', 'pbm.protocol.outgoing', 'pbm.protocol.audit', "
        "'pbm.transport.code', 'pbm.transport.clipboard', 'tempfile')\n"
        "print(json.dumps([sorted(m for m in sys.modules if m.startswith('pbm.cli.') and m not in own), "
        "sorted(m for m in writing if m in sys.modules and m not in before)]))"
    )
    examples = shutil.copytree(EXAMPLES, tmp_path / "examples")
    home = examples / "keys" / "alice"
    home.joinpath("identity.pem").chmod(0o600)
    ordinary = examples / "saves" / "14-bob.toml"  # Bob's turn 12 of game 1, to Alice: no deal step, no end of game
    for argv in (["games"], ["show", ordinary], ["verify", ordinary]):
        env = {**os.environ, "SPITE_HOME": str(home)}
        done = subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0 and json.loads(done.stdout.splitlines()[-1]) == [["pbm.cli.show"], []], (argv, done)


def test_a_command_that_plays_keeps_the_collector_and_one_that_looks_runs_without_it(tmp_path: Path) -> None:
    code = (
        "import gc, sys; import pbm.launch; sys.argv = ['spite', *sys.argv[1:]]\n"
        "try:\n    pbm.launch.main()\nexcept SystemExit:\n    pass\n"
        "print(gc.isenabled(), 'pbm.cli.app' in sys.modules)"
    )
    env = {**os.environ, "SPITE_HOME": str(tmp_path)}
    for argv, collecting in ((["version"], False), (["--ascii", "games"], False), (["play", "no-such-file"], True)):
        done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=60)
        assert done.stdout.split()[-2:] == [str(collecting), "True"], (argv, done)


def test_the_console_command_builds_only_the_command_run_and_help_knows_every_command(tmp_path: Path) -> None:
    # through main(), as the console script runs it (the in-process runner loads every command): a run of `spite play`
    # imports play's module alone and builds that command alone; `spite help` needs them all
    code = (
        "import sys, pbm.cli, typer.main; from pbm.cli.app import app; sys.argv = ['spite', *sys.argv[1:]]\n"
        "try:\n    pbm.cli.main()\nexcept SystemExit:\n    pass\n"
        "print('built:', ' '.join(sorted(typer.main.get_command(app).commands)))"
    )
    env = {**os.environ, "SPITE_HOME": str(tmp_path / "home"), "SPITE_LANG": "en", "COLUMNS": "100"}

    def run(*argv: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done
        return done.stdout.splitlines()

    *play_help, built = run("play", "--help")
    assert built == "built: play"
    assert run("verify", "--help")[-1] == "built: verify"  # not show, code and games, which its module adds too
    *help_play, built = run("help", "play")
    assert "\n".join(help_play).rstrip() == "\n".join(play_help).rstrip() and "spite play" in "".join(help_play)
    *listed, built = run("help")
    assert set(built.split()[1:]) >= {"play", "show", "new", "practice", "resign", "mail"}
    assert all(f" {name} " in "\n".join(listed) for name in ("play", "show", "practice", "resign"))
