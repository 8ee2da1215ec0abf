"""``antike-ref status``: the GM's status of the games run by mail (docs/mail.md, "Status
for the GM"): one line per game, the games that need the GM first; ``--json`` field by
field; ``--html`` a page that refers to nothing and names no address.

Three games, their clocks started by real ``mail run``s (``[defaults] deadline = "48h"``,
told in Berlin time): one on time; one whose deadline passed three days after its clock
started (``missed = "wait"``: the game waits for the GM); one the GM paused, whose player
on turn is away, with a mail waiting in its queue, one given up, and the last run's error
in its clock.
"""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from mailkit import ADDRESSES, START, game_with_players, maildir, sent

from conftest import cli_run

EARLY = "2026-11-20T10:00:00Z"
"""When the late game's clock started: its deadline passed on 22 November."""
NOW = "2026-11-23T20:00:00Z"
"""When the status is told: 10 hours after the other games' clocks started."""
ADDRESS = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")


def write_config(folder: Path, *names: str, extra: str = "") -> Path:
    text = ('[mail]\nfrom = "Referee <referee@referee.example>"\ngm = "gm@referee.example"\n'
            'timezone = "Europe/Berlin"\n\n[defaults]\ndeadline = "48h"\nremind = "12h"\nmissed = "wait"\n'
            'attach = ""\n' + extra)
    for name in names:
        text += f'\n[[game]]\nfile = "games/{name}.json"\n'
    path = folder / "mail.toml"
    path.write_text(text, encoding="utf-8")
    return path


def mail_run(cfg: Path, box: Path, outbox: Path, now: str, *games: Path):
    result = cli_run("mail", "run", *games, "--config", cfg, "--source", box, "--outbox", outbox, "--now", now)
    assert result.exit_code == 0, result.stderr
    return result


def edit_clock(game: Path, **keys) -> None:
    path = game.with_name(game.stem + ".clock.json")
    data = json.loads(path.read_text())
    data.update(keys)
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    folder = tmp_path_factory.mktemp("status")
    (folder / "games").mkdir()
    games = {name: game_with_players(folder / "games", f"{name}.json", name) for name in ("ontime", "late", "held")}
    cfg = write_config(folder, "ontime", "late", "held")
    box = maildir(folder / "M")
    mail_run(cfg, box, folder / "out0", EARLY, games["late"])
    mail_run(cfg, box, folder / "out1", START, games["ontime"], games["held"])
    # the late game's deadline passed: the cycle tells the player and the GM, and waits
    mail_run(cfg, box, folder / "out2", "2026-11-23T11:00:00Z", games["late"])
    held = games["held"]
    edit_clock(held, paused={"since": "2026-11-23T11:00:00Z", "reason": "waiting for a ruling"},
                absences=[{"nation": "phoenicians", "from": "2026-11-23", "until": "2026-11-30",
                           "reason": "a holiday in Crete", "by": "GM", "at": "2026-11-23T11:00:00Z"},
                          {"nation": "greeks", "from": "2026-11-10", "until": "2026-11-12", "reason": "over",
                           "by": "GM", "at": "2026-11-01T11:00:00Z"}],
                last_error={"at": "2026-11-23T12:00:00Z",
                            "what": f"the server refused 000001-report-01.eml (550 <{ADDRESSES['arabs']}>: "
                                    "no such user); try 1 of 5"})
    queue = held.with_name("held.mail-queue")
    mails = sorted((folder / "out1").glob("*.eml"))
    (queue / "undeliverable").mkdir(parents=True)
    shutil.copy(mails[0], queue / "000001-report-01.eml")
    shutil.copy(mails[1], queue / "undeliverable" / "000000-report-02.eml")
    return folder, cfg, games


def status(*args):
    result = cli_run("status", *args)
    assert result.exit_code == 0, result.stderr
    return result


def test_the_clocks_are_the_cycles(three):
    folder, cfg, games = three
    assert sent(folder / "out2")  # the late player and the GM were told
    clock = json.loads(games["late"].with_name("late.clock.json").read_text())["current"]
    assert clock["due"] == "2026-11-22T10:00:00Z" and clock["missed"] is True and clock["zone"] == "Europe/Berlin"


