"""Antike II reports: every format in the edition's own words.

- each Antike II event (a production and its coin, BELLONA's free unit and its passing, a
  neutral temple destroyed, a city of a chosen resource, trades of one and of two chips,
  Pliny the Elder, the win one personage short) is told in the text, Markdown and BBCode
  reports, on the board page's log, on the PDF's pages and on the website;
- who holds BELLONA (and Pliny, in the nine-scholars variant) is in the status block of
  every format and in the plain ``show``;
- the board picture draws neutral temples (gone once destroyed), a chosen resource and a
  legend that explains them; the wedge labels keep clear of the wedge numbers;
- a small bot game on Mare Nostrum renders in every format, and no classic wedge or
  know-how name appears anywhere in its reports;
- the turn mail and the receipt of a text-order mail use the edition's words.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import canonical_edit, canonical_orders, cli_run, new_game
from pbem import editions
from pbem.kernel.setup import SetupOptions
from pbem.report import FORMATS, prepare
from pbem.report.layout import NEUTRAL_FILL, pages_layout, svg_layout
from pbem.service import turns
from pbem.service.boards import load_map_file

ROOT = Path(__file__).resolve().parent.parent.parent
A2 = editions.get("antike2")
ORIENT = load_map_file(ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json")
NATIONS = ["greeks", "persians", "phoenicians"]
PASSWORDS = {n: f"pw-{n}" for n in A2.nations}
TEXT = ("txt", "md", "bbcode")

CLASSIC_WORDS = re.compile(
    r"\b(?i:arming|maneuver|wheel|roads|sailing|navigation|market|currency|monarchy|democracy)\b|KNOW-HOW")
"""Classic Antike's wedge and know-how names that Antike II calls otherwise (its IRON,
GOLD, MARBLE and TEMPLE wedges share their words with resources and temples, and
"know-how" is also the English word the reports use)."""


def _edit(game, *edits):
    return turns.edit(game, canonical_edit({"game": game.game_id, "reason": "scenario", "edits": list(edits)}, A2))


def _play(game, **fields):
    nation = game.state.status.active
    data = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
            "password": PASSWORDS[nation], **fields}
    return turns.play(game, canonical_orders(data, A2))[0]


@pytest.fixture(scope="module")
def scenario():
    """Five turns on the Orient excerpt (nine scholars) with every Antike II event:

    1. Greeks, AURUM: a production and its coin; a city in Paphos, founded as iron;
    2. Persians, FERRUM: a production and its coin;
    3. Phoenicians: two trades (3 for 2 and 2 for 1), MILITIA with BELLONA's free unit,
       BELLONA passes to the Persians;
    4. Greeks, SCIENTIA: the eighth know-how, a scholar and Pliny the Elder;
    5. Persians, MOVERE: the neutral temple of Hierapolis destroyed, no general left: the
       Persians win one personage short (003 L246).
    """
    opts = SetupOptions(game_id="a2", board=ORIENT.id, nations=NATIONS, seed="s", first="greeks",
                        variants=["nine_scholars"])
    game, _ = new_game(opts, ORIENT, {n: PASSWORDS[n] for n in NATIONS}, edition=A2)
    game = _edit(game,
                 {"province": "paphos", "units": {"greeks": {"galley": 1}}},
                 {"province": "hierapolis", "units": {"persians": {"legion": 3}}},
                 {"nation": "phoenicians", "knowhow": ["mercatura", "commercium"], "resources": {"gold": 6}},
                 {"nation": "greeks", "resources": {"gold": 20}, "knowhow": [
                     "mercatura", "commercium", "metallum", "moneta", "regnum", "res_publica", "strata"]},
                 {"nation": "persians", "personages": {"general": 7, "king": 2}, "earned": {"general": 7, "king": 2}},
                 {"bank": {"personages": {"general": 0, "king": 8}}})
    game = _play(game, rondel="aurum", found=[{"city": "paphos", "resource": "iron"}])
    game = _play(game, rondel="ferrum")
    game = _play(game, trade=[{"give": {"gold": 3}, "get": {"iron": 1, "marble": 1}},
                              {"give": {"gold": 2}, "get": "iron"}],
                 rondel="militia", arm=[{"unit": "legion", "at": "damascus"},
                                        {"unit": "legion", "at": "byblos", "free": True}])
    game = _play(game, rondel="scientia", knowhow=["navigatio"])
    game = _play(game, rondel="movere", maneuver=[{"conquer": "hierapolis", "with": {"legion": 3}}])
    assert game.state.status.winner == "persians"
    return game


def flat(text: str) -> str:
    """A report's words with line breaks, wrapping, Markdown escapes and emphasis and
    BBCode tags undone."""
    text = re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", text.replace("\\", "").replace("**", ""))
    return " ".join(text.split())


def svg_words(svg: str) -> str:
    """Every text of an SVG page, in document order, as one line."""
    root = ET.fromstring(svg)
    return flat(" ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")))


def page_words(report) -> str:
    """The words on the PDF's pages after the board page (the layout the PDF is drawn from)."""
    return flat(" ".join(t["text"] for page in pages_layout(report.model) for t in page["texts"]))


