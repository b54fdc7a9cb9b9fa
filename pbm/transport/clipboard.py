"""The clipboard, for --copy and --paste: pyperclip, asked afresh each time, and plain words for what is missing."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable

from pbm.errors import ClipboardError


def _clipboard() -> tuple[Callable[[str], None], Callable[[], str], type[Exception]]:
    """Copy and paste functions for this session's clipboard, and the error they raise when there is none."""
    try:
        import pyperclip  # only --copy and --paste pay for importing it
    except ImportError as e:
        raise ClipboardError("the clipboard needs the pyperclip package (pip install pyperclip)") from e
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
        raise ClipboardError(f"the clipboard did not take the code ({missing()})")


def paste() -> str:
    """The text on the clipboard; raises ClipboardError when there is no clipboard, or nothing on it."""
    _, get, failure = _clipboard()
    try:
        text = get()
    except failure as e:
        raise ClipboardError(missing()) from e
    if not text.strip():
        raise ClipboardError("the clipboard is empty: copy the turn code (every line from BEGIN SPITE to END SPITE) first")
    return text


def missing() -> str:
    """What is missing for a clipboard, said plainly: a graphical session, or a clipboard tool."""
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            return "there is no clipboard here: this terminal has no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set)"
        tools = ("wl-copy", "wl-paste") if os.environ.get("WAYLAND_DISPLAY") else ("xclip", "xsel")
        if not any(shutil.which(tool) for tool in tools):
            wanted = "wl-clipboard (wl-copy, wl-paste)" if os.environ.get("WAYLAND_DISPLAY") else "xclip or xsel"
            return f"no clipboard tool was found: install {wanted}, or copy the code by hand"
    return "the clipboard cannot be used here: copy the code by hand"
