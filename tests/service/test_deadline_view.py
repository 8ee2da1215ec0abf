"""The current turn's deadline where players see it: every report format, ``render`` and
``post``, the web page's index, ``show`` and ``show --json`` (docs/mail.md, "Deadlines").

The clock is the game's clock file (``GAME.clock.json``, pbem/service/clockfile.py),
written here as the mail cycle writes it: the ``current`` turn's clock with ``turn``,
``nation``, ``since``, ``due``, ``allow`` and ``zone``, and ``paused`` and ``absences``
beside it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import bot_order_file, cli_run, new_game_file, write_json
from pbem.report import FORMATS, prepare, prepare_all
from pbem.service.clock import parse_time
from pbem.service.clockfile import read_clock
from pbem.service.readout import current_deadline
from pbem.service.service import GameService

SINCE = "2026-11-23T10:00:00Z"
DUE = "2026-11-25T10:00:00Z"
NOW = "2026-11-24T03:00:00Z"
"""31 hours before the deadline."""
SENTENCE = "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET (48 h from the start of the turn)."
LEFT = "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET, in 31 h."


def ledger(game: Path, turn: int | None = None, nation: str | None = None, **judge) -> None:
    """The clock file beside ``game``, its clock on ``turn`` of ``nation`` (default: the
    game's current turn), due 48 hours after it started, told in Berlin time."""
    if turn is None:
        shown = json.loads(cli_run("show", game, "--json").stdout)
        turn, nation = shown["turn"], shown["active"]
    clock = {"turn": turn, "nation": nation, "since": SINCE, "due": DUE, "allow": 48 * 3600, "zone": "Europe/Berlin",
             "reminded": False, "missed": False}
    data = {"format": 1, "current": clock, **judge}
    game.with_name(game.stem + ".clock.json").write_text(json.dumps(data), encoding="utf-8")


def flat(data: bytes) -> str:
    """A report's text with its lines joined (the plain text is wrapped at 78 columns)."""
    return " ".join(data.decode("utf-8").split())


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "report.pdf"
    path.write_bytes(data)
    return " ".join(subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                                   text=True).stdout.split())


@pytest.fixture
def game(tmp_path):
    return new_game_file(tmp_path, "--id", "demo", "--player", "phoenicians=Ben <ben@players.example>")


def deadline(game: Path):
    loaded = GameService(game).load()
    return loaded, current_deadline(loaded, read_clock(game))


# -- the reports ----------------------------------------------------------------------------


def test_every_report_format_names_the_deadline_near_whose_turn_it_is(game, tmp_path):
    ledger(game)
    loaded, due = deadline(game)
    assert due is not None and due.line() == SENTENCE
    report = prepare(loaded, deadline=due)
    assert report.model["deadline"] == SENTENCE
    txt = report.render("txt").decode()
    assert "Next: Phoenicians play turn 1.\nDeadline for turn 1: Wed 25 Nov 2026, 11:00 CET" in txt
    assert SENTENCE in flat(report.render("txt"))
    assert f"play turn 1.  \n**{SENTENCE}**\n" in report.render("md").decode()
    assert f"play turn 1.\n[b]{SENTENCE}[/b]\n" in report.render("bbcode").decode()
    svg = report.render("svg").decode()
    assert f'class="b">{SENTENCE}</text>' in svg  # the board page's header, under "next: ..."
    plain = prepare(loaded)
    assert report.render("png") != plain.render("png")
    if shutil.which("pdftotext"):
        text = pdf_text(report.render("pdf"), tmp_path)
        assert text.count(SENTENCE) == 2  # the board page and the top of page 2
        assert SENTENCE not in pdf_text(plain.render("pdf"), tmp_path)
    # the mail cycle tells the time left at the moment it mails
    told = prepare_all(loaded, deadline=due, now=parse_time(NOW))
    assert [r.model["deadline"] for r in told] == [LEFT]
    assert LEFT in flat(told[0].render("txt"))


