"""A first pass over the engine: the opening strategies of the rulebook (000 L804-825)."""

from conftest import codes, edit, make_game, play


def test_growth_strategy_marble_then_temple():
    """000 L809-812: MARBLE, then TEMPLE paying one gold; temple for 3 marble + 2 coins."""
    g = make_game()
    nation = g.state.status.active
    g, _ = play(g, rondel="marble")
    # let the other three pass on production wedges
    for _ in range(3):
        g, _ = play(g, rondel="iron")
    ns = g.state.nations[nation]
    city = next(c for c in g.state.cities(nation) if g.board.province(c).resource == "marble")
    assert ns.resources["marble"] == 3 and ns.coins == 2
    g = edit(g, {"nation": nation, "resources": {"gold": 3}})
    g, res = play(g, rondel={"to": "temple", "pay": {"gold": 1}},
                  temples=[{"city": city, "pay": {"marble": 3, "coin": 2}}])
    assert g.state.provinces[city].temple
    assert g.state.nations[nation].coins == 0
    assert [e["type"] for e in res.events][:2] == ["rondel", "temple"]


def test_stay_on_wedge_costs_five():
    g = make_game()
    g, _ = play(g, rondel="gold")
    for _ in range(3):
        g, _ = play(g, rondel="iron")
    assert codes(g, rondel={"to": "gold", "pay": {"gold": 1}}) == ["pay/wrong-total"]
