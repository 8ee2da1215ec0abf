"""``mail watch``: the mail cycle as a service that answers each mail as it arrives and
keeps every deadline on time.

The loop (:class:`Watch`) runs one round of the cycle (:func:`pbem.mail.rounds.one_round`,
what ``mail run`` does: the mails ``mail receive`` kept, the mail sources, the clocks, the
idle games left alone by their watermarks) at the start and then whenever

- a listener (:mod:`pbem.mail.listen`) says a mail arrived: IMAP IDLE on each IMAP
  mailbox the games read, a look every half second at a local mailbox and at the folder
  ``mail receive`` keeps mails in; or a connection that had dropped is open again;
- the next moment a game's clock needs the cycle has come: the earliest ``next`` of the
  games' watermarks, which the cycle writes from :func:`pbem.service.clock.next_step`
  (a reminder, a deadline, the day an absence begins or ends); a game without a mark (its
  last cycle failed, or another run had it) is tried again after :data:`RETRY` seconds,
  and every game at least every :data:`RESCAN` seconds, as cron would.

Between rounds no game is locked and nothing is loaded: ``mail run`` from cron and ``mail
receive`` may run beside it on the same configuration; each mail is read once, by
Message-ID. :meth:`Watch.request_stop` (the command line calls it on SIGTERM or SIGINT)
ends the loop after the round under way, whose mails are finished and delivered.

The time is the command line's (``now``: the clock, or ``--now`` running on from there);
nothing here reads a clock of its own but a monotonic one for the listeners.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from pbem.errors import PbemError
from pbem.mail.config import GameMail, MailConfig
from pbem.mail.listen import SLICE, Events, ImapListener, LocalListener
from pbem.mail.rounds import Round, one_round
from pbem.mail.runs import bug
from pbem.mail.transport import Transport
from pbem.mail.watermarks import effective_source, is_imap, next_due, source_key

RETRY = 60.0
"""Seconds after which a game whose clock cannot be told from its watermark is run again."""
RESCAN = 300.0
"""Every game is run at least this often (seconds), whatever the listeners say."""

Log = Callable[[str], None]


@dataclass(frozen=True)
class Until:
    """When a watch ends by itself (for tests and scripts): after ``mails`` mails were read,
    or once its clock reaches ``at``; never, by default."""

    mails: int | None = None
    at: datetime | None = None


@dataclass(frozen=True)
class Clocks:
    """The watch's time, handed in by the command line: ``now`` (the moment, as a cycle
    is given it) and ``wall`` (the wall clock in nanoseconds, for the watermarks)."""

    now: Callable[[], datetime]
    wall: Callable[[], int]


class Watch:
    """The watch over ``games`` (every game of ``config``: the kept mails may be for any);
    ``transport`` makes the way mail goes out, anew for each round."""

    def __init__(self, config: MailConfig, games: list[GameMail], clocks: Clocks, transport: Callable[[], Transport],
                 log: Log, warn: Log, until: Until = Until()):
        self.config = config
        self.games = games
        self.clocks = clocks
        self.transport = transport
        self.log = log
        self.warn = warn
        self.until = until
        self.events = Events()
        self.halt = threading.Event()
        self.stopping: str | None = None
        """Why the watch is to end (a signal's name), once it is."""
        self.read = 0
        self.worst = 0
        """The highest exit code a round met."""
        self.rounds = 0
        self.listeners = self._listeners()

    def _listeners(self) -> list[ImapListener | LocalListener]:
        specs: dict[str | None, str] = {}
        for settings in self.games:
            spec = effective_source(self.config, settings, None)
            if spec is not None:
                specs.setdefault(source_key(spec), spec)
        for relay in self.config.relays:
            spec = relay.source or self.config.source
            if spec is not None:
                specs.setdefault(source_key(spec), spec)
        if self.config.incoming is not None:
            specs.setdefault(source_key(self.config.incoming), self.config.incoming)
        found: list[ImapListener | LocalListener] = []
        for spec in specs.values():
            if is_imap(spec):
                found.append(ImapListener(spec, self.config.imap, self.events, self.halt, self.log, self.warn))
            else:
                found.append(LocalListener(spec, self.events, self.halt))
        return found

    def request_stop(self, why: str) -> None:
        """End the watch after the round under way (safe from a signal handler)."""
        self.stopping = self.stopping or why
        self.events.put("stop", why)

    def run(self) -> int:
        """Watch until told to stop (or :attr:`until`); the exit code: 0 when stopped, else
        the highest a round met."""
        for listener in self.listeners:
            listener.thread.start()
        try:
            self._round()
            while not self._done():
                self.events.get(self._delay())
                if self.stopping:
                    break
                self.events.drain()
                self._round()
        finally:
            self.halt.set()
            for listener in self.listeners:
                listener.thread.join(2 * SLICE)
        self.log(f"mail watch: stopped ({self.stopping or 'done'}) after {self.rounds} round(s), {self.read} mail(s) "
                 "read")
        return 0 if self.stopping else self.worst

    def _done(self) -> bool:
        if self.stopping:
            return True
        if self.until.mails is not None and self.read >= self.until.mails:
            return True
        return self.until.at is not None and self.clocks.now() >= self.until.at

    def _delay(self) -> float:
        """Seconds until the next round is due by the clock (a deadline, a retry, the
        rescan, :attr:`until`), if no mail comes first."""
        now = self.clocks.now()
        due, unknown = next_due(self.games)
        moments = [now + timedelta(seconds=RESCAN)]
        if due is not None:
            moments.append(due)
        if unknown:
            moments.append(now + timedelta(seconds=RETRY))
        if self.until.at is not None:
            moments.append(self.until.at)
        seconds = (min(moments) - now).total_seconds()
        return 1.0 if seconds <= 0 else seconds + 0.01

    def _round(self) -> None:
        """One round of the cycle at the watch's time; a failure of it is told, and the
        watch goes on."""
        self.rounds += 1
        moment = self.clocks.now().replace(microsecond=0)
        transport = self.transport()  # a new one each round: what one delivery counts is its own
        try:
            result = one_round(self.config, self.games, moment, transport, self.log, self.warn, self.clocks.wall)
        except PbemError as exc:
            self.warn(f"mail watch: {exc}")
            self.worst = max(self.worst, int(exc.exit_code))
            return
        except Exception as exc:  # a bug must not end the watch: the next round tries again
            self.warn(str(bug("mail watch", exc)))
            self.worst = max(self.worst, 1)
            return
        self.read += result.count("read")
        for failure in result.failures:
            self.worst = max(self.worst, int(getattr(failure, "exit_code", 1)))
        if result.summary is not None:
            self.log(line(result, transport))


def line(result: Round, transport: Transport) -> str:
    """What a round did, in the words of ``mail run``."""
    relayed = result.count("relayed")
    return (f"applied {result.count('applied')}, rejected {result.count('rejected')}, queued "
            f"{result.count('queued')}, delivered {result.count('sent')} ({transport.describe()})"
            + (f", relayed {relayed}" if relayed else "")
            + f", {result.idle} game{'' if result.idle == 1 else 's'} idle")
