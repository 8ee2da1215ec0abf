"""How the bots play an edition with a recruitment box, town walls, event cards and
automatic battles (Antike Duellum): the edition's :meth:`bot_strategy
<pbem.editions.duellum.Duellum.bot_strategy>`, which the shared bot
(:mod:`pbem.play.bot`) asks for.

The bot recruits into the box and arms from it, builds town walls, plays the event cards
it holds, sets its standing orders for FORTRESS and the cards it draws, chooses the
resource of a new city with the coin surcharge in mind, and on the maneuver wedge plans a
campaign (conquests, settlers to free city sites, galleys spread over the seas, the rest
marching on the rival) in which every move comes before every conquest and no path crosses
hostile units of its type (battles there are automatic).

The shared bot hands every function here a *builder*: one order file growing addition by
addition, each checked by the rules. It has ``game`` (as the nation may see it),
``nation``, ``orders``, ``result`` (the resolved turn so far), ``try_add(key, item)``,
``try_set(key, value)``, ``try_orders(orders)`` and ``random_moves(rng, eager)``; the
greedy turn gets a function making a fresh builder for a rondel move. This module never
imports the bot, so the layers stay as they are (editions below play).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pbem.editions.duellum.play import sea_points
from pbem.editions.duellum.rules import SPECIAL_MOVES_AS
from pbem.kernel import queries
from pbem.kernel.turn import Turn
from pbem.kernel.vocab import RESOURCES, UNITS


class DuellumStrategy:
    """The bot play of Antike Duellum, as the shared bot asks an edition's strategy."""

    def fill(self, b, rng: random.Random, eager: float, greedy: bool = False, march: bool = False) -> None:
        """Add the wedge's action, cards, foundings and standing orders to ``b``'s rondel
        move (:func:`_fill`)."""
        _fill(b, rng, eager, greedy, march)

    def greedy_turn(self, game, nation: str, rng: random.Random, choices, builder) -> dict[str, Any] | None:
        """The greedy turn (:func:`_greedy`), or ``None`` when no rondel target is worth a
        try (the GM default turn then)."""
        return _greedy(game, nation, rng, choices, builder)

    def quick_turn(self, game, nation: str, rng: random.Random, choices, builder) -> dict[str, Any] | None:
        """The greedy turn as the searching bot's look-ahead plays it: every rondel target
        filled in its first way only, at about a third of the cost."""
        return _greedy(game, nation, rng, choices, builder, quick=True)

    def standing(self, game, state, nation: str) -> float:
        """How well ``nation`` stands in ``state`` by the greedy bot's value of a turn's
        outcome (:func:`_value`: personages, then cities, temples, units, walls, pressure
        on the rival, seas while they pay, less what the rival holds): the searching bot's
        value at the end of a look-ahead. ``game`` gives the board and the edition."""
        at = _Outcome(game.board, game.edition, state)
        return _value(at, nation, at)


@dataclass(frozen=True)
class _Outcome:
    """A state with its board and edition, read as both the game and the turn's result by
    :func:`_value`."""

    board: Any
    edition: Any
    state: Any


STRATEGY = DuellumStrategy()


def _other(st, nation: str) -> str:
    return next(n for n in st.table.seats if n != nation)


def _box(st, nation: str) -> dict[str, int]:
    return dict(st.nations[nation].extra.get("recruitment", {}))


def _cards(game, st) -> dict[str, dict[str, Any]]:
    """Card id -> the card as data (its moments, wedge and steps: the edition's
    :meth:`card_play <pbem.kernel.edition.Edition.card_play>`), for every card of this game
    that can be played; memoised per game and deck."""
    key = (st.table, tuple(sorted(game.edition.event_cards(st.table.data))))
    if _CARDS.get("key") != key:
        _CARDS.clear()
        _CARDS["key"] = key
        _CARDS["cards"] = {cid: card for cid in game.edition.event_cards(st.table.data)
                           if (card := game.edition.card_play(cid, st.table)) is not None}
    return _CARDS["cards"]


_CARDS: dict[str, Any] = {}


def _defends(card: dict[str, Any]) -> int:
    """How much a card raises the defence of a city the opponent conquers (FORTRESS: 1);
    0 for a card not played then."""
    if card["when"] != ["opponent_conquest"]:
        return 0
    return sum(s["change"] for s in card["steps"] if s["kind"] == "defence")


