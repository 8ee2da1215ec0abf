"""Write ``maps/antike2-mare-nostrum.json`` and ``tests/data/boards/antike2-orient-excerpt.json``:
RECONSTRUCTED boards for Antike II.

The printed Antike II boards' data (Mare Nostrum and Orient sides) is not available; only
the region names that the rulebook's worked examples use are known: Carthago, Carales,
Gesocribate, Pella, Dyrrhachion, Sparta, Athenae, Roma, Syracus, Neapolis and Ancona on
Mare Nostrum, Attalia, Paphos and Antiochia on the Orient side. This script holds a
reconstruction chosen from real ancient geography around those names: every city placed
at its longitude and latitude, with resources, borders, neutral temples, start lines and
start nations chosen so that every rulebook example can be played exactly as written. A
GM who owns the game can enter the printed board with the map kit instead.

Offline, standard library only, deterministic: running it again writes the same bytes.
It checks each board before writing (resource counts, symmetric borders, kinds from the
borders, connectivity over land and sea and over sea alone, spacing of the cities, start
lines, the rulebook examples' regions and borders) and writes nothing if anything is off.

    python tools/make_mare_nostrum_board.py [--out FILE] [--excerpt-out FILE] [--check]
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_west_board import borders, connected, kind_of, render  # noqa: E402  (the same border notation and file layout)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "maps" / "antike2-mare-nostrum.json"
DEFAULT_EXCERPT_OUT = ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json"

RESOURCES = ("marble", "iron", "gold")
NATION_IDS = ("romans", "carthaginians", "greeks", "germans", "phoenicians", "persians")
"""The only nations these boards name (the six nation colours of Antike II)."""


class Projection:
    """Simple equirectangular projection: ``x = x_scale * (lon - lon_west)``,
    ``y = y_scale * (lat_north - lat)``, rounded to pixels, where a degree of longitude is
    cos(standard parallel) of a degree of latitude."""

    def __init__(self, lon_west: float, lat_north: float, y_scale: float, parallel: float):
        self.lon_west, self.lat_north, self.y_scale, self.parallel = lon_west, lat_north, y_scale, parallel
        self.x_scale = y_scale * math.cos(math.radians(parallel))

    def __call__(self, lon: float, lat: float) -> list[int]:
        return [round(self.x_scale * (lon - self.lon_west)), round(self.y_scale * (self.lat_north - lat))]

    def note(self, width: int, height: int) -> str:
        return ("xy is each city's longitude and latitude in a simple equirectangular projection "
                f"(standard parallel {self.parallel:g}° N, {self.y_scale:g} pixels per degree of latitude) "
                f"on a {width}x{height} picture, origin top-left, y down.")


# =====================================================================================
# Mare Nostrum
# =====================================================================================

MN_WIDTH, MN_HEIGHT = 1450, 900
MN_PROJECTION = Projection(lon_west=-11.0, lat_north=52.9, y_scale=42.0, parallel=42.0)
MN_EDGE = 40
"""Every city keeps at least this many pixels from the picture's edge."""
MN_MIN_APART = 52
"""Every two cities are at least this many pixels apart (room for the names)."""

