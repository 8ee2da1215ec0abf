"""Antike Duellum (2012): every number of its rules, each citing the English rulebook (key
001), and the values the rulebook does not give, each a ruling of this project
(docs/duellum.md).

Rulings are marked ``RULING``: the know-how price table, the bank's coins and the event
cards' copies. A GM who owns the game enters the printed values with ``new --data FILE``
(:func:`with_data`); the game file keeps them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from pbem.editions.duellum.cards import card_problems
from pbem.kernel import rules
from pbem.kernel.rules import KnowHowSpec, RuleTable, frozen

PRICES: dict[str, tuple[int, int]] = {
    # RULING (docs/duellum.md, "Know-how prices"): the board prints them (001 L313-317), the
    # rulebook gives two: NAVIGATIO costs 3 once the opponent owns it, COMMERCIUM 9 for the
    # first (001 L325). Both are prices of the two-player classic table (6/3 for a basic
    # know-how, 9/5 for an advanced one), so that table fills in the rest: 6/3 for the two
    # movement know-hows, 9/5 for the three that are advanced ones in Antike II (MONETA,
    # RES PUBLICA, COMMERCIUM each need a basic one there).
    "strata": (6, 3),
    "navigatio": (6, 3),
    "moneta": (9, 5),
    "res_publica": (9, 5),
    "commercium": (9, 5),
}
"""Know-how -> (price while the opponent does not own it, price once it does)."""

BANK_COINS = 30
"""RULING (docs/duellum.md, "Coins"): the rulebook lists coins among the material without a
count (001 L45) and says what happens when they run out (001 L238); classic's 30."""

TOKENS: Mapping[str, int] = frozen({"gold": 10, "marble": 12, "iron": 12})
"""The city tokens of the shared bank, by resource (001 L33-38): a city of a type can be
founded only while a token of that type is left (the start cities' included)."""

WALL_MARKS: tuple[int, ...] = (0, 1, 2, 3, 5, 7)
"""The town-wall symbols on the VP track (001 L209-211): a wall into the personal supply
whenever the marker reaches or passes one; the one at 0 is the wall each nation starts with."""

WALLS_PER_NATION = 6
"""12 town walls, 6 per player (001 L39, L209-211): one per symbol."""

SPECIAL_UNITS: Mapping[str, str] = frozen({
    # 001 L435: "Beige receives an Admiral and brown receives a Commander".
    "carthaginians": "commander", "greeks": "commander",
    "romans": "admiral", "persians": "admiral",
})
"""The special unit of each nation in the variant."""

SPECIAL_MOVES_AS: Mapping[str, str] = frozen({"admiral": "galley", "commander": "legion"})
"""001 L437: the Admiral moves as a galley, the Commander as a legion."""

SPECIAL_ARMING_IRON = 3
"""001 L435: arming a special unit costs 3 iron, at a city with a temple only."""

RECRUIT_GOLD: Mapping[str, int] = frozen({"legion": 1, "galley": 2})
"""001 L340: recruiting into the box costs 1 gold per legion, 2 per galley."""

START_BOX: Mapping[str, int] = frozen({"legion": 1, "galley": 1})
"""001 L95: "Both recruitment boxes receive 1 legion and 1 galley each"."""

DISPLAY = 3
"""001 L111-113, L417-419: three cards lie open; the display is refilled after every take."""

GOAL = 9
"""001 L129, L133, L455: the first nation to own 9 personages wins."""


def knowhows(prices: Mapping[str, Any]) -> dict[str, KnowHowSpec]:
    """Duellum's know-hows may be developed in any order (001 L319): none needs another."""
    return {name: KnowHowSpec(name, prices[name][0], prices[name][1]) for name in PRICES}


RULES = RuleTable(
    start_resources=frozen({"marble": 3, "iron": 3, "gold": 3}),  # 001 L99
    unit_cap=12,  # 001 L19-21, L93
    city_stones=sum(TOKENS.values()),  # the shared tokens limit each type (TOKENS), not a nation
    bank_coins=BANK_COINS,
    bank_temples=12,  # 001 L23, L264
    personage_stacks=frozen({"king": 6, "citizen": 4, "scholar": 5, "general": 4,
                             "navigator": 2}),  # 001 L63, L139-163
    coin_each_round=False,  # 001 L463: "The players no longer receive a coin every round."
    temple_marble=6,  # 001 L262
    arming_iron=2,  # 001 L284
    arm_per_city=1,  # 001 L286-287
    arm_per_temple_city=3,
    production_per_city=1,  # 001 L232-236
    production_per_temple_city=3,
    defence_city=1,  # 001 L358-359
    defence_temple_city=3,
    found_cost=frozen({"marble": 1, "iron": 1, "gold": 1}),  # 001 L195
    knowhows=frozen(knowhows(PRICES)),
    production_bonus=frozen({"moneta": 1}),  # 001 L333
    defence_bonus=frozen({"res_publica": 1}),  # 001 L334, L365
    movement=frozen({  # 001 L331-332, L348: one border; two with STRATA / NAVIGATIO
        "legion": frozen({"strata": 2}),
        "galley": frozen({"navigatio": 2}),
    }),
    coin_per_production=True,  # 001 L236
    conquest_uses_action=False,  # 001 L356, L493
)


@dataclass(frozen=True, slots=True)
class PersonageRules:
    """When Duellum's personages are won (001 L137-167, L207-211)."""

    king_every: int = 5
    citizen_every: int = 3
    navigator_thresholds: tuple[int, ...] = (7, 14)
    """"Gaining a Navigator requires control of 7 sea areas" (001 L165), a region without a
    city counting double; 14 for the second (docs/rulings.md Q20, Q34)."""


PERSONAGE_RULES = PersonageRules()

DATA_KEYS = {
    "knowhow_prices": "know-how -> [first price, later price], for any of the five",
    "bank_coins": "coins in the bank at the start",
    "event_cards": "event cards as printed: a list of card entries (docs/duellum.md, \"Event cards\")",
}
"""What ``new --data FILE`` may set in a Duellum game (docs/duellum.md)."""


def data_problems(data: Any, knowhow_names, wedges: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with ``new --data`` for Duellum, in words (event cards are checked by
    :func:`pbem.editions.duellum.cards.card_problems`)."""
    return rules.data_problems(data, DATA_KEYS, {
        "knowhow_prices": lambda prices: rules.price_problems(prices, knowhow_names),
        "bank_coins": rules.bank_coins_problems,
        "event_cards": lambda cards: [f"event_cards: {p}" for p in card_problems(cards, wedges)],
    })


@lru_cache(maxsize=64)
def with_data(data_text: str) -> RuleTable:
    """The rule table of one game: :data:`RULES` with the GM's values (``new --data``)."""
    data = json.loads(data_text) if data_text else {}
    changes = rules.data_changes(data, PRICES, knowhows)
    return replace(RULES, **changes) if changes else RULES
