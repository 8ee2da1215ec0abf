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

The package in rooms, each importing only the ones before it: :mod:`.base` (the page,
fonts and numbers), :mod:`.marks` (the symbols), :mod:`.legend`, :mod:`.placement` (the
board in the page and everything placed on it), :mod:`.board` (the board drawn),
:mod:`.panels` (rondel, tables, chart, log) and :mod:`.pages`. The names other modules use
are imported here (:data:`__all__`), so ``from pbem.report.layout import ...`` reads as it always did.
"""

from __future__ import annotations

from pbem.report.layout.base import (
                                     BOARD_ROOM,
                                     CHIP_ROOM,
                                     FONT,
                                     HARBOUR_H,
                                     HARBOUR_W,
                                     HEADER,
                                     HEIGHT,
                                     MARGIN,
                                     NAME_SIZE,
                                     SEA,
                                     SEA_ONLY_INK,
                                     WIDTH,
                                     Box,
                                     fit,
                                     num,
                                     temple_mark,
                                     text_width,
)
from pbem.report.layout.board import province_base
from pbem.report.layout.legend import LEGEND_BOX, LEGEND_LAYOUTS, SEA_LEGEND, LegendGrid, legend_extras
from pbem.report.layout.marks import NEUTRAL_FILL, NEUTRAL_TEMPLE, anchor_mark, chip_mark, cross_mark, galley_mark
from pbem.report.layout.pages import board_frame, pages_layout, svg_layout
from pbem.report.layout.panels import panel_rows
from pbem.report.layout.placement import (
                                     board_places,
                                     board_view,
                                     box_distance,
                                     box_inside,
                                     far_candidates,
                                     label_box,
                                     marker_box,
                                     on_land,
                                     overlap_cost,
                                     overlaps,
)

__all__ = [
    "BOARD_ROOM", "Box", "CHIP_ROOM", "FONT", "HARBOUR_H", "HARBOUR_W", "HEADER", "HEIGHT", "LEGEND_BOX",
    "LEGEND_LAYOUTS", "MARGIN", "NAME_SIZE", "NEUTRAL_FILL", "NEUTRAL_TEMPLE", "SEA", "SEA_LEGEND",
    "SEA_ONLY_INK", "WIDTH", "LegendGrid", "anchor_mark", "box_distance", "chip_mark", "overlap_cost", "cross_mark",
    "far_candidates", "box_inside", "on_land", "province_base", "galley_mark", "temple_mark", "board_frame",
    "board_places", "board_view", "fit", "label_box", "legend_extras", "marker_box", "num", "overlaps",
    "pages_layout", "panel_rows", "svg_layout", "text_width",
]
