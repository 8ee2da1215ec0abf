"""The GM's changes to a game's clock from the command line: extensions, absences, pauses.

The changes themselves are the service's (:mod:`pbem.service.clockchanges`, on the clock
the service keeps beside the game: :mod:`pbem.service.clockfile`); this module makes each
under the game's mail lock (no mail run works on the game meanwhile), tells the players
and saves: the notice waits in the mail ledger (``announce``) and goes out with the next
mail run, so that these commands need no mail configuration. The ledger, the clock and
the line of the game's audit log (``GAME.audit.jsonl``, with the GM's ``undo``s) are saved
together (:func:`pbem.mail.ledger.commit`): a change is saved, logged and announced, or
none of it, and a log that cannot be written is exit 10. None of them changes the game
file: they are not in the history, and a replay does not need them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path

from pbem.errors import UsageError
from pbem.mail.config import MailConfig
from pbem.mail.ledger import Books, Ledger, claim, commit, mail_lock, open_books
from pbem.service import clockchanges, numbers
from pbem.service.clock import iso, told, zone_of
from pbem.service.game import Game
from pbem.service.service import GameService, own_game


@dataclass
class Changed:
    """What a change did, for the command line to say."""

    game: Game
    what: str


def announce(ledger: Ledger, text: str, to: str = "all") -> None:
    """A notice for the next mail run to send (``to``: ``all`` or a nation)."""
    ledger.announce.append({"text": text, "to": to})


def absence_notice(game: Game, nation: str, start: date, until: date) -> str:
    return f"The {game.edition.nation_name(nation)} are away from {start:%a %d %b %Y} to {until:%a %d %b %Y}."


def absence_done(nation: str, start: date, until: date, changed: clockchanges.Changed, cap: int) -> str:
    total = changed.facts["total"]
    return (f"{nation} away from {start} to {until} ({total} of {cap} days in a year"
            f"{', over the cap as the GM allowed' if total > cap else ''}); the players are told with the next "
            "mail run")


def back_notice(game: Game, nation: str) -> str:
    return f"The {game.edition.nation_name(nation)} are back."


Change = Callable[[Game, Books], tuple[clockchanges.Changed, str, str]]
"""A change made on the game and its books: the change, the players' notice, what to say."""


def _change(path: Path, now: datetime, change: Change, owner: str | None = None) -> Changed:
    """Make ``change`` under the game's mail lock: announced, then the ledger, the clock and
    the audit line saved together; the game's watermark is forgotten (its clock changed).
    ``owner``: the mail configuration the GM named (``--config``), which the game must
    belong to (:func:`pbem.mail.ledger.claim`)."""
    from pbem.mail import watermarks

    with mail_lock(path):
        game = own_game(GameService(path).load())
        books = open_books(path, now)
        if owner is not None:
            claim(books, path, owner)
        changed, notice, what = change(game, books)
        announce(books.ledger, notice)
        commit(books.ledger, books.clocks, changed.clock, [changed.record])
        watermarks.forget(path)
    return Changed(game, what)


def change_deadline(path: Path, now: datetime, by: timedelta | None = None, to: datetime | str | None = None,
                    reason: str = "", force: bool = False, owner: str | None = None,
                    zone: str | None = None) -> Changed:
    """``deadline --extend`` (``by``) or ``--set`` (``to``: a time, or its text as the GM
    typed it, read in ``zone`` or else the game's when it names none) of the current turn's
    deadline (:func:`pbem.service.clockchanges.move_deadline`; ``force``: also into the
    past)."""
    given = zone

    def change(game: Game, books: Books) -> tuple[clockchanges.Changed, str, str]:
        st = game.state.status
        current = clockchanges.running(books.clock, st.turn, st.active, st.winner, game.edition.nation_name)
        at = numbers.moment(to, "--set", zone_of(given or current.zone)) if isinstance(to, str) else to
        changed = clockchanges.move_deadline(books.clock, current, now, by, at, reason, force)
        old, new, zone = changed.facts["old"], changed.facts["new"], current.zone
        notice = (f"The deadline of turn {st.turn} ({game.edition.nation_name(st.active)}) is now "
                  f"{told(new, zone)}" + (f" (it was {told(old, zone)})." if old != new else "."))
        return changed, notice, (f"the deadline of turn {st.turn} ({st.active}) is now {told(new, zone)} "
                                 f"(was {told(old, zone)}); the players are told with the next mail run")

    if (by is None) == (to is None):
        raise UsageError("give --extend DURATION or --set TIME")
    return _change(path, now, change, owner)


