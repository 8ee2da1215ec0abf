"""The variant with special units (001 L433-439): an Admiral for beige, a Commander for
brown. Each starts in its nation's recruitment box, is armed for 3 iron at a city with a
temple only, moves as a galley (Admiral) or a legion (Commander), lowers by 1 the defence
of a city it attacks and raises by 1 that of a city it defends, survives every conquest,
and is killed only in the movement phase by hostile units of its type, once its escorts of
that type are gone. It does not count as a unit in a conquest (docs/rulings.md Q33).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.editions.duellum.rules import SPECIAL_UNITS

if TYPE_CHECKING:
    from pbem.kernel.state import GameState
    from pbem.kernel.turn import Turn


def present(state: GameState, nation: str, pid: str) -> bool:
    """Whether ``nation``'s special unit stands in ``pid``."""
    prov = state.provinces.get(pid)
    return prov is not None and bool(prov.units.get(nation, {}).get(SPECIAL_UNITS[nation]))


def attack_relief(t: Turn, city: str) -> int:
    """001 L437: "a special unit who helps to attack a city lowers the defense strength of
    the attacked city by 1"."""
    return 1 if t.state.table.has("special_units") and present(t.state, t.nation, city) else 0


def defence_help(state: GameState, city: str) -> int:
    """001 L437: "a special unit who helps to defend a city increases its defense strength by 1"."""
    owner = state.provinces[city].owner
    return 1 if state.table.has("special_units") and present(state, owner, city) else 0
