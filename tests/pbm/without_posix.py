"""Run spite as on Windows, from Linux: `python tests/pbm/without_posix.py ARGS` is `spite ARGS` in a Python without POSIX.

The modules Windows' Python lacks (fcntl, termios, pwd, grp, resource, readline, tty, pty) cannot be imported, and
the os functions it lacks (fchmod before 3.13, getuid and the like) and signal.SIGKILL are gone, before pbm.cli is
imported. A stand-in `msvcrt` (seen only by the modules imported after subprocess and getpass) offers the one call
spite makes of it, `locking`, as Windows does: a lock of bytes from the file's position, refused at once with
EACCES (LK_NBLCK) while another process holds them.
"""

from __future__ import annotations

import errno
import fcntl  # taken before the refusal below: the stand-in msvcrt locks by POSIX record locks, as Windows locks bytes
import getpass  # noqa: F401  (imported before the stand-in msvcrt, as getpass and subprocess take any msvcrt for a sign of Windows)
import importlib.abc
import os
import runpy
import signal
import subprocess  # noqa: F401
import sys
import types
from collections.abc import Sequence

POSIX_ONLY = frozenset({"fcntl", "termios", "pwd", "grp", "resource", "readline", "tty", "pty"})
OS_ONLY_POSIX = ("fchmod", "fchown", "chown", "lchown", "getuid", "geteuid", "getgid", "getegid", "getgroups")


class _Refuse(importlib.abc.MetaPathFinder):
    """An import hook that finds none of the POSIX-only modules, as Windows' Python finds none."""

    def find_spec(self, name: str, path: Sequence[str] | None = None, target: types.ModuleType | None = None) -> None:
        if name.partition(".")[0] in POSIX_ONLY:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


def _msvcrt() -> types.ModuleType:
    """A stand-in for Windows' msvcrt with the lock calls spite makes: locking(fd, LK_NBLCK or LK_UNLCK, nbytes)."""
    module = types.ModuleType("msvcrt")
    module.LK_UNLCK, module.LK_LOCK, module.LK_NBLCK = 0, 1, 2  # type: ignore[attr-defined]
    lockf, ex, nb, un = fcntl.lockf, fcntl.LOCK_EX, fcntl.LOCK_NB, fcntl.LOCK_UN

    def locking(fd: int, mode: int, nbytes: int) -> None:
        if mode == module.LK_UNLCK:  # type: ignore[attr-defined]
            lockf(fd, un, nbytes, 0, os.SEEK_CUR)
            return
        try:
            lockf(fd, ex | (nb if mode == module.LK_NBLCK else 0), nbytes, 0, os.SEEK_CUR)  # type: ignore[attr-defined]
        except OSError:
            raise PermissionError(errno.EACCES, "Permission denied") from None  # what msvcrt raises for a held lock

    module.locking = locking  # type: ignore[attr-defined]
    return module


def install() -> None:
    """Make this process a Python without POSIX, as far as spite can tell."""
    for name in list(sys.modules):
        if name.partition(".")[0] in POSIX_ONLY:
            del sys.modules[name]
    sys.meta_path.insert(0, _Refuse())
    for name in OS_ONLY_POSIX:
        if hasattr(os, name):
            delattr(os, name)
    if hasattr(signal, "SIGKILL"):
        delattr(signal, "SIGKILL")
    sys.modules["msvcrt"] = _msvcrt()


if __name__ == "__main__":
    install()
    sys.argv = ["spite", *sys.argv[1:]]
    runpy.run_module("pbm.cli", run_name="__main__", alter_sys=True)
