"""Antike II (2014): every number of its rules, each citing the English rulebook (key 003),
and the values the rulebook does not give, each a ruling of this project (docs/antike2.md).

Rulings are marked ``RULING``: the know-how price table, the goals for 4 and 5 nations
and the bank's coins. A GM who owns the game enters the printed values with
``new --data FILE`` (:func:`with_data`); the game file keeps them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from pbem.kernel import rules
from pbem.kernel.rules import KnowHowSpec, RuleTable, frozen

PRICES: dict[str, tuple[int, int]] = {
    # RULING (docs/antike2.md, "Know-how prices"): the board prints the prices (003 L383),
    # the rulebook does not. These fit every price its example names (003 L375-395):
    # STRATA later 3, MERCATURA later 2 (MERCATURA and STRATA for 5), REGNUM later 6,
    # NAVIGATIO first 8, METALLUM later + MONETA first 17.
    "mercatura": (5, 2),
    "commercium": (9, 5),
    "metallum": (7, 4),
    "moneta": (13, 8),
    "regnum": (9, 6),
    "res_publica": (13, 9),
    "strata": (8, 3),
    "navigatio": (8, 3),
}
"""Know-how -> (price while no other nation owns it, price once one does)."""

REQUIRES = {"commercium": "mercatura", "moneta": "metallum", "res_publica": "regnum"}
"""003 L397: "Know-Hows in vertical order have to be developed one after another"."""

GOALS: dict[int, int] = {3: 10, 4: 9, 5: 8, 6: 7}
"""Personages to win by number of nations: 6 -> 7 and 3 -> 10 are printed (003 L246);
4 -> 9 and 5 -> 8 are a RULING (docs/rulings.md Q10: classic's table, which matches both
printed values)."""

BANK_COINS = 30
"""RULING (docs/antike2.md, "Coins"): the rulebook limits the coins (003 L156) without a
count; classic's 30 (000 L47)."""

PRINTED_SCHOLARS = 8
"""8 scholars, a 9th (Pliny the Elder) in the nine-scholars variant (003 L218-220); the
card count agrees: 53 cards (003 L126) less 14 nation and temple cards and 2 BELLONA cards
(003 L136-138) leave 37 personages, 28 of them not scholars (003 L202-226)."""


def knowhows(prices: Mapping[str, Any]) -> dict[str, KnowHowSpec]:
    return {name: KnowHowSpec(name, prices[name][0], prices[name][1], REQUIRES.get(name)) for name in PRICES}


RULES = RuleTable(
    start_resources=frozen({"marble": 3, "iron": 3, "gold": 3}),  # 003 L98, L110
    unit_cap=13,
    unit_caps=frozen({"legion": 12, "galley": 13}),  # 003 L164-166
    city_stones=24,  # 003 L124: 24 double-sided tokens per nation
    bank_coins=BANK_COINS,
    bank_temples=20,  # 003 L184, L365
    personage_stacks=frozen({"king": 10, "scholar": PRINTED_SCHOLARS, "general": 7, "citizen": 6,
                             "navigator": 5}),  # 003 L202-226
    coin_each_round=False,  # 003 L312: a coin per production action instead
    temple_marble=5,  # 003 L359
    arming_iron=2,  # 003 L332
    arm_per_city=1,  # 003 L336-337
    arm_per_temple_city=3,
    production_per_city=1,  # 003 L305-308
    production_per_temple_city=3,
    defence_city=1,  # 003 L19
    defence_temple_city=3,
    found_cost=frozen({"marble": 1, "iron": 1, "gold": 1}),  # 003 L270
    knowhows=frozen(knowhows(PRICES)),
    production_bonus=frozen({"moneta": 2, "metallum": 1}),  # 003 L403-404 ("altogether")
    defence_bonus=frozen({"res_publica": 2, "regnum": 1}),  # 003 L25-26, L405-406
    movement=frozen({  # 003 L5, L407-408: one border; two with STRATA / NAVIGATIO
        "legion": frozen({"strata": 2}),
        "galley": frozen({"navigatio": 2}),
    }),
    coin_per_production=True,  # 003 L312
    conquest_uses_action=False,  # 003 L15, L230
    neutral_temple_defence=3,  # 003 L30
)


@dataclass(frozen=True, slots=True)
class PersonageRules:
    """When Antike II's personages are won (003 L202-226, L240-248)."""

    king_every: int = 5
    citizen_every: int = 3
    navigator_thresholds: tuple[int, ...] = (7, 14)
    """"control of 7 sea areas" (003 L226): provinces holding an own galley at the end of
    the turn, as in classic (docs/rulings.md Q20); 14 for a second."""
    small_nation: int = 2
    """A nation with at most this many personages defends each city with +1 (003 L248)."""


PERSONAGE_RULES = PersonageRules()

DATA_KEYS = {
    "knowhow_prices": "know-how -> [first price, later price], for any of the eight",
    "goals": "number of nations (3-6) -> personages to win",
    "bank_coins": "coins in the bank at the start",
    "neutral_temples": "the provinces with a neutral temple at the start (instead of the board's)",
}
"""What ``new --data FILE`` may set in an Antike II game (each a value the rulebook does
not print; docs/antike2.md)."""


def data_problems(data: Any, knowhow_names, provinces) -> list[str]:
    """What is wrong with ``new --data`` for Antike II, in words."""
    return rules.data_problems(data, DATA_KEYS, {
        "knowhow_prices": lambda prices: rules.price_problems(prices, knowhow_names),
        "goals": _goal_problems,
        "bank_coins": rules.bank_coins_problems,
        "neutral_temples": lambda temples: _temple_problems(temples, provinces),
    })


def _goal_problems(goals: Any) -> list[str]:
    if not isinstance(goals, dict) or not all(k in ("3", "4", "5", "6") and rules.whole_number(v, 1)
                                              for k, v in goals.items()):
        return ["goals: an object, \"3\"..\"6\" -> personages to win (a whole number from 1)"]
    return []


def _temple_problems(temples: Any, provinces) -> list[str]:
    if not isinstance(temples, list) or not all(isinstance(p, str) for p in temples):
        return ["neutral_temples: a list of province ids"]
    out = [f"neutral_temples: {p!r} is not a province of the board" for p in temples if p not in provinces]
    if len(set(temples)) != len(temples):
        out.append("neutral_temples: a province is named twice")
    return out


@lru_cache(maxsize=64)
def with_data(data_text: str, nine_scholars: bool, free_city_types: bool) -> RuleTable:
    """The rule table of one game: :data:`RULES` with the GM's values (``new --data``,
    kept as canonical JSON text in the game) and the variants' changes."""
    data = json.loads(data_text) if data_text else {}
    changes = rules.data_changes(data, PRICES, knowhows)
    if nine_scholars:  # 003 L102-110, L218-220: Pliny the Elder, a ninth scholar
        changes["personage_stacks"] = frozen({**RULES.personage_stacks, "scholar": PRINTED_SCHOLARS + 1})
    if free_city_types:  # 003 L106-108
        changes["free_city_types"] = True
    return replace(RULES, **changes) if changes else RULES
