"""The marks drawn on the board and in its legend: temples, chips, anchors, sea regions,
the shapes of an edition's city marks (:data:`CITY_MARK_SHAPES`: battlements, a town wall),
crosses."""

from __future__ import annotations

from pbem.report.style import RESOURCE_COLOURS, ink_for
from pbem.report.layout.base import RESOURCE_LETTERS, SEA, SEA_ONLY_INK, _pts, _temple, num


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


STONE = "#8c8577"
"""Battlements are stone grey."""


def _battlements(x: float, y: float) -> dict[str, str]:
    """Battlements round the city square at (x, y) (an edition's town wall): a stone frame
    with three merlons on top, drawn under the square."""
    top, merlon = y - 10, y - 13.5
    points = [(x - 10.5, y + 10.5), (x - 10.5, merlon)]
    for left, right in ((x - 10.5, x - 6), (x - 2.2, x + 2.2), (x + 6, x + 10.5)):
        if left != x - 10.5:
            points += [(left, top), (left, merlon)]
        points += [(right, merlon)]
        if right != x + 10.5:
            points += [(right, top)]
    points += [(x + 10.5, y + 10.5)]
    return {"points": _pts(points), "fill": STONE}


CITY_MARK_SHAPES = {"battlements": _battlements}
"""How each shape of an edition's city marks (:class:`~pbem.kernel.protocols.CityMark`) is
drawn round the city square at (x, y)."""


def city_mark(shape: str, x: float, y: float) -> dict[str, str]:
    """An edition's city mark of ``shape`` round the city square at (x, y)."""
    return CITY_MARK_SHAPES[shape](x, y)


def _cross(x: float, y: float) -> str:
    """The mark of a province with no city site: a small grey cross."""
    return (f"M{num(x - 4)},{num(y - 4)} L{num(x + 4)},{num(y + 4)} "
            f"M{num(x - 4)},{num(y + 4)} L{num(x + 4)},{num(y - 4)}")
