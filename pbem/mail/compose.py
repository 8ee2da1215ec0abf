"""The mails the referee sends: receipts, turn reports, reminders, notices.

Every mail is built from the game and the time handed in, so the same inputs give the
same bytes. Message-IDs are derived from the game, the history entry and the recipient:
a mail that is sent again after a crash has the same Message-ID as the first, and mail
programs show it once. Every mail says ``Auto-Submitted`` (RFC 3834) so that players'
auto-responders do not answer it, and carries the history's head hash in full (``game
hash after turn 17: ...``), the reader's witness of the game so far
(:mod:`pbem.service.witness`).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass
from datetime import date, datetime
from email.message import EmailMessage
from email.utils import format_datetime, formataddr
from typing import Any

from pbem.errors import clip
from pbem.mail.config import MailConfig
from pbem.service.clock import Deadline, told
from pbem.service.game import Game
from pbem.service.turns import TURN_KINDS

WIDTH = 76
MIME = {"pdf": ("application", "pdf"), "png": ("image", "png"), "svg": ("image", "svg+xml"),
        "txt": ("text", "plain"), "md": ("text", "markdown"), "bbcode": ("text", "plain"),
        "json": ("application", "json")}


@dataclass
class Recipient:
    """One address and the nations it plays in a game."""

    address: str
    name: str | None
    nations: tuple[str, ...]
    role: str = "player"
    """``player`` (of ``nations``), ``gm`` or ``observer`` (public reports and press only)."""


_CONTROL = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")
_ADDRESS = re.compile(r"[^\s<>,;:\"()\[\]\\@]+@[^\s<>,;:\"()\[\]\\@]+")


def one_line(value: str, limit: int = 120) -> str:
    """``value`` fit for a header: line breaks and other control characters (an encoded
    line break in a Subject, a name with a newline) become a space, and it is cut at
    ``limit`` characters. A header can never be split in two, and never fails to be built."""
    return _CONTROL.sub(" ", value).strip()[:limit]


def deliverable(address: str | None) -> bool:
    """Whether ``address`` is one mailbox (``name@domain``) that a mail may be sent to: no
    second address after a comma, no display name, no line break."""
    return bool(address) and bool(_ADDRESS.fullmatch(address))


def recipients(game: Game) -> list[Recipient]:
    """Every registered address of the game, once, with its nations in seat order (an
    address that is not one mailbox, from a hand-edited file, gets nothing)."""
    found: dict[str, Recipient] = {}
    for n in game.seats:
        meta = game.meta[n]
        if not deliverable(meta.email):
            continue
        key = meta.email.lower()
        if key in found:
            found[key].nations += (n,)
        else:
            found[key] = Recipient(meta.email, meta.player, (n,))
    return list(found.values())


def observers(settings) -> list[Recipient]:
    """The game's observers (``observers`` in the configuration): they get what is public."""
    out = []
    for entry in settings.observers:
        from email.utils import parseaddr

        name, address = parseaddr(entry)
        if deliverable(address.lower()):
            out.append(Recipient(address.lower(), name or None, (), "observer"))
    return out


def gm_recipient(config: MailConfig) -> Recipient | None:
    """The GM (``[mail] gm``, an address or ``Name <address>``), or ``None``."""
    if not config.gm:
        return None
    from email.utils import parseaddr

    name, address = parseaddr(config.gm)
    return Recipient(address.lower(), name or "GM", (), "gm") if deliverable(address.lower()) else None


def nations_of(game: Game, address: str) -> tuple[str, ...]:
    """The nations ``address`` is registered for."""
    address = address.lower()
    return tuple(n for n in game.seats if (game.meta[n].email or "").lower() == address)


def _wrap(text: str, indent: str = "") -> list[str]:
    """``text`` in lines of :data:`WIDTH`; a bullet (``indent`` such as ``"  - "``) is
    written once, its wrapped lines are indented under the text; plain text wraps with two
    spaces more."""
    follow = " " * len(indent) if indent.strip() else indent + "  "
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=follow,
                         break_long_words=False, break_on_hyphens=False) or [indent.rstrip()]


