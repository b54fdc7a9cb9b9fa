"""The spite app: the command group, the error boundary, the two consoles and the session, and what every command shares.

The commands live in one module per group (start, play, show, practice, mail), each adding its own to :data:`app`.
"""

import functools
import gc
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand, TyperGroup

from engine._frozen import mutable_value
from engine.cards import CardNotationError
from engine.moves import IllegalMoveError, InvalidMoveError
from pbm import render
from pbm.cli.clicktext import localize_core, localize_help, localize_params, usage_message, usage_prefix
from pbm.errors import IdentityError, PassphraseError, SpiteError
from pbm.home import HOME_ENV, JOURNAL_FILE
from pbm.i18n import LANG_ENV, LANGUAGES, _, current, error_text, ngettext, pgettext
from pbm.identity import Identity, exposure, load_or_create, needs_passphrase, player_path, rename
from pbm.shown import LINE, SHORT, cut, json_text, plain


@mutable_value(slots=False)
class Session:
    """One run of spite: its two consoles, and what the global flags and the prompt settle for the rest of it."""

    out: Console
    err: Console
    debug: bool = False  # --debug: a full traceback instead of the one line
    ascii: bool = False  # --ascii: cards drawn with ASCII and suit letters
    introduced: bool = False  # the line that explains the prompt is printed once a session


def _at_spaces(line: Text, width: int) -> list[Text]:
    """One line of text cut at spaces into lines of at most `width` screen cells; a word longer than that stays whole on
    a line of its own (the terminal wraps it, and a mouse copies it whole)."""
    offsets: list[int] = []
    start = 0  # where the line being filled starts
    for word in re.finditer(r"\S+", line.plain):
        if cell_len(line.plain[start : word.end()]) > width and line.plain[start : word.start()].strip():
            offsets.append(word.start())
            start = word.start()
    pieces = line.divide(offsets) if offsets else [line]
    for piece in pieces:
        piece.rstrip()
    return list(pieces)


class _Console(Console):
    """A console of spite's: a line printed whole (``soft_wrap=True``) is wrapped at spaces on a terminal, so that no
    word, command or file name a player must copy is cut in two at the screen's edge; in a pipe it stays one line."""

    def print(self, *objects: Any, **options: Any) -> None:
        wraps = options.get("soft_wrap") and not options.get("no_wrap")  # no_wrap too: as it is (JSON), never wrapped
        if wraps and self.is_terminal and objects and all(isinstance(o, (str, Text)) for o in objects):
            sep, end = options.pop("sep", " "), options.pop("end", "\n")
            markup = options.get("markup")
            parts = [o if isinstance(o, Text) else self.render_str(o, markup=markup, emoji=False, highlight=False) for o in objects]
            lines = [piece for line in Text(sep).join(parts).split("\n", allow_blank=True) for piece in _at_spaces(line, self.width)]
            for n, line in enumerate(lines):
                super().print(line, end=end if n == len(lines) - 1 else "\n", **options)
            return
        super().print(*objects, **options)


# markup=False: no text spite prints is read as rich markup, so a name like "[/x]" or "[link=…]" is only text
session = Session(_Console(highlight=False, emoji=False, markup=False), _Console(stderr=True, highlight=False, emoji=False, markup=False))


try:  # click's UsageError, in typer's own copy of click (typer 0.25 on) or in click itself
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # an older typer, on click
    from click import UsageError  # type: ignore[no-redef, import-not-found, assignment, unused-ignore]

    try:
        from click.exceptions import NoArgsIsHelpError  # type: ignore[no-redef, import-not-found, assignment, unused-ignore]
    except ImportError:  # click before 8.2 prints the help of a bare group and exits 0 itself: never raised

        class NoArgsIsHelpError(UsageError):  # type: ignore[no-redef]
            pass


GLOBAL_FLAGS = ("--debug", "--ascii")
GLOBAL_OPTIONS = ("--lang",)  # global options that take a value: anywhere on the line, as the flags


def _globals_first(args: list[str]) -> tuple[list[str], list[str]]:
    """The global flags and options (with their values) on a command line before any ``--``, and the rest in order."""
    end = args.index("--") if "--" in args else len(args)
    found: list[str] = []
    rest: list[str] = []
    i = 0
    while i < end:
        word = args[i]
        if word in GLOBAL_FLAGS or any(word.startswith(option + "=") for option in GLOBAL_OPTIONS):
            found.append(word)
        elif word in GLOBAL_OPTIONS:  # with its value (none when it ends the line: parse_args says so)
            found += args[i : min(i + 2, end)]
            i += 1
        else:
            rest.append(word)
        i += 1
    return found, rest + args[end:]


