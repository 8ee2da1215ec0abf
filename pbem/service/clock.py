"""The turn clock of a game: the current turn's deadline, what holds it, and what happens
next and when.

The clock is a value (:class:`TurnClock`, frozen data classes all the way down): the
current turn's :class:`CurrentTurn` (when the turn began, its deadline and allowance, the
time zone it is told in, whether the player was reminded and the deadline dealt with,
an absence it waits for), a :class:`Pause`, the :class:`Absence` es and the
:class:`LastError` of a mail run. The service keeps it in a file of its own beside the
game (``GAME.clock.json``, :mod:`pbem.service.clockfile`); the GM's and the players'
changes to it are :mod:`pbem.service.clockchanges`.

:func:`next_step` is the one place that says what the clock does next and when, under the
:class:`Rules` a game is run by (its deadline, reminder, missed and absence policies, its
time zone): the mail cycle acts on the steps that are due, and the watermark of an idle
game records when the next one will be, from the same function, so the two cannot
disagree. ``show``, the reports, the web page and ``status`` read a :class:`Deadline`
from it (:meth:`TurnClock.deadline`).

Only the standard library is imported here (an idle ``mail run`` reads times with
:func:`iso` and :func:`parse_time`), and nothing here reads a clock: the time is handed in.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, Literal

from pbem.service.numbers import LATEST, later

UTC = "UTC"
SUFFIX = ".clock.json"
"""The clock's file beside a game file (``GAME.clock.json``)."""
MISSED = ("remind", "default", "bot", "wait")
"""What happens when a deadline passes: the player is told (``remind``) or the game waits
for the GM (``wait``), or the turn is played by the GM's default turn or the bot."""
ABSENCE = ("wait", "default", "bot")
"""While the player on turn is away: the deadline waits, or their turn is played."""


# -- times --------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def zone_of(name: str | None):
    """The time zone ``name`` (an IANA name such as ``Europe/Berlin``); UTC for ``None``,
    ``"UTC"`` or a name this machine does not know."""
    if not name or name.upper() == UTC:
        return timezone.utc
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo(name)
    except (ImportError, ValueError, KeyError, OSError):
        return timezone.utc


def known_zone(name: str) -> bool:
    """Whether ``name`` is a time zone this machine knows (for checking a configuration)."""
    if name.upper() == UTC:
        return True
    try:
        from zoneinfo import ZoneInfo

        ZoneInfo(name)
        return True
    except (ImportError, ValueError, KeyError, OSError):
        return False


def iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str) -> datetime:
    """An ISO 8601 time (``2026-11-23T18:00:00Z``; no zone means UTC)."""
    moment = datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def second(moment: datetime) -> datetime:
    """``moment`` in UTC to the whole second, as the clock keeps times (:func:`iso`)."""
    return parse_time(iso(moment))


def told(moment: datetime, zone: str | None) -> str:
    """``moment`` as players read it, in the game's time zone: ``Wed 25 Nov 2026, 11:00 CET``
    (in UTC, if the zone would carry it past the last year there is: a ledger of an earlier
    release may hold a deadline in the year 9999)."""
    try:
        local = moment.astimezone(zone_of(zone))
    except OverflowError:
        local, zone = moment.astimezone(timezone.utc), UTC
    return f"{local:%a %d %b %Y, %H:%M} {local.tzname() or zone or UTC}"


def span(delta: timedelta) -> str:
    """``31 h``, ``3 d 4 h``, ``45 min``: a length of time, to the hour beyond one."""
    minutes = max(0, int(delta.total_seconds() // 60))
    if minutes < 60:
        return f"{minutes} min"
    hours = minutes // 60
    if hours < 72:
        return f"{hours} h"
    return f"{hours // 24} d {hours % 24} h" if hours % 24 else f"{hours // 24} d"


def local_day(moment: datetime, zone: str | None) -> date:
    """The day ``moment`` falls on in the game's time zone."""
    return moment.astimezone(zone_of(zone)).date()


def start_of_day(day: date, zone: str | None) -> datetime:
    """The first moment of ``day`` in the game's time zone (the latest moment the clock
    keeps for a day past it)."""
    if day > LATEST.date():
        return LATEST
    return datetime.combine(day, datetime.min.time(), zone_of(zone))


def end_of_day(day: date, zone: str | None) -> datetime:
    """The first moment after ``day`` in the game's time zone (a day past the years the clock
    keeps, from a ledger an earlier release wrote: the latest moment it keeps)."""
    if day >= LATEST.date():
        return LATEST
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), zone_of(zone))


