"""A fourth edition, installed as a plug-in, plays through the whole referee.

Quadriga (tests/editions/fourth/, made up for the tests) has a unit type of its own (the war
chariot), a wedge of its own (HIPPODROME), an event card of its own (TRIUMPH), its own words
in reports and text orders and its own bot strategy. Nothing under ``pbem/`` knows it: the
module fixture installs it the way a third-party package is installed, a ``*.dist-info``
folder whose ``entry_points.txt`` names ``tests.editions.fourth:EDITION`` in the group
``antike_ref.editions``, and :func:`pbem.editions.get` finds it there. Then bots play it to
a win, every history entry verifies, every report format renders and names its pieces in
its own words, and text orders written in its words are checked, processed and refused.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PASSWORDS, ROOT, cli_run, new_game_file

from pbem import editions
from pbem.kernel import queries
from pbem.play.selfplay import STALEMATE_TURNS, bot_turn, play_game, start_game
from pbem.report.text import event_lines
from pbem.service.store import load_game, save_game

GROUP = "antike_ref.editions"
TARGET = "tests.editions.fourth:EDITION"
THREE = ["greeks", "persians", "arabs"]
OWN_EVENTS = ("chariot", "chariots-lost", "triumph", "triumph-drawn")
RAW = re.compile(r"\b(" + "|".join(OWN_EVENTS) + r"): \{")
"""How the reports write an event nobody phrased: its type and its data."""


def _write_dist_info(site: Path) -> None:
    """An installed distribution as pip leaves one: METADATA and entry_points.txt."""
    info = site / "antike_ref_quadriga-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: antike-ref-quadriga\nVersion: 1.0\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\nquadriga = {TARGET}\n", encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The plug-in installed through the entry point (a site folder on ``sys.path``); the
    edition is unknown before, and importing its package alone does not register it."""
    import tests.editions.fourth as package

    assert "fourth" not in [e.id for e in editions.registered()]
    with pytest.raises(editions.UnknownEdition):
        editions.get("fourth")
    folder = tmp_path_factory.mktemp("site")
    _write_dist_info(folder)
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    try:
        found = editions.get("fourth")
        assert found is package.EDITION
        yield folder
    finally:
        # Leave the registry as the other test modules expect it (test_properties plays
        # every registered edition).
        editions.forget("fourth")
        sys.path.remove(str(folder))
        importlib.invalidate_caches()


@pytest.fixture(scope="module")
def quadriga(site):
    return editions.get("fourth")


@pytest.fixture(scope="module")
def bot_game(quadriga, tmp_path_factory):
    """A whole three-nation game played by the greedy bots (invariants, the edition's
    conservation checks and a replay of the history inside), saved to a file."""
    game, rec = play_game("quadriga-3", 3, "greedy", edition="fourth")
    path = tmp_path_factory.mktemp("bots") / "game.json"
    save_game(game, path)
    return game, rec, path


def _events(game, kind=None):
    return [(i, ev) for i, entry in enumerate(game.history) for ev in entry.get("events", [])
            if kind is None or ev["type"] == kind]


# -- 1. found through the entry point ------------------------------------------------------------

def test_the_edition_is_found_through_the_entry_point(quadriga, site):
    (ep,) = [ep for ep in importlib.metadata.entry_points(group=GROUP) if ep.value == TARGET]
    assert ep.load() is quadriga
    assert ep.dist.name == "antike-ref-quadriga"
    assert editions.get("QUADRIGA") is quadriga and editions.get(" Fourth ") is quadriga
    assert {"fourth", "quadriga"} <= set(editions.names())
    assert quadriga.problems() == []


def test_a_fresh_interpreter_finds_it_only_with_the_site_folder(site, bot_game, tmp_path):
    """Another process knows nothing the tests registered: it finds the edition through
    the installed entry point, and without the site folder the game file is unreadable."""
    _, _, path = bot_game
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "pbem", "verify", "--quiet", str(path)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "pbem", "verify", "--quiet", str(path)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 3 and "unknown edition 'fourth'" in done.stderr


