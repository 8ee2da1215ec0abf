"""Personages at the end of the turn (000 L201-278, L348-351, L494-512, L1033-1047).

Thresholds are counters: a personage once won is never lost, and a threshold is never
earned twice (000 L205-220). Positions are built with GM edits on the East board; the
Phoenicians (seats persians, phoenicians, arabs, greeks) play turn 1 unless said otherwise.
"""

from __future__ import annotations

from conftest import edit, make_game, play

FREE = ["adulis", "ammonion", "antiochia", "attalia", "babylon", "berenice", "bycantium", "charax",
        "corniclanum", "cyrene", "dioscoridis", "ephesos", "gerrha", "gordion", "harmotia", "knossos",
        "leptis_magna", "mecca", "melitene", "memphis", "meroe", "messana", "napoca", "ninive"]
"""Empty city sites in a new four-nation game (none is a start city)."""


def position(*edits, active="phoenicians", **opts):
    g = make_game(**opts)
    return edit(g, *edits, {"active": active})


def cities(nation, *provinces):
    return [{"province": p, "owner": nation} for p in provinces]


def held(game, nation):
    return dict(game.state.nations[nation].personages)


def won(result):
    return [(e["personage"], e["reason"]) for e in result.events if e["type"] == "personage"]


def won_of(result, personage):
    return [w for w in won(result) if w[0] == personage]


def found_in(game, city):
    """Found a city in ``city`` (the unit must already be there) after a GOLD turn."""
    return play(game, rondel="gold", found=[{"city": city}])


RICH = {"nation": "phoenicians", "resources": {"marble": 20, "iron": 20, "gold": 40}}


# --- kings ------------------------------------------------------------------------------

def test_king_for_the_fifth_city():
    """000 L252-255: one king for every five cities, awarded at the end of the turn (L348-351)."""
    g = position(RICH, *cities("phoenicians", "cyrene"),
                 {"province": "memphis", "units": {"phoenicians": {"legion": 1}}})
    g, res = found_in(g, "memphis")
    assert won(res) == [("king", "5 cities")]
    assert held(g, "phoenicians")["king"] == 1
    assert g.state.bank.personages["king"] == 8


def test_ten_cities_then_nine_then_ten_gives_no_new_king():
    """000 L211-220: a nation with 10 cities and two kings loses a city and keeps both; with
    10 cities again it gets no new king; the third comes at 15 cities."""
    g = position(*cities("phoenicians", *FREE[:7]), {"nation": "phoenicians", "personages": {"king": 2}},
                 {"province": "adulis", "units": {"arabs": {"legion": 1}}}, active="arabs")
    assert len(g.state.cities("phoenicians")) == 10
    g, _ = play(g, rondel="maneuver", maneuver=[{"conquer": "adulis"}])  # Arabs take one: 9
    assert len(g.state.cities("phoenicians")) == 9 and held(g, "phoenicians")["king"] == 2
    g = edit(g, RICH, {"province": "adulis", "units": {"phoenicians": {"legion": 1}}}, {"active": "phoenicians"})
    g, res = play(g, rondel="maneuver", maneuver=[{"conquer": "adulis"}])  # back to 10
    assert len(g.state.cities("phoenicians")) == 10
    assert won(res) == [] and held(g, "phoenicians")["king"] == 2
    g = edit(g, *cities("phoenicians", *FREE[7:11]), {"province": FREE[11], "units": {"phoenicians": {"legion": 1}}},
             {"active": "phoenicians"}, {"nation": "phoenicians", "rondel": 1})
    g, res = found_in(g, FREE[11])  # 15 cities
    assert won(res) == [("king", "15 cities")] and held(g, "phoenicians")["king"] == 3


def test_several_thresholds_in_one_turn():
    """000 L252-255: a nation that jumps from 9 to 10 cities having never been awarded a king
    (counter 0) receives both the 5- and the 10-city king at the end of the turn."""
    g = position(RICH, *cities("phoenicians", *FREE[:6]), {"nation": "phoenicians", "earned": {"king": 0}},
                 {"province": FREE[6], "units": {"phoenicians": {"legion": 1}}})
    g, res = found_in(g, FREE[6])
    assert won(res) == [("king", "10 cities"), ("king", "10 cities")]


# --- scholars ---------------------------------------------------------------------------

