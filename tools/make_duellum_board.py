"""Write ``maps/duellum-rome-carthage.json`` and ``tests/data/boards/duellum-aegean-excerpt.json``:
RECONSTRUCTED boards for Antike Duellum.

The printed Antike Duellum board's data is not available. Of its front side (Carthaginians
against Romans) the 27 city names printed on it are known from the pictures of the English
rulebook, and Corsica from its movement example (001 L371-379); of its back side (Greeks
against Persians) ten city names, and the regions of the big example for moving and
conquering (Ainos, Abdera, Lesbos, Lemnos, Mare Aegaeum, Pergamon, Abydos; 001 L391-413).
Everything else is a reconstruction chosen here from real ancient geography: every city
and every sea placed at its longitude and latitude, the borders, which regions are seas
without a city (they count double for navigators, 001 L165, L471), the start cities and
their printed resources; chosen so that every rulebook example can be played exactly as
written (checked below). A GM who owns the game can enter the printed board with the map
kit instead.

Every city site of a Duellum board shows all three resources except the start cities:
the founder chooses the resource (001 L197, L467), so every site is ``"choice"`` except the
six start cities, whose printed resource gives their start token (001 L95-97). Regions
without a city are ``"resource": "none"`` and ``"double": true``.

Offline, standard library only, deterministic: running it again writes the same bytes.
It checks each board before writing (symmetric borders, kinds from the borders,
connectivity over land and sea and over sea alone, spacing, start lines, the rulebook
examples' regions and borders) and writes nothing if anything is off.

    python tools/make_duellum_board.py [--out FILE] [--excerpt-out FILE] [--check]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_mare_nostrum_board import Projection  # noqa: E402  (the same projection)
from make_west_board import borders, connected, kind_of, render  # noqa: E402  (the same border notation and file layout)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "maps" / "duellum-rome-carthage.json"
DEFAULT_EXCERPT_OUT = ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"

RESOURCES = ("marble", "iron", "gold")
SITES = (*RESOURCES, "choice", "none")

# =====================================================================================
# Front side: Carthaginians (brown) against Romans (beige)
# =====================================================================================

RC_WIDTH, RC_HEIGHT = 1200, 790
RC_PROJECTION = Projection(lon_west=-7.6, lat_north=47.0, y_scale=55.0, parallel=40.0)
RC_EDGE = 40
"""Every city and sea symbol keeps at least this many pixels from the picture's edge."""
RC_MIN_APART = 50
"""Every two cities or sea symbols are at least this many pixels apart."""

RC_CITIES = (
    "lugdunum aquileia cremona tolosa genua massilia ancona epidaurum numantia roma tarraco brundisium "
    "saguntum neapolis apollonia baecula carales croton carthago_nova agrigentum caesarea carthago "
    "syracusae tingis siga zama tacape").split()
"""The 27 city names printed on the front side (the English rulebook's pictures)."""

