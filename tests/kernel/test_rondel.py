"""Moving on the rondel and paying for it (000 L309-334; docs/rulings.md "Rondel", D7).

Wedges clockwise: IRON 0, TEMPLE 1, GOLD 2, MANEUVER 3, ARMING 4, MARBLE 5, KNOW-HOW 6,
MANEUVER 7. Steps = (target - current) mod 8 (0 means 8); cost = max(0, steps - 3).
"""

from __future__ import annotations

import pytest

from conftest import CLASSIC, apply_orders, make_game, orders_for, play, ready, refusal

RONDEL = [field.name for field in CLASSIC.rondel.fields]

IRON, TEMPLE, GOLD, MANEUVER, ARMING, MARBLE, KNOWHOW, MANEUVER2 = range(8)


def rondel_echo(game, move):
    """The echo of the rondel move and the active nation's index after it."""
    result = apply_orders(game, orders_for(game, rondel=move))
    return result.echo["rondel"], result.state.nations[game.state.status.active].rondel


@pytest.mark.parametrize("index", range(8))
def test_first_move_is_free_on_any_wedge(index):
    """000 L312-313 "For the first turn, each nation can select any wedge on the rondel"."""
    g = ready(make_game(), marble=0, iron=0, gold=0, coins=0)
    wedge = RONDEL[index]
    move = {"to": wedge, "steps": index} if index == MANEUVER2 else wedge
    echo, lands = rondel_echo(g, move)
    assert lands == index
    assert echo["pay"] == {}


def test_first_move_maneuver_means_the_first_maneuver_wedge():
    """000 L312 (first move anywhere); docs/rulings.md: 'maneuver' alone is index 3, and
    steps count from IRON, so steps 7 is the second MANEUVER wedge."""
    g = make_game()
    assert rondel_echo(g, "maneuver") == ({"to": "maneuver", "pay": {}}, MANEUVER)
    assert rondel_echo(g, {"to": "maneuver", "steps": 7}) == ({"to": "maneuver", "steps": 7, "pay": {}}, MANEUVER2)
    assert rondel_echo(g, {"to": "maneuver", "steps": 3}) == ({"to": "maneuver", "steps": 3, "pay": {}}, MANEUVER)


def test_first_move_steps_that_miss_the_wedge_are_refused():
    """000 L312; docs/rulings.md: on a first move steps count from IRON (3 steps is MANEUVER)."""
    [r] = refusal(make_game(), rondel={"to": "gold", "steps": 3})
    assert (r.code, r.path) == ("rondel/wrong-steps", "$.rondel.steps")
    assert "3 steps" in r.message and "gold" in r.message and "maneuver" in r.message


@pytest.mark.parametrize("target, steps, cost", [
    ("temple", 1, 0), ("gold", 2, 0), ("maneuver", 3, 0), ("arming", 4, 1), ("marble", 5, 2),
])
def test_rulebook_example_from_iron(target, steps, cost):
    """000 L330-334 "A nation's game stone is on IRON. It can advance to TEMPLE, GOLD, or
    MANEUVER free of charge. But to advance to ARMING, it must pay the bank one resource,
    to MARBLE two resources"."""
    g = ready(make_game(), rondel=IRON, marble=5, iron=0, gold=0, coins=0)
    echo, lands = rondel_echo(g, target)
    assert RONDEL[lands] == target and echo["steps"] == steps
    assert echo["pay"] == ({"marble": cost} if cost else {})


@pytest.mark.parametrize("start", range(8))
@pytest.mark.parametrize("steps", range(1, 9))
def test_cost_is_one_resource_per_step_beyond_three(start, steps):
    """000 L316-321 "one, two or three wedges ... free of charge ... per each additional
    wedge, one resource"; docs/rulings.md: cost = max(0, steps - 3), 0 steps meaning 8."""
    g = ready(make_game(), rondel=start, marble=0, iron=0, gold=0, coins=10)
    target = (start + steps) % 8
    result = apply_orders(g, orders_for(g, rondel={"to": RONDEL[target], "steps": steps}))
    cost = max(0, steps - 3)
    assert result.echo["rondel"] == {"to": RONDEL[target], "steps": steps,
                                     "pay": {"coin": cost} if cost else {}}
    ns = result.state.nations[g.state.status.active]
    assert (ns.rondel, ns.coins) == (target, 10 - cost)
    assert result.state.bank.coins == g.state.bank.coins + cost


def test_same_wedge_again_costs_eight_steps_and_five_resources():
    """000 L321-326 "It is not possible simply to remain on the wedge ... advance eight
    wedges and pay the bank five resource units of its choice"."""
    g = ready(make_game(), rondel=GOLD, marble=2, iron=1, gold=2, coins=0)
    echo, lands = rondel_echo(g, "gold")
    assert lands == GOLD
    assert echo == {"to": "gold", "steps": 8, "pay": {"marble": 2, "iron": 1, "gold": 2}}
    [r] = refusal(g, rondel={"to": "gold", "pay": {"gold": 2, "marble": 2}})
    assert (r.code, r.path) == ("pay/wrong-total", "$.rondel.pay")
    assert "8 steps costs 5" in r.message and "adds up to 4" in r.message


def test_same_wedge_refused_when_five_cannot_be_paid():
    """000 L321-326: staying is impossible, moving round costs 5; 4 resources are not enough."""
    g = ready(make_game(), rondel=GOLD, marble=1, iron=1, gold=1, coins=1)
    [r] = refusal(g, rondel="gold")
    assert (r.code, r.path) == ("pay/cannot-afford", "$.rondel")
    assert "costs 5" in r.message and "only 4" in r.message


