"""Set-up rules of classic Antike that depend on the board and the number of players.

Each test cites the English rulebook (key 000, line as ``cat -n`` prints it) or
docs/rulings.md: the two-player teams per board side, the two-player variant with one
double nation per player, the longer game's start city, and the start player from the
board data.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import FOUR, PASSWORDS, SetupOptions, cli_run, new_game
from pbem.errors import UsageError
from pbem.kernel.queries import stock
from pbem.service.boards import load_board
from pbem.service.readout import show_json


def setup(nations, board="antike-east", **opts):
    options = SetupOptions(game_id="t", board=board, nations=list(nations), seed=opts.pop("seed", "s"), **opts)
    return new_game(options, load_board(board), {n: PASSWORDS[n] for n in nations})[0]


# --- two players, four nations ---------------------------------------------------------

def test_two_players_east_teams_are_the_rulebooks():
    """000 L179-181: "In the other theater (East), one manages the Persians and Phoenicians,
    the other the Greeks and Arabs." The teams are recorded in the set-up."""
    game = setup(FOUR, players=2)
    assert game.history[0]["setup"]["teams"] == [["persians", "phoenicians"], ["greeks", "arabs"]]


def test_two_players_west_teams_are_the_rulebooks():
    """000 L176-179: "in the Roman Empire region (West), one player manages the Romans and
    Phoenicians, the other the Germanic tribes and the Greeks." """
    game = setup(["romans", "germans", "phoenicians", "greeks"], board="antike-west", players=2)
    assert game.history[0]["setup"]["teams"] == [["romans", "phoenicians"], ["germans", "greeks"]]


def test_named_teams_in_any_order_are_accepted():
    game = setup(FOUR, players=2, teams=[["arabs", "greeks"], ["phoenicians", "persians"]])
    assert game.history[0]["setup"]["teams"] == [["arabs", "greeks"], ["phoenicians", "persians"]]


def test_other_teams_are_refused():
    """000 L179-181: the pairing is the rulebook's for the board side."""
    with pytest.raises(UsageError, match="one player runs persians\\+phoenicians and the other greeks\\+arabs"):
        setup(FOUR, players=2, teams=[["persians", "greeks"], ["phoenicians", "arabs"]])
    with pytest.raises(UsageError, match="two teams of two"):
        setup(FOUR, players=2, teams=[["persians", "phoenicians", "greeks"], ["arabs"]])


def test_teams_only_for_two_players_with_four_nations():
    with pytest.raises(UsageError, match="--team is for two players"):
        setup(FOUR, teams=[["persians", "phoenicians"], ["greeks", "arabs"]])


def test_a_team_has_one_player():
    """000 L176: "Each player manages two nations": a player named for one nation of a team
    plays the other too; two different players for one team are refused."""
    game = setup(FOUR, players=2, player={"persians": "Ann <ann@example.org>"})
    assert game.meta["phoenicians"].player == "Ann"
    assert game.meta["phoenicians"].email == "ann@example.org"
    assert game.meta["greeks"].player is None
    with pytest.raises(UsageError, match="run by one player"):
        setup(FOUR, players=2, player={"persians": "Ann", "phoenicians": "Bob"})


def test_teams_are_not_recorded_for_other_games():
    """Games of other sizes record their set-up exactly as before (no ``teams`` key)."""
    assert "teams" not in setup(FOUR).history[0]["setup"]


# --- two players, one double nation each -------------------------------------------------

def test_double_nation_goal_and_materials():
    """000 L187-191: "use two colors, and double the materials used. In this variation, the
    first player to gain 15 ancient personages wins." Pieces double (34 legions and galleys,
    50 city stones); the start resources stay the nation card's (docs/rulings.md)."""
    game = setup(["greeks", "persians"], variants=["double"])
    assert game.table.goal == 15 and game.table.players == 2
    assert stock(game.state, game.edition, "greeks", "legion") == 34
    assert stock(game.state, game.edition, "persians", "galley") == 34
    assert game.edition.rules_for(game.state.table).city_stones == 50
    assert show_json(game)["nations"]["greeks"]["goal"] == 15
    assert show_json(game)["nations"]["greeks"]["stock"] == {"legion": 34, "galley": 34}
    normal = setup(FOUR)
    assert game.state.nations["greeks"].resources == normal.state.nations["greeks"].resources


def test_double_nation_start_player_is_drawn_by_lot_from_the_seed():
    """000 L192-194: "The starting player can be determined by the flip of a coin." The lot
    comes from the seed stored in the game, so a replay draws the same."""
    firsts = {}
    for seed in ("a", "b", "c", "d", "e", "f"):
        game = setup(["greeks", "persians"], variants=["double"], seed=seed)
        lot = hashlib.sha256(f"{seed}:start player".encode()).digest()[0] % 2
        assert game.table.first == ["greeks", "persians"][lot]
        firsts[seed] = game.table.first
    assert set(firsts.values()) == {"greeks", "persians"}
    assert setup(["greeks", "persians"], variants=["double"], first="persians").table.first == "persians"