def _routes(game, st, nation: str, start: str, unit: str, steps: int) -> dict[str, list[str]]:
    """Where a unit of ``unit`` in ``start`` can get to in ``steps`` crossings without
    passing through a region with hostile units of its type (a battle there is automatic,
    001 L350); such a region may be the end of the path: destination -> path."""
    seen = {start: []}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for here in frontier:
            if here != start and _hostile(st, nation, here, unit):
                continue  # a battle would stop the way here
            for p in sorted(game.board.province(here).neighbours(unit)):
                if p not in seen:
                    seen[p] = [*seen[here], p]
                    nxt.append(p)
        frontier = nxt
    del seen[start]
    return seen


def _pieces(prov, nation: str) -> list[str]:
    """The kinds of unit ``nation`` has in a province: legions, galleys, then a special
    unit of the variant (Duellum's Admiral or Commander)."""
    held = prov.units.get(nation, {})
    return [u for u in (*UNITS, *SPECIAL_MOVES_AS) if held.get(u)]


def _hostile(st, nation: str, pid: str, unit: str) -> int:
    """The rival's units in ``pid`` that a unit of ``unit`` fights on entering: those of
    its type, a special unit moving as that type included (001 L350, L439)."""
    prov = st.provinces.get(pid)
    if prov is None:
        return 0
    other = _other(st, nation)
    kind = SPECIAL_MOVES_AS.get(unit, unit)
    return sum(n for u, n in prov.units.get(other, {}).items() if SPECIAL_MOVES_AS.get(u, u) == kind)


def _threatened(game, st, nation: str) -> set[str]:
    """Own cities that the rival's units could take next turn: enough of its units within
    a move of the city to meet its defence."""
    other = _other(st, nation)
    reach: dict[str, int] = {}
    for pid, prov in st.provinces.items():
        for unit in _pieces(prov, other):
            n = prov.count(other, unit) if unit in UNITS else 1  # a special unit: the defence 1 lower
            if n:
                steps = queries.allowance(st, game.edition, other, unit)
                for dest in [pid, *queries.reachable(game.board, pid, unit, steps)]:
                    reach[dest] = reach.get(dest, 0) + n
    return {c for c in st.cities(nation) if reach.get(c, 0) >= queries.defence(st, game.edition, c) - 1
            and reach.get(c, 0)}


_SEAS_PAY: dict[tuple, tuple[Any, bool]] = {}
"""The last answer of :func:`_seas_pay`, by (state, nation), with the state it was asked of."""


def _seas_pay(game, st, nation: str) -> bool:
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
            game.edition.end_of_turn(t)
            counts.append(t.state.nations[nation].personage_count())
        _SEAS_PAY[key] = (st, counts[1] > counts[0])
    return _SEAS_PAY[key][1]


def _fortress_risk(game, st, nation: str) -> bool:
    """Whether the rival may hold FORTRESS: it holds cards, and not every FORTRESS of the
    game is in sight (the display, the discards, the bot's own hand)."""
    other = _other(st, nation)
    if not st.nations[other].extra.get("hand"):
        return False
    shields = {cid for cid, card in _cards(game, st).items() if _defends(card) > 0}
    catalogue = game.edition.event_cards(st.table.data)
    total = sum(catalogue[cid].get("count", 1) for cid in shields)
    seen = [*st.extra.get("display", []), *st.extra.get("discards", []), *st.nations[nation].extra.get("hand", [])]
    return sum(1 for cid in seen if cid in shields) < total