# id, name, resource, longitude (E positive), latitude (N) of the ancient site.
# The names of the rulebook's examples keep the rulebook's spelling (Dyrrhachion, Syracus,
# Carales, Gesocribate); the others are the usual Latin names.
MN_PROVINCES = [
    # Britannia, Gallia
    ("londinium", "Londinium", "gold", -0.12, 51.51),  # London; Britannia as one island
    ("gesocribate", "Gesocribate", "iron", -4.49, 48.39),  # Brest, Brittany (rulebook example)
    ("lutetia", "Lutetia", "marble", 2.35, 48.86),  # Paris
    ("burdigala", "Burdigala", "iron", -0.58, 44.84),  # Bordeaux
    ("tolosa", "Tolosa", "gold", 1.44, 43.60),  # Toulouse; the gold of Tolosa
    ("lugdunum", "Lugdunum", "gold", 4.83, 45.76),  # Lyon, the Gallic mint
    ("massilia", "Massilia", "marble", 5.37, 43.30),  # Marseille
    # Germania, Raetia
    ("colonia_agrippina", "Colonia Agrippina", "gold", 6.96, 50.94),  # Cologne
    ("mogontiacum", "Mogontiacum", "marble", 8.27, 50.00),  # Mainz
    ("argentoratum", "Argentoratum", "iron", 7.75, 48.58),  # Strasbourg
    ("augusta_vindelicum", "Augusta Vindelicum", "iron", 10.90, 48.37),  # Augsburg; Noric iron nearby
    # Hispania
    ("olisipo", "Olisipo", "marble", -9.14, 38.72),  # Lisbon
    ("asturica", "Asturica", "gold", -6.06, 42.46),  # Astorga; the gold mines of Las Médulas
    ("toletum", "Toletum", "iron", -4.02, 39.86),  # Toledo, famed for its steel
    ("gades", "Gades", "marble", -6.29, 36.53),  # Cádiz, Phoenician Gadir
    ("malaca", "Malaca", "iron", -4.42, 36.72),  # Málaga, Phoenician
    ("carthago_nova", "Carthago Nova", "gold", -0.98, 37.60),  # Cartagena, silver mines
    ("tarraco", "Tarraco", "marble", 1.25, 41.12),  # Tarragona
    # Africa
    ("lixus", "Lixus", "iron", -6.11, 35.20),  # Larache, Phoenician
    ("iol_caesarea", "Iol Caesarea", "gold", 2.19, 36.60),  # Cherchell
    ("hippo_regius", "Hippo Regius", "marble", 7.77, 36.90),  # Annaba; Numidian marble of Simitthus
    ("carthago", "Carthago", "gold", 10.32, 36.85),  # rulebook examples
    ("thapsus", "Thapsus", "iron", 11.05, 35.62),
    ("leptis_magna", "Leptis Magna", "marble", 14.29, 32.64),
    ("cyrene", "Cyrene", "gold", 21.86, 32.82),
    # the western islands
    ("ebusus", "Ebusus", "iron", 1.43, 38.91),  # Ibiza, Carthaginian
    ("aleria", "Aleria", "iron", 9.51, 42.09),  # Corsica
    ("carales", "Carales", "marble", 9.11, 39.22),  # Cagliari, Sardinia (rulebook examples)
    ("melita", "Melita", "gold", 14.40, 35.90),  # Malta
    # Sicilia
    ("eryx", "Eryx", "marble", 12.59, 38.04),  # the sanctuary of Venus Erycina (Astarte)
    ("syracus", "Syracus", "gold", 15.29, 37.08),  # rulebook examples
    # Italia
    ("mediolanum", "Mediolanum", "iron", 9.19, 45.46),  # Milan
    ("pisae", "Pisae", "marble", 10.40, 43.72),  # near the marble of Luna (Carrara)
    ("aquileia", "Aquileia", "gold", 13.37, 45.77),
    ("ancona", "Ancona", "iron", 13.52, 43.62),  # temple of Venus; rulebook: a city without owner
    ("roma", "Roma", "iron", 12.50, 41.90),  # rulebook examples
    ("neapolis", "Neapolis", "marble", 14.25, 40.85),  # rulebook examples
    ("tarentum", "Tarentum", "gold", 17.24, 40.47),
    # Illyricum, Macedonia, Hellas
    ("salona", "Salona", "gold", 16.48, 43.53),  # Dalmatian gold
    ("sirmium", "Sirmium", "marble", 19.61, 44.97),
    ("dyrrhachion", "Dyrrhachion", "iron", 19.45, 41.32),  # Durrës (rulebook example)
    ("dodona", "Dodona", "gold", 20.79, 39.55),  # the oracle of Zeus
    ("pella", "Pella", "gold", 22.52, 40.76),  # Macedonian capital; gold of Mount Pangaion
    ("athenae", "Athenae", "marble", 23.73, 37.98),  # Pentelic marble
    ("sparta", "Sparta", "iron", 22.43, 37.07),  # Laconian iron
    ("gortyna", "Gortyna", "marble", 24.95, 35.06),  # Crete
    # Thrace, Asia
    ("byzantium", "Byzantium", "marble", 28.98, 41.01),  # Proconnesian marble nearby
    ("sardes", "Sardes", "gold", 28.04, 38.49),  # seat of the satrap of Lydia; gold of the Pactolus
    ("halicarnassus", "Halicarnassus", "marble", 27.42, 37.04),  # the Mausoleum
    ("gordion", "Gordion", "iron", 31.99, 39.65),  # Phrygia
]

