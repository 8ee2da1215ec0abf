"""What the mail cycle has done for one game, kept beside it in ``GAME.mail.json``.

The history is the record of what was *applied* (each entry that came by mail carries its
Message-ID); the ledger records the rest: every mail looked at and what became of it, up
to which history entry the reports have been queued, the notices waiting to go out, the
address moves waiting for their code, and when each nation last changed its password or
address by mail. It is rewritten atomically, under the game's mail lock, after every step,
so a crash costs at most the repetition of the step that was under way. It holds the
players' addresses and pending codes: it is the GM's alone (mode 600).

The game's clock is not the ledger's: the service keeps it in a file of its own
(:mod:`pbem.service.clockfile`). A ledger of an earlier release (format 1) still holds its
parts of the clock; :func:`open_books` hands them over to the service the first time it
opens such a ledger, and saves the ledger without them (format 2). A step that changes the
clock saves it with the ledger (:func:`commit`): the ledger, then the clock and the lines
of the audit log that record the change; what cannot be written puts back what was, so
the log never records a change that was not made, and no change is made unrecorded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

from pbem.errors import CannotWrite, InputError, UsageError
from pbem.service import store
from pbem.service.clock import TurnClock
from pbem.service.clockfile import ClockFile

FORMAT = 2
LEGACY = 1
"""The format of the releases that kept the clock in the ledger."""
CLOCK_PARTS = ("clock", "paused", "absences", "last_error")
"""What a ledger of format 1 kept of the game's clock."""
CONTENT = ("fp", "size", "again")
"""What a ledger keeps of a mail's content: its digest, its size, and the digests of other
mails seen later under the same Message-ID."""


@dataclass
class Ledger:
    path: Path
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Message-ID -> {"outcome": applied|rejected|ignored|answered, ...}."""
    queued: int = -1
    """The last history entry (``seq``) whose mails are queued; -1: none yet."""
    head: str | None = None
    """The history head hash the reports were last queued for (an undo changes it)."""
    announce: list[dict[str, Any]] = field(default_factory=list)
    """Notices for the players' next mails (the GM's and the players' changes of the
    clock): ``{"text", "to"}``."""
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Address moves waiting to be confirmed: code -> ``{"nation", "from", "to", "at"}``."""
    identity: dict[str, list[str]] = field(default_factory=dict)
    """Nation -> when it changed its password or address by mail (for the rate a day)."""
    strays: list[dict[str, Any]] = field(default_factory=list)
    """The latest mails from a player's other address (:mod:`pbem.mail.strays`):
    ``{"at", "nation", "address"}``, for ``status``."""
    legacy_clock: dict[str, Any] | None = None
    """The parts of the clock a ledger of format 1 holds, until :func:`open_books` hands
    them over to the service."""
    on_save: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Called after each save that succeeded (the cycle: the mails spooled so far are
    decided, :meth:`pbem.mail.runs.GameRun.take_back`)."""
    _content: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _text: str | None = field(default=None, repr=False)
    """The ledger's text on disk as last read or written (``None``: no file yet)."""

    def known(self, message_id: str) -> bool:
        return message_id in self.messages

    def note(self, message_id: str, outcome: str, **details: Any) -> None:
        """Record what became of a mail; the mail's content marks (:meth:`content`) stay."""
        kept = {k: v for k, v in self.messages.get(message_id, {}).items() if k in CONTENT}
        self.messages[message_id] = {"outcome": outcome, **details, **kept, **self._content.pop(message_id, {})}

    def content(self, message_id: str, fingerprint: str, size: int | None) -> None:
        """What a mail held (a digest, its size), kept with whatever :meth:`note` records of
        it, so that its Message-ID seen again with other content is told apart."""
        marks = {"fp": fingerprint} if fingerprint.startswith("sha256:") else {}
        if size is not None:
            marks["size"] = size
        self._content[message_id] = marks

    def differs(self, message_id: str, fingerprint: str | None) -> bool:
        """Whether the mail known by ``message_id`` held something else than ``fingerprint``
        (a digest, or ``size:N``) says; ``False`` where the ledger has nothing to compare."""
        record = self.messages.get(message_id) or {}
        if not fingerprint:
            return False
        if fingerprint.startswith("size:"):
            return "size" in record and f"size:{record['size']}" != fingerprint
        return "fp" in record and record["fp"] != fingerprint

    def to_json(self) -> dict[str, Any]:
        kept = {"announce": self.announce, "pending": self.pending, "identity": self.identity,
                "strays": self.strays}
        legacy = self.legacy_clock or {}
        return {"format": FORMAT if self.legacy_clock is None else LEGACY, "messages": self.messages,
                "queued": self.queued, "head": self.head, **legacy,
                **{k: v for k, v in kept.items() if v not in (None, [], {})}}

    @property
    def text(self) -> str | None:
        """The ledger's text on disk as last read or written (``None``: no file yet)."""
        return self._text

    def write(self) -> None:
        """Write the ledger whole, atomically: one mail a line, keys sorted. (A ledger grows
        with every mail a game's mailbox holds and is written after each: the layout is the
        one the C encoder writes, some ten times faster than an indented one. Ledgers in the
        indented layout of earlier releases read the same.)"""
        text = json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        text = text.replace(',"<', ',\n"<') + "\n"
        store.write_atomic(self.path, text, mode=0o600)
        self._text = text

    def saved(self) -> None:
        """A save succeeded (the ledger and whatever was saved with it)."""
        if self.on_save is not None:
            self.on_save()

    def save(self) -> None:
        """:meth:`write`, then :meth:`saved`."""
        self.write()
        self.saved()

    def put_back(self, text: str | None) -> None:
        """Put the ledger's file back as ``text`` (the text before the last write; ``None``:
        no file), best effort."""
        try:
            if text is None:
                self.path.unlink(missing_ok=True)
            else:
                store.write_atomic(self.path, text, mode=0o600)
        except (OSError, CannotWrite):
            pass
        self._text = text


