"""Reports as players read them: a readable board (no label covers another, ports and
sea-only provinces marked, galleys in the water), a log of the whole round, text that fits
a mail, Markdown lists that are lists, readable colours, the two MANEUVER wedges told apart,
no e-mail addresses anywhere, and forum posts with pictures on the web."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import cli_run

from pbem.report import FORMATS, check_image_base, image_url, prepare, wrap_text
from pbem.report.layout import (LEGEND_BOX, NAME_SIZE, board_places, label_box, marker_box, overlaps,
                                svg_layout, text_width)
from pbem.report.style import contrast, ink_for, text_colour
from pbem.service.boards import load_board
from pbem.service.service import GameService

LEGACY = Path(__file__).parent / "data" / "legacy" / "demo-16.json"
ADDRESS = re.compile(rb"[\w.+-]+@[\w-]+\.[\w.-]+")


@pytest.fixture(scope="module")
def demo():
    """The demo game after 16 turns (it registers e-mail addresses for all four players)."""
    return GameService(LEGACY).load()


@pytest.fixture(scope="module")
def east():
    return load_board("antike-east")


def _estimated_label(board, pid, box):
    """A label's box estimated again from its text: chip (13) + gap + name at 14 px bold."""
    name = board.province(pid).name
    return (box[0], box[1], box[0] + 16 + len(name) * NAME_SIZE * 0.64, box[1] + 17)


def test_no_province_label_covers_another_label_a_city_an_anchor_or_the_legend(east):
    places = board_places(east)
    labels = places["labels"]
    harbours = [(x - 17, y - 9, x + 17, y + 9) for x, y in places["harbours"].values()]
    ids = sorted(labels)
    assert len(ids) == len(east.provinces) == 50
    for i, a in enumerate(ids):
        box = labels[a]
        assert box == label_box(east.province(a).name, box[0], box[1])
        assert 0 <= box[0] and box[2] <= east.width and 0 <= box[1] and box[3] <= east.height, a
        assert not overlaps(box, LEGEND_BOX), a
        for b in ids[i + 1:]:
            assert not overlaps(box, labels[b]), (a, b)
            # the same with widths estimated from the number of letters, not the font table
            assert not overlaps(_estimated_label(east, a, box), _estimated_label(east, b, labels[b])), (a, b)
        for b in ids:
            x, y = east.province(b).xy
            assert not overlaps(box, marker_box(x, y)), f"label of {a} covers the city of {b}"
        for h in harbours:
            assert not overlaps(box, h), f"label of {a} covers an anchor"


def test_theben_and_berenice_are_apart(east):
    labels = board_places(east)["labels"]
    assert not overlaps(labels["theben"], labels["berenice"], 4)


def test_labels_stay_near_their_city(east):
    for pid, box in board_places(east)["labels"].items():
        x, y = east.province(pid).xy
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        assert abs(cy - y) < 70 and abs(cx - x) < 40 + (box[2] - box[0]) / 2 + 30, pid


def test_ports_have_an_anchor_in_open_water_and_inland_provinces_none(east):
    from pbem.report.layout import _on_land

    harbours = board_places(east)["harbours"]
    assert set(harbours) == {p for p in east.provinces if not east.province(p).land_only}
    boxes = {pid: (min(x for x, _ in r), min(y for _, y in r), max(x for x, _ in r), max(y for _, y in r))
             for pid, r in east.shapes.items()}
    for pid, (x, y) in sorted(harbours.items()):
        assert not _on_land(east, x, y, boxes), f"the anchor of {pid} is on land"
        for q, (qx, qy) in harbours.items():
            if q != pid:
                assert not overlaps((x - 17, y - 9, x + 17, y + 9), (qx - 17, qy - 9, qx + 17, qy + 9)), (pid, q)


def test_galleys_are_drawn_at_their_ports_anchor_and_legions_at_the_city(demo):
    report = prepare(demo, 16)
    layout = svg_layout(report.model, demo.board)
    harbours = board_places(demo.board)["harbours"]
    galleys = 0
    for p in layout["provinces"]:
        x, y = demo.board.province(p["id"]).xy
        for u in p["units"]:
            ux, uy = float(u["tx"]), float(u["y"]) + 8.5
            if u.get("galley"):
                galleys += 1
                assert not demo.board.province(p["id"]).land_only
                hx, hy = harbours[p["id"]]
                assert abs(ux - hx) < 1 and abs(uy - hy) < 20, p["id"]
                assert u["text"].endswith("G")
            else:
                assert u["text"].endswith("L") and abs(ux - x) < 1
                box = (float(u["x"]), float(u["y"]), float(u["x"]) + float(u["w"]), float(u["y"]) + 17)
                m = marker_box(x, y)
                assert m[0] <= box[0] and box[2] <= m[2] and box[3] <= m[3]
    assert galleys == 3