def every_text(report) -> dict[str, str]:
    """The report in every format that holds text: txt, md, bbcode, the board page, the
    PDF's further pages."""
    out = {fmt: flat(report.render(fmt).decode("utf-8")) for fmt in TEXT}
    out["svg"] = svg_words(report.render("svg").decode("utf-8"))
    out["pages"] = page_words(report)
    return out


EVENTS = {
    0: ["The Phoenicians hold BELLONA (the last nation in turn order): one unit free when they next take MILITIA"],
    1: ["Greeks produce 3 gold and 1 coin", "Greeks found a city producing iron in Paphos (paid: 1 marble, 1 iron, "
        "1 gold)", "Greeks place their stone on AURUM"],
    3: ["Persians produce 1 iron and 1 coin", "Phoenicians trade 3 gold for 1 marble and 1 iron",
        "Phoenicians trade 2 gold for 1 iron", "Phoenicians place their stone on MILITIA",
        "Phoenicians arm 1 legion in Damascus (paid: 2 iron)", "Phoenicians arm 1 legion in Byblos, free with BELLONA",
        "BELLONA passes to the Persians"],
    5: ["Greeks acquire NAVIGATIO for 8 gold, first to do so", "Greeks win a scholar (first to develop NAVIGATIO)",
        "Greeks win a scholar (Pliny the Elder: the first to own all eight know-hows)",
        "Persians move 3 steps to MOVERE (3)",
        "Persians destroy the neutral temple in Hierapolis (defence 3, using 3 legions)",
        "Persians WIN the game with 9 of 10 (temple destroyed one personage short, no general left)"],
}


@pytest.mark.parametrize("turn", sorted(EVENTS))
def test_every_event_is_told_in_every_format(scenario, turn):
    report = prepare(scenario, turn)
    for fmt, words in every_text(report).items():
        for sentence in EVENTS[turn]:
            if fmt == "svg" and turn == 5 and "NAVIGATIO for" in sentence:
                continue  # the board page's log keeps the latest lines it has room for
            assert sentence in words, (fmt, sentence)
        assert not CLASSIC_WORDS.search(words), (fmt, CLASSIC_WORDS.search(words))
        assert "RES_PUBLICA" not in words and "res_publica" not in words, fmt


def test_event_sentences_of_the_rarer_cases():
    from functools import partial

    from pbem.report import text

    # the reports hand the game's edition down, never ask "the editions loaded"
    event_line, event_lines = partial(text.event_line, edition=A2), partial(text.event_lines, edition=A2)
    name = A2.nation_name
    assert event_lines([{"type": "produce", "nation": "romans", "resource": "iron", "amount": 3},
                        {"type": "coin", "nation": "romans", "reason": "production", "coin": 0, "instead": "gold"}],
                       name) == ["Romans produce 3 iron and take 1 gold instead of a coin (the bank has no coins)"]
    assert event_line({"type": "coin", "nation": "romans", "reason": "production", "coin": 1}, name) == \
        "Romans receive a coin for their production"
    assert event_line({"type": "arm", "nation": "romans", "unit": "legion", "at": "roma", "count": 3, "free": 1,
                       "paid": {"iron": 4}}, name) == "Romans arm 3 legions in roma, 1 of them free with BELLONA " \
                                                      "(paid: 4 iron)"
    assert event_line({"type": "found", "nation": "romans", "city": "pisae", "paid": {"coin": 3}}, name) == \
        "Romans found a city in pisae (paid: 3 coins)"
    assert event_line({"type": "trade", "nation": "romans", "give": {"gold": 3}, "get": {"iron": 2}}, name) == \
        "Romans trade 3 gold for 2 iron"
    assert event_line({"type": "bellona", "nation": "greeks", "to": "germans"}, name) == "BELLONA passes to the Germans"
    # without an edition's labels (check and process print ids), a know-how id still reads as words
    assert event_line({"type": "knowhow", "nation": "romans", "name": "res_publica", "price": 13, "first": False,
                       "paid": {"gold": 13}}) == "romans acquire RES PUBLICA for 13 gold (paid: 13 gold)"


