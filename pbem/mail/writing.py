"""The writing every mail of the referee shares: lines of a fixed width, a mail with its
headers, a history entry as lines, whose turn it is and what the clock says, what a player
can do, the signature with the game's witness hash.

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

from pbem.mail.addresses import deliverable, nations_of, one_line
from pbem.mail.config import MailConfig
from pbem.service.clock import Deadline, TurnClock, local_day, parse_time, told
from pbem.service.game import Game
from pbem.service.turns import TURN_KINDS

WIDTH = 76
MIME = {"pdf": ("application", "pdf"), "png": ("image", "png"), "svg": ("image", "svg+xml"),
        "txt": ("text", "plain"), "md": ("text", "markdown"), "bbcode": ("text", "plain"),
        "json": ("application", "json")}


def attached_as(key: str) -> dict[str, Any]:
    """How a mail carries the attachment ``key``: a player's copy of the game (packed, in
    short lines of ASCII: :func:`pbem.service.copies.packed_copy`) as it is, every other
    file in base64."""
    return {"cte": "7bit"} if key.endswith(".json") else {}


def wrap(text: str, indent: str = "") -> list[str]:
    """``text`` in lines of :data:`WIDTH`; a bullet (``indent`` such as ``"  - "``) is
    written once, its wrapped lines are indented under the text; plain text wraps with two
    spaces more."""
    follow = " " * len(indent) if indent.strip() else indent + "  "
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=follow,
                         break_long_words=False, break_on_hyphens=False) or [indent.rstrip()]


def message_id(ident: str, domain: str) -> str:
    """The Message-ID of the referee's mail made for ``ident`` (the same mail, the same id:
    a reply is known by it)."""
    return f"<antike-ref.{hashlib.sha256(ident.encode()).hexdigest()[:20]}@{domain}>"


def help_line(config: MailConfig) -> str:
    """The line every mail to a player (or an observer) ends with: how to learn what they
    can ask the referee, and where the GM's guide is (``[mail] guide_url``), if set."""
    line = "Mail the referee HELP for every command you can send."
    return line + (f" The guide: {config.guide_url}" if config.guide_url else "")


def message(config: MailConfig, to: list[str], subject: str, body: list[str], now: datetime,
             ident: str, game: Game | None = None, answering: Any = None, helped: bool = True,
             verbatim: bool = False) -> EmailMessage:
    """A text mail; ``answering`` is the incoming mail it answers (threaded under it);
    ``helped``: a mail to a player (or an observer), which ends with :func:`help_line`;
    ``verbatim``: a body of ASCII goes as it is (7bit), not quoted-printable, so that the
    mail saved as it came still holds its text word for word (the blocks of signed
    entries the relay passes on: a quoted-printable ``=`` would break them)."""
    msg = EmailMessage()
    msg["From"] = one_line(config.sender, 200)
    msg["To"] = ", ".join(one_line(t, 200) for t in named(game, to))
    msg["Subject"] = one_line(subject, 200)
    msg["Date"] = format_datetime(now)
    msg["Message-ID"] = message_id(ident, config.message_domain())
    msg["Auto-Submitted"] = "auto-replied" if answering is not None else "auto-generated"
    if game is not None:
        msg["X-Antike-Ref-Game"] = game.game_id
        msg["X-Antike-Ref-Head"] = game.history[-1]["hash"]
    if answering is not None and re.fullmatch(r"<[^<>\s]{1,500}>", answering.message_id):
        msg["In-Reply-To"] = answering.message_id
        msg["References"] = answering.message_id
    lines = [*body, help_line(config)] if helped else body
    plain = verbatim and all(line.isascii() and len(line) <= 900 for line in lines)
    msg.set_content("\n".join(lines) + "\n", cte="7bit" if plain else "quoted-printable")
    return msg


def named(game: Game | None, to: list[str]) -> list[str]:
    """The addresses ``to``, each bare one a player of ``game`` registered with the player's
    name (``Ann <ann@example.org>``), as every mail of the game addresses them; others as
    they are (a stranger's address is never given a name from the game)."""
    if game is None:
        return to
    out = []
    for address in to:
        nations = nations_of(game, address) if deliverable(address) else ()
        player = game.meta[nations[0]].player if nations else None
        out.append(formataddr((one_line(player), address)) if player else address)
    return out


def names(game: Game):
    edition, board = game.edition, game.board

    def place(pid: str) -> str:
        return board.province(pid).name if board.is_province(pid) else pid

    return edition.nation_name, place


def entry_lines(game: Game, entry: dict[str, Any], readers: tuple[str, ...] = (),
                zone: str | None = None) -> list[str]:
    """A history entry as a heading and one line per event, as a player of ``readers``
    (nations; none: the public, the GM's copy) may read it: in an edition with secrets
    (an edition with cards) a card another nation drew is not named
    (:func:`pbem.report.visibility.masked_entry`). A deadline a turn was played for is told in
    the game's time zone ``zone``, as every mail tells times."""
    from pbem.report.model import card_namer
    from pbem.report.text import event_lines
    from pbem.report.visibility import has_secrets, masked_entry

    if has_secrets(game.edition):
        entry = masked_entry(game.edition, entry, readers or (None,))
    name, place = names(game)
    kind = entry.get("kind")
    if kind in TURN_KINDS:
        who = name(entry["nation"])
        by = {"default-turn": " (the GM's default turn)",
              "bot-turn": f" (played by the {entry.get('bot')} bot)"}.get(kind, "")
        if entry.get("deadline"):
            by += f", deadline {local_time(entry['deadline'], zone)} missed"
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
    lines = wrap(head)
    knowhows = game.edition.knowhows
    for line in event_lines(entry.get("events", []), name, place, knowhow=lambda k: knowhows.get(k, k),
                            card=card_namer(game), automatic=game.edition.forces.automatic_battles,
                            edition=game.edition):
        lines += wrap(line, "  - ")
    return lines


