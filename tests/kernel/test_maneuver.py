"""MANEUVER phase 1: movement, actions per unit, battles and battle demands (classic rules).

Each test builds a position with GM edits on the East board (four nations, Phoenicians to
play turn 1, so their first rondel move is free), plays one order file and checks the
outcome. Rulebook lines are cited as ``000 L<line>``.
"""

from __future__ import annotations

from conftest import codes, maneuver, play, position, units


def move(unit, count, start, *path):
    return {"move": unit, "count": count, "from": start, "path": list(path)}


def battles(result):
    return [(e["at"], e["unit"], e["against"], e["count"], e["started_by"])
            for e in result.events if e["type"] == "battle"]


# --- borders and unit types -------------------------------------------------------------

def test_legion_crosses_land_and_combined_borders():
    """000 L590-594: legions cross red and red-blue borders (napoca-pella red, pella-athen red-blue)."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["wheel"]})
    g, _ = maneuver(g, move("legion", 1, "napoca", "pella", "athen"))
    assert units(g, "athen", "phoenicians") == {"legion": 1, "galley": 0}


def test_legion_cannot_cross_a_sea_border():
    """000 L590-592, L897-901: a legion is never carried across a blue border (athen-knossos)."""
    g = position({"province": "athen", "units": {"phoenicians": {"legion": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[move("legion", 1, "athen", "knossos")]) == ["move/no-border"]


def test_galley_crosses_sea_and_combined_borders_but_not_land():
    """000 L590-594: galleys cross blue and red-blue borders (knossos-athen blue, athen-pella
    red-blue), never red ones (pella-napoca)."""
    g = position({"province": "knossos", "units": {"phoenicians": {"galley": 1}}},
                 {"nation": "phoenicians", "knowhow": ["navigation", "sailing"]})
    g2, _ = maneuver(g, move("galley", 1, "knossos", "athen", "pella"))
    assert units(g2, "pella", "phoenicians") == {"legion": 0, "galley": 1}
    assert codes(g, rondel="maneuver", maneuver=[move("galley", 1, "knossos", "athen", "pella", "napoca")]) == [
        "move/no-border"]


def test_unknown_province_is_refused():
    """docs/orders.md: provinces are the ids of the board file."""
    g = position({"province": "athen", "units": {"phoenicians": {"legion": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[move("legion", 1, "athen", "roma")]) == ["move/not-a-province"]


# --- maneuver actions per unit ----------------------------------------------------------

def test_one_action_without_knowhow():
    """000 L577-579: early in the game each unit has one maneuver action per turn."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[move("legion", 1, "napoca", "pella", "athen")]) == [
        "move/not-enough-units"]
    g, _ = maneuver(g, move("legion", 1, "napoca", "pella"))
    assert units(g, "pella", "phoenicians")["legion"] == 1


def test_wheel_gives_two_actions_roads_three():
    """000 L580-583, L598-600: WHEEL two actions, ROADS three ("three red land borders per turn")."""
    base = ({"province": "sirmium", "units": {"phoenicians": {"legion": 1}}},)
    wheel = position(*base, {"nation": "phoenicians", "knowhow": ["wheel"]})
    three = [move("legion", 1, "sirmium", "napoca", "tomis", "pella")]
    assert codes(wheel, rondel="maneuver", maneuver=three) == ["move/not-enough-units"]
    roads = position(*base, {"nation": "phoenicians", "knowhow": ["roads", "wheel"]})
    g, _ = maneuver(roads, *three)
    assert units(g, "pella", "phoenicians")["legion"] == 1


def test_sailing_two_navigation_three_for_galleys_only():
    """000 L580-583: SAILING/NAVIGATION raise the galleys' actions; WHEEL does nothing for them."""
    base = ({"province": "messana", "units": {"phoenicians": {"galley": 1}}},)
    route = [move("galley", 1, "messana", "sparta", "knossos", "paphos")]
    wheel = position(*base, {"nation": "phoenicians", "knowhow": ["roads", "wheel", "sailing"]})
    assert codes(wheel, rondel="maneuver", maneuver=route) == ["move/not-enough-units"]
    nav = position(*base, {"nation": "phoenicians", "knowhow": ["navigation", "sailing"]})
    g, _ = maneuver(nav, *route)
    assert units(g, "paphos", "phoenicians")["galley"] == 1


