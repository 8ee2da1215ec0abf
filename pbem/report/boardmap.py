"""The board alone, as the reports draw it: for whoever makes or checks a board file.

``antike-ref map render FILE`` draws a board with :func:`board_svg` (or
:func:`board_pictures` for PNG and PDF): every province's outline, borders, port anchors,
city site coloured by its resource, name and id, with a title line and the legend, placed
exactly as on the report's board page (:mod:`pbem.report.layout`). ``antike-ref map
check FILE`` adds :func:`label_problems`: name labels that the placement could not keep
apart, each with the JSON path where a ``label`` position fixes it.

Jinja2 and cairosvg are imported only when something is drawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from pbem.errors import Problem, UsageError
from pbem.kernel.board import Board
from pbem.kernel.protocols import CityMark
from pbem.report.layout import (CHIP_ROOM, HARBOUR_H, HARBOUR_W, LEGEND_LAYOUTS, MARGIN, NEUTRAL_TEMPLE, SEA_LEGEND,
                                SEA_ONLY_INK, WIDTH, Box, _anchor, _box_distance, _chip, _cost, _cross,
                                _far_candidates, _Grid, _inside, _province_base, _sea_mark, _temple, board_frame,
                                board_places, board_view, fit, legend_extras, marker_box, num, overlaps, text_width)

PICTURE_FORMATS = ("svg", "png", "pdf")
ID_SIZE = 10
ID_H = 11


@lru_cache(maxsize=8)
def id_places(board: Board, marks: tuple[CityMark, ...] = ()) -> dict[str, Box]:
    """Where each province's id goes on the board map: under its name where that is free,
    else above it, beside it or further down, so that the names stay exactly where the
    reports put them (:func:`board_places`) and the ids fill the room between."""
    view = board_view(board, marks)
    places = board_places(board, marks)
    labels = places["labels"]
    taken: list[Box] = [view.legend, *labels.values()]
    taken += [(x - HARBOUR_W / 2, y - HARBOUR_H / 2, x + HARBOUR_W / 2, y + HARBOUR_H / 2)
              for x, y in places["harbours"].values()]
    for pid, (x, y) in view.xy.items():  # the city squares (no units on the map)
        taken.append((x - 9, y - 9, x + (27 if board.province(pid).temple else 9), y + 9))
    out: dict[str, Box] = {}
    for pid in sorted(labels, key=lambda q: (labels[q][1], labels[q][0])):
        box = labels[pid]
        left = box[0] + (CHIP_ROOM if _chip(board.province(pid).resource) else 1)
        w = text_width(pid, ID_SIZE) + 2
        others = [t for t in taken if t is not box]
        best = None
        close = [(left, box[3] - 2), (box[2] - w, box[3] - 2), (left, box[1] - ID_H + 1),
                 (box[2] + 3, box[1] + 4), (box[0] - w - 3, box[1] + 4)]
        # else anywhere near the name, but not on it
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        further = [(x0, y0) for x0, y0 in _far_candidates(w, ID_H, cx, cy)
                   if _box_distance((x0, y0, x0 + w, y0 + ID_H), cx, cy) < 40]
        for k, (x0, y0) in enumerate(close + further):
            spot = (x0, y0, x0 + w, y0 + ID_H)
            if not _inside(spot, view.bounds):
                continue
            cost = _cost(spot, others if k < len(close) else taken)
            if best is None or cost < best[0]:
                best = (cost, spot)
            if cost == 0:
                break
        out[pid] = best[1] if best else (left, box[3] - 2, left + w, box[3] - 2 + ID_H)
        taken.append(out[pid])
    return out


def map_layout(board: Board, ids: bool = True, marks: tuple[CityMark, ...] = ()) -> dict[str, Any]:
    """What the board template needs to draw ``board`` alone (no game on it): the
    provinces with their city sites, anchors and labels (``ids``: and each province's id,
    :func:`id_places`), the title line and the board map's legend; placed as the reports of
    a game of the edition whose city marks are ``marks`` place them (:func:`board_view`)."""
    view = board_view(board, marks)
    places = board_places(board, marks)
    spots = id_places(board, marks) if ids else {}
    provinces = []
    for pid in sorted(board.provinces):
        entry = _province_base(board, pid, marks)
        if ids:
            spot = spots[pid]
            entry["id_text"] = {"x": num(spot[0] + 1), "y": num(spot[1] + 8.5), "text": pid}
        x, y = view.xy[pid]
        chip = _chip(board.province(pid).resource)
        if chip:
            entry["city"] = {"x": num(x - 7), "y": num(y - 7), "fill": chip["fill"], "tx": num(x),
                             "ty": num(y + 3), "text": chip["letter"], "ink": chip["ink"]}
            entry["site"] = None
        harbour = places["harbours"].get(pid)
        if harbour is not None:
            hx, hy = harbour
            entry["harbour"] = {"anchor": _anchor(hx, hy), "line": f"M{num(x)},{num(y)} L{num(hx)},{num(hy)}",
                                "busy": False}
        provinces.append(entry)
    title = board.name
    if board.reconstruction and "reconstruct" not in title.lower():
        title += " (reconstruction)"
    status = f"{len(board.provinces)} provinces · picture {board.width} × {board.height}"
    sub = f"board {board.id} · edition {board.edition} · drawn at {round(view.scale * 100)} %"
    room = WIDTH - 14 - 24 - max(text_width(status, 15, bold=True), text_width(sub, 12))
    return {
        **board_frame(board, marks),
        "height": num(view.bottom + MARGIN), "map": True,
        "header": {"title": fit(title, 22, room, bold=True), "status": status, "sub": sub},
        "provinces": provinces, "arrows": [], "battles": [], "conquests": [],
        "legend": _map_legend(view.legend, view.columns, ids, "none" not in legend_extras(board)
                              and "sea" in legend_extras(board)),
    }


def _map_legend(box, columns: int, ids: bool, seas: bool = False) -> dict[str, Any]:
    """The board map's legend: borders and anchors as on the report, the kinds of city
    site, temples printed on the board, sea-only names, and how a label shows the id.
    Its items fit the classic layout: where the report's legend is wider (the column of a
    later edition's marks), the map's keeps the classic width, centred in a strip below the
    board, against the board's edge on it. ``seas``: the board's provinces without a city
    site are sea regions (an edition with seas), shown by their galley mark."""
    base = LEGEND_LAYOUTS[columns]["size"][0]
    extra = (box[2] - box[0]) - base
    if columns != 1 and extra > 0:
        left = box[0] + (extra / 2 if columns == 5 else 0 if box[0] < 100 else extra)
        box = (left, box[1], left + base, box[3])
    items = _legend_items(_Grid(box, columns), ids, seas)
    return {"x": num(box[0]), "y": num(box[1]), "w": num(box[2] - box[0]), "h": num(box[3] - box[1]),
            "entries": [_legend_entry(i) for i in items]}


def _legend_items(g: _Grid, ids: bool, seas: bool) -> list[dict[str, Any]]:
    """The map legend's items, each with its kind, label and place on the grid ``g``."""
    items: list[dict[str, Any]] = []

    def item(c: int, r: int, kind: str, label: str, **more: Any) -> None:
        x, y = g.col(c, r), g.row(c, r)
        items.append({"kind": kind, "label": label, "x": x, "y": y, **more})

    for r, (kind, label) in enumerate((("land", "land border"), ("sea", "sea border"),
                                       ("both", "land and sea"), ("none", "no crossing"))):
        item(0, r, kind, label)
    item(0, 4, "anchor", "port: galleys here")
    item(1, 0, "sites", "marble, iron, gold", resources=("marble", "iron", "gold"))
    item(1, 1, "sites", "resource of choice", resources=("choice",))
    if seas:
        item(1, 2, "sea", SEA_LEGEND)
    else:
        item(1, 2, "cross", "no city site")
    item(1, 3, "temple", "temple on the board")
    item(1, 4, "sample", "sea-only: no legions", sample="Name", sub=None, ink=SEA_ONLY_INK)
    if ids:
        item(2, 0, "sample", "name, and the id", sample="Name", sub="name_id", ink="#222222")
    return items


