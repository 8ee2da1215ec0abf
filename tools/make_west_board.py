"""Write ``maps/antike-west.json``: a RECONSTRUCTED West (Roman Empire) side of the board.

The printed West board's data is not available; only one of its city names is known
(Castra Regina). This script holds a reconstruction chosen from real ancient geography:
50 cities of the Roman world, each placed at its longitude and latitude, with resources,
borders, start lines and start players balanced like the East side. A GM who owns the
game can enter the printed board with the map kit instead.

Offline, standard library only, deterministic: running it again writes the same bytes.
It checks the board before writing (resource counts, symmetric borders, kinds from the
borders, connectivity over land and sea and over sea alone, spacing of the cities, start
lines) and writes nothing if anything is off.

    python tools/make_west_board.py [--out FILE] [--check]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "maps" / "antike-west.json"

# -- projection ----------------------------------------------------------------------
# Simple equirectangular projection with standard parallel 42° N (Rome):
#   x = X_SCALE * (lon - LON_WEST),  y = Y_SCALE * (LAT_NORTH - lat),  rounded to pixels,
# so a degree of latitude is Y_SCALE pixels and a degree of longitude is cos(42°) of that.
WIDTH, HEIGHT = 1450, 900
LON_WEST, LAT_NORTH = -10.5, 51.1
Y_SCALE = 46.0
X_SCALE = Y_SCALE * math.cos(math.radians(42.0))

EDGE = 40
"""Every city keeps at least this many pixels from the picture's edge."""
MIN_APART = 55
"""Every two cities are at least this many pixels apart (room for the names)."""

