"""The report PNG: small (a palette of the report's own colours, drawn at 0.9 scale), the
same bytes for the same report, and every colour the report draws kept exactly.

The bytes are never compared with a golden file (they depend on the zlib that Pillow was
built with); only the same render twice in one run is compared.
"""

from __future__ import annotations

import io

import pytest

from pbem.play.selfplay import LINEUPS, bot_turn, start_game
from pbem.report import prepare
from pbem.report import render as r

SIZE = (1037, 1466)
"""The board page (1152 x 1629 units) at the reports' PNG scale."""
BOUND = 100_000
"""A mid-game report's PNG stays under this many bytes (this game's: about 94 kB), so that
with base64 (37 % more) and the mail's text a report mail stays under 150 kB. Drawn in
full colour at this size it is 430 kB; with the palette at 1152 pixels 105 kB, at the old
1440 pixels 142 kB."""


@pytest.fixture(scope="module")
def mid_game():
    """Four bots, 60 turns on the East board (as bench/bench_render.py plays)."""
    game, plain = start_game("png", LINEUPS[4], "png-size")
    for _ in range(60):
        game, _ = bot_turn(game, plain)
    return game


@pytest.fixture(scope="module")
def png(mid_game):
    return prepare(mid_game).render("png")


def _image(data: bytes):
    from PIL import Image

    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_the_png_of_a_mid_game_report_is_small_and_opens(mid_game, png):
    cities = [p for p in mid_game.state.provinces.values() if p.owner]
    assert len(cities) >= 35, "a board full of cities"
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) < BOUND, len(png)
    image = _image(png)
    assert image.format == "PNG" and image.mode == "P" and image.size == SIZE
    assert 20 <= len(image.getpalette()) // 3 <= 64, "the report's own colours, not a full 256"
    assert image.info.keys() <= {"dpi", "transparency"}, image.info  # no text or time chunks
    assert b"tIME" not in png and b"tEXt" not in png


def test_the_same_report_gives_the_same_bytes(mid_game, png):
    again = prepare(mid_game).render("png")  # a new view model, SVG and drawing
    assert again == png
    setup = prepare(mid_game, 0)
    assert setup.render("png") == prepare(mid_game, 0).render("png")


def test_every_colour_in_the_palette_is_kept_exactly(mid_game):
    """Each pixel the drawing shows in a colour that is in the palette keeps that colour
    (Pillow's palette lookup is approximate, :data:`render.PALETTE_GAP` makes it exact);
    every other pixel takes a palette colour close to its own."""
    from PIL import Image, ImageChops

    drawing = r.Drawing(prepare(mid_game).board_svg())
    full = r._raster(drawing, 0.9)
    small = _image(r.to_png(drawing, 0.9)).convert("RGB")
    palette = {colour for _, colour in small.getcolors()}
    assert palette <= set(r.png_palette(full, drawing.colours))
    # a pixel changed when any of its channels did
    changed = ImageChops.difference(full, small).point(lambda v: 255 if v else 0).convert("L")
    changed = changed.point(lambda v: 255 if v else 0)
    marker = (1, 2, 3)
    assert marker not in {c for _, c in full.getcolors(full.width * full.height)}
    moved = Image.composite(full, Image.new("RGB", full.size, marker), changed)
    moved_colours = {c for _, c in moved.getcolors(full.width * full.height)} - {marker}
    assert not moved_colours & palette, sorted(moved_colours & palette)[:5]
    # the report's large areas (sea, nations, panels) are among the palette's colours
    hexes = {f"#{a:02x}{b:02x}{c:02x}" for a, b, c in palette}
    assert {"#ffffff", "#cfe2ef", "#222222"} <= hexes, sorted(hexes)


def test_palette_entries_are_apart_and_most_used_first():
    from PIL import Image

    image = Image.new("RGB", (100, 100), (255, 255, 255))
    image.paste((250, 252, 253), (0, 0, 100, 10))   # too close to white: left out
    image.paste((10, 20, 30), (0, 10, 100, 40))     # own, most used after white
    image.paste((200, 0, 0), (0, 40, 100, 41))      # not own, 1 % of the picture: joins
    image.paste((0, 200, 0), (0, 41, 10, 42))       # not own, 0.1 %: an antialiasing shade
    own = frozenset({(255, 255, 255), (250, 252, 253), (10, 20, 30), (1, 1, 1)})
    assert r.png_palette(image, own) == [(255, 255, 255), (10, 20, 30), (200, 0, 0)]


def test_own_colours_are_read_from_the_svg():
    svg = ('<svg><style>text { fill: #222222; }</style><rect fill="#ABC"/>'
           '<text style="fill:#ffffff">&#123; id="x#1"</text></svg>')
    assert r.own_colours(svg) == {(0x22, 0x22, 0x22), (0xaa, 0xbb, 0xcc), (255, 255, 255)}


def test_the_map_kit_png_stays_large_and_full_colour():
    """``map render`` is for comparing with the printed board: 1440 pixels wide, every
    shade cairo drew."""
    from pbem.report.boardmap import board_pictures
    from pbem.service.boards import load_board

    data = board_pictures(load_board("antike-east"), ["png"])["png"]
    image = _image(data)
    assert image.width == 1440 and image.mode in ("RGB", "RGBA")
