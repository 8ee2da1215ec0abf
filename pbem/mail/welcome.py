"""The mails of a new player: their password, from the GM's secrets file (the opening
report of a new game carries each player's, once) or from ``antike-ref player``, and the
notice to the address a nation is no longer played from; composed here and sent at once."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage
from email.utils import formataddr
from pathlib import Path

from pbem.errors import MailServerError
from pbem.mail.addresses import deliverable, one_line
from pbem.mail.config import MailConfig
from pbem.mail.ledger import mail_lock, spool_path
from pbem.mail.transport import Transport, spool
from pbem.mail.writing import (ClockNews, clock_news, command_list, footer, guide_lines, message, para,
                               status_lines, your_options)
from pbem.service.game import Game
from pbem.service.service import GameService


def opening_passwords(game_file: Path) -> dict[str, str]:
    """The plain passwords ``new`` wrote for the GM (``GAME.secrets.json``), if readable."""
    from pbem.service import store

    raw = store.read_in(store.sibling(game_file, ".secrets.json"), 64 * 1024)
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}


def player_mail(config: MailConfig, game_file: Path, nation: str, password: str | None, now: datetime,
                transport: Transport, log: Callable[[str], None],
                old: tuple[str | None, str | None] | None = None) -> None:
    """Send a new player their password (after ``antike-ref player``; ``None``: they keep
    theirs, only the address or name changed), and tell the player at the ``old`` address
    (name, address) that they no longer play the nation from there."""
    from pbem.service.clockfile import read_clock

    with mail_lock(game_file):
        game = GameService(game_file).load()
        folder = spool_path(game_file)
        seq = len(game.history) - 1
        clock = clock_news(game, read_clock(game_file), now)  # the current turn's deadline, as every mail tells it
        spool(folder, f"{seq:06d}-welcome-{nation}", new_password(config, game, nation, password, now, clock))
        if old is not None and deliverable((old[1] or "").lower()) and \
                (old[1] or "").lower() != (game.meta[nation].email or "").lower():
            spool(folder, f"{seq:06d}-farewell-{nation}", farewell(config, game, nation, old, now,
                                                                          moved=password is None))
        try:
            result = transport.deliver(folder, now)
        finally:
            transport.close()
        log(f"{game.game_id}: {len(result.sent)} mail(s) delivered to {transport.describe()}")
        if result.refused or result.given_up:
            raise MailServerError(f"{game.game_id}: the server refused the welcome mail "
                                  f"({(result.refused or result.given_up)[0][1]}); it is tried again by the next mail run")


def new_password(config: MailConfig, game: Game, nation: str, password: str | None, now: datetime,
                 clock: ClockNews | None = None) -> EmailMessage:
    """To a new player: the game, the nation and their password (``None``: the same
    player at a new address, who keeps theirs), and the deadline (``clock``)."""
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
    body += command_list() + [""] if password is not None else [""]
    body += status_lines(game, clock, now)
    if game.state.status.active == nation and game.state.status.winner is None:
        body += your_options(config, game, nation)
    return message(config, [formataddr((one_line(meta.player or ""), meta.email or ""))],
                    f"[{game.game_id}] you play the {name}", body + footer(game), now,
                    f"welcome|{game.game_id}|{game.history[-1]['hash']}|{nation}", game)


def farewell(config: MailConfig, game: Game, nation: str, old: tuple[str | None, str | None], now: datetime,
             moved: bool) -> EmailMessage:
    """To the address a nation was played from, once the GM gave the nation to someone else
    (or the same player moved)."""
    name = game.edition.nation_name(nation)
    text = (f"The GM moved the {name} of game {game.game_id} to another address; this one gets no more mail of the "
            "game." if moved else
            f"The GM gave the {name} of game {game.game_id} to another player; you no longer play them, and this "
            "address gets no more mail of the game. Thank you for playing.")
    return message(config, [formataddr((one_line(old[0] or ""), old[1] or ""))], f"[{game.game_id}] the {name}",
                    para(text + " If this is news to you, ask the GM."), now,
                   f"farewell|{game.game_id}|{game.history[-1]['hash']}|{nation}", game, helped=False)
