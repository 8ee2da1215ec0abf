"""Turn the East-board source facts into the project's map file ``maps/antike-east.json``.

Offline and deterministic: the same source gives byte-identical output. The source
(``tools/sources/antike-east.facts.json``, see the README there) is facts only; this
script picks what the referee needs, renames to the map format, orders every start line
as [marble, iron, gold] city, checks the result with
:func:`pbem.service.boards.map_problems` and against the counts the source states, and
writes nothing if anything is off.

    python tools/import_east_board.py [--source FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run from a checkout without installing: make the ``pbem`` package next to us importable.
sys.path.insert(0, str(ROOT))

from pbem.kernel.vocab import RESOURCES  # noqa: E402
from pbem.service.boards import map_problems  # noqa: E402

DEFAULT_SOURCE = ROOT / "tools" / "sources" / "antike-east.facts.json"
DEFAULT_OUT = ROOT / "maps" / "antike-east.json"

NOTES = [
    "Names, resources, borders, start-city triples and city coordinates come from an "
    "unfinished open-source implementation of Antike (GitHub SniderThanYou/unteekuh, "
    "commit 4f25171, app/models/board.rb and the board view's coordinate table), checked "
    "against a picture of the printed board: all 50 resources match; the borders that "
    "were spot-checked match.",
    "Two slips in that source were corrected: a land neighbour of Theben spelled "
    "'mgerrhaemphis' is Memphis (the border is listed from Memphis too), and the start "
    "lines' 'athenae' is the province 'athen'.",
    "The source lists the start-city triples without nation names: the nation on each "
    "start line here is INFERRED from geography and from which nations play at each count. "
    "Verify against the printed nation cards; a GM can assign start cities explicitly when "
    "creating a game.",
    "Which nation starts (red dot on the nation cards) is not known for this board, except "
    "the rulebook's example (000 L282-287): with four nations the Phoenicians start. The "
    "rulebook does not say which board side that example is from.",
    "Two players play the 4-nation set (two nations each), so there is no '2' entry.",
    "xy is the city symbol in pixels on a 1152x799 picture of the printed board, origin "
    "top-left, y down.",
]


def convert(source: dict) -> dict:
    """The map-format document for the East board built from the source facts."""
    resource = {p["id"]: p["resource"] for p in source["provinces"]}
    counts = ("3", "4", "5", "6")
    return {
        "$schema": "https://antike-ref.invalid/schemas/map.schema.json",
        "format": 1,
        "id": "antike-east",
        "name": "Antike — East (Orient)",
        "edition": "antike",
        "size": {"width": source["coordinates"]["width"], "height": source["coordinates"]["height"]},
        "provinces": [
            {
                "id": p["id"],
                "name": p["name"],
                "resource": p["resource"],
                "kind": p["kind"],
                "xy": list(p["xy"]),
                "land": sorted(p["land_adjacent"]),
                "sea": sorted(p["sea_adjacent"]),
            }
            for p in sorted(source["provinces"], key=lambda p: p["id"])
        ],
        "nations": {n: list(source["nations_in_play"][n]) for n in counts},
        "start_lines": {
            n: {
                nation: sorted(cities, key=lambda c: RESOURCES.index(resource[c]))
                for nation, cities in source["start_cities"][n].items()
            }
            for n in counts
        },
        "start_nation": {"4": "phoenicians"},
        # 000 L176-181: "In the other theater (East), one manages the Persians and
        # Phoenicians, the other the Greeks and Arabs."
        "pairings": {"4": [["persians", "phoenicians"], ["greeks", "arabs"]]},
        "notes": NOTES,
    }


def summary_problems(board: dict, summary: dict) -> list[str]:
    """Where the converted board disagrees with the counts the source states."""
    provinces = board["provinces"]
    land = {frozenset((p["id"], q)) for p in provinces for q in p["land"]}
    sea = {frozenset((p["id"], q)) for p in provinces for q in p["sea"]}
    found = {
        "province_count": len(provinces),
        "resource_counts": dict(Counter(p["resource"] for p in provinces)),
        "kind_counts": dict(Counter(p["kind"] for p in provinces)),
        "land_border_pairs": len(land),
        "sea_border_pairs": len(sea),
        "pairs_with_both_land_and_sea_border": len(land & sea),
        "combined_neighbour_pairs": len(land | sea),
    }
    return [f"{key}: source says {summary[key]}, found {value}"
            for key, value in found.items() if summary.get(key) != value]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    with open(args.source, encoding="utf-8") as fh:
        source = json.load(fh)
    board = convert(source)
    if args.out.exists():
        # Province shapes are generated separately (tools/gen_shapes.py) and kept as they are.
        with open(args.out, encoding="utf-8") as fh:
            shapes = json.load(fh).get("shapes")
        if shapes:
            board["shapes"] = shapes
    problems = [str(p) for p in map_problems(board)] + summary_problems(board, source["summary"])
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 3
    text = json.dumps(board, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(board['provinces'])} provinces)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
