"""MANEUVER phase 2: conquest, and the rulebook's military examples (000 L611-798).

The rulebook's colours are played by East-board nations with the same colours in this
project: yellow = Phoenicians, red = Persians, green = Arabs, blue = Greeks. The
illustrations are not in our rulebook text, so every example is rebuilt on East-board
provinces with the example's numbers: the same units, know-hows, defence strengths and
number of borders crossed.

- Corniclanum and Attalia were taken for West-board provinces, but our East map
  (``maps/antike-east.json``) has provinces of those names, so those two examples are
  played there; only their surroundings are rebuilt (Attalia: see ``ATTALIA``).
- Rome is not on the East board: Persian Antiochia plays Rome, two land borders from the
  yellow legions with one province (Ninive) between (see ``ROME``).
- Alexandria's neighbours in the illustrations are unknown: the NAVIGATION galleys come
  from Ephesos through Knossos (two borders), the SAILING galley from Attalia through
  Paphos (two borders), as the text says "the galley from Attalia" (000 L776).
"""

from __future__ import annotations

from conftest import make_game, maneuver, maneuver_codes, position, refusal, units


def move(unit, count, start, *path):
    return {"move": unit, "count": count, "from": start, "path": list(path)}


def events(result, kind):
    return [e for e in result.events if e["type"] == kind]


# --- the rulebook's examples ------------------------------------------------------------

def test_athens_galley_battle():
    """000 L611-620: three galleys enter Athens, where the Greeks have one galley and one
    legion; the Greeks demand a fight; each side removes one galley; the Greek legion is not
    involved. (The Greeks' default stance ``home`` demands the fight in their own city.)"""
    g = position({"province": "athen", "units": {"greeks": {"legion": 1, "galley": 1}}},
                 {"province": "knossos", "units": {"phoenicians": {"galley": 3}}})
    g, res = maneuver(g, move("galley", 3, "knossos", "athen"))
    assert [(b["at"], b["unit"], b["count"], b["started_by"]) for b in events(res, "battle")] == [
        ("athen", "galley", 1, "greeks")]
    assert units(g, "athen", "phoenicians") == {"legion": 0, "galley": 2}
    assert units(g, "athen", "greeks") == {"legion": 1, "galley": 0}


CORNICLANUM = ({"province": "corniclanum", "owner": "persians", "temple": True,
                "units": {"persians": {"legion": 1, "galley": 1}, "greeks": {"galley": 6}}},
               {"nation": "persians", "knowhow": ["monarchy"]})


def test_corniclanum_defence_is_six():
    """000 L679-687: temple 3 + one galley and one legion + 1 for MONARCHY = 6; the
    conqueror removes six of its standing units (000 L689-692)."""
    g = position(*CORNICLANUM, active="greeks")
    assert maneuver_codes(g, {"conquer": "corniclanum", "with": {"galley": 5}}) == ["conquer/wrong-strength"]
    problem = refusal(g, rondel="maneuver", maneuver=[{"conquer": "corniclanum", "with": {"galley": 5}}])[0]
    assert "defence 6" in problem.message
    g, res = maneuver(g, {"conquer": "corniclanum", "with": {"galley": 6}})
    [ev] = events(res, "conquer")
    assert ev["defence"] == 6 and ev["temple_destroyed"] is True
    assert ev["defender_lost"] == {"legion": 1, "galley": 1}


def test_corniclanum_five_galleys_are_not_enough():
    """000 L657-659: the standing units must be at least equal to the defence strength."""
    g = position(*CORNICLANUM, {"province": "corniclanum", "units": {
        "persians": {"legion": 1, "galley": 1}, "greeks": {"galley": 5}}}, active="greeks")
    assert maneuver_codes(g, {"conquer": "corniclanum"}) == ["conquer/cannot-reach"]


def test_corniclanum_after_the_conquest():
    """000 L694-710: the defender loses its city stone, its temple (back to the bank) and all
    its units there; the conqueror needs no unit left in the province; a general is won for
    the temple (000 L261-264)."""
    g = position(*CORNICLANUM, active="greeks")
    temples = g.state.bank.temples
    g, res = maneuver(g, {"conquer": "corniclanum"})
    prov = g.state.provinces["corniclanum"]
    assert prov.owner == "greeks" and not prov.temple and prov.units == {}
    assert g.state.bank.temples == temples + 1
    assert g.state.nations["greeks"].personages["general"] == 1
    assert g.state.units_on_board("greeks", "galley") == 0


TYROS = ({"province": "tyros", "owner": "arabs", "units": {"arabs": {"legion": 1}}},)