MN_TEMPLES = ("ancona", "dodona", "eryx")
"""Neutral temples at set-up: Ancona (the rulebook's arming example: a city without
owner), the oracle of Dodona in Epirus and the sanctuary of Eryx in Sicily; one near each
of the three nations that always play (Romans, Greeks, Carthaginians)."""

# Land (red) borders: legions cross.
MN_LAND = """
gesocribate lutetia | gesocribate burdigala | lutetia burdigala | lutetia lugdunum
lutetia colonia_agrippina | lutetia argentoratum | burdigala tolosa | burdigala lugdunum | burdigala asturica
tolosa lugdunum | tolosa massilia | tolosa tarraco | lugdunum massilia | lugdunum argentoratum
lugdunum mediolanum | massilia mediolanum
colonia_agrippina mogontiacum | mogontiacum argentoratum | mogontiacum augusta_vindelicum
argentoratum augusta_vindelicum | augusta_vindelicum mediolanum | augusta_vindelicum aquileia
augusta_vindelicum sirmium
olisipo asturica | olisipo toletum | olisipo gades | asturica toletum | asturica tarraco
toletum gades | toletum malaca | toletum carthago_nova | toletum tarraco | gades malaca
malaca carthago_nova | carthago_nova tarraco
lixus iol_caesarea | iol_caesarea hippo_regius | hippo_regius carthago | hippo_regius thapsus
carthago thapsus | thapsus leptis_magna | leptis_magna cyrene
eryx syracus
mediolanum pisae | mediolanum aquileia | pisae ancona | pisae roma
aquileia ancona | ancona roma | ancona neapolis | ancona tarentum | roma neapolis | neapolis tarentum
aquileia salona | aquileia sirmium | salona sirmium | salona dyrrhachion | sirmium dyrrhachion
sirmium pella | sirmium byzantium | dyrrhachion pella | dyrrhachion dodona | dodona pella
dodona athenae | pella athenae | athenae sparta | pella byzantium
byzantium sardes | byzantium gordion | sardes gordion | sardes halicarnassus | halicarnassus gordion
"""

# Sea (blue) borders: one galley step along a coast, across a strait or to an island.
MN_SEA = """
londinium gesocribate | londinium lutetia | londinium colonia_agrippina | lutetia colonia_agrippina
gesocribate burdigala | burdigala asturica | asturica olisipo | olisipo gades
gades lixus | gades malaca | malaca lixus | malaca carthago_nova | malaca iol_caesarea
carthago_nova iol_caesarea | carthago_nova ebusus | carthago_nova tarraco | tarraco ebusus
tarraco massilia | ebusus massilia | ebusus iol_caesarea | ebusus carales
iol_caesarea hippo_regius | massilia aleria | massilia pisae | pisae aleria | aleria roma
aleria carales | roma carales | pisae roma | roma neapolis | neapolis carales | neapolis eryx
neapolis syracus | carales hippo_regius | carales carthago | carales eryx | hippo_regius carthago
carthago eryx | carthago syracus | carthago thapsus | thapsus melita | thapsus leptis_magna
eryx syracus | syracus melita | melita leptis_magna | syracus tarentum | syracus sparta
leptis_magna cyrene | cyrene sparta | cyrene gortyna
ancona aquileia | ancona salona | ancona tarentum | aquileia salona | salona dyrrhachion
salona tarentum | tarentum dyrrhachion | dyrrhachion sparta
sparta athenae | sparta gortyna | athenae pella | athenae gortyna | athenae sardes
athenae halicarnassus | pella byzantium | pella sardes | byzantium sardes | sardes halicarnassus
halicarnassus gortyna
"""

