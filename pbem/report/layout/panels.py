"""The panels below the board: the rondel, the nations' table, the progress chart, the
score card, the turn log, the header and the footer."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pbem.report.layout.base import HEAD_SIZE, HEIGHT, INK, MARGIN, WIDTH, Box, fit, num, refined, text_width, wrap
from pbem.report.layout.placement import View, overlaps

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


def draw_rondel(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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


def draw_nations_table(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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
    rows: list[dict[str, Any]] = []
    for n in model["nations"]:
        mark = "▶ " if n["next"] else "★ " if n["winner"] else ""
        cells = [_cell(x + 30, mark + n["name"], "start", True),
                 _cell(x + 30 + name_w, fit(n["player"] or "—", 14, player_w - 8), "start")]
        values = [n["resources"]["marble"], n["resources"]["iron"], n["resources"]["gold"], n["coins"],
                  len(n["cities"]), len(n["temples"]), n["units"]["legion"], n["units"]["galley"]]
        edge = x + 30 + name_w + player_w
        for (_, cw), v in zip(cols, values):
            edge += cw
            cells.append(_cell(edge, v, "end"))
        rows.append({"cells": cells, "swatch": _swatch(x + 10, n)})
    bank = model["bank"]
    edge = x + 30 + name_w + player_w
    bank_cells = [_cell(x + 30, "Bank", "start", True),
                  _cell(x + 30 + name_w, "coins and temples left", "start", fill="#555555")]
    for (_, cw), v in zip(cols, ["", "", "", bank["coins"], "", bank["temples"], "", ""]):
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


def draw_progress(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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


def draw_scores(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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
    rows: list[dict[str, Any]] = []
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


def draw_log(model: dict[str, Any], place: Rows) -> dict[str, Any]:
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


def draw_header(model: dict[str, Any]) -> dict[str, Any]:
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


def draw_footer(model: dict[str, Any]) -> dict[str, str] | None:
    """The witness line in the page's bottom margin, under the panels: the game hash after
    the entry reported, in full (docs/orders.md, "Witness hashes")."""
    witness = model.get("witness")
    if not witness:
        return None
    return {"x": num(WIDTH - 14), "y": num(HEIGHT - 2.5), "text": witness["line"]}
