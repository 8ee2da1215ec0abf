"""The variant with special units (001 L433-439): an Admiral for beige, a Commander for
brown. Each starts in its nation's recruitment box, is armed for 3 iron at a city with a
temple only, moves as a galley (Admiral) or a legion (Commander), lowers by 1 the defence
of a city it attacks and raises by 1 that of a city it defends, survives every conquest,
and is killed only in the movement phase by hostile units of its type, once its escorts of
that type are gone. It does not count as a unit in a conquest (docs/rulings.md Q33).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.editions.duellum.pieces import opponent, to_box
from pbem.editions.duellum.rules import SPECIAL_ARMING_IRON, SPECIAL_MOVES_AS, SPECIAL_UNITS

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView
    from pbem.kernel.state import GameState


def present(state: GameState, nation: str, pid: str) -> bool:
    """Whether ``nation``'s special unit stands in ``pid``."""
    prov = state.provinces.get(pid)
    return prov is not None and bool(prov.units.get(nation, {}).get(SPECIAL_UNITS[nation]))


def attack_relief(t: TurnView, city: str) -> int:
    """001 L437: "a special unit who helps to attack a city lowers the defense strength of
    the attacked city by 1"."""
    return 1 if t.state.table.has("special_units") and present(t.state, t.nation, city) else 0


def defence_help(state: GameState, city: str) -> int:
    """001 L437: "a special unit who helps to defend a city increases its defense strength by 1"."""
    owner = state.provinces[city].owner
    assert owner is not None  # the defence of a city, which is someone's
    return 1 if state.table.has("special_units") and present(state, owner, city) else 0


def arming_iron(t: TurnView, unit: str) -> int:
    return SPECIAL_ARMING_IRON if unit in SPECIAL_MOVES_AS else t.rules.arming_iron


def arm_problem(t: TurnView, unit: str, at: str, path: str) -> bool:
    """001 L435: special units "can only be added to cities with a temple"."""
    if unit in SPECIAL_MOVES_AS and not t.state.provinces[at].temple:
        t.reject("arm/special-needs-temple", path, unit=unit, at=at)
        return True
    return False


def entry_battles(t: TurnView, f, at: str, unit: str, moving: list[int]) -> list[int]:
    """Units entering ``at`` fight the opponent's units of their type there at once, 1 for
    1, all going back to the boxes (001 L350). A special unit is fought only once the units
    of its type escorting it are gone (001 L439), and a special unit that enters is fought
    like a unit of its type."""
    kind = SPECIAL_MOVES_AS.get(unit, unit)
    other = opponent(t.state, t.nation)
    theirs = SPECIAL_UNITS[other]
    for target in (kind, theirs):
        if target == theirs and SPECIAL_MOVES_AS.get(theirs) != kind:
            continue
        k = min(len(moving), t.state.provinces[at].count(other, target))
        if not k:
            continue
        t.state.province(at).add(other, target, -k)
        f.take(at, unit, moving[:k])
        moving = moving[k:]
        to_box(t.state, other, target, k)
        to_box(t.state, t.nation, unit, k)
        # ``unit`` is the type fought (legion or galley); ``special`` the special unit lost, either side's.
        lost = target if target != kind else unit if unit != kind else None
        t.emit("battle", at=at, unit=kind, against=other, count=k, started_by=t.nation,
               **({"special": lost} if lost else {}))
    return moving
