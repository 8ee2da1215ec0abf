"""The Duellum bots on the maneuver wedge (:mod:`.strategy`): random moves, or a campaign
planned one case after the other: conquests, settlers to free city sites, pioneers, galleys
spread over the seas, the rest marching on the rival (001 L344-369)."""

from __future__ import annotations

import random
from typing import Any

from pbem.editions.duellum.botcards import fortress_risk
from pbem.editions.duellum.botsense import hostile, rival_of, routes, seas_pay, threatened, unit_kinds
from pbem.editions.duellum.rules import SPECIAL_MOVES_AS
from pbem.kernel import queries
from pbem.kernel.vocab import RESOURCES, UNITS


def random_maneuver(b, rng: random.Random, eager: float) -> None:
    """Random moves (each move in one go: battles on the way are automatic), then a
    conquest wherever the units stand in a rival city."""
    nation = b.nation
    b.random_moves(rng, eager)
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        if prov.owner not in (None, nation) and any(prov.count(nation, u) for u in UNITS):
            b.try_add("maneuver", {"conquer": pid})


def campaign(b, rng: random.Random, attack: bool = True, advance: bool = True,
              hold_seas: bool = True, pioneers: bool = True) -> None:
    """The greedy maneuver (001 L344-369), one case after the other on one
    :class:`_Campaign`: conquests of the rival's cities that enough units can reach
    (:meth:`_Campaign.attack`); then one settler to each free city site the nation can pay
    to found a city on (:meth:`_Campaign.settle`); then (``pioneers``) units setting out
    for the sites no unit reaches this turn (:meth:`_Campaign.pioneer`); then
    (``hold_seas``, where the seas can still win a personage) galleys spread over the
    regions not yet held (:meth:`_Campaign.spread_galleys`); then (``advance``) the rest
    march on the rival (:meth:`_Campaign.advance`). All moves come before the conquests
    (001 L354), no path crosses a region with hostile units of its type, and a path that
    ends in one fights there, 1 for 1."""
    plan = _Campaign(b)
    if attack:
        plan.attack()
    free = plan.free_sites()
    plan.settle(free)
    if pioneers:
        plan.pioneer(free)
    hold_seas = hold_seas and seas_pay(plan.game, plan.st, plan.nation)
    if hold_seas:
        plan.spread_galleys()
    if advance:
        plan.advance(hold_seas)
    plan.order()


