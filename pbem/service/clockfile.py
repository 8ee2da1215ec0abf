"""The clock's file beside a game: ``GAME.clock.json`` (:mod:`pbem.service.clock`).

The service keeps a game's :class:`~pbem.service.clock.TurnClock` in a file of its own,
written only by the mail cycle and the GM's clock commands (under the game's mail lock,
which the mail adapter holds) and read by everyone who tells the clock: ``show``, the
reports, the web page, ``status``. The file is the GM's alone (mode 600: it holds the
reasons of absences and a run's last error, which may quote an address), replaced whole
and atomically, and never written through a link planted in its place::

    {"format": 1,
     "current": {"turn": 7, "nation": "greeks", "since": "...Z", "due": "...Z",
                 "allow": 172800, "zone": "Europe/Berlin", "reminded": false,
                 "missed": false, "held": "2026-12-05"},
     "paused": {"since": "...Z", "reason": "..."},
     "absences": [{"nation", "from", "until", "reason", "by", "at"}, ...],
     "last_error": {"at": "...Z", "what": "..."},
     "config": "/home/gm/antike/mail.toml"}

A part the clock does not have is left out (no current turn's clock yet, no pause, no
absence, no error; no deadline, no absence waited for; no configuration recorded yet:
``config`` is the mail configuration the game is run by, :attr:`~pbem.service.clock.TurnClock.config`).

Releases before issue 37 kept the clock in the mail ledger (``GAME.mail.json``: ``clock``,
``paused``, ``absences``, ``last_error``). The mail adapter hands those parts over the first
time it opens such a ledger (:meth:`ClockFile.migrate`): they are written here, the move is
logged in the game's audit log, and the ledger is saved without them. The service never
reads the mail ledger.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pbem.errors import CannotWrite, InputError
from pbem.service import store
from pbem.service.clock import SUFFIX, Absence, CurrentTurn, LastError, Pause, TurnClock, iso, parse_time, second
from pbem.service.history import canonical

FORMAT = 1
LARGEST = 16 * 1024 * 1024
"""A clock file is a few hundred bytes, with a line per absence; a larger one is not read."""


def clock_path(game: str | os.PathLike) -> Path:
    """``GAME.clock.json`` beside the game file (beside the file a link points to)."""
    return store.sibling(game, SUFFIX)


# -- the JSON ---------------------------------------------------------------------------------

class Unreadable(ValueError):
    """A part of a clock that cannot be read."""


def _time(value: Any):
    try:
        return second(parse_time(value))
    except (TypeError, ValueError, OverflowError) as exc:
        raise Unreadable(f"not a time: {str(value)[:40]!r}") from exc


def _day(value: Any) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise Unreadable(f"not a day: {str(value)[:40]!r}") from exc


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def current_from(data: dict[str, Any], turn: Any, nation: Any) -> CurrentTurn:
    """A current turn's clock from its JSON (``turn`` and ``nation`` given apart: a ledger
    of an earlier release keeps them as ``key``)."""
    if not isinstance(turn, int) or isinstance(turn, bool) or not isinstance(nation, str):
        raise Unreadable("the turn and nation are missing")
    allow = data.get("allow")
    if allow is not None and (not isinstance(allow, int) or isinstance(allow, bool) or allow < 0):
        raise Unreadable(f"allow: not a number of seconds: {str(allow)[:40]!r}")
    return CurrentTurn(turn, nation, _time(data.get("since")),
                       _time(data["due"]) if data.get("due") else None,
                       timedelta(seconds=allow) if allow is not None else None,
                       str(data["zone"]) if data.get("zone") else None,
                       bool(data.get("reminded")), bool(data.get("missed")),
                       _day(data["held"]) if data.get("held") else None)


def absence_from(entry: Any) -> Absence:
    if not isinstance(entry, dict) or not isinstance(entry.get("nation"), str):
        raise Unreadable("an absence without its nation")
    return Absence(entry["nation"], _day(entry.get("from")), _day(entry.get("until")), _text(entry.get("reason")),
                   _text(entry.get("by")), _text(entry.get("at")))


def pause_from(data: Any) -> Pause | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise Unreadable("a pause that is no object")
    return Pause(_time(data.get("since")), _text(data.get("reason")))


def error_from(data: Any) -> LastError | None:
    if not isinstance(data, dict) or not data.get("what"):
        return None
    return LastError(_time(data.get("at")), str(data["what"]))


@dataclass
class Parsed:
    """A clock read from JSON, and what of it could not be read (and was left out)."""

    clock: TurnClock
    dropped: list[str] = field(default_factory=list)


def _parts(current: Any, paused: Any, absences: Any, error: Any, key: Any = None) -> Parsed:
    """A clock from its parts; a part that cannot be read is left out and named."""
    dropped: list[str] = []
    turn = None
    if isinstance(current, dict) and current:
        try:
            if key is not None:
                turn, nation = (key[0], key[1]) if isinstance(key, list) and len(key) == 2 else (None, None)
            else:
                turn, nation = current.get("turn"), current.get("nation")
            turn = current_from(current, turn, nation)
        except Unreadable as exc:
            dropped.append(f"the current turn's clock ({exc})")
            turn = None
    try:
        pause = pause_from(paused)
    except Unreadable as exc:
        dropped.append(f"the pause ({exc})")
        pause = None
    kept = []
    for entry in absences if isinstance(absences, list) else []:
        try:
            kept.append(absence_from(entry))
        except Unreadable as exc:
            dropped.append(f"an absence ({exc})")
    try:
        last = error_from(error)
    except Unreadable:
        last = None
    return Parsed(TurnClock(turn, pause, tuple(kept), last), dropped)


def clock_from_json(data: Any) -> Parsed:
    """A clock from the JSON of its file."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Unreadable(f"format {data.get('format') if isinstance(data, dict) else None!r}, expected {FORMAT}")
    parsed = _parts(data.get("current"), data.get("paused"), data.get("absences"), data.get("last_error"))
    owner = data.get("config")
    if owner is not None and (not isinstance(owner, str) or not owner):
        parsed.dropped.append(f"the configuration it belongs to (not a file name: {str(owner)[:40]!r})")
    elif owner is not None:
        parsed.clock = replace(parsed.clock, config=owner)
    return parsed