def test_gm_edits_of_the_edition_are_told():
    opts = SetupOptions(game_id="e", board=ORIENT.id, nations=NATIONS, seed="s", first="greeks")
    game, _ = new_game(opts, ORIENT, {n: PASSWORDS[n] for n in NATIONS}, edition=A2)
    game = _edit(game, {"bellona": "greeks"}, {"province": "hierapolis", "neutral_temple": False},
                 {"province": "myra", "resource": "gold"}, {"nation": "greeks", "knowhow": ["regnum", "res_publica"]})
    words = every_text(prepare(game, entry=1))
    for fmt in TEXT:
        text = words[fmt]
        assert "BELLONA is now held by the Greeks" in text, fmt
        assert "Hierapolis: no neutral temple" in text, fmt
        assert "Myra: the city produces gold" in text, fmt
        assert "know-how set to REGNUM, RES PUBLICA" in text, fmt


def test_the_status_block_says_who_holds_bellona_and_pliny(scenario):
    before = prepare(scenario, 3)
    for fmt, text in every_text(before).items():
        if fmt == "pages":
            assert "BELLONA held by the Persians" in text
            continue
        assert "BELLONA: held by the Persians (one unit free when they next take MILITIA" in text, fmt
        assert "Pliny the Elder: the ninth scholar, still to be won" in text, fmt
    after = prepare(scenario, 5)
    for fmt in TEXT:
        text = flat(after.render(fmt).decode("utf-8"))
        assert "Pliny the Elder: the ninth scholar, won by the Greeks" in text, fmt
        assert "BELLONA: held" not in text, "the game is over"
    # the set-up: BELLONA with the last nation in turn order
    assert "BELLONA: held by the Phoenicians" in flat(prepare(scenario, 0).render("txt").decode("utf-8"))


def test_the_board_list_shows_neutral_temples_and_chosen_resources(scenario):
    report = prepare(scenario, 3)
    txt = report.render("txt").decode("utf-8")
    assert "  Hierapolis (gold): neutral temple, defence 3; units: Persians 3 legions" in txt
    assert "  Paphos (iron, chosen, port): city of Greeks; units: Greeks 1 galley" in txt
    md = report.render("md").decode("utf-8")
    assert "| Hierapolis | gold | inland | — | neutral | Persians 3 legions |" in md
    assert "| Paphos | iron, chosen | port | Greeks |" in md
    assert "[*]Hierapolis (gold): neutral temple, defence 3" in report.render("bbcode").decode("utf-8")
    # destroyed: no longer listed (nothing stands there)
    assert "Hierapolis" not in prepare(scenario, 5).render("txt").decode("utf-8").split("BOARD")[1]


def _province(layout, pid):
    return next(p for p in layout["provinces"] if p["id"] == pid)


def test_the_board_draws_neutral_temples_chosen_resources_and_explains_them(scenario):
    standing, destroyed = prepare(scenario, 3), prepare(scenario, 5)
    layout = svg_layout(standing.model, scenario.board)
    temple = _province(layout, "hierapolis")["temple"]
    assert temple["fill"] == NEUTRAL_FILL and _province(layout, "hierapolis")["site"] is None
    assert _province(layout, "paphos")["chip"]["letter"] == "I", "the chosen resource, not the '?' of the site"
    assert _province(layout, "attalia")["chip"]["letter"] == "G"
    labels = [e["label"] for e in layout["legend"]["extras"]]
    assert labels == ["resource of choice", "neutral temple, defence 3"]
    gone = svg_layout(destroyed.model, scenario.board)
    assert _province(gone, "hierapolis")["temple"] is None and _province(gone, "hierapolis")["site"] is not None
    svg = standing.render("svg").decode("utf-8")
    ET.fromstring(svg)
    assert f'fill="{NEUTRAL_FILL}"' in svg and ">neutral temple, defence 3</text>" in svg


