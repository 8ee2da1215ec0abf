"""The GM's and the players' changes to a game's clock: extensions, absences, pauses.

Each is made under the game's mail lock on its mail ledger (the clock,
:mod:`pbem.service.clock`), logged as one line in the game's audit log
(``GAME.audit.jsonl``, with the GM's ``undo``s; written when the ledger is saved, after
it: a change is both saved and logged, or neither, and a log that cannot be written is
exit 10), and announced to the players: the notice
waits in the ledger (``announce``) and goes out with the next mail run, so that these
commands need no mail configuration. None of them changes the game file: they are not in
the history, and a replay does not need them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.errors import Refused, UsageError
from pbem.kernel.rejections import reject
from pbem.mail.ledger import Ledger, load_ledger, mail_lock
from pbem.service import store
from pbem.service.clock import absence_of, iso, local_day, parse_time, told, zone_of
from pbem.service.game import Game
from pbem.service.history import canonical
from pbem.service import numbers
from pbem.service.service import GameService


@dataclass
class Changed:
    """What a change did, for the command line to say."""

    game: Game
    what: str


def _audit(path: Path, record: dict[str, Any], ledger: Ledger | None = None) -> None:
    """Record a change in the game's audit log: with its ``ledger``, when the ledger is
    saved, after it (:meth:`Ledger.audit`: both or neither); else at once."""
    if ledger is not None:
        ledger.audit(canonical(record))
    else:
        store.append_audit(path, canonical(record))


def _announce(ledger: Ledger, text: str, to: str = "all") -> None:
    """A notice for the next mail run to send (``to``: ``all`` or a nation)."""
    ledger.judge.setdefault("announce", []).append({"text": text, "to": to})


def _forget_mark(path: Path) -> None:
    from pbem.mail import marks

    marks.forget(path)


def _open(path: Path) -> tuple[Game, Ledger]:
    game = GameService(path).load()
    if game.copy_of is not None:
        raise Refused([reject("game/player-copy", "$.copy", nation=game.copy_of)])
    return game, load_ledger(path)


def _current_clock(game: Game, ledger: Ledger) -> dict[str, Any]:
    st = game.state.status
    if st.winner is not None:
        raise UsageError(f"the game is over: {game.edition.nation_name(st.winner)} won")
    clock = ledger.clock
    if clock.get("key") != [st.turn, st.active] or not clock.get("due"):
        raise UsageError(f"turn {st.turn} ({st.active}) has no deadline yet: the mail cycle starts a turn's clock "
                         "when it first sees the turn (antike-ref mail run), with the configuration's deadline")
    return clock


def change_deadline(path: Path, now: datetime, by: timedelta | None = None, to: datetime | None = None,
                    reason: str = "") -> Changed:
    """``deadline --extend`` (``by``) or ``--set`` (``to``): the current turn's deadline
    moved, this turn only, and at most a year ahead of ``now``. A deadline moved past
    ``now`` again is reminded and kept anew."""
    if (by is None) == (to is None):
        raise UsageError("give --extend DURATION or --set TIME")
    with mail_lock(path):
        game, ledger = _open(path)
        clock = _current_clock(game, ledger)
        old = parse_time(clock["due"])
        new = numbers.later(old, by) if by is not None else to
        assert new is not None
        numbers.ahead(new, now, "--extend" if by is not None else "--set")
        clock["due"] = iso(new)
        if new > now:
            clock["reminded"] = False
            clock["missed"] = False
        st = game.state.status
        zone = clock.get("zone")
        _audit(path, {"action": "deadline", "turn": st.turn, "nation": st.active, "from": iso(old), "to": iso(new),
                      "at": iso(now), "reason": reason}, ledger)
        _announce(ledger, f"The deadline of turn {st.turn} ({game.edition.nation_name(st.active)}) is now "
                          f"{told(new, zone)}" + (f" (it was {told(old, zone)})." if old != new else "."))
        ledger.save()
        _forget_mark(path)
    return Changed(game, f"the deadline of turn {st.turn} ({st.active}) is now {told(new, zone)} "
                         f"(was {told(old, zone)}); the players are told with the next mail run")


def year_days(ledger: Ledger, nation: str, start: date, until: date) -> int:
    """The most days ``nation`` is away in any 365 days that hold a day of the absence
    ``start``..``until``, with it counted in (the cap ``absence_days`` is on these)."""
    from bisect import bisect_right

    year = 364
    low, high = start.toordinal() - year, until.toordinal() + year
    days = set(range(start.toordinal(), until.toordinal() + 1))
    for entry in ledger.judge.get("absences", []):
        if entry.get("nation") == nation:
            try:
                first = date.fromisoformat(entry["from"]).toordinal()
                last = date.fromisoformat(entry["until"]).toordinal()
            except (KeyError, TypeError, ValueError):
                continue
            days.update(range(max(first, low), min(last, high) + 1))
    ordered = sorted(days)
    return max(bisect_right(ordered, d + year) - k for k, d in enumerate(ordered)
               if d <= until.toordinal() and d + year >= start.toordinal())


def add_absence(path: Path, nation: str, start: date, until: date, now: datetime, reason: str = "",
                by: str = "gm", cap: int = 21, zone: str | None = None, over_cap: bool = False) -> Changed:
    """A nation's player is away from ``start`` to ``until`` (both days included): while
    away its turns follow the game's ``absence`` policy (the cycle applies it); the other
    players are told that the nation is away, never why. More than ``cap`` days in any
    365 is refused, unless the GM says ``over_cap`` (which the audit log records)."""
    with mail_lock(path):
        game, ledger = _open(path)
        what = record_absence(path, game, ledger, nation, start, until, now, reason, by, cap, zone, over_cap)
        ledger.save()
        _forget_mark(path)
    return Changed(game, what)


def record_absence(path: Path, game: Game, ledger: Ledger, nation: str, start: date, until: date, now: datetime,
                   reason: str = "", by: str = "gm", cap: int = 21, zone: str | None = None,
                   over_cap: bool = False) -> str:
    """:func:`add_absence` on a game and ledger open already (under the mail lock, as the
    mail cycle has them); the caller saves the ledger. Returns what was done.

    A new absence replaces what it overlaps of the nation's absences from ``start`` on (a
    plan renewed or made shorter); their days before ``start`` stay, away as they were. So
    the cap counts every day away: renewing an absence before it ends cannot reset it."""
    if until < start:
        raise UsageError(f"the absence would end ({until}) before it begins ({start})")
    if nation not in game.seats:
        raise UsageError(f"{nation}: not a nation of this game (one of {', '.join(game.seats)})")
    zone = zone or ledger.clock.get("zone")
    today = local_day(now, zone)
    if until < today:
        raise UsageError(f"the last day away, {until}, has passed ({today} now)")
    numbers.ahead(until, now, "the last day away")
    kept = []
    for e in ledger.judge.get("absences", []):
        if e.get("nation") != nation or date.fromisoformat(e["until"]) < start or date.fromisoformat(e["from"]) > until:
            kept.append(e)
        elif date.fromisoformat(e["from"]) < start:  # the days before the new absence stay
            kept.append({**e, "until": (start - timedelta(days=1)).isoformat()})
    total = year_days(Ledger(ledger.path, judge={"absences": kept}), nation, start, until)
    if total > cap and not over_cap:
        raise UsageError(f"{nation} would be away {total} days in a year; the game allows {cap} "
                         "(absence_days in the mail configuration; every day away counts, an absence renewed "
                         "included)")
    entry = {"nation": nation, "from": start.isoformat(), "until": until.isoformat(), "reason": reason,
             "by": by, "at": iso(now)}
    kept.append(entry)
    kept.sort(key=lambda e: (e["from"], e["nation"]))
    ledger.judge["absences"] = kept
    _audit(path, {"action": "absent", **entry, **({"over_cap": True, "days": total, "cap": cap}
                                                  if total > cap else {})}, ledger)
    name = game.edition.nation_name(nation)
    _announce(ledger, f"The {name} are away from {start:%a %d %b %Y} to {until:%a %d %b %Y}.")
    return (f"{nation} away from {start} to {until} ({total} of {cap} days in a year"
            f"{', over the cap as the GM allowed' if total > cap else ''}); the players are told with the next "
            "mail run")


def end_absence(path: Path, nation: str, now: datetime, by: str = "gm") -> Changed:
    """The nation's player is back: an absence under way ends today, one still to come is
    taken back."""
    with mail_lock(path):
        game, ledger = _open(path)
        what = record_back(path, game, ledger, nation, now, by)
        ledger.save()
        _forget_mark(path)
    return Changed(game, what)


def record_back(path: Path, game: Game, ledger: Ledger, nation: str, now: datetime, by: str = "gm") -> str:
    """:func:`end_absence` on a game and ledger open already; the caller saves the ledger."""
    today = local_day(now, ledger.clock.get("zone"))
    kept, ended = [], []
    for entry in ledger.judge.get("absences", []):
        if entry.get("nation") != nation or date.fromisoformat(entry["until"]) < today:
            kept.append(entry)
            continue
        ended.append(entry)
        if date.fromisoformat(entry["from"]) < today:
            kept.append({**entry, "until": (today - timedelta(days=1)).isoformat()})
    if not ended:
        raise UsageError(f"{nation} has no absence now or to come")
    ledger.judge["absences"] = kept
    _audit(path, {"action": "back", "nation": nation, "by": by, "at": iso(now)}, ledger)
    _announce(ledger, f"The {game.edition.nation_name(nation)} are back.")
    return f"{nation} is back; the players are told with the next mail run"


def pause(path: Path, now: datetime, reason: str) -> Changed:
    """No deadline runs until :func:`resume`; the players are told (with the reason)."""
    with mail_lock(path):
        game, ledger = _open(path)
        if ledger.judge.get("paused"):
            raise UsageError(f"the game is paused already (since {ledger.judge['paused'].get('since')})")
        ledger.judge["paused"] = {"since": iso(now), "reason": reason}
        _audit(path, {"action": "pause", "at": iso(now), "reason": reason}, ledger)
        _announce(ledger, "The GM has paused the game" + (f": {reason}" if reason else "")
                  + ". No deadline runs until it goes on; orders are still welcome.")
        ledger.save()
        _forget_mark(path)
    return Changed(game, "the game is paused; the players are told with the next mail run")


def resume(path: Path, now: datetime) -> Changed:
    """The game goes on: the current turn's deadline moves on by the time it was paused."""
    with mail_lock(path):
        game, ledger = _open(path)
        paused = ledger.judge.get("paused")
        if not paused:
            raise UsageError("the game is not paused")
        since = parse_time(paused["since"])
        clock = ledger.clock
        shift = timedelta(0)
        if clock.get("due"):
            shift = max(timedelta(0), now - max(since, parse_time(clock["since"])))
            clock["due"] = iso(numbers.later(parse_time(clock["due"]), shift))
            if parse_time(clock["due"]) > now:
                clock["missed"] = False
        ledger.judge["paused"] = None
        _audit(path, {"action": "resume", "at": iso(now), "paused_since": paused["since"],
                      "shift": int(shift.total_seconds())}, ledger)
        due = f" The deadline of the current turn is {told(parse_time(clock['due']), clock.get('zone'))}." \
            if clock.get("due") else ""
        _announce(ledger, "The game goes on." + due)
        ledger.save()
        _forget_mark(path)
    return Changed(game, "the game goes on" + (f"; the deadline moved on by {shift}" if shift else ""))


def zone_day(text: str, where: str) -> date:
    """``2026-12-03``: a day, as the absence commands take it (:func:`pbem.service.numbers.day`)."""
    return numbers.day(text, where)


def absent_now(ledger: Ledger, nation: str, now: datetime) -> dict[str, Any] | None:
    """The absence of ``nation`` that covers ``now`` (in the game's time zone)."""
    return absence_of(ledger.judge, nation, local_day(now, ledger.clock.get("zone")))


def end_of_day(day: date, zone: str | None) -> datetime:
    """The first moment after ``day`` in the game's time zone (a day past the years the clock
    keeps, from a ledger an earlier release wrote: the latest moment it keeps)."""
    if day >= numbers.LATEST.date():
        return numbers.LATEST
    return datetime.combine(day + timedelta(days=1), datetime.min.time(), zone_of(zone))