def test_actions_are_tracked_per_unit_through_the_turn():
    """000 L630-640: a unit that has moved keeps its remaining actions for later steps; a
    WHEEL legion may move one border, then another, but not a third."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["wheel"]})
    two = [move("legion", 1, "napoca", "pella"), move("legion", 1, "pella", "athen")]
    g2, _ = maneuver(g, *two)
    assert units(g2, "athen", "phoenicians")["legion"] == 1
    assert codes(g, rondel="maneuver", maneuver=two + [move("legion", 1, "athen", "sparta")]) == [
        "move/not-enough-units"]


def test_the_units_with_fewest_actions_that_suffice_move():
    """docs/orders.md move step: among the units in ``from``, those with the fewest actions left
    that still suffice move, so the fresh legion stays able to go two borders (000 L630-640)."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "pella", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["wheel"]})
    steps = [move("legion", 1, "napoca", "pella"),   # arrives with 1 action left
             move("legion", 1, "pella", "athen"),    # the tired one goes on
             move("legion", 1, "pella", "dyrrhachion", "sirmium")]  # the fresh one has 2
    g2, _ = maneuver(g, *steps)
    assert units(g2, "athen", "phoenicians")["legion"] == 1
    assert units(g2, "sirmium", "phoenicians")["legion"] == 1


def test_moving_more_units_than_are_there_is_refused():
    """000 L587-589: only units on the board can move."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 2}}})
    assert codes(g, rondel="maneuver", maneuver=[move("legion", 3, "napoca", "pella")]) == ["move/not-enough-units"]


def test_every_problem_is_listed():
    """docs/rulings.md, orders are all-or-nothing: each illegal step is reported, the rest simulated."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[
        move("legion", 1, "napoca", "knossos"), move("legion", 1, "napoca", "pella", "athen"),
        {"battle": "legion", "at": "pella", "against": "greeks"}]) == [
        "move/no-border", "move/not-enough-units", "battle/no-units"]


# --- battles started by the active nation -----------------------------------------------

def test_active_battle_costs_no_action():
    """000 L622-625, L827-831: battles need no action; the legion can still move afterwards."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 2}, "greeks": {"legion": 1}}},
                 {"nation": "greeks", "standing": {"battle": "never"}})
    g, res = maneuver(g, {"battle": "legion", "at": "pella", "against": "greeks"},
                      move("legion", 1, "pella", "napoca"))
    assert battles(res) == [("pella", "legion", "greeks", 1, "phoenicians")]
    assert units(g, "pella", "greeks")["legion"] == 0
    assert units(g, "napoca", "phoenicians")["legion"] == 1


def test_units_without_actions_left_may_fight():
    """000 L827-831 and Q16: a unit that used its only action may still battle."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "pella", "units": {"greeks": {"legion": 1}}},
                 {"nation": "greeks", "standing": {"battle": "never"}})
    g, res = maneuver(g, move("legion", 1, "napoca", "pella"),
                      {"battle": "legion", "at": "pella", "against": "greeks"})
    assert units(g, "pella", "greeks")["legion"] == 0 and units(g, "pella", "phoenicians")["legion"] == 0


def test_battle_losses_are_one_to_one_and_default_to_the_most():
    """000 L605-609, Q14: both sides lose the same number; without ``count`` the largest possible."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 3}, "greeks": {"legion": 2}}},
                 {"nation": "greeks", "standing": {"battle": "never"}})
    g2, res = maneuver(g, {"battle": "legion", "at": "pella", "against": "greeks"})
    assert units(g2, "pella", "phoenicians")["legion"] == 1 and units(g2, "pella", "greeks")["legion"] == 0
    assert res.echo["maneuver"][0]["count"] == 2
    g3, _ = maneuver(g, {"battle": "legion", "at": "pella", "against": "greeks", "count": 1})
    assert units(g3, "pella", "phoenicians")["legion"] == 2 and units(g3, "pella", "greeks")["legion"] == 1


def test_losses_go_back_to_stock():
    """Q17: destroyed units return to their owner's stock (17 per type, 000 L154-159)."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 2}, "greeks": {"legion": 2}}},
                 {"nation": "greeks", "standing": {"battle": "never"}})
    g, _ = maneuver(g, {"battle": "legion", "at": "pella", "against": "greeks"})
    assert g.state.units_on_board("greeks", "legion") == 0
    assert g.state.units_on_board("phoenicians", "legion") == 0


