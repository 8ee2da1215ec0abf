"""The rulebook's three opening strategies, played turn by turn through the engine.

000 L804-825 "With starting resources of one iron, two marble, and three gold units, all
three of the following opening strategies are reasonable." The Phoenicians start the
four-nation game (000 L285-287) with Alexandria (marble), Tyros (iron) and Paphos (gold)
and receive a coin at the start of every round, round 1 included (000 L289-292, Q4).
The other nations just pass (one free step each turn).
"""

from __future__ import annotations

from conftest import edit, make_game, pass_until, play

PH = "phoenicians"


def holdings(game):
    ns = game.state.nations[PH]
    return {**ns.resources, "coin": ns.coins}


def test_start_position():
    """000 L149-151 "(1 blue iron, 2 white marble and 3 gold units)" plus the round-1 coin
    (000 L289-292)."""
    g = make_game()
    assert g.state.status.active == PH
    assert holdings(g) == {"marble": 2, "iron": 1, "gold": 3, "coin": 1}


def test_growth_strategy():
    """000 L809-812 "Play MARBLE, then TEMPLE. To reach temple, pay one gold unit. Pay the
    bank three marble units and two coins and receive a temple, which triples the power of
    the city"."""
    g = make_game()
    g, _ = play(g, rondel="marble")
    assert holdings(g)["marble"] == 3
    g = pass_until(g, PH)
    assert holdings(g) == {"marble": 3, "iron": 1, "gold": 3, "coin": 2}
    g, result = play(g, rondel={"to": "temple", "pay": {"gold": 1}}, temples=["alexandria"])
    assert result.echo["rondel"] == {"to": "temple", "steps": 4, "pay": {"gold": 1}}
    assert result.echo["temples"] == [{"city": "alexandria", "pay": {"marble": 3, "coin": 2}}]
    assert g.state.provinces["alexandria"].temple
    assert holdings(g) == {"marble": 0, "iron": 1, "gold": 2, "coin": 0}
    g = pass_until(g, PH)
    g, _ = play(g, rondel="marble")  # TEMPLE -> MARBLE, 4 steps: 1 resource; 3 marble now
    assert holdings(g)["marble"] == 3


def test_growth_strategy_default_payment_keeps_the_marble():
    """000 L810 pays the surcharge with gold. Left to the default (D7, docs/rulings.md), the
    chip held most pays, and on a tie (3 marble, 3 gold) the chip the coming TEMPLE action
    needs is kept: gold pays, exactly as the rulebook does."""
    g = pass_until(play(make_game(), rondel="marble")[0], PH)
    g, result = play(g, rondel="temple", temples=["alexandria"])
    assert result.echo["rondel"]["pay"] == {"gold": 1}
    assert result.echo["temples"] == [{"city": "alexandria", "pay": {"marble": 3, "coin": 2}}]


def test_default_surcharge_takes_the_chip_held_most_even_if_the_action_needs_it():
    """D7: the chip held *most* pays; keeping the action's chip only breaks ties."""
    g = pass_until(play(make_game(), rondel="marble")[0], PH)
    g = edit(g, {"nation": PH, "resources": {"marble": 4, "gold": 3}})
    _, result = play(g, rondel="temple")
    assert result.echo["rondel"]["pay"] == {"marble": 1}


def test_military_strategy():
    """000 L814-819 "Play ARMING and pay one iron unit and one coin to set up two military
    units. Then play MANEUVER. Move both military units. Immediately after the maneuver
    action, pay one gold and one marble chip and one coin, to found a city"."""
    g = make_game()
    g, result = play(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros"}, {"unit": "galley", "at": "paphos"}])
    assert [a["pay"] for a in result.echo["arm"]] == [{"iron": 1}, {"coin": 1}]
    assert holdings(g) == {"marble": 2, "iron": 0, "gold": 3, "coin": 0}
    g = pass_until(g, PH)
    g, result = play(g, rondel="maneuver",
                     maneuver=[{"move": "legion", "from": "tyros", "path": ["antiochia"]},
                               {"move": "galley", "from": "paphos", "path": ["knossos"]}],
                     found=["antiochia"])
    assert result.echo["rondel"] == {"to": "maneuver", "steps": 3, "pay": {}}
    assert result.echo["found"] == [{"city": "antiochia", "pay": {"marble": 1, "gold": 1, "coin": 1}}]
    assert g.state.cities(PH) == ["alexandria", "antiochia", "paphos", "tyros"]
    assert g.state.provinces["knossos"].count(PH, "galley") == 1
    assert holdings(g) == {"marble": 1, "iron": 0, "gold": 2, "coin": 0}


def test_progress_strategy():
    """000 L821-825 "Play GOLD, on the next turn MARBLE, and on the third KNOW-HOW. For four
    gold units and three coins buy a new basic know-how, and in so doing win your first
    ancient scholar"."""
    g = make_game()
    g, _ = play(g, rondel="gold")
    g, result = play(pass_until(g, PH), rondel="marble")
    assert result.echo["rondel"] == {"to": "marble", "steps": 3, "pay": {}}
    g = pass_until(g, PH)
    assert holdings(g) == {"marble": 3, "iron": 1, "gold": 4, "coin": 3}
    g, result = play(g, rondel="knowhow", knowhow=["wheel"])
    assert result.echo["knowhow"] == [{"name": "wheel", "pay": {"gold": 4, "coin": 3}}]
    assert g.state.nations[PH].knowhow == ["wheel"]
    assert g.state.nations[PH].personages["scholar"] == 1
    assert holdings(g) == {"marble": 3, "iron": 1, "gold": 0, "coin": 0}