# id, name, site, longitude (E positive), latitude (N): the ancient site of a city, the
# place of the galley symbol of a region without a city (a reconstruction).
RC_PROVINCES = [
    # Gallia
    ("lugdunum", "Lugdunum", "choice", 4.83, 45.76),  # Lyon
    ("tolosa", "Tolosa", "choice", 1.44, 43.60),  # Toulouse
    ("massilia", "Massilia", "choice", 5.37, 43.30),  # Marseille
    # Italia
    ("genua", "Genua", "choice", 8.93, 44.41),  # Genoa
    ("cremona", "Cremona", "choice", 10.02, 45.13),
    ("aquileia", "Aquileia", "choice", 13.37, 45.77),
    ("ancona", "Ancona", "choice", 13.52, 43.62),  # gold in the production example: no start city
    ("roma", "Roma", "gold", 12.50, 41.90),  # Roman start city (reconstruction)
    ("neapolis", "Neapolis", "marble", 14.25, 40.85),  # Roman start city (reconstruction)
    ("brundisium", "Brundisium", "iron", 17.94, 40.64),  # Roman start city (reconstruction)
    ("croton", "Croton", "choice", 17.13, 39.08),
    # Illyricum
    ("epidaurum", "Epidaurum", "choice", 18.22, 42.58),  # Cavtat
    ("apollonia", "Apollonia", "choice", 19.43, 40.72),  # near Fier
    # Hispania
    ("numantia", "Numantia", "choice", -2.44, 41.81),  # near Soria
    ("tarraco", "Tarraco", "choice", 1.25, 41.12),  # Tarragona
    ("saguntum", "Saguntum", "choice", -0.27, 39.68),  # Sagunto
    ("baecula", "Baecula", "choice", -3.57, 38.05),  # near Bailén
    ("carthago_nova", "Carthago Nova", "choice", -0.98, 37.60),  # Cartagena
    # the islands
    ("carales", "Carales", "choice", 9.11, 39.22),  # Cagliari, Sardinia
    ("agrigentum", "Agrigentum", "choice", 13.58, 37.31),
    ("syracusae", "Syracusae", "choice", 15.29, 37.08),
    # Africa
    ("tingis", "Tingis", "choice", -5.80, 35.77),  # Tangier
    ("siga", "Siga", "choice", -1.47, 35.26),  # Syphax's capital, near Rachgoun
    ("caesarea", "Caesarea", "iron", 2.19, 36.60),  # Iol Caesarea, Cherchell; Carthaginian start city (reconstruction)
    ("zama", "Zama", "marble", 9.45, 36.08),  # Zama Regia; Numidian marble of Simitthus nearby; Carthaginian start city
    ("carthago", "Carthago", "gold", 10.32, 36.85),  # Carthaginian start city (reconstruction)
    ("tacape", "Tacape", "choice", 10.10, 33.88),  # Gabès
    # regions without a city (galley symbol): Corsica and the seas, with their Latin names
    ("corsica", "Corsica", "none", 9.05, 42.15),  # the movement example (001 L379)
    ("fretum_gaditanum", "Fretum Gaditanum", "none", -4.60, 36.10),  # the Strait of Gibraltar and the sea east of it
    ("mare_balearicum", "Mare Balearicum", "none", 2.60, 39.30),
    ("sinus_gallicus", "Sinus Gallicus", "none", 4.20, 42.20),  # Gulf of Lion
    ("mare_ligusticum", "Mare Ligusticum", "none", 7.60, 43.30),
    ("mare_sardoum", "Mare Sardoum", "none", 6.30, 39.80),
    ("mare_tyrrhenum", "Mare Tyrrhenum", "none", 11.90, 39.90),
    ("mare_africum", "Mare Africum", "none", 8.60, 37.80),
    ("mare_siculum", "Mare Siculum", "none", 12.60, 35.90),
    ("syrtis_minor", "Syrtis Minor", "none", 11.80, 34.10),  # Gulf of Gabès
    ("mare_ionium", "Mare Ionium", "none", 17.60, 37.40),
    ("mare_adriaticum", "Mare Adriaticum", "none", 16.00, 42.90),
]

# Land (red) borders: legions cross.
RC_LAND = """
lugdunum tolosa | lugdunum massilia | lugdunum cremona
tolosa massilia | tolosa tarraco | tolosa numantia
massilia genua | genua cremona | genua roma
cremona aquileia | cremona ancona | aquileia ancona | aquileia epidaurum | epidaurum apollonia
ancona roma | ancona neapolis | roma neapolis | neapolis brundisium | neapolis croton | brundisium croton
numantia tarraco | numantia saguntum | numantia baecula | tarraco saguntum
saguntum baecula | saguntum carthago_nova | baecula carthago_nova
agrigentum syracusae
tingis siga | siga caesarea | caesarea zama | zama carthago | zama tacape | carthago tacape
"""

