"""Real mail servers on 127.0.0.1 for the mail tests.

- ``smtp_server``: aiosmtpd, plain connect, STARTTLS required before AUTH,
  AUTH (LOGIN/PLAIN) required before MAIL.
- ``smtp_ssl_server``: aiosmtpd, implicit TLS (SMTPS), AUTH required.
- ``smtp_plain_server``: aiosmtpd, no TLS at all; AUTH offered but optional.
- ``imap_server``: Dovecot (Debian's ``dovecot-imapd``), IMAPS only, one user
  with a Maildir INBOX.
- ``receiving_server``: a Dovecot of its own that also takes mail by LMTP (Debian's
  ``dovecot-lmtpd``), as a mail server hands mail on, and pipes each mail through a Sieve
  script (``dovecot-sieve``, its extprograms plugin) to a program the test writes, run by
  Dovecot's script service as the user running the tests (``mail receive`` as a GM's
  server would run it); every mail is kept in INBOX too, read by IMAPS. It can be
  restarted on the same ports (``restart()``).

Every server presents a certificate for ``127.0.0.1`` and ``localhost`` signed
by a throw-away CA made once per test session (``ca_file``), so clients verify
it with ``ssl.create_default_context(cafile=server.ca_file)``.

Scope: each server is started once per test session, on the first test that
asks for it (aiosmtpd in ~30 ms, Dovecot in ~70 ms), on a port the kernel picks;
the fixtures above are function-scoped views of it that empty it (``clear()``)
before each test, so every test starts with no messages. The servers are
stopped and their temporary directories removed when the session ends.

Dovecot runs in the foreground (``dovecot -F -c CONFIG``) as a child of the test
process, from a config written into a temporary directory that also holds its
base_dir, state_dir, log, passwd-file and the Maildir; it never touches
/etc/dovecot, /run/dovecot or a system instance. As root its helper processes
run as the packaged ``dovecot``/``dovenull`` users and the mail user as
``nobody`` (Dovecot refuses uid 0 for all of these); as any other user
everything runs as that user.

If aiosmtpd, cryptography or Dovecot is missing the tests that need them skip,
saying what to install; with ``CI`` set they fail instead, because
``make test`` must have installed them.
"""

from __future__ import annotations

import email.policy
import grp
import imaplib
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from email.parser import BytesParser
from ipaddress import ip_address
from pathlib import Path
from typing import Any

import pytest

HOST = "127.0.0.1"

SMTP_USER = "referee@antike.test"
SMTP_PASSWORD = "smtp-secret-42"
IMAP_USER = "referee"
IMAP_PASSWORD = "imap-secret-42"


def pytest_configure(config):
    # aiosmtpd warns about AUTH without STARTTLS on the implicit-TLS server, where
    # every connection is TLS from the first byte (see _start_smtp).
    config.addinivalue_line(
        "filterwarnings", "ignore:Requiring AUTH while not requiring TLS:UserWarning"
    )