def _message(config: MailConfig, to: list[str], subject: str, body: list[str], now: datetime,
             ident: str, game: Game | None = None, answering: Any = None) -> EmailMessage:
    """A text mail; ``answering`` is the incoming mail it answers (threaded under it)."""
    msg = EmailMessage()
    msg["From"] = one_line(config.sender, 200)
    msg["To"] = ", ".join(one_line(t, 200) for t in to)
    msg["Subject"] = one_line(subject, 200)
    msg["Date"] = format_datetime(now)
    digest = hashlib.sha256(ident.encode()).hexdigest()[:20]
    msg["Message-ID"] = f"<antike-ref.{digest}@{config.message_domain()}>"
    msg["Auto-Submitted"] = "auto-replied" if answering is not None else "auto-generated"
    if game is not None:
        msg["X-Antike-Ref-Game"] = game.game_id
        msg["X-Antike-Ref-Head"] = game.history[-1]["hash"]
    if answering is not None and re.fullmatch(r"<[^<>\s]{1,500}>", answering.message_id):
        msg["In-Reply-To"] = answering.message_id
        msg["References"] = answering.message_id
    msg.set_content("\n".join(body) + "\n", cte="quoted-printable")
    return msg


def _names(game: Game):
    edition, board = game.edition, game.board

    def place(pid: str) -> str:
        return board.province(pid).name if board.is_province(pid) else pid

    return edition.nation_name, place


def entry_lines(game: Game, entry: dict[str, Any], readers: tuple[str, ...] = ()) -> list[str]:
    """A history entry as a heading and one line per event, as a player of ``readers``
    (nations; none: the public, the GM's copy) may read it: in an edition with secrets
    (an edition with cards) a card another nation drew is not named
    (:func:`pbem.report.views.masked_entry`)."""
    from pbem.report.model import card_namer
    from pbem.report.text import event_lines
    from pbem.report.views import has_secrets, masked_entry

    if has_secrets(game.edition):
        entry = masked_entry(game.edition, entry, readers or (None,))
    name, place = _names(game)
    kind = entry.get("kind")
    if kind in TURN_KINDS:
        who = name(entry["nation"])
        by = {"default-turn": " (the GM's default turn)", "bot-turn": f" (played by the {entry.get('bot')} bot)"}.get(kind, "")
        if entry.get("deadline"):
            by += f", deadline {entry['deadline']} missed"
        if entry.get("absent"):
            by += f", while the player is away (until {entry['absent']})"
        head = f"Turn {entry['turn']}: {who}{by}"
    elif kind == "standing":
        head = f"{name(entry['nation'])} change their standing orders"
    elif kind == "gm-edit":
        head = f"GM edit: {entry.get('reason', '')}"
    elif kind == "new":
        head = "The game is set up"
    else:
        head = str(kind)
    lines = _wrap(head)
    knowhows = game.edition.knowhows
    for line in event_lines(entry.get("events", []), name, place, knowhow=lambda k: knowhows.get(k, k),
                            card=card_namer(game), automatic=game.edition.forces.automatic_battles,
                            edition=game.edition):
        lines += _wrap(line, "  - ")
    return lines


def since_last_turn(game: Game, nations: tuple[str, ...], limit: int = 40) -> list[dict[str, Any]]:
    """The history entries since the last turn the player of ``nations`` played themselves
    (a default or bot turn played for them is news to them), all of them if there is none;
    at most ``limit`` (the latest)."""
    last = 0
    for i, entry in enumerate(game.history):
        if entry.get("kind") == "turn" and entry.get("nation") in nations:
            last = i
    return game.history[last + 1 if last else 0:][-limit:]


@dataclass(frozen=True)
class Clock:
    """What every mail says of the game's clock (:mod:`pbem.service.clock`): the current
    turn's deadline, the nations away (never why) and a pause."""

    deadline: Deadline | None = None
    away: tuple[tuple[str, date], ...] = ()
    paused: str | None = None


