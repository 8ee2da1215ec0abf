"""Antike Duellum reports: every format in the edition's words, and its secrets kept.

- each Duellum event (cards played, EARTHQUAKE, BURGLARY, ACADEMY and the GM's cards; a town
  wall built, walls from the VP track, recruits, the battles of arming and of a move,
  FORTRESS, a conquest destroying a wall and a temple, cards drawn, the deck shuffled) is
  told in the text, Markdown and BBCode reports, on the board page's log, on the PDF's
  pages and on the website; the rarer sentences too;
- the status block names the open display and the deck; each nation's holdings add its town
  walls, recruitment box, VP marker and the number of its cards;
- the board picture: town walls on cities, sea regions drawn as water with the galley mark
  (not as islands with "no city site"), their galleys at the mark, a legend that explains
  both, the reconstruction note;
- secrets: the public report (and the forum post, the website) names no card a nation drew
  and shows no hand; a nation's private report adds its own; public reports do not change
  when the secrets do, nor does one nation's private report when the other's secrets do;
  no card another nation drew (and does not show) appears in a report of a bot game;
- the files: the public report and one private report per nation; the mail: each player
  gets their own, the GM the public one, and a receipt names only the reader's own cards.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import canonical_edit, canonical_orders, cli_run, new_game
from pbem import editions
from pbem.kernel.setup import SetupOptions
from pbem.report import FORMATS, Report, prepare, prepare_all, write_reports
from pbem.report.layout import SEA, board_places, pages_layout, svg_layout
from pbem.report.model import build_model
from pbem.service import turns
from pbem.service.boards import load_board

DU = editions.get("duellum")
BOARD = load_board("duellum-rome-carthage")
NATIONS = ["carthaginians", "romans"]
PASSWORDS = {n: f"pw-{n}" for n in NATIONS}
ADDRESSES = {n: f"{n}@players.example" for n in NATIONS}
TEXT = ("txt", "md", "bbcode")


def _left_out(entered: int) -> list[dict]:
    """The printed cards after the first ``entered`` placeholders, left out of the deck
    (``"count": 0``): a small deck, so that the scenario's draws run through it."""
    return [{"id": c, "count": 0} for c in [f"card_{i:02d}" for i in range(5 + entered, 26)] + ["blank_1", "blank_2"]]


SCENARIO_DATA = {"event_cards": [
    {"id": "card_05", "name": "Harvest", "effect": {"kind": "gain", "chips": {"gold": 2}, "coins": 1}},
    {"id": "card_06", "name": "Tribute", "effect": {"kind": "opponent_pays", "chips": {"iron": 1}, "coins": 1}},
    *_left_out(2)]}
OMENS = ["Augury", "Comet", "Eclipse", "Flood", "Harvest", "Mutiny", "Omen", "Plague", "Storm", "Tribute"]
BOT_DATA = {"event_cards": [*({"id": f"card_{i + 5:02d}", "name": name,
                                "effect": {"kind": "gain", "chips": {"gold": 1}}}
                              for i, name in enumerate(OMENS)), *_left_out(len(OMENS))]}
"""A bot game's deck: the four known cards and ten cards of names found nowhere else in a report."""


def _edit(game, *edits):
    return turns.edit(game, canonical_edit({"game": game.game_id, "reason": "scenario", "edits": list(edits)}, DU))


def _play(game, **fields):
    nation = game.state.status.active
    data = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
            "password": PASSWORDS[nation], **fields}
    return turns.play(game, canonical_orders(data, DU))[0]


