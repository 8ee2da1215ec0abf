"""War chariots: built on the HIPPODROME, one city at a time, each adding to its city's
defence; lost with the city. A nation's chariots are kept by city in its own field
``chariots`` (city -> count), and the TRIUMPH card (:mod:`.cards`) brings one for free."""

from __future__ import annotations

from typing import Any

from pbem.kernel.actions import Action
from pbem.kernel.payments import Cost

from .rules import CHARIOT, CHARIOT_DEFENCE, CHARIOT_PRICE, CHARIOTS_PER_CITY, CHARIOTS_PER_NATION


def held(state, nation: str) -> dict[str, int]:
    """The nation's war chariots, by city."""
    return dict(state.nations[nation].extra["chariots"])


def left(state, nation: str) -> int:
    """War chariots the nation has not built yet."""
    return CHARIOTS_PER_NATION - sum(held(state, nation).values())


def defence(state, city: str) -> int:
    """What the owner's war chariots add to the defence of ``city``."""
    owner = state.provinces[city].owner
    return 0 if owner is None else CHARIOT_DEFENCE * held(state, owner).get(city, 0)


def room(state, nation: str) -> list[str]:
    """The nation's cities that can take another war chariot."""
    have = held(state, nation)
    return [c for c in state.cities(nation) if have.get(c, 0) < CHARIOTS_PER_CITY]


def place(t, city: str, path: str) -> bool:
    """Put one of the active nation's war chariots into ``city``, or record why not."""
    prov = t.state.provinces.get(city)
    if prov is None or prov.owner != t.nation:
        t.reject("chariot/not-own-city", path, city=city, nation=t.nation, hint=t.hint(city))
        return False
    have = held(t.state, t.nation)
    if have.get(city, 0) >= CHARIOTS_PER_CITY:
        t.reject("chariot/city-full", path, city=city, most=CHARIOTS_PER_CITY, have=have.get(city, 0))
        return False
    if left(t.state, t.nation) <= 0:
        t.reject("chariot/none-left", path, nation=t.nation, total=CHARIOTS_PER_NATION)
        return False
    return True


def add(t, city: str) -> None:
    have = held(t.state, t.nation)
    have[city] = have.get(city, 0) + 1
    t.state.nation(t.nation).extra["chariots"] = dict(sorted(have.items()))


class Hippodrome(Action):
    """HIPPODROME: war chariots, one per entry of ``chariots`` (``{"city": ...}``), each
    :data:`~.rules.CHARIOT_PRICE` in a city of the nation's with room for it."""

    keys = ("chariots",)
    spends = "gold"

    def apply(self, t, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        echo = []
        for i, entry in enumerate(entries):
            path = f"$.chariots[{i}]"
            out = dict(entry)
            echo.append(out)
            city = entry["city"]
            if not place(t, city, f"{path}.city"):
                continue
            paid = t.pay(Cost.of(**CHARIOT_PRICE), entry.get("pay"), f"a war chariot in {t.display(city)}", path)
            if paid is None:
                continue
            out["pay"] = paid
            add(t, city)
            t.emit(CHARIOT, city=city, paid=paid)
        return echo

    def preview(self, state, edition, board, nation, budget):
        # the price is in gold, and a coin stands in for any chip
        can = min((budget.get(chip, 0) + budget.get("coin", 0)) // n for chip, n in CHARIOT_PRICE.items())
        return {"chariots": {"left": left(state, nation), "price": dict(CHARIOT_PRICE),
                             "affordable": can, "cities": room(state, nation)}}


def sweep(t) -> None:
    """War chariots of every nation in a city it no longer owns are lost (a conquest in
    this turn): a ``chariots-lost`` event each."""
    for nation in t.state.table.seats:
        have = held(t.state, nation)
        gone = {c: n for c, n in have.items() if t.state.provinces.get(c) is None
                or t.state.provinces[c].owner != nation}
        if not gone:
            continue
        t.state.nation(nation).extra["chariots"] = {c: n for c, n in have.items() if c not in gone}
        for city, count in sorted(gone.items()):
            t.events.append({"type": "chariots-lost", "nation": nation, "city": city, "count": count})
