"""Crash and lock safety: killed runs, simultaneous runs, two names for one game, leftovers.

Every command that changes a game is killed with SIGKILL at moments spread over its run
(tests/crashkit.py): the game file is always the old one or exactly the new one, it
verifies, and what a killed run leaves (its lock file, a temporary file) is cleared by the
next run, which succeeds. Twenty runs of one order file started together apply it once;
the others end with exit 5 (locked) or 4 (the turn was played already). A game reached by
a symbolic link or a path with ``..`` in it is one game with one lock; a hard link is
refused. bench/soak_crash.py runs the kills many more times.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from conftest import PASSWORDS, cli_run, held_lock, new_game_file, write_json
from crashkit import (
    COMMANDS,
    GAME,
    LOCK,
    kill_campaign,
    leftovers,
    lost_cleanly,
    orders,
    race,
    status,
    summary,
    verify_ok,
)
from pbem.service import store

KILLS = {"process": 14, "process+reports": 8, "gm-edit": 12, "undo": 12}
"""Kills per command in CI (46 in all); bench/soak_crash.py runs hundreds."""


# --- SIGKILL at random moments -----------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name", list(KILLS))
def test_a_killed_run_leaves_the_old_or_the_new_game(tmp_path, name):
    """Whenever the run is killed, the game file is one of the two, verifies, and anything
    the run left is cleared by the next run, which succeeds."""
    seed = 1000 + list(COMMANDS).index(name)
    trials, _ = kill_campaign(tmp_path, {name: KILLS[name]}, seed)
    figures = summary(trials)[name]
    print(f"\n{name}: {figures}")
    failed = [(round(t.delay, 3), t.phase, t.failures) for t in trials if t.failures]
    assert failed == [], failed
    assert figures["kills"] == KILLS[name]
    assert figures.get("torn", 0) == 0
    # where the kills land (figures) depends on the machine's speed, so it is printed, not checked


@pytest.mark.slow
@pytest.mark.parametrize("name", ["process+reports", "undo"])
def test_a_killed_duellum_run_leaves_the_old_or_the_new_game(tmp_path, name):
    """The same on an Antike Duellum game, whose runs also write each nation's private
    report and keep the deck and the hands in the file."""
    trials, _ = kill_campaign(tmp_path, {name: 6}, 2000 + list(COMMANDS).index(name), edition="duellum")
    failed = [(round(t.delay, 3), t.phase, t.failures) for t in trials if t.failures]
    assert failed == [], failed
    assert summary(trials)[name]["kills"] == 6 and summary(trials)[name].get("torn", 0) == 0


# --- many runs at once -------------------------------------------------------------------

def turn_files(folder, wedges=("gold", "marble")):
    """Order files for the game's current turn, one per wedge (first placements are free)."""
    shown = status(folder / GAME)
    return [write_json(folder / f"o-{shown['turn']}-{w}.json", orders("game", shown["active"], shown["turn"], w))
            for w in wedges]


@pytest.mark.slow
@pytest.mark.parametrize("trial", ["released", "released again", "console script"])
def test_twenty_simultaneous_runs_apply_the_turn_once(tmp_path, trial):
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    before = len(json.loads(path.read_text())["history"])
    [order_file] = turn_files(tmp_path, ("gold",))
    results = race(tmp_path, [["process", GAME, order_file.name]] * 20, barrier=trial != "console script")
    won = [r for r in results if r.returncode == 0]
    lost = [r for r in results if r.returncode != 0]
    assert len(won) == 1, [(r.returncode, r.stderr) for r in results]
    assert all(lost_cleanly(r) for r in lost), [(r.returncode, r.stderr) for r in lost if not lost_cleanly(r)]
    print(f"\n{trial}: 1 applied, {sum(r.returncode == 5 for r in lost)} locked, "
          f"{sum(r.returncode == 4 for r in lost)} refused as played already")
    assert verify_ok(path) is None
    history = json.loads(path.read_text())["history"]
    assert len(history) == before + 1 and history[-1]["turn"] == 1
    assert leftovers(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["symlink", "dot-dot"])
def test_two_names_for_one_game_race_for_one_lock(tmp_path, kind):
    """``process game.json`` and ``process OTHER-NAME`` at once with different orders for
    the same turn: each round exactly one is applied, and there stays one game."""
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    if kind == "symlink":
        other = "link.json"
        (tmp_path / other).symlink_to(GAME)
    else:
        (tmp_path / "sub").mkdir()
        other = "./sub/.././game.json"
    for round_ in range(1, 4):
        mine, theirs = turn_files(tmp_path)
        results = race(tmp_path, [["process", GAME, mine.name], ["process", other, theirs.name]])
        won = [r for r in results if r.returncode == 0]
        assert len(won) == 1, [(r.returncode, r.stderr) for r in results]
        assert all(lost_cleanly(r) for r in results if r.returncode != 0), [r.stderr for r in results]
        history = json.loads(path.read_text())["history"]
        assert len(history) == 1 + round_
        wedge = {GAME: mine, other: theirs}[won[0].args[1]].name.split("-")[-1].removesuffix(".json")
        assert history[-1]["orders"]["rondel"]["to"] == wedge
        assert verify_ok(path) is None
        if kind == "symlink":
            assert os.path.islink(tmp_path / other) and os.readlink(tmp_path / other) == GAME
        assert leftovers(tmp_path) == []
    games = sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".json" and not p.name.startswith("o-"))
    assert games == sorted({GAME, "game.secrets.json"} | ({"link.json"} if kind == "symlink" else set()))


