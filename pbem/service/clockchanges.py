"""The changes people make to a game's clock (:mod:`pbem.service.clock`): the GM moves a
deadline, pauses and resumes the game; the GM or a player (``ABSENT`` and ``BACK`` by mail)
records an absence.

Each is a function from a clock to the next clock and the line the game's audit log keeps
of it (:class:`Changed`); nothing here reads or writes a file or a clock: the keeper of the
clock (the mail adapter, under the game's mail lock) saves both through
:class:`pbem.service.clockfile.ClockFile`, and tells the players.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import Any

from pbem.errors import UsageError
from pbem.service import numbers
from pbem.service.clock import Absence, CurrentTurn, Pause, TurnClock, iso, local_day, second, told


@dataclass(frozen=True)
class Changed:
    """A change: the clock after it, and its line for the audit log."""

    clock: TurnClock
    record: dict[str, Any]
    facts: dict[str, Any] = field(default_factory=dict)
    """What the change did, for the words that tell it."""


def running(clock: TurnClock, turn: int, active: str, winner: str | None, name: Callable[[str], str]) -> CurrentTurn:
    """The current turn's clock, with a deadline; a usage error if the game is over or the
    mail cycle has not started the turn's clock yet."""
    if winner is not None:
        raise UsageError(f"the game is over: {name(winner)} won")
    current = clock.current
    if current is None or (current.turn, current.nation) != (turn, active) or current.due is None:
        raise UsageError(f"turn {turn} ({active}) has no deadline yet: the mail cycle starts a turn's clock "
                         "when it first sees the turn (antike-ref mail run), with the configuration's deadline")
    return current


def move_deadline(clock: TurnClock, current: CurrentTurn, now: datetime, by: timedelta | None = None,
                  to: datetime | None = None, reason: str = "", force: bool = False) -> Changed:
    """``deadline --extend`` (``by``) or ``--set`` (``to``): the current turn's deadline
    moved, this turn only, and at most a year ahead of ``now``. A deadline moved past
    ``now`` again is reminded and kept anew. One that would not lie ahead of ``now`` is
    refused (a mistyped day must not play a player's turn at the next mail run), unless
    the GM says ``force``: it is then missed at the next mail run."""
    if (by is None) == (to is None):
        raise UsageError("give --extend DURATION or --set TIME")
    old = current.due
    assert old is not None
    new = numbers.later(old, by) if by is not None else to
    assert new is not None
    where = "--extend" if by is not None else "--set"
    numbers.ahead(new, now, where)
    if new <= now and not force:
        raise UsageError(f"{where}: the deadline would be {told(second(new), current.zone)}, in the past (it is "
                         f"{told(now, current.zone)} now); nothing was changed. To set it anyway (the turn is then "
                         "late at the next mail run), add --force")
    moved = replace(current, due=second(new))
    if new > now:
        moved = replace(moved, reminded=False, missed=False)
    record = {"action": "deadline", "turn": current.turn, "nation": current.nation, "from": iso(old),
              "to": iso(new), "at": iso(now), "reason": reason}
    return Changed(replace(clock, current=moved), record, {"old": old, "new": second(new)})


def year_days(absences: tuple[Absence, ...], nation: str, start: date, until: date) -> int:
    """The most days ``nation`` is away in any 365 days that hold a day of the absence
    ``start``..``until``, with it counted in (the cap ``absence_days`` is on these)."""
    year = 364
    low, high = start.toordinal() - year, until.toordinal() + year
    days = set(range(start.toordinal(), until.toordinal() + 1))
    for a in absences:
        if a.nation == nation:
            days.update(range(max(a.first.toordinal(), low), min(a.last.toordinal(), high) + 1))
    ordered = sorted(days)
    return max(bisect_right(ordered, d + year) - k for k, d in enumerate(ordered)
               if d <= until.toordinal() and d + year >= start.toordinal())


def add_absence(clock: TurnClock, seats: tuple[str, ...] | list[str], nation: str, start: date, until: date,
                now: datetime, reason: str = "", by: str = "gm", cap: int = 21, zone: str | None = None,
                over_cap: bool = False) -> Changed:
    """A nation's player is away from ``start`` to ``until`` (both days included): while
    away its turns follow the game's ``absence`` policy (the cycle applies it). More than
    ``cap`` days in any 365 is refused, unless the GM says ``over_cap`` (which the audit log
    records).

    A new absence replaces what it overlaps of the nation's absences from ``start`` on (a
    plan renewed or made shorter); their days before ``start`` stay, away as they were. So
    the cap counts every day away: renewing an absence before it ends cannot reset it."""
    if until < start:
        raise UsageError(f"the absence would end ({until}) before it begins ({start})")
    if nation not in seats:
        raise UsageError(f"{nation}: not a nation of this game (one of {', '.join(seats)})")
    today = local_day(now, zone or clock.zone)
    if until < today:
        raise UsageError(f"the last day away, {until}, has passed ({today} now)")
    numbers.ahead(until, now, "the last day away")
    kept = []
    for a in clock.absences:
        if a.nation != nation or a.last < start or a.first > until:
            kept.append(a)
        elif a.first < start:  # the days before the new absence stay
            kept.append(replace(a, last=start - timedelta(days=1)))
    total = year_days(tuple(kept), nation, start, until)
    if total > cap and not over_cap:
        raise UsageError(f"{nation} would be away {total} days in a year; the game allows {cap} "
                         "(absence_days in the mail configuration; every day away counts, an absence renewed "
                         "included)")
    entry = Absence(nation, start, until, reason, by, iso(now))
    kept.append(entry)
    kept.sort(key=lambda a: (a.first.isoformat(), a.nation))
    record = {"action": "absent", **entry.to_json(), **({"over_cap": True, "days": total, "cap": cap}
                                                        if total > cap else {})}
    return Changed(replace(clock, absences=tuple(kept)), record, {"total": total})


def end_absence(clock: TurnClock, nation: str, now: datetime, by: str = "gm") -> Changed:
    """The nation's player is back: an absence under way ends today, one still to come is
    taken back."""
    today = local_day(now, clock.zone)
    kept, ended = [], []
    for a in clock.absences:
        if a.nation != nation or a.last < today:
            kept.append(a)
            continue
        ended.append(a)
        if a.first < today:
            kept.append(replace(a, last=today - timedelta(days=1)))
    if not ended:
        raise UsageError(f"{nation} has no absence now or to come")
    return Changed(replace(clock, absences=tuple(kept)), {"action": "back", "nation": nation, "by": by,
                                                           "at": iso(now)})


def pause(clock: TurnClock, now: datetime, reason: str) -> Changed:
    """No deadline runs until :func:`resume`."""
    if clock.paused is not None:
        raise UsageError(f"the game is paused already (since {iso(clock.paused.since)})")
    return Changed(replace(clock, paused=Pause(second(now), reason)),
                   {"action": "pause", "at": iso(now), "reason": reason})


def resume(clock: TurnClock, now: datetime) -> Changed:
    """The game goes on: the current turn's deadline moves on by the time it was paused."""
    paused = clock.paused
    if paused is None:
        raise UsageError("the game is not paused")
    current = clock.current
    shift = timedelta(0)
    if current is not None and current.due is not None:
        shift = max(timedelta(0), now - max(paused.since, current.since))
        due = second(numbers.later(current.due, shift))
        current = replace(current, due=due, missed=False if due > now else current.missed)
    record = {"action": "resume", "at": iso(now), "paused_since": iso(paused.since),
              "shift": int(shift.total_seconds())}
    return Changed(replace(clock, current=current, paused=None), record, {"shift": shift})
