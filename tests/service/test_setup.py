"""Setting up classic Antike on the East board (``antike-ref new``).

Each rule test cites the English rulebook (key 000, line as ``cat -n`` prints it) or
docs/rulings.md. Usage errors at the end: bad ``new`` options exit 2 and write nothing.
"""

from __future__ import annotations

import json
import os
import stat

import pytest

from conftest import FOUR, PASSWORDS, SetupOptions, cli_run, edit, make_game, new_game, new_game_file
from pbem.errors import Refused, UsageError
from pbem.service import passwords
from pbem.service.boards import load_board
from pbem.service.readout import show_json

EAST = {
    3: ["greeks", "persians", "arabs"],
    4: ["greeks", "persians", "arabs", "phoenicians"],
    5: ["greeks", "persians", "arabs", "phoenicians", "egyptians"],
    6: ["greeks", "persians", "arabs", "phoenicians", "egyptians", "babylonians"],
}


def setup(nations, **opts):
    """``new_game`` without the CLI; returns the game."""
    options = SetupOptions(game_id="t", board="antike-east", nations=list(nations), seed="s", **opts)
    return new_game(options, load_board("antike-east"), {n: PASSWORDS[n] for n in nations})[0]


# --- nations ---------------------------------------------------------------------------

@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_nations_per_count_east(count):
    """000 L124-137: Greeks, Persians, Arabs always; Phoenicians at 4-6; Egyptians at 5-6;
    Babylonians at 6."""
    game = setup(EAST[count])
    assert sorted(game.seats) == sorted(EAST[count])
    assert sorted(show_json(game)["nations"]) == sorted(EAST[count])


@pytest.mark.parametrize("nations", [
    ["greeks", "persians", "phoenicians"],                                # no Arabs at 3
    ["greeks", "persians", "arabs", "egyptians"],                         # Egyptians only at 5-6
    ["greeks", "persians", "arabs", "phoenicians", "babylonians"],        # Babylonians only at 6
    ["greeks", "persians", "phoenicians", "egyptians", "babylonians"],    # Arabs always
])
def test_wrong_nations_for_the_count_are_refused(nations):
    """000 L106-107: "The number of nations determines which nations take part." Even with
    explicit start cities, another set of nations is refused."""
    with pytest.raises(UsageError, match="the nations are"):
        setup(nations)


def test_nations_keep_seat_order():
    """000 L298: turns go clockwise; ``--nations`` is the seat order (docs/rulings.md)."""
    game = setup(["arabs", "greeks", "persians"])
    assert list(game.seats) == ["arabs", "greeks", "persians"]
    assert list(game.turn_order()) == ["arabs", "greeks", "persians"]


def test_two_players_play_four_nations():
    """000 L103-106, L176-185: two players play 4 nations, two each, to 9 personages."""
    game = setup(FOUR, players=2)
    assert game.table.players == 2 and len(game.seats) == 4 and game.goal == 9
    with pytest.raises(UsageError, match="two players play 4 nations"):
        setup(EAST[3], players=2)
    with pytest.raises(UsageError, match="--players 3"):
        setup(FOUR, players=3)


# --- start cities, resources, caps -----------------------------------------------------

@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_start_cities_come_from_the_line_for_the_count(count):
    """000 L161-173: one marble, one iron and one gold city, from the nation card's line for
    the number of nations."""
    board = load_board("antike-east")
    game = setup(EAST[count])
    for nation in EAST[count]:
        cities = game.state.cities(nation)
        assert cities == sorted(board.start_lines[count][nation])
        assert sorted(board.province(c).resource for c in cities) == ["gold", "iron", "marble"]
        assert game.state.temples(nation) == []


def test_start_lines_differ_by_count():
    """000 L163-165: "The three start cities are different for each number of participating
    nations"."""
    three, four = setup(EAST[3]), setup(EAST[4])
    assert three.state.cities("greeks") == ["dyrrhachion", "messana", "sparta"]
    assert four.state.cities("greeks") == ["athen", "dyrrhachion", "pella"]


def test_explicit_start_cities():
    """000 L162-163 with docs/rulings.md (start lines are inferred, so ``--start`` may replace them):
    any marble, iron and gold city not taken by another nation."""
    game = setup(FOUR, start={"greeks": ["sparta", "knossos", "athen"]})
    assert game.state.cities("greeks") == ["athen", "knossos", "sparta"]


