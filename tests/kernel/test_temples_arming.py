"""TEMPLE and ARMING (000 L390-434, L154-159, L878-884; docs/rulings.md Q26).

The Phoenicians (active first) own Alexandria (marble, coastal), Tyros (iron, coastal)
and Paphos (gold, sea-only); the Persians' cities are all land-only.
"""

from __future__ import annotations

from conftest import apply_orders, codes, edit, make_game, orders_for, pass_until, play, ready, refusal

PH = "phoenicians"


def test_temple_costs_five_marble():
    """000 L391-394 "For each new temple, it pays the bank five marble units"."""
    g = ready(make_game(), marble=6, coins=0)
    g2, result = play(g, rondel="temple", temples=["tyros"])
    assert g2.state.provinces["tyros"].temple
    assert g2.state.nations[PH].resources["marble"] == 1
    assert g2.state.bank.temples == 19
    assert result.echo["temples"] == [{"city": "tyros", "pay": {"marble": 5}}]


def test_coins_make_up_for_missing_marble():
    """000 L293-294 "These coins can substitute at all times for 1-unit marble, iron, or
    gold chips"; docs/rulings.md D7: exact chips first, coins for the shortfall."""
    g = ready(make_game(), marble=3, coins=2)
    g2, result = play(g, rondel="temple", temples=["alexandria"])
    assert result.echo["temples"] == [{"city": "alexandria", "pay": {"marble": 3, "coin": 2}}]
    assert (g2.state.nations[PH].coins, g2.state.bank.coins) == (0, g.state.bank.coins + 2)


def test_several_temples_in_one_turn():
    """000 L391 "A nation may build one or more new temples"."""
    g = ready(make_game(), marble=10, coins=0)
    g2, _ = play(g, rondel="temple", temples=["alexandria", {"city": "paphos", "pay": {"marble": 5}}])
    assert g2.state.temples(PH) == ["alexandria", "paphos"]
    assert g2.state.nations[PH].resources["marble"] == 0


def test_one_temple_per_city():
    """000 L401 "Only one temple can be built per city"."""
    g = edit(ready(make_game(), marble=20), {"province": "tyros", "temple": True})
    rejections = refusal(g, rondel="temple", temples=["tyros", "alexandria", "alexandria"])
    assert [(r.code, r.path) for r in rejections] == [
        ("temple/already", "$.temples[0].city"), ("temple/twice", "$.temples[2].city")]
    assert rejections[0].message == "Tyros already has a temple"


def test_temples_only_in_own_cities():
    """000 L393-394: the temple is placed "beside the city" of the nation building it."""
    g = ready(make_game(), marble=10)
    [r] = refusal(g, rondel="temple", temples=["athen"])
    assert (r.code, r.path, r.message) == ("temple/not-own-city", "$.temples[0].city",
                                           "Athen is not a city of Phoenicians")
    assert codes(g, rondel="temple", temples=["knossos"]) == ["temple/not-own-city"]


def test_no_temple_when_the_bank_has_none():
    """000 L401-404 "If all 20 temples are already on the game board, no further temples
    can be built"; L882-883."""
    g = edit(ready(make_game(), marble=10), {"bank": {"temples": 1}})
    [r] = refusal(g, rondel="temple", temples=["tyros", "alexandria"])
    assert (r.code, r.path) == ("temple/bank-empty", "$.temples[1].city")


def test_temple_payment_problems():
    """000 L391-392 (five marble) and L293-294 (coins substitute): a payment must add up
    to 5, use only marble or coins, and be held."""
    g = ready(make_game(), marble=4, iron=2, coins=0)
    rejections = refusal(g, rondel="temple", temples=[{"city": "tyros", "pay": {"marble": 3, "iron": 2}}])
    assert [(r.code, r.path) for r in rejections] == [("pay/wrong-chip", "$.temples[0].pay.iron")]
    assert rejections[0].message == "a temple in Tyros cannot be paid with iron"
    [r] = refusal(g, rondel="temple", temples=["tyros"])
    assert (r.code, r.path) == ("pay/cannot-afford", "$.temples[0]")
    assert "costs 5" in r.message and "only 4" in r.message


def test_arming_costs_one_iron_per_unit():
    """000 L407-410 "For each new military unit, it pays the bank one iron unit, then sets
    up the unit in a province where the nation already owns a city"."""
    g = ready(make_game(), iron=2, coins=0)
    g2, result = play(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros"},
                                               {"unit": "galley", "at": "alexandria"}])
    assert g2.state.provinces["tyros"].count(PH, "legion") == 1
    assert g2.state.provinces["alexandria"].count(PH, "galley") == 1
    assert g2.state.nations[PH].resources["iron"] == 0
    assert [a["pay"] for a in result.echo["arm"]] == [{"iron": 1}, {"iron": 1}]


