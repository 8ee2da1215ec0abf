"""Rule questions, answered in one place for the turn, ``options``, the bots and the GM.

What a rondel move costs and where it may go, what production yields, how many units a
city may arm, how far a unit may move and where it can get to, how strong a city's defence
is and which cities are in reach, the know-how prices, the default turn of a missing
player: the turn (:mod:`pbem.kernel.turn`) and everything that advises a player ask these
functions, so that an option shown as legal is legal. Numbers come from the edition's rule
table; where an edition's rule differs in kind it answers through a hook of
:class:`~pbem.kernel.edition.Edition`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from pbem.kernel.payments import Cost, default_payment
from pbem.kernel.protocols import EditionView
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.rondel import Landing, Rondel
    from pbem.kernel.state import GameState


class RondelEdition(EditionView, Protocol):
    """An edition as the rondel questions ask it: what the shared rules need, and its rondel."""

    rondel: Rondel


@dataclass(frozen=True, slots=True)
class Target:
    """One rondel field a nation could move to now."""

    index: int
    wedge: str
    steps: int
    cost: int
    affordable: bool
    order: dict[str, Any]
    """The ``rondel`` order that lands exactly here."""


def rondel_targets(state: GameState, edition: RondelEdition, nation: str) -> list[Target]:
    """Every field with its steps and cost (000 L312-326), and whether the nation can pay."""
    ns = state.nations[nation]
    out = []
    for landing in edition.rondel.landings(ns.rondel):
        affordable = landing.cost == 0 or surcharge_payment(state, edition, nation, landing) is not None
        out.append(Target(landing.index, edition.rondel[landing.index].name, landing.steps,
                          landing.cost, affordable, edition.rondel.order_for(landing)))
    return out


def surcharge_payment(state: GameState, edition: RondelEdition, nation: str, landing: Landing) -> dict[str, int] | None:
    """The default payment (D7) for a move's extra steps, keeping on a tie the chip the
    wedge's action spends; ``None`` if the nation cannot pay."""
    spare = edition.rondel[landing.index].action.spends
    return default_payment(state.nations[nation], Cost(any=landing.cost, spare=spare))


def production(state: GameState, edition: EditionView, board: Board, nation: str, resource: str) -> int:
    """1 per city of that type, 3 with a temple, plus the best production know-how's bonus
    (000 L360-362, L542-545; also with no such city, docs/rulings.md Q8)."""
    rules = edition.rules_for(state.table)
    amount = 0
    for pid, prov in state.provinces.items():
        if prov.owner == nation and city_resource(state, board, pid) == resource:
            amount += rules.production_per_temple_city if prov.temple else rules.production_per_city
    return amount + best_bonus(rules.production_bonus, state.nations[nation].knowhow)


def city_resource(state: GameState, board: Board, pid: str) -> str:
    """What the city in ``pid`` produces: the resource its founder chose where the site
    lets them (kept as ``resource`` in the province's state), else the printed one."""
    prov = state.provinces.get(pid)
    chosen = prov.extra.get("resource") if prov is not None and prov.extra else None
    return chosen or board.province(pid).resource


def neutral_temple(state: GameState, pid: str) -> bool:
    """Whether a neutral temple stands in ``pid`` (an edition with neutral temples, 003 L30, L270)."""
    prov = state.provinces.get(pid)
    return prov is not None and bool(prov.extra.get("neutral_temple"))


def best_bonus(table: dict[str, int], owned: list[str]) -> int:
    """The largest bonus among the know-hows owned (bonuses never add up, Q7)."""
    return max((b for k, b in table.items() if k in owned), default=0)


def arm_limit(state: GameState, edition: EditionView, city: str) -> int:
    """Units a city may arm in one turn: 1, 3 with a temple (000 L411-417)."""
    rules = edition.rules_for(state.table)
    return rules.arm_per_temple_city if state.provinces[city].temple else rules.arm_per_city


def stock(state: GameState, edition: EditionView, nation: str, unit: str) -> int:
    """Units of a type the nation has left to arm (the cap minus those on the board); in
    an edition with a recruitment box its supply, from which units are recruited (the box is not counted)."""
    return (edition.rules_for(state.table).cap(unit) - state.units_on_board(nation, unit)
            - edition.forces.reserve(state, nation, unit))


def allowance(state: GameState, edition: EditionView, nation: str, unit: str) -> int:
    """Maneuver actions per unit this turn: 1, or the best movement know-how owned."""
    owned = state.nations[nation].knowhow
    moves = edition.rules_for(state.table).movement.get(edition.moves_as(unit), {})
    return max((n for k, n in moves.items() if k in owned), default=1)


def reachable(board: Board, start: str, unit: str, actions: int) -> dict[str, int]:
    """Provinces a unit in ``start`` can reach with ``actions`` crossings: province -> steps."""
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


