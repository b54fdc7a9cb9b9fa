"""Who you are and starting a match: spite id, spite new."""

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from engine.rules import G4A
from pbm.cli.app import (
    ChatOption,
    NameOption,
    PayoffOption,
    TargetOption,
    ToOption,
    UsageError,
    _handled,
    _identity,
    _version,
    ask,
    command,
    print_json,
    session,
)
from pbm.cli.shared import _how_to_send, _say_settled, fingerprint_label, labelled, name_label
from pbm.client.answer import new_match, replace_rules, settle_invitations
from pbm.client.receive import DEFAULT_OPPONENT
from pbm.errors import SpiteError
from pbm.home import spite_home
from pbm.i18n import LANGUAGES, LOCALE_VARIABLES, Choice, _, current, language_of, pgettext, translator_codes
from pbm.identity import check_name, rename
from pbm.journal import Journal
from pbm.shown import cut, plain


@command(
    "id",
    help=_("Show your name, fingerprint, public key, spite home and language (your key is made on first use)."),
    # TRANSLATORS: the last line of a command's help: a command line to copy as it is
    epilog=_("Example: {command}").format(command="spite id --name Alice"),
)
@_handled
def id_command(
    name: NameOption = None,
    passphrase: Annotated[
        bool,
        typer.Option(
            "--passphrase",
            help=_(
                "Protect your key with a new passphrase (asked twice; empty removes it). "
                "Commands then ask for it, or read it from SPITE_PASSPHRASE."
            ),
        ),
    ] = False,
    new_key: Annotated[
        bool, typer.Option("--new-key", help=_("Make a new key in a spite home whose key is lost (its matches cannot go on)."))
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help=_("Print name, fingerprint, public key, home and language as JSON for scripts."))
    ] = False,
) -> None:
    """Show your name, fingerprint, public key, spite home and language."""
    home = spite_home()
    identity = _identity(home, name, new_key)
    if passphrase:
        new = ask(_("New passphrase (empty for none)"), default="", hide_input=True, twice=True)
        identity = rename(identity, identity.name, new or None)
        session.out.print(_("Your key is now protected by that passphrase.") if new else _("Your key has no passphrase now."))
    choice = current()
    if as_json:
        data = {"name": identity.name, "fingerprint": identity.fingerprint, "public_key": identity.public_text, "home": str(home)}
        print_json({**data, "language": language_json(choice)})
        return
    # TRANSLATORS: after the label "fingerprint:" of spite id; {fingerprint} is your key's (XXXX-XXXX-XXXX-XXXX)
    fingerprint = _("{fingerprint}   (read it to your opponent to check their copy of your key)")
    # TRANSLATORS: a label of spite id, before your public key (spite1:...); the values are lined up after the longest label
    public_key = pgettext("a label before a value", "public key:")
    # TRANSLATORS: a label of spite id, before the folder of your spite home; the values are lined up after the longest label
    spite_home_label = pgettext("a label before a value", "spite home:")
    # TRANSLATORS: after the label "spite home:" of spite id; {home} is its folder
    where = _("{home}   (your key and journal; set SPITE_HOME to use another)")
    rows = [
        (name_label(), plain(identity.name)),
        (fingerprint_label(), fingerprint.format(fingerprint=identity.fingerprint)),
        (public_key, identity.public_text),
        (spite_home_label, where.format(home=home)),
        *language_rows(choice),
    ]
    for n, line in enumerate(labelled(rows)):
        session.out.print(line, soft_wrap=n >= 3)  # the home and the language as one line each, however narrow the screen


def language_json(choice: Choice) -> dict[str, Any]:
    """The language of this run for `spite id --json`: its code, where it came from and what that said, and the language
    asked for when the terminal could not show it (English is spoken instead). Never translated."""
    fallback = {"code": choice.fallback, "encoding": choice.encoding} if choice.fallback else None
    return {"code": choice.code, "source": choice.source, "value": choice.value or None, "fallback": fallback}


