"""Render the view model through the Jinja2 templates; PDF and PNG through cairosvg.

Jinja2, cairosvg and Pillow (which writes the reports' PNG) are imported here only, and
this module only when a report is rendered, so ``import pbem.cli`` stays fast.

Every environment uses ``StrictUndefined``. The SVG environment autoescapes (``.svg.j2``
is not covered by ``select_autoescape``, so it is switched on explicitly); the Markdown
and BBCode environments escape through ``finalize``, which every ``{{ ... }}`` passes, so
a player's name can never turn into markup. cairosvg runs with ``unsafe=False`` on SVG
that refers to nothing outside itself, so rendering never fetches anything.
"""

from __future__ import annotations

import io
import re
from functools import cache
from typing import Any

from pbem.paths import data_dir

TEMPLATES = {"svg": "board.svg.j2", "pages": "pages.svg.j2", "txt": "report.txt.j2",
             "md": "report.md.j2", "bbcode": "report.bbcode.j2"}

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~#&])")


def _xml_safe(value: Any) -> Any:
    """Drop characters XML 1.0 cannot carry (a second guard after ``model.clean``);
    markup the templates made themselves (macro output) passes unchanged."""
    from markupsafe import Markup

    if isinstance(value, str) and not isinstance(value, Markup):
        return _XML_BAD.sub("", value)
    return value


def md_escape(value: Any) -> Any:
    from markupsafe import Markup

    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return _MD_SPECIAL.sub(r"\\\1", value)


def bb_escape(value: Any) -> Any:
    """BBCode has no escape: brackets become look-alikes that never open a tag."""
    from markupsafe import Markup

    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return value.replace("[", "\uff3b").replace("]", "\uff3d")


@cache
def environment(kind: str):
    """The Jinja2 environment for ``kind``: ``xml``, ``md``, ``bbcode`` or ``text``."""
    import jinja2

    finalize = {"xml": _xml_safe, "md": md_escape, "bbcode": bb_escape, "text": None}[kind]
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        autoescape=kind == "xml",
        undefined=jinja2.StrictUndefined,
        finalize=finalize,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
        auto_reload=False,
    )


_KIND = {"svg": "xml", "pages": "xml", "txt": "text", "md": "md", "bbcode": "bbcode"}


def render_template(name: str, **context: Any) -> str:
    """Render template ``name`` (a key of :data:`TEMPLATES`)."""
    env = environment(_KIND[name])
    return env.get_template(TEMPLATES[name]).render(**context)


_SIMPLE_TEXT_BLOCKERS = ("transform", "rotate", "letter-spacing", "textLength", "filter", "mask",
                         "clip-path", "opacity", "display", "visibility")


@cache
def _surfaces():
    """The cairosvg surface for the reports: a recording, with plain text drawn in one call.

    cairosvg draws a ``<text>`` letter by letter, twice (outline, then glyphs); the
    reports hold a few thousand letters, which made that most of the rendering time. A
    text element with no children and no per-letter positions is drawn here in one call
    (:func:`_draw_text`); anything else goes through cairosvg unchanged.
    """
    import cairocffi as cairo
    from cairosvg.surface import Surface

    class FastText:
        def draw(self, node):
            if node.tag != "text" or not _simple_text(node):
                return super().draw(node)
            _draw_text(self, node)

    class Recording(FastText, Surface):
        """Draws into a cairo recording surface (SVG user units), which can then be
        replayed as vectors onto a PDF page or rasterised into a PNG."""

        device_units_per_user_units = 1

        def _create_surface(self, width, height):
            box = (0, 0, width, height)
            return cairo.RecordingSurface(cairo.CONTENT_COLOR_ALPHA, box), width, height

        def finish(self):
            """Keep the recording open: it is replayed afterwards."""

    return Recording


def _simple_text(node) -> bool:
    """Whether a ``<text>`` node can be drawn in one call: no children, no per-letter
    positions, nothing that transforms, spaces or hides its letters."""
    if node.children or not node.text or any(k in node for k in _SIMPLE_TEXT_BLOCKERS):
        return False
    if node.get("stroke-dasharray") or node.get("stroke-opacity"):
        return False
    return all(" " not in (node.get(k) or "").strip() for k in ("x", "y", "dx", "dy"))