def test_json_gives_each_game_field_by_field_those_needing_the_gm_first(three):
    folder, cfg, games = three
    data = json.loads(status("--config", cfg, "--json", "--now", NOW).stdout)
    assert data["now"] == NOW
    late, held, ontime = data["games"]
    assert late == {
        "file": "games/late.json", "zone": "Europe/Berlin", "game": "late", "error": None, "edition": "antike",
        "turn": 1, "round": 1, "active": "phoenicians", "active_name": "Phoenicians",
        "player": "Phoenicians Player", "winner": None, "winner_name": None,
        "since": EARLY, "since_local": "Fri 20 Nov 2026, 11:00 CET",
        "deadline": {"turn": 1, "nation": "phoenicians", "since": EARLY, "due": "2026-11-22T10:00:00Z",
                     "zone": "Europe/Berlin", "due_local": "Sun 22 Nov 2026, 11:00 CET", "paused": False,
                     "seconds_left": -34 * 3600},
        "late_seconds": 34 * 3600, "missed": True, "policy": "wait", "paused": None, "absences": [],
        "queue": {"waiting": 0, "undeliverable": 0}, "last_error": None, "belongs_to": None, "needs_gm": True,
        "attention": ["the deadline passed 34 h ago and turn 1 is not played (missed = wait)"],
    }
    assert held["game"] == "held" and held["file"] == "games/held.json" and held["error"] is None
    assert (held["turn"], held["active"], held["since"]) == (1, "phoenicians", START)
    assert held["deadline"] == {"turn": 1, "nation": "phoenicians", "since": START, "due": "2026-11-25T10:00:00Z",
                                "zone": "Europe/Berlin", "due_local": "Wed 25 Nov 2026, 11:00 CET", "paused": True,
                                "paused_reason": "waiting for a ruling"}
    assert held["late_seconds"] is None and held["missed"] is False
    assert held["paused"] == {"since": "2026-11-23T11:00:00Z", "reason": "waiting for a ruling"}
    assert held["absences"] == [{"nation": "phoenicians", "name": "Phoenicians", "from": "2026-11-23",
                                 "until": "2026-11-30", "now": True, "reason": "a holiday in Crete", "by": "GM"}]
    assert held["queue"] == {"waiting": 1, "undeliverable": 1}
    assert held["last_error"]["at"] == "2026-11-23T12:00:00Z" and "no such user" in held["last_error"]["what"]
    assert held["needs_gm"] is True
    assert held["attention"] == [
        "a mail run failed Mon 23 Nov 2026, 13:00 CET: " + held["last_error"]["what"],
        "1 mail given up (kept in the queue's undeliverable folder)",
        "1 mail still waiting in the queue",
        "paused since Mon 23 Nov 2026, 12:00 CET: waiting for a ruling"]
    assert ontime["game"] == "ontime" and ontime["needs_gm"] is False and ontime["attention"] == []
    assert ontime["deadline"]["seconds_left"] == 38 * 3600 and ontime["late_seconds"] is None
    assert (ontime["queue"], ontime["paused"], ontime["absences"], ontime["last_error"]) == (
        {"waiting": 0, "undeliverable": 0}, None, [], None)


def test_one_line_per_game(three):
    folder, cfg, games = three
    lines = status("--config", cfg, "--now", NOW).stdout.splitlines()
    assert lines[0] == "3 games as of Mon 23 Nov 2026, 21:00 CET: 2 need you"
    assert lines[1] == ("! late (games/late.json): turn 1, Phoenicians (Phoenicians Player) since Fri 20 Nov 2026, "
                        "11:00 CET; deadline Sun 22 Nov 2026, 11:00 CET, late by 34 h; queue: empty; needs you: the "
                        "deadline passed 34 h ago and turn 1 is not played (missed = wait)")
    assert lines[2].startswith("! held (games/held.json): turn 1, Phoenicians (Phoenicians Player) since Mon 23 Nov "
                               "2026, 11:00 CET; deadline Wed 25 Nov 2026, 11:00 CET, paused; away: Phoenicians "
                               "2026-11-23 to 2026-11-30 (a holiday in Crete); queue: 1 waiting, 1 given up; needs "
                               "you: a mail run failed")
    assert lines[3] == ("  ontime (games/ontime.json): turn 1, Phoenicians (Phoenicians Player) since Mon 23 Nov 2026, "
                        "11:00 CET; deadline Wed 25 Nov 2026, 11:00 CET, in 38 h; queue: empty")
    assert len(lines) == 4
    # a game named on the command line; the order by lateness and deadline
    named = status(games["ontime"], "--config", cfg, "--now", "2026-11-26T10:00:00Z").stdout.splitlines()
    assert named[1].startswith(f"! ontime ({games['ontime']}): ") and "late by 24 h" in named[1]


