"""Boards of other sizes on the report's board page, and the board map.

The boards are the East board's data with every position and outline point scaled (wide,
small, tall), or with its outlines dropped so that they are generated from the cities. The
rules see none of that (the board's hash covers provinces, resources and borders only), so
the demo game after 16 turns is played on each of them as it is: its report shows a real
game's cities, units, arrows and log on a board of another size.
"""

from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.kernel.board import Board
from pbem.paths import map_path
from pbem.report import prepare
from pbem.report.boardmap import board_pictures, board_svg, id_places, label_problems
from pbem.report.layout import (
    BOARD_ROOM,
    HEADER,
    HEIGHT,
    LEGEND_BOX,
    MARGIN,
    WIDTH,
    board_places,
    board_view,
    marker_box,
    overlaps,
    panel_rows,
    text_width,
)
from pbem.report.style import RECONSTRUCTION_NOTE
from pbem.service.boards import load_board
from pbem.service.service import GameService

LEGACY = Path(__file__).parent.parent / "data" / "legacy" / "demo-16.json"
SVG = "{http://www.w3.org/2000/svg}"

BOARDS = {
    # name: x factor, y factor, keep the outlines, a reconstruction
    "wide": (1.25, 1.1, True, False),
    "small": (0.6, 0.6, True, False),
    "tall": (0.7, 1.3, True, False),
    "generated": (1.0, 1.0, False, False),
    "west": (1400 / 1152, 900 / 799, False, True),
}
"""``west``: about the size of the West board, outlines generated, said to be reconstructed."""


def east_data() -> dict:
    return json.loads(map_path("antike-east").read_text(encoding="utf-8"))


def scaled_board(fx: float, fy: float, shapes: bool = True, reconstruction: bool = False) -> Board:
    data = east_data()
    data["size"] = {"width": round(data["size"]["width"] * fx), "height": round(data["size"]["height"] * fy)}
    for p in data["provinces"]:
        p["xy"] = [round(p["xy"][0] * fx), round(p["xy"][1] * fy)]
    if shapes:
        data["shapes"] = {pid: [[round(x * fx, 1), round(y * fy, 1)] for x, y in ring]
                          for pid, ring in data["shapes"].items()}
    else:
        del data["shapes"]
    if reconstruction:
        data["reconstruction"] = True
        data["name"] = "Antike — West (reconstruction)"
    return Board(data)


@pytest.fixture(scope="module")
def demo():
    return GameService(LEGACY).load()


@pytest.fixture(scope="module")
def boards():
    return {name: scaled_board(*spec) for name, spec in BOARDS.items()}


@pytest.fixture(scope="module")
def pages(demo, boards):
    """Each board's report of the demo game's latest turn (16): board, report, SVG."""
    out = {}
    for name, board in boards.items():
        assert board.sha256 == demo.board.sha256, "the same rules: the game is valid on it"
        report = prepare(dataclasses.replace(demo, board=board), 16)
        out[name] = (board, report, report.render("svg").decode("utf-8"))
    return out


SIZES = {"name": 14, "chip": 9, "pill": 12, "cell": 14, "head": 12.5, "title": 15, "log": 12.5, "small": 12, "id": 10}
BOLD = {"b", "name", "chip", "pill", "title"}


def _translate(el, dx: float, dy: float) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform") or "translate(0,0)")
    return dx + float(match[1]), dy + float(match[2])


def texts(svg: str) -> list[tuple[str, tuple[float, float, float, float], list[str]]]:
    """Every text element: its text, its box on the page (from the font's metrics) and the
    ids of the groups it is in."""
    found = []

    def walk(el, dx: float, dy: float, groups: list[str]) -> None:
        dx, dy = _translate(el, dx, dy)
        if el.get("id"):
            groups = [*groups, el.get("id")]
        if el.tag == f"{SVG}text":
            classes = (el.get("class") or "").split()
            size = float(el.get("font-size") or next((SIZES[c] for c in classes if c in SIZES), 12))
            bold = bool(BOLD & set(classes)) or el.get("font-weight") == "bold"
            text = "".join(el.itertext())
            w = text_width(text, size, bold)
            x = float(el.get("x")) + dx + float(el.get("dx") or 0)
            y = float(el.get("y")) + dy + float(el.get("dy") or 0)
            anchor = el.get("text-anchor") or ("middle" if {"name", "chip", "pill"} & set(classes) else "start")
            left = x - (w / 2 if anchor == "middle" else w if anchor == "end" else 0)
            found.append((text, (left, y - size * 0.75, left + w, y + size * 0.22), groups))
        for child in el:
            walk(child, dx, dy, groups)

    walk(ET.fromstring(svg), 0.0, 0.0, [])
    return found


