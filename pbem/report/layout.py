"""Where everything goes on the SVG report: board shapes, labels, arrows, panels, pages.

The SVG templates only print what this module placed, so the arithmetic lives in one
tested place. Coordinates are SVG user units (the board picture's pixels); every number
reaches the templates as a short decimal string (:func:`num`), so the output is stable
across platforms. Text widths come from DejaVu Sans metrics (the only font the reports
name), which lets long names be cut and log lines be wrapped before rendering.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from pbem.kernel.board import Board
from pbem.report.model import RESOURCE_COLOURS, ink_for

WIDTH = 1152
HEIGHT = 1629
"""The board page: 1152 wide (the board picture) and A4 portrait in shape (1 : √2)."""
HEADER = 50
MARGIN = 12
FONT = "DejaVu Sans"
HEAD_SIZE = 12.5
"""The font size of table headers (``.head`` in the SVG templates)."""

SEA = "#cfe2ef"
LAND = "#f1e8cf"
INK = "#222222"
BORDER_COLOURS = {"land": "#b3362b", "sea": "#1f5fa8", "none": "#8c8577"}

# DejaVu Sans advance widths (1/1000 em) for ASCII 32-126, regular and bold.
_REGULAR = (318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636,
            636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698,
            770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732,
            684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635,
            634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592,
            525, 636, 337, 636, 838)
_BOLD = (348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696,
         696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734,
         830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812,
         774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716,
         712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652,
         582, 712, 365, 712, 838)


def num(v: float) -> str:
    """A coordinate as a short, platform-independent decimal string."""
    r = round(v, 1)
    if r == int(r):
        return str(int(r))
    return f"{r:.1f}"


def text_width(text: str, size: float, bold: bool = False) -> float:
    table = _BOLD if bold else _REGULAR
    units = sum(table[ord(c) - 32] if 32 <= ord(c) < 127 else 1000 for c in text)
    return units * size / 1000


def fit(text: str, size: float, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` wide."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap to ``width``; a word longer than a line is cut."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if text_width(trial, size, bold) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = word if text_width(word, size, bold) <= width else fit(word, size, width, bold)
    if line:
        lines.append(line)
    return lines or [""]


def tint(colour: str, share: float) -> str:
    """``colour`` mixed with white; ``share`` is how much white."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * share):02x}" for c in rgb)


def _pts(points) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in points)



@lru_cache(maxsize=8)
def _board_geometry(board: Board) -> dict[str, Any]:
    """What depends on the board alone: outlines, borders, links across water."""
    shapes = board.shapes
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
                links.append({"kind": _kind(board, pid, q), "d": _link_path(board, pid, q)})
    outlines = {}
    for pid in sorted(board.provinces):
        if pid in shapes:
            outlines[pid] = "M" + " L".join(f"{num(x)},{num(y)}" for x, y in shapes[pid]) + " Z"
        else:
            x, y = board.province(pid).xy
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


def _link_path(board: Board, a: str, b: str) -> str:
    """A border between provinces whose outlines do not touch: a line between the cities,
    bent away from any third city it would pass over, kept clear of both city markers."""
    (x1, y1), (x2, y2) = board.province(a).xy, board.province(b).xy
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    px, py = -uy, ux
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    near = [board.province(c).xy for c in sorted(board.provinces) if c not in (a, b)
            and _segment_distance(board.province(c).xy, (x1, y1), (x2, y2)) < 26]
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


NAME_SIZE = 14
UNIT_SIZE = 12
RESOURCE_LETTERS = {"marble": "M", "iron": "I", "gold": "G"}


def _pill_text(u: dict[str, Any]) -> str:
    parts = []
    if u["legion"]:
        parts.append(f"{u['legion']}L")
    if u["galley"]:
        parts.append(f"{u['galley']}G")
    return " ".join(parts)


def _temple(x: float, y: float) -> dict[str, str]:
    """A small temple: pediment over a base, 14 wide, centred on (x, y)."""
    roof = [(x - 8, y - 3), (x, y - 9), (x + 8, y - 3)]
    return {"roof": _pts(roof), "x": num(x - 7), "y": num(y - 3), "w": "14", "h": "10",
            "cols": [num(x - 3.5), num(x), num(x + 3.5)], "y1": num(y - 3), "y2": num(y + 7)}


Box = tuple[float, float, float, float]
"""An axis-parallel box: left, top, right, bottom (board coordinates)."""

LABEL_H = 17
LABEL_GAP = 5
"""Labels keep at least this far apart side by side (names must not run into each other)."""
CHIP_ROOM = 16
"""A label is the resource chip, then the name: the chip takes this much before the name."""
PILL_H = 17
PILL_GAP = 2
HARBOUR_W, HARBOUR_H = 34, 18
"""Room kept free at a port's anchor: a galley badge (``Ph 2G``) sits there."""
SEA_ONLY_INK = "#1f5fa8"
"""Names of sea-only provinces (galleys only) are printed in the sea borders' blue."""
LEGEND_BOX: Box = (14, 644, 614, 790)


def overlaps(a: Box, b: Box, pad: float = 0) -> bool:
    """Whether two boxes overlap (``pad``: how close they may come)."""
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def _inside(box: Box, outer: Box) -> bool:
    return box[0] >= outer[0] and box[1] >= outer[1] and box[2] <= outer[2] and box[3] <= outer[3]