# --------------------------------------------------------------------------- helpers


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _unavailable(what: str, how: str) -> None:
    """Skip (or, under CI, fail) because a tool the mail tests need is missing."""
    if _in_ci():
        pytest.fail(
            f"{what} is missing, but CI is set: `make test` should have installed it ({how})",
            pytrace=False,
        )
    pytest.skip(f"{what} is missing: {how}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _client_context(ca_file: str) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=ca_file)


# --------------------------------------------------------------------------- certificates


@dataclass(frozen=True)
class TlsFiles:
    """A throw-away CA and a server certificate for 127.0.0.1 and localhost."""

    ca_file: str
    cert_file: str
    key_file: str

    def server_context(self) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(self.cert_file, self.key_file)
        return ctx


def _make_certs(directory: Path) -> TlsFiles:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.now(timezone.utc)
    start, end = now - timedelta(hours=1), now + timedelta(days=2)

    def usage(**on: bool) -> x509.KeyUsage:
        names = (
            "digital_signature content_commitment key_encipherment data_encipherment "
            "key_agreement key_cert_sign crl_sign encipher_only decipher_only"
        ).split()
        return x509.KeyUsage(**{n: on.get(n, False) for n in names})

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "antike-ref throw-away test CA")])
    ca_ski = x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key())
    ca_cert = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(usage(digital_signature=True, key_cert_sign=True, crl_sign=True), critical=True)
        .add_extension(ca_ski, critical=False)
        .sign(ca_key, hashes.SHA256())
    )

    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ip_address(HOST))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(usage(digital_signature=True, key_encipherment=True), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(ca_ski), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )

    pem = serialization.Encoding.PEM
    files = TlsFiles(
        ca_file=str(directory / "ca.pem"),
        cert_file=str(directory / "server.pem"),
        key_file=str(directory / "server.key"),
    )
    Path(files.ca_file).write_bytes(ca_cert.public_bytes(pem))
    Path(files.cert_file).write_bytes(cert.public_bytes(pem))
    key_path = Path(files.key_file)
    key_path.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    key_path.chmod(0o600)
    return files


@pytest.fixture(scope="session")
def mail_tls(tmp_path_factory) -> TlsFiles:
    """The session's throw-away CA (``ca_file``) and server certificate and key."""
    try:
        import cryptography  # noqa: F401
    except ImportError:
        _unavailable("the Python package cryptography", "run `make venv` (pip install -e '.[test]')")
    return _make_certs(tmp_path_factory.mktemp("mail-tls"))


# --------------------------------------------------------------------------- SMTP


@dataclass
class ReceivedMessage:
    envelope_from: str
    envelope_to: list[str]
    message: EmailMessage  # parsed with email.policy.default, from raw with \r\n -> \n
    raw: bytes  # the DATA as received (\r\n line ends, dots unstuffed)
    at: float = field(default_factory=time.monotonic)  # when it arrived (time.monotonic)


@dataclass
class SmtpServer:
    host: str
    port: int
    security: str  # "starttls" | "ssl" | "plain"
    user: str
    password: str
    ca_file: str
    messages: list = field(default_factory=list)
    refuse: Any = None
    """A test's rule: called with each message's raw DATA, it may return an SMTP answer
    such as ``"552 5.3.4 Message size exceeds fixed limit"`` to refuse that message (as a
    server with a size limit does); ``None`` takes it. Cleared with the messages."""
    _cond: threading.Condition = field(default_factory=threading.Condition, repr=False, compare=False)

    def clear(self) -> None:
        with self._cond:
            self.messages.clear()
            self.refuse = None

    def wait_for(self, n: int, timeout: float = 10) -> list:
        """Wait until at least ``n`` messages have arrived; return them all (a copy)."""
        with self._cond:
            if not self._cond.wait_for(lambda: len(self.messages) >= n, timeout):
                raise AssertionError(
                    f"SMTP server ({self.security}) got {len(self.messages)} message(s) "
                    f"within {timeout}s, expected at least {n}"
                )
            return list(self.messages)

    def tls_context(self) -> ssl.SSLContext:
        """A client context that trusts this server's certificate."""
        return _client_context(self.ca_file)

    def _record(self, received: ReceivedMessage) -> None:
        with self._cond:
            self.messages.append(received)
            self._cond.notify_all()


class _SmtpHandler:
    def __init__(self, server: SmtpServer):
        self.server = server

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content
        if raw is None:
            raw = envelope.content if isinstance(envelope.content, bytes) else envelope.content.encode()
        refusal = self.server.refuse(raw) if self.server.refuse is not None else None
        if refusal:
            return refusal
        # Parsed with \n line ends (as a mail store keeps it), so get_content() has no \r.
        message = BytesParser(policy=email.policy.default).parsebytes(raw.replace(b"\r\n", b"\n"))
        self.server._record(
            ReceivedMessage(
                envelope_from=envelope.mail_from,
                envelope_to=list(envelope.rcpt_tos),
                message=message,
                raw=raw,
            )
        )
        return "250 OK: message accepted"


