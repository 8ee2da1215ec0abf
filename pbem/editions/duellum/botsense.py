"""What the Duellum bots read of a game (:mod:`.strategy`): the rival, a nation's box,
where its units can go without a battle on the way (battles are automatic, 001 L350),
hostile units of a type, the cities the rival threatens, whether the seas can still win a
personage, and how far each region is from the rival's cities."""

from __future__ import annotations

from typing import Any

from pbem.editions.duellum.rules import SPECIAL_MOVES_AS
from pbem.kernel import queries
from pbem.kernel.turn import Turn
from pbem.kernel.vocab import UNITS


def rival_of(st, nation: str) -> str:
    return next(n for n in st.table.seats if n != nation)


def box_of(st, nation: str) -> dict[str, int]:
    return dict(st.nations[nation].extra.get("recruitment", {}))


def routes(game, st, nation: str, start: str, unit: str, steps: int) -> dict[str, list[str]]:
    """Where a unit of ``unit`` in ``start`` can get to in ``steps`` crossings without
    passing through a region with hostile units of its type (a battle there is automatic,
    001 L350); such a region may be the end of the path: destination -> path."""
    seen = {start: []}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for here in frontier:
            if here != start and hostile(st, nation, here, unit):
                continue  # a battle would stop the way here
            for p in sorted(game.board.province(here).neighbours(game.edition.moves_as(unit))):
                if p not in seen:
                    seen[p] = [*seen[here], p]
                    nxt.append(p)
        frontier = nxt
    del seen[start]
    return seen


def unit_kinds(prov, nation: str) -> list[str]:
    """The kinds of unit ``nation`` has in a province: legions, galleys, then a special
    unit of the variant (Duellum's Admiral or Commander)."""
    held = prov.units.get(nation, {})
    return [u for u in (*UNITS, *SPECIAL_MOVES_AS) if held.get(u)]


def hostile(st, nation: str, pid: str, unit: str) -> int:
    """The rival's units in ``pid`` that a unit of ``unit`` fights on entering: those of
    its type, a special unit moving as that type included (001 L350, L439)."""
    prov = st.provinces.get(pid)
    if prov is None:
        return 0
    other = rival_of(st, nation)
    kind = SPECIAL_MOVES_AS.get(unit, unit)
    return sum(n for u, n in prov.units.get(other, {}).items() if SPECIAL_MOVES_AS.get(u, u) == kind)


def threatened(game, st, nation: str) -> set[str]:
    """Own cities that the rival's units could take next turn: enough of its units within
    a move of the city to meet its defence."""
    other = rival_of(st, nation)
    reach: dict[str, int] = {}
    for pid, prov in st.provinces.items():
        for unit in unit_kinds(prov, other):
            n = prov.count(other, unit) if unit in UNITS else 1  # a special unit: the defence 1 lower
            if n:
                steps = queries.allowance(st, game.edition, other, unit)
                for dest in [pid, *queries.reachable(game.board, pid, game.edition.moves_as(unit), steps)]:
                    reach[dest] = reach.get(dest, 0) + n
    return {c for c in st.cities(nation) if reach.get(c, 0) >= queries.defence(st, game.edition, c) - 1
            and reach.get(c, 0)}


_SEAS_PAY: dict[tuple, tuple[Any, bool]] = {}
"""The last answer of :func:`seas_pay`, by (state, nation), with the state it was asked of."""


def seas_pay(game, st, nation: str) -> bool:
    """Whether holding more regions with galleys can still win ``nation`` a personage
    (navigators, 001 L165: none may be left in the bank, or the nation may have won every
    one the seas give). Asked of the rules: the end of a turn as things stand, and again
    with a galley of the nation in every region a galley can reach, must award different
    numbers of personages."""
    key = (id(st), st.status.turn, nation)
    held = _SEAS_PAY.get(key)
    if held is None or held[0] is not st:  # the state itself kept: an id may be reused
        _SEAS_PAY.clear()
        counts = []
        for flood in (False, True):
            state = st.copy()
            if flood:
                for pid, prov in game.board.provinces.items():
                    if prov.sea:
                        state.province(pid).add(nation, "galley", 1)
            t = Turn(state, nation, game.edition, game.board)
            game.edition.turn.end_of_turn(t)
            counts.append(t.state.nations[nation].personage_count())
        _SEAS_PAY[key] = (st, counts[1] > counts[0])
    return _SEAS_PAY[key][1]


_DISTANCES: dict[tuple[int, tuple[str, ...]], tuple[Any, dict[str, dict[str, int]]]] = {}


def distances(board, targets: list[str]) -> dict[str, dict[str, int]]:
    """Unit type -> province -> the crossings a unit of that type needs to reach the
    nearest of ``targets``; memoised per board and targets (the rival's cities change
    seldom, and a look-ahead asks this for every turn it weighs). Read only."""
    key = (id(board), tuple(sorted(targets)))
    held = _DISTANCES.get(key)
    if held is not None and held[0] is board:
        return held[1]
    if len(_DISTANCES) > 512:
        _DISTANCES.clear()
    out = _distances_of(board, targets)
    _DISTANCES[key] = (board, out)
    return out


def _distances_of(board, targets: list[str]) -> dict[str, dict[str, int]]:
    out = {}
    for unit in UNITS:
        dist = {t: 0 for t in targets}
        frontier = list(targets)
        while frontier:
            nxt = []
            for here in frontier:
                for p in board.province(here).neighbours(unit):
                    if p not in dist:
                        dist[p] = dist[here] + 1
                        nxt.append(p)
            frontier = nxt
        out[unit] = dist
    return out
