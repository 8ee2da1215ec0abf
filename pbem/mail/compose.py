"""The mails of the mail cycle: the turn report, the receipts of order mails (accepted,
refused, applied before, without orders), reminders, the GM's notices, the answers to a
mail not read and to a stranger, the GM's copy of a mail.

They are written with :mod:`pbem.mail.writing` (the shared lines, headers and signature);
the answers to commands and press are :mod:`pbem.mail.answers`, a new player's mails
:mod:`pbem.mail.welcome`.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.message import EmailMessage
from email.utils import formataddr
from typing import Any

from pbem.errors import clip
from pbem.mail.addresses import Recipient, nations_of, one_line
from pbem.mail.config import MailConfig
from pbem.mail.writing import (MIME, ClockNews, attached_as, command_list, entry_lines, footer, guide_lines,
                               local_time, message, para, since_last_turn, site_lines, status_lines, wrap,
                               your_options)
from pbem.service.clock import told
from pbem.service.game import Game
from pbem.service.turns import TURN_KINDS


def turn_report(config: MailConfig, game: Game, to: Recipient, now: datetime,
                attachments: dict[str, bytes], names: dict[str, str],
                news: list[dict[str, Any]] | None = None, site: str | None = None,
                clock: ClockNews | None = None, password: str | None = None) -> EmailMessage:
    """The report one player gets after the game moved on: what happened since their last
    turn, whose turn it is, and for that player what they can do; the board attached
    (``attachments`` by file key, ``names`` their file names). In an edition with secrets
    the events are told as the player's nations may see them, and the attachments are to
    be that player's own private report (:meth:`pbem.mail.reporter.Reporter.reports`).

    The GM (a recipient without nations) gets a digest: only ``news``, the entries this
    mail reports for the first time, not the whole round again. ``site``: the game's web
    page, linked."""
    gm = not to.nations
    if gm:
        heading, entries = "New since the last report:", news if news is not None else game.history[-1:]
    else:
        heading, entries = since_last_turn(game, to.nations, news)
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
        body += para(f"Welcome! Your password ({password}) comes in this first mail only: keep it, and put it "
                      "in every order mail as a line 'password ...'. Whoever knows it can give orders for your "
                      "nation.") + guide_lines(config, "How to play by mail") + command_list() + [""]
    if entries or gm:
        body += [heading, ""]
    for entry in entries:
        body += entry_lines(game, entry, to.nations, config.timezone) + [""]
    body += status_lines(game, clock, now)
    if st.winner is None and st.active in to.nations:
        body += your_options(config, game, st.active)
    web = site_lines(game, site)
    if web:
        body += [""] + web
    if attachments:
        body += ["", "Attached: " + ", ".join(names[f] for f in attachments) + "."]
        copies = [names[f] for f in attachments if f.endswith(".json")]
        if copies:
            body += wrap(f"{' and '.join(copies)}: your copy of the game as you may see it. Before you "
                          f"send orders, test them on it: antike-ref check {copies[0]} ORDERS (and "
                          f"antike-ref options {copies[0]} lists what you can do).")
    msg = message(config, [formataddr((one_line(to.name or ""), to.address))], subject, body + footer(game), now,
                   f"report|{game.game_id}|{last['hash']}|{to.address.lower()}", game, helped=to.role != "gm")
    for key, data in attachments.items():
        maintype, subtype = MIME[key.rpartition(".")[2]]  # "pdf", or "romans.pdf" for one of several nations
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=names[key], **attached_as(key))
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
        out += wrap(f"line {number}: {clip(str(text), 60)}" if number is not None else clip(str(text), 60), "  - ")
    return out


def receipt_accepted(config: MailConfig, game: Game, incoming, entry: dict[str, Any], echo: str,
                     now: datetime, ignored: list | None = None, clock: ClockNews | None = None) -> EmailMessage:
    """The answer to a mail whose orders were applied: the orders as understood, and the
    lines of prose around them that were not read as orders (``ignored``)."""
    what = f"turn {entry['turn']}" if "turn" in entry else "standing orders"
    subject = f"[{game.game_id}] accepted: {what} for {game.edition.nation_name(entry['nation'])}"
    body = [f"Your orders for {what} ({game.edition.nation_name(entry['nation'])}) were accepted and applied.",
            "", "Your orders as understood:", ""]
    body += ["    " + line for line in echo.splitlines() if not line.lower().startswith("password")]
    body += ignored_lines(ignored or [])
    readers = nations_of(game, incoming.sender) or ((entry["nation"],) if entry.get("nation") in game.seats else ())
    body += ["", "What happened:", ""] + entry_lines(game, entry, readers, config.timezone)[1:] + [""]
    body += status_lines(game, clock, now)
    return message(config, [incoming.sender], subject, body + footer(game, entry), now,
                    f"receipt|{game.game_id}|{incoming.message_id}", game, incoming)


def receipt_rejected(config: MailConfig, game: Game | None, game_id: str, incoming, reasons: list[str],
                     now: datetime, advice: str = "", ignored: list | None = None,
                     clock: ClockNews | None = None) -> EmailMessage:
    """The answer to a mail whose orders were not applied: every reason (orders in the text
    syntax by line, the line quoted), and the lines around the orders not read as orders."""
    subject = f"[{game_id}] NOT accepted: " + (incoming.subject or "your mail")[:60]
    body = ["Your mail was not applied; nothing in the game has changed.", ""]
    body += ["Why:" if len(reasons) == 1 else f"Why ({len(reasons)} problems):", ""]
    for reason in reasons[:REASONS]:
        body += wrap(clip(reason, 400), "  - ")
    if len(reasons) > REASONS:
        body += wrap(f"and {len(reasons) - REASONS} more; correct these first", "  - ")
    body += ignored_lines(ignored or [])
    if advice:
        body += [""] + wrap(advice)
    body += guide_lines(config)
    if game is not None:
        body += [""] + status_lines(game, clock, now) + footer(game)
    return message(config, [incoming.sender], subject, body, now,
                    f"rejected|{game_id}|{incoming.message_id}", game, incoming)


def no_orders(config: MailConfig, game: Game, incoming, nation: str, now: datetime,
              clock: ClockNews | None = None) -> EmailMessage:
    """The answer to a mail that names the game and a nation but orders nothing: nothing
    is changed and no history entry is made; it says what an order mail needs, how the
    game stands and, to the player on turn, what they can do."""
    name = game.edition.nation_name(nation)
    subject = f"[{game.game_id}] no orders found: " + (incoming.subject or "your mail")[:60]
    body = para(f"Your mail names game {game.game_id} and the {name}, but holds no order: nothing was "
                 "changed. A turn needs a 'rondel' line (and what the wedge does); a change of standing "
                 "orders needs a 'standing' line.")
    body += guide_lines(config)
    body += [""] + status_lines(game, clock, now)
    st = game.state.status
    if st.winner is None and st.active == nation:
        body += your_options(config, game, nation)
    return message(config, [incoming.sender], subject, body + footer(game), now,
                    f"no-orders|{game.game_id}|{incoming.message_id}", game, incoming)


def applied_before(config: MailConfig, game: Game, incoming, entry: dict[str, Any], now: datetime,
                   clock: ClockNews | None = None) -> EmailMessage:
    """The answer to a mail whose orders are those of an entry applied already (the same
    orders sent again, or a copy of an earlier mail): nothing changes."""
    what = f"turn {entry['turn']}" if "turn" in entry else "standing orders"
    subject = f"[{game.game_id}] already applied: {what} (entry {entry['seq']})"
    body = para(f"These orders were already applied (entry {entry['seq']}, {what} of the "
                 f"{game.edition.nation_name(entry['nation'])}), from an earlier mail. Nothing was changed.")
    body += [""] + status_lines(game, clock, now)
    return message(config, [incoming.sender], subject, body + footer(game, entry), now,
                    f"again|{game.game_id}|{incoming.message_id}", game, incoming)


AT_THE_DEADLINE = {
    "remind": "you are told so and the game waits for them",
    "wait": "the game waits and the GM decides what becomes of your turn: a default turn, a bot's turn, or waiting "
            "for your orders",
    "default": "the GM's default turn is played for you",
    "bot": "the {bot} bot plays your turn",
}
"""What happens at the deadline, by the game's ``missed`` setting (a reminder says it)."""
AFTER_THE_DEADLINE = {
    "remind": "The game waits for your orders: send them as soon as you can.",
    "wait": "The GM decides what becomes of your turn (a default turn, a bot's turn, or waiting for your orders); "
            "your orders are welcome until then.",
}
"""What a player late under ``missed = "remind"`` or ``"wait"`` is told."""