# Name labels moved where the report's automatic placement would not suit
# (centre of the label, picture pixels); map check says if one covers another name or city.
MN_LABELS: dict[str, tuple[int, int]] = {
    "ancona": (757, 362),
    "argentoratum": (585, 152),
    "carales": (620, 547),
    "carthago": (656, 702),
    "dodona": (984, 589),
    "ebusus": (380, 560),
    "gades": (127, 664),
    "gortyna": (1130, 721),
    "halicarnassus": (1199, 695),
    "lixus": (160, 715),
    "londinium": (340, 29),
    "melita": (785, 742),
    "neapolis": (762, 534),
    "pisae": (661, 358),
    "roma": (726, 434),
    "syracus": (829, 636),
    "tarentum": (881, 551),
    "thapsus": (680, 754),
}

MN_NATIONS = {
    "3": ["romans", "carthaginians", "greeks"],
    "4": ["romans", "carthaginians", "greeks", "germans"],
    "5": ["romans", "carthaginians", "greeks", "germans", "phoenicians"],
    "6": ["romans", "carthaginians", "greeks", "germans", "phoenicians", "persians"],
}

# Each nation's marble, iron and gold city (any order here; written in that order). The
# same three cities at every count a nation plays at.
MN_HOMES = {
    "romans": ["neapolis", "roma", "tarentum"],
    "carthaginians": ["hippo_regius", "thapsus", "carthago"],
    "greeks": ["athenae", "sparta", "pella"],
    "germans": ["mogontiacum", "argentoratum", "colonia_agrippina"],
    "phoenicians": ["gades", "malaca", "carthago_nova"],
    "persians": ["halicarnassus", "gordion", "sardes"],
}
MN_START_LINES = {count: {nation: MN_HOMES[nation] for nation in nations} for count, nations in MN_NATIONS.items()}

MN_START_NATION = {"3": "romans", "4": "romans", "5": "romans", "6": "romans"}

MN_NOTES = [
    "This is a RECONSTRUCTION, not the printed Mare Nostrum side of the Antike II board: the "
    "printed board's data could not be found anywhere. Of the printed board only the region "
    "names used by the rulebook's examples are known: Carthago, Carales, Gesocribate, Pella, "
    "Dyrrhachion, Sparta, Athenae, Roma, Syracus, Neapolis and Ancona.",
    "Those regions, their resources and the borders the examples use are as the rulebook's "
    "examples need them (Carthago gold with a sea border to Carales; Carales all blue borders, "
    "marble; Roma iron; Neapolis marble; Syracus gold; Dyrrhachion-Pella red; "
    "Dyrrhachion-Sparta, Sparta-Athenae and Athenae-Pella blue, but no blue border "
    "Dyrrhachion-Athenae or Sparta-Pella; a neutral temple at Ancona).",
    "Everything else (the other region names, city positions, resources, borders, the three "
    "neutral temples at Ancona, Dodona and Eryx, which nations play at each count, start lines "
    "and start nations) was chosen here from real ancient geography: {count} regions with "
    "{balance}.",
    "{projection}",
    "Antike II chooses the start nation at random; the start_nation given here (the Romans) is "
    "only a default, which the GM can override with new --first.",
    "A GM who owns the game can enter the printed board with the map kit "
    "(antike-ref map new my-board.json --template antike2-mare-nostrum) and start games on it "
    "with new --board FILE.",
]


# =====================================================================================
# Orient excerpt (test board)
# =====================================================================================

OR_WIDTH, OR_HEIGHT = 860, 640
OR_PROJECTION = Projection(lon_west=29.1, lat_north=38.9, y_scale=90.0, parallel=36.0)
OR_EDGE = 30
OR_MIN_APART = 60