def test_ports_and_sea_only_provinces_are_in_the_legend_and_reports(demo):
    svg = prepare(demo, 16).render("svg").decode()
    assert "port: galleys here" in svg and "sea-only: no legions" in svg and "galleys in port" in svg
    txt = prepare(demo, 16).render("txt").decode()
    assert "Knossos (iron, sea-only)" in txt and "Tyros (iron, port)" in txt and "Artaxata (marble):" in txt


def test_every_nation_colour_has_readable_text():
    from pbem import editions

    colours = {info.colour for info in editions.get("classic").nations.values()} if hasattr(
        editions.get("classic").nations, "values") else set()
    colours |= {"#2f6fce", "#c8352b", "#2e9a47", "#e0b21c", "#8a5a2b", "#7d4fb3", "#555555", "#e07a1c",
                "#ffff00", "#808080", "#777777"}
    for colour in sorted(colours):
        assert contrast(colour, ink_for(colour)) >= 4.5, colour
        assert contrast(text_colour(colour), "#ffffff") >= 4.5, colour
    assert ink_for("#e0b21c") == "#000000" and ink_for("#2f6fce") == "#ffffff"


def test_the_yellow_nation_is_printed_dark_enough_in_bbcode(demo):
    bb = prepare(demo, 16).render("bbcode").decode()
    shades = set(re.findall(r"\[color=(#[0-9a-f]{6})\]", bb))
    assert "#e0b21c" not in shades and shades
    assert all(contrast(c, "#ffffff") >= 4.5 for c in shades)


def test_the_two_maneuver_wedges_are_told_apart_everywhere(demo):
    report = prepare(demo, 16)
    txt = report.render("txt").decode()
    assert "3 Maneuver (3): Greeks" in txt and "7 Maneuver (7): -" in txt
    assert "Greeks move 3 steps to MANEUVER (3)" in txt
    for fmt in ("md", "bbcode"):
        text = report.render(fmt).decode()
        assert "MANEUVER (3)" in text and "Maneuver (3)" in text, fmt
    svg = report.render("svg").decode()
    assert ">(3)</text>" in svg and ">(7)</text>" in svg
    assert "Rondel: Maneuver (3)" in txt


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    src = tmp_path / "r.pdf"
    src.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(src), "-"], check=True, capture_output=True, text=True).stdout


def test_no_email_address_in_any_format(demo, tmp_path):
    assert any("@" in (m.email or "") for m in demo.meta.values()), "the demo registers addresses"
    for turn in (0, 1, 16):
        report = prepare(demo, turn)
        for fmt in FORMATS:
            data = report.render(fmt)
            assert not ADDRESS.search(data), (turn, fmt)
            if fmt in ("txt", "md", "bbcode", "svg"):
                assert b"@" not in data, (turn, fmt)
        if shutil.which("pdftotext"):
            text = _pdf_text(report.render("pdf"), tmp_path)
            assert "@" not in text and "Dido" in text
    post = cli_run("post", LEGACY, "--format", "markdown", "--image-base", "https://example.org/g")
    assert post.exit_code == 0 and "@" not in post.stdout and "Dido" in post.stdout


def test_an_address_typed_into_a_name_is_hidden():
    from pbem.report.style import clean

    assert clean("Ann <ann@example.org>") == "Ann (address hidden)"
    assert "@" not in clean("mail me: bob@example.org, thanks")


def test_text_reports_fit_in_78_columns_for_every_turn(demo):
    for turn in range(0, 17):
        text = prepare(demo, turn).render("txt").decode()
        long = [line for line in text.splitlines() if len(line) > 78]
        assert not long, (turn, long)


def test_wrap_text_indents_continuations():
    line = "  - " + " ".join(["word"] * 40)
    out = wrap_text(line).splitlines()
    assert all(len(x) <= 78 for x in out) and all(x.startswith("    word") for x in out[1:])
    assert wrap_text("short\n\nlines") == "short\n\nlines"


