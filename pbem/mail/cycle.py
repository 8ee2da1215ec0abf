"""One mail cycle: read new mail, apply the orders, answer, report, remind, keep deadlines.

``inbox``, ``remind`` and ``mail run`` are this cycle with parts left out. For each game it
runs under the game's mail lock (a second run at the same time leaves the game alone), and
every step is recorded before the next begins, so a run may stop anywhere:

1. *Read*: each mail not yet in the ledger is routed to the game it names and answered or
   applied through the game service (which records its Message-ID in the history). The
   answer is spooled, then the ledger notes the mail.
2. *Report*: for history entries the ledger has not yet queued mails for (played by mail,
   by the GM by hand, by a deadline), the receipts of applied mails and one report per
   player are spooled; then the ledger moves on.
3. *Clock*: a turn's deadline is counted from the moment the cycle first saw it; a reminder
   and the policy for a missed deadline are applied once per turn.
4. *Deliver*: the spool is emptied (SMTP, or the ``--outbox`` folder).

The time is handed in (``now``); nothing here reads a clock.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from pbem.errors import CannotWrite, GameLocked, InputError, MailServerError, PbemError, Refused, clip
from pbem.mail import commands, compose, judge
from pbem.mail.desk import Desk
from pbem.mail.config import GameMail, MailConfig
from pbem.mail.inbox import Incoming, Source, open_source
from pbem.mail.ledger import Ledger, load_ledger, mail_lock, spool_path
from pbem.mail.welcome import opening_passwords
from pbem.mail.runs import GameRun, Tripped, bug
from pbem.mail.transport import BACK_OFF, UNDELIVERABLE, Transport, spool
from pbem.service.clock import iso, parse_time  # noqa: F401 (parse_time: the cycle's --now)
from pbem.service.game import Game
from pbem.service.service import AlreadyApplied, GameService, Input, input_from_text
from pbem.service.turns import mail_ids

Log = Callable[[str], None]


@dataclass
class Found:
    """What a mail offers as orders."""

    given: Input | None
    game_id: str | None
    problem: str | None = None


def find_orders(incoming: Incoming) -> Found | None:
    """The orders in a mail: an attached ``.json`` / ``.txt`` file, else the plain-text
    body. ``None`` for a mail that holds nothing that looks like orders (not for us)."""
    from pbem.service.language.textorders import looks_like_text_orders

    source = f"mail {incoming.message_id}"
    from pbem.service.copies import is_player_copy

    attached = [(n, d) for n, d in incoming.attachments if not is_player_copy(d)]  # a reply may carry it back
    if len(attached) > 1:
        names = ", ".join(n for n, _ in attached)
        return Found(None, None, f"more than one order file is attached ({names}); send one per mail")
    if attached:
        name, data = attached[0]
        where = f"{name} ({source})"
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return Found(None, None, f"{name}: the attachment is not UTF-8 text")
        try:
            given = input_from_text(text, where)
        except InputError as exc:
            return Found(None, _text_game(text), "; ".join(str(p) for p in exc.problems) + f" (in {name})")
        return Found(given, _game_of(given))
    if incoming.text is not None:
        lines = incoming.body_lines()
        kept = "\n".join(line for _, line in lines).strip()
        if kept.startswith("{"):
            try:
                given = input_from_text(kept, f"the body of {source}")
            except InputError as exc:
                return Found(None, None, "; ".join(str(p) for p in exc.problems))
            return Found(given, _game_of(given))
        if looks_like_text_orders(incoming.text, lines):
            given = Input(incoming.text, f"the body of {source}", "text", tuple(lines))
            return Found(given, _game_of(given))
        return None
    if incoming.html_text is not None and (looks_like_text_orders(incoming.html_text) or '"nation"' in incoming.html_text):
        return Found(None, _text_game(incoming.html_text),
                     "the mail has only an HTML part; send your orders as plain text "
                     "(in your mail program: plain text, not HTML) or attach an order file")
    return None


def _text_game(text: str, lines: Sequence[tuple[int, str]] | None = None) -> str | None:
    """The game a text of orders names: the first ``game`` line whose rest is a game id
    (``Game night was fun!`` before the orders is prose, not a game line), else the first
    ``game`` line's rest (a mistyped id, which the answer then quotes)."""
    from pbem.kernel.setup import GAME_ID
    from pbem.service.language.textorders import MAX_TEXT_CHARS, line_value, strip_mail

    if lines is None:
        lines = strip_mail(text[:MAX_TEXT_CHARS])
    named = [found for _, line in lines if (found := line_value(line, "game"))]
    return next((g for g in named if GAME_ID.match(g)), named[0] if named else None)


def _game_of(given: Input) -> str | None:
    if given.form == "text":
        return _text_game(given.data, given.lines)
    return given.data.get("game") if isinstance(given.data, dict) and isinstance(given.data.get("game"), str) else None


