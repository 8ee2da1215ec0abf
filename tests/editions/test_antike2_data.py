"""``new --data``: the values a GM enters where the rulebook prints none (docs/antike2.md,
"Entering the printed values"), checked when the game is made and whenever its file is read."""

from __future__ import annotations

import hashlib
import json

from conftest import PASSWORDS, cli_run

A2 = ["romans", "carthaginians", "greeks", "germans"]


def _new(tmp_path, data, nations=A2, *extra):
    path = tmp_path / "game.json"
    data_file = tmp_path / "data.json"
    data_file.write_text(json.dumps(data), encoding="utf-8")
    pw = [a for n in nations for a in ("--password", f"{n}={PASSWORDS[n]}")]
    result = cli_run("new", path, "--nations", ",".join(nations), "--seed", "d", "--kdf-iterations", "1000",
                     "--data", data_file, *pw, *extra)
    return path, result


def test_printed_values_replace_the_rulings_and_new_names_only_the_rest(tmp_path):
    path, result = _new(tmp_path, {"knowhow_prices": {"strata": [7, 2]}, "goals": {"4": 8}, "bank_coins": 25},
                        A2, "--edition", "antike2", "--board", "antike2-mare-nostrum")
    assert result.exit_code == 0, result.stderr
    assert "STRATA" not in result.stdout and "the goal" not in result.stdout and "coins" not in result.stdout
    assert "know-how prices" in result.stdout and "neutral temples" in result.stdout
    view = json.loads(cli_run("show", path, "--json").stdout)
    assert view["bank"]["coins"] == 25 and view["nations"]["romans"]["goal"] == 8
    assert cli_run("verify", path).exit_code == 0


def test_bad_data_is_a_usage_error_and_makes_no_game(tmp_path):
    path, result = _new(tmp_path, {"knowhow_prices": {"strata": [0, 1]}, "tribute": 3},
                        A2, "--edition", "antike2", "--board", "antike2-mare-nostrum")
    assert result.exit_code == 2
    assert "unknown key 'tribute'" in result.stderr and "knowhow_prices.strata" in result.stderr
    assert not path.exists()


def test_classic_takes_no_data(tmp_path):
    path, result = _new(tmp_path, {"goals": {"4": 9}}, ["persians", "phoenicians", "arabs", "greeks"])
    assert result.exit_code == 2 and "takes no --data" in result.stderr
    assert not path.exists()


def test_a_game_file_with_damaged_data_is_refused_unchanged(tmp_path):
    """The rule table is built from rules.data, so it is checked before anything reads a
    rule: a damaged value is bad input (exit 3), never an internal error."""
    path, result = _new(tmp_path, {"bank_coins": 30}, A2, "--edition", "antike2", "--board", "antike2-mare-nostrum")
    assert result.exit_code == 0, result.stderr
    for damaged in ({"knowhow_prices": {"strata": "x"}}, {"bank_coins": -3}, {"goals": {"4": "nine"}}):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["rules"]["data"] = damaged
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        before = hashlib.sha256(bad.read_bytes()).hexdigest()
        for command in (["show", bad], ["verify", bad], ["bot", bad, "--apply"]):
            result = cli_run(*command)
            assert result.exit_code == 3, (damaged, command, result.stderr)
            assert "$.rules.data" in result.stderr
        assert hashlib.sha256(bad.read_bytes()).hexdigest() == before
