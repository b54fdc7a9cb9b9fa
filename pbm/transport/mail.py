"""Mail as a transport: a save out by SMTP (attached, its turn code in the body), saves and codes in by IMAP or a Maildir.

Every failure of a server is a MailError subclass whose one line names the server and what failed. Nothing is ever
deleted from a mailbox: a message spite took is only flagged as seen.
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import re
import smtplib
import socket
import ssl
import stat
from collections.abc import Callable, Iterator
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import TypeVar

import engine.text
from engine._frozen import frozen_value
from pbm import saves
from pbm.errors import MailAuthError, MailConnectionError, MailError, MailTLSError, SaveFormatError
from pbm.i18n import N_, _, error_text, os_reason
from pbm.mailconf import MailSettings, bare_address
from pbm.saves import SaveFile
from pbm.transport import code
from pbm.transport.code import TurnCode
from pbm.transport.imapread import ReadMail, read_spite_mail, uid_sizes

TOML_TYPE = "application/toml"
# The largest mail an honest spite sends, as it lies in a mailbox: the save (at most saves.MAX_BYTES) attached in base64,
# 76 characters and CRLF for every 57 bytes; its turn code in the body (at most code.MAX_PARTS parts of code.PART_CHARS
# characters, CRLF on each line); and within MAIL_ROOM its words (quoted-printable in any language), its headers and what
# servers add on the way (Received, DKIM, ARC, a spam filter's report).
MAIL_ROOM = 64 * 1024
LARGEST_MAIL = -(-saves.MAX_BYTES // 57) * 78 + code.MAX_PARTS * (code.PART_CHARS + 2 * (code.BODY_LINES + 2)) + MAIL_ROOM
_MIB = 1024 * 1024
# What is read of one message at most: twice LARGEST_MAIL (~422 KiB), in whole MiB (1 MiB). Most spite mail is ~20-40 KB;
# bigger mail (photos) is not read at all.
MAX_MESSAGE = -(-2 * LARGEST_MAIL // _MIB) * _MIB
T = TypeVar("T")


def subject_tag(match: str) -> str:
    """The fixed head of the subject of every mail of `match`: ``[spite 3342e18f]``, in no language (mail filters and
    threads match it, whatever language the sender's spite speaks)."""
    return f"[spite {match[:8]}]"


def subject(save: SaveFile) -> str:
    """The subject of the mail that carries `save`: ``[spite 3342e18f] Alice → Bob, game 1 turn 5``, the words after the
    tag in the sender's language."""
    sender, receiver = save.players[save.signer].name, save.players[1 - save.signer].name
    # TRANSLATORS: a mail's subject, after the tag "[spite 3342e18f]" that stays as it is; {sender} and {receiver} are player names
    words = _("{sender} → {receiver}, game {game} turn {turn}").format(sender=sender, receiver=receiver, game=save.game, turn=save.turn)
    return f"{subject_tag(save.match)} {words}"


def compose(save: SaveFile, data: bytes, name: str, sender: str, to: str) -> EmailMessage:
    """The mail that carries the save `data` (parsed as `save`): the file attached as application/toml (base64), and its
    turn code in the text body for mail programs that drop or hide attachments.

    Its words are in the sender's language (this spite's); the subject's tag and the turn code are in none.
    """
    message = EmailMessage(policy=policy.SMTP)
    try:
        message["Subject"] = subject(save)
        message["From"] = sender
        message["To"] = to
    except (ValueError, TypeError) as e:  # the email package refuses what no header may hold
        # TRANSLATORS: {error} is the email library's own words (English)
        raise MailError(_("cannot make the mail's headers ({error}): check the addresses and names").format(error=error_text(e))) from e
    message["Date"] = formatdate(localtime=True)
    domain = bare_address(sender).rpartition("@")[2] or "spite.invalid"
    message["Message-ID"] = make_msgid(f"spite.{save.match[:8]}.{save.seq}", domain=domain)
    thread = f"<spite.{save.match}@{domain}>"  # one made-up root per match: mail programs show a match as one thread
    message["References"] = thread
    message["In-Reply-To"] = thread
    message["X-Spite-Match"] = save.match
    who = save.players[save.signer].name
    lines = [
        # TRANSLATORS: the first line of a mail; {player} is the sender's name, {match} a match id, {file} the attached file's name
        _("{player}'s turn in spite match {match} (game {game}, turn {turn}) is attached as {file}.").format(
            player=who, match=save.match[:8], game=save.game, turn=save.turn, file=name
        ),
        "",
        # TRANSLATORS: in a mail; the commands and {file} (a file's name) stay as they are
        _("To play it: spite inbox --play   (or save the attachment and run: spite play {file})").format(file=name),
    ]
    parts = code.encode(save)
    if len(parts) <= code.MAX_PARTS:
        lines += [
            _(
                # TRANSLATORS: in a mail, two lines before the turn code (BEGIN SPITE ... END SPITE); the commands stay as they are
                "If your mail program hides the attachment, the turn code below is the same turn:\n"
                "spite inbox finds it, or copy it from BEGIN to END into: spite play -"
            ),
            "",
            "\n\n".join(parts),  # the turn code: in no language
        ]
    else:
        lines.append(_("(This turn is too big for a turn code: it travels only as the attached file.)"))
    message.set_content("\n".join(lines) + "\n", cte="7bit" if all(ord(c) < 128 for c in "".join(lines)) else "quoted-printable")
    message.add_attachment(data, maintype="application", subtype="toml", filename=name)  # bytes: base64, never re-wrapped
    return message


# --- the servers ---


def _named(kind: str, settings: MailSettings, action: Callable[[], T]) -> T:
    """Run `action` against a server; any failure becomes the MailError that names the server and what failed."""
    host, port = (settings.smtp_host, settings.smtp_port) if kind == "SMTP" else (settings.imap_host, settings.imap_port)
    where = {"kind": kind, "server": f"{host}:{port}"}  # the server, in the messages below: "the SMTP server smtp.example.com:465"
    try:
        return action()
    except MailError:
        raise
    except Exception as e:
        if _timed_out(e):  # smtplib and imaplib wrap a timeout in errors of their own
            # TRANSLATORS: {kind} is SMTP or IMAP; {server} is the server's host and port; {seconds} a number
            late = _("the {kind} server {server} did not answer within {seconds} s (timeout)")
            raise MailConnectionError(late.format(**where, seconds=f"{settings.timeout:g}")) from e
        named = _named_error(where, host, e)
        if named is None:
            raise
        raise named from e


def _timed_out(error: BaseException | None) -> bool:
    """Whether `error`, or an error it was raised from or while handling, is a timeout."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, TimeoutError):
            return True
        error, seen = error.__cause__ or error.__context__, seen + 1
    return False


def _named_error(where: dict[str, str], host: str, e: Exception) -> Exception | None:
    """The MailError that says in one line what `e`, raised by a server's library or the network, means; None if neither.

    `where` fills the placeholders {kind} (SMTP or IMAP) and {server} (host:port) that name the server.
    """
    if isinstance(e, smtplib.SMTPAuthenticationError | _ImapAuth):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; {said} the server's own answer (often English)
        refused = _(
            "the {kind} server {server} refused the user name or password ({said}); "
            "Gmail, Fastmail and iCloud need an app password, not the account's"
        )
        return PasswordRefusedError(refused.format(**where, said=_said(e)))
    if isinstance(e, smtplib.SMTPNotSupportedError):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; tls is the setting's value (never translated)
        return MailTLSError(_("the {kind} server {server} does not offer STARTTLS: choose security tls").format(**where))
    if isinstance(e, ssl.SSLCertVerificationError):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; {reason} the TLS library's own words (English)
        untrusted = _(
            "TLS with the {kind} server {server} failed: its certificate does not check out ({reason}); "
            "for a private server's own certificate, set SSL_CERT_FILE to its file (PEM)"
        )
        return MailTLSError(untrusted.format(**where, reason=e.verify_message))
    if isinstance(e, ssl.SSLError):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; {reason} the TLS library's own words (English);
        # tls and starttls are the setting's values (never translated)
        failed = _("TLS with the {kind} server {server} failed ({reason}): is the security (tls or starttls) right for that port?")
        return MailTLSError(failed.format(**where, reason=e.reason or error_text(e)))
    if isinstance(e, ConnectionRefusedError):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port
        refused = _("the {kind} server {server} refused the connection: is the host and port right, and the server up?")
        return MailConnectionError(refused.format(**where))
    if isinstance(e, socket.gaierror):
        # TRANSLATORS: {host} is a host name, in quotes; {reason} the system's own words for what failed
        no_host = _("there is no host {host} (or no network): {reason}")
        return MailConnectionError(no_host.format(host=repr(host), reason=os_reason(e)))
    if isinstance(e, smtplib.SMTPRecipientsRefused):
        said = _said(next(iter(e.recipients.values()), ""))
        # TRANSLATORS: {kind} is SMTP; {server} its host and port; {address} the address (or addresses) refused; {said} the
        # server's own answer (often English)
        refused = _("the {kind} server {server} refused the address {address}: {said}")
        return MailError(refused.format(**where, address=", ".join(e.recipients), said=said))
    if isinstance(e, smtplib.SMTPSenderRefused):
        # TRANSLATORS: {kind} is SMTP; {server} its host and port; {address} the sender's address; {said} the server's own
        # answer (often English)
        refused = _("the {kind} server {server} refused the From address {address}: {said}")
        return MailError(refused.format(**where, address=e.sender, said=_said(e)))
    if isinstance(e, smtplib.SMTPServerDisconnected | imaplib.IMAP4.abort):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; {said} the server's or library's own words (English)
        closed = _("the {kind} server {server} closed the connection ({said})")
        return MailConnectionError(closed.format(**where, said=_said(e)))
    if isinstance(e, smtplib.SMTPException | imaplib.IMAP4.error):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; {said} the server's own answer (often English)
        return MailError(_("the {kind} server {server} failed: {said}").format(**where, said=_said(e)))
    if isinstance(e, OSError):
        # TRANSLATORS: {kind} is SMTP or IMAP; {server} its host and port; {reason} the system's own words for what failed
        unreachable = _("cannot reach the {kind} server {server}: {reason}")
        return MailConnectionError(unreachable.format(**where, reason=os_reason(e)))
    return None


class _ImapAuth(Exception):
    """An IMAP server refused the login."""


class PasswordRefusedError(MailAuthError):
    """A server refused the user name or password (not: it offers no login at all)."""


def _said(e: object) -> str:
    """What a server said, in one short line."""
    if isinstance(e, smtplib.SMTPResponseException):
        text = e.smtp_error.decode("utf-8", "replace") if isinstance(e.smtp_error, bytes) else str(e.smtp_error)
        return f"{e.smtp_code} {' '.join(text.split())}"[:160]
    if isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], int):
        return _said(smtplib.SMTPResponseException(*e))
    if isinstance(e, bytes):  # imaplib's errors and answers hold the server's bytes: shown as text, never as b'…'
        text = e.decode("utf-8", "replace")
    elif isinstance(e, list | tuple):
        text = " ".join(_said(x) for x in e if x)
    elif isinstance(e, Exception) and e.args and all(isinstance(a, bytes | str) for a in e.args):
        text = " ".join(a.decode("utf-8", "replace") if isinstance(a, bytes) else a for a in e.args)
    else:
        text = str(e)
    return " ".join(text.split())[:160] or type(e).__name__


def _context() -> ssl.SSLContext:
    """The TLS context: the system's trusted certificates, or those of SSL_CERT_FILE (a private server's)."""
    return ssl.create_default_context(cafile=os.environ.get("SSL_CERT_FILE") or None)


@contextlib.contextmanager
def _session(
    kind: str,
    settings: MailSettings,
    server: Callable[[], T],
    ready: Callable[[T], None],
    close: Callable[[T], object],
    end: Callable[[T], object],
) -> Iterator[T]:
    """A server connection (made by `server`, logged in by `ready`) for the `with` block; MailError naming what failed.

    A connection that fails to get ready is closed with `close`; a ready one is ended with `end` after the block.
    """

    def connect() -> T:
        opened = server()
        try:
            ready(opened)
        except BaseException:
            with contextlib.suppress(Exception):
                close(opened)
            raise
        return opened

    opened = _named(kind, settings, connect)
    try:
        yield opened
    finally:
        with contextlib.suppress(Exception):
            end(opened)


def _smtp(settings: MailSettings, password: str) -> contextlib.AbstractContextManager[smtplib.SMTP]:
    def server() -> smtplib.SMTP:
        if settings.smtp_security == "tls":
            return smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=settings.timeout, context=_context())
        return smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=settings.timeout)

    def ready(server: smtplib.SMTP) -> None:
        server.ehlo()
        if settings.smtp_security == "starttls":
            server.starttls(context=_context())
            server.ehlo()
        if password and server.has_extn("auth"):
            server.login(settings.user, password)
        elif password and settings.smtp_security != "plain":
            where = f"{settings.smtp_host}:{settings.smtp_port}"
            raise MailAuthError(_("the SMTP server {server} offers no login (AUTH)").format(server=where))

    return _session("SMTP", settings, server, ready, smtplib.SMTP.close, smtplib.SMTP.quit)


def check_smtp(settings: MailSettings, password: str) -> None:
    """Connect and log in to the SMTP server; MailError naming what failed."""
    with _smtp(settings, password) as server:
        _named("SMTP", settings, server.noop)


def send(settings: MailSettings, password: str, message: EmailMessage) -> None:
    """Send `message` by the SMTP server; MailError naming what failed (then nothing was sent)."""
    with _smtp(settings, password) as server:
        _named("SMTP", settings, lambda: server.send_message(message))


def _imap(settings: MailSettings, password: str) -> contextlib.AbstractContextManager[imaplib.IMAP4]:
    def server() -> imaplib.IMAP4:
        if settings.imap_security == "tls":
            return imaplib.IMAP4_SSL(settings.imap_host, settings.imap_port, ssl_context=_context(), timeout=settings.timeout)
        return imaplib.IMAP4(settings.imap_host, settings.imap_port, timeout=settings.timeout)

    def ready(server: imaplib.IMAP4) -> None:
        if settings.imap_security == "starttls":
            if "STARTTLS" not in server.capabilities:
                where = f"{settings.imap_host}:{settings.imap_port}"
                raise MailTLSError(
                    _("the {kind} server {server} does not offer STARTTLS: choose security tls").format(kind="IMAP", server=where)
                )
            server.starttls(ssl_context=_context())
        try:
            server.login(settings.user, password)
        except imaplib.IMAP4.error as e:
            raise _ImapAuth(_said(e)) from e
        kind = server.select("INBOX")[0]
        if kind != "OK":
            # TRANSLATORS: {host} is the IMAP server's host name; {user} the login name at it
            raise MailError(_("the IMAP server {host} has no INBOX for {user}").format(host=settings.imap_host, user=settings.user))

    return _session("IMAP", settings, server, ready, imaplib.IMAP4.shutdown, imaplib.IMAP4.logout)


def check_imap(settings: MailSettings, password: str) -> None:
    """Connect, log in and open the INBOX; MailError naming what failed."""
    with _imap(settings, password):
        pass


# --- fetching ---


@frozen_value(slots=False)
class Mail:
    """One message of the mailbox: its bytes, and how to flag it as seen (`key`: an IMAP UID or a Maildir file name)."""

    key: str
    data: bytes


@frozen_value(slots=False)
class Skipped:
    """A file of a Maildir that was not read as a mail (`key`: new/… or cur/…), and why: str() the English, pbm.i18n.say()
    the player's language."""

    key: str
    why: engine.text.Message


