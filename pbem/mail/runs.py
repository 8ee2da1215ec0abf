"""One game during a mail cycle (:class:`GameRun`), and what the cycle says and counts of
its games (:class:`Journal`, :class:`Summary`).

The collaborators of the cycle (:mod:`pbem.mail.cycle`) all work on a :class:`GameRun`:
the router and the desks read and answer its mail, the reporter queues its mails, the
timekeeper keeps its clock, the watermarks (:mod:`pbem.mail.idle`) remember it."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import InputError, PbemError, clip
from pbem.mail.addresses import nations_of
from pbem.mail.config import GameMail, MailConfig
from pbem.mail.inbox import Source
from pbem.mail.ledger import Books, Ledger, commit, load_ledger, spool_path
from pbem.mail.transport import spooled, unspool
from pbem.mail.writing import ClockNews, clock_news
from pbem.service.clock import LastError, Rules, TurnClock, second, settled
from pbem.service.clockfile import ClockFile
from pbem.service.game import Game
from pbem.service.service import GameService

Log = Callable[[str], None]


def rules_of(config: MailConfig, settings: GameMail) -> Rules:
    """How the game's clock runs, from its mail settings."""
    return Rules(settings.deadline, settings.remind, settings.missed, settings.absence, config.timezone)


@dataclass
class GameRun:
    """One game during a cycle.

    A mail is spooled before the ledger notes it (a run that dies in between sends it
    again, once), so the mails in the queue when the ledger was last saved are decided;
    those spooled since belong to a step under way. Should that step fail (a file that
    cannot be written, a bug), :meth:`take_back` takes them out again: a fault that lasts
    is not answered again by every run."""

    settings: GameMail
    service: GameService
    ledger: Ledger
    clocks: ClockFile
    clock: TurnClock
    """The game's clock as this run has it (saved with the ledger: :meth:`save`)."""
    rules: Rules
    spool: Path
    loaded: Game | None = None
    """The game as loaded (``None``: not loaded yet, its :attr:`mark` stands for it)."""
    mark: dict[str, Any] | None = None
    """The watermark a game was opened by without loading it (:mod:`pbem.mail.idle`)."""
    stopped: str | None = None
    """Why this game's mail is left for the next run (its file was locked)."""
    decided: frozenset[str] = field(default=frozenset(), repr=False)
    """The mails in the queue when the ledger was last saved (or the run began)."""
    audits: list[dict[str, Any]] = field(default_factory=list)
    """Lines for the audit log recording a change of the clock, written with the next save."""
    watermark: dict[str, Any] | None = None
    """The mail source's watermark, taken before it was read (:mod:`pbem.mail.idle`)."""
    failed: bool = False
    """Something failed for this game in this run: it gets no new watermark."""
    remembered: dict[str, int] | None = None
    """What the game remembers of its IMAP mailbox (:class:`pbem.mail.inbox.ImapSource`)."""

    def __post_init__(self) -> None:
        self.decided = spooled(self.spool)
        self.ledger.on_save = self._decide

    @classmethod
    def of(cls, config: MailConfig, settings: GameMail, books: Books, game: Game | None = None,
           mark: dict[str, Any] | None = None) -> GameRun:
        """The run of a game whose books are open: loaded (``game``), or known by its ``mark``."""
        service = GameService(settings.file)
        service.reuse_loaded = True  # a mail's orders are applied to the game loaded here
        if game is None and mark is None:
            game = service.load()
        return cls(settings, service, books.ledger, books.clocks, books.clock, rules_of(config, settings),
                   spool_path(settings.file), game, mark)

    def _decide(self) -> None:
        self.decided = spooled(self.spool)

    # -- the game ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game (loaded now if the run was opened by its watermark)."""
        if self.loaded is None:
            self.loaded = self.service.load()
        return self.loaded

    @game.setter
    def game(self, value: Game) -> None:
        self.loaded = value

    @property
    def game_id(self) -> str:
        if self.loaded is None and self.mark is not None:
            return self.mark["game"]["id"]
        return self.game.game_id

    def registered(self, address: str) -> bool:
        """Whether ``address`` plays a nation of the game (from the watermark, if the game
        is not loaded)."""
        if self.loaded is None and self.mark is not None:
            address = address.lower()
            return any((e or "").lower() == address for e in self.mark["game"]["addresses"].values())
        return bool(nations_of(self.game, address))

    # -- the clock -----------------------------------------------------------------------

    def news(self, now: datetime) -> ClockNews:
        """What the mails say of the game's clock at ``now``: the clock as it is once the
        steps due that change it alone are done (:func:`pbem.service.clock.settled`: the
        turn applied in this run has its clock, a player back early has their turn's time
        from now), so that no mail tells a deadline the timekeeper is about to change. The
        clock is kept so; it is saved with the next save."""
        self.clock = self.settled(now)
        return clock_news(self.game, self.clock, now)

    def settled(self, now: datetime) -> TurnClock:
        st = self.game.state.status
        return settled(self.clock, self.rules, st.turn, st.active, st.winner, now)

    def start_clock(self, now: datetime) -> None:
        """The current turn's clock, started if the cycle sees the turn for the first time
        (or given what a clock of an earlier release lacks, or held or released for a
        player away), and saved."""
        clock = self.settled(now)
        if clock != self.clock:
            self.clock = clock
            self.save()

    # -- keeping -------------------------------------------------------------------------

    def save(self) -> None:
        """The ledger, then the clock with the audit lines its change left: all or nothing."""
        commit(self.ledger, self.clocks, self.clock, self.audits)
        self.audits.clear()

    def take_back(self) -> int:
        """After a step that could not be completed: the mails it spooled are taken out of
        the queue, and the ledger and the clock are read again as their files hold them,
        so that nothing of the step goes out or is saved later in the run. Returns how
        many mails were taken out."""
        removed = unspool(self.spool, self.decided)
        self.audits.clear()
        try:
            self.ledger = load_ledger(self.settings.file)
            self.clock = self.clocks.load()
        except PbemError:
            return removed
        self.ledger.on_save = self._decide
        return removed