def told(given: Input, exc: InputError | Refused) -> list[str]:
    """Every problem of a mail's orders as its writer reads it. Orders in the text syntax
    are told by line, the line quoted (:meth:`TextReading.describe
    <pbem.service.language.textorders.TextReading.describe>`), a line the reader could not read too;
    an order file by its JSON path, as ``check`` tells it."""
    reading = getattr(exc, "text_reading", None)
    if isinstance(exc, Refused):
        if reading is None:
            return [str(r) for r in exc.rejections]
        return [reading.describe(r.path, r.message, r.code) for r in exc.rejections]
    if reading is not None:
        return [reading.describe(p.path, p.message) for p in exc.problems]
    if given.form != "text":
        return [str(p) for p in exc.problems]
    lines = re.split(r"\r\n|\r|\n", given.data)
    out = []
    for p in exc.problems:
        where = re.match(r"line (\d+), column \d+$", p.path)
        number = int(where.group(1)) if where else 0
        quoted = f' ("{clip(lines[number - 1].strip())}")' if 0 < number <= len(lines) else ""
        out.append(f"{p.path}{quoted}: {p.message}")
    return out


def not_read(reading) -> list[list]:
    """The lines of a text of orders that were not read as orders (a greeting, a thanks),
    a few of them, clipped: what the receipt lists back."""
    if reading is None:
        return []
    shown = [[number, clip(text.strip(), 80)] for number, text in reading.ignored[:compose.QUOTED]]
    more = len(reading.ignored) - len(shown)
    return shown + ([[None, f"and {more} more line{'s' if more > 1 else ''}"]] if more else [])


HEADER_KEYS = frozenset({"game", "nation", "turn", "password"})
"""The keys of an order file that say who sends it and for what, but order nothing."""


def orders_digest(orders: dict) -> str:
    """What an order mail orders (canonical, without the password), as a short digest the
    ledger keeps: the same orders sent again in another mail are known by it."""
    from pbem.kernel.turn import public_echo
    from pbem.service.history import canonical

    return hashlib.sha256(canonical(public_echo(orders)).encode("utf-8")).hexdigest()[:24]


def applied_copy(game: Game, ledger: Ledger, orders: dict, digest: str) -> dict | None:
    """The history entry that applied these very orders already (from an earlier mail
    whose digest the ledger kept, or, for a ledger of an older release, the same orders
    as stored), or ``None``."""
    hashes = {r.get("hash") for r in ledger.messages.values()
              if r.get("outcome") == "applied" and r.get("orders") == digest}
    from pbem.kernel.turn import public_echo

    echo = public_echo(orders)
    for entry in reversed(game.history):
        if entry.get("hash") in hashes:  # by hash: an entry taken back by undo is not it
            return entry
        if (entry.get("kind") == "turn" and entry.get("nation") == orders["nation"] and "rondel" in orders
                and entry.get("turn") == orders.get("turn") and _covers(entry.get("orders"), echo)):
            return entry
    return None


def _covers(stored, sent) -> bool:
    """Whether ``stored`` (an entry's orders as echoed) is ``sent`` with the choices the
    referee made spelt out (payments a file left to the defaults): every value ``sent``
    gives is in ``stored``, lists entry by entry."""
    if isinstance(sent, dict):
        return isinstance(stored, dict) and all(k in stored and _covers(stored[k], v) for k, v in sent.items())
    if isinstance(sent, list):
        return isinstance(stored, list) and len(stored) == len(sent) and all(map(_covers, stored, sent))
    return stored == sent


def played_for_them(game: Game, orders: dict) -> str | None:
    """Why a turn's orders came too late: their turn was played by the GM's default turn
    or a bot (for a missed deadline) before they arrived."""
    if "rondel" not in orders:
        return None
    for entry in reversed(game.history):
        if (entry.get("kind") in ("default-turn", "bot-turn") and entry.get("nation") == orders["nation"]
                and entry.get("turn") == orders.get("turn")):
            who = "the GM's default turn" if entry["kind"] == "default-turn" else f"the {entry.get('bot')} bot"
            missed = f" after the deadline {entry['deadline']} had passed" if entry.get("deadline") else ""
            return (f"turn {entry['turn']} of the {game.edition.nation_name(entry['nation'])} was played already "
                    f"by {who}{missed} (history entry {entry['seq']}); these orders came too late for it")
    return None


def order_line_words() -> frozenset[str]:
    """Words an order line starts with, in any edition (the text syntax's, and ``know`` of
    ``know how``): a mail with such a line is orders."""
    from pbem.service.language.textorders import line_words

    return line_words() | {"know"}


class _Answered(Exception):
    """The orders of a mail were screened out in the transaction (nothing changed); the
    answer is spooled once the game's lock is released."""

    def __init__(self, answer: Callable[[], None]):
        super().__init__("screened out")
        self.answer = answer


@dataclass
class Summary:
    """What a cycle did, for the command line."""

    applied: int = 0
    rejected: int = 0
    ignored: int = 0
    queued: int = 0
    sent: int = 0
    failures: list[PbemError] = field(default_factory=list)


