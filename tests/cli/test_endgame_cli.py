"""End to end: the last turns of a game, played to a win through the CLI from bundled files.

``tests/data/endgame/`` holds a GM edit that sets up a late position (Greeks 8 personages,
Phoenicians 6, Arabs and Persians 7; four nations, goal 9, 000 L233) and the order files of
the turns that follow, as players would mail them. The test runs ``new``, ``gm-edit``,
``process`` for every file, ``show --json`` after each, and ``verify`` at the end; the file
sent after the win is refused (exit 4) and leaves the game file unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

from conftest import FOUR, PASSWORDS, cli_run

DATA = Path(__file__).parent.parent / "data" / "endgame"


def show(game: Path) -> dict:
    result = cli_run("show", game, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def score(view: dict, nation: str) -> int:
    return view["nations"][nation]["score"]


def test_endgame_played_to_a_win(tmp_path):
    """000 L205-233: personages are won at the end of the turn and the first nation with
    9 (four nations) wins; 000 L611-710 for the battles and conquests on the way."""
    game = tmp_path / "endgame.json"
    pw = [a for n in FOUR for a in ("--password", f"{n}={PASSWORDS[n]}")]
    made = cli_run("new", game, "--nations", ",".join(FOUR), "--id", "endgame", "--seed", "endgame", *pw)
    assert made.exit_code == 0, made.stderr
    edited = cli_run("gm-edit", game, DATA / "00-position.edit.json")
    assert edited.exit_code == 0, edited.stderr
    start = show(game)
    assert [score(start, n) for n in ("phoenicians", "arabs", "greeks", "persians")] == [6, 7, 8, 7]
    assert start["active"] == "phoenicians" and start["turn"] == 1

    def process(name: str) -> dict:
        result = cli_run("process", game, DATA / name, "--json")
        assert result.exit_code == 0, f"{name}: {result.stdout} {result.stderr}"
        out = json.loads(result.stdout)
        assert out["ok"] is True
        return out

    out = process("01-phoenicians.json")
    assert {"type": "personage", "nation": "phoenicians", "personage": "scholar",
            "reason": "first to acquire navigation"} in out["events"]
    assert score(show(game), "phoenicians") == 7

    out = process("02-arabs.json")
    kinds = [(e["type"], e.get("started_by")) for e in out["events"] if e["type"] in ("battle", "conquer")]
    assert kinds == [("battle", "phoenicians"), ("conquer", None)]
    view = show(game)
    assert view["provinces"]["petra"]["owner"] == "arabs"
    assert view["provinces"]["petra"]["units"] == {"arabs": {"legion": 1, "galley": 0}}

    process("03-greeks.json")
    assert show(game)["provinces"]["athen"]["units"]["greeks"]["galley"] == 3

    out = process("04-persians.json")
    assert {"type": "personage", "nation": "persians", "personage": "king", "reason": "10 cities"} in out["events"]
    view = show(game)
    assert score(view, "persians") == 8 and view["round"] == 2 and view["active"] == "phoenicians"

    out = process("05-arabs-standing.json")
    view = show(game)
    assert view["turn"] == 5 and view["active"] == "phoenicians"
    assert view["nations"]["arabs"]["standing"]["battle"] == {"default": "home", "greeks": "always"}

    out = process("06-phoenicians.json")
    conquer = [e for e in out["events"] if e["type"] == "conquer"]
    assert conquer[0]["city"] == "sparta" and conquer[0]["temple_destroyed"] is True
    assert out["echo"]["maneuver"][1]["with"] == {"legion": 0, "galley": 3}
    assert score(show(game), "phoenicians") == 8

    process("07-arabs.json")

    out = process("08-greeks.json")
    assert out["events"][-1] == {"type": "won", "nation": "greeks", "score": 9, "goal": 9}
    final = show(game)
    assert final["winner"] == "greeks"
    assert final["provinces"]["ephesos"]["owner"] == "greeks"
    assert [score(final, n) for n in ("phoenicians", "arabs", "greeks", "persians")] == [8, 7, 9, 8]

    saved = game.read_bytes()
    late = cli_run("process", game, DATA / "09-persians-too-late.json", "--json")
    assert late.exit_code == 4
    assert json.loads(late.stdout)["rejections"][0] == {
        "code": "orders/game-over", "path": "$", "message": "the game is over: greeks has won"}
    assert game.read_bytes() == saved

    verified = cli_run("verify", game, "--quiet")
    assert verified.exit_code == 0, verified.stderr


def test_endgame_files_are_valid_order_files():
    """docs/orders.md: every bundled order file passes the orders schema (exit 3 otherwise)."""
    from conftest import CLASSIC
    from pbem.service.service import parse_orders, read_input

    def load_orders(path):
        return parse_orders(CLASSIC, read_input(path))

    files = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".edit.json"))
    assert len(files) == 9
    for path in files:
        assert load_orders(path)["game"] == "endgame"
