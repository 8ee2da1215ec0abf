"""One mail cycle: read new mail, apply the orders, answer, report, remind, keep deadlines.

This module is the cycle's table of contents: it calls its collaborators in order, and
does nothing itself. ``inbox``, ``remind`` and ``mail run`` are this cycle with parts left
out. For each game it runs under the game's mail lock (a second run at the same time
leaves the game alone), and every step is recorded before the next begins, so a run may
stop anywhere:

1. *Open* (:meth:`Cycle.open`): the game's lock, its ledger and clock
   (:func:`pbem.mail.ledger.open_books`), the game (:class:`pbem.mail.runs.GameRun`), or,
   for a game the watermarks (a strategy: :class:`pbem.mail.idle.Watermarks`) say is as
   the last run left it, its mark until a mail is for it.
2. *Read* (:meth:`Cycle.read`): each mail of the source the ledgers do not know
   (:class:`pbem.mail.reader.Reader`) takes its route (:meth:`Cycle.take`): the router
   (:func:`pbem.mail.router.route`) finds what it holds and the game that answers it; the
   desk (:class:`pbem.mail.desk.Desk`) runs its commands and passes press on, the order
   desk (:class:`pbem.mail.orders.OrderDesk`) applies its orders through the game service
   (which records its Message-ID in the history) or refuses them, then the desk runs the
   commands written under the orders; the answer is spooled, then the ledger notes the
   mail. The other games note it as ignored.
3. *Report* (:class:`pbem.mail.reporter.Reporter`): for history entries the ledger has not
   yet queued mails for (played by mail, by the GM by hand, by a deadline), the receipts of
   applied mails and one report per player are spooled; then the ledger moves on.
4. *Clock* (:class:`pbem.mail.timekeeper.Timekeeper`): what the game's clock says is due
   (:func:`pbem.service.clock.next_step`): the turn's clock starts when the cycle first
   sees the turn, a reminder, a deadline missed, an absence.
5. *Deliver* (:class:`pbem.mail.post.Postman`): the spool is emptied (SMTP, or the
   ``--outbox`` folder); the watermarks note the game as it is now.
6. *Relay* (:class:`pbem.mail.relays.Relays`): the games without a game master that the
   configuration relays read their mail, pass the checked blocks on and deliver.

The mails a mail server handed ``mail receive`` take the same route, read from the folder
they were kept in by every relay, then by every game of the configuration at once
(:meth:`Cycle.arrivals`).

The time is handed in (``now``); nothing here reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path

from pbem.errors import CannotWrite, GameLocked, PbemError
from pbem.mail.arrivals import Arrivals, waiting
from pbem.mail.config import GameMail, MailConfig, RelayMail
from pbem.mail.desk import Desk
from pbem.mail.inbox import Incoming, Source, open_source
from pbem.mail.ledger import claim, commit, mail_lock, open_books
from pbem.mail.orders import OrderDesk
from pbem.mail.post import Postman
from pbem.mail.reader import Reader
from pbem.mail.relays import Relays
from pbem.mail.replies import Replies
from pbem.mail.reporter import Reporter
from pbem.mail.router import Route, route
from pbem.mail.runs import GameRun, Journal, Log, Marks, NoMarks, Summary, Tripped, bug
from pbem.mail.timekeeper import Timekeeper
from pbem.mail.transport import Transport


class Cycle:
    """The mail cycle of a run at ``now``: ``log`` hears what was done, ``warn`` (default:
    ``log``) what went wrong; ``watermarks`` makes the strategy that keeps the games'
    watermarks, given the cycle's journal (default: none are kept)."""

    def __init__(self, config: MailConfig, now: datetime, transport: Transport, log: Log,
                 warn: Log | None = None, watermarks: Callable[[Journal], Marks] | None = None):
        self.config = config
        self.now = now
        self.journal = Journal(now, log, warn, on_fail=self._failed)
        self.marks: Marks = watermarks(self.journal) if watermarks is not None else NoMarks()
        self.reader = Reader(config, now, self.journal)
        self.replies = Replies(config, now, self.journal)
        self.desk = Desk(config, self.replies, self.journal)
        self.orders = OrderDesk(config, self.replies, self.journal)
        self.reporter = Reporter(config, now, self.journal)
        self.timekeeper = Timekeeper(now, self.reporter, self.journal)
        self.postman = Postman(config, now, transport, self.journal)
        self.relays = Relays(config, now, transport, self.journal)

    def _failed(self) -> None:
        self.marks.failed()

    @property
    def summary(self) -> Summary:
        return self.journal.summary

    # -- the whole cycle ------------------------------------------------------------------

    def run(self, games: list[GameMail], source: str | None = None, read: bool = True,
            deadlines: bool = True, relays: list[RelayMail] | tuple[RelayMail, ...] = ()) -> Summary:
        """Run the cycle over ``games``; games that share a mail source read it once. Then
        the ``relays`` of games without a game master read theirs (:mod:`pbem.mail.relays`)."""
        self.marks.begin(source, read, deadlines)
        groups: dict[str | None, list[GameMail]] = {}
        for g in games:
            groups.setdefault(source or g.source or self.config.source if read else None, []).append(g)
        for spec, members in groups.items():
            with ExitStack() as stack:
                runs = [r for r in (self.open(stack, g) for g in members) if r is not None]
                if spec is not None and runs:
                    try:
                        self.read(runs, open_source(spec, self.config.imap, self.config.limits))
                    except PbemError as exc:
                        self.journal.fail(f"reading {spec}", exc)
                        for run in runs:  # each game's status tells it too
                            self.journal.note_error(run, exc)
                for run in runs:
                    self.finish(run, deadlines)
        if relays and read:
            self.relays.run(list(relays), source)
        return self.summary

    def open(self, stack: ExitStack, settings: GameMail) -> GameRun | None:
        """The run of one game, its mail lock held as long as ``stack`` (the watermarks may
        open it by its mark); ``None`` if it is left to another run or failed to open."""
        return self.marks.open(stack, settings, lambda: self._open(stack, settings))

    def _open(self, stack: ExitStack, settings: GameMail) -> GameRun | None:
        journal = self.journal
        try:
            stack.enter_context(mail_lock(settings.file))
            books = open_books(settings.file, self.now)
            if claim(books, settings.file, self.config.owner):  # the configuration that runs it, from now on
                commit(books.ledger, books.clocks, books.clock)
        except GameLocked:
            journal.left_to_another(settings.file)
            return None
        except PbemError as exc:
            journal.fail(str(settings.file), exc)
            return None
        try:
            run = GameRun.of(self.config, settings, books)
        except Exception as exc:  # a damaged game file (or a bug loading it): this game's failure alone
            failure = exc if isinstance(exc, PbemError) else bug(str(settings.file), exc)
            journal.fail(str(settings.file), failure)
            journal.last_error(books, failure)
            return None
        journal.runs[run.game_id] = run
        if run.ledger.queued < 0:
            # First contact: a game just created gets its opening report mailed; the past
            # of a game that was played without mail so far is not mailed again.
            fresh = len(run.game.history) == 1
            run.ledger.queued = len(run.game.history) - (2 if fresh else 1)
        return run

    def finish(self, run: GameRun, deadlines: bool = True) -> None:
        """A game's cycle after its mail was read: report, keep its clock, deliver. A game
        opened by its mark and not loaded since has nothing to report and no clock to keep."""
        if run.loaded is not None:
            try:
                self.reporter.report(run, early=lambda: self.postman.deliver(run))
                if deadlines:
                    self.timekeeper.keep_time(run)
            except Exception as exc:  # that game's failure alone; what the step spooled is taken back
                self.summary.queued -= run.take_back()
                self.journal.fail(run.game_id, exc if isinstance(exc, PbemError) else bug(run.game_id, exc))
        self.postman.deliver(run)
        self.marks.finished(run)
        self.journal.settle(run)

    def arrivals(self, games: list[GameMail], folder: str, sweep: bool = True,
                 relays: list[RelayMail] | tuple[RelayMail, ...] = ()) -> list[Path]:
        """The mails ``mail receive`` kept (:mod:`pbem.mail.arrivals`), read first by the
        ``relays``, then by ``games`` together (their locks held at once), each game's cycle
        then finished as in :meth:`run`. A mail every one of them has noted leaves the
        folder (unless not ``sweep``: a dry run); returns the mails still waiting."""
        relayed: Callable[[str], bool] = lambda message_id: True  # noqa: E731
        if relays:
            relayed = self.relays.kept(list(relays), folder, alone=not games, sweep=sweep)
        self.marks.begin(None, True, True)
        with ExitStack() as stack:
            runs = [r for r in (self.open(stack, g) for g in games) if r is not None]

            def settled(message_id: str) -> str | None:
                if len(runs) < len(games) or any(r.stopped or not r.ledger.known(message_id) for r in runs) \
                        or not relayed(message_id):
                    return None
                failed = any(r.ledger.messages[message_id].get("outcome") == "failed" for r in runs)
                return "failed" if failed else "done"

            source = Arrivals(folder, self.config.limits, settled, sweep)
            if runs:
                for incoming in self.reader.messages(runs, source):
                    self.take(incoming, runs)
            for run in runs:
                self.finish(run)
        return source.left if runs else waiting(folder)

    def remind(self, settings: GameMail) -> Summary:
        """Remind the player whose turn it is, now (``antike-ref remind``)."""
        self.marks.begin(None, True, True)
        with ExitStack() as stack:
            run = self.open(stack, settings)
            if run is None:
                return self.summary
            self.reporter.report(run)
            self.timekeeper.keep_time(run)
            self.timekeeper.remind_now(run)
            self.postman.deliver(run)
            self.marks.finished(run)
        return self.summary

    # -- reading: the route of one mail ----------------------------------------------------

    def read(self, runs: list[GameRun], source: Source) -> None:
        """Every new mail of ``source`` takes its route (:meth:`take`)."""
        with self.marks.reading(runs, source):
            for incoming in self.reader.messages(runs, source):
                self.take(incoming, runs)

    def take(self, incoming: Incoming, runs: list[GameRun]) -> None:
        """One mail, from any source, for the games ``runs`` (their locks held): routed,
        answered or applied by the game it is for, noted by every game. A bug on the way is
        that mail's failure alone: it is noted, so that it cannot stop every later run."""
        self.summary.read += 1
        try:
            self._route(incoming, runs)
        except Exception as exc:
            tripped = exc.run if isinstance(exc, Tripped) else None
            exc = exc.__cause__ if tripped is not None and exc.__cause__ is not None else exc  # type: ignore[assignment]  # a cause is an Exception: Tripped wraps one
            failure = bug(f"mail {incoming.message_id} from {incoming.sender or 'nobody'}", exc, "with the mail")
            self.journal.fail("reading", failure)
            if tripped is not None:  # no half answer goes out; the ledger is read again
                self.summary.queued -= tripped.take_back()
                tripped.ledger.content(incoming.message_id, incoming.fingerprint, len(incoming.raw) or None)
            for run in runs:
                if not run.ledger.known(incoming.message_id):
                    run.ledger.note(incoming.message_id, "failed", error=f"{type(exc).__name__}: {exc}"[:500])
                    if tripped in (None, run):  # the game the mail tripped in (all: it is not known which)
                        self.journal.note_error(run, failure)
                    else:
                        run.save()

    def _route(self, incoming: Incoming, runs: list[GameRun]) -> None:
        """Hand one mail to the game that answers it; the other games note it as ignored.
        Automatic mail and mail without a sender are never answered (no mail loops); a mail
        that could not be read is noted by every game, and answered in one line only to a
        sender who plays here."""
        way = route(incoming, runs)
        if way.unread:
            return self.replies.unread(incoming, runs, way.target)
        for run in runs:
            if run.stopped or run.ledger.known(incoming.message_id):
                continue
            try:
                self._deliver_to(run, incoming, way, run is runs[0])
            except CannotWrite as exc:
                # the machine's error, not the mail's: this game reads it again on the next run
                # (the ledger does not know it, and what was spooled for it is taken back; an
                # order applied before the failure is in the history with its Message-ID, so it
                # is not applied twice)
                self.summary.queued -= run.take_back()
                run.ledger.messages.pop(incoming.message_id, None)
                run.stopped = str(exc)
                self.journal.fail(run.game_id, exc)
                self.journal.warn(f"{run.game_id}: its mail is read again on the next run, once {exc.path} can be "
                                  "written")
            except GameLocked as exc:  # the GM's own command holds the game: read again on the next run
                self.summary.queued -= run.take_back()
                run.stopped = str(exc)
                self.journal.log(f"{run.game_id}: {exc}; its mail is read again on the next run")
            except Exception as exc:
                raise Tripped(run) from exc

    def _deliver_to(self, run: GameRun, incoming: Incoming, way: Route, first: bool) -> None:
        """The mail for one game: its desk's if it is the target, else noted as ignored."""
        if run is not way.target:
            self.summary.ignored += first
            self.replies.ignore(run, incoming, why=way.why_ignored())
        elif way.command is not None:
            self.desk.take(run, incoming, way.command)
        elif way.found is None:
            if not self.desk.other(run, incoming):
                self.replies.ignore(run, incoming, why="no orders")
        elif self._loaded(run):
            after = self.orders.take(run, incoming, way.found, way.wrong)
            if after:  # commands under the orders (STATUS), run once the orders were taken
                self.desk.after_orders(run, incoming, after)

    def _loaded(self, run: GameRun) -> bool:
        """Load a game opened by its mark, for the orders of a mail. Should it not load (its
        file was broken since the lock was taken), the game is left, as one locked by
        another run is, and the mail is read again on the next run, not answered."""
        if run.loaded is None:
            try:
                _ = run.game  # the property loads the game file
            except Exception as exc:  # damaged since (or a bug loading it): this game's failure alone
                failure = exc if isinstance(exc, PbemError) else bug(str(run.settings.file), exc)
                run.stopped = str(failure)
                self.journal.fail(run.game_id, failure)
                return False
        return True
