"""typer's and click's own words in the player's language: the help's panels and usage line, the help and completion
options, and the usage errors.

typer (0.25 on) ships its own copy of click, whose words are English literals, and binds the rest to the standard
library's default gettext domain at import: so spite puts its own translations in their place here, once the command
line is being parsed or its help drawn. The English below is typer's and click's, word for word, so that a typer of
another version at worst shows its own English.
"""

from __future__ import annotations

from typing import Any

from pbm.i18n import N_, _

# The help of options that typer itself adds (spite --help lists them), by their English text.
_OPTION_HELP = (
    N_("Install completion for the current shell."),
    N_("Show completion for the current shell, to copy it or customize the installation."),
    N_("Install completion for the specified shell."),
    N_("Show completion for the specified shell, to copy it or customize the installation."),
    N_("Show this message and exit."),
)
# What typer's own module (typer.core) says through the standard library's gettext.
_CORE = (
    N_("(dynamic)"),
    N_("Aborted!"),
    N_("default: {default}"),
    N_("required"),
    N_("env var: {var}"),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    N_("Missing command."),
    N_("No such command {name!r}."),
)


def localize_core() -> None:
    """Put spite's translations in place of what typer.core says through the standard library's gettext (_CORE)."""
    import typer.core

    typer.core._ = _


def localize_help() -> None:
    """Put spite's translations in place of the fixed words of typer's rich help: its panels, defaults and markers."""
    from typer import rich_utils  # imported by typer only to draw help: so here too

    localize_core()
    rich_utils.DEPRECATED_STRING = _("(deprecated) ")
    rich_utils.DEFAULT_STRING = _("[default: {value}]").replace("{value}", "{}")
    rich_utils.ENVVAR_STRING = _("[env var: {value}]").replace("{value}", "{}")
    rich_utils.REQUIRED_LONG_STRING = _("[required]")
    rich_utils.ARGUMENTS_PANEL_TITLE = _("Arguments")
    rich_utils.OPTIONS_PANEL_TITLE = _("Options")
    rich_utils.COMMANDS_PANEL_TITLE = _("Commands")
    rich_utils.ERRORS_PANEL_TITLE = _("Error")
    rich_utils.ABORTED_TEXT = _("Aborted.")


def localize_params(params: list[Any]) -> list[Any]:
    """The parameters of a command with the help texts typer wrote itself (completion, help) in the player's language."""
    for param in params:
        text = getattr(param, "help", None)
        if text in _OPTION_HELP:
            param.help = _(text)
    return params


def usage_prefix() -> str:
    """The word before a usage line."""
    return _("Usage: ")


def _hint(error: Any) -> str:
    """The parameter an error of click's is about, as click names it ('FILE', '--payoff')."""
    hint = getattr(error, "param_hint", None)
    if hint is None and getattr(error, "param", None) is not None:
        hint = error.param.get_error_hint(error.ctx)
    if isinstance(hint, (list, tuple)):
        return " / ".join(repr(h) for h in hint)
    return str(hint) if hint is not None else ""


def _reason(message: str) -> str:
    """Why click refused a value, from its English: the kinds spite's options can give, else the English itself."""
    value, sep, kind = message.rpartition(" is not a valid ")
    if sep and kind.endswith("."):
        kinds = {
            "int": N_("{value} is not a whole number."),
            "integer": N_("{value} is not a whole number."),
            "int range": N_("{value} is not a whole number."),
            "float": N_("{value} is not a number."),
            "float range": N_("{value} is not a number."),
            "boolean": N_("{value} is not yes or no."),
        }
        template = kinds.get(kind[:-1])
        if template is not None:
            return _(template).format(value=value)
    value, sep, bounds = message.rpartition(" is not in the range ")
    if sep and bounds.endswith("."):
        return _("{value} is not in the range {range}.").format(value=value, range=bounds[:-1])
    value, sep, choices = message.partition(" is not one of ")
    if sep and choices.endswith("."):
        return _("{value} is not one of {choices}.").format(value=value, choices=choices[:-1])
    return message


def usage_message(error: Any) -> str:
    """A usage error of click's (a missing argument, an unknown option, a bad value) in the player's language."""
    try:
        from typer._click import exceptions as ex
    except ImportError:  # an older typer, on click
        from click import exceptions as ex  # type: ignore[no-redef, import-not-found, unused-ignore]

    if isinstance(error, ex.MissingParameter):
        kind = error.param_type or (error.param.param_type_name if error.param is not None else "parameter")
        hint = _hint(error)
        if kind == "argument":
            return _("Missing argument {name}.").format(name=hint)
        if kind == "option":
            return _("Missing option {name}.").format(name=hint)
        return _("Missing parameter {name}.").format(name=hint)
    if isinstance(error, ex.NoSuchOption):
        said = _("No such option: {option}").format(option=error.option_name)
        if error.possibilities:
            said += " " + _("(Possible options: {options})").format(options=", ".join(sorted(error.possibilities)))
        return said
    if isinstance(error, ex.BadParameter):
        hint = _hint(error)
        reason = _reason(str(error.message))
        if hint:
            return _("Invalid value for {name}: {reason}").format(name=hint, reason=reason)
        return _("Invalid value: {reason}").format(reason=reason)
    message = str(error.message)
    for before, after, template in (
        ("Option ", " requires an argument.", N_("Option {option} requires an argument.")),
        ("Option ", " does not take a value.", N_("Option {option} does not take a value.")),
        ("Got unexpected extra argument (", ")", N_("Got unexpected extra argument ({arguments})")),
        ("Got unexpected extra arguments (", ")", N_("Got unexpected extra arguments ({arguments})")),
        ("Got unexpected extra argument(s) (", ")", N_("Got unexpected extra arguments ({arguments})")),
        ("No such command ", ".", N_("No such command {name}.")),
    ):
        if message.startswith(before) and message.endswith(after) and len(message) >= len(before) + len(after):
            middle = message[len(before) : len(message) - len(after)]
            return _(template).format(option=middle, arguments=middle, name=middle)
    if message == "Missing command.":
        return _("Missing command.")
    return error.format_message()  # spite's own, translated where it was raised
