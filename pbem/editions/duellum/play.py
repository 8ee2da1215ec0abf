"""What a Duellum turn does beyond the shared rules: town walls on TEMPLUM, recruiting on
SCIENTIA, the recruitment box, its conquest (walls, FORTRESS, no extra movement), event
cards played and drawn, and the end of the turn (personages, the VP track's walls, the
opponent's cards, victory). Every rule cites the English rulebook (key 001).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.special as special
from pbem.editions.duellum.cardplay import arm_fight, defence_card
from pbem.editions.duellum.deck import discard, draw
from pbem.editions.duellum.pieces import box, opponent, set_wall, to_box, tokens_used, walls_of
from pbem.editions.duellum.rules import PERSONAGE_RULES as P
from pbem.editions.duellum.rules import RECRUIT_GOLD, WALL_MARKS, WALLS_PER_NATION
from pbem.kernel import queries
from pbem.kernel.actions import BuildTemples, BuyKnowHow
from pbem.kernel.maneuver import defence, plural_of, remove_conquerors
from pbem.kernel.payments import Cost
from pbem.kernel.personages import award
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView
    from pbem.kernel.state import GameState

# -- TEMPLUM: temples and town walls ----------------------------------------------------


class Templum(BuildTemples):
    """TEMPLUM: temples (6 marble and a coin per neighbouring temple, 001 L262) and town
    walls (1 marble each from the nation's supply, one per city, 001 L266)."""

    keys = ("temples", "walls")

    def run(self, t: TurnView, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        if "temples" in orders:
            echo["temples"] = self.apply(t, orders["temples"])
        if "walls" in orders:
            echo["walls"] = build_walls(t, orders["walls"])

    def preview(self, state, edition, board, nation, budget):
        out = super().preview(state, edition, board, nation, budget)
        out["walls"] = {"supply": state.nations[nation].extra["walls_supply"], "price": {"marble": 1},
                        "cities": [c for c in state.cities(nation) if not state.provinces[c].extra.get("wall")]}
        return out


def build_walls(t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    echo = []
    for i, entry in enumerate(entries):
        path = f"$.walls[{i}]"
        city = entry["city"]
        out = dict(entry)
        echo.append(out)
        prov = t.state.provinces.get(city)
        if prov is None or prov.owner != t.nation:
            t.reject("wall/not-own-city", f"{path}.city", city=city, nation=t.nation, hint=t.hint(city))
            continue
        if prov.extra.get("wall"):
            t.reject("wall/already", f"{path}.city", city=city)
            continue
        supply = t.state.nations[t.nation].extra["walls_supply"]
        if supply <= 0:
            t.reject("wall/none-left", f"{path}.city", nation=t.nation)
            continue
        paid = t.pay(Cost.of(marble=1), entry.get("pay"), f"a town wall in {t.display(city)}", path)
        if paid is None:
            continue
        out["pay"] = paid
        t.ns.extra["walls_supply"] = supply - 1
        set_wall(t.state, city, True)
        t.emit("wall", city=city, paid=paid)
    return echo


def temple_surcharge(t: TurnView, city: str) -> int:
    """001 L262: "1 coin must be paid for each temple that already exists in an adjacent
    region (both your own and opponent's temples)", counted when this temple is built."""
    here = t.board.province(city)
    return sum(1 for p in here.land | here.sea if (prov := t.state.provinces.get(p)) is not None and prov.temple)


# -- SCIENTIA: know-how and recruiting --------------------------------------------------


class Scientia(BuyKnowHow):
    """SCIENTIA: know-hows in any order (001 L319) and/or recruiting from the supply into
    the recruitment box (001 L338-340)."""

    keys = ("knowhow", "recruit")

    def run(self, t: TurnView, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        if "knowhow" in orders:
            echo["knowhow"] = self.apply(t, orders["knowhow"])
        if "recruit" in orders:
            echo["recruit"] = recruit(t, orders["recruit"])

    def preview(self, state, edition, board, nation, budget):
        out = super().preview(state, edition, board, nation, budget)
        out["recruit"] = {"supply": {u: queries.stock(state, edition, nation, u) for u in UNITS},
                          "price": {u: {"gold": RECRUIT_GOLD[u]} for u in UNITS}}
        return out


def recruit(t: TurnView, order: dict[str, Any]) -> dict[str, Any]:
    """001 L340: units from the personal supply into the box, 1 gold a legion, 2 a galley."""
    echo = dict(order)
    counts = {u: order.get(u, 0) for u in UNITS}
    short = False
    for u in UNITS:
        left = queries.stock(t.state, t.edition, t.nation, u)
        if counts[u] > left:
            t.reject("recruit/no-supply", f"$.recruit.{u}", nation=t.nation, left=left, unit=u, asked=counts[u])
            short = True
    if short or not any(counts.values()):
        return echo
    gold = sum(RECRUIT_GOLD[u] * n for u, n in counts.items())
    what = " and ".join(plural_of(n, u) for u, n in counts.items() if n)
    paid = t.pay(Cost.of(gold=gold), order.get("pay"), f"recruiting {what}", "$.recruit")
    if paid is None:
        return echo
    echo["pay"] = paid
    for u, n in counts.items():
        if n:
            to_box(t.state, t.nation, u, n)
    t.emit("recruit", units={u: n for u, n in counts.items() if n}, paid=paid)
    return echo


# -- MILITIA: from the box, with a fight at once ----------------------------------------


def armed(t: TurnView, unit: str, at: str, count: int) -> None:
    """The armed units leave the box; a hostile unit of the same type in that region
    fights each at once, 1 for 1, both back into their boxes, and such a unit cannot be
    armed again this turn (001 L289)."""
    held = dict(box(t.state, t.nation))
    held[unit] -= count
    t.ns.extra["recruitment"] = held
    arm_fight(t, t.nation, unit, at, count)


# -- the conquest -----------------------------------------------------------------------


def conquer(t: TurnView, f, step: dict[str, Any], path: str) -> dict[str, Any] | None:
    """A Duellum conquest (001 L354-369): every own unit in the region counts; defence as
    the shared rule plus the wall (:meth:`.turn.DuellumForces.defence_bonus`); the units
    used and every defending unit go into their boxes, a temple to the bank, a wall to its
    owner's supply; the token is turned. FORTRESS (001 L429), or another card a GM entered for the
    opponent's conquest, is played by the defender's standing order; an event card the
    attacker played for this conquest changes the defence it sees."""
    city = step["conquer"]
    prov = t.state.provinces.get(city)
    if not t.board.is_province(city) or prov is None or prov.owner is None or prov.owner == t.nation \
            or not queries.can_be_conquered(t.state, city):
        return None  # the shared rule refuses it in its own words
    owner = prov.owner
    # docs/duellum.md: a conquest uses at least one unit, the Commander's -1 notwithstanding
    changed = t.extra.get("defence_change", {}).pop(city, 0)  # an event card's, for one conquest
    seen = max(1, defence(t, city) - special.attack_relief(t, city) + changed)
    here = {u: len(f.units(city, u)) for u in UNITS}
    used = _units_used(t, step, city, seen, here, path)
    if used is None:
        return dict(step)
    echo = {"conquer": city, "with": used}
    used = _defence_card(t, city, owner, used, here)
    if used is not None:
        _take(t, f, city, owner, seen, used)
    return echo


def _units_used(t: TurnView, step: dict[str, Any], city: str, seen: int, here: dict[str, int],
                path: str) -> dict[str, int] | None:
    """The units that conquer, as many as the defence the attacker sees (every own unit in
    the region counts): those ``with`` names, else legions first; ``None`` (and the
    rejection) where too few stand there or ``with`` names a special unit."""
    specials = [u for u in step.get("with", {}) if u not in UNITS and step["with"][u]]
    if specials:  # docs/rulings.md Q33: it helps (-1 defence), it is not one of the units used
        t.reject("conquer/special-not-used", f"{path}.with.{specials[0]}", unit=specials[0])
        return None
    if "with" in step:
        used = {u: step["with"].get(u, 0) for u in UNITS}
        if sum(used.values()) != seen:
            t.reject("conquer/wrong-strength", f"{path}.with", city=city, defence=seen, used=sum(used.values()))
            return None
        short = [u for u in UNITS if used[u] > here[u]]
        for u in short:
            t.reject("conquer/not-enough-units", f"{path}.with.{u}", nation=t.nation, have=here[u], unit=u,
                     city=city, need=used[u], why="", able="")
        return None if short else used
    if sum(here.values()) < seen:
        t.reject("conquer/cannot-reach", f"{path}.conquer", nation=t.nation, have=sum(here.values()), city=city,
                 defence=seen, why="", able="")
        return None
    legions = min(here["legion"], seen)  # D4: legions go first, galleys count towards navigators
    used = {"legion": legions, "galley": seen - legions}
    if here["legion"] and here["galley"]:
        t.note_default(f"{path}.with", f"the conquest of {t.display(city)} uses "
                       f"{plural_of(used['legion'], 'legion')} and {plural_of(used['galley'], 'galley')} "
                       "(no \"with\" given: legions first, galleys are kept)")
    return used


def _defence_card(t: TurnView, city: str, owner: str, used: dict[str, int],
                  here: dict[str, int]) -> dict[str, int] | None:
    """FORTRESS (or another card for the opponent's conquest) played by the defender's
    standing order: the city holds where the attacker has too few units left over (``None``),
    else the units used grow by the card's change (a legion first)."""
    spare = {u: here[u] - used[u] for u in UNITS}
    played = defence_card(t, owner, sum(spare.values()))
    if played is None:
        return used
    cid, change = played
    shown = {} if t.state.table.revision < cards.PRINTED_DECK else {"card": cid, "change": change}
    if sum(spare.values()) < change:
        # 001 L429: "the city remains safe and all units remain in the region".
        t.emit("fortress", city=city, defender=owner, held=True, **shown)
        return None
    more = {"legion": min(spare["legion"], change)}  # a legion first, as for the units used (D4)
    more["galley"] = change - more["legion"]
    used = {u: used[u] + more[u] for u in UNITS}
    lost = next(u for u in UNITS if more[u]) if not shown else {u: n for u, n in more.items() if n}
    t.emit("fortress", city=city, defender=owner, held=False, lost=lost, **shown)
    return used


def _take(t: TurnView, f, city: str, owner: str, seen: int, used: dict[str, int]) -> None:
    """``city`` taken: the units used and every defending unit go into their boxes, a temple
    to the bank, a wall to its owner's supply (001 L367); the loser draws a card later."""
    remove_conquerors(t, f, city, used)
    for u, n in used.items():
        if n:
            to_box(t.state, t.nation, u, n)
    prov = t.state.province(city)
    lost = {u: prov.count(owner, u) for u in UNITS}
    for u in UNITS:
        if lost[u]:
            prov.add(owner, u, -lost[u])
            to_box(t.state, owner, u, lost[u])
    temple = prov.temple
    if temple:
        prov.temple = False
        t.state.bank.temples += 1
        t.temples_destroyed += 1
    wall = bool(prov.extra.get("wall"))
    if wall:  # 001 L367: "A town wall is destroyed as well and returned to its player's personal supply."
        set_wall(t.state, city, False)
        t.state.nation(owner).extra["walls_supply"] += 1
    t.state.province(city).owner = t.nation
    t.extra.setdefault("lost_city", []).append(owner)
    t.emit("conquer", city=city, defender=owner, defence=defence_shown(seen, used), used=used,
           defender_lost=lost, temple_destroyed=temple, wall_destroyed=wall)


def defence_shown(seen: int, used: dict[str, int]) -> int:
    """The defence the attacker beat: what it saw, or more with FORTRESS."""
    return max(seen, sum(used.values()))


# -- the end of the turn ----------------------------------------------------------------


def sea_points(state: GameState, board, nation: str) -> int:
    """Regions holding an own galley, a region without a city site counting double (001
    L165; Q34 in docs/rulings.md; an Admiral is no galley, Q33)."""
    points = 0
    for pid, prov in state.provinces.items():
        held = prov.units.get(nation)
        if held and held.get("galley"):
            points += 2 if board.province(pid).double else 1
    return points


def end_of_turn(t: TurnView) -> None:
    """001 L207-211: personages at the end of the turn, the VP marker and its town walls;
    the opponent's event cards (001 L369, L423); the winner (001 L129)."""
    st, ns = t.state, t.ns
    before = ns.personage_count()
    cities, temples, _ = st.holdings(t.nation)
    award(t, "king", cities // P.king_every - ns.earned["king"], f"{cities} cities")
    award(t, "citizen", temples // P.citizen_every - ns.earned["citizen"], f"{temples} temples")
    award(t, "scholar", len(t.firsts), "first to develop " + ", ".join(t.edition.knowhows[k] for k in t.firsts))
    award(t, "general", t.temples_destroyed, "temple destroyed")
    seas = sea_points(st, t.board, t.nation)
    reached = sum(1 for threshold in P.navigator_thresholds if seas >= threshold)
    award(t, "navigator", reached - ns.earned["navigator"], f"{seas} sea areas (seas without a city count double)")
    gained = ns.personage_count() - before
    move_marker(t, t.nation)
    other = opponent(st, t.nation)
    if other in t.extra.get("lost_city", []):
        draw(st, other, "lost a city", t.events, t.chance)
    for _ in range(gained):
        draw(st, other, "the opponent won a personage", t.events, t.chance)
    points = ns.personage_count()
    if points >= st.table.goal:
        st.status.winner = t.nation
        t.emit("won", score=points, goal=st.table.goal)


def move_marker(t: TurnView, nation: str) -> None:
    """The VP marker goes to the personages held; each wall symbol reached or passed puts
    a town wall into the supply (001 L211: "from 1 to 3, he receives 2 town walls")."""
    ns = t.state.nation(nation)
    old, new = ns.extra["vp"], ns.personage_count()
    if new <= old:
        return
    # A GM may have put walls into the game by an edit: the track then gives only what a
    # nation still lacks of its six (never a seventh wall).
    built = len(walls_of(t.state, nation))
    walls = min(sum(1 for mark in WALL_MARKS if old < mark <= new),
                WALLS_PER_NATION - built - ns.extra["walls_supply"])
    ns.extra["vp"] = new
    if walls > 0:
        ns.extra["walls_supply"] += walls
        t.emit("walls", count=walls, vp=new)



__all__ = ["box", "discard", "draw", "opponent", "set_wall", "to_box", "tokens_used", "walls_of"]
"""Re-exported from :mod:`.pieces` and :mod:`.deck` for readers of a turn."""
