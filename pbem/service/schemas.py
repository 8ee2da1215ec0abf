"""JSON Schemas (Draft 2020-12): the shared shapes in ``schemas/``, composed per edition.

The files in ``schemas/`` hold what every edition shares; where an edition's vocabulary
goes (its nations, wedges, know-hows, personages, variants, the size of its rondel) they
hold a placeholder that accepts nothing. :func:`compose` fills the placeholders from the
edition and merges in the edition's own additions
(:meth:`Edition.schema_extensions <pbem.kernel.edition.Edition.schema_extensions>`);
``antike-ref schema KIND --edition NAME`` prints the result. The map schema is the same
for every edition.

``jsonschema`` is imported lazily: it is heavy and most commands need it only once. The
shipped schemas are checked against the meta-schema by the tests, not on every run.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from pbem.errors import InputError, Problem
from pbem.paths import schema_path

if TYPE_CHECKING:
    from pbem.kernel.edition import Edition

KINDS = ("game", "orders", "edit", "map")
EDITION_KINDS = ("game", "orders", "edit")
"""The kinds whose schema depends on the edition."""


@cache
def _base(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"unknown schema kind {kind!r}")
    with open(schema_path(kind), encoding="utf-8") as fh:
        return fh.read()


def base_schema(kind: str) -> dict[str, Any]:
    """The shared schema as shipped, with its placeholders."""
    return json.loads(_base(kind))


def _enum(values) -> dict[str, Any]:
    return {"enum": list(values)}


def vocabulary(edition: Edition) -> dict[str, dict[str, Any]]:
    """The ``$defs`` an edition's vocabulary fills in."""
    personages = list(edition.personages)
    count = {"type": "integer", "minimum": 0}
    fields = len(edition.rondel)
    low, high = edition.players
    return {
        "edition": {"const": edition.id},
        "nation": _enum(edition.nations),
        "wedge": _enum([*edition.rondel.names, *edition.rondel.aliases]),
        "knowhow": _enum(edition.knowhows),
        "personage": _enum(personages),
        "variant": _enum(edition.variants),
        "personages": {"type": "object", "properties": {p: count for p in personages},
                       "additionalProperties": False, "required": personages},
        "personage_counts": {"description": "Counts per personage; only the personages named are set.",
                             "type": "object", "additionalProperties": False,
                             "properties": {p: {"$ref": "#/$defs/amount"} for p in personages}},
        "bonus_stack": {"description": f"The order in which personages are taken as a bonus: "
                                       f"all {len(personages)}, each once.",
                        "type": "array", "minItems": len(personages), "maxItems": len(personages),
                        "uniqueItems": True, "items": {"$ref": "#/$defs/personage"}},
        "battle_standing": {"description": "Battle stances: a default and per-rival exceptions.",
                            "type": "object", "additionalProperties": False,
                            "properties": {k: {"$ref": "#/$defs/stance"} for k in ("default", *edition.nations)}},
        "rondel_index": {"type": "integer", "minimum": 0, "maximum": fields - 1},
        "rondel_steps": {"type": "integer", "minimum": 1, "maximum": fields},
        "seats": {"type": "array", "items": {"$ref": "#/$defs/nation"}, "minItems": low,
                  "maxItems": high, "uniqueItems": True},
        "players": {"type": "integer", "minimum": 2, "maximum": high},
    }


def compose(kind: str, edition: Edition | None) -> dict[str, Any]:
    """The complete schema of ``kind`` for ``edition`` (``None`` only for ``map``)."""
    schema = base_schema(kind)
    if kind not in EDITION_KINDS:
        return schema
    if edition is None:
        raise ValueError(f"the {kind} schema depends on the edition")
    schema["title"] = f"{schema['title']} ({edition.name})"
    defs = schema["$defs"]
    for name, filled in vocabulary(edition).items():
        if name in defs:
            defs[name] = filled
    for name, addition in edition.schema_extensions(kind).items():
        target = defs[name]
        target.setdefault("properties", {}).update(addition.get("properties", {}))
        for key in addition.get("required", []):
            target.setdefault("required", [])
            if key not in target["required"]:
                target["required"].append(key)
    left = sorted(name for name, d in defs.items() if isinstance(d, dict) and d.get("not") == {})
    if left:
        raise ValueError(f"{kind} schema: edition {edition.id} leaves {', '.join(left)} unfilled")
    return schema


@cache
def _validator(kind: str, edition: Edition | None):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(compose(kind, edition))


def _sort_key(err) -> tuple:
    return (list(map(str, err.absolute_path)), err.message)


def problems(kind: str, data: Any, edition: Edition | None = None) -> list[Problem]:
    """Every schema violation of ``data`` as a :class:`Problem`, in a stable order, each
    worded for a player (:mod:`pbem.service.explain`)."""
    from pbem.service.explain import explain

    errors = sorted(_validator(kind, edition).iter_errors(data), key=_sort_key)
    names = nouns(edition)
    found = [Problem(err.json_path, explain(err, names)) for err in errors]
    # Two rules of the schema can say the same thing of one value (its type, say): once is enough.
    return [p for i, p in enumerate(found) if p.message and p not in found[:i]]


@cache
def nouns(edition: Edition | None) -> dict[frozenset, str]:
    """What each vocabulary of ``edition`` is called, by its set of ids."""
    from pbem.kernel.vocab import PAYMENT_KEYS, RESOURCES, UNITS

    out = {frozenset(UNITS): "unit", frozenset(RESOURCES): "resource",
           frozenset(PAYMENT_KEYS): "chip"}
    if edition is not None:
        out.update({
            frozenset(edition.nations): "nation",
            frozenset([*edition.rondel.names, *edition.rondel.aliases]): "wedge",
            frozenset(edition.knowhows): "know-how",
            frozenset(edition.personages): "personage",
        })
    return out


def validate(kind: str, data: Any, source: str, edition: Edition | None = None) -> None:
    """Raise :class:`InputError` naming ``source`` and the JSON path if ``data`` is invalid."""
    found = problems(kind, data, edition)
    if found:
        raise InputError(source, found)


def read_text(path, source: str | None = None) -> str:
    """Read a UTF-8 text file; an unreadable one raises :class:`InputError`."""
    source = source or str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except FileNotFoundError:
        raise InputError(source, "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(source, f"cannot read file: {exc}") from None


def read_json(path, source: str | None = None) -> Any:
    """Read a JSON file; unreadable or malformed files raise :class:`InputError`."""
    source = source or str(path)
    return parse_json(read_text(path, source), source)


def parse_json(text: str, source: str) -> Any:
    def reject_constant(name: str):
        raise ValueError(f"{name} is not allowed")

    try:
        return json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(source, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:
        raise InputError(source, f"not valid JSON: {exc}") from None
    except RecursionError:
        raise InputError(source, "not valid JSON here: nested too deeply") from None


def dumps(data: Any) -> str:
    """The deterministic JSON text of ``data`` (sorted keys, UTF-8, newline at the end)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
