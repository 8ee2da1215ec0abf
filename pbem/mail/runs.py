"""One game during a mail cycle: its settings, its service, its ledger, the game as loaded,
its queue. The cycle (:mod:`pbem.mail.cycle`), its desk (:mod:`pbem.mail.desk`) and the
watermarks (:mod:`pbem.mail.idle`) all work on it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.mail import compose
from pbem.mail.config import GameMail
from pbem.mail.ledger import Ledger
from pbem.service.game import Game
from pbem.service.service import GameService


@dataclass
class GameRun:
    """One game during a cycle."""

    settings: GameMail
    service: GameService
    ledger: Ledger
    game: Game
    spool: Path
    stopped: str | None = None
    """Why this game's mail is left for the next run (its file was locked)."""

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
