"""The mail password at the terminal: asked when nothing keeps it, asked again when a server refuses it (three tries in
all), and kept at setup in the system keyring, or in a file of the spite home where there is none and the player says so.

Only the CLI asks; where the password comes from otherwise is pbm/mailconf.py (and the file, pbm/credentials.py).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from pbm.cli.app import ask, confirm, session
from pbm.errors import MailAuthError
from pbm.i18n import _, error_text
from pbm.mailconf import PASSWORD_ENV, MailSettings, Password, Source, stored_password
from pbm.transport.mail import PasswordRefusedError

T = TypeVar("T")
TRIES = 3  # passwords typed for one server's refusal, in all: a typo, and one more chance, as a login prompt gives
_asked: dict[str, str] = {}  # the passwords typed in this command, by keyring entry: asked once per command


def at_terminal() -> bool:
    """Whether a person can be asked for the password (standard input is a terminal)."""
    return sys.stdin.isatty()


def _type(settings: MailSettings) -> str:
    """Ask for the password at the terminal, hidden."""
    # TRANSLATORS: a prompt; {user} is the login name at the mail servers
    return ask(_("Mail password for {user} (an app password for Gmail, Fastmail, iCloud)").format(user=settings.user), hide_input=True)


def password_for(settings: MailSettings, home: Path, ask_first: bool = False) -> Password:
    """The mail password: from SPITE_MAIL_PASSWORD, the keyring or the spite home's file, else typed at the terminal.

    A password typed is kept for the rest of the command. `ask_first` (setup, and a try after a refusal): at a terminal the
    password is asked even if one is kept, which may be an old one.
    """
    asking = ask_first and at_terminal() and not os.environ.get(PASSWORD_ENV)
    if not asking:
        typed = _asked.get(settings.keyring_user)
        if typed is not None:
            return Password(typed, Source.ASKED)
        kept = stored_password(settings, home)
        if kept is not None:
            return kept
    if not at_terminal():
        raise MailAuthError(_("no mail password: set {variable}, or run this at a terminal to be asked").format(variable=PASSWORD_ENV))
    password = _type(settings)
    _asked[settings.keyring_user] = password
    return Password(password, Source.ASKED)


def attempts(settings: MailSettings, home: Path, ask_first: bool = False) -> Iterator[tuple[Password, bool]]:
    """The passwords to try, each with whether a refusal of it is followed by another try: one typed at the terminal is
    (TRIES in all); one kept or set is not, as there is nothing new to try until the player gives it again."""
    for tries in range(1, TRIES + 1):
        password = password_for(settings, home, ask_first=ask_first or tries > 1)
        again = password.source is Source.ASKED and at_terminal() and tries < TRIES
        yield password, again
        if not again:
            return
        _asked.pop(settings.keyring_user, None)  # refused: the next try asks


def once_more(error: MailAuthError) -> None:
    """Say that the server refused the password just typed, before it is asked again."""
    # TRANSLATORS: {error} says which server refused the password, and what it said
    session.err.print(_("{error}. Once more:").format(error=error_text(error)), soft_wrap=True, markup=False)


def with_password(settings: MailSettings, home: Path, action: Callable[[Password], T], ask_first: bool = False, fix: bool = True) -> T:
    """`action` with the mail password; a password typed and refused is asked again at the terminal (TRIES in all).

    A refused password that was kept (the keyring, the spite home's file) or set (SPITE_MAIL_PASSWORD) is not asked
    again: with `fix`, the refusal says in its one line how to give the new one (setup, which gives it, says nothing).
    """
    for password, again in attempts(settings, home, ask_first):
        try:
            return action(password)
        except PasswordRefusedError as e:
            if not again:
                raise (refused(e, password, home) if fix else e) from e
            once_more(e)
    raise AssertionError("attempts() ends with a last try")  # pragma: no cover


def refused(error: MailAuthError, password: Password, home: Path) -> MailAuthError:
    """The refusal of `password` in one line: the server's words, and for a kept password how to give the new one."""
    from pbm import credentials

    if password.source is Source.FILE:
        # TRANSLATORS: {error} says which server refused the password, and what it said; {file} is a file's path
        fix = _("{error}; the password kept in {file} is refused: run 'spite mail setup' to give the new one")
        return MailAuthError(fix.format(error=error_text(error), file=credentials.password_path(home)))
    if password.source is Source.KEYRING:
        # TRANSLATORS: {error} says which server refused the password, and what it said
        fix = _("{error}; the password kept in the system keyring is refused: run 'spite mail setup' to give the new one")
        return MailAuthError(fix.format(error=error_text(error)))
    if password.source is Source.ENV:
        # TRANSLATORS: {error} says which server refused the password, and what it said; {variable} is SPITE_MAIL_PASSWORD
        fix = _("{error} (the password given in {variable})")
        return MailAuthError(fix.format(error=error_text(error), variable=PASSWORD_ENV))
    return MailAuthError(error_text(error))


def keep(settings: MailSettings, home: Path, password: Password, choice: bool | None) -> str:
    """After setup's servers took `password`: keep it where spite will find it, as the player chose; the sentence that
    says where the password comes from now.

    A password typed is kept in the system keyring when there is one. Where there is none, it is kept in the spite home's
    file when the player says so (`choice`: --keep-password, or None to ask at the terminal); a file kept for an older
    password goes, unless the player keeps this one there.
    """
    from pbm import credentials, mailconf

    if choice is False:
        credentials.remove(home)  # the player no longer wants it kept in a file
    if password.source is Source.ENV and choice is not True:
        return mailconf.password_source(settings, home)  # a script's: kept where the script keeps it
    if password.source is not Source.KEYRING and mailconf.remember_password(settings, password.text):
        credentials.remove(home)  # the keyring has it now: no copy of it, or of an older one, in a file
        return mailconf.password_source(settings, home, just_kept=True)
    if mailconf.has_keyring():
        return mailconf.password_source(settings, home)
    if choice is None and at_terminal():
        choice = confirm(_keep_question(credentials.password_path(home)), default=False)
    if choice:
        credentials.save(home, settings.keyring_user, password.text)
        return mailconf.file_source(home)
    if password.source is Source.ASKED:
        credentials.remove(home)  # typed anew and not kept: a file of an older password goes, and spite asks from now on
    return mailconf.password_source(settings, home)


def _keep_question(path: Path) -> str:
    """The question of setup where there is no system keyring: keep the password in a file, unencrypted?"""
    from pbm.mailconf import in_file_words

    question = _(
        # TRANSLATORS: {where} says where the file would be and who can read it, as: in /home/alice/.local/share/spite/mail-password.toml,
        # which only you can read
        "There is no system keyring here, so spite would ask for your mail password on every mail command. Keep it "
        "{where}, UNENCRYPTED, as git's credential store does?"
    )
    return question.format(where=in_file_words(path))
