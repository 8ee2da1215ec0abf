"""The mail cycle's part in a game without a game master: a relay that checks the entries it
receives and passes them on to every player, holding no key.

The mail adapter (:mod:`pbem.mail.relays`) calls :func:`relay` with the text of a mail (its
body and text attachments): the blocks in it are accepted into the relay's own copy of the
game, every check made as a player's ``accept`` makes it, and the blocks new to the relay
are handed on (``hand_on``) to be forwarded to every player (:func:`recipients`) *before*
the relay's copy is saved, so that a crash between the two forwards them again on the next
run rather than never. A mail with nothing new hands on nothing; a refused entry raises the
refusal (its code and words for the reply to the sender), and the relay's copy stays as it
was. The relay signs nothing: it cannot play, claim or rule, and a player never needs it
(the players may as well send each other the blocks, or post them on a forum).

The relay's copy starts from the group's proposal, which whoever runs the relay accepts
into it by hand (``antike-ref accept``): a relay never takes a game up from a mail, so a
stranger's proposal cannot make it relay another game.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from pbem.errors import UsageError
from pbem.service.signed.blocks import armor, caption, find
from pbem.service.signed.folder import Folder, take


@dataclass(frozen=True)
class Relayed:
    """What a mail added: the blocks to forward (in order) with a caption each, how many it
    repeated, the blocks that did not read, the game's id and where it stands now."""

    blocks: tuple[str, ...]
    held: int
    damaged: tuple[str, ...]
    captions: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    game: str = ""
    standing: tuple[str, ...] = ()


def relay(path: str | os.PathLike, text: str, source: str, now: datetime, bot=None,
          hand_on: Callable[[Relayed], None] | None = None) -> Relayed:
    """Accept the blocks of ``text`` into the relay's copy ``path``; the blocks to forward
    (``hand_on`` gets them before the copy is saved)."""
    folder = Folder(path)
    found = find(text, source)
    out: list[Relayed] = []

    def make(game, book):
        if game is None and book is None:
            raise UsageError(f"{path}: the relay's copy holds no game and no set-up: accept the group's proposal "
                             f"into it first (antike-ref accept {path} PROPOSAL-FILE)")
        taken = take(game, book, found, now, bot)
        game_id = taken.game.game_id if taken.game is not None else taken.book.game if taken.book else ""
        standing = folder_standing(taken.game, taken.book, now)
        done = Relayed(tuple(armor(s) for s in taken.added), taken.held, tuple(str(p) for p in taken.damaged),
                       tuple(caption(s) for s in taken.added), tuple(s.label() for s in taken.added), game_id,
                       tuple(standing))
        if hand_on is not None and done.blocks:
            hand_on(done)
        out.append(done)
        return taken

    folder.change(make)
    return out[0]


def folder_standing(game, book, now: datetime, seat: str | None = None) -> list[str]:
    """Where a game without a game master stands (``game``, or before it starts its set-up
    ``book``), and what ``seat`` (if given) must do next."""
    from pbem.service.signed import chain

    if game is not None:
        return chain.next_seat_step(game, seat, now)
    if book is None:
        return []
    joins, reveals = book.missing()
    lines = [f"set-up of {book.game}: {', '.join(book.seats)}; waiting for {book.waiting_words()}"]
    if seat is not None and seat in joins:
        lines.append("you join: antike-ref join GAME --seat SEAT --key KEY, and send the block to the others")
    elif seat is not None and not joins and seat in reveals:
        lines.append("every seat has joined: reveal with antike-ref reveal GAME --key KEY, and send the block")
    elif seat is not None:
        lines.append("you wait for the others' blocks; then antike-ref accept GAME FILE")
    return lines


def players(path: str | os.PathLike) -> list[tuple[str, str, str]]:
    """Every seat the set-up names a player for (``--player NATION=Name <address>``): the
    seat, the player's name and address (lower case), in the order of the seats."""
    game, book = Folder(path).load()
    out: list[tuple[str, str, str]] = []
    if game is not None:
        from pbem.service.signed.chain import book_of

        for seat in book_of(game).seats:
            meta = game.meta[seat]
            if meta.email:
                out.append((seat, meta.player or "", meta.email.lower()))
    elif book is not None:
        from pbem.service.creation import parse_player

        given = book.entry["setup"].get("player", {})
        for seat in book.seats:
            if seat in given:
                name, mail = parse_player(given[seat])
                if mail:
                    out.append((seat, name or "", mail.lower()))
    return out


def recipients(path: str | os.PathLike) -> list[str]:
    """Every seat's address the set-up names, once each, sorted."""
    return sorted({address for _, _, address in players(path)})