# Sea (blue) borders: one galley step.
RC_SEA = """
fretum_gaditanum tingis | fretum_gaditanum siga | fretum_gaditanum carthago_nova | fretum_gaditanum mare_balearicum
mare_balearicum carthago_nova | mare_balearicum saguntum | mare_balearicum tarraco | mare_balearicum siga
mare_balearicum caesarea | mare_balearicum sinus_gallicus | mare_balearicum mare_sardoum
sinus_gallicus tarraco | sinus_gallicus massilia | sinus_gallicus mare_ligusticum | sinus_gallicus mare_sardoum
mare_ligusticum massilia | mare_ligusticum genua | mare_ligusticum corsica | mare_ligusticum mare_sardoum
mare_ligusticum mare_tyrrhenum
corsica genua | corsica roma | corsica carales | corsica mare_tyrrhenum | corsica mare_sardoum
mare_sardoum carales | mare_sardoum caesarea | mare_sardoum mare_africum
mare_tyrrhenum roma | mare_tyrrhenum neapolis | mare_tyrrhenum carales | mare_tyrrhenum agrigentum
mare_tyrrhenum syracusae | mare_tyrrhenum mare_africum
mare_africum carales | mare_africum carthago | mare_africum agrigentum | mare_africum mare_siculum
mare_siculum carthago | mare_siculum agrigentum | mare_siculum syracusae | mare_siculum syrtis_minor
mare_siculum mare_ionium
syrtis_minor tacape | syrtis_minor mare_ionium
neapolis syracusae | croton syracusae
mare_ionium syracusae | mare_ionium croton | mare_ionium brundisium | mare_ionium apollonia
mare_ionium mare_adriaticum
mare_adriaticum aquileia | mare_adriaticum ancona | mare_adriaticum epidaurum | mare_adriaticum brundisium
mare_adriaticum apollonia | brundisium apollonia
"""

RC_LABELS: dict[str, tuple[int, int]] = {}

RC_NATIONS = {"2": ["carthaginians", "romans"]}
RC_START_LINES = {"2": {
    "carthaginians": ["zama", "caesarea", "carthago"],
    "romans": ["neapolis", "brundisium", "roma"],
}}

RC_EXAMPLES = {
    "founding": {  # 001 L193-203
        "units": ["baecula", "saguntum"],  # Carthaginian units stand here
        "empty": ["numantia"],  # no Carthaginian unit, no city
        "gold": ["carthago_nova", "tarraco"],  # the gold cities before the founding (any owner)
        "founded": {"baecula": "gold", "saguntum": "iron"},
    },
    "production": {  # 001 L242-250: the Romans' 5 adjacent cities
        "cities": {"ancona": "gold", "roma": "gold", "neapolis": "marble", "croton": "marble", "brundisium": "iron"},
        "temples": ["ancona"],
    },
    "temple": {  # 001 L268-276: a temple at Neapolis next to 3 temples; walls at Croton, Neapolis
        "at": "neapolis",
        "temples": ["ancona", "croton", "syracusae"],
        "walls": ["croton", "neapolis"],
    },
    "arming": {  # 001 L297-305: the Carthaginians' cities
        "land_only": ["zama"],
        "coastal": ["carthago", "caesarea"],
        "temples": ["caesarea"],
    },
    "movement": {"from": "roma", "galley_to": "corsica"},  # 001 L371-379
    "conquest": {"at": "tarraco"},  # 001 L381-383: 2 legions conquer it, a galley defends it
}

RC_NOTES = [
    "This is a RECONSTRUCTION, not the printed front side (Carthaginians against Romans) of the "
    "Antike Duellum board: the printed board's data could not be found anywhere. Known are only "
    "the 27 city names printed on it, from the pictures of the English rulebook ({cities}), and "
    "Corsica, a region without a city that the rulebook's movement example names.",
    "Reconstructed here from real ancient geography: the positions, all borders, which regions are "
    "seas without a city (their Latin names: {seas}), the start cities and their printed "
    "resources. Every city site except the start cities is a site whose resource the founder "
    "chooses (\"choice\"), as on every Duellum city site. The regions without a city count double "
    "for navigators; Corsica is one of them: it has no city site and only blue borders, so it is "
    "a sea region in the rules' sense.",
    "Start cities (a reconstruction): the Carthaginians Zama (marble), Caesarea (iron) and "
    "Carthago (gold), the Romans Neapolis (marble), Brundisium (iron) and Roma (gold). Ancona is "
    "not a start city: the rulebook's production example has both Ancona and Roma as gold cities "
    "of the Romans.",
    "The rulebook's examples can be played on it as written: founding at Baecula and Saguntum "
    "(with gold cities at Carthago Nova and Tarraco, Numantia empty), production from Ancona, Roma, "
    "Neapolis, Croton and Brundisium, the temple at Neapolis next to Ancona, Croton and Syracusae "
    "(Neapolis borders Ancona across the Apennines and Syracusae across the Strait of Messina, "
    "geography bent for the example), arming at Zama (only red borders), Carthago and Caesarea "
    "(coastal), a galley from Roma to Corsica, legions and a galley at Tarraco.",
    "{projection}",
    "The board names no start nation (start_nation is empty): Duellum chooses the start player "
    "at random, so the game's set-up decides it (new --first names it).",
    "A GM who owns the game can enter the printed board with the map kit "
    "(antike-ref map new my-board.json --template duellum-rome-carthage) and start games on it "
    "with new --board FILE.",
]

