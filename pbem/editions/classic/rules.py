"""Classic Antike (2005): every number of its rules. Each cites the English rulebook (key 000)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from pbem.kernel.rules import KnowHowSpec, RuleTable, frozen

KNOWHOWS = {
    # Each basic, then its secondary, which needs the basic first (000 L467-474).
    # Prices 000 L485-492: 7 new basic, 3 basic owned by another; 10 new secondary, 5.
    "wheel": KnowHowSpec("wheel", 7, 3),
    "roads": KnowHowSpec("roads", 10, 5, "wheel"),
    "sailing": KnowHowSpec("sailing", 7, 3),
    "navigation": KnowHowSpec("navigation", 10, 5, "sailing"),
    "market": KnowHowSpec("market", 7, 3),
    "currency": KnowHowSpec("currency", 10, 5, "market"),
    "monarchy": KnowHowSpec("monarchy", 7, 3),
    "democracy": KnowHowSpec("democracy", 10, 5, "monarchy"),
}

RULES = RuleTable(
    start_resources=frozen({"marble": 2, "iron": 1, "gold": 3}),  # 000 L149-151
    unit_cap=17,  # 000 L154-159
    city_stones=25,  # 000 L154-159
    bank_coins=30,  # 000 L47
    bank_temples=20,  # 000 L50, L100
    personage_stacks=frozen({"king": 9, "scholar": 8, "general": 7, "citizen": 6, "navigator": 5}),  # 000 L252-271
    coin_each_round=True,  # 000 L289-292, docs/rulings.md Q4
    temple_marble=5,  # 000 L392
    arming_iron=1,  # 000 L409
    arm_per_city=1,  # 000 L411-417
    arm_per_temple_city=3,
    production_per_city=1,  # 000 L360-362
    production_per_temple_city=3,
    defence_city=1,  # 000 L661-665
    defence_temple_city=3,
    found_cost=frozen({"marble": 1, "iron": 1, "gold": 1}),  # 000 L342-345
    knowhows=frozen(KNOWHOWS),
    production_bonus=frozen({"currency": 2, "market": 1}),  # 000 L542-545
    defence_bonus=frozen({"democracy": 2, "monarchy": 1}),  # 000 L672-674
    movement=frozen({  # 000 L577-583
        "legion": frozen({"roads": 3, "wheel": 2}),
        "galley": frozen({"navigation": 3, "sailing": 2}),
    }),
)

DOUBLE_RULES = replace(RULES, unit_cap=2 * RULES.unit_cap, city_stones=2 * RULES.city_stones)
"""The two-player variant's double nation: "use two colors, and double the materials used"
(000 L187-189). Materials are the pieces; the start resources are the nation card's and stay
as they are (docs/rulings.md, "Two players")."""

FREE_STEPS = 3
"""Rondel steps that cost nothing (000 L316-321)."""


@dataclass(frozen=True, slots=True)
class PersonageRules:
    """When classic personages are won, and what wins the game."""

    king_every: int
    """Cities per king (000 L252-278)."""
    citizen_every: int
    """Temples per citizen."""
    navigator_thresholds: tuple[int, ...]
    """Provinces holding own galleys that each give a navigator."""
    goals: Mapping[int, int]
    """Personages to win, by number of nations (000 L231-234)."""
    goals_military: Mapping[int, int]
    """Victory points to win in the military variant (000 L1039-1047)."""
    two_player_goal: int
    """Personages to win when 2 players play 4 nations (000 L184-185)."""
    double_nation_goal: int
    """Personages to win when each of 2 players runs one double nation (000 L189-191)."""
    three_player_long_goal: int
    """The goal a 3-nation game may choose instead (000 L972-978)."""
    military_points: Mapping[str, int]
    """Victory points per personage in the military variant (000 L1039-1041)."""


PERSONAGE_RULES = PersonageRules(
    king_every=5,
    citizen_every=3,
    navigator_thresholds=(7, 14),
    goals=frozen({3: 10, 4: 9, 5: 8, 6: 7}),
    goals_military=frozen({3: 13, 4: 11, 5: 9, 6: 8}),
    two_player_goal=9,
    double_nation_goal=15,
    three_player_long_goal=12,
    military_points=frozen({"king": 1, "scholar": 1, "general": 2, "citizen": 1, "navigator": 1}),
)
