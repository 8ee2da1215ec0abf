"""The board drawn: each province with its city, temple, units and labels, this turn's
moves, battles and conquests."""

from __future__ import annotations

import math
from typing import Any

from pbem.kernel.board import Board
from pbem.report.style import ink_for, is_sea
from pbem.report.layout.base import (Box, CHIP_ROOM, INK, LAND, NAME_SIZE, PILL_GAP, PILL_H, SEA_ONLY_INK,
                                     UNIT_SIZE, _pts, _temple, num, refined, text_width, tint)
from pbem.kernel.protocols import CityMark
from pbem.report.layout.marks import (NEUTRAL_TEMPLE, SEA_FILL, _anchor, _chip, _cross, _neutral_temple, _sea_mark,
                                      city_mark)
from pbem.report.layout.placement import (View, _board_geometry, _leader, board_places, board_view, model_marks,
                                          overlaps)


def _province_base(board: Board, pid: str, marks: tuple[CityMark, ...] = ()) -> dict[str, Any]:
    """A province as the board shows it before any game: outline, label, city site (or the
    cross of a province without one), a temple printed on the board (``marks``: the city
    marks of the game's edition, :func:`board_view`)."""
    view = board_view(board, marks)
    places = board_places(board, marks)
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
        "outline": _board_geometry(board, marks)["outlines"][pid],
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
    """Every province as drawn: its shape and site (:func:`_province_base`), its city,
    the edition's marks round it and its temple (:func:`_site_marks`), its unit badges
    (:func:`_unit_badges`)."""
    nations = {n["id"]: n for n in model["nations"]}
    state = {p["id"]: p for p in model["provinces"]}
    marks = model_marks(model)
    view, places = board_view(board, marks), board_places(board, marks)
    out = []
    for pid in sorted(board.provinces):
        entry = _province_base(board, pid, marks)
        _site_marks(entry, model, board, view, pid, state.get(pid), nations)
        _unit_badges(entry, view, pid, state.get(pid), nations, places, refined(model))
        out.append(entry)
    return out


def _site_marks(entry: dict[str, Any], model: dict[str, Any], board: Board, view: View, pid: str,
                s: dict[str, Any] | None, nations: dict[str, dict[str, Any]]) -> None:
    """A province's city (its owner's colour and initials), the edition's marks round it
    (a town wall), temple and chosen resource; a neutral temple, or none where one was
    destroyed."""
    x, y = view.xy[pid]
    owner = s["owner"] if s else None
    if owner:
        colour = nations[owner]["colour"]
        entry["fill"] = tint(colour, 0.55)
        # the owner's initials too, so that a black-and-white print still tells them apart
        entry["city"] = {"x": num(x - 7), "y": num(y - 7), "fill": colour,
                         "tx": num(x), "ty": num(y + 3), "text": nations[owner]["initial"],
                         "ink": nations[owner]["ink"]}
        if s.get("marks"):  # an edition's marks round the city (a town wall)
            entry["marks"] = [city_mark(mark["shape"], x, y) for mark in s["marks"]]
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


def _unit_badges(entry: dict[str, Any], view: View, pid: str, s: dict[str, Any] | None,
                 nations: dict[str, dict[str, Any]], places: dict[str, Any], fresh: bool) -> None:
    """A province's unit badges: legions at the city (moved clear of the labels where
    the page is ``fresh``, :func:`refined`), galleys under a sea region's mark or at the
    port's anchor."""
    x, y = view.xy[pid]
    owner = s["owner"] if s else None
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
        labels = list(places["labels"].items())
        cx, top = _legion_spot(x, y, [pill(u, "legion", x, 0) for u in legions], labels, view.xy, pid)
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
    sites = board_view(board, model_marks(model)).xy
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
    sites = board_view(board, model_marks(model)).xy
    for pid in sorted(seen):
        x, y = sites[pid]
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
    sites = board_view(board, model_marks(model)).xy
    for c in model["marks"]["conquests"]:
        x, y = sites[c["city"]]
        out.append({"cx": num(x), "cy": num(y + 1), "colour": colours[c["by"]]})
    return out
