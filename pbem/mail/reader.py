"""The reader of mailboxes: the mails of a source that the games reading it do not know
yet (:meth:`Reader.messages`), each noted with what it holds.

A Message-ID is read once. A mail every game knows is passed over (from its header alone
where it can be: :func:`pbem.mail.inbox.header_id`); one known under its Message-ID but
holding something else is not read again, but each game's ledger notes it and the GM is
told, once (a mail program that reuses Message-IDs, or someone replaying mail).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import datetime

from pbem.errors import clip
from pbem.mail import compose
from pbem.mail.config import MailConfig
from pbem.mail.inbox import Incoming, Source
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import spool


class Reader:
    """Reads the mail sources of one cycle (at ``now``)."""

    def __init__(self, config: MailConfig, now: datetime, journal: Journal):
        self.config = config
        self.now = now
        self.journal = journal

    def messages(self, runs: list[GameRun], source: Source) -> Iterator[Incoming]:
        """The mails of ``source`` some game of ``runs`` does not know yet, in arrival order;
        each game's ledger is told what the mail holds (:meth:`pbem.mail.ledger.Ledger.content`)."""

        def known(message_id: str, fingerprint: str | None = None) -> bool:
            if not all(r.ledger.known(message_id) or r.stopped for r in runs):
                return False
            for run in runs:
                if not run.stopped and run.ledger.differs(message_id, fingerprint):
                    self.seen_again(run, message_id, fingerprint or "")
            return True

        for incoming in source.messages(known):
            for run in runs:
                run.ledger.content(incoming.message_id, incoming.fingerprint, len(incoming.raw) or None)
            yield incoming

    def seen_again(self, run: GameRun, message_id: str, fingerprint: str) -> None:
        """A Message-ID known already, on a mail that holds something else: it is not read
        (a Message-ID is read once), but the ledger notes it and the GM is told, once."""
        record = run.ledger.messages[message_id]
        again = record.setdefault("again", [])
        if fingerprint in again or len(again) >= 5:
            return
        again.append(fingerprint)
        self.journal.warn(f"{run.game_id}: a mail came again under the Message-ID {message_id} with other "
                          "content; it is not read (the first mail with that id was)")
        if self.config.gm:
            notice = compose.gm_notice(self.config, run.game, "a Message-ID came again with other content", [
                f"A mail with the Message-ID {clip(message_id, 120)} came again, but with other content than the "
                f"mail read under that id before (it was {record.get('outcome', 'noted')}).",
                "The referee reads each Message-ID once, so this mail was not read. If a player's mail program "
                "reuses Message-IDs, ask them to send the orders again as a new mail; if not, someone may be "
                "replaying mail."], self.now, f"again|{message_id}|{fingerprint}")
            digest = hashlib.sha256(f"{message_id}|{fingerprint}".encode()).hexdigest()[:12]
            spool(run.spool, f"{len(run.game.history):06d}-again-{digest}", notice)
        run.save()
