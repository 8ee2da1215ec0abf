"""Mail from a player's other address: a mail from an address no nation of the game has,
whose sender's name is a player's, or whose orders or commands give a nation's password
(:func:`lookalike`). It is never applied; its sender gets one line telling them to write
from their registered address (which is not told), and the GM is told, with the address, in
a notice and by ``status``. Mail from any other address (a stranger) stays unanswered, so
that a forged sender never gets mail from the referee."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.service.clock import iso
from pbem.service.game import Game

KEPT = 20
"""How many such mails a game's ledger keeps (the latest), for ``status``."""


def _plain(name: str | None) -> str:
    return " ".join((name or "").replace('"', " ").split()).casefold()


def nation_named(game: Game, word: str | None) -> str | None:
    """The nation ``word`` names (its id or its name, any case), or ``None``."""
    word = _plain(word)
    return next((n for n in game.seats if word in (n, _plain(game.edition.nation_name(n)))), None) if word else None


def lookalike(game: Game, incoming: Any, nation: str | None = None, password: str | None = None) -> str | None:
    """The nation whose player ``incoming`` seems to come from, though its address is no
    nation's: the sender's display name is the player's registered name, or the mail names
    the nation (``nation``) and gives its password (``password``). ``None``: a stranger."""
    from pbem.service import passwords

    name = _plain(getattr(incoming, "sender_name", ""))
    if name:
        found = next((n for n in game.seats if _plain(game.meta[n].player) == name), None)
        if found is not None:
            return found
    named = nation_named(game, nation)
    if named is not None and password and passwords.verify(password, game.meta[named].password):
        return named
    return None


def remember(strays: list[dict[str, Any]], nation: str, address: str, now: datetime) -> list[dict[str, Any]]:
    """The ledger's list of such mails with one more (the latest :data:`KEPT`)."""
    return [*strays, {"at": iso(now), "nation": nation, "address": address}][-KEPT:]
