"""A bot that plays a legal turn for any nation of any edition: random or greedy.

Orders are built step by step and every addition is checked by the rules themselves
(:func:`pbem.kernel.turn.resolve`), so whatever the bot sends is legal by construction;
if nothing else fits, it falls back to the GM default turn (D15), which is always legal.
It knows wedges only by the order keys their actions take (``temples``, ``arm``,
``knowhow``, ``maneuver``) and asks the rule queries (:mod:`pbem.kernel.queries`) for
costs, limits, paths and defences. Randomness comes only from a generator seeded with the
game's stored seed, the turn and the nation, so the same game always gets the same bot turn.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from pbem.errors import Refused
from pbem.kernel import queries
from pbem.kernel.turn import resolve
from pbem.kernel.vocab import UNITS

MODES = ("random", "greedy")


def rng_for(game, nation: str, salt: str = "") -> random.Random:
    seed = hashlib.sha256(f"{game.seed}|{game.state.status.turn}|{nation}|{salt}".encode()).hexdigest()
    return random.Random(int(seed[:16], 16))


def _legal(game, orders: dict[str, Any]):
    try:
        return resolve(game.state, orders, game.edition, game.board)
    except Refused:
        return None


class _Builder:
    """Grows one order file, keeping only additions the rules accept."""

    def __init__(self, game, nation: str, rondel: dict[str, Any]):
        self.game = game
        self.nation = nation
        self.orders = {"game": game.game_id, "nation": nation,
                       "turn": game.state.status.turn, "rondel": rondel}
        self.result = _legal(game, self.orders)

    @property
    def ok(self) -> bool:
        return self.result is not None

    def try_add(self, key: str, item: dict[str, Any]) -> bool:
        trial = {**self.orders, key: [*self.orders.get(key, []), item]}
        result = _legal(self.game, trial)
        if result is None:
            return False
        self.orders, self.result = trial, result
        return True


def _random_path(game, start: str, unit: str, length: int, rng: random.Random) -> list[str]:
    path, here = [], start
    for _ in range(length):
        nxt = sorted(game.board.province(here).neighbours(unit))
        if not nxt:
            break
        here = rng.choice(nxt)
        path.append(here)
    return path


def _attack(b: _Builder) -> None:
    """Greedy conquests: gather units that arrive with an action left on the enemy city with
    the most to gain (temples first: a general), then conquer it."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    cities = [p for p, prov in st.provinces.items()
              if prov.owner not in (None, nation) and queries.can_be_conquered(st, p)]
    cities.sort(key=lambda p: (not st.provinces[p].temple, queries.defence(st, edition, p), p))
    for city in cities[:4]:
        now = b.result.state
        need = queries.defence(now, edition, city) if now.provinces.get(city) and now.provinces[city].owner else 0
        near = 0
        plan = []
        for pid in sorted(st.provinces):
            for unit in UNITS:
                n = b.result.state.provinces.get(pid) and b.result.state.provinces[pid].count(nation, unit)
                if not n:
                    continue
                path = queries.shortest_path(game.board, pid, city, unit,
                                             queries.allowance(st, edition, nation, unit) - 1)
                if path is not None:
                    plan.append((pid, unit, n, path))
                    near += n
        if not plan or near < need:
            continue
        for pid, unit, n, path in plan:
            if path:
                b.try_add("maneuver", {"move": unit, "count": n, "from": pid, "path": path})
        after = b.result.state.provinces.get(city)
        if after is not None:
            for other in sorted(after.units):
                for unit in UNITS:
                    if other not in (nation, after.owner) or not after.count(nation, unit) or not after.count(other, unit):
                        continue
                    if other == after.owner:
                        b.try_add("maneuver", {"battle": unit, "at": city, "against": other})
        b.try_add("maneuver", {"conquer": city})