# =====================================================================================
# Back side, excerpt (test board): Greeks (brown) against Persians (beige)
# =====================================================================================

AE_WIDTH, AE_HEIGHT = 720, 560
AE_PROJECTION = Projection(lon_west=20.1, lat_north=41.5, y_scale=92.0, parallel=38.5)
AE_EDGE = 30
AE_MIN_APART = 50

AE_CITIES = "pella abdera larisa ambrakia delphi oreos ainos pylos olympia cythera".split()
"""The ten city names of the back side known from the rulebook's pictures."""

AE_PROVINCES = [
    ("pella", "Pella", "gold", 22.52, 40.76),  # Greek start city (reconstruction); gold of Mount Pangaion
    ("larisa", "Larisa", "iron", 22.42, 39.64),  # Greek start city (reconstruction)
    ("delphi", "Delphi", "marble", 22.50, 38.48),  # Greek start city (reconstruction)
    ("ambrakia", "Ambrakia", "choice", 20.99, 39.16),  # Arta
    ("oreos", "Oreos", "choice", 23.10, 38.95),  # Histiaia, north Euboea
    ("olympia", "Olympia", "choice", 21.63, 37.64),
    ("pylos", "Pylos", "choice", 21.70, 36.91),
    ("cythera", "Cythera", "choice", 22.99, 36.25),  # an island city
    ("abdera", "Abdera", "choice", 24.98, 40.94),
    ("ainos", "Ainos", "choice", 26.08, 40.72),  # Enez, at the mouth of the Hebrus
    ("lesbos", "Lesbos", "choice", 26.45, 39.30),  # Mytilene; an island city
    ("abydos", "Abydos", "iron", 26.40, 40.20),  # on the Hellespont; Persian start city (reconstruction)
    ("pergamon", "Pergamon", "marble", 27.18, 39.13),  # Persian start city (reconstruction)
    ("sardes", "Sardes", "gold", 28.04, 38.49),  # Persian start city (reconstruction); gold of the Pactolus
    ("lemnos", "Lemnos", "none", 25.15, 39.90),  # an island without a city
    ("mare_aegaeum", "Mare Aegaeum", "none", 24.10, 39.45),
    ("mare_myrtoum", "Mare Myrtoum", "none", 23.90, 37.20),
    ("mare_ionium", "Mare Ionium", "none", 20.60, 37.80),
]

AE_LAND = """
pella larisa | pella ambrakia | pella abdera | larisa ambrakia | larisa delphi | ambrakia delphi
delphi oreos | delphi olympia | olympia pylos | abdera ainos
abydos pergamon | pergamon sardes
"""

AE_SEA = """
mare_ionium ambrakia | mare_ionium delphi | mare_ionium olympia | mare_ionium pylos | pylos cythera
cythera mare_myrtoum | mare_myrtoum oreos | mare_myrtoum mare_aegaeum
mare_aegaeum pella | mare_aegaeum larisa | mare_aegaeum oreos | mare_aegaeum abdera | mare_aegaeum lemnos
lemnos abdera | lemnos ainos | lemnos lesbos
lesbos ainos | lesbos abydos | lesbos pergamon | abydos ainos
"""

AE_LABELS: dict[str, tuple[int, int]] = {}

AE_NATIONS = {"2": ["greeks", "persians"]}
AE_START_LINES = {"2": {
    "greeks": ["delphi", "larisa", "pella"],
    "persians": ["pergamon", "abydos", "sardes"],
}}

AE_EXAMPLE = {  # 001 L391-413
    "target": "ainos",
    "legions_by_land": ["abdera"],  # both Greek legions, 1 red step
    "galley_by_sea": ["lesbos"],  # 1 blue step
    "galleys_through": {"from": "mare_aegaeum", "via": "lemnos"},  # 2 blue steps, only via Lemnos
    "pergamon_to_abydos": ["pergamon", "abydos"],  # Greek legions, 1 red step
}

