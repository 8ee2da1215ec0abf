"""JSON Schema validation (Draft 2020-12) for the project's file kinds.

``jsonschema`` is imported lazily: it is heavy and most commands need it only once.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from pbem.errors import InputError, Problem
from pbem.paths import schema_path

KINDS = ("game", "orders", "edit", "map")


def load_schema(kind: str) -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown schema kind {kind!r}")
    with open(schema_path(kind), encoding="utf-8") as fh:
        return json.load(fh)


@cache
def _validator(kind: str):
    from jsonschema import Draft202012Validator

    schema = load_schema(kind)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _sort_key(err) -> tuple:
    return (list(map(str, err.absolute_path)), err.message)


def problems(kind: str, data: Any) -> list[Problem]:
    """Every schema violation of ``data`` as a :class:`Problem`, in a stable order."""
    errors = sorted(_validator(kind).iter_errors(data), key=_sort_key)
    return [Problem(err.json_path, err.message) for err in errors]


def validate(kind: str, data: Any, source: str) -> None:
    """Raise :class:`InputError` naming ``source`` and the JSON path if ``data`` is invalid."""
    found = problems(kind, data)
    if found:
        raise InputError(source, found)


def read_json(path, source: str | None = None) -> Any:
    """Read a JSON file; unreadable or malformed files raise :class:`InputError`."""
    source = source or str(path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise InputError(source, "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(source, f"cannot read file: {exc}") from None
    return parse_json(text, source)


def parse_json(text: str, source: str) -> Any:
    def reject_constant(name: str):
        raise ValueError(f"{name} is not allowed")

    try:
        return json.loads(text, parse_constant=reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(source, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValueError as exc:
        raise InputError(source, f"not valid JSON: {exc}") from None


def dumps(data: Any) -> str:
    """The deterministic JSON text of ``data`` (sorted keys, UTF-8, newline at the end)."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