@pytest.mark.parametrize("count", [3, 6])
def test_start_resources(count):
    """000 L147-151: each nation starts with 1 iron, 2 marble and 3 gold."""
    game = setup(EAST[count])
    for nation in game.seats:
        assert game.state.nations[nation].resources == {"marble": 2, "iron": 1, "gold": 3}
        assert game.state.nations[nation].knowhow == []
        assert game.state.nations[nation].rondel is None


def test_unit_caps_seventeen():
    """000 L153-159: 17 legions and 17 galleys; "No nation can have any more"."""
    game = make_game()
    assert show_json(game)["nations"]["greeks"]["stock"] == {"legion": 17, "galley": 17}
    full = edit(game, {"province": "pella", "units": {"greeks": {"legion": 17}}},
                {"province": "knossos", "units": {"greeks": {"galley": 17}}})
    assert show_json(full)["nations"]["greeks"]["stock"] == {"legion": 0, "galley": 0}
    with pytest.raises(Refused, match="18 legions"):
        edit(full, {"province": "athen", "units": {"greeks": {"legion": 1}}})
    with pytest.raises(Refused, match="18 galleys"):
        edit(full, {"province": "sparta", "units": {"greeks": {"galley": 1}}})


def test_city_stones_twenty_five():
    """000 L153-159: 25 city stones per nation, no more."""
    game = make_game()
    free = [p for p in game.board.provinces if p not in game.state.provinces]
    more = 25 - len(game.state.cities("greeks"))
    full = edit(game, *({"province": p, "owner": "greeks"} for p in free[:more]))
    assert len(full.state.cities("greeks")) == 25
    with pytest.raises(Refused, match="26 cities"):
        edit(full, {"province": free[more], "owner": "greeks"})


# --- bank, start nation, coin ----------------------------------------------------------

@pytest.mark.parametrize("count", [3, 6])
def test_bank(count):
    """000 L47 (30 coins), L50 and L97-100 (20 temples), L252-271 (9 kings, 8 scholars,
    7 generals, 6 citizens, 5 navigators); each nation has had its round-1 coin."""
    bank = show_json(setup(EAST[count]))["bank"]
    assert bank == {"coins": 30 - count, "temples": 20,
                    "personages": {"king": 9, "scholar": 8, "general": 7, "citizen": 6, "navigator": 5}}


def test_phoenicians_start_with_four_nations():
    """000 L281-287: "With four nations participating, for example, the Phoenicians start";
    docs/rulings.md: without ``--first`` the Phoenicians with 4 nations, otherwise the first seat."""
    assert setup(FOUR).state.status.active == "phoenicians"
    assert setup(["arabs", "greeks", "persians"]).state.status.active == "arabs"
    six = ["babylonians"] + [n for n in EAST[6] if n != "babylonians"]
    assert setup(six).state.status.active == "babylonians"


def test_first_option_sets_the_start_nation():
    """000 L281-287 and docs/rulings.md: ``--first`` names the start nation; turns go on clockwise."""
    game = setup(FOUR, first="arabs")
    assert game.state.status.active == "arabs" and game.table.first == "arabs"
    assert list(game.turn_order()) == ["arabs", "greeks", "persians", "phoenicians"]


def test_round_one_coin_in_turn_order():
    """000 L289-292 and docs/rulings.md ("Coin"): every round, round 1 included, each nation gets a
    coin from the bank, in seat order from the start nation."""
    game = setup(FOUR)
    assert all(game.state.nations[n].coins == 1 for n in FOUR)
    assert game.state.bank.coins == 26
    events = game.history[0]["events"]
    assert events[0] == {"type": "round", "round": 1}
    assert [e["nation"] for e in events[1:]] == ["phoenicians", "arabs", "greeks", "persians"]


# --- goals and variants ----------------------------------------------------------------

@pytest.mark.parametrize("count,goal", [(3, 10), (4, 9), (5, 8), (6, 7)])
def test_goals(count, goal):
    """000 L227-234: 7 personages with 6 nations, 8 with 5, 9 with 4, 10 with 3."""
    game = setup(EAST[count])
    assert game.goal == goal
    assert show_json(game)["nations"]["greeks"]["goal"] == goal


