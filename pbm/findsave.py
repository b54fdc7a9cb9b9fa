"""Finding the file to play when the player names none: the newest file in the current folder or the Downloads folder
that is the next one of one of their matches (or an invitation to a new one). Nothing here prints: pbm/cli/play.py
words what it finds.

A chat or a browser saves an attachment to the platform's Downloads folder, often renamed ("x (1).toml"): only the
file's content says what it is. Each folder is looked at in one pass over its names; only the newest
:data:`MOST_PER_FOLDER` files named ``*.toml`` or ``*.txt`` of at most :data:`pbm.transport.code.MAX_INPUT` bytes are
read, each once and no further than that limit, so a Downloads folder of any size costs one listing and a few reads.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbm.errors import SpiteError
from pbm.home import read_head
from pbm.journal import Journal, MatchInfo
from pbm.saves import SaveFile
from pbm.transport import code
from pbm.transport.code import TurnCode

DOWNLOADS_ENV = "SPITE_DOWNLOADS"  # a folder to look in instead of the platform's Downloads folder (tests, odd setups)
SUFFIXES = (".toml", ".txt")  # what spite writes, and what a chat or a browser saves a pasted code as
# Files read at most in each folder, newest first: the file to play is one of the last few saved there; each read is
# bounded (code.MAX_INPUT), so a search reads at most 2 × 16 × ~44 KB.
MOST_PER_FOLDER = 16
_USER_DIRS_MOST = 64 * 1024  # user-dirs.dirs is a dozen short lines; anything longer is not one to trust
_DOWNLOADS_GUID = "374DE290-123F-4565-9164-39C4925E467B"  # FOLDERID_Downloads (KnownFolders.h)


@dataclass(frozen=True)
class Found:
    """A file that is the next one of one of the player's matches (or an invitation to a new one), and what it is."""

    path: Path
    match: str
    seq: int
    game: int
    turn: int
    sender: str  # the name of who wrote it, as the file or the journal has it (unescaped: the caller shows it safely)
    modified: float  # when it was saved: its modification time, seconds since the epoch

    @property
    def invitation(self) -> bool:
        """Whether it is an invitation to a match new to this player."""
        return self.seq == 1


def downloads_folder(environ: Mapping[str, str] | None = None, platform: str | None = None, home: Path | None = None) -> Path | None:
    """The folder where this player's browser and chats save attachments, if there is one.

    SPITE_DOWNLOADS if set; on Windows the Downloads known folder (wherever the player moved it), else
    %USERPROFILE%\\Downloads; on Linux and the BSDs XDG_DOWNLOAD_DIR of user-dirs.dirs, else ~/Downloads; elsewhere
    ~/Downloads. None when that folder does not exist.
    """
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if environ.get(DOWNLOADS_ENV):
        folder: Path | None = Path(environ[DOWNLOADS_ENV])
    else:
        try:
            home = Path.home() if home is None else home
        except RuntimeError:  # no home folder can be found: nothing to look in but the current folder
            return None
        if platform == "win32":
            folder = _known_downloads() or Path(environ.get("USERPROFILE") or home) / "Downloads"
        elif platform == "darwin":
            folder = home / "Downloads"
        else:
            folder = _xdg_downloads(environ, home) or home / "Downloads"
    return folder if folder is not None and folder.is_dir() else None


def _known_downloads() -> Path | None:
    """The Downloads known folder of Windows (SHGetKnownFolderPath), or None where it cannot be asked."""
    try:
        import ctypes
        import uuid

        guid = ctypes.create_string_buffer(uuid.UUID(_DOWNLOADS_GUID).bytes_le, 16)  # a GUID's layout in memory
        path = ctypes.c_wchar_p()
        if ctypes.windll.shell32.SHGetKnownFolderPath(guid, 0, None, ctypes.byref(path)) != 0:  # type: ignore[attr-defined]
            return None
        try:
            return Path(path.value) if path.value else None
        finally:
            ctypes.windll.ole32.CoTaskMemFree(path)  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):  # not Windows, or a shell32 without it: %USERPROFILE%\Downloads
        return None


def _xdg_downloads(environ: Mapping[str, str], home: Path) -> Path | None:
    """XDG_DOWNLOAD_DIR as user-dirs.dirs sets it (`XDG_DOWNLOAD_DIR="$HOME/Downloads"`), or None if it sets none."""
    config = Path(environ.get("XDG_CONFIG_HOME") or home / ".config")
    try:
        data = read_head(config / "user-dirs.dirs", _USER_DIRS_MOST + 1)
    except (OSError, SpiteError):
        return None
    if len(data) > _USER_DIRS_MOST:
        return None
    return downloads_setting(data.decode("utf-8", "replace"), home)


def downloads_setting(text: str, home: Path) -> Path | None:
    """The folder that the text of a user-dirs.dirs sets XDG_DOWNLOAD_DIR to: an absolute path, or one under "$HOME/".

    None if it sets none, or sets $HOME itself (which the file's format reads as "no such folder").
    """
    found: Path | None = None
    for line in text.splitlines():
        name, equals, value = line.strip().partition("=")
        if not equals or name.strip() != "XDG_DOWNLOAD_DIR":
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        value = value.replace('\\"', '"').replace("\\\\", "\\")
        if value in ("$HOME", "$HOME/"):
            found = None
        elif value.startswith("$HOME/"):
            found = home / value[len("$HOME/") :]
        elif value.startswith("/"):
            found = Path(value)
        # anything else is not a setting the format allows: the last one that is stands
    return found


