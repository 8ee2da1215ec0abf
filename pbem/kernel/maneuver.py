"""The maneuver action: movement and battles (phase 1), then conquests (phase 2).

000 L565-710 and L911-953; docs/rulings.md Q14-Q16, Q30 and "Military". The active nation's
units carry their remaining maneuver actions through the turn; other nations' units are
plain counts. Non-active nations demand battles on entry by their public standing orders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.kernel import queries
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView


class Forces:
    """The active nation's units with the maneuver actions each has left this turn.

    ``pool[(province, unit)]`` is a sorted list of actions left, one entry per unit, kept
    in step with the unit counts in the state.
    """

    def __init__(self, t: TurnView):
        self.t = t
        self.pool: dict[tuple[str, str], list[int]] = {}
        self.allowance = {u: queries.allowance(t.state, t.edition, t.nation, u) for u in (*UNITS, *t.edition.special_units)}

    def units(self, at: str, unit: str) -> list[int]:
        key = (at, unit)
        if key not in self.pool:
            prov = self.t.state.provinces.get(at)
            n = prov.count(self.t.nation, unit) if prov else 0
            self.pool[key] = [self.allowance[unit]] * n
        return self.pool[key]

    def take(self, at: str, unit: str, actions: list[int]) -> None:
        """Remove units with exactly these action counts from ``at`` (state included)."""
        group = self.units(at, unit)
        for a in actions:
            group.remove(a)
        self.t.state.province(at).add(self.t.nation, unit, -len(actions))

    def put(self, at: str, unit: str, actions: list[int]) -> None:
        group = self.units(at, unit)
        group.extend(actions)
        group.sort()
        self.t.state.province(at).add(self.t.nation, unit, len(actions))

    def lose(self, at: str, unit: str, n: int) -> None:
        """Lose ``n`` units, those with the fewest actions left first (docs/rulings.md)."""
        self.take(at, unit, self.units(at, unit)[:n])

    def standing(self, at: str, unit: str) -> int:
        """Units still upright (at least one action left): the ones that may conquer."""
        return sum(1 for a in self.units(at, unit) if a >= 1)


def _demanders(t: TurnView, at: str, unit: str) -> list[str]:
    """Non-active nations that demand a battle when the active nation's units enter ``at``.

    D1 stances: ``always``; ``home`` only where the demander owns the city; ``never``.
    Several demanders act in turn order after the active nation.
    """
    order = t.state.table.turn_order()
    i = order.index(t.nation)
    prov = t.state.provinces.get(at)
    if prov is None:
        return []
    out = []
    for other in order[i + 1:] + order[:i]:
        if not prov.count(other, unit):
            continue
        if t.edition.forces.automatic_battles:  # hostile units of a type never share a region (001 L289, L350)
            out.append(other)
            continue
        stance = t.state.standing[other].stance(t.nation)
        if stance == "always" or (stance == "home" and prov.owner == other):
            out.append(other)
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _border_reason(t: TurnView, unit: str, a: str, b: str) -> str:
    """Why a unit cannot cross from ``a`` to ``b``: no border, or the wrong kind."""
    here = t.board.province(a)
    if b in here.land or b in here.sea:
        kind = "land" if b in here.land else "sea"
        crosses = "legions" if kind == "land" else "galleys"
        return f" (their border is {kind} only: only {crosses} cross it)"
    return f" ({t.display(a)} and {t.display(b)} do not border each other; each step goes to a neighbour)"


def _choose(able: list[int], count: int, which: str | None) -> list[int]:
    """The units that go: by default those with the fewest actions left that still suffice
    (docs/orders.md); ``"which": "fresh"`` sends those with the most actions left first."""
    ordered = sorted(able, reverse=which == "fresh")
    return sorted(ordered[:count])


def _why_not_moving(t: TurnView, f: Forces, unit: str, at: str, need: int, able: int) -> str:
    """The reason fewer units than asked can make the move, in a player's words."""
    here = f.units(at, unit)
    if not here:
        elsewhere = sorted(p for p, prov in t.state.provinces.items() if p != at and prov.count(t.nation, unit))
        where = ", ".join(t.display(p) for p in elsewhere)
        return f"it has no {unit}s there" + (f" (its {unit}s are in {where})" if where else "")
    allowance = f.allowance[unit]
    if need > allowance:
        owned = t.ns.knowhow
        steps = sorted((n, k) for k, n in t.rules.movement.get(unit, {}).items() if k not in owned and n >= need)
        more = "; ".join(f"{n} steps need {t.display(k)}" for n, k in steps)
        return (f"a {unit} moves at most {_plural(allowance, 'step')} a turn"
                + (f" ({more})" if more else ""))
    spent = len(here) - able
    return (f"only {able} of its {len(here)} {unit}s there can still move {_plural(need, 'step')}; "
            f"{spent} {'has' if spent == 1 else 'have'} used {'its' if spent == 1 else 'their'} steps this turn")


