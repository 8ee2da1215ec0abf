"""Answers that change nothing in a game: spooled, then the mail noted in the ledger
(:meth:`Replies.answer`); and the answers every desk may give: to a stranger, to a mail
that could not be read."""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from pbem.errors import clip
from pbem.mail import compose, strays
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

    def answer(self, run: GameRun, incoming: Incoming, kind: str, message: EmailMessage, outcome: str | None,
               **details: Any) -> None:
        """Spool an answer that changes nothing in the game, and note the mail (``outcome``
        ``None``: the mail was noted already, as the order mail whose commands it answers)."""
        digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
        spool(run.spool, f"{len(run.game.history):06d}-{kind}-{digest}", message)
        if outcome is not None:
            run.ledger.note(incoming.message_id, outcome, sender=incoming.sender, **details)
        run.save()
        self.journal.summary.queued += 1

    def ignore(self, run: GameRun, incoming: Incoming, outcome: str = "ignored", **details: Any) -> None:
        """Note a mail that gets no answer from this game."""
        run.ledger.note(incoming.message_id, outcome, **details)
        run.save()

    def stranger(self, run: GameRun, incoming: Incoming, nation: str | None = None,
                 password: str | None = None) -> None:
        """Orders or commands from an address no nation of the game has: never applied. A
        player's other address (:func:`pbem.mail.strays.lookalike`, by the sender's name
        or the ``nation`` and ``password`` the mail gives) is told to write from their
        registered one, and the GM is told; a stranger is answered only if the
        configuration says so, in a line that tells nothing of the game (a forged sender
        must not turn the referee into a source of mail to strangers)."""
        found = strays.lookalike(run.game, incoming, nation, password)
        if found is not None:
            return self.other_address(run, incoming, found)
        if self.config.answer_strangers:
            self.answer(run, incoming, "stranger", compose.stranger(self.config, incoming, self.now), "rejected",
                        why="an address no nation has")
            self.journal.summary.rejected += 1
        else:
            self.ignore(run, incoming, why="from an address no nation has", sender=incoming.sender)
        self.journal.log(f"{run.game_id}: mail {clip(incoming.message_id, 80)} from {incoming.sender}, an address "
                         f"no nation has: {'answered in one line' if self.config.answer_strangers else 'not answered'}")

    def other_address(self, run: GameRun, incoming: Incoming, nation: str) -> None:
        """A player's mail from an address no nation has: one line to the sender, a notice
        to the GM, and the ledger keeps it for ``status``."""
        if self.config.gm:
            notice = compose.other_address_notice(self.config, run.game, incoming, nation, self.now,
                                                          str(run.settings.file))
            digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
            spool(run.spool, f"{len(run.game.history):06d}-other-address-{digest}-gm", notice)
            self.journal.summary.queued += 1
        run.ledger.strays = strays.remember(run.ledger.strays, nation, incoming.sender, self.now)
        self.answer(run, incoming, "other-address", compose.other_address(self.config, run.game, incoming, self.now),
                    "rejected", why=f"another address of the {nation}")
        self.journal.summary.rejected += 1
        self.journal.log(f"{run.game_id}: mail {clip(incoming.message_id, 80)} from {incoming.sender}, an address "
                         f"no nation has, looks like the player of {nation}'s: told to write from their own")

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