def _start_smtp(security: str, tls: TlsFiles):
    try:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword
    except ImportError:
        _unavailable("the Python package aiosmtpd", "run `make venv` (pip install -e '.[test]')")

    class _Controller(Controller):
        # Bind to port 0 and learn the port the kernel chose: no race for a "free" port.
        def _trigger_server(self):
            self.port = self.server.sockets[0].getsockname()[1]
            super()._trigger_server()

    server = SmtpServer(
        host=HOST, port=0, security=security, user=SMTP_USER, password=SMTP_PASSWORD,
        ca_file=tls.ca_file,
    )

    def authenticator(_smtp, _session, _envelope, _mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == server.user.encode()
            and auth_data.password == server.password.encode()
        )
        # handled=False: aiosmtpd then answers "535 ... credentials invalid" itself
        # (with the default handled=True it would answer nothing at all).
        return AuthResult(success=ok, handled=False, auth_data=auth_data)

    kwargs = dict(
        hostname=HOST, port=0, server_hostname="localhost", authenticator=authenticator,
        ready_timeout=10,
    )
    if security == "starttls":
        kwargs.update(
            tls_context=tls.server_context(), require_starttls=True,
            auth_required=True, auth_require_tls=True,
        )
    elif security == "ssl":
        # The whole connection is TLS, so AUTH needs no STARTTLS (aiosmtpd only knows
        # about STARTTLS when it checks auth_require_tls).
        kwargs.update(ssl_context=tls.server_context(), auth_required=True, auth_require_tls=False)
    elif security == "plain":
        kwargs.update(auth_required=False, auth_require_tls=False)
    else:
        raise ValueError(security)
    controller = _Controller(_SmtpHandler(server), **kwargs)
    controller.start()
    server.port = controller.port
    return server, controller


@pytest.fixture(scope="session")
def _smtp_starttls(mail_tls):
    server, controller = _start_smtp("starttls", mail_tls)
    yield server
    controller.stop()


@pytest.fixture(scope="session")
def _smtp_ssl(mail_tls):
    server, controller = _start_smtp("ssl", mail_tls)
    yield server
    controller.stop()


@pytest.fixture(scope="session")
def _smtp_plain(mail_tls):
    server, controller = _start_smtp("plain", mail_tls)
    yield server
    controller.stop()


@pytest.fixture
def smtp_server(_smtp_starttls) -> SmtpServer:
    """SMTP submission with STARTTLS required before AUTH; emptied for each test."""
    _smtp_starttls.clear()
    return _smtp_starttls


@pytest.fixture
def smtp_ssl_server(_smtp_ssl) -> SmtpServer:
    """SMTP over implicit TLS (SMTPS) with AUTH required; emptied for each test."""
    _smtp_ssl.clear()
    return _smtp_ssl


@pytest.fixture
def smtp_plain_server(_smtp_plain) -> SmtpServer:
    """SMTP without TLS; AUTH offered but not required; emptied for each test."""
    _smtp_plain.clear()
    return _smtp_plain


# --------------------------------------------------------------------------- IMAP (Dovecot)


