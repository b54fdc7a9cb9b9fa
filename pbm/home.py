"""The spite home (keys, journal, bots, locks), and how spite writes files: atomically, and never over another file."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import signal
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from pbm.errors import BusyError, HomeError, SaveFormatError
from pbm.i18n import _, error_text
from pbm.shown import shown

HOME_ENV = "SPITE_HOME"
JOURNAL_FILE = "journal.sqlite"  # pbm/journal/store.py; named here so that a home with a journal is known without opening it
FAULT_ENV = "SPITE_FAULT"  # tests only: the name of a fault_point at which the process kills itself (or stops: name:stop)
_TEMP = ".spite-"  # the start of every temp file spite writes beside a save: .spite-<tag>-<machine>-<pid>-<random>.tmp
_HELD = 1 << 30  # the byte at which a temp file's writer locks it on Windows: past its end, so no reader of it is kept out
_TRIES = 20  # takes of a lock or temp file that another spite removed in the same instant, before giving up
MATCH_ID = r"(?:[0-9a-f]{2}){8,32}"  # a match id (docs/save-format.md): 16 to 64 lower-case hex digits; it names files here
_MATCH_ID = re.compile(MATCH_ID)


def is_match_id(value: object) -> bool:
    """Whether `value` is a match id (16 to 64 lower-case hex digits, :data:`MATCH_ID`), the only text that may name a match's files."""
    return type(value) is str and _MATCH_ID.fullmatch(value) is not None


def spite_home(create: bool = True) -> Path:
    """The spite home: ``$SPITE_HOME``, else the platform's user data dir for "spite"; made with mode 0700 if missing.

    That dir is ``~/.local/share/spite`` on Linux, ``~/Library/Application Support/spite`` on macOS and
    ``%LOCALAPPDATA%\\spite`` on Windows (in the user's profile, which only they and the administrators may read).
    """
    env = os.environ.get(HOME_ENV)
    if env:
        home = Path(env).expanduser()
    else:
        import platformdirs  # only needed when SPITE_HOME does not say where the home is

        home = Path(platformdirs.PlatformDirs("spite", appauthor=False).user_data_dir)  # no author: not spite\spite on Windows
    if create:
        try:
            ensure_private_dir(home)
        except OSError as e:
            raise home_error(home, e) from e
    return home


def ensure_private_dir(path: Path) -> Path:
    """Create `path` (and parents) if missing; a directory this call creates gets mode 0700 whatever the umask."""
    if not path.is_dir():
        path.mkdir(parents=True, mode=0o700, exist_ok=True)
        os.chmod(path, 0o700)  # mkdir's mode is filtered by the umask
    return path