def test_three_nations_may_play_to_twelve():
    """000 L972-978: with three players the goal can be set at 10 or 12."""
    assert setup(EAST[3], goal=12).goal == 12
    assert setup(EAST[3], goal=10).goal == 10
    with pytest.raises(UsageError, match="--goal 11"):
        setup(EAST[3], goal=11)
    with pytest.raises(UsageError, match="--goal 12"):
        setup(FOUR, goal=12)
    with pytest.raises(UsageError, match="not in the military variant"):
        setup(EAST[3], goal=12, variants=["military"])


@pytest.mark.parametrize("count,goal", [(3, 13), (4, 11), (5, 9), (6, 8)])
def test_military_goals(count, goal):
    """000 L1039-1047: military variant, 8 victory points with 6 nations, 9 with 5, 11 with 4,
    13 with 3."""
    game = setup(EAST[count], variants=["military"])
    assert game.goal == goal and game.table.has("military")


def test_military_two_players():
    """000 L184-185 and L1039-1047: two players play the 4-nation game, so 11 victory points."""
    assert setup(FOUR, players=2, variants=["military"]).goal == 11


def test_longer_game_one_start_city():
    """000 L964-970: each nation starts with just one city, chosen from its card's three;
    docs/rulings.md: without ``--start`` the first city of the line."""
    board = load_board("antike-east")
    game = setup(FOUR, variants=["longer"], start={"greeks": ["athen"]})
    assert game.state.cities("greeks") == ["athen"]
    assert game.state.cities("persians") == [board.start_lines[4]["persians"][0]]
    with pytest.raises(UsageError, match="1 start city needed, got 3"):
        setup(FOUR, variants=["longer"], start={"greeks": ["pella", "dyrrhachion", "athen"]})


def test_variants_are_recorded_sorted_and_once():
    """docs/rulings.md ("Setting up a game"): variants are fixed at creation and recorded."""
    game = setup(FOUR, variants=["longer", "expert", "expert"])
    assert list(game.table.variants) == ["expert", "longer"]
    assert show_json(game)["variants"] == ["expert", "longer"]
    assert game.history[0]["setup"]["variants"] == ["expert", "longer"]


# --- passwords -------------------------------------------------------------------------

def test_passwords_only_hashed_and_secrets_owner_only(tmp_path):
    """The game file keeps salted hashes only; the plain passwords go once to a file that
    only its owner can read (docs/orders.md, "Creating a game")."""
    path = tmp_path / "g.json"
    result = cli_run("new", path, "--nations", ",".join(FOUR), "--password", "greeks=open-sesame")
    assert result.exit_code == 0, result.stderr
    secrets_file = tmp_path / "g.secrets.json"
    plain = json.loads(secrets_file.read_text())
    assert sorted(plain) == sorted(FOUR) and plain["greeks"] == "open-sesame"
    assert stat.S_IMODE(os.stat(secrets_file).st_mode) == 0o600
    text = path.read_text()
    data = json.loads(text)
    for nation, pw in plain.items():
        assert pw not in text
        assert passwords.verify(pw, data["nations"][nation]["password"])
    salts = {data["nations"][n]["password"].split("$")[2] for n in FOUR}
    assert len(salts) == 4


def test_secrets_out(tmp_path):
    """``--secrets-out FILE`` puts the passwords there instead of GAME.secrets.json."""
    new_game_file(tmp_path, "--secrets-out", tmp_path / "elsewhere.json")
    assert json.loads((tmp_path / "elsewhere.json").read_text()) == {n: PASSWORDS[n] for n in FOUR}
    assert not (tmp_path / "game.secrets.json").exists()


def test_players_recorded(tmp_path):
    """``--player NATION="Name <e-mail>"`` is public identity in the game file."""
    path = new_game_file(tmp_path, "--player", "greeks=Ann <ann@example.org>", "--player", "arabs=Bo")
    data = json.loads(path.read_text())
    assert data["nations"]["greeks"]["player"] == "Ann" and data["nations"]["greeks"]["email"] == "ann@example.org"
    assert data["nations"]["arabs"]["player"] == "Bo" and data["nations"]["arabs"]["email"] is None


