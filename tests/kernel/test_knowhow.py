"""KNOW-HOW: prices, prerequisites, several in one turn, the scholar (000 L455-514,
L1077-1078; docs/rulings.md Q1 and "Classic Antike numbers")."""

from __future__ import annotations

import pytest

from conftest import apply_orders, codes, edit, make_game, orders_for, play, ready, refusal

PH = "phoenicians"


def bought(game, *names, **fields):
    """The echo entries and events of buying ``names`` on the KNOW-HOW wedge."""
    result = apply_orders(game, orders_for(game, rondel="knowhow", knowhow=list(names), **fields))
    return result.echo["knowhow"], [e for e in result.events if e["type"] == "knowhow"], result


@pytest.mark.parametrize("name, price", [
    ("wheel", 7), ("sailing", 7), ("market", 7), ("monarchy", 7),
])
def test_new_basic_costs_seven(name, price):
    """000 L485-488 "7 gold units per each NEW basic know-how ... New know-hows are those
    which no other nation already possesses"; short rules L1077."""
    g = ready(make_game(), gold=7, coins=0)
    echo, [event], _ = bought(g, name)
    assert echo == [{"name": name, "pay": {"gold": price}}]
    assert (event["price"], event["first"]) == (price, True)


def test_basic_owned_by_another_costs_three():
    """000 L490-492 "3 gold units per each basic ... that one or more of the nations
    already possess"."""
    g = edit(ready(make_game(), gold=7), {"nation": "greeks", "knowhow": ["wheel"]})
    echo, [event], _ = bought(g, "wheel")
    assert echo == [{"name": "wheel", "pay": {"gold": 3}}] and event["first"] is False


@pytest.mark.parametrize("others, price", [([], 10), (["sailing", "navigation"], 5)])
def test_secondary_costs_ten_new_and_five_owned(others, price):
    """000 L485-492 "10 per each NEW secondary know-how ... five for each secondary
    know-how that one or more of the nations already possess"; not the 9/5 of the
    half-map variant (docs/rulings.md Q1)."""
    g = edit(ready(make_game(), gold=10), {"nation": PH, "knowhow": ["sailing"]},
             {"nation": "arabs", "knowhow": others})
    echo, _, _ = bought(g, "navigation")
    assert echo == [{"name": "navigation", "pay": {"gold": price}}]


def test_rulebook_navigation_example_costs_thirteen():
    """000 L499-506 "A nation with no know-hows wants to obtain the know-how navigation.
    Other nations already possess the basic know-how sailing. The nation pays 3 (for
    sailing) + 10 (for the new know-how navigation) = total 13 gold units ... For
    navigation, it is awarded an ancient scholar"."""
    g = edit(ready(make_game(), gold=13, coins=0), {"nation": "greeks", "knowhow": ["sailing"]})
    g2, result = play(g, rondel="knowhow", knowhow=["sailing", "navigation"])
    assert result.echo["knowhow"] == [{"name": "sailing", "pay": {"gold": 3}},
                                      {"name": "navigation", "pay": {"gold": 10}}]
    ns = g2.state.nations[PH]
    assert ns.knowhow == ["navigation", "sailing"] and ns.resources["gold"] == 0
    assert ns.personages["scholar"] == 1
    assert [e["reason"] for e in result.events if e["type"] == "personage"] == ["first to acquire navigation"]


def test_secondary_needs_its_basic():
    """000 L467-474 "To obtain a SECONDARY KNOW-HOW, a nation must already own the
    corresponding BASIC KNOW-HOW"."""
    g = ready(make_game(), gold=30)
    for basic, secondary in [("wheel", "roads"), ("sailing", "navigation"),
                             ("market", "currency"), ("monarchy", "democracy")]:
        [r] = refusal(g, rondel="knowhow", knowhow=[secondary])
        assert (r.code, r.path, r.message) == ("knowhow/needs", "$.knowhow[0].name",
                                               f"{secondary.title()} needs {basic.title()} first")
    # the basic bought earlier in the same turn is enough (000 L458 "one or more")
    echo, _, _ = bought(g, "market", "currency")
    assert echo == [{"name": "market", "pay": {"gold": 7}}, {"name": "currency", "pay": {"gold": 10}}]


