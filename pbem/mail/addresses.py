"""Who gets a game's mail: the players at their registered addresses, the observers, the
GM; and what may stand in a header."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.mail.config import GameMail, MailConfig
from pbem.service.game import Game


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
    return bool(address) and bool(_ADDRESS.fullmatch(address or ""))


def recipients(game: Game) -> list[Recipient]:
    """Every registered address of the game, once, with its nations in seat order (an
    address that is not one mailbox, from a hand-edited file, gets nothing)."""
    found: dict[str, Recipient] = {}
    for n in game.seats:
        email = game.meta[n].email
        if email is None or not deliverable(email):
            continue
        key = email.lower()
        if key in found:
            found[key].nations += (n,)
        else:
            found[key] = Recipient(email, game.meta[n].player, (n,))
    return list(found.values())


def observers(settings: GameMail) -> list[Recipient]:
    """The game's observers (``observers`` in the configuration): they get what is public."""
    out = []
    for entry in settings.observers:
        from email.utils import parseaddr

        name, address = parseaddr(entry)
        if deliverable(address.lower()):
            out.append(Recipient(address.lower(), name or None, (), "observer"))
    return out


def observer(settings: GameMail, address: str) -> Recipient | None:
    """The observer of the game at ``address``, or ``None``."""
    address = address.lower()
    return next((o for o in observers(settings) if o.address == address), None)


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