def clock_lines(game: Game, clock: Clock | None, now: datetime) -> list[str]:
    """The deadline with the time left at ``now``, the nations away, a pause."""
    if clock is None or game.state.status.winner is not None:
        return []
    out = []
    if clock.deadline is not None:
        out += _wrap(clock.deadline.line(now))
    elif clock.paused is not None:
        out += _wrap("The GM has paused the game" + (f": {clock.paused}." if clock.paused else "."))
    for nation, until in clock.away:
        out += _wrap(f"The {game.edition.nation_name(nation)} are away until {until:%a %d %b %Y}.")
    return out


def _status_lines(game: Game, clock: Clock | None = None, now: datetime | None = None) -> list[str]:
    from pbem.report.model import edition_status

    st = game.state.status
    name = game.edition.nation_name
    # what the edition keeps beyond the shared state (a personage card held, say); none in the first edition
    extra = [line for s in edition_status(game) for line in _wrap(f"{s['label']}: {s['value']}.")]
    if st.winner is not None:
        return [f"The game is over: {name(st.winner)} won.", *extra]
    player = game.meta[st.active].player
    who = f"{name(st.active)}" + (f" ({player})" if player else "")
    return [f"Next: turn {st.turn}, {who}.", *(clock_lines(game, clock, now) if now else []), *extra]


def orders_template(game: Game, nation: str) -> list[str]:
    from pbem.play.options import options
    from pbem.service.language.textorders import format_text_orders

    template = options(game)["template"]
    template = {**template, "nation": nation}
    return format_text_orders(template, game.edition, game.board).splitlines()


def _para(text: str) -> list[str]:
    """A paragraph of prose in lines of :data:`WIDTH`, none of them indented."""
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False) or [""]


def guide_lines(config: MailConfig, what: str = "How to write orders") -> list[str]:
    """A line pointing to the GM's guide for players (``[mail] guide_url``), if there is one."""
    return ["", *_para(f"{what}: {config.guide_url}")] if config.guide_url else []


def your_options(config: MailConfig, game: Game, nation: str) -> list[str]:
    """For the player whose turn it is: what they can do (spelt in the text syntax they
    answer in) and a template to answer with."""
    from pbem.play.options import option_lines, options

    lines = ["", f"It is your turn ({game.edition.nation_name(nation)}). What you can do:"]
    for line in option_lines(options(game), game, syntax="text"):
        lines += textwrap.wrap(line, WIDTH, subsequent_indent="      ", break_long_words=False) or [""]
    lines += ["", "Answer with your orders in the body of a mail, one order per line,",
              "or attach an order file (.json or .txt). A start:", ""]
    lines += ["    " + line for line in orders_template(game, nation)]
    return lines + guide_lines(config)


def _footer(game: Game, entry: dict[str, Any] | None = None) -> list[str]:
    """The signature: the game and its head hash in full (``game hash after turn 17:
    ...``), and before it the hash of ``entry`` (the entry a receipt answers for) when
    the game has moved on since."""
    from pbem.service import witness

    head = game.history[-1]
    lines = ["", "-- ", f"antike-ref, game {game.game_id}."]
    if entry is not None and entry.get("hash") != head["hash"]:
        lines.append(witness.line(entry))
    return lines + [witness.line(head), "(keep it: it is your witness of the game so far)."]


def site_lines(game: Game, site: str | None) -> list[str]:
    """Where the game's web page is (``[[game]] site``), and this entry's page on it."""
    if not site:
        return []
    from pbem.report.site import page_name

    base = site.rstrip("/")
    return _para(f"The game on the web: {base}/ (this report: {base}/{page_name(len(game.history) - 1)})")


