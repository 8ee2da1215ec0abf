"""The mails of a new player: their password, from the GM's secrets file (the opening
report of a new game carries each player's, once) or from ``antike-ref player``, and the
notice to the address a nation is no longer played from."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from pbem.errors import MailServerError
from pbem.mail import compose
from pbem.mail.config import MailConfig
from pbem.mail.ledger import mail_lock, spool_path
from pbem.mail.transport import Transport, spool
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
    with mail_lock(game_file):
        game = GameService(game_file).load()
        folder = spool_path(game_file)
        seq = len(game.history) - 1
        spool(folder, f"{seq:06d}-welcome-{nation}", compose.new_password(config, game, nation, password, now))
        if old is not None and compose.deliverable((old[1] or "").lower()) and \
                (old[1] or "").lower() != (game.meta[nation].email or "").lower():
            spool(folder, f"{seq:06d}-farewell-{nation}", compose.farewell(config, game, nation, old, now,
                                                                          moved=password is None))
        try:
            result = transport.deliver(folder, now)
        finally:
            transport.close()
        log(f"{game.game_id}: {len(result.sent)} mail(s) delivered to {transport.describe()}")
        if result.refused or result.given_up:
            raise MailServerError(f"{game.game_id}: the server refused the welcome mail "
                                  f"({(result.refused or result.given_up)[0][1]}); it is tried again by the next mail run")
