"""Mail: spite mail setup, send, resend and inbox."""

import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbm.cli.app import ToOption, UsageError, _Command, _handled, _identity, app, command, session
from pbm.cli.shared import _ago, _mail_named, _standing_json, is_practice, print_standings
from pbm.errors import MailAuthError, MailError, SaveFormatError, SpiteError
from pbm.home import read_head, spite_home
from pbm.identity import Identity
from pbm.journal import Journal
from pbm.saves import SaveFile
from pbm.shown import plain

if TYPE_CHECKING:
    from pbm.mailconf import MailSettings


def _setting(label: str, given: Any, default: Any, flag: str, kind: type = str) -> Any:
    """A setting: as given, else asked at a terminal (offering `default`), else `default`; a usage error when there is none."""
    if given is not None:
        return given
    if sys.stdin.isatty():
        return typer.prompt(label, default=default, type=kind) if default not in (None, "") else typer.prompt(label, type=kind)
    if default in (None, ""):
        raise UsageError(f"give {flag} (there is no terminal to ask at)")
    return default


mail_app = typer.Typer(help="Your mail settings, for spite send and spite inbox.", no_args_is_help=True)
app.add_typer(mail_app, name="mail")


@mail_app.command("setup", cls=_Command, epilog="Example: spite mail setup --provider fastmail --address alice@fastmail.com")
@_handled
def setup(
    provider: Annotated[
        str | None, typer.Option("--provider", metavar="NAME", help="Fill in the servers of gmail, fastmail or icloud (app passwords).")
    ] = None,
    address: Annotated[str | None, typer.Option("--address", metavar="ADDRESS", help="Your email address (the From of your mail).")] = None,
    user: Annotated[
        str | None, typer.Option("--user", metavar="NAME", help="Your login name at the servers (default: the address).")
    ] = None,
    smtp_host: Annotated[str | None, typer.Option("--smtp-host", metavar="HOST", help="The SMTP server that sends your mail.")] = None,
    smtp_port: Annotated[
        int | None, typer.Option("--smtp-port", metavar="PORT", help="Its port (default by security: 465, 587, 25).")
    ] = None,
    smtp_security: Annotated[
        str | None, typer.Option("--smtp-security", metavar="KIND", help="tls, starttls, or plain (a local server only).")
    ] = None,
    imap_host: Annotated[str | None, typer.Option("--imap-host", metavar="HOST", help="The IMAP server of your inbox.")] = None,
    imap_port: Annotated[int | None, typer.Option("--imap-port", metavar="PORT", help="Its port (default by security: 993, 143).")] = None,
    imap_security: Annotated[
        str | None, typer.Option("--imap-security", metavar="KIND", help="tls, starttls, or plain (a local server only).")
    ] = None,
    maildir: Annotated[
        Path | None, typer.Option("--maildir", metavar="DIR", help="Read a local Maildir instead of an IMAP server.")
    ] = None,
    timeout: Annotated[float | None, typer.Option("--timeout", metavar="SECONDS", help="How long to wait for a server (30).")] = None,
    no_check: Annotated[bool, typer.Option("--no-check", help="Keep the settings without trying the servers.")] = False,
) -> None:
    """Set up mail: servers, ports, security, user name and From address; tries them, then keeps them in your spite home."""
    from pbm import mailconf

    home = spite_home()
    old: MailSettings | None = None
    for is_draft in (True, False):  # the answers of a setup that failed, else the settings kept
        try:
            old = mailconf.load(home, is_draft)
        except SpiteError:
            continue
        if is_draft:
            session.out.print(f"Offering the answers of the last setup, whose servers failed ({mailconf.DRAFT_FILE}).")
        break
    preset = None
    if provider is not None:
        preset = mailconf.PROVIDERS.get(provider.lower())
        if preset is None:
            raise typer.BadParameter(f"{provider!r} is not one spite knows: {', '.join(mailconf.PROVIDERS)}", param_hint="--provider")

    def default(name: str) -> Any:
        """The provider's value, else the one kept before, else None."""
        if preset is not None and hasattr(preset, name):
            return getattr(preset, name)
        return getattr(old, name, None)

    def port(kind: str, security: str) -> int:
        """The port kept or the provider's for that security; another security gets its usual port."""
        same = security.strip().lower() == default(f"{kind}_security")
        return (default(f"{kind}_port") if same else None) or mailconf.DEFAULT_PORTS[kind].get(security.strip().lower(), 465)

    address = _setting("Your email address", address, default("address"), "--address")
    user = _setting("Your user name at the mail servers", user, default("user") or mailconf.bare_address(address), "--user")
    smtp_host = _setting("SMTP server (sends your mail)", smtp_host, default("smtp_host"), "--smtp-host")
    smtp_security = _setting("SMTP security (tls, starttls, plain)", smtp_security, default("smtp_security") or "tls", "--smtp-security")
    smtp_port = _setting("SMTP port", smtp_port, port("smtp", smtp_security), "--smtp-port", int)
    settings_maildir = str(maildir.expanduser().resolve()) if maildir is not None else ""
    if not settings_maildir and imap_host is None and old is not None and old.maildir and preset is None:
        settings_maildir = old.maildir
    if not settings_maildir:
        imap_host = _setting("IMAP server (your inbox)", imap_host, default("imap_host"), "--imap-host")
        imap_security = _setting(
            "IMAP security (tls, starttls, plain)", imap_security, default("imap_security") or "tls", "--imap-security"
        )
        imap_port = _setting("IMAP port", imap_port, port("imap", imap_security), "--imap-port", int)
    settings = mailconf.MailSettings(
        address=address.strip(),
        user=user.strip(),
        smtp_host=smtp_host.strip(),
        smtp_port=smtp_port,
        smtp_security=smtp_security.strip().lower(),
        imap_host=(imap_host or "").strip(),
        imap_port=imap_port or 993,
        imap_security=(imap_security or "tls").strip().lower(),
        maildir=settings_maildir,
        timeout=timeout if timeout is not None else (old.timeout if old is not None else 30.0),
    )
    asked = False
    if not no_check:
        try:
            password, asked = password_for(settings, ask_first=True)
            _try_servers(settings, password)
        except MailError as e:
            draft = mailconf.save(home, settings, draft=True)
            raise type(e)(f"{e} (your answers are kept in {draft}: spite mail setup offers them again)") from e
    path = mailconf.save(home, settings)
    session.out.print(f"Mail settings kept in {path} (readable by you only; no password in it).", soft_wrap=True)
    kept = asked and mailconf.remember_password(settings, password)
    session.out.print(mailconf.password_source(settings, kept), soft_wrap=True)