def _spent(f: Forces, at: str, units: tuple[str, ...]) -> str:
    """`` (3 more there have used all their steps ...)`` when units in ``at`` are down."""
    down = sum(1 for u in units for a in f.units(at, u) if a < 1)
    if not down:
        return ""
    return (f" ({down} more there {'has' if down == 1 else 'have'} used all "
            f"{'its' if down == 1 else 'their'} steps this turn, and a unit with no step left cannot conquer)")


def _battle_event(t: TurnView, at: str, unit: str, other: str, count: int, started_by: str) -> None:
    t.emit("battle", at=at, unit=unit, against=other, count=count, started_by=started_by)


def _move(t: TurnView, f: Forces, step: dict[str, Any], path: str) -> None:
    unit, count, start, route = step["move"], step["count"], step["from"], step["path"]
    board = t.board
    for j, pid in enumerate([start] + route):
        if not board.is_province(pid):
            where = f"{path}.from" if j == 0 else f"{path}.path[{j - 1}]"
            t.reject("move/not-a-province", where, province=pid, hint=board.hint(pid))
            return
    bad = board.path_ok(t.edition.moves_as(unit), start, route)
    if bad is not None:
        a = start if bad == 0 else route[bad - 1]
        t.reject("move/no-border", f"{path}.path[{bad}]", unit=unit, a=a, b=route[bad],
                 why=_border_reason(t, unit, a, route[bad]))
        return
    need = len(route)
    able = [a for a in f.units(start, unit) if a >= need]
    if len(able) < count:
        t.reject("move/not-enough-units", f"{path}.count", nation=t.nation, unit=unit, at=start,
                 need=need, count=count, reason=_why_not_moving(t, f, unit, start, need, len(able)))
        return
    moving = _choose(able, count, step.get("which"))
    if "which" not in step and len(set(able)) > 1 and count < len(able):
        t.note_default(f"{path}.which", f"the {_plural(count, unit)} moving from {t.display(start)} are those "
                       "with the fewest steps left (no \"which\" given; \"which\": \"fresh\" sends the others)")
    f.take(start, unit, moving)
    here = start
    for j, pid in enumerate(route):
        moving = [a - 1 for a in moving]
        f.put(pid, unit, moving)
        here = pid
        own = t.edition.forces.entry_battles(t, f, pid, unit, moving)
        moving = _entry_battles(t, f, pid, unit, moving) if own is None else own
        if not moving:
            break
        if j < len(route) - 1:  # passing through (a path may come back to a province)
            f.take(pid, unit, moving)
    t.emit("move", unit=unit, count=count, **{"from": start}, path=list(route), to=here,
           arrived=len(moving))


def _entry_battles(t: TurnView, f: Forces, pid: str, unit: str, moving: list[int]) -> list[int]:
    """The battles the moving units fight on entering ``pid`` (demanded, D1; automatic in
    an edition with automatic battles); return the actions left of those still moving."""
    for other in _demanders(t, pid, unit):
        k = min(len(moving), t.state.provinces[pid].count(other, unit))
        if k == 0:
            continue
        t.state.province(pid).add(other, unit, -k)
        lost = moving[:k]
        f.take(pid, unit, lost)
        moving = moving[k:]
        # Automatic battles: the nation that moves in fights (001 L350).
        _battle_event(t, pid, unit, other, k, started_by=t.nation if t.edition.forces.automatic_battles else other)
        t.edition.forces.units_lost(t, other, unit, k, pid)
        t.edition.forces.units_lost(t, t.nation, unit, k, pid)
    return moving


def _battle(t: TurnView, f: Forces, step: dict[str, Any], path: str) -> dict[str, Any]:
    unit, at, other = step["battle"], step["at"], step["against"]
    echo = dict(step)
    if not t.board.is_province(at):
        t.reject("move/not-a-province", f"{path}.at", province=at, hint=t.board.hint(at))
        return echo
    if other == t.nation:
        t.reject("battle/self", f"{path}.against")
        return echo
    own = len(f.units(at, unit))
    prov = t.state.provinces.get(at)
    theirs = prov.count(other, unit) if prov else 0
    if not own:
        t.reject("battle/no-units", f"{path}.at", nation=t.nation, unit=unit, at=at)
        return echo
    if not theirs:
        t.reject("battle/no-enemy", f"{path}.against", against=other, unit=unit, at=at)
        return echo
    most = min(own, theirs)
    count = step.get("count", most)
    if "count" not in step:
        t.note_default(f"{path}.count", f"the battle in {t.display(at)} is fought by {_plural(most, unit)} a side, "
                       "as many as can fight (no \"count\" given)")
    if count > most:
        t.reject("battle/too-many", f"{path}.count", most=most, unit=unit, at=at, count=count)
        return echo
    echo["count"] = count
    f.lose(at, unit, count)
    t.state.province(at).add(other, unit, -count)
    _battle_event(t, at, unit, other, count, started_by=t.nation)
    t.edition.forces.units_lost(t, other, unit, count, at)
    t.edition.forces.units_lost(t, t.nation, unit, count, at)
    return echo


