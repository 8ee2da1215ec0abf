"""Founding cities (000 L336-346, L154-159, L729-733) and the all-eight bank trade
(000 L508-514, L889-895; docs/rulings.md Q25 and "Smaller rulings")."""

from __future__ import annotations

from conftest import apply_orders, codes, edit, make_game, orders_for, pass_until, play, ready, refusal

PH = "phoenicians"
ALL8 = ["wheel", "roads", "sailing", "navigation", "market", "currency", "monarchy", "democracy"]


def with_units(game, **units):
    """``game`` with Phoenician units placed: ``cyrene={"legion": 1}``."""
    return edit(game, *({"province": p, "units": {PH: u}} for p, u in units.items()))


def test_found_with_an_own_unit_for_marble_iron_and_gold():
    """000 L337-346 "The nation must however have at least one military unit (legion or
    galley) in the province ... pay the bank one marble, one iron and one gold unit"."""
    g = with_units(ready(make_game(), marble=1, iron=1, gold=1, coins=1), cyrene={"legion": 1})
    g2, result = play(g, rondel="temple", found=["cyrene"])
    assert g2.state.provinces["cyrene"].owner == PH
    assert result.echo["found"] == [{"city": "cyrene", "pay": {"marble": 1, "iron": 1, "gold": 1}}]
    assert [e for e in result.events if e["type"] == "found"] == [
        {"type": "found", "nation": PH, "city": "cyrene", "paid": {"marble": 1, "iron": 1, "gold": 1}}]


def test_coins_substitute_for_missing_chips():
    """000 L344-345 "Coins can substitute for lacking marble, iron or gold chips"."""
    g = with_units(ready(make_game(), marble=1, iron=0, gold=0, coins=2), knossos={"galley": 1})
    g2, result = play(g, rondel="temple", found=["knossos"])
    assert result.echo["found"] == [{"city": "knossos", "pay": {"marble": 1, "coin": 2}}]
    assert g2.state.nations[PH].coins == 0


def test_several_cities_in_one_turn_and_a_galley_is_enough():
    """000 L337 "A nation may found one or more new cities"; L338-339 "(legion or galley)"."""
    g = with_units(ready(make_game(), marble=2, iron=2, gold=2, coins=0),
                   cyrene={"legion": 1}, knossos={"galley": 1})
    g2, _ = play(g, rondel="temple", found=["cyrene", "knossos"])
    assert g2.state.cities(PH) == ["alexandria", "cyrene", "knossos", "paphos", "tyros"]


def test_foreign_units_do_not_prevent_founding():
    """000 L340-341 "Foreign military units in the province cannot prevent the city's
    founding"."""
    g = edit(ready(make_game(), marble=1, iron=1, gold=1),
             {"province": "cyrene", "units": {PH: {"legion": 1}, "greeks": {"legion": 3}}})
    g2, _ = play(g, rondel="temple", found=["cyrene"])
    assert g2.state.provinces["cyrene"].owner == PH


def test_founding_needs_an_own_unit_and_a_free_site():
    """000 L337-340 (an own unit in the province) and L75-76 (one city site per province)."""
    g = edit(ready(make_game(), marble=5, iron=5, gold=5),
             {"province": "cyrene", "units": {"greeks": {"legion": 1}}},
             {"province": "athen", "units": {PH: {"galley": 1}}})
    rejections = refusal(g, rondel="temple", found=["cyrene", "athen", "tyros", "atlantis"])
    assert [(r.code, r.path) for r in rejections] == [
        ("found/no-unit", "$.found[0].city"), ("found/occupied", "$.found[1].city"),
        ("found/occupied", "$.found[2].city"), ("found/not-a-province", "$.found[3].city")]
    assert [r.message for r in rejections] == [
        "Phoenicians has no legion or galley in Cyrene", "Athen already has a city (Greeks)",
        "Tyros already has a city (Phoenicians)", "'atlantis' is not a province of this board"]


def test_the_same_site_twice_is_refused():
    """000 L75-76: each province has the site of one city."""
    g = with_units(ready(make_game(), marble=5, iron=5, gold=5), cyrene={"legion": 1})
    [r] = refusal(g, rondel="temple", found=["cyrene", "cyrene"])
    assert (r.code, r.path, r.message) == ("found/twice", "$.found[1].city", "Cyrene is named twice")


def test_no_city_without_a_city_stone():
    """000 L154-159 "25 city stones ... No nation can have any more than this number";
    L880-881 (a nation that runs out must continue without it)."""
    g = make_game()
    free = [p for p in sorted(g.board.provinces) if p not in g.state.provinces and p not in ("cyrene", "knossos")]
    g = edit(ready(g, marble=5, iron=5, gold=5), *({"province": p, "owner": PH} for p in free[:21]))
    g = with_units(g, cyrene={"legion": 1}, knossos={"galley": 1})
    assert len(g.state.cities(PH)) == 24
    g2, _ = play(g, rondel="temple", found=["cyrene"])
    assert len(g2.state.cities(PH)) == 25
    [r] = refusal(g, rondel="temple", found=["cyrene", "knossos"])
    assert (r.code, r.path, r.message) == ("found/no-stone", "$.found[1].city",
                                           "Phoenicians has no city stone left (25 cities)")