def legacy_clock(parts: dict[str, Any]) -> Parsed:
    """A clock from the parts of a mail ledger of an earlier release (``clock`` with its
    ``key``, ``paused``, ``absences``, ``last_error``)."""
    clock = parts.get("clock")
    key = clock.get("key") if isinstance(clock, dict) else None
    return _parts(clock, parts.get("paused"), parts.get("absences"), parts.get("last_error"), key=key or [])


def clock_to_json(clock: TurnClock) -> dict[str, Any]:
    """The JSON of a clock's file; a part the clock does not have is left out."""
    out: dict[str, Any] = {"format": FORMAT}
    c = clock.current
    if c is not None:
        current = {"turn": c.turn, "nation": c.nation, "since": iso(c.since), "reminded": c.reminded,
                   "missed": c.missed, "due": iso(c.due) if c.due else None,
                   "allow": int(c.allow.total_seconds()) if c.allow is not None else None, "zone": c.zone,
                   "held": c.held.isoformat() if c.held else None}
        out["current"] = {k: v for k, v in current.items() if v is not None}
    if clock.paused is not None:
        out["paused"] = {"since": iso(clock.paused.since), "reason": clock.paused.reason}
    if clock.absences:
        out["absences"] = [a.to_json() for a in clock.absences]
    if clock.last_error is not None:
        out["last_error"] = {"at": iso(clock.last_error.at), "what": clock.last_error.what}
    if clock.config is not None:
        out["config"] = clock.config
    return out


def clock_text(clock: TurnClock) -> str:
    return json.dumps(clock_to_json(clock), sort_keys=True, indent=1, ensure_ascii=False) + "\n"


# -- the file -----------------------------------------------------------------------------------

