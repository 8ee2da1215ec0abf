"""Boards: every shipped board checks clean, a board typed in with the map kit is checked,
drawn and played, every kind of broken board is named, and a game on a board file stands
on its own.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, cli_run
from pbem.play.selfplay import check_invariants, play_game
from pbem.service.boards import check_map_file, known_boards, load_board, load_map_file, read_map

# A small board as a GM types it into the skeleton that ``map new`` writes: names, resources,
# positions, each border on one of its two rows, by name; ids and kinds left to the program.
SMALL_ROWS = """\
id,name,resource,x,y,land,sea,label_x,label_y,temple,double
,Asterion,marble,100,80,Borea;Dolmen,,,,,
,Borea,iron,250,80,Cypra;Eburon,,,,,
,Cypra,iron,400,80,Delos Minor;Falera,,,,,
,Delos Minor,marble,550,80,Gortyn,,,,,
,Dolmen,gold,100,220,Eburon;Halon,,,,,
,Eburon,gold,250,220,Falera;Ithaka,,,,,
,Falera,marble,400,220,Gortyn;Juktas,,,,,
,Gortyn,gold,550,220,Kamares,,,,,
,Halon,marble,100,360,Ithaka,Ithaka;Lemnos,,,,
,Ithaka,iron,250,360,Juktas,Juktas;Lemnos,,,,
,Juktas,gold,400,360,Kamares,Kamares;Melos,,,,
,Kamares,iron,550,360,,Melos,,,,
,Lemnos,gold,175,450,,Melos,,,,
,Melos,marble,475,450,,,,,,
"""
SMALL_HEADER = {
    "name": "Small Isle (test board)",
    "size": {"width": 660, "height": 500},
    "nations": {"3": ["germans", "romans", "greeks"]},
    "start_lines": {"3": {"germans": ["asterion", "borea", "dolmen"], "romans": ["delos_minor", "cypra", "gortyn"],
                          "greeks": ["halon", "ithaka", "juktas"]}},
    "start_nation": {"3": "romans"},
}
LINEUP = ["germans", "romans", "greeks"]


@pytest.fixture
def small(tmp_path) -> Path:
    """The small board, typed into the skeleton of ``map new --template blank``."""
    path = tmp_path / "small.json"
    made = cli_run("map", "new", str(path), "--id", "small-isle")
    assert made.exit_code == 0, made.stderr
    table = tmp_path / "small.provinces.csv"
    assert table.read_text(encoding="utf-8").startswith("id,name,resource,x,y,land,sea")
    table.write_text(SMALL_ROWS, encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["provinces"] == "small.provinces.csv" and data["reconstruction"] is True
    data.update(SMALL_HEADER)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


# --- shipped boards ---------------------------------------------------------------------

@pytest.mark.parametrize("board_id", known_boards())
def test_every_shipped_board_checks_clean(board_id):
    result = cli_run("map", "check", str(ROOT / "maps" / f"{board_id}.json"))
    assert result.exit_code == 0, result.stderr
    assert ": ok;" in result.stdout


@pytest.mark.parametrize("board_id", known_boards())
def test_nations_that_meet_on_a_board_have_different_colours(board_id):
    from pbem.editions.classic import NATIONS

    for count, nations in load_board(board_id).nations.items():
        colours = [NATIONS[n].colour for n in nations]
        assert len(set(colours)) == len(colours), (count, nations)


def test_the_west_board_is_a_labelled_reconstruction():
    """The printed West side could not be found: the board says it is a reconstruction, and
    so does every report made on it."""
    west = load_board("antike-west")
    assert west.reconstruction and "reconstruction" in west.name.lower()
    assert any("Castra Regina" in note or "reconstruct" in note.lower() for note in west.notes)
    assert "castra_regina" in west.provinces
    resources = [p.resource for p in west.provinces.values()]
    assert (resources.count("iron"), resources.count("gold"), resources.count("marble")) == (17, 17, 16)
    assert any(p.sea_only for p in west.provinces.values())
    assert west.pairings[4] == (("romans", "phoenicians"), ("germans", "greeks"))


@pytest.mark.slow
@pytest.mark.parametrize("lineup, seed", [
    (["greeks", "romans", "germans"], "w3"),
    (["greeks", "romans", "germans", "phoenicians"], "w4"),
    (["greeks", "romans", "germans", "phoenicians", "carthaginians", "persians"], "w6"),
])
def test_bots_play_the_west_board_to_a_win(lineup, seed):
    game, record = play_game(seed, nations=len(lineup), board="antike-west", lineup=lineup)
    assert record.winner in lineup, record


# --- the kit: a board typed in, checked, drawn, played --------------------------------------

def test_a_typed_in_board_is_checked_drawn_and_played(small, tmp_path):
    checked = cli_run("map", "check", str(small))
    assert checked.exit_code == 0, checked.stderr
    assert "14 provinces" in checked.stdout and "a reconstruction" in checked.stdout
    board = load_map_file(small)
    assert board.province("delos_minor").name == "Delos Minor"  # id made from the name
    assert board.province("melos").sea_only and board.province("halon").kind == "coastal"
    assert board.province("lemnos").sea == {"halon", "ithaka", "melos"}  # typed on the other rows
    drawn = cli_run("map", "render", str(small), "--out", str(tmp_path / "pics"), "--format", "svg,png")
    assert drawn.exit_code == 0, drawn.stderr
    svg = (tmp_path / "pics" / "small-isle.svg").read_text(encoding="utf-8")
    assert all(pid in svg for pid in board.provinces)
    assert (tmp_path / "pics" / "small-isle.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    game, record = play_game("kit", nations=3, board=board, lineup=LINEUP)
    assert record.winner in LINEUP
    check_invariants(game)


def test_a_game_on_a_board_file_carries_the_board(small, tmp_path):
    """``new --board FILE``: the game file holds the board, so the GM's, the players'
    copies and ``verify`` need nothing else, even when the board file is gone."""
    game = tmp_path / "game.json"
    made = cli_run("new", str(game), "--board", str(small), "--nations", ",".join(LINEUP))
    assert made.exit_code == 0, made.stderr
    data = json.loads(game.read_text(encoding="utf-8"))
    assert data["board"]["id"] == "small-isle" and data["board"]["map"]["provinces"][0]["id"] == "asterion"
    assert data["status"]["active"] == "romans"  # the board's start nation for 3
    for _ in range(6):
        played = cli_run("bot", str(game), "--apply")
        assert played.exit_code == 0, played.stderr
    (tmp_path / "small.json").unlink()
    (tmp_path / "small.provinces.csv").unlink()
    copy_path = tmp_path / "copy" / "game.json"
    copy_path.parent.mkdir()
    shutil.copy(game, copy_path)
    assert cli_run("verify", str(copy_path)).exit_code == 0
    shown = cli_run("show", str(copy_path), "--province", "Delos Minor")
    assert shown.exit_code == 0 and "Gortyn" in shown.stdout
    report = cli_run("render", str(copy_path), "--out", str(tmp_path / "r"), "--format", "txt")
    assert report.exit_code == 0, report.stderr
    text = next((tmp_path / "r").glob("*.txt")).read_text(encoding="utf-8")
    assert "Small Isle" in text and "not the printed" in text


def test_a_tampered_board_in_a_game_file_is_bad_input(small, tmp_path):
    game = tmp_path / "game.json"
    assert cli_run("new", str(game), "--board", str(small), "--nations", ",".join(LINEUP)).exit_code == 0
    data = json.loads(game.read_text(encoding="utf-8"))
    data["board"]["map"]["provinces"][0]["land"].append("melos")
    game.write_text(json.dumps(data), encoding="utf-8")
    before = game.read_bytes()
    result = cli_run("show", str(game))
    assert result.exit_code == 3 and "$.board.map.provinces[0].land" in result.stderr
    data["board"]["map"]["provinces"][0]["land"].remove("melos")
    next(p for p in data["board"]["map"]["provinces"] if p["id"] == "kamares")["resource"] = "gold"
    game.write_text(json.dumps(data), encoding="utf-8")
    result = cli_run("show", str(game))
    assert result.exit_code == 3 and "different version of board" in result.stderr
    assert game.read_bytes() != before  # (rewritten by the test, not by the program)


def test_new_refuses_a_board_file_that_takes_a_shipped_id(small, tmp_path):
    data = json.loads(small.read_text(encoding="utf-8"))
    data["id"] = "antike-east"
    small.write_text(json.dumps(data), encoding="utf-8")
    game = tmp_path / "game.json"
    result = cli_run("new", str(game), "--board", str(small), "--nations", ",".join(LINEUP))
    assert result.exit_code == 2 and "give your board an id of its own" in result.stderr
    assert not game.exists()


@pytest.mark.parametrize("args, message", [
    (["--template", "north"], "--template north: one of blank, east, mare-nostrum, rome-carthage, west"),
    (["--id", "My Board"], "board id 'My Board'"),
])
def test_map_new_refusals(tmp_path, args, message):
    result = cli_run("map", "new", str(tmp_path / "b.json"), *args)
    assert result.exit_code == 2 and message in result.stderr
    assert not list(tmp_path.iterdir())


def test_map_new_does_not_overwrite(small):
    before = small.read_bytes()
    result = cli_run("map", "new", str(small))
    assert result.exit_code == 2 and "exists already" in result.stderr
    assert small.read_bytes() == before


def test_the_west_template_lists_each_border_once_and_reads_back_the_same_board(tmp_path):
    path = tmp_path / "my-west.json"
    assert cli_run("map", "new", str(path), "--template", "west").exit_code == 0
    rows = (tmp_path / "my-west.provinces.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == 1 + len(load_board("antike-west").provinces)
    mine, shipped = load_map_file(path), load_board("antike-west")
    assert {p: (q.resource, q.kind, q.land, q.sea, q.xy) for p, q in mine.provinces.items()} == \
           {p: (q.resource, q.kind, q.land, q.sea, q.xy) for p, q in shipped.provinces.items()}


# --- every kind of broken board is named ---------------------------------------------------

def _province(data, pid):
    return next(p for p in data["provinces"] if p["id"] == pid)


def _break(kind, data):
    """Break ``data`` (the small board, provinces as a list) in one way."""
    if kind == "missing key":
        del data["size"]
    elif kind == "unknown resource":
        _province(data, "melos")["resource"] = "silver"
    elif kind == "duplicate id":
        data["provinces"].append(copy.deepcopy(_province(data, "melos")))
    elif kind == "border with itself":
        _province(data, "borea")["land"].append("borea")
    elif kind == "unknown border":
        _province(data, "borea")["land"].append("cypraa")
    elif kind == "one-sided border":
        _province(data, "asterion")["land"].append("falera")
    elif kind == "no borders":
        for p in data["provinces"]:
            for layer in ("land", "sea"):
                if "melos" in p[layer]:
                    p[layer].remove("melos")
        _province(data, "melos")["sea"] = []
    elif kind == "wrong kind":
        _province(data, "asterion")["kind"] = "coastal"
    elif kind == "outside the picture":
        _province(data, "melos")["xy"] = [700, 450]
    elif kind == "unreachable":
        for a, b in (("juktas", "melos"), ("kamares", "melos"), ("lemnos", "melos")):
            _province(data, a)["sea"].remove(b)
            _province(data, b)["sea"].remove(a)
        _province(data, "melos")["sea"] = ["lemnos_b"]
        data["provinces"].append({**copy.deepcopy(_province(data, "lemnos")), "id": "lemnos_b", "xy": [600, 470],
                                  "name": "Lemnos B", "sea": ["melos"]})
    elif kind == "nations count":
        data["nations"]["3"].append("phoenicians")
    elif kind == "start line nations":
        data["start_lines"]["3"]["phoenicians"] = data["start_lines"]["3"].pop("greeks")
    elif kind == "start city unknown":
        data["start_lines"]["3"]["greeks"][0] = "atlantis"
    elif kind == "start city shared":
        data["start_lines"]["3"]["greeks"][0] = "asterion"
    elif kind == "unbalanced start line":
        data["start_lines"]["3"]["greeks"] = ["halon", "ithaka", "kamares"]
    elif kind == "no start lines":
        data["nations"]["4"] = ["germans", "romans", "greeks", "phoenicians"]
    elif kind == "start nation":
        data["start_nation"]["3"] = "persians"
    elif kind == "teams":
        data["nations"]["4"] = ["germans", "romans", "greeks", "phoenicians"]
        data["start_lines"]["4"] = {**data["start_lines"]["3"], "phoenicians": ["falera", "kamares", "eburon"]}
        data["pairings"] = {"4": [["germans", "romans"], ["romans", "phoenicians"]]}
    elif kind == "shape of no province":
        data["shapes"] = {"atlantis": [[1, 1], [5, 1], [5, 5]]}
    elif kind == "overlapping labels":
        _province(data, "cypra")["label"] = [262, 80]
        _province(data, "borea")["label"] = [262, 82]
    elif kind == "label outside":
        _province(data, "melos")["label"] = [900, 10]
    elif kind == "unknown edition":
        data["edition"] = "antike3"
    elif kind == "site the edition lacks":
        _province(data, "melos")["resource"] = "choice"
    else:
        raise AssertionError(kind)
    return data


BROKEN = {
    "missing key": "'size' is missing here",
    "unknown resource": "'silver'",
    "duplicate id": "duplicate province id 'melos'",
    "border with itself": "'borea' has a land border with itself",
    "unknown border": "unknown province 'cypraa' (did you mean Cypra (cypra)?)",
    "one-sided border": "'asterion' lists a land border with 'falera', but 'falera' does not list 'asterion'",
    "no borders": "'melos' has no borders at all",
    "wrong kind": "'asterion' is 'coastal' but its borders make it 'land_only'",
    "outside the picture": "'melos' at 700,450 lies outside the 660x500 picture",
    "unreachable": "'lemnos_b', 'melos' cannot be reached from the rest of the board",
    "nations count": "4 nations listed for 3 nations",
    "start line nations": "no start line for greeks; start lines for phoenicians, not in play",
    "start city unknown": "start city 'atlantis' is not a province",
    "start city shared": "'asterion' is also a start city of germans at 3 nations",
    "unbalanced start line": "start line of greeks at 3 nations has marble, iron, iron",
    "no start lines": "no start lines for 4 nations",
    "start nation": "persians does not play at 3 nations",
    "teams": "romans in both teams",
    "shape of no province": "shape for unknown province 'atlantis'",
    "overlapping labels": "Cypra",
    "label outside": "'melos' label at 900,10 lies outside the 660x500 picture",
    "unknown edition": "unknown edition 'antike3'",
    "site the edition lacks": "Antike boards have no sites whose resource the founder chooses",
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_map_check_names_every_kind_of_problem(kind, small, tmp_path):
    data, _, _ = read_map(small)
    assert not check_map_file(small)
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(_break(kind, data), indent=1), encoding="utf-8")
    result = cli_run("map", "check", str(broken))
    assert result.exit_code == 3, result.stdout
    assert BROKEN[kind] in result.stderr, result.stderr
    if kind == "overlapping labels":
        assert "Borea" in result.stderr and "label" in result.stderr


@pytest.mark.parametrize("row, message", [
    (",Nowhere,iron,x12,40,Asterion,,,,,", "small.provinces.csv line 16, column x: 'x12' is not a whole number"),
    (",Nowhere,iron,12,40,Asterion,,,,maybe,", "column temple: 'maybe': write yes or leave it empty"),
    (",Nowhere,iron,30,480,Atlantis,,,,,", "small.provinces.csv line 16, column land: 'nowhere' has a land border "
                                           "with unknown province 'atlantis'"),
])
def test_map_check_names_the_row_of_a_provinces_table(row, message, small):
    table = small.with_name("small.provinces.csv")
    table.write_text(SMALL_ROWS + row + "\n", encoding="utf-8")
    result = cli_run("map", "check", str(small))
    assert result.exit_code == 3 and message in result.stderr, result.stderr


def test_map_check_names_a_missing_column(small):
    table = small.with_name("small.provinces.csv")
    table.write_text(SMALL_ROWS.replace("resource,", "kind,", 1), encoding="utf-8")
    result = cli_run("map", "check", str(small))
    assert result.exit_code == 3 and "missing column(s) resource; unknown column(s) kind" in result.stderr


def test_the_west_map_file_is_what_its_script_makes(tmp_path):
    """``tools/make_west_board.py`` is deterministic and the committed map is its output."""
    import subprocess
    import sys

    out = tmp_path / "west.json"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_west_board.py"), "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == (ROOT / "maps" / "antike-west.json").read_bytes()
