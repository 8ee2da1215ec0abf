"""Turn reports: events and state rendered to SVG, PDF, PNG, text, Markdown and BBCode.

One view model (:mod:`pbem.report.model`) is built from the history and the state after a
turn; every format is a Jinja2 template over it (``templates/``), and PDF and PNG are
drawn from the SVG by cairosvg. A past turn is rebuilt by replaying the history, so
rendering it again later gives byte-identical files.

In an edition with secrets (a nation's hand of cards) every report is built from what
its reader may see (:mod:`pbem.report.views`): the report every command writes, posts and
puts on the website is the public one; each nation also gets a private report with its own
cards (:func:`prepare_all`, ``<game>-turn-<NNN>.<nation>.<ext>``).

This module imports neither Jinja2 nor cairosvg; :mod:`pbem.report.render` does, and only
when something is rendered.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from pbem.errors import CannotWrite, UsageError
from pbem.service import store

if TYPE_CHECKING:
    from pbem.service.clock import Deadline

FORMATS: tuple[str, ...] = ("svg", "pdf", "png", "txt", "md", "bbcode")
"""Every report format, in the order they are written."""

PNG_SCALE = 0.9
"""The PNG is the board page at this scale (1037 pixels wide): with its palette
(:func:`pbem.report.render.to_png`) a mid-game board stays under 100 kB, so that a report
mail with it stays small (tests/test_report_png.py). Names, numbers and tables are 11 to 13
pixels high; the smallest letters (a city's nation, the footer's hash, which the mail's
text gives too) 7 to 8, still legible at 100 %. The board is 105 kB at 1.0, 142 kB at 1.25."""
MAP_PNG_SCALE = 1.25
"""The map kit's PNG (``map render``) is the board at this scale (1440 pixels wide) and in
full colour: a board maker compares it with the printed board, and it is never mailed."""
PDF_PAGE_WIDTH_PT = 595.2756
"""A4 width in points; the board page's 1152 units are scaled to it."""
TEXT_WIDTH = 78
"""The plain-text report's lines are at most this many columns (e-mail)."""


def image_url(image_base: str | None, name: str) -> str:
    """How the Markdown and BBCode reports refer to the board picture ``name``: the file
    name itself, or ``image_base`` + ``/`` + the name when the pictures are put on a web
    server (``https://example.org/game/demo-turn-016.png``)."""
    if not image_base:
        return name
    return image_base.rstrip("/") + "/" + name


def check_image_base(image_base: str | None) -> str | None:
    """``--image-base``: an absolute http or https address (a usage error otherwise)."""
    if image_base is None:
        return None
    from urllib.parse import urlsplit

    parts = urlsplit(image_base)
    unsafe = any(c.isspace() or c in "()<>[]\"'`\\" for c in image_base)
    if parts.scheme not in ("http", "https") or not parts.netloc or unsafe or parts.query or parts.fragment:
        raise UsageError(f"--image-base {image_base!r}: an http:// or https:// address of a folder, "
                         "such as https://example.org/games/demo")
    return image_base


def wrap_text(text: str, width: int = TEXT_WIDTH) -> str:
    """Every line of ``text`` at most ``width`` columns: a long line is wrapped at spaces,
    its continuation indented two columns more than the line (under the text of a
    ``  - item`` or past the start of a ``  Label: value``)."""
    import textwrap

    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = len(line) - len(body)
        out.extend(textwrap.wrap(line, width, subsequent_indent=" " * (indent + 2), break_long_words=True,
                                 break_on_hyphens=False, drop_whitespace=True) or [""])
    return "\n".join(out)