LOOKING = frozenset(("show", "verify", "code", "games", "record", "stats", "rules", "version", "help"))  # commands that only look


class _Group(TyperGroup):
    """A group of spite's commands (spite itself, spite mail): its help, usage line and typer's own options in the
    player's language."""

    def get_params(self, ctx: Any) -> list[Any]:
        return localize_params(super().get_params(ctx))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """The command `args` names; an unknown one is named cut short in the error (a word of any length may be typed)."""
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:
            if args and len(args[0]) > SHORT:
                e.message = e.message.replace(repr(args[0]), repr(cut(args[0])), 1)
            raise

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=usage_prefix())

    def format_help(self, ctx: Any, formatter: Any) -> None:
        localize_help()
        super().format_help(ctx, formatter)


class _Spite(_Group):
    """The spite command group: global flags anywhere on the line, and usage errors in one line like every other error."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        end = args.index("--") if "--" in args else len(args)
        if end and args[end - 1] in GLOBAL_OPTIONS:
            raise UsageError(_("Option {option} requires an argument.").format(option=f"'{args[end - 1]}'"), ctx)
        found, rest = _globals_first(args)
        return super().parse_args(ctx, found + rest)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, *rest: Any, **extra: Any) -> Any:
        standalone = extra.pop("standalone_mode", True)
        localize_core()
        try:
            # callers name standalone_mode (typer does), so *rest never reaches its place: mypy cannot know that
            code = super().main(args, prog_name or "spite", *rest, standalone_mode=False, **extra)  # type: ignore[misc]
        except NoArgsIsHelpError as e:  # plain `spite` (or `spite mail`): its help, which is what was asked for
            if e.message.strip():  # the rich help prints itself; click's plain one is the message
                session.out.print(e.message, markup=False, highlight=False)
            code = 0
        except UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else "spite"
            said = _("{error} (see '{command} --help')").format(error=usage_message(e), command=where)
            session.err.print(f"spite: {said}", markup=False, highlight=False, soft_wrap=True)
            code = e.exit_code
        except typer.Abort:
            session.err.print("spite: " + _("interrupted, nothing written"))
            code = 130
        if not standalone:
            return code
        sys.exit(code if isinstance(code, int) else 0)


class _Command(TyperCommand):
    """A spite command: its usage line names its arguments as FILE, not typer's {FILE}; its help in the player's language."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [p[1:-1] if p.startswith("{") and p.endswith("}") else p for p in super().collect_usage_pieces(ctx)]

    def get_params(self, ctx: Any) -> list[Any]:
        return localize_params(super().get_params(ctx))

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(self.collect_usage_pieces(ctx)), prefix=usage_prefix())

    def format_help(self, ctx: Any, formatter: Any) -> None:
        localize_help()
        super().format_help(ctx, formatter)


# the modules of commands, in the order spite --help lists them
GROUPS = ("start", "play", "resign", "forget", "show", "record", "stats", "practice", "rules", "chat", "mail")
# which module adds each command: `spite show` imports only pbm.cli.show (tests/pbm/test_cli_command.py checks the list)
COMMANDS = {
    **dict.fromkeys(("id", "new", "version", "help"), "start"),
    "play": "play",
    "resign": "resign",
    "forget": "forget",
    **dict.fromkeys(("show", "verify", "code", "games"), "show"),
    "record": "record",
    "stats": "stats",
    **dict.fromkeys(("practice", "arena"), "practice"),
    "rules": "rules",
    "chat": "chat",
    **dict.fromkeys(("mail", "send", "resend", "inbox"), "mail"),
}
_chosen: list[str] = []  # the modules main() chose for this run's command; none chosen: every one
_chosen_word: list[str] = []  # and the command itself, the one typer is given then (the module may add others)


