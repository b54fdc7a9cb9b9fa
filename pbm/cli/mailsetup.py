"""What `spite mail setup` does: the answers (given, kept from before, a provider's, or asked), the servers tried, the
password kept. The command itself, with its options, is in pbm/cli/mail.py.

A provider spite knows (pbm/providers.py) fills in the servers, ports and security from the address's domain, or from
--provider for a domain of one's own hosted there: then only the address is asked.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbm.cli.app import UsageError, ask, session
from pbm.errors import MailError, SpiteError
from pbm.home import spite_home
from pbm.i18n import _, error_text

if TYPE_CHECKING:
    from pbm.mailconf import MailSettings, Password
    from pbm.providers import Provider


def setting(label: str, given: str | None, default: str | None, flag: str) -> str:
    """A setting: as given, else asked at a terminal (offering `default`), else `default`; a usage error when there is none."""
    if given is not None:
        return given
    if sys.stdin.isatty():
        return ask(label, default=default or None)
    if not default:
        raise UsageError(_("give {option} (there is no terminal to ask at)").format(option=flag))
    return default


def port_setting(label: str, given: int | None, default: int) -> int:
    """A port: as given, else asked at a terminal (offering `default`) until the answer is a port number, else `default`."""
    if given is not None:
        return given
    if not sys.stdin.isatty():
        return default
    while True:
        answer = ask(label, default=str(default)).strip()
        port = int(answer) if answer.isdecimal() and len(answer) <= 5 else 0
        if 1 <= port <= 65535:
            return port
        # TRANSLATORS: {answer} is what the player typed for a port, in quotes
        session.err.print(_("{answer} is not a port number: give a number from 1 to 65535.").format(answer=repr(answer)), markup=False)


def known_names() -> str:
    """The names --provider takes, comma-separated (never translated)."""
    from pbm.providers import PROVIDERS

    return ", ".join(p.name for p in PROVIDERS)


def named_provider(name: str) -> Provider:
    """The provider `name` names (--provider, or the answer at the terminal); a usage error naming the ones spite knows."""
    from pbm.providers import BY_NAME

    found = BY_NAME.get(name.strip().lower())
    if found is None:
        # TRANSLATORS: {provider} is the name given, in quotes; {known} lists the names spite knows: gmail, fastmail, icloud, ...
        message = _("{provider} is not one spite knows: {known}").format(provider=repr(name), known=known_names())
        raise typer.BadParameter(message, param_hint="--provider")
    return found


def _ask_provider() -> Provider | None:
    """At a terminal, for an address at a domain spite does not know: which known provider hosts it, if one does."""
    while True:
        question = _(
            # TRANSLATORS: a prompt; {known} lists the providers' names as --provider takes them (gmail, fastmail, ...), never translated
            "Your mail provider, if one of {known} (Enter: another, whose servers you give)"
        )
        answer = ask(question.format(known=known_names()), default="")
        if not answer.strip():
            return None
        try:
            return named_provider(answer)
        except typer.BadParameter as e:
            session.err.print(e.message, soft_wrap=True, markup=False)


def _old_settings(home: Path) -> MailSettings | None:
    """The answers of a setup whose servers failed, else the settings kept, else None (saying which is offered)."""
    from pbm import mailconf

    for is_draft in (True, False):
        try:
            old = mailconf.load(home, is_draft)
        except SpiteError:
            continue
        if is_draft:
            offering = _("Offering the answers of the last setup, whose servers failed ({file}).")
            session.out.print(offering.format(file=mailconf.DRAFT_FILE), markup=False)
        return old
    return None


def _say_known_providers() -> None:
    """Before the address is asked: the providers whose servers spite fills in from it."""
    from pbm.providers import PROVIDERS

    titles = ", ".join(dict.fromkeys(p.title for p in PROVIDERS))
    # TRANSLATORS: {providers} lists mail providers' names: Gmail, Fastmail, iCloud Mail, ...
    session.out.print(_("spite fills in the servers of {providers} from your address.").format(providers=titles), soft_wrap=True)


def _say_filled_in(provider: Provider) -> None:
    """Whose servers were filled in, and what to do at that provider first."""
    smtp = f"SMTP {provider.smtp_host}:{provider.smtp_port} ({provider.smtp_security})"
    imap = f"IMAP {provider.imap_host}:{provider.imap_port} ({provider.imap_security})"
    # TRANSLATORS: {provider} is a mail provider's name; {smtp} and {imap} its servers, as: SMTP smtp.gmail.com:465 (tls)
    filled = _("The servers of {provider}: {smtp}, {imap}.").format(provider=provider.title, smtp=smtp, imap=imap)
    session.out.print(filled, soft_wrap=True, markup=False)
    session.out.print(_(provider.first).format(provider=provider.title), soft_wrap=True, markup=False)


def _say_no_passwords() -> None:
    """For an address at Outlook.com and its kin: no password logs in there, so spite cannot either."""
    from pbm.providers import OUTLOOK

    no_password = _(
        # TRANSLATORS: {provider} is Outlook.com; {known} lists the providers spite knows (gmail, fastmail, ...)
        "{provider} lets programs other than Microsoft's log in by OAuth only, never with a password (since September "
        "2024), so spite cannot log in there: use an address at another provider ({known}), or give the servers of a "
        "program on this machine that logs in for spite."
    )
    session.err.print(no_password.format(provider=OUTLOOK, known=known_names()), soft_wrap=True, markup=False)


def run(options: dict[str, Any]) -> None:
    """Set up mail with the options of `spite mail setup` (by their parameter names): ask, check, keep."""
    from pbm import mailconf, providers

    home = spite_home()
    old = _old_settings(home)
    given = dict(options)
    explicit = named_provider(given["provider"]) if given["provider"] is not None else None
    if explicit is None and given["address"] is None and sys.stdin.isatty():
        _say_known_providers()
    address = setting(_("Your email address"), given["address"], getattr(old, "address", None), "--address")
    bare = mailconf.bare_address(address)
    same_domain = old is not None and providers.domain_of(mailconf.bare_address(old.address)) == providers.domain_of(bare)
    preset = explicit or providers.for_address(bare)
    hosts_given = any(given[k] is not None for k in ("smtp_host", "imap_host", "maildir"))
    if preset is None and providers.takes_no_password(bare):
        _say_no_passwords()
    elif preset is None and not hosts_given and not same_domain and sys.stdin.isatty():
        preset = _ask_provider()
        explicit = preset
    # a provider's servers fill what no option gives, unless the settings kept for this domain are others (set by hand)
    fill = preset if preset is not None and (explicit is not None or not same_domain or _matches(old, preset)) else None
    if fill is not None:
        _say_filled_in(fill)
    maildir = str(given["maildir"].expanduser().resolve()) if given["maildir"] is not None else ""
    if not maildir and given["imap_host"] is None and old is not None and explicit is None and (same_domain or preset is None):
        maildir = old.maildir  # a Maildir kept is kept, unless the provider changed
    settings = _answers(given, old if same_domain or fill is None else None, fill, address, bare, maildir)
    _check_and_keep(home, settings, given)


def _matches(old: MailSettings | None, provider: Provider) -> bool:
    """Whether the settings kept are the provider's servers (so that filling them in changes nothing of the player's)."""
    fields = ("smtp_host", "smtp_port", "smtp_security", "imap_host", "imap_port", "imap_security")
    return old is not None and all(getattr(old, f) == getattr(provider, f) for f in fields)


def _answers(given: dict[str, Any], old: MailSettings | None, fill: Provider | None, address: str, bare: str, maildir: str) -> MailSettings:
    """The settings: each as given, else the provider's (not asked), else asked at a terminal offering the one kept (`old`:
    those of the same domain, or of any when no provider fills them in); the inbox is the `maildir` when there is one."""
    from pbm import mailconf, providers

    def default(name: str) -> Any:
        """The provider's value, else the one kept before, else None."""
        if fill is not None and hasattr(fill, name):
            return getattr(fill, name)
        return getattr(old, name, None)

    def filled(name: str) -> Any:
        """The option given, else the provider's value, which is then not asked."""
        return given[name] if given[name] is not None or fill is None else getattr(fill, name)

    def filled_port(kind: str, security: str) -> int | None:
        """The port given, else (with a provider) the provider's or the security's usual one, which is then not asked."""
        given_port: int | None = given[f"{kind}_port"]
        return given_port if given_port is not None or fill is None else port(kind, security)

    def port(kind: str, security: str) -> int:
        """The port kept or the provider's for that security; another security gets its usual port."""
        same = security.strip().lower() == default(f"{kind}_security")
        return (default(f"{kind}_port") if same else None) or mailconf.DEFAULT_PORTS[kind].get(security.strip().lower(), 465)

    user_given = given["user"]
    if user_given is None and fill is not None:  # a provider's login is the address (or the one kept for it), not asked
        user_given = getattr(old, "user", None) or bare
    same_login = old is not None and providers.domain_of(mailconf.bare_address(old.address)) == providers.domain_of(bare)
    user = setting(_("Your user name at the mail servers"), user_given, (old.user if old and same_login else None) or bare, "--user")
    smtp_host = setting(_("SMTP server (sends your mail)"), filled("smtp_host"), default("smtp_host"), "--smtp-host")
    smtp_security = setting(
        _("SMTP security (tls, starttls, plain)"), filled("smtp_security"), default("smtp_security") or "tls", "--smtp-security"
    )
    smtp_port = port_setting(_("SMTP port"), filled_port("smtp", smtp_security), port("smtp", smtp_security))
    imap_host, imap_port, imap_security = given["imap_host"], given["imap_port"], given["imap_security"]
    if not maildir:
        imap_host = setting(_("IMAP server (your inbox)"), filled("imap_host"), default("imap_host"), "--imap-host")
        imap_security = setting(
            _("IMAP security (tls, starttls, plain)"), filled("imap_security"), default("imap_security") or "tls", "--imap-security"
        )
        imap_port = port_setting(_("IMAP port"), filled_port("imap", imap_security), port("imap", imap_security))
    timeout = given["timeout"]
    return mailconf.MailSettings(
        address=address.strip(),
        user=user.strip(),
        smtp_host=smtp_host.strip(),
        smtp_port=smtp_port,
        smtp_security=smtp_security.strip().lower(),
        imap_host=(imap_host or "").strip(),
        imap_port=imap_port or 993,
        imap_security=(imap_security or "tls").strip().lower(),
        maildir=maildir,
        timeout=timeout if timeout is not None else (old.timeout if old is not None else 30.0),
    )