def test_tyros_conquered_by_two_galleys():
    """000 L714-718: Tyros' defence is 2 (city 1 + 1 legion, no know-how); two galleys
    conquer it and the city stone changes colour."""
    g = position(*TYROS, {"province": "tyros", "units": {"arabs": {"legion": 1}, "phoenicians": {"galley": 2}}})
    g, res = maneuver(g, {"conquer": "tyros", "with": {"galley": 2}})
    assert events(res, "conquer")[0]["defence"] == 2
    assert g.state.provinces["tyros"].owner == "phoenicians"
    assert g.state.provinces["tyros"].units == {}


def test_tyros_conquered_by_a_legion_and_a_galley_or_by_two_legions():
    """000 L720-725: with two legions and a galley in Tyros, yellow conquers with one legion
    and one galley and keeps a legion, or with two legions and keeps its galley."""
    g = position(*TYROS,
                 {"province": "tyros", "units": {"arabs": {"legion": 1}, "phoenicians": {"legion": 2, "galley": 1}}})
    mixed, _ = maneuver(g, {"conquer": "tyros", "with": {"legion": 1, "galley": 1}})
    assert units(mixed, "tyros", "phoenicians") == {"legion": 1, "galley": 0}
    legions, _ = maneuver(g, {"conquer": "tyros", "with": {"legion": 2}})
    assert units(legions, "tyros", "phoenicians") == {"legion": 0, "galley": 1}
    assert mixed.state.provinces["tyros"].owner == legions.state.provinces["tyros"].owner == "phoenicians"


def test_tyros_default_units_are_legions_first():
    """D4 in docs/rulings.md (KEEP_GALLEYS): without ``with`` the conqueror gives up legions first;
    the echo shows the units used (000 L689-692: "may be legions or galleys")."""
    g = position(*TYROS,
                 {"province": "tyros", "units": {"arabs": {"legion": 1}, "phoenicians": {"legion": 2, "galley": 1}}})
    g, res = maneuver(g, {"conquer": "tyros"})
    assert res.echo["maneuver"][0]["with"] == {"legion": 2, "galley": 0}
    assert units(g, "tyros", "phoenicians") == {"legion": 0, "galley": 1}


def test_alexandria_with_navigation():
    """000 L747-758: Alexandria's defence is 3; red's galleys with NAVIGATION have three
    actions each, so after two borders (Ephesos, Knossos, Alexandria) they can still conquer.
    Green (Arabs) holds Alexandria with two legions, which cannot fight galleys."""
    g = position({"province": "alexandria", "owner": "arabs", "units": {"arabs": {"legion": 2}}},
                 {"province": "ephesos", "units": {"persians": {"galley": 3}}},
                 {"nation": "persians", "knowhow": ["navigation", "sailing"]}, active="persians")
    g2, res = maneuver(g, move("galley", 3, "ephesos", "knossos", "alexandria"),
                       {"conquer": "alexandria", "with": {"galley": 3}})
    assert events(res, "conquer")[0]["defence"] == 3
    assert g2.state.provinces["alexandria"].owner == "persians"


def test_alexandria_without_navigation_the_galleys_are_tipped():
    """000 L630-634, L653-659: with SAILING only, the same galleys use both actions to get
    there, lie on their side and cannot conquer."""
    g = position({"province": "alexandria", "owner": "arabs", "units": {"arabs": {"legion": 2}}},
                 {"province": "ephesos", "units": {"persians": {"galley": 3}}},
                 {"nation": "persians", "knowhow": ["sailing"]}, active="persians")
    assert maneuver_codes(g, move("galley", 3, "ephesos", "knossos", "alexandria"),
                          {"conquer": "alexandria"}) == ["conquer/cannot-reach"]


SAILING = ({"province": "alexandria", "owner": "arabs"},
           {"province": "attalia", "units": {"phoenicians": {"galley": 1}}},
           {"province": "paphos", "units": {"phoenicians": {"galley": 1}}},
           {"nation": "phoenicians", "knowhow": ["sailing"]})
"""000 L762-777 rebuilt: a yellow SAILING galley in Attalia is two borders from Alexandria
(Attalia-Paphos-Alexandria), the other is one border away (Paphos)."""


def test_alexandria_with_sailing_one_galley_is_tipped():
    """000 L764-771: the galley from Attalia uses both actions and is tipped; one upright
    galley cannot conquer Alexandria, whose defence is 2 (city + green legion)."""
    g = position(*SAILING, {"province": "alexandria", "units": {"arabs": {"legion": 1}}})
    steps = [move("galley", 1, "attalia", "paphos", "alexandria"), move("galley", 1, "paphos", "alexandria")]
    assert maneuver_codes(g, *steps, {"conquer": "alexandria"}) == ["conquer/cannot-reach"]
    assert maneuver_codes(g, *steps, {"conquer": "alexandria", "with": {"galley": 2}}) == [
        "conquer/not-enough-units"]


