"""The end of the game: goals, the military variant, the all-35 ending, a finished game.

000 L184-185, L227-240 (goals, all 35 awarded), L972-978 (3 nations to 12),
L1039-1047 (military variant); docs/rulings.md Q27-Q29; docs/rulings.md.
"""

from __future__ import annotations

import pytest

from conftest import codes, edit, make_game, play

EAST = {3: ["greeks", "persians", "arabs"],
        4: ["persians", "phoenicians", "arabs", "greeks"],
        5: ["greeks", "persians", "arabs", "phoenicians", "egyptians"],
        6: ["greeks", "persians", "arabs", "phoenicians", "egyptians", "babylonians"]}


@pytest.mark.parametrize("count,goal", [(6, 7), (5, 8), (4, 9), (3, 10)])
def test_goal_by_number_of_nations(count, goal):
    """000 L231-234: 6 nations 7 personages, 5 → 8, 4 → 9, 3 → 10."""
    assert make_game(EAST[count]).goal == goal


def test_three_nations_may_play_to_twelve():
    """000 L972-978: the 3-nation game may be played to 12 personages."""
    assert make_game(EAST[3], goal=12).goal == 12


def test_two_players_with_four_nations_play_to_nine():
    """000 L176-185: two players run four nations; the first nation with 9 personages wins."""
    assert make_game(EAST[4], players=2).goal == 9


@pytest.mark.parametrize("count,goal", [(6, 8), (5, 9), (4, 11), (3, 13)])
def test_military_variant_goals(count, goal):
    """000 L1039-1045: victory points; 8 with 6 nations, 9 with 5, 11 with 4, 13 with 3."""
    assert make_game(EAST[count], variants=["military"]).goal == goal


def temple_attack(*edits, nations=EAST[4], active="phoenicians", **opts):
    """``active`` can conquer Pella (Greek, with a temple) with three legions."""
    g = make_game(nations, **opts)
    return edit(g, {"province": "pella", "temple": True, "units": {active: {"legion": 3}}}, *edits,
                {"active": active})


CONQUER_PELLA = {"rondel": "maneuver", "maneuver": [{"conquer": "pella"}]}


def test_ninth_personage_wins_and_the_game_is_over():
    """000 L227-233, Q27: personages are awarded at the end of the turn and the victory check
    follows at once; a finished game refuses further orders with a clear message."""
    g = temple_attack({"nation": "phoenicians", "personages": {"king": 2, "scholar": 3, "citizen": 3}})
    g, res = play(g, **CONQUER_PELLA)
    assert [e for e in res.events if e["type"] == "won"] == [
        {"type": "won", "nation": "phoenicians", "score": 9, "goal": 9}]
    assert g.state.status.winner == "phoenicians"
    problems = codes(g, "phoenicians", rondel="iron")
    assert problems == ["orders/game-over"]
    assert codes(g, "greeks", standing={"battle": "always"}) == ["standing/game-over"]


def test_eight_personages_do_not_win():
    """000 L233: with four nations 9 personages are needed."""
    g = temple_attack({"nation": "phoenicians", "personages": {"king": 2, "scholar": 3, "citizen": 2}})
    g, _ = play(g, **CONQUER_PELLA)
    assert g.state.status.winner is None and g.state.status.active == "arabs"


def test_military_variant_counts_a_general_twice():
    """000 L1039-1044: a general is worth 2 victory points, others 1; goal 11 with 4 nations."""
    g = temple_attack({"nation": "phoenicians", "personages": {"king": 3, "scholar": 4, "general": 1}},
                      variants=["military"])
    assert g.score("phoenicians") == 9
    g, res = play(g, **CONQUER_PELLA)
    assert g.score("phoenicians") == 11 and g.state.status.winner == "phoenicians"


FIVE = EAST[5]
SEVEN_EACH = [{"nation": n, "personages": p} for n, p in zip(FIVE, [
    {"king": 2, "scholar": 2, "general": 1, "citizen": 1, "navigator": 1},
    {"king": 2, "scholar": 2, "general": 1, "citizen": 1, "navigator": 1},
    {"king": 2, "scholar": 2, "general": 1, "citizen": 1, "navigator": 1},
    {"king": 2, "scholar": 1, "general": 2, "citizen": 1, "navigator": 1},
    {"king": 1, "scholar": 1, "general": 2, "citizen": 2, "navigator": 1}])]
"""All 35 personages out among five nations, seven each (goal 8): nobody has won."""


def test_all_35_out_the_first_temple_destroyed_wins():
    """000 L236-240, Q28: when all 35 personages are out and nobody has won, the first nation
    to destroy a temple wins (here the cards went out by a GM edit before this turn)."""
    g = temple_attack(*SEVEN_EACH, nations=FIVE)
    assert sum(g.state.bank.personages.values()) == 0
    g, res = play(g, **CONQUER_PELLA)
    assert g.state.status.winner == "phoenicians"
    assert res.events[-1]["type"] == "won"


def test_all_35_out_a_conquest_without_temple_does_not_win():
    """000 L236-240: only destroying a temple wins."""
    g = temple_attack(*SEVEN_EACH, {"province": "pella", "temple": False}, nations=FIVE)
    g, _ = play(g, **CONQUER_PELLA)
    assert g.state.status.winner is None


def test_all_35_rule_starts_the_turn_after_the_last_card():
    """docs/rulings.md: the all-35 ending applies from the turn after the one in which the last card
    was handed out. The Phoenicians' temple destruction wins the 35th card (a general), which
    does not win the game; the Egyptians, next, destroy a temple and win."""
    one_short = [e if e["nation"] != "phoenicians" else
                 {"nation": "phoenicians",
                  "personages": {"king": 2, "scholar": 1, "general": 1, "citizen": 1, "navigator": 1}}
                 for e in SEVEN_EACH]
    g = temple_attack(*one_short, {"province": "athen", "temple": True, "units": {"egyptians": {"legion": 3}}},
                      nations=FIVE)
    assert sum(g.state.bank.personages.values()) == 1
    g, res = play(g, **CONQUER_PELLA)
    assert g.state.status.winner is None and g.state.status.extra["all_awarded_turn"] == 1
    assert g.state.status.active == "egyptians"
    g, res = play(g, rondel="maneuver", maneuver=[{"conquer": "athen"}])
    assert g.state.status.winner == "egyptians"
