"""Production on MARBLE, IRON and GOLD (000 L356-388, L534-545; docs/rulings.md Q8).

The Phoenicians (active first in the four-nation game) start with Alexandria (marble),
Tyros (iron) and Paphos (gold).
"""

from __future__ import annotations

import pytest

from conftest import codes, edit, make_game, play, ready

PHOENICIANS = "phoenicians"


def produced(game, wedge):
    """What the active nation produces when it moves to ``wedge``, and the event."""
    nation = game.state.status.active
    before = game.state.nations[nation].resources[wedge]
    after, result = play(game, rondel=wedge)
    [event] = [e for e in result.events if e["type"] == "produce"]
    assert event == {"type": "produce", "nation": nation, "resource": wedge,
                     "amount": after.state.nations[nation].resources[wedge] - before}
    return event["amount"]


@pytest.mark.parametrize("wedge", ["marble", "iron", "gold"])
def test_one_unit_per_city_of_that_type(wedge):
    """000 L360, L374, L382: "1 ... unit per ... city without temple"."""
    g = make_game()
    assert produced(g, wedge) == 1
    extra = {"marble": "sparta", "iron": "knossos", "gold": "cyrene"}[wedge]
    g = edit(g, {"province": extra, "owner": PHOENICIANS})
    assert produced(g, wedge) == 2


@pytest.mark.parametrize("wedge, city", [("marble", "alexandria"), ("iron", "tyros"), ("gold", "paphos")])
def test_three_units_per_city_with_temple(wedge, city):
    """000 L362, L376, L384 "3 ... units per ... city with temple"; L396 "The temple
    triples the city's ability to produce"."""
    g = edit(make_game(), {"province": city, "temple": True})
    assert produced(g, wedge) == 3


def test_rulebook_marble_example():
    """000 L364-368: three marble cities, one with a temple: 1 + 1 + 3 = 5 marble."""
    g = edit(make_game(), {"province": "sparta", "owner": PHOENICIANS},
             {"province": "petra", "owner": PHOENICIANS, "temple": True})
    assert produced(g, "marble") == 5


def test_rulebook_gold_example_with_market_and_currency():
    """000 L542-545 "two gold cities without a temple, and one with a temple produces 5 gold
    units. With the know-how MARKET, the production total rises to 6, and with CURRENCY,
    to 7"."""
    g = edit(make_game(), {"province": "cyrene", "owner": PHOENICIANS},
             {"province": "memphis", "owner": PHOENICIANS, "temple": True})
    assert produced(g, "gold") == 5
    g = edit(g, {"nation": PHOENICIANS, "knowhow": ["market"]})
    assert produced(g, "gold") == 6
    g = edit(g, {"nation": PHOENICIANS, "knowhow": ["market", "currency"]})
    assert produced(g, "gold") == 7


@pytest.mark.parametrize("wedge", ["marble", "iron", "gold"])
def test_market_and_currency_apply_to_every_production_wedge(wedge):
    """000 L534-540 "When producing on MARBLE, IRON, or GOLD, the nation receives one extra
    unit" (MARKET) / "two extra units" (CURRENCY), once per action, not per city."""
    g = edit(make_game(), {"province": {"marble": "sparta", "iron": "knossos", "gold": "cyrene"}[wedge],
                           "owner": PHOENICIANS})
    assert produced(edit(g, {"nation": PHOENICIANS, "knowhow": ["market"]}), wedge) == 3
    assert produced(edit(g, {"nation": PHOENICIANS, "knowhow": ["market", "currency"]}), wedge) == 4


def test_bonus_applies_without_a_city_of_that_type():
    """000 L534-540 ties the bonus to "producing on MARBLE, IRON, or GOLD", not to cities
    (docs/rulings.md Q8): with no iron city, IRON still gives the MARKET unit."""
    g = edit(make_game(), {"province": "tyros", "owner": None})
    assert produced(g, "iron") == 0
    g = edit(g, {"nation": PHOENICIANS, "knowhow": ["market"]})
    assert produced(g, "iron") == 1


def test_only_own_cities_of_that_type_count():
    """000 L357-358 "For every marble city a nation owns": rivals' cities and other
    resource types do not count."""
    g = edit(make_game(), {"province": "pella", "temple": True})  # a Greek marble city
    assert produced(g, "marble") == 1


def test_a_production_wedge_takes_no_action_key():
    """docs/orders.md: production is automatic, so no action key fits a production wedge
    (000 L442-445: production wedges produce, utilization wedges use)."""
    g = ready(make_game(), marble=5)
    assert codes(g, rondel="marble", temples=["alexandria"]) == ["orders/wrong-action"]