def _fill(b, rng: random.Random, eager: float, greedy: bool, march: bool,
               hold_seas: bool = True) -> None:
    """A Duellum turn on the wedge of ``b``'s rondel move: cards first (they are played
    before the move), the wedge's action, cities founded, standing orders. ``greedy`` plans
    the action for its gain; otherwise each addition is tried with the chance ``eager``."""
    game, nation = b.game, b.nation
    edition = game.edition
    keys = edition.rondel[b.result.state.nations[nation].rondel].action.keys
    if "events" in edition.turn_keys:
        _play_cards(b, rng, eager, greedy, keys)
    if "temples" in keys:
        _temples_and_walls(b, rng, eager, greedy)
    if "arm" in keys:
        _arm_from_box(b, rng, eager, greedy)
    if "knowhow" in keys:
        _knowhow_and_recruit(b, rng, eager, greedy)
    if "maneuver" in keys:
        if greedy or march:
            _campaign(b, rng, attack=greedy, advance=march, hold_seas=hold_seas)
        else:
            _random_maneuver(b, rng, eager)
            if rng.random() < eager / 2:
                _campaign(b, rng, attack=True, advance=False, hold_seas=False, pioneers=False)
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        here = any(prov.count(nation, u) for u in UNITS)
        if prov.owner is None and here and (greedy or rng.random() < max(eager, 0.7)):
            _found(b, pid, rng, greedy)
    if "draw" in edition.extras.standing and (greedy or rng.random() < eager):
        _standing(b)


def _play_cards(b, rng: random.Random, eager: float, greedy: bool, keys) -> None:
    """Play the event cards held when they help (001 L427), each at the first moment of the
    turn its card allows (before the rondel move where it may: its chips then pay for the
    action): a card that gives chips or cards, one that makes the rival pay what he holds,
    destroys a rival's wall (on the maneuver wedge the one of a city the bot's units can
    nearly take), removes rival units, arms units, or lowers the defence of a city the bot
    means to conquer. A card played during the rival's conquest (FORTRESS) is played by the
    standing order; a card that would cost the bot, move a stone or discard its own cards
    is kept."""
    game, nation = b.game, b.nation
    st = game.state
    known = _cards(game, st)
    wedge = game.edition.rondel[b.result.state.nations[nation].rondel].name
    targeted: set[str] = set()
    for cid in st.nations[nation].extra.get("hand", []):
        card = known.get(cid)
        if card is None or "opponent_conquest" in card["when"] or card.get("wedge") not in (None, wedge):
            continue
        entry = _card_entry(b, cid, card, rng, greedy, keys, targeted)
        if entry is not None and (greedy or rng.random() < eager) and b.try_add("events", entry):
            targeted |= {entry[k] for k in ("city", "at") if k in entry}


def _card_entry(b, cid: str, card: dict[str, Any], rng: random.Random, greedy: bool, keys,
                targeted: set[str]) -> dict[str, Any] | None:
    """The ``events`` entry that plays ``cid`` with what its card leaves open chosen, or
    ``None`` when the bot keeps the card: each step of the card in turn
    (:meth:`_CardChoice.step`), then the first moment of the turn the card allows."""
    choice = _CardChoice(b, rng, greedy, keys, targeted)
    entry: dict[str, Any] = {"play": cid}
    useful: bool | None = False
    for step in card["steps"]:
        useful = choice.step(step, entry, useful)
        if useful is None:
            return None
    if not useful:
        return None
    moments = [m for m in ("before", "after_move", "after") if m in card["when"]]
    if moments and moments[0] != "before":
        entry["when"] = moments[0]
    return entry


