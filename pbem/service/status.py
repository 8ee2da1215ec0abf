"""The GM's status of the games run by mail: one record per game, the games that need the
GM first (``antike-ref status``, docs/mail.md, "Status for the GM").

A record is read from the game file (through :func:`pbem.service.store.load_game`, read
only), its clock (:func:`pbem.service.clockfile.read_clock`) and what the
command line counted in its mail queue (:class:`Queue`; the queue is the mail adapter's,
which this layer does not import). Nothing here reads a clock or writes a file: the time
is handed in.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from pbem.errors import PbemError, clip
from pbem.service.clock import Deadline, TurnClock, iso, local_day, parse_time, span, told
from pbem.service.clockfile import read_clock
from pbem.service.view import current_deadline

ERROR_TEXT = 300
"""A last error or a load error is cut to this many characters."""


@dataclass(frozen=True)
class Queue:
    """What waits in a game's mail queue (``GAME.mail-queue/``)."""

    waiting: int = 0
    """Mails not delivered yet."""
    undeliverable: int = 0
    """Mails given up after the server refused them too often (``undeliverable/``)."""


STRAY_DAYS = 7
"""How long ``status`` tells of a mail from a player's other address."""


def game_status(path: str | os.PathLike, now: datetime, queue: Queue = Queue(), zone: str = "UTC",
                missed: str | None = None, shown: str | None = None, absence: str | None = None,
                config: str | None = None, strays: list[dict[str, str]] | tuple = ()) -> dict[str, Any]:
    """The status of the game file ``path`` at ``now``: a record of named fields (the
    ``status --json`` object, docs/mail.md), never an exception: a game that does not load
    is a record with its ``error``. ``zone``: the time zone times are told in where the
    game's clock names none; ``missed``: what the configuration does when a deadline
    passes, ``absence`` while the player on turn is away; ``shown``: how the file is named
    to the GM (default: ``path``); ``config``: the configuration asked about (its full
    path), which the game should belong to (:attr:`pbem.service.clock.TurnClock.config`);
    ``strays``: the mails from a player's other address the mail adapter kept
    (``{"at", "nation"}``), told for :data:`STRAY_DAYS` days."""
    from pbem.service.store import load_game

    record: dict[str, Any] = {
        "file": shown or os.fspath(path), "zone": zone, "game": None, "error": None, "edition": None, "turn": None,
        "round": None, "active": None, "active_name": None, "player": None, "winner": None, "winner_name": None,
        "since": None, "since_local": None, "deadline": None, "late_seconds": None, "missed": False,
        "policy": missed, "paused": None, "absences": [], "queue": {"waiting": queue.waiting,
                                                                   "undeliverable": queue.undeliverable},
        "last_error": None, "belongs_to": None, "needs_gm": False, "attention": [],
    }
    if strays:  # only where there are any: a record is as it was for every game without
        record["strays"] = _strays(strays, now)
    clock = read_clock(path)
    zone = str(clock.zone or zone)
    record["zone"] = zone
    if clock.last_error is not None:
        record["last_error"] = {"at": iso(clock.last_error.at), "what": clip(clock.last_error.what, ERROR_TEXT)}
    if clock.paused is not None:
        record["paused"] = {"since": iso(clock.paused.since), "reason": clock.paused.reason}
    record["absences"] = _absences(clock, local_day(now, zone))
    if config is not None and clock.config is not None and clock.config != config:
        record["belongs_to"] = clock.config
    try:
        game = load_game(path)
        _game(record, game, clock, now, absence)
    except PbemError as exc:
        record["error"] = clip(str(exc), ERROR_TEXT)
    except (OSError, ValueError, RecursionError) as exc:  # never stops the status of the others
        record["error"] = clip(f"cannot be read: {exc}", ERROR_TEXT)
    except Exception as exc:  # a bug on a damaged file: that game's record says so, the others are told
        record["error"] = clip(f"internal error (a bug in antike-ref, please report it with the file): "
                               f"{type(exc).__name__}: {exc}", ERROR_TEXT)
    record["attention"] = _attention(record, now)
    record["needs_gm"] = bool(record["attention"])
    return record


def _game(record: dict[str, Any], game, clock: TurnClock, now: datetime, absence: str | None = None) -> None:
    """What the game file and the clock of its current turn say. A turn whose deadline
    waits for the player on turn, who is away (``absence = "wait"``), is not late: the game
    waits as it should."""
    st = game.state.status
    edition = game.edition
    record.update(game=game.game_id, edition=edition.id, turn=st.turn, round=st.round, winner=st.winner)
    for named in [*record["absences"], *record.get("strays", [])]:
        if named["nation"] in game.seats:
            named["name"] = edition.nation_name(named["nation"])
    if st.winner is not None:
        record["winner_name"] = edition.nation_name(st.winner)
        return
    record.update(active=st.active, active_name=edition.nation_name(st.active),
                  player=game.meta[st.active].player if st.active in game.meta else None)
    current = clock.current
    if current is None or (current.turn, current.nation) != (st.turn, st.active):
        return  # the mail cycle has not seen this turn yet: no clock runs for it
    record.update(since=iso(current.since), since_local=told(current.since, record["zone"]))
    record["missed"] = current.missed
    deadline: Deadline | None = current_deadline(game, clock)
    if deadline is None:
        return
    record["deadline"] = deadline.to_json(now)
    waits = absence == "wait" and clock.absence_of(st.active, local_day(now, record["zone"])) is not None
    if deadline.running and deadline.due is not None and now >= deadline.due and not waits:
        record["late_seconds"] = int((now - deadline.due).total_seconds())