def _scenario(until: int = 6):
    """Turns on the Rome/Carthage board with every Duellum event (the Carthaginians first):

    1. Carthaginians: EARTHQUAKE on Roma's wall, BURGLARY; TEMPLUM, a wall in Zama;
    2. Romans: ACADEMY, TRIBUTE (a GM's card: the opponent pays); SCIENTIA, recruits;
    3. Carthaginians: HARVEST (a GM's card: a gain); MILITIA, a legion armed in Carthago,
       where a Roman legion stands: a battle;
    4. Romans: DUELLUM; a galley into Mare Africum (a battle there), Zama conquered although
       the Carthaginians play FORTRESS, its wall destroyed; a king, a wall from the VP
       track; the Carthaginians draw two cards;
    5. Carthaginians: MARMOR;
    6. (after a GM edit: a temple in Caesarea, Roman legions there) Romans: DUELLUM,
       Caesarea conquered and its temple destroyed: a general; the Carthaginians draw two
       cards, the deck shuffled from the discards in between.

    A game of revision 2 of the rules (draws named to their drawer only, a GM's hand edit
    that sets the hand as given), as the games set up before revision 3 play on; the
    public draws of revision 3 are tests/editions/test_duellum_table.py's.
    """
    opts = SetupOptions(game_id="du", board=BOARD.id, nations=NATIONS, seed="s", first="carthaginians",
                        data=SCENARIO_DATA, revision=2,
                        player={n: f"{n.capitalize()} Player <{ADDRESSES[n]}>" for n in NATIONS})
    game, _ = new_game(opts, BOARD, PASSWORDS, edition=DU)
    game = _edit(game,
                 {"nation": "carthaginians", "hand": ["earthquake", "burglary", "fortress", "card_05"], "coins": 4,
                  "resources": {"marble": 5, "iron": 6, "gold": 3}},
                 {"nation": "romans", "hand": ["academy", "card_06"], "coins": 5, "knowhow": ["strata"],
                  "resources": {"marble": 3, "iron": 3, "gold": 8}},
                 {"province": "roma", "wall": True},
                 {"province": "croton", "owner": "romans", "resource": "gold"},
                 {"province": "carthago", "units": {"romans": {"legion": 1}}},
                 {"province": "zama", "units": {"romans": {"legion": 3}}},
                 {"province": "mare_africum", "units": {"carthaginians": {"galley": 1}}},
                 {"province": "mare_tyrrhenum", "units": {"romans": {"galley": 1}}})
    game = _play(game, events=[{"play": "earthquake", "city": "roma"}, {"play": "burglary"}],
                 rondel="templum", walls=[{"city": "zama"}])
    game = _play(game, events=[{"play": "academy"}, {"play": "card_06"}], rondel="scientia",
                 recruit={"legion": 2, "galley": 1})
    game = _play(game, events=[{"play": "card_05"}], rondel="militia", arm=[{"unit": "legion", "at": "carthago"}])
    game = _play(game, rondel="duellum", maneuver=[
        {"move": "galley", "count": 1, "from": "mare_tyrrhenum", "path": ["mare_africum"]},
        {"conquer": "zama", "with": {"legion": 2}}])
    game = _play(game, rondel="marmor")
    game = _edit(game, {"province": "caesarea", "temple": True, "units": {"romans": {"legion": 3}}},
                 {"nation": "romans", "rondel": 2})
    if until >= 6:
        game = _play(game, rondel="duellum", maneuver=[{"conquer": "caesarea"}])
    return game


@pytest.fixture(scope="module")
def scenario():
    game = _scenario()
    assert game.state.nations["carthaginians"].extra["hand"] == ["burglary", "card_05", "card_06", "academy"]
    return game


@pytest.fixture(scope="module")
def bot_game():
    """Two bots on the Rome/Carthage board, 80 turns, with ten more cards in the deck, whose
    draws are named to their drawer only (the variant ``hidden_draws``)."""
    from pbem.play import selfplay

    game, plain = selfplay.start_game("duel", NATIONS, "r1", "duellum", BOARD.id, data=BOT_DATA,
                                      variants=("hidden_draws",))
    for _ in range(80):
        if game.state.status.winner:
            break
        game, _ = selfplay.bot_turn(game, plain, "greedy")
    return game


@pytest.fixture(scope="module")
def bot_turns(bot_game):
    """The bot game right after each of its turns: turn number -> game (replayed once)."""
    from pbem.report.site import games_after_each_entry

    return {at.history[-1]["turn"]: at for at in games_after_each_entry(bot_game)
            if at.history[-1].get("kind") in ("turn", "bot-turn")}


