"""Where the board and everything on it goes: the board scaled into the page
(:func:`board_view`), the legend beside, under or on it, borders and sea links, and the
labels, badges and anchors of the provinces placed clear of each other
(:func:`board_places`)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.kernel.board import Board
from pbem.kernel.protocols import CityMark
from pbem.report.style import is_sea
from pbem.report.layout.base import (BOARD_ROOM, Box, CHIP_ROOM, HARBOUR_H, HARBOUR_W, HEADER, LABEL_GAP, LABEL_H,
                                     MARGIN, NAME_SIZE, NOTE_H, PILL_GAP, PILL_H, WIDTH, num, text_width)
from pbem.report.layout.legend import LEGEND_GAP, legend_extras, legend_layout


@dataclass(frozen=True, eq=False)
class View:
    """How a board is drawn on the page: scaled by ``scale`` into a ``w`` x ``h`` box whose
    top-left corner is at (``x``, ``y``) on the page. Everything on the board is placed in
    drawn coordinates (page coordinates less ``x``, ``y``): ``xy``, ``shapes`` and
    ``labels`` are the board's positions scaled."""

    scale: float
    x: float
    y: float
    w: float
    h: float
    legend: Box
    """The legend's box (drawn coordinates; beside or below the board when it is there)."""
    columns: int
    """The legend's layout (:data:`LEGEND_LAYOUTS`): 3 columns (on the board), 1 (beside
    it) or 5 (below it)."""
    note: tuple[float, float] | None
    """Where the reconstruction note ends (page coordinates, right-aligned), if one is needed."""
    bottom: float
    """The page y where the board, its legend and its note end: the panels come below."""
    xy: dict[str, tuple[float, float]]
    shapes: dict[str, list[tuple[float, float]]]
    labels: dict[str, tuple[float, float]]
    """The label centres the map file gives (``Province.label``), scaled."""
    extras: tuple[str | CityMark, ...] = ()
    """What the legend explains beyond the classic boards' marks (:func:`legend_extras`)."""

    @property
    def bounds(self) -> Box:
        """Where labels and anchors may go: the drawn board less a thin edge."""
        return (2, 2, self.w - 2, self.h - 2)


def model_marks(model: dict[str, Any]) -> tuple[CityMark, ...]:
    """The city marks of the game's edition a report's model lists (``game.city_marks``:
    :attr:`Phrases.city_marks <pbem.kernel.protocols.Phrases>`), for :func:`board_view`."""
    return tuple(CityMark(**m) for m in model["game"].get("city_marks", ()))


def _fit(width: float, height: float, room: float) -> tuple[float, float, float, float]:
    """Scale, left edge, width and height of a ``width`` x ``height`` picture drawn as large
    as fits the page's width and ``room`` in height, centred."""
    scale = min(WIDTH / width, room / height)
    if abs(scale - 1) < 1e-9:
        scale = 1.0
    w, h = width * scale, height * scale
    return scale, max(0.0, (WIDTH - w) / 2), w, h


@lru_cache(maxsize=16)
def board_view(board: Board, marks: tuple[CityMark, ...] = ()) -> View:
    """Where and how large ``board`` is drawn on the page, and where its legend goes, for
    games of an edition whose city marks (``marks``) the legend explains too.

    The picture is drawn as wide as the page but no taller than :data:`BOARD_ROOM` (less
    the reconstruction note's strip), keeping its aspect and centred when narrower. The
    legend goes beside the board where the page leaves room for it there (a tall board);
    else below the board in a strip if that costs little of the board's size
    (:data:`BELOW_COST`); else into the corner of the board that covers no city and the
    least land (:func:`_legend_on`: bottom left on the East board); else below the board,
    drawn smaller to leave room for it.
    """
    note = NOTE_H if board.reconstruction else 0
    sites = {pid: board.province(pid).xy for pid in sorted(board.provinces)}
    extras = legend_extras(board, marks)
    scale, x, w, h = _fit(board.width, board.height, BOARD_ROOM - note)
    lw, lh = legend_layout(5, len(extras))["size"]
    under = _fit(board.width, board.height, BOARD_ROOM - note - lh - LEGEND_GAP)
    placed = _legend_beside(x, h, len(extras))
    if placed is None and under[0] < scale * (1 - BELOW_COST):
        placed = _legend_on(w, h, [(px * scale, py * scale) for px, py in sites.values()],
                            [[(px * scale, py * scale) for px, py in ring] for ring in board.shapes.values()],
                            len(extras))
    below = placed is None
    if below:
        scale, x, w, h = under
        x0 = (WIDTH - lw) / 2 - x
        placed = ((x0, h + LEGEND_GAP, x0 + lw, h + LEGEND_GAP + lh), 5)
    end = placed[0][3] if below else h
    return View(
        scale=scale, x=x, y=HEADER, w=w, h=h, legend=placed[0], columns=placed[1],
        note=(x + w - 4, HEADER + end + 14) if note else None,
        bottom=HEADER + end + note,
        xy={pid: (px * scale, py * scale) for pid, (px, py) in sites.items()},
        shapes={pid: [(px * scale, py * scale) for px, py in ring] for pid, ring in board.shapes.items()},
        labels={pid: (p.label[0] * scale, p.label[1] * scale)
                for pid, p in sorted(board.provinces.items()) if p.label is not None},
        extras=extras,
    )


