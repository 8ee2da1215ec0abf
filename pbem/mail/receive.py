"""``mail receive``: one mail on standard input, as a mail server's pipe delivery hands it
over (Postfix ``pipe``, procmail, a Sieve ``pipe``, Dovecot's LDA), answered at once.

1. The mail is read (memory bounded by the configuration's ``max_message``:
   :func:`pbem.mail.arrivals.read_mail`) and kept in the arrivals folder, synced to disk
   (:func:`pbem.mail.arrivals.keep`). Until it is kept, nothing has happened: should that
   fail, the answer is :data:`TEMPFAIL`, and the mail server keeps the mail and tries again.
2. Every game of the configuration reads the folder together, as ``mail run`` reads a
   mailbox (:meth:`pbem.mail.cycle.Cycle.arrivals`): the same guards, mail locks, ledgers,
   history and watermarks. The answers are delivered before the command ends.
3. A game another run holds (its mail lock), or one whose files cannot be written now,
   has not read the mail: the games are tried again for up to ``wait`` seconds; after
   that the mail stays in the folder for the next ``mail run``, ``mail watch`` or
   ``mail receive``, and the answer is :data:`TEMPFAIL`, so that the mail server tries
   again too (either way it is read once: by Message-ID).

The mail server hears only two answers: :data:`TAKEN` (0) once the mail is kept, whatever
became of it (applied, refused and answered, not for us, or waiting for a game whose file
is damaged: the GM's to mend, which no retry of the server's would change), and
:data:`TEMPFAIL` (75, ``EX_TEMPFAIL`` of ``sysexits.h``) when it could not be kept, the
configuration could not be read, or a game could not read it now. Never a code that would
make the server bounce a player's mail for an error of ours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

from pbem.errors import PbemError
from pbem.mail import arrivals, rounds
from pbem.mail.config import MailConfig
from pbem.mail.runs import bug
from pbem.mail.transport import Transport

TAKEN = 0
TEMPFAIL = 75
"""``EX_TEMPFAIL``: the mail server keeps the mail and delivers it again later."""
PAUSE = 0.25
"""Seconds between two tries while a game is held by another run."""

Log = Callable[[str], None]


@dataclass
class Clocks:
    """What ``mail receive`` reads of time, handed in by the command line: the moment it
    acts at, the wall clock (nanoseconds, for the name of a kept mail and the
    watermarks), a monotonic clock and a sleep for its waiting."""

    now: datetime
    wall: Callable[[], int]
    monotonic: Callable[[], float]
    sleep: Callable[[float], None]


def receive(config: MailConfig, stream: BinaryIO, clocks: Clocks, transport: Transport, log: Log, warn: Log,
            wait: float) -> int:
    """Keep the mail on ``stream``, let every game read it; the exit code for the mail
    server (:data:`TAKEN` or :data:`TEMPFAIL`)."""
    if not (config.games or config.relays) or config.incoming is None:
        warn("mail receive: the configuration lists no games ([[game]] file = ...) and no relays ([[relay]]); the "
             "mail server keeps the mail")
        return TEMPFAIL
    raw, size = arrivals.read_mail(stream, config.limits)
    if size == 0:
        warn("mail receive: no mail on standard input")
        return TAKEN
    try:
        path = arrivals.keep(config.incoming, raw, size, clocks.wall())
    except PbemError as exc:
        warn(f"mail receive: the mail could not be kept ({exc}); the mail server keeps it and tries again")
        return TEMPFAIL
    try:
        return _read(config, path, clocks, transport, log, warn, wait)
    except Exception as exc:  # a bug after the mail was kept: the next run reads it again
        warn(f"{bug('mail receive', exc)}; the mail is kept in {path.parent} for the next run")
        return TAKEN


def _read(config: MailConfig, path: Path, clocks: Clocks, transport: Transport, log: Log, warn: Log,
          wait: float) -> int:
    """Let the games read the kept mail ``path``, trying again while one is held by another
    run or could not write (for up to ``wait`` seconds)."""
    start = clocks.monotonic()
    games = list(config.games)
    while True:
        cycle = rounds.cycle(config, clocks.now, transport, log, warn, True, clocks.wall)
        cycle.arrivals(games, str(config.incoming), relays=list(config.relays))
        if not path.exists():
            return TAKEN
        journal = cycle.journal
        held = journal.left + [r.game_id for r in journal.runs.values() if r.stopped] + cycle.relays.held
        if not held:
            warn(f"mail receive: the mail is kept in {path.parent} until every game can read it (a game file that "
                 "does not load is the GM's to mend: antike-ref status); the next mail run reads it")
            return TAKEN
        if clocks.monotonic() - start >= wait:
            warn(f"mail receive: {', '.join(held)} could not read the mail now; it is kept in {path.parent} for the "
                 "next mail run, and the mail server tries again")
            return TEMPFAIL
        clocks.sleep(PAUSE)
