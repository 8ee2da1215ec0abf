"""The page and its measures: sizes, colours, fonts and their metrics, numbers as the
templates print them (:func:`num`), and the small helpers every part of the layout uses."""

from __future__ import annotations

from typing import Any

from pbem.report.style import RECONSTRUCTION_NOTE


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


NAME_SIZE = 14
UNIT_SIZE = 12
RESOURCE_LETTERS = {"marble": "M", "iron": "I", "gold": "G"}


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


def refined(model: dict[str, Any]) -> bool:
    """Whether the board page of ``model`` gets the refinements made after the first
    editions' page was drawn: wedge labels kept clear of the wedge numbers, progress chart
    headers kept clear of the separators and inside the panel. An edition whose reports
    must stay byte for byte what its players were sent, even years later, says no
    (:attr:`Edition.report_refined <pbem.kernel.edition.Edition.report_refined>`)."""
    return model["game"].get("refined", True)
