"""Who you are and starting a match: spite id, spite new."""

from pathlib import Path
from typing import Annotated

import typer

from engine.rules import G4A
from pbm.cli.app import NameOption, PayoffOption, TargetOption, ToOption, UsageError, _handled, _identity, _version, command, session
from pbm.cli.shared import _how_to_send, _say_settled
from pbm.client.answer import new_match, replace_rules, settle_invitations
from pbm.client.receive import DEFAULT_OPPONENT
from pbm.errors import SpiteError
from pbm.home import spite_home
from pbm.identity import check_name, rename
from pbm.journal import Journal
from pbm.shown import plain


@command("id", epilog="Example: spite id --name Alice")
@_handled
def id_command(
    name: NameOption = None,
    passphrase: Annotated[
        bool,
        typer.Option(
            "--passphrase",
            help="Protect your key with a new passphrase (asked twice; empty removes it). "
            "Commands then ask for it, or read it from SPITE_PASSPHRASE.",
        ),
    ] = False,
    new_key: Annotated[
        bool, typer.Option("--new-key", help="Make a new key in a spite home whose key is lost (its matches cannot go on).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print name, fingerprint, public key and home as JSON for scripts.")] = False,
) -> None:
    """Show your name, fingerprint, public key and spite home (your key is made on first use)."""
    home = spite_home()
    identity = _identity(home, name, new_key)
    if passphrase:
        new = typer.prompt("New passphrase (empty for none)", default="", hide_input=True, confirmation_prompt=True, show_default=False)
        identity = rename(identity, identity.name, new or None)
        session.out.print("Your key is now protected by that passphrase." if new else "Your key has no passphrase now.")
    if as_json:
        session.out.print_json(
            data={"name": identity.name, "fingerprint": identity.fingerprint, "public_key": identity.public_text, "home": str(home)}
        )
        return
    session.out.print(f"name:        {plain(identity.name)}")
    session.out.print(f"fingerprint: {identity.fingerprint}   (read it to your opponent to check their copy of your key)")
    session.out.print(f"public key:  {identity.public_text}")
    session.out.print(f"spite home:  {home}   (your key and journal; set SPITE_HOME to use another)", markup=False, soft_wrap=True)


@command(epilog="Example: spite new --opponent Bob --opponent-key spite1:b5dAyVbC…   (then send the file it writes)")
@_handled
def new(
    name: NameOption = None,
    opponent: Annotated[
        str | None,
        typer.Option(
            "--opponent", metavar="NAME", show_default=False, help="Your opponent's name (default: the name they go by, once they answer)."
        ),
    ] = None,
    opponent_key: Annotated[
        str,
        typer.Option(
            "--opponent-key",
            metavar="KEY",
            show_default=False,
            help="Your opponent's public key (spite1:...); without it, whoever opens the file may join.",
        ),
    ] = "",
    payoff: PayoffOption = None,
    target: TargetOption = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", metavar="FILE", help="Where to write the invitation.")] = None,
    copy: Annotated[bool, typer.Option("--copy", help="Put the invitation's turn code on the clipboard, to paste into a chat.")] = False,
    send: Annotated[bool, typer.Option("--send", help="Mail the invitation at once (spite mail setup), to --to.")] = False,
    to: ToOption = None,
) -> None:
    """Start a match and write the invitation file to send to your opponent (as a file, or its turn code in a chat)."""
    if to is not None and not send:
        raise UsageError("--to says where --send mails the invitation: add --send")
    home = spite_home()
    identity = _identity(home, name)
    opponent = check_name(opponent) if opponent is not None else None
    if opponent_key:
        from pbm.identity import PublicKey

        opponent_key = PublicKey.parse(opponent_key).text
        if opponent_key == identity.public_text:
            raise SpiteError("that is your own key: give your opponent's (they see it with 'spite id')")
    rules = replace_rules(G4A, payoff, target)
    who = opponent or DEFAULT_OPPONENT
    with Journal.open(home) as journal:
        _say_settled(settle_invitations(journal))
        save, path = new_match(identity, journal, rules, who, opponent_key, out=output)
    me, them = plain(identity.name), plain(opponent or "your opponent")
    session.out.print(f"Match {save.match[:8]} started: {me} against {them}, first to {rules.target_score}.")
    session.out.print(f"Wrote {plain(str(path))}", soft_wrap=True)
    if send:
        from pbm.cli.mail import send_file  # its commands come after these in the app's list

        send_file(path, to)
        how = "spite inbox --play (it fetches the mail and opens the invitation)"
    else:
        _how_to_send(save, path, them, copy)
        how = f"spite play {plain(path.name)}, or spite play --paste (a code they copied)"
    session.out.print(f"They answer it with: {how}.", soft_wrap=True)
    session.out.print(f"Your fingerprint is {identity.fingerprint}: {them} will see it and may check it with you.")


@command("version", hidden=True)
def version_command() -> None:
    """Print spite's version, as spite --version does."""
    _version(True)


@command("help", hidden=True)
def help_command(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(metavar="COMMAND", show_default=False, help="A command of spite.")] = None,
) -> None:
    """Show spite's help, or a command's (spite help play is spite play --help)."""
    parent = ctx.parent
    assert parent is not None  # a command always runs under the app
    if name is None:
        text = parent.get_help()
    else:
        found = parent.command.get_command(parent, name) if isinstance(parent.command, typer.core.TyperGroup) else None
        if found is None:
            raise UsageError(f"No such command '{name}'.", ctx=ctx)
        text = found.get_help(found.make_context(name, [], parent=parent, resilient_parsing=True))
    if text.strip():  # rich help prints itself and gives back nothing
        session.out.print(text, markup=False, highlight=False)
