"""What a Duellum turn does beyond the shared rules: town walls on TEMPLUM, recruiting on
SCIENTIA, the recruitment box, its conquest (walls, FORTRESS, no extra movement), event
cards played and drawn, and the end of the turn (personages, the VP track's walls, the
opponent's cards, victory). Every rule cites the English rulebook (key 001).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.special as special
from pbem.editions.duellum.pieces import box, opponent, set_wall, to_box, tokens_used, walls_of
from pbem.editions.duellum.rules import PERSONAGE_RULES as P, RECRUIT_GOLD, SPECIAL_MOVES_AS, WALL_MARKS, WALLS_PER_NATION
from pbem.kernel import queries
from pbem.kernel.actions import BuildTemples, BuyKnowHow
from pbem.kernel.maneuver import _plural, _remove_conquerors, defence
from pbem.kernel.payments import Cost
from pbem.kernel.personages import award
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.state import GameState
    from pbem.kernel.turn import Turn

# -- TEMPLUM: temples and town walls ----------------------------------------------------


class Templum(BuildTemples):
    """TEMPLUM: temples (6 marble and a coin per neighbouring temple, 001 L262) and town
    walls (1 marble each from the nation's supply, one per city, 001 L266)."""

    keys = ("temples", "walls")

    def run(self, t: Turn, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        if "temples" in orders:
            echo["temples"] = self.apply(t, orders["temples"])
        if "walls" in orders:
            echo["walls"] = build_walls(t, orders["walls"])

    def preview(self, state, edition, board, nation, budget):
        out = super().preview(state, edition, board, nation, budget)
        out["walls"] = {"supply": state.nations[nation].extra["walls_supply"], "price": {"marble": 1},
                        "cities": [c for c in state.cities(nation) if not state.provinces[c].extra.get("wall")]}
        return out


def build_walls(t: Turn, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    echo = []
    for i, entry in enumerate(entries):
        path = f"$.walls[{i}]"
        city = entry["city"]
        out = dict(entry)
        echo.append(out)
        prov = t.state.provinces.get(city)
        if prov is None or prov.owner != t.nation:
            t.reject("wall/not-own-city", f"{path}.city", city=city, nation=t.nation)
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


def temple_surcharge(t: Turn, city: str) -> int:
    """001 L262: "1 coin must be paid for each temple that already exists in an adjacent
    region (both your own and opponent's temples)", counted when this temple is built."""
    here = t.board.province(city)
    return sum(1 for p in here.land | here.sea if (prov := t.state.provinces.get(p)) is not None and prov.temple)


# -- SCIENTIA: know-how and recruiting --------------------------------------------------


class Scientia(BuyKnowHow):
    """SCIENTIA: know-hows in any order (001 L319) and/or recruiting from the supply into
    the recruitment box (001 L338-340)."""

    keys = ("knowhow", "recruit")

    def run(self, t: Turn, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        if "knowhow" in orders:
            echo["knowhow"] = self.apply(t, orders["knowhow"])
        if "recruit" in orders:
            echo["recruit"] = recruit(t, orders["recruit"])

    def preview(self, state, edition, board, nation, budget):
        out = super().preview(state, edition, board, nation, budget)
        out["recruit"] = {"supply": {u: queries.stock(state, edition, nation, u) for u in UNITS},
                          "price": {u: {"gold": RECRUIT_GOLD[u]} for u in UNITS}}
        return out


def recruit(t: Turn, order: dict[str, Any]) -> dict[str, Any]:
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
    what = " and ".join(_plural(n, u) for u, n in counts.items() if n)
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


def armed(t: Turn, unit: str, at: str, count: int) -> None:
    """The armed units leave the box; a hostile unit of the same type in that region
    fights each at once, 1 for 1, both back into their boxes, and such a unit cannot be
    armed again this turn (001 L289)."""
    held = dict(box(t.state, t.nation))
    held[unit] -= count
    t.ns.extra["recruitment"] = held
    if unit in SPECIAL_MOVES_AS:
        return  # 001 L439: a special unit is killed only in the movement phase
    other = opponent(t.state, t.nation)
    prov = t.state.provinces[at]
    k = min(count, prov.count(other, unit))
    if k:
        here = t.state.province(at)
        here.add(other, unit, -k)
        here.add(t.nation, unit, -k)
        to_box(t.state, other, unit, k)
        to_box(t.state, t.nation, unit, k)
        t.emit("battle", at=at, unit=unit, against=other, count=k, started_by=t.nation)


# -- the conquest -----------------------------------------------------------------------


def conquer(t: Turn, f, step: dict[str, Any], path: str) -> dict[str, Any] | None:
    """A Duellum conquest (001 L354-369): every own unit in the region counts; defence as
    the shared rule plus the wall (:meth:`Duellum.defence_bonus`); the units used and every
    defending unit go into their boxes, a temple to the bank, a wall to its owner's supply;
    the token is turned. FORTRESS (001 L429) is played by the defender's standing order."""
    city = step["conquer"]
    prov = t.state.provinces.get(city)
    if not t.board.is_province(city) or prov is None or prov.owner is None or prov.owner == t.nation \
            or not queries.can_be_conquered(t.state, city):
        return None  # the shared rule refuses it in its own words
    owner = prov.owner
    # docs/duellum.md: a conquest uses at least one unit, the Commander's -1 notwithstanding
    seen = max(1, defence(t, city) - special.attack_relief(t, city))
    here = {u: len(f.units(city, u)) for u in UNITS}
    specials = [u for u in step.get("with", {}) if u not in UNITS and step["with"][u]]
    if specials:  # docs/rulings.md Q33: it helps (-1 defence), it is not one of the units used
        t.reject("conquer/special-not-used", f"{path}.with.{specials[0]}", unit=specials[0])
        return dict(step)
    if "with" in step:
        used = {u: step["with"].get(u, 0) for u in UNITS}
        if sum(used.values()) != seen:
            t.reject("conquer/wrong-strength", f"{path}.with", city=city, defence=seen, used=sum(used.values()))
            return dict(step)
        short = [u for u in UNITS if used[u] > here[u]]
        for u in short:
            t.reject("conquer/not-enough-units", f"{path}.with.{u}", nation=t.nation, have=here[u], unit=u,
                     city=city, need=used[u], why="", able="")
        if short:
            return dict(step)
    else:
        if sum(here.values()) < seen:
            t.reject("conquer/cannot-reach", f"{path}.conquer", nation=t.nation, have=sum(here.values()), city=city,
                     defence=seen, why="", able="")
            return dict(step)
        legions = min(here["legion"], seen)  # D4: legions go first, galleys count towards navigators
        used = {"legion": legions, "galley": seen - legions}
        if here["legion"] and here["galley"]:
            t.note_default(f"{path}.with", f"the conquest of {t.display(city)} uses {_plural(used['legion'], 'legion')} "
                           f"and {_plural(used['galley'], 'galley')} (no \"with\" given: legions first, galleys are kept)")
    echo = {"conquer": city, "with": used}
    if fortress_played(t, owner):
        spare = {u: here[u] - used[u] for u in UNITS}
        if not any(spare.values()):
            # 001 L429: "the city remains safe and all units remain in the region".
            t.emit("fortress", city=city, defender=owner, held=True)
            return echo
        extra = "legion" if spare["legion"] else "galley"
        used = {**used, extra: used[extra] + 1}
        t.emit("fortress", city=city, defender=owner, held=False, lost=extra)
    _remove_conquerors(t, f, city, used)
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
    return echo


def defence_shown(seen: int, used: dict[str, int]) -> int:
    """The defence the attacker beat: what it saw, or one more with FORTRESS."""
    return max(seen, sum(used.values()))


def fortress_played(t: Turn, defender: str) -> bool:
    """Whether ``defender`` plays FORTRESS now: it holds one and its standing order says
    ``always`` (docs/orders.md; D10 in docs/rulings.md). The card is discarded."""
    if t.state.standing[defender].extra.get("fortress", "always") != "always":
        return False
    known = cards.catalogue(t.state.table.data)
    hand = t.state.nations[defender].extra["hand"]
    for cid in hand:
        effect = known.get(cid, {}).get("effect") or {}
        if effect.get("kind") == "fortress":
            new_hand = list(hand)
            new_hand.remove(cid)
            t.state.nation(defender).extra["hand"] = new_hand
            discard(t.state, cid)
            return True
    return False


def discard(state: GameState, cid: str) -> None:
    state.extra["discards"] = [*state.extra["discards"], cid]


# -- event cards: played on one's own turn ----------------------------------------------


def play_cards(t: Turn, orders: dict[str, Any], echo: dict[str, Any]) -> None:
    """The ``events`` of an order file: cards from the hand, in the order given, before the
    rondel move (001 L427-429)."""
    if "events" not in orders:
        return
    known = cards.catalogue(t.state.table.data)
    out = []
    for i, entry in enumerate(orders["events"]):
        path = f"$.events[{i}]"
        out.append(dict(entry))
        cid = entry["play"]
        hand = t.state.nations[t.nation].extra["hand"]
        if cid not in hand:
            t.reject("card/not-in-hand", f"{path}.play", nation=t.nation, card=cards.describe(known.get(cid), cid))
            continue
        effect = (known.get(cid) or {}).get("effect") or {}
        if not _card_effect(t, effect, entry, path, orders, cards.describe(known.get(cid), cid)):
            continue
        new_hand = list(hand)
        new_hand.remove(cid)
        t.ns.extra["hand"] = new_hand
        discard(t.state, cid)
    echo["events"] = out


def _card_effect(t: Turn, effect: dict[str, Any], entry: dict[str, Any], path: str,
                 orders: dict[str, Any], name: str) -> bool:
    """Carry out a card's effect; ``False`` (and a rejection) if it cannot be played now."""
    kind = effect.get("kind")
    other = opponent(t.state, t.nation)
    extra_keys = [k for k in entry if k not in ("play", "city")] + (["city"] if "city" in entry and kind != "destroy_wall" else [])
    if extra_keys:
        t.reject("card/field", f"{path}.{extra_keys[0]}", card=name, field=extra_keys[0])
        return False
    if kind == "fortress":
        t.reject("card/not-now", f"{path}.play", card=name)
        return False
    if kind == "destroy_wall":
        city = entry.get("city")
        prov = t.state.provinces.get(city) if city else None
        if prov is None or not prov.extra.get("wall"):
            t.reject("card/no-wall", f"{path}.city", card=name, city=city or "(no city named)")
            return False
        set_wall(t.state, city, False)
        t.state.nation(prov.owner).extra["walls_supply"] += 1
        t.emit("card", card=entry["play"], city=city, owner=prov.owner)
        return True
    if kind == "halve_coins":
        lost = t.state.nations[other].coins // 2
        t.state.nation(other).coins -= lost
        t.state.bank.coins += lost
        t.emit("card", card=entry["play"], against=other, coins=lost)
        return True
    if kind == "gold_per_knowhow":
        wedge = t.edition.rondel.canonical(orders["rondel"]["to"])
        if wedge != "scientia":
            t.reject("card/not-scientia", f"{path}.play", card=name)
            return False
        gold = len(t.state.nations[other].knowhow)
        t.ns.resources["gold"] += gold
        t.emit("card", card=entry["play"], gold=gold)
        return True
    if kind == "gain":
        for chip, n in effect.get("chips", {}).items():
            t.ns.resources[chip] += n
        coins = min(effect.get("coins", 0), t.state.bank.coins)
        t.ns.coins += coins
        t.state.bank.coins -= coins
        t.emit("card", card=entry["play"], chips=dict(effect.get("chips", {})), coins=coins)
        return True
    if kind == "opponent_pays":
        theirs = t.state.nation(other)
        taken = {}
        for chip, n in effect.get("chips", {}).items():
            taken[chip] = min(n, theirs.resources[chip])
            theirs.resources[chip] -= taken[chip]
        coins = min(effect.get("coins", 0), theirs.coins)
        theirs.coins -= coins
        t.state.bank.coins += coins
        t.emit("card", card=entry["play"], against=other, chips=taken, coins=coins)
        return True
    t.reject("card/unknown-effect", f"{path}.play", card=name)
    return False


# -- event cards: drawn -----------------------------------------------------------------


def draw(state: GameState, nation: str, reason: str, events: list[dict[str, Any]]) -> None:
    """``nation`` takes a card from the open display: the first its standing ``draw`` list
    names, else the first of the display (D9); the display is refilled at once from the
    deck, the discards shuffled into a new deck when it is empty (001 L419, L431)."""
    display = list(state.extra["display"])
    if not display:
        events.append({"type": "draw-missed", "nation": nation, "reason": reason})
        return
    wanted = state.standing[nation].extra.get("draw", [])
    slot = next((display.index(c) for c in wanted if c in display), 0)
    card = display[slot]
    deck = list(state.extra["deck"])
    if not deck and state.extra["discards"]:
        state.extra["shuffles"] += 1
        deck = cards.shuffled(sorted(state.extra["discards"]), state.extra["secret"], state.extra["shuffles"])
        state.extra["discards"] = []
        events.append({"type": "shuffle", "cards": len(deck)})
    if deck:
        display[slot] = deck.pop(0)
    else:
        del display[slot]
    state.extra["deck"] = deck
    state.extra["display"] = display
    held = state.nation(nation).extra
    held["hand"] = [*held["hand"], card]
    events.append({"type": "draw", "nation": nation, "card": card, "reason": reason, "display": list(display)})


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


def end_of_turn(t: Turn) -> None:
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
        draw(st, other, "lost a city", t.events)
    for _ in range(gained):
        draw(st, other, "the opponent won a personage", t.events)
    points = ns.personage_count()
    if points >= st.table.goal:
        st.status.winner = t.nation
        t.emit("won", score=points, goal=st.table.goal)


def move_marker(t: Turn, nation: str) -> None:
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



__all__ = ["box", "opponent", "set_wall", "to_box", "tokens_used", "walls_of"]
"""Re-exported from :mod:`.pieces` for readers of a turn."""
