"""The mail relay of games without a game master (docs/without-gm.md, "The mail relay").

A configuration lists each such game under ``[[relay]]``: ``file`` is the relay's own copy
of the game (it starts from the group's proposal, accepted into it by hand), ``source`` the
mailbox the players send their blocks to (default: the configuration's). For every mail of
that source the relay has not read, :class:`Relays` takes the blocks in its body and text
attachments into the relay's copy, checked as a player's ``accept`` checks them
(:func:`pbem.service.signed.relay.relay`):

- the entries new to the relay go, in one mail, to every seat's address the set-up names
  (the sender too: it is their receipt), with the blocks and where the game stands;
- a refused entry is answered to its sender, if the sender's address is a seat's, with the
  refusal's code and words (nothing is passed on, the relay's copy is as it was); two
  entries one seat signed for one place (equivocation, or another branch) are also told to
  every seat, with the blocks of the mail, since the group must see that proof;
- blocks that did not read are named to the sender; a mail with no block is left alone.

The relay holds no key: it never plays, claims or rules. It answers nobody but a seat's
address, and never an automatic mail (no mail loops). Each mail is noted in the relay's
ledger (``GAME.mail.json``) once handled; the mails to send wait in ``GAME.mail-queue/``,
and are spooled before the relay's copy is saved, so a crash between them sends a block
twice (which a player's ``accept`` skips) and never loses one. A mail that cannot be
handled because of the machine (a file that cannot be written, a copy locked by a
player's own command) is read again on the next run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import formataddr
from pathlib import Path
from typing import Any

from pbem.errors import CannotWrite, GameLocked, PbemError, clip
from pbem.mail.addresses import one_line
from pbem.mail.config import MailConfig, RelayMail
from pbem.mail.inbox import Incoming, Source, open_source
from pbem.mail.ledger import Ledger, load_ledger, mail_lock, spool_path
from pbem.mail.runs import Journal, bug
from pbem.mail.transport import Transport, spool, spooled, unspool
from pbem.mail.writing import message, para, wrap

BEGIN = "-----BEGIN ANTIKE-REF ENTRY-----"


@dataclass
class RelayRun:
    """One relayed game in a cycle: its settings and ledger (its mail lock held)."""

    settings: RelayMail
    ledger: Ledger
    stopped: str | None = None
    """Why the relay stopped reading in this cycle (the machine's error): its mails wait."""

    @property
    def name(self) -> str:
        return str(self.settings.file)

    @property
    def spool(self) -> Path:
        return spool_path(self.settings.file)


def relay_text(incoming: Incoming) -> str:
    """What of a mail may hold blocks: its plain-text body (else its HTML as text) and its
    text attachments, in order."""
    parts = [incoming.text if incoming.text is not None else incoming.html_text or ""]
    parts += [data.decode("utf-8", errors="replace") for _, data in incoming.attachments]
    return "\n".join(parts)


class Relays:
    """The relays of one cycle at ``now``, delivering through ``transport``."""

    def __init__(self, config: MailConfig, now: datetime, transport: Transport, journal: Journal,
                 bot: Callable | None = None):
        self.config = config
        self.now = now
        self.transport = transport
        self.journal = journal
        self.bot = bot if bot is not None else _bot
        self.held: list[str] = []
        """The relays that could not read a mail now for a passing reason (a command holds
        the copy, a file could not be written): ``mail receive`` tries again a while. A copy
        that does not load is the operator's to mend, and is not among them."""

    def run(self, relays: list[RelayMail], source: str | None = None) -> None:
        """Every relay reads its source (``source``, if given, instead), and delivers."""
        groups: dict[str, list[RelayMail]] = {}
        for r in relays:
            spec = source or r.source or self.config.source
            if spec is None:
                self.journal.fail(str(r.file), PbemError(f"{r.file}: the relay has no mail source (give the relay "
                                                         "or [mail] a source)"))
                continue
            groups.setdefault(spec, []).append(r)
        for spec, members in groups.items():
            with self.opened(members) as runs:
                if runs:
                    try:
                        self.read(runs, open_source(spec, self.config.imap, self.config.limits))
                    except PbemError as exc:
                        self.journal.fail(f"reading {spec}", exc)
                for run in runs:
                    self.deliver(run)

    def kept(self, relays: list[RelayMail], folder: str, alone: bool, sweep: bool = True) -> Callable[[str], bool]:
        """The mails ``mail receive`` kept in ``folder``, read by every relay; ``alone``: no
        game reads them after the relays, so a mail every relay has read leaves the folder
        (unless not ``sweep``). Returns whether every relay has read a mail (by its id), for
        the games that read the folder next."""
        from pbem.mail.arrivals import Arrivals

        with self.opened(relays) as runs:
            complete = len(runs) == len(relays)

            def settled(mid: str) -> str | None:
                if not (complete and alone and all(not r.stopped and r.ledger.known(mid) for r in runs)):
                    return None
                failed = any(r.ledger.messages[mid].get("outcome") == "failed" for r in runs)
                return "failed" if failed else "done"

            if runs:
                self.read(runs, Arrivals(folder, self.config.limits, settled, sweep))
            for run in runs:
                self.deliver(run)
        return lambda mid: complete and all(not r.stopped and r.ledger.known(mid) for r in runs)

    @contextmanager
    def opened(self, relays: list[RelayMail]) -> Iterator[list[RelayRun]]:
        """The runs of ``relays`` that could be opened, their locks held while in use."""
        with ExitStack() as stack:
            yield [r for r in (self.open(stack, s) for s in relays) if r is not None]

    def open(self, stack: ExitStack, settings: RelayMail) -> RelayRun | None:
        """The run of one relay, its mail lock held as long as ``stack``; ``None`` if it is
        left to another run, or its copy holds nothing to relay yet (the operator's error:
        its mails wait)."""
        from pbem.service.signed.folder import Folder

        folder = Folder(settings.file)
        if not folder.path.exists() and not folder.setup_path.exists():
            self.journal.fail(str(settings.file), PbemError(
                f"{settings.file}: the relay's copy holds no game and no set-up: accept the group's proposal into it "
                f"first (antike-ref accept {settings.file} PROPOSAL-FILE); its mails wait until then"))
            return None
        try:
            stack.enter_context(mail_lock(settings.file))
            ledger = load_ledger(settings.file)
        except GameLocked:
            self.journal.left_to_another(settings.file)
            return None
        except PbemError as exc:  # a ledger that does not read: the operator's to mend
            self.journal.fail(str(settings.file), exc)
            return None
        return RelayRun(settings, ledger)

    def read(self, runs: list[RelayRun], source: Source) -> None:
        """Every mail of ``source`` a relay of ``runs`` has not read (:meth:`take`)."""

        def known(mid: str, fingerprint: str | None = None) -> bool:
            return all(r.stopped or r.ledger.known(mid) for r in runs)

        for incoming in source.messages(known):
            self.journal.summary.read += 1
            for run in runs:
                if not run.stopped and not run.ledger.known(incoming.message_id):
                    self.take(run, incoming)

    def take(self, run: RelayRun, incoming: Incoming) -> None:
        """One mail for one relay, noted in its ledger once handled."""
        mid = incoming.message_id
        before = spooled(run.spool)
        try:
            outcome = self._take(run, incoming)
        except PbemError as exc:  # a command at work, the machine's error, a copy that does not load: read later
            self.journal.summary.queued -= unspool(run.spool, before)
            run.stopped = str(exc)
            if isinstance(exc, (CannotWrite, GameLocked)):
                self.held.append(run.name)
            if isinstance(exc, GameLocked):
                self.journal.log(f"{run.name}: {exc}; its mail is read again on the next run")
            else:
                self.journal.fail(run.name, exc)
                self.journal.warn(f"{run.name}: its mail is read again on a later run")
            return
        except Exception as exc:  # a bug: that mail's failure alone (nothing of it goes out)
            self.journal.summary.queued -= unspool(run.spool, before)
            failure = bug(f"{run.name}: mail {mid}", exc, "with the mail")
            self.journal.fail(run.name, failure)
            outcome = {"outcome": "failed", "error": clip(str(failure), 500)}
        # the ledger keeps its mails sorted by Message-ID: "n" says which came when
        run.ledger.note(mid, **outcome, n=len(run.ledger.messages) + 1)
        try:
            run.ledger.save()
        except PbemError as exc:
            run.stopped = str(exc)
            self.held.append(run.name)
            self.journal.fail(run.name, exc)

    def _take(self, run: RelayRun, incoming: Incoming) -> dict:
        from pbem.service.signed.folder import Folder
        from pbem.service.signed.refusals import SignedRefused
        from pbem.service.signed.relay import players, relay
        from pbem.trust.refusals import TrustRefused

        text = relay_text(incoming)
        if incoming.problem is not None or BEGIN not in text:
            return {"outcome": "ignored"}
        seats = players(run.settings.file)
        sender = incoming.sender.lower()
        answer = bool(sender) and not incoming.automatic and any(a == sender for _, _, a in seats)
        source = f"mail {clip(incoming.message_id, 120)} from {incoming.sender or 'nobody'}"

        def hand_on(done) -> None:
            key = hashlib.sha256("".join(done.blocks).encode()).hexdigest()[:16]
            self._spool(run, f"relay-{key}", self._forward(seats, incoming, done))

        proofs = len(Folder(run.settings.file).proofs())
        try:
            done = relay(run.settings.file, text, source, self.now, self.bot, hand_on)
        except (SignedRefused, TrustRefused) as exc:  # a refusal of the entries: told, not a failure of ours
            self.journal.log(f"{run.name}: refused {source}: {exc.reason} ({exc.code.value})")
            if answer:
                self._spool(run, f"refused-{_digest(incoming.message_id)}", self._refusal(incoming, exc))
            if getattr(exc, "proof", None) is not None and len(Folder(run.settings.file).proofs()) > proofs:
                # a new proof, to every seat once (a reply quoting it is answered to its sender alone)
                self._spool(run, f"proof-{_digest(incoming.message_id)}", self._proof(seats, incoming, exc, text))
            return {"outcome": "refused", "code": exc.code.value}
        if done.blocks:
            self.journal.summary.relayed += len(done.blocks)
            self.journal.log(f"{run.name}: {len(done.blocks)} new entr{'y' if len(done.blocks) == 1 else 'ies'} "
                             f"from {incoming.sender or 'nobody'} passed on to {len(seats)} seat(s)")
        if done.damaged and answer:
            self._spool(run, f"damaged-{_digest(incoming.message_id)}", self._damaged(incoming, done))
        return {"outcome": "relayed" if done.blocks else "held", "entries": len(done.blocks)}

    # -- the mails ---------------------------------------------------------------------------

    def _spool(self, run: RelayRun, name: str, mail: EmailMessage) -> None:
        """Queue ``mail``; the names begin with how many mails the relay has read, so that
        the queue goes out in the order the mails came."""
        spool(run.spool, f"{len(run.ledger.messages):06d}-{name}", mail)
        self.journal.summary.queued += 1

    def _mail(self, to: list[str], subject: str, body: list[str], ident: str,
              answering: Incoming | None = None) -> EmailMessage:
        return message(self.config, to, subject, body, self.now, ident, None, answering, helped=False, verbatim=True)

    def _forward(self, seats, incoming: Incoming, done) -> EmailMessage:
        count = len(done.blocks)
        who = incoming.sender or "someone"  # the address: the body stays ASCII, readable from a saved mail
        body = para(f"The relay of game {done.game} passes on {count} new entr{'y' if count == 1 else 'ies'} "
                    f"sent by {who}. The relay checked every signature, reveal and turn in "
                    f"{'it' if count == 1 else 'them'} against its own copy of the game; it holds no key and signs "
                    "nothing.")
        body += ["", "To take them into your copy, save this mail as a file and run:", "",
                 f"    antike-ref accept {done.game}.json THE-SAVED-MAIL --as YOUR-SEAT", ""]
        for cap, block in zip(done.captions, done.blocks):
            body += [cap, *block.rstrip("\n").split("\n"), ""]
        body += ["Where the game stands now:", *(f"  {line}" for line in done.standing)]
        subject = f"[{done.game}] {done.labels[0]}" + (f" and {count - 1} more" if count > 1 else "")
        return self._mail(_to_all(seats), subject, body, f"relay|{done.game}|{''.join(done.blocks)}")

    def _refusal(self, incoming: Incoming, exc) -> EmailMessage:
        body = para(f"The relay refused the entries of your mail: {exc.reason} ({exc.code.value}).")
        body += [""] + para("Nothing of your mail was passed on, and the relay's copy of the game is as it was. "
                            "Your own copy may differ from the others': antike-ref verify says what it holds, and "
                            "antike-ref accept takes in the entries you are missing.")
        return self._mail([incoming.sender], "refused: " + (incoming.subject or "your entries")[:60], body,
                          f"relay-refused|{incoming.message_id}", incoming)

    def _damaged(self, incoming: Incoming, done) -> EmailMessage:
        body = para(f"{len(done.damaged)} block(s) of your mail did not read and were skipped:")
        for problem in done.damaged[:10]:
            body += wrap(clip(problem, 300), "  - ")
        body += [""] + para("Send those blocks again, whole (as the program printed them), in a plain-text mail or "
                            "a text file attached." + (" The other entries were passed on." if done.blocks else ""))
        return self._mail([incoming.sender], "skipped: " + (incoming.subject or "your entries")[:60], body,
                          f"relay-damaged|{incoming.message_id}", incoming)

    def _proof(self, seats, incoming: Incoming, exc, text: str) -> EmailMessage:
        from pbem.service.signed.blocks import armor, find

        body = para(f"The relay received, from {incoming.sender or 'nobody'}, an entry for a place of the game it "
                    f"holds another entry for: {exc.reason} ({exc.code.value}).")
        body += [""] + para("Both entries are validly signed, so this is proof, kept in the relay's proofs file. To "
                            "keep it in your copy too, save this mail and run antike-ref accept with it (the entry is "
                            "refused, the proof kept; antike-ref verify shows it). The blocks of that mail:")
        body.append("")
        for f in find(text, "the mail"):
            if f.signed is not None:
                body += armor(f.signed).rstrip("\n").split("\n")
        return self._mail(_to_all(seats), f"proof: {exc.code.value}", body, f"relay-proof|{incoming.message_id}")

    # -- delivering --------------------------------------------------------------------------

    def deliver(self, run: RelayRun) -> None:
        """Empty the relay's queue; a mail the server refuses waits for its next try."""
        try:
            result = self.transport.deliver(run.spool, self.now)
        except PbemError as exc:
            self.journal.fail(run.name, exc)
            return
        finally:
            self.transport.close()
        self.journal.summary.sent += len(result.sent)
        if result.sent:
            self.journal.log(f"{run.name}: {len(result.sent)} mail(s) delivered to {self.transport.describe()}")
        for name, answer, count in [*result.refused, *result.given_up]:
            self.journal.fail(run.name, PbemError(f"{run.name}: the server refused {name} ({answer}), try {count}"))


def relay_status(settings: RelayMail, now: datetime, shown: str | None = None) -> dict[str, Any]:
    """A relay as the GM's ``status`` tells it: its game, how many entries its copy holds,
    what happens next, how many mails it read and what became of the last one, its queue;
    ``error`` when its copy or ledger cannot be read (or holds nothing yet). No address."""
    from pbem.mail.transport import UNDELIVERABLE, waiting
    from pbem.service.signed.folder import Folder
    from pbem.service.signed.relay import folder_standing

    folder = spool_path(settings.file)
    record: dict[str, Any] = {"file": shown or str(settings.file), "game": None, "entries": 0, "next": [],
                              "read": 0, "last": None, "queue": {"waiting": len(waiting(folder)),
                                                                 "undeliverable": len(waiting(folder / UNDELIVERABLE))},
                              "error": None}
    try:
        game, book = Folder(settings.file).load()
        ledger = load_ledger(settings.file)
    except PbemError as exc:
        record["error"] = clip(str(exc), 300)
        return record
    if game is None and book is None:
        record["error"] = "its copy holds no game and no set-up: accept the group's proposal into it first"
        return record
    record["game"] = game.game_id if game is not None else book.game if book is not None else None
    record["entries"] = len(game.history) - 1 if game is not None else 0
    record["next"] = folder_standing(game, book, now)
    record["read"] = len(ledger.messages)
    if ledger.messages:
        last = max(ledger.messages.values(), key=lambda m: m.get("n", 0) if isinstance(m.get("n"), int) else 0)
        record["last"] = {k: last[k] for k in ("outcome", "code", "entries") if k in last}
    return record


def relay_line(record: dict[str, Any]) -> str:
    """One line of ``status`` for a relay (``!`` first when it needs the GM)."""
    name = f"{record['game']} ({record['file']})" if record["game"] else record["file"]
    queue = record["queue"]
    needs = bool(record["error"] or queue["undeliverable"])
    if record["error"]:
        parts = [f"relay: {record['error']}"]
    else:
        last = record["last"]
        count = record["entries"]
        parts = [f"relay, {count} entr{'y' if count == 1 else 'ies'} since the set-up", *record["next"][:1],
                 f"{record['read']} mail{'' if record['read'] == 1 else 's'} read"
                 + (f", the last {last['outcome']}" + (f" ({last['code']})" if last.get("code") else "")
                    if last else "")]
    parts.append("queue: " + (f"{queue['waiting']} waiting" if queue["waiting"] else "empty")
                 + (f", {queue['undeliverable']} given up" if queue["undeliverable"] else ""))
    return f"{'!' if needs else ' '} {name}: " + "; ".join(parts)


def _to_all(seats) -> list[str]:
    """Every seat's address once (``Name <address>``), in the order of the seats."""
    seen: set[str] = set()
    out = []
    for _, name, address in seats:
        if address not in seen:
            seen.add(address)
            out.append(formataddr((one_line(name, 100), address)) if name else address)
    return out


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _bot(game, mode: str) -> dict:
    """The bot a claim plays a missed turn with (every copy plays the same)."""
    from pbem.play.bot import play_turn

    return play_turn(game, mode)
