"""Delivering mail: a spool folder per game, emptied by SMTP or into an outbox folder.

A mail is first written whole into the game's spool (``GAME.mail-queue/``, files readable
by their owner only), and only then sent; it is removed from the spool once the server
has accepted it (or once it is in the outbox). A run that dies in between sends what is
left the next time, so no mail is lost. The one case of a mail sent twice is a crash in
the instant between the server's acceptance and the removal; the copy has the same
Message-ID as the first, which mail programs show once.

The SMTP and TLS modules are imported when a mail goes out by SMTP: making a transport and
asking where it sends (an idle ``mail run`` does) costs nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import MailServerError
from pbem.mail.config import Smtp

if TYPE_CHECKING:
    import smtplib
    from email.message import EmailMessage


def spool(folder: Path, name: str, message: EmailMessage) -> Path:
    """Write ``message`` into the spool as ``name.eml`` (atomically, mode 600)."""
    from email.policy import SMTP as SMTP_POLICY

    from pbem.service import store

    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / f"{name}.eml"
    store.write_atomic(path, message.as_bytes(policy=SMTP_POLICY).decode("utf-8", "surrogateescape"), mode=0o600)
    return path


def waiting(folder: Path) -> list[Path]:
    """The spooled mails, oldest first (names begin with the history entry's number)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == ".eml" and not p.name.startswith("."))


class Transport:
    """Where spooled mail goes: an SMTP server, or (``--outbox``) a folder of ``.eml`` files."""

    def __init__(self, smtp: Smtp | None = None, outbox: Path | None = None, sender: str = ""):
        self.smtp = smtp
        self.outbox = outbox
        self.sender = sender
        self._conn: smtplib.SMTP | None = None
        self.sent = 0

    def describe(self) -> str:
        if self.outbox is not None:
            return f"outbox {self.outbox}"
        if self.smtp is not None:
            return f"SMTP {self.smtp.host}:{self.smtp.port}"
        return "nowhere"

    def deliver(self, folder: Path) -> list[Path]:
        """Send every spooled mail of ``folder``; return the files sent (now removed)."""
        done = []
        for path in waiting(folder):
            self._send(path)
            path.unlink()
            done.append(path)
            self.sent += 1
        return done

    def _send(self, path: Path) -> None:
        from pbem.service import store

        data = path.read_bytes()
        if self.outbox is not None:
            self.outbox.mkdir(parents=True, exist_ok=True)
            store.write_atomic(self.outbox / path.name, data.decode("utf-8", "surrogateescape"))
            return
        if self.smtp is None:
            raise MailServerError("no way to send mail: give --outbox DIR, or a configuration with [smtp]")
        import email
        import smtplib
        from email.policy import default
        from email.utils import getaddresses

        msg = email.message_from_bytes(data, policy=default)
        to = [a for _, a in getaddresses([str(msg.get("To", "")), str(msg.get("Cc", ""))]) if a]
        sender = [a for _, a in getaddresses([str(msg.get("From", self.sender))]) if a]
        try:
            self._connection().sendmail(sender[0] if sender else "", to, data)
        except (OSError, smtplib.SMTPException) as exc:
            self.close()
            raise MailServerError(f"SMTP {self.smtp.host}:{self.smtp.port}: sending {path.name} failed: {exc}; "
                                  "it stays queued and is sent on the next run") from None

    def _connection(self) -> smtplib.SMTP:
        import smtplib
        import ssl

        if self._conn is not None:
            return self._conn
        s = self.smtp
        assert s is not None
        context = ssl.create_default_context(cafile=s.ca_file)
        try:
            if s.security == "ssl":
                conn: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
            else:
                conn = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
                if s.security == "starttls":
                    conn.starttls(context=context)
            if s.user:
                conn.login(s.user, s.password.read(f"SMTP {s.host}"))
        except (OSError, smtplib.SMTPException) as exc:
            raise MailServerError(f"SMTP {s.host}:{s.port}: {exc}") from None
        self._conn = conn
        return conn

    def close(self) -> None:
        if self._conn is not None:
            import smtplib

            try:
                self._conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self._conn = None

