"""The player's language: which one spite speaks, how it was chosen, and the catalogue (gettext) that speaks it.

The language is chosen once a run, before the command modules load (typer reads every ``help=`` at import): ``--lang``,
then SPITE_LANG, then the locale variables (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), then the system's UI language on
Windows and macOS, else English. A terminal that cannot show the language's letters gets English instead. Nothing
here imports rich or typer, and English loads no catalogue at all: the messages are the English text.

Messages are marked with :func:`_` (or :func:`ngettext`, :func:`pgettext`, :func:`npgettext`; :func:`N_` marks one that
is translated later) and fill their placeholders by name: ``_("Wrote {file}").format(file=name)``. docs/translating.md
says how to mark a message and how to translate one.
"""

from __future__ import annotations

import gettext
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

DOMAIN = "spite"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
LANG_ENV = "SPITE_LANG"
LOCALEDIR_ENV = "SPITE_LOCALEDIR"  # a translator's own catalogues (LANG/LC_MESSAGES/spite.mo), tried before spite's
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # in gettext's order: the first one set decides
ENGLISH = "en"

# The languages spite speaks, by code, each in its own words (what `spite --lang` and `spite id` list).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fil": "Filipino",
    "id": "Bahasa Indonesia",
    "pt_BR": "Português (Brasil)",
    "vi": "Tiếng Việt",
}
# The language part of a locale name, lower case, to the code spite speaks it in (Python's gettext knows neither
# tl for Filipino nor in, the old code of Indonesian); every Portuguese is spoken as Brazil's.
_LANGUAGE_PARTS = {"en": "en", "fil": "fil", "tl": "fil", "id": "id", "in": "id", "vi": "vi", "pt": "pt_BR", "c": "en", "posix": "en"}
# Letters each language needs beyond what English text uses (tests/pbm/test_catalogues.py checks every catalogue's
# letters are here): a terminal whose encoding lacks them gets English, not question marks.
LETTERS: dict[str, str] = {
    "fil": "ñÑ",
    "id": "",
    "pt_BR": "ãõçáéíóúâêôàÃÕÇÁÉÍÓÚÂÊÔÀ",
    "vi": (  # every letter of the Vietnamese alphabet with its marks, both cases
        "àáảãạăằắẳẵặâầấẩẫậđèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ"
        "ÀÁẢÃẠĂẰẮẲẴẶÂẦẤẨẪẬĐÈÉẺẼẸÊỀẾỂỄỆÌÍỈĨỊÒÓỎÕỌÔỒỐỔỖỘƠỜỚỞỠỢÙÚỦŨỤƯỪỨỬỮỰỲÝỶỸỴ"
    ),
}


class Choice(NamedTuple):  # a named tuple: a dataclass would cost every command ~1 ms to build at import
    """The language of this run: its code, where it came from (``--lang``, an environment variable, ``system``,
    ``default``) and what that said; `fallback` names the language asked for when the terminal could not show it, and
    `unknown` a code nobody speaks (from ``--lang`` or SPITE_LANG)."""

    code: str
    source: str
    value: str = ""
    fallback: str = ""  # the language asked for, when English is spoken instead because the terminal cannot show it
    encoding: str = ""  # the terminal's encoding that could not show it
    unknown: str = ""  # an unknown code that was asked for
    unknown_source: str = ""  # where the unknown code came from: "--lang" or SPITE_LANG

    @property
    def name(self) -> str:
        return LANGUAGES.get(self.code, self.code)


def language_of(locale_name: str, extra: Sequence[str] = ()) -> str | None:
    """The code spite speaks a locale name in (``vi_VN.UTF-8`` → ``vi``, ``pt`` → ``pt_BR``, ``C`` → ``en``), else None.

    `extra` are codes that a translator's catalogue directory adds (SPITE_LOCALEDIR), matched whole.
    """
    name = locale_name.strip().split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if not name or len(name) > 40:
        return None
    if name in extra:
        return name
    if name in LANGUAGES:
        return name
    return _LANGUAGE_PARTS.get(name.split("_", 1)[0].lower())


