"""The spite home (keys, journal, bots) and the one way files are written there: atomically."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

HOME_ENV = "SPITE_HOME"


def spite_home(create: bool = True) -> Path:
    """The spite home: ``$SPITE_HOME``, else the platform's user data dir for "spite"; made with mode 0700 if missing."""
    env = os.environ.get(HOME_ENV)
    if env:
        home = Path(env).expanduser()
    else:
        import platformdirs  # only needed when SPITE_HOME does not say where the home is

        home = Path(platformdirs.user_data_dir("spite"))
    if create:
        ensure_private_dir(home)
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
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), mode if mode is not None else 0o666 & ~_umask())
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the platform allows it
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