def test_no_file_of_the_referee_names_it():
    words = re.compile(r"quadriga|chariot|hippodrome|triumph", re.IGNORECASE)
    named = [str(p.relative_to(ROOT)) for folder in ("pbem", "schemas") for p in (ROOT / folder).rglob("*")
             if p.is_file() and p.suffix in (".py", ".json", ".j2", ".html", ".txt", ".md")
             and words.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert named == []


# -- 2. the bots play it to a win ------------------------------------------------------------------

def test_bots_play_a_whole_game_to_a_win(quadriga, bot_game):
    game, rec, _ = bot_game
    assert game.edition is quadriga and game.state.table.edition == "fourth"
    assert rec.winner is not None and rec.turns < STALEMATE_TURNS
    assert quadriga.turn.score(game.state, rec.winner) >= game.goal
    # The edition's own pieces were played: the wedge, the unit, the card.
    wedges = {e["orders"]["rondel"]["to"] for e in game.history if "rondel" in e.get("orders", {})}
    assert "hippodrome" in wedges
    assert _events(game, "chariot") and _events(game, "triumph") and _events(game, "triumph-drawn")
    assert quadriga.pieces.conservation_problems(game.state, game.board) == []


def test_every_history_entry_verifies(bot_game):
    _, _, path = bot_game
    result = cli_run("verify", "--quiet", path)
    assert result.exit_code == 0, result.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    data["history"][5]["events"].append({"type": "chariot", "nation": "greeks", "city": "athenai", "paid": {}})
    broken = path.with_name("broken.json")
    broken.write_text(json.dumps(data), encoding="utf-8")
    assert cli_run("verify", "--quiet", broken).exit_code != 0


def test_a_card_too_many_or_a_chariot_in_a_rival_city_is_caught(quadriga, bot_game, tmp_path):
    """The edition's conservation laws, both in self-play and when a game file is read."""
    game, _, path = bot_game
    data = json.loads(path.read_text(encoding="utf-8"))
    seats = game.state.table.seats
    data["state"]["nations"][seats[0]]["hand"].append("triumph")
    rival = game.state.cities(seats[1])[0]
    data["state"]["nations"][seats[0]]["chariots"][rival] = 1
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    result = cli_run("show", broken)
    assert result.exit_code == 3
    assert "TRIUMPH cards held" in result.stderr and "which is not their city" in result.stderr
    state = game.state.copy()
    state.nation(seats[0]).extra["hand"] = ["triumph"] * 7
    assert any("the game has 6" in p for p in quadriga.pieces.conservation_problems(state, game.board))


def test_a_war_chariot_defends_its_city(quadriga, bot_game):
    game, _, _ = bot_game
    owner, where = next((n, held) for n in game.state.table.seats
                        if (held := game.state.nations[n].extra["chariots"]))
    city, count = next(iter(where.items()))
    assert quadriga.forces.defence_bonus(game.state, city) == count
    rules = quadriga.rules
    base = rules.defence_temple_city if game.state.provinces[city].temple else rules.defence_city
    assert queries.defence(game.state, quadriga, city) >= base + count


# -- 3. every report, in its own words -------------------------------------------------------------

def test_every_event_of_the_game_is_told_in_its_own_words(bot_game):
    """Its own words (that no event is told as raw data, and that the random bots play it to
    a win too, is the conformance kit's business: tests/test_conformance.py)."""
    game, _, _ = bot_game
    names = {n: game.edition.nation_name(n) for n in game.state.table.seats}
    events = [ev for _, ev in _events(game)]
    lines = event_lines(events, name=lambda n: names.get(n, n), edition=game.edition)
    told = "\n".join(lines)
    assert "harness a war chariot in" in told and "celebrate a TRIUMPH" in told
    assert "are granted 1 TRIUMPH card" in told


def test_the_history_command_says_it_in_its_own_words(bot_game):
    game, _, path = bot_game
    for kind, words in (("chariot", "harness a war chariot in"), ("triumph", "celebrate a TRIUMPH")):
        i, _ = _events(game, kind)[0]
        result = cli_run("history", path, "--turn", game.history[i]["turn"])
        assert result.exit_code == 0, result.stderr
        assert words in result.stdout
        assert not RAW.search(result.stdout)


def test_every_report_format_renders(bot_game, tmp_path):
    game, _, path = bot_game
    turn = max(ev_turn for ev_turn in (game.history[i].get("turn") for i, _ in _events(game, "chariot"))
               if ev_turn is not None)
    result = cli_run("render", path, "--turn", turn, "--format", "all", "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    files = {p.suffix: p for p in tmp_path.iterdir()}
    assert {".txt", ".md", ".bbcode", ".svg", ".png", ".pdf"} <= set(files)
    assert files[".png"].read_bytes().startswith(b"\x89PNG") and files[".pdf"].read_bytes().startswith(b"%PDF")
    for ext in (".txt", ".md", ".bbcode"):
        text = files[ext].read_text(encoding="utf-8")
        assert "harness a war chariot in" in text, ext
        assert "War chariots" in text and "Triumph pile" in text, ext
        assert not RAW.search(text), ext
    svg = files[".svg"].read_text(encoding="utf-8")
    assert "Hippodrome" in svg or "HIPPODROME" in svg


def test_the_final_report_renders_too(bot_game, tmp_path):
    _, rec, path = bot_game
    result = cli_run("render", path, "--format", "txt,svg", "--out", tmp_path)
    assert result.exit_code == 0, result.stderr
    (txt,) = tmp_path.glob("*.txt")
    assert "War chariots" in txt.read_text(encoding="utf-8")


# -- 4. text orders in its own words ---------------------------------------------------------------

@pytest.fixture(scope="module")
def midgame(quadriga, tmp_path_factory):
    """A game played by the bots until the nation to move holds a TRIUMPH card, saved."""
    game, plain = start_game("mid", THREE, "quadriga-mid", "fourth")
    for _ in range(STALEMATE_TURNS):
        active = game.state.status.active
        if "triumph" in game.state.nations[active].extra["hand"] and \
                len(game.state.nations[active].extra["chariots"]) < len(game.state.cities(active)):
            break
        game, _ = bot_turn(game, plain, "greedy")
    else:
        pytest.fail("no nation ever held a TRIUMPH card")
    path = tmp_path_factory.mktemp("mid") / "game.json"
    save_game(game, path)
    return game, path


def _free_wedge(game, nation: str) -> str:
    """A rondel line that costs nothing: the HIPPODROME if it is free."""
    free = [t for t in queries.rondel_targets(game.state, game.edition, nation) if t.cost == 0]
    best = next((t for t in free if t.order["to"] == "hippodrome"), free[0])
    return f"rondel {best.order['to']}" + (f" steps {best.order['steps']}" if "steps" in best.order else "")


def _order_text(game, *lines: str) -> str:
    nation = game.state.status.active
    return "\n".join([f"game {game.game_id}", f"nation {nation}", f"turn {game.state.status.turn}",
                      f"password pw-{nation}", *lines, ""])


def test_a_text_order_in_its_own_words_is_checked_and_processed(midgame, tmp_path):
    game, path = midgame
    nation = game.state.status.active
    city = next(c for c in game.state.cities(nation) if c not in game.state.nations[nation].extra["chariots"])
    shown = game.board.province(city).name
    orders = tmp_path / "orders.txt"
    orders.write_text("Dear GM,\n\n" + _order_text(game, f"celebrate Triumph in {shown}", _free_wedge(game, nation))
                      + "\nthanks\n", encoding="utf-8")
    result = cli_run("check", path, orders)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "celebrate a TRIUMPH: a war chariot for free in" in result.stdout
    assert "celebrate triumph" in result.stdout.lower()  # the echo writes the card line back in its words
    result = cli_run("process", path, orders, "--output", tmp_path / "next.json")
    assert result.exit_code == 0, result.stdout + result.stderr
    after = load_game(tmp_path / "next.json")
    assert after.state.nations[nation].extra["chariots"].get(city) == 1
    assert len(after.state.nations[nation].extra["hand"]) == len(game.state.nations[nation].extra["hand"]) - 1
    assert cli_run("verify", "--quiet", tmp_path / "next.json").exit_code == 0


@pytest.fixture
def opening(quadriga, tmp_path):
    """A new game saved to a file: the Greeks to move, with 3 gold and a coin."""
    game, _ = start_game("text", THREE, "quadriga-text", "fourth")
    path = tmp_path / "game.json"
    save_game(game, path)
    return game, path


def test_chariots_are_harnessed_by_text_order(opening, tmp_path):
    game, path = opening
    nation = game.state.status.active
    first, second = game.state.cities(nation)[:2]
    orders = tmp_path / "orders.txt"
    orders.write_text(_order_text(game, "rondel hippodrome", f"chariot {first} pay 2 gold",
                                  f"harness {game.board.province(second).name} pay 1 gold 1 coin"), encoding="utf-8")
    result = cli_run("check", path, orders, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    out = json.loads(result.stdout)
    assert out["echo"]["rondel"]["to"] == "hippodrome"
    assert out["echo"]["chariots"] == [{"city": first, "pay": {"gold": 2}}, {"city": second, "pay": {"coin": 1, "gold": 1}}]
    assert [e["city"] for e in out["events"] if e["type"] == "chariot"] == [first, second]
    result = cli_run("check", path, orders)
    assert f"chariot {first} pay 2 gold" in result.stdout  # the echo, in the edition's words
    assert f"harness a war chariot in {second}" in result.stdout  # check names places by id


def test_text_orders_of_the_wrong_wedge_or_an_empty_purse_are_refused(opening, tmp_path):
    game, path = opening
    nation = game.state.status.active
    a, b, c = game.state.cities(nation)[:3]
    rival = next(x for n in game.state.table.seats if n != nation for x in game.state.cities(n))
    orders = tmp_path / "orders.txt"
    orders.write_text(_order_text(game, "rondel hippodrome", f"chariot {a}", f"chariot {b}", f"chariots {c}",
                                  f"chariot {rival}"), encoding="utf-8")
    result = cli_run("check", path, orders, "--json")
    assert result.exit_code == 4
    codes = [(r["code"], r["path"]) for r in json.loads(result.stdout)["rejections"]]
    assert codes == [("pay/cannot-afford", "$.chariots[2]"), ("chariot/not-own-city", "$.chariots[3].city")]
    result = cli_run("check", path, orders)
    assert f'line 8 ("chariots {c}"): a war chariot in {game.board.province(c).name} costs 2 gold' in result.stderr
    assert f'line 9 ("chariot {rival}"): a war chariot is built only in a city of' in result.stderr
    orders.write_text(_order_text(game, "rondel temple", f"chariot {a}"), encoding="utf-8")
    result = cli_run("check", path, orders, "--json")
    assert result.exit_code == 4
    assert [r["code"] for r in json.loads(result.stdout)["rejections"]] == ["orders/wrong-action"]


def test_a_refused_text_order_gets_a_proper_refusal(midgame, tmp_path):
    game, path = midgame
    nation = game.state.status.active
    rival = next(c for n in game.state.table.seats if n != nation for c in game.state.cities(n))
    orders = tmp_path / "orders.txt"
    orders.write_text(_order_text(game, f"celebrate triumph in {rival}", _free_wedge(game, nation)),
                      encoding="utf-8")
    result = cli_run("check", path, orders, "--json")
    assert result.exit_code == 4, result.stdout + result.stderr
    out = json.loads(result.stdout)
    (rejection,) = out["rejections"]
    assert rejection["code"] == "chariot/not-own-city"
    assert "a war chariot is built only in a city of" in rejection["message"]
    assert game.board.province(rival).name in rejection["message"]
    # In plain words as well, naming the line of the text it comes from.
    result = cli_run("check", path, orders)
    assert result.exit_code == 4
    assert "war chariot" in result.stdout + result.stderr


def test_an_unknown_word_of_another_edition_is_not_taken(midgame, tmp_path):
    """``wall`` is Duellum's word, not Quadriga's: the reader refuses the line."""
    game, path = midgame
    nation = game.state.status.active
    orders = tmp_path / "orders.txt"
    orders.write_text(_order_text(game, _free_wedge(game, nation), f"wall {game.state.cities(nation)[0]}"),
                      encoding="utf-8")
    result = cli_run("check", path, orders)
    assert result.exit_code == 3, result.stdout + result.stderr


def test_options_say_what_the_hippodrome_allows(opening):
    """``options`` asks the edition for the lines of its own wedge (Edition.wedge_lines)."""
    _, path = opening
    result = cli_run("options", path)
    assert result.exit_code == 0, result.stderr
    assert "a war chariot costs 2 gold (coins may stand in); you can pay for 2 now; 4 left in stock" in result.stdout
    assert json.loads(cli_run("options", path, "--json").stdout)["targets"][8]["effect"]["chariots"]["left"] == 4


def test_an_order_mail_in_its_own_words_is_applied(quadriga, tmp_path):
    """The mail cycle over a local mailbox: a body of text orders in the edition's words is
    read, applied and answered, and the turn's report mails say it in those words."""
    from mailkit import config, mail, maildir, sent

    players = [a for n in THREE for a in ("--player", f"{n.capitalize()} Player <{n}@players.example>".join(
        [f"{n}=", ""]))]
    game = new_game_file(tmp_path, "--edition", "fourth", "--id", "qmail", *players, nations=THREE)
    data = json.loads(game.read_text(encoding="utf-8"))
    nation = data["status"]["active"]
    city = sorted(p for p, prov in data["state"]["provinces"].items() if prov.get("owner") == nation)[0]
    text = "\n".join(["Hello referee,", "", "game qmail", f"nation {nation}", "turn 1", f"password {PASSWORDS[nation]}",
                      "rondel hippodrome", f"chariot {city} pay 2 gold", "", "Cheers"])
    box = maildir(tmp_path / "Maildir", mail(f"{nation}@players.example", body=text))
    result = cli_run("inbox", game, box, "--config", config(tmp_path, game), "--outbox", tmp_path / "out",
                     "--now", "2026-11-23T10:00:00Z")
    assert result.exit_code == 0, result.stdout + result.stderr
    after = json.loads(game.read_text(encoding="utf-8"))
    assert after["state"]["nations"][nation]["chariots"] == {city: 1}
    bodies = [m.get_body(("plain",)).get_content() for m in sent(tmp_path / "out")]
    assert any(f"chariot {city} pay 2 gold" in b for b in bodies)  # the receipt echoes it in its words
    assert any("harness a war chariot in" in b for b in bodies)  # the report says what happened


def test_show_and_a_gm_edit_know_its_pieces(opening, tmp_path):
    """``show`` prints the TRIUMPH pile (Edition.show_lines); a GM edit may set a nation's
    chariots and hand, and one that breaks the edition's own laws is refused."""
    game, path = opening
    result = cli_run("show", path)
    assert result.exit_code == 0, result.stderr
    assert "TRIUMPH pile: 6 card(s) left to be granted" in result.stdout
    nation = game.state.status.active
    mine = game.state.cities(nation)[0]
    rival = next(c for n in game.state.table.seats if n != nation for c in game.state.cities(n))
    edit = tmp_path / "edit.json"
    told = {}
    for chariots, code in (({rival: 1}, 4), ({mine: 2}, 0)):
        edit.write_text(json.dumps({"game": game.game_id, "reason": "test", "edits": [
            {"nation": nation, "chariots": chariots}]}), encoding="utf-8")
        result = cli_run("gm-edit", path, edit)
        assert result.exit_code == code, result.stdout + result.stderr
        told[code] = result.stdout + result.stderr
    assert f"war chariots of the {nation} in {rival}, which is not their city" in told[4]
    shown = json.loads(cli_run("show", path, "--json").stdout)
    assert shown["nations"][nation]["chariots"] == {mine: 2} and shown["triumphs"] == 6