def folders(cwd: Path, downloads: Path | None) -> list[Path]:
    """The folders to look in, each once: the current folder, then the Downloads folder."""
    out: list[Path] = []
    seen: set[Path] = set()
    for folder in (cwd, downloads):
        if folder is None:
            continue
        try:
            real = folder.resolve()
        except (OSError, RuntimeError):
            continue
        if real not in seen:
            seen.add(real)
            out.append(folder)
    return out


def candidates(folder: Path, most: int = MOST_PER_FOLDER) -> list[tuple[float, Path]]:
    """The newest `most` files in `folder` that could be a save or a saved turn code: (modified, path), newest first.

    Named ``*.toml`` or ``*.txt`` (any case), a regular file, not empty and not over what spite reads of a file.
    """
    found: list[tuple[float, Path]] = []
    try:
        entries = os.scandir(folder)
    except OSError:
        return []
    with entries:
        for entry in entries:
            if not entry.name.lower().endswith(SUFFIXES):
                continue
            try:
                if not entry.is_file():
                    continue
                info = entry.stat()
            except OSError:
                continue
            if 0 < info.st_size <= code.MAX_INPUT:
                found.append((info.st_mtime, Path(entry.path)))
    found.sort(key=lambda one: one[0], reverse=True)
    return found[:most]


def find(where: Sequence[Path], journal: Journal, mine: str) -> Found | None:
    """The newest file in the folders `where` that the player whose public key text is `mine` should play next.

    That is the next file of one of their matches (the one that follows the latest recorded, by the other player), the
    latest one recorded if it is the other player's and still unanswered, or an invitation to a match new to the journal
    that they may join. Only the newest files of each folder are read (:func:`candidates`); None if none of them is such a file.
    """
    files = sorted((one for folder in where for one in candidates(folder)), key=lambda one: one[0], reverse=True)
    matches: dict[str, MatchInfo] | None = None  # read from the journal at the first file that reads as spite's
    for modified, path in files:
        item = _read(path)
        if item is None:
            continue
        if matches is None:
            matches = {info.match: info for info in journal.matches()}
        found = _next(item, path, modified, matches, mine)
        if found is not None:
            return found
    return None


def _read(path: Path) -> SaveFile | TurnCode | None:
    """The save or turn code in the file at `path`, or None if it holds neither (or cannot be read)."""
    try:
        data = read_head(path, code.MAX_INPUT + 1)
        return code.read(data) if len(data) <= code.MAX_INPUT else None
    except (OSError, SpiteError, ValueError):  # not spite's, damaged, gone meanwhile, unreadable: not the one to play
        return None


def _labels(item: SaveFile | TurnCode) -> tuple[str, int, int, int, str, int] | None:
    """The match, seq, game, turn, prev and signer that `item` states, or None if a turn code states them wrongly."""
    if isinstance(item, SaveFile):
        return item.match, item.seq, item.game, item.turn, item.prev, item.signer
    turn = item.turn
    match, prev = turn.get("match"), turn.get("prev")
    numbers = [n for n in (turn.get(name) for name in ("seq", "game", "turn", "signer")) if type(n) is int]
    if not isinstance(match, str) or not isinstance(prev, str) or len(numbers) != 4:
        return None
    seq, game, number, signer = numbers
    return match, seq, game, number, prev, signer


def _players(item: SaveFile | TurnCode) -> list[tuple[str, str]] | None:
    """The (name, key) of both seats as `item` states them, or None if it does not (a turn code after the second save)."""
    if isinstance(item, SaveFile):
        return [(p.name, p.key) for p in item.players]
    players = item.turn.get("players")
    if not isinstance(players, list) or len(players) != 2:
        return None
    named: list[tuple[str, str]] = []
    for player in players:
        name, key = (player.get("name"), player.get("key")) if isinstance(player, dict) else (None, None)
        if not isinstance(name, str) or not isinstance(key, str):
            return None
        named.append((name, key))
    return named


def _next(item: SaveFile | TurnCode, path: Path, modified: float, matches: Mapping[str, MatchInfo], mine: str) -> Found | None:
    """`item` as a :class:`Found` if it is the file the player should play next in its match (see :func:`find`), else None."""
    labels = _labels(item)
    if labels is None:
        return None
    match, seq, game, turn, prev, signer = labels
    players = _players(item)
    info = matches.get(match)
    if info is None:  # a match new here: only an invitation that someone else wrote and this player may join
        if seq != 1 or players is None or players[0][1] == mine or players[1][1] not in ("", mine):
            return None
        return Found(path, match, seq, game, turn, players[0][0], modified)
    me = info.seat_of(mine)
    if me is None or signer != 1 - me:
        return None
    latest = info.latest
    follows = latest.signer == me and seq == latest.seq + 1 and prev == latest.hash
    # the other player's file recorded already (looked at, then left at the prompt), not answered yet
    waiting = latest.signer == signer and seq == latest.seq and prev == latest.prev and not info.over
    if isinstance(item, SaveFile):
        waiting = waiting and item.hash == latest.hash
    if not (follows or waiting):
        return None
    sender = players[signer][0] if players is not None and players[signer][0] else info.players[signer].name
    return Found(path, match, seq, game, turn, sender, modified)