def _holding(bot_turns, both: bool = False) -> list[int]:
    """Two turns of the bot game after which a nation (``both``: each) holds cards, one
    from the middle and the last such turn."""
    held = [t for t, at in sorted(bot_turns.items())
            if (all if both else any)(at.state.nations[n].extra["hand"] for n in NATIONS)]
    assert held, "the bots never held a card"
    return sorted({held[len(held) // 2], held[-1]})


def flat(text: str) -> str:
    """A report's words with line breaks, wrapping, Markdown escapes and emphasis and
    BBCode tags undone."""
    text = re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", text.replace("\\", "").replace("**", ""))
    return " ".join(text.split())


def svg_words(svg: str) -> str:
    root = ET.fromstring(svg)
    return flat(" ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")))


def page_words(report) -> str:
    return flat(" ".join(t["text"] for page in pages_layout(report.model) for t in page["texts"]))


def every_text(report) -> dict[str, str]:
    """The report in every format that holds text."""
    out = {fmt: flat(report.render(fmt).decode("utf-8")) for fmt in TEXT}
    out["svg"] = svg_words(report.render("svg").decode("utf-8"))
    out["pages"] = page_words(report)
    return out


# -- every event in every format ------------------------------------------------------------------


EVENTS = {
    1: ["Carthaginians play EARTHQUAKE: the town wall of Roma is destroyed and goes back to the Romans' supply",
        "Carthaginians play BURGLARY: the Romans pay 2 coins to the bank",
        "Carthaginians place their stone on TEMPLUM (paid: free)",
        "Carthaginians build a town wall in Zama (paid: 1 marble)",
        "Roma: town wall built", "event cards in hand set to 4 cards"],
    2: ["Romans play ACADEMY after the rondel move and receive 0 gold",
        "Romans play TRIBUTE: the Carthaginians pay 1 iron, 1 coin to the bank",
        "Romans recruit 2 legions and 1 galley into their recruitment box (paid: 4 gold)"],
    3: ["Carthaginians play HARVEST and receive 2 gold, 1 coin",
        "Carthaginians arm 1 legion in Carthago (paid: 2 iron)",
        "battle in Carthago: Carthaginians and Romans each lose 1 legion (back into their recruitment boxes)"],
    4: ["Romans move 1 galley Mare Tyrrhenum → Mare Africum, 1 lost on the way",
        "battle in Mare Africum: Romans and Carthaginians each lose 1 galley (back into their recruitment boxes)",
        "Carthaginians play FORTRESS in Zama: the Romans lose one legion more",
        "Romans conquer Zama from Carthaginians (defence 3, using 3 legions), destroying its town wall (the wall "
        "goes back to the Carthaginians' supply)",
        "Romans reach 1 on the VP track and receive a town wall for their supply",
        "Carthaginians take an event card from the display (lost a city)",
        "Carthaginians take an event card from the display (the opponent won a personage)"],
    6: ["Romans conquer Caesarea from Carthaginians (defence 3, using 3 legions), destroying its temple",
        "Romans win a general (temple destroyed)",
        "Carthaginians take an event card from the display (lost a city)",
        "The discarded event cards are shuffled into a new deck of 6 cards"],
}


@pytest.mark.parametrize("turn", sorted(EVENTS))
def test_every_event_is_told_in_every_format(scenario, turn):
    for fmt, words in every_text(prepare(scenario, turn)).items():
        for sentence in EVENTS[turn]:
            if fmt == "svg" and turn == 1 and sentence.startswith(("Roma:", "event cards")):
                continue  # the board page's log keeps the latest lines it has room for
            assert sentence in words, (fmt, sentence)
        assert "{" not in words, fmt
        if fmt == "svg":  # the board marks seas as seas, not as sites a city cannot stand on
            assert "no city site" not in words


def test_the_rarer_sentences():
    from functools import partial

    from pbem.report import text

    # the reports hand the game's edition down, never ask "the editions loaded"
    event_line, edit_lines = partial(text.event_line, edition=DU), partial(text.edit_lines, edition=DU)
    name = DU.nation_name
    assert event_line({"type": "draw-missed", "nation": "romans", "reason": "lost a city"}, name) == \
        "Romans take no event card (lost a city): the display is empty"
    assert event_line({"type": "fortress", "nation": "romans", "city": "zama", "defender": "carthaginians",
                       "held": True}, name) == ("Carthaginians play FORTRESS in zama: the Romans lack the units for "
                                                "it, so the city holds and every unit stays")
    assert event_line({"type": "walls", "nation": "romans", "count": 2, "vp": 3}, name) == \
        "Romans reach 3 on the VP track and receive 2 town walls for their supply"
    assert event_line({"type": "card", "nation": "romans", "card": "card_09", "chips": {}, "coins": 0}, name) == \
        "Romans play CARD 09 and receive nothing"
    assert event_line({"type": "card", "nation": "romans", "card": "card_09", "against": "greeks", "chips": {},
                       "coins": 0}, name) == "Romans play CARD 09: the Greeks pay nothing to the bank"
    assert event_line({"type": "draw", "nation": "romans", "card": "fortress", "reason": "lost a city"}, name) == \
        "Romans take FORTRESS from the display (lost a city)"
    assert event_line({"type": "conquer", "nation": "romans", "city": "zama", "defender": "carthaginians",
                       "defence": 4, "used": {"legion": 4}, "temple_destroyed": True, "wall_destroyed": True},
                      name) == ("Romans conquer zama from Carthaginians (defence 4, using 4 legions), destroying its "
                                "temple and its town wall (the wall goes back to the Carthaginians' supply)")
    # without the edition's flag, a battle is told as in the other editions
    battle = {"type": "battle", "nation": "romans", "at": "roma", "unit": "legion", "against": "greeks",
              "count": 1, "started_by": "romans"}
    assert event_line(battle, name) == "battle in roma: Romans start it; Romans and Greeks each lose 1 legion"
    assert edit_lines([{"nation": "romans", "walls_supply": 2, "recruitment": {"legion": 1, "galley": 0}, "vp": 3,
                        "hand": ["fortress", "academy"]}, {"province": "roma", "wall": False}], name) == [
        "Romans: town walls in the supply set to 2, recruitment box set to 1 legion, VP marker set to 3, event "
        "cards in hand set to 2 cards", "roma: no town wall"]


def test_the_status_block_and_the_holdings(scenario):
    report = prepare(scenario, 4)
    for fmt, words in every_text(report).items():
        assert "Event cards: open display TRIBUTE, FORTRESS, EARTHQUAKE; 1 card in the deck, 6 discarded" \
            in words.replace("Event cards open", "Event cards: open"), fmt
        if fmt != "svg":
            assert "Town walls: none built, 1 in the supply" in words.replace("Town walls none",
                                                                             "Town walls: none"), fmt
            assert "Recruitment box: 7 legions and 3 galleys" in words.replace("box 7", "box: 7"), fmt
            assert "Event cards: 2 cards in hand" in words.replace("cards 2 cards", "cards: 2 cards"), fmt
        else:  # the board page: a line per nation under the nations table
            assert "Carthaginians: walls 0 built, 1 in supply · box 1L 2G · VP 0 · 2 event cards" in words
            assert "Romans: walls 0 built, 3 in supply · box 7L 3G · VP 1 · 0 event cards" in words
    txt = report.render("txt").decode("utf-8")
    assert "  VP track: the marker on 1" in txt
    assert "play FORTRESS: always; draw" in flat(txt)
    # the board list: a sea with galleys, a city's wall
    assert "  Mare Africum (no city site, sea): no city; units: Carthaginians 1 galley" in \
        prepare(scenario, 1).render("txt").decode("utf-8")
    assert "  Zama (marble): city of Carthaginians, town wall; units: Romans 3 legions" in \
        prepare(scenario, 1).render("txt").decode("utf-8")
    assert "| Zama | marble | inland | Carthaginians | town wall |" in prepare(scenario, 1).render("md").decode("utf-8")


# -- the board picture -------------------------------------------------------------------------------


def _province(layout, pid):
    return next(p for p in layout["provinces"] if p["id"] == pid)


def test_the_board_draws_walls_and_seas(scenario):
    report = prepare(scenario, 1)
    layout = svg_layout(report.model, BOARD)
    zama = _province(layout, "zama")
    (wall,) = zama["marks"]  # the edition's city mark, its town wall
    assert wall["points"] and zama["city"] is not None
    assert "marks" not in _province(layout, "roma"), "destroyed by the earthquake"
    sea = _province(layout, "mare_africum")
    assert sea["fill"] == SEA and sea["sea"] and sea["cross"] is None and sea["site"] is None
    assert sea["harbour"] is None and sea["sea_mark"]["hull"]
    galley = next(u for u in sea["units"] if u.get("galley"))
    assert galley["text"] == "Ca 1G"
    assert float(galley["tx"]) == pytest.approx(float(sea["sea_mark"]["mast"][1:].split(",")[0]))
    island = _province(layout, "carales")  # a sea-only site of choice: an island with a city site
    assert island["fill"] != SEA and island["site"] is not None and "sea" not in island
    assert not any(board_places(BOARD)["harbours"].get(p) for p in BOARD.provinces if p.startswith("mare_"))
    assert [e["label"] for e in layout["legend"]["extras"]] == ["resource of choice", "sea: no city, counts double",
                                                                "town wall"]
    svg = report.render("svg").decode("utf-8")
    ET.fromstring(svg)
    assert "no city site" not in svg and 'style="stroke:none"' in svg
    assert "Reconstructed board — not the printed game board" in svg
    # the board kit's map of the board shows the seas the same way
    from pbem.report.boardmap import board_svg

    kit = board_svg(BOARD)
    assert "sea: no city, counts double" in kit and "no city site" not in kit


def test_the_aegean_excerpt_draws_its_seas():
    from pbem.service.boards import load_map_file

    aegean = load_map_file(Path(__file__).parent.parent / "data" / "boards" / "duellum-aegean-excerpt.json")
    opts = SetupOptions(game_id="ae", board=aegean.id, nations=["greeks", "persians"], seed="s")
    game, _ = new_game(opts, aegean, {"greeks": "g", "persians": "p"}, edition=DU)
    layout = svg_layout(build_model(game), aegean)
    assert _province(layout, "mare_aegaeum")["fill"] == SEA and _province(layout, "lemnos")["sea"]
    ET.fromstring(prepare(game).render("svg").decode("utf-8"))


# -- a bot game in every format ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_bot_game_renders_in_every_format(bot_game):
    from PIL import Image

    last = bot_game.history[-1]["turn"]
    for turn in (0, 40, last):
        for report in prepare_all(bot_game, turn):
            assert report.name("txt").endswith(f"-turn-{turn:03d}{'.' + report.viewer if report.viewer else ''}.txt")
            for fmt in FORMATS if turn == 40 else ("svg", "txt", "md", "bbcode"):
                data = report.render(fmt)
                if fmt == "pdf":
                    assert data.startswith(b"%PDF-")
                elif fmt == "png":
                    assert Image.open(io.BytesIO(data)).size == (1037, 1466)
                    assert len(data) < 100_000, (report.viewer, len(data))  # tests/report/test_report_png.py
                else:
                    text = data.decode("utf-8")
                    if fmt == "svg":
                        ET.fromstring(text)
                    assert "Antike Duellum" in text
    words = flat(prepare(bot_game, last).render("txt").decode("utf-8"))
    assert "Event cards: open display" in words and "Recruitment box:" in words


@pytest.mark.slow
def test_the_website_of_a_duellum_game_is_public(scenario, tmp_path):
    from pbem.report.site import build_site

    build_site(scenario, tmp_path)
    pages = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.glob("*.html")}
    text = flat(re.sub(r"<[^>]+>", " ", " ".join(pages.values())))
    for sentence in ("Carthaginians play EARTHQUAKE: the town wall of Roma is destroyed",
                     "Carthaginians take an event card from the display (lost a city)",
                     "Romans recruit 2 legions and 1 galley"):
        assert sentence in text, sentence
    assert "ACADEMY from the display" not in text and "in hand:" not in text
    assert "<td>town wall</td>" in pages["entry-002.html"]