def test_wedge_labels_keep_clear_of_the_wedge_numbers(scenario):
    from pbem.report.layout import text_width

    rondel = svg_layout(prepare(scenario, 3).model, scenario.board)["rondel"]
    for w in rondel["wedges"]:
        size = float(w["size"])
        half = text_width(w["label"], size, bold=True) / 2
        x, y = float(w["tx"]), float(w["ty"])
        nx, ny = float(w["num"]["x"]), float(w["num"]["y"])
        nhalf = text_width(w["num"]["text"], 12, bold=True) / 2
        apart = x + half < nx - nhalf or nx + nhalf < x - half or y < ny - 10 or ny < y - size
        assert apart, w["label"]
        assert size >= 9, w["label"]


def test_legion_badges_keep_off_the_names(mare_nostrum):
    """Mare Nostrum puts some names close under their cities, where legion badges go: the
    badges move beside or above the city instead."""
    from pbem.report.layout import board_places, overlaps

    labels = board_places(mare_nostrum.board)["labels"]
    badges = 0
    for turn in (10, 25, 40):
        layout = svg_layout(prepare(mare_nostrum, turn).model, mare_nostrum.board)
        for p in layout["provinces"]:
            for u in p["units"]:
                if u.get("galley"):
                    continue
                badges += 1
                box = (float(u["x"]), float(u["y"]), float(u["x"]) + float(u["w"]), float(u["y"]) + 17)
                assert not any(overlaps(box, b, 1) for b in labels.values()), (turn, p["id"], u["text"])
    assert badges


def test_show_names_bellona_neutral_temples_and_chosen_resources(scenario, tmp_path):
    from pbem.service.store import game_text

    mid = prepare(scenario, 3).game
    path = tmp_path / "a2.json"
    path.write_text(game_text(mid), encoding="utf-8")
    result = cli_run("show", path)
    assert result.exit_code == 0, result.stderr
    out = flat(result.stdout)
    assert "BELLONA: persians (one unit free when they next take MILITIA" in out
    assert "Pliny the Elder (the ninth scholar): not won yet" in out
    assert "Hierapolis gold - neutral persians 3L 0G" in out
    assert "Paphos iron (chosen) greeks" in out
    assert "phoenicians arm 1 legion in byblos, free with BELLONA" in out
    assert "persians produce 1 iron and 1 coin" in out


@pytest.fixture(scope="module")
def mare_nostrum():
    """A small bot game on Mare Nostrum (four nations), 40 turns in."""
    from pbem.play import selfplay

    game, plain = selfplay.start_game("mn", ["romans", "carthaginians", "greeks", "germans"], "r1",
                                      "antike2", "antike2-mare-nostrum")
    for _ in range(40):
        game, _ = selfplay.bot_turn(game, plain, "greedy")
    return game


@pytest.mark.slow
def test_a_bot_game_renders_in_every_format_in_the_editions_words(mare_nostrum):
    seen = set()
    for turn in (0, 7, 40):
        report = prepare(mare_nostrum, turn)
        for fmt in FORMATS:
            data = report.render(fmt)
            assert data, fmt
            if fmt == "pdf":
                assert data.startswith(b"%PDF-")
                continue
            if fmt == "png":
                assert data.startswith(b"\x89PNG\r\n\x1a\n")
                from PIL import Image

                assert Image.open(io.BytesIO(data)).size == (1037, 1466)
                assert len(data) < 100_000, (turn, len(data))  # tests/report/test_report_png.py
                continue
            text = data.decode("utf-8")
            if fmt == "svg":
                ET.fromstring(text)
                text = svg_words(text)
            assert not CLASSIC_WORDS.search(text), (turn, fmt, CLASSIC_WORDS.search(text))
            seen |= set(re.findall(r"\b(FERRUM|TEMPLUM|AURUM|MOVERE|MILITIA|MARMOR|SCIENTIA|BELLONA)\b", text))
        words = flat(report.render("txt").decode("utf-8"))
        assert "BELLONA: held by the" in words
        if turn == 0:
            for line in ("Ancona (iron, port): neutral temple, defence 3", "Dodona (gold): neutral temple, defence 3",
                         "Eryx (marble, port): neutral temple, defence 3"):
                assert line in words
    assert seen == {"FERRUM", "TEMPLUM", "AURUM", "MOVERE", "MILITIA", "MARMOR", "SCIENTIA", "BELLONA"}