def read_clock(game: str | os.PathLike) -> TurnClock:
    """The game's clock for a reader (``show``, reports, the web page, ``status``): the
    empty clock when the game is not run by mail or its clock file cannot be read (the
    clock is then simply not told); a part that cannot be read is left out."""
    raw = store.read_in(clock_path(game), LARGEST)
    if raw is None:
        return TurnClock()
    try:
        return clock_from_json(json.loads(raw)).clock
    except (ValueError, RecursionError):
        return TurnClock()


class ClockFile:
    """The clock of the game file ``game`` as its keepers (the mail cycle, the GM's clock
    commands: under the game's mail lock) load and save it."""

    def __init__(self, game: str | os.PathLike):
        self.game = Path(game)
        self.path = clock_path(game)
        self._text: str | None = None
        """The file's text as last read or written (``None``: no file)."""
        self.saved: TurnClock = TurnClock()
        """The clock as the file holds it."""

    def exists(self) -> bool:
        return os.path.lexists(self.path)

    def load(self) -> TurnClock:
        """The clock as the file holds it (the empty clock if there is none yet). A file
        that cannot be read is an :class:`InputError` naming it: the game's clock is not
        guessed, and a writer must not replace what it could not read."""
        self._text, self.saved = None, TurnClock()
        if not self.exists():
            return self.saved
        raw = store.read_in(self.path, LARGEST)
        try:
            if raw is None:
                raise Unreadable("not a regular file, or too large")
            text = raw.decode("utf-8")
            parsed = clock_from_json(json.loads(text))
            if parsed.dropped:
                raise Unreadable("; ".join(parsed.dropped))
        except (ValueError, RecursionError) as exc:
            raise InputError(str(self.path), f"the game's clock cannot be read ({exc}); correct it, or move it "
                                             "away to start the current turn's clock afresh") from None
        self._text, self.saved = text, parsed.clock
        return self.saved

    def save(self, clock: TurnClock, audit: list[dict[str, Any]] | tuple = ()) -> None:
        """Write ``clock`` (if it is not what the file holds), then the ``audit`` lines
        that record the change in the game's audit log. Both or neither: a line that cannot
        be written puts the clock file back as it was, and the save fails
        (:class:`CannotWrite`). Never written through a link planted at its name."""
        if clock == self.saved and not audit:
            return
        previous, text = self._text, clock_text(clock)
        if text != previous:
            self._write(text)
        written = []
        try:
            for record in audit:
                written.append(store.append_audit(self.game, canonical(record)))
        except CannotWrite:
            for mark in reversed(written):
                store.retract_audit(self.game, mark)
            self._put_back(previous)
            raise
        self._text, self.saved = text, clock

    def put_back(self, clock: TurnClock, text: str | None) -> None:
        """Undo a :meth:`save` whose companion could not be saved (the mail ledger): the
        file as it was (best effort), known as ``clock``."""
        self._put_back(text)
        self._text, self.saved = text, clock

    @property
    def text(self) -> str | None:
        return self._text

    def _write(self, text: str) -> None:
        store.write_in(self.path.parent, self.path.name, text.encode("utf-8"), 0o600)

    def _put_back(self, text: str | None) -> None:
        try:
            if text is None:
                os.unlink(self.path)
            else:
                self._write(text)
        except (OSError, CannotWrite):
            pass

    def migrate(self, parts: dict[str, Any], now, ledger: str) -> TurnClock:
        """Take over the clock a mail ledger of an earlier release kept (``parts``: its
        ``clock``, ``paused``, ``absences`` and ``last_error``, handed in by the mail
        adapter, which saves its ledger without them afterwards), and log the move in the
        audit log. A clock file that exists already is the game's clock (a run that moved
        it died before its ledger was saved): the ledger's parts are left. What of them
        cannot be read is left out, and the log names it."""
        if self.exists():
            return self.load()
        self.load()
        parsed = legacy_clock(parts)
        record: dict[str, Any] = {"action": "clock-moved", "at": iso(now), "from": ledger, "to": self.path.name}
        if parsed.dropped:
            record["dropped"] = parsed.dropped
        self.save(parsed.clock, [record])
        return parsed.clock
