"""Generate province outlines for a board file from the city coordinates (run offline).

    python tools/gen_shapes.py maps/antike-east.json          # rewrite the file's "shapes"
    python tools/gen_shapes.py maps/antike-east.json --check  # exit 1 if they are stale

Pure Python, deterministic. Each province gets its Voronoi cell among the cities, clipped
to the picture and to a disc around its city, so that open sea shows between distant
coasts. Water is made explicit by invisible "sea sites": one halfway along every sea-only
border (two provinces linked by galleys but not by legions), which pushes the two cells
apart. Islands (sea-only provinces) get a small disc.

The cells are then made into one clean planar subdivision: vertices closer than a pixel
are merged, every vertex lying on a neighbour's edge is inserted into that edge, and all
coordinates are integers. So two provinces that touch share exactly the same vertex pairs,
and the renderer finds a shared border by looking up an edge, with no geometry at run time.

Only the ``shapes`` key is written; the board's sha256 ignores it (pbem/board.py), so games
on the board stay valid. The rest of the file keeps its formatting.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from bisect import bisect_left, bisect_right
from pathlib import Path

Point = tuple[float, float]

DISC_SIDES = 40
"""Sides of the polygon that stands in for a city's disc."""
ISLAND_RADIUS = 46.0
LAND_RADIUS_MIN = 400.0
LAND_RADIUS_MAX = 400.0
LAND_RADIUS_FACTOR = 0.62
"""A city's disc: this share of the distance to its farthest neighbour, within the bounds."""
MARGIN = 6.0
"""Cells keep this far from the picture's edge."""
SNAP = 1.5
"""Vertices of different cells closer than this (pixels) become one."""
CORRIDOR_STEP = 14.0
"""Spacing of the sites along a border line."""
CORRIDOR_RADIUS = 400.0
"""How far a border-line site reaches: the neck between two provinces."""
CITY_CLEARANCE = 30.0
"""Border-line sites keep this far from other cities."""
OCEAN_GRID = 20
OCEAN_DISTANCE = 95.0
"""Open water wherever a point of this grid is this far from every city and border line."""
SEA_SPAN = (0.3, 0.7)
"""The stretch of a sea-only border line that is open water."""


def clip(poly: list[Point], a: Point, n: Point, c: float) -> list[Point]:
    """The part of convex ``poly`` where ``n · p <= c`` (Sutherland-Hodgman, one edge)."""
    out: list[Point] = []
    count = len(poly)
    for i in range(count):
        p, q = poly[i], poly[(i + 1) % count]
        dp = n[0] * p[0] + n[1] * p[1] - c
        dq = n[0] * q[0] + n[1] * q[1] - c
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def cell(site: Point, others: list[Point], box: list[Point], radius: float) -> list[Point]:
    """Voronoi cell of ``site`` among ``others`` within ``box``, cut to a disc of ``radius``."""
    poly = list(box)
    for k in range(DISC_SIDES):
        ang = 2 * math.pi * (k + 0.5) / DISC_SIDES
        n = (math.cos(ang), math.sin(ang))
        # an edge of the disc polygon lies at distance ``radius`` from the site
        poly = clip(poly, site, n, n[0] * site[0] + n[1] * site[1] + radius)
    for o in sorted(others, key=lambda o: (math.dist(site, o), o)):
        reach = max(math.dist(site, v) for v in poly) if poly else 0.0
        if math.dist(site, o) > 2 * reach:
            break  # no farther site can cut the cell
        n = (o[0] - site[0], o[1] - site[1])
        mid = ((o[0] + site[0]) / 2, (o[1] + site[1]) / 2)
        poly = clip(poly, site, n, n[0] * mid[0] + n[1] * mid[1])
        if not poly:
            break
    return poly