@pytest.mark.slow
def test_the_website_of_an_antike2_game(scenario, tmp_path):
    from pbem.report.site import build_site

    build_site(scenario, tmp_path)
    pages = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.html")}
    text = flat(" ".join(pages.values()))
    for sentence in ("Phoenicians arm 1 legion in Byblos, free with BELLONA", "BELLONA passes to the Persians",
                     "Persians destroy the neutral temple in Hierapolis", "Greeks produce 3 gold and 1 coin",
                     "Phoenicians trade 3 gold for 1 marble and 1 iron"):
        assert sentence in text, sentence
    assert "<strong>BELLONA</strong>: held by the Persians" in pages["entry-004.html"]
    assert "<td>neutral</td>" in pages["entry-004.html"]
    assert not CLASSIC_WORDS.search(re.sub(r"<[^>]+>", " ", text))


# -- mail ------------------------------------------------------------------------------------


def test_the_turn_mail_and_a_receipt_speak_antike2(tmp_path):
    from mailkit import GM, START, body, mail, maildir, sent

    nations = ["romans", "carthaginians", "greeks", "germans"]
    address = {n: f"{n}@players.example" for n in nations}
    players = [a for n in nations for a in ("--player", f"{n}={n.capitalize()} Player <{address[n]}>")]
    pw = [a for n in nations for a in ("--password", f"{n}={PASSWORDS[n]}")]
    game = tmp_path / "game.json"
    made = cli_run("new", game, "--edition", "antike2", "--board", "antike2-mare-nostrum", "--id", "mare",
                   "--nations", ",".join(nations), "--first", "germans", "--seed", "s", *players, *pw)
    assert made.exit_code == 0, made.stderr
    assert json.loads(game.read_text())["state"]["bellona"] == "greeks"  # the last in turn order
    change = tmp_path / "edit.json"
    change.write_text(json.dumps({"game": "mare", "reason": "BELLONA to the first nation",
                                  "edits": [{"bellona": "germans"}]}), encoding="utf-8")
    edited = cli_run("gm-edit", game, change)
    assert edited.exit_code == 0, edited.stderr
    cfg = tmp_path / "mail.toml"
    cfg.write_text(f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n\n[[game]]\nfile = "{game}"\n',
                   encoding="utf-8")
    orders = ("game mare\nnation germans\nturn 1\npassword pw-germans\nrondel arming\n"
              "arm 1 legion at colonia agrippina free\n")
    box = maildir(tmp_path / "Maildir", mail(address["germans"], body=orders))
    result = cli_run("inbox", game, box, "--config", cfg, "--outbox", tmp_path / "out", "--now", START)
    assert result.exit_code == 0, result.stdout + result.stderr
    out = sent(tmp_path / "out")
    receipt = next(m for m in out if "accepted" in str(m["Subject"]))
    text = body(receipt)
    assert "rondel militia" in text and "arm 1 legion at colonia_agrippina free" in text
    assert "Germans arm 1 legion in Colonia Agrippina, free with BELLONA" in flat(text)
    assert "BELLONA passes to the Greeks" in flat(text)  # counter-clockwise: the seat before
    assert "BELLONA: held by the Greeks" in flat(text)
    report = next(m for m in out if address["romans"] in str(m["To"]) and "after turn 1" in str(m["Subject"]))
    words = flat(body(report))
    assert "Germans place their stone on MILITIA" in words and "BELLONA: held by the Greeks" in words
    assert not CLASSIC_WORDS.search(words), CLASSIC_WORDS.search(words)
