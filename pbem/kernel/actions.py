"""What a wedge does, and the other steps of a turn: founding cities and trading.

An edition's rondel gives each field one :class:`Action`. The actions here carry the rules
the editions share: production, temples, arming, know-how and the maneuver, each named by
what it does and the order key it takes (``temples``, ``arm``, ``knowhow``, ``maneuver``),
never by a wedge. Each action runs a step of the turn (``run``) and says what it would allow
now (``preview``, for ``options`` and the bots), both from the same rule queries
(:mod:`pbem.kernel.queries`). An edition with a different rule gives its field an action of
its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.kernel import queries
from pbem.kernel.bank import give_coin
from pbem.kernel.maneuver import run_maneuver
from pbem.kernel.payments import Cost
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.protocols import EditionView, TurnView
    from pbem.kernel.state import GameState


class Action:
    """A wedge's action. ``keys`` are the order keys it takes (none for production)."""

    keys: tuple[str, ...] = ()
    produces: str | None = None
    """The resource a production action yields."""
    spends: str | None = None
    """The chip the action pays with: kept on a tie when paying for the rondel move (D7)."""

    def run(self, t: TurnView, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        """Carry out the action for the orders given; put its canonical echo into ``echo``.

        By default: for each of the action's keys present in the orders, :meth:`apply` its
        entries, and echo what it returns under the same key."""
        for key in self.keys:
            if key in orders:
                echo[key] = self.apply(t, orders[key])

    def apply(self, t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Carry out the entries of the action's key, in order; return their echo."""
        raise NotImplementedError

    def preview(self, state: GameState, edition: EditionView, board: Board, nation: str,
                budget: dict[str, int]) -> dict[str, Any]:
        """What the action would yield or allow now, with ``budget`` (chips and ``coin``)
        left after the rondel move; a production action says ``{"produce": {RESOURCE: N}}``."""
        raise NotImplementedError

    def yields(self, state: GameState, edition: EditionView, board: Board, nation: str) -> int | None:
        """How much a production action would produce now (``None``: not a production
        action); what the GM's default turn (D15) compares."""
        if self.produces is None:
            return None
        budget = {**state.nations[nation].resources, "coin": state.nations[nation].coins}
        return self.preview(state, edition, board, nation, budget)["produce"][self.produces]


class Produce(Action):
    """Production: the nation's cities of one resource yield it (000 L356-362)."""

    def __init__(self, resource: str):
        self.produces = resource

    def run(self, t: TurnView, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        t.produce(self.produces, queries.production(t.state, t.edition, t.board, t.nation, self.produces))
        if t.rules.coin_per_production:
            # 003 L312: "In addition, it receives 1 coin, no matter which resource or how many
            # it produces"; with the bank out of coins, a chip of its choice (standing order).
            give_coin(t.state, t.nation, t.events, "production")

    def preview(self, state, edition, board, nation, budget):
        return {"produce": {self.produces: queries.production(state, edition, board, nation, self.produces)}}


class BuildTemples(Action):
    """Temples: marble each, one per own city, from the bank (000 L390-404)."""

    keys = ("temples",)
    spends = "marble"

    def apply(self, t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        echo = []
        seen: set[str] = set()
        price = t.rules.temple_marble
        for i, entry in enumerate(entries):
            path = f"$.temples[{i}]"
            city = entry["city"]
            out = dict(entry)
            echo.append(out)
            prov = t.state.provinces.get(city)
            if city in seen:
                t.reject("temple/twice", f"{path}.city", city=city)
                continue
            seen.add(city)
            if prov is None or prov.owner != t.nation:
                t.reject("temple/not-own-city", f"{path}.city", city=city, nation=t.nation, hint=t.hint(city))
                continue
            if prov.temple:
                t.reject("temple/already", f"{path}.city", city=city)
                continue
            if t.state.bank.temples <= 0:
                t.reject("temple/bank-empty", f"{path}.city")
                continue
            cost = Cost.of(marble=price).plus_coins(t.edition.turn.temple_surcharge(t, city))
            paid = t.pay(cost, entry.get("pay"), f"a temple in {t.display(city)}", path)
            if paid is None:
                continue
            out["pay"] = paid
            t.state.bank.temples -= 1
            t.state.province(city).temple = True
            t.emit("temple", city=city, paid=paid)
        return echo

    def preview(self, state, edition, board, nation, budget):
        price = edition.rules_for(state.table).temple_marble
        cities = [c for c in state.cities(nation) if not state.provinces[c].temple]
        can = min(len(cities), state.bank.temples, (budget["marble"] + budget["coin"]) // price)
        return {"cities": cities, "affordable": can, "price": {"marble": price}}


class Arm(Action):
    """Arming: iron per unit, at most 1 per own city (3 with a temple), within the caps.

    000 L407-428: galleys only where a sea border exists, legions only where a land border
    exists; foreign units do not block arming.
    """

    keys = ("arm",)
    spends = "iron"

    def apply(self, t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        echo = []
        used: dict[str, int] = {}
        stock: dict[str, int] = {}
        free = t.edition.forces.free_units(t)
        marked = [i for i, e in enumerate(entries) if e.get("free")]
        if marked and not free:
            t.reject("arm/no-free-unit", f"$.arm[{marked[0]}].free", nation=t.nation)
        elif len(marked) > free:
            t.reject("arm/free-twice", f"$.arm[{marked[free]}].free", free=free)
        elif free and entries and not marked:
            marked = [0]
            t.note_default("$.arm[0].free", "the free unit is one of the first entry's (no \"free\": true given)")
        for i, entry in enumerate(entries):
            path = f"$.arm[{i}]"
            unit, at, count = entry["unit"], entry["at"], entry["count"]
            out = dict(entry)
            if i in marked[:free]:
                out["free"] = True
            echo.append(out)
            prov = t.state.provinces.get(at)
            if prov is None or prov.owner != t.nation:
                t.reject("arm/not-own-city", f"{path}.at", at=at, nation=t.nation, hint=t.hint(at))
                continue
            if not t.board.can_arm(at, t.edition.moves_as(unit)):
                t.reject("arm/wrong-terrain", f"{path}.unit", unit=unit, at=at,
                         kind=t.board.province(at).kind.replace("_", "-"))
                continue
            if t.edition.forces.arm_problem(t, unit, at, f"{path}.unit"):
                continue
            limit = queries.arm_limit(t.state, t.edition, at)
            if used.get(at, 0) + count > limit:
                t.reject("arm/limit", f"{path}.count", at=at, limit=limit, asked=used.get(at, 0) + count)
                continue
            if unit not in stock:  # counted once: this action changes it only by what it arms
                stock[unit] = t.edition.forces.arm_source(t.state, t.nation, unit)
            left = stock[unit]
            if count > left:
                t.reject("arm/no-stock", f"{path}.count", nation=t.nation, left=left, unit=unit, asked=count,
                         where=t.edition.forces.arm_source_words)
                continue
            paying = count - 1 if out.get("free") else count
            paid = t.pay(Cost.of(iron=t.edition.forces.arming_iron(t, unit)).times(paying), entry.get("pay"),
                         f"{count} {unit}(s) in {t.display(at)}" + (" (one free)" if out.get("free") else ""), path)
            if paid is None:
                continue
            out["pay"] = paid
            used[at] = used.get(at, 0) + count
            stock[unit] -= count
            t.state.province(at).add(t.nation, unit, count)
            t.emit("arm", unit=unit, at=at, count=count, paid=paid, **({"free": 1} if out.get("free") else {}))
            t.edition.forces.armed(t, unit, at, count)
        return echo

    def preview(self, state, edition, board, nation, budget):
        places = [{"city": c, "limit": queries.arm_limit(state, edition, c),
                   "units": [u for u in UNITS if board.can_arm(c, u)]} for c in state.cities(nation)]
        stock = {u: edition.forces.arm_source(state, nation, u) for u in UNITS}
        price = edition.rules_for(state.table).arming_iron
        can = min(sum(p["limit"] for p in places), (budget["iron"] + budget["coin"]) // price, sum(stock.values()))
        return {"places": places, "stock": stock, "affordable": can, "price": {"iron": price}}


class BuyKnowHow(Action):
    """Know-how: bought in order with gold, a basic before its secondary (000 L455-497)."""

    keys = ("knowhow",)
    spends = "gold"

    def apply(self, t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        echo = []
        named: list[str] = []
        for i, entry in enumerate(entries):
            path = f"$.knowhow[{i}]"
            name = entry["name"]
            out = dict(entry)
            echo.append(out)
            earlier = list(named)
            named.append(name)
            if name in earlier:
                t.reject("knowhow/twice", f"{path}.name", name=name)
                continue
            if name in t.ns.knowhow:
                t.reject("knowhow/owned", f"{path}.name", nation=t.nation, name=name)
                continue
            offer = queries.knowhow_offer(t.state, t.edition, t.nation, name)
            # A basic named earlier in the list is not missing: its own problem, if any, is
            # reported there, and this entry is still priced and checked.
            if offer.needs is not None and offer.needs not in earlier:
                t.reject("knowhow/needs", f"{path}.name", name=name, requires=offer.needs)
                continue
            paid = t.pay(Cost.of(gold=offer.price), entry.get("pay"), f"{t.display(name)} ({offer.price} gold)", path)
            if paid is None:
                continue
            out["pay"] = paid
            t.ns.knowhow = sorted(t.ns.knowhow + [name])
            if offer.first:
                t.firsts.append(name)
            t.emit("knowhow", name=name, price=offer.price, paid=paid, first=offer.first)
        return echo

    def preview(self, state, edition, board, nation, budget):
        owned = state.nations[nation].knowhow
        offers = []
        for name in edition.rules_for(state.table).knowhows:
            if name in owned:
                continue
            offer = queries.knowhow_offer(state, edition, nation, name)
            offers.append({"name": name, "price": offer.price, "needs": offer.needs,
                           "affordable": offer.needs is None and offer.price <= budget["gold"] + budget["coin"]})
        return {"knowhow": offers}


class Maneuver(Action):
    """Maneuver: movement and battles, then conquests (:mod:`pbem.kernel.maneuver`)."""

    keys = ("maneuver",)

    def apply(self, t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return run_maneuver(t, entries)

    def preview(self, state, edition, board, nation, budget):
        groups = []
        for pid in sorted(state.provinces):
            for unit in UNITS:
                n = state.provinces[pid].count(nation, unit)
                if not n:
                    continue
                moves = queries.allowance(state, edition, nation, unit)
                reach = queries.reachable(board, pid, unit, moves)
                groups.append({"at": pid, "unit": unit, "count": n, "actions": moves,
                               "reach": dict(sorted(reach.items()))})
        return {"groups": groups, "conquerable": queries.conquerable(state, edition, board, nation)}


def found(t: TurnView, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Found cities after the action (000 L336-345): an own unit there, the founding cost."""
    echo = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        path = f"$.found[{i}]"
        city = entry["city"]
        out = dict(entry)
        echo.append(out)
        if not t.board.is_province(city):
            t.reject("found/not-a-province", f"{path}.city", city=city, hint=t.board.hint(city))
            continue
        if city in seen:
            t.reject("found/twice", f"{path}.city", city=city)
            continue
        seen.add(city)
        prov = t.state.provinces.get(city)
        if prov is not None and prov.owner is not None:
            t.reject("found/occupied", f"{path}.city", city=city, owner=prov.owner)
            continue
        if queries.neutral_temple(t.state, city):
            # 003 L270: "In regions with neutral temples these temples have to be destroyed first".
            t.reject("found/neutral-temple", f"{path}.city", city=city)
            continue
        site = t.board.province(city).site
        if site == "none":
            t.reject("found/no-site", f"{path}.city", city=city)
            continue
        resource = _city_type(t, entry, site, city, path)
        if resource is False:
            continue
        if prov is None or not any(prov.count(t.nation, u) for u in prov.units.get(t.nation, {})):
            t.reject("found/no-unit", f"{path}.city", nation=t.nation, city=city)
            continue
        stones = len(t.state.cities(t.nation))
        if stones >= t.rules.city_stones:
            t.reject("found/no-stone", f"{path}.city", nation=t.nation, stones=stones)
            continue
        produces = resource or t.board.province(city).resource
        if t.edition.turn.found_problem(t, city, produces, path):
            continue
        cost = Cost.of(**t.rules.found_cost).plus_coins(t.edition.turn.found_surcharge(t, city, produces))
        paid = t.pay(cost, entry.get("pay"), f"a city in {t.display(city)}", path)
        if paid is None:
            continue
        out["pay"] = paid
        founded = t.state.province(city)
        founded.owner = t.nation
        chosen = {} if resource is None else {"resource": resource}
        founded.extra = {**founded.extra, **chosen}
        t.emit("found", city=city, paid=paid, **chosen)
    return echo


def _city_type(t: TurnView, entry: dict[str, Any], site: str, city: str, path: str) -> str | None | bool:
    """The resource a new city gets where the founder chooses it: on a site showing all
    three (003 L270-278) or everywhere in the free-choice variant (003 L106-108); ``None``
    where the board prints it; ``False`` (and a rejection) when the choice is missing or
    not allowed."""
    chosen = entry.get("resource")
    if site == "choice":
        if chosen is None:
            t.reject("found/resource-needed", f"{path}.resource", city=city)
            return False
        return chosen
    if t.rules.free_city_types:
        return chosen  # without one, the printed resource
    if chosen is not None and chosen != t.board.province(city).resource:
        t.reject("found/resource-fixed", f"{path}.resource", city=city, resource=t.board.province(city).resource)
        return False
    return None


def trade(t: TurnView, trades: list[dict[str, Any]], rates: dict[int, int], when: str = "before") -> None:
    """The trades with the bank marked for the moment ``when`` of the turn (docs/orders.md:
    ``"when"``, ``before`` by default), in the order given, at the rates the nation's
    know-hows allowed when the turn began (classic: 2 for 1 with all eight, 000 L512-514,
    Q25; an edition may set other rates by know-how, 003 L401-402,
    001 L336). ``get`` is a chip's name (one chip) or the chips
    received; coins are never received. One entry may trade a multiple of a rate, exactly
    (000 L891-894: 3 gold and 1 marble for 2 iron; 001 L336: 4 gold and 2 marble for 4 iron)."""
    for i, deal in enumerate(trades):
        if deal.get("when", "before") != when:
            continue
        path = f"$.trade[{i}]"
        given = sum(deal["give"].values())
        get = {deal["get"]: 1} if isinstance(deal["get"], str) else dict(deal["get"])
        got = sum(get.values())
        if rate_of(rates, given, got) is None:
            t.reject("trade/ratio", f"{path}.give", given=given, got=got, rates=rates_text(rates))
            continue
        short = [c for c, n in deal["give"].items() if t.ns.resources[c] < n]
        for chip in short:
            t.reject("trade/not-enough", f"{path}.give.{chip}", nation=t.nation,
                     held=t.ns.resources[chip], chip=chip, give=deal["give"][chip])
        if short:
            continue
        for chip, n in deal["give"].items():
            t.ns.resources[chip] -= n
        for chip, n in get.items():
            t.ns.resources[chip] += n
        t.emit("trade", give=dict(deal["give"]), get=deal["get"] if isinstance(deal["get"], str) else get,
               **({} if when == "before" else {"when": when}))


def rate_of(rates: dict[int, int], given: int, got: int) -> tuple[int, int] | None:
    """The rate (chips given, chips received) of which ``given`` for ``got`` is a whole
    multiple, or ``None``: 4 for 2 is twice 2 for 1; 6 for 4 twice 3 for 2; 4 for 3 is none."""
    for give_n, get_n in sorted(rates.items()):
        if given and given % give_n == 0 and got * give_n == given * get_n:
            return give_n, get_n
    return None


def rates_text(rates: dict[int, int]) -> str:
    """``2 chips for 1 (or 4 for 2, 6 for 3, ...)``, each rate of ``rates``."""
    return " or ".join(f"{g} chips for {n} (or {2 * g} for {2 * n}, {3 * g} for {3 * n}, ...)"
                       for g, n in sorted(rates.items()))