def test_the_html_page_refers_to_nothing_and_names_no_address(three, tmp_path):
    folder, cfg, games = three
    page = tmp_path / "status.html"
    result = status("--config", cfg, "--now", NOW, "--html", page)
    assert f"status page: {page}" in result.stdout
    data = page.read_bytes()
    assert not ADDRESS.search(data.decode()), ADDRESS.search(data.decode())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["status.html"]  # written whole, no temporary left

    class Refs(HTMLParser):
        refs: list[str] = []
        tags: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            self.refs.extend(v for k, v in attrs if k in ("href", "src", "srcset", "action", "data", "poster"))

    parser = Refs()
    parser.feed(data.decode())
    assert parser.refs == []  # nothing to load, not even a local file: one self-contained page
    assert "script" not in parser.tags and "iframe" not in parser.tags
    text = data.decode()
    assert "url(" not in text and "@import" not in text and "//" not in re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    assert "Content-Security-Policy" in text and "default-src 'none'" in text
    rows = re.findall(r"<tr( class=\"attention\")?>\n<th scope=\"row\">(\w+)<br>", text)
    assert rows == [(' class="attention"', "late"), (' class="attention"', "held"), ("", "ontime")]
    assert "a holiday in Crete" in text and "(550: no such user)" in text and "late by 34 h" in text
    # the same status gives the same page
    again = tmp_path / "again.html"
    status("--config", cfg, "--now", NOW, "--html", again, "--json")
    assert again.read_bytes() == data


def test_a_game_that_does_not_load_is_a_line_with_its_error(three, tmp_path):
    folder, cfg, games = three
    broken = folder / "games" / "broken.json"
    broken.write_text('{"format": 1, "history": [', encoding="utf-8")
    try:
        cfg2 = write_config(folder, "ontime", "broken", "late", "held", "missing")
        result = status("--config", cfg2, "--now", NOW)
        lines = result.stdout.splitlines()
        assert lines[0] == "5 games as of Mon 23 Nov 2026, 21:00 CET: 4 need you"
        assert [line.split(":")[0].split(" (")[0] for line in lines[1:]] == ["! late", "! held", "! games/broken.json",
                                                               "! games/missing.json", "  ontime"]
        assert "does not load; queue: empty; needs you: the game file does not load: " in lines[3]
        data = json.loads(status("--config", cfg2, "--now", NOW, "--json").stdout)
        assert data["games"][3]["error"] and data["games"][3]["game"] is None
    finally:
        broken.unlink()
        write_config(folder, "ontime", "late", "held")


def test_bad_configurations_and_no_games_are_usage_errors(tmp_path, three):
    folder, cfg, games = three
    missing = cli_run("status", "--config", tmp_path / "nope.toml")
    assert missing.exit_code == 2 and "nope.toml" in missing.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('[defaults]\nmissed = "shrug"\n', encoding="utf-8")
    wrong = cli_run("status", "--config", bad)
    assert wrong.exit_code == 2 and "missed" in wrong.stderr
    empty = tmp_path / "empty.toml"
    empty.write_text('[mail]\nfrom = "Referee <referee@referee.example>"\n', encoding="utf-8")
    none = cli_run("status", "--config", empty)
    assert none.exit_code == 2 and "no games" in none.stderr
    assert cli_run("status", "--config", cfg, "--now", "soon").exit_code == 2
    # without a configuration: the games named, no policy
    alone = json.loads(status(games["ontime"], "--json", "--now", NOW).stdout)["games"][0]
    assert alone["policy"] is None and alone["deadline"]["due"] == "2026-11-25T10:00:00Z"


def test_a_game_that_is_over_says_who_won_and_has_no_deadline(tmp_path):
    """The last turns of tests/data/endgame/ played to the Greeks' win; the ledger still
    holds the clock of the turn before it."""
    from conftest import FOUR, PASSWORDS

    data = Path(__file__).parent / "data" / "endgame"
    game = tmp_path / "endgame.json"
    pw = [a for n in FOUR for a in ("--password", f"{n}={PASSWORDS[n]}")]
    assert cli_run("new", game, "--nations", ",".join(FOUR), "--id", "endgame", "--seed", "endgame", *pw).exit_code == 0
    assert cli_run("gm-edit", game, data / "00-position.edit.json").exit_code == 0
    for name in sorted(p.name for p in data.glob("0[1-8]-*.json")):
        played = cli_run("process", game, data / name)
        assert played.exit_code == 0, played.stderr
    clock = {"turn": 7, "nation": "greeks", "since": START, "due": "2026-11-25T10:00:00Z", "allow": 172800,
             "zone": "UTC"}
    game.with_name("endgame.clock.json").write_text(json.dumps({"format": 1, "current": clock}))
    record = json.loads(status(game, "--json", "--now", NOW).stdout)["games"][0]
    assert (record["winner"], record["winner_name"], record["active"], record["deadline"]) == (
        "greeks", "Greeks", None, None)
    assert record["needs_gm"] is False and record["late_seconds"] is None
    line = status(game, "--now", NOW).stdout.splitlines()[1]
    assert line == f"  endgame ({game}): over: Greeks won; queue: empty"
    assert json.loads(cli_run("show", game, "--json", "--now", NOW).stdout)["deadline"] is None