def reminder(config: MailConfig, game: Game, nation: str, due: datetime | None, now: datetime,
             passed: bool = False, key: str = "", clock: ClockNews | None = None, policy: str | None = None,
             bot: str = "greedy") -> EmailMessage:
    """To the player whose turn it is: a reminder of the deadline, and what happens at it
    (``policy``: the game's ``missed``); or (``passed``) that it has passed, and what
    happens now."""
    meta = game.meta[nation]
    st = game.state.status
    zone = clock.deadline.zone if clock is not None and clock.deadline is not None else config.timezone
    when = told(due, zone) if due else None
    if passed:
        subject = f"[{game.game_id}] deadline passed: turn {st.turn}, {game.edition.nation_name(nation)}"
        body = para(f"The deadline for turn {st.turn} ({when}) has passed. "
                    + AFTER_THE_DEADLINE.get(policy or "remind", AFTER_THE_DEADLINE["remind"]))
    else:
        subject = f"[{game.game_id}] reminder: your turn {st.turn} ({game.edition.nation_name(nation)})"
        left = f", {clock.deadline.left(now)}" if clock is not None and clock.deadline is not None and due else ""
        then = (f" If your orders have not come by then, {AT_THE_DEADLINE[policy].format(bot=bot)}."
                if when and policy in AT_THE_DEADLINE else "")
        body = para(f"It is your turn {st.turn} in game {game.game_id}."
                    + (f" The deadline is {when}{left}.{then}" if when else ""))
    body += your_options(config, game, nation)
    return message(config, [formataddr((one_line(meta.player or ""), meta.email or ""))], subject,
                    body + footer(game), now,
                    f"remind|{game.game_id}|{game.history[-1]['hash']}|{nation}|{passed}|{key}", game)