def test_legions_cannot_fight_galleys():
    """000 L605-606, L903-905: legions fight only legions, galleys only galleys."""
    g = position({"province": "athen", "units": {"phoenicians": {"legion": 1}, "greeks": {"galley": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[{"battle": "legion", "at": "athen", "against": "greeks"}]) == [
        "battle/no-enemy"]


def test_battle_problems():
    """000 L622-625: a battle needs own and enemy units of that type in the province."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 1}, "greeks": {"legion": 2}}},
                 {"province": "tomis", "units": {"greeks": {"legion": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[
        {"battle": "legion", "at": "tomis", "against": "greeks"},
        {"battle": "legion", "at": "pella", "against": "greeks", "count": 2},
        {"battle": "legion", "at": "pella", "against": "phoenicians"}]) == [
        "battle/no-units", "battle/too-many", "battle/self"]


def test_active_nation_loses_its_units_with_fewest_actions_first():
    """docs/rulings.md: when the active nation starts a battle it loses its units with the fewest
    actions left; the fresh legion that was already in Pella can still conquer (000 L653-659)."""
    g = position({"province": "pella", "owner": "greeks",
                  "units": {"phoenicians": {"legion": 1}, "greeks": {"legion": 1}}},
                 {"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "greeks", "standing": {"battle": "never"}})
    g, res = maneuver(g, move("legion", 1, "napoca", "pella"),
                      {"battle": "legion", "at": "pella", "against": "greeks"},
                      {"conquer": "pella"})
    assert g.state.provinces["pella"].owner == "phoenicians"


# --- battles demanded by non-active nations (standing orders) ---------------------------

def test_home_stance_demands_in_own_city_only():
    """000 L921-926, docs/rulings.md D1 default ``home``: the Greeks fight entering galleys in
    Athen (their city) but not in Knossos (no city of theirs)."""
    g = position({"province": "ephesos", "units": {"phoenicians": {"galley": 2}}},
                 {"province": "knossos", "units": {"greeks": {"galley": 1}}},
                 {"province": "athen", "units": {"greeks": {"galley": 1}}},
                 {"nation": "phoenicians", "knowhow": ["sailing"]})
    g, res = maneuver(g, move("galley", 2, "ephesos", "knossos", "athen"))
    assert battles(res) == [("athen", "galley", "greeks", 1, "greeks")]
    assert units(g, "athen", "phoenicians")["galley"] == 1
    assert units(g, "knossos", "greeks")["galley"] == 1


def test_always_stance_demands_when_passing_through():
    """000 L781-785 (Rome: the green legion on the way), Q15: a demand may be made at each
    entry, passing through included."""
    g = position({"province": "ephesos", "units": {"phoenicians": {"galley": 2}}},
                 {"province": "knossos", "units": {"greeks": {"galley": 1}}},
                 {"nation": "phoenicians", "knowhow": ["sailing"]},
                 {"nation": "greeks", "standing": {"battle": "always"}})
    g, res = maneuver(g, move("galley", 2, "ephesos", "knossos", "alexandria"))
    assert battles(res) == [("knossos", "galley", "greeks", 1, "greeks")]
    assert units(g, "alexandria", "phoenicians")["galley"] == 1
    assert units(g, "knossos", "phoenicians")["galley"] == 0


def test_never_stance_and_per_rival_stances():
    """docs/rulings.md D1: the stance is set per rival nation with a default; ``never`` lets the
    units pass; an exception for the Phoenicians overrides the default."""
    start = ({"province": "tomis", "units": {"phoenicians": {"legion": 2}}},
             {"province": "pella", "units": {"greeks": {"legion": 1}}})
    g = position(*start, {"nation": "greeks", "standing": {"battle": {"default": "always", "phoenicians": "never"}}})
    g2, res = maneuver(g, move("legion", 2, "tomis", "pella"))
    assert battles(res) == [] and units(g2, "pella", "phoenicians")["legion"] == 2
    g = position(*start, {"nation": "greeks", "standing": {"battle": {"default": "never", "phoenicians": "home"}}})
    g2, res = maneuver(g, move("legion", 2, "tomis", "pella"))
    assert battles(res) == [("pella", "legion", "greeks", 1, "greeks")]


def test_demander_fights_only_the_entering_units():
    """000 L921-926, Q14: a demand answers the units that just entered; Phoenician legions
    already in Athen do not take part, and at most as many pairs as units entered."""
    g = position({"province": "athen", "units": {"phoenicians": {"legion": 2}, "greeks": {"legion": 3}}},
                 {"province": "sparta", "units": {"phoenicians": {"legion": 1}}})
    g, res = maneuver(g, move("legion", 1, "sparta", "athen"))
    assert battles(res) == [("athen", "legion", "greeks", 1, "greeks")]
    assert units(g, "athen", "phoenicians")["legion"] == 2 and units(g, "athen", "greeks")["legion"] == 2


def test_several_demanders_in_seat_order_after_the_active_nation():
    """D1: several demanders act in turn order after the active nation. Seats: persians,
    phoenicians, arabs, greeks; the Phoenicians move, so the Arabs fight before the Greeks,
    and the Persians (seated before the Phoenicians) come last."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 3}}},
                 {"province": "tomis",
                  "units": {"greeks": {"legion": 1}, "persians": {"legion": 1}, "arabs": {"legion": 1}}},
                 *({"nation": n, "standing": {"battle": "always"}} for n in ("greeks", "persians", "arabs")))
    g, res = maneuver(g, move("legion", 3, "pella", "tomis"))
    assert [b[2] for b in battles(res)] == ["arabs", "greeks", "persians"]
    assert "tomis" not in g.state.provinces


def test_a_group_wiped_out_on_the_way_ends_its_move_without_error():
    """docs/rulings.md (Military): a moving group destroyed by a demand simply stops; the
    script goes on (000 L625-628: one fight after another)."""
    g = position({"province": "sirmium", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "napoca", "units": {"greeks": {"legion": 2}}},
                 {"province": "tomis", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["wheel"]},
                 {"nation": "greeks", "standing": {"battle": "always"}})
    g, res = maneuver(g, move("legion", 1, "sirmium", "napoca", "pella"), move("legion", 1, "tomis", "napoca"))
    assert battles(res) == [("napoca", "legion", "greeks", 1, "greeks")] * 2
    assert "napoca" not in g.state.provinces
    assert units(g, "pella", "phoenicians")["legion"] == 0
    moved = [e for e in res.events if e["type"] == "move"]
    assert moved[0]["arrived"] == 0 and moved[0]["to"] == "napoca"


def test_demand_losses_are_the_moving_units_with_fewest_actions():
    """docs/rulings.md (Military): units lost in a demanded battle while moving are those of
    the moving group with the fewest actions left, so the fresh WHEEL legion survives the
    Greek demand in Tomis and can still conquer it (000 L653-659)."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "tomis", "owner": "greeks", "units": {"greeks": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["wheel"]})
    g, res = maneuver(g, move("legion", 1, "napoca", "pella"),  # 1 action left
                      move("legion", 2, "pella", "tomis"),  # arrive with 0 and 1 left
                      {"conquer": "tomis", "with": {"legion": 1}})
    assert battles(res) == [("tomis", "legion", "greeks", 1, "greeks")]
    assert g.state.provinces["tomis"].owner == "phoenicians"


def test_standing_orders_changed_in_a_turn_apply_from_the_next_file():
    """docs/rulings.md: standing orders take effect after the file that sets them; they are echoed
    and public (show --json, game file)."""
    g = position({"province": "napoca", "units": {"phoenicians": {"legion": 1}}})
    g, res = maneuver(g, move("legion", 1, "napoca", "pella"),
                      standing={"battle": {"default": "always", "greeks": "never"}})
    assert res.echo["standing"] == {"battle": {"default": "always", "greeks": "never"}}
    assert g.state.standing["phoenicians"].stance("greeks") == "never"
    assert g.state.standing["phoenicians"].stance("arabs") == "always"
    assert g.to_json()["standing_orders"]["phoenicians"]["battle"] == {"default": "always", "greeks": "never"}


def test_standing_orders_only_file_from_a_non_active_nation():
    """docs/orders.md: a file without ``rondel`` changes only the standing orders, at any time."""
    g = position()
    g, res = play(g, "greeks", standing={"battle": "always"})
    assert res.kind == "standing" and g.state.status.active == "phoenicians"
    assert g.state.standing["greeks"].stance("phoenicians") == "always"


# --- phase order ------------------------------------------------------------------------

def test_no_movement_or_battle_after_a_conquest():
    """000 L567-575, Q30: all movement and battles come before any conquest."""
    g = position({"province": "tomis", "owner": "greeks", "units": {"phoenicians": {"legion": 2}}},
                 {"province": "napoca", "units": {"phoenicians": {"legion": 1}, "greeks": {"legion": 1}}})
    assert codes(g, rondel="maneuver", maneuver=[
        {"conquer": "tomis", "with": {"legion": 1}},
        move("legion", 1, "tomis", "pella"),
        {"battle": "legion", "at": "napoca", "against": "greeks"}]) == ["move/after-conquest", "move/after-conquest"]