def test_a_hard_linked_game_is_refused_by_every_writer(tmp_path):
    """Saving replaces the file, which would split two hard-linked names into two games:
    both runs are refused (exit 3, nothing written), and the links stay as they were."""
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    before = path.read_bytes()
    os.link(path, tmp_path / "hard.json")
    mine, theirs = turn_files(tmp_path)
    results = race(tmp_path, [["process", GAME, mine.name], ["process", "hard.json", theirs.name]])
    for result in results:
        assert result.returncode == 3, result.stderr
        assert "2 names (hard links)" in result.stderr and "symbolic link" in result.stderr
    edit = write_json(tmp_path / "e.json", {"game": "game", "reason": "r", "edits": [{"nation": "greeks", "coins": 1}]})
    for args in (["gm-edit", path, edit], ["undo", tmp_path / "hard.json"], ["default-turn", path, "phoenicians"],
                 ["new", path, "--nations", "greeks,persians,arabs", "--force"]):
        result = cli_run(*args)
        assert result.exit_code == 3 and "hard links" in result.stderr, (args, result.stderr)
    assert path.read_bytes() == before and os.stat(path).st_nlink == 2
    assert (tmp_path / "hard.json").read_bytes() == before
    assert leftovers(tmp_path) == [] and not (tmp_path / "hard.json.lock").exists()
    (tmp_path / "hard.json").unlink()
    assert cli_run("process", path, mine).exit_code == 0


def test_a_link_from_another_folder_is_written_where_it_points(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "gm").mkdir()
    path = new_game_file(tmp_path / "games", "--kdf-iterations", "1000")
    link = tmp_path / "gm" / "current.json"
    link.symlink_to(os.path.relpath(path, link.parent))
    [order_file] = turn_files(tmp_path / "games", ("gold",))
    with held_lock(path):
        assert cli_run("process", link, order_file).exit_code == 5
    result = cli_run("process", link, order_file)
    assert result.exit_code == 0, result.stderr
    assert link.is_symlink() and status(path)["turn"] == 2
    assert sorted(os.listdir(tmp_path / "gm")) == ["current.json"]
    assert leftovers(tmp_path / "games") == []


def test_every_name_of_a_game_shares_its_audit_log_and_secrets(tmp_path):
    """The audit log and the secrets file of a game reached by a link are beside the
    game, not beside the link."""
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    link = tmp_path / "link.json"
    link.symlink_to(GAME)
    [order_file] = turn_files(tmp_path, ("gold",))
    assert cli_run("process", link, order_file).exit_code == 0
    done = cli_run("undo", link, "--reason", "via the link")
    assert done.exit_code == 0, done.stderr
    assert not (tmp_path / "link.audit.jsonl").exists()
    assert json.loads((tmp_path / "game.audit.jsonl").read_text())["reason"] == "via the link"
    assert verify_ok(link) is None
    result = cli_run("player", link, "greeks", "--player", "Bea <bea@example.org>", "--kdf-iterations", "1000")
    assert result.exit_code == 0, result.stderr
    assert not (tmp_path / "link.secrets.json").exists()
    secrets = json.loads((tmp_path / "game.secrets.json").read_text())
    assert sorted(secrets) == sorted(json.loads(path.read_text())["seats"]) and secrets["greeks"] != PASSWORDS["greeks"]
    assert link.is_symlink()


# --- what a killed run leaves ------------------------------------------------------------

def test_a_lock_file_left_by_a_killed_run_is_taken_over(tmp_path):
    """A lock file with no lock on it (its run was killed) stops nobody, and the next
    run removes it."""
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    (tmp_path / LOCK).write_text("")
    assert verify_ok(path) is None
    [order_file] = turn_files(tmp_path, ("gold",))
    result = cli_run("process", path, order_file)
    assert result.exit_code == 0, result.stderr
    assert leftovers(tmp_path) == []


def test_a_lock_file_removed_by_hand_is_not_removed_for_another_run(tmp_path):
    """Someone deletes GAME.lock while a run holds it and a second run makes a new one: the
    first run, finishing, leaves the second run's lock file alone."""
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    first = store.locked(path)
    first.__enter__()
    os.unlink(tmp_path / LOCK)
    second = store.locked(path)
    second.__enter__()
    first.__exit__(None, None, None)
    assert (tmp_path / LOCK).exists()
    with pytest.raises(Exception, match="locked by another run"):
        with store.locked(path):
            pass
    second.__exit__(None, None, None)
    assert leftovers(tmp_path) == []


STALE = ".game.json.k1ll3d_x.tmp"