class _Campaign:
    """A greedy maneuver being planned: the units not given a task yet (``pool``), where
    the units given one end the maneuver (``here``), the moves and the conquests so far."""

    def __init__(self, b) -> None:
        self.b = b
        self.game, self.nation = b.game, b.nation
        self.st, self.edition, self.board = self.game.state, self.game.edition, self.game.board
        st, nation = self.st, self.nation
        self.other = rival_of(st, nation)
        self.pool: dict[tuple[str, str], int] = {}
        """Units without a task: (region, unit) -> count."""
        for pid, prov in sorted(st.provinces.items()):
            for unit in unit_kinds(prov, nation):
                self.pool[(pid, unit)] = prov.count(nation, unit)
        self.allow = {u: queries.allowance(st, self.edition, nation, u) for u in (*UNITS, *SPECIAL_MOVES_AS)}
        self.routes = {key: routes(self.game, st, nation, key[0], key[1], self.allow[key[1]]) for key in self.pool}
        self.moves: list[dict[str, Any]] = []
        self.here: dict[tuple[str, str], int] = {}
        """Units that end the maneuver in a region: (region, unit) -> count."""
        self.conquests: list[str] = []

    def send(self, pid: str, unit: str, count: int, path: list[str]) -> None:
        self.pool[(pid, unit)] -= count
        if path:
            self.moves.append({"move": unit, "count": count, "from": pid, "path": list(path)})
        dest = path[-1] if path else pid
        self.here[(dest, unit)] = self.here.get((dest, unit), 0) + count

    def way(self, pid: str, unit: str, dest: str) -> list[str] | None:
        return [] if pid == dest else self.routes[(pid, unit)].get(dest)

    def attack(self) -> None:
        """Conquests of the rival's cities that enough units can reach (every unit in the
        region counts, no step needs to be left): temple cities first (a general), then the
        weakest, a wall a card broke, the one the units already stand in; one unit more
        where the rival may hold a card defending its city, and the variant's special unit
        along where it can go safely (the defence is 1 lower, 001 L437). One city of the
        rival's is always left."""
        st, edition, nation, pool = self.st, self.edition, self.nation, self.pool
        quaked = {e.get("city") for e in self.b.orders.get("events", []) if "city" in e}
        risk = fortress_risk(self.game, st, nation)
        can_take = len(st.cities(self.other)) - 1

        def need_at(c: str) -> int:
            return queries.defence(st, edition, c) - (1 if c in quaked else 0)

        def standing(c: str) -> int:
            return sum(pool.get((c, u), 0) for u in UNITS)
        targets = [c for c in st.cities(self.other) if queries.can_be_conquered(st, c)]
        targets.sort(key=lambda c: (not st.provinces[c].temple, need_at(c), c not in quaked, -standing(c), c))
        for city in targets:
            if len(self.conquests) >= can_take:
                break
            need = need_at(city)
            # the special unit goes along only where nothing of its type fights it on the way in
            leader = next(((pid, unit, path) for (pid, unit), n in pool.items() if unit in SPECIAL_MOVES_AS and n
                           and (path := self.way(pid, unit, city)) is not None
                           and not hostile(st, nation, city, unit)),
                          None)
            if leader is not None:
                need = max(1, need - 1)
            sources = []
            for (pid, unit), n in pool.items():
                path = self.way(pid, unit, city) if n and unit in UNITS else None
                if path is not None:
                    sources.append((len(path), unit != "legion", pid, unit, n, path))
            sources.sort()
            have = sum(s[4] for s in sources)
            if have < need:
                continue
            want = need + 1 if risk and have > need else need
            for _, _, pid, unit, n, path in sources:
                take = min(n, want)
                if take:
                    self.send(pid, unit, take, path)
                    want -= take
            if leader is not None:
                self.send(*leader[:2], 1, leader[2])
            self.conquests.append(city)

    def free_sites(self) -> list[str]:
        """City sites no city stands on."""
        board, st = self.board, self.st
        return [p for p in sorted(board.provinces) if board.province(p).site != "none"
                and (st.provinces.get(p) is None or st.provinces[p].owner is None)]

    def settle(self, free: list[str]) -> None:
        """Settlers: one unit to each free city site the nation can pay for (1 marble, 1
        iron, 1 gold, coins standing in, 001 L195), a unit standing there first."""
        ns = self.st.nations[self.nation]
        res, coins = ns.resources, ns.coins
        afford = 0
        while sum(max(0, afford + 1 - res[r]) for r in RESOURCES) <= coins:
            afford += 1
        pool, here = self.pool, self.here
        for site in free:
            for unit in UNITS:
                if pool.get((site, unit)) and afford:
                    self.send(site, unit, 1, [])
                    afford -= 1
                    break
        for site in free:
            if not afford or any(here.get((site, u)) for u in UNITS):
                continue
            options = []
            for (pid, unit), n in pool.items():
                path = self.routes[(pid, unit)].get(site) if unit in UNITS else None
                if n and path and not hostile(self.st, self.nation, site, unit):
                    options.append((len(path), unit != "legion", -n, pid, unit, path))
            if options:
                _, _, _, pid, unit, path = min(options)
                self.send(pid, unit, 1, path)
                afford -= 1

    def pioneer(self, free: list[str]) -> None:
        """Pioneers: while free sites are left that no unit can reach this turn, one unit
        sets out for each of the nearest, when the nation will have the chips to found there
        (a city's only unit stays)."""
        st, nation, board, pool = self.st, self.nation, self.board, self.pool
        ns = st.nations[nation]
        if sum(ns.resources.values()) + ns.coins < 3:
            return
        far = [site for site in free if not any(self.here.get((site, u)) for u in UNITS)]
        for site in far:
            options = []
            for (pid, unit), n in pool.items():
                if not n or unit not in UNITS or pid in st.cities(nation) and n == 1:
                    continue
                path = queries.shortest_path(board, pid, site, unit, len(board.provinces))
                if path:
                    options.append((len(path), unit != "legion", pid, unit, path))
            if not options:
                continue
            _, _, pid, unit, path = min(options)
            step = path[:self.allow[unit]]
            clear = self.routes[(pid, unit)]
            while step and (step[-1] not in clear or hostile(st, nation, step[-1], unit)):
                step = step[:-1]
            if step:
                self.send(pid, unit, 1, clear[step[-1]])

    def holders(self, p: str) -> int:
        """The nation's galleys in region ``p`` once the maneuver is done, as planned so far."""
        return self.here.get((p, "galley"), 0) + self.pool.get((p, "galley"), 0)

    def worth(self, p: str) -> int:
        """What holding region ``p`` counts towards a navigator: 2 for a sea without a city."""
        return 2 if self.board.province(p).double else 1

    def spread_galleys(self) -> None:
        """Galleys spread over regions no galley of the nation holds yet: seas without a
        city first (2 points, 001 L165), then any (1), up to the second navigator's 14
        points; one stays in each region held."""
        pool, holders, worth = self.pool, self.holders, self.worth
        points = sum(worth(p) for p in self.board.provinces if holders(p))
        for pid, unit in [key for key in sorted(pool) if key[1] == "galley"]:
            while pool[(pid, unit)] and points < 14:
                lose = worth(pid) if holders(pid) == 1 else 0
                options = [(lose - worth(dest), len(path), dest, path)
                           for dest, path in self.routes[(pid, unit)].items()
                           if not holders(dest) and not hostile(self.st, self.nation, dest, unit)]
                options = [o for o in options if o[0] < 0]
                if not options:
                    break
                gain, _, dest, path = min(options)
                self.send(pid, unit, 1, path)
                points -= gain

    def advance(self, hold_seas: bool) -> None:
        """The rest march on the rival city that is easiest to take (a special unit with
        the units of its type it stands with), but units guarding a threatened city of
        their own and (``hold_seas``) a galley holding its region."""
        st, nation, board, edition, pool = self.st, self.nation, self.board, self.edition, self.pool
        danger = threatened(self.game, st, nation)
        rivals = [c for c in st.cities(self.other) if c not in self.conquests]
        near: dict[str, int] = {}
        for (pid, unit), n in pool.items():
            for dest in [pid, *board.province(pid).neighbours(edition.moves_as(unit))]:
                near[dest] = near.get(dest, 0) + n
        focus = sorted((c for c in rivals if queries.can_be_conquered(st, c)),
                       key=lambda c: (queries.defence(st, edition, c) - near.get(c, 0), not st.provinces[c].temple, c))
        marched: dict[tuple[str, str], list[str]] = {}
        for (pid, unit), n in sorted(pool.items()):
            if unit not in UNITS:
                continue
            if hold_seas and unit == "galley" and n and self.holders(pid) == n:
                n -= 1  # one stays to hold the region's sea points
            if not n or pid in danger or pid in rivals:
                continue
            path = next((p for c in focus if (p := queries.shortest_path(board, pid, c, unit, len(board.provinces)))),
                        None)
            if not path:
                continue
            step = path[:self.allow[unit]]
            clear = self.routes[(pid, unit)]
            while step and (step[-1] not in clear or hostile(st, nation, step[-1], unit) > n):
                step = step[:-1]
            if step:
                self.send(pid, unit, n, clear[step[-1]])
                marched[(pid, unit)] = clear[step[-1]]
        for (pid, unit), n in sorted(pool.items()):
            path = marched.get((pid, SPECIAL_MOVES_AS.get(unit, "")))
            if n and unit in SPECIAL_MOVES_AS and path and len(path) <= self.allow[unit]:
                self.send(pid, unit, n, path)  # with its escort, which fights first

    def order(self) -> None:
        """The planned moves, then the conquests, into the orders (each checked by the rules)."""
        for move in self.moves:
            self.b.try_add("maneuver", move)
        for city in self.conquests:
            self.b.try_add("maneuver", {"conquer": city})