class _CardChoice:
    """What the bot chooses for the steps of one card it may play: one method per kind of
    step, each given the entry so far and whether the card is useful so far, returning
    whether it is useful with this step, or ``None`` when the bot keeps the card (a step
    that would cost the bot, or one with nothing to act on)."""

    def __init__(self, b, rng: random.Random, greedy: bool, keys, targeted: set[str]) -> None:
        self.game, self.nation = b.game, b.nation
        self.st = self.game.state
        self.other = _other(self.st, self.nation)
        self.theirs = self.st.nations[self.other]
        self.rng, self.greedy, self.keys, self.targeted = rng, greedy, keys, targeted

    def step(self, step: dict[str, Any], entry: dict[str, Any], useful: bool) -> bool | None:
        kind = step["kind"]
        if kind in ("gain", "draw"):
            return useful or _times(self.game, self.st, self.nation, step) > 0
        if kind == "pay":
            return self.pay(step, useful)
        if kind == "discard":
            return None if step.get("who") == "self" else useful or bool(self.theirs.extra.get("hand"))
        if kind == "remove" and step.get("piece") == "wall":
            return self.remove_wall(step, entry)
        if kind == "remove":
            return self.remove_pieces(step, entry)
        if kind == "arm":
            return self.arm(step, entry)
        if kind == "defence":
            return self.lower_defence(step, entry)
        return None  # a stone moved, free steps: the bot's rondel move is chosen already

    def pay(self, step: dict[str, Any], useful: bool) -> bool | None:
        """The rival pays: useful when he holds some of what he pays."""
        if step.get("who") == "self":
            return None
        theirs = self.theirs
        has = (step.get("coins") and theirs.coins) or \
            any(theirs.resources[r] for r, n in step.get("chips", {}).items() if n)
        return useful or bool(has and _times(self.game, self.st, self.nation, step) > 0)

    def remove_wall(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """A rival's wall destroyed: the greedy bot's on the maneuver wedge is one of a city
        its units can nearly take, a temple city first."""
        st, game = self.st, self.game
        walls = [c for c in st.cities(self.other) if st.provinces[c].extra.get("wall") and c not in self.targeted]
        if self.greedy:
            near = queries.in_reach(st, game.edition, game.board, self.nation) if "maneuver" in self.keys else {}
            walls = [c for c in walls if near.get(c, 0) >= queries.defence(st, game.edition, c) - 1
                     and queries.can_be_conquered(st, c)]
            walls.sort(key=lambda c: (not st.provinces[c].temple, c))
        if not walls or step.get("whose") == "self":
            return None
        entry["city"] = walls[0] if self.greedy else self.rng.choice(walls)
        return True

    def remove_pieces(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """Rival units removed: where he has most of them."""
        if step.get("whose") == "self":
            return None
        st, other = self.st, self.other
        types = UNITS if step["piece"] == "unit" else (step["piece"],)
        spots = sorted(((st.provinces[p].count(other, u), p, u) for p in st.provinces for u in types
                        if st.provinces[p].count(other, u) and p not in self.targeted), reverse=True)
        if not spots:
            return None
        _, entry["at"], unit = spots[0]
        if step["piece"] == "unit":
            entry["unit"] = unit
        return True

    def arm(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """Units armed, from the box or the supply, at a city that can take them."""
        st, game, nation = self.st, self.game, self.nation
        source = _box(st, nation) if step.get("from", "box") == "box" else \
            {u: queries.stock(st, game.edition, nation, u) for u in UNITS}
        types = UNITS if step.get("unit", "any") == "any" else (step["unit"],)
        spots = [(c, u) for c in st.cities(nation) for u in types
                 if game.board.can_arm(c, u) and source.get(u, 0) >= step.get("count", 1)]
        if not spots:
            return None
        entry["at"], unit = spots[0] if self.greedy else self.rng.choice(spots)
        if step.get("unit", "any") == "any":
            entry["unit"] = unit
        return True

    def lower_defence(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """The defence of a rival city lowered, on the maneuver wedge only: a city the
        bot's units can reach, a temple city first."""
        if "maneuver" not in self.keys or step["change"] >= 0:
            return None
        st, game = self.st, self.game
        near = queries.in_reach(st, game.edition, game.board, self.nation)
        cities = sorted((c for c in st.cities(self.other) if near.get(c) and queries.can_be_conquered(st, c)
                         and c not in self.targeted), key=lambda c: (not st.provinces[c].temple, c))
        if not cities:
            return None
        entry["city"] = cities[0]
        return True


def _times(game, st, nation: str, step: dict[str, Any]) -> int:
    """How often a step's amounts count now (its ``per``: know-hows, cities, ... of a nation)."""
    per = step.get("per")
    if not per:
        return 1
    who = _other(st, nation) if per.get("of") == "opponent" else nation
    ns = st.nations[who]
    count = {"knowhows": len(ns.knowhow), "cities": len(st.cities(who)), "temples": len(st.temples(who)),
             "walls": sum(1 for c in st.cities(who) if st.provinces[c].extra.get("wall")), "coins": ns.coins,
             "personages": ns.personage_count(), "cards": len(ns.extra.get("hand", []))}[per["count"]]
    return count // per.get("divided_by", 1)


def _temples_and_walls(b, rng: random.Random, eager: float, greedy: bool) -> None:
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
        danger = _threatened(game, st, nation)
        order = sorted((c for c in open_ if c in danger or now.provinces[c].temple),
                       key=lambda c: (c not in danger, not now.provinces[c].temple, c))
    else:
        order = [c for c in rng.sample(open_, len(open_)) if rng.random() < eager]
    for city in order:
        b.try_add("walls", {"city": city})


def _arm_from_box(b, rng: random.Random, eager: float, greedy: bool) -> None:
    """MILITIA: units from the recruitment box (2 iron each, 001 L284), as many as each
    city takes (1, 3 with a temple): the greedy bot arms temple cities and cities the rival
    threatens first, galleys where they can go (the seas are its way to the rival and to
    navigators), legions elsewhere; the variant's special unit (3 iron, a temple city only,
    001 L435) first of all, where most of its type stand."""
    game, nation = b.game, b.nation
    st = game.state
    box = {u: n for u, n in _box(st, nation).items() if n}
    cities = st.cities(nation)
    if greedy:
        danger = _threatened(game, st, nation)
        cities = sorted(cities, key=lambda c: (not st.provinces[c].temple, c not in danger, c))
    else:
        cities = rng.sample(cities, len(cities))
    used: dict[str, int] = {}
    for special in [u for u in box if u in SPECIAL_MOVES_AS]:
        temples = [c for c in cities if st.provinces[c].temple and game.board.can_arm(c, special)]
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


def _knowhow_and_recruit(b, rng: random.Random, eager: float, greedy: bool) -> None:
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
    box = _box(st, nation)
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


def _random_maneuver(b, rng: random.Random, eager: float) -> None:
    """Random moves (each move in one go: battles on the way are automatic), then a
    conquest wherever the units stand in a rival city."""
    nation = b.nation
    b.random_moves(rng, eager)
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        if prov.owner not in (None, nation) and any(prov.count(nation, u) for u in UNITS):
            b.try_add("maneuver", {"conquer": pid})


def _campaign(b, rng: random.Random, attack: bool = True, advance: bool = True,
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
    hold_seas = hold_seas and _seas_pay(plan.game, plan.st, plan.nation)
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
        self.other = _other(st, nation)
        self.pool: dict[tuple[str, str], int] = {}
        """Units without a task: (region, unit) -> count."""
        for pid, prov in sorted(st.provinces.items()):
            for unit in _pieces(prov, nation):
                self.pool[(pid, unit)] = prov.count(nation, unit)
        self.allow = {u: queries.allowance(st, self.edition, nation, u) for u in (*UNITS, *SPECIAL_MOVES_AS)}
        self.routes = {key: _routes(self.game, st, nation, key[0], key[1], self.allow[key[1]]) for key in self.pool}
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
        risk = _fortress_risk(self.game, st, nation)
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
                           and not _hostile(st, nation, city, unit)),
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
                if n and path and not _hostile(self.st, self.nation, site, unit):
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
            while step and (step[-1] not in clear or _hostile(st, nation, step[-1], unit)):
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
                           if not holders(dest) and not _hostile(self.st, self.nation, dest, unit)]
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
        danger = _threatened(self.game, st, nation)
        rivals = [c for c in st.cities(self.other) if c not in self.conquests]
        near: dict[str, int] = {}
        for (pid, unit), n in pool.items():
            for dest in [pid, *board.province(pid).neighbours(unit)]:
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
            while step and (step[-1] not in clear or _hostile(st, nation, step[-1], unit) > n):
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


def _found(b, pid: str, rng: random.Random, greedy: bool) -> bool:
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


def _standing(b) -> None:
    """Standing orders for the other's turn: FORTRESS ``always`` (the city holds or the
    attacker loses a unit more, 001 L429), and the cards to take first from the display
    (D9), ranked by what each would do now: a card for the rival's conquest while the rival
    can reach a city, one destroying walls while the rival has walls, one taking coins by
    the rival's coins, one giving gold by its know-hows, one giving chips."""
    game, nation = b.game, b.nation
    st = game.state
    other = _other(st, nation)
    theirs = st.nations[other]
    danger = bool(_threatened(game, st, nation))
    walls = any(st.provinces[c].extra.get("wall") for c in st.cities(other))

    def worth(card: dict[str, Any]) -> int:
        # a few steps only, so that the order changes when the situation does, not every turn
        if _defends(card):
            return 6 if danger else 3
        best = 0
        for step in card["steps"]:
            per = (step.get("per") or {}).get("count")
            if step["kind"] == "remove" and step.get("piece") == "wall":
                best = max(best, 5 if walls else 1)
            elif step["kind"] == "pay" and per == "coins":
                best = max(best, 4 if theirs.coins >= 4 else 1)
            elif step["kind"] == "gain" and per == "knowhows":
                best = max(best, 4 if len(theirs.knowhow) >= 2 else 2)
            elif step["kind"] == "gain":
                best = max(best, 4)
            else:
                best = max(best, 2)
        return best

    known = _cards(game, st)
    ranked = sorted(known, key=lambda c: (-worth(known[c]), c))
    change = {}
    if st.standing[nation].extra.get("fortress") != "always":
        change["fortress"] = "always"
    if list(st.standing[nation].extra.get("draw", [])) != ranked:
        change["draw"] = ranked
    if change:
        b.try_orders({**b.orders, "standing": change})


_DISTANCES: dict[tuple[int, tuple[str, ...]], tuple[Any, dict[str, dict[str, int]]]] = {}


def _distances(board, targets: list[str]) -> dict[str, dict[str, int]]:
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


def _greedy(game, nation: str, rng: random.Random, choices, builder, quick: bool = False) -> dict[str, Any] | None:
    """The greedy Duellum turn: every rondel target within one paid step, each filled in
    several ways (on the maneuver wedge: a campaign holding the seas, one marching with
    every galley, one without marching; everywhere a random one; ``quick``: the first
    only), the best by :func:`_value`."""
    best = None
    for tg in choices:
        if tg.cost > 1:
            continue
        plans = [(1.0, True, True, True)]
        if not quick and "maneuver" in game.edition.rondel[tg.index].action.keys:
            plans += [(1.0, True, True, False), (1.0, True, False, True)]
        if not quick:
            plans.append((0.5, False, False, True))
        for eager, greedy, march, hold in plans:
            b = builder(tg.order)
            if not b.ok:
                break
            _fill(b, rng, eager, greedy, march, hold)
            value = _value(game, nation, b.result) - tg.cost * 0.5
            if best is None or value > best[0]:
                best = (value, b.orders)
    return None if best is None else best[1]


def _value(game, nation: str, result) -> float:
    """Greedy evaluation of a Duellum turn: personages first, then cities, temples,
    know-hows, units on the board and in the box, walls, cards, seas held towards a
    navigator, chips; less what the rival holds."""
    st = result.state
    ns = st.nations[nation]
    other = _other(st, nation)
    won = 1000 if st.status.winner == nation else 0
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in UNITS)
    units += sum(3 * p.count(nation, u) for p in st.provinces.values() for u in SPECIAL_MOVES_AS)
    box = sum(n for u, n in ns.extra.get("recruitment", {}).items() if u in UNITS)
    walls = sum(1 for c in st.cities(nation) if st.provinces[c].extra.get("wall"))
    pressure = sum(st.provinces[c].count(nation, u) for c in st.cities(other) for u in UNITS)
    seas = min(sea_points(st, game.board, nation), 14) if _seas_pay(game, game.state, nation) else 0
    # chips count less once the nation holds more than a few turns' needs of them
    chips = sum(min(n, 10) + 0.1 * max(0, n - 10) for n in [*ns.resources.values(), ns.coins])
    # units far from every rival city count a little less: a nation with nothing better to
    # do marches on the rival rather than producing what it cannot spend
    away = _distances(game.board, st.cities(other))
    approach = sum(prov.count(nation, u) * min(away[u].get(pid, 6), 6)
                   for pid, prov in st.provinces.items() for u in UNITS)
    rival = 3 * len(st.cities(other)) + 3 * len(st.temples(other)) + 20 * st.nations[other].personage_count() \
        + 0.2 * st.nations[other].coins
    return (won + 50 * ns.personage_count() + 7 * len(st.cities(nation)) + 6 * len(st.temples(nation))
            + 4 * len(ns.knowhow) + 2.5 * units + 1.0 * box + 0.8 * pressure + 1.0 * walls
            + 0.2 * len(ns.extra.get("hand", [])) + 0.5 * seas + 0.3 * chips - 0.1 * approach - rival)