class _Lazy(typer.Typer):
    """The app, whose commands are added by the modules of :data:`GROUPS` when first asked for (by main, or a test's runner)."""

    _loaded = False  # the chosen modules were imported (or are being imported)
    _adding = 0  # a command or group is being added: the lists are only appended to, nothing is loaded for that

    @property  # type: ignore[override, unused-ignore]
    def registered_commands(self) -> list[Any]:
        self._load()
        return self._commands

    @registered_commands.setter
    def registered_commands(self, commands: list[Any]) -> None:
        self._commands = commands

    @property  # type: ignore[override, unused-ignore]
    def registered_groups(self) -> list[Any]:
        self._load()
        return self._groups

    @registered_groups.setter
    def registered_groups(self, groups: list[Any]) -> None:
        self._groups = groups

    def command(self, *args: Any, **kwargs: Any) -> Any:
        add = super().command(*args, **kwargs)

        def adding(func: Any) -> Any:
            self._adding += 1
            try:
                return add(func)
            finally:
                self._adding -= 1

        return adding

    def add_typer(self, *args: Any, **kwargs: Any) -> None:
        self._adding += 1
        try:
            super().add_typer(*args, **kwargs)
        finally:
            self._adding -= 1

    def _load(self) -> None:
        """Import the chosen modules of commands (all of them unless main chose one), once; each adds its commands."""
        if self._loaded or self._adding:
            return
        self._loaded = True
        import importlib

        for group in _chosen or GROUPS:
            importlib.import_module(f"pbm.cli.{group}")
        # in the order of GROUPS, whichever module was imported first (a test may import one of them itself)
        order = {f"pbm.cli.{group}": n for n, group in enumerate(GROUPS)}
        self._commands.sort(key=lambda info: order.get(getattr(info.callback, "__module__", ""), len(order)))
        # a run of one command builds only that one (typer builds every command it is given, ~0.3 ms each)
        named = [info for info in self._commands if _chosen_word and _command_name(info) == _chosen_word[0]]
        if named:
            self._commands = named


def _command_name(info: Any) -> str:
    """The name typer gives the command of `info`: its own, else its function's, in lower case with dashes."""
    name: str = info.name or info.callback.__name__.lower().replace("_", "-")
    return name


def choose(argv: Sequence[str]) -> None:
    """Import only the module of the command `argv` names (after the global flags), if it names one; else, later, all."""
    words = _globals_first(list(argv))[1]
    if words and words[0] in COMMANDS and words[0] != "help":  # help lists every command, or shows any one of them
        _chosen.append(COMMANDS[words[0]])
        _chosen_word.append(words[0])


app = _Lazy(
    name="spite",
    cls=_Spite,
    help=_("Spite & Malice by email or chat: every turn is a signed file that you send to your opponent."),
    epilog=_("Start with: spite practice (against the computer), or spite new --opponent Bob (by email or chat)."),
    context_settings={"help_option_names": ["-h", "--help"]},
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


command = functools.partial(app.command, cls=_Command)


F = TypeVar("F", bound=Callable[..., Any])


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version  # only --version pays for reading the metadata

        try:
            number = version("spite")
        except PackageNotFoundError:
            number = _("unknown (not installed)")
        session.out.print(f"spite {number}")
        raise typer.Exit(0)


@app.callback()
def _main(
    debug: Annotated[bool, typer.Option("--debug", help=_("Show a full traceback when something goes wrong."))] = False,
    ascii_: Annotated[
        bool, typer.Option("--ascii", help=_("Draw cards with ASCII and suit letters (s h d c), for terminals that draw ♠♥♦♣ badly."))
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="CODE",
            show_default=False,
            help=_("The language spite speaks: {languages}. Default: SPITE_LANG, then your system's.").format(
                languages=", ".join(LANGUAGES)
            ),
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help=_("Print spite's version and exit."))
    ] = False,
) -> None:
    """Spite & Malice by email or chat."""
    session.debug, session.ascii = debug, ascii_


def print_json(data: Any, indent: int | None = 2) -> None:
    """`data` as JSON on standard output for scripts: never wrapped, nothing in it a terminal would act on (shown.json_text)."""
    session.out.print(json_text(data, indent), markup=False, highlight=False, soft_wrap=True, no_wrap=True)