# -- provinces -----------------------------------------------------------------------
# id, name, resource, longitude (E positive), latitude (N) of the ancient site.
PROVINCES = [
    # Hispania
    ("olisipo", "Olisipo", "gold", -9.14, 38.72),  # Lisbon
    ("gades", "Gades", "gold", -6.29, 36.53),  # Cádiz, Phoenician Gadir
    ("malaca", "Malaca", "iron", -4.42, 36.72),  # Málaga, Phoenician
    ("carthago_nova", "Carthago Nova", "gold", -0.98, 37.60),  # Cartagena, silver mines
    ("tarraco", "Tarraco", "marble", 1.25, 41.12),  # Tarragona
    ("toletum", "Toletum", "iron", -4.02, 39.86),  # Toledo, famed for its steel
    ("caesaraugusta", "Caesaraugusta", "marble", -0.88, 41.65),  # Zaragoza
    # Africa
    ("lixus", "Lixus", "marble", -6.11, 35.20),  # Larache, Phoenician
    ("volubilis", "Volubilis", "iron", -5.55, 34.07),  # Mauretania Tingitana
    ("iol_caesarea", "Iol Caesarea", "gold", 2.19, 36.60),  # Cherchell
    ("cirta", "Cirta", "marble", 6.61, 36.37),  # Constantine; Numidian marble
    ("carthago", "Carthago", "gold", 10.32, 36.85),
    ("sufetula", "Sufetula", "iron", 9.13, 35.26),  # Sbeitla, inland Africa Proconsularis
    ("leptis_magna", "Leptis Magna", "marble", 14.29, 32.64),
    ("cyrene", "Cyrene", "gold", 21.86, 32.82),
    # Gaul
    ("burdigala", "Burdigala", "iron", -0.58, 44.84),  # Bordeaux
    ("tolosa", "Tolosa", "gold", 1.44, 43.60),  # Toulouse; the gold of Tolosa
    ("massilia", "Massilia", "marble", 5.37, 43.30),  # Marseille
    ("lugdunum", "Lugdunum", "gold", 4.83, 45.76),  # Lyon, the Gallic mint
    ("lutetia", "Lutetia", "iron", 2.35, 48.86),  # Paris
    ("avaricum", "Avaricum", "iron", 2.40, 47.08),  # Bourges; iron works of the Bituriges
    # Germania, Raetia
    ("mogontiacum", "Mogontiacum", "marble", 8.27, 50.00),  # Mainz
    ("castra_regina", "Castra Regina", "iron", 12.10, 49.02),  # Regensburg (printed name)
    ("marobudum", "Marobudum", "gold", 14.40, 50.10),  # seat of the Marcomanni, Bohemia
    # Danube
    ("carnuntum", "Carnuntum", "gold", 16.88, 48.11),
    ("sirmium", "Sirmium", "marble", 19.61, 44.97),
    ("naissus", "Naissus", "iron", 21.90, 43.32),  # Niš
    ("philippopolis", "Philippopolis", "marble", 24.75, 42.15),  # Plovdiv, Thrace
    # Italia and the islands around it
    ("mediolanum", "Mediolanum", "iron", 9.19, 45.46),  # Milan
    ("pisae", "Pisae", "marble", 10.40, 43.72),  # near the marble of Luna (Carrara)
    ("ravenna", "Ravenna", "iron", 12.20, 44.42),
    ("aquileia", "Aquileia", "gold", 13.37, 45.77),
    ("roma", "Roma", "marble", 12.50, 41.90),
    ("neapolis", "Neapolis", "gold", 14.25, 40.85),
    ("brundisium", "Brundisium", "iron", 17.94, 40.63),
    ("syracusae", "Syracusae", "marble", 15.29, 37.08),
    ("panormus", "Panormus", "iron", 13.36, 38.12),  # Palermo, Phoenician
    ("caralis", "Caralis", "gold", 9.11, 39.22),  # Cagliari (Sardinia), Phoenician
    ("melita", "Melita", "iron", 14.40, 35.90),  # Malta, Phoenician
    # Illyricum and Greece
    ("salona", "Salona", "gold", 16.48, 43.53),  # Dalmatian gold
    ("dyrrhachium", "Dyrrhachium", "iron", 19.45, 41.32),  # Durrës
    ("pella", "Pella", "gold", 22.52, 40.76),  # Macedonian capital; gold of Mount Pangaion
    ("athenae", "Athenae", "marble", 23.73, 37.98),  # Pentelic marble
    ("sparta", "Sparta", "iron", 22.43, 37.07),  # Laconian iron
    ("gortyna", "Gortyna", "marble", 24.95, 35.06),  # Crete
    ("rhodos", "Rhodos", "gold", 28.22, 36.44),
    # Thrace and Asia
    ("byzantium", "Byzantium", "marble", 28.98, 41.01),  # Proconnesian marble nearby
    ("pergamon", "Pergamon", "marble", 27.18, 39.12),
    ("miletus", "Miletus", "gold", 27.28, 37.53),
    ("dorylaeum", "Dorylaeum", "iron", 30.53, 39.78),  # Phrygia
]

# Land (red) borders: the two provinces touch over land; legions cross.
LAND = """
olisipo gades | olisipo toletum | gades malaca | gades toletum | malaca toletum
malaca carthago_nova | carthago_nova toletum | carthago_nova caesaraugusta | carthago_nova tarraco
tarraco caesaraugusta | toletum caesaraugusta | caesaraugusta burdigala | caesaraugusta tolosa
tarraco tolosa
burdigala tolosa | burdigala lugdunum | burdigala avaricum | avaricum tolosa | tolosa massilia | tolosa lugdunum
massilia lugdunum | massilia pisae | massilia mediolanum | lugdunum lutetia | lugdunum mogontiacum
lugdunum mediolanum | lutetia avaricum | avaricum lugdunum | lutetia mogontiacum
mogontiacum castra_regina | mogontiacum marobudum | castra_regina marobudum | castra_regina carnuntum
castra_regina mediolanum | castra_regina aquileia | marobudum carnuntum
carnuntum aquileia | carnuntum sirmium | carnuntum salona | sirmium aquileia | sirmium salona | sirmium naissus
naissus salona | naissus dyrrhachium | naissus pella | naissus philippopolis
philippopolis pella | philippopolis byzantium
salona aquileia | salona dyrrhachium | dyrrhachium pella | dyrrhachium athenae
pella athenae | pella byzantium | athenae sparta
byzantium dorylaeum | byzantium pergamon | pergamon dorylaeum | pergamon miletus | miletus dorylaeum
mediolanum pisae | mediolanum ravenna | mediolanum aquileia | pisae ravenna | pisae roma
ravenna aquileia | ravenna roma | roma neapolis | roma brundisium | neapolis brundisium
syracusae panormus
lixus volubilis | volubilis iol_caesarea | iol_caesarea cirta | cirta carthago | cirta sufetula
carthago sufetula | sufetula leptis_magna | leptis_magna cyrene
"""