def _tried(settings: MailSettings, password: Password) -> Password:
    """`password`, once both servers (or the Maildir) took it; MailError naming what failed."""
    from pbm.cli.mail import try_servers

    try_servers(settings, password.text)
    return password


def _check_and_keep(home: Path, settings: MailSettings, given: dict[str, Any]) -> None:
    """Try the servers (a password typed and refused is asked again), keep the settings, then the password as chosen."""
    from pbm import mailconf
    from pbm.cli import mailpass

    password = None
    if not given["no_check"]:
        try:
            password = mailpass.with_password(settings, home, lambda pw: _tried(settings, pw), ask_first=True, fix=False)
        except MailError as e:
            draft = mailconf.save(home, settings, draft=True)
            # TRANSLATORS: {error} says which server failed and how; {file} is a file's path
            kept_in = _("{error} (your answers are kept in {file}: spite mail setup offers them again)")
            raise type(e)(kept_in.format(error=error_text(e), file=draft)) from e
    elif given["keep_password"]:
        password = mailpass.password_for(settings, home, ask_first=True)
    path = mailconf.save(home, settings)
    session.out.print(_("Mail settings kept in {file} (readable by you only; no password in it).").format(file=path), soft_wrap=True)
    if password is None:
        session.out.print(mailconf.password_source(settings, home), soft_wrap=True)
    else:
        session.out.print(mailpass.keep(settings, home, password, given["keep_password"]), soft_wrap=True)