def test_the_two_maneuver_wedges_are_distinct():
    """000 L453 "The Maneuver wedge which is printed twice"; docs/rulings.md: the two MANEUVER
    wedges are distinct fields, so MANEUVER to MANEUVER is 4 steps and costs 1."""
    g = ready(make_game(), rondel=MANEUVER, marble=0, iron=0, gold=1, coins=0)
    assert rondel_echo(g, "maneuver") == ({"to": "maneuver", "steps": 4, "pay": {"gold": 1}}, MANEUVER2)
    g = ready(g, rondel=MANEUVER2)
    assert rondel_echo(g, "maneuver") == ({"to": "maneuver", "steps": 4, "pay": {"gold": 1}}, MANEUVER)
    g = ready(g, rondel=MANEUVER2, gold=5)
    assert rondel_echo(g, {"to": "maneuver", "steps": 8}) == (
        {"to": "maneuver", "steps": 8, "pay": {"gold": 5}}, MANEUVER2)


def test_maneuver_means_the_nearer_one_and_steps_pick_the_farther():
    """docs/orders.md: 'maneuver' is the nearer MANEUVER wedge clockwise, steps pick the other;
    000 L316-321 prices each."""
    g = ready(make_game(), rondel=GOLD, marble=0, iron=0, gold=0, coins=4)
    assert rondel_echo(g, "maneuver") == ({"to": "maneuver", "steps": 1, "pay": {}}, MANEUVER)
    assert rondel_echo(g, {"to": "maneuver", "steps": 5}) == (
        {"to": "maneuver", "steps": 5, "pay": {"coin": 2}}, MANEUVER2)
    [r] = refusal(g, rondel={"to": "maneuver", "steps": 4})
    assert (r.code, r.path) == ("rondel/wrong-steps", "$.rondel.steps")
    assert r.message == "4 steps from gold do not lead to maneuver (that would be knowhow)"


def test_default_payment_takes_the_chip_held_most_then_coins():
    """000 L318-321 "one resource of the nation's choice, i.e., a marble, iron or gold chip
    or a coin"; docs/rulings.md D7: the chip type held most (ties marble, iron, gold), coins last."""
    g = ready(make_game(), rondel=IRON, marble=1, iron=2, gold=2, coins=3)
    # 5 resources, one at a time from the largest pile: iron, gold, iron, gold, marble
    echo, _ = rondel_echo(g, "iron")
    assert echo["pay"] == {"marble": 1, "iron": 2, "gold": 2}
    g = ready(g, marble=0, iron=0, gold=1, coins=4)
    echo, _ = rondel_echo(g, "iron")
    assert echo["pay"] == {"gold": 1, "coin": 4}
    g = ready(g, marble=2, iron=2, gold=2, coins=0)
    echo, _ = rondel_echo(g, "arming")
    assert echo["pay"] == {"marble": 1}


def test_explicit_payment_may_use_coins_and_any_chip():
    """000 L318-321 (a marble, iron or gold chip or a coin) and L293-294 (coins substitute
    at all times): a spelled-out payment is taken as given."""
    g = ready(make_game(), rondel=IRON, marble=3, iron=3, gold=3, coins=1)
    echo, _ = rondel_echo(g, {"to": "knowhow", "pay": {"iron": 2, "coin": 1}})
    assert echo == {"to": "knowhow", "steps": 6, "pay": {"iron": 2, "coin": 1}}


def test_explicit_payment_problems_are_named():
    """000 L318-321: the surcharge is one resource per extra step, exactly; docs/rulings.md:
    every pay object must add up to the cost, and the nation must hold what it names."""
    g = ready(make_game(), rondel=IRON, marble=1, iron=0, gold=0, coins=1)
    rejections = refusal(g, rondel={"to": "marble", "pay": {"marble": 2, "coin": 1}})
    assert [(r.code, r.path) for r in rejections] == [
        ("pay/wrong-total", "$.rondel.pay"), ("pay/not-enough", "$.rondel.pay.marble")]
    assert "costs 2" in rejections[0].message and "adds up to 3" in rejections[0].message
    assert rejections[1].message.startswith("a rondel move of 5 steps costs 2 resources of any kind; the payment "
                                            "asks for 2 marble but Phoenicians has 1 (all it holds: 1 marble")


def test_paying_for_a_free_move_is_refused():
    """000 L316-317: one to three wedges are free of charge, so a payment is a mistake."""
    g = ready(make_game(), rondel=IRON, coins=1)
    [r] = refusal(g, rondel={"to": "gold", "pay": {"coin": 1}})
    assert (r.code, r.path) == ("pay/wrong-total", "$.rondel.pay")
    assert "costs 0" in r.message
    echo, _ = rondel_echo(g, {"to": "gold", "pay": {"coin": 0}})
    assert echo == {"to": "gold", "steps": 2, "pay": {}}


def test_a_refused_move_still_reports_the_action_problems():
    """docs/rulings.md "Orders are all-or-nothing": every problem is listed, so an unpayable
    move (000 L316-321) does not hide a problem of the action after it."""
    g = ready(make_game(), rondel=IRON, marble=0, iron=0, gold=0, coins=0)
    rejections = refusal(g, rondel="arming", arm=[{"unit": "legion", "at": "athen"}])
    assert [r.code for r in rejections] == ["pay/cannot-afford", "arm/not-own-city"]


def test_the_stone_moves_and_the_next_nation_is_active():
    """000 L298 (turns clockwise round the table), L312-316 (the stone marks the wedge)."""
    g = make_game()
    first = g.state.status.active
    g, result = play(g, rondel="gold")
    assert g.state.nations[first].rondel == GOLD
    assert g.state.status.active == g.turn_order()[1]
    assert result.events[0] == {"type": "rondel", "nation": first, "from": None, "to": GOLD,
                                "wedge": "gold", "steps": 0, "paid": {}, "first": True}