def language_rows(choice: Choice) -> list[tuple[str, str]]:
    """The lines of `spite id` on the language: which one is spoken and how it was chosen; when the terminal could not show
    the one asked for, why English is spoken and which was asked for."""
    # TRANSLATORS: a label of spite id, before the language spite speaks; the values are lined up after the longest label
    label = pgettext("a label before a value", "language:")
    if not choice.fallback:
        return [(label, _chosen(choice, choice.code))]
    # TRANSLATORS: in spite id, after "language:"; {language} is English in its own words and {code} its code (en);
    # {encoding} is the terminal's encoding (cp1252), {asked} the language asked for (Tiếng Việt), {asked_code} its code
    said = _("{language} ({code}), because this terminal writes {encoding}, which cannot show {asked} ({asked_code})")
    asked = LANGUAGES.get(choice.fallback, choice.fallback)
    values = {"language": choice.name, "code": choice.code, "encoding": choice.encoding, "asked": asked, "asked_code": choice.fallback}
    return [
        (label, said.format(**values)),
        # TRANSLATORS: a label of spite id, before the language asked for when the terminal cannot show it (English is
        # spoken instead); the values are lined up after the longest label
        (pgettext("a label before a value", "asked for:"), _chosen(choice, choice.fallback)),
    ]


def _chosen(choice: Choice, code: str) -> str:
    """Language `code` (the one spoken, or the one asked for) and where the choice came from, in words."""
    values = {"language": LANGUAGES.get(code, code), "code": code, "value": choice.value, "variable": choice.source}
    if choice.source == "--lang":
        # TRANSLATORS: in spite id, after "language:"; {language} is the language in its own words, {code} its code (vi),
        # {value} what --lang said
        return _("{language} ({code}), from --lang {value}").format(**values)
    if choice.source == "system":
        if language_of(choice.value, translator_codes(os.environ)) is None:
            # TRANSLATORS: in spite id, after "language:"; {language} is English in its own words, {code} its code (en),
            # {value} the language the system's setting names (de-DE)
            return _("{language} ({code}): the system's setting ({value}) names no language spite speaks").format(**values)
        # TRANSLATORS: in spite id, after "language:"; {language} is the language in its own words, {code} its code (vi),
        # {value} the system's setting (vi-VN)
        return _("{language} ({code}), from the system's setting ({value})").format(**values)
    if choice.source == "default":
        # TRANSLATORS: in spite id, after "language:"; {language} is English in its own words, {code} its code (en)
        return _("{language} ({code}), the default: nothing names another language").format(**values)
    # LC_ALL, LC_MESSAGES or LANG naming a language spite lacks gives English (LANGUAGE only chooses a language spite speaks)
    if (
        choice.source in LOCALE_VARIABLES
        and choice.source != "LANGUAGE"
        and language_of(choice.value, translator_codes(os.environ)) is None
    ):
        # TRANSLATORS: in spite id, after "language:"; {language} is English in its own words, {code} its code (en),
        # {variable}={value} the locale variable that chose it (LC_ALL=de_DE.UTF-8)
        return _("{language} ({code}): {variable}={value} names no language spite speaks").format(**values)
    # TRANSLATORS: in spite id, after "language:"; {language} is the language in its own words, {code} its code (vi),
    # {variable}={value} the environment variable that chose it (LANG=vi_VN.UTF-8, SPITE_LANG=vi)
    return _("{language} ({code}), from {variable}={value}").format(**values)