# Why a file of a Maildir was not read (Skipped.why)
_FOLDER = N_("it is a folder, not a mail")
_SPECIAL = N_("it is not a regular file (a pipe, a device or a socket), so it is not a mail")
_LINK_OUT = N_("it is a link that leads out of the Maildir")
# TRANSLATORS: {reason} is the system's own words for what went wrong
_UNREADABLE = N_("it cannot be read ({reason})")


class Mailbox:
    """The messages to look at, and flagging as seen; never deleting. Use :func:`imap_box` or :func:`maildir_box`."""

    looked: Mark | None = None
    skipped: tuple[Skipped, ...] = ()  # the files of a Maildir passed over (not mail: a folder, a pipe, a link out), once looked at
    read_before: tuple[ReadMail, ...] = ()  # IMAP: the spite mail passed over as read elsewhere first, once looked at

    def messages(self) -> Iterator[Mail]:
        raise NotImplementedError

    def mark_seen(self, mail: Mail) -> None:
        raise NotImplementedError


class _Imap(Mailbox):
    def __init__(self, settings: MailSettings, server: imaplib.IMAP4, every: bool, mark: Mark | None) -> None:
        self.settings, self.server, self.every, self.mark = settings, server, every, mark
        self.looked: Mark | None = None  # where the next look starts, once this one went through every message

    def _do(self, *command: str) -> list:
        kind, data = _named("IMAP", self.settings, lambda: self.server.uid(*command))
        if kind != "OK":
            # TRANSLATORS: {command} is the name of an IMAP command (SEARCH, FETCH, STORE); {said} what the server answered
            refused = _("the IMAP server {host} refused {command}: {said}")
            raise MailError(refused.format(host=self.settings.imap_host, command=command[0].upper(), said=_said(data)))
        return data

    def _status(self) -> Mark | None:
        """The INBOX's UIDVALIDITY and the highest UID it may hold now, or None when the server does not say."""
        kind, data = _named("IMAP", self.settings, lambda: self.server.status("INBOX", "(UIDVALIDITY UIDNEXT)"))
        text = b" ".join(x for x in data if isinstance(x, bytes)) if kind == "OK" else b""
        found = dict(re.findall(rb"(UIDVALIDITY|UIDNEXT) (\d+)", text))
        if b"UIDVALIDITY" not in found or b"UIDNEXT" not in found:
            return None
        return Mark(found[b"UIDVALIDITY"].decode(), int(found[b"UIDNEXT"]) - 1)

    def messages(self) -> Iterator[Mail]:
        now = self._status()
        since = self.mark if self.mark is not None and now is not None and self.mark.validity == now.validity else None
        if self.every:
            query: tuple[str, ...] = ("ALL",)
        elif since is not None:
            query = ("UID", f"{since.uid + 1}:*")  # what came since the last look, read elsewhere or not
        else:
            query = ("UNSEEN",)  # the first look: the unread mail, not years of it
        uids = [int(x) for x in b" ".join(x for x in self._do("search", *query) if x).split()]
        uids = [u for u in uids if since is None or self.every or u > since.uid]  # n:* always holds the highest UID
        sizes: dict[int, int] = {}
        for i in range(0, len(uids), 500):
            data = self._do("fetch", ",".join(map(str, uids[i : i + 500])), "(RFC822.SIZE)")
            text = b" ".join(x if isinstance(x, bytes) else x[0] for x in data if x)
            sizes.update(uid_sizes(text))
        for uid in uids:
            if sizes.get(uid, MAX_MESSAGE + 1) > MAX_MESSAGE:
                continue
            data = self._do("fetch", str(uid), "(BODY.PEEK[])")  # PEEK: looking leaves it unseen
            body = next((x[1] for x in data if isinstance(x, tuple)), None)
            if body is not None:
                yield Mail(str(uid), body)
        if not self.every:
            with contextlib.suppress(MailError):  # a server without HEADER search: the count is only a hint
                self.read_before = tuple(read_spite_mail(self._do, set(uids), since.uid if since is not None else None))
        self.looked = now

    def mark_seen(self, mail: Mail) -> None:
        self._do("store", mail.key, "+FLAGS", "(\\Seen)")


