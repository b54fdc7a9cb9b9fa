"""The clipboard, for --copy and --paste: pyperclip, asked afresh each time, and plain words for what is missing."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable

from pbm.errors import ClipboardError
from pbm.i18n import _


def _clipboard() -> tuple[Callable[[str], None], Callable[[], str], type[Exception]]:
    """Copy and paste functions for this session's clipboard, and the error they raise when there is none."""
    try:
        import pyperclip  # only --copy and --paste pay for importing it
    except ImportError as e:
        raise ClipboardError(_("the clipboard needs the pyperclip package (pip install pyperclip)")) from e
    copy, paste = pyperclip.determine_clipboard()  # asked each time: pyperclip would keep the first answer for good
    return copy, paste, pyperclip.PyperclipException


def copy(text: str) -> None:
    """Put `text` on the clipboard and check that it holds it; raises ClipboardError saying what is missing."""
    put, get, failure = _clipboard()
    try:
        put(text)
        held = get()
    except failure as e:
        raise ClipboardError(missing()) from e
    if held.replace("\r\n", "\n") != text:  # xclip and xsel fail quietly when they cannot reach the display
        # TRANSLATORS: {reason} says what is missing for a clipboard, as "there is no clipboard here: ..."
        raise ClipboardError(_("the clipboard did not take the code ({reason})").format(reason=missing()))


def paste() -> str:
    """The text on the clipboard; raises ClipboardError when there is no clipboard, or nothing on it."""
    get, failure = _clipboard()[1:]
    try:
        text = get()
    except failure as e:
        raise ClipboardError(missing()) from e
    if not text.strip():
        raise ClipboardError(_("the clipboard is empty: copy the turn code (every line from BEGIN SPITE to END SPITE) first"))
    return text


def missing() -> str:
    """What is missing for a clipboard, said plainly: a graphical session, or a clipboard tool."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            return _("there is no clipboard here: this terminal has no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)")
        wayland = bool(os.environ.get("WAYLAND_DISPLAY"))
        tools = ("wl-copy", "wl-paste") if wayland else ("xclip", "xsel")
        if not any(shutil.which(tool) for tool in tools):
            if wayland:
                return _("no clipboard tool was found: install wl-clipboard (wl-copy, wl-paste), or copy the code by hand")
            return _("no clipboard tool was found: install xclip or xsel, or copy the code by hand")
    return _("the clipboard cannot be used here: copy the code by hand")
