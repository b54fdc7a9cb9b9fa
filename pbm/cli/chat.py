"""spite chat: which chat the player pastes turn codes into, so that each code is cut to fit its messages (pbm/chats.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len

from pbm import chats
from pbm.cli.app import _handled, command, session
from pbm.errors import SpiteError
from pbm.home import home_error, spite_home
from pbm.i18n import _, error_text, ngettext
from pbm.transport.code import MAX_PARTS


@command(
    help=_("Say which chat you paste turn codes into, so that each code is cut to fit its messages; alone, list the chats spite knows."),
    epilog=_("Example: spite chat whatsapp   (spite chat alone lists the chats; --chat NAME on play, new, resign and code for one run)"),
)
@_handled
def chat(
    name: Annotated[
        str | None,
        typer.Argument(
            metavar="NAME", show_default=False, help=_("Your chat, as spite chat lists them: whatsapp, telegram, discord, signal, ...")
        ),
    ] = None,
) -> None:
    """Choose the chat turn codes are cut for, or show the choice and the chats spite knows."""
    home = spite_home()
    if name is None:
        _show(home)
        return
    try:
        chosen = chats.find(name)
    except chats.ChatError as e:
        raise typer.BadParameter(error_text(e), param_hint="NAME") from e
    try:
        chats.choose(home, chosen)
    except OSError as e:
        raise home_error(home, e) from e
    # TRANSLATORS: {chat} is a chat's name (WhatsApp); {chars} a number of characters, as 65,536
    said = _("Your chat is {chat}: turn codes now come in parts of at most {chars} characters, one message each.")
    session.out.print(said.format(chat=chosen.title, chars=f"{chosen.chars:,}"), soft_wrap=True, markup=False)


def _show(home: Path) -> None:
    """The chat chosen (or that none is) and the chats spite knows, with the characters of a part of each."""
    try:
        current = chats.chosen(home)
    except SpiteError as e:
        # TRANSLATORS: {trouble} says what is wrong with the file that keeps the chosen chat
        session.out.print(_("Note: {trouble}.").format(trouble=error_text(e)), soft_wrap=True, markup=False)
        current = None
    if current is None:
        said = ngettext(
            # TRANSLATORS: {chars} is a number of characters (2,000); {chat} a chat's name (Discord); {most} is 4
            "No chat chosen: turn codes come in parts of {chars} characters ({chat}'s messages), and a file whose code would "
            "take more than {most} message goes as an attachment. Choose yours: spite chat NAME.",
            "No chat chosen: turn codes come in parts of {chars} characters ({chat}'s messages), and a file whose code would "
            "take more than {most} messages goes as an attachment. Choose yours: spite chat NAME.",
            MAX_PARTS,
        )
        values = {"chars": f"{chats.DEFAULT.chars:,}", "chat": chats.DEFAULT.title, "most": MAX_PARTS}
        session.out.print(said.format(**values), soft_wrap=True, markup=False)
    else:
        # TRANSLATORS: {chat} is a chat's name (WhatsApp); {chars} a number of characters, as 65,536
        said = _(
            "Your chat: {chat}, turn codes in parts of at most {chars} characters (spite chat NAME changes it, --chat NAME for one run)."
        )
        session.out.print(said.format(chat=current.title, chars=f"{current.chars:,}"), soft_wrap=True, markup=False)
    session.out.print()
    # TRANSLATORS: above the list of chats: the name to type, the chat's name, and the characters of one part of a turn code
    session.out.print(
        _("The chats spite knows (NAME, chat, characters a part of a code takes; the README gives the source of each figure):")
    )
    width = max(cell_len(c.name) for c in chats.CHATS.values()) + 2
    titles = max(cell_len(c.title) for c in chats.CHATS.values()) + 2
    for known in chats.CHATS.values():
        mark = "*" if current is not None and known.name == current.name else " "
        name, title = known.name + " " * (width - cell_len(known.name)), known.title + " " * (titles - cell_len(known.title))
        line = f"{mark} {name}{title}{known.chars:>7,}"
        session.out.print(line, markup=False, highlight=False)
