"""The `spite` command: the only place that prints or exits.

app.py holds the app, the error boundary, the consoles and the session; each group of commands is a module of its own
that adds its commands to the app: start (id, new), play (play and the prompt), resign, show (show, verify, code,
games), record, stats, practice (practice, arena), mail (mail setup, send, resend, inbox). The app imports them when its
commands are first asked for: all of them, in that order (the order spite --help lists them), or only the one of the command main() runs.
"""

from pbm.cli.app import app, main, session

__all__ = ["app", "main", "session"]
