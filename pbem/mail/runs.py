"""One game during a mail cycle: its settings, its service, its ledger, the game as loaded,
its queue. The cycle (:mod:`pbem.mail.cycle`), its desk (:mod:`pbem.mail.desk`) and the
watermarks (:mod:`pbem.mail.idle`) all work on it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.mail import compose
from pbem.mail.config import GameMail
from pbem.mail.ledger import Ledger, load_ledger
from pbem.mail.transport import spooled, unspool
from pbem.service.game import Game
from pbem.service.service import GameService


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
    game: Game
    spool: Path
    stopped: str | None = None
    """Why this game's mail is left for the next run (its file was locked)."""
    decided: frozenset[str] = field(default=frozenset(), repr=False)
    """The mails in the queue when the ledger was last saved (or the run began)."""

    def __post_init__(self) -> None:
        self.decided = spooled(self.spool)
        self.ledger.on_save = self._decide

    def _decide(self) -> None:
        self.decided = spooled(self.spool)

    def take_back(self) -> int:
        """After a step that could not be completed: the mails it spooled are taken out of
        the queue, and the ledger is read again as its file holds it, so that nothing of the
        step goes out or is saved later in the run. Returns how many mails were taken out."""
        removed = unspool(self.spool, self.decided)
        try:
            self.ledger = load_ledger(self.settings.file)
        except PbemError:
            return removed
        self.ledger.on_save = self._decide
        return removed

    @property
    def game_id(self) -> str:
        return self.game.game_id

    def registered(self, address: str) -> bool:
        return bool(compose.nations_of(self.game, address))


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
