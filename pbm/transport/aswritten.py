"""A save as spite wrote it, read without the turn-code reader (pbm/transport/code.py), which a look at an ordinary file
does not need: the first look that tells a turn code from a save, which code.read shares.

Most files a player gives are saves as spite wrote them. Only a turn code, or a save that mail or chat changed (quoted,
re-wrapped, quoted-printable), needs code.read's repairs and reader, and only then is that module imported.
"""

from __future__ import annotations

import re

from pbm import saves
from pbm.errors import BadSignatureError, SaveFormatError
from pbm.saves import SaveFile

MAX_INPUT = saves.MAX_BYTES + saves.MAX_BYTES // 4  # pasted text read at most: a save quoted or quoted-printable (a few % more)

# Every pattern here reads text from anyone, so each must be linear in it (pbm/transport/code.py says how).
MARK = re.compile(r"(BEGIN|END) SPITE")  # a turn code's BEGIN or END line, whole
# the same in a code joined onto one line and re-wrapped, read with every whitespace gone (pbm/transport/code.py)
JOINED_MARK = re.compile(r"(BEGIN|END)SPITETURN")
NO_QUOTES = dict.fromkeys(map(ord, ">|"), " ")  # for the first look only: a quote mark at a line's start hides a mark
# A save's header, footer or format line, however mangled. It reads a line from its start, its runs of whitespace
# ([^\S\n]: any but a newline) within that line: two `\s*` after a `^` under re.M took blank text in cubic time (each
# start of a line, and each way to share the newlines after it between the two runs: 2,400 newlines took 11 s, and
# 8,000 in a mail stalled spite inbox).
SAVE_MARK = re.compile(r"spite.save|^[^\S\n]*+(?:[>|][^\S\n]*+)?format\s*+=", re.M)
_SPACES = dict.fromkeys(map(ord, "\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000\t"), " ")
_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"))


def normal(text: str) -> str:
    """`text` with what chat and mail change undone where nothing is lost: BOM, CRLF, odd and invisible spaces, tabs."""
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_INVISIBLE).translate(_SPACES)


def flat(plain: str) -> str:
    """`plain` (normal text) with every whitespace and quote mark gone, where a re-wrapped code's marks show whole."""
    return "".join(plain.translate(NO_QUOTES).split())


def save_as_written(data: bytes) -> SaveFile | None:
    """The save in `data` if it is one as spite wrote it, which is what code.read returns for it: within MAX_INPUT, no
    mark of a turn code, read as it is and signed by the key it names. None for anything else, which code.read reads."""
    if len(data) > MAX_INPUT:
        return None
    text = data.decode("utf-8", errors="replace")
    plain = normal(text)
    if MARK.search(plain) or not SAVE_MARK.search(plain) or JOINED_MARK.search(flat(plain)):
        return None
    try:
        save = saves.parse(data)
        saves.verify(save, save.signer_key)  # signed by the key it names: whole; the real check, against the pinned key, follows
    except (SaveFormatError, BadSignatureError):
        return None
    return save
