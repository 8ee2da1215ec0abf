"""Where everything goes on the SVG report: board shapes, labels, arrows, panels, pages.

The SVG templates only print what this module placed, so the arithmetic lives in one
tested place. Coordinates are SVG user units; every number reaches the templates as a
short decimal string (:func:`num`), so the output is stable across platforms. Text widths
come from DejaVu Sans metrics (the only font the reports name), which lets long names be
cut and log lines be wrapped before rendering.

Boards come in any size. The board picture is scaled into the page (:func:`board_view`):
as wide as the page, but no taller than the room the panels leave, centred when it is
narrower. Only positions are scaled (cities, outlines, borders, arrows); symbols and text
keep their sizes, so they stay readable on a small board scaled up or a big one scaled
down. Everything placed on the board (labels, anchors, the legend) is placed in these
drawn coordinates, once per board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.kernel.board import Board
from pbem.report.model import RECONSTRUCTION_NOTE, RESOURCE_COLOURS, ink_for, is_sea

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



BOARD_ROOM = 799
"""The tallest the board picture is drawn: what the panels below it leave of the page (the
East board's own height, so that board is drawn at its size)."""
NOTE_H = 18
"""The strip under the board that says a reconstructed board is not the printed one."""
NOTE_TEXT = RECONSTRUCTION_NOTE
NOTE_INK = "#9a3412"


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
    extras: tuple[str, ...] = ()
    """What the legend explains beyond the classic boards' marks (:func:`legend_extras`)."""

    @property
    def bounds(self) -> Box:
        """Where labels and anchors may go: the drawn board less a thin edge."""
        return (2, 2, self.w - 2, self.h - 2)


def _fit(width: float, height: float, room: float) -> tuple[float, float, float, float]:
    """Scale, left edge, width and height of a ``width`` x ``height`` picture drawn as large
    as fits the page's width and ``room`` in height, centred."""
    scale = min(WIDTH / width, room / height)
    if abs(scale - 1) < 1e-9:
        scale = 1.0
    w, h = width * scale, height * scale
    return scale, max(0.0, (WIDTH - w) / 2), w, h


@lru_cache(maxsize=16)
def board_view(board: Board) -> View:
    """Where and how large ``board`` is drawn on the page, and where its legend goes.

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
    extras = legend_extras(board)
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


def legend_extras(board: Board) -> tuple[str, ...]:
    """The marks of later editions' boards that the report's legend explains, in this
    order, where the board has them: ``choice`` (a site whose founder chooses the
    resource), ``none`` (no city site), ``sea`` (a sea region: no city site, galleys
    only, counting double), ``neutral`` (a neutral temple at set-up), then what the
    board's edition adds (:func:`edition_marks`: ``wall``, town walls). The first boards
    have none of them, and their legend is unchanged."""
    provinces = board.provinces.values()
    out = []
    if any(p.resource == "choice" for p in provinces):
        out.append("choice")
    if any(p.resource == "none" and not is_sea(p) for p in provinces):
        out.append("none")
    if any(is_sea(p) for p in provinces):
        out.append("sea")
    if any(p.temple for p in provinces):
        out.append("neutral")
    return (*out, *edition_marks(board))


def edition_marks(board: Board) -> tuple[str, ...]:
    """The marks of the games played on ``board`` that its legend explains because its
    edition has them (:attr:`Edition.legend_marks <pbem.kernel.edition.Edition.legend_marks>`:
    ``wall``, the town walls of an edition with walls); none for an unknown edition."""
    from pbem import editions

    try:
        return tuple(editions.get(board.edition).legend_marks)
    except editions.UnknownEdition:
        return ()


SEA_LEGEND = "sea: no city, counts double"
"""The legend's words for a sea region (an edition with seas, 001 L165)."""

EXTRA_COLUMN = 190
"""The width of the legend's column for :func:`legend_extras` (a strip or the board corner)."""


def legend_layout(columns: int, extra: int = 0) -> dict[str, Any]:
    """:data:`LEGEND_LAYOUTS` ``columns``, grown by ``extra`` items (:func:`legend_extras`):
    one column more in the layouts of rows (placed after the fifteen classic items), that
    many rows more in the single column."""
    base = LEGEND_LAYOUTS[columns]
    if not extra:
        return base
    w, h = base["size"]
    if columns == 1:
        return {**base, "rows": base["rows"] + extra, "size": (w, h + base["pitch"] * extra)}
    return {**base, "cols": (*base["cols"], w + 16), "size": (w + 16 + EXTRA_COLUMN, h)}


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
def _board_geometry(board: Board) -> dict[str, Any]:
    """What depends on the board alone: outlines, borders, links across water (drawn
    coordinates: the board's scaled by :func:`board_view`)."""
    view = board_view(board)
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
    return {"roof": _pts(roof), "x": num(x - 7), "y": num(y - 3), "w": "14", "h": "10", "fill": "#ffffff",
            "cols": [num(x - 3.5), num(x), num(x + 3.5)], "y1": num(y - 3), "y2": num(y + 7)}


Box = tuple[float, float, float, float]
"""An axis-parallel box: left, top, right, bottom (drawn board coordinates)."""

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
"""The legend's box on the East board (bottom left); :func:`board_view` places it on others."""
LEGEND_LAYOUTS: dict[int, dict[str, Any]] = {
    3: {"cols": (10, 200, 400), "top": 22, "pitch": 24, "rows": 5, "size": (600, 146)},
    1: {"cols": (10,), "top": 22, "pitch": 24, "rows": 15, "size": (212, 22 + 24 * 14 + 28)},
    5: {"cols": (10, 149, 334, 519, 719), "top": 20, "pitch": 22, "rows": 3, "size": (896, 78)},
}
"""The legend's layouts, by number of columns: three columns of five rows (on the board, as
on the East board), one column of fifteen rows (beside a narrow board), five columns of
three rows (a strip below a board with no free corner). ``cols``: where each column starts."""
LEGEND_GAP = 8
"""Between the board and a legend below it."""
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


def _on_land(board: Board, px: float, py: float, boxes: dict[str, Box]) -> bool:
    """Whether the drawn point (``px``, ``py``) lies in a province (``boxes``: each
    outline's bounding box) that is not a sea region (:func:`~pbem.report.model.is_sea`:
    drawn as water)."""
    for pid, ring in board_view(board).shapes.items():
        if is_sea(board.province(pid)):
            continue
        b = boxes[pid]
        if b[0] <= px <= b[2] and b[1] <= py <= b[3] and _point_in_ring(px, py, ring):
            return True
    return False


def _harbour(board: Board, pid: str, taken: list[Box], bounds: Box,
             shape_boxes: dict[str, Box]) -> tuple[tuple[float, float], Box]:
    """The nearest free spot of open water beside province ``pid``, looked for first in
    the direction of its sea neighbours (so that a port's galleys lie in the sea they sail)."""
    view = board_view(board)
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
                if wet and any(_on_land(board, cx, cy, shape_boxes) for cx, cy in points):
                    continue
                return (hx, hy), box
    return (x, y + 30), (x - hw, y + 30 - hh, x + hw, y + 30 + hh)


@lru_cache(maxsize=16)
def board_places(board: Board) -> dict[str, Any]:
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
    """
    view = board_view(board)
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
        harbours[pid], box = _harbour(board, pid, taken, bounds, shape_boxes)
        taken.append(box)
    for pid in sorted(board.provinces, key=lambda q: (-len(board.province(q).name), q)):
        if pid in labels:
            continue
        x, y = sites[pid]
        w, h = size(pid)
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
        labels[pid] = best[1]
        if best[2]:
            far.add(pid)
        keep(best[1])
    return {"labels": labels, "harbours": harbours, "markers": markers, "far": far}


def _anchor(x: float, y: float) -> dict[str, str]:
    """A small anchor centred on (x, y): ring, shank, stock and arms."""
    return {"cx": num(x), "cy": num(y), "ring_cy": num(y - 4.5),
            "shank": f"M{num(x)},{num(y - 2.5)} L{num(x)},{num(y + 5.5)} M{num(x - 3.5)},{num(y - 1)} "
                     f"L{num(x + 3.5)},{num(y - 1)}",
            "arms": f"M{num(x - 5.5)},{num(y + 1.5)} Q{num(x - 5)},{num(y + 6)} {num(x)},{num(y + 6)} "
                    f"Q{num(x + 5)},{num(y + 6)} {num(x + 5.5)},{num(y + 1.5)}"}


NEUTRAL_FILL = "#9c968a"
"""A neutral temple on the report (an edition with neutral temples): stone grey, with white columns, where no
nation's city stands."""


def _neutral_temple(x: float, y: float) -> dict[str, str]:
    """A neutral temple centred on (x, y): the temple shape in stone grey."""
    return dict(_temple(x, y), fill=NEUTRAL_FILL, ink="#ffffff")


CHOICE_CHIP = {"fill": "#ffffff", "ink": "#000000", "letter": "?"}
"""A site whose founder chooses the resource: a white chip with a question mark."""
NO_SITE_INK = "#8c8577"
NEUTRAL_TEMPLE = "#d8d2c2"
"""A temple printed on the board (no nation's): grey instead of white."""


def _chip(resource: str) -> dict[str, str] | None:
    """The resource chip of a city site: colour, letter and its ink; ``None`` where no city
    can stand."""
    if resource == "none":
        return None
    if resource == "choice":
        return dict(CHOICE_CHIP)
    fill = RESOURCE_COLOURS[resource]
    return {"fill": fill, "ink": ink_for(fill), "letter": RESOURCE_LETTERS[resource]}


SEA_FILL = SEA
"""A sea region (an edition with seas) is drawn as the water around it: no outline of its own."""


def _sea_mark(x: float, y: float) -> dict[str, str]:
    """The mark of a sea region (the board's galley symbol, 001 L165): a small galley,
    16 wide, centred on (x, y)."""
    hull = [(x - 8, y), (x + 8, y), (x + 5, y + 4.5), (x - 5, y + 4.5)]
    sail = [(x + 0.8, y - 8), (x + 0.8, y - 1.5), (x + 6.5, y - 1.5)]
    oars = " ".join(f"M{num(x + dx)},{num(y + 4.5)} L{num(x + dx - 2)},{num(y + 7.5)}" for dx in (-3, 0, 3))
    return {"hull": _pts(hull), "sail": _pts(sail), "mast": f"M{num(x)},{num(y)} L{num(x)},{num(y - 9)}",
            "oars": oars, "ink": SEA_ONLY_INK}


WALL_FILL = "#8c8577"


def _wall(x: float, y: float) -> dict[str, str]:
    """A town wall round the city square at (x, y) (an edition with walls): a stone frame with
    three merlons on top, drawn under the square."""
    top, merlon = y - 10, y - 13.5
    points = [(x - 10.5, y + 10.5), (x - 10.5, merlon)]
    for left, right in ((x - 10.5, x - 6), (x - 2.2, x + 2.2), (x + 6, x + 10.5)):
        if left != x - 10.5:
            points += [(left, top), (left, merlon)]
        points += [(right, merlon)]
        if right != x + 10.5:
            points += [(right, top)]
    points += [(x + 10.5, y + 10.5)]
    return {"points": _pts(points), "fill": WALL_FILL}


def _cross(x: float, y: float) -> str:
    """The mark of a province with no city site: a small grey cross."""
    return (f"M{num(x - 4)},{num(y - 4)} L{num(x + 4)},{num(y + 4)} "
            f"M{num(x - 4)},{num(y + 4)} L{num(x + 4)},{num(y - 4)}")


def _leader(box: Box, x: float, y: float, far: bool) -> str | None:
    """A thin line from the city at (``x``, ``y``) to its label, when the label is far
    (``far``: it was put farther than its usual places)."""
    if _box_distance(box, x, y) <= (20 if far else LEADER_AT):
        return None
    ex, ey = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    length = math.hypot(ex - x, ey - y)
    sx, sy = x + (ex - x) * 10 / length, y + (ey - y) * 10 / length
    return f"M{num(sx)},{num(sy)} L{num(ex)},{num(ey)}"


def _province_base(board: Board, pid: str) -> dict[str, Any]:
    """A province as the board shows it before any game: outline, label, city site (or the
    cross of a province without one), a temple printed on the board."""
    view = board_view(board)
    places = board_places(board)
    p = board.province(pid)
    x, y = view.xy[pid]
    box = places["labels"][pid]
    chip = _chip(p.resource)
    name_w = text_width(p.name, NAME_SIZE, bold=True)
    room = CHIP_ROOM if chip else 1
    base = box[1] + 13
    sea = is_sea(p)
    more = {"sea": True, "sea_mark": _sea_mark(x, y)} if sea else {}
    return {
        "id": pid,
        "outline": _board_geometry(board)["outlines"][pid],
        "fill": SEA_FILL if sea else LAND, **more,
        "name": p.name, "name_ink": SEA_ONLY_INK if p.sea_only else INK,
        "name_x": num(box[0] + room + name_w / 2), "name_y": num(base),
        "chip": chip and {**chip, "cx": num(box[0] + 7), "cy": num(base - 5), "ty": num(base - 1.8)},
        "id_text": None,
        "leader": _leader(box, x, y, pid in places["far"]),
        "city": None, "site": None if p.resource == "none" else {"cx": num(x), "cy": num(y)},
        "cross": _cross(x, y) if p.resource == "none" and not sea else None,
        "temple": dict(_temple(x + 17, y), fill=NEUTRAL_TEMPLE) if p.temple else None,
        "units": [], "harbour": None,
    }


def _provinces(model: dict[str, Any], board: Board) -> list[dict[str, Any]]:
    colours = {n["id"]: n["colour"] for n in model["nations"]}
    nations = {n["id"]: n for n in model["nations"]}
    state = {p["id"]: p for p in model["provinces"]}
    view = board_view(board)
    places = board_places(board)
    fresh = refined(model)
    labels = list(places["labels"].items())
    sites = view.xy
    out = []
    for pid in sorted(board.provinces):
        x, y = view.xy[pid]
        s = state.get(pid)
        owner = s["owner"] if s else None
        entry = _province_base(board, pid)
        if owner:
            entry["fill"] = tint(colours[owner], 0.55)
            # the owner's initials too, so that a black-and-white print still tells them apart
            entry["city"] = {"x": num(x - 7), "y": num(y - 7), "fill": colours[owner],
                             "tx": num(x), "ty": num(y + 3), "text": nations[owner]["initial"],
                             "ink": nations[owner]["ink"]}
            if s.get("wall"):  # an edition with town walls
                entry["wall"] = _wall(x, y)
            # a temple printed on the board stands for a neutral city only; once the city
            # is a nation's, the game state says whether it has a temple
            entry["temple"] = _temple(x + 17, y) if s["temple"] else None
            if s.get("chosen"):  # the resource its founder chose
                entry["chip"] = {**entry["chip"], **_chip(s["resource_id"])} if entry["chip"] else None
        elif s is not None and s.get("neutral_temple"):
            # a neutral temple stands on the site until a nation destroys it
            entry["temple"] = _neutral_temple(x, y)
            entry["site"] = None
        elif board.province(pid).temple and model["game"].get("neutral_temples"):
            entry["temple"] = None  # destroyed: the site is free for a city
        units = s["units"] if s else []
        several = len(units) > 1
        top = y + 10
        harbour = places["harbours"].get(pid)
        fleets = [u for u in units if u["galley"]]
        def pill(u: dict[str, Any], kind: str, cx: float, y0: float) -> dict[str, Any]:
            """A unit badge ("2L", or "Gr 2L" for a guest or a crowded province)."""
            text = f"{u[kind]}{kind[0].upper()}"
            if u["nation"] != owner or several:
                text = f"{nations[u['nation']]['initial']} {text}"
            w = text_width(text, UNIT_SIZE, bold=True) + 10
            return {"x": num(cx - w / 2), "y": num(y0), "w": num(w), "h": str(PILL_H),
                    "tx": num(cx), "ty": num(y0 + 13), "text": text, "fill": u["colour"], "ink": u["ink"]}

        legions = [u for u in units if u["legion"]]
        cx = x
        if legions and fresh:
            cx, top = _legion_spot(x, y, [pill(u, "legion", x, 0) for u in legions], labels, sites, pid)
        for u in legions:
            entry["units"].append(pill(u, "legion", cx, top))
            top += PILL_H + PILL_GAP
        if entry.get("sea"):  # a sea region: its galleys under its mark
            stop = y + 10
            for u in fleets:
                entry["units"].append({**pill(u, "galley", x, stop), "galley": True})
                stop += PILL_H + PILL_GAP
        if harbour is not None:
            hx, hy = harbour
            entry["harbour"] = {"anchor": _anchor(hx, hy), "line": f"M{num(x)},{num(y)} L{num(hx)},{num(hy)}",
                                "busy": bool(fleets)}
            htop = hy - PILL_H / 2 - (len(fleets) - 1) * (PILL_H + PILL_GAP) / 2
            for u in fleets:
                entry["units"].append({**pill(u, "galley", hx, htop), "galley": True})
                htop += PILL_H + PILL_GAP
        out.append(entry)
    return out


def _legion_spot(x: float, y: float, pills: list[dict[str, Any]], labels: list[tuple[str, Box]],
                 sites: dict[str, tuple[float, float]], pid: str) -> tuple[float, float]:
    """Where the legion badges of the city at (``x``, ``y``) go (centre x, top): under the
    city as usual, unless they would cover a province's name there (a name the board file
    put close to a city); then beside the city on the right, on the left or above it,
    whichever covers no name and no other city; under it if none is free."""
    w = max(float(p["w"]) for p in pills)
    h = len(pills) * (PILL_H + PILL_GAP) - PILL_GAP
    spots = [(x, y + 10), (x + 28 + w / 2, y - h / 2), (x - 14 - w / 2, y - h / 2), (x, y - 12 - h)]
    cities = [(sx - 9, sy - 9, sx + 9, sy + 9) for q, (sx, sy) in sites.items() if q != pid]
    for cx, top in spots:
        box = (cx - w / 2, top, cx + w / 2, top + h)
        if not any(overlaps(box, b, 1) for _, b in labels) and not any(overlaps(box, c) for c in cities):
            return cx, top
    return spots[0]


def _arrows(model: dict[str, Any], board: Board) -> list[dict[str, Any]]:
    colours = {n["id"]: n["colour"] for n in model["nations"]}
    sites = board_view(board).xy
    out = []
    for k, mv in enumerate(model["marks"]["moves"]):
        offset = 0 if k == 0 else (6 * ((k + 1) // 2)) * (1 if k % 2 else -1)
        pts = [sites[pid] for pid in mv["route"]]
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
        x, y = board_view(board).xy[pid]
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
        x, y = board_view(board).xy[c["city"]]
        out.append({"cx": num(x), "cy": num(y + 1), "colour": colours[c["by"]]})
    return out


class _Grid:
    """The legend's places: an item is named by its column ``c`` (0-2) and row ``r`` (0-4)
    in three columns of five rows, and goes to the same place in reading order in the
    other layouts (:data:`LEGEND_LAYOUTS`)."""

    def __init__(self, box: Box, columns: int, extra: int = 0):
        self.x0, self.y0, self.layout = box[0], box[1], legend_layout(columns, extra)

    def col(self, c: int, r: int) -> float:
        return self.x0 + self.layout["cols"][(5 * c + r) // self.layout["rows"]]

    def row(self, c: int, r: int) -> float:
        return self.y0 + self.layout["top"] + self.layout["pitch"] * ((5 * c + r) % self.layout["rows"])

    def nth(self, i: int) -> tuple[float, float]:
        """The place of the ``i``-th item in reading order (16th and on: the extras)."""
        return self.col(0, i), self.row(0, i)


def _legend(box: Box, columns: int, extras: tuple[str, ...] = (),
            neutral: str = "neutral temple") -> dict[str, Any]:
    """The report's legend in ``box``: what the lines, symbols and marks on the board mean;
    ``extras`` (:func:`legend_extras`) after the classic items, ``neutral`` the words for a
    neutral temple."""
    x0, y0 = box[0], box[1]
    g = _Grid(box, columns, len(extras))

    def at(c: int, r: int) -> tuple[float, float]:
        return g.col(c, r), g.row(c, r)

    return {
        "x": num(x0), "y": num(y0), "w": num(box[2] - x0), "h": num(box[3] - y0),
        "title": {"x": num(x0 + 10), "y": num(y0 + 3)},
        "borders": [
            {"kind": kind, "label": label, "d": f"M{num(at(0, i)[0])},{num(at(0, i)[1] - 4)} "
                                                f"L{num(at(0, i)[0] + 34)},{num(at(0, i)[1] - 4)}",
             "tx": num(at(0, i)[0] + 42), "ty": num(at(0, i)[1])}
            for i, (kind, label) in enumerate((("land", "land border"), ("sea", "sea border"),
                                                ("both", "land and sea"), ("none", "no crossing")))
        ],
        **_legend_items(at),
        "extras": [_legend_extra(kind, *g.nth(15 + i), neutral) for i, kind in enumerate(extras)],
    }


def _legend_extra(kind: str, x: float, y: float, neutral: str) -> dict[str, Any]:
    """One of the later editions' legend items (:func:`legend_extras`) at (``x``, ``y``), in
    the shape the board map's legend entries have."""
    if kind == "choice":
        chip = _chip("choice")
        return {"kind": "chip", "label": "resource of choice", "cx": num(x + 7), "cy": num(y - 4),
                "ty": num(y - 0.8), **chip, "tx": num(x + 22), "ty2": num(y)}
    if kind == "none":
        return {"kind": "cross", "label": "no city site", "d": _cross(x + 7, y - 4), "tx": num(x + 22), "ty": num(y)}
    if kind == "sea":
        return {"kind": "sea", "label": SEA_LEGEND, "mark": _sea_mark(x + 8, y - 3), "tx": num(x + 22), "ty": num(y)}
    if kind == "wall":
        wall = _wall(x + 8, y - 3)
        return {"kind": "wall", "label": "town wall", "wall": wall, "square": {"x": num(x + 1), "y": num(y - 10)},
                "tx": num(x + 24), "ty": num(y)}
    return {"kind": "temple", "label": neutral, "temple": _neutral_temple(x + 8, y - 3),
            "tx": num(x + 22), "ty": num(y)}


def _legend_items(at) -> dict[str, Any]:
    """The report legend's symbols, each at its place ``at(column, row)``."""
    c1r0, c1r1, c1r2, c1r3, c1r4 = (at(1, r) for r in range(5))
    c2r0, c2r1, c2r2, c2r3, c2r4 = (at(2, r) for r in range(5))
    c0r4 = at(0, 4)
    return {
        "city": {"x": num(c1r0[0]), "y": num(c1r0[1] - 11), "tx": num(c1r0[0] + 22), "ty": num(c1r0[1])},
        "temple": dict(_temple(c1r1[0] + 7, c1r1[1] - 4), tx=num(c1r1[0] + 22), ty=num(c1r1[1])),
        "units": {"x": num(c1r2[0] - 2), "y": num(c1r2[1] - 13), "w": "26", "tx": num(c1r2[0] + 11),
                  "ty": num(c1r2[1]), "lx": num(c1r2[0] + 32)},
        "chips": [{"cx": num(c1r3[0] + 6 + 18 * i), "cy": num(c1r3[1] - 4), "ty": num(c1r3[1] - 0.8),
                   "fill": RESOURCE_COLOURS[r], "ink": ink_for(RESOURCE_COLOURS[r]), "letter": RESOURCE_LETTERS[r]}
                  for i, r in enumerate(("marble", "iron", "gold"))],
        "chips_label": {"x": num(c1r3[0] + 58), "y": num(c1r3[1])},
        "arrow": {"d": f"M{num(c2r0[0])},{num(c2r0[1] - 4)} L{num(c2r0[0] + 26)},{num(c2r0[1] - 4)}",
                  "head": _pts([(c2r0[0] + 38, c2r0[1] - 4), (c2r0[0] + 26, c2r0[1] - 11),
                                (c2r0[0] + 26, c2r0[1] + 3)]),
                  "tx": num(c2r0[0] + 46), "ty": num(c2r0[1])},
        "battle": {"points": _pts([(c2r1[0] + 16 + (15 if i % 2 == 0 else 7) * math.cos(math.pi * i / 8 - math.pi / 2),
                                    c2r1[1] - 4 + (15 if i % 2 == 0 else 7) * math.sin(math.pi * i / 8 - math.pi / 2))
                                   for i in range(16)]),
                   "tx": num(c2r1[0] + 46), "ty": num(c2r1[1])},
        "conquest": {"cx": num(c2r2[0] + 16), "cy": num(c2r2[1] - 4), "tx": num(c2r2[0] + 46), "ty": num(c2r2[1])},
        "site": {"cx": num(c2r3[0] + 16), "cy": num(c2r3[1] - 4), "tx": num(c2r3[0] + 46), "ty": num(c2r3[1])},
        "anchor": _anchor(c0r4[0] + 17, c0r4[1] - 4),
        "anchor_label": {"x": num(c0r4[0] + 42), "y": num(c0r4[1])},
        "sea_only": {"x": num(c1r4[0]), "y": num(c1r4[1]), "lx": num(c1r4[0] + 44), "ink": SEA_ONLY_INK},
        "galleys": {"x": num(c2r4[0] + 3), "y": num(c2r4[1] - 13), "w": "26", "tx": num(c2r4[0] + 16),
                    "ty": num(c2r4[1]), "lx": num(c2r4[0] + 46)},
    }


ROW_A_H = 290
"""The rondel and the nations table."""
ROW_B_H = 236
"""The progress chart and the score card; the log takes the rest of the page."""
PROGRESS_W = 604


@dataclass(frozen=True)
class Rows:
    """Where the panels go: three rows under the board (and its legend and note, where
    they are below it); the log, last, gets what the board leaves of the page."""

    a: float
    b: float
    c: float
    c_h: float


def panel_rows(view: View) -> Rows:
    a = view.bottom + MARGIN
    b = a + ROW_A_H + MARGIN
    c = b + ROW_B_H + MARGIN
    return Rows(a, b, c, HEIGHT - c - MARGIN)


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


def refined(model: dict[str, Any]) -> bool:
    """Whether the board page of ``model`` gets the refinements made after the first
    editions' page was drawn: wedge labels kept clear of the wedge numbers, progress chart
    headers kept clear of the separators and inside the panel. An edition whose reports
    must stay byte for byte what its players were sent, even years later, says no
    (:attr:`Edition.report_refined <pbem.kernel.edition.Edition.report_refined>`)."""
    return model["game"].get("refined", True)


def _clear_label(cx: float, cy: float, r: float, mid: float, half: float, y: float, label: str,
                 avoid: Box) -> tuple[float, float]:
    """Centre and font size of a wedge's ``label`` on the line at ``y``: the longest stretch
    of it inside the wedge around ``mid`` (``half`` degrees either side) that keeps clear
    of the box ``avoid`` (the wedge's number), the text at most 12 and 9 high."""
    def inside(px: float, py: float) -> bool:
        dx, dy = px - cx, py - cy
        if math.hypot(dx, dy) > r - 3:
            return False
        diff = (math.atan2(dy, dx) - mid + math.pi) % (2 * math.pi) - math.pi
        return abs(diff) < math.radians(half) - 0.04

    best = (0.0, cx)
    run = None
    px = cx - r
    while px <= cx + r + 0.5:
        ok = (inside(px, y - 5) and inside(px, y + 5)
              and not (avoid[0] - 3 <= px <= avoid[2] + 3 and avoid[1] - 3 <= y + 5 and y - 5 <= avoid[3] + 3))
        if ok and run is None:
            run = px
        if (not ok or px + 0.5 > cx + r + 0.5) and run is not None:
            end = px if not ok else px + 0.5
            if end - run > best[0]:
                best = (end - run, (run + end) / 2)
            run = None
        px += 0.5
    width, centre = best
    size = min(12.0, math.floor(12 * 0.92 * width / text_width(label, 12, bold=True) * 2) / 2)
    return centre, size


def _rondel(model: dict[str, Any], place: Rows) -> dict[str, Any]:
    box = {"x": MARGIN, "y": place.a, "w": 300, "h": ROW_A_H}
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
        nx, ny = cx + 0.86 * r * math.cos(mid), cy + 0.86 * r * math.sin(mid) + 4
        if refined(model):
            # the label must not run into the wedge's number (AURUM and SCIENTIA lie along
            # the line through the number)
            nw = text_width(f"({i})" if w.get("twin") else str(i), 12 if w.get("twin") else 10, bold=True)
            number = (nx - nw / 2, ny - 9, nx + nw / 2, ny + 1)
            half = text_width(label, size, bold=True) / 2
            if overlaps((lx - half, ly - size * 0.36 - 5, lx + half, ly + 5), number, 3):
                lx, size = _clear_label(cx, cy, r, mid, step / 2, ly, label, number)
        wedges.append({
            "d": f"M{num(cx)},{num(cy)} L{num(p0[0])},{num(p0[1])} A{r},{r} 0 0,1 {num(p1[0])},{num(p1[1])} Z",
            "fill": w["colour"], "label": label, "size": num(size),
            "tx": num(lx), "ty": num(ly + size * 0.36),
            # every wedge's number (as docs/orders.md counts them), by the rim; the two
            # MANEUVER wedges are told apart by it: MANEUVER (3) and MANEUVER (7)
            "num": {"x": num(nx), "y": num(ny),
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


def _nations_table(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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
    table = _table(x, place.a, w, ROW_A_H, title, header, rows)
    # what the edition keeps beyond the table (Edition.status_lines), at the foot of the panel
    # and what it keeps of each nation beyond the table (Edition.nation_facts)
    lines = [*model.get("status_lines", []), *model.get("nation_notes", [])]
    below = place.a + 30 + 26 * (len(rows) + 1) + 22  # under the bank's row, a little apart
    last = place.a + ROW_A_H - 12
    table["notes"] = [{"x": num(x + 12), "y": num(min(below + 18 * k, last - 18 * (len(lines) - 1 - k))),
                       "label": f"{line['label']}:", "lx": num(x + 12 + text_width(line["label"] + ": ", 13, True)),
                       "text": fit(line["value"], 13, w - 30 - text_width(line["label"] + ": ", 13, True))}
                      for k, line in enumerate(lines)]
    return table


def _progress(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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
    table = _table(x, place.b, w, ROW_B_H, "Progress chart: who owns which know-how", header, rows, head_h=40)
    # a line before each basic know-how but the first: basics with their secondaries
    table["separators"] = [num(x + 10 + name_w + col_w * i) for i, k in enumerate(model["knowhows"])
                           if i and not k["secondary"]]
    table["sep_y1"] = num(place.b + 34)
    table["sep_y2"] = num(place.b + ROW_B_H - 8)
    if refined(model):
        # long labels (COMMERCIUM, RES PUBLICA) are wider than their columns: the lines
        # start under the headers, and the last header stays inside the panel
        table["sep_y1"] = table["line_y"]
        for cell in header:
            half = text_width(cell["text"], HEAD_SIZE, bold=True) / 2
            cell["x"] = num(min(float(cell["x"]), x + w - 8 - half))
    return table


def _scores(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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
    return _table(x, place.b, w, ROW_B_H, f"Score card: {unit} against the goal of {goal}", header, rows,
                  head_h=40 if crowded else 26)


LOG_SIZE = 12.5
LOG_LINE = 15


def _log(model: dict[str, Any], place: Rows) -> dict[str, Any]:
    x, w = MARGIN, WIDTH - 2 * MARGIN
    col_w = (w - 30) / 2
    per_col = int((place.c_h - 40) // LOG_LINE)
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
        out.append({"x": num(x + 12 + col * (col_w + 10) + shift), "y": num(place.c + 44 + row * LOG_LINE),
                    "text": text, "weight": "bold" if bold else "normal"})
    title = model.get("log_title") or ("Turn log" if model["turn"] else "Set-up")
    return {"x": num(x), "y": num(place.c), "w": num(w), "h": num(place.c_h), "title": title,
            "title_x": num(x + 10), "title_y": num(place.c + 20), "lines": out}


def _header(model: dict[str, Any]) -> dict[str, Any]:
    g = model["game"]
    # a private report's title is longer (whose it is): the board's name below names the edition
    lead = f"{g['id']}" if model.get("private") else f"{g['edition']} · {g['id']}"
    title = fit(f"{lead} · {model['title']}", 22, 640, bold=True)
    if model["winner"]:
        status = f"{model['winner']['name']} won the game"
    elif model["next"]:
        status = f"round {model['round']} · next: {model['next']['name']} (turn {model['next']['turn']})"
    else:
        status = f"round {model['round']}"
    variants = f" · {', '.join(g['variants'])}" if g["variants"] else ""
    sub = f"{g['board']}{variants} · goal {g['goal']} {g['goal_unit']}"
    if not model.get("deadline"):
        return {"title": title, "status": status, "sub": fit(sub, 12, 500)}
    # the current turn's deadline goes under whose turn it is, on the right; the board and
    # the goal under the title, on the left, which leaves the right column room
    deadline = fit(model["deadline"], DEADLINE_SIZE, DEADLINE_WIDTH, bold=True)
    left = WIDTH - 2 * 14 - 24 - max(text_width(deadline, DEADLINE_SIZE, True), text_width(status, 15, True))
    return {"title": fit(f"{lead} · {model['title']}", 22, min(640, left), bold=True), "status": status,
            "sub": fit(sub, DEADLINE_SIZE, min(500, left)), "deadline": deadline}


DEADLINE_SIZE = 12
DEADLINE_WIDTH = 620
"""The board page's header gives the deadline's sentence at most this many units."""


def board_frame(board: Board) -> dict[str, Any]:
    """What the board page and the board map share: where the board is drawn, its outlines
    and borders, the reconstruction note."""
    view = board_view(board)
    geometry = _board_geometry(board)
    note = None
    if view.note is not None:
        note = {"x": num(view.note[0]), "y": num(view.note[1]), "text": NOTE_TEXT, "ink": NOTE_INK}
    return {
        "width": str(WIDTH), "board_x": num(view.x), "board_y": num(view.y),
        "board_w": num(view.w), "board_h": num(view.h),
        "sea": SEA, "font": FONT, "border_colours": BORDER_COLOURS,
        "borders": geometry["borders"], "links": geometry["links"], "note": note,
    }


def svg_layout(model: dict[str, Any], board: Board) -> dict[str, Any]:
    """Everything the board page template needs, placed."""
    view = board_view(board)
    place = panel_rows(view)
    return {
        **board_frame(board),
        "height": str(HEIGHT), "map": False,
        "header": _header(model),
        "provinces": _provinces(model, board),
        "arrows": _arrows(model, board), "battles": _battles(model, board),
        "conquests": _conquests(model, board),
        "legend": _legend(view.legend, view.columns, view.extras, model.get("neutral_text", "neutral temple")),
        "rondel": _rondel(model, place), "nations": _nations_table(model, place),
        "progress": _progress(model, place), "scores": _scores(model, place), "log": _log(model, place),
        "footer": _footer(model),
    }


def _footer(model: dict[str, Any]) -> dict[str, str] | None:
    """The witness line in the page's bottom margin, under the panels: the game hash after
    the entry reported, in full (docs/orders.md, "Witness hashes")."""
    witness = model.get("witness")
    if not witness:
        return None
    return {"x": num(WIDTH - 14), "y": num(HEIGHT - 2.5), "text": witness["line"]}


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
    if model.get("deadline"):  # the current turn's, as on the board page's header
        for line in wrap(model["deadline"], PAGE_TEXT, WIDTH - 2 * PAGE_MARGIN, bold=True):
            flow.text(PAGE_MARGIN, line, bold=True)
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
    if model.get("status_lines"):  # what the edition keeps beyond the nations (Edition.status_lines)
        flow.y += 6
        for line in model["status_lines"]:
            flow.paragraph(line["label"], line["value"])
    cols = [(PAGE_MARGIN, "Province"), (PAGE_MARGIN + 190, "Resource"), (PAGE_MARGIN + 300, "Kind"),
            (PAGE_MARGIN + 400, "City of"), (PAGE_MARGIN + 540, "Temple"), (PAGE_MARGIN + 620, "Units")]
    if refined(model):  # room for a chosen resource ("marble, chosen") and "neutral"
        cols = [(PAGE_MARGIN, "Province"), (PAGE_MARGIN + 180, "Resource"), (PAGE_MARGIN + 330, "Kind"),
                (PAGE_MARGIN + 420, "City of"), (PAGE_MARGIN + 550, "Temple"), (PAGE_MARGIN + 630, "Units")]
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
        temple = "yes" if p["temple"] else "neutral" if p.get("neutral_temple") else ""
        if p.get("wall"):  # an edition's town wall
            temple = f"{temple}, wall" if temple else "wall"
        values = [p["name"], p["resource"], p.get("kind_text") or "inland", p["owner_name"] or "—", temple]
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