OR_PROVINCES = [
    # Lycia, Pamphylia, Pisidia, Lycaonia
    ("myra", "Myra", "marble", 29.98, 36.26),
    ("attalia", "Attalia", "gold", 30.70, 36.89),  # rulebook founding example: gold only
    ("sagalassos", "Sagalassos", "iron", 30.52, 37.68),
    ("iconium", "Iconium", "gold", 32.49, 37.87),
    # Cilicia, Cappadocia, Syria
    ("tarsus", "Tarsus", "marble", 34.90, 36.92),
    ("tyana", "Tyana", "iron", 34.62, 37.83),
    ("antiochia", "Antiochia", "marble", 36.16, 36.20),  # rulebook founding example
    ("beroea", "Beroea", "gold", 37.16, 36.20),  # Aleppo
    ("hierapolis", "Hierapolis", "gold", 38.00, 36.53),  # Bambyce, the temple of Atargatis
    # Cyprus
    ("paphos", "Paphos", "choice", 32.41, 34.77),  # rulebook founding example: the founder chooses
    ("salamis", "Salamis", "iron", 33.90, 35.18),
    # Phoenicia
    ("byblos", "Byblos", "marble", 35.65, 34.12),
    ("tyros", "Tyros", "gold", 35.20, 33.27),
    ("damascus", "Damascus", "iron", 36.30, 33.51),
]

OR_TEMPLES = ("hierapolis",)

OR_LAND = """
myra attalia | myra sagalassos | attalia sagalassos | attalia iconium | sagalassos iconium
iconium tyana | tyana tarsus | tarsus antiochia | antiochia beroea | beroea hierapolis
hierapolis tyana | antiochia byblos | byblos tyros | byblos damascus | tyros damascus
damascus beroea | paphos salamis
"""

OR_SEA = """
myra attalia | myra paphos | attalia paphos | attalia tarsus | tarsus salamis | tarsus antiochia
antiochia salamis | salamis byblos | byblos tyros | paphos tyros
"""

OR_LABELS: dict[str, tuple[int, int]] = {}

OR_NATIONS = {"3": ["greeks", "persians", "phoenicians"]}
OR_START_LINES = {"3": {
    "greeks": ["myra", "sagalassos", "iconium"],
    "persians": ["tarsus", "tyana", "beroea"],
    "phoenicians": ["byblos", "damascus", "tyros"],
}}
OR_START_NATION = {"3": "greeks"}

OR_NOTES = [
    "A small RECONSTRUCTED excerpt of the Orient side of the Antike II board around Cilicia, "
    "Cyprus and Syria, for tests; not the printed board, whose data could not be found.",
    "Attalia (gold only), Paphos (a site showing all three resources: the founder chooses) and "
    "Antiochia are the rulebook's founding example; everything else (the other regions, "
    "resources, borders, the neutral temple at Hierapolis, the nations and start lines for "
    "three nations only) was chosen here from real ancient geography.",
    "{projection}",
    "The start nation is a default; Antike II chooses it at random (new --first).",
]


# =====================================================================================
# building and checking
# =====================================================================================


def balance(provinces: list[dict]) -> str:
    counts = Counter(p["resource"] for p in provinces)
    parts = [f"{counts[r]} {r}" for r in RESOURCES if counts[r]]
    parts += [f"{counts[r]} {'choice site' if r == 'choice' else r}" for r in ("choice",) if counts[r]]
    return ", ".join(parts)