def _draw_text(surface, node) -> None:
    """A simple ``<text>`` node (:func:`_simple_text`) drawn in one call onto ``surface``:
    the same font, size, weight, fill, stroke and anchor as cairosvg's (anchored by the
    advance width, as browsers do), and in a PDF real text."""
    import cairocffi as cairo
    from cairosvg.helpers import size

    ctx = surface.context
    ctx.save()
    family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    weight = node.get("font-weight") or "normal"
    bold = weight == "bold" or (weight.isdigit() and int(weight) >= 550)
    ctx.select_font_face(family, cairo.FONT_SLANT_NORMAL,
                         cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(size(surface, node.get("font-size", "12pt")))
    x = size(surface, node.get("x"), "x") + size(surface, node.get("dx"), "x")
    y = size(surface, node.get("y"), "y") + size(surface, node.get("dy"), "y")
    advance = ctx.text_extents(node.text)[4]
    anchor = node.get("text-anchor")
    if anchor == "middle":
        x -= advance / 2
    elif anchor == "end":
        x -= advance
    _paint_text(surface, node, x, y)
    ctx.restore()


def _paint_text(surface, node, x: float, y: float) -> None:
    """The letters of ``node`` from ``(x, y)``: filled, or with a stroke (a halo) outlined
    first, as SVG paints fill, then stroke."""
    import cairocffi as cairo
    from cairosvg.colors import color
    from cairosvg.helpers import paint, size

    ctx = surface.context
    _, fill = paint(node.get("fill", "black"))
    _, stroke = paint(node.get("stroke", "none"))
    if stroke and stroke != "none":
        ctx.move_to(x, y)
        ctx.text_path(node.text)
        if fill and fill != "none":
            ctx.set_source_rgba(*color(fill, float(node.get("fill-opacity", 1))))
            ctx.fill_preserve()
        ctx.set_source_rgba(*color(stroke))
        ctx.set_line_width(size(surface, node.get("stroke-width", "1")))
        if node.get("stroke-linejoin") == "round":
            ctx.set_line_join(cairo.LINE_JOIN_ROUND)
        ctx.stroke()
    elif fill and fill != "none":
        ctx.set_source_rgba(*color(fill, float(node.get("fill-opacity", 1))))
        ctx.move_to(x, y)
        ctx.show_text(node.text)


class Drawing:
    """An SVG document drawn once by cairosvg, ready to be replayed (vector) any number
    of times: onto PDF pages and into a PNG."""

    def __init__(self, svg: str):
        from cairosvg.parser import Tree

        surface = _surfaces()(Tree(bytestring=svg.encode("utf-8"), unsafe=False), None, 96)
        self.recording = surface.cairo
        self.width, self.height = surface.width, surface.height
        self.colours = own_colours(svg)


_HEX_COLOUR = re.compile(r"(?<![&\w])#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})(?![0-9a-fA-F])")


def own_colours(svg: str) -> frozenset[tuple[int, int, int]]:
    """The colours ``svg`` names (``#rrggbb`` or ``#rgb``), as (red, green, blue)."""
    out = set()
    for digits in _HEX_COLOUR.findall(svg):
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        out.add((int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)))
    return frozenset(out)


def to_pdf(drawings: list[Drawing], dpi: float) -> bytes:
    """One PDF page per drawing; ``dpi`` says how many SVG units make an inch. No
    creation date is written, so the same drawings give the same bytes."""
    import cairocffi as cairo

    out = io.BytesIO()
    pdf = None
    for d in drawings:
        w, h = d.width * 72 / dpi, d.height * 72 / dpi
        if pdf is None:
            pdf = cairo.PDFSurface(out, w, h)
            pdf.set_metadata(cairo.PDF_METADATA_CREATE_DATE, "")
        else:
            pdf.set_size(w, h)
        ctx = cairo.Context(pdf)
        ctx.scale(72 / dpi, 72 / dpi)
        ctx.set_source_surface(d.recording, 0, 0)
        ctx.paint()
        ctx.show_page()
    assert pdf is not None  # a report has a drawing
    pdf.finish()
    return out.getvalue()