def _strays(strays: list[dict[str, str]] | tuple, now: datetime) -> list[dict[str, Any]]:
    """Per nation, the mails from its player's other address in the last :data:`STRAY_DAYS`
    days: how many, and the latest."""
    out: dict[str, dict[str, Any]] = {}
    for item in strays:
        try:
            at = parse_time(item["at"])
        except (KeyError, TypeError, ValueError):
            continue
        if (now - at).days < STRAY_DAYS and at <= now:
            seen = out.setdefault(item["nation"], {"nation": item["nation"], "name": item["nation"], "count": 0,
                                                   "latest": item["at"]})
            seen["count"] += 1
            seen["latest"] = max(seen["latest"], item["at"])
    return list(out.values())


def _absences(clock: TurnClock, today: date) -> list[dict[str, Any]]:
    """Every absence that is not over (in effect now, or to come), with its reason: the GM
    may read them."""
    out = [{"nation": a.nation, "name": a.nation, "from": a.first.isoformat(), "until": a.last.isoformat(),
            "now": a.first <= today, "reason": a.reason, "by": a.by} for a in clock.absences if a.last >= today]
    return sorted(out, key=lambda a: (a["from"], a["nation"]))


def _attention(record: dict[str, Any], now: datetime) -> list[str]:
    """Why the GM should look at the game, most urgent first; empty: all is well."""
    out = []
    zone = record["zone"]
    if record["error"]:
        out.append(f"the game file does not load: {record['error']}")
    if record["belongs_to"]:
        out.append(f"it belongs to another mail configuration ({record['belongs_to']}): that one runs it, this one "
                   "is refused (antike-ref mail adopt moves it here)")
    if record["last_error"] and record["last_error"]["what"] != record["error"]:  # not the same error twice
        at = record["last_error"]["at"]
        when = _when(at, zone)
        out.append(f"a mail run failed{' ' + when if when else ''}: {record['last_error']['what']}")
    if record["late_seconds"] is not None:
        late = span(now - parse_time(record["deadline"]["due"]))
        out.append(f"the deadline passed {late} ago and turn {record['turn']} is not played"
                   + (f" (missed = {record['policy']})" if record["policy"] else ""))
    elif record["missed"] and record["deadline"] is not None:
        out.append(f"the deadline of turn {record['turn']} was missed and the game waits")
    if record["queue"]["undeliverable"]:
        n = record["queue"]["undeliverable"]
        out.append(f"{n} mail{'s' if n != 1 else ''} given up (kept in the queue's undeliverable folder)")
    if record["queue"]["waiting"]:
        n = record["queue"]["waiting"]
        out.append(f"{n} mail{'s' if n != 1 else ''} still waiting in the queue")
    for stray in record.get("strays", []):
        when = _when(stray["latest"], zone)
        count = stray["count"]
        out.append(f"{'a mail' if count == 1 else f'{count} mails'} for the {stray['name']} came from another "
                   f"address{' (the latest ' + when + ')' if when and count > 1 else ' ' + when if when else ''}: "
                   "register it (antike-ref player --keep-password) or tell the player")
    if record["paused"] is not None:
        reason = record["paused"]["reason"]
        when = _when(record["paused"]["since"], zone)
        out.append(f"paused{' since ' + when if when else ''}{': ' + reason if reason else ''}")
    return out


def _when(text: Any, zone: str) -> str:
    try:
        return told(parse_time(str(text)), zone) if text else ""
    except ValueError:
        return ""


def order(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games that need the GM first, then the latest first, then by deadline (the
    nearest first; games without one last), then by file."""
    def key(r: dict[str, Any]):
        due = (r["deadline"] or {}).get("due") or "~"
        return (not r["needs_gm"], -(r["late_seconds"] or 0), due, r["file"])

    return sorted(records, key=key)


def left_text(record: dict[str, Any], now: datetime) -> str:
    """How long is left, or how late the turn is: ``in 31 h``, ``late by 5 h``; empty
    without a running deadline."""
    deadline = record["deadline"]
    if deadline and deadline.get("held_until") and not deadline.get("paused"):
        return (f"waits for the player (away until {deadline['held_until']}) until {deadline['resumes_local']} "
                "at the latest")
    if not deadline or not deadline.get("due") or deadline.get("paused"):
        return ""
    due = parse_time(deadline["due"])
    return f"late by {span(now - due)}" if now >= due else f"in {span(due - now)}"
