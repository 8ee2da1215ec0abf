"""Render the view model through the Jinja2 templates; PDF and PNG through cairosvg.

Jinja2 and cairosvg are imported here only, and this module only when a report is
rendered, so ``import pbem.cli`` stays fast.

Every environment uses ``StrictUndefined``. The SVG environment autoescapes (``.svg.j2``
is not covered by ``select_autoescape``, so it is switched on explicitly); the Markdown
and BBCode environments escape through ``finalize``, which every ``{{ ... }}`` passes, so
a player's name can never turn into markup. cairosvg runs with ``unsafe=False`` on SVG
that refers to nothing outside itself, so rendering never fetches anything.
"""

from __future__ import annotations

import io
import re
from functools import lru_cache
from typing import Any

from pbem.paths import data_dir

TEXT_FORMATS = ("svg", "txt", "md", "bbcode")
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


@lru_cache(maxsize=None)
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


def _svg_surface_classes():
    import cairocffi
    from cairosvg.surface import PDFSurface

    class PagedPDF(PDFSurface):
        """cairosvg's PDF surface drawing into one shared cairo surface, page after page,
        with no creation date, so the same pages give the same bytes."""

        shared = None

        def _create_surface(self, width, height):
            surface = type(self).shared
            if surface is None:
                surface = cairocffi.PDFSurface(self.output, width, height)
                surface.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, "")
                type(self).shared = surface
            else:
                surface.set_size(width, height)
            return surface, width, height

    return PagedPDF


def svg_to_pdf(pages: list[str], dpi: float = 96) -> bytes:
    """One PDF with one page per SVG document; ``dpi`` turns SVG units into page size."""
    from cairosvg.parser import Tree

    base = _svg_surface_classes()
    surface_class = type("PagedPDFRun", (base,), {"shared": None})
    out = io.BytesIO()
    for svg in pages:
        page = surface_class(Tree(bytestring=svg.encode("utf-8"), unsafe=False), out, dpi)
        page.context.show_page()
    surface_class.shared.finish()
    return out.getvalue()


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    import cairosvg

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), unsafe=False, scale=scale,
                            background_color="#ffffff")
