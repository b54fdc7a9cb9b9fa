"""The console script `spite`: imports the command with the garbage collector off, then runs it (:func:`pbm.cli.main`).

Nothing the imports make (modules, classes, functions, the app) is ever garbage, so a collection during them would only
walk what must stay: ~10 ms of every command. :func:`pbm.cli.app.main` freezes what they made and turns the collector
back on for every command that plays; a command that only looks runs to its end without it.
"""

import gc


def main() -> None:
    """Console entry point (`spite`): the player's language chosen (typer reads every help text at import), pbm.cli imported
    with the collector off, then its main()."""
    gc.disable()
    import sys

    from pbm import i18n

    args = sys.argv[1:]
    i18n.setup(args)
    if "--json" in args[: args.index("--") if "--" in args else len(args)]:
        i18n.speak_english()  # --json is for scripts: every text in it, and every line beside it, in English
    from pbm.cli import main as run

    run()