@frozen_value(slots=False)
class Mark:
    """Where the last look at an IMAP INBOX ended: its UIDVALIDITY and the highest UID looked at."""

    validity: str
    uid: int


@contextlib.contextmanager
def imap_box(settings: MailSettings, password: str, every: bool = False, mark: Mark | None = None) -> Iterator[Mailbox]:
    """The INBOX on the IMAP server: the messages that came after `mark`, else the unseen ones (all of them with `every`).

    Once every message was looked at, the box's `looked` says where the next look starts.
    """
    with _imap(settings, password) as server:
        yield _Imap(settings, server, every, mark)


# Opening a file of a Maildir: never through a link (the link was resolved and checked first), never waiting on a pipe
# that took the file's place meanwhile, and in binary on Windows; each flag only where the system has it.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


class _Maildir(Mailbox):
    def __init__(self, folder: Path, every: bool) -> None:
        self.folder, self.every = folder, every
        # where a link may lead: the Maildir, and its folders wherever they are links to
        self.inside = tuple({Path(os.path.realpath(folder / sub)) for sub in ("", "new", "cur", "tmp")})

    def messages(self) -> Iterator[Mail]:
        for sub in ("new", "cur"):
            for path in sorted((self.folder / sub).iterdir()):
                if path.name.startswith("."):
                    continue
                seen = sub == "cur" and "S" in path.name.rpartition(":2,")[2]
                if seen and not self.every:
                    continue
                key = f"{sub}/{path.name}"
                try:
                    data = self._read(path)
                except FileNotFoundError:  # taken meanwhile by a mail program
                    continue
                except _NotMail as e:
                    self.skipped = (*self.skipped, Skipped(key, e.why))
                    continue
                if data is not None:
                    yield Mail(key, data)

    def _read(self, path: Path) -> bytes | None:
        """The bytes of the mail at `path` (a regular file, or a link to one inside the Maildir); None if it is bigger than
        any spite mail (MAX_MESSAGE, as the IMAP box passes it over); _NotMail if it is no mail at all."""
        try:
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                path = Path(os.path.realpath(path))
                if not any(path.is_relative_to(folder) for folder in self.inside):
                    raise _NotMail(engine.text.Message(_LINK_OUT))
            else:
                _regular(info)  # a folder or a pipe is not even opened
            fd = os.open(path, _OPEN_FLAGS)
        except FileNotFoundError:
            raise
        except OSError as e:
            raise _NotMail(engine.text.Message(_UNREADABLE, reason=os_reason(e))) from e
        with open(fd, "rb") as file:  # closes `fd`
            info = os.fstat(file.fileno())
            _regular(info)  # what was opened, should another file have taken its place meanwhile
            if info.st_size > MAX_MESSAGE:
                return None
            data = file.read(MAX_MESSAGE + 1)  # bounded, should it grow meanwhile
        return data if len(data) <= MAX_MESSAGE else None

    def mark_seen(self, mail: Mail) -> None:
        """Flag seen the Maildir way: the file moves to cur/ with S among its flags (its bytes unchanged)."""
        path = self.folder / mail.key
        base, _sep, flags = path.name.partition(":2,")
        target = self.folder / "cur" / f"{base}:2,{''.join(sorted(set(flags) | {'S'}))}"
        if path != target:
            with contextlib.suppress(FileNotFoundError):
                os.rename(path, target)


