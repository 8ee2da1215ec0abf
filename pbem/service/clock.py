"""The turn clock of a game run by mail: the current turn's deadline, and what holds it.

The mail cycle keeps it in the game's mail ledger (``GAME.mail.json``, beside the game):

- ``"clock"``, the current turn's: ``key`` (``[turn, nation]``), ``since`` (when the cycle
  first saw the turn), ``due`` (the deadline; moved by ``deadline --extend/--set``, by a
  pause and by an absence the game waits for), ``allow`` (the seconds a turn has), ``zone``
  (the time zone deadlines are told in: ``[mail] timezone``), ``reminded``, ``missed``,
  ``held`` (the deadline waits for an absent player);
- ``"paused"``: ``{"since", "reason"}`` while the GM has paused the game;
- ``"absences"``: ``[{"nation", "from", "until", "reason", "by", "at"}]`` (dates, both days
  included, in the game's time zone);
- ``"last_error"``: ``{"at", "what"}``, the last thing that went wrong in a run.

The cycle moves the clock on and ``deadline``, ``absent``, ``pause`` and ``resume`` change
it, each logged in ``GAME.audit.jsonl``; ``show``, the reports, the web page and ``status``
read it through :func:`read_state` and :func:`deadline_of`. Nothing here reads a clock:
the time is handed in.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

STATE_KEYS = ("clock", "paused", "absences", "last_error")
"""The parts of the mail ledger that are the game's clock (:mod:`pbem.mail.ledger`)."""

UTC = "UTC"


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

    def when(self) -> str:
        """``Wed 25 Nov 2026, 11:00 CET``, or why there is no time."""
        if self.paused is not None:
            return "none while the game is paused"
        if self.due is None:
            return "none"
        return told(self.due, self.zone)

    def left(self, now: datetime) -> str:
        """How long is left at ``now``: ``in 31 h``, ``passed 2 h ago``; empty without a
        deadline or while paused."""
        if self.due is None or self.paused is not None:
            return ""
        if now >= self.due:
            return f"passed {span(now - self.due)} ago"
        return f"in {span(self.due - now)}"

    def line(self, now: datetime | None = None) -> str:
        """The sentence every mail and report carries: ``Deadline for turn 7 (Greeks):
        Wed 25 Nov 2026, 11:00 CET, in 31 h.`` With no ``now`` (a report file, a web page:
        read later), how long the turn had: ``48 h from the start of the turn``."""
        text = f"Deadline for turn {self.turn}: {self.when()}"
        if self.due is not None and self.paused is None:
            if now is not None:
                text += f", {self.left(now)}"
            elif self.allow is not None:
                text += f" ({span(self.due - self.since)} from the start of the turn)"
        if self.held_until is not None:
            text += f"; it waits while the player is away (until {self.held_until:%a %d %b %Y})"
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
        if self.held_until is not None:
            out["held_until"] = self.held_until.isoformat()
        if now is not None and self.due is not None and self.paused is None:
            out["seconds_left"] = int((self.due - now).total_seconds())
        return out


def ledger_file(game_path: str | os.PathLike) -> str:
    """Where the mail ledger of the game file ``game_path`` is (``GAME.mail.json``)."""
    path = os.fspath(game_path)
    stem = path[:-5] if path.endswith(".json") else path
    return stem + ".mail.json"


def read_state(game_path: str | os.PathLike) -> dict[str, Any]:
    """The clock's part of the game's mail ledger (:data:`STATE_KEYS`); ``{}`` when the game
    is not run by mail, or its ledger cannot be read (the clock is then simply not shown)."""
    try:
        with open(ledger_file(game_path), "rb") as fh:
            data = json.loads(fh.read(64 * 1024 * 1024))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: data[k] for k in STATE_KEYS if k in data}


def deadline_of(state: dict[str, Any], turn: int, nation: str, winner: str | None = None) -> Deadline | None:
    """The deadline of the turn ``turn`` of ``nation`` from the clock :func:`read_state`
    gave; ``None`` if the game is over or the clock is not that turn's (the cycle has not
    seen the turn yet, or the game is not run by mail)."""
    clock = state.get("clock") or {}
    if winner is not None or not isinstance(clock, dict) or clock.get("key") != [turn, nation]:
        return None
    try:
        since = parse_time(clock["since"])
        due = parse_time(clock["due"]) if clock.get("due") else None
        allow = timedelta(seconds=int(clock["allow"])) if clock.get("allow") else None
    except (KeyError, TypeError, ValueError):
        return None
    paused = state.get("paused")
    reason = str(paused.get("reason") or "") if isinstance(paused, dict) else None
    held = None
    if clock.get("held"):
        try:
            held = date.fromisoformat(str(clock["held"]))
        except ValueError:
            held = None
    return Deadline(turn, nation, since, due, str(clock.get("zone") or UTC), reason, held, allow)


def absence_of(state: dict[str, Any], nation: str, day: date) -> dict[str, Any] | None:
    """The absence of ``nation`` that covers ``day`` (both ends included), if any."""
    for entry in state.get("absences") or []:
        try:
            if (entry.get("nation") == nation and date.fromisoformat(entry["from"]) <= day
                    <= date.fromisoformat(entry["until"])):
                return entry
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
    return None


def absences_now(state: dict[str, Any], day: date) -> dict[str, date]:
    """Every nation away on ``day``, with the last day of its absence."""
    out: dict[str, date] = {}
    for entry in state.get("absences") or []:
        try:
            start, end = date.fromisoformat(entry["from"]), date.fromisoformat(entry["until"])
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
        if start <= day <= end:
            out[entry["nation"]] = max(end, out.get(entry["nation"], end))
    return out


def local_day(moment: datetime, zone: str | None) -> date:
    """The day ``moment`` falls on in the game's time zone."""
    return moment.astimezone(zone_of(zone)).date()