def test_double_nation_picks_in_turns():
    """000 L191-192: "players take turns picking out their three starting cities" (snake
    order from the start player, docs/rulings.md), one marble, one iron and one gold city
    each (000 L161-162)."""
    picks = ["sparta", "susa", "ninive", "athen", "dyrrhachion", "artaxata"]
    game = setup(["greeks", "persians"], variants=["double"], first="greeks", picks=picks)
    assert sorted(game.state.cities("greeks")) == ["athen", "dyrrhachion", "sparta"]
    assert sorted(game.state.cities("persians")) == ["artaxata", "ninive", "susa"]
    assert game.history[0]["setup"]["picks"] == picks


@pytest.mark.parametrize("picks, message", [
    (["sparta", "susa"], "six start cities"),
    (["sparta", "susa", "ninive", "athen", "dyrrhachion", "sparta"], "already picked as pick 1"),
    (["sparta", "susa", "ninive", "pella", "dyrrhachion", "artaxata"],
     "pick 4 .*already picked a marble city \\(sparta\\)"),
    (["sparta", "susa", "ninive", "athen", "dyrrhachion", "atlantis"], "not a province"),
])
def test_bad_picks_are_refused(picks, message):
    with pytest.raises(UsageError, match=message):
        setup(["greeks", "persians"], variants=["double"], first="greeks", picks=picks)


def test_double_nation_without_picks_takes_start_lines():
    """D14 (docs/rulings.md): without picks each nation takes its start line at the smallest
    number of nations that seats both."""
    game = setup(["greeks", "persians"], variants=["double"])
    board = load_board("antike-east")
    assert sorted(game.state.cities("greeks")) == sorted(board.start_lines[3]["greeks"])


@pytest.mark.parametrize("nations, opts, message", [
    (["greeks", "persians", "arabs"], {"variants": ["double"]}, "two nations, one for each player"),
    (["greeks", "persians"], {}, "add --variant double"),
    (["greeks", "persians"], {"variants": ["double", "longer"]}, "cannot be combined with longer"),
    (["greeks", "persians"], {"variants": ["double"], "start": {"greeks": ["athen", "pella", "sparta"]}},
     "--picks, not --start"),
    (FOUR, {"picks": ["athen"]}, "--picks is for the double-nation variant"),
])
def test_double_nation_refusals(nations, opts, message):
    with pytest.raises(UsageError, match=message):
        setup(nations, **opts)


# --- the longer game, the start player -------------------------------------------------------

def test_longer_game_start_city_is_one_of_the_line():
    """000 L964-967: "each nation can start with just one city. The start cities can be
    chosen from the three start cities on the nation card." """
    game = setup(FOUR, variants=["longer"], start={"greeks": ["athen"]})
    assert game.state.cities("greeks") == ["athen"]
    with pytest.raises(UsageError, match="one of the greeks' start cities for 4 nations: pella, dyrrhachion, athen"):
        setup(FOUR, variants=["longer"], start={"greeks": ["sparta"]})


def test_start_player_comes_from_the_board():
    """000 L282-287: the nation with the red dot for the number of nations starts (with four
    nations the Phoenicians); the board data carries it per count, and --first overrides."""
    assert setup(FOUR).table.first == "phoenicians"
    assert setup(FOUR, first="greeks").table.first == "greeks"
    west = load_board("antike-west")
    for count, nation in west.start_nation.items():
        nations = list(west.nations[count])
        assert setup(nations, board="antike-west").table.first == nation


def test_start_player_without_board_data_is_the_first_seat():
    """docs/rulings.md: where the board gives no start nation, the first seat starts."""
    assert 3 not in load_board("antike-east").start_nation
    assert setup(["arabs", "greeks", "persians"]).table.first == "arabs"


# --- through the command line ---------------------------------------------------------------

def test_new_with_teams_and_picks_on_the_command_line(tmp_path):
    game = tmp_path / "g.json"
    r = cli_run("new", str(game), "--nations", ",".join(FOUR), "--players", "2",
                "--team", "greeks,arabs", "--team", "persians,phoenicians")
    assert r.exit_code == 0, r.stderr
    assert json.loads(game.read_text())["history"][0]["setup"]["teams"] == [
        ["greeks", "arabs"], ["persians", "phoenicians"]]
    bad = tmp_path / "bad.json"
    r = cli_run("new", str(bad), "--nations", ",".join(FOUR), "--players", "2",
                "--team", "greeks,persians", "--team", "arabs,phoenicians")
    assert r.exit_code == 2 and "rulebook p. III" in r.stderr and not bad.exists()
    double = tmp_path / "d.json"
    r = cli_run("new", str(double), "--nations", "greeks,persians", "--variant", "double", "--first", "greeks",
                "--picks", "sparta,susa,ninive,athen,dyrrhachion,artaxata")
    assert r.exit_code == 0, r.stderr
    r = cli_run("verify", str(double))
    assert r.exit_code == 0, r.stderr