AE_NOTES = [
    "A small RECONSTRUCTED excerpt of the back side (Greeks against Persians) of the Antike Duellum "
    "board, for tests; not the printed board, whose data could not be found.",
    "Known are only the regions of the rulebook's example for moving and conquering (Ainos, Abdera, "
    "Lesbos, Lemnos, Mare Aegaeum, Pergamon, Abydos) and ten city names of that side ({cities}). "
    "Everything else (the positions, all borders, which regions have a city site, Sardes, Mare "
    "Myrtoum and Mare Ionium, the start cities and their resources) was chosen here from real "
    "ancient geography.",
    "The example can be played on it as written: Abdera-Ainos red, Lesbos-Ainos blue, Mare Aegaeum "
    "reaches Ainos in two blue steps only through Lemnos, Pergamon-Abydos red. Lemnos, Mare "
    "Aegaeum, Mare Myrtoum and Mare Ionium have no city and count double for navigators.",
    "Start cities (a reconstruction): the Greeks Delphi (marble), Larisa (iron) and Pella (gold), "
    "the Persians Pergamon (marble), Abydos (iron) and Sardes (gold).",
    "{projection}",
    "The board names no start nation (start_nation is empty): Duellum chooses the start player "
    "at random.",
]


# =====================================================================================
# building and checking
# =====================================================================================


def build_board(*, board_id: str, name: str, width: int, height: int, projection: Projection, edge: int,
                min_apart: int, rows: list[tuple], cities: list[str], land: str, sea: str, labels: dict,
                nations: dict, start_lines: dict, notes: list[str]) -> dict:
    """One board document, checked; AssertionError naming the first thing that is off."""
    ids = [row[0] for row in rows]
    known = set(ids)
    border = borders(ids, land, sea)
    assert set(labels) <= known, f"labels for unknown provinces {sorted(set(labels) - known)}"
    sites = {pid: site for pid, _, site, _, _ in rows}
    assert set(cities) <= known, f"known cities missing: {sorted(set(cities) - known)}"
    for pid in cities:
        assert sites[pid] != "none", f"{pid} is a known city but has no city site"

    provinces = []
    for pid, pname, site, lon, lat in sorted(rows):
        assert site in SITES, f"{pid}: site {site}"
        p = {"id": pid, "name": pname, "resource": site, "kind": kind_of(border, pid), "xy": projection(lon, lat),
             "land": sorted(border[pid]["land"]), "sea": sorted(border[pid]["sea"])}
        if pid in labels:
            p["label"] = list(labels[pid])
        if site == "none":
            # a region without a city: a sea (galley symbol), reached only by galleys; counts
            # double for navigators (001 L165, L471)
            assert not border[pid]["land"], f"{pid} has no city but a land border"
            p["double"] = True
        provinces.append(p)
    by_id = {p["id"]: p for p in provinces}

    # every province reachable over land and sea; galleys can sail round the sea
    both = {pid: border[pid]["land"] | border[pid]["sea"] for pid in ids}
    assert connected(known, both), "land and sea borders do not join every province"
    waters = {pid for pid in ids if border[pid]["sea"]}
    assert connected(waters, {pid: border[pid]["sea"] for pid in ids}), \
        "the sea borders do not join every port, island and sea"
    for p in provinces:  # no sea without a neighbour that is a sea too or a port
        if p["resource"] == "none":
            assert len(p["sea"]) >= 2, f"{p['id']} is a sea with fewer than 2 neighbours"
    # positions inside the picture and apart from each other
    for p in provinces:
        x, y = p["xy"]
        assert edge <= x <= width - edge and edge <= y <= height - edge, f"{p['id']} at {x},{y} is near the edge"
        if "label" in p:
            lx, ly = p["label"]
            assert 0 <= lx < width and 0 <= ly < height, f"{p['id']} label outside the picture"
    for i, p in enumerate(provinces):
        for q in provinces[i + 1:]:
            d = math.dist(p["xy"], q["xy"])
            assert d >= min_apart, f"{p['id']} and {q['id']} are only {d:.0f} px apart"
    # two nations; start lines: one marble, one iron, one gold city each, with the
    # printed resource; every other city site is the founder's choice
    assert list(nations) == ["2"] and len(nations["2"]) == 2, f"Duellum is two nations: {nations}"
    assert sorted(start_lines) == ["2"] and sorted(start_lines["2"]) == sorted(nations["2"]), "start lines"
    lines_out = {"2": {}}
    starts: set[str] = set()
    for nation, line in start_lines["2"].items():
        assert sorted(by_id[c]["resource"] for c in line) == sorted(RESOURCES), \
            f"start line of {nation} is not one marble, iron and gold city"
        assert not starts & set(line), f"{nation} shares a start city"
        starts |= set(line)
        lines_out["2"][nation] = sorted(line, key=lambda c: RESOURCES.index(by_id[c]["resource"]))
    for p in provinces:
        if p["id"] not in starts:
            assert p["resource"] in ("choice", "none"), f"{p['id']} has a printed resource but starts nobody"

    seas = [p["name"] for p in provinces if p["resource"] == "none" and p["id"] != "corsica"]
    filled = {"projection": projection.note(width, height) + " A region without a city is placed where its "
                                                          "galley symbol would stand.",
              "cities": ", ".join(by_id[c]["name"] for c in cities),
              "seas": ", ".join(seas)}
    return {
        "$schema": "https://antike-ref.invalid/schemas/map.schema.json",
        "format": 1,
        "id": board_id,
        "name": name,
        "edition": "duellum",
        "reconstruction": True,
        "size": {"width": width, "height": height},
        "provinces": provinces,
        "nations": nations,
        "start_lines": lines_out,
        "start_nation": {},
        "notes": [note.format(**filled) for note in notes],
    }