def _radius(p: dict, xy: dict[str, tuple]) -> float:
    if p["kind"] == "sea_only":
        return ISLAND_RADIUS
    far = max(math.dist(xy[p["id"]], xy[q]) for q in set(p["land"]) | set(p["sea"]))
    return min(LAND_RADIUS_MAX, max(LAND_RADIUS_MIN, LAND_RADIUS_FACTOR * far))


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def sites(data: dict) -> list[tuple[Point, str | None, float]]:
    """Every Voronoi site as (point, province or None for water, disc radius).

    Cities; then points along each land border, the nearer half given to each side, so the
    two provinces meet on the line between their cities; then water along the middle of
    each sea-only border. Points too close to a third city are left out.
    """
    provinces = sorted(data["provinces"], key=lambda p: p["id"])
    xy = {p["id"]: (float(p["xy"][0]), float(p["xy"][1])) for p in provinces}
    out: list[tuple[Point, str | None, float]] = [(xy[p["id"]], p["id"], _radius(p, xy)) for p in provinces]
    for p in provinces:
        for q in sorted(set(p["land"]) | set(p["sea"])):
            if q <= p["id"]:
                continue
            a, b = xy[p["id"]], xy[q]
            land = q in p["land"]
            steps = max(2, int(math.dist(a, b) // CORRIDOR_STEP))
            for k in range(1, steps):
                t = k / steps
                if not land and not SEA_SPAN[0] <= t <= SEA_SPAN[1]:
                    continue
                pt = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
                if any(math.dist(pt, xy[r]) < CITY_CLEARANCE for r in xy if r not in (p["id"], q)):
                    continue
                if land:
                    out.append((pt, p["id"] if t < 0.5 else q, CORRIDOR_RADIUS))
                else:
                    out.append((pt, None, 0.0))
    land_points = [s[0] for s in out if s[1] is not None]
    width, height = data["size"]["width"], data["size"]["height"]
    for gy in range(0, height + OCEAN_GRID, OCEAN_GRID):
        for gx in range(0, width + OCEAN_GRID, OCEAN_GRID):
            pt = (float(gx), float(gy))
            if min(math.dist(pt, c) for c in land_points) > OCEAN_DISTANCE:
                out.append((pt, None, 0.0))
    return out


def raw_cells(data: dict) -> list[tuple[str | None, list[Point]]]:
    """(province or None, convex cell) for every site."""
    width, height = data["size"]["width"], data["size"]["height"]
    box = [(MARGIN, MARGIN), (width - MARGIN, MARGIN), (width - MARGIN, height - MARGIN),
           (MARGIN, height - MARGIN)]
    all_sites = sites(data)
    points = [s[0] for s in all_sites]
    out = []
    for i, (site, label, radius) in enumerate(all_sites):
        if label is None:
            continue
        others = points[:i] + points[i + 1:]
        poly = cell(site, others, box, radius)
        if len(poly) >= 3:
            out.append((label, poly))
    return out


def _snap(cells: list[list[Point]]) -> list[list[tuple[int, int]]]:
    """Merge vertices closer than :data:`SNAP` into one integer point."""
    points = sorted({v for poly in cells for v in poly})
    parent = list(range(len(points)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for k, p in enumerate(points):
        for j in range(k + 1, len(points)):
            if points[j][0] - p[0] > SNAP:
                break
            if math.dist(p, points[j]) < SNAP:
                parent[find(j)] = find(k)
    groups: dict[int, list[Point]] = {}
    for i, p in enumerate(points):
        groups.setdefault(find(i), []).append(p)
    where = {}
    for members in groups.values():
        x = round(sum(p[0] for p in members) / len(members))
        y = round(sum(p[1] for p in members) / len(members))
        for p in members:
            where[p] = (x, y)
    return [_clean([where[v] for v in poly]) for poly in cells]


def _clean(ring: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``ring`` without repeated consecutive points."""
    out: list[tuple[int, int]] = []
    for v in ring:
        if not out or out[-1] != v:
            out.append(v)
    while len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def _on_segment(v: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> float | None:
    """Position (0..1) of ``v`` along ``a``-``b`` if it lies on it (within SNAP), else None."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0 or v in (a, b):
        return None
    t = ((v[0] - a[0]) * dx + (v[1] - a[1]) * dy) / length2
    if not 0 < t < 1:
        return None
    px, py = a[0] + t * dx, a[1] + t * dy
    return t if math.hypot(v[0] - px, v[1] - py) < SNAP else None


def _insert_t_junctions(rings: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """Put every vertex that lies on another cell's edge into that edge too."""
    every = sorted({v for ring in rings for v in ring})
    xs = [v[0] for v in every]
    out = []
    for ring in rings:
        new: list[tuple[int, int]] = []
        for i, a in enumerate(ring):
            b = ring[(i + 1) % len(ring)]
            new.append(a)
            lo_y, hi_y = min(a[1], b[1]) - SNAP, max(a[1], b[1]) + SNAP
            inner = []
            for k in range(bisect_left(xs, min(a[0], b[0]) - SNAP), bisect_right(xs, max(a[0], b[0]) + SNAP)):
                v = every[k]
                if lo_y <= v[1] <= hi_y:
                    t = _on_segment(v, a, b)
                    if t is not None:
                        inner.append((t, v))
            new.extend(v for _, v in sorted(inner))
        out.append(_clean(new))
    return out


def _area(ring: list[tuple[int, int]]) -> float:
    return sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(ring, ring[1:] + ring[:1])) / 2


def _union(labels: list[str], rings: list[list[tuple[int, int]]]) -> tuple[dict[str, list[tuple[int, int]]], list[str]]:
    """Each province's outline: the edges of its cells that no other cell of it shares.

    Returns the outlines and a note for every province whose cells did not form one ring
    (only the largest ring is kept then).
    """
    edges: dict[str, set[tuple]] = {}
    for label, ring in zip(labels, rings):
        for i, a in enumerate(ring):
            edges.setdefault(label, set()).add((a, ring[(i + 1) % len(ring)]))
    out, notes = {}, []
    for label in sorted(edges):
        own = edges[label]
        outer = {e for e in own if (e[1], e[0]) not in own}
        nxt: dict[tuple, list[tuple]] = {}
        for a, b in sorted(outer):
            nxt.setdefault(a, []).append(b)
        found = []
        while nxt:
            start = min(nxt)
            ring = [start]
            here = start
            while True:
                b = nxt[here].pop(0)
                if not nxt[here]:
                    del nxt[here]
                if b == start:
                    break
                ring.append(b)
                here = b
                if here not in nxt:
                    break
            found.append(ring)
        found.sort(key=lambda r: -abs(_area(r)))
        if len(found) != 1:
            notes.append(f"{label}: {len(found)} rings, kept the largest")
        out[label] = found[0]
    return out, notes


def _simplify(shapes_: dict[str, list[tuple[int, int]]]) -> dict[str, list[tuple[int, int]]]:
    """Drop a province's own vertices that lie on the line through their neighbours."""
    users: dict[tuple[int, int], int] = {}
    for ring in shapes_.values():
        for v in set(ring):
            users[v] = users.get(v, 0) + 1
    out = {}
    for pid, ring in shapes_.items():
        keep = list(ring)
        changed = True
        while changed and len(keep) > 3:
            changed = False
            for i in range(len(keep)):
                a, v, b = keep[i - 1], keep[i], keep[(i + 1) % len(keep)]
                if users[v] > 1:
                    continue
                cross = (v[0] - a[0]) * (b[1] - a[1]) - (v[1] - a[1]) * (b[0] - a[0])
                if abs(cross) <= 0.75 * math.dist(a, b):
                    del keep[i]
                    changed = True
                    break
        out[pid] = keep
    return out


NOTES: list[str] = []
"""What the last :func:`shapes` call had to work around, for the maintainer."""


def shapes(data: dict) -> dict[str, list[list[int]]]:
    """The ``shapes`` value for map data: integer polygons, keys sorted."""
    cells = raw_cells(data)
    labels = [label for label, _ in cells]
    rings = [poly for _, poly in cells]
    while True:  # rounding can bring points of different groups within SNAP again
        snapped = _snap(rings)
        if snapped == rings:
            break
        rings = snapped
    rings = _insert_t_junctions(rings)
    outlines, notes = _union(labels, rings)
    NOTES[:] = notes
    outlines = _simplify(outlines)
    return {pid: [[x, y] for x, y in ring] for pid, ring in sorted(outlines.items())}


def shared_edges(shapes_: dict[str, list[list[int]]]) -> dict[frozenset, list[tuple]]:
    """Province pair -> edges they share (for the report and for :func:`problems`)."""
    owner: dict[frozenset, str] = {}
    out: dict[frozenset, list[tuple]] = {}
    for pid, ring in sorted(shapes_.items()):
        for i, a in enumerate(ring):
            b = ring[(i + 1) % len(ring)]
            key = frozenset((tuple(a), tuple(b)))
            other = owner.get(key)
            if other is None:
                owner[key] = pid
            elif other != pid:
                out.setdefault(frozenset((pid, other)), []).append((tuple(a), tuple(b)))
    return out


def summary(data: dict, shapes_: dict) -> str:
    """How many borders of the graph are drawn on a shared outline, for the maintainer."""
    shared = shared_edges(shapes_)
    land = sea = touching = 0
    for p in data["provinces"]:
        for q in set(p["land"]) | set(p["sea"]):
            if p["id"] < q:
                if frozenset((p["id"], q)) in shared:
                    touching += 1
                elif q in p["land"]:
                    land += 1
                else:
                    sea += 1
    silent = sum(1 for pair in shared if not any(
        q in p["land"] or q in p["sea"] for p in data["provinces"] if p["id"] in pair for q in pair))
    return (f"{len(shapes_)} shapes; {touching} borders on a shared outline, {land} land and "
            f"{sea} sea borders drawn as links across a gap; {silent} outlines shared without a border")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("map", type=Path)
    ap.add_argument("--check", action="store_true", help="only report whether the file is up to date")
    args = ap.parse_args(argv)
    text = args.map.read_text(encoding="utf-8")
    data = json.loads(text)
    new = shapes(data)
    print(summary(data, new), file=sys.stderr)
    if args.check:
        if data.get("shapes") != new:
            print(f"{args.map}: shapes are stale; run tools/gen_shapes.py {args.map}", file=sys.stderr)
            return 1
        return 0
    data["shapes"] = new
    out = json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    if out != text:
        args.map.write_text(out, encoding="utf-8")
        print(f"wrote {args.map}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
