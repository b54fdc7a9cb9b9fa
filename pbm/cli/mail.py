"""Mail: spite mail setup, send, resend and inbox."""

import contextlib
import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pbm.cli.app import ToOption, UsageError, _Command, _Group, _handled, _identity, app, ask, command, print_json, session
from pbm.cli.shared import _ago, _mail_named, _standing_json, is_practice, print_standings
from pbm.errors import MailError, SaveFormatError, SpiteError
from pbm.home import read_head, spite_home
from pbm.i18n import _, error_text, ngettext, os_reason, say
from pbm.identity import Identity
from pbm.journal import Journal
from pbm.providers import BY_NAME as _PROVIDERS
from pbm.saves import SaveFile
from pbm.shown import plain

if TYPE_CHECKING:
    from pbm.mailconf import MailSettings


def _example(command_line: str) -> str:
    """A command's epilog: one example of it (the command line itself is never translated)."""
    # TRANSLATORS: the last line of a command's help; {command} is a command line, never translated
    return _("Example: {command}").format(command=command_line)


mail_app = typer.Typer(cls=_Group, help=_("Your mail settings, for spite send and spite inbox."), no_args_is_help=True)
app.add_typer(mail_app, name="mail")

_SECURITY_HELP = _("tls, starttls, or plain (a local server only).")


