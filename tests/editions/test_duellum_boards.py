"""The two Antike Duellum boards, both RECONSTRUCTIONS (the printed board's data could not
be found): the front side ``maps/duellum-rome-carthage.json`` (Carthaginians against
Romans) and the excerpt of the back side ``tests/data/boards/duellum-aegean-excerpt.json``
(Greeks against Persians) for the rulebook's example for moving and conquering.

Checked here as data facts: the shape and consistency of both files, the 27 city names
of the front side, the six start cities with a printed resource and every other city site
the founder's choice (001 L95-97, L197, L467), the regions without a city counting double
(001 L165, L471), and that every worked example of the rulebook can be played on them as
written. Both files are what ``tools/make_duellum_board.py`` writes.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter

import pytest

from conftest import ROOT
from pbem import editions
from pbem.kernel.board import Board, board_problems
from pbem.report.boardmap import label_problems
from pbem.service.boards import check_map_file, load_map_file
from pbem.service.schemas import problems as schema_problems

FRONT = ROOT / "maps" / "duellum-rome-carthage.json"
AEGEAN = ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"

CITIES = set(
    "lugdunum aquileia cremona tolosa genua massilia ancona epidaurum numantia roma tarraco brundisium "
    "saguntum neapolis apollonia baecula carales croton carthago_nova agrigentum caesarea carthago "
    "syracusae tingis siga zama tacape".split())
"""The 27 city names printed on the front side (the English rulebook's pictures)."""

AEGEAN_NAMES = set("pella abdera larisa ambrakia delphi oreos ainos pylos olympia cythera".split())
AEGEAN_EXAMPLE = {"ainos", "abdera", "lesbos", "lemnos", "mare_aegaeum", "pergamon", "abydos"}


def _duellum_known() -> bool:
    return "duellum" in editions.names()


def _load(path) -> Board:
    """The board through the project's loader: the whole ``map check`` (schema, consistency,
    edition) once the edition is registered; schema and consistency before that."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert schema_problems("map", data) == []
    assert board_problems(data) == []
    if _duellum_known():
        return load_map_file(path)
    return Board(data)


@pytest.fixture(scope="module")
def front() -> Board:
    return _load(FRONT)


@pytest.fixture(scope="module")
def aegean() -> Board:
    return _load(AEGEAN)


def _adjacent(board: Board, pid: str) -> set[str]:
    p = board.province(pid)
    return set(p.land | p.sea)


def _connected(nodes: set[str], step) -> bool:
    start = min(nodes)
    seen, todo = {start}, [start]
    while todo:
        for nxt in step(todo.pop()) & nodes:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == nodes


# --- both boards --------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["front", "aegean"])
def test_the_boards_are_labelled_reconstructions(which, request):
    board = request.getfixturevalue(which)
    assert board.edition == "duellum"
    assert board.reconstruction and "reconstruction" in board.name.lower()
    assert any("RECONSTRUCT" in note for note in board.notes)
    assert board.start_nation == {}  # Duellum draws the start player (001 L103)


@pytest.mark.parametrize("which, nations", [("front", ("carthaginians", "romans")),
                                            ("aegean", ("greeks", "persians"))])
def test_two_nations_with_one_marble_iron_and_gold_start_city_each(which, nations, request):
    board = request.getfixturevalue(which)
    assert board.nations == {2: nations}
    lines = board.start_lines[2]
    assert sorted(lines) == sorted(nations)
    starts = [c for line in lines.values() for c in line]
    assert len(set(starts)) == 6
    for line in lines.values():
        assert [board.province(c).resource for c in line] == ["marble", "iron", "gold"]
    for pid, p in board.provinces.items():
        if pid not in starts:  # the founder chooses (001 L197, L467)
            assert p.resource in ("choice", "none"), pid


@pytest.mark.parametrize("which", ["front", "aegean"])
def test_regions_without_a_city_are_seas_that_count_double(which, request):
    board = request.getfixturevalue(which)
    seas = {pid for pid, p in board.provinces.items() if p.resource == "none"}
    assert seas == {pid for pid, p in board.provinces.items() if p.double}
    for pid in seas:
        p = board.province(pid)
        assert p.sea_only and len(p.sea) >= 2, pid


@pytest.mark.parametrize("which", ["front", "aegean"])
def test_every_region_is_reachable_and_galleys_reach_every_water(which, request):
    board = request.getfixturevalue(which)
    ids = set(board.provinces)
    assert _connected(ids, lambda pid: _adjacent(board, pid))
    waters = {pid for pid, p in board.provinces.items() if p.sea}
    assert _connected(waters, lambda pid: set(board.province(pid).sea))


@pytest.mark.parametrize("path", [FRONT, AEGEAN])
def test_the_names_do_not_overlap_on_the_reports_board(path):
    assert label_problems(Board(json.loads(path.read_text(encoding="utf-8")))) == []


@pytest.mark.skipif(not _duellum_known(), reason="the duellum edition is not registered yet")
@pytest.mark.parametrize("path", [FRONT, AEGEAN])
def test_map_check_passes(path):
    assert check_map_file(path) == []


def test_the_files_are_what_the_script_makes():
    """``tools/make_duellum_board.py`` is deterministic and the committed files are its output."""
    spec = importlib.util.spec_from_file_location("make_duellum_board", ROOT / "tools" / "make_duellum_board.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render(module.build_rome_carthage()) == FRONT.read_text(encoding="utf-8")
    assert module.render(module.build_aegean_excerpt()) == AEGEAN.read_text(encoding="utf-8")


# --- the front side -----------------------------------------------------------------------


def test_the_27_printed_city_names_and_corsica(front):
    sites = {pid for pid, p in front.provinces.items() if p.resource != "none"}
    assert sites == CITIES
    seas = {pid for pid, p in front.provinces.items() if p.resource == "none"}
    assert "corsica" in seas and 9 <= len(seas - {"corsica"}) <= 12
    assert front.start_lines[2] == {"carthaginians": ("zama", "caesarea", "carthago"),
                                    "romans": ("neapolis", "brundisium", "roma")}


def test_the_founding_example(front):
    """001 L193-203: Carthaginian units at Baecula and Saguntum, none at Numantia; with gold
    cities at Carthago Nova and Tarraco, Baecula founded as gold is next to 1 gold city,
    Saguntum would then be next to 3 (Baecula included) and founds iron for no extra coin."""
    gold = {"carthago_nova", "tarraco"}
    for pid in ("baecula", "saguntum", "numantia", *gold):
        assert front.province(pid).resource == "choice"
    assert "numantia" in _adjacent(front, "baecula") & _adjacent(front, "saguntum")
    assert _adjacent(front, "baecula") & gold == {"carthago_nova"}
    assert _adjacent(front, "saguntum") & (gold | {"baecula"}) == gold | {"baecula"}


def test_the_production_example(front):
    """001 L242-250: the Romans' 5 adjacent cities: Ancona (gold, temple), Roma (gold),
    Neapolis and Croton (marble), Brundisium (iron)."""
    cities = {"ancona": "gold", "roma": "gold", "neapolis": "marble", "croton": "marble", "brundisium": "iron"}
    assert _connected(set(cities), lambda pid: _adjacent(front, pid))
    for pid, resource in cities.items():
        assert front.province(pid).resource in ("choice", resource), pid
    assert front.province("ancona").resource == "choice"  # gold like Roma: not a start city


def test_the_temple_example(front):
    """001 L268-276: Neapolis is next to Ancona, Croton and Syracusae."""
    assert {"ancona", "croton", "syracusae"} <= _adjacent(front, "neapolis")
    assert {"croton", "neapolis"} <= CITIES


def test_the_arming_example(front):
    """001 L297-305: Zama has only red borders, Carthago and Caesarea are coastal."""
    assert front.province("zama").land_only
    assert front.province("carthago").kind == "coastal" and front.province("caesarea").kind == "coastal"
    assert front.can_arm("caesarea", "galley") and not front.can_arm("zama", "galley")


def test_the_movement_example(front):
    """001 L371-379: a legion and a galley at Roma; the galley may sail to Corsica."""
    assert front.province("roma").kind == "coastal"
    assert front.path_ok("galley", "roma", ["corsica"]) is None
    corsica = front.province("corsica")
    assert corsica.sea_only and corsica.resource == "none" and corsica.double


def test_the_conquest_example(front):
    """001 L381-383: two legions stand at Tarraco, a galley defends it."""
    tarraco = front.province("tarraco")
    assert tarraco.kind == "coastal" and tarraco.land and tarraco.resource == "choice"


# --- the back side excerpt ----------------------------------------------------------------


def test_the_aegean_excerpt_names(aegean):
    assert AEGEAN_NAMES | AEGEAN_EXAMPLE <= set(aegean.provinces)
    for pid in AEGEAN_NAMES:
        assert aegean.province(pid).resource != "none", pid
    assert aegean.province("lemnos").double and aegean.province("mare_aegaeum").double
    assert Counter(p.resource for p in aegean.provinces.values())["none"] == 4


def test_the_moving_and_conquering_example(aegean):
    """001 L391-413: the Greeks' legions from Abdera and galley from Lesbos enter Ainos
    directly; the 2 galleys from Mare Aegaeum reach it only through Lemnos (NAVIGATIO: 2
    blue borders); the legions from Pergamon reach Abydos in 1 red step."""
    assert aegean.path_ok("legion", "abdera", ["ainos"]) is None
    assert aegean.path_ok("galley", "lesbos", ["ainos"]) is None
    assert aegean.path_ok("galley", "mare_aegaeum", ["lemnos", "ainos"]) is None
    assert "ainos" not in aegean.province("mare_aegaeum").sea
    assert aegean.province("mare_aegaeum").sea & aegean.province("ainos").sea == {"lemnos"}
    assert aegean.path_ok("legion", "pergamon", ["abydos"]) is None
    ainos = aegean.province("ainos")
    assert ainos.kind == "coastal" and ainos.resource == "choice"
