"""The journal: the local record (SQLite, ``<home>/journal.sqlite``) of every save seen and the keys pinned per match.

journal.py holds the Journal: its questions, the chain check that refuses a key change, a replay, a fork, a rollback or
a gap, and what it records (this player's own files byte for byte, the mail that came and went); records.py the values
it answers with; store.py the SQLite file: its schema, opening and checking it, transactions, and the one line for a
damage. Everything a caller needs is here.
"""

from pbm.journal.journal import Journal, void_after
from pbm.journal.records import Check, MatchInfo, Received, Resignation, SaveRecord, Status
from pbm.journal.store import SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION", "Check", "Journal", "MatchInfo", "Received", "Resignation", "SaveRecord", "Status", "void_after"]
