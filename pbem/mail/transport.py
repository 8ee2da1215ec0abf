"""Delivering mail: a spool folder per game, emptied by SMTP or into an outbox folder.

A mail is first written whole into the game's spool (``GAME.mail-queue/``, files readable
by their owner only), and only then sent; it is removed from the spool once the server
has accepted it (or once it is in the outbox). A run that dies in between sends what is
left the next time, so no mail is lost. The one case of a mail sent twice is a crash in
the instant between the server's acceptance and the removal; the copy has the same
Message-ID as the first, which mail programs show once.

The SMTP and TLS modules (and the game store) are imported when a mail is written or goes
out: making a transport and asking where it sends (an idle ``mail run`` does) costs nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import CannotWrite, MailServerError
from pbem.mail.config import Smtp

if TYPE_CHECKING:
    import smtplib
    from email.message import EmailMessage


HEADER_LINE = 998
"""The longest line a header may have (RFC 5322): a header shorter than that is written
on one line, never folded (a subject of 75 characters folded after ``Subject:`` shows as
an empty subject in some mail programs and tools)."""


def spool(folder: Path, name: str, message: EmailMessage) -> Path:
    """Write ``message`` into the spool as ``name.eml`` (atomically, mode 600, never
    through a symbolic link: :func:`pbem.service.store.write_in`), its headers unfolded
    (:data:`HEADER_LINE`)."""
    from email.policy import SMTP as SMTP_POLICY

    from pbem.service import store

    data = message.as_bytes(policy=SMTP_POLICY.clone(max_line_length=HEADER_LINE))
    return store.write_in(store.owned_folder(folder), f"{name}.eml", data)


def spooled(folder: Path) -> frozenset[str]:
    """The names of the mails in the spool now (to tell later which were spooled since)."""
    try:
        return frozenset(name for name in os.listdir(folder) if name.endswith(".eml") and not name.startswith("."))
    except OSError:
        return frozenset()


def unspool(folder: Path, kept: frozenset[str]) -> int:
    """Take out of the spool every mail not in ``kept`` (:func:`spooled` before a step that
    could not be completed: its mails must not go out, or go out again each run); how many."""
    removed = 0
    for name in spooled(folder) - kept:
        try:
            os.unlink(folder / name)
            removed += 1
        except OSError:
            continue
    return removed


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


BACK_OFF = (timedelta(minutes=10), timedelta(hours=1), timedelta(hours=6), timedelta(hours=24))
"""How long a mail the server refused waits before each next try; after the last one it is
given up (about a day and a half in all)."""
UNDELIVERABLE = "undeliverable"
"""Where given-up mails are kept, inside the game's queue folder (the GM may send them by hand)."""


@dataclass
class Delivery:
    """What one delivery of a queue did."""

    sent: list[Path] = field(default_factory=list)
    waiting: list[Path] = field(default_factory=list)
    """Mails refused before and not due for their next try yet."""
    refused: list[tuple[str, str, int]] = field(default_factory=list)
    """Mails the server refused this time: name, the server's answer, how many times so far."""
    given_up: list[tuple[str, str, int]] = field(default_factory=list)
    """Mails refused once too often: moved to ``undeliverable/``; the GM is to be told."""


class MessageRefused(Exception):
    """The server refused one mail (and will take others): its answer."""


def _tries_path(path: Path) -> Path:
    return path.with_name(path.name + ".tries")


