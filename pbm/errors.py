"""The errors of play by mail: one base, :class:`SpiteError`, and named subclasses whose messages speak to a player."""

from __future__ import annotations


class SpiteError(Exception):
    """Anything the pbm package refuses; the CLI prints the message and exits with status 1."""


# --- the spite home (pbm/home.py) ---


class HomeError(SpiteError):
    """The spite home cannot be written (read-only, full) or is not usable as it is; nothing was written.

    `trouble` says what is wrong with the home without the "nothing was written" (a command that only looks goes on).
    """

    def __init__(self, message: str, trouble: str = "") -> None:
        super().__init__(message)
        self.trouble = trouble or message


class BusyError(SpiteError):
    """Another spite is answering a file of the same match in the same spite home right now."""


class WriteError(SpiteError):
    """A file spite must write (an answer, an invitation) could not be written where it should go."""


# --- identities (pbm/identity.py) ---


class IdentityError(SpiteError):
    """An identity key file that cannot be read, written or used."""


class PassphraseError(IdentityError):
    """A wrong or missing passphrase for an identity key file."""


class PublicKeyError(IdentityError):
    """Text that is not a shared public key (``spite1:...``)."""


# --- save files (pbm/saves.py) and turn codes (pbm/transport/code.py) ---


class SaveFormatError(SpiteError):
    """A save file that is not a well-formed spite save; `field` names the offending field when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class UnsupportedFormatError(SaveFormatError):
    """A save of another format or of a version this spite does not read."""


class TooLargeError(SaveFormatError):
    """A save file over the size limit (pbm.saves.MAX_BYTES)."""


class CodeError(SaveFormatError):
    """Pasted text that holds no whole turn code or save: a part missing, damaged or cut, or a turn too big for a code."""


class ClipboardError(SpiteError):
    """No clipboard to copy to or paste from: no graphical session, no clipboard tool, or nothing on it."""


class BadSignatureError(SpiteError):
    """The signature does not match the file's content: the file was changed after signing."""


class UnknownKeyError(SpiteError):
    """The file is signed by a key that is not the one pinned for that player."""


# --- the journal (pbm/journal/) ---


class JournalError(SpiteError):
    """The local journal refuses a save, or cannot be used."""


class DamagedJournalError(JournalError):
    """The journal's file is damaged (pages, tables), empty, or no journal at all: it is refused, never written into."""


class ReplayError(JournalError):
    """A save already played from is offered again."""


class RollbackError(JournalError):
    """A save older than the latest one known for its match."""


class ForkError(JournalError):
    """A second, different save continuing from the same point."""


class CrossedError(JournalError):
    """A turn that crossed the other player's resignation (both followed the same save): the resignation stands, the turn is void."""


class KeyMismatchError(JournalError):
    """A player's key differs from the one pinned for that match."""


class ChainError(JournalError):
    """A save that does not continue from the latest save known for its match."""


# --- fair dealing (pbm/protocol/group.py, pbm/protocol/proofs.py, pbm/protocol/dealing.py, pbm/secrets.py) ---


class ProtocolError(SpiteError):
    """A dealing message that does not follow the protocol (docs/protocol.md)."""


class PointError(ProtocolError):
    """A point or scalar that is not a valid element of the prime-order group, or a group operation that fails."""


class ProofError(ProtocolError):
    """A strip proof that does not check out: a false card reveal or draw."""


class StaleMessageError(ProtocolError):
    """A dealing message from an earlier turn, game or match, offered again."""


class CardError(ProtocolError):
    """A revealed or drawn card that is no card, or a card that is already elsewhere."""


class AuditError(ProtocolError):
    """The end-of-game audit found a dishonest shuffle or a false key."""


class SecretsError(SpiteError):
    """An encrypted secrets blob that cannot be opened: a wrong identity key, another match, or a changed blob."""


class TableMismatchError(SpiteError):
    """A save whose stated table, moves or score are not what its protocol message leads to."""


class NotAPlayerError(SpiteError):
    """The file belongs to a match between two other players."""


class NotYourTurnError(SpiteError):
    """The file is not one this player should answer now."""


class NoRecordError(SpiteError):
    """This machine's journal has no record of this player's side of the match."""


class CarryError(SpiteError):
    """The sides of the match carried in a file are missing, damaged, or not the ones their owner sealed."""


# --- mail (pbm/mailconf.py, pbm/transport/mail.py, pbm/inbox.py) ---


class MailError(SpiteError):
    """Mail could not be sent or fetched; the message names the server and what failed."""


class MailSettingsError(MailError):
    """Mail settings that are missing, unreadable or not valid (``spite mail setup`` writes them)."""


class MailAuthError(MailError):
    """A mail server refused the user name or password."""


class MailTLSError(MailError):
    """A mail server's TLS failed: no STARTTLS, a certificate that does not check out, or a handshake that fails."""


class MailConnectionError(MailError):
    """A mail server that cannot be reached: connection refused, no such host, or no answer in time."""