# -- the clock ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Absence:
    """A nation's player away from ``first`` to ``last`` (both days included, in the game's
    time zone). The reason is the GM's: the players are never told it."""

    nation: str
    first: date
    last: date
    reason: str = ""
    by: str = "gm"
    """``gm``, or ``player`` (``ABSENT`` by mail)."""
    at: str = ""
    """When it was set (ISO 8601, as recorded)."""

    def covers(self, day: date) -> bool:
        return self.first <= day <= self.last

    def to_json(self) -> dict[str, Any]:
        return {"nation": self.nation, "from": self.first.isoformat(), "until": self.last.isoformat(),
                "reason": self.reason, "by": self.by, "at": self.at}


@dataclass(frozen=True)
class Pause:
    """The GM has paused the game: no deadline runs."""

    since: datetime
    reason: str = ""


@dataclass(frozen=True)
class LastError:
    """The last thing that went wrong in a mail run of the game (for the GM's ``status``)."""

    at: datetime
    what: str


@dataclass(frozen=True)
class CurrentTurn:
    """The clock of the turn ``turn`` of ``nation``: started when the mail cycle first saw
    the turn (``since``)."""

    turn: int
    nation: str
    since: datetime
    due: datetime | None = None
    """The deadline; moved by ``deadline --extend/--set``, a pause, an absence waited for."""
    allow: timedelta | None = None
    """How long a turn has (the ``deadline`` setting the clock started with)."""
    zone: str | None = None
    """The time zone the deadline is told in (``[mail] timezone``)."""
    reminded: bool = False
    missed: bool = False
    """The deadline passed and what the game does then was done."""
    held: date | None = None
    """The deadline waits for the player, who is away until this day."""