def _checks(settings: "MailSettings", password: str) -> list[tuple[str, str, Callable[[], None]]]:
    """Each server's check (or the Maildir's): what it is, what it says when it passes, and the check (MailError if not)."""
    from pbm.transport import mail

    def maildir() -> None:
        with mail.maildir_box(Path(settings.maildir)):
            pass

    smtp = f"SMTP {settings.smtp_host}:{settings.smtp_port} ({settings.smtp_security})"
    checks = [(smtp, f"logged in as {settings.user}.", lambda: mail.check_smtp(settings, password))]
    if settings.uses_imap:
        imap = f"IMAP {settings.imap_host}:{settings.imap_port} ({settings.imap_security})"
        checks.append((imap, "logged in, INBOX opened.", lambda: mail.check_imap(settings, password)))
    else:
        checks.append((f"Maildir {settings.maildir}", "found.", maildir))
    return checks


def _try_servers(settings: "MailSettings", password: str) -> None:
    """Log in to both servers (or find the Maildir) and say so; MailError naming what failed."""
    for what, passed, check in _checks(settings, password):
        check()
        session.out.print(f"{what}: {passed}", soft_wrap=True)


@mail_app.command("test", cls=_Command, epilog="Example: spite mail test")
@_handled
def mail_test() -> None:
    """Try both servers with the settings kept (log in, open the INBOX): one line each; exit status 1 if one fails."""
    from pbm import mailconf

    settings = mailconf.load(spite_home())
    password, _ = password_for(settings)
    failed = False
    for what, passed, check in _checks(settings, password):
        try:
            check()
        except MailError as e:
            session.out.print(f"{what}: failed: {plain(str(e))}", soft_wrap=True, markup=False)
            failed = True
        else:
            session.out.print(f"{what}: {passed}", soft_wrap=True)
    if failed:
        raise typer.Exit(1)