class Cycle(Desk):
    def __init__(self, config: MailConfig, now: datetime, transport: Transport, log: Log,
                 warn: Log | None = None):
        """``log`` hears what was done, ``warn`` (default: ``log``) what went wrong."""
        self.config = config
        self.now = now
        self.transport = transport
        self.log = log
        self.warn = warn or log
        self.summary = Summary()
        self._runs: dict[str, GameRun] = {}
        self._failed_games: set[str] = set()

    # -- the whole cycle ------------------------------------------------------------------

    def run(self, games: list[GameMail], source: str | None = None, read: bool = True,
            deadlines: bool = True) -> Summary:
        """Run the cycle over ``games``; games that share a mail source read it once."""
        groups: dict[str | None, list[GameMail]] = {}
        for g in games:
            groups.setdefault(source or g.source or self.config.source if read else None, []).append(g)
        for spec, members in groups.items():
            with ExitStack() as stack:
                runs = [r for r in (self._open(stack, g) for g in members) if r is not None]
                if spec is not None and runs:
                    try:
                        self.read(runs, open_source(spec, self.config.imap, self.config.limits))
                    except PbemError as exc:
                        self._fail(f"reading {spec}", exc)
                        for run in runs:  # each game's status tells it too
                            self._note_error(run, exc)
                for run in runs:
                    try:
                        self.report(run)
                        if deadlines:
                            self.keep_time(run)
                    except Exception as exc:  # that game's failure alone; what the step spooled is taken back
                        self.summary.queued -= run.take_back()
                        self._fail(run.game_id, exc if isinstance(exc, PbemError) else bug(run.game_id, exc))
                    self.deliver(run)
                    self._settle(run)
        return self.summary

    def _note_error(self, run: GameRun, exc: PbemError) -> None:
        """The game's last error, for the GM's status (:mod:`pbem.service.clock`)."""
        self._failed_games.add(run.game_id)
        self._last_error(run.ledger, exc)

    def _last_error(self, ledger: Ledger, exc: PbemError) -> None:
        try:
            ledger.judge["last_error"] = {"at": iso(self.now), "what": clip(str(exc), 300)}
            ledger.save()
        except PbemError:
            pass

    def _settle(self, run: GameRun) -> None:
        """A game whose cycle went well this time: an earlier run's error is dealt with."""
        if run.game_id in self._failed_games or run.stopped or not run.ledger.judge.get("last_error"):
            return
        run.ledger.judge.pop("last_error", None)
        try:
            run.ledger.save()
        except PbemError:
            pass

    def _fail(self, where: str, exc: PbemError) -> None:
        self.summary.failures.append(exc)
        run = self._runs.get(where)
        if run is not None:
            self._note_error(run, exc)
        if isinstance(exc, InputError):
            what = "; ".join(p.message if p.path == "$" else str(p) for p in exc.problems)
            message = f"{exc.source}: {what}"
        else:
            message = str(exc)
        self.warn(message if message.startswith(where) else f"{where}: {message}")

    def _open(self, stack: ExitStack, settings: GameMail) -> GameRun | None:
        try:
            stack.enter_context(mail_lock(settings.file))
            ledger = load_ledger(settings.file)
        except GameLocked:
            self.log(f"{settings.file}: another mail run is working on this game; left to it")
            return None
        except PbemError as exc:
            self._fail(str(settings.file), exc)
            return None
        try:
            service = GameService(settings.file)
            service.reuse_loaded = True  # a mail's orders are applied to the game loaded here
            run = GameRun(settings, service, ledger, service.load(), spool_path(settings.file))
        except Exception as exc:  # a damaged game file (or a bug loading it): this game's failure alone
            failure = exc if isinstance(exc, PbemError) else bug(str(settings.file), exc)
            self._fail(str(settings.file), failure)
            self._last_error(ledger, failure)
            return None
        self._runs[run.game_id] = run
        if run.ledger.queued < 0:
            # First contact: a game just created gets its opening report mailed; the past
            # of a game that was played without mail so far is not mailed again.
            fresh = len(run.game.history) == 1
            run.ledger.queued = len(run.game.history) - (2 if fresh else 1)
        return run

    # -- 1. read ----------------------------------------------------------------------------

    def read(self, runs: list[GameRun], source: Source) -> None:
        def known(message_id: str, fingerprint: str | None = None) -> bool:
            if not all(r.ledger.known(message_id) or r.stopped for r in runs):
                return False
            for run in runs:
                if not run.stopped and run.ledger.differs(message_id, fingerprint):
                    self._seen_again(run, message_id, fingerprint)
            return True

        by_id = {r.game_id: r for r in runs}
        for incoming in source.messages(known):
            for run in runs:
                run.ledger.content(incoming.message_id, incoming.fingerprint, len(incoming.raw) or None)
            try:
                self._dispatch(incoming, runs, by_id)
            except Exception as exc:  # a bug: note the mail, so that it cannot stop every later run
                tripped = exc.run if isinstance(exc, Tripped) else None
                exc = exc.__cause__ if tripped is not None else exc
                failure = bug(f"mail {incoming.message_id} from {incoming.sender or 'nobody'}", exc, "with the mail")
                self._fail("reading", failure)
                if tripped is not None:  # no half answer goes out; the ledger is read again
                    self.summary.queued -= tripped.take_back()
                    tripped.ledger.content(incoming.message_id, incoming.fingerprint, len(incoming.raw) or None)
                for run in runs:
                    if not run.ledger.known(incoming.message_id):
                        run.ledger.note(incoming.message_id, "failed", error=f"{type(exc).__name__}: {exc}"[:500])
                        if tripped in (None, run):  # the game the mail tripped in (all: it is not known which)
                            self._note_error(run, failure)
                        else:
                            run.ledger.save()

    def _seen_again(self, run: GameRun, message_id: str, fingerprint: str) -> None:
        """A Message-ID known already, on a mail that holds something else: it is not read
        (a Message-ID is read once), but the ledger notes it and the GM is told, once."""
        record = run.ledger.messages[message_id]
        again = record.setdefault("again", [])
        if fingerprint in again or len(again) >= 5:
            return
        again.append(fingerprint)
        self.warn(f"{run.game_id}: a mail came again under the Message-ID {message_id} with other content; "
                  "it is not read (the first mail with that id was)")
        if self.config.gm:
            notice = compose.gm_notice(self.config, run.game, "a Message-ID came again with other content", [
                f"A mail with the Message-ID {clip(message_id, 120)} came again, but with other content than the "
                f"mail read under that id before (it was {record.get('outcome', 'noted')}).",
                "The referee reads each Message-ID once, so this mail was not read. If a player's mail program "
                "reuses Message-IDs, ask them to send the orders again as a new mail; if not, someone may be "
                "replaying mail."], self.now, f"again|{message_id}|{fingerprint}")
            digest = hashlib.sha256(f"{message_id}|{fingerprint}".encode()).hexdigest()[:12]
            spool(run.spool, f"{len(run.game.history):06d}-again-{digest}", notice)
        run.ledger.save()

    def _dispatch(self, incoming: Incoming, runs: list[GameRun], by_id: dict[str, GameRun]) -> None:
        """Hand one mail to the game that answers it; the other games note it as ignored.
        Automatic mail and mail without a sender are never answered (no mail loops); a
        mail that could not be read is noted by every game, and answered in one line only
        to a sender who plays here."""
        if incoming.problem:
            return self._unread(incoming, runs)
        silent = incoming.automatic or not compose.deliverable(incoming.sender)
        command = None
        if not silent and incoming.text is not None and not incoming.attachments:
            command = commands.read_commands(incoming.text, order_line_words(), incoming.body_lines())
        found = None if silent or command is not None else find_orders(incoming)
        if command is not None:
            target, wrong = self._route_commands(incoming, command, runs, by_id), False
        else:
            target, wrong = self._route(incoming, found, runs, by_id)
        if target is None and found is None and command is None and not silent:
            target = next((r for r in runs if not r.stopped and r.registered(incoming.sender)), None)
        for run in runs:
            if run.stopped or run.ledger.known(incoming.message_id):
                continue
            try:
                if run is target and command is not None:
                    self._command_mail(run, incoming, command)
                elif run is target and found is None:
                    if not self._other_mail(run, incoming):
                        run.ledger.note(incoming.message_id, "ignored", why="no orders")
                        run.ledger.save()
                elif run is target:
                    self._handle(run, incoming, found, wrong)
                else:
                    why = "automatic or no sender" if silent else "no orders" if found is None else "for another game"
                    run.ledger.note(incoming.message_id, "ignored", why=why)
                    self.summary.ignored += run is runs[0]
                    run.ledger.save()
            except CannotWrite as exc:
                # the machine's error, not the mail's: this game reads it again on the next run
                # (the ledger does not know it, and what was spooled for it is taken back; an
                # order applied before the failure is in the history with its Message-ID, so it
                # is not applied twice)
                self.summary.queued -= run.take_back()
                run.ledger.messages.pop(incoming.message_id, None)
                run.stopped = str(exc)
                self._fail(run.game_id, exc)
                self.warn(f"{run.game_id}: its mail is read again on the next run, once {exc.path} can be written")
            except GameLocked as exc:  # the GM's own command holds the game: read again on the next run
                self.summary.queued -= run.take_back()
                run.stopped = str(exc)
                self.log(f"{run.game_id}: {exc}; its mail is read again on the next run")
            except Exception as exc:
                raise Tripped(run) from exc

    def _unread(self, incoming: Incoming, runs: list[GameRun]) -> None:
        player = (None if incoming.automatic or not compose.deliverable(incoming.sender)
                  else next((r for r in runs if not r.stopped and r.registered(incoming.sender)), None))
        for run in runs:
            if run.stopped or run.ledger.known(incoming.message_id):
                continue
            if run is player:
                self._answer(run, incoming, "unread", compose.not_read(self.config, run.game_id, incoming,
                                                                       incoming.problem, self.now),
                             "unreadable", why=incoming.problem)
            else:
                run.ledger.note(incoming.message_id, "unreadable", why=incoming.problem)
                run.ledger.save()
        self.log(f"mail {clip(incoming.message_id, 80)} from {incoming.sender or 'nobody'} not read: {incoming.problem}")

    @staticmethod
    def _route_commands(incoming: Incoming, command: commands.CommandMail, runs: list[GameRun],
                        by_id: dict[str, GameRun]) -> GameRun | None:
        """The game a mail of commands is for: the one it names, else the first game its
        sender plays in, or (a ``CONFIRM``) the game that waits for it from this address."""
        if command.game in by_id:
            return by_id[command.game]
        for run in runs:
            if not run.stopped and run.registered(incoming.sender):
                return run
        for run in runs:
            pending = run.ledger.judge.get("pending") or {}
            if any(isinstance(p, dict) and p.get("to") == incoming.sender for p in pending.values()):
                return run
        return None

    @staticmethod
    def _route(incoming: Incoming, found: Found | None, runs: list[GameRun],
               by_id: dict[str, GameRun]) -> tuple[GameRun | None, bool]:
        """The game that answers a mail, and whether the mail names a game that is not
        this one: the game it names, else the first game its sender plays in."""
        if found is None:
            return None, False
        if found.game_id in by_id:
            return by_id[found.game_id], False
        for run in runs:
            if run.registered(incoming.sender):
                return run, found.game_id is not None
        return None, False

    def _handle(self, run: GameRun, incoming: Incoming, found: Found, wrong_game: bool) -> None:
        game = run.game
        mid = incoming.message_id
        if mid in mail_ids(game):
            run.ledger.note(mid, "applied", sender=incoming.sender)
            run.ledger.save()
            return
        if not run.registered(incoming.sender):
            return self._stranger(run, incoming)
        if found.problem:
            return self._reject(run, incoming, [found.problem])
        if wrong_game:
            return self._reject(run, incoming, [
                f"the mail names game {found.game_id!r}; this referee runs game {game.game_id!r} for you "
                f"({', '.join(game.edition.nation_name(n) for n in compose.nations_of(game, incoming.sender))})"])
        assert found.given is not None
        read: dict[str, Any] = {}

        def screen(game: Game, orders: dict, reading) -> None:
            """The mail's checks, in the transaction that applies the orders (read once, on
            the game loaded once): the sender must be the nation's registered address, the
            mail must hold orders, and not the orders of an earlier mail again."""
            read.update(game=game, orders=orders, reading=reading, digest=orders_digest(orders))
            nation = orders["nation"]
            if nation in game.meta and nation not in compose.nations_of(game, incoming.sender):
                raise _Answered(lambda: self._reject(run, incoming, [
                    f"orders for the {game.edition.nation_name(nation)} are accepted only from the address "
                    f"registered for them; {incoming.sender or 'this mail'} is not it"],
                    advice="If you have a new address, ask the GM to register it."))
            if not set(orders) - HEADER_KEYS:
                raise _Answered(lambda: self._no_orders(run, incoming, nation))
            copy = applied_copy(game, run.ledger, orders, read["digest"])
            if copy is not None:
                raise _Answered(lambda: self._applied_before(run, incoming, copy))

        try:
            outcome = run.service.process(found.given, mail_id=mid, screen=screen)
        except _Answered as answered:
            return answered.answer()
        except AlreadyApplied:
            run.ledger.note(mid, "applied", sender=incoming.sender)
            run.ledger.save()
            return
        except GameLocked as exc:
            run.stopped = str(exc)
            self.log(f"{run.game_id}: {exc}; its mail is read again on the next run")
            return
        except Refused as exc:
            late = played_for_them(read["game"], read["orders"]) if read else None
            return self._reject(run, incoming, ([late] if late else []) + told(found.given, exc),
                                ignored=not_read(read.get("reading")))
        except InputError as exc:
            return self._reject(run, incoming, told(found.given, exc))
        run.game = outcome.after
        entry = outcome.added[0]
        nation = read["orders"]["nation"]
        run.ledger.note(mid, "applied", sender=incoming.sender, seq=entry["seq"], hash=entry["hash"],
                        subject=incoming.subject[:200], form=found.given.form, orders=read["digest"],
                        ignored=not_read(outcome.reading))
        run.ledger.save()
        self.summary.applied += 1
        what = f"turn {entry['turn']}" if "turn" in entry else "standing orders"
        self.log(f"{run.game_id}: applied {what} for {nation} from {incoming.sender} ({mid})")

    def _answer(self, run: GameRun, incoming: Incoming, kind: str, message, outcome: str, **details) -> None:
        """Spool an answer that changes nothing in the game, and note the mail."""
        digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
        spool(run.spool, f"{len(run.game.history):06d}-{kind}-{digest}", message)
        run.ledger.note(incoming.message_id, outcome, sender=incoming.sender, **details)
        run.ledger.save()
        self.summary.queued += 1

    def _stranger(self, run: GameRun, incoming: Incoming) -> None:
        """Orders from an address no nation of the game has: never applied; answered only
        if the configuration says so, in a line that tells nothing of the game (a forged
        sender must not turn the referee into a source of mail to strangers)."""
        if self.config.answer_strangers:
            self._answer(run, incoming, "stranger", compose.stranger(self.config, incoming, self.now), "rejected",
                         why="an address no nation has")
            self.summary.rejected += 1
        else:
            run.ledger.note(incoming.message_id, "ignored", why="from an address no nation has", sender=incoming.sender)
            run.ledger.save()
        self.log(f"{run.game_id}: mail {clip(incoming.message_id, 80)} from {incoming.sender}, an address no nation "
                 f"has: {'answered in one line' if self.config.answer_strangers else 'not answered'}")

    def _no_orders(self, run: GameRun, incoming: Incoming, nation: str) -> None:
        """A mail that names the game and the nation but holds no order: no history entry;
        answered with what it lacks and how the game stands."""
        message = compose.no_orders(self.config, run.game, incoming, nation, self.now, clock=self._clock(run))
        self._answer(run, incoming, "no-orders", message, "answered", why="no orders")
        self.log(f"{run.game_id}: mail {incoming.message_id} from {incoming.sender} holds no orders; answered")

    def _applied_before(self, run: GameRun, incoming: Incoming, entry: dict) -> None:
        """The same orders as an entry applied already (a copy of a mail sent again)."""
        message = compose.applied_before(self.config, run.game, incoming, entry, self.now, clock=self._clock(run))
        self._answer(run, incoming, "again", message, "answered", why=f"already applied (entry {entry['seq']})")
        self.log(f"{run.game_id}: mail {incoming.message_id} from {incoming.sender} repeats entry {entry['seq']}")

    def _reject(self, run: GameRun, incoming: Incoming, reasons: list[str], advice: str = "",
                ignored: list | None = None) -> None:
        if not advice:
            advice = "Correct the orders and send them again."
        message = compose.receipt_rejected(self.config, run.game, run.game_id, incoming, reasons, self.now, advice,
                                           ignored=ignored, clock=self._clock(run))
        gm = compose.gm_recipient(self.config)
        if run.settings.gm_copies == "refusals" and gm is not None and gm.address != incoming.sender:
            copy = compose.copy_to_gm(self.config, message, gm)
            digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
            spool(run.spool, f"{len(run.game.history):06d}-rejected-{digest}-gm", copy)
            self.summary.queued += 1
        self._answer(run, incoming, "rejected", message, "rejected",
                     reasons=[clip(r, 300) for r in reasons[:compose.REASONS]])
        self.summary.rejected += 1
        self.log(f"{run.game_id}: rejected mail {incoming.message_id} from {incoming.sender}: {reasons[0]}")

    # -- 2. report --------------------------------------------------------------------------

    def report(self, run: GameRun) -> None:
        """Spool the receipts and reports of history entries not yet reported, and the
        notices the GM's changes of the clock left (:mod:`pbem.mail.judge`)."""
        self._report_entries(run)
        self._announce(run)

    def _announce(self, run: GameRun) -> None:
        notices = run.ledger.judge.get("announce") or []
        if not notices:
            return
        game = run.game
        texts = [n["text"] for n in notices if isinstance(n, dict) and isinstance(n.get("text"), str)]
        people = compose.recipients(game) + compose.observers(run.settings)
        gm = compose.gm_recipient(self.config)
        if gm is not None:
            people.append(gm)
        digest = hashlib.sha256("|".join(texts).encode()).hexdigest()[:10]
        for k, person in enumerate(people):
            message = compose.notice(self.config, game, person, texts, self.now, self._clock(run), digest)
            spool(run.spool, f"{len(game.history):06d}-notice-{digest}-{k:02d}", message)
            self.summary.queued += 1
        run.ledger.judge["announce"] = []
        run.ledger.save()
        self.log(f"{run.game_id}: {len(texts)} notice(s) from the GM sent to {len(people)} address(es)")

    def _report_entries(self, run: GameRun) -> None:
        hist = run.game.history
        ledger = run.ledger
        if ledger.head is not None and not any(e["hash"] == ledger.head for e in hist):
            self.log(f"{run.game_id}: the history was taken back (undo); reporting the game as it is now")
            ledger.queued = len(hist) - 2
        ledger.queued = min(ledger.queued, len(hist) - 1)
        new = hist[ledger.queued + 1:]
        if not new:
            return
        from pbem.service.service import echo_text

        self.start_clock(run)  # the new turn's deadline, for every mail that tells it
        clock = self._clock(run)

        for entry in new:
            record = ledger.messages.get(entry.get("mail", ""), {})
            if record.get("sender"):
                incoming = Incoming(entry["mail"], record["sender"], "", record.get("subject", ""), b"")
                message = compose.receipt_accepted(self.config, run.game, incoming, entry,
                                                   echo_text(run.game, entry["orders"]), self.now,
                                                   ignored=record.get("ignored", []), clock=clock)
                spool(run.spool, f"{entry['seq']:06d}-receipt", message)
                self.summary.queued += 1
        self._reports(run, new, clock)
        ledger.queued = len(hist) - 1
        ledger.head = hist[-1]["hash"]
        ledger.save()

    def _reports(self, run: GameRun, news: list[dict], clock: compose.Clock | None = None) -> None:
        """One report mail per address (and the GM's digest of ``news``, the entries
        reported now for the first time)."""
        from pbem.report import prepare_all

        game = run.game
        # the public report; in an edition with secrets (its cards in hand) also each nation's
        # private one: a player's mail carries their own, the GM's the public one
        formats = [f for f in run.settings.attach if f != "copy"]
        reports = {r.viewer: r for r in prepare_all(game, entry=len(game.history) - 1,
                                                    image_base=run.settings.image_base,
                                                    deadline=clock.deadline if clock else None,
                                                    now=self.now)} if formats else {}
        seq = game.history[-1]["seq"]
        people = compose.recipients(game)
        taken = {p.address.lower() for p in people}
        people += [o for o in compose.observers(run.settings) if o.address not in taken]
        gm = compose.gm_recipient(self.config)
        if gm is not None and gm.address not in {p.address.lower() for p in people}:
            people.append(gm)
        rendered: dict[tuple[str | None, str], bytes] = {}
        # the opening report carries each player's password, this once (from the GM's secrets file)
        opening = opening_passwords(run.settings.file) if any(e.get("kind") == "new" for e in news) else {}
        for k, person in enumerate(people):
            attachments: dict[str, bytes] = {}
            names: dict[str, str] = {}
            own = [n for n in person.nations if n in reports] or [None]
            for viewer in (own if reports else []):
                for fmt in formats:
                    key = fmt if viewer is None or len(own) == 1 else f"{viewer}.{fmt}"
                    if (viewer, fmt) not in rendered:
                        rendered[viewer, fmt] = reports[viewer].render(fmt)
                    attachments[key] = rendered[viewer, fmt]
                    names[key] = reports[viewer].name(fmt)
            if "copy" in run.settings.attach:  # each player's own copy of the game, for check
                from pbem.service.copies import player_copy
                from pbem.service.schemas import dumps

                for nation in person.nations:
                    attachments[f"{nation}.json"] = dumps(player_copy(game, nation)).encode("utf-8")
                    names[f"{nation}.json"] = f"{Path(run.settings.file).stem}.{nation}.json"
            secret = ", ".join(f"{game.edition.nation_name(n)}: {opening[n]}" for n in person.nations if n in opening)
            message = compose.turn_report(self.config, game, person, self.now, attachments, names,
                                          news=news, site=run.settings.site, clock=clock, password=secret or None)
            spool(run.spool, f"{seq:06d}-report-{k:02d}", message)
            self.summary.queued += 1
        missing = [n for n in game.seats if not compose.deliverable(game.meta[n].email)]
        if missing:
            self.log(f"{run.game_id}: no address (or no single address) registered for {', '.join(missing)}: "
                     "they get no report")

    # -- 3. the clock -----------------------------------------------------------------------

    def keep_time(self, run: GameRun) -> None:
        """Start the current turn's clock, remind, and apply the policy of a missed deadline."""
        for _ in range(len(run.game.seats) + 1):
            if not self._tick(run):
                return

    def _tick(self, run: GameRun) -> bool:
        """One look at the clock; true if a turn was played for a missed deadline."""
        game, ledger, settings = run.game, run.ledger, run.settings
        st = game.state.status
        if st.winner is not None:
            if ledger.clock:
                ledger.clock = {}
                ledger.save()
            return False
        self.start_clock(run)
        if ledger.judge.get("paused"):
            return False  # no deadline runs while the GM has paused the game
        away = judge.absent_now(ledger, st.active, self.now)
        if away is not None and settings.absence != "wait":
            return self._play_for(run, settings.absence, {"absent": away["until"]},
                                  f"is away until {away['until']}")
        if self._held(run, away):
            return False
        if settings.deadline is None:
            return False
        due = parse_time(ledger.clock["due"])
        if (settings.remind is not None and not ledger.clock["reminded"]
                and due - settings.remind <= self.now < due):
            self._remind(run, due)
            return False
        if self.now < due or ledger.clock["missed"]:
            return False
        nation = st.active
        when = iso(due)
        if settings.missed in ("remind", "wait"):
            message = compose.reminder(self.config, game, nation, due, self.now, passed=True, clock=self._clock(run))
            spool(run.spool, f"{len(game.history):06d}-late-{nation}", message)
            lines = [f"The deadline of turn {st.turn} ({game.edition.nation_name(nation)}) passed at {when}."]
            lines.append("The game waits for you: play a default turn (antike-ref default-turn) or a bot turn "
                         "(antike-ref bot --apply), or wait." if settings.missed == "wait"
                         else "The player was told; the game waits for their orders.")
            if self.config.gm:
                spool(run.spool, f"{len(game.history):06d}-late-gm",
                      compose.gm_notice(self.config, game, f"deadline passed: turn {st.turn}", lines, self.now,
                                        f"late|{game.history[-1]['hash']}"))
            ledger.clock["missed"] = True
            ledger.save()
            self.log(f"{run.game_id}: the deadline of turn {st.turn} ({nation}) passed at {when}; {settings.missed}")
            return False
        return self._play_for(run, settings.missed, {"deadline": when}, f"missed the deadline {when}")

    def _play_for(self, run: GameRun, how: str, notes: dict, why: str) -> bool:
        """Play the active nation's turn for its player, as the GM's default turn
        (``default``) or the game's bot (``bot``), recorded with ``notes`` (the deadline
        missed, or the absence); then report it. True: a turn was played."""
        st = run.game.state.status
        nation = st.active
        if how == "default":
            outcome = run.service.default_turn(nation, notes=notes)
        else:
            from pbem.play.search import play_turn

            mode = run.settings.bot
            outcome = run.service.bot_turn(mode, lambda g: play_turn(g, mode), notes=notes)
        run.game = outcome.after
        self.log(f"{run.game_id}: turn {st.turn} of {nation}, who {why}: played a "
                 f"{'default' if how == 'default' else run.settings.bot + ' bot'} turn")
        self.report(run)
        return True

    def _held(self, run: GameRun, away: dict | None) -> bool:
        """An absence the game waits for (policy ``wait``): the deadline does not run while
        the player is away, and when they are back their turn has its whole time again
        (from the end of the absence). True while it is held."""
        clock = run.ledger.clock
        if away is not None:
            if clock.get("held") != away["until"]:
                clock["held"] = away["until"]
                run.ledger.save()
            return True
        if clock.get("held"):
            back = judge.end_of_day(date.fromisoformat(clock["held"]), clock.get("zone"))
            if clock.get("due") and clock.get("allow"):
                due = max(parse_time(clock["due"]), back + timedelta(seconds=int(clock["allow"])))
                clock["due"] = iso(due)
                if due > self.now:
                    clock["reminded"] = clock["missed"] = False
            clock.pop("held")
            run.ledger.save()
        return False

    def _clock(self, run: GameRun) -> compose.Clock:
        """What the mails say of the game's clock now (:class:`compose.Clock`)."""
        from pbem.service.clock import absences_now, deadline_of, local_day

        st = run.game.state.status
        state = {"clock": run.ledger.clock, **run.ledger.judge}
        away = absences_now(state, local_day(self.now, run.ledger.clock.get("zone")))
        paused = run.ledger.judge.get("paused")
        return compose.Clock(deadline_of(state, st.turn, st.active, st.winner), tuple(sorted(away.items())),
                             (paused.get("reason") or "") if isinstance(paused, dict) else None)

    def start_clock(self, run: GameRun) -> None:
        """The current turn's clock: started when the cycle first sees the turn (its
        deadline ``due`` then, ``allow`` after it; told in the game's time zone), and given
        what a clock of an earlier release lacks."""
        game, ledger, settings = run.game, run.ledger, run.settings
        st = game.state.status
        if st.winner is not None:
            return
        key = [st.turn, st.active]
        clock = ledger.clock
        changed = False
        if clock.get("key") != key:
            clock = ledger.clock = {"key": key, "since": iso(self.now), "reminded": False, "missed": False}
            changed = True
        if settings.deadline is not None and not clock.get("due"):
            clock["due"] = iso(parse_time(clock["since"]) + settings.deadline)
            clock["allow"] = int(settings.deadline.total_seconds())
            changed = True
        if clock.get("zone") != self.config.timezone:
            clock["zone"] = self.config.timezone
            changed = True
        if changed:
            ledger.save()

    def _remind(self, run: GameRun, due: datetime | None, key: str = "") -> None:
        game = run.game
        nation = game.state.status.active
        if not compose.deliverable(game.meta[nation].email):
            self.log(f"{run.game_id}: no address (or no single address) registered for {nation}; no reminder sent")
            return
        message = compose.reminder(self.config, game, nation, due, self.now, key=key, clock=self._clock(run))
        spool(run.spool, f"{len(game.history):06d}-remind-{nation}{'-' + key if key else ''}", message)
        run.ledger.clock["reminded"] = True
        run.ledger.save()
        self.summary.queued += 1
        self.log(f"{run.game_id}: reminded {nation} ({game.meta[nation].email}) of turn {game.state.status.turn}")

    def remind(self, settings: GameMail) -> Summary:
        """Remind the player whose turn it is, now (``antike-ref remind``)."""
        with ExitStack() as stack:
            run = self._open(stack, settings)
            if run is None:
                return self.summary
            self.report(run)
            self.keep_time(run)
            if run.game.state.status.winner is not None:
                self.log(f"{run.game_id}: the game is over; nobody to remind")
            else:
                due = None
                if settings.deadline is not None and run.ledger.clock.get("due"):
                    due = parse_time(run.ledger.clock["due"])
                self._remind(run, due, key=iso(self.now).replace(":", ""))
            self.deliver(run)
        return self.summary

    # -- 4. deliver -------------------------------------------------------------------------

    def deliver(self, run: GameRun) -> None:
        """Empty the game's queue. A mail the server refuses waits for its next try (the run
        ends with exit code 7, the rest of the queue goes out); one refused too often is
        given up and the GM is told (at once, if the server takes that notice)."""
        if self._empty(run):
            self._empty(run)

    def _empty(self, run: GameRun) -> bool:
        """Deliver the queue once; true if a mail was given up (and its notice queued)."""
        try:
            result = self.transport.deliver(run.spool, self.now)
        except PbemError as exc:
            self._fail(run.game_id, exc)
            return False
        finally:
            self.transport.close()
        self.summary.sent += len(result.sent)
        if result.sent:
            self.log(f"{run.game_id}: {len(result.sent)} mail(s) delivered to {self.transport.describe()}")
        tries = len(BACK_OFF) + 1
        for name, answer, count in result.refused:
            self._fail(run.game_id, MailServerError(f"the server refused {name} ({answer}); try {count} of {tries}, "
                                                    "it is tried again later; the other mails went out"))
        for name, answer, count in result.given_up:
            self._fail(run.game_id, MailServerError(
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