def ledger_path(game: str | os.PathLike) -> Path:
    return store.sibling(game, ".mail.json")


def spool_path(game: str | os.PathLike) -> Path:
    """The folder of mails waiting to be delivered: ``GAME.mail-queue/``."""
    return store.sibling(game, ".mail-queue")


def load_ledger(game: str | os.PathLike) -> Ledger:
    path = ledger_path(game)
    if not path.exists():
        return Ledger(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        if data.get("format") not in (FORMAT, LEGACY):
            raise ValueError(f"format {data.get('format')!r}, expected {FORMAT}")
        legacy = {k: data[k] for k in CLOCK_PARTS if k in data} if data["format"] == LEGACY else None
        return Ledger(path, dict(data["messages"]), int(data["queued"]), data.get("head"),
                      list(data.get("announce") or []), dict(data.get("pending") or {}),
                      dict(data.get("identity") or {}), list(data.get("strays") or []), legacy, _text=text)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InputError(str(path), f"the mail ledger cannot be read ({exc}); move it away to start afresh") from None


@dataclass
class Books:
    """A game's ledger and its clock, as one keeper (under the game's mail lock) has them."""

    ledger: Ledger
    clocks: ClockFile
    clock: TurnClock


def open_books(game: str | os.PathLike, now: datetime) -> Books:
    """The game's ledger and clock (the caller holds the game's mail lock). A ledger of an
    earlier release hands its parts of the clock over to the service (logged in the audit
    log) and is saved without them."""
    ledger = load_ledger(game)
    clocks = ClockFile(game)
    since = store.held_since(ledger.path)  # the mail lock's file
    if since is not None:  # what a killed run left of the clock's file
        store.clear_stale_temps(clocks.path, since)
    if ledger.legacy_clock is None:
        return Books(ledger, clocks, clocks.load())
    clock = clocks.migrate(ledger.legacy_clock, now, ledger.path.name)
    ledger.legacy_clock = None
    ledger.save()
    return Books(ledger, clocks, clock)


def claim(books: Books, game: str | os.PathLike, owner: str | None) -> bool:
    """Check that the game belongs to the mail configuration ``owner`` (its full path;
    ``None``: a run without one) before anything of the game is kept by it: a game
    belongs to the configuration that first ran it, recorded in its clock
    (:attr:`pbem.service.clock.TurnClock.config`), so that a second configuration pointed
    at the same game (with other rules for its deadlines) can change nothing. Records
    ``owner`` in ``books.clock`` if no configuration is recorded yet (the caller saves it;
    true then). A usage error if the game belongs to another."""
    recorded = books.clock.config
    if recorded is None:
        if owner is None:
            return False
        books.clock = replace(books.clock, config=owner)
        return True
    if recorded != owner:
        mine = f"this run's is {owner}" if owner is not None else "this run has none"
        moved = (f", or move it to this one on purpose: antike-ref mail adopt {os.fspath(game)} --config {owner}"
                 if owner is not None else "")
        raise UsageError(f"{os.fspath(game)}: this game belongs to the mail configuration {recorded} ({mine}); "
                         f"nothing was done: run it with --config {recorded}{moved}")
    return False


def commit(ledger: Ledger, clocks: ClockFile, clock: TurnClock, audit: list[dict[str, Any]] | tuple = ()) -> None:
    """Save the ledger, then the clock and the ``audit`` lines that record its change: all
    or nothing (a clock or a line that cannot be written puts the ledger back, and the save
    fails with :class:`CannotWrite`)."""
    before = ledger.text
    ledger.write()
    try:
        clocks.save(clock, audit)
    except CannotWrite:
        ledger.put_back(before)
        raise
    ledger.saved()


@contextmanager
def mail_lock(game: str | os.PathLike) -> Iterator[None]:
    """The lock of a game's mail cycle (``GAME.mail.json.lock``): one cycle per game at a
    time; a second run finds it taken and leaves the game to the first
    (:class:`pbem.errors.GameLocked`)."""
    with store.locked(ledger_path(game), must_exist=False):
        yield
