"""What ``mail watch`` listens to, each in a thread of its own that only tells the watch's
loop that something arrived (:class:`Events`); the loop runs the cycle (:mod:`pbem.mail.watch`).

- an IMAP mailbox (:class:`ImapListener`): one connection that stays logged in with the
  mailbox open read-only (EXAMINE) and waits in IMAP IDLE (RFC 2177), through the
  IMAPClient library; the server says ``EXISTS`` the moment a mail arrives. IDLE is
  begun anew every :data:`REFRESH` seconds (servers end an IDLE after 30 minutes), and a
  connection that drops (a server restarted, a network gone) is opened again after 1, 2,
  4 ... up to :data:`MOST_BACK_OFF` seconds; once it is open again, the loop runs a cycle
  for what came in meanwhile. A server without IDLE is asked with NOOP every
  :data:`POLL_NOOP` seconds;
- a local mailbox, or the folder ``mail receive`` keeps mails in (:class:`LocalListener`):
  its watermark (:func:`pbem.mail.watermarks.local_state`: a few ``stat`` calls) is looked
  at every half second.

Nothing here reads a mail or touches a game: the cycle reads the mailbox with its own
connection, read-only, as ``mail run`` does.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from pbem.errors import PbemError, clip
from pbem.mail.config import Imap
from pbem.mail.watermarks import local_state

REFRESH = 600.0
"""Seconds after which an IDLE is ended and begun anew (RFC 2177: at most 29 minutes)."""
FIRST_BACK_OFF = 1.0
MOST_BACK_OFF = 60.0
"""The wait before a dropped connection is opened again: doubled after each failure, up to this."""
POLL_NOOP = 30.0
SLICE = 1.0
"""How long one wait for the server lasts before the listener looks whether it is to stop."""
LOOK_EVERY = 0.5
"""How often a local mailbox's watermark is looked at (seconds)."""

Log = Callable[[str], None]


class Events:
    """What the listeners tell the watch's loop: ``(kind, source)`` with kind ``mail`` (a
    mail arrived), ``ready`` (a connection is open again: mail may have come meanwhile) or
    ``stop``. :meth:`put` may be called from a signal handler (a ``SimpleQueue``)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()

    def put(self, kind: str, source: str) -> None:
        self._queue.put((kind, source))

    def get(self, timeout: float) -> tuple[str, str] | None:
        """The next event, waiting at most ``timeout`` seconds (``None``: none came)."""
        try:
            return self._queue.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None

    def drain(self) -> list[tuple[str, str]]:
        """Every event waiting now (taken together: one cycle answers them all)."""
        found = []
        while True:
            try:
                found.append(self._queue.get_nowait())
            except queue.Empty:
                return found


class Dropped(Exception):
    """The server ended the connection (``BYE``) or it is gone."""


class ImapListener:
    """Waits in IMAP IDLE on one mailbox, in a thread of its own (:attr:`thread`); tells
    ``events`` of each mail that arrives."""

    def __init__(self, url: str, settings: Imap, events: Events, stop: threading.Event, log: Log, warn: Log,
                 monotonic: Callable[[], float] = time.monotonic):
        import imapclient  # noqa: F401 -- missing, the watch says so at once, not in a thread

        from pbem.mail.inbox import ImapSource

        self.source = ImapSource(url, settings)  # the URL read (and refused) as the cycle reads it
        self.events = events
        self.halt = stop
        self.say = log
        self.complain = warn
        self.monotonic = monotonic
        self.delay = FIRST_BACK_OFF
        self.thread = threading.Thread(target=self.run, name=f"imap-idle {self.source.name}", daemon=True)

    def run(self) -> None:
        name = self.source.name
        while not self.halt.is_set():
            client = None
            try:
                client = self._connect()
                self.say(f"watching {name} ({'IMAP IDLE' if client.has_capability('IDLE') else 'NOOP every 30 s'})")
                self.delay = FIRST_BACK_OFF
                self.events.put("ready", name)
                self._wait(client)
            except Exception as exc:  # a dropped connection, a server down, a bug: told, and tried again
                if self.halt.is_set():
                    break
                self.complain(f"{name}: {describe(exc)}; watching it again in {self.delay:g} s")
                self.halt.wait(self.delay)
                self.delay = min(self.delay * 2, MOST_BACK_OFF)
            finally:
                _close(client)

    def _connect(self) -> Any:
        import ssl

        from imapclient import IMAPClient

        source = self.source
        context = ssl.create_default_context(cafile=source.settings.ca_file)
        password = source.settings.password.read(f"IMAP {source.name}")
        client = IMAPClient(source.host, source.port, ssl=source.scheme == "imaps", ssl_context=context,
                            timeout=source.settings.timeout)
        try:
            if source.scheme == "imap":
                client.starttls(context)
            client.login(source.user, password)
            client.select_folder(source.mailbox, readonly=True)
        except BaseException:
            _close(client)
            raise
        return client

    def _wait(self, client: Any) -> None:
        """Wait for mail until told to stop; raises when the connection drops."""
        if not client.has_capability("IDLE"):
            while not self.halt.wait(POLL_NOOP):
                self._tell(client.noop()[1])
            return
        client.idle()
        began = self.monotonic()
        while not self.halt.is_set():
            asked = self.monotonic()
            got = client.idle_check(timeout=SLICE)
            self._tell(got)
            now = self.monotonic()
            # an answer of nothing before the time is up is a connection that ended: DONE finds out
            if (not got and now - asked < SLICE / 2) or now - began >= REFRESH:
                self._tell(client.idle_done()[1])
                client.idle()
                began = self.monotonic()
        client.idle_done()
        client.logout()

    def _tell(self, responses: list[Any]) -> None:
        for response in responses:
            if len(response) >= 2 and response[0] == b"BYE":
                raise Dropped(f"the server ended the connection: {clip(_text(response[1]), 120)}")
            if len(response) >= 2 and response[1] in (b"EXISTS", b"RECENT"):
                self.events.put("mail", self.source.name)


def describe(exc: BaseException) -> str:
    if isinstance(exc, (PbemError, Dropped)):
        return str(exc)
    return f"{type(exc).__name__}: {clip(str(exc), 200)}" if str(exc) else type(exc).__name__


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _close(client: Any) -> None:
    if client is None:
        return
    try:
        client.shutdown()
    except Exception:  # gone already
        pass


class LocalListener:
    """Looks at a local mailbox's watermark (a Maildir's folders, an mbox's file) every
    :data:`LOOK_EVERY` seconds, in a thread of its own (:attr:`thread`); tells ``events``
    when it changed."""

    def __init__(self, spec: str, events: Events, stop: threading.Event, every: float = LOOK_EVERY):
        self.spec = spec
        self.events = events
        self.halt = stop
        self.every = every
        self.thread = threading.Thread(target=self.run, name=f"local {spec}", daemon=True)

    def run(self) -> None:
        last = local_state(self.spec)
        while not self.halt.wait(self.every):
            state = local_state(self.spec)
            if state != last:
                self.events.put("mail", self.spec)
                last = state