BELOW_COST = 0.05
"""The legend goes below the board, not on it, where that draws the board at most this
much smaller (a wide board leaves room below it anyway)."""
LAND_LIMIT = 0.35
"""The legend goes on the board only where it hides at most this share of land."""


def _legend_beside(x: float, h: float, extra: int = 0) -> tuple[Box, int] | None:
    """The legend in one column in the page's margin beside a narrow board drawn ``h`` high
    from page x ``x``, at the bottom, if the margin has room for it."""
    cw, ch = legend_layout(1, extra)["size"]
    if x >= cw + 2 * MARGIN and ch + 18 <= h:
        x0 = (x - cw) / 2 - x
        return (x0, h - 9 - ch, x0 + cw, h - 9), 1
    return None


def _legend_on(w: float, h: float, sites: list[tuple[float, float]],
               rings: list[list[tuple[float, float]]], extra: int = 0) -> tuple[Box, int] | None:
    """The legend's box and layout on a board drawn ``w`` x ``h`` with its cities at
    ``sites`` and provinces outlined by ``rings``: the corner (three columns, else one) that
    covers no city and the least land, if it covers no more than :data:`LAND_LIMIT` of it;
    the bottom left corner first when several cover as little (the East board's)."""
    markers = [marker_box(sx, sy) for sx, sy in sites]
    boxes = [(min(px for px, _ in r), min(py for _, py in r), max(px for px, _ in r), max(py for _, py in r))
             for r in rings]
    best = None
    for columns in (3, 1):
        lw, lh = legend_layout(columns, extra)["size"]
        if lw + 28 > w or lh + 18 > h:
            continue
        for x0, y0 in ((14, h - 9 - lh), (w - 14 - lw, h - 9 - lh), (14, 9), (w - 14 - lw, 9)):
            box = (x0, y0, x0 + lw, y0 + lh)
            if any(overlaps(box, m) for m in markers):
                continue
            points = [(x0 + lw * (i + 0.5) / 24, y0 + lh * (j + 0.5) / 8) for i in range(24) for j in range(8)]
            land = sum(1 for px, py in points
                       if any(b[0] <= px <= b[2] and b[1] <= py <= b[3] and _point_in_ring(px, py, r)
                              for b, r in zip(boxes, rings))) / len(points)
            if land <= LAND_LIMIT and (best is None or land < best[0]):
                best = (land, box, columns)
    return None if best is None else (best[1], best[2])


@lru_cache(maxsize=8)
def _board_geometry(board: Board, marks: tuple[CityMark, ...] = ()) -> dict[str, Any]:
    """What depends on the board alone: outlines, borders, links across water (drawn
    coordinates: the board's scaled by :func:`board_view`)."""
    view = board_view(board, marks)
    shapes = view.shapes
    pairs: dict[frozenset, list[tuple]] = {}
    owner: dict[frozenset, str] = {}
    for pid in sorted(shapes):
        ring = shapes[pid]
        for i, a in enumerate(ring):
            b = ring[(i + 1) % len(ring)]
            key = frozenset((a, b))
            other = owner.setdefault(key, pid)
            if other != pid:
                pairs.setdefault(frozenset((pid, other)), []).append((a, b))
    borders = []
    for pair in sorted(pairs, key=sorted):
        a, b = sorted(pair)
        kind = _kind(board, a, b)
        for chain in _chains(pairs[pair]):
            borders.append({"kind": kind, "d": "M" + " L".join(f"{num(x)},{num(y)}" for x, y in chain)})
    order = {"none": 0, "sea": 1, "land": 2, "both": 3}
    borders.sort(key=lambda br: order[br["kind"]])
    links = []
    for pid in sorted(board.provinces):
        p = board.province(pid)
        for q in sorted(p.land | p.sea):
            if pid < q and frozenset((pid, q)) not in pairs:
                links.append({"kind": _kind(board, pid, q), "d": _link_path(view.xy, pid, q)})
    outlines = {}
    for pid in sorted(board.provinces):
        if pid in shapes:
            outlines[pid] = "M" + " L".join(f"{num(x)},{num(y)}" for x, y in shapes[pid]) + " Z"
        else:
            x, y = view.xy[pid]
            outlines[pid] = f"M{num(x - 34)},{num(y)} a34,34 0 1,0 68,0 a34,34 0 1,0 -68,0 Z"
    return {"outlines": outlines, "borders": borders, "links": links}


