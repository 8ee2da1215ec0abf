"""The reporter: what the game's history and clock give to tell, composed
(:mod:`pbem.mail.compose`) and queued in the game's spool (:func:`pbem.mail.transport.spool`).

For the history entries the ledger has not queued mails for yet (played by mail, by the GM
by hand, for a deadline), the receipts of the mails that were applied and one report per
address (:meth:`Reporter.report`); the notices the GM's and the players' changes of the
clock left (:meth:`Reporter.announce`); a reminder and the notices of a deadline passed
(:meth:`Reporter.reminder`, :meth:`Reporter.late`). Each mail is queued before the ledger
or the clock notes it, so a run that dies in between queues it again, never loses it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.mail import compose
from pbem.mail.addresses import Recipient, deliverable, gm_recipient, observers, recipients
from pbem.mail.config import MailConfig
from pbem.mail.inbox import Incoming
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import spool
from pbem.mail.welcome import opening_passwords
from pbem.mail.writing import ClockNews
from pbem.service.clock import told


class Reporter:
    """Composes and queues the mails of one cycle (at ``now``)."""

    def __init__(self, config: MailConfig, now: datetime, journal: Journal):
        self.config = config
        self.now = now
        self.journal = journal

    def report(self, run: GameRun, early: Callable[[], None] | None = None) -> None:
        """Spool the receipts and reports of history entries not yet reported, and the
        notices the changes of the clock left; ``early`` delivers the receipts before the
        reports are rendered."""
        self.entries(run, early)
        self.announce(run)

    def entries(self, run: GameRun, early: Callable[[], None] | None = None) -> None:
        """The receipts and reports of the history entries not reported yet; then the
        ledger moves on. The receipts are queued first and the ledger notes each with its
        mail; ``early`` (a delivery) is then called, so that a player has the answer before
        the reports are rendered (a run that dies in between does not send it again)."""
        hist = run.game.history
        ledger = run.ledger
        if ledger.head is not None and not any(e["hash"] == ledger.head for e in hist):
            self.journal.log(f"{run.game_id}: the history was taken back (undo); reporting the game as it is now")
            ledger.queued = len(hist) - 2
        ledger.queued = min(ledger.queued, len(hist) - 1)
        new = hist[ledger.queued + 1:]
        if not new:
            return
        from pbem.service.history import private_identity
        from pbem.service.service import echo_text

        own = [e for e in new if private_identity(e)]  # a player's own address or password: no news for others
        if own:
            self.identities(run, own)
        new = [e for e in new if not private_identity(e)]
        if new:
            self._told(run, new, echo_text, early)
        ledger.queued = len(hist) - 1
        ledger.head = hist[-1]["hash"]
        run.save()

    def _told(self, run: GameRun, new: list[dict], echo_text, early: Callable[[], None] | None) -> None:
        """The receipts of the applied mails among ``new`` (then ``early``) and the reports of them."""
        ledger = run.ledger
        run.start_clock(self.now)  # the new turn's deadline, for every mail that tells it
        clock = run.news(self.now)
        receipts = 0
        for entry in new:
            record = ledger.messages.get(entry.get("mail", ""), {})
            if record.get("sender") and record.get("receipt") != entry["seq"]:
                incoming = Incoming(entry["mail"], record["sender"], record.get("subject", ""), b"")
                message = compose.receipt_accepted(self.config, run.game, incoming, entry,
                                                   echo_text(run.game, entry["orders"]), self.now,
                                                   ignored=record.get("ignored", []), clock=clock)
                spool(run.spool, f"{entry['seq']:06d}-receipt", message)
                record["receipt"] = entry["seq"]
                receipts += 1
                self.journal.summary.queued += 1
        if receipts and early is not None:
            run.save()
            early()
        self.reports(run, new, clock)

    def identities(self, run: GameRun, entries: list[dict]) -> None:
        """Players' own changes of identity (:func:`pbem.service.history.private_identity`):
        told to the GM alone; the player had the answer to their command, or the GM's
        ``player`` mail (the address given up is told there too)."""
        game = run.game
        if not self.config.gm:
            return
        lines = []
        for entry in entries:
            for nation, who in entry["identities"].items():
                name = game.edition.nation_name(nation)
                was = who.get("was") or {}
                if who.get("change") == "password":
                    what = "a new password (mailed to the player alone; it is in the secrets file)"
                else:
                    what = f"played from {who.get('email')} now (was {was.get('email')}), the password kept" + (
                        f", under the name {who.get('player')}" if who.get("player") != was.get("player") else "")
                lines.append(f"The {name}: {what}. {entry.get('reason', '')}".strip())
        lines.append("The other players were not told: it is the player's own change, not a new player.")
        key = entries[-1]["hash"]
        spool(run.spool, f"{entries[-1]['seq']:06d}-identity-gm",
              compose.gm_notice(self.config, game, "a player's address or password changed", lines, self.now,
                                f"identity|{key}"))
        self.journal.summary.queued += 1

    def reports(self, run: GameRun, news: list[dict], clock: ClockNews | None = None) -> None:
        """One report mail per address (and the GM's digest of ``news``, the entries
        reported now for the first time)."""
        game = run.game
        formats = [f for f in run.settings.attach if f != "copy"]
        files = _Files(run, formats, clock, self.now)
        seq = game.history[-1]["seq"]
        people = recipients(game)
        taken = {p.address.lower() for p in people}
        people += [o for o in observers(run.settings) if o.address not in taken]
        gm = gm_recipient(self.config)
        if gm is not None and gm.address not in {p.address.lower() for p in people}:
            people.append(gm)
        # the opening report carries each player's password, this once (from the GM's secrets file)
        opening = opening_passwords(run.settings.file) if any(e.get("kind") == "new" for e in news) else {}
        for k, person in enumerate(people):
            attachments, names = files.of(person)
            secret = ", ".join(f"{game.edition.nation_name(n)}: {opening[n]}" for n in person.nations if n in opening)
            message = compose.turn_report(self.config, game, person, self.now, attachments, names,
                                          news=news, site=run.settings.site, clock=clock, password=secret or None)
            spool(run.spool, f"{seq:06d}-report-{k:02d}", message)
            self.journal.summary.queued += 1
        missing = [n for n in game.seats if not deliverable(game.meta[n].email)]
        if missing:
            self.journal.log(f"{run.game_id}: no address (or no single address) registered for "
                             f"{', '.join(missing)}: they get no report")

    def announce(self, run: GameRun) -> None:
        """The notices the changes of the clock left, to every player, observer and the GM."""
        notices = run.ledger.announce
        if not notices:
            return
        game = run.game
        texts = [n["text"] for n in notices if isinstance(n, dict) and isinstance(n.get("text"), str)]
        people = recipients(game) + observers(run.settings)
        gm = gm_recipient(self.config)
        if gm is not None:
            people.append(gm)
        digest = hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]
        for k, person in enumerate(people):
            message = compose.notice(self.config, game, person, texts, self.now, run.news(self.now), digest)
            spool(run.spool, f"{len(game.history):06d}-notice-{digest}-{k:02d}", message)
            self.journal.summary.queued += 1
        run.ledger.announce = []
        run.save()
        self.journal.log(f"{run.game_id}: {len(texts)} notice(s) from the GM sent to {len(people)} address(es)")

    def reminder(self, run: GameRun, due: datetime | None, key: str = "") -> None:
        """Remind the player whose turn it is (``key``: a reminder the GM asked for now);
        the clock notes it."""
        game = run.game
        nation = game.state.status.active
        if not deliverable(game.meta[nation].email):
            self.journal.log(f"{run.game_id}: no address (or no single address) registered for {nation}; no "
                             "reminder sent")
            return
        message = compose.reminder(self.config, game, nation, due, self.now, key=key, clock=run.news(self.now),
                                   policy=run.rules.missed, bot=run.settings.bot)
        spool(run.spool, f"{len(game.history):06d}-remind-{nation}{'-' + key if key else ''}", message)
        if run.clock.current is not None:
            run.clock = replace(run.clock, current=replace(run.clock.current, reminded=True))
        run.save()
        self.journal.summary.queued += 1
        self.journal.log(f"{run.game_id}: reminded {nation} ({game.meta[nation].email}) of turn "
                         f"{game.state.status.turn}")

    def late(self, run: GameRun, due: datetime, policy: str) -> None:
        """The deadline passed and the game waits (``policy``: ``remind`` or ``wait``): the
        player and the GM are told; the clock notes it."""
        game = run.game
        st = game.state.status
        nation = st.active
        when = told(due, run.rules.zone)
        message = compose.reminder(self.config, game, nation, due, self.now, passed=True, clock=run.news(self.now),
                                   policy=policy)
        spool(run.spool, f"{len(game.history):06d}-late-{nation}", message)
        lines = [f"The deadline of turn {st.turn} ({game.edition.nation_name(nation)}) passed at {when}."]
        lines.append("The game waits for you: play a default turn (antike-ref default-turn) or a bot turn "
                     "(antike-ref bot --apply), or wait." if policy == "wait"
                     else "The player was told; the game waits for their orders.")
        if self.config.gm:
            spool(run.spool, f"{len(game.history):06d}-late-gm",
                  compose.gm_notice(self.config, game, f"deadline passed: turn {st.turn}", lines, self.now,
                                    f"late|{game.history[-1]['hash']}"))
        if run.clock.current is not None:
            run.clock = replace(run.clock, current=replace(run.clock.current, missed=True))
        run.save()
        self.journal.log(f"{run.game_id}: the deadline of turn {st.turn} ({nation}) passed at {when}; {policy}")


    def played_for(self, run: GameRun, entry: dict[str, Any]) -> None:
        """The late player's own notice that their turn was played for them (``entry``: the
        default or bot turn, its deadline recorded); queued before the turn's reports."""
        game = run.game
        nation = entry["nation"]
        if not deliverable(game.meta[nation].email):
            return
        message = compose.played_for(self.config, game, nation, entry, self.now, run.news(self.now))
        spool(run.spool, f"{entry['seq']:06d}-played-for-{nation}", message)
        self.journal.summary.queued += 1


