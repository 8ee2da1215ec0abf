"""Delivering mail: a spool folder per game, emptied by SMTP or into an outbox folder.

A mail is first written whole into the game's spool (``GAME.mail-queue/``, files readable
by their owner only), and only then sent; it is removed from the spool once the server
has accepted it (or once it is in the outbox). A run that dies in between sends what is
left the next time, so no mail is lost. The one case of a mail sent twice is a crash in
the instant between the server's acceptance and the removal; the copy has the same
Message-ID as the first, which mail programs show once.
"""

from __future__ import annotations

import smtplib
import ssl
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY
from email.utils import getaddresses
from pathlib import Path

from pbem.errors import CannotWrite
from pbem.mail.config import Smtp
from pbem.mail.inbox import MailServerError
from pbem.service import store


def spool(folder: Path, name: str, message: EmailMessage) -> Path:
    """Write ``message`` into the spool as ``name.eml`` (atomically, mode 600, never
    through a symbolic link: :func:`pbem.service.store.write_in`)."""
    return store.write_in(store.owned_folder(folder), f"{name}.eml", message.as_bytes(policy=SMTP_POLICY))


def waiting(folder: Path) -> list[Path]:
    """The spooled mails, oldest first (names begin with the history entry's number);
    only regular files: a link or anything else planted in the spool is left alone."""
    if not folder.is_dir() or folder.is_symlink():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix == ".eml" and not p.name.startswith(".")
                  and not p.is_symlink() and p.is_file())


def clear_leftovers(folder: Path) -> list[str]:
    """Remove the temporary files a killed run left in the spool (``.NAME.XXXXXXXX.tmp``);
    call it only under the game's mail lock, when no other run writes there."""
    removed = []
    if folder.is_dir() and not folder.is_symlink():
        for p in folder.iterdir():
            if p.name.startswith(".") and p.name.endswith(".tmp") and not p.is_symlink() and p.is_file():
                p.unlink()
                removed.append(p.name)
    return removed


class Transport:
    """Where spooled mail goes: an SMTP server, or (``--outbox``) a folder of ``.eml`` files."""

    def __init__(self, smtp: Smtp | None = None, outbox: Path | None = None, sender: str = "",
                 rehearsal: bool = False):
        self.smtp = smtp
        self.outbox = outbox
        self.sender = sender
        self.rehearsal = rehearsal
        """A dry run (:mod:`pbem.mail.rehearsal`): the outbox shows what would be sent."""
        self._conn: smtplib.SMTP | None = None
        self.sent = 0

    def describe(self) -> str:
        if self.outbox is not None:
            return f"outbox {self.outbox}" + (", dry run" if self.rehearsal else "")
        if self.smtp is not None:
            return f"SMTP {self.smtp.host}:{self.smtp.port}"
        return "nowhere"

    def deliver(self, folder: Path) -> list[Path]:
        """Send every spooled mail of ``folder``; return the files sent (now removed)."""
        done = []
        clear_leftovers(folder)
        for path in waiting(folder):
            data = store.read_in(path)
            if data is None:  # replaced by a link or a pipe since it was listed: not ours
                continue
            self._send(path, data)
            path.unlink()
            done.append(path)
            self.sent += 1
        return done

    def _send(self, path: Path, data: bytes) -> None:
        if self.outbox is not None:
            try:
                self.outbox.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CannotWrite(str(self.outbox), f"cannot make the outbox: {exc.strerror or exc}") from None
            store.write_in(self.outbox, path.name, data)
            return
        if self.smtp is None:
            raise MailServerError("no way to send mail: give --outbox DIR, or a configuration with [smtp]")
        import email
        from email.policy import default

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
            try:
                self._conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self._conn = None

