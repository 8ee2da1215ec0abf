"""The mails of the referee's desk (:mod:`pbem.mail.desk`): the answer to a mail of
commands, a player's holdings for ``STATUS``, the code that confirms a new address and the
notice to the old one, press passed on, a mail forwarded to the GM."""

from __future__ import annotations

import hashlib
from datetime import datetime
from email.message import EmailMessage
from email.utils import formataddr

from pbem.mail.addresses import Recipient, nations_of, one_line
from pbem.mail.config import MailConfig
from pbem.mail.writing import MIME, ClockNews, attached_as, footer, message, names, para, status_lines, wrap
from pbem.service.game import Game


def holdings(game: Game, nation: str) -> list[str]:
    """What ``nation`` holds, as its own player may see it (``STATUS``)."""
    from pbem.service.view import show_json

    seen = show_json(game, nation)["nations"][nation]
    name, place = names(game)
    knowhows = game.edition.knowhows
    chips = ", ".join(f"{n} {r}" for r, n in seen["resources"].items())
    lines = [f"The {name(nation)} hold {chips}, {seen['coins']} coin{'s' if seen['coins'] != 1 else ''}; score "
             f"{seen['score']} of {seen['goal']}."]
    lines += wrap(f"Cities: {', '.join(place(c) for c in seen['cities']) or 'none'}.", "  ")
    lines += wrap(f"Temples: {', '.join(place(c) for c in seen['temples']) or 'none'}.", "  ")
    lines += wrap("Know-how: " + (", ".join(knowhows.get(k, k) for k in seen["knowhow"]) or "none") + ".", "  ")
    hand = game.edition.cards.hand(game.state, nation) if game.edition.cards else None
    if hand is not None:
        card = None
        try:
            from pbem.report.model import card_namer

            card = card_namer(game)
        except ImportError:  # pragma: no cover
            card = None
        cards = ", ".join(card(c) if card else c for c in hand) or "none"
        lines += wrap(f"Your event cards: {cards}.", "  ")
    return lines


def command_answer(config: MailConfig, game: Game, incoming, sections: list[tuple[str, list[str]]], now: datetime,
                   clock: ClockNews | None, attachments: dict[str, bytes], names: dict[str, str]) -> EmailMessage:
    """The answer to a mail of commands: one part per command, the attachments a ``RESEND``
    asked for."""
    body: list[str] = []
    for title, lines in sections:
        body += [title, ""] + [line for text in lines for line in (
            [text] if text.startswith("    ") else para(text) if text else [""])] + [""]
    if not any(title == "STATUS" for title, _ in sections):
        body += status_lines(game, clock, now)
    msg = message(config, [incoming.sender], f"[{game.game_id}] " + ", ".join(t for t, _ in sections)[:70], body
                   + footer(game), now, f"commands|{game.game_id}|{incoming.message_id}", game, incoming)
    for key, data in attachments.items():
        maintype, subtype = MIME[key.rpartition(".")[2]]
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=names[key], **attached_as(key))
    return msg


def confirm_address(config: MailConfig, game: Game, nation: str, new: str, code: str, now: datetime) -> EmailMessage:
    """To the new address of ``ADDRESS``: the code that confirms the move from there."""
    name = game.edition.nation_name(nation)
    body = para(f"The player of the {name} in game {game.game_id} asked to move to this address. If that is you, "
                 f"answer this mail (from this address) with the line:")
    body += ["", f"    CONFIRM {code}", ""]
    body += para("If it is not you, do nothing: nothing changes without it, and the code is good for "
                  "7 days only.")
    return message(config, [new], f"[{game.game_id}] confirm your new address", body, now,
                    f"confirm|{game.game_id}|{code}", None)


def moved_notice(config: MailConfig, game: Game, nation: str, old: str, new: str, now: datetime) -> EmailMessage:
    """To the old address once a move is confirmed."""
    body = para(f"The player of the {game.edition.nation_name(nation)} in game {game.game_id} plays from {new} "
                 f"now (confirmed from there); this address gets no more mail of the game. The password is "
                 f"unchanged. If you did not ask for this, tell the GM at once.")
    return message(config, [old], f"[{game.game_id}] you play from a new address", body, now,
                   f"moved|{game.game_id}|{old}|{new}", game, helped=False)


def press(config: MailConfig, game: Game, sender: str, who: str, to: Recipient, nations: list[str],
          everyone: bool, text: str, now: datetime, key: str, clock: ClockNews | None = None) -> EmailMessage:
    """A press message as the referee passes it on: signed ``who`` (the sender's nation and
    name, or an observer's name), never an address; under it, whose turn it is and the
    deadline (``clock``). A player may answer it by replying with their password in the
    reply (:meth:`pbem.mail.desk.Desk.other`)."""
    name = game.edition.nation_name
    whom = "all" if everyone else " and ".join(f"the {name(n)}" for n in nations)
    body = [f"Press in game {game.game_id}, from {one_line(who)} to {whom}:", ""]
    body += [line.rstrip() for line in text.splitlines()]
    body += ["", "-" * 20]
    if sender in game.meta:
        body += para(f"To answer the {name(sender)}, reply to this mail: your message, and a line 'password ...' "
                     "with your password (it is never passed on). Or write to the referee: PRESS TO "
                     f"{sender} (or PRESS TO all), your password line, then your message. Addresses are never "
                     "shown.")
    else:
        body += para("To answer, write to the referee: PRESS TO all, a line 'password ...' with your password, "
                     "then your message. Addresses are never shown.")
    short = f"the {name(sender)}" if sender in game.meta else one_line(who, 60)
    subject = f"[{game.game_id}] press from {short}" + (" to all" if everyone else "")
    body += [""] + status_lines(game, clock, now)
    return message(config, [formataddr((one_line(to.name or ""), to.address))], subject, body, now,
                   f"press|{game.game_id}|{key}|{to.address}", game)


def forwarded(config: MailConfig, game: Game, incoming, now: datetime) -> EmailMessage:
    """A player's mail that is neither orders nor a command, passed on to the GM."""
    nations = ", ".join(game.edition.nation_name(n) for n in nations_of(game, incoming.sender))
    text = (incoming.text or "")[:20_000]
    body = [f"A mail from {incoming.sender} ({nations}) that holds neither orders nor a command:", "",
            f"Subject: {one_line(incoming.subject)}", ""] + text.splitlines()
    msg = message(config, [config.gm or config.sender], f"[{game.game_id}] from the {nations}: "
                   + (incoming.subject or "a mail")[:60], body, now,
                   f"forward|{game.game_id}|{incoming.message_id}", game, helped=False)
    msg["Reply-To"] = incoming.sender
    return msg