def _tries(path: Path) -> dict:
    """How often ``path`` was refused, and when to try it next (``{}``: never refused)."""
    from pbem.service import store

    raw = store.read_in(_tries_path(path), 4096)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _time(text: str) -> datetime:
    try:
        return datetime.strptime(str(text), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        return datetime.min.replace(tzinfo=timezone.utc)


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
        self.dropped = 0
        """Mails on which the server dropped a new connection in this run: the first is that
        mail's refusal; a second stops the delivery (the server, not a mail, is unwell)."""

    def describe(self) -> str:
        if self.outbox is not None:
            return f"outbox {self.outbox}" + (", dry run" if self.rehearsal else "")
        if self.smtp is not None:
            return f"SMTP {self.smtp.host}:{self.smtp.port}"
        return "nowhere"

    def deliver(self, folder: Path, now: datetime | None = None) -> Delivery:
        """Send every spooled mail of ``folder`` that is due; return what became of them.

        A mail the server refuses on its own (too large, a recipient it will not take: the
        server answered, the others may still go) does not hold up the queue: it is tried
        again later, after :data:`BACK_OFF`, and after the last of those it is given up
        (moved to ``undeliverable/`` beside the queue) and named in the result, for the GM
        to be told; so does the first mail in a run on which the server drops the
        connection (a new one is made for the next mail). A server that cannot be reached,
        refuses the login, or drops a second mail, stops the delivery
        (:class:`MailServerError`): everything stays queued for the next run."""
        from pbem.service import store

        result = Delivery()
        clear_leftovers(folder)
        for path in waiting(folder):
            tries = _tries(path)
            if now is not None and tries.get("next") and _time(tries["next"]) > now:
                result.waiting.append(path)
                continue
            data = store.read_in(path)
            if data is None:  # replaced by a link or a pipe since it was listed: not ours
                continue
            try:
                self._send(path, data)
            except MessageRefused as exc:
                count = int(tries.get("count", 0)) + 1
                if count > len(BACK_OFF):
                    store.write_in(store.owned_folder(folder / UNDELIVERABLE), path.name, data)
                    path.unlink()
                    _tries_path(path).unlink(missing_ok=True)
                    result.given_up.append((path.name, str(exc), count))
                else:
                    due = (now or datetime.now(timezone.utc)) + BACK_OFF[count - 1]
                    state = {"count": count, "next": due.strftime("%Y-%m-%dT%H:%M:%SZ"), "error": str(exc)[:300]}
                    store.write_in(folder, _tries_path(path).name, json.dumps(state, sort_keys=True).encode())
                    result.refused.append((path.name, str(exc), count))
                continue
            path.unlink()
            _tries_path(path).unlink(missing_ok=True)
            result.sent.append(path)
            self.sent += 1
        return result

    def _send(self, path: Path, data: bytes) -> None:
        from pbem.service import store

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
        import smtplib
        from email.policy import default
        from email.utils import getaddresses

        msg = email.message_from_bytes(data, policy=default)
        to = [a for _, a in getaddresses([str(msg.get("To", "")), str(msg.get("Cc", ""))]) if a]
        sender = [a for _, a in getaddresses([str(msg.get("From", self.sender))]) if a]
        kept = self._conn is not None
        try:
            # recipients refused while others were taken come back as a dict: the mail went to those taken
            self._connection().sendmail(sender[0] if sender else "", to, data)
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
            self._reset()
            raise MessageRefused(_answer(exc)) from None
        except (OSError, smtplib.SMTPException) as exc:
            # the server answered the connection and then dropped it (or stopped answering) on this
            # mail: a session kept from the mail before may just have timed out, so the mail is tried
            # once more on a new one; dropped there too, it counts as a refusal of this mail (its
            # tries, then undeliverable/), and the queue goes on with a new connection
            self.close()
            if kept:
                return self._send(path, data)
            what = f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
            self.dropped += 1
            if self.dropped > 1:  # a second mail dropped: the server is unwell, not the mail
                raise MailServerError(f"SMTP {self.smtp.host}:{self.smtp.port}: the connection was dropped again, "
                                      f"on {path.name} ({what}); it and the rest stay queued for the next run") from None
            raise MessageRefused(f"the connection was dropped while the server took this mail ({what})") from None

    def _connection(self) -> smtplib.SMTP:
        import smtplib

        from pbem.mail.config import tls_context

        if self._conn is not None:
            return self._conn
        s = self.smtp
        assert s is not None
        context = tls_context(s.ca_file, "smtp")
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

    def _reset(self) -> None:
        """After a refused mail: the session goes on with the next one (``RSET``)."""
        if self._conn is not None:
            import smtplib

            try:
                self._conn.rset()
            except (OSError, smtplib.SMTPException):
                self.close()

    def close(self) -> None:
        if self._conn is not None:
            import smtplib

            try:
                self._conn.quit()
            except (OSError, smtplib.SMTPException):
                pass
            self._conn = None


def _answer(exc: smtplib.SMTPException) -> str:
    """A refusal as the server gave it: code and text (the first recipient's, for a
    refusal of recipients)."""
    import smtplib

    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        code, text = next(iter(exc.recipients.values()), (0, b""))
    else:
        code, text = getattr(exc, "smtp_code", 0), getattr(exc, "smtp_error", b"")
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text)
    return f"{code} {' '.join(text.split())}"[:300]
