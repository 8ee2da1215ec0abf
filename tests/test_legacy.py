"""Games in progress are never broken: files written by earlier releases load, verify,
render as they did, and play on.

``tests/data/legacy/`` holds game files written by earlier releases (format 1): 0.1.0's demo
after 16 turns, and the same game after a GM edit, a standing-orders change, a GM default
turn and three bot turns; and an Antike II game, an Antike Duellum game and a Duellum
player's copy written by the first release with those editions. No migration is needed for
format 1: the file layout is unchanged, so every hash in their history chains still replays.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path

import pytest

from conftest import cli_run, write_json
from pbem.service.game import FORMAT

DATA = Path(__file__).parent / "data" / "legacy"
FILES = ["demo-16.json", "moderated.json"]


@pytest.fixture(params=FILES)
def legacy(request, tmp_path) -> Path:
    path = tmp_path / request.param
    shutil.copy(DATA / request.param, path)
    return path


def test_the_legacy_files_are_format_1():
    for name in FILES:
        assert json.loads((DATA / name).read_text())["format"] == 1 == FORMAT


def test_a_legacy_game_loads_and_verifies(legacy):
    before = legacy.read_bytes()
    assert cli_run("verify", legacy).exit_code == 0
    shown = json.loads(cli_run("show", legacy, "--json").stdout)
    assert shown["edition"] == "antike" and shown["board"] == "antike-east"
    assert legacy.read_bytes() == before


def _play_the_next_turn(game: Path, nation: str, password_prefix: str, tmp_path: Path) -> None:
    """The bot writes ``nation``'s turn, sent with its password (``PREFIX-NATION``): it is
    checked and processed, and the game then verifies."""
    made = cli_run("bot", game, "--mode", "greedy")
    assert made.exit_code == 0, made.stderr
    orders = write_json(tmp_path / "o.json", {**json.loads(made.stdout), "password": f"{password_prefix}-{nation}"})
    assert cli_run("check", game, orders).exit_code == 0
    played = cli_run("process", game, orders)
    assert played.exit_code == 0, played.stderr
    assert cli_run("verify", game).exit_code == 0


def test_a_legacy_game_plays_on(legacy, tmp_path):
    """The next turn, written by the bot and sent with the player's password, is processed;
    the game then still verifies, and undo restores the old file byte for byte."""
    before = legacy.read_bytes()
    shown = json.loads(cli_run("show", legacy, "--json").stdout)
    _play_the_next_turn(legacy, shown["active"], "demo", tmp_path)
    assert json.loads(cli_run("show", legacy, "--json").stdout)["turn"] == shown["turn"] + 1
    assert cli_run("undo", legacy, "--turns", "1", "--reason", "test").exit_code == 0
    assert legacy.read_bytes() == before


def test_a_legacy_game_renders_every_turn_and_states_the_same_facts(tmp_path):
    """0.1.0's games render in every format, every turn, without error.

    The report's text changed on purpose after 0.1.0 (a whole round in the log, GM edits
    spelt out, no e-mail addresses, lines wrapped at 78 columns), so it is no longer
    compared byte for byte with 0.1.0's ``demo-turn-016.txt``; instead the facts it states
    must be the same: every nation, its resources and coins, its cities and the bank."""
    from pbem.report import FORMATS

    out = tmp_path / "r"
    for name in FILES:
        for fmt in FORMATS:
            done = cli_run("render", DATA / name, "--format", fmt, "--out", out)
            assert done.exit_code == 0, (name, fmt, done.output)
    for turn in range(0, 17):
        done = cli_run("render", DATA / "demo-16.json", "--turn", turn, "--format", "txt,md,bbcode", "--out", out)
        assert done.exit_code == 0, (turn, done.output)
    old = (DATA / "demo-turn-016.txt").read_text(encoding="utf-8")
    new = (out / "demo-turn-016.txt").read_text(encoding="utf-8")
    facts = [line.strip() for line in old.splitlines()
             if line.strip().startswith(("Resources:", "Cities:", "Temples:", "Units:", "Know-how:"))]
    assert len(facts) == 4 * 5
    for fact in facts:
        assert fact in new, fact
    for nation in ("Phoenicians", "Arabs", "Greeks", "Persians"):
        assert nation in new
    assert "21 coins, 19 temples" in old and "21 coins, 19 temples" in new
    assert "@" not in new


def test_old_bot_turns_stay_what_they_were_recorded_as():
    """0.1.0 recorded ``bot --apply`` as a GM default turn; history is never rewritten."""
    kinds = [e["kind"] for e in json.loads((DATA / "moderated.json").read_text())["history"]]
    assert kinds[-4:] == ["default-turn"] * 4 and "gm-edit" in kinds and "standing" in kinds


# -- the other editions, as the release that brought them wrote them ---------------------------

EDITION_FILES = {"antike2-31.json": "antike2", "duellum-82.json": "duellum", "duellum-91.json": "duellum",
                 "duellum-44.json": "duellum"}
"""Written by the release of 2026-11-25 (the first with Antike II and Antike Duellum), by the
release before issue 28 (``duellum-91.json``: revision 1 of Duellum's rules, its display shrunk
and draws missed), and by the release before issue 36 (``duellum-44.json``: revision 2, the
deck of 27 cards, hidden draws, a GM hand edit that made a second copy of a card, a card of a
wedge played before the move), format 1 (tests/data/legacy/README.md): passwords
``legacy-NATION``."""


@pytest.fixture(params=sorted(EDITION_FILES))
def edition_file(request, tmp_path) -> Path:
    path = tmp_path / request.param
    shutil.copy(DATA / request.param, path)
    return path


@pytest.mark.slow
def test_an_edition_game_of_an_earlier_release_verifies_plays_on_and_undoes(edition_file, tmp_path):
    before = edition_file.read_bytes()
    assert json.loads(before)["format"] == FORMAT
    verified = cli_run("verify", edition_file)
    assert verified.exit_code == 0, verified.output
    shown = json.loads(cli_run("show", edition_file, "--json").stdout)
    assert shown["edition"] == EDITION_FILES[edition_file.name]
    assert edition_file.read_bytes() == before
    _play_the_next_turn(edition_file, shown["active"], "legacy", tmp_path)
    assert cli_run("undo", edition_file, "--turns", "1", "--reason", "test").exit_code == 0
    assert edition_file.read_bytes() == before
    out = tmp_path / "r"
    rendered = cli_run("render", edition_file, "--out", out)
    assert rendered.exit_code == 0, rendered.output
    private = 2 if EDITION_FILES[edition_file.name] == "duellum" else 0
    assert len(list(out.glob("*.txt"))) == 1 + private


def test_a_duellum_players_copy_of_an_earlier_release_checks_orders(tmp_path):
    """The copy the Carthaginians got from that release: ``options`` and ``check`` work on
    it, ``verify`` checks its chain and says what it cannot, writes refuse it; the copy the
    GM writes today from the same game is the same file."""
    copy = tmp_path / "duel.carthaginians.json"
    shutil.copy(DATA / "duellum-82.carthaginians.json", copy)
    before = copy.read_bytes()
    assert cli_run("options", copy).exit_code == 0
    made = cli_run("bot", copy, "--mode", "greedy")
    assert made.exit_code == 0, made.stderr
    orders = write_json(tmp_path / "o.json", {**json.loads(made.stdout), "password": "legacy-carthaginians"})
    assert cli_run("check", copy, orders).exit_code == 0
    assert cli_run("process", copy, orders).exit_code == 4
    verified = cli_run("verify", copy)
    assert verified.exit_code == 0 and "not checked" in verified.output
    assert copy.read_bytes() == before
    game = tmp_path / "duel.json"
    shutil.copy(DATA / "duellum-82.json", game)
    again = tmp_path / "again.json"
    assert cli_run("copy", game, "--for", "carthaginians", "-o", again).exit_code == 0
    assert again.read_bytes() == before


def test_a_game_run_by_mail_with_an_earlier_release_runs_on(tmp_path):
    """``mail-c4ea175/``: a game run by the mail cycle of the release before the mail edges
    (c4ea175): three turns and a standing-orders change by mail, a refused mail, a chat mail
    left alone, and a reminder left in the queue by an SMTP server that was down; its old
    ledger and configuration (no ``attach`` default, no new keys). The next run delivers
    the queued reminder, answers and applies nothing old again, and a new order mail is
    applied."""
    from mailkit import add_to_maildir, mail, sent

    folder = tmp_path / "league"
    shutil.copytree(DATA / "mail-c4ea175", folder)
    for sub in ("cur", "new", "tmp"):
        (folder / "Maildir" / sub).mkdir(exist_ok=True)
    game = folder / "games" / "league.json"
    ledger = json.loads((folder / "games" / "league.mail.json").read_text())
    run = lambda out, now: cli_run("mail", "run", "--config", folder / "mail.toml",  # noqa: E731
                                   "--outbox", tmp_path / out, "--now", now)
    before = game.read_bytes()
    first = run("o1", "2026-11-24T22:30:00Z")
    assert first.exit_code == 0, first.stdout + first.stderr
    assert game.read_bytes() == before
    (reminder,) = sent(tmp_path / "o1")  # the queued mail, and nothing else
    assert "reminder" in str(reminder["Subject"]) and "ann@players.example" in str(reminder["To"])
    kept = json.loads((folder / "games" / "league.mail.json").read_text())
    assert {k: v for k, v in kept["messages"].items() if k in ledger["messages"]} == ledger["messages"]
    status = json.loads(game.read_text())["status"]
    add_to_maildir(folder / "Maildir", mail("ann@players.example", body=(
        f"game league\nnation {status['active']}\nturn {status['turn']}\npassword legacy-persians\nrondel gold\n")))
    second = run("o2", "2026-11-24T22:35:00Z")
    assert second.exit_code == 0, second.stdout + second.stderr
    history = json.loads(game.read_text())["history"]
    assert [e["kind"] for e in history] == ["new", "turn", "turn", "turn", "standing", "turn"]
    assert len(sent(tmp_path / "o2")) == 6  # the receipt, four reports and the GM's
    assert cli_run("verify", game).exit_code == 0


# -- every report of every legacy game, byte for byte -----------------------------------------


def _compare_renders(name: str, drawings: bool) -> None:
    from legacy_renders import DIGESTS, game_digests

    want = json.loads(DIGESTS.read_text(encoding="utf-8"))[name]
    got = game_digests(name, drawings)
    assert sorted(got, key=int) == sorted(want, key=int), name
    for entry, readers in want.items():
        assert set(got[entry]) == set(readers), (name, entry)
        for reader, formats in readers.items():
            for fmt, digest in formats.items():
                if drawings or fmt in got[entry][reader]:
                    assert got[entry][reader][fmt] == digest, (name, entry, reader, fmt)


@pytest.mark.parametrize("name", ["duellum-82.json", "duellum-91.json", "duellum-44.json",
                                  "duellum-82.carthaginians.json"])
def test_every_report_of_a_legacy_duellum_game_is_what_it_was(name):
    """Each history entry's public and private reports, in text, Markdown and BBCode,
    replayed from the set-up, are byte for byte what the release before issue 36 rendered
    (``tests/data/legacy/renders.json``, ``tests/legacy_renders.py``): the games keep their
    deck, their hidden draws and every word of their reports."""
    _compare_renders(name, drawings=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["demo-16.json", "moderated.json", "antike2-31.json", "duellum-82.json",
                                  "duellum-91.json", "duellum-44.json", "duellum-82.carthaginians.json"])
def test_every_report_of_every_legacy_game_in_every_format_is_what_it_was(name):
    """As above, for every legacy game and every format (the PDF and PNG as the drawings
    cairo makes them from)."""
    _compare_renders(name, drawings=True)


def _legacy_mail_folder(tmp_path: Path, name: str) -> Path:
    """A copy of the mail folder ``name`` of ``tests/data/legacy`` (without what it expects),
    with the empty folders git does not keep."""
    folder = tmp_path / name
    shutil.copytree(DATA / name, folder, ignore=shutil.ignore_patterns("expected"))
    for sub in ("cur", "new", "tmp"):
        (folder / "Maildir" / sub).mkdir(parents=True, exist_ok=True)
    return folder


HELP_LINE = b"Mail the referee HELP for every command you can send.\r\n"


def before_help(mail: bytes) -> bytes:
    """A mail as the releases before issue 38 wrote it: without the one line on HELP every
    mail to a player or an observer now ends with (the GM's have none), which is the only
    change; a second such line, or one elsewhere, is not taken out."""
    return mail.replace(HELP_LINE, b"", 1) if mail.count(HELP_LINE) == 1 else mail


def test_a_ledger_of_the_release_before_the_clock_refit_runs_on_as_that_release_ran_it(tmp_path):
    """``mail-6f906cf/``: two games whose ledgers hold every part of the clock the release
    before issue 37 kept there (an absence held with its reason, one to come, an extended
    deadline, reminded, missed, paused, the last error, notices waiting). This release does
    with them what that one did (``expected/``): the same mails byte for byte (but for the
    line on HELP every player's mail ends with since issue 38: :func:`before_help`), the
    same lines printed by ``mail run``, ``resume``, ``show`` and ``status`` (text and
    ``--json``), through a held absence's end, a reminder and a missed deadline; but for
    what issue 38 changed on purpose, with which ``expected/`` was written again: headers
    on one line, the notices of the run that ends the absence naming the deadline the
    return gave the turn (not the old one "passed 51 h ago"), the reminder saying what the
    deadline brings, the late player's own notice, the missed deadline in the game's time
    zone, the report of a player whose turn was played for them telling only what is new,
    and ``belongs_to`` in ``status --json``."""
    folder = _legacy_mail_folder(tmp_path, "mail-6f906cf")
    for sub in ("cur", "new", "tmp"):
        (folder / "Empty" / sub).mkdir(parents=True)
    old = time.time_ns() - 60 * 10**9  # mailboxes quiet for a minute: a game's watermark may hold
    for box in ("Maildir", "Empty"):
        for sub in ("new", "cur"):
            os.utime(folder / box / sub, ns=(old, old))
    expected = DATA / "mail-6f906cf" / "expected"
    games = {g: folder / "games" / f"{g}.json" for g in ("north", "south")}

    def same(name: str, *args) -> None:
        result = cli_run(*args)
        text = f"{result.stdout}--- stderr\n{result.stderr}--- exit {result.exit_code}\n".replace(str(folder), "FOLDER")
        assert text == (expected / name).read_text(encoding="utf-8"), name

    def looks(tag: str, now: str) -> None:
        for g, path in games.items():
            same(f"{tag}-show-{g}.json", "show", path, "--json", "--now", now)
            same(f"{tag}-show-{g}.txt", "show", path, "--now", now)
        same(f"{tag}-status.json", "status", "--config", folder / "mail.toml", "--json", "--now", now)
        same(f"{tag}-status.txt", "status", "--config", folder / "mail.toml", "--now", now)

    def run(tag: str, now: str) -> None:
        same(f"run-{tag}.txt", "mail", "run", "--config", folder / "mail.toml", "--outbox",
             folder / "expected" / f"out-{tag}", "--now", now)
        out = folder / "expected" / f"out-{tag}"
        assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in (expected / f"out-{tag}").iterdir())
        for mail in (expected / f"out-{tag}").iterdir():
            assert before_help((out / mail.name).read_bytes()) == mail.read_bytes(), mail.name

    run("a", "2026-12-06T12:00:00Z")
    looks("a", "2026-12-06T12:00:00Z")
    same("resume-south.txt", "resume", games["south"], "--now", "2026-12-06T13:00:00Z")
    run("b", "2026-12-07T12:00:00Z")
    run("c", "2026-12-08T00:00:00Z")
    looks("c", "2026-12-08T00:00:00Z")
    assert cli_run("verify", games["north"]).exit_code == 0


@pytest.mark.parametrize("name, game_name", [("mail-c4ea175", "league"), ("mail-6f906cf", "north"),
                                             ("mail-6f906cf", "south")])
def test_the_clock_of_an_earlier_ledger_moves_to_a_file_of_its_own_once_and_logged(tmp_path, name, game_name):
    """The first mail run after the upgrade hands the parts of the clock an earlier
    release's ledger kept (``clock``, ``paused``, ``absences``, ``last_error``) to the
    service: they are the clock file ``GAME.clock.json`` (mode 600) from then on, word for
    word; the move is one line in the audit log; the ledger keeps the rest (its messages,
    its notices and address moves waiting) and no clock (format 2). A second run moves
    nothing again."""
    from pbem.mail.ledger import mail_lock, open_books
    from pbem.service.clock import parse_time

    folder = _legacy_mail_folder(tmp_path, name)
    games = folder / "games"
    game = games / f"{game_name}.json"
    old = json.loads((games / f"{game_name}.mail.json").read_text())
    audit = games / f"{game_name}.audit.jsonl"
    logged = audit.read_text().splitlines() if audit.exists() else []
    with mail_lock(game):  # what every mail run and clock command does first
        open_books(game, parse_time("2026-12-03T11:30:00Z"))
    moved = json.loads((games / f"{game_name}.clock.json").read_text())
    current, clock = moved["current"], old["clock"]
    assert [current["turn"], current["nation"]] == clock["key"] and current["since"] == clock["since"]
    for key in ("due", "allow", "zone", "held", "reminded", "missed"):
        assert current.get(key) == clock.get(key), key
    for key in ("paused", "absences", "last_error"):
        assert moved.get(key) == old.get(key), key
    assert stat.S_IMODE(os.stat(games / f"{game_name}.clock.json").st_mode) == 0o600
    ledger = json.loads((games / f"{game_name}.mail.json").read_text())
    assert ledger["format"] == 2 and not {"clock", "paused", "absences", "last_error"} & set(ledger)
    assert ledger["messages"] == old["messages"] and ledger["queued"] == old["queued"]
    for key in ("announce", "pending", "identity"):
        assert ledger.get(key) == old.get(key), key
    for now, tag in (("2026-12-03T11:35:00Z", "1"), ("2026-12-03T11:40:00Z", "2")):
        cli_run("mail", "run", "--config", folder / "mail.toml", "--outbox", tmp_path / f"o{tag}", "--now", now)
    lines = audit.read_text().splitlines()
    assert lines[:len(logged)] == logged and len(lines) == len(logged) + 1
    record = json.loads(lines[-1])
    assert record == {"action": "clock-moved", "at": "2026-12-03T11:30:00Z", "from": f"{game_name}.mail.json",
                      "to": f"{game_name}.clock.json"}


def test_a_gm_clock_command_on_an_earlier_ledger_moves_its_clock_first(tmp_path):
    """``pause`` before any mail run of this release: the ledger's clock moves to its file
    (logged), then the pause is made on it."""
    folder = _legacy_mail_folder(tmp_path, "mail-6f906cf")
    game = folder / "games" / "north.json"
    done = cli_run("pause", game, "--reason", "a ruling", "--now", "2026-12-03T12:00:00Z")
    assert done.exit_code == 0, done.stderr
    clock = json.loads((folder / "games" / "north.clock.json").read_text())
    assert clock["paused"] == {"since": "2026-12-03T12:00:00Z", "reason": "a ruling"}
    assert clock["current"]["held"] == "2026-12-05" and len(clock["absences"]) == 2
    actions = [json.loads(line)["action"] for line in (folder / "games" / "north.audit.jsonl").read_text().splitlines()]
    assert actions[-2:] == ["clock-moved", "pause"]
    ledger = json.loads((folder / "games" / "north.mail.json").read_text())
    assert ledger["format"] == 2 and "clock" not in ledger and len(ledger["announce"]) == 2


def test_a_ledger_whose_clock_moved_before_a_crash_is_not_moved_twice(tmp_path):
    """A run that wrote the clock file and died before its ledger was saved: the next run
    finds the ledger's old parts and the file; the file is the clock, nothing is logged
    twice."""
    folder = _legacy_mail_folder(tmp_path, "mail-6f906cf")
    games = folder / "games"
    ledger = (games / "south.mail.json").read_bytes()
    cli_run("mail", "run", "--config", folder / "mail.toml", "--outbox", tmp_path / "o1", "--now",
            "2026-12-03T11:30:00Z")
    clock = json.loads((games / "south.clock.json").read_text())
    clock["paused"]["reason"] = "the file wins"
    (games / "south.clock.json").write_text(json.dumps(clock))
    (games / "south.mail.json").write_bytes(ledger)  # as if the ledger had not been saved
    cli_run("mail", "run", "--config", folder / "mail.toml", "--outbox", tmp_path / "o2", "--now",
            "2026-12-03T11:35:00Z")
    assert json.loads((games / "south.clock.json").read_text())["paused"]["reason"] == "the file wins"
    actions = [json.loads(line)["action"] for line in (games / "south.audit.jsonl").read_text().splitlines()]
    assert actions.count("clock-moved") == 1
    assert json.loads((games / "south.mail.json").read_text())["format"] == 2
