"""The mail cycle with watermarks: what ``mail run`` runs for the games that are not idle.

:class:`MarkedCycle` is :class:`pbem.mail.cycle.Cycle` with three things added around its
steps, none inside them:

- when it takes a game's mail lock it removes the game's mark (:mod:`pbem.mail.marks`): a
  run that dies from then on leaves none, and a mark exists only after a cycle that ended
  well;
- before a mail source is read, it takes the source's watermark (a local mailbox's times,
  an IMAP mailbox's UIDVALIDITY, UIDNEXT and EXISTS as the server gives them when the
  mailbox is opened), so that a mail that arrives while the run reads makes the next run
  a full one; an IMAP source is told what each game remembers of it, so that a mailbox in
  which nothing arrived is not read (:class:`pbem.mail.inbox.ImapSource`);
- when a game's cycle ended without a failure (nothing raised or was reported, it was not
  left to another run, its queue is empty), it writes the game's new mark, atomically and
  still under the lock. The game file's state goes into it only if the file on disk is the
  game the run ended with (its history's head, read cheaply), so a GM who runs
  ``process`` by hand at that moment is not missed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime

from pbem.errors import PbemError
from pbem.mail import marks
from pbem.mail.config import GameMail, MailConfig
from pbem.mail.cycle import Cycle, GameRun, Log
from pbem.mail.inbox import ImapSource, LocalSource, Source
from pbem.mail.transport import Transport, waiting
from pbem.service import store

_HISTORY_CLOSE = b'\n ],\n "nations": '
_ENTRY_HASH = b'\n   "hash": "'


def head_of(text: bytes) -> str | None:
    """The hash of the last history entry of a game file's text: found in the layout
    antike-ref writes without parsing the file, else from the parsed JSON; ``None`` if
    the text holds none."""
    end = text.find(_HISTORY_CLOSE)
    at = text.rfind(_ENTRY_HASH, 0, end) if end >= 0 else -1
    if at >= 0:
        start = at + len(_ENTRY_HASH)
        close = text.find(b'"', start)
        value = text[start:close]
        if close > start and value.isalnum():
            return value.decode("ascii")
    try:
        found = json.loads(text)["history"][-1]["hash"]
    except (ValueError, KeyError, IndexError, TypeError, RecursionError):
        return None
    return found if isinstance(found, str) else None


def settled_game(path: str | os.PathLike, head: str) -> list[int] | None:
    """The game file's :func:`pbem.mail.marks.file_state` if the file on disk is the game
    whose history ends in ``head`` (and did not change while it was read), else ``None``."""
    try:
        with open(path, "rb") as fh:
            before = os.fstat(fh.fileno())
            text = fh.read()
        after = marks.file_state(path)
    except OSError:
        return None
    if after != [before.st_dev, before.st_ino, before.st_mtime_ns, before.st_size]:
        return None
    return after if head_of(text) == head else None


class MarkedCycle(Cycle):
    """:class:`Cycle` keeping each game's watermark (the module's docstring says how).

    ``record``: write marks (``mail run``); ``inbox`` and ``remind`` only remove them.
    ``wall``: the clock the moment a local source is looked at is read from (nanoseconds
    since the epoch; handed in by the command line, as ``now``)."""

    def __init__(self, config: MailConfig, now: datetime, transport: Transport, log: Log,
                 warn: Log | None = None, *, record: bool = True,
                 wall: Callable[[], int] = time.time_ns):
        super().__init__(config, now, transport, log, warn)
        self.record = record
        self.wall = wall
        self._option: str | None = None
        self._reading = True
        self._deadlines = True
        self._failed = False

    def run(self, games: list[GameMail], source: str | None = None, read: bool = True,
            deadlines: bool = True):
        self._option, self._reading = source, read
        self._deadlines = deadlines
        return super().run(games, source, read, deadlines)

    def _fail(self, where: str, exc: PbemError) -> None:
        self._failed = True
        super()._fail(where, exc)

    def _spec(self, settings: GameMail) -> str | None:
        return marks.effective_source(self.config, settings, self._option) if self._reading else None

    # -- opening: the lock, the mark, the game (maybe not yet) ------------------------------

    def _open(self, stack: ExitStack, settings: GameMail) -> GameRun | None:
        run = super()._open(stack, settings)
        if run is not None:  # the lock is held
            verdict = marks.look(self.config, settings, self._option, self.now)
            marks.forget(settings.file)
            self._prepare(run, verdict)
            run.service.reuse_loaded = True
        return run

    def _prepare(self, run: GameRun, verdict: marks.Verdict) -> None:
        run.watermark = None if self._spec(run.settings) is not None else {"kind": "none", "spec": None}
        run.failed = False
        # what the game remembers of an IMAP mailbox, if its ledger is the one that knew it
        source = verdict.source
        run.remembered = (source["state"] if source is not None and source["kind"] == "imap"
                          and verdict.ledger_unchanged() and source["spec"] == marks.source_key(verdict.spec)
                          else None)

    # -- reading: the watermark first -------------------------------------------------------

    def read(self, runs: list[GameRun], source: Source) -> None:
        if isinstance(source, ImapSource):
            source.remembered = [getattr(r, "remembered", None) for r in runs]
            local = None
        else:
            local = marks.local_state(str(source.path)) if isinstance(source, LocalSource) else None
            taken = self.wall()
        self._failed = False
        try:
            super().read(runs, source)
        except BaseException:
            for run in runs:
                run.failed = True
            raise
        if isinstance(source, ImapSource):
            watermark = None if source.observed is None else {
                "kind": "imap", "spec": marks.source_key(source.url), "state": source.observed}
        else:
            watermark = None if local is None else {
                "kind": "local", "spec": marks.source_key(str(source.path)), "state": local, "taken_ns": taken}
        for run in runs:
            run.watermark = watermark
            run.failed = run.failed or self._failed
        self._failed = False

    # -- the end of a game's cycle: its new mark --------------------------------------------

    def deliver(self, run: GameRun) -> None:
        super().deliver(run)
        failed = self._failed or getattr(run, "failed", True)
        self._failed = False
        if self.record and not failed:
            try:
                self._record(run)
            except (OSError, PbemError):
                pass  # no mark: the next run is a full one
            except Exception as exc:  # a bug here must not stop the other games' mail
                self.warn(f"{run.settings.file}: the watermark was not written (a bug in antike-ref, please "
                          f"report it): {type(exc).__name__}: {exc}; the next run is a full one")

    def _record(self, run: GameRun) -> None:
        settings = run.settings
        watermark = getattr(run, "watermark", None)
        if watermark is None or run.stopped or not self._deadlines or waiting(run.spool):
            return
        loaded = run.game
        st = loaded.state.status
        known, moment = marks.next_moment(settings, run.ledger.clock, st.turn, st.active, st.winner)
        head = loaded.history[-1]["hash"]
        state = settled_game(settings.file, head) if known else None
        if state is None:
            return
        game = {"file": state, "id": loaded.game_id, "head": head,
                "addresses": {n: loaded.meta[n].email for n in loaded.seats}}
        upcoming = None if moment is None else marks.iso(moment)
        data = {"settings": marks.settings_digest(self.config, settings, self._spec(settings)),
                "at": marks.iso(self.now), "next": upcoming, "game": game,
                "ledger": marks.file_state(marks.ledger_file(settings.file)), "source": watermark}
        target = marks.mark_path(settings.file)
        store.write_atomic(target, marks.mark_text(data), durable=False)  # a cache: no fsync
        since = store.held_since(marks.ledger_file(settings.file))  # the mail lock's file
        if since is not None:
            store.clear_stale_temps(target, since)