# Sea (blue) borders: one galley step along a coast, across a strait or to an island.
SEA = """
olisipo gades | olisipo burdigala | gades malaca | gades lixus | malaca lixus | malaca carthago_nova
carthago_nova tarraco | carthago_nova iol_caesarea | tarraco massilia | tarraco caralis
iol_caesarea caralis | iol_caesarea carthago | massilia pisae | massilia caralis | pisae caralis
pisae roma | caralis roma | caralis carthago | caralis panormus | roma neapolis
neapolis panormus | neapolis syracusae | panormus carthago | panormus syracusae | panormus melita
carthago melita | carthago leptis_magna | melita syracusae | melita leptis_magna
leptis_magna cyrene | syracusae brundisium | syracusae sparta | cyrene gortyna | cyrene sparta
ravenna aquileia | ravenna salona | ravenna brundisium | aquileia salona | salona dyrrhachium
salona brundisium | dyrrhachium brundisium | dyrrhachium sparta | sparta athenae | sparta gortyna
athenae gortyna | athenae pella | athenae miletus | gortyna rhodos | gortyna miletus
rhodos miletus | pella byzantium | pella pergamon | byzantium pergamon
pergamon miletus | pergamon athenae
"""

# Name labels moved away from a neighbour's (centre of the label, picture pixels), where
# the report would otherwise put a name far from its city in the crowded Aegean, Italy
# and Hispania. Picked against the report layout; `antike-ref map check` says if one of
# them comes to cover another name or city: move it, or drop it to have it placed again.
LABELS: dict[str, tuple[int, int]] = {
    "brundisium": (920, 442),
    "caesaraugusta": (329, 411),
    "castra_regina": (773, 72),
    "dorylaeum": (1403, 497),
    "dyrrhachium": (1072, 426),
    "gortyna": (1212, 714),
    "miletus": (1383, 624),
    "neapolis": (790, 448),
    "panormus": (812, 573),
    "pisae": (706, 315),
    "rhodos": (1324, 650),
    "sparta": (1094, 621),
    "tarraco": (418, 435),
}

# -- nations and start lines ---------------------------------------------------------
NATIONS = {
    "3": ["greeks", "romans", "germans"],
    "4": ["greeks", "romans", "germans", "phoenicians"],
    "5": ["greeks", "romans", "germans", "phoenicians", "carthaginians"],
    "6": ["greeks", "romans", "germans", "phoenicians", "carthaginians", "persians"],
}

# Each start line: the nation's marble, iron and gold city (any order here; written in
# that order). Fewer nations sit nearer the middle of the board.
START_LINES = {
    "3": {
        "greeks": ["athenae", "dyrrhachium", "pella"],
        "romans": ["roma", "ravenna", "neapolis"],
        "germans": ["mogontiacum", "castra_regina", "carnuntum"],
    },
    "4": {
        "greeks": ["athenae", "sparta", "pella"],
        "romans": ["roma", "ravenna", "neapolis"],
        "germans": ["mogontiacum", "castra_regina", "marobudum"],
        "phoenicians": ["cirta", "panormus", "carthago"],
    },
    "5": {
        "greeks": ["athenae", "sparta", "pella"],
        "romans": ["roma", "ravenna", "neapolis"],
        "germans": ["mogontiacum", "castra_regina", "marobudum"],
        "phoenicians": ["lixus", "malaca", "carthago_nova"],
        "carthaginians": ["cirta", "sufetula", "carthago"],
    },
    "6": {
        "greeks": ["athenae", "sparta", "pella"],
        "romans": ["pisae", "ravenna", "neapolis"],
        "germans": ["mogontiacum", "castra_regina", "marobudum"],
        "phoenicians": ["lixus", "malaca", "gades"],
        "carthaginians": ["cirta", "sufetula", "carthago"],
        "persians": ["pergamon", "dorylaeum", "miletus"],
    },
}