def test_scholar_for_each_know_how_acquired_first():
    """000 L257-259, L494-506: a scholar per know-how acquired first; the navigation example
    pays 3 for sailing (owned by another nation) and 10 for navigation, one scholar."""
    g = position({"nation": "phoenicians", "resources": {"gold": 13}}, {"nation": "greeks", "knowhow": ["sailing"]})
    g, res = play(g, rondel="knowhow", knowhow=["sailing", "navigation"])
    assert won(res) == [("scholar", "first to acquire navigation")]
    assert g.state.nations["phoenicians"].resources["gold"] == 0


def test_two_firsts_in_one_turn_give_two_scholars():
    """000 L494-497: each know-how introduced first is rewarded."""
    g = position({"nation": "phoenicians", "resources": {"gold": 14}})
    g, res = play(g, rondel="knowhow", knowhow=["wheel", "market"])
    assert held(g, "phoenicians")["scholar"] == 2


# --- generals ---------------------------------------------------------------------------

def test_general_for_each_temple_destroyed():
    """000 L261-264: a general for every temple destroyed by conquest; two in one turn."""
    g = position({"province": "pella", "temple": True, "units": {"phoenicians": {"legion": 3}}},
                 {"province": "athen", "temple": True, "units": {"phoenicians": {"legion": 3}}})
    g, res = play(g, rondel="maneuver", maneuver=[{"conquer": "pella"}, {"conquer": "athen"}])
    assert won_of(res, "general") == [("general", "temple destroyed")] * 2


def test_no_general_for_a_city_without_temple():
    """000 L261-264: only destroying a temple wins a general."""
    g = position({"province": "pella", "units": {"phoenicians": {"legion": 1}}})
    g, res = play(g, rondel="maneuver", maneuver=[{"conquer": "pella"}])
    assert won(res) == []


# --- citizens ---------------------------------------------------------------------------

def test_citizen_for_three_and_six_temples():
    """000 L266-269: a citizen for three temples owned, a second for six."""
    g = position({"nation": "phoenicians", "resources": {"marble": 30}},
                 *cities("phoenicians", "cyrene", "memphis", "berenice"),
                 {"province": "alexandria", "temple": True}, {"province": "tyros", "temple": True})
    g, res = play(g, rondel="temple", temples=["paphos"])
    assert won_of(res, "citizen") == [("citizen", "3 temples")]
    g = edit(g, {"active": "phoenicians"}, {"nation": "phoenicians", "rondel": 0})
    g, res = play(g, rondel="temple", temples=["cyrene", "memphis"])
    assert won_of(res, "citizen") == []
    g = edit(g, {"active": "phoenicians"}, {"nation": "phoenicians", "rondel": 0})
    g, res = play(g, rondel="temple", temples=["berenice"])
    assert won_of(res, "citizen") == [("citizen", "6 temples")]


# --- navigators -------------------------------------------------------------------------

SEAS = ["knossos", "paphos", "messana", "sparta", "cyrene"]
MORE_SEAS = ["athen", "bycantium", "tomis", "sinope", "phasis", "attalia", "antiochia"]


def test_navigators_at_seven_and_fourteen_provinces_with_galleys():
    """000 L271-278: a province counts when it holds at least one of the nation's galleys at
    the end of the turn; other nations' galleys are ignored; navigators at 7 and 14."""
    g = position(*({"province": p, "units": {"phoenicians": {"galley": 1}, "greeks": {"galley": 2}}} for p in SEAS),
                 {"province": "alexandria", "units": {"phoenicians": {"galley": 2}}},
                 {"nation": "greeks", "standing": {"battle": "never"}})
    g, res = play(g, rondel="maneuver", maneuver=[{"move": "galley", "from": "alexandria", "path": ["knossos"]}])
    assert won(res) == []  # still six provinces: Knossos had a galley already
    g = edit(g, {"active": "phoenicians"}, {"nation": "phoenicians", "rondel": 2})
    g, res = play(g, rondel="maneuver", maneuver=[{"move": "galley", "from": "knossos", "path": ["ephesos"]}])
    assert won(res) == [("navigator", "galleys in 7 provinces")]
    g = edit(g, *({"province": p, "units": {"phoenicians": {"galley": 1}}} for p in MORE_SEAS),
             {"active": "phoenicians"}, {"nation": "phoenicians", "rondel": 7})
    g, res = play(g, rondel="iron")
    assert won(res) == [("navigator", "galleys in 14 provinces")]
    assert held(g, "phoenicians")["navigator"] == 2


# --- empty stacks -----------------------------------------------------------------------