def write_atomic(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write `data` to `path` so readers see the old file or the new one, never a part.

    A temp file in the same directory is written, fsynced and renamed over `path`. With `mode`
    the file gets exactly that mode (umask-proof); without it, 0666 filtered by the umask.
    """
    path = Path(path)
    import tempfile  # only a command that writes pays for it (spite show, verify, games write no file)

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            _set_mode(out.fileno(), tmp, mode if mode is not None else 0o666 & ~_umask())
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_dir(path.parent)


def read_head(path: Path, most: int) -> bytes:
    """The first `most` bytes of the file at `path` (all of it if shorter), never more, however big or endless it is.

    A temp file of :func:`write_new` is refused (SaveFormatError): it is a write not finished, never a file to use.
    A named pipe or socket is refused (OSError), without waiting for a writer to come.
    """
    if is_temp(path):
        unfinished = _(
            # TRANSLATORS: {path} is the file given; .spite-….tmp is the shape of spite's temp files' names: keep it.
            "{path} is an unfinished write of spite (a temp file left when spite was stopped), not a save: "
            "use the real file spite wrote, never a .spite-….tmp file"
        )
        raise SaveFormatError(unfinished.format(path=path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as f:
        kind = os.fstat(fd).st_mode
        if stat.S_ISFIFO(kind) or stat.S_ISSOCK(kind):
            raise OSError(errno.EINVAL, _("it is a named pipe, not a file"), str(path))
        return f.read(most)


def is_temp(path: Path) -> bool:
    """Whether `path` is named as the temp files :func:`write_new` writes (``.spite-….tmp``, in any case)."""
    name = Path(path).name.casefold()
    return name.startswith(_TEMP) and name.endswith(".tmp")


def write_new(path: Path, data: bytes, tag: str, mode: int | None = None) -> None:
    """Write `data` to `path`, which must not exist yet (FileExistsError otherwise): never a part, never over another file.

    A temp file named after `tag` (:func:`remove_stale` finds it) is written and synced, then linked to `path`; with
    `mode` it gets exactly that mode, without it 0666 filtered by the umask. The temp file is held (open and locked)
    from its first instant to its last, so that no spite takes it for one that a killed spite left.
    """
    path = Path(path)
    fd, tmp, release = _new_temp(path.parent, tag)
    try:
        _set_mode(fd, tmp, mode if mode is not None else 0o666 & ~_umask())
        with open(fd, "wb", closefd=False) as out:
            out.write(data)
        os.fsync(fd)
        fault_point("temp-written")
        try:
            os.link(tmp, path)  # unlike a rename, a link never replaces a file that appeared meanwhile
        except FileExistsError:
            raise
        except OSError as e:  # a file system without hard links (FAT, some network shares): check, then rename
            no_links = e.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK) or getattr(e, "winerror", None) in (1, 50)
            if not no_links:  # Windows says ERROR_INVALID_FUNCTION (1) or ERROR_NOT_SUPPORTED (50) on FAT
                raise
            if path.exists():
                raise FileExistsError(errno.EEXIST, "File exists", str(path)) from e
            try:
                os.rename(tmp, path)
            except PermissionError:  # Windows renames no file that is open: let it go first
                release()
                os.close(fd)
                fd = -1
                os.rename(tmp, path)
        fault_point("file-linked")
    finally:
        if fd >= 0:
            _let_go(fd, tmp, release)
        else:
            _unlink(tmp)
    _sync_dir(path.parent)


@functools.cache
def machine_tag() -> str:
    """This machine in the names of spite's temp files (8 hex digits from its host name): whether the spite writing one
    is still at it can be told only on the machine it runs on (:func:`remove_stale`)."""
    import hashlib
    import platform

    return hashlib.sha256(platform.node().encode("utf-8", "surrogateescape")).hexdigest()[:8]


def _new_temp(folder: Path, tag: str) -> tuple[int, str, Callable[[], None]]:
    """A new temp file in `folder` for `tag`, open and locked by this process (its descriptor, name, and what unlocks it)."""
    for _attempt in range(_TRIES):
        import tempfile  # as above

        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f"{_TEMP}{tag}-{machine_tag()}-{os.getpid()}-", suffix=".tmp")
        try:
            release = _lock_now(fd, _HELD)
        except OSError:  # a file system without locks: no clean-up can lock it either, so none removes it
            return fd, tmp, _no_lock
        if release is not None and _is_at(fd, tmp):
            return fd, tmp, release
        if release is not None:
            release()
        os.close(fd)  # a clean-up took it for a killed spite's in the instant before the lock, and removes it: another
    raise OSError(errno.EAGAIN, "every temp file made here was removed at once", str(folder))


def _no_lock() -> None:
    """What unlocks a file that could not be locked."""


def remove_stale(folder: Path, tag: str) -> list[Path]:
    """Remove the temp files :func:`write_new` left in `folder` for `tag` when it was killed; returns them.

    A temp file is removed only if it is this machine's (its name says so) and stale: no process holds it any more. One
    that a spite is writing right now, of this spite home or another, is left to it; so is another machine's, which
    only that machine can tell (a shared folder), and one named by a spite that did not say its machine.
    """
    gone = []
    for tmp in Path(folder).glob(f"{_TEMP}{tag}-{machine_tag()}-*.tmp"):
        if _remove_if_stale(tmp):
            gone.append(tmp)
    return gone


def _remove_if_stale(path: Path) -> bool:
    """Remove the temp file at `path` if no process holds it (its writer was killed); whether it did."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    except PermissionError:  # a file of mode 0444 (a umask of 0222): it may still be locked to read
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError:
            return False
    except OSError:  # gone meanwhile
        return False
    try:
        release = _lock_now(fd, _HELD)
    except OSError:  # no locks here: nothing can tell whether its writer is still at it
        release = None
    if release is None:
        os.close(fd)
        return False
    return _let_go(fd, path, release)


def _let_go(fd: int, path: Path | str, release: Callable[[], None]) -> bool:
    """Remove the file at `path`, which `fd` holds open and locked, then unlock and close it; whether it was removed.

    Removed while held where the system allows it (POSIX), so that no other spite locks a file that is no longer there;
    else (Windows) once closed, which fails while any other process has it open: then that process still needs it.
    """
    removed = _unlink(path)
    release()
    os.close(fd)
    return removed or _unlink(path)


def _unlink(path: Path | str) -> bool:
    """Remove the file at `path`; False if it is gone already or cannot be removed now (open in another process, on Windows)."""
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


def _is_at(fd: int, path: Path | str) -> bool:
    """Whether the open file `fd` is still the one at `path` (not removed or replaced since it was opened)."""
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


@contextlib.contextmanager
def match_lock(home: Path, match: str) -> Iterator[None]:
    """Hold `match`'s lock in `home` while a file of it is received, played and answered; BusyError if another spite holds it.

    The lock file (and the folder `locks`) is there only while held: a command refused leaves the home as it was.
    HomeError for a `match` that is not a match id: it names the lock file (the readers refuse such an id first).
    """
    if not is_match_id(match):
        # TRANSLATORS: {match} is the text given as a match id, in quotes.
        not_id = _("{match} is not a match id (16 to 64 lower-case hex digits): no file is named after it")
        raise HomeError(not_id.format(match=shown(match)))
    folder = Path(home) / "locks"
    path = folder / f"{match}.lock"
    fd, release = _take_lock(Path(home), path, match)
    try:
        yield
    finally:
        _let_go(fd, path, release)
        with contextlib.suppress(OSError):
            folder.rmdir()  # the last lock let go (another spite's lock keeps the folder)


def _take_lock(home: Path, path: Path, match: str) -> tuple[int, Callable[[], None]]:
    """The lock file at `path` (made if missing) open and locked by this process, and what unlocks it; BusyError if another
    spite holds it. A lock file removed by the spite that let it go, as this one opened it, is made again."""
    for _attempt in range(_TRIES):
        try:
            ensure_private_dir(path.parent)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except FileNotFoundError:
            continue  # the folder was removed by a spite letting go of the last lock in that instant: make it again
        except OSError as e:
            raise home_error(home, e) from e
        try:
            release = _lock_now(fd)
        except OSError as e:
            os.close(fd)
            raise home_error(home, e) from e
        if release is None:
            os.close(fd)
            break
        if _is_at(fd, path):
            return fd, release
        release()
        os.close(fd)
    busy = _(
        # TRANSLATORS: {match} is the start of a match's id (8 hex digits).
        "another spite is answering a file of match {match} right now (in another window?): let it finish, then run this again"
    )
    raise BusyError(busy.format(match=match[:8]))


def _lock_now(fd: int, at: int = 0) -> Callable[[], None] | None:
    """Lock the open file `fd` without waiting and return what unlocks it; None if another process holds the lock.

    fcntl.flock (the whole file) where there is fcntl, else msvcrt.locking of its byte `at` (Windows): each imported only
    here. Closing the file, or the end of the process however it ends, releases the lock too.
    """
    try:
        import fcntl
    except ImportError:
        import msvcrt  # Windows: a byte-range lock, held by this handle, which the system releases when the process ends

        os.lseek(fd, at, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError as e:
            if e.errno in (errno.EACCES, errno.EDEADLOCK):
                return None
            raise
        finally:
            os.lseek(fd, 0, os.SEEK_SET)

        def unlock() -> None:
            with contextlib.suppress(OSError):  # released at close anyway
                os.lseek(fd, at, os.SEEK_SET)
                msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)  # type: ignore[attr-defined]
                os.lseek(fd, 0, os.SEEK_SET)

        return unlock
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return None
    return _no_lock  # closing the file releases it


def home_error(home: Path, error: BaseException) -> HomeError | BusyError:
    """The one line that says why the spite home `home` could not be written (`error` from the OS or SQLite)."""
    code = getattr(error, "errno", None)
    name = getattr(error, "sqlite_errorname", "") or ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        # TRANSLATORS: {home} is the spite home (a folder).
        return BusyError(_("another spite is using your journal in {home} right now: let it finish, then run this again").format(home=home))
    if code in (errno.EROFS, errno.EACCES, errno.EPERM) or name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM")):
        # TRANSLATORS: {home} is the spite home (a folder).
        message = _("your spite home {home} is read-only: nothing was written")
        # TRANSLATORS: {home} is the spite home (a folder).
        trouble = _("your spite home {home} is read-only")
    elif code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) or name.startswith(("SQLITE_FULL", "SQLITE_IOERR")):
        # TRANSLATORS: {home} is the spite home (a folder).
        message = _("your spite home {home} is full (or its disk failing): nothing was written")
        # TRANSLATORS: {home} is the spite home (a folder).
        trouble = _("your spite home {home} is full (or its disk failing)")
    else:
        # TRANSLATORS: {home} is the spite home (a folder), {error} the system's reason.
        message = _("your spite home {home} cannot be written ({error}): nothing was written")
        # TRANSLATORS: {home} is the spite home (a folder), {error} the system's reason.
        trouble = _("your spite home {home} cannot be written ({error})")
    why = error_text(error)
    return HomeError(message.format(home=home, error=why), trouble=trouble.format(home=home, error=why))


def fault_point(name: str) -> None:
    """Where a test may crash spite (SPITE_FAULT=`name`): the process kills itself here as a power cut or kill -9 would.

    With SPITE_FAULT=`name`:stop it stops itself there instead (SIGSTOP, POSIX only), for a test to act while it is inside.
    """
    point, _colon, how = os.environ.get(FAULT_ENV, "").partition(":")
    if point != name:
        return
    if how == "stop":
        stop = getattr(signal, "SIGSTOP", None)
        if stop is not None:
            os.kill(os.getpid(), stop)
        return
    os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))  # Windows: SIGTERM is TerminateProcess, as abrupt


def _sync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # make a rename or link durable where the platform allows it
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _set_mode(fd: int, path: str, mode: int) -> None:
    """Give the open file `fd`, at `path`, the permission bits `mode`: by os.fchmod, or by name where there is none (Windows)."""
    fchmod = getattr(os, "fchmod", None)  # Windows has it from Python 3.13, for the read-only flag alone
    if fchmod is not None:
        fchmod(fd, mode)
    else:
        os.chmod(path, mode)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