def test_without_a_deadline_every_format_is_what_it_was(game):
    """No deadline, one of another turn, or a past entry's report: the bytes of a report made
    without any (the golden files of tests/report/test_report.py hold those)."""
    played = game.with_name("played.json")
    orders = game.with_name("orders.json")
    bot_order_file(game, orders)
    assert cli_run("process", game, orders, "-o", played).exit_code == 0
    ledger(played)
    loaded, due = deadline(played)
    assert due is not None and due.turn == 2
    for fmt in ("txt", "md", "bbcode", "svg"):
        before = prepare(loaded, 0).render(fmt)
        assert prepare(loaded, 0, deadline=due).render(fmt) == before  # the set-up is no longer the latest
        latest = prepare(loaded).render(fmt)
        assert prepare(loaded, deadline=None).render(fmt) == latest
        assert b"Deadline" not in latest
    ledger(played, 1, "phoenicians")  # the clock of the turn before: not this turn's
    assert deadline(played)[1] is None
    other = current_deadline(GameService(game).load(), read_clock(game.with_name("x.json")))
    assert other is None  # no ledger at all


def test_render_and_post_give_what_the_command_wrote_with_a_deadline(game, tmp_path):
    """A GM edit during a turn whose clock runs: its report names the deadline, and render
    and post give the very same bytes later."""
    ledger(game)
    edit = write_json(tmp_path / "edit.json", {"game": "demo", "reason": "a coin for the wait",
                                               "edits": [{"nation": "greeks", "coins": 2}]})
    wrote = cli_run("gm-edit", game, edit, "--report-dir", tmp_path / "r1")
    assert wrote.exit_code == 0, wrote.stderr
    first = {p.name: p.read_bytes() for p in sorted((tmp_path / "r1").iterdir())}
    assert sorted(first) == sorted(f"demo-entry-001.{f}" for f in FORMATS)
    assert SENTENCE in flat(first["demo-entry-001.txt"])
    again = cli_run("render", game, "--entry", "1", "--out", tmp_path / "r2")
    assert again.exit_code == 0, again.stderr
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "r2").iterdir())} == first
    post = cli_run("post", game, "--entry", "1")
    assert post.exit_code == 0 and post.stdout.encode() == first["demo-entry-001.bbcode"]
    # only a GM edit came after the set-up: its report is still the current turn's, with the deadline
    # (issue 38: post and render after a GM edit name it); a report of a turn played since has none
    current = cli_run("render", game, "--turn", "0", "--format", "txt", "--out", tmp_path / "r3")
    assert current.exit_code == 0 and b"Deadline" in (tmp_path / "r3" / "demo-turn-000.txt").read_bytes()


def test_process_writes_the_deadline_of_the_turn_it_leads_to_when_its_clock_runs(game, tmp_path):
    """The clock of the next turn is there already (the cycle saw it before an undo): the
    turn's reports name it, and render gives the same bytes."""
    orders = tmp_path / "orders.json"
    bot_order_file(game, orders)
    ledger(game, 2, "arabs")
    wrote = cli_run("process", game, orders, "--report-dir", tmp_path / "r1")
    assert wrote.exit_code == 0, wrote.stderr
    assert json.loads(cli_run("show", game, "--json").stdout)["active"] == "arabs"
    first = {p.name: p.read_bytes() for p in sorted((tmp_path / "r1").iterdir())}
    assert SENTENCE.replace("turn 1", "turn 2") in flat(first["demo-turn-001.txt"])
    assert cli_run("render", game, "--out", tmp_path / "r2").exit_code == 0
    assert {p.name: p.read_bytes() for p in sorted((tmp_path / "r2").iterdir())} == first


def test_each_private_report_of_a_game_with_secrets_names_it_too(tmp_path):
    """Antike Duellum: the public report and each nation's own (render writes them all)."""
    duel = tmp_path / "duel.json"
    made = cli_run("new", duel, "--edition", "duellum", "--nations", "carthaginians,romans", "--seed",
                   "deadline-duel-seed-1", "--password", "romans=pw-romans", "--password",
                   "carthaginians=pw-carthaginians")
    assert made.exit_code == 0, made.stderr
    ledger(duel)
    assert cli_run("render", duel, "--format", "txt", "--out", tmp_path / "r").exit_code == 0
    texts = {p.name: flat(p.read_bytes()) for p in sorted((tmp_path / "r").iterdir())}
    assert sorted(texts) == ["duel-turn-000.carthaginians.txt", "duel-turn-000.romans.txt", "duel-turn-000.txt"]
    assert all("Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET" in t for t in texts.values())


# -- the web page --------------------------------------------------------------------------