def turn_report(config: MailConfig, game: Game, to: Recipient, now: datetime,
                attachments: dict[str, bytes], names: dict[str, str],
                news: list[dict[str, Any]] | None = None, site: str | None = None,
                clock: Clock | None = None, password: str | None = None) -> EmailMessage:
    """The report one player gets after the game moved on: what happened since their last
    turn, whose turn it is, and for that player what they can do; the board attached
    (``attachments`` by file key, ``names`` their file names). In an edition with secrets
    the events are told as the player's nations may see them, and the attachments are to
    be that player's own private report (:func:`pbem.mail.cycle.GameRun`'s reports).

    The GM (a recipient without nations) gets a digest: only ``news``, the entries this
    mail reports for the first time, not the whole round again. ``site``: the game's web
    page, linked."""
    gm = not to.nations
    entries = (news if news is not None else game.history[-1:]) if gm else since_last_turn(game, to.nations)
    last = game.history[-1]
    st = game.state.status
    done = [e for e in game.history if e.get("kind") in TURN_KINDS]
    title = f"turn {done[-1]['turn']}" if done else "set-up"
    subject = f"[{game.game_id}] after {title}: " + (
        f"{game.edition.nation_name(st.winner)} won" if st.winner is not None else
        f"{game.edition.nation_name(st.active)} to play turn {st.turn}")
    mine = (", ".join(game.edition.nation_name(n) for n in to.nations)
            or (f"{one_line(to.name)} (observer)" if to.role == "observer" and to.name else
                "an observer" if to.role == "observer" else "the GM"))
    body = [f"Game {game.game_id}, report for {mine}.", ""]
    if password:
        body += _para(f"Welcome! Your password ({password}) comes in this first mail only: keep it, and put it "
                      "in every order mail as a line 'password ...'. Whoever knows it can give orders for your "
                      "nation.") + guide_lines(config, "How to play by mail") + [""]
    if gm:
        body += ["New since the last report:", ""]
    elif entries:
        body += ["What happened since your last turn:" if len(entries) < len(game.history) else "What happened so far:", ""]
    for entry in entries:
        body += entry_lines(game, entry, to.nations) + [""]
    body += _status_lines(game, clock, now)
    if st.winner is None and st.active in to.nations:
        body += your_options(config, game, st.active)
    web = site_lines(game, site)
    if web:
        body += [""] + web
    if attachments:
        body += ["", "Attached: " + ", ".join(names[f] for f in attachments) + "."]
        copies = [names[f] for f in attachments if f.endswith(".json")]
        if copies:
            body += _wrap(f"{' and '.join(copies)}: your copy of the game as you may see it. Before you "
                          f"send orders, test them on it: antike-ref check {copies[0]} ORDERS (and "
                          f"antike-ref options {copies[0]} lists what you can do).")
    msg = _message(config, [formataddr((one_line(to.name or ""), to.address))], subject, body + _footer(game), now,
                   f"report|{game.game_id}|{last['hash']}|{to.address.lower()}", game)
    for key, data in attachments.items():
        maintype, subtype = MIME[key.rpartition(".")[2]]  # "pdf", or "romans.pdf" for one of several nations
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=names[key])
    return msg


QUOTED = 5
"""An answer quotes at most this many lines of the mail it answers."""
REASONS = 12
"""A refusal lists at most this many problems (each clipped): a mail of a million bad
lines gets an answer of a few kilobytes, never one larger than itself."""


def ignored_lines(ignored: list) -> list[str]:
    """The lines of a mail that were not read as orders (a greeting before them, thanks
    after them), a few of them quoted."""
    if not ignored:
        return []
    out = ["", "Not read as orders (before the first or after the last order line):"]
    for number, text in ignored[:QUOTED + 1]:
        out += _wrap(f"line {number}: {clip(str(text), 60)}" if number is not None else clip(str(text), 60), "  - ")
    return out