START_NATION = {"3": "greeks", "4": "phoenicians", "5": "greeks", "6": "greeks"}

PAIRINGS = {"4": [["romans", "phoenicians"], ["germans", "greeks"]]}

NOTES = [
    "This is a RECONSTRUCTION, not the printed West (Roman Empire) side of the board: of the "
    "printed board only one city name is known, Castra Regina.",
    "All other names, the city positions, resources, borders, start lines and start players "
    "were chosen here from real ancient geography and balanced like the East side: 50 "
    "provinces with 17 iron, 17 gold and 16 marble cities.",
    "xy is each city's longitude and latitude in a simple equirectangular projection "
    f"(standard parallel 42° N, {Y_SCALE:g} pixels per degree of latitude) on a "
    f"{WIDTH}x{HEIGHT} picture, origin top-left, y down.",
    "With four nations the Phoenicians start, as in the rulebook's example; with three, five "
    "and six nations the first nation of the list (the Greeks) starts, which is a choice of "
    "this reconstruction.",
    "A GM who owns the game can enter the printed board with the map kit "
    "(antike-ref map new --template west) and start games on it with new --board FILE.",
]

RESOURCES = ("marble", "iron", "gold")


def project(lon: float, lat: float) -> list[int]:
    """Picture pixels of a longitude and latitude."""
    return [round(X_SCALE * (lon - LON_WEST)), round(Y_SCALE * (LAT_NORTH - lat))]


def pairs(text: str) -> list[tuple[str, str]]:
    """The borders written as ``a b | c d`` pairs, one or more per line."""
    out = []
    for chunk in text.replace("\n", "|").split("|"):
        words = chunk.split()
        if words:
            assert len(words) == 2, f"a border needs two provinces: {chunk!r}"
            out.append((words[0], words[1]))
    return out


def connected(nodes: set[str], step: dict[str, set[str]]) -> bool:
    """Whether every node of ``nodes`` can be reached from every other along ``step``."""
    if not nodes:
        return True
    start = min(nodes)
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for nxt in step[here] & nodes:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen == nodes


def borders(ids: list[str], land: str, sea: str) -> dict[str, dict[str, set[str]]]:
    """Each province's neighbours across land and sea borders, from the ``a b | c d``
    notation; AssertionError on an unknown or repeated province, a border with itself or
    one listed twice."""
    assert len(ids) == len(set(ids)), "duplicate province id"
    known = set(ids)
    border: dict[str, dict[str, set[str]]] = {pid: {"land": set(), "sea": set()} for pid in ids}
    for layer, text in (("land", land), ("sea", sea)):
        seen_pairs = set()
        for a, b in pairs(text):
            assert a in known and b in known, f"unknown province in {layer} border {a} {b}"
            assert a != b, f"{a} borders itself"
            key = frozenset((a, b))
            assert key not in seen_pairs, f"{layer} border {a} {b} listed twice"
            seen_pairs.add(key)
            border[a][layer].add(b)
            border[b][layer].add(a)
    return border


def kind_of(border: dict[str, dict[str, set[str]]], pid: str) -> str:
    """``coastal``, ``land_only`` or ``sea_only``, as its borders say."""
    land, sea = bool(border[pid]["land"]), bool(border[pid]["sea"])
    assert land or sea, f"{pid} has no border"
    return "coastal" if land and sea else "land_only" if land else "sea_only"