def rects(svg: str, group: str) -> list[tuple[float, float, float, float]]:
    """The page boxes of the ``class="panel"`` rectangles (or the first rectangle) of a group."""
    found = []

    def walk(el, dx: float, dy: float, inside: bool) -> None:
        dx, dy = _translate(el, dx, dy)
        inside = inside or el.get("id") == group
        if inside and el.tag == f"{SVG}rect" and (el.get("class") == "panel" or group == "legend"):
            x, y = float(el.get("x")) + dx, float(el.get("y")) + dy
            found.append((x, y, x + float(el.get("width")), y + float(el.get("height"))))
        for child in el:
            walk(child, dx, dy, inside)

    walk(ET.fromstring(svg), 0.0, 0.0, False)
    return found


def test_the_east_board_is_drawn_as_it_always_was():
    view = board_view(load_board("antike-east"))
    assert (view.scale, view.x, view.w, view.h, view.columns) == (1.0, 0.0, 1152, 799, 3)
    assert view.legend == LEGEND_BOX and view.note is None
    assert panel_rows(view).a == HEADER + 799 + MARGIN and panel_rows(view).c_h == 206


def test_each_board_is_scaled_into_the_page(boards):
    wide, small, tall = (board_view(boards[n]) for n in ("wide", "small", "tall"))
    # wide: as wide as the page; every corner has a city, so the legend is a strip below it
    assert wide.scale == pytest.approx(0.8) and wide.w == pytest.approx(WIDTH) and wide.x == 0
    assert wide.columns == 5 and wide.legend[1] >= wide.h and HEADER + wide.legend[3] <= wide.bottom
    # small: scaled up until it fills the page's width (its height then just fits)
    assert small.scale > 1.6 and small.w == pytest.approx(WIDTH) and small.h <= BOARD_ROOM
    # tall: scaled down to the room's height, centred, the legend beside it
    assert tall.scale < 0.8 and tall.h == pytest.approx(BOARD_ROOM) and tall.x == pytest.approx((WIDTH - tall.w) / 2)
    assert tall.columns == 1 and tall.x + tall.legend[2] <= tall.x and tall.x + tall.legend[0] >= 0
    for view in (wide, small, tall):
        assert panel_rows(view).a == pytest.approx(view.bottom + MARGIN)
        assert panel_rows(view).c_h >= 206, "the log keeps at least the East page's room"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_page_parses_and_every_text_lies_inside_it(pages, name):
    board, _, svg = pages[name]
    root = ET.fromstring(svg)
    assert root.get("width") == str(WIDTH) and root.get("height") == str(HEIGHT)
    found = texts(svg)
    assert len(found) > 300
    for text, (x0, y0, x1, y1), _ in found:
        assert 0 <= x0 and x1 <= WIDTH and 0 <= y0 and y1 <= HEIGHT, (name, text, (x0, y0, x1, y1))


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_panels_and_legend_keep_clear_of_the_board_and_each_other(pages, name):
    board, _, svg = pages[name]
    view = board_view(board)
    area = (view.x, HEADER, view.x + view.w, HEADER + view.h)
    panels = [box for group in ("rondel", "nations", "progress", "scores", "log") for box in rects(svg, group)]
    assert len(panels) == 5
    for i, p in enumerate(panels):
        assert 0 <= p[0] and p[2] <= WIDTH and p[3] <= HEIGHT, (name, p)
        assert p[1] >= view.bottom + MARGIN - 0.1 and not overlaps(p, area), (name, p)
        for q in panels[i + 1:]:
            assert not overlaps(p, q), (name, p, q)
    legend = rects(svg, "legend")[0]
    assert 0 <= legend[0] and legend[2] <= WIDTH and HEADER <= legend[1] and legend[3] <= view.bottom
    assert not any(overlaps(legend, p) for p in panels)
    in_legend = []
    for text, box, groups in texts(svg):
        if "legend" in groups:
            assert legend[0] <= box[0] and box[2] <= legend[2] and legend[1] <= box[1] and box[3] <= legend[3], text
            in_legend.append(box)
        if "log" in groups:
            assert box[3] <= panels[-1][3], text
    for i, a in enumerate(in_legend):
        assert not any(overlaps(a, b) for b in in_legend[i + 1:]), (name, a)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_no_label_covers_another_a_city_or_the_legend(boards, name):
    board = boards[name]
    view = board_view(board)
    places = board_places(board)
    labels = places["labels"]
    ids = sorted(labels)
    assert len(ids) == len(board.provinces)
    for i, a in enumerate(ids):
        assert 0 <= labels[a][0] and labels[a][2] <= view.w and 0 <= labels[a][1] and labels[a][3] <= view.h, a
        assert not overlaps(labels[a], view.legend), a
        for b in ids[i + 1:]:
            assert not overlaps(labels[a], labels[b]), (name, a, b)
        for b in ids:
            assert not overlaps(labels[a], marker_box(*view.xy[b])), (name, a, b)
    assert label_problems(board) == []