def add_absence(path: Path, nation: str, start: date, until: date, now: datetime, reason: str = "",
                by: str = "gm", cap: int = 21, zone: str | None = None, over_cap: bool = False,
                owner: str | None = None) -> Changed:
    """A nation's player is away from ``start`` to ``until`` (both days included); the other
    players are told that the nation is away, never why
    (:func:`pbem.service.clockchanges.add_absence`)."""

    def change(game: Game, books: Books) -> tuple[clockchanges.Changed, str, str]:
        changed = clockchanges.add_absence(books.clock, game.seats, nation, start, until, now, reason, by, cap, zone,
                                           over_cap)
        return changed, absence_notice(game, nation, start, until), absence_done(nation, start, until, changed, cap)

    return _change(path, now, change, owner)


def end_absence(path: Path, nation: str, now: datetime, by: str = "gm", owner: str | None = None) -> Changed:
    """The nation's player is back (:func:`pbem.service.clockchanges.end_absence`)."""

    def change(game: Game, books: Books) -> tuple[clockchanges.Changed, str, str]:
        changed = clockchanges.end_absence(books.clock, nation, now, by)
        return changed, back_notice(game, nation), f"{nation} is back; the players are told with the next mail run"

    return _change(path, now, change, owner)


def pause(path: Path, now: datetime, reason: str, owner: str | None = None) -> Changed:
    """No deadline runs until :func:`resume`; the players are told (with the reason)."""

    def change(game: Game, books: Books) -> tuple[clockchanges.Changed, str, str]:
        changed = clockchanges.pause(books.clock, now, reason)
        notice = ("The GM has paused the game" + (f": {reason}" if reason else "")
                  + ". No deadline runs until it goes on; orders are still welcome.")
        return changed, notice, "the game is paused; the players are told with the next mail run"

    return _change(path, now, change, owner)


def resume(path: Path, now: datetime, owner: str | None = None) -> Changed:
    """The game goes on: the current turn's deadline moves on by the time it was paused."""

    def change(game: Game, books: Books) -> tuple[clockchanges.Changed, str, str]:
        changed = clockchanges.resume(books.clock, now)
        current, shift = changed.clock.current, changed.facts["shift"]
        due = (f" The deadline of the current turn is {told(current.due, current.zone)}."
               if current is not None and current.due is not None else "")
        return changed, "The game goes on." + due, "the game goes on" + (
            f"; the deadline moved on by {shift}" if shift else "")

    return _change(path, now, change, owner)


def adopt(path: Path, now: datetime, config: MailConfig) -> str:
    """``mail adopt``: the game belongs to the mail configuration ``config`` from now on
    (it must list the game); the move is logged in the game's audit log, and the game's
    watermark forgotten. The configuration it belonged to is refused from then on."""
    from pbem.mail import watermarks

    owner = config.owner
    if owner is None:
        raise UsageError("give --config FILE: the mail configuration the game is to belong to")
    if not any(os.path.realpath(g.file) == os.path.realpath(path) for g in config.games):
        raise UsageError(f"{path} is not a game of {config.path}: add it there first ([[game]] file = ...)")
    with mail_lock(path):
        own_game(GameService(path).load())
        books = open_books(path, now)
        before = books.clock.config
        if before == owner:
            return f"{path} belongs to {owner} already; nothing changed"
        record = {"action": "adopt", "at": iso(now), "from": before, "to": owner}
        commit(books.ledger, books.clocks, replace(books.clock, config=owner), [record])
        watermarks.forget(path)
    return (f"{path} belongs to {owner} now" + (f" (it belonged to {before}, which is refused from now on)"
                                                 if before else ""))


def zone_day(text: str, where: str) -> date:
    """``2026-12-03``: a day, as the absence commands take it (:func:`pbem.service.numbers.day`)."""
    return numbers.day(text, where)
