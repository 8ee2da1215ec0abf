"""Personages won at thresholds: the counting every edition with personage cards shares.

A threshold reached is spent whether or not a card is left (``NationState.earned``): a
personage once won is never lost, and a threshold is never earned twice (000 L205-220;
docs/rulings.md). Which thresholds an edition has, and in which order they are counted,
is the edition's (its ``end_of_turn``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView


def award(t: TurnView, personage: str, due: int, reason: str) -> None:
    """Spend ``due`` thresholds of ``personage``; each gives the active nation a card while
    the bank's stack lasts (a ``personage`` event), or nothing (``personage-missed``)."""
    for _ in range(max(0, due)):
        t.ns.earned[personage] += 1
        if t.state.bank.personages[personage] > 0:
            t.state.bank.personages[personage] -= 1
            t.ns.personages[personage] += 1
            t.emit("personage", personage=personage, reason=reason)
        else:
            t.emit("personage-missed", personage=personage, reason=reason)


