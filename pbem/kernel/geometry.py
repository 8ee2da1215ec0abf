"""Province outlines generated from city positions, for boards typed in without shapes.

A GM entering a printed board types names, resources, borders and positions; the outlines
are made here so that the board can be drawn at once. Each province gets its Voronoi cell
(every point of the picture closer to its city than to any other), so neighbours share an
exact edge and the report can colour that edge by the kind of border. Open water is made
by placing unnamed "sea" points wherever the picture is far from every city: their cells
are not drawn, so the sea shows through. Sea points are not placed near a land border's
line between two cities, nor inside a triangle of three provinces that border each other
over land, where there is land. Islands (sea-only provinces) are shrunk towards their city so that
water surrounds them.

Pure geometry: no file, no drawing; deterministic for the same input.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

Point = tuple[float, float]

ISLAND_SCALE = 0.55
"""How much of its cell an island keeps (towards its city)."""


def outlines(cities: Mapping[str, tuple[int, int]], width: int, height: int,
             islands: Mapping[str, bool] | None = None,
             land: Mapping[str, frozenset[str]] | None = None) -> dict[str, list[Point]]:
    """An outline (a closed polygon, no repeated first point) for every city in
    ``cities`` (id -> x, y on a ``width`` x ``height`` picture)."""
    ids = sorted(cities)
    if not ids:
        return {}
    sites = [(float(cities[i][0]), float(cities[i][1])) for i in ids]
    spacing = _typical_spacing(sites)
    seas = _sea_points(sites, ids, width, height, spacing, land or {})
    everyone = sites + seas
    frame = [(1.0, 1.0), (width - 1.0, 1.0), (width - 1.0, height - 1.0), (1.0, height - 1.0)]
    cells = {}
    for k, pid in enumerate(ids):
        cells[pid] = _cell(k, everyone, frame)
    snapped = _snap(cells)
    islands = islands or {}
    for k, pid in enumerate(ids):
        if islands.get(pid):
            cx, cy = sites[k]
            snapped[pid] = [(round(cx + (x - cx) * ISLAND_SCALE, 1), round(cy + (y - cy) * ISLAND_SCALE, 1))
                            for x, y in snapped[pid]]
    return snapped


def _typical_spacing(sites: list[Point]) -> float:
    """The median distance from a city to its nearest other city (60 for a lone city)."""
    if len(sites) < 2:
        return 60.0
    nearest = sorted(min(math.dist(a, b) for j, b in enumerate(sites) if j != i) for i, a in enumerate(sites))
    return nearest[len(nearest) // 2]


def _sea_points(sites: list[Point], ids: list[str], width: int, height: int, spacing: float,
                land: Mapping[str, frozenset[str]]) -> list[Point]:
    """Grid points farther than ``spacing`` from every city and not on a land border."""
    step = max(spacing * 0.6, 8.0)
    reach = spacing * 0.95
    where = dict(zip(ids, sites))
    pairs = {(a, b) for a in ids for b in land.get(a, ()) if a < b and b in where}
    segments = [(where[a], where[b]) for a, b in sorted(pairs)]
    # Three provinces that border each other over land enclose land, not sea.
    triangles = [(where[a], where[b], where[c]) for a, b in sorted(pairs) for c in ids
                 if b < c and (a, c) in pairs and (b, c) in pairs]
    found = []
    rows = int(height // step) + 1
    cols = int(width // step) + 1
    for r in range(rows + 1):
        for c in range(cols + 1):
            point = (min(c * step, width - 1.0), min(r * step, height - 1.0))
            if any(math.dist(point, s) < reach for s in sites):
                continue
            if any(_segment_distance(point, a, b) < spacing * 0.75 for a, b in segments):
                continue
            if any(_in_triangle(point, *corners) for corners in triangles):
                continue
            found.append(point)
    return found


def _in_triangle(p: Point, a: Point, b: Point, c: Point) -> bool:
    def side(u: Point, v: Point) -> float:
        return (v[0] - u[0]) * (p[1] - u[1]) - (v[1] - u[1]) * (p[0] - u[0])

    s1, s2, s3 = side(a, b), side(b, c), side(c, a)
    return (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0)


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _cell(k: int, sites: list[Point], frame: list[Point]) -> list[Point]:
    """The Voronoi cell of ``sites[k]`` within ``frame``, by clipping with the half-plane
    of every other site, nearest first, until no farther site can cut the cell."""
    p = sites[k]
    others = sorted((math.dist(p, q), j) for j, q in enumerate(sites) if j != k)
    poly = frame
    for distance, j in others:
        reach = max(math.dist(p, v) for v in poly)
        if distance > 2 * reach:
            break
        poly = _clip(poly, p, sites[j])
        if len(poly) < 3:
            break
    return poly


def _clip(poly: list[Point], p: Point, q: Point) -> list[Point]:
    """The part of ``poly`` at least as close to ``p`` as to ``q`` (Sutherland-Hodgman)."""
    nx, ny = q[0] - p[0], q[1] - p[1]
    limit = (nx * (p[0] + q[0]) + ny * (p[1] + q[1])) / 2

    def side(v: Point) -> float:
        return nx * v[0] + ny * v[1] - limit

    out: list[Point] = []
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        sa, sb = side(a), side(b)
        if sa <= 0:
            out.append(a)
        if (sa < 0 < sb) or (sb < 0 < sa):
            t = sa / (sa - sb)
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    return out


def _snap(cells: dict[str, list[Point]]) -> dict[str, list[Point]]:
    """Cells whose corners that are the same point (up to rounding) are the same tuple,
    rounded to 0.1 px, so that neighbours share their edges exactly."""
    grid: dict[tuple[int, int], list[Point]] = {}

    def canonical(v: Point) -> Point:
        gx, gy = int(v[0] // 0.5), int(v[1] // 0.5)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for rep in grid.get((gx + dx, gy + dy), ()):
                    if math.dist(rep, v) < 0.3:
                        return rep
        rep = (round(v[0], 1), round(v[1], 1))
        grid.setdefault((gx, gy), []).append(rep)
        return rep

    snapped = {}
    for pid in sorted(cells):
        ring: list[Point] = []
        for v in cells[pid]:
            rep = canonical(v)
            if not ring or ring[-1] != rep:
                ring.append(rep)
        while len(ring) > 1 and ring[0] == ring[-1]:
            ring.pop()
        snapped[pid] = ring
    return snapped