def marker_box(x: float, y: float) -> Box:
    """What a city may show around its site: the city square, the temple on its right, the
    battle star on its left and up to two legion badges below it."""
    return (x - 22, y - 10, x + 26, y + 10 + 2 * PILL_H + PILL_GAP)


def label_box(name: str, x0: float, y0: float) -> Box:
    return (x0, y0, x0 + CHIP_ROOM + text_width(name, NAME_SIZE, bold=True) + 2, y0 + LABEL_H)


def _label_candidates(name: str, x: float, y: float) -> list[tuple[float, float]]:
    """Where a province's label may go (top-left corners), best first: above the city,
    then beside it, then further up or down."""
    w = CHIP_ROOM + text_width(name, NAME_SIZE, bold=True) + 2
    above = y - 10 - LABEL_H
    out = [(x - w / 2 + 2, above)]
    for shift in range(6, int(w / 2) + 12, 6):  # above, sliding right, then left
        out += [(x - w / 2 + 2 + shift, above), (x - w / 2 + 2 - shift, above)]
    out += [(x + 28, y - 9), (x - 24 - w, y - 9), (x + 28, y - 20), (x - 24 - w, y - 20)]
    for lift in (8, 16):
        out += [(x - w / 2 + 2, above - lift), (x - 10, above - lift), (x + 10 - w, above - lift)]
    out += [(x - w / 2, y + 48), (x + 28, y + 6), (x - 24 - w, y + 6)]
    return out


