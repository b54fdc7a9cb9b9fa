"""Real mail servers on localhost for the mail tests: SMTP (aiosmtpd, with AUTH) delivering into Maildirs, IMAP (pymap) serving them.

Each test gets accounts of its own (:meth:`MailServers.account`), so tests sharing the servers never see each other's mail.
"""

from __future__ import annotations

import contextlib
import itertools
import mailbox
import os
import socket
import ssl
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

DOMAIN = "spite.test"
_numbers = itertools.count(1)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Account:
    user: str
    password: str
    maildir: Path

    @property
    def address(self) -> str:
        return f"{self.user}@{DOMAIN}"


@dataclass
class _Delivery:
    """The SMTP server's handler: each message into the Maildir of each recipient it knows; `lose` drops the next ones."""

    root: Path
    passwords: dict[str, str]
    lose: int = 0
    delivered: list[bytes] = field(default_factory=list)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        user, _, domain = address.partition("@")
        if domain != DOMAIN or user not in self.passwords:
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.lose:
            self.lose -= 1  # accepted, then lost on the way: what a player calls "it never came"
            return "250 OK"
        data = envelope.original_content or envelope.content
        self.delivered.append(data)
        for address in envelope.rcpt_tos:
            mailbox.Maildir(self.root / address.partition("@")[0]).add(data)
        return "250 OK"

    def authenticate(self, server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        if isinstance(data, LoginPassword):
            user, password = data.login.decode(), data.password.decode()
            if self.passwords.get(user) == password:
                return AuthResult(success=True)
        return AuthResult(success=False, handled=False)


class _Controller(Controller):
    """aiosmtpd's controller, without its warning (on every connection) that AUTH without TLS is unsafe: it is a local test server."""

    def factory(self) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return super().factory()


@dataclass
class MailServers:
    """An SMTP and an IMAP server on 127.0.0.1 sharing the Maildirs under `root` (one per account).

    With a certificate (`cert`), SMTP speaks TLS from the first byte and IMAP offers STARTTLS, as a provider's servers do.
    """

    root: Path
    smtp_port: int
    imap_port: int
    delivery: _Delivery
    cert: Path | None = None

    def account(self, name: str) -> Account:
        """A new account (user `name` plus a number, so never one another test used) with its own password and Maildir."""
        user = f"{name.lower()}{next(_numbers)}"
        password = f"pw-{user}-secret"
        self.delivery.passwords[user] = password
        folder = self.root / user
        mailbox.Maildir(folder, create=True)
        _write_users(self.root, self.delivery.passwords)
        return Account(user, password, folder)

    def setup_args(self, account: Account) -> list[str]:
        """The flags of `spite mail setup` for `account` on these servers (plain: a local server)."""
        smtp, imap = ("tls", "starttls") if self.cert else ("plain", "plain")
        return [
            *("mail", "setup", "--address", account.address, "--user", account.user),
            *("--smtp-host", "127.0.0.1", "--smtp-port", str(self.smtp_port), "--smtp-security", smtp),
            *("--imap-host", "127.0.0.1", "--imap-port", str(self.imap_port), "--imap-security", imap, "--timeout", "5"),
        ]

    def deliver(self, account: Account, data: bytes) -> None:
        """Put a message straight into `account`'s Maildir, as a server would deliver it."""
        mailbox.Maildir(account.maildir).add(data)


def _write_users(root: Path, passwords: dict[str, str]) -> None:
    """pymap's users and passwords files for the maildir backend (PBKDF2 of few rounds: a login costs no time)."""
    from pysasl.hashing import BuiltinHash

    hashing = BuiltinHash(rounds=1000)
    (root / "pymap-etc-passwd").write_text("".join(f"{u}:::::{u}:\n" for u in passwords))
    (root / "pymap-etc-shadow").write_text("".join(f"{u}:{hashing.hash(p)}\n" for u, p in passwords.items()))


def _wait_for(port: int, process: subprocess.Popen[bytes], seconds: float = 20) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(f"the IMAP server (pymap) exited with status {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the IMAP server (pymap) did not listen on port {port} within {seconds} s")


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as PEM files in `folder`."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "spite test mail server")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


@contextlib.contextmanager
def mail_servers(root: Path, tls: bool = False) -> Iterator[MailServers]:
    """Start both servers on free ports of 127.0.0.1 for mail under `root` (with `tls`, behind a self-signed certificate)."""
    root.mkdir(parents=True, exist_ok=True)
    delivery = _Delivery(root, {})
    _write_users(root, {})
    cert, key = _certificate(root) if tls else (None, None)
    context = None
    if cert is not None:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
    smtp_port = free_port()
    controller = _Controller(
        delivery,
        hostname="127.0.0.1",
        port=smtp_port,
        ssl_context=context,
        authenticator=delivery.authenticate,
        auth_require_tls=False,
        auth_required=True,
    )
    controller.start()
    imap_port = free_port()
    command = [sys.executable, "-c", "from pymap.main import main; main()", "--host", "127.0.0.1", "--port", str(imap_port)]
    command += ["--cert", str(cert), "--key", str(key)] if cert is not None else ["--no-tls"]
    scratch = root / ".tmp"  # pymap renames its temp files into the Maildirs: they must be on the same file system
    scratch.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(scratch)}
    log = (root / "pymap.log").open("wb")
    imap = subprocess.Popen([*command, "maildir", str(root)], stdout=subprocess.DEVNULL, stderr=log, env=env)
    try:
        _wait_for(imap_port, imap)
        yield MailServers(root, smtp_port, imap_port, delivery, cert)
    finally:
        imap.terminate()
        try:
            imap.wait(10)
        except subprocess.TimeoutExpired:
            imap.kill()
        controller.stop()
        log.close()
