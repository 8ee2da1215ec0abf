"""The Duellum bots on the wedges whose action is Duellum's own (:mod:`.strategy`): TEMPLUM's
temples and town walls, MILITIA's units from the recruitment box, SCIENTIA's know-hows and
recruits, and a city founded, with its resource where the founder chooses it."""

from __future__ import annotations

import random

from pbem.editions.duellum.botsense import box_of, threatened
from pbem.editions.duellum.rules import SPECIAL_MOVES_AS
from pbem.kernel import queries
from pbem.kernel.vocab import RESOURCES, UNITS


def temples_and_walls(b, rng: random.Random, eager: float, greedy: bool) -> None:
    """TEMPLUM: temples where the fewest temples stand around (each costs a coin more, 001
    L262), then town walls from the supply (1 marble, 001 L266): the greedy bot walls the
    cities the rival threatens and its temple cities."""
    game, nation = b.game, b.nation
    st = game.state
    cities = st.cities(nation)
    if greedy:
        def near_temples(c):
            here = game.board.province(c)
            return sum(1 for p in here.land | here.sea if (q := st.provinces.get(p)) is not None and q.temple)
        order = sorted(cities, key=lambda c: (near_temples(c), c))
    else:
        order = rng.sample(cities, len(cities))
    for city in order:
        if greedy or rng.random() < eager:
            b.try_add("temples", {"city": city})
    now = b.result.state
    if not now.nations[nation].extra.get("walls_supply"):
        return
    open_ = [c for c in now.cities(nation) if not now.provinces[c].extra.get("wall")]
    if greedy:
        danger = threatened(game, st, nation)
        order = sorted((c for c in open_ if c in danger or now.provinces[c].temple),
                       key=lambda c: (c not in danger, not now.provinces[c].temple, c))
    else:
        order = [c for c in rng.sample(open_, len(open_)) if rng.random() < eager]
    for city in order:
        b.try_add("walls", {"city": city})


def arm_from_box(b, rng: random.Random, eager: float, greedy: bool) -> None:
    """MILITIA: units from the recruitment box (2 iron each, 001 L284), as many as each
    city takes (1, 3 with a temple): the greedy bot arms temple cities and cities the rival
    threatens first, galleys where they can go (the seas are its way to the rival and to
    navigators), legions elsewhere; the variant's special unit (3 iron, a temple city only,
    001 L435) first of all, where most of its type stand."""
    game, nation = b.game, b.nation
    st = game.state
    box = {u: n for u, n in box_of(st, nation).items() if n}
    cities = st.cities(nation)
    if greedy:
        danger = threatened(game, st, nation)
        cities = sorted(cities, key=lambda c: (not st.provinces[c].temple, c not in danger, c))
    else:
        cities = rng.sample(cities, len(cities))
    used: dict[str, int] = {}
    for special in [u for u in box if u in SPECIAL_MOVES_AS]:
        temples = [c for c in cities if st.provinces[c].temple and game.board.can_arm(c, SPECIAL_MOVES_AS[special])]
        if greedy:
            temples.sort(key=lambda c: -st.provinces[c].count(nation, SPECIAL_MOVES_AS[special]))
        elif rng.random() >= eager:
            temples = []
        for city in temples:
            if b.try_add("arm", {"unit": special, "at": city, "count": 1}):
                used[city] = 1
                break
    for city in cities:
        if not any(box.get(u) for u in UNITS):
            return
        if not greedy and rng.random() >= eager:
            continue
        left = queries.arm_limit(st, game.edition, city) - used.get(city, 0)
        kinds = [u for u in ("galley", "legion") if game.board.can_arm(city, u) and box.get(u)]
        if not greedy:
            rng.shuffle(kinds)
        for unit in kinds:
            for count in range(min(left, box[unit]), 0, -1):
                if b.try_add("arm", {"unit": unit, "at": city, "count": count}):
                    box[unit] -= count
                    left -= count
                    break


def knowhow_and_recruit(b, rng: random.Random, eager: float, greedy: bool) -> None:
    """SCIENTIA: know-hows (the greedy bot first those the rival lacks: a scholar, 001
    L313-317), then units recruited from the supply into the box (1 gold a legion, 2 a
    galley, 001 L340) when the box runs low: as many as the nation's cities can arm."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    names = sorted(edition.rules.knowhows)
    if greedy:
        names.sort(key=lambda k: (not queries.knowhow_offer(st, edition, nation, k).first,
                                  queries.knowhow_offer(st, edition, nation, k).price, k))
    else:
        rng.shuffle(names)
    for name in names:
        if name not in st.nations[nation].knowhow and (greedy or rng.random() < eager):
            b.try_add("knowhow", {"name": name})
    supply = {u: queries.stock(st, edition, nation, u) for u in UNITS}
    box = box_of(st, nation)
    if greedy:
        capacity = sum(queries.arm_limit(st, edition, c) for c in st.cities(nation))
        want = max(0, min(capacity, 6) - sum(box.get(u, 0) for u in UNITS))
        if not want:
            return
        seaward = any(game.board.can_arm(c, "galley") for c in st.cities(nation))
        galleys = min(supply["galley"], (want + 1) // 2 if seaward else 0)
        legions = min(supply["legion"], want - galleys)
        tries = []
        for total in range(galleys + legions, 0, -1):
            g = min(galleys, (total + 1) // 2)
            tries.append({"legion": min(legions, total - g), "galley": g})
            tries.append({"legion": min(legions, total), "galley": max(0, total - min(legions, total))})
    else:
        if rng.random() >= eager:
            return
        tries = [{"legion": rng.randint(0, min(3, supply["legion"])),
                  "galley": rng.randint(0, min(2, supply["galley"]))}]
        tries.append({"legion": min(1, supply["legion"]), "galley": 0})
    for order in tries:
        order = {u: n for u, n in order.items() if n}
        if order and b.try_set("recruit", {"legion": order.get("legion", 0), "galley": order.get("galley", 0)}):
            return


def found_city(b, pid: str, rng: random.Random, greedy: bool) -> bool:
    """Found a city in ``pid``. On a site whose resource the founder chooses (001 L197):
    the greedy bot takes the resource with the fewest adjacent cities of that type (each
    costs a coin more), then the one it has fewest cities of, then the chip it holds least;
    the random bot any. A type whose tokens ran out is refused and the next one tried."""
    game, nation = b.game, b.nation
    site = game.board.province(pid).site
    if site == "none":
        return False
    if site == "fixed":
        return b.try_add("found", {"city": pid})
    st = b.result.state
    here = game.board.province(pid)
    near = {r: 0 for r in RESOURCES}
    mine = {r: 0 for r in RESOURCES}
    for p in here.land | here.sea:
        prov = st.provinces.get(p)
        if prov is not None and prov.owner is not None and queries.city_resource(st, game.board, p) in near:
            near[queries.city_resource(st, game.board, p)] += 1
    for city in st.cities(nation):
        if queries.city_resource(st, game.board, city) in mine:
            mine[queries.city_resource(st, game.board, city)] += 1
    held = st.nations[nation].resources
    order = sorted(RESOURCES, key=lambda r: (near[r], mine[r], held[r], RESOURCES.index(r)))
    if not greedy:
        rng.shuffle(order)
    return any(b.try_add("found", {"city": pid, "resource": r}) for r in order)