def _handled(func: F) -> F:
    """Turn every error a player can cause into one line on stderr and exit status 1 (a traceback only with --debug)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, UsageError):
            raise
        except (SpiteError, InvalidMoveError, IllegalMoveError, CardNotationError, OSError) as e:
            if session.debug:
                raise
            session.err.print(f"spite: {cut(plain(error_text(e)), LINE)}", soft_wrap=True)  # one line, however long or strange
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            session.err.print("\nspite: " + _("interrupted, nothing written"))
            raise typer.Exit(130) from None

    return wrapper  # type: ignore[return-value]


def _answers(english: str, said: str) -> frozenset[str]:
    """The words that give one answer to a yes-or-no question: the English ones and the player's language's (comma-separated)."""
    return frozenset(w.strip().lower() for w in f"{english},{said}".split(",") if w.strip())


def confirm(question: str, default: bool) -> bool:
    """Ask a yes-or-no question at the terminal, in the player's language (Enter takes `default`); Ctrl-C, Ctrl-D abort."""
    # TRANSLATORS: the words that answer yes to a question, comma-separated, lower case; y and yes always work too
    yes = _answers("y,yes", pgettext("answers yes", "y,yes"))
    # TRANSLATORS: the words that answer no to a question, comma-separated, lower case; n and no always work too
    no = _answers("n,no", pgettext("answers no", "n,no"))
    # TRANSLATORS: after a question whose answer is yes unless the player types otherwise; the first letters of the words for yes and no
    suffix = _("[Y/n]") if default else _("[y/N]")
    while True:
        answer = typer.prompt(f"{question} {suffix}", default="", show_default=False, prompt_suffix=" ").strip().lower()
        if not answer:
            return default
        if answer in yes:
            return True
        if answer in no:
            return False
        session.err.print(_("Please answer yes or no."))


def ask(question: str, default: str | None = None, hide_input: bool = False, twice: bool = False) -> str:
    """Ask for a line of text at the terminal in the player's language; `twice` asks again to confirm (a new passphrase)."""
    while True:
        if default is None:
            answer = typer.prompt(question, hide_input=hide_input)
        else:
            answer = typer.prompt(question, default=default, hide_input=hide_input, show_default=not hide_input and bool(default))
        if not twice or typer.prompt(_("Repeat for confirmation"), default="", hide_input=hide_input, show_default=False) == answer:
            return str(answer)
        session.err.print(_("The two entries differ: once more."))


def _interactive_terminal() -> bool:
    """Whether a person is at the keyboard: standard input and output are both a terminal."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _look() -> render.Look:
    """ASCII cards when asked (--ascii, SPITE_ASCII) or when the output cannot encode the card symbols."""
    if session.ascii or os.environ.get("SPITE_ASCII"):
        return render.Look(ascii=True)
    try:
        "♠♥♦♣╭─╮│░·–".encode(session.out.encoding)
    except (UnicodeEncodeError, LookupError):
        return render.Look(ascii=True)
    return render.Look()


def _identity(home: Path, name: str | None = None, new_key: bool = False, look: bool = False) -> Identity:
    """The player's identity: on first use at a terminal their name is asked once; a passphrase gets three tries.

    A command that only looks (`look`: show, verify, games) never makes one: a home without a key is named instead, as a
    mistyped SPITE_HOME would be. A key others can read, or a home others can change, is warned about on every command.
    """
    path = player_path(home)
    if look and not path.exists() and not path.is_symlink() and not (home / JOURNAL_FILE).exists():  # else: its own words
        where = f"{home} (SPITE_HOME)" if os.environ.get(HOME_ENV) else str(home)
        raise IdentityError(
            _(
                "there is no spite key in {home}, so nothing of yours to show: is that your spite home? "
                "Nothing was made; 'spite id' makes a key there"
            ).format(home=where)
        )
    identity = _load_identity(home, name, new_key)
    for warning in exposure(identity, home):
        session.err.print(plain(warning), soft_wrap=True)
    return identity


def _load_identity(home: Path, name: str | None, new_key: bool) -> Identity:
    path = player_path(home)
    if not path.exists():
        lost = path.is_symlink() or ((home / JOURNAL_FILE).exists() and not new_key)  # load_or_create refuses: ask nothing
        if name is None and not lost and _interactive_terminal():
            from pbm.identity import login_name

            session.err.print(
                _("spite has no key for you in {home} yet: it makes one there now (your spite home).").format(home=home), soft_wrap=True
            )
            name = ask(_("Your name, as your opponents will see it"), default=login_name()).strip() or None
        return load_or_create(home, name=name, passphrase=os.environ.get("SPITE_PASSPHRASE"), new_key=new_key)
    if new_key:
        return load_or_create(home, new_key=True)  # refuses: there is a key already
    passphrase = os.environ.get("SPITE_PASSPHRASE")
    tries = 3 if passphrase is None and needs_passphrase(path) else 0
    if tries and not sys.stdin.isatty():
        raise PassphraseError(
            _("your key {path} is protected by a passphrase and there is no terminal to ask for it: set SPITE_PASSPHRASE").format(path=path)
        )
    identity = None
    for attempt in range(1, tries + 1):
        passphrase = ask(_("Passphrase for your spite key"), hide_input=True)
        try:
            identity = load_or_create(home, passphrase=passphrase)
            break
        except PassphraseError:
            if attempt == tries:
                raise
            left = tries - attempt
            session.err.print(ngettext("Wrong passphrase ({n} more try).", "Wrong passphrase ({n} more tries).", left).format(n=left))
    if identity is None:
        identity = load_or_create(home, passphrase=passphrase)
    if name is not None and name != identity.name:
        identity = rename(identity, name, passphrase)
    return identity


def _make_bot(name: str, seed: int = 0, think: float | None = None) -> Any:
    from engine.bots import make_bot  # only the commands that let a bot play pay for importing the bots

    return make_bot(name, seed, think)


# --- the options and arguments several commands share ---

NameOption = Annotated[str | None, typer.Option("--name", metavar="NAME", help=_("Your name as your opponents see it."))]
ToOption = Annotated[
    str | None,
    typer.Option("--to", metavar="ADDRESS", help=_("Your opponent's email address (asked once per match, then kept in your journal).")),
]
PayoffOption = Annotated[int | None, typer.Option("--payoff", min=1, metavar="N", help=_("Pay-off pile size (default 20)."))]
TargetOption = Annotated[int | None, typer.Option("--target", min=1, metavar="POINTS", help=_("Points that win the match (default 50)."))]
ThinkOption = Annotated[
    float | None,
    typer.Option(
        "--think",
        min=0.01,
        metavar="SECONDS",
        help=_(
            "The most seconds a searching bot may think per plan: a guard only (its search is budgeted in work, so the same "
            "seed plays the same game on any machine unless this cuts in)."
        ),
    ),
]
YesOption = Annotated[
    bool,
    typer.Option(
        "--yes",
        "-y",
        help=_("Write your turn without asking to confirm it or about a new key; take the seat of an invitation made out to another."),
    ),
]
FileArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="FILE",
        show_default=False,
        help=_("The save file or turn code your opponent sent you: a file, or - to read what you paste."),
    ),
]
PasteOpt = Annotated[bool, typer.Option("--paste", help=_("Read the turn code (or save) from the clipboard."))]


def _chat_name(value: str | None) -> str | None:
    """--chat's value as the command line is read, before anything is written: the name of a chat spite knows."""
    if value is None:
        return None
    from pbm.chats import ChatError, find  # only a command given --chat pays for the table

    try:
        return find(value).name
    except ChatError as e:
        raise typer.BadParameter(error_text(e)) from e


