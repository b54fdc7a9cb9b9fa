"""The mail password kept in a file of the spite home, where the player chose so at setup and there is no system keyring.

As git's credential store keeps one (``git help credential-store``): unencrypted, in a file only its owner may read (mode
0600 on POSIX; on Windows a file of the user's profile, which only they and the administrators may read). The file names
the login it is for (user@smtp-host, as the keyring entry), so that a password kept for another account is never sent.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pbm.errors import MailSettingsError
from pbm.home import read_head, write_atomic
from pbm.i18n import _, error_text, ngettext

PASSWORD_FILE = "mail-password.toml"
# The longest password kept: app passwords are 16 characters (Gmail, Yahoo, Fastmail), a password manager's 20 to 128.
MAX_PASSWORD = 1024
# The largest file an honest setup writes: every character of the longest password as a 6-byte TOML escape (\u0001), the
# entry (a user name and host: at most a few hundred bytes) and the head comment, with room left.
MAX_FILE = 16 * 1024
_KEYS = {"entry", "password"}


def password_path(home: Path) -> Path:
    """Where the spite home keeps the mail password when the player chose so."""
    return Path(home) / PASSWORD_FILE


def is_posix() -> bool:
    """Whether the file's mode keeps others out (POSIX), rather than the user's profile (Windows)."""
    return os.name == "posix"


def save(home: Path, entry: str, password: str) -> Path:
    """Keep `password` for the login `entry` in the spite home, unencrypted, readable by the user only (mode 0600,
    atomically); returns the file's path. MailSettingsError for a password no file of spite's may hold."""
    import tomli_w  # only setup writes it

    if not password or len(password) > MAX_PASSWORD:
        too_long = ngettext(
            "a password of 1 to {most} character can be kept, not this one",
            "a password of 1 to {most} characters can be kept, not this one",
            MAX_PASSWORD,
        )
        raise MailSettingsError(too_long.format(most=MAX_PASSWORD))
    head = (
        "# the mail password of 'spite mail setup', kept UNENCRYPTED at the player's request, as git's credential store keeps one "
        "(docs/mail-settings.md); delete this file, or run 'spite mail setup' again, to stop keeping it\n"
    )
    try:
        data = (head + tomli_w.dumps({"entry": entry, "password": password})).encode("utf-8")
    except UnicodeEncodeError as e:  # a terminal's undecodable bytes, kept as lone surrogates
        raise MailSettingsError(_("the password has characters no file can hold: it is not kept")) from e
    path = password_path(home)
    write_atomic(path, data, mode=0o600)
    return path


def load(home: Path, entry: str) -> str | None:
    """The password kept for the login `entry`, or None when none is kept, or one for another login; MailSettingsError
    naming the file when it cannot be read or is not one spite wrote."""
    path = password_path(home)
    try:
        data = read_head(path, MAX_FILE + 1)
    except FileNotFoundError:
        return None
    except OSError as e:
        # TRANSLATORS: {file} is a file's path; {error} the system's own words for what went wrong
        unreadable = _("cannot read the mail password kept in {file}: {error}; run 'spite mail setup' again")
        raise MailSettingsError(unreadable.format(file=path, error=error_text(e))) from e
    doc = _parsed(data)
    if doc is None:
        # TRANSLATORS: {file} is a file's path
        raise MailSettingsError(_("the mail password kept in {file} is damaged: run 'spite mail setup' again").format(file=path))
    return doc["password"] if doc["entry"] == entry else None


def _parsed(data: bytes) -> dict[str, Any] | None:
    """The file's entry and password when it is one spite wrote (size, UTF-8, TOML, just those two strings); else None."""
    if len(data) > MAX_FILE:
        return None
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    if set(doc) != _KEYS or not all(type(doc[k]) is str for k in _KEYS):
        return None
    if not 1 <= len(doc["password"]) <= MAX_PASSWORD:
        return None
    return doc


def remove(home: Path) -> bool:
    """Stop keeping the password: remove its file; whether there was one."""
    try:
        password_path(home).unlink()
    except FileNotFoundError:
        return False
    return True


def exists(home: Path) -> bool:
    """Whether a password file is in the spite home (whichever login it is for)."""
    return password_path(home).is_file()
