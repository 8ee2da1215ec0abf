"""The game file store: deterministic and atomic saves, the lock, and load-time checks."""

from __future__ import annotations

import copy
import json
import os

import pytest

from conftest import FOUR, PASSWORDS, cli_run, held_lock, new_game_file, write_json
from pbem.errors import InconsistentGame, InputError
from pbem.paths import map_path
from pbem.service import store


def edit_file(folder, game_id="game", name="edit.json", **edit):
    edits = [edit] if edit else [{"nation": "greeks", "coins": 3}]
    return write_json(folder / name, {"game": game_id, "reason": "test", "edits": edits})


def files(folder) -> list[str]:
    return sorted(os.listdir(folder))


# --- deterministic, atomic -------------------------------------------------------------

def test_same_new_twice_gives_the_same_bytes(tmp_path):
    """Same options, --seed and --password: byte-identical game files."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = new_game_file(tmp_path / "a", "--player", "greeks=Ann <ann@example.org>")
    two = new_game_file(tmp_path / "b", "--player", "greeks=Ann <ann@example.org>")
    assert one.read_bytes() == two.read_bytes()
    three = new_game_file(tmp_path, "--seed", "other-seed", name="c.json")
    assert three.read_bytes() != one.read_bytes()


def test_saved_text_is_canonical(tmp_path):
    """Loading and saving again changes no byte; keys sorted, UTF-8, newline at the end."""
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    store.save_game(store.load_game(path), path)
    assert path.read_bytes() == before
    text = before.decode("utf-8")
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert text == json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def test_the_same_edit_gives_the_same_bytes(tmp_path):
    """Applying one edit file to two copies of a game gives identical files."""
    path = new_game_file(tmp_path)
    copy_path = tmp_path / "copy.json"
    copy_path.write_bytes(path.read_bytes())
    edit = edit_file(tmp_path)
    assert cli_run("gm-edit", path, edit).exit_code == 0
    assert cli_run("gm-edit", copy_path, edit).exit_code == 0
    assert path.read_bytes() == copy_path.read_bytes()


def test_saves_leave_no_temporary_files(tmp_path):
    path = new_game_file(tmp_path)
    assert cli_run("gm-edit", path, edit_file(tmp_path)).exit_code == 0
    assert files(tmp_path) == ["edit.json", "game.json", "game.secrets.json"]


def test_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    """A failed write at the rename (a full disk) leaves the old file and no temporary file
    (exit 10 via the CLI: the machine's error, not the input's)."""
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    edit = edit_file(tmp_path)

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store.os, "replace", broken)
    result = cli_run("gm-edit", path, edit)
    assert result.exit_code == 10
    assert "game.json: cannot write file: No space left on device" in result.stderr
    assert path.read_bytes() == before
    assert not [f for f in files(tmp_path) if f.endswith(".tmp")]


@pytest.mark.parametrize("command", [["bot", "--level", "greedy"], ["post"]])
def test_an_output_file_that_cannot_be_written_is_the_machines_error(tmp_path, command):
    """``bot -o`` and ``post -o`` into a folder that does not exist: exit 10 naming the
    file (before, a traceback as an internal error), the game file unchanged."""
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    target = tmp_path / "missing" / "out.txt"
    result = cli_run(command[0], path, *command[1:], "-o", target)
    assert result.exit_code == 10, result.stderr
    assert f"{target}: cannot write file" in result.stderr and "internal error" not in result.stderr
    assert path.read_bytes() == before and not target.parent.exists()


def test_write_atomic_keeps_the_mode(tmp_path):
    path = tmp_path / "f.json"
    path.write_text("{}")
    os.chmod(path, 0o640)
    store.write_atomic(path, "[]\n")
    assert path.read_text() == "[]\n" and (os.stat(path).st_mode & 0o777) == 0o640
    store.write_atomic(tmp_path / "secret.json", "{}\n", mode=0o600)
    assert os.stat(tmp_path / "secret.json").st_mode & 0o777 == 0o600


def test_output_into_a_missing_folder(tmp_path):
    """``gm-edit -o`` into a folder that does not exist: exit 3, nothing created."""
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    result = cli_run("gm-edit", path, edit_file(tmp_path), "-o", tmp_path / "no" / "out.json")
    assert result.exit_code == 3 and "no/out.json" in result.stderr
    assert not (tmp_path / "no").exists()
    assert path.read_bytes() == before


# --- the lock --------------------------------------------------------------------------

def orders_file(folder, nation="phoenicians"):
    return write_json(folder / "orders.json", {"game": "game", "nation": nation, "turn": 1,
                                               "password": PASSWORDS[nation], "rondel": {"to": "iron"}})


@pytest.mark.parametrize("command", ["gm-edit", "process", "new"])
def test_a_held_lock_stops_every_writer(tmp_path, command):
    """Exit 5, a message naming the lock file, and the game file unchanged."""
    path = new_game_file(tmp_path)
    before = path.read_bytes()
    args = {
        "gm-edit": ["gm-edit", path, edit_file(tmp_path)],
        "process": ["process", path, orders_file(tmp_path)],
        "new": ["new", path, "--nations", ",".join(FOUR), "--force"],
    }[command]
    with held_lock(path):
        result = cli_run(*args)
    assert result.exit_code == 5, result.stderr
    assert f"lock file {path}.lock" in result.stderr and "locked by another run" in result.stderr
    assert path.read_bytes() == before
    assert cli_run(*args).exit_code == 0


def test_readers_ignore_the_lock(tmp_path):
    """``show`` and ``check`` write nothing and need no lock."""
    path = new_game_file(tmp_path)
    with held_lock(path):
        assert cli_run("show", path, "--json").exit_code == 0
        assert cli_run("check", path, orders_file(tmp_path)).exit_code == 0


def test_no_lock_file_for_a_missing_game(tmp_path):
    result = cli_run("gm-edit", tmp_path / "missing.json", edit_file(tmp_path))
    assert result.exit_code == 3 and "missing.json: bad input: file not found" in result.stderr
    assert files(tmp_path) == ["edit.json"]


# --- load-time consistency -------------------------------------------------------------

@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A fresh 4-nation game file's JSON."""
    return json.loads(new_game_file(tmp_path_factory.mktemp("good")).read_text())