@mail_app.command(
    "setup",
    cls=_Command,
    help=_("Set up mail: servers, ports, security, user name and From address; tries them, then keeps them in your spite home."),
    epilog=_example("spite mail setup --address alice@fastmail.com"),
)
@_handled
def setup(
    provider: Annotated[
        str | None,
        typer.Option(
            "--provider",
            metavar="NAME",
            # TRANSLATORS: {known} lists the names --provider takes (gmail, fastmail, icloud, ...), never translated
            help=_("Fill in the servers of a provider for an address at your own domain hosted there: {known}.").format(
                known=", ".join(_PROVIDERS)
            ),
        ),
    ] = None,
    address: Annotated[
        str | None, typer.Option("--address", metavar="ADDRESS", help=_("Your email address (the From of your mail)."))
    ] = None,
    user: Annotated[
        str | None, typer.Option("--user", metavar="NAME", help=_("Your login name at the servers (default: the address)."))
    ] = None,
    smtp_host: Annotated[str | None, typer.Option("--smtp-host", metavar="HOST", help=_("The SMTP server that sends your mail."))] = None,
    smtp_port: Annotated[
        int | None, typer.Option("--smtp-port", metavar="PORT", help=_("Its port (default by security: 465, 587, 25)."))
    ] = None,
    smtp_security: Annotated[str | None, typer.Option("--smtp-security", metavar="KIND", help=_SECURITY_HELP)] = None,
    imap_host: Annotated[str | None, typer.Option("--imap-host", metavar="HOST", help=_("The IMAP server of your inbox."))] = None,
    imap_port: Annotated[
        int | None, typer.Option("--imap-port", metavar="PORT", help=_("Its port (default by security: 993, 143)."))
    ] = None,
    imap_security: Annotated[str | None, typer.Option("--imap-security", metavar="KIND", help=_SECURITY_HELP)] = None,
    maildir: Annotated[
        Path | None, typer.Option("--maildir", metavar="DIR", help=_("Read a local Maildir instead of an IMAP server."))
    ] = None,
    timeout: Annotated[float | None, typer.Option("--timeout", metavar="SECONDS", help=_("How long to wait for a server (30)."))] = None,
    no_check: Annotated[bool, typer.Option("--no-check", help=_("Keep the settings without trying the servers."))] = False,
    keep_password: Annotated[
        bool | None,
        typer.Option(
            "--keep-password/--no-keep-password",
            help=_(
                "Where there is no system keyring: keep the mail password in your spite home, unencrypted, readable by you "
                "only (asked at a terminal)."
            ),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Set up mail: servers, ports, security, user name and From address."""
    from pbm.cli.mailsetup import run

    run(locals())


def _checks(settings: "MailSettings", password: str) -> list[tuple[str, str, Callable[[], None]]]:
    """Each server's check (or the Maildir's): what it is, the line that says it passed, and the check (MailError if not)."""
    from pbm.transport import mail

    def maildir() -> None:
        with mail.maildir_box(Path(settings.maildir)):
            pass

    smtp = f"SMTP {settings.smtp_host}:{settings.smtp_port} ({settings.smtp_security})"
    # TRANSLATORS: {server} is "SMTP", the server's host and port and its security, as in: SMTP smtp.example.com:465 (tls)
    logged_in = _("{server}: logged in as {user}.").format(server=smtp, user=settings.user)
    checks = [(smtp, logged_in, lambda: mail.check_smtp(settings, password))]
    if settings.uses_imap:
        imap = f"IMAP {settings.imap_host}:{settings.imap_port} ({settings.imap_security})"
        # TRANSLATORS: {server} is "IMAP", the server's host and port and its security, as in: IMAP imap.example.com:993 (tls)
        checks.append((imap, _("{server}: logged in, INBOX opened.").format(server=imap), lambda: mail.check_imap(settings, password)))
    else:
        where = f"Maildir {settings.maildir}"
        # TRANSLATORS: a local Maildir (a folder of mail; Maildir is its format's name) was found at the path {folder}
        checks.append((where, _("Maildir {folder}: found.").format(folder=settings.maildir), maildir))
    return checks


def try_servers(settings: "MailSettings", password: str) -> None:
    """Log in to both servers (or find the Maildir) and say so; MailError naming what failed."""
    for _what, passed, check in _checks(settings, password):
        check()
        session.out.print(passed, soft_wrap=True)


@mail_app.command(
    "test",
    cls=_Command,
    help=_("Try both servers with the settings kept (log in, open the INBOX): one line each; exit status 1 if one fails."),
    epilog=_example("spite mail test"),
)
@_handled
def mail_test() -> None:
    """Try both servers with the settings kept."""
    from pbm import mailconf
    from pbm.cli import mailpass
    from pbm.transport.mail import PasswordRefusedError

    home = spite_home()
    settings = mailconf.load(home)
    for password, again in mailpass.attempts(settings, home):
        results: list[tuple[str, str, MailError | None]] = []
        for what, passed, check in _checks(settings, password.text):
            try:
                check()
            except MailError as e:
                results.append((what, passed, e))
            else:
                results.append((what, passed, None))
        refusal = next((e for _w, _p, e in results if isinstance(e, PasswordRefusedError)), None)
        if refusal is None or not again:
            break
        mailpass.once_more(refusal)  # a password typed and refused: asked again, and both servers tried again
    for what, passed, error in results:
        if error is None:
            session.out.print(passed, soft_wrap=True)
            continue
        if isinstance(error, PasswordRefusedError):
            error = mailpass.refused(error, password, home)
        # TRANSLATORS: {server} names a server (SMTP or IMAP, its host, port and security) or a Maildir; {error} what failed
        failure = _("{server}: failed: {error}").format(server=what, error=plain(error_text(error)))
        session.out.print(failure, soft_wrap=True, markup=False)
    if any(error is not None for *_x, error in results):
        raise typer.Exit(1)


@mail_app.command(
    "show",
    cls=_Command,
    help=_("Print the mail settings kept (never a password) and where the password comes from."),
    epilog=_example("spite mail show"),
)
@_handled
def mail_show() -> None:
    """Print the mail settings kept and where the password comes from."""
    from dataclasses import asdict

    from pbm import mailconf

    home = spite_home()
    settings = mailconf.load(home)
    session.out.print(_("Mail settings in {file}:").format(file=mailconf.settings_path(home)), soft_wrap=True, markup=False)
    for name, value in asdict(settings).items():
        if name.startswith("imap_" if not settings.uses_imap else "maildir"):
            continue  # the inbox is read from one of the two
        session.out.print(f"  {name} = {plain(str(value))}", soft_wrap=True, markup=False)  # the file's own keys and values
    session.out.print(mailconf.password_source(settings, home), soft_wrap=True)


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
            raise SpiteError(
                _("spite has no email address for {name} in match {match}: give it once with --to ADDRESS").format(
                    name=them, match=save.match[:8]
                )
            )
        # TRANSLATORS: a prompt; {name} is the opponent's name
        address = valid_address(ask(_("{name}'s email address (kept for this match)").format(name=them)))
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
            _("this file is {name}'s turn, not yours: spite send mails your own files (answer theirs with spite play FILE --send)").format(
                name=who
            )
        )
    from pbm.cli.mailpass import with_password

    settings = mailconf.load(journal.home)
    address = _address(journal, save, to, me)
    message = mail.compose(save, data, name, settings.address, address)
    with_password(settings, journal.home, lambda password: mail.send(settings, password.text, message))
    journal.mailed(save, save.match, address)
    return address


def send_file(path: Path, to: str | None = None) -> None:
    """Mail the save at `path` and say so (used by send and by play --send)."""
    from pbm.transport import code, mail

    try:
        data = read_head(path, code.MAX_INPUT + 1)
    except OSError as e:
        # TRANSLATORS: {reason} is the system's own words for what went wrong
        raise SaveFormatError(_("cannot read {file}: {reason}").format(file=path, reason=os_reason(e))) from e
    save = code.read(data)  # a save as written, or pasted, quoted or re-wrapped whole
    if not isinstance(save, SaveFile):
        raise SpiteError(_("{file} holds a turn code, not a save: spite send mails the save file it was made from").format(file=path))
    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        _refuse_an_old_file_of_a_finished_match(journal, identity, save, path)
        try:
            address = mail_save(identity, journal, save, data, path.name, to)
        except MailError as e:
            unsent = _(
                # TRANSLATORS: {error} says which server failed and how; {file} is a file's name, {path} its path, {match} a match id
                "{file} is written but not mailed: {error}; run `spite send {path}` (or `spite resend {match}`) when the server works"
            )
            raise type(e)(unsent.format(file=path.name, error=error_text(e), path=path, match=save.match[:8])) from e
    # TRANSLATORS: {subject} is the subject of the mail sent
    mailed = _("Mailed {file} to {address}: {subject}").format(file=path.name, address=address, subject=plain(mail.subject(save)))
    session.out.print(mailed, soft_wrap=True, markup=False)


def _refuse_an_old_file_of_a_finished_match(journal: Journal, identity: Identity, save: SaveFile, path: Path) -> None:
    """A file of a match that is over, and not this player's last of it, is never mailed: nobody needs it any more."""
    info = next((i for i in journal.matches() if i.match == save.match), None)
    last = journal.latest_own(save.match, identity.public_text)
    if info is None or not info.over or last is None or last.hash == save.hash:
        return
    raise SpiteError(
        _(
            # TRANSLATORS: {score} is the final score, as 50–32
            "{file} is an old file of match {match} (game {game}, turn {turn}), which is over: nothing was sent; "
            "the match ended {score} at game {last_game}, turn {last_turn}"
        ).format(
            file=path.name,
            match=save.match[:8],
            game=save.game,
            turn=save.turn,
            score=f"{info.score[0]}–{info.score[1]}",
            last_game=info.latest.game,
            last_turn=info.latest.turn,
        )
    )


@command(
    "send",
    help=_("Mail your save FILE to your opponent: attached, with its turn code in the text for mail programs that hide files."),
    epilog=_example("spite send spite-3342e18f-g1-t5.toml --to bob@example.com"),
)
@_handled
def send(
    file: Annotated[Path, typer.Argument(metavar="FILE", show_default=False, help=_("Your save file to mail to your opponent."))],
    to: ToOption = None,
) -> None:
    """Mail your save FILE to your opponent."""
    send_file(file, to)


@command(
    "resend",
    help=_("Mail your last file of MATCH again (your opponent says it never came)."),
    epilog=_example("spite resend 3342e18f"),
)
@_handled
def resend(
    match: Annotated[
        str, typer.Argument(metavar="MATCH", show_default=False, help=_("The match (its first 8 characters, as spite games shows)."))
    ],
    to: ToOption = None,
) -> None:
    """Mail your last file of MATCH again."""
    from pbm import saves

    home = spite_home()
    identity = _identity(home)
    with Journal.open(home) as journal:
        info = _find_match(journal, match)
        record = journal.latest_own(info.match, identity.public_text)
        if record is None:
            raise SpiteError(_("you have written no file in match {match} yet: nothing to resend").format(match=info.match[:8]))
        data = journal.written(record.hash)
        if data is None:
            try:
                data = read_head(Path(record.path), saves.MAX_BYTES + 1)
            except OSError as e:
                # TRANSLATORS: {reason} is the system's own words for what went wrong
                gone = _("your last file of match {match} is gone from {file}: {reason}")
                raise SpiteError(gone.format(match=info.match[:8], file=record.path, reason=os_reason(e))) from e
        save = saves.parse(data)
        before = journal.last_mailed(info.match)
        address = mail_save(identity, journal, save, data, saves.default_name(save), to)
        latest = journal.latest(info.match)
    facts = {"game": save.game, "turn": save.turn, "match": info.match[:8], "address": address}
    if before is not None and before[0] == record.hash:
        # TRANSLATORS: {ago} says how long ago, as "3 h ago" or "just now"
        again = _("Mailed your last file (game {game}, turn {turn}) of match {match} to {address} again (last mailed {ago}).")
        facts["ago"] = _ago(before[2])
    else:
        again = _("Mailed your last file (game {game}, turn {turn}) of match {match} to {address} again.")
    session.out.print(again.format(**facts), soft_wrap=True, markup=False)
    if latest is not None and latest.seq > record.seq:
        answered = _("Note: {name} has answered it already ({file}).")
        session.out.print(answered.format(name=plain(info.players[1 - record.signer].name), file=latest.path), soft_wrap=True, markup=False)


def _find_match(journal: Journal, prefix: str) -> Any:
    """The match whose id starts with `prefix` (4 characters at least)."""
    prefix = prefix.strip().lower()
    found = [i for i in journal.matches() if i.match.startswith(prefix)] if len(prefix) >= 4 else []
    if not found:
        raise SpiteError(
            # TRANSLATORS: {prefix} is what the player gave for a match, in quotes
            _("no match of yours starts with {prefix}: give the first 8 characters that spite games shows").format(prefix=repr(prefix))
        )
    if len(found) > 1:
        raise SpiteError(
            ngettext(
                "{n} match of yours starts with {prefix}: give the first 8 characters that spite games shows",
                "{n} matches of yours start with {prefix}: give the first 8 characters that spite games shows",
                len(found),
            ).format(n=len(found), prefix=repr(prefix))
        )
    return found[0]


@command(
    "inbox",
    help=_("Fetch new mail: keep every save and turn code in its match's folder, mark that mail seen, and show what to do next."),
    epilog=_example("spite inbox --play"),
)
@_handled
def inbox(
    maildir: Annotated[
        Path | None, typer.Option("--maildir", metavar="DIR", help=_("Read this local Maildir instead of your mail settings' inbox."))
    ] = None,
    every: Annotated[bool, typer.Option("--all", help=_("Look at every message, not only the unseen ones."))] = False,
    as_json: Annotated[bool, typer.Option("--json", help=_("Print what came in and every match as JSON, for scripts."))] = False,
    play: Annotated[bool, typer.Option("--play", help=_("Then open the next file that waits for you, as spite play does."))] = False,
    send: Annotated[bool, typer.Option("--send", help=_("With --play: mail your answer at once."))] = False,
) -> None:
    """Fetch new mail and show what to do next."""
    if play and as_json:
        raise UsageError(_("--json prints for scripts and --play plays at the keyboard: give one of them"))
    if send and not play:
        raise UsageError(_("--send mails the answer that --play writes: add --play"))
    from pbm import inbox as kept
    from pbm import mailconf
    from pbm.transport import mail

    home = spite_home()
    identity = _identity(home)
    where = ""  # the IMAP mailbox, whose last look the journal keeps
    outcomes: list[kept.Intake] = []
    with Journal.open(home) as journal, contextlib.ExitStack() as opened:
        if maildir is not None:
            messages = opened.enter_context(mail.maildir_box(maildir, every))
        else:
            settings = mailconf.load(home)
            if settings.uses_imap:
                from pbm.cli.mailpass import with_password

                where = f"{settings.user}@{settings.imap_host}:{settings.imap_port}"
                last = journal.looked(where)
                mark = mail.Mark(*last) if last else None
                box = lambda password: opened.enter_context(mail.imap_box(settings, password.text, every, mark))  # noqa: E731
                messages = with_password(settings, home, box)  # logged in: a password typed and refused is asked again
            else:
                messages = opened.enter_context(mail.maildir_box(Path(settings.maildir), every))
        for message in messages.messages():
            found = mail.found_in(message.data)
            taken = [dataclasses.replace(kept.take(f, identity, journal), mail=_mail_named(message.data)) for f in found]
            outcomes += taken
            if any(t.what is not kept.Taken.REFUSED for t in taken):
                messages.mark_seen(message)
        if where and messages.looked is not None:
            journal.keep_looked(where, messages.looked.validity, messages.looked.uid)
        skipped = messages.skipped
        unread = _read_elsewhere(journal, messages.read_before)
        rows = kept.standings(identity, journal)
    for s in skipped:  # on stderr, with --json too: a file no mail program would have put there
        # TRANSLATORS: {file} is the name of a file in a Maildir (a folder of mail), as new/1700000000.M1P2.host; {why} says
        # why it was not read
        note = _("Passed over {file} in the Maildir: {why}").format(file=plain(s.key), why=say(s.why))
        session.err.print(note, soft_wrap=True, markup=False)
    if as_json:
        print_json({"taken": [_outcome_json(o) for o in outcomes], "read_elsewhere": unread, "matches": [_standing_json(r) for r in rows]})
        return
    _report(outcomes, unread)
    print_standings(rows, playing=play)
    if play:
        mine = next((r for r in rows if r.next is kept.Next.YOU and not is_practice(r)), None)  # practice goes on in spite practice
        if mine is None:
            session.out.print(_("Nothing waits for you."))
            return
        session.out.print(_("Opening {file}").format(file=mine.file), soft_wrap=True, markup=False)
        from pbm.cli.play import play_file  # play imports this module, to mail an answer

        play_file(Path(mine.file), send=send)


def _read_elsewhere(journal: Journal, read: Sequence[Any]) -> int:
    """How many spite mails read before spite looked (pbm.transport.imapread.ReadMail) carry a turn the journal does not
    have: what `spite inbox --all` would look at."""
    waiting: set[str] | None = None

    def known(mail: Any) -> bool:
        nonlocal waiting
        if mail.seq is None:  # its Message-ID was changed on the way: known if its match is
            if waiting is None:
                waiting = {r.match for r in journal.waiting()}
            return journal.knows(mail.match) or mail.match in waiting
        latest = journal.latest(mail.match)
        return journal.taken(mail.match, mail.seq) is not None or (latest is not None and latest.seq >= mail.seq)

    return sum(1 for mail in read if not known(mail))


def _report(outcomes: list[Any], unread: int = 0) -> None:
    from pbm.inbox import Taken

    new = sum(o.what is Taken.KEPT for o in outcomes)
    if not outcomes:
        session.out.print(_("No new spite mail."))
    else:
        again = sum(o.what is Taken.DUPLICATE for o in outcomes)
        if again:
            # TRANSLATORS: {again} of the files found were kept before ({again} is at least 1)
            line = ngettext("{n} new file from the mail ({again} already had).", "{n} new files from the mail ({again} already had).", new)
        else:
            line = ngettext("{n} new file from the mail.", "{n} new files from the mail.", new)
        session.out.print(line.format(n=new, again=again), markup=False)
    if unread:
        read = ngettext(
            "{n} spite mail in your inbox was already read (on another device?), so spite passed it over: spite inbox --all looks at it.",
            "{n} spite mails in your inbox were already read (on another device?), so spite passed them over: "
            "spite inbox --all looks at them.",
            unread,
        )
        session.out.print(read.format(n=unread), soft_wrap=True, markup=False)
    for o in outcomes:
        if o.what is Taken.REFUSED:
            # TRANSLATORS: {mail} names the mail, as: the mail from alice@example.com, 'Subject'; {why} says why it was passed over
            passed = _("Passed over a turn of match {match} (save {seq}) in {mail}: {why}")
            session.err.print(passed.format(match=o.match[:8], seq=o.seq, mail=o.mail, why=plain(say(o.why))), soft_wrap=True, markup=False)


def _outcome_json(o: Any) -> dict[str, Any]:
    """What came of one turn found, for --json: its why in English (a refusal of spite's own; another's error as it said it)."""
    why = str(o.why)
    return {"match": o.match, "seq": o.seq, "what": o.what.value, "file": str(o.path) if o.path else None, "why": why or None}