def test_founding_payment_problems():
    """000 L342-345: one marble, one iron, one gold, coins for lacking chips, exactly."""
    g = with_units(ready(make_game(), marble=3, iron=0, gold=0, coins=0), cyrene={"legion": 1})
    [r] = refusal(g, rondel="temple", found=["cyrene"])
    assert (r.code, r.path) == ("pay/cannot-afford", "$.found[0]")
    [r] = refusal(g, rondel="temple", found=[{"city": "cyrene", "pay": {"marble": 3}}])
    assert (r.code, r.path, r.message) == ("pay/too-many", "$.found[0].pay.marble",
                                           "a city in Cyrene needs only 1 marble; "
                                           "pay the rest with coins or the right chips")


def test_rulebook_trade_example():
    """000 L891-895 "it can, for example, trade 3 gold and 1 marble units for 2 iron
    units, with which it can then set up 2 military units"; trades run before the rondel
    move (docs/rulings.md), so the iron pays for the arming."""
    g = edit(ready(make_game(), marble=1, iron=0, gold=3, coins=0),
             {"nation": PH, "knowhow": ALL8, "all8_bonus": True})
    g2, result = play(g, trade=[{"give": {"gold": 2}, "get": "iron"},
                                {"give": {"gold": 1, "marble": 1}, "get": "iron"}],
                      rondel="arming", arm=[{"unit": "legion", "at": "tyros"}, {"unit": "galley", "at": "paphos"}])
    assert [e["type"] for e in result.events][:3] == ["trade", "trade", "rondel"]
    assert [a["pay"] for a in result.echo["arm"]] == [{"iron": 1}, {"iron": 1}]
    assert g2.state.nations[PH].resources == {"marble": 0, "iron": 0, "gold": 0}


def test_trade_needs_all_eight_know_hows():
    """000 L512-514 "nations with all eight know-hows can trade ... with the bank"."""
    g = edit(ready(make_game(), gold=4), {"nation": PH, "knowhow": ALL8[:7]})
    [r] = refusal(g, trade=[{"give": {"gold": 2}, "get": "iron"}], rondel="iron")
    assert (r.code, r.path) == ("trade/not-allowed", "$.trade")
    assert r.message.startswith("phoenicians owns 7 of the 8 know-hows")


def test_no_trade_in_the_turn_the_eighth_is_bought():
    """000 L512-514 with Q25/Q31 in docs/rulings.md: trading is possible from the
    turn after the eighth know-how was acquired (trades run before the purchase)."""
    g = edit(ready(make_game(), gold=10), {"nation": PH, "knowhow": ALL8[:7]})
    assert codes(g, trade=[{"give": {"gold": 2}, "get": "iron"}], rondel="knowhow",
                 knowhow=["democracy"]) == ["trade/not-allowed"]
    g, _ = play(g, rondel="knowhow", knowhow=["democracy"])
    g = ready(pass_until(g, PH), gold=2, iron=0)
    g2, _ = play(g, trade=[{"give": {"gold": 2}, "get": "iron"}], rondel="temple")
    assert g2.state.nations[PH].resources["iron"] == 1


def test_trade_is_two_for_one_from_chips_held():
    """000 L513-514 "at a rate of 2 for 1"; L873-876 (the bank gives no credit)."""
    g = edit(ready(make_game(), marble=1, gold=5), {"nation": PH, "knowhow": ALL8, "all8_bonus": True})
    rejections = refusal(g, trade=[{"give": {"gold": 3}, "get": "iron"}, {"give": {"marble": 2}, "get": "iron"}],
                         rondel="iron")
    assert [(r.code, r.path) for r in rejections] == [("trade/ratio", "$.trade[0].give"),
                                                      ("trade/not-enough", "$.trade[1].give.marble")]
    assert rejections[0].message == ("a trade gives 2 chips for 1 (or 4 for 2, 6 for 3, ...), each entry at one "
                                     "rate; this one gives 3 for 1")
    assert rejections[1].message == "Phoenicians has 1 marble, the trade gives 2"


def test_trade_and_founding_need_a_turn():
    """docs/orders.md: a file without a rondel move changes standing orders only (000 L306-307:
    founding follows the rondel action)."""
    g = with_units(ready(make_game(), marble=3, iron=3, gold=3), cyrene={"legion": 1})
    rejections = refusal(g, found=["cyrene"], trade=[{"give": {"gold": 2}, "get": "iron"}])
    assert [(r.code, r.path) for r in rejections] == [("orders/action-without-rondel", "$.trade"),
                                                      ("orders/action-without-rondel", "$.found")]
    assert apply_orders(g, orders_for(g, rondel="iron", found=["cyrene"])).state.provinces["cyrene"].owner == PH