def report_name(game_id: str, turn: int, fmt: str, entry: int | None = None, viewer: str | None = None) -> str:
    """``<game>-turn-<NNN>.<ext>`` for a turn (0: the set-up), ``<game>-entry-<NNN>.<ext>``
    for another history entry (a GM edit, a standing-orders change); the id is reduced to
    characters safe in a file name. A nation's private report (``viewer``, in an edition
    with secrets) has the nation before the extension: ``<game>-turn-<NNN>.<nation>.<ext>``."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", game_id).lstrip(".") or "game"
    own = f".{re.sub(r'[^A-Za-z0-9_-]', '_', viewer)}" if viewer else ""
    if entry is not None:
        return f"{safe}-entry-{entry:03d}{own}.{fmt}"
    return f"{safe}-turn-{turn:03d}{own}.{fmt}"


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
    entry: int | None = None
    """The history entry reported, when it is not a turn (or the set-up)."""
    image_base: str | None = None
    """Where the board pictures are on the web (Markdown and BBCode refer to it), or
    ``None``: by file name, next to the report."""
    viewer: str | None = None
    """The nation whose private report this is (an edition with secrets), or ``None``: the
    public report (:mod:`pbem.report.views`)."""
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def name(self, fmt: str) -> str:
        return report_name(self.game.game_id, self.turn, fmt, self.entry, self.viewer)

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

    def render(self, fmt: str, image_base: str | None = None) -> bytes:
        """The report in format ``fmt`` (one of :data:`FORMATS`). ``image_base`` (or the
        report's own) makes Markdown and BBCode refer to the board picture by its web
        address (:func:`image_url`)."""
        from pbem.report import render as r

        if fmt == "svg":
            return self.board_svg().encode("utf-8")
        if fmt == "pdf":
            from pbem.report.layout import WIDTH

            pages = [self.board_drawing(), *(r.Drawing(svg) for svg in self.page_svgs())]
            return r.to_pdf(pages, dpi=72 * WIDTH / PDF_PAGE_WIDTH_PT)
        if fmt == "png":
            return r.to_png(self.board_drawing(), scale=PNG_SCALE)
        if fmt == "txt":
            return wrap_text(r.render_template(fmt, m=self.model)).encode("utf-8")
        if fmt in ("md", "bbcode"):
            base = image_base if image_base is not None else self.image_base
            model = self.model
            if base and model.get("png"):
                model = {**model, "png": image_url(base, model["png"])}
            return r.render_template(fmt, m=model).encode("utf-8")
        raise UsageError(f"unknown report format {fmt!r}: one of {', '.join(FORMATS)}")


def prepare(game, turn: int | None = None, entry: int | None = None,
            image_base: str | None = None, viewer: str | None = None, *,
            deadline: Deadline | None = None, now: datetime | None = None) -> Report:
    """The report for ``turn`` of ``game`` (default: the latest turn; 0: the set-up), or
    for history entry ``entry`` (a turn's entry gets that turn's report); ``image_base``:
    see :func:`image_url`. ``viewer``: a nation's private report (in an edition with
    secrets, :func:`private_viewers`); by default the public report, which shows nothing
    any nation keeps secret.

    ``deadline``: the current turn's deadline (:meth:`pbem.service.clock.TurnClock.deadline`);
    the report of the game's latest history entry names it (the others never do), with
    the time left at ``now`` (a mail), or without ``now`` how long the turn has (a file
    or a page, read later: the same bytes whenever it is rendered again)."""
    at, number, own, latest = _located(game, turn, entry)
    return _report(at, number, own, image_base, viewer, deadline if latest else None, now)


def prepare_all(game, turn: int | None = None, entry: int | None = None,
                image_base: str | None = None, *, deadline: Deadline | None = None,
                now: datetime | None = None) -> list[Report]:
    """The public report and, in an edition with secrets, every nation's private report
    (seat order) for ``turn`` or ``entry`` (as :func:`prepare`, ``deadline`` and ``now``
    too), the game rebuilt once."""
    at, number, own, latest = _located(game, turn, entry)
    shown = deadline if latest else None
    return [_report(at, number, own, image_base, viewer, shown, now) for viewer in (None, *private_viewers(game))]


def private_viewers(game) -> tuple[str, ...]:
    """The nations that get a private report beside the public one: every nation of a
    game whose edition keeps secrets (a hand of cards), none otherwise."""
    from pbem.report.views import has_secrets

    return tuple(game.seats) if has_secrets(game.edition) else ()


def _located(game, turn: int | None, entry: int | None):
    """The game right after the entry reported, its turn number, the entry's own number
    when it is not a turn (see :func:`report_name`), and whether it is the latest entry."""
    from pbem.report.turnlog import TURN_KINDS, entry_for_turn, game_at

    index = entry_for_turn(game, turn) if entry is None else entry_index(game, entry)
    at = game_at(game, index)
    last = at.history[-1]
    kind = last.get("kind")
    own = None if kind in TURN_KINDS or kind == "new" else index
    number = last["turn"] if kind in TURN_KINDS else (0 if kind == "new" else at.state.status.turn - 1)
    # the latest entry, or the latest turn with only GM edits or standing orders after it (the turn is still on)
    latest = not any(e.get("kind") in TURN_KINDS or e.get("kind") == "new" for e in game.history[index + 1:])
    return at, number, own, latest


def _report(at, number: int, own: int | None, image_base: str | None, viewer: str | None,
            deadline: Deadline | None = None, now: datetime | None = None) -> Report:
    from pbem.report.model import build_model

    png = report_name(at.game_id, number, "png", own, viewer)
    return Report(at, number, build_model(at, png_name=png, viewer=viewer, deadline=deadline, now=now), own,
                  image_base=image_base, viewer=viewer)


def entry_index(game, entry: int) -> int:
    """``entry`` checked against the history (a usage error names what there is)."""
    if not 0 <= entry < len(game.history):
        raise UsageError(f"--entry {entry}: the history of {game.game_id!r} has entries 0-{len(game.history) - 1}")
    return entry


def _write_bytes(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Replace ``path`` whole (temporary file in the same folder, then rename: a symbolic
    link planted at ``path`` is replaced, never written through; the store's
    :func:`~pbem.service.store.write_in`, without fsync: a report can be written again).
    A file that cannot be written is :class:`~pbem.errors.CannotWrite` (exit 10)."""
    store.write_in(path.parent, path.name, data, mode, durable=False)