def _p(doc: dict, pid: str) -> dict:
    return next(p for p in doc["provinces"] if p["id"] == pid)


def _land(doc: dict, a: str, b: str) -> bool:
    return b in _p(doc, a)["land"]


def _sea(doc: dict, a: str, b: str) -> bool:
    return b in _p(doc, a)["sea"]


def _adjacent(doc: dict, a: str) -> set[str]:
    p = _p(doc, a)
    return set(p["land"]) | set(p["sea"])


def check_rome_carthage_examples(doc: dict) -> None:
    """The rulebook's worked examples on the front side must be playable exactly as written."""
    by_id = {p["id"]: p for p in doc["provinces"]}
    assert sorted(pid for pid, p in by_id.items() if p["resource"] != "none") == sorted(RC_CITIES)
    ex = RC_EXAMPLES

    # founding (001 L193-203): Baecula next to exactly 1 existing gold city; Saguntum then
    # next to 3 gold cities (Baecula included) and no iron city (founded as iron for free)
    f = ex["founding"]
    gold = set(f["gold"])
    assert not gold & set(f["units"]) and not gold & set(f["empty"])
    assert all(by_id[c]["resource"] == "choice" for c in (*f["units"], *f["empty"])), "founding sites"
    assert set(f["empty"]) <= _adjacent(doc, "baecula") | _adjacent(doc, "saguntum")
    assert len(_adjacent(doc, "baecula") & gold) == 1, "Baecula must be next to exactly 1 gold city"
    assert len(_adjacent(doc, "saguntum") & (gold | {"baecula"})) == 3, "Saguntum must be next to 3 gold cities"
    assert "baecula" in _adjacent(doc, "saguntum")
    for c in gold:
        assert by_id[c]["resource"] in ("choice", "gold"), f"{c} cannot be gold"

    # production (001 L242-250): 5 adjacent Roman cities
    pr = ex["production"]
    group = set(pr["cities"])
    assert connected(group, {pid: _adjacent(doc, pid) for pid in by_id}), "production cities not adjacent"
    for c, resource in pr["cities"].items():
        assert by_id[c]["resource"] in ("choice", resource), f"{c} cannot be {resource}"
    assert Counter(pr["cities"].values()) == {"gold": 2, "marble": 2, "iron": 1}
    starts = doc["start_lines"]["2"]["romans"]
    assert set(starts) <= group and "ancona" not in starts

    # temple (001 L268-276): Neapolis next to Ancona, Croton and Syracusae
    t = ex["temple"]
    assert set(t["temples"]) <= _adjacent(doc, t["at"])
    assert all(by_id[c]["resource"] != "none" for c in t["temples"])

    # arming (001 L297-305): Zama only red borders, Carthago and Caesarea coastal
    a = ex["arming"]
    for c in a["land_only"]:
        assert by_id[c]["kind"] == "land_only", f"{c} must have only red borders"
    for c in a["coastal"]:
        assert by_id[c]["kind"] == "coastal", f"{c} must be coastal"
    assert set(a["land_only"] + a["coastal"]) == set(doc["start_lines"]["2"]["carthaginians"])

    # movement (001 L371-379): a legion and a galley at Roma; the galley may sail to Corsica
    m = ex["movement"]
    assert by_id[m["from"]]["kind"] == "coastal" and _sea(doc, m["from"], m["galley_to"])
    assert by_id[m["galley_to"]]["resource"] == "none" and by_id[m["galley_to"]]["kind"] == "sea_only"

    # conquest (001 L381-383): 2 legions at Tarraco, a galley defends it
    c = ex["conquest"]["at"]
    assert by_id[c]["kind"] == "coastal" and by_id[c]["resource"] == "choice"

    seas = [p for p in by_id.values() if p["resource"] == "none"]
    assert 9 <= len(seas) <= 13, f"{len(seas)} regions without a city"


