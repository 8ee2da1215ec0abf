"""The shape of an edition's rule table."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping


@dataclass(frozen=True, slots=True)
class KnowHowSpec:
    """One know-how: its prices and what it needs first."""

    name: str
    price_first: int
    price_later: int
    requires: str | None = None


@dataclass(frozen=True, slots=True)
class RuleTable:
    """Every number of one edition that the engine needs."""

    edition: str
    start_resources: Mapping[str, int]
    unit_cap: int
    city_stones: int
    bank_coins: int
    bank_temples: int
    personage_stacks: Mapping[str, int]
    coin_each_round: bool
    free_steps: int
    repeat_cost: int
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
    production_bonus: Mapping[str, int]
    defence_bonus: Mapping[str, int]
    moves_legion: Mapping[str, int]
    moves_galley: Mapping[str, int]
    king_every: int
    citizen_every: int
    navigator_thresholds: tuple[int, ...]
    goals: Mapping[int, int]
    goals_military: Mapping[int, int]
    two_player_goal: int
    three_player_long_goal: int
    military_points: Mapping[str, int]
    nation_colours: Mapping[str, str] = field(default_factory=dict)

    def knowhow_price(self, name: str, owned_by_other: bool) -> int:
        spec = self.knowhows[name]
        return spec.price_later if owned_by_other else spec.price_first


def frozen(mapping: dict) -> Mapping:
    return MappingProxyType(dict(mapping))