def test_basic_after_its_secondary_in_the_list_is_refused():
    """000 L467-469: the basic must be owned already when the secondary is bought, and the
    list runs in order (docs/orders.md)."""
    g = ready(make_game(), gold=30)
    assert codes(g, rondel="knowhow", knowhow=["roads", "wheel"]) == ["knowhow/needs"]


def test_several_know_hows_in_one_turn():
    """000 L458-459 "A nation may secure one or more know-hows by paying gold"."""
    g = edit(ready(make_game(), gold=19, coins=0), {"nation": "arabs", "knowhow": ["monarchy"]})
    g2, result = play(g, rondel="knowhow", knowhow=["wheel", "monarchy", "sailing"])
    assert [k["pay"] for k in result.echo["knowhow"]] == [{"gold": 7}, {"gold": 3}, {"gold": 7}]
    assert g2.state.nations[PH].knowhow == ["monarchy", "sailing", "wheel"]
    assert g2.state.nations[PH].personages["scholar"] == 2  # wheel and sailing were new


def test_a_know_how_bought_first_this_turn_costs_others_less_next_turn():
    """000 L485-492: once a nation possesses a know-how, the others pay the lower price."""
    g = ready(make_game(), gold=7)
    g, _ = play(g, rondel="knowhow", knowhow=["wheel"])
    g = ready(g, gold=3)
    echo, [event], _ = bought(g, "wheel")
    assert echo == [{"name": "wheel", "pay": {"gold": 3}}] and event["first"] is False


def test_owned_and_named_twice():
    """000 L476-481: each know-how is held once (one stone on the progress chart)."""
    g = edit(ready(make_game(), gold=30), {"nation": PH, "knowhow": ["wheel"]})
    rejections = refusal(g, rondel="knowhow", knowhow=["wheel", "sailing", "sailing"])
    assert [(r.code, r.path) for r in rejections] == [("knowhow/owned", "$.knowhow[0].name"),
                                                      ("knowhow/twice", "$.knowhow[2].name")]
    assert [r.message for r in rejections] == ["Phoenicians already owns Wheel", "Sailing is named twice"]


def test_named_twice_even_when_the_first_cannot_be_paid():
    """000 L458-459: a know-how is bought once; the second mention is its own mistake,
    reported as such and not as a second payment problem."""
    g = ready(make_game(), gold=3, coins=0)
    rejections = refusal(g, rondel="knowhow", knowhow=["market", "market"])
    assert [(r.code, r.path) for r in rejections] == [("pay/cannot-afford", "$.knowhow[0]"),
                                                      ("knowhow/twice", "$.knowhow[1].name")]


def test_unpaid_basic_does_not_also_make_its_secondary_missing():
    """000 L467-474 and docs/rulings.md (every problem listed): when the basic named first
    cannot be paid, that is the one problem; the secondary is still priced (10 gold)."""
    g = ready(make_game(), gold=6, coins=0)
    rejections = refusal(g, rondel="knowhow", knowhow=["market", "currency"])
    assert [(r.code, r.path) for r in rejections] == [("pay/cannot-afford", "$.knowhow[0]"),
                                                      ("pay/cannot-afford", "$.knowhow[1]")]
    assert rejections[1].message.startswith("Currency (10 gold) costs 10 gold; Phoenicians has only 6")


def test_know_hows_are_paid_in_gold_or_coins():
    """000 L458-459 (paying gold) and L293-294 (coins substitute for gold chips)."""
    g = ready(make_game(), marble=9, gold=4, coins=3)
    echo, _, _ = bought(g, "monarchy")
    assert echo == [{"name": "monarchy", "pay": {"gold": 4, "coin": 3}}]
    [r] = refusal(g, rondel="knowhow", knowhow=[{"name": "monarchy", "pay": {"marble": 7}}])
    assert (r.code, r.path) == ("pay/wrong-chip", "$.knowhow[0].pay.marble")