@mail_app.command("show", cls=_Command, epilog="Example: spite mail show")
@_handled
def mail_show() -> None:
    """Print the mail settings kept (never a password) and where the password comes from."""
    from dataclasses import asdict

    from pbm import mailconf

    home = spite_home()
    settings = mailconf.load(home)
    session.out.print(f"Mail settings in {mailconf.settings_path(home)}:", soft_wrap=True, markup=False)
    for name, value in asdict(settings).items():
        if name.startswith("imap_" if not settings.uses_imap else "maildir"):
            continue  # the inbox is read from one of the two
        session.out.print(f"  {name} = {plain(str(value))}", soft_wrap=True, markup=False)
    session.out.print(mailconf.password_source(settings), soft_wrap=True)


_asked: dict[str, str] = {}  # the passwords asked for in this command, by keyring entry: asked once per command


def password_for(settings: "MailSettings", ask_first: bool = False) -> tuple[str, bool]:
    """The mail password (from SPITE_MAIL_PASSWORD, the keyring or the terminal) and whether it was asked for.

    A password asked at the terminal is kept for the rest of the command. `ask_first` (setup): at a terminal the
    password is asked even if the keyring has one, which may be an old one.
    """
    import os

    from pbm import mailconf

    asking = ask_first and sys.stdin.isatty() and not os.environ.get(mailconf.PASSWORD_ENV)
    stored = None if asking else _asked.get(settings.keyring_user) or mailconf.stored_password(settings)
    if stored is not None:
        return stored, False
    if not sys.stdin.isatty():
        raise MailAuthError(f"no mail password: set {mailconf.PASSWORD_ENV}, or run this at a terminal to be asked")
    password = typer.prompt(f"Mail password for {settings.user} (an app password for Gmail, Fastmail, iCloud)", hide_input=True)
    _asked[settings.keyring_user] = password
    return password, True


def _address(journal: Journal, save: SaveFile, to: str | None, me: int) -> str:
    """Where `save` goes: --to (then kept), else the address kept for its match, else asked once at a terminal and kept."""
    from pbm.mailconf import valid_address

    them = plain(save.players[1 - me].name)
    if to is not None:
        address = valid_address(to)
    else:
        kept = journal.address(save.match)
        if kept:
            return kept
        if not sys.stdin.isatty():
            raise SpiteError(f"spite has no email address for {them} in match {save.match[:8]}: give it once with --to ADDRESS")
        address = valid_address(typer.prompt(f"{them}'s email address (kept for this match)"))
    if journal.address(save.match) != address:
        journal.keep_address(save.match, address)
    return address


def mail_save(identity: Identity, journal: Journal, save: SaveFile, data: bytes, name: str, to: str | None) -> str:
    """Mail this player's own save (`data`, parsed as `save`) to their opponent; returns the address it went to."""
    from pbm import mailconf
    from pbm.transport import mail

    me = save.signer
    if save.players[me].key != identity.public_text:
        who = plain(save.players[me].name)
        raise SpiteError(
            f"this file is {who}'s turn, not yours: spite send mails your own files (answer theirs with spite play FILE --send)"
        )
    settings = mailconf.load(journal.home)
    address = _address(journal, save, to, me)
    password, _ = password_for(settings)
    mail.send(settings, password, mail.compose(save, data, name, settings.address, address))
    journal.mailed(save, save.match, address)
    return address