def test_the_site_index_names_the_deadline_and_the_entries_pages_do_not(game, tmp_path):
    ledger(game, paused={"since": SINCE, "reason": "asked by ben@players.example"})
    assert cli_run("site", game, tmp_path / "web").exit_code == 0
    index = (tmp_path / "web" / "index.html").read_text()
    assert ("Deadline for turn 1: none while the game is paused (paused: asked by (address hidden))."
            in index)
    assert "@" not in index
    assert all("Deadline" not in p.read_text() for p in (tmp_path / "web").glob("entry-*.html"))
    ledger(game)
    assert cli_run("site", game, tmp_path / "web").exit_code == 0
    index = (tmp_path / "web" / "index.html").read_text()
    assert f'turn 1<br><span class="deadline">{SENTENCE}</span></p>' in index
    game.with_name("game.clock.json").unlink()
    assert cli_run("site", game, tmp_path / "web").exit_code == 0
    assert "Deadline" not in (tmp_path / "web" / "index.html").read_text()


# -- show -------------------------------------------------------------------------------------


def test_show_gives_the_deadline_with_the_time_left_and_who_is_away(game):
    away = [{"nation": "greeks", "from": "2026-11-23", "until": "2026-11-30", "reason": "a holiday in Crete",
             "by": "GM", "at": SINCE},
            {"nation": "arabs", "from": "2026-12-01", "until": "2026-12-03", "reason": "moving", "by": "GM",
             "at": SINCE}]
    ledger(game, absences=away)
    shown = cli_run("show", game, "--now", NOW)
    assert shown.exit_code == 0, shown.stderr
    assert LEFT in shown.stdout and "Away: Greeks until Mon 30 Nov 2026." in shown.stdout
    assert "Crete" not in shown.stdout and "Arabs until" not in shown.stdout  # no reasons; not away yet
    data = json.loads(cli_run("show", game, "--json", "--now", NOW).stdout)
    assert data["deadline"] == {"turn": 1, "nation": "phoenicians", "since": SINCE, "due": DUE,
                                "zone": "Europe/Berlin", "due_local": "Wed 25 Nov 2026, 11:00 CET",
                                "paused": False, "seconds_left": 31 * 3600}
    assert data["paused"] is False and data["absent"] == {"greeks": "2026-11-30"}
    assert {"game", "edition", "board", "turn", "round", "active", "winner", "bank", "nations", "provinces",
            "variants", "recent"} <= set(data)  # every key of the contract is still there
    late = json.loads(cli_run("show", game, "--json", "--now", "2026-11-25T12:00:00Z").stdout)
    assert late["deadline"]["seconds_left"] == -2 * 3600 and late["absent"] == {"greeks": "2026-11-30"}
    assert "passed 2 h ago" in cli_run("show", game, "--now", "2026-11-25T12:00:00Z").stdout
    # without --now the command line reads the clock
    assert "Deadline for turn 1: Wed 25 Nov 2026, 11:00 CET, " in cli_run("show", game).stdout


def test_show_tells_a_pause(game):
    ledger(game, paused={"since": SINCE, "reason": "waiting for a ruling"})
    shown = cli_run("show", game, "--now", NOW)
    assert ("Deadline for turn 1: none while the game is paused (paused: waiting for a ruling)."
            in flat(shown.stdout.encode()))  # rich wraps it at 80 columns
    data = json.loads(cli_run("show", game, "--json", "--now", NOW).stdout)
    assert data["paused"] is True
    assert data["deadline"]["paused"] is True and data["deadline"]["paused_reason"] == "waiting for a ruling"
    assert "seconds_left" not in data["deadline"]


def test_show_without_a_clock_shows_none(game):
    plain = cli_run("show", game, "--now", NOW)
    assert plain.exit_code == 0 and "Deadline" not in plain.stdout and "Away" not in plain.stdout
    data = json.loads(cli_run("show", game, "--json").stdout)
    assert (data["deadline"], data["paused"], data["absent"]) == (None, False, {})
    ledger(game, 7, "greeks")  # a clock of another turn: the cycle has not seen this one yet
    assert json.loads(cli_run("show", game, "--json", "--now", NOW).stdout)["deadline"] is None
    wrong = cli_run("show", game, "--now", "tomorrow")
    assert wrong.exit_code == 2 and "--now 'tomorrow'" in wrong.stderr