def test_alexandria_with_sailing_the_tipped_galley_battles_first():
    """000 L773-777, L827-831: if green has a galley instead of the legion, the galley from
    Attalia eliminates it in a mutual destruction battle, and the upright galley conquers.
    Green's stance is ``never`` here, so yellow starts the battle itself; it loses the tipped
    galley, the one with the fewest actions left (docs/rulings.md)."""
    g = position(*SAILING, {"province": "alexandria", "units": {"arabs": {"galley": 1}}},
                 {"nation": "arabs", "standing": {"battle": "never"}})
    g, res = maneuver(g, move("galley", 1, "attalia", "paphos", "alexandria"),
                      move("galley", 1, "paphos", "alexandria"),
                      {"battle": "galley", "at": "alexandria", "against": "arabs"},
                      {"conquer": "alexandria", "with": {"galley": 1}})
    assert g.state.provinces["alexandria"].owner == "phoenicians"
    assert events(res, "conquer")[0]["defence"] == 1


def test_alexandria_with_sailing_and_a_demanding_defender_order_matters():
    """000 L773-777 with green's default stance ``home``: green demands a battle when the
    first yellow galley enters its city. Sending the tipped galley from Attalia first lets
    the upright one conquer; the other order loses the upright galley (000 L921-926)."""
    g = position(*SAILING, {"province": "alexandria", "units": {"arabs": {"galley": 1}}})
    tipped_first = [move("galley", 1, "attalia", "paphos", "alexandria"), move("galley", 1, "paphos", "alexandria")]
    done, _ = maneuver(g, *tipped_first, {"conquer": "alexandria"})
    assert done.state.provinces["alexandria"].owner == "phoenicians"
    assert maneuver_codes(g, *reversed(tipped_first), {"conquer": "alexandria"}) == ["conquer/cannot-reach"]


ROME = ({"province": "antiochia", "owner": "persians", "temple": True, "units": {"persians": {"galley": 1}}},
        {"nation": "persians", "knowhow": ["monarchy"]},
        {"nation": "phoenicians", "knowhow": ["roads", "wheel"]},
        {"province": "artaxata", "units": {"phoenicians": {"legion": 5}}},
        {"province": "ninive", "units": {"arabs": {"legion": 1}}})
"""000 L779-788 rebuilt: Rome is not on the East board, so red's (Persian) Antiochia plays
Rome: temple 3 + one galley + MONARCHY 1 = defence 5. Yellow's five ROADS legions stand in
Artaxata, two land borders away; the way leads through Ninive, where green (Arabs) has one
legion. Red's galley cannot fight the legions, so red demands nothing."""

ROME_STEPS = [move("legion", 5, "artaxata", "ninive", "antiochia")]


def test_rome_without_a_battle_demand():
    """000 L781-785: with ROADS the legions reach Rome in two movements with an action left;
    if green demands no battle (green has no city in Ninive, its stance is ``home``), all
    five arrive and conquer Rome, defence 5."""
    g = position(*ROME)
    g, res = maneuver(g, *ROME_STEPS, {"conquer": "antiochia", "with": {"legion": 5}})
    assert events(res, "battle") == []
    assert events(res, "conquer")[0]["defence"] == 5
    assert g.state.provinces["antiochia"].owner == "phoenicians"
    assert g.state.nations["phoenicians"].personages["general"] == 1


def test_rome_with_a_battle_demand_on_the_way():
    """000 L781-785: if green demands a mutual destruction fight in Ninive, only four legions
    reach Rome and the conquest is impossible (defence 5)."""
    g = position(*ROME, {"nation": "arabs", "standing": {"battle": {"default": "home", "phoenicians": "always"}}})
    assert maneuver_codes(g, *ROME_STEPS, {"conquer": "antiochia"}) == ["conquer/cannot-reach"]
    g, res = maneuver(g, *ROME_STEPS)
    assert [(b["at"], b["against"], b["count"]) for b in events(res, "battle")] == [("ninive", "arabs", 1)]
    assert units(g, "antiochia", "phoenicians")["legion"] == 4