def local_time(text: Any, zone: str | None) -> str:
    """A time a history entry or a ledger records (ISO 8601, UTC) as players read it, in the
    game's time zone (``Wed 25 Nov 2026, 11:00 CET``); as recorded if it is no time."""
    try:
        return told(parse_time(str(text)), zone)
    except (ValueError, OverflowError):
        return str(text)


def since_last_turn(game: Game, nations: tuple[str, ...], news: list[dict[str, Any]] | None = None,
                    limit: int = 40) -> tuple[str, list[dict[str, Any]]]:
    """What a report tells the player of ``nations``: a heading and the entries (at most
    ``limit``, the latest). What happened since the last turn they played themselves
    (every entry if there is none); a player who has just played (nothing came after
    their own turn) is told that turn. A player whose latest turn was played for them (a
    default or a bot turn) is told only what is new since their last report (``news``: the
    entries this round of reports tells for the first time), not every entry since the
    turn they last played themselves, which may lie many rounds back."""
    from pbem.service.history import private_identity

    history = game.history
    turns = [i for i, e in enumerate(history) if e.get("kind") in TURN_KINDS and e.get("nation") in nations]
    if turns and history[turns[-1]].get("kind") != "turn" and news:
        return "New since your last report:", [e for e in news if not private_identity(e)][-limit:]
    if turns and history[turns[-1]].get("kind") == "turn" and turns[-1] == len(history) - 1:
        return "Your turn, as played:", [history[-1]]
    own = [i for i in turns if history[i].get("kind") == "turn"]
    entries = [e for e in history[own[-1] + 1 if own else 0:] if not private_identity(e)][-limit:]
    return ("What happened since your last turn:" if len(entries) < len(history) else "What happened so far:"), entries


@dataclass(frozen=True)
class ClockNews:
    """What every mail says of the game's clock (:mod:`pbem.service.clock`): the current
    turn's deadline, the nations away (never why) and a pause."""

    deadline: Deadline | None = None
    away: tuple[tuple[str, date], ...] = ()
    paused: str | None = None


def clock_news(game: Game, clock: TurnClock, now: datetime) -> ClockNews:
    """What the mails say of ``clock`` at ``now``: the current turn's deadline, the
    nations away today (in the game's time zone), a pause."""
    st = game.state.status
    away = clock.away(local_day(now, clock.zone))
    return ClockNews(clock.deadline(st.turn, st.active, st.winner), tuple(sorted(away.items())),
                     clock.paused.reason if clock.paused is not None else None)


def clock_lines(game: Game, clock: ClockNews | None, now: datetime) -> list[str]:
    """The deadline with the time left at ``now``, the nations away, a pause."""
    if clock is None or game.state.status.winner is not None:
        return []
    out = []
    if clock.deadline is not None:
        out += wrap(clock.deadline.line(now))
    elif clock.paused is not None:
        out += wrap("The GM has paused the game" + (f": {clock.paused}." if clock.paused else "."))
    for nation, until in clock.away:
        out += wrap(f"The {game.edition.nation_name(nation)} are away until {until:%a %d %b %Y}.")
    return out


def status_lines(game: Game, clock: ClockNews | None = None, now: datetime | None = None) -> list[str]:
    """Whose turn it is (or who won); with ``now``, the deadline and time left, who is away,
    a pause; what the edition keeps beyond the shared state."""
    from pbem.report.model import edition_status

    st = game.state.status
    name = game.edition.nation_name
    # what the edition keeps beyond the shared state (a personage card held, say); none in the first edition
    extra = [line for s in edition_status(game) for line in wrap(f"{s['label']}: {s['value']}.")]
    if st.winner is not None:
        return [f"The game is over: {name(st.winner)} won.", *extra]
    player = game.meta[st.active].player
    who = f"{name(st.active)}" + (f" ({player})" if player else "")
    return [f"Next: turn {st.turn}, {who}.", *(clock_lines(game, clock, now) if now else []), *extra]


def orders_template(game: Game, nation: str) -> list[str]:
    from pbem.play.options import options
    from pbem.service.language.writer import format_text_orders

    template = options(game)["template"]
    template = {**template, "nation": nation}
    return format_text_orders(template, game.edition, game.board).splitlines()


def para(text: str) -> list[str]:
    """A paragraph of prose in lines of :data:`WIDTH`, none of them indented."""
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False) or [""]


def guide_lines(config: MailConfig, what: str = "How to write orders") -> list[str]:
    """A line pointing to the GM's guide for players (``[mail] guide_url``), if there is one."""
    return ["", *para(f"{what}: {config.guide_url}")] if config.guide_url else []


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


def command_list() -> list[str]:
    """Every command a player may mail the referee, one a line with what it does (the
    opening mail and a new player's carry it)."""
    from pbem.mail.commands import WORDS

    lines = [""] + para("Besides orders, you can mail the referee these commands, one a line (a command that "
                        "changes something, or press, needs your password line):") + [""]
    for word, what in WORDS.items():
        lines += wrap(f"{word.upper()}: {what}", "  - ")
    return lines


def footer(game: Game, entry: dict[str, Any] | None = None) -> list[str]:
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
    return para(f"The game on the web: {base}/ (this report: {base}/{page_name(len(game.history) - 1)})")


