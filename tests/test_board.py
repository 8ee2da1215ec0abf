"""The East board file, the map schema, and the checks that guard hand-edited maps.

Facts asserted here are those of ``shared/data/SOURCES.md`` and the classic rulebook (key 000).
"""

from __future__ import annotations

import copy
import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pbem.board import Board, check_map_file, load_board, load_map_file, map_problems
from pbem.errors import ExitCode, InputError
from pbem.paths import map_path, schema_path
from pbem.vocab import RESOURCES, Nation

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path("/work/shared/data/antike-east.json")
SEA_ONLY = {"dioscoridis", "knossos", "messana", "paphos"}


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board("antike-east")


@pytest.fixture
def data() -> dict:
    """A fresh copy of the East map data that a test may corrupt."""
    with open(map_path("antike-east"), encoding="utf-8") as fh:
        return json.load(fh)


def index(data: dict, pid: str) -> int:
    return next(i for i, p in enumerate(data["provinces"]) if p["id"] == pid)


def prov(data: dict, pid: str) -> dict:
    return data["provinces"][index(data, pid)]


def pairs(board: Board, layer: str) -> set[frozenset[str]]:
    return {frozenset((p.id, q)) for p in board.provinces.values() for q in getattr(p, layer)}


# --- facts of the East board (SOURCES.md) -------------------------------------------

def test_fifty_provinces_sorted_by_id(board):
    assert len(board.provinces) == 50
    assert list(board.provinces) == sorted(board.provinces)


def test_resource_counts(board):
    assert Counter(p.resource for p in board.provinces.values()) == {"iron": 17, "gold": 17, "marble": 16}


def test_kind_counts_and_sea_only_provinces(board):
    kinds = Counter(p.kind for p in board.provinces.values())
    assert kinds == {"coastal": 29, "land_only": 17, "sea_only": 4}
    assert {p.id for p in board.provinces.values() if p.sea_only} == SEA_ONLY


def test_border_pair_counts(board):
    land, sea = pairs(board, "land"), pairs(board, "sea")
    assert len(land) == 95
    assert len(sea) == 59
    assert len(land & sea) == 27
    assert sum(len(p.both) for p in board.provinces.values()) == 2 * 27


def test_every_start_line_is_one_marble_one_iron_one_gold_city(board):
    """000 L162-170: each nation starts with one marble, one iron and one gold city,
    a different line of the nation cards for each number of nations."""
    assert sorted(board.start_lines) == [3, 4, 5, 6]
    for count, lines in board.start_lines.items():
        assert set(lines) == set(board.nations[count])
        assert len(board.nations[count]) == count
        for nation, cities in lines.items():
            assert tuple(board.province(c).resource for c in cities) == RESOURCES, (count, nation)
        cities = [c for line in lines.values() for c in line]
        assert len(cities) == len(set(cities)), count


def test_nations_in_play(board):
    assert board.nations[3] == ("greeks", "persians", "arabs")
    assert board.nations[6] == ("greeks", "persians", "arabs", "phoenicians", "egyptians", "babylonians")
    assert 2 not in board.nations


def test_four_nation_start_nation_is_phoenicians(board):
    """000 L282-287: with four nations the Phoenicians start (red dot on the 4)."""
    assert board.start_nation == {4: "phoenicians"}


def test_greek_start_line_for_four_nations(board):
    """The 'athenae' slip of the source is the province 'athen' (SOURCES.md)."""
    assert board.start_lines[4]["greeks"] == ("pella", "dyrrhachion", "athen")


def test_notes_carry_the_provenance_caveats(board):
    text = " ".join(board.notes)
    assert "INFERRED" in text
    assert "000 L282-287" in text