# -- secrets -------------------------------------------------------------------------------------------


def test_the_private_report_adds_the_nations_own_cards(scenario):
    public, carthaginians, romans = prepare_all(scenario, 6)
    assert (public.viewer, carthaginians.viewer, romans.viewer) == (None, "carthaginians", "romans")
    mine = every_text(carthaginians)
    for fmt, words in mine.items():
        assert "Carthaginians take TRIBUTE from the display (lost a city)" in words, fmt
        assert "Carthaginians take ACADEMY from the display (the opponent won a personage)" in words, fmt
        if fmt != "pages":  # (the pages say it in their running head)
            assert "for the Carthaginians only" in words, fmt
        if fmt != "svg":
            assert "Private report: it shows the event cards of the Carthaginians" in words.replace(
                "Private report it", "Private report: it"), fmt
        hand = "BURGLARY, HARVEST, TRIBUTE, ACADEMY"
        assert hand in words, fmt
    for report in (public, romans):
        for fmt, words in every_text(report).items():
            assert "ACADEMY" not in words and "HARVEST" not in words and "BURGLARY" not in words, (report.viewer, fmt)
            assert "Carthaginians take an event card from the display (the opponent won a personage)" in words
    assert public.name("png") == "du-turn-006.png" and carthaginians.name("png") == "du-turn-006.carthaginians.png"
    assert "](du-turn-006.carthaginians.png)" in carthaginians.render("md").decode("utf-8")
    with pytest.raises(Exception, match="private report"):
        prepare(scenario, 6, viewer="greeks")


