"""Turn reports: events and state rendered to SVG, PDF, PNG, text, Markdown and BBCode.

One view model (:mod:`pbem.report.model`) is built from the history and the state after a
turn; every format is a Jinja2 template over it (``templates/``), and PDF and PNG are
drawn from the SVG by cairosvg. A past turn is rebuilt by replaying the history, so
rendering it again later gives byte-identical files.

This module imports neither Jinja2 nor cairosvg; :mod:`pbem.report.render` does, and only
when something is rendered.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pbem.errors import UsageError

FORMATS: tuple[str, ...] = ("svg", "pdf", "png", "txt", "md", "bbcode")
"""Every report format, in the order they are written."""

PNG_SCALE = 1.25
"""The PNG is the board page at this scale (1440 pixels wide): sharp when zoomed on a phone."""
PDF_PAGE_WIDTH_PT = 595.2756
"""A4 width in points; the board page's 1152 units are scaled to it."""


def report_name(game_id: str, turn: int, fmt: str) -> str:
    """``<game>-turn-<NNN>.<ext>``; the id is reduced to characters safe in a file name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", game_id).lstrip(".") or "game"
    return f"{safe}-turn-{turn:03d}.{fmt}"


def parse_formats(values: Iterable[str] | None) -> list[str]:
    """Formats from repeated and/or comma-separated options, in :data:`FORMATS` order;
    ``all`` or nothing means every format."""
    asked: set[str] = set()
    for value in values or []:
        for part in value.split(","):
            part = part.strip().lower()
            if not part:
                continue
            if part == "all":
                asked.update(FORMATS)
            elif part in FORMATS:
                asked.add(part)
            else:
                raise UsageError(f"--format {part!r}: one of {', '.join(FORMATS)} or all")
    return [f for f in FORMATS if f in asked] if asked else list(FORMATS)


@dataclass
class Report:
    """The report for one turn: the game as it was right after it, and its view model."""

    game: Any
    turn: int
    model: dict[str, Any]
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def name(self, fmt: str) -> str:
        return report_name(self.game.game_id, self.turn, fmt)

    def board_svg(self) -> str:
        if "svg" not in self._cache:
            from pbem.report.layout import svg_layout
            from pbem.report.render import render_template

            self._cache["svg"] = render_template("svg", layout=svg_layout(self.model, self.game.board))
        return self._cache["svg"]

    def board_drawing(self):
        """The board page drawn once (cairosvg), shared by the PDF and the PNG."""
        if "drawing" not in self._cache:
            from pbem.report.render import Drawing

            self._cache["drawing"] = Drawing(self.board_svg())
        return self._cache["drawing"]

    def page_svgs(self) -> list[str]:
        from pbem.report.layout import FONT, HEIGHT, WIDTH, pages_layout
        from pbem.report.render import render_template

        return [render_template("pages", page=page, width=WIDTH, height=HEIGHT, font=FONT)
                for page in pages_layout(self.model)]

    def render(self, fmt: str) -> bytes:
        """The report in format ``fmt`` (one of :data:`FORMATS`)."""
        from pbem.report import render as r

        if fmt == "svg":
            return self.board_svg().encode("utf-8")
        if fmt == "pdf":
            from pbem.report.layout import WIDTH

            pages = [self.board_drawing(), *(r.Drawing(svg) for svg in self.page_svgs())]
            return r.to_pdf(pages, dpi=72 * WIDTH / PDF_PAGE_WIDTH_PT)
        if fmt == "png":
            return r.to_png(self.board_drawing(), scale=PNG_SCALE)
        if fmt in ("txt", "md", "bbcode"):
            return r.render_template(fmt, m=self.model).encode("utf-8")
        raise UsageError(f"unknown report format {fmt!r}: one of {', '.join(FORMATS)}")


def prepare(game, turn: int | None = None) -> Report:
    """The report for ``turn`` of ``game`` (default: the latest turn; 0: the set-up)."""
    from pbem.report.model import build_model, entry_for_turn, game_at

    index = entry_for_turn(game, turn)
    at = game_at(game, index)
    entry = at.history[-1]
    number = entry.get("turn", 0) if entry.get("kind") != "new" else 0
    return Report(at, number, build_model(at, png_name=report_name(game.game_id, number, "png")))


def _write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` whole (temporary file in the same folder, then rename)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_reports(game, out_dir, formats: Iterable[str] = FORMATS, turn: int | None = None) -> list[Path]:
    """Render ``turn`` (default: the latest) in each format into ``out_dir``.

    Files are named ``<game>-turn-<NNN>.<ext>``; returns their paths in format order.
    """
    chosen = parse_formats(formats)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    report = prepare(game, turn)
    written = []
    for fmt in chosen:
        path = folder / report.name(fmt)
        _write_bytes(path, report.render(fmt))
        written.append(path)
    return written
