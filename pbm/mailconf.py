"""Mail settings (``<home>/mail.toml``, mode 0600) and where the mail password comes from.

The file holds servers, ports, security, the user name and the From address (docs/mail-settings.md), never a password.
The password comes from SPITE_MAIL_PASSWORD, else the system keyring when the `keyring` package finds the system's own,
else the file the player chose at setup to keep it in (pbm/credentials.py), else the terminal (the CLI asks).
"""

from __future__ import annotations

import enum
import re
import tomllib
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from engine._frozen import frozen_value
from pbm.errors import MailSettingsError
from pbm.home import write_atomic
from pbm.i18n import _, error_text

SETTINGS_FILE = "mail.toml"
DRAFT_FILE = "mail-draft.toml"  # the answers of a setup whose servers failed: the next setup offers them
PASSWORD_ENV = "SPITE_MAIL_PASSWORD"
KEYRING_SERVICE = "spite-mail"
SECURITY = ("starttls", "tls", "plain")
DEFAULT_PORTS = {"smtp": {"starttls": 587, "tls": 465, "plain": 25}, "imap": {"starttls": 143, "tls": 993, "plain": 143}}
_ADDRESS = re.compile(r"[^@\s<>]+@[^@\s<>]+")


@frozen_value(slots=False)
class MailSettings:
    """How this player sends and fetches mail: SMTP out; IMAP in, or a local Maildir when `maildir` is set."""

    address: str  # the From address, which opponents answer to
    user: str  # the login name on both servers
    smtp_host: str
    smtp_port: int
    smtp_security: str
    imap_host: str = ""
    imap_port: int = 993
    imap_security: str = "tls"
    maildir: str = ""  # a local Maildir to read instead of IMAP
    timeout: float = 30.0  # seconds to wait for a server

    def __post_init__(self) -> None:
        check(self)

    @property
    def uses_imap(self) -> bool:
        return not self.maildir

    @property
    def keyring_user(self) -> str:
        """The keyring entry's name: the user at the SMTP server (one password serves both servers)."""
        return f"{self.user}@{self.smtp_host}"


def check(settings: MailSettings) -> None:
    """Raise MailSettingsError naming the first setting that is not valid."""
    if not _ADDRESS.fullmatch(bare_address(settings.address)):
        # TRANSLATORS: {address} is what was given, in quotes
        raise MailSettingsError(_("{address} is not an email address (like alice@example.com)").format(address=repr(settings.address)))
    if not settings.user or any(c.isspace() for c in settings.user):
        raise MailSettingsError(_("the user name is empty or has spaces"))
    for kind, host, port, security in (
        ("SMTP", settings.smtp_host, settings.smtp_port, settings.smtp_security),
        *([("IMAP", settings.imap_host, settings.imap_port, settings.imap_security)] if settings.uses_imap else []),
    ):
        # In these messages {kind} is SMTP or IMAP, and a value given is in quotes (as Python writes it).
        if not host or any(c.isspace() or c in "/:@" for c in host):
            # TRANSLATORS: {kind} is SMTP or IMAP; {host} the host name given, in quotes; {example} a host name, as smtp.example.com
            not_host = _("the {kind} server {host} is not a host name (like {example})")
            raise MailSettingsError(not_host.format(kind=kind, host=repr(host), example=f"{kind.lower()}.example.com"))
        if type(port) is not int or not 1 <= port <= 65535:
            # TRANSLATORS: {kind} is SMTP or IMAP; {port} the port given
            raise MailSettingsError(_("the {kind} port {port} is not a port number (1 to 65535)").format(kind=kind, port=repr(port)))
        if security not in SECURITY:
            # TRANSLATORS: {kind} is SMTP or IMAP; {security} the kind of security given, in quotes; {known} lists the kinds spite knows
            not_known = _("the {kind} security {security} is not one of {known}")
            raise MailSettingsError(not_known.format(kind=kind, security=repr(security), known=", ".join(SECURITY)))
        if security == "plain" and not is_loopback(host):
            raise MailSettingsError(
                _(
                    # TRANSLATORS: {kind} is SMTP or IMAP; {host} a host name; tls, starttls, plain: the setting's values (never translated)
                    "the {kind} security plain would send your password unencrypted to {host}: it is for a server on this machine "
                    "only (localhost, 127.0.0.1); choose tls or starttls"
                ).format(kind=kind, host=host)
            )
    if not isinstance(settings.timeout, int | float) or not 0 < settings.timeout <= 600:
        raise MailSettingsError(_("the timeout {timeout} is not a number of seconds from 0 to 600").format(timeout=repr(settings.timeout)))


