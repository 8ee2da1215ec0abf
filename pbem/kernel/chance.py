"""Where an edition's rules get chance from: "an index below ``n`` for this purpose".

An edition never draws from a generator of its own. It asks a :class:`Chance` for an
index below ``n`` and names what the draw is for (``"start nation"``, ``"start
player"``): the purpose tells draws of one game apart, so the same purpose always gives
the same answer for the same game, on every machine.

Two sources answer:

- :class:`SeedLot`, in a game a GM set up: the lot comes from the seed stored in the game
  (SHA-256 of ``SEED:PURPOSE``, its first byte taken modulo ``n``), exactly as every game
  set up before this module existed drew its start nation, so their files replay byte for
  byte;
- in a game without a game master, the service hands the edition a source whose answers
  come from the values every player committed to before anyone revealed one
  (``pbem/service/signed/chance.py``, docs/without-gm.md): no player can predict or steer
  the answer, and anyone recomputes it from the game file.

A draw during play may have to wait: a draw that one player's choice causes must not be
known to that player before the choice is fixed, so in a game without a game master it
depends on values the other players reveal afterwards. Such a source answers ``None``
until those values are in (the draw is *pending*); the edition keeps its place in the
state (a card "to be drawn") and asks again, with the same purpose, at its next step. A
source never answers a purpose twice in different ways. The editions' set-ups ask before
play starts, when every value is in, so the answer there is never ``None``.

Which chance each edition uses is the edition's to say (docs/without-gm.md, "Chance"): a
set-up's lot of the start nation or start player, or draws during play (a deck of cards).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol


class Chance(Protocol):
    """A source of draws an edition asks."""

    def below(self, n: int, purpose: str) -> int | None:
        """An index from 0 to ``n - 1`` for ``purpose``, or ``None`` while it is pending."""
        ...


@dataclass(frozen=True, slots=True)
class SeedLot:
    """The lots of a game a GM set up: from the game's stored seed (the form every earlier
    game used; the first byte of a hash modulo ``n`` favours small indices by at most one
    in 256, which a GM-run game has always accepted)."""

    seed: str

    def below(self, n: int, purpose: str) -> int:
        if n < 1:
            raise ValueError(f"a lot among {n}")
        return hashlib.sha256(f"{self.seed}:{purpose}".encode()).digest()[0] % n


def lot(chance: Chance | None, seed: str | None, n: int, purpose: str) -> int:
    """The set-up's lot among ``n`` for ``purpose``: from ``chance`` when the game has one
    (a game without a game master), else from the ``seed`` (:class:`SeedLot`)."""
    if chance is None:
        return SeedLot(seed or "").below(n, purpose)
    found = chance.below(n, purpose)
    if found is None or not 0 <= found < n:
        raise ValueError(f"the set-up's draw for {purpose!r} is not known: a set-up draws once every value is in")
    return found