@dataclass(frozen=True)
class Deadline:
    """The current turn's deadline as a reader sees it."""

    turn: int
    nation: str
    since: datetime
    """When the turn began (when the cycle first saw it)."""
    due: datetime | None
    """The deadline; ``None``: the game has none."""
    zone: str
    paused: str | None = None
    """The reason, while the GM has paused the game (no deadline runs)."""
    held_until: date | None = None
    """The nation on turn is away until this day and the game waits for it."""
    allow: timedelta | None = None
    """How long a turn has (the game's ``deadline`` setting)."""

    @property
    def running(self) -> bool:
        """Whether the deadline runs: there is one, the game is not paused, and the turn
        does not wait for a player who is away."""
        return self.due is not None and self.paused is None and self.held_until is None

    @property
    def resumes(self) -> datetime | None:
        """While the turn waits for a player who is away: the latest moment its clock
        starts again (the end of the absence, :func:`next_step`)."""
        return end_of_day(self.held_until, self.zone) if self.held_until is not None else None

    def when(self) -> str:
        """``Wed 25 Nov 2026, 11:00 CET``, or why there is no time."""
        if self.paused is not None:
            return "none while the game is paused"
        if self.held_until is not None:
            return "none while the player is away"
        if self.due is None:
            return "none"
        return told(self.due, self.zone)

    def left(self, now: datetime) -> str:
        """How long is left at ``now``: ``in 31 h``, ``passed 2 h ago``; empty while the
        deadline does not run (none, paused, waiting for a player who is away)."""
        if not self.running:
            return ""
        assert self.due is not None
        if now >= self.due:
            return f"passed {span(now - self.due)} ago"
        return f"in {span(self.due - now)}"

    def line(self, now: datetime | None = None) -> str:
        """The sentence every mail and report carries: ``Deadline for turn 7 (Greeks):
        Wed 25 Nov 2026, 11:00 CET, in 31 h.`` With no ``now`` (a report file, a web page:
        read later), how long the turn had: ``48 h from the start of the turn``. While the
        turn waits for a player who is away, no deadline is told (the one the turn had
        before is no longer true): it says that the turn waits, and when its clock starts
        again at the latest."""
        text = f"Deadline for turn {self.turn}: {self.when()}"
        if self.running:
            assert self.due is not None
            if now is not None:
                text += f", {self.left(now)}"
            elif self.allow is not None:
                text += f" ({span(self.due - self.since)} from the start of the turn)"
        if self.held_until is not None:
            resumes = self.resumes
            assert resumes is not None
            time = f"its {span(self.allow)}" if self.allow else "its clock"
            text += (f" (until {self.held_until:%a %d %b %Y}): the turn waits, and {time} start"
                     f"{'' if self.allow else 's'} when they are back, at the latest {told(resumes, self.zone)}")
        if self.paused is not None:
            text += f" (paused: {self.paused})" if self.paused else " (paused)"
        return text + "."

    def to_json(self, now: datetime | None = None) -> dict[str, Any]:
        """The deadline for ``show --json`` and ``status --json``."""
        out: dict[str, Any] = {"turn": self.turn, "nation": self.nation, "since": iso(self.since),
                               "due": iso(self.due) if self.due else None, "zone": self.zone,
                               "due_local": told(self.due, self.zone) if self.due else None,
                               "paused": self.paused is not None}
        if self.paused:
            out["paused_reason"] = self.paused
        resumes = self.resumes
        if self.held_until is not None and resumes is not None:
            out["held_until"] = self.held_until.isoformat()
            out["resumes"] = iso(resumes)
            out["resumes_local"] = told(resumes, self.zone)
        if now is not None and self.running:
            assert self.due is not None
            out["seconds_left"] = int((self.due - now).total_seconds())
        return out


@dataclass(frozen=True)
class TurnClock:
    """A game's clock: the current turn's, a pause, the absences, the last error of a run.
    The empty clock (``TurnClock()``) is a game no mail cycle has run yet."""

    current: CurrentTurn | None = None
    paused: Pause | None = None
    absences: tuple[Absence, ...] = ()
    last_error: LastError | None = None
    config: str | None = None
    """The mail configuration the game is run by (its file's full path), recorded by the
    first mail run with a configuration: a run by another one is refused, so that two
    configurations never keep one clock by two sets of rules (``mail adopt`` moves a game
    on purpose)."""

    @property
    def zone(self) -> str | None:
        """The time zone the current turn is told in (``None``: none started yet)."""
        return self.current.zone if self.current is not None else None

    def absence_of(self, nation: str, day: date) -> Absence | None:
        """The absence of ``nation`` that covers ``day``, if any."""
        return next((a for a in self.absences if a.nation == nation and a.covers(day)), None)

    def away(self, day: date) -> dict[str, date]:
        """Every nation away on ``day``, with the last day of its absence."""
        out: dict[str, date] = {}
        for a in self.absences:
            if a.covers(day):
                out[a.nation] = max(a.last, out.get(a.nation, a.last))
        return out

    def deadline(self, turn: int, nation: str, winner: str | None = None) -> Deadline | None:
        """The deadline of the turn ``turn`` of ``nation``; ``None`` if the game is over or
        the clock is not that turn's (the cycle has not seen the turn yet, or the game is
        not run by mail)."""
        current = self.current
        if winner is not None or current is None or (current.turn, current.nation) != (turn, nation):
            return None
        paused = self.paused.reason if self.paused is not None else None
        return Deadline(turn, nation, current.since, current.due, current.zone or UTC, paused, current.held,
                        current.allow)

    def after(self, step: Step) -> TurnClock:
        """The clock once the cycle has done ``step`` (a step that plays a turn changes the
        game, not the clock: the next look starts the next turn's)."""
        current = self.current
        if step.kind == "clear":
            return replace(self, current=None)
        if step.kind in ("start", "release"):
            return replace(self, current=step.clock)
        if current is None:
            return self
        if step.kind == "hold":
            return replace(self, current=replace(current, held=step.until))
        if step.kind == "remind":
            return replace(self, current=replace(current, reminded=True))
        if step.kind == "late":
            return replace(self, current=replace(current, missed=True))
        return self