def _argv_lang(argv: Sequence[str]) -> str | None:
    """The value of ``--lang CODE`` or ``--lang=CODE`` on the command line (the last one given), before any ``--``."""
    found = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif word.startswith("--lang="):
            found = word[len("--lang=") :]
    return found


def _system_language() -> str | None:
    """The system's UI language where no variable says one: Windows' user default UI language, macOS' first AppleLanguages."""
    if sys.platform == "win32":
        try:
            import ctypes
            import locale

            langid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined, unused-ignore]
            return locale.windows_locale.get(int(langid))
        except (AttributeError, OSError, ValueError):
            return None
    if sys.platform == "darwin":
        import subprocess

        try:
            done = subprocess.run(["defaults", "read", "-g", "AppleLanguages"], capture_output=True, text=True, timeout=2, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        for line in done.stdout.splitlines()[:4]:  # "(", then one quoted tag a line: the first is the user's choice
            tag = line.strip().strip(",").strip('"')
            if tag and tag not in "()":
                return tag
    return None


def translator_codes(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The languages a translator's catalogue directory (SPITE_LOCALEDIR) holds, beside spite's own."""
    base = environ.get(LOCALEDIR_ENV)
    if not base:
        return ()
    try:
        return tuple(sorted(n for n in os.listdir(base) if os.path.isfile(os.path.join(base, n, "LC_MESSAGES", DOMAIN + ".mo"))))
    except OSError:
        return ()


def choose(argv: Sequence[str], environ: Mapping[str, str], system: Callable[[], str | None] = _system_language) -> Choice:
    """The language `argv` and `environ` ask for, by the order the module's docstring gives (no terminal check here)."""
    extra = translator_codes(environ)
    unknown, unknown_source = "", ""
    asked = _argv_lang(argv)
    if asked is not None:
        code = language_of(asked, extra)
        if code is not None:
            return Choice(code, "--lang", asked)
        unknown, unknown_source = asked, "--lang"
    spite_lang = environ.get(LANG_ENV, "")
    if spite_lang:
        code = language_of(spite_lang, extra)
        if code is not None:
            return Choice(code, LANG_ENV, spite_lang, unknown=unknown, unknown_source=unknown_source)
        if not unknown:
            unknown, unknown_source = spite_lang, LANG_ENV
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":  # GNU's list of preferences, first to last: the first spite speaks wins, else on to LC_ALL
            for part in value.split(":")[:20]:
                code = language_of(part, extra)
                if code is not None:
                    return Choice(code, variable, value, unknown=unknown, unknown_source=unknown_source)
            continue
        code = language_of(value, extra)  # the first of LC_ALL, LC_MESSAGES, LANG that is set decides, as in C
        return Choice(code or ENGLISH, variable, value, unknown=unknown, unknown_source=unknown_source)
    tag = system()
    if tag:
        code = language_of(tag, extra)
        return Choice(code or ENGLISH, "system", tag, unknown=unknown, unknown_source=unknown_source)
    return Choice(ENGLISH, "default", unknown=unknown, unknown_source=unknown_source)


def _encoding() -> str:
    """The encoding spite's text is written in: standard output's, else standard error's ('' when neither says)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if encoding:
            return str(encoding)
    return ""


def can_show(code: str, encoding: str) -> bool:
    """Whether text in `encoding` can hold every letter of language `code` (an unknown encoding is taken to hold them)."""
    letters = LETTERS.get(code, "")
    if not letters or not encoding:
        return True
    try:
        letters.encode(encoding)
    except UnicodeEncodeError:
        return False
    except LookupError:
        return True
    return True


def _catalogue(code: str, environ: Mapping[str, str]) -> gettext.NullTranslations:
    """The compiled catalogue of `code`: a translator's (SPITE_LOCALEDIR) first, then spite's own; English has none."""
    if code == ENGLISH:
        return gettext.NullTranslations()
    for base in (environ.get(LOCALEDIR_ENV), LOCALE_DIR):
        if not base:
            continue
        try:
            with open(os.path.join(base, code, "LC_MESSAGES", DOMAIN + ".mo"), "rb") as file:
                return gettext.GNUTranslations(file)
        except (OSError, ValueError, UnicodeDecodeError):  # missing, or not a catalogue: the next place, else English
            continue
    return gettext.NullTranslations()


_choice: Choice | None = None
_active: gettext.NullTranslations = gettext.NullTranslations()


def setup(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None, encoding: str | None = None) -> Choice:
    """Choose this run's language (from `argv`, the environment and the system) and speak it from now on."""
    global _choice, _active
    environ = os.environ if environ is None else environ
    choice = choose(argv or (), environ)
    encoding = _encoding() if encoding is None else encoding
    if choice.code != ENGLISH and not can_show(choice.code, encoding):
        choice = Choice(ENGLISH, choice.source, choice.value, choice.code, encoding, choice.unknown, choice.unknown_source)
    _active = _catalogue(choice.code, environ)
    _choice = choice
    return choice


def speak_english() -> None:
    """Speak English from now on, the language chosen still known to :func:`current`: a command asked for ``--json``
    writes for scripts, and scripts read every text of it (a refusal's reason too) in English."""
    global _active
    if _choice is None:
        setup()
    _active = gettext.NullTranslations()


def current() -> Choice:
    """The language of this run (chosen from the environment alone if nothing chose it yet)."""
    return _choice if _choice is not None else setup()


def _(message: str) -> str:
    """`message` in the player's language."""
    if _choice is None:
        setup()
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the number `n`, in the player's language (by its plural rule)."""
    if _choice is None:
        setup()
    return _active.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the player's language, where `context` tells apart one English word of two meanings."""
    if _choice is None:
        setup()
    return _active.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context, as :func:`pgettext` has."""
    if _choice is None:
        setup()
    return _active.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Marks `message` for the catalogue without translating it now (a constant translated where it is shown)."""
    return message


def say(text: object) -> str:
    """What `text` says in the player's language: an engine :class:`~engine.text.Message` translated (its values too),
    anything else as ``str()`` gives it."""
    from engine.text import Message, Plural

    if isinstance(text, Plural):
        return ngettext(text.template, text.plural, text.n).format(**{name: say(value) for name, value in text.values.items()})
    if isinstance(text, Message):
        return _(text.template).format(**{name: say(value) for name, value in text.values.items()})
    return str(text)


_OS_REASONS = {  # the system's words for what went wrong with a file or a connection, by errno (errno's names)
    "ENOENT": N_("no such file or folder"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("not permitted"),
    "EISDIR": N_("it is a folder"),
    "ENOTDIR": N_("not a folder"),
    "ENOSPC": N_("no space left on the disk"),
    "EDQUOT": N_("the disk quota is used up"),
    "EROFS": N_("the file system is read-only"),
    "EEXIST": N_("it exists already"),
    "ENAMETOOLONG": N_("the name is too long"),
    "EIO": N_("the disk could not read or write it"),
    "ECONNREFUSED": N_("the connection was refused"),
    "ECONNRESET": N_("the connection was cut"),
    "ETIMEDOUT": N_("no answer in time"),
    "EHOSTUNREACH": N_("the host cannot be reached"),
    "ENETUNREACH": N_("the network cannot be reached"),
}


def os_reason(error: OSError) -> str:
    """Why the system refused, in the player's language where spite knows the error (else the system's own words)."""
    import errno

    name = errno.errorcode.get(error.errno or -1, "")
    if name in _OS_REASONS:
        return _(_OS_REASONS[name])
    return error.strerror or str(error)


def error_text(error: BaseException) -> str:
    """An error's message in the player's language: one the engine raised with a :class:`~engine.text.Message` is
    translated; spite's own are translated where they are raised."""
    if isinstance(error, OSError) and error.errno is not None and type(error).__str__ is OSError.__str__:
        if error.filename is not None:
            return _("{reason}: {file}").format(reason=os_reason(error), file=error.filename)
        return os_reason(error)
    args = error.args
    if len(args) == 1:
        return say(args[0])
    return str(error)
