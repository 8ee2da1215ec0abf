"""What the active nation can do now: every rondel target with its cost and what the
wedge would yield or allow (``antike-ref options``), plus an order-file template.

Shared by the GM's default turn (D15) and the bot, so all three agree on costs.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from pbem.engine import production
from pbem.game import Game
from pbem.maneuver import defence_of
from pbem.payments import Cost, default_payment
from pbem.vocab import RESOURCES, RONDEL, UNITS


@dataclass(frozen=True, slots=True)
class Target:
    """One rondel field the nation could move to."""

    index: int
    wedge: str
    steps: int
    cost: int
    affordable: bool

    def order(self, first: bool) -> dict[str, Any]:
        """The ``rondel`` order that lands exactly here (explicit steps: no ambiguity)."""
        if first:
            if self.wedge == "maneuver" and self.index == 7:
                return {"to": "maneuver", "steps": 7}
            return {"to": self.wedge}
        return {"to": self.wedge, "steps": self.steps}


def targets(game: Game, nation: str) -> list[Target]:
    """All eight fields with steps and cost (000 L312-326); first move: all free."""
    ns = game.state.nations[nation]
    out = []
    for index, wedge in enumerate(RONDEL):
        if ns.rondel is None:
            steps, cost = 0, 0
        else:
            steps = (index - ns.rondel) % 8 or 8
            cost = max(0, steps - game.rules.free_steps)
        affordable = cost == 0 or default_payment(ns, Cost(any=cost)) is not None
        out.append(Target(index, wedge.value, steps, cost, affordable))
    return out


def reachable(game: Game, start: str, unit: str, actions: int) -> dict[str, int]:
    """Provinces a unit in ``start`` can reach with ``actions`` crossings: province → steps."""
    board = game.board
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] == actions:
            continue
        for nxt in sorted(board.province(here).neighbours(unit)):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    del seen[start]
    return seen


def allowance(game: Game, nation: str, unit: str) -> int:
    owned = game.state.nations[nation].knowhow
    table = game.rules.moves_legion if unit == "legion" else game.rules.moves_galley
    return max((n for k, n in table.items() if k in owned), default=1)


def maneuver_options(game: Game, nation: str) -> dict[str, Any]:
    """Each unit group's reachable provinces, and cities its upright units could conquer."""
    st = game.state
    groups = []
    could_reach: dict[str, int] = {}
    for pid in sorted(st.provinces):
        for unit in UNITS:
            n = st.provinces[pid].count(nation, unit)
            if not n:
                continue
            moves = allowance(game, nation, unit)
            reach = reachable(game, pid, unit, moves)
            groups.append({"at": pid, "unit": unit, "count": n, "actions": moves,
                           "reach": dict(sorted(reach.items()))})
            # a unit that arrives with an action left may still conquer (000 L653-659)
            for dest, steps in list(reach.items()) + [(pid, 0)]:
                if steps < moves:
                    could_reach[dest] = could_reach.get(dest, 0) + n
    conquerable = []
    for pid, units in sorted(could_reach.items()):
        prov = st.provinces.get(pid)
        if prov is None or prov.owner in (None, nation) or len(st.cities(prov.owner)) <= 1:
            continue
        strength = defence_of(game, st, pid)
        if units >= strength:
            conquerable.append({"city": pid, "owner": prov.owner, "defence": strength,
                                "units_in_reach": units, "temple": prov.temple})
    return {"groups": groups, "conquerable": conquerable}


def wedge_effect(game: Game, nation: str, wedge: str, budget: dict[str, int]) -> dict[str, Any]:
    """What choosing ``wedge`` would yield or allow, with ``budget`` left after the move."""
    st = game.state
    rules = game.rules
    spend = budget["coin"]
    if wedge in RESOURCES:
        return {"produce": {wedge: production(game, st, nation, wedge)}}
    if wedge == "temple":
        cities = [c for c in st.cities(nation) if not st.provinces[c].temple]
        can = min(len(cities), st.bank.temples, (budget["marble"] + spend) // rules.temple_marble)
        return {"cities": cities, "affordable": can, "price": {"marble": rules.temple_marble}}
    if wedge == "arming":
        places = []
        for c in st.cities(nation):
            limit = rules.arm_per_temple_city if st.provinces[c].temple else rules.arm_per_city
            units = [u for u in UNITS if game.board.can_arm(c, u)]
            places.append({"city": c, "limit": limit, "units": units})
        stock = {u: rules.unit_cap - st.units_on_board(nation, u) for u in UNITS}
        can = min(sum(p["limit"] for p in places), (budget["iron"] + spend) // rules.arming_iron)
        return {"places": places, "stock": stock, "affordable": can, "price": {"iron": rules.arming_iron}}
    if wedge == "knowhow":
        owned = st.nations[nation].knowhow
        offers = []
        for name, spec in rules.knowhows.items():
            if name in owned:
                continue
            other = any(name in s.knowhow for n, s in st.nations.items() if n != nation)
            price = rules.knowhow_price(name, other)
            offers.append({"name": name, "price": price, "needs": spec.requires if spec.requires and spec.requires not in owned else None,
                           "affordable": spec.requires in (None, *owned) and price <= budget["gold"] + spend})
        return {"knowhow": offers}
    return maneuver_options(game, nation)


def options(game: Game) -> dict[str, Any]:
    """Everything ``antike-ref options`` shows for the active nation."""
    st = game.state
    nation = st.status.active
    ns = st.nations[nation]
    first = ns.rondel is None
    out = []
    for tg in targets(game, nation):
        entry: dict[str, Any] = {"index": tg.index, "wedge": tg.wedge, "steps": tg.steps,
                                 "cost": tg.cost, "legal": tg.affordable,
                                 "rondel": tg.order(first)}
        if tg.affordable:
            pay = default_payment(ns, Cost(any=tg.cost)) or {}
            entry["pay"] = pay
            budget = {r: ns.resources[r] - pay.get(r, 0) for r in RESOURCES}
            budget["coin"] = ns.coins - pay.get("coin", 0)
            entry["effect"] = wedge_effect(game, nation, tg.wedge, budget)
        out.append(entry)
    template = {"game": game.game_id, "nation": nation, "turn": st.status.turn,
                "password": "YOUR-PASSWORD", "rondel": {"to": "gold"}}
    return {"game": game.game_id, "turn": st.status.turn, "nation": nation,
            "resources": dict(ns.resources), "coins": ns.coins, "rondel": ns.rondel,
            "targets": out, "template": template}
