"""Answers that change nothing in a game: spooled, then the mail noted in the ledger
(:meth:`Replies.answer`); and the answers every desk may give: to a stranger, to a mail
that could not be read."""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from pbem.errors import clip
from pbem.mail import compose
from pbem.mail.config import MailConfig
from pbem.mail.inbox import Incoming
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import spool


class Replies:
    """The answers of one cycle (at ``now``), counted in its :class:`Journal`."""

    def __init__(self, config: MailConfig, now: datetime, journal: Journal):
        self.config = config
        self.now = now
        self.journal = journal

    def answer(self, run: GameRun, incoming: Incoming, kind: str, message: EmailMessage, outcome: str,
               **details: Any) -> None:
        """Spool an answer that changes nothing in the game, and note the mail."""
        digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
        spool(run.spool, f"{len(run.game.history):06d}-{kind}-{digest}", message)
        run.ledger.note(incoming.message_id, outcome, sender=incoming.sender, **details)
        run.save()
        self.journal.summary.queued += 1

    def ignore(self, run: GameRun, incoming: Incoming, outcome: str = "ignored", **details: Any) -> None:
        """Note a mail that gets no answer from this game."""
        run.ledger.note(incoming.message_id, outcome, **details)
        run.save()

    def stranger(self, run: GameRun, incoming: Incoming) -> None:
        """Orders from an address no nation of the game has: never applied; answered only
        if the configuration says so, in a line that tells nothing of the game (a forged
        sender must not turn the referee into a source of mail to strangers)."""
        if self.config.answer_strangers:
            self.answer(run, incoming, "stranger", compose.stranger(self.config, incoming, self.now), "rejected",
                        why="an address no nation has")
            self.journal.summary.rejected += 1
        else:
            self.ignore(run, incoming, why="from an address no nation has", sender=incoming.sender)
        self.journal.log(f"{run.game_id}: mail {clip(incoming.message_id, 80)} from {incoming.sender}, an address "
                         f"no nation has: {'answered in one line' if self.config.answer_strangers else 'not answered'}")

    def unread(self, incoming: Incoming, runs: list[GameRun], player: GameRun | None) -> None:
        """A mail that could not be read (:attr:`Incoming.problem`): noted by every game,
        answered in one line by the game its sender plays in (``player``)."""
        for run in runs:
            if run.stopped or run.ledger.known(incoming.message_id):
                continue
            if run is player:
                self.answer(run, incoming, "unread", compose.not_read(self.config, run.game_id, incoming,
                                                                      incoming.problem or "", self.now),
                            "unreadable", why=incoming.problem)
            else:
                self.ignore(run, incoming, "unreadable", why=incoming.problem)
        self.journal.log(f"mail {clip(incoming.message_id, 80)} from {incoming.sender or 'nobody'} not read: "
                         f"{incoming.problem}")