def test_leftover_temporary_files_confuse_nothing_and_go_with_the_next_save(tmp_path):
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    half = path.read_bytes()[:500]
    decoys = [".game.json.k1ll3d_x.tmp.keep", ".game.json.short.tmp", ".game.json.K1LL3DXX.tmp",
              ".other.json.k1ll3d_x.tmp", "game.json.k1ll3d_x.tmp", ".game.json.k1ll3d_xx.tmp"]
    for name in [STALE, *decoys]:
        (tmp_path / name).write_bytes(half)
    (tmp_path / ".game.json.a_symlink.tmp").symlink_to(GAME)
    (tmp_path / ".game.json.a_folder.tmp").mkdir()
    old = time.time() - 5
    for name in os.listdir(tmp_path):
        os.utime(tmp_path / name, (old, old), follow_symlinks=False)
    # readers and refused runs see the game and nothing else, and remove nothing
    assert verify_ok(path) is None and cli_run("show", path, "--json").exit_code == 0
    [order_file] = turn_files(tmp_path, ("gold",))
    assert cli_run("check", path, order_file).exit_code == 0
    wrong = write_json(tmp_path / "wrong.json", orders("game", "greeks", 1, "gold"))
    assert cli_run("process", path, wrong).exit_code == 4
    assert (tmp_path / STALE).exists()
    # the next save removes exactly the temporary file the store makes
    result = cli_run("process", path, order_file)
    assert result.exit_code == 0, result.stderr
    assert not (tmp_path / STALE).exists()
    for name in [*decoys, ".game.json.a_symlink.tmp", ".game.json.a_folder.tmp"]:
        assert os.path.lexists(tmp_path / name), name
    assert (tmp_path / ".game.json.a_symlink.tmp").is_symlink() and path.exists()
    assert verify_ok(path) is None


def test_a_leftover_beside_a_linked_game_goes_with_a_save_through_the_link(tmp_path):
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    link = tmp_path / "link.json"
    link.symlink_to(GAME)
    (tmp_path / STALE).write_text("{")
    (tmp_path / ".link.json.k1ll3d_x.tmp").write_text("{")  # not the store's: links are never written
    old = time.time() - 5
    os.utime(tmp_path / STALE, (old, old))
    edit = write_json(tmp_path / "e.json", {"game": "game", "reason": "r", "edits": [{"nation": "greeks", "coins": 1}]})
    assert cli_run("gm-edit", link, edit).exit_code == 0
    assert not (tmp_path / STALE).exists() and (tmp_path / ".link.json.k1ll3d_x.tmp").exists()
    assert link.is_symlink() and verify_ok(path) is None


def test_only_temporary_files_older_than_the_lock_are_removed(tmp_path):
    """A temporary file written after this run took the lock is not a killed run's."""
    path = tmp_path / GAME
    path.write_text("{}\n")
    now = time.time()
    (tmp_path / ".game.json.aaaaaaaa.tmp").write_text("old")
    os.utime(tmp_path / ".game.json.aaaaaaaa.tmp", (now - 10, now - 10))
    (tmp_path / ".game.json.bbbbbbbb.tmp").write_text("new")
    os.utime(tmp_path / ".game.json.bbbbbbbb.tmp", (now + 10, now + 10))
    assert store.clear_stale_temps(path, now) == [".game.json.aaaaaaaa.tmp"]
    assert (tmp_path / ".game.json.bbbbbbbb.tmp").exists()
    # without the lock, a save removes nothing
    (tmp_path / ".game.json.cccccccc.tmp").write_text("old")
    os.utime(tmp_path / ".game.json.cccccccc.tmp", (now - 10, now - 10))
    store.write_atomic(path, "[]\n")
    assert (tmp_path / ".game.json.cccccccc.tmp").exists()
    with store.locked(path):
        store.write_atomic(path, "[1]\n")
    assert not (tmp_path / ".game.json.cccccccc.tmp").exists()
    assert sorted(os.listdir(tmp_path)) == [".game.json.bbbbbbbb.tmp", GAME]


def test_an_audit_line_cut_short_costs_only_that_line(tmp_path):
    """A run killed while appending to the audit log leaves half a line; the next undo's
    record starts on a line of its own."""
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    [order_file] = turn_files(tmp_path, ("gold",))
    assert cli_run("process", path, order_file).exit_code == 0
    log = tmp_path / "game.audit.jsonl"
    log.write_text('{"action": "undo", "turns": 1, "rea')
    assert cli_run("undo", path, "--reason", "after a crash").exit_code == 0
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["reason"] == "after a crash"


def test_a_leftover_report_temporary_file_goes_with_the_next_report(tmp_path):
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    reports = tmp_path / "rep"
    reports.mkdir()
    stale = reports / ".game-turn-001.txt.k1ll3d_x.tmp"
    stale.write_text("half a rep")
    old = time.time() - 5
    os.utime(stale, (old, old))
    [order_file] = turn_files(tmp_path, ("gold",))
    result = cli_run("process", path, order_file, "--report-dir", reports, "--format", "txt")
    assert result.exit_code == 0, result.stderr
    assert not stale.exists()