def make_folder(folder: Path) -> Path:
    """``folder``, made with its parents if missing; one that cannot be made (a read-only
    place, a file in the way) is :class:`~pbem.errors.CannotWrite`, not a bug."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotWrite(str(folder), f"cannot make the folder: {exc.strerror or exc}") from None
    return folder


def write_latest(game, out_dir, formats: Iterable[str] = FORMATS,
                 image_base: str | None = None, *, deadline: Deadline | None = None,
                 now: datetime | None = None) -> list[Path]:
    """The reports of ``game``'s latest history entry (what a command just changed), with
    the current turn's ``deadline`` if it has one (:func:`prepare`)."""
    return write_reports(game, out_dir, formats, entry=len(game.history) - 1, image_base=image_base,
                         deadline=deadline, now=now)


def write_reports(game, out_dir, formats: Iterable[str] = FORMATS, turn: int | None = None,
                  entry: int | None = None, image_base: str | None = None, *,
                  deadline: Deadline | None = None, now: datetime | None = None) -> list[Path]:
    """Render ``turn`` (default: the latest) or history entry ``entry`` in each format into
    ``out_dir``.

    Files are named ``<game>-turn-<NNN>.<ext>`` (``<game>-entry-<NNN>.<ext>`` for an entry
    that is not a turn); returns their paths in format order. ``image_base``: where the
    Markdown and BBCode find the PNG (:func:`image_url`; default: next to them).

    In an edition with secrets these are the public report's files, and
    after them each nation's private report (:func:`private_viewers`), named
    ``<game>-turn-<NNN>.<nation>.<ext>``, in seat order.

    ``deadline`` and ``now``: as for :func:`prepare` (the latest entry's report names the
    current turn's deadline). Files are read later: give no ``now``, so that ``render``
    writes the same bytes again.
    """
    chosen = parse_formats(formats)
    folder = make_folder(Path(out_dir))
    reports = prepare_all(game, turn, entry, image_base=image_base, deadline=deadline, now=now)
    written = []
    with _folder_lock(folder) as taken:
        for report in reports:
            for fmt in chosen:
                path = folder / report.name(fmt)
                store.clear_stale_temps(path, taken)  # what a killed run left for this file
                # a private report names a hand of cards: for its owner's eyes (mode 600)
                _write_bytes(path, report.render(fmt), 0o600 if report.viewer else 0o644)
                written.append(path)
    return written


@contextmanager
def _folder_lock(folder: Path):
    """Hold an exclusive lock on the report folder itself (no extra file) while reports
    are written there; yields when it was taken. Any temporary report file older than that
    belongs to a run that was killed, since every writer holds this lock."""
    import fcntl
    import time

    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError as exc:
        raise CannotWrite(str(folder), str(exc.strerror or exc)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield time.time()
    finally:
        os.close(fd)