def test_threshold_reached_with_an_empty_stack_is_spent():
    """000 L348-351, docs/rulings.md: no card when the stack is empty, and the threshold is spent:
    a king put back into the bank later is not handed out for the same five cities."""
    g = position(RICH, *cities("phoenicians", "cyrene"),
                 {"province": "memphis", "units": {"phoenicians": {"legion": 1}}},
                 {"nation": "greeks", "personages": {"king": 9}})
    g, res = found_in(g, "memphis")
    assert won(res) == [] and [e["type"] for e in res.events].count("personage-missed") == 1
    assert g.state.nations["phoenicians"].earned["king"] == 1
    g = edit(g, {"nation": "greeks", "personages": {"king": 8}}, {"active": "phoenicians"},
             {"nation": "phoenicians", "rondel": 1},
             {"province": "berenice", "units": {"phoenicians": {"legion": 1}}}, RICH)
    g, res = play(g, rondel="gold", found=["berenice"])
    assert won(res) == [] and held(g, "phoenicians")["king"] == 0


# --- all eight know-hows ----------------------------------------------------------------

ALL8 = ["currency", "democracy", "market", "monarchy", "navigation", "roads", "sailing", "wheel"]
SEVEN = [k for k in ALL8 if k != "democracy"]


def eighth(*edits, **opts):
    """The Phoenicians, owning seven know-hows, buy democracy (owned by the Greeks: 5 gold)."""
    g = position({"nation": "phoenicians", "knowhow": SEVEN, "resources": {"gold": 5}},
                 {"nation": "greeks", "knowhow": ["democracy", "monarchy"]}, *edits, **opts)
    return play(g, rondel="knowhow", knowhow=["democracy"])


def test_all_eight_knowhows_extra_personage_from_the_largest_stack():
    """000 L201-203, L508-510: the extra personage comes from the stack with the most left."""
    g, res = eighth()
    assert won(res) == [("king", "all eight know-hows")]  # king 9 > scholar 8 > general 7
    g, res = eighth({"nation": "arabs", "personages": {"king": 4}})
    assert won(res) == [("scholar", "all eight know-hows")]  # scholar 8 > general 7 > king 5


def test_all_eight_tie_by_the_standing_order():
    """000 L510-512, D5: on a tie the nation chooses, by its public standing order; the
    default prefers general > king > citizen > navigator > scholar."""
    g, res = eighth({"nation": "arabs", "personages": {"king": 1}})  # king 8 = scholar 8
    assert won(res) == [("king", "all eight know-hows")]
    g, res = eighth({"nation": "arabs", "personages": {"king": 1}},
                    {"nation": "phoenicians",
                     "standing": {"bonus_stack": ["scholar", "king", "general", "citizen", "navigator"]}})
    assert won(res) == [("scholar", "all eight know-hows")]


def test_all_eight_bonus_only_once():
    """000 L508-510: the extra personage is for owning all eight, once (all8_bonus)."""
    g, res = eighth()
    assert len(won(res)) == 1 and g.state.nations["phoenicians"].extra["all8_bonus"]
    g = edit(g, {"active": "phoenicians"})
    g, res = play(g, rondel="iron")
    assert won(res) == []


def test_no_all_eight_bonus_in_expert_and_military_variants():
    """000 L1033-1037 (expert), L1046-1047 (military): no personage for eight know-hows."""
    for variant in ("expert", "military"):
        g, res = eighth(variants=[variant])
        assert won(res) == []


def test_all_eight_bonus_after_the_ordinary_awards():
    """Q19: the ordinary personages are awarded first (here the scholar for a new know-how),
    then the bonus from the largest stack left; with scholars and generals tied at 7 after the
    scholar, the default standing order takes the general."""
    g = position({"nation": "phoenicians", "knowhow": SEVEN, "resources": {"gold": 10}},
                 {"bank": {"personages": {"king": 6, "scholar": 8, "general": 7, "citizen": 6, "navigator": 5}}})
    g, res = play(g, rondel="knowhow", knowhow=["democracy"])
    assert won(res) == [("scholar", "first to acquire democracy"), ("general", "all eight know-hows")]


def test_all_eight_with_every_stack_empty_gives_nothing():
    """000 L348-351: empty stacks give nothing; the bonus is spent all the same."""
    g, res = eighth({"bank": {"personages": {"king": 0, "scholar": 0, "general": 0, "citizen": 0, "navigator": 0}}})
    assert won(res) == [] and g.state.nations["phoenicians"].extra["all8_bonus"]
