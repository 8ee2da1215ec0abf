"""The canonical JSON behind every history hash, written the fast way, is byte for byte
the definition (``history.canonical``: ``json.dumps`` with sorted keys, no spaces, UTF-8).

``verify`` and every replay load ``orjson`` (``history.use_fast_encoder``) and compose a
game's snapshot from kept parts (``Game.snapshot_bytes``); ``process`` writes the same
hashes with ``json`` alone. A single differing byte would make every old game file fail
``verify``, so these tests compare the two ways on odd values and on real games, and
check the copy-on-write sharing of game states that the kept parts rely on.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from conftest import new_game_file
from pbem.kernel.state import SharedStateError
from pbem.service import history
from pbem.service.replay import replayed
from pbem.service.store import load_game

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = [ROOT / "tests/data/legacy/demo-16.json", ROOT / "tests/data/legacy/moderated.json"]


@pytest.fixture
def fast(monkeypatch):
    history.use_fast_encoder()
    if not history.fast():
        pytest.skip("orjson is not installed")
    yield
    monkeypatch.setattr(history, "_FAST", history._FAST)


def _slow(monkeypatch):
    monkeypatch.setattr(history, "_FAST", False)


def _odd_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(12 if depth < 4 else 8)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, 1, -1, 2**31, -2**53, 2**63 - 1, -2**63, 2**64, 2**70, -2**70])
    if kind == 2:
        exp = rng.randint(-30, 30)
        return rng.choice([1, -1]) * rng.random() * 10.0 ** exp
    if kind == 3:
        return rng.choice([0.0, -0.0, 2.0, 1e16, 1e-5, 0.0001, 0.00001, 1e21, 123456789.0, 5e-324, 1.5e300])
    if kind in (4, 5, 6, 7):
        pieces = ["e-", "0.0000", "1e-7", ":1.5", "\u2028", "\x7f", "é", "😀", "\ufeff", "\\", '"', "<&>",
                  "".join(chr(c) for c in range(32)), "antike-ref", "3e5", "x"]
        return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
    if kind in (8, 9):
        return [_odd_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_odd_text(rng) if rng.random() < 0.5 else f"k{rng.randint(0, 9)}": _odd_value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def _odd_text(rng: random.Random) -> str:
    value = _odd_value(rng, 4)
    return value if isinstance(value, str) else json.dumps(value)


def test_fast_bytes_are_the_definition_on_odd_values(fast):
    rng = random.Random(20261123)
    for _ in range(4000):
        value = _odd_value(rng)
        want = history.canonical(value).encode()
        assert history.canonical_bytes(value) == want, value
        assert history.part_bytes(value) == want, value


def test_same_json_tells_apart_what_python_calls_equal(fast):
    assert history.same_json({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]})
    for a, b in [(1, 1.0), (1, True), (0, False), ({"a": 1}, {"a": 1.0}), ([2**64], [2**64 + 1]),
                 ({"a": 1}, {"a": 1, "b": None}), ("e-", "e+")]:
        assert not history.same_json(a, b), (a, b)
    rng = random.Random(7)
    for _ in range(1000):
        a, b = _odd_value(rng), _odd_value(rng)
        assert history.same_json(a, b) == (history.canonical(a) == history.canonical(b))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_snapshot_bytes_after_every_entry_are_the_definition(path, fast, monkeypatch):
    """Replay a game (kept parts, shared provinces and nations) and compare every
    snapshot with the file written the slow way from scratch."""
    game = load_game(path)
    for current in replayed(game, len(game.history) - 1):
        composed = current.snapshot_bytes()
        assert composed == history.canonical(history.snapshot(current.to_json())).encode()
    _slow(monkeypatch)
    assert not history.fast()
    assert current.snapshot_bytes() == composed


def test_snapshot_notices_a_new_player_and_an_embedded_board(fast, tmp_path):
    """The parts kept for a game (identities, board) are written again when they change;
    a board that is not shipped is embedded whole."""
    board = json.loads((ROOT / "maps/antike-west.json").read_text(encoding="utf-8"))
    board["id"] = "my-west"
    board_file = tmp_path / "my-west.json"
    board_file.write_text(json.dumps(board), encoding="utf-8")
    nations = ["greeks", "romans", "germans", "phoenicians"]
    game = load_game(new_game_file(tmp_path, "--board", board_file, nations=nations))
    assert "map" in game.to_json()["board"]
    first = game.snapshot_bytes()
    assert first == history.canonical(history.snapshot(game.to_json())).encode()
    game.meta[game.seats[0]].player = "Someone Else"
    second = game.snapshot_bytes()
    assert second != first
    assert second == history.canonical(history.snapshot(game.to_json())).encode()


def test_shared_states_refuse_changes_in_place():
    game = load_game(GAMES[0])
    state = game.state
    copy = state.copy()
    pid = next(iter(state.provinces))
    nation = state.table.seats[0]
    with pytest.raises(SharedStateError):
        copy.provinces[pid].owner = None
    with pytest.raises(SharedStateError):
        copy.provinces[pid].add(nation, "legion", 1)
    with pytest.raises(SharedStateError):
        copy.nations[nation].coins = 99
    with pytest.raises(SharedStateError):
        copy.nations[nation].resources["gold"] = 99
    with pytest.raises(SharedStateError):
        copy.nations[nation].knowhow.append("wheel")
    before = json.dumps(state.to_json(), sort_keys=True)
    copy.province(pid).owner = None
    copy.nation(nation).coins = 99
    copy.nation(nation).resources["gold"] = 99
    copy.standing_to_change(nation).coin_substitute = "gold"
    assert json.dumps(state.to_json(), sort_keys=True) == before
    assert copy.provinces[pid].owner is None and copy.nations[nation].coins == 99