def receipt_accepted(config: MailConfig, game: Game, incoming, entry: dict[str, Any], echo: str,
                     now: datetime, ignored: list | None = None, clock: Clock | None = None) -> EmailMessage:
    """The answer to a mail whose orders were applied: the orders as understood, and the
    lines of prose around them that were not read as orders (``ignored``)."""
    what = f"turn {entry['turn']}" if "turn" in entry else "standing orders"
    subject = f"[{game.game_id}] accepted: {what} for {game.edition.nation_name(entry['nation'])}"
    body = [f"Your orders for {what} ({game.edition.nation_name(entry['nation'])}) were accepted and applied.",
            "", "Your orders as understood:", ""]
    body += ["    " + line for line in echo.splitlines() if not line.lower().startswith("password")]
    body += ignored_lines(ignored or [])
    readers = nations_of(game, incoming.sender) or ((entry["nation"],) if entry.get("nation") in game.seats else ())
    body += ["", "What happened:", ""] + entry_lines(game, entry, readers)[1:] + [""] + _status_lines(game, clock, now)
    return _message(config, [incoming.sender], subject, body + _footer(game, entry), now,
                    f"receipt|{game.game_id}|{incoming.message_id}", game, incoming)


def receipt_rejected(config: MailConfig, game: Game | None, game_id: str, incoming, reasons: list[str],
                     now: datetime, advice: str = "", ignored: list | None = None,
                     clock: Clock | None = None) -> EmailMessage:
    """The answer to a mail whose orders were not applied: every reason (orders in the text
    syntax by line, the line quoted), and the lines around the orders not read as orders."""
    subject = f"[{game_id}] NOT accepted: " + (incoming.subject or "your mail")[:60]
    body = ["Your mail was not applied; nothing in the game has changed.", ""]
    body += ["Why:" if len(reasons) == 1 else f"Why ({len(reasons)} problems):", ""]
    for reason in reasons[:REASONS]:
        body += _wrap(clip(reason, 400), "  - ")
    if len(reasons) > REASONS:
        body += _wrap(f"and {len(reasons) - REASONS} more; correct these first", "  - ")
    body += ignored_lines(ignored or [])
    if advice:
        body += [""] + _wrap(advice)
    body += guide_lines(config)
    if game is not None:
        body += [""] + _status_lines(game, clock, now) + _footer(game)
    return _message(config, [incoming.sender], subject, body, now,
                    f"rejected|{game_id}|{incoming.message_id}", game, incoming)


def no_orders(config: MailConfig, game: Game, incoming, nation: str, now: datetime,
              clock: Clock | None = None) -> EmailMessage:
    """The answer to a mail that names the game and a nation but orders nothing: nothing
    is changed and no history entry is made; it says what an order mail needs, how the
    game stands and, to the player on turn, what they can do."""
    name = game.edition.nation_name(nation)
    subject = f"[{game.game_id}] no orders found: " + (incoming.subject or "your mail")[:60]
    body = _para(f"Your mail names game {game.game_id} and the {name}, but holds no order: nothing was "
                 "changed. A turn needs a 'rondel' line (and what the wedge does); a change of standing "
                 "orders needs a 'standing' line.")
    body += guide_lines(config)
    body += [""] + _status_lines(game, clock, now)
    st = game.state.status
    if st.winner is None and st.active == nation:
        body += your_options(config, game, nation)
    return _message(config, [incoming.sender], subject, body + _footer(game), now,
                    f"no-orders|{game.game_id}|{incoming.message_id}", game, incoming)


def applied_before(config: MailConfig, game: Game, incoming, entry: dict[str, Any], now: datetime,
                   clock: Clock | None = None) -> EmailMessage:
    """The answer to a mail whose orders are those of an entry applied already (the same
    orders sent again, or a copy of an earlier mail): nothing changes."""
    what = f"turn {entry['turn']}" if "turn" in entry else "standing orders"
    subject = f"[{game.game_id}] already applied: {what} (entry {entry['seq']})"
    body = _para(f"These orders were already applied (entry {entry['seq']}, {what} of the "
                 f"{game.edition.nation_name(entry['nation'])}), from an earlier mail. Nothing was changed.")
    body += [""] + _status_lines(game, clock, now)
    return _message(config, [incoming.sender], subject, body + _footer(game, entry), now,
                    f"again|{game.game_id}|{incoming.message_id}", game, incoming)


