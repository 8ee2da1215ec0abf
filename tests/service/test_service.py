"""The game service: one transaction for every change, and what a new user ran into.

Every command that changes a game goes through it and accepts ``--report-dir``; no lock file
stays behind; a game reached through a link is the game it links to; ``undo`` takes back
exactly what ``history`` lists and says what; ``bot --apply`` is recorded as the bot's
turn; output cut short by a closed pipe ends quietly; the password hashes carry their cost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FOUR, PASSWORDS, cli_run, held_lock, new_game_file, write_json
from pbem.service import passwords

ROOT = Path(__file__).resolve().parent.parent.parent


def first_orders(folder: Path, path: Path, **fields) -> Path:
    shown = json.loads(cli_run("show", path, "--json").stdout)
    nation = shown["active"]
    return write_json(folder / f"o{shown['turn']}.json", {
        "game": shown["game"], "nation": nation, "turn": shown["turn"], "password": PASSWORDS[nation],
        "rondel": "gold", **fields})


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".lock") or p.name.endswith(".tmp"))


def test_no_lock_file_stays_behind(tmp_path):
    path = new_game_file(tmp_path)
    edit = write_json(tmp_path / "e.json", {"game": "game", "reason": "r", "edits": [{"nation": "greeks", "coins": 2}]})
    runs = [
        ("process", path, first_orders(tmp_path, path)),
        ("gm-edit", path, edit),
        ("default-turn", path, json.loads(cli_run("show", path, "--json").stdout)["active"]),
        ("bot", path, "--apply"),
        ("undo", path, "--turns", "2"),
        ("process", path, write_json(tmp_path / "bad.json", {"game": "game", "nation": "greeks",
                                                             "turn": 99, "password": "x", "rondel": "gold"})),
    ]
    for args in runs:
        cli_run(*args)
        assert leftovers(tmp_path) == [], args


def test_a_held_lock_still_stops_a_second_run(tmp_path):
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    with held_lock(path):
        result = cli_run("process", path, first_orders(tmp_path, path))
    assert result.exit_code == 5 and path.read_bytes() == before
    assert cli_run("process", path, first_orders(tmp_path, path)).exit_code == 0


def test_a_game_behind_a_link_is_locked_and_written_where_it_is(tmp_path):
    """Two names for one game share one lock, and saving keeps the link a link."""
    path = new_game_file(tmp_path)
    link = tmp_path / "link.json"
    link.symlink_to(path)
    with held_lock(path):
        assert cli_run("process", link, first_orders(tmp_path, path)).exit_code == 5
    assert cli_run("process", link, first_orders(tmp_path, path)).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(path)
    assert json.loads(path.read_text())["status"]["turn"] == 2
    assert leftovers(tmp_path) == []


def _game_with_every_kind(tmp_path) -> Path:
    """turn 1, a GM edit, a standing-orders change, turn 2."""
    path = new_game_file(tmp_path)
    assert cli_run("process", path, first_orders(tmp_path, path)).exit_code == 0
    edit = write_json(tmp_path / "e.json",
                      {"game": "game", "reason": "lost mail", "edits": [{"nation": "arabs", "coins": 3}]})
    assert cli_run("gm-edit", path, edit).exit_code == 0
    standing = write_json(tmp_path / "s.json", {"game": "game", "nation": "greeks", "password": PASSWORDS["greeks"],
                                                 "standing": {"battle": "never"}})
    assert cli_run("process", path, standing).exit_code == 0
    assert cli_run("process", path, first_orders(tmp_path, path)).exit_code == 0
    return path


def test_undo_counts_what_history_lists_and_says_what_it_takes_back(tmp_path):
    path = _game_with_every_kind(tmp_path)
    listed = cli_run("history", path).stdout.splitlines()
    assert [line.split()[1:3] for line in listed[-3:]] == [["gm-edit", "lost"], ["standing", "greeks"], ["turn", "2"]]
    before = path.read_bytes()
    preview = cli_run("undo", path, "--turns", "3", "--dry-run")
    assert preview.exit_code == 0 and path.read_bytes() == before
    assert "would take back 3 history entries" in preview.stdout
    lines = preview.stdout.splitlines()[1:]
    assert lines == [f"  {line}" for line in listed[-3:]]
    done = cli_run("undo", path, "--turns", "2", "--reason", "oops")
    assert done.exit_code == 0, done.stderr
    assert "took back 2 history entries" in done.stdout
    assert done.stdout.splitlines()[1:] == [f"  {line}" for line in listed[-2:]]
    assert cli_run("history", path).stdout.splitlines() == listed[:-2]
    record = json.loads((tmp_path / "game.audit.jsonl").read_text().splitlines()[-1])
    assert [e["kind"] for e in record["removed"]] == ["standing", "turn"]
    assert record["reason"] == "oops" and record["turns"] == 2
    assert cli_run("verify", path).exit_code == 0


def test_undo_cannot_take_back_the_set_up(tmp_path):
    path = new_game_file(tmp_path)
    result = cli_run("undo", path, "--turns", "1")
    assert result.exit_code == 2 and "only 0 history entries after the set-up" in result.stderr


def test_bot_apply_is_recorded_as_the_bots_turn(tmp_path):
    path = new_game_file(tmp_path)
    result = cli_run("bot", path, "--apply", "--mode", "random", "--report-dir", tmp_path / "r", "--format", "txt")
    assert result.exit_code == 0, result.stderr
    entry = json.loads(path.read_text())["history"][-1]
    assert (entry["kind"], entry["bot"], entry["turn"]) == ("bot-turn", "random", 1)
    assert "(by the random bot)" in cli_run("history", path).stdout.splitlines()[-1]
    report = (tmp_path / "r" / "game-turn-001.txt").read_text()
    assert "played by the random bot for the GM" in report
    assert cli_run("verify", path).exit_code == 0


@pytest.mark.parametrize("command", ["gm-edit", "undo", "default-turn", "bot", "new"])
def test_every_command_that_changes_a_game_writes_reports(tmp_path, command):
    if command == "new":
        path = tmp_path / "game.json"
        pw = [a for n in FOUR for a in ("--password", f"{n}={PASSWORDS[n]}")]
        result = cli_run("new", path, "--nations", ",".join(FOUR), "--seed", "s", *pw,
                         "--report-dir", tmp_path / "r", "--format", "txt")
        assert result.exit_code == 0, result.stderr
        assert (tmp_path / "r" / "game-turn-000.txt").exists()
        return
    path = new_game_file(tmp_path)
    assert cli_run("process", path, first_orders(tmp_path, path)).exit_code == 0
    active = json.loads(cli_run("show", path, "--json").stdout)["active"]
    edit = write_json(tmp_path / "e.json",
                      {"game": "game", "reason": "compensation", "edits": [{"nation": "arabs", "coins": 3}]})
    args = {"gm-edit": ["gm-edit", path, edit], "undo": ["undo", path],
            "default-turn": ["default-turn", path, active], "bot": ["bot", path, "--apply"]}[command]
    result = cli_run(*args, "--report-dir", tmp_path / "r", "--format", "txt,md")
    assert result.exit_code == 0, result.stderr
    written = sorted(p.name for p in (tmp_path / "r").iterdir())
    expected = {"gm-edit": ["game-entry-002.md", "game-entry-002.txt"],
                "undo": ["game-turn-000.md", "game-turn-000.txt"],
                "default-turn": ["game-turn-002.md", "game-turn-002.txt"],
                "bot": ["game-turn-002.md", "game-turn-002.txt"]}[command]
    assert written == expected
    assert f"reports: {tmp_path / 'r' / expected[0][:-3]}" in result.stdout
    if command == "gm-edit":
        text = (tmp_path / "r" / "game-entry-002.txt").read_text()
        assert "after turn 1, then GM edit" in text and "GM edit: compensation" in text
        again = cli_run("render", path, "--entry", "2", "--format", "txt", "--out", tmp_path / "again")
        assert again.exit_code == 0
        assert (tmp_path / "again" / "game-entry-002.txt").read_text() == text


def test_a_bad_format_is_refused_before_the_game_is_touched(tmp_path):
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    result = cli_run("default-turn", path, "phoenicians", "--report-dir", tmp_path / "r", "--format", "docx")
    assert result.exit_code == 2 and path.read_bytes() == before


def test_output_cut_by_a_closed_pipe_ends_quietly(tmp_path):
    """``antike-ref history game.json | head -1``: no traceback, exit 0; a refusal whose
    JSON nobody reads still exits 4 with its message on stderr."""
    path = _game_with_every_kind(tmp_path)
    exe = str(Path(sys.executable).with_name("antike-ref"))
    bad = write_json(tmp_path / "late.json", {"game": "game", "nation": "greeks", "turn": 1,
                                              "password": PASSWORDS["greeks"], "rondel": "gold"})
    for args, code in ((["history", str(path)], 0), (["show", str(path)], 0), (["show", str(path), "--json"], 0),
                       (["check", str(path), str(bad), "--json"], 4)):
        proc = subprocess.Popen([exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.close()  # the reader is gone before anything was written
        err = proc.stderr.read()
        proc.stderr.close()
        assert proc.wait(timeout=60) == code, err
        assert b"Traceback" not in err and b"internal error" not in err
        assert (err == b"") == (code == 0)


def test_password_hashes_carry_their_cost(tmp_path):
    path = new_game_file(tmp_path, "--kdf-iterations", "2000")
    hashes = [m["password"] for m in json.loads(path.read_text())["nations"].values()]
    assert all(h.startswith("pbkdf2-sha256$2000$") for h in hashes)
    orders = first_orders(tmp_path, path)
    assert cli_run("process", path, orders).exit_code == 0
    low = cli_run("new", tmp_path / "low.json", "--nations", ",".join(FOUR), "--kdf-iterations", "10")
    assert low.exit_code == 2 and "--kdf-iterations 10: at least 1000" in low.stderr


def test_new_games_get_the_strong_cost_by_default():
    from pbem import editions
    from pbem.kernel.setup import SetupOptions
    from pbem.service.boards import load_board
    from pbem.service.creation import new_game

    game, _ = new_game(editions.get("classic"), SetupOptions("g", "antike-east", FOUR, seed="s"),
                       load_board("antike-east"), {n: PASSWORDS[n] for n in FOUR})
    assert passwords.ITERATIONS == 60_000
    assert all(m.password.startswith("pbkdf2-sha256$60000$") for m in game.meta.values())
    assert passwords.verify(PASSWORDS["greeks"], game.meta["greeks"].password)


def test_show_as_a_nation_is_that_nations_view(tmp_path):
    """Classic Antike has no secrets: a nation's view is the public one; an unknown nation
    is a usage error naming the game's nations."""
    path = new_game_file(tmp_path)
    public = cli_run("show", path, "--json").stdout
    assert cli_run("show", path, "--json", "--as", "greeks").stdout == public
    wrong = cli_run("show", path, "--json", "--as", "romans")
    assert wrong.exit_code == 2 and "one of persians, phoenicians, arabs, greeks" in wrong.stderr


