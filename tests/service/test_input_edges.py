"""The edges of input (docs/orders.md, "Reading input files"): special files, size, the
byte-order mark, deep nesting, lone surrogates, a reader that goes away. Each is refused
with one clear message and exit code 3 (or accepted, for the byte-order mark), and the
game file is left byte for byte as it was."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import PASSWORDS, cli_run, new_game_file
from pbem.play.bot import play_turn
from pbem.service.schemas import MAX_DEPTH, MAX_INPUT_BYTES
from pbem.service.store import load_game

EXE = Path(sys.executable).with_name("antike-ref")


@pytest.fixture
def game(tmp_path):
    path = new_game_file(tmp_path, "--kdf-iterations", "1000")
    loaded = load_game(path)
    nation = loaded.state.status.active
    orders = {**play_turn(loaded, "greedy"), "password": PASSWORDS[nation]}
    return path, orders


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(args, game_file: Path, *needles: str, code: int = 3):
    before = _digest(game_file)
    result = cli_run(*args)
    assert result.exit_code == code, (result.exit_code, result.stderr)
    assert result.stderr.startswith("antike-ref: ") and "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr, result.stderr
    assert _digest(game_file) == before
    return result


@pytest.mark.parametrize("command", ["check", "process"])
def test_devices_pipes_and_folders_are_refused_at_once(game, tmp_path, command):
    path, _ = game
    fifo = tmp_path / "orders.fifo"
    os.mkfifo(fifo)
    for special, words in ((Path("/dev/zero"), "not a regular file"), (fifo, "not a regular file"),
                           (tmp_path, "folder")):
        before = _digest(path)
        # a real process with a time limit: reading /dev/zero or waiting on the pipe would hang
        done = subprocess.run([EXE, command, path, special], capture_output=True, text=True, timeout=30)
        assert done.returncode == 3, done.stderr
        assert words in done.stderr and "Traceback" not in done.stderr
        assert _digest(path) == before


def test_a_map_check_of_a_device_is_refused():
    done = subprocess.run([EXE, "map", "check", "/dev/zero"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 3 and "not a regular file" in done.stderr


def test_a_file_over_the_size_limit_is_refused_unread(game, tmp_path):
    path, _ = game
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:  # sparse: no 16 MiB written to disk
        fh.truncate(MAX_INPUT_BYTES + 1)
    _refused(["check", path, big], path, "file too large")


def test_an_order_file_with_a_byte_order_mark_is_accepted(game, tmp_path):
    path, orders = game
    bom = tmp_path / "notepad.json"
    bom.write_bytes(b"\xef\xbb\xbf" + json.dumps(orders).encode("utf-8"))
    result = cli_run("process", path, bom)
    assert result.exit_code == 0, result.stderr


def test_a_game_file_with_a_byte_order_mark_loads(game):
    path, _ = game
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert cli_run("verify", path).exit_code == 0


def test_deep_nesting_is_bad_input_not_a_crash(game, tmp_path):
    path, orders = game
    for depth in (MAX_DEPTH + 1, 5_000, 200_000):
        deep = tmp_path / f"deep{depth}.json"
        deep.write_text(json.dumps({**orders, "x": 0})[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}",
                        encoding="utf-8")
        _refused(["check", path, deep], path, "nested")
        _refused(["process", path, deep], path, "nested")


def test_a_lone_surrogate_is_refused_in_orders_and_in_a_game_file(game, tmp_path):
    path, orders = game
    bad = tmp_path / "surrogate.json"
    bad.write_text(json.dumps({**orders, "note": "x"}).replace('"x"', '"\\ud800"'), encoding="utf-8")
    _refused(["process", path, bad], path, "lone surrogate")
    # a game file whose history was given one by hand
    data = json.loads(path.read_text(encoding="utf-8"))
    data["history"][0]["reason"] = "PLACEHOLDER"
    path.write_text(json.dumps(data).replace("PLACEHOLDER", "\\udc80"), encoding="utf-8")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(orders), encoding="utf-8")
    _refused(["process", path, good], path, "lone surrogate")


def test_invalid_utf8_names_the_line(game, tmp_path):
    path, orders = game
    bad = tmp_path / "latin1.json"
    bad.write_bytes(json.dumps(orders, indent=1).encode("utf-8").replace(b'"game"', b'"g\xe4me"', 1))
    _refused(["check", path, bad], path, "not UTF-8", "line 2")


def test_a_reader_that_goes_away_ends_quietly(game):
    """``antike-ref show game.json | head -1``: exit 0, nothing on stderr."""
    path, _ = game
    for args in (["show", path], ["history", path], ["schema", "game"], ["--help"]):
        proc = subprocess.Popen([EXE, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.readline()
        proc.stdout.close()
        errs = proc.stderr.read()
        assert proc.wait(timeout=30) == 0, (args, errs)
        assert errs == b"", (args, errs)
