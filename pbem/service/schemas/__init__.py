"""JSON Schemas (Draft 2020-12): the shared shapes in ``schemas/``, composed per edition.

The files in ``schemas/`` hold what every edition shares; where an edition's vocabulary
goes (its nations, wedges, know-hows, personages, variants, the size of its rondel) they
hold a placeholder that accepts nothing. :func:`compose` fills the placeholders from the
edition and merges in the edition's own additions
(the edition's schema facet, :meth:`SchemaParts.parts <pbem.kernel.protocols.SchemaParts.parts>`);
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
    for name, addition in (edition.schema.parts(kind) if edition.schema else {}).items():
        if name == "#":  # the document itself (an order key of the edition's own)
            schema.setdefault("properties", {}).update(addition.get("properties", {}))
            continue
        if name not in defs:  # a definition of the edition's own
            defs[name] = addition
            continue
        target = defs[name]
        if "enum" in addition:  # more values (an edition's own units)
            target["enum"] = [*target["enum"], *(v for v in addition["enum"] if v not in target["enum"])]
        if "properties" in addition:
            target.setdefault("properties", {}).update(addition["properties"])
        for key in addition.get("required", []):
            target.setdefault("required", [])
            if key not in target["required"]:
                target["required"].append(key)
        for key in ("oneOf", "anyOf", "allOf"):  # more alternatives (an edit of the edition's own)
            if key in addition:
                target.setdefault(key, []).extend(addition[key])
    left = sorted(name for name, d in defs.items() if isinstance(d, dict) and d.get("not") == {})
    if left:
        raise ValueError(f"{kind} schema: edition {edition.id} leaves {', '.join(left)} unfilled")
    return schema


@cache
def required_keys(kind: str, edition: Edition | None) -> tuple[str, ...]:
    """The keys every document of ``kind`` has at its top (``game``, ``nation`` and
    ``password`` for orders)."""
    return tuple(compose(kind, edition).get("required", ()))


@cache
def _validator(kind: str, edition: Edition | None):
    from jsonschema import Draft202012Validator

    return Draft202012Validator(compose(kind, edition))


def _sort_key(err) -> tuple:
    return (list(map(str, err.absolute_path)), err.message)


@cache
def _quick(kind: str, edition: Edition | None):
    from pbem.service.schemas.quickcheck import compile_check

    return compile_check(compose(kind, edition))


def problems(kind: str, data: Any, edition: Edition | None = None) -> list[Problem]:
    """Every schema violation of ``data`` as a :class:`Problem`, in a stable order, each
    worded for a player (:mod:`pbem.service.schemas.explain`).

    Valid data is recognised by the quick check (:mod:`pbem.service.schemas.quickcheck`) without
    loading ``jsonschema``; only data it finds invalid is walked by ``jsonschema``, which
    names each problem."""
    quick = _quick(kind, edition)
    if quick is not None and quick(data):
        return []
    from pbem.service.schemas.explain import explain

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


MAX_INPUT_BYTES = 16 * 1024 * 1024
"""The largest file antike-ref reads (16 MiB): a 1,000-turn game file is about 2 MiB, an
order file a few KiB. Anything larger is refused before it is read whole."""
MAX_DEPTH = 64
"""The deepest nesting of arrays and objects a JSON input may have; the deepest file
antike-ref writes nests about a dozen levels."""
_BOM = "\ufeff"


def _read_bytes(path, source: str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is refused.

    The file is opened without blocking, so a named pipe (FIFO) with no writer is refused
    rather than waited on, and devices such as ``/dev/zero`` are refused before a byte is
    read."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InputError(source, "file not found") from None
    except IsADirectoryError:
        raise InputError(source, "this is a folder, not a file") from None
    except OSError as exc:
        raise InputError(source, f"cannot read file: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(source, "this is a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(source, "not a regular file (a device, pipe or socket): "
                                     "save the input to a file and give its name")
        if info.st_size > limit:
            raise InputError(source, f"file too large: {info.st_size:,} bytes, "
                                     f"at most {limit:,} are read")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise InputError(source, f"file too large: more than {limit:,} bytes")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(source, f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text(path, source: str | None = None, limit: int = MAX_INPUT_BYTES) -> str:
    """Read a UTF-8 text file (a leading byte-order mark, as Notepad writes it, is dropped);
    an unreadable, oversized or special file raises :class:`InputError`."""
    source = source or str(path)
    raw = _read_bytes(path, source, limit)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise InputError(source, f"not UTF-8 text: byte {raw[exc.start]:#04x} at line {line} "
                                 f"cannot be read (save the file as UTF-8)") from None
    return text.removeprefix(_BOM)


def read_json(path, source: str | None = None) -> Any:
    """Read a JSON file; unreadable or malformed files raise :class:`InputError`."""
    source = source or str(path)
    return parse_json(read_text(path, source), source)


def _too_deep(data: Any) -> bool:
    """Whether ``data`` nests arrays and objects more than :data:`MAX_DEPTH` levels deep
    (walked level by level without recursion, so any depth is measured safely)."""
    level, depth = [data], 1
    while level:
        if depth > MAX_DEPTH:
            return True
        below: list[Any] = []
        for value in level:
            below += [v for v in (value.values() if isinstance(value, dict) else value) if isinstance(v, (dict, list))]
        level, depth = below, depth + 1
    return False


def _lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate (``"\\ud800"`` in JSON) in ``text``, if any:
    such text cannot be written as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def parse_json(text: str, source: str) -> Any:
    def reject_constant(name: str):
        raise ValueError(f"{name} is not allowed")

    def finite(number: str) -> float:
        value = float(number)
        if value in (float("inf"), float("-inf")):
            raise ValueError(f"the number {number[:20]} is too large")
        return value

    text = text.removeprefix(_BOM)
    try:
        data = json.loads(text, parse_constant=reject_constant, parse_float=finite)
    except json.JSONDecodeError as exc:
        raise InputError(source, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:
        raise InputError(source, f"not valid JSON: {exc}") from None
    except RecursionError:
        raise InputError(source, f"not valid JSON here: nested too deeply (at most {MAX_DEPTH} levels)") from None
    if isinstance(data, (dict, list)) and _too_deep(data):
        raise InputError(source, f"not valid JSON here: nested more than {MAX_DEPTH} levels deep")
    if "\\u" in text and (_lone_surrogate(json.dumps(data, ensure_ascii=False)) is not None):
        raise InputError(source, "not valid JSON here: a \\u escape names half of a character "
                                 "(a lone surrogate), which is not text")
    return data


def dumps(data: Any) -> str:
    """The deterministic JSON text of ``data`` (sorted keys, UTF-8, newline at the end)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