def _legend_entry(i: dict[str, Any]) -> dict[str, Any]:
    """A legend item drawn: its mark at its place and where its label goes (``i``'s place
    taken out)."""
    x, y, kind = i.pop("x"), i.pop("y"), i["kind"]
    i["tx"], i["ty"] = num(x + 42), num(y)
    if kind in ("land", "sea", "both", "none"):
        i["d"] = f"M{num(x)},{num(y - 4)} L{num(x + 34)},{num(y - 4)}"
    elif kind == "anchor":
        i["anchor"] = _anchor(x + 17, y - 4)
    elif kind == "sites":
        resources = i.pop("resources")
        i["sites"] = []
        for k, resource in enumerate(resources):
            chip = _chip(resource)
            sx = x + 18 * k
            i["sites"].append({"x": num(sx), "y": num(y - 11), "fill": chip["fill"], "tx": num(sx + 7),
                               "ty": num(y - 1), "text": chip["letter"], "ink": chip["ink"]})
        i["tx"] = num(x + 18 * len(resources) + 6)
    elif kind == "cross":
        i["d"] = _cross(x + 7, y - 4)
        i["tx"] = num(x + 24)
    elif kind == "sea":
        i["mark"] = _sea_mark(x + 8, y - 3)
        i["tx"] = num(x + 24)
    elif kind == "temple":
        i["temple"] = dict(_temple(x + 7, y - 4), fill=NEUTRAL_TEMPLE)
        i["tx"] = num(x + 24)
    elif kind == "sample":
        i["sx"], i["sy"] = num(x), num(y)
        i["sy2"] = num(y + 11)
        i["tx"] = num(x + 44)
    return i


