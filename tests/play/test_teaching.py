"""Messages that teach: every refusal names what is wrong, where, and what would be right.

One test per kind of message a player meets: an unknown name (with the closest names), an
unknown key, a value of the wrong kind, why a unit cannot move or conquer, a payment that
falls short (the cost and all the nation holds), the defaults the referee applied, the
board's own words accepted as keys and names, ``options`` telling in text what ``--json``
has, and ``show`` naming neighbours and players. No message shows a regular expression or
an internal rulebook line code.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import PASSWORDS, cli_run, edit, make_game, play
from pbem.service.store import save_game

PH = "phoenicians"
NO_INTERNALS = re.compile(r"\^\[|\$'|\[a-z|L\d{2,}|is not valid under any")


def orders(**fields):
    return {"game": "demo", "nation": PH, "turn": 1, "password": PASSWORDS[PH], **fields}


def run_check(tmp_path, data, game=None, *, text=None):
    g = game or make_game(game_id="demo")
    path = tmp_path / "game.json"
    save_game(g, path)
    before = path.read_bytes()
    order_path = tmp_path / "orders.json"
    order_path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    result = cli_run("check", path, order_path)
    assert path.read_bytes() == before
    assert not NO_INTERNALS.search(result.stderr), result.stderr
    return result


def assert_guide_linked(result):
    assert "docs/playing.md" in result.stderr


@pytest.mark.parametrize("field, value, says", [
    ("nation", "phonicians", "'phonicians' is not a known nation; did you mean 'phoenicians'?"),
    ("rondel", "maneuvre", "'maneuvre' is not a known wedge; did you mean 'maneuver'?"),
])
def test_an_unknown_name_gets_the_closest_and_every_valid_one(tmp_path, field, value, says):
    result = run_check(tmp_path, orders(**{field: value, **({} if field == "rondel" else {"rondel": "gold"})}))
    assert result.exit_code == 3
    assert says in result.stderr
    assert "(one of:" in result.stderr
    assert_guide_linked(result)


def test_an_unknown_know_how_names_the_closest(tmp_path):
    result = run_check(tmp_path, orders(rondel="knowhow", knowhow=["monarhy"]))
    assert "'monarhy' is not a known know-how; did you mean 'monarchy'?" in result.stderr


def test_an_unknown_key_names_the_key_meant_and_the_keys_allowed(tmp_path):
    data = orders(rondel="gold")
    data["pasword"] = data.pop("password")
    result = run_check(tmp_path, data)
    assert result.exit_code == 3
    assert "'password' is missing here ('pasword' looks like a misspelling)" in result.stderr
    assert "'pasword' is not a key that belongs here; did you mean 'password'?" in result.stderr


def test_a_maneuver_step_without_its_first_key_says_which_keys_start_one(tmp_path):
    result = run_check(tmp_path, orders(rondel="maneuver",
                                        maneuver=[{"mov": "legion", "from": "tyros", "path": ["sidon"]}]))
    assert "must start with one of the keys move, battle, conquer ('mov': did you mean 'move'?)" in result.stderr


def test_a_value_of_the_wrong_kind_says_what_kind_is_wanted(tmp_path):
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=[
        {"move": "galley", "count": "one", "from": "tyros", "path": ["sidon"]}]))
    assert "$.maneuver[0].count: must be a whole number, not 'one'" in result.stderr


def test_an_unknown_province_gets_did_you_mean_with_display_names(tmp_path):
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=[
        {"move": "galley", "count": 1, "from": "tyros", "path": ["alexandira"]}]))
    assert result.exit_code == 4
    assert "'alexandira' is not a province of this board (did you mean Alexandria (alexandria)?)" in result.stderr
    assert_guide_linked(result)


def test_a_unit_with_too_few_steps_says_which_know_how_gives_more(tmp_path):
    """A galley moves one step; two need Sailing (rulebook p. VII, "Maneuver")."""
    g = edit(make_game(game_id="demo"), {"province": "tyros", "units": {PH: {"galley": 1}}})
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=[
        {"move": "galley", "count": 1, "from": "tyros", "path": ["paphos", "knossos"]}]), g)
    assert result.exit_code == 4
    assert ("Phoenicians cannot move 1 galley(s) 2 step(s) from Tyros: a galley moves at most 1 step a turn "
            "(2 steps need Sailing; 3 steps need Navigation)") in result.stderr


def test_a_unit_that_has_used_its_steps_is_named_as_such(tmp_path):
    g = edit(make_game(game_id="demo"), {"province": "tyros", "units": {PH: {"galley": 1}}})
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=[
        {"move": "galley", "count": 1, "from": "tyros", "path": ["paphos"]},
        {"move": "galley", "count": 1, "from": "paphos", "path": ["knossos"]}]), g)
    assert "only 0 of its 1 galleys there can still move 1 step; 1 has used its steps this turn" in result.stderr


def test_a_unit_where_the_nation_has_none_says_where_its_units_are(tmp_path):
    g = edit(make_game(game_id="demo"), {"province": "tyros", "units": {PH: {"galley": 1}}})
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=[
        {"move": "galley", "count": 1, "from": "paphos", "path": ["knossos"]}]), g)
    assert "it has no galleys there (its galleys are in Tyros)" in result.stderr


def test_a_border_of_the_wrong_kind_says_who_crosses_it(tmp_path):
    g = edit(make_game(game_id="demo"), {"province": "tyros", "units": {PH: {"legion": 1}}})
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=[
        {"move": "legion", "count": 1, "from": "tyros", "path": ["paphos"]}]), g)
    assert ("a legion cannot cross from Tyros to Paphos (their border is sea only: only galleys cross it)"
            in result.stderr)


def on_rondel():
    """A new game in which the Phoenicians' stone already stands on IRON (0)."""
    return edit(make_game(game_id="demo"), {"nation": PH, "rondel": 0})