def test_a_tall_board_draws_a_line_to_a_label_put_far_from_its_city(pages):
    board, report, svg = pages["tall"]
    far = board_places(board)["far"]
    assert far, "the squeezed board has labels that found no room near their city"
    leaders = ET.fromstring(svg).find(f".//{SVG}g[@id='labels']").findall(f"{SVG}path")
    assert len(leaders) >= len(far)


def test_the_board_is_named_and_a_reconstruction_said_so(pages):
    for name, (board, report, svg) in pages.items():
        header = [t for t, _, groups in texts(svg) if not groups][:3]
        assert any(t.startswith(board.name) for t in header), (name, header)
        noted = RECONSTRUCTION_NOTE in svg
        assert noted == board.reconstruction, name
        for fmt in ("txt", "md", "bbcode"):
            head = "\n".join(report.render(fmt).decode("utf-8").splitlines()[:4])
            assert board.name in head and (RECONSTRUCTION_NOTE in head) == board.reconstruction, (name, fmt)
    board, report, svg = pages["west"]
    note = next(box for t, box, _ in texts(svg) if t == RECONSTRUCTION_NOTE)
    view = board_view(board)
    assert HEADER + view.h <= note[1] and note[3] <= view.bottom, "under the board, above the panels"


def test_a_map_label_position_is_where_the_label_goes():
    data = east_data()
    athen = next(p for p in data["provinces"] if p["id"] == "athen")
    athen["label"] = [206, 296]  # a little up and left of where it would go
    board = Board(data)
    box = board_places(board)["labels"]["athen"]
    assert ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) == (206, 296)
    assert label_problems(board) == []


def test_label_problems_name_overlapping_labels_and_where_to_fix_them():
    assert label_problems(load_board("antike-east")) == []
    data = east_data()
    index = {p["id"]: i for i, p in enumerate(data["provinces"])}
    theben, berenice = data["provinces"][index["theben"]], data["provinces"][index["berenice"]]
    # Theben moved onto Berenice: placed automatically, the two labels still find room
    theben["xy"] = list(berenice["xy"])
    assert label_problems(Board(data)) == []
    # ... but not where the map puts both names on the same spot
    x, y = berenice["xy"]
    theben["label"] = berenice["label"] = [x, y - 20]
    problems = label_problems(Board(data))
    overlap = [p for p in problems if "name labels" in p.message]
    assert len(overlap) == 1
    assert overlap[0].path == f"$.provinces[{index['theben']}].label"
    assert "Berenice (berenice)" in overlap[0].message and "Theben (theben)" in overlap[0].message
    assert '"label": [x, y]' in overlap[0].message
    # a name put on another city
    data = east_data()
    athen = data["provinces"][index["athen"]]
    sparta = data["provinces"][index["sparta"]]
    athen["label"] = [sparta["xy"][0] + 10, sparta["xy"][1]]
    problems = label_problems(Board(data))
    assert [p.path for p in problems] == [f"$.provinces[{index['athen']}].label"]
    assert "covers the city of Sparta (sparta)" in problems[0].message


