"""One game during a mail cycle: its settings, its service, its ledger, the game as loaded,
its queue. The cycle (:mod:`pbem.mail.cycle`), its desk (:mod:`pbem.mail.desk`) and the
watermarks (:mod:`pbem.mail.idle`) all work on it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