class _Files:
    """The files a turn's report mails carry, rendered once each: the public report, and in
    an edition with secrets each nation's private one (a player's mail carries their own,
    the GM's the public one); ``copy``: each player's own copy of the game."""

    def __init__(self, run: GameRun, formats: list[str], clock: ClockNews | None, now: datetime):
        from pbem.report import prepare_all

        game = run.game
        self.run = run
        self.formats = formats
        self.reports = {r.viewer: r for r in prepare_all(game, entry=len(game.history) - 1,
                                                         image_base=run.settings.image_base,
                                                         deadline=clock.deadline if clock else None,
                                                         now=now)} if formats else {}
        self.rendered: dict[tuple[str | None, str], bytes] = {}

    def of(self, person: Recipient) -> tuple[dict[str, bytes], dict[str, str]]:
        """The attachments of ``person`` 's report mail (by key) and their file names."""
        attachments: dict[str, bytes] = {}
        names: dict[str, str] = {}
        own: list[Any] = [n for n in person.nations if n in self.reports] or [None]
        for viewer in (own if self.reports else []):
            for fmt in self.formats:
                key = fmt if viewer is None or len(own) == 1 else f"{viewer}.{fmt}"
                if (viewer, fmt) not in self.rendered:
                    self.rendered[viewer, fmt] = self.reports[viewer].render(fmt)
                attachments[key] = self.rendered[viewer, fmt]
                names[key] = self.reports[viewer].name(fmt)
        settings = self.run.settings
        if "copy" in settings.attach:  # each player's own copy of the game, for check (packed: a tenth the size)
            from pbem.service.copies import packed_copy

            for nation in person.nations:
                attachments[f"{nation}.json"] = packed_copy(self.run.game, nation)
                names[f"{nation}.json"] = f"{Path(settings.file).stem}.{nation}.json"
        return attachments, names