@dataclass
class ImapServer:
    host: str
    port: int  # IMAPS (implicit TLS)
    user: str
    password: str
    ca_file: str
    url: str
    maildir: Path
    log_file: Path | None = field(repr=False, default=None)  # Dovecot's log, for debugging

    def tls_context(self) -> ssl.SSLContext:
        """A client context that trusts this server's certificate."""
        return _client_context(self.ca_file)

    def connect(self) -> imaplib.IMAP4_SSL:
        """A logged-in IMAP4_SSL client (caller logs out)."""
        client = imaplib.IMAP4_SSL(self.host, self.port, ssl_context=self.tls_context(), timeout=10)
        client.login(self.user, self.password)
        return client

    def deliver(self, raw: bytes) -> None:
        """Put one message into INBOX (IMAP APPEND, so Dovecot has it indexed at once)."""
        client = self.connect()
        try:
            typ, data = client.append("INBOX", None, None, raw)
            assert typ == "OK", (typ, data)
        finally:
            client.logout()

    def messages(self) -> list[bytes]:
        """What INBOX holds now, in UID order, as IMAP serves it (CRLF line ends).

        Read-only (EXAMINE, BODY.PEEK): no flags change."""
        client = self.connect()
        try:
            typ, data = client.select("INBOX", readonly=True)
            assert typ == "OK", (typ, data)
            typ, data = client.uid("SEARCH", None, "ALL")
            assert typ == "OK", (typ, data)
            uids = data[0].split()
            if not uids:
                return []
            typ, data = client.uid("FETCH", b",".join(uids).decode(), "(BODY.PEEK[])")
            assert typ == "OK", (typ, data)
            return [part[1] for part in data if isinstance(part, tuple)]
        finally:
            client.logout()

    def clear(self) -> None:
        """Expunge every message in INBOX."""
        client = self.connect()
        try:
            typ, data = client.select("INBOX")
            assert typ == "OK", (typ, data)
            if int(data[0]) > 0:
                client.store("1:*", "+FLAGS.SILENT", r"(\Deleted)")
                client.expunge()
        finally:
            client.logout()

    def log_tail(self, lines: int = 40) -> str:
        return _tail(self.log_file, lines)