def _march(b: _Builder) -> None:
    """Move every group of own units (but those in a rival city) as far as it may along a
    shortest path towards the nearest rival city it can get to."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    rivals = [p for p, prov in sorted(st.provinces.items()) if prov.owner not in (None, nation)]
    for pid in sorted(st.provinces):
        if pid in rivals:
            continue
        for unit in UNITS:
            n = b.result.state.provinces.get(pid) and b.result.state.provinces[pid].count(nation, unit)
            if not n:
                continue
            paths = [queries.shortest_path(game.board, pid, city, unit, len(game.board.provinces)) for city in rivals]
            paths = [path for path in paths if path]
            if paths:
                path = min(paths, key=len)[:queries.allowance(st, edition, nation, unit)]
                b.try_add("maneuver", {"move": unit, "count": n, "from": pid, "path": path})


def _fill(b: _Builder, rng: random.Random, eager: float, greedy: bool = False, march: bool = False) -> None:
    """Add an action and foundings to a rondel move; ``eager`` is the chance to try each;
    ``greedy`` attacks first, ``march`` then moves the units towards rival cities."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    keys = edition.rondel[b.result.state.nations[nation].rondel].action.keys
    if "maneuver" in keys and greedy:
        _attack(b)
    if "maneuver" in keys and march:
        _march(b)
    if "temples" in keys:
        for city in rng.sample(st.cities(nation), len(st.cities(nation))):
            if rng.random() < eager:
                b.try_add("temples", {"city": city})
    elif "arm" in keys:
        for city in rng.sample(st.cities(nation), len(st.cities(nation))):
            units = [u for u in UNITS if game.board.can_arm(city, u)]
            if units and rng.random() < eager:
                limit = queries.arm_limit(st, edition, city)
                b.try_add("arm", {"unit": rng.choice(units), "at": city, "count": rng.randint(1, limit)}) or \
                    b.try_add("arm", {"unit": rng.choice(units), "at": city, "count": 1})
    elif "knowhow" in keys:
        names = sorted(edition.rules.knowhows)
        rng.shuffle(names)
        for name in names:
            if rng.random() < eager:
                b.try_add("knowhow", {"name": name})
    elif "maneuver" in keys:
        groups = [(pid, u, st.provinces[pid].count(nation, u)) for pid in sorted(st.provinces)
                  for u in UNITS if st.provinces[pid].count(nation, u)]
        for pid, unit, n in groups:
            if rng.random() < eager:
                steps = rng.randint(1, queries.allowance(st, edition, nation, unit))
                path = _random_path(game, pid, unit, steps, rng)
                if path:
                    b.try_add("maneuver", {"move": unit, "count": rng.randint(1, n), "from": pid, "path": path})
        after = b.result.state
        for pid in sorted(after.provinces):
            prov = after.provinces[pid]
            for unit in UNITS:
                if not prov.count(nation, unit):
                    continue
                for other in sorted(prov.units):
                    if other != nation and prov.count(other, unit) and rng.random() < eager / 2:
                        b.try_add("maneuver", {"battle": unit, "at": pid, "against": other})
        after = b.result.state
        for pid in sorted(after.provinces):
            prov = after.provinces[pid]
            if prov.owner not in (None, nation) and any(prov.count(nation, u) for u in UNITS):
                b.try_add("maneuver", {"conquer": pid})
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        if prov.owner is None and any(prov.count(nation, u) for u in UNITS) and rng.random() < max(eager, 0.7):
            b.try_add("found", {"city": pid})


def _value(game, nation: str, result) -> float:
    """Greedy evaluation of the state after a turn: score first, then growth."""
    st = result.state
    ns = st.nations[nation]
    score = game.edition.score(st, nation)
    cities = len(st.cities(nation))
    temples = len(st.temples(nation))
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in UNITS)
    chips = sum(ns.resources.values()) + ns.coins
    won = 1000 if st.status.winner == nation else 0
    return won + 50 * score + 6 * cities + 5 * temples + 4 * len(ns.knowhow) + 1.5 * min(units, 12) + 0.3 * chips


def play_turn(game, mode: str = "random", nation: str | None = None) -> dict[str, Any]:
    """Canonical orders (without password) for the active nation's turn of ``game``
    (anything with ``state``, ``edition``, ``board`` and ``seed``)."""
    nation = nation or game.state.status.active
    rng = rng_for(game, nation, mode)
    choices = [t for t in queries.rondel_targets(game.state, game.edition, nation) if t.affordable]
    if mode == "random":
        free = [t for t in choices if t.cost == 0]
        pool = free if free and rng.random() < 0.8 else choices
        rng.shuffle(pool)
        for tg in pool:
            b = _Builder(game, nation, tg.order)
            if b.ok:
                _fill(b, rng, eager=0.6, greedy=rng.random() < 0.3)
                return b.orders
    elif mode == "greedy":
        best = None
        for tg in choices:
            if tg.cost > 1:
                continue
            for attempt in range(2):
                b = _Builder(game, nation, tg.order)
                if not b.ok:
                    break
                _fill(b, rng, eager=1.0 if attempt == 0 else 0.5, greedy=attempt == 0)
                value = _value(game, nation, b.result) - tg.cost * 0.5
                if best is None or value > best[0]:
                    best = (value, b.orders)
        if best is not None:
            return best[1]
    else:
        raise ValueError(f"unknown bot mode {mode!r}")
    return queries.default_orders(game.state, game.edition, game.board, nation)


def build_turn(game, rondel: dict[str, Any], rng: random.Random, eager: float = 0.6,
               greedy: bool = False, march: bool = False, nation: str | None = None) -> dict[str, Any] | None:
    """Canonical orders (without password) that move the active nation's stone with the
    ``rondel`` order and add the wedge's action and foundings as the bots do, each addition
    checked by the rules; ``None`` when the move itself is refused. The randomness is the
    caller's ``rng`` (property tests draw it), ``eager`` the chance to try each addition;
    on a MANEUVER wedge ``greedy`` first gathers units for a conquest, and ``march`` then
    moves every group towards the nearest rival city."""
    b = _Builder(game, nation or game.state.status.active, rondel)
    if not b.ok:
        return None
    _fill(b, rng, eager, greedy, march)
    return b.orders