def _with_secrets(game, nation: str | None, salt: str):
    """``game`` with other secrets: ``nation``'s hand (same size, other cards) and the cards it
    drew in the history (all nations' if ``None``), the deck's order and the shuffling
    secret; everything public is the same."""
    st = game.state.copy()
    pool = ["card_13", "card_14", "earthquake", "burglary", "academy"]
    for n in game.seats if nation is None else (nation,):
        held = st.nation(n).extra
        held["hand"] = [next(c for c in pool[len(salt) % 2:] if c != held["hand"][i]) for i in range(len(held["hand"]))]
    deck = list(st.extra["deck"])
    st.extra["deck"] = deck[len(salt) % max(1, len(deck)):] + deck[:len(salt) % max(1, len(deck))]
    st.extra["secret"] = salt * 8
    history = []
    for entry in game.history:
        events = [{**ev, "card": "card_14"} if ev.get("type") == "draw" and "card" in ev
                  and (nation is None or ev["nation"] == nation) else ev for ev in entry.get("events", [])]
        history.append({**entry, "events": events} if "events" in entry else entry)
    return game.copy_with(st, history)


def _renders(report: Report) -> dict[str, bytes]:
    out = {fmt: report.render(fmt) for fmt in ("svg", "txt", "md", "bbcode")}
    out["pages"] = "".join(report.page_svgs()).encode("utf-8")
    return out