def build_board(*, board_id: str, name: str, width: int, height: int, projection: Projection, edge: int,
                min_apart: int, rows: list[tuple], land: str, sea: str, labels: dict, temples: tuple[str, ...],
                nations: dict, start_lines: dict, start_nation: dict, notes: list[str]) -> dict:
    """One board document, checked; AssertionError naming the first thing that is off."""
    ids = [row[0] for row in rows]
    known = set(ids)
    border = borders(ids, land, sea)

    def kind(pid: str) -> str:
        return kind_of(border, pid)

    assert set(temples) <= known, f"temples at unknown provinces {sorted(set(temples) - known)}"
    assert set(labels) <= known, f"labels for unknown provinces {sorted(set(labels) - known)}"
    provinces = []
    for pid, pname, resource, lon, lat in sorted(rows):
        assert resource in (*RESOURCES, "choice"), f"{pid}: resource {resource}"
        p = {"id": pid, "name": pname, "resource": resource, "kind": kind(pid), "xy": projection(lon, lat),
             "land": sorted(border[pid]["land"]), "sea": sorted(border[pid]["sea"])}
        if pid in labels:
            p["label"] = list(labels[pid])
        if pid in temples:
            assert resource in RESOURCES, f"neutral temple at {pid} needs a printed resource"
            p["temple"] = True
        provinces.append(p)
    by_id = {p["id"]: p for p in provinces}

    # every province reachable over land and sea; galleys can sail round the sea
    both = {pid: border[pid]["land"] | border[pid]["sea"] for pid in ids}
    assert connected(known, both), "land and sea borders do not join every province"
    waters = {pid for pid in ids if border[pid]["sea"]}
    assert connected(waters, {pid: border[pid]["sea"] for pid in ids}), \
        "the sea borders do not join every port and island"
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
    # nations, start lines: one marble, one iron, one gold city each; no city twice per
    # count; never a neutral temple's region
    lines_out = {}
    for count, in_play in nations.items():
        assert len(in_play) == int(count) and len(set(in_play)) == len(in_play), f"nations at {count}"
        assert set(in_play) <= set(NATION_IDS), f"unknown nations at {count}: {in_play}"
    assert sorted(start_lines) == sorted(nations), "start lines and nations name different counts"
    for count, lines in start_lines.items():
        assert sorted(lines) == sorted(nations[count]), f"start lines at {count} are not the nations in play"
        owner: dict[str, str] = {}
        lines_out[count] = {}
        for nation, cities in lines.items():
            assert sorted(by_id[c]["resource"] for c in cities) == sorted(RESOURCES), \
                f"start line of {nation} at {count} nations is not one marble, iron and gold city"
            for c in cities:
                assert c not in owner, f"{c} starts both {owner[c]} and {nation} at {count} nations"
                assert c not in temples, f"{c} is a neutral temple and a start city of {nation}"
                owner[c] = nation
            lines_out[count][nation] = sorted(cities, key=lambda c: RESOURCES.index(by_id[c]["resource"]))
    for count, nation in start_nation.items():
        assert nation in nations[count], f"start nation {nation} does not play at {count}"

    filled = {"count": len(provinces), "balance": balance(provinces), "projection": projection.note(width, height)}
    return {
        "$schema": "https://antike-ref.invalid/schemas/map.schema.json",
        "format": 1,
        "id": board_id,
        "name": name,
        "edition": "antike2",
        "reconstruction": True,
        "size": {"width": width, "height": height},
        "provinces": provinces,
        "nations": nations,
        "start_lines": lines_out,
        "start_nation": start_nation,
        "notes": [note.format(**filled) for note in notes],
    }


def _land(doc: dict, a: str, b: str) -> bool:
    return b in next(p for p in doc["provinces"] if p["id"] == a)["land"]


def _sea(doc: dict, a: str, b: str) -> bool:
    return b in next(p for p in doc["provinces"] if p["id"] == a)["sea"]