def is_loopback(host: str) -> bool:
    """Whether `host` names this machine: localhost, or an address of 127.0.0.0/8."""
    import ipaddress

    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bare_address(text: str) -> str:
    """The address in `text` ("Alice <alice@example.com>" or "alice@example.com"), without a name or brackets."""
    from email.utils import parseaddr

    return parseaddr(text)[1] or text.strip()


def valid_address(text: str) -> str:
    """`text` as an address to send to; MailSettingsError if it is not one."""
    address = bare_address(text)
    if not _ADDRESS.fullmatch(address):
        # TRANSLATORS: {address} is what was given, in quotes
        raise MailSettingsError(_("{address} is not an email address (like bob@example.com)").format(address=repr(text)))
    return address


def settings_path(home: Path, draft: bool = False) -> Path:
    return Path(home) / (DRAFT_FILE if draft else SETTINGS_FILE)


def save(home: Path, settings: MailSettings, draft: bool = False) -> Path:
    """Write `settings` to the spite home's mail.toml (mode 0600, atomically), or as the `draft` of a setup that failed
    (mail-draft.toml, beside it); returns its path. Keeping the settings removes the draft."""
    import tomli_w  # only setup writes the settings

    # the file's own comment: a file's contents are in no language
    if draft:
        head = "# the answers of a 'spite mail setup' whose servers failed: the next setup offers them. No password is kept here.\n"
    else:
        head = "# spite mail settings: written by 'spite mail setup' (docs/mail-settings.md). No password is kept here.\n"
    path = settings_path(home, draft)
    write_atomic(path, (head + tomli_w.dumps(asdict(settings))).encode("utf-8"), mode=0o600)
    if not draft:
        settings_path(home, draft=True).unlink(missing_ok=True)
    return path


def load(home: Path, draft: bool = False) -> MailSettings:
    """The mail settings kept in the spite home (or the `draft` of a setup that failed); MailSettingsError if there are
    none or they are not valid."""
    path = settings_path(home, draft)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MailSettingsError(_("no mail settings yet: run 'spite mail setup' first")) from None
    except (OSError, UnicodeDecodeError) as e:
        # TRANSLATORS: {file} is a file's path; {error} the system's own words for what went wrong
        raise MailSettingsError(_("cannot read the mail settings {file}: {error}").format(file=path, error=error_text(e))) from e
    try:
        doc: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # TRANSLATORS: {error} is the TOML reader's own words (English) for what is wrong, and where
        not_toml = _("the mail settings {file} are not valid TOML ({error}): run 'spite mail setup' again")
        raise MailSettingsError(not_toml.format(file=path, error=error_text(e))) from e
    known = {f.name for f in fields(MailSettings)}
    unknown = sorted(set(doc) - known)
    if unknown:
        # TRANSLATORS: {setting} is the name of the setting in the file (never translated), in quotes
        strange = _("the mail settings {file} have an unknown setting {setting}: run 'spite mail setup' again")
        raise MailSettingsError(strange.format(file=path, setting=repr(unknown[0])))
    try:
        return MailSettings(**doc)
    except TypeError as e:
        # TRANSLATORS: {error} is Python's own words (English) naming the setting that is missing
        lacking = _("the mail settings {file} lack a setting ({error}): run 'spite mail setup' again")
        raise MailSettingsError(lacking.format(file=path, error=error_text(e))) from e
    except MailSettingsError as e:
        # TRANSLATORS: {error} says which setting is not valid
        raise MailSettingsError(_("the mail settings {file}: {error}").format(file=path, error=error_text(e))) from e


# --- the password ---


def _keyring() -> Any | None:
    """The keyring module when it is installed and its backend is the system's own keyring; None otherwise (never an error).

    Backends from elsewhere (keyrings.alt's files, say) are not used: some keep the password in plain text.
    """
    try:
        import keyring
        from keyring.backends import chainer

        backend: Any = keyring.get_keyring()  # a chainer's best backend, or None when it has none
        if isinstance(backend, chainer.ChainerBackend):
            backend = max(backend.backends, key=lambda b: b.priority, default=None)
        module = type(backend).__module__
        if not module.startswith("keyring.backends.") or module.rpartition(".")[2] in ("fail", "null", "chainer"):
            return None
        return keyring if getattr(backend, "priority", 0) > 0 else None
    except Exception:  # an absent, broken or locked keyring is simply not used
        return None