@pytest.mark.parametrize("reuse", [True, False])
def test_a_change_starts_from_the_game_it_loaded_only_while_the_file_is_that_one(tmp_path, monkeypatch, reuse):
    """The mail cycle loads a game, then applies a mail's orders to it: with
    ``reuse_loaded`` the change takes the game it loaded instead of reading the file again
    under the lock, but only while the file is provably the one it was read from; a file
    replaced since (another run processed a turn) is read again, and the orders are judged
    against it."""
    from pbem.errors import Refused
    from pbem.service import store
    from pbem.service.service import GameService, read_input

    path = new_game_file(tmp_path)
    loads = []
    real = store.load_game
    monkeypatch.setattr(store, "load_game", lambda p: loads.append(p) or real(p))
    first = first_orders(tmp_path, path)
    service = GameService(path)
    service.reuse_loaded = reuse
    loads.clear()
    service.load()
    service.process(read_input(first))
    assert len(loads) == (1 if reuse else 2)
    # the file changes under the service: another run plays the next turn
    second = first_orders(tmp_path, path)
    service.load()
    GameService(path).process(read_input(second))
    loads.clear()
    with pytest.raises(Refused) as refused:  # turn 2's orders again: stale, judged against the new file
        service.process(read_input(second))
    assert "orders/wrong-turn" in [r.code for r in refused.value.rejections]
    assert len(loads) == 1
    assert json.loads(cli_run("show", path, "--json").stdout)["turn"] == 3
    assert cli_run("verify", path).exit_code == 0


def test_a_screen_sees_the_orders_read_once_in_the_transaction_and_can_stop_them(tmp_path):
    """``process(screen=...)``: the adapter's checks (the mail's sender check) run on the
    game under the lock and the orders as read for it; what they raise leaves the game as
    it was, and a screen that lets the orders pass changes nothing of the turn."""
    from pbem.service.service import GameService, read_input

    path = new_game_file(tmp_path)
    before = path.read_bytes()
    given = read_input(first_orders(tmp_path, path))
    seen = []

    class Stop(Exception):
        pass

    def stop(game, orders, reading):
        seen.append((len(game.history), orders["rondel"], reading))
        raise Stop

    with pytest.raises(Stop):
        GameService(path).process(given, screen=stop)
    assert path.read_bytes() == before and leftovers(tmp_path) == []
    assert seen == [(1, {"to": "gold"}, None)]
    outcome = GameService(path).process(given, screen=lambda game, orders, reading: seen.append(orders["nation"]))
    assert seen[-1] == outcome.added[0]["nation"] and len(json.loads(path.read_text())["history"]) == 2
