"""The fixed game the report tests render: a GM-edited position, then scripted turns
through the engine, with a maneuver that has a demanded battle and a conquest.

Players' names carry characters that mean something in XML, Markdown and BBCode, so the
golden files show that such text is escaped and never breaks a report.
"""

from __future__ import annotations

from conftest import FOUR, edit, make_game, play

PLAYERS = {
    "greeks": "Ann Example <ann@example.org>",
    "persians": 'Zoë & "Bob" [b]*Ω*_x_ [url=http://x.invalid]y[/url] `c` | # <zoe&co@example.org>',
    "arabs": "Chen Wei <chen&wei@example.org>",
}


def scripted_games():
    """The game after each of its history entries: set-up, a GM edit, then six turns.

    Persians, Phoenicians, Arabs, Greeks (the Phoenicians start). Turn 1: the Phoenicians
    sail 4 galleys from Knossos into Athen, the Greeks demand a battle there (their home
    city), and the Phoenicians conquer Athen; they also march a legion to Antiochia and
    found a city there. Turn 4 ends round 1 (a coin each).
    """
    g = make_game(FOUR, game_id="golden", player=dict(PLAYERS))
    games = [g]
    g = edit(g,
             *({"nation": n, "resources": {"marble": 6, "iron": 6, "gold": 10}} for n in FOUR),
             {"nation": "phoenicians", "knowhow": ["sailing"]},
             {"province": "knossos", "units": {"phoenicians": {"galley": 4}}},
             {"province": "tyros", "units": {"phoenicians": {"legion": 2}}},
             {"province": "athen", "units": {"greeks": {"legion": 1, "galley": 1}}},
             {"province": "pella", "units": {"greeks": {"legion": 2}}},
             {"province": "susa", "units": {"persians": {"legion": 1}}},
             reason="Test position: richer start, units placed")
    games.append(g)
    turns = [
        dict(rondel="maneuver", maneuver=[
            {"move": "galley", "count": 4, "from": "knossos", "path": ["athen"]},
            {"move": "legion", "count": 1, "from": "tyros", "path": ["antiochia"]},
            {"conquer": "athen", "with": {"galley": 2}},
        ], found=[{"city": "antiochia"}]),
        dict(rondel="marble"),
        dict(rondel="knowhow", knowhow=[{"name": "wheel"}]),
        dict(rondel="arming", arm=[{"unit": "legion", "at": "susa", "count": 1}]),
        dict(rondel="arming", arm=[{"unit": "galley", "at": "athen", "count": 1},
                                   {"unit": "legion", "at": "tyros", "count": 1}]),
        dict(rondel="temple", temples=[{"city": "saba"}]),
    ]
    for orders in turns:
        g, _ = play(g, **orders)
        games.append(g)
    return games


def scripted_game():
    """The scripted game after its last turn (turn 6)."""
    return scripted_games()[-1]


def test_the_scenario_has_a_battle_and_a_conquest():
    g = scripted_game()
    turn1 = next(e for e in g.history if e.get("turn") == 1)
    kinds = [e["type"] for e in turn1["events"]]
    assert "battle" in kinds and "conquer" in kinds and "found" in kinds
    assert g.state.provinces["athen"].owner == "phoenicians"
    assert [e["kind"] for e in g.history] == ["new", "gm-edit"] + ["turn"] * 6