PALETTE_GAP = 9
"""Palette entries differ by at least this much in some channel (0-255). Pillow maps a
colour to a palette entry through a cache of cells four levels wide, each given the entry
nearest the cell's corner; entries this far apart keep every colour that is in the palette
on its own entry, exactly (tests/report/test_report_png.py)."""
LARGE_AREA = 0.005
"""A colour that is not the report's own joins the palette when it covers at least this
share of the picture (a translucent panel); antialiasing shades never do."""


def _surface(drawing: Drawing, scale: float, pixel_format: int):
    """A cairo image surface with the drawing rasterised on it at ``scale``, on white."""
    import cairocffi as cairo

    width, height = round(drawing.width * scale), round(drawing.height * scale)
    surface = cairo.ImageSurface(pixel_format, width, height)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(scale, scale)
    ctx.set_source_surface(drawing.recording, 0, 0)
    ctx.paint()
    surface.flush()
    return surface


def _raster(drawing: Drawing, scale: float):
    """The drawing rasterised at ``scale`` on white, as a Pillow RGB image."""
    import sys

    import cairocffi as cairo
    from PIL import Image

    surface = _surface(drawing, scale, cairo.FORMAT_RGB24)
    # each pixel is a native-endian 32-bit word 0xXXRRGGBB
    raw = "BGRX" if sys.byteorder == "little" else "XRGB"
    return Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), bytes(surface.get_data()),
                            "raw", raw, surface.get_stride(), 1)


def png_palette(image, own: frozenset) -> list[tuple[int, int, int]]:
    """The palette for ``image``: the colours of ``own`` that it shows, then any other
    colour covering a large area (:data:`LARGE_AREA`), each group most used first, and no
    two entries closer than :data:`PALETTE_GAP` (of two such colours, which look the same,
    the less used is left out). At most 256 entries; ties are broken by the colour, so the
    same image always gives the same palette."""
    total = image.width * image.height
    counts = image.getcolors(total)  # thousands of colours, most of them antialiasing shades
    shown = sorted((-count, colour) for count, colour in counts if colour in own)
    large = sorted((-count, colour) for count, colour in counts
                   if count >= total * LARGE_AREA and colour not in own)
    chosen: list[tuple[int, int, int]] = []
    for _, colour in shown + large:
        if all(max(abs(a - b) for a, b in zip(colour, entry)) >= PALETTE_GAP for entry in chosen):
            chosen.append(colour)
    return chosen[:256] or [max(counts)[1]]


def to_png(drawing: Drawing, scale: float = 1.0) -> bytes:
    """The drawing rasterised at ``scale`` on white, as a small palette PNG: the picture
    every report writes and every report mail attaches (a quarter of the size of the
    full-colour PNG of the same size). Drawn by cairo at the size asked (resampling a bigger bitmap would blur
    the text and add colours), then every pixel mapped to the nearest colour of
    :func:`png_palette`, without dithering: the board and the tables are flat colours of
    the report's own, kept exactly, and each antialiased edge takes the nearest of them.
    Nothing in the file depends on the time: the same drawing gives the same bytes."""
    from PIL import Image

    image = _raster(drawing, scale)
    colours = png_palette(image, drawing.colours)
    flat = [value for colour in colours for value in colour]
    palette = Image.new("P", (1, 1))
    # the unused entries repeat the first colour: a tie goes to the first, so they stay unused
    palette.putpalette(flat + flat[:3] * (256 - len(colours)))
    indexed = image.quantize(palette=palette, dither=Image.Dither.NONE)
    indexed.putpalette(flat)  # the file's palette: these colours, not 256
    out = io.BytesIO()
    indexed.save(out, "PNG", optimize=True)
    return out.getvalue()


def to_png_full_colour(drawing: Drawing, scale: float = 1.0) -> bytes:
    """The drawing rasterised at ``scale`` on white, every colour kept (cairo writes it):
    for the map kit's pictures, which a board maker compares with the printed board."""
    import cairocffi as cairo

    out = io.BytesIO()
    _surface(drawing, scale, cairo.FORMAT_ARGB32).write_to_png(out)
    return out.getvalue()