def _tail(path: Path | None, lines: int = 40) -> str:
    if path is None or not path.exists():
        return "(no log)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _find_dovecot() -> str | None:
    found = shutil.which("dovecot", path=os.pathsep.join(
        [os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin", "/sbin"]))
    return found


DOVECOT_CONFIG = """\
# Throw-away Dovecot for antike-ref's mail tests: IMAPS on {host}:{port} only.
# Everything it writes stays below {root}.
protocols = imap
listen = {host}
base_dir = {root}/run
state_dir = {root}/state
instance_name = antike-test-{port}
log_path = {root}/dovecot.log
info_log_path = {root}/dovecot.log
debug_log_path = {root}/dovecot.log
version_ignore = yes

default_internal_user = {internal_user}
default_internal_group = {internal_group}
default_login_user = {login_user}
first_valid_uid = 1
first_valid_gid = 1
mail_privileged_group =

ssl = required
ssl_cert = <{cert_file}
ssl_key = <{key_file}
auth_mechanisms = plain login
auth_verbose = yes
# Answer a wrong password after ~0.5 s (Dovecot checks every 500 ms) instead of 2 s.
auth_failure_delay = 0

passdb {{
  driver = passwd-file
  args = scheme=PLAIN {root}/passwd
}}
userdb {{
  driver = passwd-file
  args = {root}/passwd
}}
mail_location = maildir:~/Maildir
mail_fsync = never

service imap-login {{
  chroot =
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    address = {host}
    port = {port}
    ssl = yes
  }}
}}
# No chroots: they need root, and nothing here needs them.
service anvil {{
  chroot =
  # No growing delay for logins from an IP after a failed one (tests fail
  # logins on purpose): an auth process that cannot open this socket skips it.
  unix_listener anvil-auth-penalty {{
    mode = 0
  }}
}}
service ipc {{
  chroot =
}}
service old-stats {{
  chroot =
}}
service imap-urlauth-login {{
  chroot =
}}
service aggregator {{
  chroot =
}}
service director {{
  chroot =
}}
"""


RECEIVING_CONFIG = """\
# LMTP in, and a Sieve script that pipes every mail to a program of the GM's (and keeps it).
protocols = imap lmtp
service lmtp {{
  inet_listener lmtp {{
    address = {host}
    port = {lmtp_port}
  }}
}}
protocol lmtp {{
  mail_plugins = sieve
}}
plugin {{
  sieve_before = {root}/sieve/referee.sieve
  sieve_plugins = sieve_extprograms
  sieve_global_extensions = +vnd.dovecot.pipe
  sieve_pipe_socket_dir = sieve-pipe
  sieve_pipe_exec_timeout = 120s
}}
# The program runs as the GM (the user running the tests), not as the mail user: the
# script service runs it, and only the mail user may reach its socket.
service antike-receive {{
  executable = script {program}
  user = {program_user}
  unix_listener sieve-pipe/antike-receive {{
    user = {mail_user}
    mode = 0600
  }}
}}
"""

SIEVE_SCRIPT = 'require ["vnd.dovecot.pipe", "copy"];\npipe :copy "antike-receive";\n'
"""Every mail to the referee is handed to ``antike-receive`` and kept in INBOX as well
(``:copy``), where ``mail run`` and ``mail watch`` read it too."""


class _Dovecot:
    def __init__(self, binary: str, tls: TlsFiles, receiving: bool = False):
        self.binary = binary
        self.tls = tls
        self.receiving = receiving
        """Also LMTP, with the Sieve pipe to :attr:`program` (:data:`RECEIVING_CONFIG`)."""
        self.root = Path(tempfile.mkdtemp(prefix="antike-dovecot-"))
        # Dovecot's unprivileged helpers (as root: dovenull, nobody) must reach
        # base_dir and the home below this directory.
        self.root.chmod(0o755)
        self.proc: subprocess.Popen | None = None
        self.log = self.root / "dovecot.log"
        self.port = 0
        self.lmtp_port = 0
        self.program = self.root / "antike-receive"
        self.server: ImapServer | None = None

    def _users(self):
        """(internal user, internal group, login user, mail uid, mail gid)."""
        if os.geteuid() == 0:
            try:
                internal = pwd.getpwnam("dovecot")
                pwd.getpwnam("dovenull")
                mail = pwd.getpwnam("nobody")
            except KeyError as exc:
                pytest.fail(f"Dovecot's system users are missing ({exc}); reinstall dovecot-core")
            return ("dovecot", grp.getgrgid(internal.pw_gid).gr_name, "dovenull",
                    mail.pw_uid, mail.pw_gid)
        try:
            me = pwd.getpwuid(os.geteuid()).pw_name
            group = grp.getgrgid(os.getegid()).gr_name
        except KeyError:
            pytest.skip("Dovecot needs the current uid/gid to have names in passwd/group")
        return me, group, me, os.geteuid(), os.getegid()

    def start(self) -> ImapServer:
        internal_user, internal_group, login_user, uid, gid = self._users()
        home = self.root / "home"
        maildir = home / "Maildir"
        for d in (home, maildir, maildir / "cur", maildir / "new", maildir / "tmp"):
            d.mkdir(mode=0o700)
            os.chown(d, uid, gid)
        (self.root / "passwd").write_text(
            f"{IMAP_USER}:{{PLAIN}}{IMAP_PASSWORD}:{uid}:{gid}::{home}::\n"
        )
        if self.receiving:
            self._prepare_receiving(uid, gid)
        errors = []
        for _attempt in range(3):  # another process may take the free port first
            self.port = _free_port()
            self.lmtp_port = _free_port()
            config = self.root / "dovecot.conf"
            text = DOVECOT_CONFIG.format(
                host=HOST, port=self.port, root=self.root,
                internal_user=internal_user, internal_group=internal_group,
                login_user=login_user, cert_file=self.tls.cert_file, key_file=self.tls.key_file,
            )
            if self.receiving:
                text = text.replace("protocols = imap\n", "") + RECEIVING_CONFIG.format(
                    host=HOST, lmtp_port=self.lmtp_port, root=self.root, program=self.program,
                    program_user=pwd.getpwuid(os.geteuid()).pw_name, mail_user=pwd.getpwuid(uid).pw_name)
            config.write_text(text)
            self.log.write_text("")
            self._launch()
            server = ImapServer(
                host=HOST, port=self.port, user=IMAP_USER, password=IMAP_PASSWORD,
                ca_file=self.tls.ca_file, url=f"imaps://{IMAP_USER}@{HOST}:{self.port}/INBOX",
                maildir=maildir, log_file=self.log,
            )
            error = self._wait_ready(server, timeout=15)
            if error is None:
                self.server = server
                return server
            errors.append(error)
            self.stop(remove=False)
            if "Address already in use" not in self._logs():
                break
        message = (
            f"Dovecot did not start ({errors[-1]}).\n--- its output and {self.log} (tail) ---\n"
            f"{self._logs()}\n--- config ---\n{(self.root / 'dovecot.conf').read_text()}"
        )
        self.stop()
        pytest.fail(message, pytrace=False)

    def _launch(self) -> None:
        stderr = open(self.root / "stderr.log", "ab")
        self.proc = subprocess.Popen(
            [self.binary, "-F", "-c", str(self.root / "dovecot.conf")],
            stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr,
            start_new_session=True,  # own process group: stop() kills the whole tree
        )
        stderr.close()

    def _prepare_receiving(self, uid: int, gid: int) -> None:
        """The Sieve script (in a folder the mail user may write its compiled form into),
        the pipe's socket folder, and the program, a shell script the tests write."""
        sieve = self.root / "sieve"
        sieve.mkdir(mode=0o755)
        (sieve / "referee.sieve").write_text(SIEVE_SCRIPT)
        for path in (sieve, sieve / "referee.sieve"):
            os.chown(path, uid, gid)
        (self.root / "run" / "sieve-pipe").mkdir(parents=True)
        (self.root / "run").chmod(0o755)
        self.program = self.root / "antike-receive"
        self.program.write_text("#!/bin/sh\ncat > /dev/null\nexit 75\n")
        self.program.chmod(0o700)

    def restart(self) -> None:
        """Stop the server (its connections end) and start it again on the same ports,
        with the same mail."""
        self.stop(remove=False)
        self._launch()
        error = self._wait_ready(self.server, timeout=15)
        if error is not None:
            pytest.fail(f"Dovecot did not start again ({error}).\n{self._logs()}", pytrace=False)

    def _logs(self) -> str:
        return _tail(self.root / "stderr.log", 20) + "\n" + _tail(self.log, 40)

    def _wait_ready(self, server: ImapServer, timeout: float) -> str | None:
        deadline = time.monotonic() + timeout
        last = "no attempt"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return f"dovecot exited with status {self.proc.returncode}"
            try:
                client = imaplib.IMAP4_SSL(
                    server.host, server.port, ssl_context=server.tls_context(), timeout=2)
                try:
                    client.login(server.user, server.password)
                    client.logout()
                    return None
                except Exception:
                    client.shutdown()
                    raise
            except (OSError, imaplib.IMAP4.error) as exc:
                last = f"{type(exc).__name__}: {exc}"
            time.sleep(0.05)
        return f"no TLS login within {timeout}s; last error: {last}"

    def stop(self, remove: bool = True) -> None:
        """End the whole process tree and remove the temporary directory.

        The master and its helpers share one process group (start_new_session):
        SIGTERM to all of them at once ends them in milliseconds (the master alone
        takes about a second to shut its helpers down); whatever is left after a
        second gets SIGKILL. Nothing of this throw-away server needs keeping."""
        proc, self.proc = self.proc, None
        if proc is not None:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                try:
                    proc.wait(1)
                except subprocess.TimeoutExpired:
                    continue
                if sig == signal.SIGTERM:
                    try:  # helpers that outlived the master
                        os.killpg(proc.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
                break
            proc.wait()
        if remove:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def _imap_session(mail_tls):
    binary = _find_dovecot()
    if binary is None:
        _unavailable("Dovecot (Debian package dovecot-imapd)", "run `make system-packages`")
    if not any(Path(d, "imap").exists() for d in ("/usr/lib/dovecot", "/usr/libexec/dovecot")):
        _unavailable("Dovecot's IMAP server (Debian package dovecot-imapd)",
                     "run `make system-packages`")
    dovecot = _Dovecot(binary, mail_tls)
    try:
        server = dovecot.start()
        yield server
    finally:
        dovecot.stop()


@pytest.fixture
def imap_server(_imap_session) -> ImapServer:
    """Dovecot IMAPS with one user; INBOX emptied for each test."""
    _imap_session.clear()
    return _imap_session


@dataclass
class ReceivingServer:
    """A private Dovecot that takes mail by LMTP (as a GM's mail server hands it on) and
    pipes each to a program through Sieve (:data:`SIEVE_SCRIPT`), keeping it in INBOX too;
    :attr:`imap` reads that INBOX."""

    imap: ImapServer
    lmtp_port: int
    program: Path
    dovecot: Any = field(repr=False)

    def set_program(self, text: str) -> None:
        """The shell script the Sieve pipe runs (as the user running the tests)."""
        self.program.write_text(text)

    def deliver(self, raw: bytes, sender: str) -> None:
        """Hand one mail to Dovecot by LMTP, for the referee: Sieve pipes it and keeps it."""
        import smtplib

        with smtplib.LMTP(HOST, self.lmtp_port, timeout=180) as lmtp:
            refused = lmtp.sendmail(sender, [IMAP_USER], raw)
        assert not refused, refused

    def restart(self) -> None:
        self.dovecot.restart()

    def log_tail(self, lines: int = 40) -> str:
        return self.imap.log_tail(lines)


@pytest.fixture(scope="session")
def _receiving_session(mail_tls):
    binary = _find_dovecot()
    if binary is None:
        _unavailable("Dovecot (Debian package dovecot-imapd)", "run `make system-packages`")
    needs = {"lmtp": "dovecot-lmtpd", "modules/sieve/lib90_sieve_extprograms_plugin.so": "dovecot-sieve",
             "script": "dovecot-core"}
    for path, package in needs.items():
        if not any(Path(d, path).exists() for d in ("/usr/lib/dovecot", "/usr/libexec/dovecot")):
            _unavailable(f"Dovecot's {path} (Debian package {package})", "run `make system-packages`")
    dovecot = _Dovecot(binary, mail_tls, receiving=True)
    try:
        server = dovecot.start()
        yield ReceivingServer(server, dovecot.lmtp_port, dovecot.program, dovecot)
    finally:
        dovecot.stop()


@pytest.fixture
def receiving_server(_receiving_session) -> ReceivingServer:
    """Dovecot taking mail by LMTP and piping it through Sieve to a program the test sets
    (by default one that answers 75), and IMAPS on its INBOX, emptied for each test."""
    _receiving_session.imap.clear()
    _receiving_session.set_program("#!/bin/sh\ncat > /dev/null\nexit 75\n")
    return _receiving_session


# --------------------------------------------------------------------------- outside pytest


def start_servers(folder: Path, receiving: bool = False):
    """The SMTP sink (STARTTLS and AUTH, as ``smtp_server``) and a private Dovecot (as
    ``imap_server``, or ``receiving_server`` if ``receiving``), for a benchmark run outside
    pytest; returns ``(smtp, dovecot, imap, stop)``, ``stop()`` ending both."""
    tls = _make_certs(folder)
    smtp, controller = _start_smtp("starttls", tls)
    binary = _find_dovecot()
    if binary is None:
        controller.stop()
        raise RuntimeError("Dovecot is missing: run `make system-packages`")
    dovecot = _Dovecot(binary, tls, receiving=receiving)
    imap = dovecot.start()

    def stop() -> None:
        dovecot.stop()
        controller.stop()

    return smtp, dovecot, imap, stop
