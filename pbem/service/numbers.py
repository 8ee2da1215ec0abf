"""The one reader of the numbers people type: a command's count or turn, a GM's day, time or
duration, a configuration's number. Each is read strictly and within a range, and a bad one
is a usage error that names where it was and what was expected (never a crash, whatever
the text: ``²``, ``٣``, a number of five thousand digits, a year 9999).

Only the ASCII digits 0 to 9 make a number; a number longer than :data:`LONGEST` characters
is refused before anything converts it. Days and times lie in the years :data:`FIRST_YEAR`
to :data:`LAST_YEAR`, so that every sum the clock makes of them (a deadline, the day after
an absence, a pause's shift) stays a date; :func:`later` adds so that it always does.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any

from pbem.errors import UsageError

LONGEST = 20
"""The most characters a number may be written with."""
FIRST_YEAR, LAST_YEAR = 2000, 2999
"""The years a day or a time a person gives may lie in."""
LATEST = datetime(LAST_YEAR, 12, 31, 23, 59, 59, tzinfo=timezone.utc)
"""The latest moment the clock keeps: a sum past it is this."""
AHEAD = timedelta(days=366)
"""How far ahead of now a deadline or an absence may be set: a longer stop is a pause."""

_DIGITS = re.compile(r"[0-9]+")
_DURATION = re.compile(r"([0-9]+)\s*(m|min|h|d)")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?")


def shown(value: Any) -> str:
    """``value`` as a message quotes it: clipped, with its length when it is long."""
    text = str(value)
    return repr(text) if len(text) <= LONGEST else f"{text[:LONGEST]!r}… ({len(text)} characters)"


def whole(value: Any, where: str, low: int, high: int, what: str = "a whole number") -> int:
    """A whole number from ``low`` to ``high``: an integer, or its ASCII digits (spaces
    around them allowed). ``where`` and ``what`` name it in the message:
    ``HISTORY takes a number of entries from 1 to 50, not '²'``."""
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if len(text) <= LONGEST and _DIGITS.fullmatch(text):
            number = int(text)
    if number is None or not low <= number <= high:
        raise UsageError(f"{where} takes {what} from {low:,} to {high:,}, not {shown(value)}")
    return number


def amount(value: Any, where: str, low: float, high: float, what: str = "a number") -> float:
    """A number from ``low`` to ``high`` that may have a fraction (a timeout in seconds):
    an integer or a float as a configuration file holds it, or ASCII digits."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high:
        return float(value)
    return float(whole(value, where, int(low), int(high), what))


def duration(value: Any, where: str, least: timedelta = timedelta(minutes=1),
             most: timedelta = AHEAD) -> timedelta:
    """``48h``, ``90m``, ``30min``, ``2d`` (or a number of hours), from ``least`` to ``most``."""
    expected = (f"{where}: {shown(value)} is not a duration like 48h, 90m or 2d, from {_told(least)} to "
                f"{_told(most)}")
    span = None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if 0 < value <= most / timedelta(hours=1):
            span = timedelta(hours=value)
    elif isinstance(value, str) and len(value) <= LONGEST:
        found = _DURATION.fullmatch(value.strip())
        if found is not None:
            unit = {"m": "minutes", "min": "minutes", "h": "hours", "d": "days"}[found.group(2)]
            count = int(found.group(1))  # at most LONGEST digits
            if count <= most / timedelta(**{unit: 1}):
                span = timedelta(**{unit: count})
    if span is None or not least <= span <= most:
        raise UsageError(expected)
    return span


def _told(span: timedelta) -> str:
    if span % timedelta(days=1) == timedelta(0):
        return f"{span.days}d"
    if span % timedelta(hours=1) == timedelta(0):
        return f"{span // timedelta(hours=1)}h"
    return f"{span // timedelta(minutes=1)}m"


def day(value: Any, where: str) -> date:
    """A day, ``2026-12-14``, in the years the clock keeps."""
    text = str(value).strip()
    try:
        if not _DAY.fullmatch(text):
            raise ValueError(text)
        found = date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{where} {shown(value)}: expected a day like 2026-12-14") from None
    if not FIRST_YEAR <= found.year <= LAST_YEAR:
        raise UsageError(f"{where} {shown(value)}: a day from {FIRST_YEAR} to {LAST_YEAR}")
    return found


def moment(value: Any, where: str, zone: tzinfo | None = None) -> datetime:
    """A time, ISO 8601 (``2026-11-30T18:00:00Z``), in the years the clock keeps; a time
    without a zone (``2026-11-30T18:00``) is in ``zone`` (the game's; default UTC)."""
    text = str(value).strip()
    try:
        if not _TIME.fullmatch(text):
            raise ValueError(text)
        found = datetime.fromisoformat(text.replace("Z", "+00:00"))  # as the clock reads a time
        found = found if found.tzinfo else found.replace(tzinfo=zone or timezone.utc)
    except (ValueError, OverflowError):
        raise UsageError(f"{where} {shown(value)}: expected a time like 2026-11-30T18:00:00Z") from None
    if not FIRST_YEAR <= found.year <= LAST_YEAR:
        raise UsageError(f"{where} {shown(value)}: a time from {FIRST_YEAR} to {LAST_YEAR}")
    return found


def later(start: datetime, span: timedelta) -> datetime:
    """``start + span``, but never past :data:`LATEST` (a time read from a ledger an earlier
    release wrote may lie in the year 9999)."""
    try:
        return min(start + span, LATEST)
    except OverflowError:
        return LATEST if span > timedelta(0) else datetime(FIRST_YEAR, 1, 1, tzinfo=timezone.utc)


def ahead(found: date, now: datetime, where: str) -> None:
    """A usage error if the day or time ``found`` is more than :data:`AHEAD` after ``now``."""
    limit = now + AHEAD
    if (found > limit) if isinstance(found, datetime) else (found > limit.date()):
        raise UsageError(f"{where}: {found:%Y-%m-%d} is more than a year ahead; to stop a game for longer, "
                         "pause it (antike-ref pause)")
