"""The order and GM edit schemas (classic) against the public contract (docs/orders.md).

Every example of docs/orders.md "Order file" and "GM edit file" must validate (the two full
examples live in ``tests/data/contract/``, the fragments are copied below); every shorthand
must canonicalise as documented in :func:`pbem.kernel.orders.canonical_orders`; malformed
files must be refused with exit code 3 and the JSON path of the problem.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conftest import CLASSIC, canonical_edit, canonical_orders
from pbem.errors import ExitCode, InputError
from pbem.kernel import vocab
from pbem.kernel.orders import ORDER_KEYS
from pbem.service import schemas
from pbem.service.service import parse_edit, parse_orders, read_input


def load_schema(kind: str) -> dict:
    """The complete classic schema of ``kind``."""
    return schemas.compose(kind, CLASSIC)


def problems(kind: str, data) -> list:
    return schemas.problems(kind, data, CLASSIC)


def load_orders(path):
    return parse_orders(CLASSIC, read_input(path))


def load_edit(path):
    return parse_edit(CLASSIC, read_input(path))

CONTRACT = Path(__file__).parent.parent / "data" / "contract"
ORDERS_EXAMPLE = CONTRACT / "orders-example.json"
EDIT_EXAMPLE = CONTRACT / "edit-example.json"
HEAD = {"game": "demo", "nation": "greeks", "turn": 12, "password": "correct-horse"}
ALL_PERSONAGES = ["general", "king", "citizen", "navigator", "scholar"]


def example(name: Path) -> dict:
    return json.loads(name.read_text(encoding="utf-8"))


def orders(**keys) -> dict:
    """A minimal order file for turn 12 of the demo game, plus ``keys``."""
    return {**HEAD, **keys}


def edit_file(*edits) -> dict:
    return {"game": "demo", "reason": "test", "edits": list(edits)}


def paths(kind: str, data) -> set[str]:
    return {problem.path for problem in problems(kind, data)}



@pytest.mark.parametrize("kind", ["orders", "edit"])
def test_schema_is_valid_draft_2020_12(kind):
    schema = load_schema(kind)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://antike-ref.invalid/schemas/{kind}.schema.json"


def test_shared_defs_are_identical():
    """Both schemas carry the same vocabulary and standing-orders definitions."""
    orders_defs = load_schema("orders")["$defs"]
    edit_defs = load_schema("edit")["$defs"]
    shared = set(orders_defs) & set(edit_defs)
    assert {"nation", "wedge", "knowhow", "personage", "province", "standing", "unit_counts"} <= shared
    for name in shared:
        assert orders_defs[name] == edit_defs[name], name


@pytest.mark.parametrize(
    ("definition", "members"),
    [
        ("nation", list(CLASSIC.nations)),
        ("wedge", ["iron", "temple", "gold", "maneuver", "arming", "marble", "knowhow"]),
        ("resource", list(vocab.RESOURCES)),
        ("unit", list(vocab.UNITS)),
        ("knowhow", ["wheel", "roads", "sailing", "navigation", "market", "currency", "monarchy", "democracy"]),
        ("personage", ["king", "scholar", "general", "citizen", "navigator"]),
        ("stance", [s.value for s in vocab.BattleStance]),
        ("coin_substitute", [c.value for c in vocab.CoinSubstitute]),
    ],
)
def test_enums_match_vocabulary(definition, members):
    for kind in ("orders", "edit"):
        assert load_schema(kind)["$defs"][definition]["enum"] == members


def test_action_keys_name_wedges_and_order_keys():
    for field in CLASSIC.rondel.fields:
        assert set(field.action.keys) <= set(vocab.ACTION_KEYS)
    assert {k for f in CLASSIC.rondel.fields for k in f.action.keys} == set(vocab.ACTION_KEYS)
    assert set(vocab.ACTION_KEYS) <= set(ORDER_KEYS)
    assert set(vocab.ACTION_KEYS) <= set(load_schema("orders")["properties"])



def test_contract_order_example_validates():
    assert problems("orders", example(ORDERS_EXAMPLE)) == []


def test_contract_edit_example_validates():
    assert problems("edit", example(EDIT_EXAMPLE)) == []


CONTRACT_ORDER_FRAGMENTS = {
    "production wedge, no action key": {"rondel": {"to": "iron"}},
    "explicit steps": {"rondel": {"to": "maneuver", "steps": 8}},
    "temples": {
        "rondel": {"to": "temple"},
        "temples": [{"city": "athen"}, {"city": "pella", "pay": {"marble": 4, "coin": 1}}],
    },
    "arm": {
        "rondel": {"to": "arming"},
        "arm": [{"unit": "legion", "at": "pella", "count": 1}, {"unit": "galley", "at": "athen", "count": 3}],
    },
    "knowhow": {
        "rondel": {"to": "knowhow"},
        "knowhow": [{"name": "sailing"}, {"name": "navigation", "pay": {"gold": 10}}],
    },
    "conquer with give_up": {
        "rondel": {"to": "maneuver"},
        "maneuver": [{"conquer": "pella", "with": {"legion": 1, "galley": 2}, "give_up": "athen"}],
    },
    "trade": {"trade": [{"give": {"gold": 2}, "get": "iron"}], "rondel": {"to": "iron"}},
    "standing, every field": {
        "rondel": {"to": "gold"},
        "standing": {
            "battle": {"default": "never", "persians": "always", "arabs": "home"},
            "bonus_stack": ALL_PERSONAGES,
            "coin_substitute": "marble",
        },
    },
}


@pytest.mark.parametrize("name", sorted(CONTRACT_ORDER_FRAGMENTS))
def test_contract_order_fragments_validate(name):
    assert problems("orders", orders(**CONTRACT_ORDER_FRAGMENTS[name])) == []


@pytest.mark.parametrize("stance", ["always", "never", "home"])
@pytest.mark.parametrize("substitute", ["lowest", "marble", "iron", "gold"])
def test_standing_orders_only_file_validates(stance, substitute):
    """No rondel, no turn: a standing-orders-only file."""
    data = {
        "game": "demo", "nation": "persians", "password": "pw",
        "standing": {"battle": {"default": stance, "greeks": stance}, "coin_substitute": substitute},
    }
    assert problems("orders", data) == []


CONTRACT_EDIT_FRAGMENTS = [
    {"nation": "greeks", "earned": {"king": 2}},
    {"nation": "greeks", "all8_bonus": True},
    {"nation": "greeks", "all8_bonus": False, "rondel": None},
    {"nation": "greeks", "knowhow": []},
    {"nation": "greeks", "standing": {"battle": "never", "bonus_stack": ALL_PERSONAGES}},
    {"bank": {"temples": 3}},
    {"province": "athen", "temple": False},
]


@pytest.mark.parametrize("edit", CONTRACT_EDIT_FRAGMENTS)
def test_contract_edit_fragments_validate(edit):
    assert problems("edit", edit_file(edit)) == []



def test_contract_example_canonical_form():
    canonical = canonical_orders(example(ORDERS_EXAMPLE))
    assert list(canonical) == ["game", "nation", "turn", "password", "rondel", "maneuver", "found", "standing"]
    assert canonical["rondel"] == {"to": "maneuver", "pay": {"coin": 1}}
    assert canonical["maneuver"][2] == {"battle": "galley", "at": "alexandria", "against": "phoenicians", "count": 1}
    assert canonical["found"] == [{"city": "knossos", "pay": {"marble": 1, "iron": 1, "coin": 1}}]
    assert canonical["standing"] == {"battle": {"default": "home", "persians": "always"}}


def test_rondel_shorthand():
    assert canonical_orders(orders(rondel="gold"))["rondel"] == {"to": "gold"}


def test_rondel_object_keeps_steps_and_invents_no_pay():
    assert canonical_orders(orders(rondel={"steps": 8, "to": "maneuver"}))["rondel"] == {"to": "maneuver", "steps": 8}


@pytest.mark.parametrize(("key", "field"), [("temples", "city"), ("found", "city"), ("knowhow", "name")])
def test_string_list_entries(key, field):
    value = "wheel" if key == "knowhow" else "athen"
    data = orders(**{key: [value, {field: value, "pay": {"coin": 1}}]})
    assert problems("orders", data) == []
    assert canonical_orders(data)[key] == [{field: value}, {field: value, "pay": {"coin": 1}}]


def test_arm_count_defaults_to_one():
    data = orders(arm=[{"unit": "legion", "at": "pella"}, {"at": "athen", "count": 3, "unit": "galley"}])
    assert canonical_orders(data)["arm"] == [
        {"unit": "legion", "at": "pella", "count": 1},
        {"unit": "galley", "at": "athen", "count": 3},
    ]


def test_move_count_defaults_to_one_battle_and_conquer_stay_bare():
    data = orders(maneuver=[
        {"path": ["knossos"], "from": "sparta", "move": "galley"},
        {"battle": "legion", "at": "pella", "against": "persians"},
        {"conquer": "pella"},
    ])
    assert problems("orders", data) == []
    assert canonical_orders(data)["maneuver"] == [
        {"move": "galley", "count": 1, "from": "sparta", "path": ["knossos"]},
        {"battle": "legion", "at": "pella", "against": "persians"},
        {"conquer": "pella"},
    ]


def test_standing_battle_shorthand():
    data = orders(standing={"battle": "home"})
    assert problems("orders", data) == []
    assert canonical_orders(data)["standing"] == {"battle": {"default": "home"}}


def test_schema_and_comment_are_dropped_and_key_order_is_fixed():
    data = {
        "standing": {"coin_substitute": "gold"}, "comment": "gg", "$schema": "x",
        "password": "pw", "trade": [{"give": {"iron": 1, "gold": 1}, "get": "marble"}],
        "turn": 3, "nation": "romans", "game": "g", "rondel": "iron",
    }
    assert problems("orders", data) == []
    canonical = canonical_orders(data)
    assert list(canonical) == ["game", "nation", "turn", "password", "trade", "rondel", "standing"]
    assert canonical["trade"] == [{"give": {"iron": 1, "gold": 1}, "get": "marble"}]


def test_nested_key_order_is_vocabulary_order():
    data = orders(
        rondel={"pay": {"coin": 1, "marble": 1}, "to": "knowhow"},
        standing={"battle": {"romans": "never", "default": "always", "greeks": "home"}},
    )
    canonical = canonical_orders(data)
    assert list(canonical["rondel"]) == ["to", "pay"]
    assert list(canonical["rondel"]["pay"]) == ["marble", "coin"]
    assert list(canonical["standing"]["battle"]) == ["default", "greeks", "romans"]


def test_integral_floats_become_ints():
    """JSON Schema counts 2.0 as an integer; the engine gets 2."""
    data = orders(turn=12.0, arm=[{"unit": "legion", "at": "pella", "count": 2.0}])
    assert problems("orders", data) == []
    canonical = canonical_orders(data)
    assert type(canonical["turn"]) is int and type(canonical["arm"][0]["count"]) is int


def test_canonical_is_idempotent_valid_and_leaves_input_alone():
    data = orders(
        rondel="maneuver",
        maneuver=[{"move": "legion", "from": "pella", "path": ["athen"]},
                  {"conquer": "athen", "with": {"galley": 0, "legion": 1}}],
        temples=["athen"], knowhow=["wheel"], found=["pella"], arm=[{"unit": "galley", "at": "athen"}],
        standing={"battle": "never"}, comment="hi",
    )
    before = copy.deepcopy(data)
    canonical = canonical_orders(data)
    assert data == before
    assert problems("orders", canonical) == []
    assert canonical_orders(canonical) == canonical
    assert canonical["maneuver"][1]["with"] == {"legion": 1, "galley": 0}


def test_canonical_edit_expands_standing_only():
    data = edit_file({"nation": "greeks", "standing": {"battle": "always"}, "coins": 3.0}, {"active": "greeks"})
    data["$schema"] = "https://antike-ref.invalid/schemas/edit.schema.json"
    assert problems("edit", data) == []
    assert canonical_edit(data) == edit_file(
        {"nation": "greeks", "standing": {"battle": {"default": "always"}}, "coins": 3}, {"active": "greeks"}
    )



ORDER_NEGATIVES = {
    "unknown top-level key": (orders(rondle="gold"), "$"),
    "missing password": ({"game": "demo", "nation": "greeks"}, "$"),
    "unknown nation": (orders(nation="trojans"), "$.nation"),
    "turn 0": (orders(turn=0), "$.turn"),
    "boolean turn": (orders(turn=True), "$.turn"),
    "wedge typo": (orders(rondel={"to": "manuever"}), "$.rondel.to"),
    "wedge typo, shorthand": (orders(rondel="manuever"), "$.rondel"),
    "rondel not string or object": (orders(rondel=3), "$.rondel"),
    "steps 9": (orders(rondel={"to": "maneuver", "steps": 9}), "$.rondel.steps"),
    "negative pay": (orders(rondel={"to": "gold", "pay": {"coin": -1}}), "$.rondel.pay.coin"),
    "unknown payment key": (orders(found=[{"city": "athen", "pay": {"silver": 1}}]), "$.found[0].pay"),
    "province with capitals": (orders(temples=["Athen"]), "$.temples[0]"),
    "arm count 0": (orders(arm=[{"unit": "legion", "at": "pella", "count": 0}]), "$.arm[0].count"),
    "arm without at": (orders(arm=[{"unit": "legion"}]), "$.arm[0]"),
    "unknown know-how": (orders(knowhow=["writing"]), "$.knowhow[0]"),
    "move count 0": (orders(maneuver=[{"move": "legion", "count": 0, "from": "a", "path": ["b"]}]),
                     "$.maneuver[0].count"),
    "move and battle in one step": (
        orders(maneuver=[{"move": "legion", "battle": "legion", "from": "a", "path": ["b"], "at": "b",
                          "against": "romans"}]),
        "$.maneuver[0]",
    ),
    "conquer and move in one step": (
        orders(maneuver=[{"conquer": "b", "move": "legion", "from": "a", "path": ["b"]}]), "$.maneuver[0]",
    ),
    "step of no kind": (orders(maneuver=[{"at": "b"}]), "$.maneuver[0]"),
    "empty path": (orders(maneuver=[{"move": "galley", "from": "a", "path": []}]), "$.maneuver[0].path"),
    "battle against unknown nation": (
        orders(maneuver=[{"battle": "galley", "at": "a", "against": "huns"}]), "$.maneuver[0].against",
    ),
    "conquer with cavalry": (orders(maneuver=[{"conquer": "a", "with": {"horse": 1}}]), "$.maneuver[0].with"),
    "trade giving coins": (orders(trade=[{"give": {"coin": 2}, "get": "iron"}]), "$.trade[0].give"),
    "trade giving nothing": (orders(trade=[{"give": {"gold": 0}, "get": "iron"}]), "$.trade[0].give"),
    "trade getting coin": (orders(trade=[{"give": {"gold": 2}, "get": "coin"}]), "$.trade[0].get"),
    "stance typo": (orders(standing={"battle": {"default": "sometimes"}}), "$.standing.battle.default"),
    "stance for unknown nation": (orders(standing={"battle": {"huns": "never"}}), "$.standing.battle"),
    "bonus stack with a repeat": (
        orders(standing={"bonus_stack": ["king", "king", "general", "citizen", "navigator"]}), "$.standing.bonus_stack",
    ),
    "bonus stack too short": (orders(standing={"bonus_stack": ["king"]}), "$.standing.bonus_stack"),
    "coin substitute typo": (orders(standing={"coin_substitute": "coin"}), "$.standing.coin_substitute"),
    "comment not text": (orders(comment=["x"]), "$.comment"),
}


@pytest.mark.parametrize("name", sorted(ORDER_NEGATIVES))
def test_orders_refused_with_path(name):
    data, path = ORDER_NEGATIVES[name]
    assert paths("orders", data) == {path}


EDIT_NEGATIVES = {
    "unknown edit kind": (edit_file({"player": "greeks"}), "$.edits[0]"),
    "two edit kinds": (edit_file({"nation": "greeks", "active": "greeks"}), "$.edits[0]"),
    "without reason": ({"game": "demo", "edits": [{"active": "greeks"}]}, "$"),
    "blank reason": ({"game": "demo", "reason": "  ", "edits": [{"active": "greeks"}]}, "$.reason"),
    "no edits": (edit_file(), "$.edits"),
    "province edit with no field": (edit_file({"province": "athen"}), "$.edits[0]"),
    "nation edit with no field": (edit_file({"nation": "greeks"}), "$.edits[0]"),
    "negative coins": (edit_file({"nation": "greeks", "coins": -1}), "$.edits[0].coins"),
    "rondel index 8": (edit_file({"nation": "greeks", "rondel": 8}), "$.edits[0].rondel"),
    "know-how twice": (edit_file({"nation": "greeks", "knowhow": ["wheel", "wheel"]}), "$.edits[0].knowhow"),
    "resources with coin": (edit_file({"nation": "greeks", "resources": {"coin": 1}}), "$.edits[0].resources"),
    "owner unknown": (edit_file({"province": "athen", "owner": "huns"}), "$.edits[0].owner"),
    "units of unknown nation": (edit_file({"province": "athen", "units": {"huns": {"legion": 1}}}), "$.edits[0].units"),
    "negative units": (
        edit_file({"province": "athen", "units": {"greeks": {"legion": -1}}}), "$.edits[0].units.greeks.legion",
    ),
    "empty bank edit": (edit_file({"bank": {}}), "$.edits[0].bank"),
    "bank edit with extra key": (edit_file({"bank": {"coins": 1}, "reason": "x"}), "$.edits[0]"),
    "standing typo": (edit_file({"nation": "greeks", "standing": {"battle": "maybe"}}), "$.edits[0].standing.battle"),
}


@pytest.mark.parametrize("name", sorted(EDIT_NEGATIVES))
def test_edits_refused_with_path(name):
    data, path = EDIT_NEGATIVES[name]
    assert paths("edit", data) == {path}



def test_load_orders_contract_example():
    loaded = load_orders(ORDERS_EXAMPLE)
    assert loaded == canonical_orders(example(ORDERS_EXAMPLE))
    assert "$schema" not in loaded


def test_load_edit_contract_example():
    loaded = load_edit(EDIT_EXAMPLE)
    assert loaded == example(EDIT_EXAMPLE)


def _refused(load, path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        load(path)
    assert caught.value.exit_code == ExitCode.BAD_INPUT == 3
    assert str(path) in str(caught.value)
    return caught.value


@pytest.mark.parametrize("load", [load_orders, load_edit])
def test_load_missing_file(tmp_path, load):
    assert "not found" in str(_refused(load, tmp_path / "nope.json"))


@pytest.mark.parametrize("load", [load_orders, load_edit])
def test_load_not_json(tmp_path, load):
    path = tmp_path / "orders.json"
    path.write_text('{"game": "demo",', encoding="utf-8")
    assert "not valid JSON" in str(_refused(load, path))


def test_load_orders_schema_invalid(tmp_path):
    path = tmp_path / "orders.json"
    path.write_text(json.dumps(orders(rondel={"to": "manuever"})), encoding="utf-8")
    error = _refused(load_orders, path)
    assert "$.rondel.to" in str(error)
    assert [p.path for p in error.problems] == ["$.rondel.to"]


def test_load_edit_schema_invalid(tmp_path):
    path = tmp_path / "edit.json"
    path.write_text(json.dumps(edit_file({"province": "athen"})), encoding="utf-8")
    assert "$.edits[0]" in str(_refused(load_edit, path))


def test_import_does_not_load_jsonschema():
    """Start-up stays fast: jsonschema is imported only when a file is validated."""
    code = "import sys, pbem.kernel.orders; print('jsonschema' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).parent.parent.parent)
    assert result.stdout.strip() == "False"
