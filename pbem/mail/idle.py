"""The watermarks kept by the mail cycle: the strategy (:class:`Watermarks`) that
``mail run`` hands the cycle (:class:`pbem.mail.cycle.Cycle`) for the games that are not
idle. It adds four things around the cycle's steps, none inside them:

- when it takes a game's mail lock it removes the game's mark (:mod:`pbem.mail.watermarks`):
  a run that dies from then on leaves none, and a mark exists only after a cycle that ended
  well;
- before a mail source is read, it takes the source's watermark (a local mailbox's times,
  an IMAP mailbox's UIDVALIDITY, UIDNEXT and EXISTS as the server gives them when the
  mailbox is opened), so that a mail that arrives while the run reads makes the next run
  a full one; an IMAP source is told what each game remembers of it, so that a mailbox in
  which nothing arrived is not read (:class:`pbem.mail.inbox.ImapSource`);
- a game whose mark holds in everything but the source (it is in the run only because
  new mail came) is not loaded until a mail is for it (its :class:`~pbem.mail.runs.GameRun`
  is opened with the mark instead of the game): the other games that share the mailbox
  only note the mail in their ledgers;
- when a game's cycle ended without a failure (nothing raised or was reported, it was not
  left to another run, its queue is empty), it writes the game's new mark, atomically and
  still under the lock, with the moment its clock next needs a run
  (:func:`pbem.service.clock.next_step`, the function the cycle's timekeeper acts on). The
  game file's state goes into it only if the file on disk is the game the run ended with
  (its history's head, read cheaply), so a GM who runs ``process`` by hand at that moment
  is not missed.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from datetime import datetime
from typing import Any

from pbem.errors import GameLocked, PbemError
from pbem.mail import watermarks as marks
from pbem.mail.config import GameMail, MailConfig
from pbem.mail.inbox import ImapSource, LocalSource, Source
from pbem.mail.ledger import mail_lock, open_books
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import waiting
from pbem.service import store
from pbem.service.clock import next_step

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
    """The game file's :func:`pbem.mail.watermarks.file_state` if the file on disk is the game
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