def test_id_defaults_to_the_file_stem(tmp_path):
    path = new_game_file(tmp_path, name="spring-2025.json")
    assert json.loads(path.read_text())["game_id"] == "spring-2025"
    path = new_game_file(tmp_path, "--id", "demo", name="other.json")
    assert json.loads(path.read_text())["game_id"] == "demo"


# --- usage errors ----------------------------------------------------------------------

USAGE = [
    (["--nations", "persians,phoenicians,arabs,vikings"], "unknown nation 'vikings'"),
    (["--nations", "persians,phoenicians,arabs,persians"], "persians listed twice"),
    (["--nations", "greeks,persians"], "3 to 6 nations"),
    (["--nations", "greeks,persians,arabs,phoenicians,egyptians,babylonians,romans"], "3 to 6 nations"),
    (["--nations", "greeks,persians,romans"], "romans does not play on board antike-east"),
    (["--start", "greeks=pella,dyrrhachion,atlantis"], "'atlantis' is not a province"),
    (["--start", "greeks=pella,sparta,athen"], "one marble, one iron and one gold city"),
    (["--start", "greeks=pella,dyrrhachion"], "3 start cities needed, got 2"),
    (["--start", "greeks=pella,pella,athen"], "a city is named twice"),
    (["--start", "greeks=alexandria,dyrrhachion,athen"], "start city alexandria given to both"),
    (["--start", "greeks=pella,dyrrhachion,athen", "--start", "greeks=sparta,knossos,athen"],
     "--start greeks: given twice"),
    (["--start", "egyptians=theben,ammonion,cyrene"], "'egyptians' named in --player/--start is not among --nations"),
    (["--start", "greeks"], "expected NATION=VALUE"),
    (["--first", "egyptians"], "--first egyptians: not among --nations"),
    (["--goal", "12"], "only a 3-nation game may choose its goal"),
    (["--variant", "quick"], "unknown variant 'quick'"),
    (["--players", "5"], "--players 5"),
    (["--board", "antike-mars"], "--board antike-mars: neither a shipped board"),
    (["--id", "my game"], "game id 'my game'"),
    (["--password", "egyptians=x"], "--password egyptians"),
    (["--password", "greeks="], "must not be empty"),
    (["--player", "greeks=Ann <not-an-address>"], "expected 'Name <e-mail>'"),
]


@pytest.mark.parametrize("args,message", USAGE, ids=[m for _, m in USAGE])
def test_new_usage_errors(tmp_path, args, message):
    """Bad options exit 2 with one message and create no file."""
    if "--nations" not in args:
        args = ["--nations", ",".join(FOUR), *args]
    result = cli_run("new", tmp_path / "g.json", *args)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert result.stderr.startswith("antike-ref: ") and result.stderr.count("\n") == 1
    assert os.listdir(tmp_path) == []


def test_new_refuses_to_overwrite(tmp_path):
    """An existing game (or secrets) file is kept unless ``--force`` is given."""
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    result = cli_run("new", path, "--nations", ",".join(FOUR))
    assert result.exit_code == 2 and "exists already (use --force" in result.stderr
    assert path.read_bytes() == before
    (tmp_path / "other.secrets.json").write_text("{}")
    result = cli_run("new", tmp_path / "other.json", "--nations", ",".join(FOUR))
    assert result.exit_code == 2 and "other.secrets.json exists already" in result.stderr
    assert not (tmp_path / "other.json").exists()
    result = cli_run("new", path, "--nations", ",".join(FOUR), "--force", "--seed", "other")
    assert result.exit_code == 0 and path.read_bytes() != before


def test_new_into_a_missing_folder(tmp_path):
    """A folder is never created on the way: exit 2 and nothing written."""
    result = cli_run("new", tmp_path / "no" / "g.json", "--nations", ",".join(FOUR))
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert not (tmp_path / "no").exists()


def test_secrets_out_cannot_be_the_game(tmp_path):
    result = cli_run("new", tmp_path / "g.json", "--nations", ",".join(FOUR), "--secrets-out", tmp_path / "g.json")
    assert result.exit_code == 2 and "that is the game file" in result.stderr
    assert os.listdir(tmp_path) == []
