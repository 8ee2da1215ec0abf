"""End to end (issue 4): a whole 3-nation game, from `new` to a win, through the CLI.

The order files in tests/data/wholegame/ were written by tools/make_whole_game.py (greedy
bots); here every one is checked and processed by the public commands, as a GM would, and
the game ends with the winner and scores recorded beside them. After a rule change that
alters bot play, regenerate the files with `python tools/make_whole_game.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli import app

DATA = Path(__file__).resolve().parent.parent / "data" / "wholegame"
runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.mark.slow
def test_a_whole_game_to_a_win(tmp_path):
    expected = json.loads((DATA / "expected.json").read_text())
    game = tmp_path / "whole.json"
    passwords = [f"--password={n}=pw-{n}" for n in expected["nations"]]
    res = cli("new", game, "--nations", ",".join(expected["nations"]), "--id", expected["game"],
              "--seed", expected["seed"], *passwords)
    assert res.exit_code == 0, res.output
    files = sorted(p for p in DATA.glob("[0-9]*.json"))
    assert len(files) == expected["turns"]
    for i, orders in enumerate(files):
        if i % 10 == 0:
            assert cli("check", game, orders).exit_code == 0, orders.name
        res = cli("process", game, orders)
        assert res.exit_code == 0, (orders.name, res.output)
    view = json.loads(cli("show", game, "--json").output)
    assert view["winner"] == expected["winner"]
    assert {n: v["score"] for n, v in view["nations"].items()} == expected["scores"]
    assert view["nations"][expected["winner"]]["score"] >= view["nations"][expected["winner"]]["goal"]
    assert cli("verify", game).exit_code == 0
    before = game.read_bytes()
    res = cli("process", game, files[0], "--json")
    assert res.exit_code == 4
    assert "orders/game-over" in res.output
    assert game.read_bytes() == before