def defence(t: TurnView, city: str) -> int:
    """The defence of ``city`` in the turn's working state."""
    return queries.defence(t.state, t.edition, city)


def _default_give_up(t: TurnView, city: str) -> str:
    """The city a conqueror with no stone left gives up when its orders do not say (D11):
    one without a temple first, then the lowest defence, then the least production (1, or 3
    with a temple), then the first by id (000 L729-733; docs/rulings.md, "Military")."""
    rules = t.rules

    def key(pid: str) -> tuple[bool, int, int, str]:
        temple = t.state.provinces[pid].temple
        production = rules.production_per_temple_city if temple else rules.production_per_city
        return temple, defence(t, pid), production, pid

    return min((p for p in t.state.cities(t.nation) if p != city), key=key)


def _conquer(t: TurnView, f: Forces, step: dict[str, Any], path: str) -> dict[str, Any]:
    """A conquest step: a city (or a neutral temple) that may be conquered
    (:func:`_target`), the units used (:func:`_conquering_units`), the city given up where
    no stone is left (:func:`_given_up`), then the city taken (:func:`_take_city`)."""
    city = step["conquer"]
    echo = dict(step)
    target = _target(t, city, path)
    if target is None:
        return echo
    owner, neutral = target
    strength = defence(t, city)
    used = _conquering_units(t, f, step, city, strength, path)
    if used is None:
        return echo
    if neutral:
        if step.get("give_up") is not None:  # destroying a neutral temple takes no city stone
            t.reject("conquer/give-up-not-needed", f"{path}.give_up", nation=t.nation, stones=t.rules.city_stones)
            return echo
        return _destroy_neutral_temple(t, f, city, strength, used)
    ok, give_up = _given_up(t, step, city, path)
    if not ok:
        return echo
    echo = {"conquer": city, "with": used}
    if give_up is not None:
        echo["give_up"] = give_up
    _take_city(t, f, city, owner, strength, used, give_up)
    return echo


def _target(t: TurnView, city: str, path: str) -> tuple[str | None, bool] | None:
    """The owner of ``city`` and whether a neutral temple stands there, or ``None`` (and the
    rejection) where it cannot be conquered: no province, no city, one's own, the last."""
    if not t.board.is_province(city):
        t.reject("move/not-a-province", f"{path}.conquer", province=city, hint=t.board.hint(city))
        return None
    prov = t.state.provinces.get(city)
    neutral = queries.neutral_temple(t.state, city)
    if (prov is None or prov.owner is None) and not neutral:
        t.reject("conquer/no-city", f"{path}.conquer", city=city)
        return None
    owner = prov.owner
    if owner == t.nation:
        t.reject("conquer/own-city", f"{path}.conquer", city=city, nation=t.nation)
        return None
    if not queries.can_be_conquered(t.state, city):
        t.reject("conquer/last-city", f"{path}.conquer", city=city, owner=owner)
        return None
    return owner, neutral


def _conquering_units(t: TurnView, f: Forces, step: dict[str, Any], city: str, strength: int,
                      path: str) -> dict[str, int] | None:
    """The units that conquer ``city`` (as many as its defence): those ``with`` names, else
    legions first (D4: galleys count towards navigators); ``None`` (and the rejection) where
    too few stand there (with an action left, where a conquest takes one)."""
    uses_action = t.rules.conquest_uses_action
    upright = {u: f.standing(city, u) if uses_action else len(f.units(city, u)) for u in UNITS}
    able = " with an action left" if uses_action else ""  # the words of a refusal

    def why(units: tuple[str, ...]) -> str:
        return _spent(f, city, units) if uses_action else ""
    if "with" in step:
        used = {u: step["with"].get(u, 0) for u in UNITS}
        if sum(used.values()) != strength:
            t.reject("conquer/wrong-strength", f"{path}.with", city=city, defence=strength,
                     used=sum(used.values()))
            return None
        short = [u for u in UNITS if used[u] > upright[u]]
        for u in short:
            t.reject("conquer/not-enough-units", f"{path}.with.{u}", nation=t.nation,
                     have=upright[u], unit=u, city=city, need=used[u], why=why((u,)), able=able)
        return None if short else used
    if sum(upright.values()) < strength:
        t.reject("conquer/cannot-reach", f"{path}.conquer", nation=t.nation,
                 have=sum(upright.values()), city=city, defence=strength, why=why(UNITS), able=able)
        return None
    # D4 (KEEP_GALLEYS): legions go first, galleys count towards navigators.
    legions = min(upright["legion"], strength)
    used = {"legion": legions, "galley": strength - legions}
    if upright["legion"] and upright["galley"]:
        t.note_default(f"{path}.with", f"the conquest of {t.display(city)} uses {_plural(used['legion'], 'legion')} "
                       f"and {_plural(used['galley'], 'galley')} (no \"with\" given: legions first, "
                       "galleys are kept)")
    return used