@command(
    help=_("Start a match and write the invitation file to send to your opponent (as a file, or its turn code in a chat)."),
    epilog=_("Example: spite new --opponent Bob --opponent-key spite1:b5dAyVbC…   (then send the file it writes)"),
)
@_handled
def new(
    name: NameOption = None,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            metavar="NAME",
            show_default=False,
            help=_("Your opponent's name (default: the name they go by, once they answer)."),
        ),
    ] = None,
    opponent_key: Annotated[
        str,
        typer.Option(
            "--opponent-key",
            metavar="KEY",
            show_default=False,
            help=_("Your opponent's public key (spite1:...); without it, whoever opens the file may join."),
        ),
    ] = "",
    payoff: PayoffOption = None,
    target: TargetOption = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", metavar="FILE", help=_("Where to write the invitation."))] = None,
    copy: Annotated[bool, typer.Option("--copy", help=_("Put the invitation's turn code on the clipboard, to paste into a chat."))] = False,
    send: Annotated[bool, typer.Option("--send", help=_("Mail the invitation at once (spite mail setup), to --to."))] = False,
    to: ToOption = None,
    chat: ChatOption = None,
) -> None:
    """Start a match and write the invitation file."""
    if to is not None and not send:
        raise UsageError(_("--to says where --send mails the invitation: add --send"))
    home = spite_home()
    identity = _identity(home, name)
    opponent = check_name(opponent) if opponent is not None else None
    if opponent_key:
        from pbm.identity import PublicKey

        opponent_key = PublicKey.parse(opponent_key).text
        if opponent_key == identity.public_text:
            raise SpiteError(_("that is your own key: give your opponent's (they see it with 'spite id')"))
    rules = replace_rules(G4A, payoff, target)
    who = opponent or DEFAULT_OPPONENT
    with Journal.open(home) as journal:
        _say_settled(settle_invitations(journal))
        save, path = new_match(identity, journal, rules, who, opponent_key, out=output)
    # TRANSLATORS: in place of the opponent's name in sentences, while it is not known yet ("Send it to your opponent: ...")
    me, them = plain(identity.name), plain(opponent or _("your opponent"))
    # TRANSLATORS: {match} is the match's id (8 hex digits), {me} and {them} the players' names, {target} the score that wins
    said = _("Match {match} started: {me} against {them}, first to {target}.")
    session.out.print(said.format(match=save.match[:8], me=me, them=them, target=rules.target_score))
    session.out.print(_("Wrote {file}").format(file=plain(str(path))), soft_wrap=True)
    if send:
        from pbm.cli.mail import send_file  # its commands come after these in the app's list

        send_file(path, to)
        said = _("They answer it with: spite inbox --play (it fetches the mail and opens the invitation).")
    else:
        _how_to_send(save, path, them, copy, chat)
        # TRANSLATORS: {file} is the invitation's file name
        said = _("They answer it with: spite play {file}, or spite play --paste (a code they copied).").format(file=plain(path.name))
    session.out.print(said, soft_wrap=True)
    # TRANSLATORS: {fingerprint} is your key's (XXXX-XXXX-XXXX-XXXX), {name} the opponent (or "your opponent")
    said = _("Your fingerprint is {fingerprint}: {name} will see it and may check it with you.")
    session.out.print(said.format(fingerprint=identity.fingerprint, name=them))


@command("version", hidden=True, help=_("Print spite's version, as spite --version does."))
def version_command() -> None:
    """Print spite's version."""
    _version(True)


@command("help", hidden=True, help=_("Show spite's help, or a command's (spite help play is spite play --help)."))
def help_command(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(metavar="COMMAND", show_default=False, help=_("A command of spite."))] = None,
) -> None:
    """Show spite's help, or a command's."""
    parent = ctx.parent
    assert parent is not None  # a command always runs under the app
    if name is None:
        text = parent.get_help()
    else:
        found = parent.command.get_command(parent, name) if isinstance(parent.command, typer.core.TyperGroup) else None
        if found is None:
            raise UsageError(_("No such command {name}.").format(name=repr(cut(name))), ctx=ctx)  # a name of any length, cut short
        text = found.get_help(found.make_context(name, [], parent=parent, resilient_parsing=True))
    if text.strip():  # rich help prints itself and gives back nothing
        session.out.print(text, markup=False, highlight=False)
