"""A quick yes/no check of JSON against our own schemas, so valid input never waits for
``jsonschema``.

``jsonschema`` is thorough and gives the detailed errors the messages are built from
(:mod:`pbem.service.schemas.explain`), but importing it and walking a game file with it costs
more than everything else a ``check`` or ``process`` does. Almost every file a referee
reads is valid, so :func:`compile_check` turns a schema into a plain Python predicate
(generated Python source, compiled once) that answers only "valid or not", for the keywords our schemas use, with
``jsonschema``'s Draft 2020-12 semantics (an integer may be written ``2.0``, ``true`` is
not ``1``, ``format`` is only a note). :func:`pbem.service.schemas.problems` asks it
first and runs ``jsonschema`` only when it says "not valid", so the error messages are
exactly what they were.

It fails safe: a schema with any keyword it does not know, or a ``$ref`` that is not to
the schema's own ``$defs``, gives ``None`` (no quick check; ``jsonschema`` decides), and
tests/service/test_quickcheck.py runs both over thousands of near-valid inputs and requires the
same answer every time.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Check = Callable[[Any], bool]

_NOTES = frozenset({"description", "title", "$comment", "$schema", "$id", "default",
                    "examples", "format", "deprecated", "readOnly", "writeOnly", "$defs"})
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
    the schema uses anything the quick check cannot answer for.

    The schema is turned into Python source, one function per schema node that is more
    than a type or a name list (those are written inline), and compiled once: about three
    times faster than a tree of closures, which matters when ``verify`` checks every order
    of a long history."""
    try:
        gen = _Source(schema)
        entry = gen.function(schema)
        namespace = dict(gen.values)
        exec(_compiled("\n".join(gen.lines)), namespace)  # our own generated code
        return namespace[entry]
    except (Unsupported, re.error, KeyError, TypeError, ValueError):
        return None


def cache_dir() -> Path | None:
    """Where compiled quick checks are kept between runs, as Python keeps ``.pyc`` files:
    ``$ANTIKE_REF_CACHE`` (``off`` for nowhere), else ``$XDG_CACHE_HOME/antike-ref``, else
    ``~/.cache/antike-ref``."""
    chosen = os.environ.get("ANTIKE_REF_CACHE")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "none") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "antike-ref"


