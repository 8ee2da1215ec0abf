"""Moving coins and chips between the bank and a nation.

Shared by the turn and set-up; pure functions on a :class:`GameState`.
"""

from __future__ import annotations

from typing import Any

from pbem.kernel.state import GameState
from pbem.kernel.vocab import RESOURCES


def substitute_chip(state: GameState, nation: str) -> str:
    """The chip a nation takes when the bank has no coin (standing order, D6)."""
    choice = state.standing[nation].coin_substitute
    if choice in RESOURCES:
        return choice
    held = state.nations[nation].resources
    return min(RESOURCES, key=lambda r: (held[r], RESOURCES.index(r)))


def give_coin(state: GameState, nation: str, events: list[dict[str, Any]], reason: str) -> None:
    """Hand one coin to ``nation``; with the bank empty, a chip instead (000 L295-296)."""
    ns = state.nation(nation)
    if state.bank.coins > 0:
        state.bank.coins -= 1
        ns.coins += 1
        events.append({"type": "coin", "nation": nation, "reason": reason, "coin": 1})
    else:
        chip = substitute_chip(state, nation)
        ns.resources[chip] += 1
        events.append({"type": "coin", "nation": nation, "reason": reason, "coin": 0, "instead": chip})


def round_coins(state: GameState, events: list[dict[str, Any]]) -> None:
    """Every nation receives a coin at the start of a round, in turn order (000 L289-292, Q4)."""
    for nation in state.table.turn_order():
        give_coin(state, nation, events, "round")