class Watermarks:
    """The games' watermarks, kept around a cycle's steps (the module's docstring says how).

    ``record``: write marks (``mail run``); ``inbox`` and ``remind`` only remove them.
    ``wall``: the clock the moment a local source is looked at is read from (nanoseconds
    since the epoch; handed in by the command line, as ``now``)."""

    def __init__(self, config: MailConfig, now: datetime, journal: Journal, *, record: bool = True,
                 wall: Callable[[], int] = time.time_ns):
        self.config = config
        self.now = now
        self.journal = journal
        self.record = record
        self.wall = wall
        self.option: str | None = None
        self.reading_mail = True
        self.deadlines = True
        self.failing = False
        """Something failed since the flag was last cleared (around a read, after a game's
        delivery): the game at hand gets no mark."""

    def begin(self, option: str | None, read: bool, deadlines: bool) -> None:
        self.option, self.reading_mail, self.deadlines = option, read, deadlines

    def failed(self) -> None:
        self.failing = True

    def _spec(self, settings: GameMail) -> str | None:
        return marks.effective_source(self.config, settings, self.option) if self.reading_mail else None

    # -- opening: the lock, the mark, the game (maybe not yet) ------------------------------

    def open(self, stack: ExitStack, settings: GameMail, full: Callable[[], GameRun | None]) -> GameRun | None:
        if self.record:
            early = marks.look(self.config, settings, self.option, self.now)
            if early.idle:
                opened = self._open_lazy(stack, settings)
                if opened is not False:
                    return opened
        run = full()
        if run is not None:  # the lock is held
            verdict = marks.look(self.config, settings, self.option, self.now)
            marks.forget(settings.file)
            self._prepare(run, verdict)
        return run

    def _open_lazy(self, stack: ExitStack, settings: GameMail) -> GameRun | None | bool:
        """Open a game whose mark holds in everything but the source without loading it:
        the run, ``None`` if another run has the game, ``False`` if it must be opened
        as usual after all."""
        with ExitStack() as held:
            try:
                held.enter_context(mail_lock(settings.file))
            except GameLocked:
                self.journal.left_to_another(settings.file)
                return None
            except PbemError:
                return False
            verdict = marks.look(self.config, settings, self.option, self.now)  # again, under the lock
            if not verdict.idle or verdict.mark is None:
                return False
            try:
                books = open_books(settings.file, self.now)
            except PbemError:
                return False
            if books.ledger.queued < 0 or books.clock.config != self.config.owner:
                return False  # opened as usual (a game of another configuration is refused there)
            marks.forget(settings.file)
            run = GameRun.of(self.config, settings, books, mark=verdict.mark)
            self.journal.runs[run.game_id] = run
            self._prepare(run, verdict)
            stack.enter_context(held.pop_all())  # the lock now lasts as long as the cycle's
            return run

    def _prepare(self, run: GameRun, verdict: marks.Verdict) -> None:
        source = verdict.source
        ours = (source is not None and verdict.ledger_unchanged() and source["spec"] == marks.source_key(verdict.spec)
                and self._spec(run.settings) is not None)
        # the source's watermark until it is read: the mark's, if its ledger is the one that knew
        # it (a cycle that reads only the mails `mail receive` kept leaves the source as it was)
        run.watermark = {"kind": "none", "spec": None} if self._spec(run.settings) is None else source if ours else None
        run.failed = False
        # what the game remembers of an IMAP mailbox
        run.remembered = source["state"] if ours and source is not None and source["kind"] == "imap" else None

    # -- reading: the watermark first -------------------------------------------------------

    @contextmanager
    def reading(self, runs: list[GameRun], source: Source) -> Iterator[None]:
        taken = 0
        if isinstance(source, ImapSource):
            source.remembered = [r.remembered for r in runs]
            local = None
        else:
            local = marks.local_state(str(source.path)) if isinstance(source, LocalSource) else None
            taken = self.wall()
        self.failing = False
        try:
            yield
        except BaseException:
            for run in runs:
                run.failed = True
            raise
        if isinstance(source, ImapSource):
            watermark = None if source.observed is None else {
                "kind": "imap", "spec": marks.source_key(source.url), "state": source.observed}
        else:
            watermark = None if local is None or not isinstance(source, LocalSource) else {
                "kind": "local", "spec": marks.source_key(str(source.path)), "state": local, "taken_ns": taken}
        for run in runs:
            run.watermark = watermark
            run.failed = run.failed or self.failing
        self.failing = False

    # -- the end of a game's cycle: its new mark --------------------------------------------

    def finished(self, run: GameRun) -> None:
        failed = self.failing or run.failed
        self.failing = False
        if self.record and not failed:
            try:
                self._record(run)
            except (OSError, PbemError):
                pass  # no mark: the next run is a full one
            except Exception as exc:  # a bug here must not stop the other games' mail
                self.journal.warn(f"{run.settings.file}: the watermark was not written (a bug in antike-ref, please "
                                  f"report it): {type(exc).__name__}: {exc}; the next run is a full one")

    def _record(self, run: GameRun) -> None:
        settings = run.settings
        watermark = run.watermark
        if watermark is None or run.stopped or not self.deadlines or waiting(run.spool):
            return
        if run.loaded is None and run.mark is not None:
            game = run.mark["game"]
            if marks.file_state(settings.file) != game["file"]:
                return
            upcoming = run.mark["next"]
        else:
            loaded = run.game
            st = loaded.state.status
            step = next_step(run.clock, run.rules, st.turn, st.active, st.winner, self.now)
            if step.kind == "start":  # the clock is not the current turn's: when next is not known
                return
            head = loaded.history[-1]["hash"]
            state = settled_game(settings.file, head)
            if state is None:
                return
            game = {"file": state, "id": loaded.game_id, "head": head,
                    "addresses": {n: loaded.meta[n].email for n in loaded.seats}}
            upcoming = None if step.at is None else marks.iso(step.at)
        data = {"settings": marks.settings_digest(self.config, settings, self._spec(settings)),
                "at": marks.iso(self.now), "next": upcoming, "game": game,
                "ledger": marks.file_state(marks.ledger_file(settings.file)),
                "clock": marks.file_state(marks.clock_file(settings.file)), "source": watermark}
        target = marks.mark_path(settings.file)
        store.write_atomic(target, marks.mark_text(data), durable=False)  # a cache: no fsync
        since = store.held_since(marks.ledger_file(settings.file))  # the mail lock's file
        if since is not None:
            store.clear_stale_temps(target, since)