def check_mare_nostrum_examples(doc: dict) -> None:
    """The rulebook's worked examples must be playable exactly as written."""
    by_id = {p["id"]: p for p in doc["provinces"]}
    want = {"carthago": ("gold", "coastal"), "carales": ("marble", "sea_only"), "roma": ("iron", "coastal"),
            "neapolis": ("marble", "coastal"), "syracus": ("gold", None), "ancona": (None, "coastal"),
            "gesocribate": (None, "coastal"), "pella": (None, "coastal")}
    for pid, (resource, kind) in want.items():
        assert pid in by_id, f"the rulebook's {pid} is missing"
        assert resource is None or by_id[pid]["resource"] == resource, f"{pid} must be {resource}"
        assert kind is None or by_id[pid]["kind"] == kind, f"{pid} must be {kind}"
    assert by_id["syracus"]["sea"], "syracus must take a galley"
    for pid in ("carthago", "gesocribate"):
        assert by_id[pid]["land"], f"{pid} needs a land neighbour"
    # moving example (Carthago), conquest example (Gesocribate), moving and conquering (Pella)
    assert _sea(doc, "carthago", "carales")
    assert _land(doc, "dyrrhachion", "pella")
    for a, b in (("dyrrhachion", "sparta"), ("sparta", "athenae"), ("athenae", "pella")):
        assert _sea(doc, a, b), f"sea border {a}-{b} needed"
    for a, b in (("dyrrhachion", "athenae"), ("sparta", "pella")):
        assert not _sea(doc, a, b), f"no sea border {a}-{b} allowed"
    # producing, arming, temple examples: Roma, Neapolis, Syracus, Carthago, Carales one group
    group = {"roma", "neapolis", "syracus", "carthago", "carales"}
    step = {pid: (set(by_id[pid]["land"]) | set(by_id[pid]["sea"])) for pid in by_id}
    assert connected(group, step), "Roma, Neapolis, Syracus, Carthago, Carales are not adjacent as a group"
    temples = sorted(pid for pid, p in by_id.items() if p.get("temple"))
    assert len(temples) == 3 and "ancona" in temples, f"neutral temples {temples}"
    counts = Counter(p["resource"] for p in doc["provinces"])
    assert 44 <= len(by_id) <= 52, f"{len(by_id)} provinces"
    assert max(counts.values()) - min(counts.values()) <= 1, f"resources not balanced: {counts}"


def check_orient_examples(doc: dict) -> None:
    """The founding example: Attalia gold only, Paphos the founder's choice, Antiochia;
    none of them a start city (they are founded in the example)."""
    by_id = {p["id"]: p for p in doc["provinces"]}
    assert by_id["attalia"]["resource"] == "gold"
    assert by_id["paphos"]["resource"] == "choice"
    assert "antiochia" in by_id
    starts = {c for lines in doc["start_lines"].values() for cities in lines.values() for c in cities}
    assert not starts & {"attalia", "paphos", "antiochia"}
    assert 8 <= len(by_id) <= 14


def build_mare_nostrum() -> dict:
    doc = build_board(
        board_id="antike2-mare-nostrum", name="Antike II — Mare Nostrum, reconstruction",
        width=MN_WIDTH, height=MN_HEIGHT, projection=MN_PROJECTION, edge=MN_EDGE, min_apart=MN_MIN_APART,
        rows=MN_PROVINCES, land=MN_LAND, sea=MN_SEA, labels=MN_LABELS, temples=MN_TEMPLES,
        nations=MN_NATIONS, start_lines=MN_START_LINES, start_nation=MN_START_NATION, notes=MN_NOTES)
    check_mare_nostrum_examples(doc)
    return doc


def build_orient_excerpt() -> dict:
    doc = build_board(
        board_id="antike2-orient-excerpt", name="Antike II — Orient excerpt, reconstruction",
        width=OR_WIDTH, height=OR_HEIGHT, projection=OR_PROJECTION, edge=OR_EDGE, min_apart=OR_MIN_APART,
        rows=OR_PROVINCES, land=OR_LAND, sea=OR_SEA, labels=OR_LABELS, temples=OR_TEMPLES,
        nations=OR_NATIONS, start_lines=OR_START_LINES, start_nation=OR_START_NATION, notes=OR_NOTES)
    check_orient_examples(doc)
    return doc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the Mare Nostrum board file")
    ap.add_argument("--excerpt-out", type=Path, default=DEFAULT_EXCERPT_OUT, help="the Orient excerpt test board")
    ap.add_argument("--check", action="store_true", help="exit 1 if a file differs from what would be written")
    args = ap.parse_args()
    try:
        texts = [(args.out, render(build_mare_nostrum())), (args.excerpt_out, render(build_orient_excerpt()))]
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