def test_one_unit_per_city_without_temple_three_with():
    """000 L411-417 "1 unit in province where the nation owns a city without a temple
    • 3 units in a province where the nation owns a city with a temple"."""
    g = edit(ready(make_game(), iron=10), {"province": "tyros", "temple": True})
    g2, _ = play(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros", "count": 2},
                                          {"unit": "galley", "at": "tyros"},
                                          {"unit": "galley", "at": "alexandria"}])
    assert g2.state.provinces["tyros"].units[PH] == {"legion": 2, "galley": 1}
    rejections = refusal(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros", "count": 3},
                                                  {"unit": "galley", "at": "tyros"},
                                                  {"unit": "legion", "at": "alexandria", "count": 2}])
    assert [(r.code, r.path) for r in rejections] == [
        ("arm/limit", "$.arm[1].count"), ("arm/limit", "$.arm[2].count")]
    assert rejections[0].message == "Tyros may arm 3 unit(s) this turn (4 asked)"
    assert rejections[1].message == "Alexandria may arm 1 unit(s) this turn (2 asked)"


def test_the_limit_counts_new_units_only_and_foreign_units_do_not_block():
    """000 L419-424 "The above limits apply only to new units set up per turn ... The
    presence of foreign units does not prevent setting up new units"."""
    g = edit(ready(make_game(), iron=1),
             {"province": "tyros", "units": {PH: {"legion": 5}, "greeks": {"legion": 2}}})
    g2, _ = play(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros"}])
    assert g2.state.provinces["tyros"].units == {PH: {"legion": 6, "galley": 0},
                                                 "greeks": {"legion": 2, "galley": 0}}


def test_sea_only_provinces_take_galleys_and_land_only_legions():
    """000 L426-428 "Only galleys can be set up in provinces with only blue sea borders;
    only legions can be set up in provinces with only red land borders"; coastal provinces
    take both (docs/rulings.md Q26)."""
    g = ready(make_game(), iron=5)
    [r] = refusal(g, rondel="arming", arm=[{"unit": "legion", "at": "paphos"}])
    assert (r.code, r.path, r.message) == ("arm/wrong-terrain", "$.arm[0].unit",
                                           "a legion cannot be armed in Paphos (sea-only)")
    g2, _ = play(g, rondel="arming", arm=[{"unit": "galley", "at": "paphos"}, {"unit": "legion", "at": "tyros"}])
    assert g2.state.provinces["paphos"].count(PH, "galley") == 1
    g = ready(pass_until(make_game(), "persians"), iron=5)
    [r] = refusal(g, rondel="arming", arm=[{"unit": "galley", "at": "susa"}])
    assert (r.code, r.message) == ("arm/wrong-terrain", "a galley cannot be armed in Susa (land-only)")
    g2, _ = play(g, rondel="arming", arm=[{"unit": "legion", "at": "susa"}])
    assert g2.state.provinces["susa"].count("persians", "legion") == 1


def test_no_more_than_seventeen_units_of_a_type():
    """000 L154-159 "17 legions, 17 galleys ... No nation can have any more than this
    number"; L883-884 "If a nation has no more legions in supply, it cannot set up new
    legions"."""
    g = edit(ready(make_game(), iron=5), {"province": "alexandria", "temple": True},
             {"province": "cyrene", "units": {PH: {"legion": 15}}})
    g2, _ = play(g, rondel="arming", arm=[{"unit": "legion", "at": "alexandria", "count": 2}])
    assert g2.state.units_on_board(PH, "legion") == 17
    [r] = refusal(g, rondel="arming", arm=[{"unit": "legion", "at": "alexandria", "count": 2},
                                           {"unit": "legion", "at": "tyros"}])
    assert (r.code, r.path, r.message) == ("arm/no-stock", "$.arm[1].count",
                                           "Phoenicians has 0 legion(s) left in stock, 1 asked")
    g3, _ = play(g, rondel="arming", arm=[{"unit": "legion", "at": "alexandria", "count": 2},
                                          {"unit": "galley", "at": "tyros"}])
    assert g3.state.units_on_board(PH, "galley") == 1


def test_arming_only_in_own_cities():
    """000 L409-410 "sets up the unit in a province where the nation already owns a city"."""
    g = edit(ready(make_game(), iron=5), {"province": "cyrene", "units": {PH: {"legion": 1}}})
    rejections = refusal(g, rondel="arming", arm=[{"unit": "legion", "at": "cyrene"},
                                                  {"unit": "legion", "at": "athen"}])
    assert [(r.code, r.path) for r in rejections] == [("arm/not-own-city", "$.arm[0].at"),
                                                      ("arm/not-own-city", "$.arm[1].at")]
    assert rejections[1].message == "Athen is not a city of Phoenicians"


def test_arming_paid_with_coins_and_refused_when_unpaid():
    """000 L407-409 (one iron per unit) and L293-294 (coins substitute): the second unit
    is paid with a coin; with nothing left the third is refused."""
    g = edit(ready(make_game(), iron=1, coins=1), {"province": "tyros", "temple": True})
    result = apply_orders(g, orders_for(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros", "count": 2}]))
    assert result.echo["arm"][0]["pay"] == {"iron": 1, "coin": 1}
    [r] = refusal(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros", "count": 3}])
    assert (r.code, r.path) == ("pay/cannot-afford", "$.arm[0]")