def _compiled(source: str):
    """``source`` compiled, from the cache when this Python compiled the same source
    before (compiling the game schema's checks costs about 8 ms of every command's
    start). The cache is only a shortcut: a missing, unreadable or damaged file, or a
    folder that cannot be written, just means compiling."""
    import hashlib
    import marshal

    key = hashlib.sha256(f"{sys.version}\0{source}".encode()).hexdigest()[:40]
    folder = cache_dir()
    path = folder / f"quickcheck-{key}.marshal" if folder is not None else None
    if path is not None:
        try:
            return marshal.loads(path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            pass
    code = compile(source, "<quickcheck>", "exec")
    if folder is not None and path is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            temp.write_bytes(marshal.dumps(code))
            os.replace(temp, path)
        except OSError:
            pass
    return code


_TYPE_TESTS = {
    "null": "{v} is None",
    "boolean": "{v}.__class__ is bool",
    "string": "isinstance({v}, str)",
    "array": "isinstance({v}, list)",
    "object": "isinstance({v}, dict)",
    "number": "(isinstance({v}, (int, float)) and {v}.__class__ is not bool)",
    "integer": "((isinstance({v}, int) and {v}.__class__ is not bool) "
               "or (isinstance({v}, float) and {v}.is_integer()))",
}
_VALUE_KEYWORDS = frozenset({"type", "enum", "const", "$ref"})
_OBJECT_KEYWORDS = frozenset({"required", "properties", "additionalProperties", "propertyNames", "minProperties"})
_ARRAY_KEYWORDS = frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems"})
_SCALAR_KEYWORDS = frozenset({"minimum", "maximum", "minLength", "maxLength", "pattern"})
_LOGIC_KEYWORDS = frozenset({"allOf", "anyOf", "oneOf", "not", "if"})
_KNOWN = _VALUE_KEYWORDS | _OBJECT_KEYWORDS | _ARRAY_KEYWORDS | _SCALAR_KEYWORDS | _LOGIC_KEYWORDS | {"then", "else"}


class _Source:
    """Python source for a schema: ``lines`` to run, ``values`` the constants they name."""

    def __init__(self, schema: Any):
        self.defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
        self.lines: list[str] = []
        self.values: dict[str, Any] = {"_equal": equal, "_number": _number}
        self.refs: dict[str, str] = {}
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def value(self, value: Any) -> str:
        name = self.name("c")
        self.values[name] = value
        return name

    def ref(self, target: str) -> str:
        prefix = "#/$defs/"
        if not isinstance(target, str) or not target.startswith(prefix) or "/" in target[len(prefix):] \
                or "~" in target:
            raise Unsupported(str(target))
        key = target[len(prefix):]
        if key not in self.defs:
            raise Unsupported(target)
        if key not in self.refs:
            self.refs[key] = self.name("d")  # named first: a definition may refer to itself
            self.function(self.defs[key], self.refs[key])
        return self.refs[key]

    def test(self, node: Any, v: str) -> str:
        """A Python expression: whether ``v`` is valid against ``node``."""
        if node is True or node == {}:
            return "True"
        if node is False:
            return "False"
        if not isinstance(node, dict):
            raise Unsupported(repr(node))
        keys = set(node) - _NOTES
        if keys == {"type"} and isinstance(node["type"], str):
            return _TYPE_TESTS[node["type"]].format(v=v)
        if keys == {"$ref"}:
            return f"{self.ref(node['$ref'])}({v})"
        if keys <= {"type", "enum"} and "enum" in keys and _names(node["enum"]):
            return f"(isinstance({v}, str) and {v} in {self.value(frozenset(node['enum']))})"
        return f"{self.function(node)}({v})"

    def function(self, node: Any, name: str | None = None) -> str:
        """Write a function for ``node``; return its name."""
        name = name or self.name("f")
        if not isinstance(node, dict):
            self.lines += [f"def {name}(v):", f"    return {self.test(node, 'v')}"]
            return name
        unknown = set(node) - _NOTES - _KNOWN
        if unknown:
            raise Unsupported(sorted(unknown)[0])
        body: list[str] = []
        order = sorted((k for k in node if k in _KNOWN and k not in ("then", "else")),
                       key=lambda k: _COST.get(k, 1))
        for key in order:
            body += self.keyword(key, node[key], node)
        self.lines += [f"def {name}(v):", *[f"    {line}" for line in body], "    return True"]
        return name

    def keyword(self, key: str, arg: Any, node: dict[str, Any]) -> list[str]:
        """Lines that ``return False`` when ``v`` fails ``key``."""
        if key in _VALUE_KEYWORDS:
            return self.value_keyword(key, arg)
        if key in _OBJECT_KEYWORDS:
            return self.object_keyword(key, arg, node)
        if key in _ARRAY_KEYWORDS:
            return self.array_keyword(key, arg, node)
        if key in _SCALAR_KEYWORDS:
            return self.scalar_keyword(key, arg)
        if key in _LOGIC_KEYWORDS:
            return self.logic_keyword(key, arg, node)
        raise Unsupported(key)

    def value_keyword(self, key: str, arg: Any) -> list[str]:
        """``type``, ``enum``, ``const``, ``$ref``: what ``v`` is."""
        if key == "type":
            names = [arg] if isinstance(arg, str) else list(arg)
            return [f"if not ({' or '.join(_TYPE_TESTS[n].format(v='v') for n in names)}): return False"]
        if key == "enum":
            values = list(arg)
            if _names(values):
                return [f"if not (isinstance(v, str) and v in {self.value(frozenset(values))}): return False"]
            return [f"if not any(_equal(v, e) for e in {self.value(values)}): return False"]
        if key == "const":
            return [f"if not _equal(v, {self.value(arg)}): return False"]
        return [f"if not {self.ref(arg)}(v): return False"]

    def object_keyword(self, key: str, arg: Any, node: dict[str, Any]) -> list[str]:
        """``required``, ``properties``, ``additionalProperties``, ``propertyNames``,
        ``minProperties``: what an object holds."""
        if key == "required":
            names = list(arg)
            if not names:
                return []
            return [f"if isinstance(v, dict) and not ({' and '.join(f'{n!r} in v' for n in names)}): return False"]
        if key == "properties":
            lines = ["if isinstance(v, dict):"]
            for prop, sub in arg.items():
                test = self.test(sub, "x")
                if test == "True":
                    continue
                lines += [f"    x = v.get({prop!r}, _missing)",
                          f"    if x is not _missing and not ({test}): return False"]
            self.values["_missing"] = _MISSING
            return lines if len(lines) > 1 else []
        if key == "additionalProperties":
            return self.additional(arg, node)
        if key == "propertyNames":
            return ["if isinstance(v, dict):",
                    "    for x in v:",
                    f"        if not ({self.test(arg, 'x')}): return False"]
        return [f"if isinstance(v, dict) and len(v) < {int(arg)}: return False"]

    def additional(self, arg: Any, node: dict[str, Any]) -> list[str]:
        """``additionalProperties``: the keys ``properties`` does not name."""
        if "patternProperties" in node:
            raise Unsupported("patternProperties")
        known = self.value(frozenset(node.get("properties", {})))
        test = self.test(arg, "x")
        if test == "True":
            return []
        if test == "False":
            return [f"if isinstance(v, dict) and not {known}.issuperset(v): return False"]
        return ["if isinstance(v, dict):",
                "    for k, x in v.items():",
                f"        if k not in {known} and not ({test}): return False"]

    def array_keyword(self, key: str, arg: Any, node: dict[str, Any]) -> list[str]:
        """``items``, ``prefixItems``, ``minItems``, ``maxItems``, ``uniqueItems``: what a
        list holds."""
        if key == "items":
            if isinstance(arg, list):
                raise Unsupported("items as a list")
            skip = len(node.get("prefixItems", []))
            return ["if isinstance(v, list):",
                    f"    for x in (v[{skip}:] if {skip} else v):",
                    f"        if not ({self.test(arg, 'x')}): return False"]
        if key == "prefixItems":
            lines = ["if isinstance(v, list):"]
            for i, sub in enumerate(arg):
                lines.append(f"    if len(v) > {i} and not ({self.test(sub, f'v[{i}]')}): return False")
            return lines
        if key == "minItems":
            return [f"if isinstance(v, list) and len(v) < {int(arg)}: return False"]
        if key == "maxItems":
            return [f"if isinstance(v, list) and len(v) > {int(arg)}: return False"]
        if not arg:
            return []
        return ["if isinstance(v, list) and any(_equal(v[i], v[j]) for i in range(len(v)) "
                "for j in range(i + 1, len(v))): return False"]

    def scalar_keyword(self, key: str, arg: Any) -> list[str]:
        """``minimum``, ``maximum``, ``minLength``, ``maxLength``, ``pattern``: bounds of a
        number or a string."""
        if key in ("minimum", "maximum"):
            if not _number(arg):
                raise Unsupported(f"{key} {arg!r}")
            op = "<" if key == "minimum" else ">"
            return [f"if _number(v) and v {op} {self.value(arg)}: return False"]
        if key in ("minLength", "maxLength"):
            op = "<" if key == "minLength" else ">"
            return [f"if isinstance(v, str) and len(v) {op} {int(arg)}: return False"]
        return [f"if isinstance(v, str) and {self.value(re.compile(arg).search)}(v) is None: return False"]

    def logic_keyword(self, key: str, arg: Any, node: dict[str, Any]) -> list[str]:
        """``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if`` (with ``then`` and ``else``):
        schemas combined."""
        if key == "allOf":
            return [f"if not ({self.test(sub, 'v')}): return False" for sub in arg]
        if key == "anyOf":
            return [f"if not ({' or '.join(self.test(sub, 'v') for sub in arg) or 'False'}): return False"]
        if key == "oneOf":
            tests = [self.test(sub, "v") for sub in arg]
            return [f"if ({' + '.join(f'bool({t})' for t in tests) or '0'}) != 1: return False"]
        if key == "not":
            return [f"if {self.test(arg, 'v')}: return False"]
        test = self.test(arg, "v")
        then = self.test(node.get("then", True), "v")
        other = self.test(node.get("else", True), "v")
        return [f"if ({then} if {test} else {other}) is False: return False"
                .replace(" is False: return False", " is not True: return False")]

_MISSING = object()


def _names(values: Any) -> bool:
    return isinstance(values, list) and bool(values) and all(isinstance(e, str) for e in values)


_COST = {"type": 0, "const": 0, "enum": 0, "required": 0, "minProperties": 0, "minItems": 0,
         "maxItems": 0, "minLength": 0, "maxLength": 0, "minimum": 0, "maximum": 0,
         "properties": 2, "additionalProperties": 2, "items": 2, "prefixItems": 2,
         "propertyNames": 2, "uniqueItems": 2, "oneOf": 3, "anyOf": 3, "allOf": 3, "if": 3, "not": 3}
"""How costly a keyword's test is, to run the cheap ones first (others: 1)."""
