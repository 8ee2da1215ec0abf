"""One round of the mail cycle over a configuration's games, as ``mail run``, ``mail
receive`` and ``mail watch`` do it: first the mails ``mail receive`` kept
(:mod:`pbem.mail.arrivals`), if any wait, then the games' mail sources and clocks, the idle
games told apart by their watermarks (:func:`pbem.mail.watermarks.plan`).

Light to import: the cycle, the game service and the games are loaded only when a game is
not idle (an idle ``mail run`` loads this module, the configuration and the watermarks).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pbem.mail.config import GameMail, MailConfig
from pbem.mail.watermarks import arrivals_waiting, plan

if TYPE_CHECKING:
    from pbem.mail.cycle import Cycle
    from pbem.mail.transport import Transport

Log = Callable[[str], None]


@dataclass
class Round:
    """What a round did: the cycle's summary (``None``: every game was idle), how many
    games were idle, and the mails ``mail receive`` kept that still wait."""

    summary: Any = None
    idle: int = 0
    waiting: list = field(default_factory=list)

    def count(self, name: str) -> int:
        return getattr(self.summary, name, 0) if self.summary is not None else 0

    @property
    def failures(self) -> list:
        return list(self.summary.failures) if self.summary is not None else []


def cycle(config: MailConfig, now: datetime, transport: Transport, log: Log, warn: Log, record: bool,
          wall: Callable[[], int]) -> Cycle:
    """The cycle at ``now``, keeping the games' watermarks (:class:`pbem.mail.idle.Watermarks`:
    ``record`` writes them, else they are only removed); ``wall`` reads the wall clock in
    nanoseconds (when a local mailbox was looked at), handed in by the command line."""
    from pbem.mail.cycle import Cycle
    from pbem.mail.idle import Watermarks

    return Cycle(config, now, transport, log, warn,
                 watermarks=lambda journal: Watermarks(config, now, journal, record=record, wall=wall))


def one_round(config: MailConfig, games: list[GameMail], now: datetime, transport: Transport, log: Log, warn: Log,
              wall: Callable[[], int], source: str | None = None, whole: bool = True) -> Round:
    """One round over ``games`` at ``now``. The kept mails are read only when ``whole``
    (``games`` is every game of the configuration: they may be for any of them) and no
    other ``source`` is named. A whole round also lets the configuration's relays of games
    without a game master read their mail (:mod:`pbem.mail.relays`)."""
    result = Round()
    run: Cycle | None = None
    relays = list(config.relays) if whole else []
    folder = config.incoming if whole and source is None else None
    if folder is not None and arrivals_waiting(folder):
        run = cycle(config, now, transport, log, warn, True, wall)
        result.waiting = run.arrivals(games, folder, relays=relays)
    todo = plan(config, games, source, now)
    result.idle = len(todo.idle)
    if todo.busy or relays:
        run = run or cycle(config, now, transport, log, warn, True, wall)
        run.run(todo.busy, source=source, relays=relays)
    result.summary = run.summary if run is not None else None
    return result