def _kind(board: Board, a: str, b: str) -> str:
    p = board.province(a)
    land, sea = b in p.land, b in p.sea
    return "both" if land and sea else "land" if land else "sea" if sea else "none"


def _chains(edges: list[tuple]) -> list[list[tuple]]:
    """Join shared edges into polylines (deterministically)."""
    adj: dict[tuple, list[tuple]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for v in adj:
        adj[v].sort()
    used: set[frozenset] = set()
    chains = []
    ends = sorted(v for v in adj if len(adj[v]) != 2) or sorted(adj)[:1]
    for start in ends + sorted(adj):
        for nxt in adj[start]:
            if frozenset((start, nxt)) in used:
                continue
            chain = [start]
            here, step = start, nxt
            while True:
                used.add(frozenset((here, step)))
                chain.append(step)
                here = step
                options = [v for v in adj[here] if frozenset((here, v)) not in used]
                if len(adj[here]) != 2 or not options:
                    break
                step = options[0]
            chains.append(chain)
    return chains


def _link_path(sites: dict[str, tuple[float, float]], a: str, b: str) -> str:
    """A border between provinces whose outlines do not touch: a line between the cities
    (``sites``: where each is drawn), bent away from any third city it would pass over,
    kept clear of both city markers."""
    (x1, y1), (x2, y2) = sites[a], sites[b]
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    near = [sites[c] for c in sorted(sites) if c not in (a, b)
            and _segment_distance(sites[c], (x1, y1), (x2, y2)) < 26]
    bend = 0.0
    if near:
        best = None
        for sign in (1, -1):
            off = sign * 0.22 * length
            cx, cy = mx + px * off, my + py * off
            # distance from the third cities to the curve's middle point
            qx, qy = (mx + cx) / 2, (my + cy) / 2
            score = min(math.hypot(qx - x, qy - y) for x, y in near)
            if best is None or score > best[0]:
                best = (score, off)
        bend = best[1]
    clear = 16
    sx, sy = x1 + ux * clear, y1 + uy * clear
    ex, ey = x2 - ux * clear, y2 - uy * clear
    if not bend:
        return f"M{num(sx)},{num(sy)} L{num(ex)},{num(ey)}"
    cx, cy = mx + px * bend * 2, my + py * bend * 2
    return f"M{num(sx)},{num(sy)} Q{num(cx)},{num(cy)} {num(ex)},{num(ey)}"


def _segment_distance(p, a, b) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


LEADER_AT = 50
"""A label farther than this from its city gets a thin line to it (the usual places are
nearer); one that had to be put farther than its usual places, from 20 px on."""


def overlaps(a: Box, b: Box, pad: float = 0) -> bool:
    """Whether two boxes overlap (``pad``: how close they may come)."""
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def _inside(box: Box, outer: Box) -> bool:
    return box[0] >= outer[0] and box[1] >= outer[1] and box[2] <= outer[2] and box[3] <= outer[3]


def marker_box(x: float, y: float) -> Box:
    """What a city may show around its site: the city square, the temple on its right, the
    battle star on its left and up to two legion badges below it."""
    return (x - 22, y - 10, x + 26, y + 10 + 2 * PILL_H + PILL_GAP)


def label_box(name: str, x0: float, y0: float, chip: bool = True) -> Box:
    """The box of a label with its top-left corner at (``x0``, ``y0``): the resource chip
    (unless the province has no city site), then the name."""
    w = (CHIP_ROOM if chip else 0) + text_width(name, NAME_SIZE, bold=True) + 2
    return (x0, y0, x0 + w, y0 + LABEL_H)


def _label_candidates(w: float, h: float, x: float, y: float) -> list[tuple[float, float]]:
    """Where a ``w`` x ``h`` label of the city at (``x``, ``y``) may go (top-left corners),
    best first: above the city, then beside it, then further up or down."""
    above = y - 10 - h
    out = [(x - w / 2 + 2, above)]
    for shift in range(6, int(w / 2) + 12, 6):  # above, sliding right, then left
        out += [(x - w / 2 + 2 + shift, above), (x - w / 2 + 2 - shift, above)]
    out += [(x + 28, y - 9), (x - 24 - w, y - 9), (x + 28, y - 20), (x - 24 - w, y - 20)]
    for lift in (8, 16):
        out += [(x - w / 2 + 2, above - lift), (x - 10, above - lift), (x + 10 - w, above - lift)]
    out += [(x - w / 2, y + 48), (x + 28, y + 6), (x - 24 - w, y + 6)]
    return out


def _box_distance(box: Box, x: float, y: float) -> float:
    """How far the point (``x``, ``y``) is from ``box`` (0 inside)."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def _far_candidates(w: float, h: float, x: float, y: float) -> list[tuple[float, float]]:
    """More places for a label with no free place near its city: every spot on a grid of
    8 x 6 px up to 150 px away, nearest first (ties: above before below, left before right)."""
    out = []
    for i in range(-19, 20):
        for j in range(-25, 26):
            x0, y0 = x - w / 2 + 8 * i, y - h / 2 + 6 * j
            d = _box_distance((x0, y0, x0 + w, y0 + h), x, y)
            if d <= 150:
                out.append((round(d / 4), j, i, x0, y0))
    out.sort()
    return [(x0, y0) for *_, x0, y0 in out]


def _cost(box: Box, taken: list[Box]) -> float:
    """How much of what is already placed ``box`` covers (0: a free place)."""
    return sum((min(box[2], t[2]) - max(box[0], t[0])) * (min(box[3], t[3]) - max(box[1], t[1]))
               for t in taken if overlaps(box, t))


def _point_in_ring(px: float, py: float, ring) -> bool:
    inside = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _on_land(board: Board, px: float, py: float, boxes: dict[str, Box], marks: tuple[CityMark, ...] = ()) -> bool:
    """Whether the drawn point (``px``, ``py``) lies in a province (``boxes``: each
    outline's bounding box) that is not a sea region (:func:`~pbem.report.style.is_sea`:
    drawn as water)."""
    for pid, ring in board_view(board, marks).shapes.items():
        if is_sea(board.province(pid)):
            continue
        b = boxes[pid]
        if b[0] <= px <= b[2] and b[1] <= py <= b[3] and _point_in_ring(px, py, ring):
            return True
    return False


def _harbour(board: Board, pid: str, taken: list[Box], bounds: Box, shape_boxes: dict[str, Box],
             marks: tuple[CityMark, ...] = ()) -> tuple[tuple[float, float], Box]:
    """The nearest free spot of open water beside province ``pid``, looked for first in
    the direction of its sea neighbours (so that a port's galleys lie in the sea they sail)."""
    view = board_view(board, marks)
    p = board.province(pid)
    x, y = view.xy[pid]
    vx = sum(view.xy[q][0] - x for q in sorted(p.sea))
    vy = sum(view.xy[q][1] - y for q in sorted(p.sea))
    toward = math.degrees(math.atan2(vy, vx)) if (vx or vy) else 90.0
    ring = view.shapes.get(pid)
    hw, hh = HARBOUR_W / 2, HARBOUR_H / 2
    # open water beside the province; else open water near it; else any free spot
    for strict, wet in ((True, 1.0), (False, 1.0), (True, 0.5), (False, 0.5), (False, 0.01), (False, 0.0)):
        for radius in range(24, 140, 4):
            for step in range(25):
                ang = math.radians(toward + 15 * ((step + 1) // 2) * (1 if step % 2 else -1))
                hx, hy = x + radius * math.cos(ang), y + radius * math.sin(ang)
                box = (hx - hw, hy - hh, hx + hw, hy + hh)
                if not _inside(box, bounds) or any(overlaps(box, t, 2) for t in taken):
                    continue
                if strict and ring and min(_segment_distance((hx, hy), ring[i], ring[(i + 1) % len(ring)])
                                           for i in range(len(ring))) > hw + 8:
                    continue  # open water, but not beside this province
                # the badge in the water (at 0.5: its middle half, touching the coast)
                points = [(hx + sx * hw * wet, hy + sy * hh * wet) for sx in (-1, 1) for sy in (-1, 1)] + [(hx, hy)]
                if wet and any(_on_land(board, cx, cy, shape_boxes, marks) for cx, cy in points):
                    continue
                return (hx, hy), box
    return (x, y + 30), (x - hw, y + 30 - hh, x + hw, y + 30 + hh)


@lru_cache(maxsize=16)
def board_places(board: Board, marks: tuple[CityMark, ...] = ()) -> dict[str, Any]:
    """Where each province's label and (for a port) its anchor go, whatever the game's state
    (drawn coordinates, :func:`board_view`).

    Anchors first: each port (a province galleys may enter) gets the nearest free spot
    of open water around its city, where its galleys are drawn. Then the labels: where the
    map file gives a label's centre (``Province.label``), there; every other label at the
    first of its candidate places (:func:`_label_candidates`) that covers no other label,
    no city with its badges (:func:`marker_box`), no anchor and not the legend; if none is
    free, at the nearest free spot farther away (:func:`_far_candidates`, and a line to its
    city is drawn); if there is none either, where it covers least. Placed once per board,
    in province-id order (labels: longest name first), so the result never varies.
    ``marks``: the city marks of the game's edition (:func:`board_view`).
    """
    view = board_view(board, marks)
    bounds = view.bounds
    shape_boxes = {pid: (min(x for x, _ in ring), min(y for _, y in ring), max(x for x, _ in ring),
                         max(y for _, y in ring)) for pid, ring in view.shapes.items()}
    sites = view.xy
    markers = {pid: marker_box(x, y) for pid, (x, y) in sites.items()}
    taken: list[Box] = [view.legend, *markers.values()]
    labels: dict[str, Box] = {}
    far: set[str] = set()

    def size(pid: str) -> tuple[float, float]:
        p = board.province(pid)
        return (CHIP_ROOM if p.resource != "none" else 0) + text_width(p.name, NAME_SIZE, bold=True) + 2, LABEL_H

    def keep(box: Box) -> None:
        taken.append((box[0] - LABEL_GAP, box[1] - 1, box[2] + LABEL_GAP, box[3] + 1))

    for pid, (lx, ly) in view.labels.items():  # where the map says, kept inside the picture
        w, h = size(pid)
        x0 = max(min(lx - w / 2, bounds[2] - w), bounds[0])
        y0 = max(min(ly - h / 2, bounds[3] - h), bounds[1])
        labels[pid] = (x0, y0, x0 + w, y0 + h)
        keep(labels[pid])
    harbours: dict[str, tuple[float, float]] = {}
    for pid in sorted(board.provinces):
        p = board.province(pid)
        if p.land_only or is_sea(p):  # a sea region's galleys lie at its own mark
            continue
        harbours[pid], box = _harbour(board, pid, taken, bounds, shape_boxes, marks)
        taken.append(box)
    for pid in sorted(board.provinces, key=lambda q: (-len(board.province(q).name), q)):
        if pid in labels:
            continue
        x, y = sites[pid]
        w, h = size(pid)
        best = _label_spot(w, h, x, y, taken, bounds)
        labels[pid] = best[1]
        if best[2]:
            far.add(pid)
        keep(best[1])
    return {"labels": labels, "harbours": harbours, "markers": markers, "far": far}


def _label_spot(w: float, h: float, x: float, y: float, taken: list[Box],
                bounds: Box) -> tuple[float, Box, bool]:
    """Where a ``w`` x ``h`` label of the city at (``x``, ``y``) goes: its cost (how much it
    covers of ``taken``), its box, and whether it is far from the city (a line is drawn to
    it). The first free candidate near the city, else the first free one farther away,
    else the one covering least; above the city at the left edge when none fits at all."""
    best = None
    for further in (False, True):
        if further:
            reach = (x - w - 160, y - h - 160, x + w + 160, y + h + 160)
            near = [t for t in taken if overlaps(t, reach)]
            candidates = _far_candidates(w, h, x, y)
        else:
            near, candidates = taken, _label_candidates(w, h, x, y)
        for x0, y0 in candidates:
            box = (x0, y0, x0 + w, y0 + h)
            if not _inside(box, bounds):
                continue
            cost = _cost(box, near)
            if best is None or cost < best[0]:
                best = (cost, box, further)
            if cost == 0:
                break
        if best is not None and best[0] == 0:
            break
    if best is None:  # a label wider than the board
        best = (0, (bounds[0], y - 10 - h, bounds[0] + w, y - 10), False)
    return best


def _leader(box: Box, x: float, y: float, far: bool) -> str | None:
    """A thin line from the city at (``x``, ``y``) to its label, when the label is far
    (``far``: it was put farther than its usual places)."""
    if _box_distance(box, x, y) <= (20 if far else LEADER_AT):
        return None
    ex, ey = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    length = math.hypot(ex - x, ey - y)
    sx, sy = x + (ex - x) * 10 / length, y + (ey - y) * 10 / length
    return f"M{num(sx)},{num(sy)} L{num(ex)},{num(ey)}"
