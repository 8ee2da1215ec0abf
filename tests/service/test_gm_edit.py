"""``antike-ref gm-edit``: docs/orders.md "GM edit file" — in order, all or nothing, consistent,
logged with its reason; bank pieces move with the edit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import FOUR, cli_run, edit, make_game, new_game_file, write_json
from pbem.errors import Refused
from pbem.service.readout import show_json

CONTRACT = Path(__file__).resolve().parent.parent / "data" / "contract" / "edit-example.json"


@pytest.fixture
def game(tmp_path):
    return new_game_file(tmp_path, "--id", "demo")


def apply(game: Path, *edits, reason="test", game_id="demo"):
    """Run gm-edit with ``edits``; return (CliRunner result, show --json afterwards)."""
    path = write_json(game.parent / "edit.json", {"game": game_id, "reason": reason, "edits": list(edits)})
    result = cli_run("gm-edit", game, path)
    return result, json.loads(cli_run("show", game, "--json").stdout)


# --- round trips -----------------------------------------------------------------------

def test_contract_example_round_trip(game):
    """The edit file printed in docs/orders.md (Corniclanum is on our East map) applies to a new
    4-nation game, and show --json shows exactly the numbers it sets."""
    before = json.loads(cli_run("show", game, "--json").stdout)
    result = cli_run("gm-edit", game, CONTRACT)
    assert result.exit_code == 0, result.stderr
    assert "applied 8 edit(s)" in result.stdout and "Rulebook p. VIII example: Corniclanum" in result.stdout
    view = json.loads(cli_run("show", game, "--json").stdout)
    persians = view["nations"]["persians"]
    assert persians["resources"] == {"marble": 0, "iron": 3, "gold": 5}
    assert persians["coins"] == 2
    assert persians["knowhow"] == ["monarchy"]
    assert persians["personages"]["king"] == 1 and persians["score"] == 1
    assert view["nations"]["greeks"]["rondel"] == {"index": 2, "wedge": "gold"}
    assert view["provinces"]["corniclanum"] == {
        "owner": "persians", "temple": True, "resource": "marble",
        "units": {"greeks": {"legion": 0, "galley": 6}, "persians": {"legion": 1, "galley": 1}}}
    assert "corniclanum" in persians["cities"] and persians["temples"] == ["corniclanum"]
    assert "cyrene" not in view["provinces"]
    assert persians["stock"] == {"legion": 16, "galley": 16}
    assert view["nations"]["greeks"]["stock"] == {"legion": 17, "galley": 11}
    assert view["bank"] == {"coins": 10, "temples": 19,
                            "personages": {**before["bank"]["personages"], "king": 8, "navigator": 0}}
    assert view["active"] == "greeks"
    assert (view["turn"], view["round"]) == (before["turn"], before["round"])
    assert view["nations"]["greeks"]["coins"] == before["nations"]["greeks"]["coins"]


def test_position_round_trip(game):
    """A rulebook-style position on East-board provinces: every number set is shown."""
    result, view = apply(
        game,
        {"nation": "phoenicians", "resources": {"gold": 7}, "coins": 4, "knowhow": ["sailing", "navigation"],
         "personages": {"scholar": 2}, "rondel": 3},
        {"province": "tyros", "temple": True, "units": {"phoenicians": {"legion": 2, "galley": 3}}},
        {"province": "alexandria", "owner": "greeks",
         "units": {"greeks": {"legion": 1}, "phoenicians": {"galley": 1}}},
        {"nation": "greeks", "all8_bonus": True, "earned": {"navigator": 1}},
        {"active": "arabs"},
    )
    assert result.exit_code == 0, result.stderr
    ph = view["nations"]["phoenicians"]
    assert ph["resources"] == {"marble": 2, "iron": 1, "gold": 7}
    assert ph["coins"] == 4 and ph["knowhow"] == ["navigation", "sailing"]
    assert ph["personages"]["scholar"] == 2 and ph["rondel"] == {"index": 3, "wedge": "maneuver"}
    assert ph["cities"] == ["paphos", "tyros"] and ph["temples"] == ["tyros"]
    assert ph["stock"] == {"legion": 15, "galley": 13}
    assert view["provinces"]["tyros"] == {"owner": "phoenicians", "temple": True, "resource": "iron",
                                          "units": {"phoenicians": {"legion": 2, "galley": 3}}}
    assert view["provinces"]["alexandria"] == {
        "owner": "greeks", "temple": False, "resource": "marble",
        "units": {"greeks": {"legion": 1, "galley": 0}, "phoenicians": {"legion": 0, "galley": 1}}}
    assert view["nations"]["greeks"]["cities"] == ["alexandria", "athen", "dyrrhachion", "pella"]
    assert view["active"] == "arabs"
    assert view["bank"]["coins"] == 23 and view["bank"]["temples"] == 19
    assert view["bank"]["personages"]["scholar"] == 6
    data = json.loads(game.read_text())
    assert data["state"]["nations"]["greeks"]["all8_bonus"] is True
    assert data["state"]["nations"]["greeks"]["earned"]["navigator"] == 1
    assert data["state"]["nations"]["phoenicians"]["earned"]["scholar"] == 2


def test_history_records_the_edit(game):
    """docs/orders.md: "logged in the history with its reason"; the entry chains to the last."""
    result, _ = apply(game, {"nation": "greeks", "coins": 3}, reason="lost coin in round 2")
    assert result.exit_code == 0
    history = json.loads(game.read_text())["history"]
    assert [h["kind"] for h in history] == ["new", "gm-edit"]
    entry = history[-1]
    assert entry["reason"] == "lost coin in round 2"
    assert entry["edits"] == [{"nation": "greeks", "coins": 3}]
    assert entry["seq"] == 1 and entry["prev"] == history[0]["hash"]


def test_output_option_leaves_the_game(game, tmp_path):
    before = game.read_bytes()
    path = write_json(tmp_path / "e.json", {"game": "demo", "reason": "x", "edits": [{"nation": "greeks", "coins": 2}]})
    result = cli_run("gm-edit", game, path, "-o", tmp_path / "out.json")
    assert result.exit_code == 0 and game.read_bytes() == before
    assert json.loads(cli_run("show", tmp_path / "out.json", "--json").stdout)["nations"]["greeks"]["coins"] == 2


# --- fields: exactly what is named --------------------------------------------------------

def test_resources_set_only_the_chips_named():
    g = edit(make_game(), {"nation": "greeks", "resources": {"iron": 9}})
    assert g.state.nations["greeks"].resources == {"marble": 2, "iron": 9, "gold": 3}


def test_units_edit_keeps_owner_and_temple():
    g = edit(make_game(), {"province": "athen", "temple": True})
    g = edit(g, {"province": "athen", "units": {"greeks": {"legion": 2}}})
    prov = g.state.provinces["athen"]
    assert (prov.owner, prov.temple, prov.units) == ("greeks", True, {"greeks": {"legion": 2, "galley": 0}})


def test_units_are_the_full_list():
    """``units`` is the full list afterwards: nations not named leave the province."""
    g = edit(make_game(), {"province": "knossos", "units": {"greeks": {"galley": 2}, "arabs": {"galley": 1}}})
    g = edit(g, {"province": "knossos", "units": {"arabs": {"galley": 3}}})
    assert g.state.provinces["knossos"].units == {"arabs": {"legion": 0, "galley": 3}}
    assert show_json(g)["nations"]["greeks"]["stock"]["galley"] == 17
    g = edit(g, {"province": "knossos", "units": {}})
    assert "knossos" not in show_json(g)["provinces"]


def test_owner_null_removes_city_and_returns_temple():
    """docs/orders.md: ``null`` removes the city and its temple; the temple goes back to the bank."""
    g = edit(make_game(), {"province": "athen", "temple": True, "units": {"greeks": {"legion": 1}}})
    assert g.state.bank.temples == 19
    g = edit(g, {"province": "athen", "owner": None})
    assert g.state.bank.temples == 20
    assert "athen" not in g.state.cities("greeks")
    assert show_json(g)["provinces"]["athen"] == {"owner": None, "temple": False,
                                                  "units": {"greeks": {"legion": 1, "galley": 0}}}


def test_owner_change_keeps_the_temple():
    g = edit(make_game(), {"province": "athen", "temple": True})
    g = edit(g, {"province": "athen", "owner": "persians"})
    assert g.state.temples("persians") == ["athen"] and g.state.bank.temples == 19


def test_coins_come_from_and_go_back_to_the_bank():
    g = make_game()
    assert g.state.bank.coins == 26
    g = edit(g, {"nation": "greeks", "coins": 5})
    assert g.state.bank.coins == 22
    g = edit(g, {"nation": "greeks", "coins": 0})
    assert g.state.bank.coins == 27


def test_temples_come_from_and_go_back_to_the_bank():
    g = edit(make_game(), {"province": "athen", "temple": True}, {"province": "pella", "temple": True})
    assert g.state.bank.temples == 18
    g = edit(g, {"province": "athen", "temple": False})
    assert g.state.bank.temples == 19


def test_cards_come_from_and_go_back_to_the_bank():
    g = edit(make_game(), {"nation": "greeks", "personages": {"king": 2, "general": 1}})
    assert g.state.bank.personages["king"] == 7 and g.state.bank.personages["general"] == 6
    g = edit(g, {"nation": "greeks", "personages": {"king": 0}})
    assert g.state.bank.personages["king"] == 9


def test_personages_set_the_counters_unless_earned_is_given():
    """docs/orders.md: ``personages`` sets the cards held and, unless ``earned`` says otherwise,
    the threshold counters; ``earned`` alone sets only the counters."""
    g = edit(make_game(), {"nation": "greeks", "personages": {"king": 1, "citizen": 1}})
    ns = g.state.nations["greeks"]
    assert ns.personages["king"] == 1 and ns.earned["king"] == 1 and ns.earned["citizen"] == 1
    g = edit(g, {"nation": "greeks", "personages": {"king": 1}, "earned": {"king": 2}})
    assert g.state.nations["greeks"].earned["king"] == 2 and g.state.nations["greeks"].personages["king"] == 1
    g = edit(g, {"nation": "greeks", "earned": {"navigator": 1}})
    ns = g.state.nations["greeks"]
    assert ns.earned["navigator"] == 1 and ns.personages["navigator"] == 0 and ns.earned["king"] == 2


def test_bank_edit_sets_pieces_directly():
    """docs/orders.md: ``bank`` sets what is left; a GM may take coins out of the game."""
    g = edit(make_game(), {"bank": {"coins": 3, "temples": 5, "personages": {"general": 2}}})
    assert (g.state.bank.coins, g.state.bank.temples, g.state.bank.personages["general"]) == (3, 5, 2)
    assert g.state.bank.personages["king"] == 9


def test_active_edit_hands_out_nothing():
    g = make_game()
    coins = {n: g.state.nations[n].coins for n in FOUR}
    g = edit(g, {"active": "greeks"})
    assert g.state.status.active == "greeks" and g.state.status.round == 1
    assert {n: g.state.nations[n].coins for n in FOUR} == coins


def test_standing_orders_edit():
    g = edit(make_game(),
             {"nation": "greeks", "standing": {"battle": {"persians": "always"}, "coin_substitute": "gold"}})
    so = g.state.standing["greeks"]
    assert so.battle == {"default": "home", "persians": "always"} and so.coin_substitute == "gold"


# --- refusals: exit 4, nothing applied --------------------------------------------------

REFUSED = [
    ("unknown province", [{"province": "atlantis", "owner": "greeks"}], "$.edits[0].province", "edit/unknown-province"),
    ("temple without city", [{"province": "knossos", "temple": True}], "$.edits[0].temple", "edit/temple-without-city"),
    ("bank short of coins", [{"nation": "greeks", "coins": 28}], "$.edits[0].coins", "edit/bank-short"),
    ("bank short of cards", [{"nation": "greeks", "personages": {"navigator": 6}}], "$.edits[0].personages.navigator",
     "edit/bank-short"),
    ("bank short of temples", [{"bank": {"temples": 0}}, {"province": "athen", "temple": True}], "$.edits[1].temple",
     "edit/bank-short"),
    ("nation not seated", [{"nation": "egyptians", "coins": 1}], "$.edits[0].nation", "edit/unknown-nation"),
    ("owner not seated", [{"province": "athen", "owner": "romans"}], "$.edits[0].owner", "edit/unknown-nation"),
    ("active not seated", [{"active": "babylonians"}], "$.edits[0].active", "edit/unknown-nation"),
    ("legion at sea", [{"province": "knossos", "units": {"greeks": {"legion": 1}}}], "$.edits[0].units.greeks.legion",
     "edit/unit-terrain"),
    ("over the unit cap", [{"province": "pella", "units": {"greeks": {"legion": 18}}}], "$.edits", "edit/inconsistent"),
    ("secondary without basic", [{"nation": "greeks", "knowhow": ["democracy"]}], "$.edits", "edit/inconsistent"),
    ("too many cards", [{"bank": {"personages": {"king": 10}}}], "$.edits", "edit/inconsistent"),
    ("second edit fails", [{"nation": "greeks", "coins": 5}, {"province": "atlantis", "temple": True}],
     "$.edits[1].province", "edit/unknown-province"),
]


@pytest.mark.parametrize("edits,path,code", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_refused_edits(game, edits, path, code):
    """Exit 4, the rejection code and the path in the edit file; the game file unchanged."""
    before = game.read_bytes()
    result, _ = apply(game, *edits)
    assert result.exit_code == 4, result.stderr
    assert f"{path}: " in result.stderr and f"[{code}]" in result.stderr
    assert result.stderr.startswith("antike-ref: refused")
    assert game.read_bytes() == before


def test_wrong_game_id(game):
    before = game.read_bytes()
    result, _ = apply(game, {"nation": "greeks", "coins": 2}, game_id="other")
    assert result.exit_code == 4
    assert result.stderr == ("antike-ref: refused: $.game: this edit is for game 'other', this is game 'demo' "
                             "[edit/wrong-game]\n")
    assert game.read_bytes() == before


def test_every_problem_is_listed(game):
    result, _ = apply(game, {"province": "atlantis", "owner": "greeks"}, {"nation": "greeks", "coins": 29})
    assert result.exit_code == 4
    lines = result.stderr.splitlines()
    assert lines[0] == "antike-ref: refused (2 problems):"
    assert "[edit/unknown-province]" in lines[1] and "[edit/bank-short]" in lines[2]


def test_all_or_nothing_in_memory():
    """A later edit failing leaves the earlier ones unapplied (the game object too)."""
    g = make_game()
    with pytest.raises(Refused):
        edit(g, {"nation": "greeks", "coins": 5}, {"province": "knossos", "temple": True})
    assert g.state.nations["greeks"].coins == 1 and g.state.bank.coins == 26
    assert len(g.history) == 1


def test_caps_are_the_limit():
    """17 units of a type: accepted; the cap is refused, naming what is wrong."""
    g = edit(make_game(), {"province": "pella", "units": {"greeks": {"legion": 17}}})
    with pytest.raises(Refused) as info:
        edit(g, {"province": "athen", "units": {"greeks": {"legion": 1}}})
    (rejection,) = info.value.rejections
    assert rejection.code == "edit/inconsistent"
    assert rejection.message == ("greeks has 18 legions on the board, more than 17 (athen 1, pella 17) "
                                 "(game file $.state.provinces)")


# --- bad edit files: exit 3 ---------------------------------------------------------------

@pytest.mark.parametrize("content,where", [
    ({"game": "demo", "reason": "x", "edits": [{"nation": "greeks", "coins": -1}]}, "$.edits[0]"),
    ({"game": "demo", "reason": "x", "edits": [{"nation": "greeks", "gold": 3}]}, "$.edits[0]"),
    ({"game": "demo", "reason": " ", "edits": [{"nation": "greeks", "coins": 1}]}, "$.reason"),
    ({"game": "demo", "edits": [{"nation": "greeks", "coins": 1}]}, "'reason' is missing here"),
    ({"game": "demo", "reason": "x", "edits": []}, "$.edits"),
    ({"game": "demo", "reason": "x", "edits": [{"province": "athen", "owner": "vikings"}]}, "$.edits[0]"),
])
def test_schema_invalid_edit_file(game, tmp_path, content, where):
    before = game.read_bytes()
    path = write_json(tmp_path / "bad-edit.json", content)
    result = cli_run("gm-edit", game, path)
    assert result.exit_code == 3
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"antike-ref: {path}: bad input")
    assert where in result.stderr
    assert game.read_bytes() == before


@pytest.mark.parametrize("content,message", [
    (b'{"game": "demo", ', "not valid JSON"),
    (None, "file not found"),
])
def test_unreadable_edit_file(game, tmp_path, content, message):
    before = game.read_bytes()
    path = tmp_path / "e.json"
    if content is not None:
        path.write_bytes(content)
    result = cli_run("gm-edit", game, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"antike-ref: {path}: bad input: {message}")
    assert result.stderr.count("\n") == 1
    assert game.read_bytes() == before


# --- Antike Duellum: what an edit must leave whole ------------------------------------------

DUELLUM_REFUSED = [
    # bug found by the bots: the Commander vanished (neither in the box nor on the board)
    ("special unit vanishes", ("special_units",),
     [{"nation": "carthaginians", "recruitment": {"legion": 1, "galley": 1, "commander": 0}}],
     "recruitment.commander", "is in the box 0 time(s) and on the board 0 time(s)"),
    ("special unit twice", ("special_units",),
     [{"province": "tacape", "owner": "carthaginians", "resource": "iron",
       "units": {"carthaginians": {"legion": 1, "commander": 1}}}],
     "recruitment.commander", "is in the box 1 time(s) and on the board 1 time(s)"),
    # bug found by the bots: a city on a site of choice produced nothing
    ("choice city without a resource", (), [{"province": "cremona", "owner": "romans"}],
     "provinces.cremona.resource", "the city in cremona produces nothing"),
    ("city in a sea", (), [{"province": "mare_africum", "owner": "romans"}],
     "provinces.mare_africum.owner", "where the board has no city site"),
]


@pytest.mark.parametrize("variants,edits,path,words", [r[1:] for r in DUELLUM_REFUSED],
                         ids=[r[0] for r in DUELLUM_REFUSED])
def test_duellum_edits_keep_the_special_units_and_city_types_whole(tmp_path, variants, edits, path, words):
    game = new_game_file(tmp_path, "--id", "demo", "--edition", "duellum",
                         *(a for v in variants for a in ("--variant", v)),
                         nations=["carthaginians", "romans"])
    before = game.read_bytes()
    result, _ = apply(game, *edits)
    assert result.exit_code == 4, result.stderr
    assert "[edit/inconsistent]" in result.stderr and path in result.stderr and words in result.stderr, result.stderr
    assert game.read_bytes() == before


def test_duellum_edits_may_move_a_special_unit_and_set_a_city_type(tmp_path):
    game = new_game_file(tmp_path, "--id", "demo", "--edition", "duellum", "--variant", "special_units",
                         nations=["carthaginians", "romans"])
    result, view = apply(game, {"province": "cremona", "owner": "romans", "resource": "gold"},
                         {"province": "tacape", "owner": "carthaginians", "resource": "iron",
                          "units": {"carthaginians": {"legion": 1, "commander": 1}}},
                         {"nation": "carthaginians", "recruitment": {"legion": 1, "galley": 1, "commander": 0}})
    assert result.exit_code == 0, result.stderr
    assert view["provinces"]["cremona"]["resource"] == "gold"
    assert view["provinces"]["tacape"]["units"]["carthaginians"]["commander"] == 1