def _point_in_ring(px: float, py: float, ring) -> bool:
    inside = False
    n = len(ring)
    for i in range(n):
        (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
        if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _on_land(board: Board, px: float, py: float, boxes: dict[str, Box]) -> bool:
    for pid, ring in board.shapes.items():
        b = boxes[pid]
        if b[0] <= px <= b[2] and b[1] <= py <= b[3] and _point_in_ring(px, py, ring):
            return True
    return False


def _harbour(board: Board, pid: str, taken: list[Box], bounds: Box,
             shape_boxes: dict[str, Box]) -> tuple[tuple[float, float], Box]:
    """The nearest free spot of open water beside province ``pid``, looked for first in
    the direction of its sea neighbours (so that a port's galleys lie in the sea they sail)."""
    p = board.province(pid)
    x, y = p.xy
    vx = sum(board.province(q).xy[0] - x for q in sorted(p.sea))
    vy = sum(board.province(q).xy[1] - y for q in sorted(p.sea))
    toward = math.degrees(math.atan2(vy, vx)) if (vx or vy) else 90.0
    ring = board.shapes.get(pid)
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
                if wet and any(_on_land(board, cx, cy, shape_boxes) for cx, cy in points):
                    continue
                return (hx, hy), box
    return (x, y + 30), (x - hw, y + 30 - hh, x + hw, y + 30 + hh)


@lru_cache(maxsize=8)
def board_places(board: Board) -> dict[str, Any]:
    """Where each province's label and (for a port) its anchor go, whatever the game's state.

    Anchors first: each port (a province galleys may enter) gets the nearest free spot
    of open water around its city, where its galleys are drawn. Then the labels, each at
    the first of its candidate places (:func:`_label_candidates`) that covers no other
    label, no city with its badges (:func:`marker_box`), no anchor and not the legend.
    Placed once per board, in province-id order, so the result never varies.
    """
    bounds: Box = (2, 2, board.width - 2, board.height - 2)
    shape_boxes = {pid: (min(x for x, _ in ring), min(y for _, y in ring), max(x for x, _ in ring),
                         max(y for _, y in ring)) for pid, ring in board.shapes.items()}
    sites = {pid: board.province(pid).xy for pid in sorted(board.provinces)}
    markers = {pid: marker_box(x, y) for pid, (x, y) in sites.items()}
    taken: list[Box] = [LEGEND_BOX, *markers.values()]
    harbours: dict[str, tuple[float, float]] = {}
    for pid in sorted(board.provinces):
        p = board.province(pid)
        if p.land_only:
            continue
        harbours[pid], box = _harbour(board, pid, taken, bounds, shape_boxes)
        taken.append(box)
    labels: dict[str, Box] = {}
    for pid in sorted(board.provinces, key=lambda q: (-len(board.province(q).name), q)):
        x, y = sites[pid]
        name = board.province(pid).name
        best = None
        for k, (x0, y0) in enumerate(_label_candidates(name, x, y)):
            box = label_box(name, x0, y0)
            if not _inside(box, bounds):
                continue
            # how much of other things it covers (0: a free place)
            cost = sum((min(box[2], t[2]) - max(box[0], t[0])) * (min(box[3], t[3]) - max(box[1], t[1]))
                       for t in taken if overlaps(box, t))
            if best is None or cost < best[0]:
                best = (cost, box)
            if cost == 0:
                break
        labels[pid] = best[1]
        b = best[1]
        taken.append((b[0] - LABEL_GAP, b[1] - 1, b[2] + LABEL_GAP, b[3] + 1))
    return {"labels": labels, "harbours": harbours, "markers": markers}


def _anchor(x: float, y: float) -> dict[str, str]:
    """A small anchor centred on (x, y): ring, shank, stock and arms."""
    return {"cx": num(x), "cy": num(y), "ring_cy": num(y - 4.5),
            "shank": f"M{num(x)},{num(y - 2.5)} L{num(x)},{num(y + 5.5)} M{num(x - 3.5)},{num(y - 1)} "
                     f"L{num(x + 3.5)},{num(y - 1)}",
            "arms": f"M{num(x - 5.5)},{num(y + 1.5)} Q{num(x - 5)},{num(y + 6)} {num(x)},{num(y + 6)} "
                    f"Q{num(x + 5)},{num(y + 6)} {num(x + 5.5)},{num(y + 1.5)}"}


def _provinces(model: dict[str, Any], board: Board) -> list[dict[str, Any]]:
    colours = {n["id"]: n["colour"] for n in model["nations"]}
    nations = {n["id"]: n for n in model["nations"]}
    state = {p["id"]: p for p in model["provinces"]}
    geometry = _board_geometry(board)
    places = board_places(board)
    out = []
    for pid in sorted(board.provinces):
        p = board.province(pid)
        x, y = p.xy
        s = state.get(pid)
        owner = s["owner"] if s else None
        box = places["labels"][pid]
        name_w = text_width(p.name, NAME_SIZE, bold=True)
        base = box[1] + 13
        entry: dict[str, Any] = {
            "id": pid,
            "outline": geometry["outlines"][pid],
            "fill": tint(colours[owner], 0.55) if owner else LAND,
            "name": p.name, "name_ink": SEA_ONLY_INK if p.sea_only else INK,
            "name_x": num(box[0] + CHIP_ROOM + name_w / 2), "name_y": num(base),
            "chip": {"cx": num(box[0] + 7), "cy": num(base - 5), "ty": num(base - 1.8),
                     "fill": RESOURCE_COLOURS[p.resource],
                     "ink": ink_for(RESOURCE_COLOURS[p.resource]), "letter": RESOURCE_LETTERS[p.resource]},
            "city": None, "site": {"cx": num(x), "cy": num(y)}, "temple": None, "units": [],
            "harbour": None,
        }
        if owner:
            # the owner's initials too, so that a black-and-white print still tells them apart
            entry["city"] = {"x": num(x - 7), "y": num(y - 7), "fill": colours[owner],
                             "tx": num(x), "ty": num(y + 3), "text": nations[owner]["initial"],
                             "ink": nations[owner]["ink"]}
            if s["temple"]:
                entry["temple"] = _temple(x + 17, y)
        units = s["units"] if s else []
        several = len(units) > 1
        top = y + 10
        harbour = places["harbours"].get(pid)
        fleets = [u for u in units if u["galley"]]
        for u in units:
            if not u["legion"]:
                continue
            text = f"{u['legion']}L"
            if u["nation"] != owner or several:
                text = f"{nations[u['nation']]['initial']} {text}"
            w = text_width(text, UNIT_SIZE, bold=True) + 10
            entry["units"].append({"x": num(x - w / 2), "y": num(top), "w": num(w), "h": str(PILL_H),
                                   "tx": num(x), "ty": num(top + 13), "text": text,
                                   "fill": u["colour"], "ink": u["ink"]})
            top += PILL_H + PILL_GAP
        if harbour is not None:
            hx, hy = harbour
            entry["harbour"] = {"anchor": _anchor(hx, hy), "line": f"M{num(x)},{num(y)} L{num(hx)},{num(hy)}",
                                "busy": bool(fleets)}
            htop = hy - PILL_H / 2 - (len(fleets) - 1) * (PILL_H + PILL_GAP) / 2
            for u in fleets:
                text = f"{u['galley']}G"
                if u["nation"] != owner or several:
                    text = f"{nations[u['nation']]['initial']} {text}"
                w = text_width(text, UNIT_SIZE, bold=True) + 10
                entry["units"].append({"x": num(hx - w / 2), "y": num(htop), "w": num(w), "h": str(PILL_H),
                                       "tx": num(hx), "ty": num(htop + 13), "text": text,
                                       "fill": u["colour"], "ink": u["ink"], "galley": True})
                htop += PILL_H + PILL_GAP
        out.append(entry)
    return out


def _arrows(model: dict[str, Any], board: Board) -> list[dict[str, Any]]:
    colours = {n["id"]: n["colour"] for n in model["nations"]}
    out = []
    for k, mv in enumerate(model["marks"]["moves"]):
        offset = 0 if k == 0 else (6 * ((k + 1) // 2)) * (1 if k % 2 else -1)
        pts = [board.province(pid).xy for pid in mv["route"]]
        pts = _offset_polyline(pts, offset)
        pts = _trim(pts, 10, 28)
        if len(pts) < 2:
            continue
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        length = math.hypot(bx - ax, by - ay) or 1
        ux, uy = (bx - ax) / length, (by - ay) / length
        # the line stops where the head begins; the tip ends just short of the city
        head = [(bx + ux * 17, by + uy * 17), (bx - uy * 8.5, by + ux * 8.5), (bx + uy * 8.5, by - ux * 8.5)]
        seg = max(range(len(pts) - 1), key=lambda i: math.dist(pts[i], pts[i + 1]))
        lx = (pts[seg][0] + pts[seg + 1][0]) / 2
        ly = (pts[seg][1] + pts[seg + 1][1]) / 2
        label = f"{mv['count']}{'L' if mv['unit'] == 'legion' else 'G'}"
        if mv["arrived"] < mv["count"]:
            label += f" −{mv['count'] - mv['arrived']}"
        w = text_width(label, 11, bold=True) + 8
        out.append({
            "d": "M" + " L".join(f"{num(x)},{num(y)}" for x, y in pts),
            "head": _pts(head), "colour": colours[mv["nation"]],
            "label": {"x": num(lx - w / 2), "y": num(ly - 8), "w": num(w), "h": "15",
                      "tx": num(lx), "ty": num(ly + 3.5), "text": label,
                      "fill": colours[mv["nation"]], "ink": ink_for(colours[mv["nation"]])},
        })
    return out


def _offset_polyline(pts: list[tuple], d: float) -> list[tuple]:
    if not d:
        return [tuple(map(float, p)) for p in pts]
    out = []
    for i, (x, y) in enumerate(pts):
        a = pts[max(0, i - 1)]
        b = pts[min(len(pts) - 1, i + 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1
        out.append((x - dy / length * d, y + dx / length * d))
    return out


def _trim(pts: list[tuple], start: float, end: float) -> list[tuple]:
    """Shorten a polyline at both ends (so it starts and stops beside the city markers)."""
    pts = list(pts)
    if len(pts) < 2:
        return pts
    (ax, ay), (bx, by) = pts[0], pts[1]
    length = math.hypot(bx - ax, by - ay) or 1
    cut = min(start, length / 3)
    pts[0] = (ax + (bx - ax) * cut / length, ay + (by - ay) * cut / length)
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    length = math.hypot(bx - ax, by - ay) or 1
    cut = min(end, length / 2)
    pts[-1] = (bx - (bx - ax) * cut / length, by - (by - ay) * cut / length)
    return pts


def _battles(model: dict[str, Any], board: Board) -> list[dict[str, Any]]:
    seen: dict[str, int] = {}
    for b in model["marks"]["battles"]:
        seen[b["at"]] = seen.get(b["at"], 0) + b["count"]
    out = []
    for pid in sorted(seen):
        x, y = board.province(pid).xy
        cx, cy = x - 25, y + 3
        star = []
        for i in range(16):
            r = 13 if i % 2 == 0 else 6.5
            ang = math.pi * i / 8 - math.pi / 2
            star.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
        out.append({"points": _pts(star), "tx": num(cx), "ty": num(cy + 4), "text": str(seen[pid])})
    return out


def _conquests(model: dict[str, Any], board: Board) -> list[dict[str, Any]]:
    colours = {n["id"]: n["colour"] for n in model["nations"]}
    out = []
    for c in model["marks"]["conquests"]:
        x, y = board.province(c["city"]).xy
        out.append({"cx": num(x), "cy": num(y + 1), "colour": colours[c["by"]]})
    return out


def _legend() -> dict[str, Any]:
    x0, y0 = LEGEND_BOX[0], LEGEND_BOX[1]
    rows = [y0 + 22 + 24 * i for i in range(5)]
    cols = [x0 + 10, x0 + 200, x0 + 400]
    return {
        "x": num(x0), "y": num(y0), "w": num(LEGEND_BOX[2] - x0), "h": num(LEGEND_BOX[3] - y0),
        "title": {"x": num(x0 + 10), "y": num(y0 + 3)},
        "borders": [
            {"kind": kind, "label": label, "d": f"M{cols[0]},{rows[i] - 4} L{cols[0] + 34},{rows[i] - 4}",
             "tx": num(cols[0] + 42), "ty": num(rows[i])}
            for i, (kind, label) in enumerate((("land", "land border"), ("sea", "sea border"),
                                                ("both", "land and sea"), ("none", "no crossing")))
        ],
        "city": {"x": num(cols[1]), "y": num(rows[0] - 11), "tx": num(cols[1] + 22), "ty": num(rows[0])},
        "temple": dict(_temple(cols[1] + 7, rows[1] - 4), tx=num(cols[1] + 22), ty=num(rows[1])),
        "units": {"x": num(cols[1] - 2), "y": num(rows[2] - 13), "w": "26", "tx": num(cols[1] + 11),
                  "ty": num(rows[2]), "lx": num(cols[1] + 32)},
        "chips": [{"cx": num(cols[1] + 6 + 18 * i), "cy": num(rows[3] - 4), "ty": num(rows[3] - 0.8), "fill": RESOURCE_COLOURS[r],
                   "ink": ink_for(RESOURCE_COLOURS[r]), "letter": RESOURCE_LETTERS[r]}
                  for i, r in enumerate(("marble", "iron", "gold"))],
        "chips_label": {"x": num(cols[1] + 58), "y": num(rows[3])},
        "arrow": {"d": f"M{cols[2]},{rows[0] - 4} L{cols[2] + 26},{rows[0] - 4}",
                  "head": _pts([(cols[2] + 38, rows[0] - 4), (cols[2] + 26, rows[0] - 11), (cols[2] + 26, rows[0] + 3)]),
                  "tx": num(cols[2] + 46), "ty": num(rows[0])},
        "battle": {"points": _pts([(cols[2] + 16 + (15 if i % 2 == 0 else 7) * math.cos(math.pi * i / 8 - math.pi / 2),
                                    rows[1] - 4 + (15 if i % 2 == 0 else 7) * math.sin(math.pi * i / 8 - math.pi / 2))
                                   for i in range(16)]),
                   "tx": num(cols[2] + 46), "ty": num(rows[1])},
        "conquest": {"cx": num(cols[2] + 16), "cy": num(rows[2] - 4), "tx": num(cols[2] + 46), "ty": num(rows[2])},
        "site": {"cx": num(cols[2] + 16), "cy": num(rows[3] - 4), "tx": num(cols[2] + 46), "ty": num(rows[3])},
        "anchor": _anchor(cols[0] + 17, rows[4] - 4),
        "anchor_label": {"x": num(cols[0] + 42), "y": num(rows[4])},
        "sea_only": {"x": num(cols[1]), "y": num(rows[4]), "lx": num(cols[1] + 44), "ink": SEA_ONLY_INK},
        "galleys": {"x": num(cols[2] + 3), "y": num(rows[4] - 13), "w": "26", "tx": num(cols[2] + 16),
                    "ty": num(rows[4]), "lx": num(cols[2] + 46)},
    }


BOARD_HEIGHT = 799
"""The East board's picture; the panels below it are planned for that height."""
ROW_A = HEADER + BOARD_HEIGHT + MARGIN
ROW_A_H = 290
ROW_B = ROW_A + ROW_A_H + MARGIN
ROW_B_H = 236
ROW_C = ROW_B + ROW_B_H + MARGIN
ROW_C_H = HEIGHT - ROW_C - MARGIN

PROGRESS_W = 604

def _wedge_room(cx: float, cy: float, r: float, mid: float, x: float, y: float, half: float) -> float:
    """Width of the horizontal line through (x, y) that stays inside the wedge around ``mid``
    (``half`` degrees on either side)."""
    def inside(px: float) -> bool:
        dx, dy = px - cx, y - cy
        if math.hypot(dx, dy) > r - 3:
            return False
        diff = (math.atan2(dy, dx) - mid + math.pi) % (2 * math.pi) - math.pi
        return abs(diff) < math.radians(half) - 0.04
    left = right = x
    while inside(left - 0.5):
        left -= 0.5
    while inside(right + 0.5):
        right += 0.5
    return right - left


def _rondel(model: dict[str, Any]) -> dict[str, Any]:
    box = {"x": MARGIN, "y": ROW_A, "w": 300, "h": ROW_A_H}
    cx, cy, r = box["x"] + 150, box["y"] + 30 + (ROW_A_H - 30) / 2, 104
    colours = {n["id"]: n for n in model["nations"]}
    nxt = model["next"]["id"] if model["next"] else None
    wedges, markers = [], []
    step = 360 / len(model["rondel"])
    for w in model["rondel"]:
        i = w["index"]
        a0 = math.radians(-90 + step * i - step / 2)
        a1 = math.radians(-90 + step * i + step / 2)
        p0 = (cx + r * math.cos(a0), cy + r * math.sin(a0))
        p1 = (cx + r * math.cos(a1), cy + r * math.sin(a1))
        mid = math.radians(-90 + step * i)
        lx, ly = cx + 0.62 * r * math.cos(mid), cy + 0.62 * r * math.sin(mid)
        label = w.get("short", w["label"]).upper()
        room = _wedge_room(cx, cy, r, mid, lx, ly, step / 2)
        size = min(12.0, math.floor(12 * 0.92 * room / text_width(label, 12, bold=True) * 2) / 2)
        wedges.append({
            "d": f"M{num(cx)},{num(cy)} L{num(p0[0])},{num(p0[1])} A{r},{r} 0 0,1 {num(p1[0])},{num(p1[1])} Z",
            "fill": w["colour"], "label": label, "size": num(size),
            "tx": num(lx), "ty": num(ly + size * 0.36),
            # every wedge's number (as docs/orders.md counts them), by the rim; the two
            # MANEUVER wedges are told apart by it: MANEUVER (3) and MANEUVER (7)
            "num": {"x": num(cx + 0.86 * r * math.cos(mid)), "y": num(cy + 0.86 * r * math.sin(mid) + 4),
                    "text": f"({i})" if w.get("twin") else str(i), "twin": bool(w.get("twin"))},
        })
        for k, n in enumerate(w["nations"]):
            ring, slot = divmod(k, 3)
            radius = r + 15 + 21 * ring
            ang = mid + (slot - 1) * 21 / radius
            mx, my = cx + radius * math.cos(ang), cy + radius * math.sin(ang)
            nat = colours[n]
            markers.append({"cx": num(mx), "cy": num(my), "ty": num(my + 3.5), "fill": nat["colour"],
                            "ink": nat["ink"], "text": nat["initial"], "next": n == nxt})
    return {"box": {k: num(v) for k, v in box.items()}, "title_x": num(box["x"] + 10),
            "title_y": num(box["y"] + 20), "cx": num(cx), "cy": num(cy), "r": num(r),
            "wedges": wedges, "markers": markers}


def _cell(x: float, text: Any, anchor: str = "end", bold: bool = False, fill: str = INK) -> dict[str, str]:
    return {"x": num(x), "text": str(text), "anchor": anchor, "weight": "bold" if bold else "normal",
            "fill": fill, "dy": "0"}


def _table(x: float, y: float, w: float, h: float, title: str, header: list[dict],
           rows: list[dict], row_h: float = 26, head_h: float = 26) -> dict[str, Any]:
    """A panel: title, a header row and body rows at fixed heights."""
    out_rows = []
    top = y + 30 + head_h
    for i, row in enumerate(rows):
        ty = top + i * row_h + row_h * 0.68
        out_rows.append({**row, "y": num(top + i * row_h), "ty": num(ty), "sy": num(ty - 11), "dy": num(ty - 4.5),
                         "band": i % 2 == 1, "h": num(row_h)})
    return {"x": num(x), "y": num(y), "w": num(w), "h": num(h), "title": title,
            "title_x": num(x + 10), "title_y": num(y + 20), "header": header,
            "head_y": num(y + 30 + head_h * 0.7), "rows": out_rows, "row_x": num(x + 6), "row_x2": num(x + w - 6),
            "row_w": num(w - 12), "line_y": num(y + 30 + head_h)}


def _swatch(x: float, nation: dict[str, Any]) -> dict[str, str]:
    return {"x": num(x), "fill": nation["colour"]}


def _nations_table(model: dict[str, Any]) -> dict[str, Any]:
    x, w = MARGIN + 300 + MARGIN, WIDTH - 2 * MARGIN - 300 - MARGIN
    cols = [("Marble", 70), ("Iron", 50), ("Gold", 50), ("Coins", 56), ("Cities", 58),
            ("Temples", 70), ("Legions", 68), ("Galleys", 68)]
    name_w = 130
    player_w = w - 38 - name_w - sum(c[1] for c in cols)
    header = [_cell(x + 30, "Nation", "start", True), _cell(x + 30 + name_w, "Player", "start", True)]
    edge = x + 30 + name_w + player_w
    for label, cw in cols:
        edge += cw
        header.append(_cell(edge, label, "end", True))
    rows = []
    for n in model["nations"]:
        mark = "▶ " if n["next"] else "★ " if n["winner"] else ""
        cells = [_cell(x + 30, mark + n["name"], "start", True),
                 _cell(x + 30 + name_w, fit(n["player"] or "—", 14, player_w - 8), "start")]
        values = [n["resources"]["marble"], n["resources"]["iron"], n["resources"]["gold"], n["coins"],
                  len(n["cities"]), len(n["temples"]), n["units"]["legion"], n["units"]["galley"]]
        edge = x + 30 + name_w + player_w
        for (label, cw), v in zip(cols, values):
            edge += cw
            cells.append(_cell(edge, v, "end"))
        rows.append({"cells": cells, "swatch": _swatch(x + 10, n)})
    bank = model["bank"]
    edge = x + 30 + name_w + player_w
    bank_cells = [_cell(x + 30, "Bank", "start", True),
                  _cell(x + 30 + name_w, "coins and temples left", "start", fill="#555555")]
    for (label, cw), v in zip(cols, ["", "", "", bank["coins"], "", bank["temples"], "", ""]):
        edge += cw
        if v != "":
            bank_cells.append(_cell(edge, v, "end", True))
    rows.append({"cells": bank_cells, "swatch": None})
    title = "Nations in turn order: resources, coins and pieces on the board"
    return _table(x, ROW_A, w, ROW_A_H, title, header, rows)


def _progress(model: dict[str, Any]) -> dict[str, Any]:
    x, w = MARGIN, PROGRESS_W
    name_w = 124
    col_w = (w - 16 - name_w) / max(1, len(model["knowhows"]))
    header, rows = [], []
    for i, k in enumerate(model["knowhows"]):
        # basics and secondaries on two header lines, so long names never collide
        cell = _cell(x + 10 + name_w + col_w * (i + 0.5), k["label"], "middle", True)
        cell["dy"] = "-15" if i % 2 == 0 else "0"
        header.append(cell)
    for n in model["nations"]:
        cells = [_cell(x + 30, n["name"], "start", True)]
        dots = []
        for i, k in enumerate(model["knowhows"]):
            owned = n["id"] in k["owners"]
            dots.append({"cx": num(x + 10 + name_w + col_w * (i + 0.5)), "owned": owned,
                         "fill": n["colour"] if owned else "none"})
        rows.append({"cells": cells, "swatch": _swatch(x + 10, n), "dots": dots})
    table = _table(x, ROW_B, w, ROW_B_H, "Progress chart: who owns which know-how", header, rows, head_h=40)
    # a line before each basic know-how but the first: basics with their secondaries
    table["separators"] = [num(x + 10 + name_w + col_w * i) for i, k in enumerate(model["knowhows"])
                           if i and not k["secondary"]]
    table["sep_y1"] = num(ROW_B + 34)
    table["sep_y2"] = num(ROW_B + ROW_B_H - 8)
    return table


def _scores(model: dict[str, Any]) -> dict[str, Any]:
    x = MARGIN + PROGRESS_W + MARGIN
    w = WIDTH - MARGIN - x
    name_w = 118
    types = model["personage_types"]
    col_w = (w - 16 - name_w - 70) / len(types)
    header = [_cell(x + 10 + name_w + col_w * (i + 0.5), t["label"], "middle") for i, t in enumerate(types)]
    # labels too wide for their columns go on two header lines, like the progress chart's
    crowded = any((text_width(a["label"], HEAD_SIZE) + text_width(b["label"], HEAD_SIZE)) / 2 > col_w - 4
                  for a, b in zip(types, types[1:]))
    if crowded:
        for i, cell in enumerate(header):
            cell["dy"] = "-15" if i % 2 == 0 else "0"
    header.append(_cell(x + w - 12, "Score", "end", True))
    rows = []
    goal = model["game"]["goal"]
    for n in model["nations"]:
        cells = [_cell(x + 30, n["name"], "start", True)]
        for i, t in enumerate(types):
            c = n["personages"][t["id"]]
            cells.append(_cell(x + 10 + name_w + col_w * (i + 0.5), c if c else "·", "middle", bool(c)))
        cells.append(_cell(x + w - 12, f"{n['score']}/{goal}", "end", True))
        rows.append({"cells": cells, "swatch": _swatch(x + 10, n)})
    bank = [_cell(x + 30, "Bank", "start", True)]
    for i, t in enumerate(types):
        bank.append(_cell(x + 10 + name_w + col_w * (i + 0.5), t["left"], "middle", False, "#555555"))
    rows.append({"cells": bank, "swatch": None})
    unit = "points" if model["game"]["goal_unit"] == "victory points" else "personages"
    return _table(x, ROW_B, w, ROW_B_H, f"Score card: {unit} against the goal of {goal}", header, rows,
                  head_h=40 if crowded else 26)


LOG_SIZE = 12.5
LOG_LINE = 15


def _log(model: dict[str, Any]) -> dict[str, Any]:
    x, w = MARGIN, WIDTH - 2 * MARGIN
    col_w = (w - 30) / 2
    per_col = int((ROW_C_H - 40) // LOG_LINE)
    indent = text_width("• ", LOG_SIZE)
    blocks: list[list[tuple[str, bool, float]]] = []
    for block in model["log"]:
        lines = [(block["title"], True, 0.0)]
        for line in block["lines"]:
            wrapped = wrap(line, LOG_SIZE, col_w - 16 - indent)
            lines.append(("• " + wrapped[0], False, 0.0))
            lines.extend((more, False, indent) for more in wrapped[1:])
        blocks.append(lines)
    capacity = per_col * 2
    # the latest entries matter most here: older ones give way first (all are on page 2)
    dropped = 0
    while len(blocks) > 1 and sum(map(len, blocks)) > capacity - 1:
        blocks.pop(0)
        dropped += 1
    lines = [line for b in blocks for line in b]
    if dropped:
        lines.insert(0, (f"… {dropped} earlier {'entry' if dropped == 1 else 'entries'}: "
                         "see page 2 of the PDF or the text report", True, 0.0))
    if len(lines) > capacity:
        hidden = len(lines) - capacity + 1
        lines = lines[: capacity - 1] + [(f"… and {hidden} more lines: see the text report or the PDF", True, 0.0)]
    out = []
    for i, (text, bold, shift) in enumerate(lines):
        col, row = divmod(i, per_col)
        out.append({"x": num(x + 12 + col * (col_w + 10) + shift), "y": num(ROW_C + 44 + row * LOG_LINE),
                    "text": text, "weight": "bold" if bold else "normal"})
    title = model.get("log_title") or ("Turn log" if model["turn"] else "Set-up")
    return {"x": num(x), "y": num(ROW_C), "w": num(w), "h": num(ROW_C_H), "title": title,
            "title_x": num(x + 10), "title_y": num(ROW_C + 20), "lines": out}


def _header(model: dict[str, Any]) -> dict[str, Any]:
    g = model["game"]
    title = fit(f"{g['edition']} · {g['id']} · {model['title']}", 22, 640, bold=True)
    if model["winner"]:
        status = f"{model['winner']['name']} won the game"
    elif model["next"]:
        status = f"round {model['round']} · next: {model['next']['name']} (turn {model['next']['turn']})"
    else:
        status = f"round {model['round']}"
    variants = f" · {', '.join(g['variants'])}" if g["variants"] else ""
    sub = f"{g['board']}{variants} · goal {g['goal']} {g['goal_unit']}"
    return {"title": title, "status": status, "sub": fit(sub, 12, 500)}


def svg_layout(model: dict[str, Any], board: Board) -> dict[str, Any]:
    """Everything the board page template needs, placed."""
    geometry = _board_geometry(board)
    return {
        "width": str(WIDTH), "height": str(HEIGHT), "board_y": str(HEADER),
        "board_w": str(board.width), "board_h": str(board.height),
        "sea": SEA, "font": FONT, "border_colours": BORDER_COLOURS,
        "header": _header(model),
        "provinces": _provinces(model, board),
        "borders": geometry["borders"], "links": geometry["links"],
        "arrows": _arrows(model, board), "battles": _battles(model, board),
        "conquests": _conquests(model, board), "legend": _legend(),
        "rondel": _rondel(model), "nations": _nations_table(model), "progress": _progress(model),
        "scores": _scores(model), "log": _log(model),
    }


PAGE_MARGIN = 64
PAGE_TEXT = 17
PAGE_LINE = 24


class _Flow:
    """Places lines of text down A4 pages (the board page's coordinate system), breaking
    pages as they fill."""

    def __init__(self, running: str):
        self.running = running
        self.pages: list[dict[str, Any]] = []
        self._new_page()

    def _new_page(self) -> None:
        self.page = {"texts": [], "rules": [], "swatches": []}
        self.pages.append(self.page)
        self.y = PAGE_MARGIN + 34

    def room(self, height: float) -> bool:
        """Start a new page unless ``height`` fits on this one; say whether it did."""
        if self.y + height > HEIGHT - PAGE_MARGIN:
            self._new_page()
            return True
        return False

    def text(self, x: float, text: str, size: float = PAGE_TEXT, bold: bool = False,
             anchor: str = "start", fill: str = INK, advance: bool = True) -> None:
        self.page["texts"].append({"x": num(x), "y": num(self.y), "text": text, "size": num(size),
                                   "weight": "bold" if bold else "normal", "anchor": anchor,
                                   "fill": fill})
        if advance:
            self.y += PAGE_LINE if size <= PAGE_TEXT else size * 1.5

    def heading(self, text: str, keep: float = 0) -> None:
        self.room(60 + keep)
        self.y += 14
        self.text(PAGE_MARGIN, text, 22, True)
        self.page["rules"].append({"x1": num(PAGE_MARGIN), "x2": num(WIDTH - PAGE_MARGIN),
                                   "y": num(self.y - 18)})
        self.y += 4

    def paragraph(self, label: str, value: str, indent: float = 0) -> None:
        x = PAGE_MARGIN + indent
        label_w = 170
        lines = wrap(value, PAGE_TEXT, WIDTH - PAGE_MARGIN - x - label_w)
        self.room(PAGE_LINE * len(lines))
        self.text(x, label, bold=True, advance=False)
        for line in lines:
            self.text(x + label_w, line)

    def finish(self) -> list[dict[str, Any]]:
        total = len(self.pages)
        for i, page in enumerate(self.pages, start=2):
            page["running"] = {"x": num(PAGE_MARGIN), "y": num(PAGE_MARGIN), "text": self.running}
            page["number"] = {"x": num(WIDTH - PAGE_MARGIN), "y": num(PAGE_MARGIN),
                              "text": f"page {i} of {total + 1}"}
        return self.pages


def pages_layout(model: dict[str, Any]) -> list[dict[str, Any]]:
    """The PDF's pages after the board page: the whole log since the next player's last
    turn and the nations' holdings, then the board's cities and units, the rondel, the
    progress chart, the score card and the bank. A section that fits on one page is not
    split across two."""
    g = model["game"]
    names = {n["id"]: n["name"] for n in model["nations"]}
    flow = _Flow(fit(f"{g['edition']} · {g['id']} · {model['title']}", 14, 700))
    flow.heading(model.get("log_title") or ("Turn log" if model["turn"] else "Set-up"), keep=PAGE_LINE * 2)
    for block in model["log"]:
        flow.room(PAGE_LINE * 2)
        flow.text(PAGE_MARGIN, block["title"], bold=True)
        for line in block["lines"]:
            wrapped = wrap(line, PAGE_TEXT, WIDTH - 2 * PAGE_MARGIN - 24)
            flow.room(PAGE_LINE * len(wrapped))
            flow.text(PAGE_MARGIN + 6, "•", advance=False)
            for part in wrapped:
                flow.text(PAGE_MARGIN + 24, part)
    flow.heading("Nations in turn order", keep=PAGE_LINE * 10)
    for n in model["nations"]:
        flow.room(PAGE_LINE * (len(n["facts"]) + 2))
        flow.y += 6
        flow.page["swatches"].append({"x": num(PAGE_MARGIN), "y": num(flow.y - 14), "fill": n["colour"]})
        mark = "   ▶ next to play" if n["next"] else "   (won the game)" if n["winner"] else ""
        flow.text(PAGE_MARGIN + 24, n["name"] + mark, 18, True)
        for fact in n["facts"]:
            flow.paragraph(fact["label"], fact["value"], indent=24)
    cols = [(PAGE_MARGIN, "Province"), (PAGE_MARGIN + 190, "Resource"), (PAGE_MARGIN + 300, "Kind"),
            (PAGE_MARGIN + 400, "City of"), (PAGE_MARGIN + 540, "Temple"), (PAGE_MARGIN + 620, "Units")]
    unit_w = WIDTH - PAGE_MARGIN - cols[5][0]
    rows = [wrap(p["units_text"] or "—", PAGE_TEXT, unit_w) for p in model["provinces"]]
    table_h = PAGE_LINE * (1 + sum(map(len, rows)))
    flow.heading("Provinces with a city or units",
                 keep=table_h if table_h < HEIGHT - 2 * PAGE_MARGIN - 120 else PAGE_LINE * 3)

    def header() -> None:
        for x, label in cols:
            flow.text(x, label, bold=True, advance=False)
        flow.y += PAGE_LINE

    header()
    for p, units in zip(model["provinces"], rows):
        if flow.room(PAGE_LINE * len(units)):
            header()
        values = [p["name"], p["resource"], p.get("kind_text") or "inland", p["owner_name"] or "—",
                  "yes" if p["temple"] else ""]
        for (x, _), v in zip(cols, values):
            flow.text(x, v, advance=False)
        for line in units:
            flow.text(cols[5][0], line)
    flow.heading(f"Rondel (wedges clockwise, numbered 0-{len(model['rondel']) - 1})",
                 keep=PAGE_LINE * len(model["rondel"]))
    for w in model["rondel"]:
        flow.paragraph(f"{w['index']}  {w.get('short', w['label'])}",
                       ", ".join(names[n] for n in w["nations"]) or "—")
    flow.heading("Progress chart: know-how", keep=PAGE_LINE * len(model["knowhows"]))
    for k in model["knowhows"]:
        flow.paragraph(k["label"], ", ".join(names[n] for n in k["owners"]) or "—")
    flow.heading(f"Score card (goal {g['goal']} {g['goal_unit']})", keep=PAGE_LINE * (len(model["nations"]) + 1))
    for n in model["nations"]:
        held = ", ".join(f"{n['personages'][t['id']]} {t['label']}" for t in model["personage_types"]
                         if n["personages"][t["id"]]) or "no personages"
        flow.paragraph(n["name"], f"{n['score']} of {g['goal']}: {held}")
    flow.heading("Bank", keep=PAGE_LINE)
    flow.paragraph("Left", model["bank"]["text"])
    return flow.finish()