def played_for(config: MailConfig, game: Game, nation: str, entry: dict[str, Any], now: datetime,
               clock: ClockNews | None = None) -> EmailMessage:
    """To the player whose deadline passed without their orders, when their turn was played
    for them (the history ``entry``: the GM's default turn or a bot's): what was played,
    and how the game goes on."""
    meta = game.meta[nation]
    name = game.edition.nation_name(nation)
    who = "the GM's default turn" if entry.get("kind") == "default-turn" else f"the {entry.get('bot')} bot's turn"
    body = para(f"The deadline for turn {entry['turn']} ({local_time(entry.get('deadline'), config.timezone)}) has "
                f"passed without your orders: {who} was played for you. What it did:")
    body += [""] + entry_lines(game, entry, (nation,), config.timezone)[1:] + [""] + status_lines(game, clock, now)
    return message(config, [formataddr((one_line(meta.player or ""), meta.email or ""))],
                   f"[{game.game_id}] deadline passed: turn {entry['turn']}, {name}, played for you", body
                   + footer(game, entry), now, f"played-for|{game.game_id}|{entry['hash']}|{nation}", game)


def gm_notice(config: MailConfig, game: Game, subject: str, lines: list[str], now: datetime, key: str) -> EmailMessage:
    body: list[str] = []
    for line in lines:
        body += [line] if line.startswith("    ") else wrap(line)  # a command, to copy whole
    return message(config, [config.gm or config.sender], f"[{game.game_id}] {subject}", body + footer(game), now,
                   f"gm|{game.game_id}|{key}", game, helped=False)


def not_read(config: MailConfig, game_id: str, incoming, problem: str, now: datetime) -> EmailMessage:
    """The one-line answer to a player's mail that was not read (too large, too many
    parts, unreadable): nothing of it is quoted."""
    body = para(f"Your mail was not read: {problem}. Nothing in game {game_id} has changed. Send your orders "
                 "again in a plain-text mail (the orders in its body, or one order file attached).")
    return message(config, [incoming.sender], f"[{game_id}] not read: " + (incoming.subject or "your mail")[:60],
                    body, now, f"unread|{game_id}|{incoming.message_id}", None, incoming)