class _NotMail(Exception):
    """A file of a Maildir that is no mail to read (`why`: a folder, a pipe or a device, a link out, unreadable)."""

    def __init__(self, why: engine.text.Message) -> None:
        super().__init__(why)
        self.why = why


def _regular(info: os.stat_result) -> None:
    """Nothing if `info` is a regular file's; else _NotMail saying what it is."""
    if stat.S_ISDIR(info.st_mode):
        raise _NotMail(engine.text.Message(_FOLDER))
    if not stat.S_ISREG(info.st_mode):
        raise _NotMail(engine.text.Message(_SPECIAL))


@contextlib.contextmanager
def maildir_box(folder: Path, every: bool = False) -> Iterator[Mailbox]:
    """A local Maildir (new/, cur/, tmp/): its unseen messages (all of them with `every`)."""
    folder = Path(folder).expanduser()
    if not all((folder / sub).is_dir() for sub in ("new", "cur")):
        raise MailError(_("{folder} is not a Maildir (it has no new/ and cur/ folders)").format(folder=folder))
    yield _Maildir(folder, every)


# --- what a message holds ---


@frozen_value(slots=False)
class Found:
    """A save or turn code found in a message, with the text it was found as (kept as the file to play)."""

    item: SaveFile | TurnCode
    data: bytes
    sender: str  # the From address, to answer to