def send_file(path: Path, to: str | None = None) -> None:
    """Mail the save at `path` and say so (used by send and by play --send)."""
    from pbm.transport import code, mail

    try:
        data = read_head(path, code.MAX_INPUT + 1)
    except OSError as e:
        raise SaveFormatError(f"cannot read {path}: {e.strerror or e}") from e
    save = code.read(data)  # a save as written, or pasted, quoted or re-wrapped whole
    if not isinstance(save, SaveFile):
        raise SpiteError(f"{path} holds a turn code, not a save: spite send mails the save file it was made from")
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        _refuse_an_old_file_of_a_finished_match(journal, identity, save, path)
        try:
            address = mail_save(identity, journal, save, data, path.name, to)
        except MailError as e:
            again = f"run `spite send {path}` (or `spite resend {save.match[:8]}`) when the server works"
            raise type(e)(f"{path.name} is written but not mailed: {e}; {again}") from e
    session.out.print(f"Mailed {path.name} to {address}: {plain(mail.subject(save))}", soft_wrap=True, markup=False)


def _refuse_an_old_file_of_a_finished_match(journal: Journal, identity: Identity, save: SaveFile, path: Path) -> None:
    """A file of a match that is over, and not this player's last of it, is never mailed: nobody needs it any more."""
    info = next((i for i in journal.matches() if i.match == save.match), None)
    last = journal.latest_own(save.match, identity.public_text)
    if info is None or not info.over or last is None or last.hash == save.hash:
        return
    raise SpiteError(
        f"{path.name} is an old file of match {save.match[:8]} (game {save.game}, turn {save.turn}), which is over: "
        f"nothing was sent; the match ended {info.score[0]}–{info.score[1]} at game {info.latest.game}, turn {info.latest.turn}"
    )


@command("send", epilog="Example: spite send spite-3342e18f-g1-t5.toml --to bob@example.com")
@_handled
def send(
    file: Annotated[Path, typer.Argument(metavar="FILE", show_default=False, help="Your save file to mail to your opponent.")],
    to: ToOption = None,
) -> None:
    """Mail your save FILE to your opponent: attached, with its turn code in the text for mail programs that hide files."""
    send_file(file, to)


@command("resend", epilog="Example: spite resend 3342e18f")
@_handled
def resend(
    match: Annotated[
        str, typer.Argument(metavar="MATCH", show_default=False, help="The match (its first 8 characters, as spite games shows).")
    ],
    to: ToOption = None,
) -> None:
    """Mail your last file of MATCH again (your opponent says it never came)."""
    from pbm import saves

    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        info = _find_match(journal, match)
        record = journal.latest_own(info.match, identity.public_text)
        if record is None:
            raise SpiteError(f"you have written no file in match {info.match[:8]} yet: nothing to resend")
        data = journal.written(record.hash)
        if data is None:
            try:
                data = read_head(Path(record.path), saves.MAX_BYTES + 1)
            except OSError as e:
                raise SpiteError(f"your last file of match {info.match[:8]} is gone from {record.path}: {e.strerror or e}") from e
        save = saves.parse(data)
        before = journal.last_mailed(info.match)
        address = mail_save(identity, journal, save, data, saves.default_name(save), to)
        latest = journal.latest(info.match)
    when = f" (last mailed {_ago(before[2])})" if before is not None and before[0] == record.hash else ""
    session.out.print(
        f"Mailed your last file (game {save.game}, turn {save.turn}) of match {info.match[:8]} to {address} again{when}.", soft_wrap=True
    )
    if latest is not None and latest.seq > record.seq:
        session.out.print(f"Note: {plain(info.players[1 - record.signer].name)} has answered it already ({latest.path}).", soft_wrap=True)