# -- what happens next, and when ------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    """How a game's clock runs (its mail settings): the time a turn has, how long before
    the deadline the player is reminded, what happens to a missed deadline
    (:data:`MISSED`) and while the player on turn is away (:data:`ABSENCE`), and the time
    zone deadlines are told in."""

    deadline: timedelta | None = None
    remind: timedelta | None = None
    missed: str = "remind"
    absence: str = "wait"
    zone: str = UTC


StepKind = Literal["clear", "over", "start", "paused", "absent", "hold", "held", "release", "remind", "late",
                   "missed", "wait"]
"""What the clock does: ``clear`` (the game is over: the clock goes), ``start`` (the
current turn's clock starts, or gets what a clock of an earlier release lacks), ``absent``
(the player on turn is away: their turn is played, ``how`` says by whom), ``hold`` (it is
waited for: the deadline is held until ``until``), ``release`` (they are back: the turn
has its whole time again), ``remind``, ``late`` (the deadline passed: the player and the GM
are told, the game waits) and ``missed`` (it passed: the turn is played, by ``how``). And
what it waits for: ``over`` (nothing ever), ``paused`` (nothing until the GM resumes),
``held`` and ``wait`` (the next moment something may happen)."""

ACTIONS = ("clear", "start", "absent", "hold", "release", "remind", "late", "missed")
"""The steps that do something (due at ``at``); the others only wait."""


@dataclass(frozen=True)
class Step:
    """What the clock does next (:data:`StepKind`), and when: ``at`` is the moment it falls
    due (``None``: never, unless the game, its clock or its settings change)."""

    kind: StepKind
    at: datetime | None
    clock: CurrentTurn | None = None
    """``start`` and ``release``: the current turn's clock from then on."""
    until: date | None = None
    """``absent``, ``hold`` and ``held``: the last day of the absence."""
    due: datetime | None = None
    """``remind``, ``late`` and ``missed``: the deadline."""
    how: str | None = None
    """``absent`` and ``missed``: ``default`` (the GM's default turn) or ``bot``."""

    def due_by(self, now: datetime) -> bool:
        """Whether the step falls due by ``now`` (the cycle does it then)."""
        return self.kind in ACTIONS and self.at is not None and self.at <= now


def next_step(clock: TurnClock, rules: Rules, turn: int, active: str, winner: str | None,
              now: datetime) -> Step:
    """What the clock of the game whose turn ``turn`` ``active`` is to play (``winner``:
    the game is over) does next at ``now`` or after, and when, under ``rules``.

    In this order: the clock of a game that is over goes; the current turn's clock starts
    (or is given what it lacks); nothing runs while the game is paused; an absence of the
    player on turn plays their turn, or holds the deadline until it ends (and gives the
    turn its whole time again from their return: the end of the absence, or the moment the
    clock sees them back if that is earlier, a ``BACK``); the reminder ``rules.remind``
    before the deadline; the deadline, with the missed rule: ``remind`` and ``wait`` tell
    it once (``late``), ``default`` and ``bot`` play the turn, also a turn whose deadline
    was told late under another rule before (the GM changed ``missed``). A step due now
    is for the cycle to do (:meth:`Step.due_by`); otherwise ``at`` is the first moment one
    may be: the reminder, the deadline, or the day an absence of the player on turn begins
    or ends."""
    current = clock.current
    if winner is not None:
        return Step("clear", now) if current is not None else Step("over", None)
    fresh = _started(current, rules, turn, active, now)
    if fresh != current:
        return Step("start", now, clock=fresh)
    if clock.paused is not None:
        return Step("paused", None)
    away = clock.absence_of(active, local_day(now, fresh.zone))
    if away is not None and rules.absence != "wait":
        return Step("absent", now, until=away.last, how=rules.absence)
    later_on = _boundaries(clock, active, fresh.zone, now)
    if away is not None:
        if fresh.held != away.last:
            return Step("hold", now, until=away.last)
        return Step("held", min(later_on, default=None), until=away.last)
    if fresh.held is not None:
        return Step("release", now, clock=_released(fresh, now))
    if rules.deadline is None or fresh.due is None:
        return Step("wait", min(later_on, default=None))
    due = fresh.due
    remind = None if rules.remind is None or fresh.reminded else due - rules.remind
    if remind is not None and remind <= now < due:
        return Step("remind", now, due=due)
    if now >= due and rules.missed in ("default", "bot"):  # also a turn told late under another rule
        return Step("missed", now, due=due, how=rules.missed)
    if now >= due and not fresh.missed:
        return Step("late", now, due=due)
    if remind is not None and now < remind:
        later_on.append(remind)
    if now < due and (not fresh.missed or rules.missed in ("default", "bot")):
        later_on.append(due)
    return Step("wait", min(later_on, default=None))


CLOCK_ONLY = ("clear", "start", "hold", "release")
"""The steps that change the clock alone (no mail, no turn played)."""


def settled(clock: TurnClock, rules: Rules, turn: int, active: str, winner: str | None, now: datetime) -> TurnClock:
    """The clock once the steps :func:`next_step` says are due at ``now`` that change the
    clock alone are done (:data:`CLOCK_ONLY`: the turn's clock started, a deadline held
    for a player who is away or given its time again on their return): the clock every
    mail written at ``now`` tells, before the cycle's timekeeper has come to it."""
    for _ in range(len(CLOCK_ONLY) + 1):
        step = next_step(clock, rules, turn, active, winner, now)
        if not step.due_by(now) or step.kind not in CLOCK_ONLY:
            break
        clock = clock.after(step)
    return clock


def _started(current: CurrentTurn | None, rules: Rules, turn: int, active: str, now: datetime) -> CurrentTurn:
    """The current turn's clock: started when the cycle first sees the turn (its deadline
    ``rules.deadline`` after that, told in the rules' time zone), and given what a clock of
    an earlier release lacks."""
    if current is None or (current.turn, current.nation) != (turn, active):
        current = CurrentTurn(turn, active, second(now))
    if rules.deadline is not None and current.due is None:
        current = replace(current, due=second(current.since + rules.deadline),
                          allow=timedelta(seconds=int(rules.deadline.total_seconds())))
    if current.zone != rules.zone:
        current = replace(current, zone=rules.zone)
    return current


def _released(current: CurrentTurn, now: datetime) -> CurrentTurn:
    """The player the game waited for is back: their turn has its whole time again, from
    their return (never less than it had): the end of the absence, or ``now`` if that is
    earlier (the absence was ended early, by ``BACK`` or the GM, and the clock sees it
    now); a deadline that lies ahead again is reminded and kept anew."""
    assert current.held is not None
    back = min(end_of_day(current.held, current.zone), now)
    fresh = replace(current, held=None)
    if current.due is not None and current.allow:
        due = second(max(current.due, later(back, current.allow)))
        fresh = replace(fresh, due=due)
        if due > now:
            fresh = replace(fresh, reminded=False, missed=False)
    return fresh


def _boundaries(clock: TurnClock, nation: str, zone: str | None, now: datetime) -> list[datetime]:
    """The moments after ``now`` at which an absence of ``nation`` begins or ends."""
    out = []
    for a in clock.absences:
        if a.nation == nation:
            out += [m for m in (start_of_day(a.first, zone), end_of_day(a.last, zone)) if m > now]
    return out