def test_sites_of_choice_no_site_and_temples_on_the_board_are_drawn(demo):
    data = east_data()
    owned = {p["id"] for p in prepare(demo, 16).model["provinces"]}
    spare = [p for p in data["provinces"] if p["id"] not in owned
             and all(p["id"] not in c for lines in data["start_lines"].values() for c in lines.values())]
    spare[0]["resource"], spare[1]["resource"], spare[2]["temple"] = "choice", "none", True
    board = Board(data)
    svg = board_svg(board)
    ET.fromstring(svg)
    assert ">?</text>" in svg, "a site of choice: a question mark"
    assert svg.count('stroke="#8c8577" stroke-width="1.8"') >= 2, "no site: a cross (and in the legend)"
    assert 'fill="#d8d2c2"' in svg, "a temple printed on the board"
    # the report's board (drawing only: this board's rules differ from the demo game's)
    page = prepare(dataclasses.replace(demo, board=board), 16).render("svg").decode("utf-8")
    ET.fromstring(page)
    assert ">?</text>" in page and 'fill="#d8d2c2"' in page


@pytest.mark.slow
@pytest.mark.parametrize("shapes", [True, False], ids=["shipped outlines", "generated outlines"])
def test_the_board_map_shows_every_province_name_and_id(shapes):
    board = scaled_board(1, 1, shapes)
    svg = board_svg(board)
    found = texts(svg)
    words = {t for t, _, _ in found}
    for pid, p in board.provinces.items():
        assert pid in words and p.name in words, pid
    assert "Antike — East (Orient)" in words and "50 provinces · picture 1152 × 799" in words
    height = float(ET.fromstring(svg).get("height"))
    for text, (x0, y0, x1, y1), _ in found:
        assert 0 <= x0 and x1 <= WIDTH and 0 <= y0 and y1 <= height, text
    spots = id_places(board)
    labels = board_places(board)["labels"]
    for pid, spot in spots.items():
        x, y = board_view(board).xy[pid]
        assert not overlaps(spot, (x - 9, y - 9, x + 9, y + 9)), pid
        for q, other in spots.items():
            assert q == pid or not overlaps(spot, other), (pid, q)
        for q, label in labels.items():
            assert q == pid or not overlaps(spot, label), (pid, q)
    assert "name_id" in board_svg(board) and "name_id" not in board_svg(board, ids=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_board_map_of_every_size_keeps_its_text_on_the_page_and_in_the_legend(boards, name):
    board = boards[name]
    svg = board_svg(board)
    root = ET.fromstring(svg)
    height = float(root.get("height"))
    assert height == pytest.approx(board_view(board).bottom + MARGIN, abs=0.1)
    legend = rects(svg, "legend")[0]
    found = texts(svg)
    assert {pid for pid in board.provinces} <= {t for t, _, _ in found}
    for text, (x0, y0, x1, y1), groups in found:
        assert 0 <= x0 and x1 <= WIDTH and 0 <= y0 and y1 <= height, (name, text)
        if "legend" in groups:
            assert legend[0] <= x0 and x1 <= legend[2] and legend[1] <= y0 and y1 <= legend[3], (name, text)
    legend_texts = [box for t, box, groups in found if "legend" in groups]
    for i, a in enumerate(legend_texts):
        assert not any(overlaps(a, b) for b in legend_texts[i + 1:]), (name, a)


def test_the_board_map_of_a_reconstruction_and_its_pictures(boards):
    board = boards["west"]
    svg = board_svg(board)
    assert "(reconstruction)" in svg and RECONSTRUCTION_NOTE in svg
    pictures = board_pictures(board, ["png", "pdf", "svg"])
    assert pictures["svg"] == svg.encode("utf-8")
    assert pictures["png"].startswith(b"\x89PNG") and pictures["pdf"].startswith(b"%PDF-")
    assert list(board_pictures(board, ["svg"])) == ["svg"]