def test_public_reports_do_not_change_with_the_secrets(bot_turns):
    for turn in _holding(bot_turns):
        at = bot_turns[turn]
        assert any(at.state.nations[n].extra["hand"] for n in NATIONS)
        before = _renders(prepare(at))
        other = _with_secrets(at, None, "xyz")
        for n in NATIONS:
            hand = at.state.nations[n].extra["hand"]
            assert not hand or other.state.nations[n].extra["hand"] != hand
        assert _renders(prepare(other)) == before, turn


def test_a_private_report_does_not_change_with_the_other_nations_secrets(bot_turns):
    for turn in _holding(bot_turns, both=True) or _holding(bot_turns):
        at = bot_turns[turn]
        for a, b in (NATIONS, NATIONS[::-1]):
            mine = _renders(prepare(at, viewer=a))
            assert _renders(prepare(_with_secrets(at, b, "abc"), viewer=a)) == mine, (turn, a)
            # the test can fail: the nation's own secrets are in its own report
            if at.state.nations[a].extra["hand"]:
                assert _renders(prepare(_with_secrets(at, a, "abcd"), viewer=a)) != mine


@pytest.mark.slow
def test_the_website_does_not_change_with_the_secrets(bot_turns, tmp_path):
    from pbem.report.site import build_site

    at = bot_turns[_holding(bot_turns)[0]]
    build_site(at, tmp_path / "a")
    st = at.state.copy()
    for n in NATIONS:
        held = st.nation(n).extra
        held["hand"] = ["academy"] * len(held["hand"])
    st.extra["secret"] = "another"
    build_site(at.copy_with(st, at.history), tmp_path / "b")
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def _without_standing(model):
    """The model without the standing orders: they are public (docs/rulings.md, D18), and
    a ``draw`` standing order names the cards a nation would take first, held or not."""
    for n in model["nations"]:
        n["standing"] = ""
        for fact in n["facts"]:
            if fact["label"] == "Standing orders":
                fact["value"] = ""
    for block in model["log"]:
        block["lines"] = [line for line in block["lines"] if "standing orders" not in line]
    return model


def _card_words(game, cid: str) -> list[str]:
    from pbem.editions.duellum import cards

    card = cards.catalogue(game.state.table.data).get(cid) or {}
    return [w for w in (cid, card.get("name")) if w]


def test_no_card_another_nation_drew_appears_in_a_report(bot_turns):
    """For every turn of the bot game in which a nation drew cards: a card it drew and holds
    (not on the display) is named in its own private report of that turn, and neither in
    the other nation's private report nor in the public one, in any format."""
    checked = 0
    for _, at in sorted(bot_turns.items()):
        entry = at.history[-1]
        drawn = {(ev["nation"], ev["card"]) for ev in entry.get("events", []) if ev["type"] == "draw"}
        display = set(at.state.extra["display"])
        played_lately = {ev["card"] for e in at.history[-3:] for ev in e.get("events", []) if ev["type"] == "card"}
        for drawer, cid in sorted(drawn):
            if cid not in at.state.nations[drawer].extra["hand"] or cid in display or cid in played_lately:
                continue
            if cid == "fortress":
                continue  # a word of the standing orders too ("play FORTRESS: always")
            other = next(n for n in NATIONS if n != drawer)
            words = [re.compile(rf"\b{re.escape(w)}\b", re.IGNORECASE) for w in _card_words(at, cid)]
            for viewer in (None, other, drawer):
                texts = every_text(Report(at, entry["turn"], _without_standing(build_model(at, viewer=viewer)), None))
                found = [(fmt, w.pattern) for fmt, text in texts.items() for w in words if w.search(text)]
                if viewer == drawer:
                    assert found, (entry["turn"], cid)
                else:
                    assert not found, (entry["turn"], viewer, cid, found)
            checked += 1
    assert checked >= 3


# -- files, the command line and the mail ---------------------------------------------------------------


def test_write_reports_writes_the_public_and_each_private_report(scenario, tmp_path):
    paths = write_reports(scenario, tmp_path, ["txt", "png"])
    assert [p.name for p in paths] == [
        "du-turn-006.png", "du-turn-006.txt", "du-turn-006.carthaginians.png", "du-turn-006.carthaginians.txt",
        "du-turn-006.romans.png", "du-turn-006.romans.txt"]
    assert "ACADEMY" not in (tmp_path / "du-turn-006.txt").read_text(encoding="utf-8")
    assert "ACADEMY" not in (tmp_path / "du-turn-006.romans.txt").read_text(encoding="utf-8")
    assert "ACADEMY" in (tmp_path / "du-turn-006.carthaginians.txt").read_text(encoding="utf-8")


