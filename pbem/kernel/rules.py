"""The shape of an edition's rule table: every number the shared rules need.

Numbers live in data, one table per edition, not in ``if edition == ...`` branches. An
edition with rules of its own keeps their numbers in its own package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar


@dataclass(frozen=True, slots=True)
class KnowHowSpec:
    """One know-how: its prices and what it needs first."""

    name: str
    price_first: int
    """The price while no other nation owns it."""
    price_later: int
    """The price once another nation owns it."""
    requires: str | None = None


@dataclass(frozen=True, slots=True)
class RuleTable:
    """Every number of one edition that the shared rules need."""

    start_resources: Mapping[str, int]
    unit_cap: int
    """Legions (and galleys) per nation, on the board and in stock."""
    city_stones: int
    bank_coins: int
    bank_temples: int
    personage_stacks: Mapping[str, int]
    """The personage cards in the bank at the start, by personage, in display order."""
    coin_each_round: bool
    """Every nation receives a coin at the start of each round."""
    temple_marble: int
    arming_iron: int
    arm_per_city: int
    arm_per_temple_city: int
    production_per_city: int
    production_per_temple_city: int
    defence_city: int
    defence_temple_city: int
    found_cost: Mapping[str, int]
    knowhows: Mapping[str, KnowHowSpec]
    """Every know-how, in display order."""
    production_bonus: Mapping[str, int]
    """Know-how -> chips added to every production action (the best one owned counts)."""
    defence_bonus: Mapping[str, int]
    """Know-how -> defence added to every own city (the best one owned counts)."""
    movement: Mapping[str, Mapping[str, int]]
    """Unit type -> know-how -> maneuver actions per unit (the best one owned counts; 1 without)."""
    unit_caps: Mapping[str, int] | None = None
    """Per unit type, where the types differ (12 legions and 13 galleys, 003 L164-166); else
    :attr:`unit_cap` for each."""
    coin_per_production: bool = False
    """A production action also yields one coin (003 L312)."""
    conquest_uses_action: bool = True
    """A conquest needs units with a maneuver action left and uses it (classic, 000
    L653-659); without, every own unit in the region counts (003 L15, L230)."""
    neutral_temple_defence: int = 0
    """The defence of a neutral temple; 0 where the edition has none (3 where there are some, 003 L30)."""
    free_city_types: bool = False
    """The founder chooses every city's resource (a variant, 003 L106-108)."""

    def cap(self, unit: str) -> int:
        """Units of a type a nation has, on the board and in stock."""
        return self.unit_caps[unit] if self.unit_caps is not None else self.unit_cap

    def knowhow_price(self, name: str, owned_by_other: bool) -> int:
        spec = self.knowhows[name]
        return spec.price_later if owned_by_other else spec.price_first


K = TypeVar("K")
V = TypeVar("V")


def frozen(mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only view of a copy of ``mapping``, for rule tables."""
    return MappingProxyType(dict(mapping))


# -- values a GM enters (``new --data``) ---------------------------------------------------

def whole_number(value: Any, low: int) -> bool:
    """Whether ``value`` is a whole number (not a truth value) of at least ``low``."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def price_problems(prices: Any, knowhow_names: Mapping[str, str]) -> list[str]:
    """What is wrong with a GM's ``knowhow_prices`` (know-how -> [first, later])."""
    if not isinstance(prices, dict):
        return ["knowhow_prices: an object, know-how -> [first, later]"]
    out = []
    for name, pair in prices.items():
        if name not in knowhow_names:
            out.append(f"knowhow_prices: unknown know-how {name!r}")
        elif not (isinstance(pair, list) and len(pair) == 2 and all(whole_number(v, 1) for v in pair)):
            out.append(f"knowhow_prices.{name}: [first price, later price], whole numbers from 1")
    return out


def bank_coins_problems(coins: Any) -> list[str]:
    """What is wrong with a GM's ``bank_coins``."""
    return [] if whole_number(coins, 0) else ["bank_coins: a whole number from 0"]


def data_problems(data: Any, keys: Mapping[str, str], checks: Mapping[str, Callable[[Any], list[str]]]) -> list[str]:
    """What is wrong with the values a GM entered (``new --data``), in words: ``data`` must
    be an object of ``keys`` (key -> what it sets); each key given is checked, in the order
    of ``keys``, by its entry in ``checks``."""
    if not isinstance(data, dict):
        return ["the data must be a JSON object"]
    out = [f"unknown key {key!r} (one of {', '.join(keys)})" for key in data if key not in keys]
    for key in keys:
        if key in data:
            out += checks[key](data[key])
    return out


def data_changes(data: Mapping[str, Any], prices: Mapping[str, tuple[int, int]],
                 knowhows: Callable[[Mapping[str, Any]], Mapping[str, KnowHowSpec]]) -> dict[str, Any]:
    """The changes to a rule table that a GM's ``knowhow_prices`` and ``bank_coins`` make:
    the edition's ``prices`` with those entered, made into know-hows by ``knowhows``."""
    changes: dict[str, Any] = {}
    if "knowhow_prices" in data:
        changes["knowhows"] = frozen(knowhows({**prices, **{k: tuple(v) for k, v in data["knowhow_prices"].items()}}))
    if "bank_coins" in data:
        changes["bank_coins"] = data["bank_coins"]
    return changes