ChatOption = Annotated[
    str | None,
    typer.Option(
        "--chat",
        metavar="NAME",
        callback=_chat_name,
        help=_("The chat you paste turn codes into, for this run (spite chat keeps your choice): codes are cut to fit its messages."),
    ),
]


def main() -> None:
    """Console entry point (`spite`, and `python -m pbm.cli`)."""
    # What the imports made (modules, classes, functions) lives until exit: out of the collector's sight, neither the
    # collections during the command nor the full one at exit walk it again, ~20 ms of every command. What a command
    # that plays makes is collected as usual; a command that only looks makes little (one save, the journal's rows), all
    # of it let go at exit, and runs without the collector (~10 ms less). The console script imported all this with
    # the collector off (pbm/launch.py).
    gc.freeze()
    words = _globals_first(sys.argv[1:])[1]
    if words and words[0] in LOOKING:
        gc.disable()
    else:
        gc.enable()
    for stream in (sys.stdout, sys.stderr):  # a code page without – or ♠ (a Windows pipe, a legacy console): '?', not a traceback
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    _say_language()
    choose(sys.argv[1:])
    app(prog_name="spite")


def _say_language() -> None:
    """One line on the language, where there is something to say: an unknown code (from --lang: a usage error), or a
    terminal that cannot show the language asked for (English is spoken instead)."""
    choice = current()
    known = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
    if choice.unknown_source == "--lang":
        said = _("unknown language '{code}': spite speaks {languages}")
        session.err.print("spite: " + said.format(code=choice.unknown, languages=known), soft_wrap=True)
        sys.exit(2)
    if choice.unknown_source == LANG_ENV:
        said = _("{variable}={code} is not a language spite speaks ({languages}): it speaks {language}")
        session.err.print(
            "spite: " + said.format(variable=LANG_ENV, code=choice.unknown, languages=known, language=choice.name), soft_wrap=True
        )
    if choice.fallback:
        said = _("this terminal writes {encoding}, which cannot show {language}: spite speaks English here (a UTF-8 terminal shows it)")
        session.err.print(
            "spite: " + said.format(encoding=choice.encoding, language=LANGUAGES.get(choice.fallback, choice.fallback)), soft_wrap=True
        )
