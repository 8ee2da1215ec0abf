"""Whole pages: the board page (:func:`svg_layout`) and the further pages that list
everything in full (:func:`pages_layout`)."""

from __future__ import annotations

from typing import Any

from pbem.kernel.board import Board
from pbem.kernel.protocols import CityMark
from pbem.report.layout.base import (BORDER_COLOURS, FONT, HEIGHT, INK, NOTE_INK, NOTE_TEXT, SEA, WIDTH, fit, num,
                                     refined, wrap)
from pbem.report.layout.legend import _legend
from pbem.report.layout.placement import _board_geometry, board_view, model_marks
from pbem.report.layout.board import _arrows, _battles, _conquests, _provinces
from pbem.report.layout.panels import (_footer, _header, _log, _nations_table, _progress, _rondel, _scores,
                                       panel_rows)


def board_frame(board: Board, marks: tuple[CityMark, ...] = ()) -> dict[str, Any]:
    """What the board page and the board map share: where the board is drawn, its outlines
    and borders, the reconstruction note (``marks``: the city marks of the game's edition,
    :func:`board_view`)."""
    view = board_view(board, marks)
    geometry = _board_geometry(board, marks)
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
    marks = model_marks(model)
    view = board_view(board, marks)
    place = panel_rows(view)
    return {
        **board_frame(board, marks),
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
    split across two. Each section has its own function below."""
    g = model["game"]
    flow = _Flow(fit(f"{g['edition']} · {g['id']} · {model['title']}", 14, 700))
    if model.get("deadline"):  # the current turn's, as on the board page's header
        for line in wrap(model["deadline"], PAGE_TEXT, WIDTH - 2 * PAGE_MARGIN, bold=True):
            flow.text(PAGE_MARGIN, line, bold=True)
    _log_section(flow, model)
    _nations_section(flow, model)
    _provinces_section(flow, model)
    _tables_section(flow, model)
    return flow.finish()


def _log_section(flow: _Flow, model: dict[str, Any]) -> None:
    """The turn log, block by block, each line wrapped under its bullet."""
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


def _nations_section(flow: _Flow, model: dict[str, Any]) -> None:
    """Each nation's facts in turn order, then what the edition keeps beyond them."""
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


def _provinces_section(flow: _Flow, model: dict[str, Any]) -> None:
    """The provinces with a city or units, as a table whose header starts every page."""
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
        for mark in p.get("marks", ()):  # an edition's mark round the city (a town wall), in short
            temple = f"{temple}, {mark['short']}" if temple else mark["short"]
        values = [p["name"], p["resource"], p.get("kind_text") or "inland", p["owner_name"] or "—", temple]
        for (x, _), v in zip(cols, values):
            flow.text(x, v, advance=False)
        for line in units:
            flow.text(cols[5][0], line)


def _tables_section(flow: _Flow, model: dict[str, Any]) -> None:
    """The rondel, the progress chart, the score card and the bank, as lists."""
    g = model["game"]
    names = {n["id"]: n["name"] for n in model["nations"]}
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
