"""A spite home that cannot be written (read-only, full): every command that must write says so in one line and changes
nothing; show and verify, which need not write, show and check, and say in one line that nothing could be recorded.

Real `spite` processes. A read-only home is made with file modes; when the tests run as root, who
ignores file modes, the process is started without the capabilities that let root do so. A full
home is a process whose file size limit is 0 (RLIMIT_FSIZE): every write fails as on a full disk.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cli_helpers import MODULE, THINK, Mail, answer, files, new_file, process_env

from pbm import saves

_CAPS = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER: what lets root ignore file modes
_PR_CAPBSET_DROP = 24


def _drop_root_overrides() -> None:
    """In the child, before exec: root loses the capabilities that ignore file modes (a no-op for anyone else)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    for cap in _CAPS:
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _no_file_growth() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))  # every write fails with EFBIG, as on a full disk


def run(home: Path, *args: str | Path, before_exec: Callable[[], None]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MODULE, *map(str, args)], capture_output=True, text=True, env=process_env(home), timeout=120, preexec_fn=before_exec
    )


@contextmanager
def read_only(home: Path) -> Iterator[None]:
    """`home` and everything in it read-only for the duration (directories 0500, files 0400), then as it was."""
    modes = {p: p.stat().st_mode for p in [home, *home.rglob("*")]}
    for path in sorted(modes, key=lambda p: len(p.parts), reverse=True):
        path.chmod(0o500 if path.is_dir() else 0o400)
    try:
        yield
    finally:
        for path, mode in modes.items():
            path.chmod(mode)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def commands(mail: Mail) -> list[tuple[str | Path, ...]]:
    """What Bob might run that must write: answer Alice's file, start another match, rename himself."""
    return [
        ("play", mail.latest, "--auto", "--think", THINK),
        ("new", "-o", mail.folder / "another-invitation.toml"),
        ("id", "--name", "Robert"),
    ]


def _refused_alike(mail: Mail, why: str, before_exec: Callable[[], None]) -> None:
    home, mailed = snapshot(mail.bob.home), files(mail.folder)
    for args in commands(mail):
        done = run(mail.bob.home, *args, before_exec=before_exec)
        lines = done.stderr.splitlines()
        assert done.returncode == 1 and len(lines) == 1 and "Traceback" not in done.stderr, done
        assert lines[0] == f"spite: your spite home {mail.bob.home} {why}: nothing was written", done
        assert new_file(mailed, mail.folder) is None, args
    for look in ("show", "verify"):  # they need not write: they show and check, and say that nothing could be recorded
        done = run(mail.bob.home, look, mail.latest, before_exec=before_exec)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done
        assert done.stderr.splitlines() == [
            f"Note: your spite home {mail.bob.home} {why}: this file could not be recorded in your journal (it is checked all the same)."
        ], done
        assert ("Next file: you" if look == "show" else "OK") in done.stdout, done
    assert snapshot(mail.bob.home) == home


def test_a_read_only_home_is_named_and_left_as_it_was(mail: Mail) -> None:
    journal = mail.bob.home / "journal.sqlite"
    stamp = journal.stat().st_mtime_ns
    with read_only(mail.bob.home):
        _refused_alike(mail, "is read-only", _drop_root_overrides)
        done = run(mail.bob.home, "games", before_exec=_drop_root_overrides)
        assert done.returncode == 0 and done.stderr == "" and saves.read(mail.latest).match[:8] in done.stdout, done
    assert journal.stat().st_mtime_ns == stamp
    reply = answer(mail.bob, mail.latest)  # nothing half-recorded: once writable, the file is Bob's to answer
    mail.alice.ok("verify", reply)


def test_a_read_only_home_without_a_journal_still_shows_a_file(mail: Mail) -> None:
    (mail.bob.home / "journal.sqlite").rename(mail.folder.parent / "journal-elsewhere.sqlite")
    with read_only(mail.bob.home):
        home, listing = snapshot(mail.bob.home), sorted(mail.bob.home.rglob("*"))
        done = run(mail.bob.home, "verify", mail.latest, before_exec=_drop_root_overrides)
        assert done.returncode == 0 and done.stdout.rstrip().endswith("OK"), done
        # with no journal there is no record of the match: the file is looked at, never recorded (docs/protocol.md, G4)
        assert "It is not recorded here" in " ".join(done.stderr.split()), done
        assert snapshot(mail.bob.home) == home and sorted(mail.bob.home.rglob("*")) == listing  # no journal made, nothing new


def test_a_full_home_is_named_and_left_as_it_was(mail: Mail) -> None:
    _refused_alike(mail, "is full (or its disk failing)", _no_file_growth)
    reply = answer(mail.bob, mail.latest)
    mail.alice.ok("verify", reply)


def test_a_home_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    parent = tmp_path / "locked"
    parent.mkdir()
    with read_only(parent):
        done = run(parent / "home", "id", before_exec=_drop_root_overrides)
    assert done.returncode == 1 and done.stderr == f"spite: your spite home {parent / 'home'} is read-only: nothing was written\n", done