def test_a_short_payment_gives_the_cost_and_all_the_nation_holds(tmp_path):
    result = run_check(tmp_path, orders(rondel={"to": "maneuver", "steps": 7, "pay": {"iron": 4}}), on_rondel())
    assert result.exit_code == 4
    assert re.search(r"costs 4 resources of any kind; the payment asks for 4 iron but Phoenicians has \d+ "
                     r"\(all it holds: \d+ marble, \d+ iron, \d+ gold, \d+ coins?\)", result.stderr), result.stderr


def test_defaults_applied_are_said_in_the_echo_and_recorded_for_the_report(tmp_path):
    g = on_rondel()
    path = tmp_path / "game.json"
    save_game(g, path)
    order_path = tmp_path / "orders.json"
    order_path.write_text(json.dumps(orders(rondel={"to": "maneuver", "steps": 7})), encoding="utf-8")
    checked = cli_run("check", path, order_path)
    assert checked.exit_code == 0, checked.stderr
    assert "chosen by the referee, because the orders left it open" in checked.stdout
    assert 'no "pay" given' in checked.stdout
    data = json.loads(cli_run("check", path, order_path, "--json").stdout)
    assert [d["path"] for d in data["defaults"]] == ["$.rondel.pay"]
    assert cli_run("process", path, order_path).exit_code == 0
    entry = json.loads(path.read_text(encoding="utf-8"))["history"][-1]
    assert entry["defaults"][0]["path"] == "$.rondel.pay"
    assert cli_run("verify", path).exit_code == 0


def test_which_units_go_may_be_chosen(tmp_path):
    """Two legions in Tyros, one of which has moved: "which": "fresh" sends the other."""
    g = edit(make_game(game_id="demo"), {"province": "tyros", "units": {PH: {"legion": 1}}},
             {"province": "antiochia", "units": {PH: {"legion": 1}}},
             {"nation": PH, "knowhow": ["wheel"]})
    steps = [{"move": "legion", "count": 1, "from": "antiochia", "path": ["tyros"]},
             {"move": "legion", "count": 1, "from": "tyros", "path": ["petra"], "which": "fresh"},
             {"move": "legion", "count": 1, "from": "petra", "path": ["tyros"]}]
    # The fresh legion (2 steps) goes to Petra and can come back; sending the moved one
    # (1 step left) would leave it no step for the way back.
    play(g, PH, rondel="maneuver", maneuver=steps)  # accepted, or it raises Refused
    plain = [dict(s) for s in steps]
    del plain[1]["which"]
    result = run_check(tmp_path, orders(rondel="maneuver", maneuver=plain), g)
    assert result.exit_code == 4
    assert "1 has used its steps this turn" in result.stderr


def test_the_boards_words_are_accepted_as_keys_and_names(tmp_path):
    result = run_check(tmp_path, {"game": "demo", "nation": "Phoenicians", "turn": 1, "password": PASSWORDS[PH],
                                  "rondel": "KNOW-HOW", "Know-How": ["Monarchy"]},
                       edit(make_game(game_id="demo"), {"nation": PH, "resources": {"gold": 10}}))
    assert result.exit_code == 0, result.stderr
    assert '"name": "monarchy"' in result.stdout


def test_options_text_tells_what_json_tells(tmp_path):
    g = edit(make_game(game_id="demo"), {"province": "tyros", "units": {PH: {"galley": 2}}})
    path = tmp_path / "game.json"
    save_game(g, path)
    text = cli_run("options", path).stdout
    data = json.loads(cli_run("options", path, "--json").stdout)
    for target in data["targets"]:
        effect = target.get("effect", {})
        for place in effect.get("places", []):
            assert place["city"].title() in text
        for offer in effect.get("knowhow", []):
            assert f"{offer['name'].title()}: {offer['price']} gold" in text
        for group in effect.get("groups", []):
            for province, steps in group["reach"].items():
                assert f"{g.board.province(province).name} {steps}" in text
    assert "MANEUVER (3)" in text and "MANEUVER (7)" in text
    template = data["template"]["rondel"]
    legal = [t for t in data["targets"] if t["legal"]]
    assert min(t["cost"] for t in legal) == next(t["cost"] for t in legal if t["index"] ==
                                                   next(x["index"] for x in legal if x["rondel"]["to"] == template["to"]
                                                        and x["rondel"].get("steps") == template.get("steps")))


def test_show_names_players_and_a_provinces_neighbours(tmp_path):
    g = make_game(game_id="demo")
    path = tmp_path / "game.json"
    save_game(g, path)
    one = cli_run("show", path, "--province", "Alexandria")
    assert one.exit_code == 0, one.stderr
    assert "Ammonion, Cyrene" in one.stdout and "Knossos" in one.stdout
    unknown = cli_run("show", path, "--province", "atlantis")
    assert unknown.exit_code == 2 and "unknown province 'atlantis'" in unknown.stderr
    every = cli_run("show", path, "--neighbours")
    assert every.stdout.count("(") >= len(g.board.provinces)