def _find_match(journal: Journal, prefix: str) -> Any:
    """The match whose id starts with `prefix` (4 characters at least)."""
    prefix = prefix.strip().lower()
    found = [i for i in journal.matches() if i.match.startswith(prefix)] if len(prefix) >= 4 else []
    if len(found) != 1:
        what = "no match" if not found else f"{len(found)} matches"
        raise SpiteError(f"{what} of yours starts with {prefix!r}: give the first 8 characters that spite games shows")
    return found[0]


@command("inbox", epilog="Example: spite inbox --play")
@_handled
def inbox(
    maildir: Annotated[
        Path | None, typer.Option("--maildir", metavar="DIR", help="Read this local Maildir instead of your mail settings' inbox.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Look at every message, not only the unseen ones.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print what came in and every match as JSON, for scripts.")] = False,
    play: Annotated[bool, typer.Option("--play", help="Then open the next file that waits for you, as spite play does.")] = False,
    send: Annotated[bool, typer.Option("--send", help="With --play: mail your answer at once.")] = False,
) -> None:
    """Fetch new mail: keep every save and turn code in its match's folder, mark that mail seen, and show what to do next."""
    if play and as_json:
        raise UsageError("--json prints for scripts and --play plays at the keyboard: give one of them")
    if send and not play:
        raise UsageError("--send mails the answer that --play writes: add --play")
    from pbm import inbox as kept
    from pbm import mailconf
    from pbm.transport import mail

    home = spite_home()
    identity = _identity(home)
    where = ""  # the IMAP mailbox, whose last look the journal keeps
    outcomes: list[kept.Intake] = []
    with Journal.open(home) as journal:
        if maildir is not None:
            box = mail.maildir_box(maildir, every)
        else:
            settings = mailconf.load(home)
            if settings.uses_imap:
                password, _ = password_for(settings)
                where = f"{settings.user}@{settings.imap_host}:{settings.imap_port}"
                last = journal.looked(where)
                box = mail.imap_box(settings, password, every, mail.Mark(*last) if last else None)
            else:
                box = mail.maildir_box(Path(settings.maildir), every)
        with box as messages:
            for message in messages.messages():
                found = mail.found_in(message.data)
                taken = [dataclasses.replace(kept.take(f, identity, journal), mail=_mail_named(message.data)) for f in found]
                outcomes += taken
                if any(t.what is not kept.Taken.REFUSED for t in taken):
                    messages.mark_seen(message)
            if where and messages.looked is not None:
                journal.keep_looked(where, messages.looked.validity, messages.looked.uid)
        rows = kept.standings(identity, journal)
    if as_json:
        session.out.print_json(data={"taken": [_outcome_json(o) for o in outcomes], "matches": [_standing_json(r) for r in rows]})
        return
    _report(outcomes)
    print_standings(rows, playing=play)
    if play:
        mine = next((r for r in rows if r.next is kept.Next.YOU and not is_practice(r)), None)  # practice goes on in spite practice
        if mine is None:
            session.out.print("Nothing waits for you.")
            return
        session.out.print(f"Opening {mine.file}", soft_wrap=True, markup=False)
        from pbm.cli.play import play_file  # play imports this module, to mail an answer

        play_file(Path(mine.file), send=send)


def _report(outcomes: list[Any]) -> None:
    from pbm.inbox import Taken

    new = [o for o in outcomes if o.what is Taken.KEPT]
    if not outcomes:
        session.out.print("No new spite mail.")
    else:
        again = sum(o.what is Taken.DUPLICATE for o in outcomes)
        note = f" ({again} already had)" if again else ""
        session.out.print(f"{len(new)} new file{'s' if len(new) != 1 else ''} from the mail{note}.")
    for o in outcomes:
        if o.what is Taken.REFUSED:
            where = f"a turn of match {o.match[:8]} (save {o.seq}) in {o.mail}"
            session.err.print(f"Passed over {where}: {plain(o.why)}", soft_wrap=True, markup=False)


def _outcome_json(o: Any) -> dict[str, Any]:
    return {"match": o.match, "seq": o.seq, "what": o.what.value, "file": str(o.path) if o.path else None, "why": o.why or None}