def reminder(config: MailConfig, game: Game, nation: str, due: datetime | None, now: datetime,
             passed: bool = False, key: str = "", clock: Clock | None = None) -> EmailMessage:
    """To the player whose turn it is."""
    meta = game.meta[nation]
    st = game.state.status
    zone = clock.deadline.zone if clock is not None and clock.deadline is not None else config.timezone
    when = told(due, zone) if due else None
    if passed:
        subject = f"[{game.game_id}] deadline passed: turn {st.turn}, {game.edition.nation_name(nation)}"
        body = [f"The deadline for turn {st.turn} ({when}) has passed.",
                "Your orders are still welcome until the GM decides otherwise."]
    else:
        subject = f"[{game.game_id}] reminder: your turn {st.turn} ({game.edition.nation_name(nation)})"
        left = f", {clock.deadline.left(now)}" if clock is not None and clock.deadline is not None and due else ""
        body = [f"It is your turn {st.turn} in game {game.game_id}."
                + (f" The deadline is {when}{left}." if when else "")]
    body += your_options(config, game, nation)
    return _message(config, [formataddr((one_line(meta.player or ""), meta.email or ""))], subject,
                    body + _footer(game), now,
                    f"remind|{game.game_id}|{game.history[-1]['hash']}|{nation}|{passed}|{key}", game)


def gm_notice(config: MailConfig, game: Game, subject: str, lines: list[str], now: datetime, key: str) -> EmailMessage:
    body: list[str] = []
    for line in lines:
        body += _wrap(line)
    return _message(config, [config.gm or config.sender], f"[{game.game_id}] {subject}", body + _footer(game), now,
                    f"gm|{game.game_id}|{key}", game)


def new_password(config: MailConfig, game: Game, nation: str, password: str | None, now: datetime) -> EmailMessage:
    """To a new player: the game, the nation and their password (``None``: the same
    player at a new address, who keeps theirs)."""
    meta = game.meta[nation]
    name = game.edition.nation_name(nation)
    if password is None:
        body = [f"Game {game.game_id}: you play the {name} from this address now; your password is the one you "
                "had."]
    else:
        body = [f"Welcome to game {game.game_id}: you now play the {name}.", "",
                f"Your password: {password}", "",
                "Put it in every order mail (a line 'password ...'). Keep it to yourself:",
                "whoever knows it can give orders for your nation."]
    body += guide_lines(config, "How to play by mail")
    body += _status_lines(game)
    if game.state.status.active == nation and game.state.status.winner is None:
        body += your_options(config, game, nation)
    return _message(config, [formataddr((one_line(meta.player or ""), meta.email or ""))],
                    f"[{game.game_id}] you play the {name}", body + _footer(game), now,
                    f"welcome|{game.game_id}|{game.history[-1]['hash']}|{nation}", game)


def not_read(config: MailConfig, game_id: str, incoming, problem: str, now: datetime) -> EmailMessage:
    """The one-line answer to a player's mail that was not read (too large, too many
    parts, unreadable): nothing of it is quoted."""
    body = _para(f"Your mail was not read: {problem}. Nothing in game {game_id} has changed. Send your orders "
                 "again in a plain-text mail (the orders in its body, or one order file attached).")
    return _message(config, [incoming.sender], f"[{game_id}] not read: " + (incoming.subject or "your mail")[:60],
                    body, now, f"unread|{game_id}|{incoming.message_id}", None, incoming)


def stranger(config: MailConfig, incoming, now: datetime) -> EmailMessage:
    """The answer to orders from an address no game here knows (only when the configuration
    asks for it): one line, nothing of any game."""
    body = _para("This referee takes orders only from the addresses its games' players registered; yours is not "
                 "one of them, so your mail was not read. If you play here and changed your address, ask your GM.")
    return _message(config, [incoming.sender], "not read: " + (incoming.subject or "your mail")[:60], body, now,
                    f"stranger|{incoming.message_id}", None, incoming)


