"""A quick yes/no check of JSON against our own schemas, so valid input never waits for
``jsonschema``.

``jsonschema`` is thorough and gives the detailed errors the messages are built from
(:mod:`pbem.service.explain`), but importing it and walking a game file with it costs
more than everything else a ``check`` or ``process`` does. Almost every file a referee
reads is valid, so :func:`compile_check` turns a schema into a plain Python predicate
that answers only "valid or not", for the keywords our schemas use, with
``jsonschema``'s Draft 2020-12 semantics (an integer may be written ``2.0``, ``true`` is
not ``1``, ``format`` is only a note). :func:`pbem.service.schemas.problems` asks it
first and runs ``jsonschema`` only when it says "not valid", so the error messages are
exactly what they were.

It fails safe: a schema with any keyword it does not know, or a ``$ref`` that is not to
the schema's own ``$defs``, gives ``None`` (no quick check; ``jsonschema`` decides), and
tests/test_quickcheck.py runs both over thousands of near-valid inputs and requires the
same answer every time.
"""

from __future__ import annotations

import re
from typing import Any, Callable

Check = Callable[[Any], bool]

_NOTES = frozenset({"description", "title", "$comment", "$schema", "$id", "default",
                    "examples", "format", "deprecated", "readOnly", "writeOnly", "$defs"})
_TYPES: dict[str, Callable[[Any], bool]] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool))
    or (isinstance(v, float) and v.is_integer()),
}


class Unsupported(Exception):
    """The schema uses something the quick check does not know."""


