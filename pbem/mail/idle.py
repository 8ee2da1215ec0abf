"""The mail cycle with watermarks: what ``mail run`` runs for the games that are not idle.

:class:`MarkedCycle` is :class:`pbem.mail.cycle.Cycle` with four things added around its
steps, none inside them:

- when it takes a game's mail lock it removes the game's mark (:mod:`pbem.mail.marks`): a
  run that dies from then on leaves none, and a mark exists only after a cycle that ended
  well;
- before a mail source is read, it takes the source's watermark (a local mailbox's times,
  an IMAP mailbox's UIDVALIDITY, UIDNEXT and EXISTS as the server gives them when the
  mailbox is opened), so that a mail that arrives while the run reads makes the next run
  a full one; an IMAP source is told what each game remembers of it, so that a mailbox in
  which nothing arrived is not read (:class:`pbem.mail.inbox.ImapSource`);
- a game whose mark holds in everything but the source (it is in the run only because
  new mail came) is not loaded until a mail is for it (:class:`LazyRun`): the other games
  that share the mailbox only note the mail in their ledgers;
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
from typing import Any

from pbem.errors import GameLocked, PbemError
from pbem.mail import marks
from pbem.mail.config import GameMail, MailConfig
from pbem.mail.cycle import Cycle, Log
from pbem.mail.runs import GameRun, bug
from pbem.mail.inbox import ImapSource, LocalSource, Source
from pbem.mail.ledger import load_ledger, mail_lock, spool_path
from pbem.mail.transport import Transport, waiting
from pbem.service import store
from pbem.service.service import GameService

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


class LazyRun(GameRun):
    """A game in the cycle whose file is, as its mark says, the one the last cycle ended
    with: it is loaded only when something asks for the game itself (a mail for it).
    Until then its id and its players' addresses, which route a mail, come from the mark."""

    def __init__(self, settings: GameMail, service: GameService, ledger, spool, mark: dict[str, Any]):
        self._game = None
        self.mark = mark
        super().__init__(settings=settings, service=service, ledger=ledger, game=None, spool=spool)

    @property
    def game(self):
        if self._game is None:
            self._game = self.service.load()
        return self._game

    @game.setter
    def game(self, value) -> None:
        self._game = value

    @property
    def loaded(self) -> bool:
        return self._game is not None

    @property
    def game_id(self) -> str:
        return self._game.game_id if self._game is not None else self.mark["game"]["id"]

    def registered(self, address: str) -> bool:
        if self._game is not None:
            return super().registered(address)
        address = address.lower()
        return any((e or "").lower() == address for e in self.mark["game"]["addresses"].values())


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
        if self.record:
            early = marks.look(self.config, settings, self._option, self.now)
            if early.idle:
                opened = self._open_lazy(stack, settings)
                if opened is not False:
                    return opened
        run = super()._open(stack, settings)
        if run is not None:  # the lock is held
            verdict = marks.look(self.config, settings, self._option, self.now)
            marks.forget(settings.file)
            self._prepare(run, verdict)
            run.service.reuse_loaded = True
        return run

    def _open_lazy(self, stack: ExitStack, settings: GameMail) -> GameRun | None | bool:
        """Open a game whose mark holds in everything but the source without loading it:
        the run, ``None`` if another run has the game, ``False`` if it must be opened
        as usual after all."""
        with ExitStack() as held:
            try:
                held.enter_context(mail_lock(settings.file))
            except GameLocked:
                self.log(f"{settings.file}: another mail run is working on this game; left to it")
                return None
            except PbemError:
                return False
            verdict = marks.look(self.config, settings, self._option, self.now)  # again, under the lock
            if not verdict.idle:
                return False
            try:
                ledger = load_ledger(settings.file)
            except PbemError:
                return False
            if ledger.queued < 0:
                return False
            marks.forget(settings.file)
            service = GameService(settings.file)
            service.reuse_loaded = True
            run = LazyRun(settings, service, ledger, spool_path(settings.file), verdict.mark)
            self._runs[run.game_id] = run
            self._prepare(run, verdict)
            stack.enter_context(held.pop_all())  # the lock now lasts as long as the cycle's
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

    def _handle(self, run: GameRun, *args: Any, **kwargs: Any) -> None:
        """A mail for a game not loaded yet: load it first. Should it not load (its file
        was broken since the lock was taken), the game is left, as one locked by another
        run is, and the mail is read again on the next run, not answered."""
        if isinstance(run, LazyRun) and not run.loaded:
            try:
                run.game
            except Exception as exc:  # damaged since (or a bug loading it): this game's failure alone
                failure = exc if isinstance(exc, PbemError) else bug(str(run.settings.file), exc)
                run.stopped = str(failure)
                self._fail(run.game_id, failure)
                return
        super()._handle(run, *args, **kwargs)

    # -- a game the mail did not touch has nothing to report and no clock to keep ------------

    def report(self, run: GameRun) -> None:
        if isinstance(run, LazyRun) and not run.loaded:
            return  # the game is the one the last cycle ended with, and its ledger says so
        super().report(run)

    def keep_time(self, run: GameRun) -> None:
        if isinstance(run, LazyRun) and not run.loaded:
            return  # its mark says the clock needs nothing before a later moment
        super().keep_time(run)

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
        if isinstance(run, LazyRun) and not run.loaded:
            game = run.mark["game"]
            if marks.file_state(settings.file) != game["file"]:
                return
            upcoming = run.mark["next"]
        else:
            loaded = run.game
            st = loaded.state.status
            known, moment = marks.next_moment(settings, run.ledger.clock, st.turn, st.active, st.winner,
                                              run.ledger.judge, self.now)
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