def test_markdown_lists_are_lists(demo):
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark").enable("table")
    report = prepare(demo, 16)
    tokens = md.parse(report.render("md").decode())
    items = []
    for i, tok in enumerate(tokens):
        if tok.type == "list_item_open":
            inline = next(t for t in tokens[i:] if t.type == "inline")
            items.append(inline.content)
    for block in report.model["log"]:
        for line in block["lines"]:
            assert line in items, line
    assert sum(1 for it in items if re.match(r"\d \w", it)) == 8, "one item per rondel wedge"
    assert sum(1 for k in report.model["knowhows"] if any(it.startswith(k["label"] + ":") for it in items)) == 8
    # each list stands alone: no item swallowed another list's first line
    assert not any("\n- " in it or "\n-" in it for it in items)
    lists = [t for t in tokens if t.type == "bullet_list_open"]
    assert len(lists) >= len(report.model["log"]) + 2 + len(report.model["nations"])
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert "Rondel" in headings and "Progress chart (know-how)" in headings
    assert any(t.type == "image" for t in md.parse(report.render("md").decode())[0:40] if t.children is None) or \
        any(c.type == "image" for t in tokens if t.children for c in t.children)


def test_image_base_makes_absolute_picture_addresses(demo):
    report = prepare(demo, 16)
    assert b"](demo-turn-016.png)" in report.render("md")
    assert b"[img]demo-turn-016.png[/img]" in report.render("bbcode")
    base = "https://example.org/game"
    assert b"](https://example.org/game/demo-turn-016.png)" in report.render("md", image_base=base)
    assert b"[img]https://example.org/game/demo-turn-016.png[/img]" in report.render("bbcode", image_base=base)
    assert prepare(demo, 16, image_base=base + "/").render("bbcode") == report.render("bbcode", image_base=base)
    assert report.render("txt") == prepare(demo, 16, image_base=base).render("txt")
    assert image_url(None, "a.png") == "a.png"
    for bad in ("ftp://example.org/x", "example.org/x", "https://", "javascript:alert(1)",
                "https://example.org/a b", "https://example.org/x)", "https://example.org/?q=1"):
        with pytest.raises(Exception):
            check_image_base(bad)


def test_render_and_post_commands_take_image_base(tmp_path):
    base = "https://example.org/antike/demo"
    done = cli_run("render", LEGACY, "--turn", "16", "-f", "md,bbcode", "--image-base", base, "--out", tmp_path)
    assert done.exit_code == 0, done.output
    assert f"[img]{base}/demo-turn-016.png[/img]" in (tmp_path / "demo-turn-016.bbcode").read_text()
    post = cli_run("post", LEGACY, "--turn", "8", "--image-base", base)
    assert post.exit_code == 0, post.output
    assert post.stdout.startswith("[size=150][b]Antike · demo · after turn 8")
    assert f"[img]{base}/demo-turn-008.png[/img]" in post.stdout
    written = cli_run("post", LEGACY, "--entry", "16", "-f", "markdown", "--out", tmp_path / "p.md")
    assert written.exit_code == 0
    assert "](demo-turn-016.png)" in (tmp_path / "p.md").read_text()
    assert cli_run("post", LEGACY, "--image-base", "ftp://example.org").exit_code == 2
    assert cli_run("post", LEGACY, "--format", "html").exit_code == 2
    assert cli_run("post", LEGACY, "--turn", "1", "--entry", "1").exit_code == 2
    assert cli_run("render", LEGACY, "--image-base", "nope", "--out", tmp_path).exit_code == 2


def test_process_refuses_a_bad_image_base_before_touching_the_game(tmp_path):
    from conftest import first_turn_files

    game, orders, _ = first_turn_files(tmp_path, "ib")
    before = game.read_bytes()
    bad = cli_run("process", game, orders, "--report-dir", tmp_path / "r", "--image-base", "file:///x")
    assert bad.exit_code == 2 and game.read_bytes() == before
    ok = cli_run("process", game, orders, "--report-dir", tmp_path / "r", "--format", "md",
                 "--image-base", "https://example.org/ib")
    assert ok.exit_code == 0, ok.output
    assert "](https://example.org/ib/ib-turn-001.png)" in (tmp_path / "r" / "ib-turn-001.md").read_text()


def test_pdf_pages_keep_sections_whole(demo):
    from pbem.report.layout import pages_layout

    pages = pages_layout(prepare(demo, 16).model)
    assert len(pages) == 2
    texts = [[t["text"] for t in page["texts"]] for page in pages]
    where = {name: i for i, page in enumerate(texts) for name in page}
    # the province table is on one page, with its header, and the rondel, chart and bank follow it
    assert where["Province"] == where["Zadrakarta"] == where["Adane"]
    for heading in ("Rondel (wedges clockwise, numbered 0-7)", "Progress chart: know-how", "Bank"):
        assert heading in where
    assert len(texts[-1]) > 60, "the last page is not a near-empty overflow"