def shortest_path(board: Board, start: str, goal: str, unit: str, limit: int) -> list[str] | None:
    """A shortest path (the provinces after ``start``) within ``limit`` crossings, or ``None``.
    Among paths of equal length the first by province id is taken, so the answer is stable."""
    if start == goal:
        return []
    prev: dict[str, str | None] = {start: None}
    frontier = [start]
    for _ in range(limit):
        nxt = []
        for here in frontier:
            for p in sorted(board.province(here).neighbours(unit)):
                if p not in prev:
                    prev[p] = here
                    nxt.append(p)
        if goal in prev:
            path = [goal]
            while prev[path[-1]] != start:
                path.append(prev[path[-1]])
            return path[::-1]
        frontier = nxt
    return None


def defence(state: GameState, edition: EditionView, city: str) -> int:
    """Defence strength: 1 (3 with a temple) + the defender's units there + the best
    defence know-how (000 L661-674; not cumulative, Q7) + the edition's own bonus."""
    prov = state.provinces[city]
    owner = prov.owner
    rules = edition.rules_for(state.table)
    if owner is None and prov.extra.get("neutral_temple"):
        return rules.neutral_temple_defence  # a flat 3 (003 L30)
    strength = rules.defence_temple_city if prov.temple else rules.defence_city
    strength += sum(prov.count(owner, u) for u in UNITS)
    strength += best_bonus(rules.defence_bonus, state.nations[owner].knowhow)
    return strength + edition.forces.defence_bonus(state, city)


def can_be_conquered(state: GameState, city: str) -> bool:
    """A city can be attacked unless it is its owner's last (docs/rulings.md); a neutral
    temple always can."""
    prov = state.provinces.get(city)
    if prov is not None and prov.owner is None and prov.extra.get("neutral_temple"):
        return True
    return prov is not None and prov.owner is not None and len(state.cities(prov.owner)) > 1


def in_reach(state: GameState, edition: EditionView, board: Board, nation: str) -> dict[str, int]:
    """Provinces the nation's units can stand in with an action left this turn (units
    that may still conquer, 000 L653-659): province -> how many units."""
    out: dict[str, int] = {}
    for pid in sorted(state.provinces):
        for unit in UNITS:
            n = state.provinces[pid].count(nation, unit)
            if not n:
                continue
            moves = allowance(state, edition, nation, unit)
            # Where a conquest uses no action (003 L15), a unit may conquer where it ends.
            spare = 1 if edition.rules_for(state.table).conquest_uses_action else 0
            for dest, steps in [*reachable(board, pid, unit, moves).items(), (pid, 0)]:
                if steps + spare <= moves:
                    out[dest] = out.get(dest, 0) + n
    return out


def conquerable(state: GameState, edition: EditionView, board: Board, nation: str) -> list[dict[str, Any]]:
    """Rival cities enough of the nation's units can reach with an action left, as far as
    the board shows now (battles on the way are not foreseen)."""
    out = []
    for pid, units in sorted(in_reach(state, edition, board, nation).items()):
        prov = state.provinces.get(pid)
        if prov is None or prov.owner == nation or not can_be_conquered(state, pid):
            continue
        strength = defence(state, edition, pid)
        if units >= strength:
            out.append({"city": pid, "owner": prov.owner, "defence": strength,
                        "units_in_reach": units, "temple": prov.temple or neutral_temple(state, pid)})
    return out


@dataclass(frozen=True, slots=True)
class Offer:
    """A know-how as a nation could buy it now."""

    name: str
    price: int
    needs: str | None
    """The know-how it still needs first, or ``None``."""
    first: bool
    """No other nation owns it: the buyer would be the first (a scholar in classic)."""


def knowhow_offer(state: GameState, edition: EditionView, nation: str, name: str) -> Offer:
    """Know-how ``name`` for ``nation`` now: cheaper once another nation owns it (000 L485-492)."""
    rules = edition.rules_for(state.table)
    spec = rules.knowhows[name]
    other = any(name in ns.knowhow for n, ns in state.nations.items() if n != nation)
    owned = state.nations[nation].knowhow
    needs = spec.requires if spec.requires and spec.requires not in owned else None
    return Offer(name, rules.knowhow_price(name, other), needs, not other)


def default_orders(state: GameState, edition: RondelEdition, board: Board, nation: str) -> dict[str, Any]:
    """D15: the nearest production wedge within the free steps that yields the most,
    produce, found nothing; with none in reach, one step on and no action.

    On a first move every wedge is free: the best-yielding production wedge, ties by rondel
    order. Ties within reach go to the nearest wedge.
    """
    best = None
    for tg in rondel_targets(state, edition, nation):
        amount = edition.rondel[tg.index].action.yields(state, edition, board, nation)
        if amount is None or tg.cost > 0:
            continue
        key = (-amount, tg.steps, tg.index)
        if best is None or key < best[0]:
            best = (key, tg)
    if best is not None:
        rondel = best[1].order
    else:
        current = state.nations[nation].rondel
        nxt = (current + 1) % len(edition.rondel)
        rondel = {"to": edition.rondel[nxt].name, "steps": 1}
    return {"game": state.table.game_id, "nation": nation, "turn": state.status.turn,
            "rondel": rondel}