def test_the_forum_post_is_the_public_report(scenario, tmp_path):
    from pbem.service.store import game_text

    path = tmp_path / "du.json"
    path.write_text(game_text(scenario), encoding="utf-8")
    post = cli_run("post", path, "--image-base", "https://example.org/du")
    assert post.exit_code == 0, post.stderr
    assert "Carthaginians take an event card from the display" in flat(post.stdout)
    assert "ACADEMY" not in post.stdout and "in hand:" not in post.stdout
    assert "[img]https://example.org/du/du-turn-006.png[/img]" in post.stdout
    render = cli_run("render", path, "--format", "txt", "--out", tmp_path / "r")
    assert render.exit_code == 0, render.stderr
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == [
        "du-turn-006.carthaginians.txt", "du-turn-006.romans.txt", "du-turn-006.txt"]


def _turn_6_by_mail(tmp_path, attach: str):
    """The game of the scenario after turn 5, the Romans' turn 6 mailed (text orders) and
    read by ``inbox`` with ``attach``: the game file, the mail config and what was sent."""
    from mailkit import GM, START, mail, maildir, sent
    from pbem.service.store import game_text

    game = tmp_path / "du.json"
    game.write_text(game_text(_scenario(until=5)), encoding="utf-8")
    cfg = tmp_path / "mail.toml"
    cfg.write_text(f'[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "{GM}"\n\n[defaults]\n'
                   f'attach = "{attach}"\n\n[[game]]\nfile = "{game}"\n', encoding="utf-8")
    orders = "game du\nnation romans\nturn 6\npassword pw-romans\nrondel duellum\nconquer caesarea\n"
    box = maildir(tmp_path / "Maildir", mail(ADDRESSES["romans"], body=orders))
    result = cli_run("inbox", game, box, "--config", cfg, "--outbox", tmp_path / "out", "--now", START)
    assert result.exit_code == 0, result.stdout + result.stderr
    return game, cfg, sent(tmp_path / "out")


def test_each_player_gets_their_own_private_report_by_mail(tmp_path):
    """The Romans play turn 6 by mail (text orders): their receipt, the report mails. The
    Carthaginians draw two cards in it: only their own mail names them."""
    from mailkit import GM, body

    game, _, out = _turn_6_by_mail(tmp_path, "txt,pdf")

    def everything(message) -> str:
        parts = [body(message)] + [p.get_content() for p in message.iter_attachments()
                                   if p.get_content_type() == "text/plain"]
        return flat(" ".join(parts))

    receipt = next(m for m in out if "accepted" in str(m["Subject"]))
    assert "Carthaginians take an event card from the display (lost a city)" in flat(body(receipt))
    assert "ACADEMY" not in body(receipt) and "rondel duellum" in body(receipt)
    reports = {str(m["To"]).split("<")[-1].rstrip(">"): m for m in out if "after turn 6" in str(m["Subject"])}
    assert sorted(reports) == sorted([*ADDRESSES.values(), GM])
    names = {who: sorted(p.get_filename() for p in m.iter_attachments()) for who, m in reports.items()}
    assert names[ADDRESSES["carthaginians"]] == ["du-turn-006.carthaginians.pdf", "du-turn-006.carthaginians.txt"]
    assert names[ADDRESSES["romans"]] == ["du-turn-006.romans.pdf", "du-turn-006.romans.txt"]
    assert names[GM] == ["du-turn-006.pdf", "du-turn-006.txt"]
    theirs = everything(reports[ADDRESSES["carthaginians"]])
    assert "Carthaginians take ACADEMY from the display (the opponent won a personage)" in theirs
    assert "BURGLARY, HARVEST, TRIBUTE, ACADEMY" in theirs
    for who in (ADDRESSES["romans"], GM):
        words = everything(reports[who])  # (ACADEMY and HARVEST were played openly in turns 2 and 3)
        assert not re.search(r"take [A-Z]+ from the display", words), who
        assert "HARVEST, TRIBUTE" not in words and "in hand:" not in words, who
        assert "Carthaginians take an event card from the display" in words, who


