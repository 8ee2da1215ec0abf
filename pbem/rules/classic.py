"""Classic Antike (2005). Each number cites the English rulebook (key 000) by line."""

from __future__ import annotations

from pbem.rules.table import KnowHowSpec, RuleTable, frozen

_KNOWHOWS = {
    # 000 L485-492: 7 new basic, 3 basic owned by another; 10 new secondary, 5.
    "wheel": KnowHowSpec("wheel", 7, 3),
    "sailing": KnowHowSpec("sailing", 7, 3),
    "market": KnowHowSpec("market", 7, 3),
    "monarchy": KnowHowSpec("monarchy", 7, 3),
    # 000 L467-474: a secondary needs its basic first.
    "roads": KnowHowSpec("roads", 10, 5, "wheel"),
    "navigation": KnowHowSpec("navigation", 10, 5, "sailing"),
    "currency": KnowHowSpec("currency", 10, 5, "market"),
    "democracy": KnowHowSpec("democracy", 10, 5, "monarchy"),
}

CLASSIC = RuleTable(
    edition="antike",
    start_resources=frozen({"marble": 2, "iron": 1, "gold": 3}),  # 000 L149-151
    unit_cap=17,  # 000 L154-159
    city_stones=25,  # 000 L154-159
    bank_coins=30,  # 000 L47
    bank_temples=20,  # 000 L50, L100
    personage_stacks=frozen({"king": 9, "scholar": 8, "general": 7, "citizen": 6, "navigator": 5}),  # 000 L252-271
    coin_each_round=True,  # 000 L289-292, rules-digest Q4
    free_steps=3,  # 000 L316-321
    repeat_cost=5,  # 000 L321-326
    temple_marble=5,  # 000 L392
    arming_iron=1,  # 000 L409
    arm_per_city=1,  # 000 L411-417
    arm_per_temple_city=3,
    production_per_city=1,  # 000 L360-362
    production_per_temple_city=3,
    defence_city=1,  # 000 L661-665
    defence_temple_city=3,
    found_cost=frozen({"marble": 1, "iron": 1, "gold": 1}),  # 000 L342-345
    knowhows=frozen(_KNOWHOWS),
    production_bonus=frozen({"currency": 2, "market": 1}),  # 000 L542-545
    defence_bonus=frozen({"democracy": 2, "monarchy": 1}),  # 000 L672-674
    moves_legion=frozen({"roads": 3, "wheel": 2}),  # 000 L577-583
    moves_galley=frozen({"navigation": 3, "sailing": 2}),
    king_every=5,  # 000 L252-278
    citizen_every=3,
    navigator_thresholds=(7, 14),
    goals=frozen({3: 10, 4: 9, 5: 8, 6: 7}),  # 000 L231-234
    goals_military=frozen({3: 13, 4: 11, 5: 9, 6: 8}),  # 000 L1039-1047
    two_player_goal=9,  # 000 L184-185
    three_player_long_goal=12,  # 000 L972-978
    military_points=frozen({"king": 1, "scholar": 1, "general": 2, "citizen": 1, "navigator": 1}),
    nation_colours=frozen({
        "greeks": "#2f6fce", "persians": "#c8352b", "arabs": "#2e9a47", "phoenicians": "#e0b21c",
        "egyptians": "#8a5a2b", "babylonians": "#7d4fb3", "romans": "#c8352b", "germans": "#555555",
        "carthaginians": "#e07a1c",
    }),
)