def bug(where: str, exc: BaseException, report: str = "with the files used") -> PbemError:
    """An exception of ours (a bug) as the failure of one game or mail: named, with its
    type, so that it stops nothing else (exit code 1 at the end of the run)."""
    return PbemError(f"{where}: internal error (a bug in antike-ref, please report it {report}): "
                     f"{type(exc).__name__}: {exc}")


class Tripped(Exception):
    """A bug while one game handled a mail (the exception is its cause): the game."""

    def __init__(self, run: GameRun):
        super().__init__("a bug while handling a mail")
        self.run = run


@dataclass
class Summary:
    """What a cycle did, for the command line."""

    read: int = 0
    """Mails that took their route (each time a group of games read one)."""
    applied: int = 0
    rejected: int = 0
    ignored: int = 0
    queued: int = 0
    sent: int = 0
    relayed: int = 0
    """Entries of games without a game master passed on by their relays."""
    failures: list[PbemError] = field(default_factory=list)


class Journal:
    """What a cycle says (``log``: what was done, ``warn``: what went wrong) and counts
    (:class:`Summary`), and each game's last error, kept in its clock for the GM's
    ``status``. ``on_fail`` hears of every failure (the watermarks: no mark after one)."""

    def __init__(self, now: datetime, log: Log, warn: Log | None = None, on_fail: Callable[[], None] | None = None):
        self.now = now
        self.log = log
        self.warn = warn or log
        self.on_fail = on_fail
        self.summary = Summary()
        self.runs: dict[str, GameRun] = {}
        """The games open in this cycle, by id."""
        self.failed_games: set[str] = set()
        self.left: list[str] = []
        """The games left to another run that held their mail lock."""

    def fail(self, where: str, exc: PbemError) -> None:
        """A failure of a game or a mail: counted, told, and the game's last error."""
        if self.on_fail is not None:
            self.on_fail()
        self.summary.failures.append(exc)
        run = self.runs.get(where)
        if run is not None:
            self.note_error(run, exc)
        if isinstance(exc, InputError):
            what = "; ".join(p.message if p.path == "$" else str(p) for p in exc.problems)
            message = f"{exc.source}: {what}"
        else:
            message = str(exc)
        self.warn(message if message.startswith(where) else f"{where}: {message}")

    def left_to_another(self, file: Path) -> None:
        """A game whose mail lock another run holds: left to it (counted in :attr:`left`)."""
        self.left.append(str(file))
        self.log(f"{file}: another mail run is working on this game; left to it")

    def note_error(self, run: GameRun, exc: PbemError) -> None:
        """The game's last error, for the GM's status."""
        self.failed_games.add(run.game_id)
        self.last_error(run, exc)

    def last_error(self, books: GameRun | Books, exc: PbemError) -> None:
        """Keep ``exc`` as the game's last error (``books``: a run, or the books of a game
        that did not open), if it can be saved."""
        error = LastError(second(self.now), clip(str(exc), 300))
        try:
            books.clock = replace(books.clock, last_error=error)
            if isinstance(books, GameRun):
                books.save()
            else:
                commit(books.ledger, books.clocks, books.clock)
        except PbemError:
            pass

    def settle(self, run: GameRun) -> None:
        """A game whose cycle went well this time: an earlier run's error is dealt with."""
        if run.game_id in self.failed_games or run.stopped or run.clock.last_error is None:
            return
        run.clock = replace(run.clock, last_error=None)
        try:
            run.save()
        except PbemError:
            pass


class Marks(Protocol):
    """The games' watermarks, handed to the cycle as a strategy (:mod:`pbem.mail.idle`):
    how a game is opened (maybe without loading it), what is taken around the reading of
    a mail source, what a failure means, and what is kept when a game's cycle is done."""

    def begin(self, option: str | None, read: bool, deadlines: bool) -> None:
        """A cycle begins (``option``: the ``--source`` given; ``read``: mail is read;
        ``deadlines``: the clocks are kept)."""

    def open(self, stack: ExitStack, settings: GameMail, full: Callable[[], GameRun | None]) -> GameRun | None:
        """The run of a game, its mail lock held as long as ``stack``: by the watermark, or
        ``full()`` (the game loaded); ``None`` if the game is left to another run."""

    def reading(self, runs: list[GameRun], source: Source) -> AbstractContextManager[None]:
        """What happens around the reading of ``source`` for ``runs``."""

    def failed(self) -> None:
        """Something failed."""

    def finished(self, run: GameRun) -> None:
        """The game's cycle is done (its queue delivered)."""


class NoMarks:
    """No watermarks: every game is opened and loaded, and nothing is kept."""

    def begin(self, option: str | None, read: bool, deadlines: bool) -> None:
        pass

    def open(self, stack: ExitStack, settings: GameMail, full: Callable[[], GameRun | None]) -> GameRun | None:
        return full()

    def reading(self, runs: list[GameRun], source: Source) -> AbstractContextManager[None]:
        return nullcontext()

    def failed(self) -> None:
        pass

    def finished(self, run: GameRun) -> None:
        pass