def board_svg(board: Board, ids: bool = True, marks: tuple[CityMark, ...] = ()) -> str:
    """``board`` alone as the reports draw it, with each province's name and (``ids``)
    its id, a title line (name, a reconstruction said so, picture size, province count) and
    the legend: an SVG document 1152 units wide (``marks``: :func:`map_layout`)."""
    from pbem.report.render import render_template

    return render_template("svg", layout=map_layout(board, ids, marks))


def board_pictures(board: Board, formats: Iterable[str] = PICTURE_FORMATS, ids: bool = True,
                   marks: tuple[CityMark, ...] = ()) -> dict[str, bytes]:
    """:func:`board_svg` as files: ``{"svg": ..., "png": ..., "pdf": ...}`` for the
    ``formats`` asked (the PNG 1440 pixels wide and in full colour, for comparing
    with the printed board; the PDF one page as wide as A4)."""
    from pbem.report import MAP_PNG_SCALE, PDF_PAGE_WIDTH_PT

    asked = list(formats)
    for fmt in asked:
        if fmt not in PICTURE_FORMATS:
            raise UsageError(f"--format {fmt!r}: one of {', '.join(PICTURE_FORMATS)}")
    svg = board_svg(board, ids, marks)
    out: dict[str, bytes] = {}
    drawing = None
    for fmt in PICTURE_FORMATS:
        if fmt not in asked:
            continue
        if fmt == "svg":
            out[fmt] = svg.encode("utf-8")
            continue
        from pbem.report import render

        if drawing is None:
            drawing = render.Drawing(svg)
        if fmt == "png":
            out[fmt] = render.to_png_full_colour(drawing, scale=MAP_PNG_SCALE)
        else:
            out[fmt] = render.to_pdf([drawing], dpi=72 * WIDTH / PDF_PAGE_WIDTH_PT)
    return out


def city_box(x: float, y: float) -> Box:
    """A city's own marks: its square with the temple on its right and the battle star on
    its left (the upper part of :func:`marker_box`, without the room for unit badges)."""
    return marker_box(x, y)[:3] + (y + 10,)


def label_problems(board: Board, marks: tuple[CityMark, ...] = ()) -> list[Problem]:
    """Name labels that overlap on the report's board: one problem per pair of labels that
    overlap, or per label that covers another province's city (:func:`city_box`), where
    the labels were placed automatically or at the map's ``label`` positions.

    Each names both provinces; its path is the ``label`` of the province to move (of two
    overlapping labels the one placed last: the one that found no free place), indexed as
    in the map data the board was built from (``board.data``). Labels placed
    automatically keep clear of each other and of every city with the room for its unit
    badges (:func:`board_places`), so a problem means a crowded board or a ``label``
    position to correct (``marks``: :func:`map_layout`)."""
    view = board_view(board, marks)
    places = board_places(board, marks)
    labels = places["labels"]
    index = {p["id"]: i for i, p in enumerate(board.data["provinces"])}
    given = [pid for pid in view.labels]
    order = given + sorted((pid for pid in board.provinces if pid not in view.labels),
                           key=lambda q: (-len(board.province(q).name), q))
    where = f'"label": [x, y], the centre of its name on the {board.width}x{board.height} picture'
    if round(view.scale * 100) != 100:
        where += (f" (the reports draw the picture at {round(view.scale * 100)} % and names at their own size, "
                  f"so a name takes {round(100 / view.scale)} % of its drawn width on the picture)")

    def name(pid: str) -> str:
        return f"{board.province(pid).name} ({pid})"

    found = []
    for k, b in enumerate(order):
        for a in order[:k]:
            if overlaps(labels[a], labels[b]):
                found.append(Problem(f"$.provinces[{index[b]}].label",
                                     f"the name labels of {name(a)} and {name(b)} overlap on the report's "
                                     f"board: move one of them with {where}"))
    for a in order:
        for b in sorted(board.provinces):
            if b != a and overlaps(labels[a], city_box(*view.xy[b])):
                found.append(Problem(f"$.provinces[{index[a]}].label",
                                     f"the name label of {name(a)} covers the city of {name(b)} on the report's "
                                     f"board: move it with {where}"))
    return found