def test_map_file_is_what_the_importer_makes():
    """``tools/import_east_board.py`` is deterministic and the committed map is its output."""
    if not SOURCE.exists():
        pytest.skip("source facts not available")
    spec = importlib.util.spec_from_file_location("import_east_board", ROOT / "tools" / "import_east_board.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(SOURCE, encoding="utf-8") as fh:
        made = module.convert(json.load(fh))
    text = json.dumps(made, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    assert map_path("antike-east").read_text(encoding="utf-8") == text


# --- Province and Board API ------------------------------------------------------------

def test_province_borders(board):
    athen = board.province("athen")
    assert athen.land == {"dyrrhachion", "pella", "sparta"}
    assert athen.both == {"pella", "sparta"}
    assert athen.neighbours("legion") == athen.land
    assert athen.neighbours("galley") == athen.sea
    assert athen.coastal and not athen.land_only and not athen.sea_only
    with pytest.raises(ValueError):
        athen.neighbours("elephant")


def test_province_repr_rebuilds_it(board):
    from pbem.board import Province  # noqa: F401  (eval needs the name)

    knossos = board.province("knossos")
    assert eval(repr(knossos)) == knossos
    assert "sea=frozenset({'alexandria', 'athen'," in repr(knossos)


def test_unknown_province_is_a_clear_key_error(board):
    with pytest.raises(KeyError, match="atlantis.*antike-east"):
        board.province("atlantis")
    assert not board.is_province("atlantis")
    assert board.is_province("leptis_magna")


def test_can_arm_sea_only_province_takes_galleys_only(board):
    """000 L426-428: only galleys can be set up in provinces with only blue sea borders."""
    assert board.can_arm("knossos", "galley")
    assert not board.can_arm("knossos", "legion")


def test_can_arm_land_only_province_takes_legions_only(board):
    """000 L426-428: only legions can be set up in provinces with only red land borders."""
    assert board.province("ammonion").land_only
    assert board.can_arm("ammonion", "legion")
    assert not board.can_arm("ammonion", "galley")


def test_can_arm_coastal_province_takes_both(board):
    assert board.can_arm("athen", "legion") and board.can_arm("athen", "galley")


def test_path_ok(board):
    assert board.path_ok("legion", "athen", ["pella", "dyrrhachion"]) is None
    assert board.path_ok("legion", "athen", []) is None
    assert board.path_ok("galley", "athen", ["knossos", "paphos"]) is None
    assert board.path_ok("legion", "athen", ["knossos"]) == 0
    assert board.path_ok("galley", "athen", ["knossos", "pella"]) == 1
    assert board.path_ok("legion", "athen", ["sparta", "atlantis"]) == 1
    assert board.path_ok("legion", "atlantis", ["athen"]) == 0
    with pytest.raises(ValueError):
        board.path_ok("elephant", "athen", ["pella"])


def test_load_board_is_cached(board):
    assert load_board("antike-east") is board
    assert board.id == "antike-east" and board.edition == "antike"
    assert (board.width, board.height) == (1152, 799)
    assert board.shapes == {}


def test_load_board_unknown_id_names_the_known_boards():
    with pytest.raises(InputError, match="west.*known boards: antike-east") as exc:
        load_board("antike-west")
    assert exc.value.exit_code == ExitCode.BAD_INPUT
    with pytest.raises(InputError):
        load_board("../maps/antike-east")


def test_importing_board_does_not_import_jsonschema():
    code = "import sys, pbem.board; assert 'jsonschema' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


# --- hash of the rules-relevant content -----------------------------------------------

def test_sha256_ignores_coordinates_names_notes_and_shapes(board, data):
    prov(data, "athen")["xy"] = [1, 2]
    prov(data, "athen")["name"] = "Athens"
    data["notes"].append("another note")
    data["shapes"] = {"athen": [[0, 0], [10, 0], [10, 10]]}
    data["provinces"].reverse()
    prov(data, "pella")["land"].reverse()
    assert map_problems(data) == []
    assert Board(data).sha256 == board.sha256


def test_sha256_changes_with_a_border(board, data):
    prov(data, "athen")["land"].remove("pella")
    prov(data, "pella")["land"].remove("athen")
    assert map_problems(data) == []
    assert Board(data).sha256 != board.sha256


def test_sha256_changes_with_a_resource(board, data):
    prov(data, "athen")["resource"] = "iron"
    assert Board(data).sha256 != board.sha256


# --- schema --------------------------------------------------------------------------

def test_schema_is_a_valid_draft_2020_12_schema():
    from jsonschema import Draft202012Validator

    schema = json.loads(schema_path("map").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://antike-ref.invalid/schemas/map.schema.json"


def test_schema_nations_are_the_vocabulary():
    schema = json.loads(schema_path("map").read_text(encoding="utf-8"))
    assert schema["$defs"]["nation"]["enum"] == [n.value for n in Nation]


def test_shipped_map_has_no_problems():
    assert check_map_file(map_path("antike-east")) == []


# --- corruptions: each is named with its path ----------------------------------------

def duplicate_id(d):
    d["provinces"].append(copy.deepcopy(prov(d, "knossos")))


def unknown_neighbour(d):
    prov(d, "athen")["land"].append("atlantis")


def asymmetric_land(d):
    prov(d, "athen")["land"].remove("pella")


def asymmetric_sea(d):
    prov(d, "athen")["sea"].remove("knossos")


def self_border(d):
    prov(d, "sparta")["sea"].append("sparta")


def wrong_kind(d):
    prov(d, "knossos")["kind"] = "coastal"


def two_gold_cities(d):
    d["start_lines"]["4"]["greeks"] = ["messana", "dyrrhachion", "athen"]


def city_in_two_lines(d):
    d["start_lines"]["3"]["arabs"] = ["saba", "adane", "susa"]


def unknown_start_city(d):
    d["start_lines"]["3"]["arabs"] = ["saba", "adane", "atlantis"]


def wrong_nation_set(d):
    d["nations"]["5"] = ["greeks", "persians", "arabs", "phoenicians", "babylonians"]


def start_nation_not_in_play(d):
    d["start_nation"]["3"] = "phoenicians"


def missing_resource(d):
    del prov(d, "athen")["resource"]


def missing_top_level_key(d):
    del d["start_lines"]


def unknown_key(d):
    prov(d, "athen")["owner"] = "greeks"


CORRUPTIONS = [
    (duplicate_id, "$.provinces[50].id", "knossos"),
    (unknown_neighbour, "$.provinces[{athen}].land[3]", "atlantis"),
    (asymmetric_land, "$.provinces[{pella}].land", "'athen'"),
    (asymmetric_sea, "$.provinces[{knossos}].sea", "'athen'"),
    (self_border, "$.provinces[{sparta}].sea", "'sparta' has a sea border with itself"),
    (wrong_kind, "$.provinces[{knossos}].kind", "'knossos' is 'coastal'"),
    (two_gold_cities, "$.start_lines.4.greeks", "gold, gold"),
    (city_in_two_lines, "$.start_lines.3.persians", "'susa' is also a start city of arabs"),
    (unknown_start_city, "$.start_lines.3.arabs[2]", "atlantis"),
    (wrong_nation_set, "$.start_lines.5", "egyptians"),
    (start_nation_not_in_play, "$.start_nation.3", "phoenicians"),
    (missing_resource, "$.provinces[{athen}]", "'resource' is a required property (province 'athen')"),
    (missing_top_level_key, "$", "'start_lines' is a required property"),
    (unknown_key, "$.provinces[{athen}]", "'owner'"),
]


def expected_path(data: dict, template: str) -> str:
    ids = {p["id"]: i for i, p in enumerate(data["provinces"])}
    return template.format(**ids)


@pytest.mark.parametrize("corrupt, path, words", CORRUPTIONS, ids=[c[0].__name__ for c in CORRUPTIONS])
def test_map_problems_names_the_corruption(data, corrupt, path, words):
    path = expected_path(data, path)
    corrupt(data)
    found = map_problems(data)
    assert len(found) == 1, found
    assert found[0].path.startswith(path), found
    assert words in found[0].message, found


@pytest.mark.parametrize("corrupt, path, words", CORRUPTIONS, ids=[c[0].__name__ for c in CORRUPTIONS])
def test_load_map_file_refuses_the_corruption(data, tmp_path, corrupt, path, words):
    corrupt(data)
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_map_file(file)
    assert exc.value.exit_code == ExitCode.BAD_INPUT == 3
    assert exc.value.source == str(file)
    assert words in str(exc.value)
    assert [str(p) for p in check_map_file(file)] == [str(p) for p in exc.value.problems]


def test_every_problem_is_reported_not_just_the_first(data):
    asymmetric_land(data)
    two_gold_cities(data)
    wrong_kind(data)
    found = map_problems(data)
    assert [p.path for p in found] == [
        f"$.provinces[{index(data, 'knossos')}].kind",
        f"$.provinces[{index(data, 'pella')}].land[0]",
        "$.start_lines.4.greeks",
    ]


def test_every_schema_problem_is_reported(data):
    missing_resource(data)
    unknown_key(data)
    data["format"] = 2
    assert len(map_problems(data)) == 3


def test_problems_beyond_the_brief(data):
    """Isolated provinces, points off the picture, shapes of unknown provinces, and a
    nation list whose length is not its count are problems too."""
    for other in prov(data, "messana")["sea"]:
        prov(data, other)["sea"].remove("messana")
    prov(data, "messana")["sea"] = []
    for nation_line in data["start_lines"].values():
        for nation, cities in nation_line.items():
            if "messana" in cities:
                nation_line[nation] = [c if c != "messana" else "athen" for c in cities]
    data["start_lines"]["6"]["greeks"] = ["pella", "dyrrhachion", "athen"]
    prov(data, "athen")["xy"] = [2000, 10]
    data["shapes"] = {"atlantis": [[0, 0], [1, 0], [1, 1]]}
    data["nations"]["3"].append("phoenicians")
    data["start_lines"]["3"]["phoenicians"] = ["tyros", "ephesos", "paphos"]
    messages = [str(p) for p in map_problems(data)]
    assert any("'messana' has no borders at all" in m for m in messages), messages
    assert any("'athen' at 2000,10 lies outside" in m for m in messages), messages
    assert any(m.startswith("$.shapes.atlantis") for m in messages), messages
    assert any(m.startswith("$.nations.3: 4 nations listed") for m in messages), messages


def test_check_map_file_reports_unreadable_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert "not valid JSON" in str(check_map_file(bad)[0])
    assert "file not found" in str(check_map_file(tmp_path / "missing.json")[0])