def notice(config: MailConfig, game: Game, to: Recipient, texts: list[str], now: datetime, clock: Clock | None,
           key: str) -> EmailMessage:
    """The GM's changes of the clock (a deadline moved, an absence, a pause) as one mail."""
    body = [f"Game {game.game_id}: news of the game.", ""]
    for text in texts:
        body += _wrap(text, "  - ")
    body += [""] + _status_lines(game, clock, now)
    return _message(config, [formataddr((one_line(to.name or ""), to.address))], f"[{game.game_id}] news of the game",
                    body + _footer(game), now, f"notice|{game.game_id}|{key}|{to.address.lower()}", game)


def status_lines(game: Game, clock: Clock | None, now: datetime) -> list[str]:
    """Whose turn it is, the deadline and time left, who is away (``STATUS``)."""
    return _status_lines(game, clock, now)


def holdings(game: Game, nation: str) -> list[str]:
    """What ``nation`` holds, as its own player may see it (``STATUS``)."""
    from pbem.service.view import show_json

    seen = show_json(game, nation)["nations"][nation]
    name, place = _names(game)
    knowhows = game.edition.knowhows
    chips = ", ".join(f"{n} {r}" for r, n in seen["resources"].items())
    lines = [f"The {name(nation)} hold {chips}, {seen['coins']} coin{'s' if seen['coins'] != 1 else ''}; score "
             f"{seen['score']} of {seen['goal']}."]
    lines += _wrap(f"Cities: {', '.join(place(c) for c in seen['cities']) or 'none'}.", "  ")
    lines += _wrap(f"Temples: {', '.join(place(c) for c in seen['temples']) or 'none'}.", "  ")
    lines += _wrap("Know-how: " + (", ".join(knowhows.get(k, k) for k in seen["knowhow"]) or "none") + ".", "  ")
    hand = game.edition.cards.hand(game.state, nation) if game.edition.cards else None
    if hand is not None:
        card = None
        try:
            from pbem.report.model import card_namer

            card = card_namer(game)
        except ImportError:  # pragma: no cover
            card = None
        cards = ", ".join(card(c) if card else c for c in hand) or "none"
        lines += _wrap(f"Your event cards: {cards}.", "  ")
    return lines


def command_answer(config: MailConfig, game: Game, incoming, sections: list[tuple[str, list[str]]], now: datetime,
                   clock: Clock | None, attachments: dict[str, bytes], names: dict[str, str]) -> EmailMessage:
    """The answer to a mail of commands: one part per command, the attachments a ``RESEND``
    asked for."""
    body: list[str] = []
    for title, lines in sections:
        body += [title, ""] + [line for text in lines for line in (
            [text] if text.startswith("    ") else _para(text) if text else [""])] + [""]
    if not any(title == "STATUS" for title, _ in sections):
        body += _status_lines(game, clock, now)
    msg = _message(config, [incoming.sender], f"[{game.game_id}] " + ", ".join(t for t, _ in sections)[:70], body
                   + _footer(game), now, f"commands|{game.game_id}|{incoming.message_id}", game, incoming)
    for key, data in attachments.items():
        maintype, subtype = MIME[key.rpartition(".")[2]]
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=names[key])
    return msg


def confirm_address(config: MailConfig, game: Game, nation: str, new: str, code: str, now: datetime) -> EmailMessage:
    """To the new address of ``ADDRESS``: the code that confirms the move from there."""
    name = game.edition.nation_name(nation)
    body = _para(f"The player of the {name} in game {game.game_id} asked to move to this address. If that is you, "
                 f"answer this mail (from this address) with the line:")
    body += ["", f"    CONFIRM {code}", ""]
    body += _para("If it is not you, do nothing: nothing changes without it, and the code is good for "
                  "7 days only.")
    return _message(config, [new], f"[{game.game_id}] confirm your new address", body, now,
                    f"confirm|{game.game_id}|{code}", None)


def moved_notice(config: MailConfig, game: Game, nation: str, old: str, new: str, now: datetime) -> EmailMessage:
    """To the old address once a move is confirmed."""
    body = _para(f"The player of the {game.edition.nation_name(nation)} in game {game.game_id} plays from {new} "
                 f"now (confirmed from there); this address gets no more mail of the game. The password is "
                 f"unchanged. If you did not ask for this, tell the GM at once.")
    return _message(config, [old], f"[{game.game_id}] you play from a new address", body, now,
                    f"moved|{game.game_id}|{old}|{new}", game)