def build() -> dict:
    """The board document; AssertionError naming the first thing that is off."""
    ids = [row[0] for row in PROVINCES]
    known = set(ids)
    border = borders(ids, LAND, SEA)

    def kind(pid: str) -> str:
        return kind_of(border, pid)

    provinces = []
    for pid, name, resource, lon, lat in sorted(PROVINCES):
        assert resource in RESOURCES, f"{pid}: resource {resource}"
        p = {"id": pid, "name": name, "resource": resource, "kind": kind(pid), "xy": project(lon, lat),
             "land": sorted(border[pid]["land"]), "sea": sorted(border[pid]["sea"])}
        if pid in LABELS:
            p["label"] = list(LABELS[pid])
        provinces.append(p)
    by_id = {p["id"]: p for p in provinces}

    # resources balanced like the East side
    counts = Counter(p["resource"] for p in provinces)
    assert counts == {"iron": 17, "gold": 17, "marble": 16}, counts
    # symmetric borders, kinds that follow from them
    for p in provinces:
        for layer in ("land", "sea"):
            for q in p[layer]:
                assert p["id"] in by_id[q][layer], f"{layer} border {p['id']} {q} is one-sided"
        assert p["kind"] == kind(p["id"])
    # every province reachable over land and sea; galleys can sail round the sea
    both = {pid: border[pid]["land"] | border[pid]["sea"] for pid in ids}
    assert connected(known, both), "land and sea borders do not join every province"
    waters = {pid for pid in ids if border[pid]["sea"]}
    sea_step = {pid: border[pid]["sea"] for pid in ids}
    assert connected(waters, sea_step), "the sea borders do not join every port and island"
    # positions inside the picture and apart from each other
    for p in provinces:
        x, y = p["xy"]
        assert EDGE <= x <= WIDTH - EDGE and EDGE <= y <= HEIGHT - EDGE, f"{p['id']} at {x},{y} is near the edge"
        for key in ("label",):
            if key in p:
                lx, ly = p[key]
                assert 0 <= lx < WIDTH and 0 <= ly < HEIGHT, f"{p['id']} label outside the picture"
    for i, p in enumerate(provinces):
        for q in provinces[i + 1:]:
            d = math.dist(p["xy"], q["xy"])
            assert d >= MIN_APART, f"{p['id']} and {q['id']} are only {d:.0f} px apart"
    assert "castra_regina" in by_id
    # start lines: one marble, one iron, one gold city each; no city twice per count
    start_lines = {}
    for count, lines in START_LINES.items():
        assert sorted(lines) == sorted(NATIONS[count]), f"start lines at {count} are not the nations in play"
        owner: dict[str, str] = {}
        start_lines[count] = {}
        for nation, cities in lines.items():
            assert sorted(by_id[c]["resource"] for c in cities) == sorted(RESOURCES), \
                f"start line of {nation} at {count} nations is not one marble, iron and gold city"
            for c in cities:
                assert c not in owner, f"{c} starts both {owner[c]} and {nation} at {count} nations"
                owner[c] = nation
            start_lines[count][nation] = sorted(cities, key=lambda c: RESOURCES.index(by_id[c]["resource"]))
    for count, nation in START_NATION.items():
        assert nation in NATIONS[count]
    for count, teams in PAIRINGS.items():
        assert sorted(n for team in teams for n in team) == sorted(NATIONS[count])

    return {
        "$schema": "https://antike-ref.invalid/schemas/map.schema.json",
        "format": 1,
        "id": "antike-west",
        "name": "Antike — West (Roman Empire), reconstruction",
        "edition": "antike",
        "reconstruction": True,
        "size": {"width": WIDTH, "height": HEIGHT},
        "provinces": provinces,
        "nations": NATIONS,
        "start_lines": start_lines,
        "start_nation": START_NATION,
        "pairings": PAIRINGS,
        "notes": NOTES,
    }


def render(doc: dict) -> str:
    """The file's text: the East board's layout (indent 1, sorted keys, UTF-8)."""
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true", help="exit 1 if the file differs from what would be written")
    args = ap.parse_args()
    try:
        text = render(build())
    except AssertionError as exc:
        print(f"not written: {exc}", file=sys.stderr)
        return 1
    if args.check:
        same = args.out.exists() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'up to date' if same else 'stale'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