def stranger(config: MailConfig, incoming, now: datetime) -> EmailMessage:
    """The answer to orders from an address no game here knows (only when the configuration
    asks for it): one line, nothing of any game."""
    body = para("This referee takes orders only from the addresses its games' players registered; yours is not "
                 "one of them, so your mail was not read. If you play here and changed your address, ask your GM.")
    return message(config, [incoming.sender], "not read: " + (incoming.subject or "your mail")[:60], body, now,
                   f"stranger|{incoming.message_id}", None, incoming, helped=False)


def other_address(config: MailConfig, game: Game, incoming, now: datetime) -> EmailMessage:
    """The one line to a player who wrote from an address no nation has (their name, or
    their nation's password, says who they are): the address they registered is not
    told, since anyone may write under a player's name."""
    body = para(f"Your mail for game {game.game_id} was not read: write from the address you registered for the "
                "game (or ask your GM to register this one).")
    return message(config, [incoming.sender], f"[{game.game_id}] not read: " + (incoming.subject or "your mail")[:60],
                   body, now, f"other-address|{game.game_id}|{incoming.message_id}", None, incoming, helped=False)


def other_address_notice(config: MailConfig, game: Game, incoming, nation: str, now: datetime,
                         file: str) -> EmailMessage:
    """To the GM: a mail for ``nation`` came from an address no nation has (``file``: the
    game file, for the command that registers the address)."""
    import shlex

    name = game.edition.nation_name(nation)
    who = f"{one_line(incoming.sender_name)} <{incoming.sender}>" if incoming.sender_name else incoming.sender
    lines = [f"A mail for the {name} ({game.meta[nation].player or 'their player'}) came from {who}, an address "
             f"no nation of the game has. It was not read; the sender was told to write from the address they "
             f"registered.", "",
             "If the player moved to this address, register it (the password stays):",
             f"    antike-ref player {shlex.quote(file)} {nation} --player {shlex.quote(who)} --keep-password"]
    return gm_notice(config, game, f"mail for the {name} from another address", lines, now,
                     f"other-address|{incoming.message_id}")


def notice(config: MailConfig, game: Game, to: Recipient, texts: list[str], now: datetime, clock: ClockNews | None,
           key: str) -> EmailMessage:
    """The GM's changes of the clock (a deadline moved, an absence, a pause) as one mail."""
    body = [f"Game {game.game_id}: news of the game.", ""]
    for text in texts:
        body += wrap(text, "  - ")
    body += [""] + status_lines(game, clock, now)
    return message(config, [formataddr((one_line(to.name or ""), to.address))], f"[{game.game_id}] news of the game",
                   body + footer(game), now, f"notice|{game.game_id}|{key}|{to.address.lower()}", game,
                   helped=to.role != "gm")


def copy_to_gm(config: MailConfig, mail: EmailMessage, gm: Recipient) -> EmailMessage:
    """The GM's copy of a mail to a player (``gm_copies = "refusals"``): the same text, to
    the GM, saying whom it went to."""
    copy = EmailMessage()
    for name in ("From", "Date", "Auto-Submitted", "X-Antike-Ref-Game", "X-Antike-Ref-Head"):
        if mail[name] is not None:
            copy[name] = mail[name]
    copy["To"] = formataddr((one_line(gm.name or ""), gm.address))
    copy["Subject"] = one_line(f"[copy] {mail['Subject']} (to {mail['To']})", 200)
    digest = hashlib.sha256(f"gm-copy|{mail['Message-ID']}".encode()).hexdigest()[:20]
    copy["Message-ID"] = f"<antike-ref.{digest}@{config.message_domain()}>"
    text = mail.get_body(("plain",))
    copy.set_content(f"A copy for the GM of the mail sent to {mail['To']}:\n\n"
                     + (text.get_content() if text is not None else ""), cte="quoted-printable")
    return copy