def found_in(data: bytes) -> list[Found]:
    """The saves and turn codes in the mail `data`: attachments first, then text bodies; nothing for mail not spite's.

    A damaged attachment or body is passed over when another part of the message holds the turn.
    """
    try:
        message = BytesParser(policy=policy.default).parsebytes(data)
        sender = bare_address(str(message.get("From", "")))
        candidates = list(_candidates(message))
    except Exception:  # a message the email package cannot take apart is not spite's
        return []
    found: dict[tuple[str, int], Found] = {}
    for raw in candidates:
        try:
            item = code.read(raw)
            turn = (item.match, item.seq)
        except Exception:  # whatever a stranger's mail holds, the rest of the inbox is still read
            continue
        found.setdefault(turn, Found(item, raw, sender))  # the attachment and the code in the body are one turn
    return list(found.values())


def _candidates(message: Message) -> Iterator[bytes]:
    """The parts that may hold a turn: .toml attachments first, then any text part that mentions SPITE."""
    attachments, texts = [], []
    for part in message.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes) or not payload:
            continue
        name = part.get_filename() or ""
        kind = part.get_content_type()
        if kind == TOML_TYPE or name.lower().endswith(".toml"):
            attachments.append(payload)
        elif kind.startswith("text/") and (b"SPITE" in payload or b"spite-save" in payload):
            texts.append(payload)
    yield from attachments
    yield from texts


def save_name(item: SaveFile | TurnCode) -> str:
    """The file name a found save or code is kept as: the save's usual name; a code's ends in .txt (it holds pasted text)."""
    if isinstance(item, SaveFile):
        return saves.default_name(item)
    game, turn = item.turn.get("game"), item.turn.get("turn")
    if type(game) is not int or type(turn) is not int:
        raise SaveFormatError(_("the turn code names no game or turn: it was not made by spite"))
    return f"{saves.name_stem(item.match, game, turn, item.turn.get('message'))}.txt"
