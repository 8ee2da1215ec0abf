"""Draws during play in a game without a game master: pending until the reveals they need
are in.

A draw an entry causes (a card drawn to the display after a pick, a card a rule discards
at random) must not be known to the seat whose choice caused it before the choice is
fixed, nor be steerable by anyone. So it depends on values revealed *after* that entry:
each other seat's next chain value, which each seat reveals with its next turn. Until they
are in, the draw is pending; every copy resolves it the same way once they arrive.

The rule, for a draw first asked for ``purpose`` while entry ``e`` is applied, the entry of
seat ``c`` (the chooser):

- the reveals used are ``c``'s own value carried by entry ``e`` (committed at set-up, so
  not chosen; known to ``c`` when choosing, which is why it never decides alone), and for
  each other seat the value its first turn after ``e`` reveals;
- a seat whose turn after ``e`` was played by a claim (it missed its deadline, or
  withheld its reveal, which is the same) is left out of the draw: a withheld reveal
  cannot stall the game, and the others' reveals still decide;
- the draw is :func:`pbem.trust.commit.draw` of the game, the number ``e`` (so no two
  draws share a stream), the purpose, and those reveals;
- it is resolved once every other seat has revealed after ``e`` or been passed by a claim:
  during the entry whose value completes it (that entry's own choices are fixed by then).
  Were every other seat passed, the chooser's value alone decides: a draw its chooser
  could compute, but only because everyone else withheld.

:class:`PlayChance` is the source an edition's turn asks (:class:`pbem.kernel.chance.Chance`):
the first time a purpose is asked it answers ``None`` and notes the draw
(:attr:`PlayChance.asked`, which the entry records under ``draws``); asked again at a later
entry, it answers the index once the reveals are in. An edition without chance after the
set-up never asks it during play; one with a deck asks it for every card drawn (each
edition's chance: docs/without-gm.md, "Chance").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.service.game import Game


@dataclass
class PlayChance:
    """The draws of the entry being applied to ``game`` (the game before it), made by
    ``seat``; ``reveal``: the value that entry carries (a turn's; a claim carries none),
    which counts as soon as the entry's own choices are fixed, so a draw waiting for
    ``seat`` is made during its entry."""

    game: Game
    seat: str
    reveal: bytes | None = None
    asked: list[dict[str, Any]] = field(default_factory=list)

    def below(self, n: int, purpose: str) -> int | None:
        first = first_asked(self.game, purpose)
        if first is None:
            if not any(a["purpose"] == purpose for a in self.asked):
                self.asked.append({"purpose": purpose, "n": n})
            return None
        seq, wanted = first
        if wanted != n:
            raise ValueError(f"the draw {purpose!r} was asked among {wanted}, now among {n}")
        return resolved(self.game, seq, purpose, n, (self.seat, self.reveal) if self.reveal else None)


def first_asked(game: Game, purpose: str) -> tuple[int, int | None] | None:
    """The entry that first asked for ``purpose``, and among how many."""
    for i, entry in enumerate(game.history):
        for draw in entry.get("draws", ()):
            if isinstance(draw, dict) and draw.get("purpose") == purpose:
                return i, draw.get("n")
    return None


def reveals_after(game: Game, seq: int) -> tuple[dict[str, bytes], set[str], str]:
    """For a draw asked at entry ``seq``: the reveals that decide it so far (the chooser's
    own and each other seat's first after it), the seats passed by a claim since, and the
    chooser."""
    said = game.history[seq].get("signed", {}).get("entry", {})
    chooser = said.get("seat") if said.get("kind") == "turn" else said.get("missed", "")
    reveals: dict[str, bytes] = {}
    if said.get("kind") == "turn":
        reveals[chooser] = bytes.fromhex(said["reveal"])
    passed: set[str] = set()
    others = [s for s in game.seats if s != chooser]
    for entry in game.history[seq + 1:]:
        later = entry.get("signed", {}).get("entry", {})
        who = later.get("seat")
        if later.get("kind") == "turn" and who in others and who not in reveals and who not in passed:
            reveals[who] = bytes.fromhex(later["reveal"])
        elif later.get("kind") == "claim" and later.get("missed") in others and later["missed"] not in reveals:
            passed.add(later["missed"])
    return reveals, passed, chooser


def resolved(game: Game, seq: int, purpose: str, n: int, current: tuple[str, bytes] | None = None) -> int | None:
    """The draw asked at entry ``seq`` for ``purpose`` among ``n``, or ``None`` while a seat
    it waits for has neither revealed nor been passed; ``current``: the seat and value of
    the entry being applied, which counts as revealed after ``seq``."""
    from pbem.trust.commit import draw

    reveals, passed, chooser = reveals_after(game, seq)
    if current is not None and current[0] != chooser and current[0] not in reveals and current[0] not in passed:
        reveals[current[0]] = current[1]
    waiting = [s for s in game.seats if s != chooser and s not in reveals and s not in passed]
    if waiting or not reveals:
        return None
    return draw(game.game_id, seq, purpose, reveals, n)