def broken(data, change):
    data = copy.deepcopy(data)
    change(data)
    return data


def units(pid, nation, legion=0, galley=0):
    def change(d):
        d["state"]["provinces"].setdefault(pid, {"owner": None, "temple": False, "units": {}})
        d["state"]["provinces"][pid]["units"][nation] = {"legion": legion, "galley": galley}
    return change


def setter(*path_and_value):
    *path, value = path_and_value

    def change(d):
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value
    return change


def temple_in(pid):
    def change(d):
        d["state"]["provinces"][pid] = {"owner": None, "temple": True, "units": {}}
        d["state"]["bank"]["temples"] -= 1
    return change


def cities(n):
    def change(d):
        board = json.loads(map_path("antike-east").read_text(encoding="utf-8"))
        free = [p for p in board["provinces"] if p["id"] not in d["state"]["provinces"]]
        for p in free[:n]:
            d["state"]["provinces"][p["id"]] = {"owner": "greeks", "temple": False, "units": {}}
    return change


INCONSISTENT = [
    ("18 legions", units("pella", "greeks", legion=18), "$.state.provinces",
     "greeks has 18 legions on the board, more than 17"),
    ("18 galleys", units("knossos", "greeks", galley=18), "$.state.provinces", "18 galleys"),
    ("26 cities", cities(23), "$.state.provinces", "greeks has 26 cities, more than its 25 stones"),
    ("temple without city", temple_in("knossos"), "$.state.provinces.knossos.temple", "a temple without a city"),
    ("active not seated", setter("status", "active", "egyptians"), "$.status.active",
     "active nation 'egyptians' is not seated"),
    ("first not seated", setter("first", "romans"), "$.first", "start nation 'romans' is not seated"),
    ("winner not seated", setter("status", "winner", "romans"), "$.status.winner", "not seated"),
    ("owner not seated", setter("state", "provinces", "pella", "owner", "egyptians"), "$.state.provinces.pella.owner",
     "owner 'egyptians' is not seated"),
    ("not a province", setter("state", "provinces", "atlantis", {"owner": "greeks", "temple": False, "units": {}}),
     "$.state.provinces.atlantis", "'atlantis' is not a province"),
    ("legion at sea", units("knossos", "greeks", legion=1), "$.state.provinces.knossos.units.greeks.legion",
     "a legion cannot stand in knossos"),
    ("unseated units", units("pella", "egyptians", legion=1), "$.state.provinces.pella.units.egyptians",
     "who is not seated"),
    ("too many coins", setter("state", "bank", "coins", 27), "$.state.bank.coins", "31 coins in the game exceed 30"),
    ("too many temples", setter("state", "provinces", "pella", "temple", True), "$.state.bank.temples",
     "1 temples placed and 20 in the bank exceed 20"),
    ("too many kings", setter("state", "nations", "greeks", "personages", "king", 1), "$.state.bank.personages.king",
     "10 king cards in the game exceed 9"),
    ("secondary without basic", setter("state", "nations", "greeks", "knowhow", ["roads"]),
     "$.state.nations.greeks.knowhow", "roads without wheel"),
    ("nation missing", lambda d: d["state"]["nations"].pop("arabs"), "$.state.nations", "do not match the seats"),
    ("players", setter("rules", "players", 3), "$.rules.players", "3 players cannot play 4 nations"),
    ("board changed", setter("board", "sha256", "0" * 64), "$.board.sha256", "different version of board"),
    ("unknown board", setter("board", "id", "antike-mars"), "$.board.id", "unknown board 'antike-mars'"),
]


