"""The shape of an edition's rule table: every number the shared rules need.

Numbers live in data, one table per edition, not in ``if edition == ...`` branches. An
edition with rules of its own keeps their numbers in its own package.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType


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

    def knowhow_price(self, name: str, owned_by_other: bool) -> int:
        spec = self.knowhows[name]
        return spec.price_later if owned_by_other else spec.price_first


def frozen(mapping: dict) -> Mapping:
    """A read-only view of a copy of ``mapping``, for rule tables."""
    return MappingProxyType(dict(mapping))