def check_aegean_examples(doc: dict) -> None:
    """The example for moving and conquering (001 L391-413)."""
    by_id = {p["id"]: p for p in doc["provinces"]}
    ex = AE_EXAMPLE
    target = ex["target"]
    assert set(AE_CITIES) <= set(by_id)
    for c in ex["legions_by_land"]:
        assert _land(doc, c, target), f"legions from {c} must reach {target} by land"
    for c in ex["galley_by_sea"]:
        assert _sea(doc, c, target), f"a galley from {c} must reach {target} by sea"
    far, via = ex["galleys_through"]["from"], ex["galleys_through"]["via"]
    assert not _sea(doc, far, target), f"{far} must not border {target}"
    assert set(_p(doc, far)["sea"]) & set(_p(doc, target)["sea"]) == {via}, \
        f"{far} must reach {target} in two steps only through {via}"
    assert by_id[via]["resource"] == "none" and by_id[far]["resource"] == "none"
    a, b = ex["pergamon_to_abydos"]
    assert _land(doc, a, b)
    assert by_id[target]["kind"] == "coastal" and by_id[target]["resource"] == "choice"
    assert by_id["abydos"]["land"] and by_id["abydos"]["sea"]


def build_rome_carthage() -> dict:
    doc = build_board(
        board_id="duellum-rome-carthage", name="Antike Duellum — Rome and Carthage, reconstruction",
        width=RC_WIDTH, height=RC_HEIGHT, projection=RC_PROJECTION, edge=RC_EDGE, min_apart=RC_MIN_APART,
        rows=RC_PROVINCES, cities=RC_CITIES, land=RC_LAND, sea=RC_SEA, labels=RC_LABELS,
        nations=RC_NATIONS, start_lines=RC_START_LINES, notes=RC_NOTES)
    check_rome_carthage_examples(doc)
    return doc


def build_aegean_excerpt() -> dict:
    doc = build_board(
        board_id="duellum-aegean-excerpt", name="Antike Duellum — Aegean excerpt, reconstruction",
        width=AE_WIDTH, height=AE_HEIGHT, projection=AE_PROJECTION, edge=AE_EDGE, min_apart=AE_MIN_APART,
        rows=AE_PROVINCES, cities=AE_CITIES, land=AE_LAND, sea=AE_SEA, labels=AE_LABELS,
        nations=AE_NATIONS, start_lines=AE_START_LINES, notes=AE_NOTES)
    check_aegean_examples(doc)
    return doc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the Rome and Carthage board file")
    ap.add_argument("--excerpt-out", type=Path, default=DEFAULT_EXCERPT_OUT, help="the Aegean excerpt test board")
    ap.add_argument("--check", action="store_true", help="exit 1 if a file differs from what would be written")
    args = ap.parse_args()
    try:
        texts = [(args.out, render(build_rome_carthage())), (args.excerpt_out, render(build_aegean_excerpt()))]
    except AssertionError as exc:
        print(f"not written: {exc}", file=sys.stderr)
        return 1
    stale = 0
    for path, text in texts:
        if args.check:
            same = path.exists() and path.read_text(encoding="utf-8") == text
            print(f"{path}: {'up to date' if same else 'stale'}")
            stale += not same
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
