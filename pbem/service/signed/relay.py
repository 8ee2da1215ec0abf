"""The mail cycle's part in a game without a game master: a relay that checks the entries it
receives and passes them on to every player, holding no key.

The mail adapter calls :func:`relay` with the text of a mail (its body and text
attachments): the blocks in it are accepted into the relay's own copy of the game, every
check made as a player's ``accept`` makes it, and the blocks new to the relay come back to
be forwarded to every player (:func:`recipients`). A mail with nothing new is answered
with nothing; a refused entry raises the refusal (its code and words for the reply to the
sender), and the relay's copy stays as it was. The relay signs nothing: it cannot play,
claim or rule, and a player never needs it (the players may as well send each other the
blocks, or post them on a forum).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime

from pbem.service.signed.blocks import armor
from pbem.service.signed.folder import Folder


@dataclass(frozen=True)
class Relayed:
    """What a mail added: the blocks to forward (in order), and how many it repeated."""

    blocks: tuple[str, ...]
    held: int
    damaged: tuple[str, ...]


def relay(path: str | os.PathLike, text: str, source: str, now: datetime, bot=None) -> Relayed:
    """Accept the blocks of ``text`` into the relay's copy ``path``; the blocks to forward."""
    taken = Folder(path).accept(text, source, now, bot)
    return Relayed(tuple(armor(s) for s in taken.added), taken.held, tuple(str(p) for p in taken.damaged))


def recipients(path: str | os.PathLike) -> list[str]:
    """Every seat's address the set-up names (``--player NATION=Name <address>``)."""
    game, book = Folder(path).load()
    if game is not None:
        return sorted({m.email for m in game.meta.values() if m.email})
    if book is None:
        return []
    from pbem.service.creation import parse_player

    return sorted({mail for text in book.entry["setup"].get("player", {}).values()
                   for mail in [parse_player(text)[1]] if mail})