ATTALIA = ({"province": "attalia", "owner": "persians", "temple": True,
            "units": {"persians": {"legion": 2}}},
           {"nation": "persians", "knowhow": ["monarchy"], "standing": {"battle": "always"}},
           {"province": "paphos", "units": {"persians": {"galley": 1}}},
           {"nation": "phoenicians", "knowhow": ["navigation", "roads", "sailing", "wheel"]},
           {"province": "bycantium", "units": {"phoenicians": {"legion": 2}}},
           {"province": "pella", "units": {"phoenicians": {"legion": 2}}},
           {"province": "knossos", "units": {"phoenicians": {"galley": 3}}})
"""000 L793-798 rebuilt on the East board: red (Persians, MONARCHY, stance ``always``) holds
Attalia with a temple and its legions 1 and 2 (defence 3 + 2 + 1 = 6) and has a galley in
Paphos. Yellow (ROADS and NAVIGATION) has two legions in Bycantium (two borders from
Attalia), two in Pella (three borders) and three galleys in Knossos (two borders, through
Paphos)."""

PELLA_LEGIONS = move("legion", 2, "pella", "bycantium", "gordion", "attalia")
BYCANTIUM_LEGIONS = move("legion", 2, "bycantium", "gordion", "attalia")
GALLEYS = move("galley", 3, "knossos", "paphos", "attalia")


def test_attalia_with_the_battles_in_the_right_order():
    """000 L795-798: yellow must follow an exact plan. The Pella legions, which use all three
    actions to get there, enter first and eliminate red legions 1 and 2 in red's demanded
    battles; the Bycantium legions then arrive upright; the galleys lose one of theirs to
    red's galley on the way. Two legions and two galleys match Attalia's defence of 4."""
    g = position(*ATTALIA)
    g, res = maneuver(g, PELLA_LEGIONS, BYCANTIUM_LEGIONS, GALLEYS,
                      {"conquer": "attalia", "with": {"legion": 2, "galley": 2}})
    assert [(b["at"], b["unit"], b["count"]) for b in events(res, "battle")] == [
        ("attalia", "legion", 2), ("paphos", "galley", 1)]
    [ev] = events(res, "conquer")
    assert ev["defence"] == 4 and ev["temple_destroyed"]
    assert g.state.provinces["attalia"].owner == "phoenicians"
    assert units(g, "attalia", "phoenicians") == {"legion": 0, "galley": 0}


def test_attalia_in_the_wrong_order_fails():
    """000 L795: in the other order red's demand destroys the upright Bycantium legions, and
    the tipped Pella legions cannot conquer (000 L653-659)."""
    g = position(*ATTALIA)
    assert maneuver_codes(g, BYCANTIUM_LEGIONS, PELLA_LEGIONS, GALLEYS,
                          {"conquer": "attalia", "with": {"legion": 2, "galley": 2}}) == [
        "conquer/not-enough-units"]


# --- conquest rules ---------------------------------------------------------------------

def test_a_unit_that_used_its_only_action_cannot_conquer():
    """000 L653-659, Q2: conquering needs a unit still standing (an action left)."""
    g = position({"province": "tomis", "owner": "greeks"},
                 {"province": "napoca", "units": {"phoenicians": {"legion": 1}}})
    assert maneuver_codes(g, move("legion", 1, "napoca", "tomis"), {"conquer": "tomis"}) == [
        "conquer/cannot-reach"]


def test_a_wheel_legion_moves_once_and_then_conquers():
    """000 L577-579 and Q2: a conquest is a maneuver action; a WHEEL legion may move once
    and conquer with its second action."""
    g = position({"province": "tomis", "owner": "greeks"},
                 {"province": "napoca", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["wheel"]})
    g, _ = maneuver(g, move("legion", 1, "napoca", "tomis"), {"conquer": "tomis"})
    assert g.state.provinces["tomis"].owner == "phoenicians"


def test_defence_bonus_democracy_two_not_cumulative():
    """000 L672-674, Q7: MONARCHY 1 or DEMOCRACY 2, not 3."""
    g = position({"province": "tomis", "owner": "greeks", "units": {"phoenicians": {"legion": 4}}},
                 {"nation": "greeks", "knowhow": ["democracy", "monarchy"]})
    g, res = maneuver(g, {"conquer": "tomis"})
    assert events(res, "conquer")[0]["defence"] == 3


def test_third_nations_units_do_not_defend():
    """000 L669-670: only the defender's units count; a third nation's units are ignored and
    stay where they are."""
    g = position({"province": "tomis", "owner": "greeks", "units": {
        "phoenicians": {"legion": 1}, "arabs": {"legion": 3}}})
    g, _ = maneuver(g, {"conquer": "tomis"})
    assert units(g, "tomis", "arabs")["legion"] == 3