def test_a_receipt_tells_the_readers_own_draws_only(scenario):
    from pbem.mail.writing import entry_lines

    entry = scenario.history[-1]
    theirs = " ".join(entry_lines(scenario, entry, ("carthaginians",)))
    assert "Carthaginians take ACADEMY from the display" in theirs
    for readers in (("romans",), ()):
        words = " ".join(entry_lines(scenario, entry, readers))
        assert "ACADEMY" not in words and "Carthaginians take an event card from the display" in words
    # a reader playing both nations sees both
    assert "ACADEMY" in " ".join(entry_lines(scenario, entry, ("romans", "carthaginians")))


def test_attach_copy_sends_each_player_their_own_copy_for_check(tmp_path):
    """``attach = "pdf,copy"``: each player's report mail carries their own copy of the game
    (what ``antike-ref copy`` writes), on which ``check`` works; the GM's carries none. A
    reply that brings the copy back with its orders in the body is read as those orders."""
    import json as _json

    from mailkit import GM, START, body, mail, maildir, sent
    from pbem.service import copies
    from pbem.service.schemas import dumps
    from pbem.service.store import load_game

    game, cfg, out = _turn_6_by_mail(tmp_path, "txt,copy")
    reports = {str(m["To"]).split("<")[-1].rstrip(">"): m for m in out
               if "after turn 6" in str(m["Subject"])}
    played = load_game(game)
    for nation, address in ADDRESSES.items():
        attached = {p.get_filename(): p.get_content() for p in reports[address].iter_attachments()}
        assert sorted(attached) == [f"du-turn-006.{nation}.txt", f"du.{nation}.json"]
        copy = attached[f"du.{nation}.json"]
        copy = copy if isinstance(copy, bytes) else copy.encode("utf-8")
        # packed, as a mail carries it (docs/mail.md): it holds the very copy ``copy`` writes
        held = copies.unpacked(_json.loads(copy), "the mail", 1 << 24)
        assert dumps(held) == dumps(copies.player_copy(played, nation))
        assert f"antike-ref check du.{nation}.json ORDERS" in flat(body(reports[address]))
        other = next(n for n in NATIONS if n != nation)
        assert set(held["state"]["nations"][other]["hand"]) <= {"?"}
        (tmp_path / f"du.{nation}.json").write_bytes(copy)
    assert sorted(p.get_filename() for p in reports[GM].iter_attachments()) == ["du-turn-006.txt"]
    # the Carthaginians check their next orders on their copy, then reply with the copy attached
    active = played.state.status.active
    assert active == "carthaginians"
    theirs = "game du\nnation carthaginians\nturn 7\npassword pw-carthaginians\nrondel templum\n"
    (tmp_path / "o.txt").write_text(theirs, encoding="utf-8")
    checked = cli_run("check", tmp_path / "du.carthaginians.json", tmp_path / "o.txt")
    assert checked.exit_code == 0, checked.stderr
    from email import message_from_bytes, policy

    reply = message_from_bytes(mail(ADDRESSES["carthaginians"], subject="Re: du", body=theirs), policy=policy.default)
    reply.add_attachment((tmp_path / "du.carthaginians.json").read_bytes(), maintype="application", subtype="json",
                         filename="du.carthaginians.json")
    reply = reply.as_bytes()
    box2 = maildir(tmp_path / "Maildir2", reply)
    again = cli_run("inbox", game, box2, "--config", cfg, "--outbox", tmp_path / "out2", "--now", START)
    assert again.exit_code == 0, again.stdout + again.stderr
    subjects = [str(m["Subject"]) for m in sent(tmp_path / "out2")]
    assert "[du] accepted: turn 7 for Carthaginians" in subjects, subjects  # the copy was not taken for orders
    assert load_game(game).state.status.turn == 8


def test_the_edition_phrases_its_own_events():
    """The reports ask the game's edition for the sentences of its own rules
    (``Edition.event_line``): Duellum tells its walls and its self-fighting battles; an
    edition without walls does not know the event, and the shared phrasing prints it raw."""
    from pbem.report.text import event_line, standing_text

    classic = editions.get("antike")
    walls = {"type": "walls", "nation": "romans", "count": 1, "vp": 3}
    assert event_line(walls, edition=DU) == "romans reach 3 on the VP track and receive a town wall for their supply"
    assert event_line(walls, edition=classic) == f"walls: {walls}"
    battle = {"type": "battle", "nation": "romans", "at": "roma", "unit": "legion", "against": "greeks",
              "count": 1, "started_by": "romans"}
    assert event_line(battle, automatic=True, edition=DU).endswith("(back into their recruitment boxes)")
    assert event_line(battle, automatic=True, edition=classic) == \
        "battle in roma: romans start it; romans and greeks each lose 1 legion"
    assert standing_text({"fortress": "never"}, edition=DU) == "play FORTRESS: never"
    assert standing_text({"fortress": "never"}, edition=classic) == "no change"