class Source(enum.Enum):
    """Where a mail password came from."""

    ENV = "env"  # SPITE_MAIL_PASSWORD
    KEYRING = "keyring"  # the system keyring
    FILE = "file"  # the file of the spite home the player chose at setup (pbm/credentials.py)
    ASKED = "asked"  # typed at the terminal


@frozen_value(slots=False)
class Password:
    """A mail password and where it came from (so that a refusal of it can say what to do)."""

    text: str
    source: Source

    def __repr__(self) -> str:
        return f"Password(<hidden>, {self.source})"  # never in a traceback or a log


def stored_password(settings: MailSettings, home: Path) -> Password | None:
    """The password from SPITE_MAIL_PASSWORD, the system keyring or the spite home's password file, or None when the
    player must be asked; MailSettingsError when that file is damaged."""
    import os

    from pbm import credentials

    env = os.environ.get(PASSWORD_ENV)
    if env:
        return Password(env, Source.ENV)
    ring = _keyring()
    if ring is not None:
        try:
            kept = ring.get_password(KEYRING_SERVICE, settings.keyring_user) or None
        except Exception:
            kept = None
        if kept is not None:
            return Password(kept, Source.KEYRING)
    kept = credentials.load(home, settings.keyring_user)
    return Password(kept, Source.FILE) if kept is not None else None


def has_keyring() -> bool:
    """Whether this machine has a system keyring that spite may keep the password in."""
    return _keyring() is not None


def remember_password(settings: MailSettings, password: str) -> bool:
    """Keep `password` in the system keyring when there is one; whether it was kept there."""
    ring = _keyring()
    if ring is None:
        return False
    try:
        ring.set_password(KEYRING_SERVICE, settings.keyring_user, password)
    except Exception:
        return False
    return True


def in_file_words(path: Path) -> str:
    """Where the password file is and who may read it, as the end of a sentence: only you (POSIX), or your user profile
    (Windows, where a file's mode keeps nobody out)."""
    from pbm import credentials

    if credentials.is_posix():
        # TRANSLATORS: the end of a sentence about the mail password kept in a file; {file} is its path
        return _("in {file}, which only you can read").format(file=path)
    # TRANSLATORS: the end of a sentence about the mail password kept in a file on Windows; {file} is its path
    return _("in {file}, in your user profile (only you and the administrators can read it)").format(file=path)


def file_source(home: Path) -> str:
    """The sentence that says the password is kept in the spite home's file, unencrypted, and who can read it."""
    from pbm import credentials

    # TRANSLATORS: {where} says where the file is and who can read it, as: in /home/alice/.local/share/spite/mail-password.toml,
    # which only you can read
    kept_file = _("Your password is kept unencrypted {where}: spite does not ask for it; 'spite mail setup' changes it.")
    return kept_file.format(where=in_file_words(credentials.password_path(home)))


def password_source(settings: MailSettings, home: Path, just_kept: bool = False) -> str:
    """Where the mail password comes from on this machine, in one sentence (`just_kept`: setup has just put it in the keyring)."""
    import os

    from pbm import credentials

    if os.environ.get(PASSWORD_ENV):
        return _("Your password is read from {variable} (it is set here).").format(variable=PASSWORD_ENV)
    ring = _keyring()
    if ring is not None:
        where = {"backend": type(ring.get_keyring()).__name__, "entry": f"{KEYRING_SERVICE} / {settings.keyring_user}"}
        if just_kept:
            # TRANSLATORS: {backend} names the system keyring's kind (as SecretService); {entry} its entry (spite-mail / alice@host)
            kept = _("Your password is kept in the system keyring ({backend}), as {entry}: spite does not ask for it again.")
            return kept.format(**where)
        try:
            in_ring = ring.get_password(KEYRING_SERVICE, settings.keyring_user) is not None
        except Exception:
            in_ring = False
        if in_ring:
            # TRANSLATORS: {backend} names the system keyring's kind (as SecretService); {entry} its entry (spite-mail / alice@host)
            return _("Your password is kept in the system keyring ({backend}), as {entry}.").format(**where)
    try:
        in_file = credentials.load(home, settings.keyring_user) is not None
    except MailSettingsError:
        in_file = True  # damaged: said when a command reads it
    if in_file:
        return file_source(home)
    if ring is not None:
        not_yet = _(
            # TRANSLATORS: {backend} names the system keyring's kind (as SecretService)
            "Your password is not in the system keyring ({backend}) yet: "
            "spite asks for it once per command until spite mail setup keeps it there."
        )
        return not_yet.format(backend=type(ring.get_keyring()).__name__)
    return _("spite asks for your password once per command (or set {variable}): there is no system keyring here.").format(
        variable=PASSWORD_ENV
    )