@pytest.mark.parametrize("change,path,message", [c[1:] for c in INCONSISTENT], ids=[c[0] for c in INCONSISTENT])
def test_inconsistent_games_are_refused(tmp_path, good, change, path, message):
    """Loading checks consistency beyond the schema and names the field at fault."""
    file = write_json(tmp_path / "g.json", broken(good, change))
    with pytest.raises(InconsistentGame) as info:
        store.load_game(file)
    assert info.value.source == str(file)
    assert any(p.path == path and message in p.message for p in info.value.problems), info.value.problems


def test_consistent_extremes_load(tmp_path, good):
    """The caps themselves are allowed: 17 legions, 17 galleys, 25 cities, 30 coins."""
    data = broken(good, units("pella", "greeks", legion=17))
    data = broken(data, units("knossos", "greeks", galley=17))
    data = broken(data, cities(22))
    data = broken(data, setter("state", "bank", "coins", 26))
    game = store.load_game(write_json(tmp_path / "g.json", data))
    assert len(game.state.cities("greeks")) == 25


@pytest.mark.parametrize("change,path", [
    (setter("state", "bank", "coins", -1), "$.state.bank.coins"),
    (setter("state", "nations", "greeks", "resources", "gold", "3"), "$.state.nations.greeks.resources.gold"),
    (setter("status", "turn", 0), "$.status.turn"),
    (lambda d: d.pop("seats"), "$"),
    (setter("extra", 1), "$"),
])
def test_schema_problems_name_the_json_path(tmp_path, good, change, path):
    file = write_json(tmp_path / "g.json", broken(good, change))
    with pytest.raises(InputError) as info:
        store.load_game(file)
    assert not isinstance(info.value, InconsistentGame)
    assert info.value.problems[0].path == path


def test_process_to_another_file_locks_that_file_too(tmp_path):
    """`process -o NEW` holds NEW's lock as well: two runs writing NEW cannot interleave."""
    from typer.testing import CliRunner

    from conftest import first_turn_files, held_lock
    from pbem.cli import app
    from pbem.service.store import game_text

    game, orders, g = first_turn_files(tmp_path, "lk")
    out = tmp_path / "next.json"
    with held_lock(out):
        res = CliRunner().invoke(app, ["process", str(game), str(orders), "-o", str(out)])
    assert res.exit_code == 5 and not out.exists()
    res = CliRunner().invoke(app, ["process", str(game), str(orders), "-o", str(out)])
    assert res.exit_code == 0 and out.exists()
    assert game.read_text(encoding="utf-8") == game_text(g)


def test_saving_copies_the_history_text_and_writes_the_same_bytes(tmp_path):
    """A game read from its file and saved again after more entries is written with the
    old entries' text copied from the file (the indented writer is slow on a long
    history), and the bytes are exactly those of writing the whole game afresh: after
    turns, after an undo (fewer entries: written afresh), and from a file in another
    layout (written afresh, in ours)."""
    from pbem.play.bot import play_turn
    from pbem.service.schemas import dumps

    path = new_game_file(tmp_path)
    for i in range(6):
        game = store.load_game(path)
        assert game.origin is not None and game.origin.entries is game.history
        nation = game.state.status.active
        orders = write_json(tmp_path / f"o{i}.json", {**play_turn(game, "greedy"), "password": PASSWORDS[nation]})
        assert cli_run("process", path, orders).exit_code == 0
        text = path.read_text(encoding="utf-8")
        assert text == dumps(store.load_game(path).to_json())
    assert cli_run("undo", path, "--turns", "2", "--reason", "test").exit_code == 0
    assert path.read_text(encoding="utf-8") == dumps(store.load_game(path).to_json())
    compact = tmp_path / "compact.json"
    compact.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    game = store.load_game(compact)
    assert game.origin is None
    store.save_game(game, compact)
    assert compact.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_a_copy_without_its_copy_key_is_still_no_game(tmp_path):
    """A player's copy whose "copy" key was taken out (by hand) hides what only the GM's
    file holds: it is refused as a game (exit 3) by every command, never changed."""
    import json as _json

    from conftest import cli_run as run
    from conftest import write_json

    game = new_game_file(tmp_path, "--id", "demo")
    assert run("copy", game, "--for", "greeks", "-o", tmp_path / "c.json").exit_code == 0
    data = _json.loads((tmp_path / "c.json").read_text())
    del data["copy"]
    forged = write_json(tmp_path / "forged.json", data)
    before = forged.read_bytes()
    orders = write_json(tmp_path / "o.json", {"game": "demo", "nation": "phoenicians", "turn": 1,
                                               "password": "pw-phoenicians", "rondel": "gold"})
    for args in (("show", forged), ("process", forged, orders), ("check", forged, orders)):
        done = run(*args)
        assert done.exit_code == 3 and "player's copy" in done.stderr, args
    assert forged.read_bytes() == before
    assert run("new", tmp_path / "q.json", "--seed", "?").exit_code == 2
