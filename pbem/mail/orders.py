"""The order desk: a mail of orders for a game, applied through the game service or
answered with why not (:meth:`OrderDesk.take`).

The orders are read once, in the service's transaction that applies them, on the game as
loaded once; the mail's own checks run in that transaction too (:data:`Screen
<pbem.service.service.Screen>`): the sender must be the nation's registered address, the
mail must order something, and not the orders of an earlier mail again. A refusal tells
every problem by line (orders in the text syntax) or by JSON path (an order file).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any

from pbem.errors import GameLocked, InputError, Refused, clip
from pbem.mail import commands as cmds
from pbem.mail import compose
from pbem.mail.addresses import gm_recipient, nations_of
from pbem.mail.config import MailConfig
from pbem.mail.inbox import Incoming
from pbem.mail.ledger import Ledger
from pbem.mail.replies import Replies
from pbem.mail.router import Found
from pbem.mail.runs import GameRun, Journal
from pbem.mail.transport import spool
from pbem.mail.writing import local_time
from pbem.service.game import Game
from pbem.service.history import canonical
from pbem.service.service import AlreadyApplied, Input
from pbem.service.turns import mail_ids, public_orders

HEADER_KEYS = frozenset({"game", "nation", "turn", "password"})
"""The keys of an order file that say who sends it and for what, but order nothing."""


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


def not_read(reading: Any) -> list[list]:
    """The lines of a text of orders that were not read as orders (a greeting, a thanks),
    a few of them, clipped: what the receipt lists back. Commands after the orders are run
    (:meth:`pbem.mail.desk.Desk.after_orders`), so they are not among them."""
    if reading is None:
        return []
    run = set(cmds.command_lines(reading.ignored))
    prose = [(number, text) for number, text in reading.ignored if (number, text) not in run]
    shown = [[number, clip(text.strip(), 80)] for number, text in prose[:compose.QUOTED]]
    more = len(prose) - len(shown)
    return shown + ([[None, f"and {more} more line{'s' if more > 1 else ''}"]] if more else [])


def orders_digest(orders: dict) -> str:
    """What an order mail orders (canonical, without the password), as a short digest the
    ledger keeps: the same orders sent again in another mail are known by it."""
    return hashlib.sha256(canonical(public_orders(orders)).encode("utf-8")).hexdigest()[:24]


def applied_copy(game: Game, ledger: Ledger, orders: dict, digest: str) -> dict | None:
    """The history entry that applied these very orders already (from an earlier mail
    whose digest the ledger kept, or, for a ledger of an older release, the same orders
    as stored), or ``None``."""
    hashes = {r.get("hash") for r in ledger.messages.values()
              if r.get("outcome") == "applied" and r.get("orders") == digest}
    echo = public_orders(orders)
    for entry in reversed(game.history):
        if entry.get("hash") in hashes:  # by hash: an entry taken back by undo is not it
            return entry
        if (entry.get("kind") == "turn" and entry.get("nation") == orders["nation"] and "rondel" in orders
                and entry.get("turn") == orders.get("turn") and covers(entry.get("orders"), echo)):
            return entry
    return None


def covers(stored: Any, sent: Any) -> bool:
    """Whether ``stored`` (an entry's orders as echoed) is ``sent`` with the choices the
    referee made spelt out (payments a file left to the defaults): every value ``sent``
    gives is in ``stored``, lists entry by entry."""
    if isinstance(sent, dict):
        return isinstance(stored, dict) and all(k in stored and covers(stored[k], v) for k, v in sent.items())
    if isinstance(sent, list):
        return isinstance(stored, list) and len(stored) == len(sent) and all(map(covers, stored, sent))
    return stored == sent


def played_for_them(game: Game, orders: dict, zone: str | None = None) -> str | None:
    """Why a turn's orders came too late: their turn was played by the GM's default turn
    or a bot (for a missed deadline, told in the game's time zone ``zone``) before they
    arrived."""
    if "rondel" not in orders:
        return None
    for entry in reversed(game.history):
        if (entry.get("kind") in ("default-turn", "bot-turn") and entry.get("nation") == orders["nation"]
                and entry.get("turn") == orders.get("turn")):
            who = "the GM's default turn" if entry["kind"] == "default-turn" else f"the {entry.get('bot')} bot"
            missed = (f" after the deadline {local_time(entry['deadline'], zone)} had passed" if entry.get("deadline")
                      else "")
            return (f"turn {entry['turn']} of the {game.edition.nation_name(entry['nation'])} was played already "
                    f"by {who}{missed} (history entry {entry['seq']}); these orders came too late for it")
    return None


def header_of(given: Input | None) -> tuple[str | None, str | None]:
    """The nation and the password an order mail names (``None`` where it names none), as
    written: what tells a player writing from another address (:mod:`pbem.mail.strays`)."""
    if given is None:
        return None, None
    if isinstance(given.data, dict):
        nation, password = given.data.get("nation"), given.data.get("password")
        return (nation.lower() if isinstance(nation, str) else None), (password if isinstance(password, str) else None)
    from pbem.service.language.mailtext import MAX_TEXT_CHARS, strip_mail
    from pbem.service.language.tokens import line_value

    found: dict[str, str] = {}
    lines = given.lines if given.lines is not None else strip_mail(str(given.data)[:MAX_TEXT_CHARS])
    for _, line in lines:
        for key in ("nation", "password"):
            value = line_value(line, key) if key not in found else None
            if value:
                found[key] = value
    return (found["nation"].lower() if "nation" in found else None), found.get("password")


class Answered(Exception):
    """The orders of a mail were screened out in the transaction (nothing changed); the
    answer is spooled once the game's lock is released."""

    def __init__(self, answer: Callable[[], None]):
        super().__init__("screened out")
        self.answer = answer


class OrderDesk:
    """What the cycle does with a mail of orders for a game."""

    def __init__(self, config: MailConfig, replies: Replies, journal: Journal):
        self.config = config
        self.replies = replies
        self.journal = journal
        self.now = replies.now

    def take(self, run: GameRun, incoming: Incoming, found: Found, wrong_game: bool) -> list[tuple[int, str]]:
        """Apply the orders ``found`` in ``incoming`` to the game of ``run``, or answer why
        not (``wrong_game``: the mail names another game). Returns the command lines the
        mail holds after its orders (for the desk to run), once its orders were read."""
        game = run.game
        mid = incoming.message_id
        if mid in mail_ids(game):
            run.ledger.note(mid, "applied", sender=incoming.sender)
            run.save()
            return []
        if not run.registered(incoming.sender):
            self.replies.stranger(run, incoming, *header_of(found.given))
            return []
        if found.problem:
            self.reject(run, incoming, [found.problem])
            return []
        if wrong_game:
            self.reject(run, incoming, [
                f"the mail names game {found.game_id!r}; this referee runs game {game.game_id!r} for you "
                f"({', '.join(game.edition.nation_name(n) for n in nations_of(game, incoming.sender))})"])
            return []
        assert found.given is not None
        reading = self._apply(run, incoming, found.given)
        return cmds.command_lines(reading.ignored) if reading is not None else []

    def _apply(self, run: GameRun, incoming: Incoming, given: Input) -> Any:
        """The orders applied or refused; the reading of a text of orders, if they were read."""
        mid = incoming.message_id
        read: dict[str, Any] = {}

        def screen(game: Game, orders: dict, reading: Any) -> None:
            """The mail's checks, in the transaction that applies the orders (read once, on
            the game loaded once): the sender must be the nation's registered address, the
            mail must hold orders, and not the orders of an earlier mail again."""
            read.update(game=game, orders=orders, reading=reading, digest=orders_digest(orders))
            nation = orders["nation"]
            if nation in game.meta and nation not in nations_of(game, incoming.sender):
                raise Answered(lambda: self.reject(run, incoming, [
                    f"orders for the {game.edition.nation_name(nation)} are accepted only from the address "
                    f"registered for them; {incoming.sender or 'this mail'} is not it"],
                    advice="If you have a new address, ask the GM to register it."))
            if not set(orders) - HEADER_KEYS:
                raise Answered(lambda: self.no_orders(run, incoming, nation))
            copy = applied_copy(game, run.ledger, orders, read["digest"])
            if copy is not None:
                raise Answered(lambda: self.applied_before(run, incoming, copy))

        try:
            outcome = run.service.process(given, mail_id=mid, screen=screen)
        except Answered as answered:
            return answered.answer()
        except AlreadyApplied:
            run.ledger.note(mid, "applied", sender=incoming.sender)
            run.save()
            return None
        except GameLocked as exc:
            run.stopped = str(exc)
            self.journal.log(f"{run.game_id}: {exc}; its mail is read again on the next run")
            return None
        except Refused as exc:
            late = played_for_them(read["game"], read["orders"], self.config.timezone) if read else None
            self.reject(run, incoming, ([late] if late else []) + told(given, exc),
                        ignored=not_read(read.get("reading")))
            return read.get("reading")
        except InputError as exc:
            return self.reject(run, incoming, told(given, exc))
        run.game = outcome.after
        entry = outcome.added[0]
        nation = read["orders"]["nation"]
        run.ledger.note(mid, "applied", sender=incoming.sender, seq=entry["seq"], hash=entry["hash"],
                        subject=incoming.subject[:200], form=given.form, orders=read["digest"],
                        ignored=not_read(outcome.reading))
        run.save()
        self.journal.summary.applied += 1
        what = f"turn {entry['turn']}" if "turn" in entry else "standing orders"
        self.journal.log(f"{run.game_id}: applied {what} for {nation} from {incoming.sender} ({mid})")
        return outcome.reading

    # -- the answers that apply nothing -------------------------------------------------------

    def no_orders(self, run: GameRun, incoming: Incoming, nation: str) -> None:
        """A mail that names the game and the nation but holds no order: no history entry;
        answered with what it lacks and how the game stands."""
        message = compose.no_orders(self.config, run.game, incoming, nation, self.now, clock=run.news(self.now))
        self.replies.answer(run, incoming, "no-orders", message, "answered", why="no orders")
        self.journal.log(f"{run.game_id}: mail {incoming.message_id} from {incoming.sender} holds no orders; answered")

    def applied_before(self, run: GameRun, incoming: Incoming, entry: dict) -> None:
        """The same orders as an entry applied already (a copy of a mail sent again)."""
        message = compose.applied_before(self.config, run.game, incoming, entry, self.now, clock=run.news(self.now))
        self.replies.answer(run, incoming, "again", message, "answered", why=f"already applied (entry {entry['seq']})")
        self.journal.log(f"{run.game_id}: mail {incoming.message_id} from {incoming.sender} repeats entry "
                         f"{entry['seq']}")

    def reject(self, run: GameRun, incoming: Incoming, reasons: list[str], advice: str = "",
               ignored: list | None = None) -> None:
        """The orders are refused: every reason, to the sender (and a copy to the GM, if the
        game says so)."""
        if not advice:
            advice = "Correct the orders and send them again."
        message = compose.receipt_rejected(self.config, run.game, run.game_id, incoming, reasons, self.now, advice,
                                           ignored=ignored, clock=run.news(self.now))
        gm = gm_recipient(self.config)
        if run.settings.gm_copies == "refusals" and gm is not None and gm.address != incoming.sender:
            copy = compose.copy_to_gm(self.config, message, gm)
            digest = hashlib.sha256(incoming.message_id.encode()).hexdigest()[:12]
            spool(run.spool, f"{len(run.game.history):06d}-rejected-{digest}-gm", copy)
            self.journal.summary.queued += 1
        self.replies.answer(run, incoming, "rejected", message, "rejected",
                            reasons=[clip(r, 300) for r in reasons[:compose.REASONS]])
        self.journal.summary.rejected += 1
        self.journal.log(f"{run.game_id}: rejected mail {incoming.message_id} from {incoming.sender}: {reasons[0]}")
