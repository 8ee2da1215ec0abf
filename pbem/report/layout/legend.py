"""The board's legend: which marks it explains (the board's and its edition's), how its
items are laid out in rows and columns, and the items themselves."""

from __future__ import annotations

import math
from typing import Any

from pbem.kernel.board import Board
from pbem.kernel.protocols import CityMark
from pbem.report.style import RESOURCE_COLOURS, ink_for, is_sea
from pbem.report.layout.base import Box, RESOURCE_LETTERS, SEA_ONLY_INK, _pts, _temple, num
from pbem.report.layout.marks import _anchor, _chip, _cross, _neutral_temple, _sea_mark, city_mark


def legend_extras(board: Board, marks: tuple[CityMark, ...] = ()) -> tuple[str | CityMark, ...]:
    """The marks of later editions' boards that the report's legend explains, in this
    order, where the board has them: ``choice`` (a site whose founder chooses the
    resource), ``none`` (no city site), ``sea`` (a sea region: no city site, galleys
    only, counting double), ``neutral`` (a neutral temple at set-up), then ``marks``: the
    city marks of the game's edition (:attr:`Phrases.city_marks
    <pbem.kernel.protocols.Phrases>`: a town wall), which the caller hands down. The first
    boards have none of them, and their legend is unchanged."""
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
    return (*out, *marks)


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


def _legend(box: Box, columns: int, extras: tuple[str | CityMark, ...] = (),
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


def _legend_extra(kind: str | CityMark, x: float, y: float, neutral: str) -> dict[str, Any]:
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
    if isinstance(kind, CityMark):  # round a city square, as on the board
        return {"kind": "mark", "label": kind.words, "mark": city_mark(kind.shape, x + 8, y - 3),
                "square": {"x": num(x + 1), "y": num(y - 10)}, "tx": num(x + 24), "ty": num(y)}
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