def _given_up(t: TurnView, step: dict[str, Any], city: str, path: str) -> tuple[bool, str | None]:
    """Whether the conquest may go on, and the city the conqueror gives up for ``city``
    where its stones are all on the board: the orders' ``give_up``, else the default (D11)."""
    stones = len(t.state.cities(t.nation))
    give_up = step.get("give_up")
    if stones >= t.rules.city_stones and give_up is None:
        give_up = _default_give_up(t, city)
        t.note_default(f"{path}.give_up", f"{t.display(give_up)} is given up for {t.display(city)} (no \"give_up\" "
                       "given: a city without a temple first, then the lowest defence, then the least production)")
    elif give_up is not None:
        if stones < t.rules.city_stones:
            t.reject("conquer/give-up-not-needed", f"{path}.give_up", nation=t.nation,
                     stones=t.rules.city_stones)
            return False, None
        gp = t.state.provinces.get(give_up)
        if give_up == city or gp is None or gp.owner != t.nation:
            t.reject("conquer/give-up-invalid", f"{path}.give_up", give_up=give_up, nation=t.nation)
            return False, None
    return True, give_up


def _take_city(t: TurnView, f: Forces, city: str, owner: str | None, strength: int, used: dict[str, int],
               give_up: str | None) -> None:
    """``city`` taken: the conquerors and the defenders leave the board, its temple is
    destroyed (a general), the city given up is left with its temple and chosen type."""
    _remove_conquerors(t, f, city, used)
    prov = t.state.province(city)  # to change (taking the units may already have copied it)
    lost = {u: prov.count(owner, u) for u in UNITS}
    for u in UNITS:
        prov.add(owner, u, -lost[u])
    temple = prov.temple
    if temple:
        prov.temple = False
        t.state.bank.temples += 1
        t.temples_destroyed += 1
    if give_up is not None:
        gp = t.state.province(give_up)
        if gp.temple:
            gp.temple = False
            t.state.bank.temples += 1
        gp.owner = None
        if "resource" in gp.extra:  # a chosen city type goes with the city
            gp.extra = {k: v for k, v in gp.extra.items() if k != "resource"}
    prov.owner = t.nation
    t.emit("conquer", city=city, defender=owner, defence=strength, used=used,
           defender_lost=lost, temple_destroyed=temple, give_up=give_up)


def _remove_conquerors(t: TurnView, f: Forces, city: str, used: dict[str, int]) -> None:
    """The units that conquered leave the board (000 L689-692, 003 L28). In classic each
    used a maneuver action, so only upright ones go (000 L944-948); where a conquest uses
    none, those with the fewest actions left go first."""
    for u in UNITS:
        able = [a for a in f.units(city, u) if a >= 1] if t.rules.conquest_uses_action else list(f.units(city, u))
        f.take(city, u, able[:used[u]])


def _destroy_neutral_temple(t: TurnView, f: Forces, city: str, strength: int, used: dict[str, int]) -> dict[str, Any]:
    """A neutral temple conquered (an edition with neutral temples, 003 L30, L208; docs/rulings.md Q23): the
    attackers that match its defence leave the board, the temple goes back to the bank,
    the conqueror earns a general, and the region is free for a city."""
    _remove_conquerors(t, f, city, used)
    prov = t.state.province(city)
    extra = dict(prov.extra)
    extra.pop("neutral_temple", None)
    prov.extra = extra
    t.state.bank.temples += 1
    t.temples_destroyed += 1
    t.emit("conquer", city=city, defender=None, defence=strength, used=used,
           defender_lost={u: 0 for u in UNITS}, temple_destroyed=True, give_up=None, neutral_temple=True)
    return {"conquer": city, "with": used}


def run_maneuver(t: TurnView, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the maneuver script in order; all movement and battles before any conquest (Q30)."""
    f = Forces(t)
    echo = []
    conquering = False
    for i, step in enumerate(steps):
        path = f"$.maneuver[{i}]"
        if "conquer" in step:
            conquering = True
            own = t.edition.forces.conquer(t, f, step, path)
            echo.append(_conquer(t, f, step, path) if own is None else own)
            continue
        if conquering:
            t.reject("move/after-conquest", path)
            echo.append(dict(step))
            continue
        if "move" in step:
            _move(t, f, step, path)
            echo.append(dict(step))
        else:
            echo.append(_battle(t, f, step, path))
    t.state.prune()
    return echo
