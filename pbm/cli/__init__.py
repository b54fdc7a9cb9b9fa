"""The `spite` command: the only place that prints or exits.

app.py holds the app, the error boundary, the consoles and the session; each group of commands is a module of its own
that adds its commands to the app: start (id, new), play (and the prompt), show (show, verify, code, games), record, stats,
practice (practice, arena), mail (mail setup, send, resend, inbox).
"""

# each group adds its commands to the app as it is imported: in this order they are listed by spite --help
from pbm.cli import start, play, show, record, stats, practice, mail  # noqa: F401, I001
from pbm.cli.app import app, main, session

__all__ = ["app", "main", "session"]
