"""The quick schema check (pbem/service/schemas/quickcheck.py) answers exactly as jsonschema does.

``schemas.problems`` trusts the quick check's "valid" without asking jsonschema, so a
quick check that accepted something jsonschema rejects would let bad input through.
These tests run both over the shipped examples and thousands of near-valid mutations of
them (fixed seed) and require the same answer for every one.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from pbem import editions
from pbem.service import schemas
from pbem.service.schemas.quickcheck import compile_check, equal

ROOT = Path(__file__).resolve().parent.parent.parent
CLASSIC = editions.get("antike")

SAMPLES = {
    "game": [ROOT / "tests/data/legacy/demo-16.json", ROOT / "tests/data/legacy/moderated.json"],
    "orders": sorted((ROOT / "demo/orders").glob("*.json")) + [ROOT / "tests/data/contract/orders-example.json"],
    "edit": [ROOT / "tests/data/contract/edit-example.json", ROOT / "tests/data/endgame/00-position.edit.json"],
    "map": sorted((ROOT / "maps").glob("*.json")),
}
ODD_VALUES = [None, True, False, 0, 1, -1, 2.0, 2.5, -0.5, 10**12, "", "x", "<&\"'>", "persians",
              "antike", "a" * 300, [], [1], {}, {"x": 1}, float(3), "0" * 64]


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, (*path, i))


def _set(data, path, value):
    if not path:
        return value
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def _mutate(data, rng: random.Random):
    data = copy.deepcopy(data)
    paths = list(_paths(data))
    path = rng.choice(paths)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    roll = rng.random()
    if path and roll < 0.15 and isinstance(parent, dict):
        del parent[path[-1]]
    elif path and roll < 0.25 and isinstance(parent, list):
        parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    elif roll < 0.35 and isinstance(parent, dict):
        parent[rng.choice(["extra", "x", "turn", "nation", "password"])] = rng.choice(ODD_VALUES)
    else:
        data = _set(data, path, rng.choice(ODD_VALUES))
    return data


def _cases(kind: str):
    edition = CLASSIC if kind in schemas.EDITION_KINDS else None
    schema = schemas.compose(kind, edition)
    return schema, compile_check(schema), Draft202012Validator(schema)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(SAMPLES))
def test_the_quick_check_agrees_with_jsonschema_on_mutations(kind):
    schema, quick, full = _cases(kind)
    assert quick is not None, f"the {kind} schema uses a keyword the quick check does not know"
    rng = random.Random(f"quick-{kind}")
    tried = invalid = 0
    for sample in SAMPLES[kind]:
        base = json.loads(sample.read_text(encoding="utf-8"))
        assert quick(base) == full.is_valid(base) is True, sample
        rounds = 60 if kind in ("game", "map") else 300
        for _ in range(rounds):
            data = _mutate(base, rng)
            for _ in range(rng.randrange(3)):
                data = _mutate(data, rng)
            expected = full.is_valid(data)
            assert quick(data) == expected, (sample.name, json.dumps(data)[:400])
            tried += 1
            invalid += not expected
    # the mutations must exercise both answers, or the test proves nothing
    assert invalid > tried // 4 and invalid < tried, (tried, invalid)


def test_problems_still_names_every_problem_of_invalid_data():
    """Invalid data still goes to jsonschema, so the messages are the detailed ones."""
    orders = json.loads((ROOT / "tests/data/contract/orders-example.json").read_text(encoding="utf-8"))
    orders["turn"] = "twelve"
    found = schemas.problems("orders", orders, CLASSIC)
    assert [p.path for p in found] == ["$.turn"]


@pytest.mark.parametrize("schema", [
    {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
    {"contains": {"type": "integer"}},
    {"$ref": "other.json#/x"},
    {"$ref": "#/$defs/missing"},
    {"type": "array", "items": [{"type": "string"}]},
    {"type": "whatever"},
])
def test_anything_unknown_leaves_the_decision_to_jsonschema(schema):
    assert compile_check(schema) is None


def test_json_equality_follows_json_schema():
    assert equal(1, 1.0) and equal([1, {"a": 2.0}], [1.0, {"a": 2}])
    assert not equal(True, 1) and not equal(0, False) and not equal("1", 1)
    assert not equal([1], {"0": 1}) and not equal(None, 0)


def test_recursive_definitions_compile_and_check():
    schema = {"$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}},
              "$ref": "#/$defs/tree"}
    quick = compile_check(schema)
    assert quick([[], [[]]]) and not quick([[], [1]])


def test_compiled_checks_are_kept_between_runs(tmp_path, monkeypatch):
    """The generated check is compiled once and kept in the cache folder (as Python keeps
    .pyc files); a damaged cache file, or no cache at all, only means compiling again."""
    from pbem.service.schemas import quickcheck

    schema = schemas.compose("orders", CLASSIC)
    sample = json.loads(SAMPLES["orders"][0].read_text(encoding="utf-8"))
    monkeypatch.setenv("ANTIKE_REF_CACHE", str(tmp_path / "cache"))
    first = compile_check(schema)
    kept = sorted((tmp_path / "cache").glob("quickcheck-*.marshal"))
    assert len(kept) == 1
    stamp = kept[0].stat().st_mtime_ns
    again = compile_check(schema)
    assert kept[0].stat().st_mtime_ns == stamp  # read, not written again
    assert first(sample) is again(sample) is True
    kept[0].write_bytes(b"not marshal data")
    assert compile_check(schema)(sample) is True
    monkeypatch.setenv("ANTIKE_REF_CACHE", "off")
    assert quickcheck.cache_dir() is None
    assert compile_check(schema)(sample) is True