def test_the_last_city_cannot_be_conquered():
    """000 L735-736: a nation's last city is immune."""
    g = position({"province": "pella", "owner": None}, {"province": "dyrrhachion", "owner": None},
                 {"province": "athen", "units": {"phoenicians": {"legion": 3}}})
    assert maneuver_codes(g, {"conquer": "athen"}) == ["conquer/last-city"]


def test_several_conquests_in_one_turn_until_the_last_city():
    """Q3, 000 L944-948: several conquests per turn are allowed, each with other units; the
    defender's last city stays immune even within the same turn (000 L735-736)."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "dyrrhachion", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "athen", "units": {"phoenicians": {"legion": 1}}})
    g2, res = maneuver(g, {"conquer": "pella"}, {"conquer": "dyrrhachion"})
    assert len(events(res, "conquer")) == 2
    assert g2.state.cities("greeks") == ["athen"]
    assert maneuver_codes(g, {"conquer": "pella"}, {"conquer": "dyrrhachion"}, {"conquer": "athen"}) == [
        "conquer/last-city"]


def test_units_that_conquered_cannot_conquer_again():
    """000 L944-948: the life of a conquering unit ends; it cannot conquer twice."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "phoenicians", "knowhow": ["roads", "wheel"]})
    assert maneuver_codes(g, {"conquer": "pella"}, {"conquer": "pella"}) == ["conquer/own-city"]
    g2, _ = maneuver(g, {"conquer": "pella"})
    assert units(g2, "pella", "phoenicians")["legion"] == 0


def test_conquer_problems():
    """000 L649-659: a city of another nation, with the defence matched exactly by standing
    units of the types named (docs/orders.md: ``with`` adds up to the defence)."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 1, "galley": 1}}},
                 {"province": "napoca", "units": {"phoenicians": {"legion": 1}}})
    assert maneuver_codes(g, {"conquer": "napoca"}, {"conquer": "alexandria"},
                          {"conquer": "pella", "with": {"legion": 2}},
                          {"conquer": "pella", "with": {"galley": 2}},
                          {"conquer": "roma"}) == [
        "conquer/no-city", "conquer/own-city", "conquer/wrong-strength", "conquer/wrong-strength",
        "move/not-a-province"]
    g2, _ = maneuver(g, {"conquer": "pella", "with": {"galley": 1}})
    assert units(g2, "pella", "phoenicians") == {"legion": 1, "galley": 0}


def _with_cities(n, nation="phoenicians"):
    """Edits giving ``nation`` exactly ``n`` cities (its start cities plus empty sites)."""
    taken = {"artaxata", "zadrakarta", "susa", "saba", "adane", "moscha", "pella", "dyrrhachion", "athen",
             "alexandria", "tyros", "paphos"}
    board = make_game().board
    free = [p for p in sorted(board.provinces) if p not in taken]
    return [{"province": p, "owner": nation} for p in free[: n - 3]]


def test_at_25_cities_a_city_must_be_given_up():
    """000 L729-733, Q18: a conqueror with 25 cities gives up one of its cities (site emptied,
    temple back to the bank) and uses that stone for the conquest."""
    g = position(*_with_cities(25), {"province": "pella", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "tyros", "temple": True})
    temples = g.state.bank.temples
    g2, res = maneuver(g, {"conquer": "pella", "give_up": "tyros"})
    assert g2.state.provinces["pella"].owner == "phoenicians"
    assert "tyros" not in g2.state.provinces
    assert len(g2.state.cities("phoenicians")) == 25
    assert g2.state.bank.temples == temples + 1
    assert g2.state.nations["phoenicians"].personages["general"] == 0


def test_give_up_default_and_problems():
    """D11 (adopted by docs/rulings.md): without ``give_up`` the own city with the lowest defence
    and no temple goes; ``give_up`` is refused below the cap or for a city not one's own."""
    g = position(*_with_cities(25), {"province": "pella", "units": {"phoenicians": {"legion": 1}}},
                 {"province": "alexandria", "temple": True},
                 {"province": "paphos", "units": {"phoenicians": {"galley": 1}}})
    g2, res = maneuver(g, {"conquer": "pella"})
    # every other city has defence 1 and no temple: the first by id goes
    assert res.echo["maneuver"][0]["give_up"] == "adulis"
    assert "adulis" not in g2.state.provinces
    assert maneuver_codes(g, {"conquer": "pella", "give_up": "athen"}) == ["conquer/give-up-invalid"]
    small = position({"province": "pella", "units": {"phoenicians": {"legion": 1}}})
    assert maneuver_codes(small, {"conquer": "pella", "give_up": "tyros"}) == ["conquer/give-up-not-needed"]