def equal(a: Any, b: Any) -> bool:
    """JSON equality as JSON Schema means it: ``1 == 1.0``, but ``true != 1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return a == b


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def compile_check(schema: Any) -> Check | None:
    """A predicate telling whether JSON data is valid against ``schema``, or ``None`` if
    the schema uses anything the quick check cannot answer for."""
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    compiled: dict[str, Check] = {}

    def ref(target: str) -> Check:
        prefix = "#/$defs/"
        if not target.startswith(prefix) or "/" in target[len(prefix):] or "~" in target:
            raise Unsupported(target)
        name = target[len(prefix):]
        if name not in defs:
            raise Unsupported(target)
        if name not in compiled:
            holder: list[Check] = []
            compiled[name] = lambda v: holder[0](v)  # recursion: filled in below
            holder.append(build(defs[name]))
            compiled[name] = holder[0]
        found = compiled[name]
        return lambda v: found(v)

    def build(node: Any) -> Check:
        if node is True or node == {}:
            return lambda v: True
        if node is False:
            return lambda v: False
        if not isinstance(node, dict):
            raise Unsupported(repr(node))
        checks: list[Check] = []
        for key, arg in node.items():
            if key in _NOTES or key in ("then", "else"):
                continue
            maker = _KEYWORDS.get(key)
            if maker is None:
                raise Unsupported(key)
            checks.append(maker(arg, node, build, ref))
        if len(checks) == 1:
            return checks[0]
        return lambda v: all(c(v) for c in checks)

    try:
        return build(schema)
    except (Unsupported, re.error, KeyError, TypeError, ValueError):
        return None


# One maker per keyword: (argument, the whole schema node, build, ref) -> check.

def _type(arg, node, build, ref) -> Check:
    names = [arg] if isinstance(arg, str) else list(arg)
    tests = [_TYPES[n] for n in names]
    return lambda v: any(t(v) for t in tests)


def _enum(arg, node, build, ref) -> Check:
    values = list(arg)
    return lambda v: any(equal(v, e) for e in values)


def _const(arg, node, build, ref) -> Check:
    return lambda v: equal(v, arg)


def _properties(arg, node, build, ref) -> Check:
    subs = {name: build(sub) for name, sub in arg.items()}

    def check(v):
        if not isinstance(v, dict):
            return True
        for name, sub in subs.items():
            if name in v and not sub(v[name]):
                return False
        return True
    return check


def _additional(arg, node, build, ref) -> Check:
    if "patternProperties" in node:
        raise Unsupported("patternProperties")
    known = set(node.get("properties", {}))
    sub = build(arg)

    def check(v):
        return not isinstance(v, dict) or all(sub(v[k]) for k in v if k not in known)
    return check


def _required(arg, node, build, ref) -> Check:
    names = list(arg)
    return lambda v: not isinstance(v, dict) or all(n in v for n in names)


def _property_names(arg, node, build, ref) -> Check:
    sub = build(arg)
    return lambda v: not isinstance(v, dict) or all(sub(k) for k in v)


def _min_properties(arg, node, build, ref) -> Check:
    return lambda v: not isinstance(v, dict) or len(v) >= arg


def _items(arg, node, build, ref) -> Check:
    if isinstance(arg, list):
        raise Unsupported("items as a list")
    sub = build(arg)
    skip = len(node.get("prefixItems", []))
    return lambda v: not isinstance(v, list) or all(sub(x) for x in v[skip:])


def _prefix_items(arg, node, build, ref) -> Check:
    subs = [build(s) for s in arg]
    return lambda v: not isinstance(v, list) or all(s(x) for s, x in zip(subs, v))


def _min_items(arg, node, build, ref) -> Check:
    return lambda v: not isinstance(v, list) or len(v) >= arg


def _max_items(arg, node, build, ref) -> Check:
    return lambda v: not isinstance(v, list) or len(v) <= arg


def _unique_items(arg, node, build, ref) -> Check:
    if not arg:
        return lambda v: True

    def check(v):
        if not isinstance(v, list):
            return True
        return not any(equal(v[i], v[j]) for i in range(len(v)) for j in range(i + 1, len(v)))
    return check


def _minimum(arg, node, build, ref) -> Check:
    return lambda v: not _number(v) or v >= arg


def _maximum(arg, node, build, ref) -> Check:
    return lambda v: not _number(v) or v <= arg


def _min_length(arg, node, build, ref) -> Check:
    return lambda v: not isinstance(v, str) or len(v) >= arg


def _max_length(arg, node, build, ref) -> Check:
    return lambda v: not isinstance(v, str) or len(v) <= arg


def _pattern(arg, node, build, ref) -> Check:
    search = re.compile(arg).search
    return lambda v: not isinstance(v, str) or search(v) is not None


def _all_of(arg, node, build, ref) -> Check:
    subs = [build(s) for s in arg]
    return lambda v: all(s(v) for s in subs)


def _any_of(arg, node, build, ref) -> Check:
    subs = [build(s) for s in arg]
    return lambda v: any(s(v) for s in subs)


def _one_of(arg, node, build, ref) -> Check:
    subs = [build(s) for s in arg]
    return lambda v: sum(1 for s in subs if s(v)) == 1


def _not(arg, node, build, ref) -> Check:
    sub = build(arg)
    return lambda v: not sub(v)


def _if(arg, node, build, ref) -> Check:
    test = build(arg)
    then = build(node.get("then", True))
    other = build(node.get("else", True))
    return lambda v: then(v) if test(v) else other(v)


def _ref(arg, node, build, ref) -> Check:
    return ref(arg)


_KEYWORDS: dict[str, Callable[..., Check]] = {
    "type": _type, "enum": _enum, "const": _const, "properties": _properties,
    "additionalProperties": _additional, "required": _required, "propertyNames": _property_names,
    "minProperties": _min_properties, "items": _items, "prefixItems": _prefix_items,
    "minItems": _min_items, "maxItems": _max_items, "uniqueItems": _unique_items,
    "minimum": _minimum, "maximum": _maximum, "minLength": _min_length, "maxLength": _max_length,
    "pattern": _pattern, "allOf": _all_of, "anyOf": _any_of, "oneOf": _one_of, "not": _not,
    "if": _if, "$ref": _ref,
}
