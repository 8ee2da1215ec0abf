"""The last step of a game's cycle: its queue delivered (:class:`Postman`)."""

from __future__ import annotations

from datetime import datetime

from pbem.errors import MailServerError, PbemError
from pbem.mail import compose
from pbem.mail.config import MailConfig
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import BACK_OFF, UNDELIVERABLE, Transport, spool


class Postman:
    """Empties the games' queues through the ``transport`` (SMTP, or an outbox folder)."""

    def __init__(self, config: MailConfig, now: datetime, transport: Transport, journal: Journal):
        self.config = config
        self.now = now
        self.transport = transport
        self.journal = journal

    def deliver(self, run: GameRun) -> None:
        """Empty the game's queue. A mail the server refuses waits for its next try (the run
        ends with exit code 7, the rest of the queue goes out); one refused too often is
        given up and the GM is told (at once, if the server takes that notice)."""
        if self._empty(run):
            self._empty(run)

    def _empty(self, run: GameRun) -> bool:
        """Deliver the queue once; true if a mail was given up (and its notice queued)."""
        journal = self.journal
        try:
            result = self.transport.deliver(run.spool, self.now)
        except PbemError as exc:
            journal.fail(run.game_id, exc)
            return False
        finally:
            self.transport.close()
        journal.summary.sent += len(result.sent)
        if result.sent:
            journal.log(f"{run.game_id}: {len(result.sent)} mail(s) delivered to {self.transport.describe()}")
        tries = len(BACK_OFF) + 1
        for name, answer, count in result.refused:
            journal.fail(run.game_id, MailServerError(f"the server refused {name} ({answer}); try {count} of "
                                                      f"{tries}, it is tried again later; the other mails went out"))
        for name, answer, count in result.given_up:
            journal.fail(run.game_id, MailServerError(
                f"the server refused {name} {count} times ({answer}); given up: it is kept in "
                f"{run.spool / UNDELIVERABLE}"))
            if self.config.gm and "-undeliverable-" not in name:
                notice = compose.gm_notice(self.config, run.game, "a mail could not be delivered", [
                    f"The mail {name} of game {run.game_id} was refused {count} times by the mail server, the "
                    f"last time with: {answer}.",
                    f"It is given up and kept in {run.spool / UNDELIVERABLE} (send it by hand if you like); the "
                    "other mails of the game went out."], self.now, f"undeliverable|{name}")
                spool(run.spool, f"{len(run.game.history):06d}-undeliverable-{name.removesuffix('.eml')}", notice)
        return bool(result.given_up)
