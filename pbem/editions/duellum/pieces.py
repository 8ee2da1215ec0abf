"""The pieces a Duellum nation holds beside the shared ones: its recruitment box, its
town walls, and the city tokens of the shared bank (001 L33-39, L95, L209-211, L284)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.kernel import queries

if TYPE_CHECKING:
    from pbem.kernel.state import GameState


def opponent(state: GameState, nation: str) -> str:
    """The other nation (Duellum has exactly two)."""
    return next(n for n in state.table.seats if n != nation)


def box(state: GameState, nation: str) -> dict[str, int]:
    """The nation's recruitment box, by unit type."""
    return state.nations[nation].extra["recruitment"]


def to_box(state: GameState, nation: str, unit: str, count: int) -> None:
    """``count`` units go back into the nation's recruitment box (001 L350, L367, L511)."""
    extra = state.nation(nation).extra
    held = dict(extra["recruitment"])
    held[unit] = held.get(unit, 0) + count
    extra["recruitment"] = held


def walls_of(state: GameState, nation: str) -> list[str]:
    """The nation's cities with a town wall."""
    return sorted(p for p, prov in state.provinces.items() if prov.owner == nation and prov.extra.get("wall"))


def set_wall(state: GameState, city: str, on: bool) -> None:
    prov = state.province(city)
    extra = {k: v for k, v in prov.extra.items() if k != "wall"}
    if on:
        extra["wall"] = True
    prov.extra = extra


def tokens_used(state: GameState, board, resource: str) -> int:
    """City tokens of a type on the board (both nations'; 001 L33-38, L97)."""
    return sum(1 for p, prov in state.provinces.items()
               if prov.owner is not None and queries.city_resource(state, board, p) == resource)