def press(config: MailConfig, game: Game, sender: str, player: str | None, to: Recipient, nations: list[str],
          everyone: bool, text: str, now: datetime, key: str) -> EmailMessage:
    """A press message as the referee passes it on: signed with the sender's nation (and
    name), never an address."""
    name = game.edition.nation_name
    who = f"the {name(sender)}" + (f" ({one_line(player)})" if player else "")
    whom = "all" if everyone else " and ".join(f"the {name(n)}" for n in nations)
    body = [f"Press in game {game.game_id}, from {who} to {whom}:", ""]
    body += [line.rstrip() for line in text.splitlines()]
    body += ["", "-" * 20]
    body += _para(f"To answer, mail the referee: PRESS TO {sender} (or PRESS TO all), then your message on the "
                  "lines after it. Addresses are never shown.")
    subject = f"[{game.game_id}] press from the {name(sender)}" + (" to all" if everyone else "")
    return _message(config, [formataddr((one_line(to.name or ""), to.address))], subject, body, now,
                    f"press|{game.game_id}|{key}|{to.address}", game)


def forwarded(config: MailConfig, game: Game, incoming, now: datetime) -> EmailMessage:
    """A player's mail that is neither orders nor a command, passed on to the GM."""
    nations = ", ".join(game.edition.nation_name(n) for n in nations_of(game, incoming.sender))
    text = (incoming.text or "")[:20_000]
    body = [f"A mail from {incoming.sender} ({nations}) that holds neither orders nor a command:", "",
            f"Subject: {one_line(incoming.subject)}", ""] + text.splitlines()
    msg = _message(config, [config.gm or config.sender], f"[{game.game_id}] from the {nations}: "
                   + (incoming.subject or "a mail")[:60], body, now,
                   f"forward|{game.game_id}|{incoming.message_id}", game)
    msg["Reply-To"] = incoming.sender
    return msg


def copy_to_gm(config: MailConfig, message: EmailMessage, gm: Recipient) -> EmailMessage:
    """The GM's copy of a mail to a player (``gm_copies = "refusals"``): the same text, to
    the GM, saying whom it went to."""
    copy = EmailMessage()
    for name in ("From", "Date", "Auto-Submitted", "X-Antike-Ref-Game", "X-Antike-Ref-Head"):
        if message[name] is not None:
            copy[name] = message[name]
    copy["To"] = formataddr((one_line(gm.name or ""), gm.address))
    copy["Subject"] = one_line(f"[copy] {message['Subject']} (to {message['To']})", 200)
    digest = hashlib.sha256(f"gm-copy|{message['Message-ID']}".encode()).hexdigest()[:20]
    copy["Message-ID"] = f"<antike-ref.{digest}@{config.message_domain()}>"
    text = message.get_body(("plain",))
    copy.set_content(f"A copy for the GM of the mail sent to {message['To']}:\n\n"
                     + (text.get_content() if text is not None else ""), cte="quoted-printable")
    return copy


def farewell(config: MailConfig, game: Game, nation: str, old: tuple[str | None, str | None], now: datetime,
             moved: bool) -> EmailMessage:
    """To the address a nation was played from, once the GM gave the nation to someone else
    (or the same player moved)."""
    name = game.edition.nation_name(nation)
    text = (f"The GM moved the {name} of game {game.game_id} to another address; this one gets no more mail of the "
            "game." if moved else
            f"The GM gave the {name} of game {game.game_id} to another player; you no longer play them, and this "
            "address gets no more mail of the game. Thank you for playing.")
    return _message(config, [formataddr((one_line(old[0] or ""), old[1] or ""))], f"[{game.game_id}] the {name}",
                    _para(text + " If this is news to you, ask the GM."), now,
                    f"farewell|{game.game_id}|{game.history[-1]['hash']}|{nation}", game)
