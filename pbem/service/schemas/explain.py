"""Schema violations in a player's words: what is wrong, where, and what would be right.

``jsonschema`` words its errors for programmers ("'x' does not match '^[a-z][a-z0-9_]*$'",
"... is not valid under any of the given schemas"). :func:`explain` turns one error into a
sentence a player can act on: the valid names when a name is unknown, with the closest
ones first ("did you mean 'phoenicians'?"), the keys allowed where an unknown key stands,
the kind of value wanted where a value has the wrong type, and never a regular expression.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from typing import Any

TYPES = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a name or text in double quotes",
    "object": "an object in braces { }",
    "array": "a list in brackets [ ]",
    "boolean": "true or false",
    "null": "null",
}

ID_PATTERNS = {"^[a-z][a-z0-9_]*$", "^[a-z][a-z0-9_-]*$"}
"""Patterns of ids: lowercase letters, digits and ``_``."""


def closest(word: Any, choices: Iterable[str]) -> list[str]:
    """Up to three of ``choices`` spelled most like ``word`` (none if none is close)."""
    if not isinstance(word, str):
        return []
    choices = list(choices)
    lowered = {c.lower(): c for c in choices}
    return [lowered[m] for m in difflib.get_close_matches(word.lower(), list(lowered), n=3, cutoff=0.6)]


def did_you_mean(word: Any, choices: Iterable[str]) -> str:
    near = closest(word, choices)
    return f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""


def _shown(value: Any, limit: int = 40) -> str:
    text = repr(value) if isinstance(value, str) else _json(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json(value: Any) -> str:
    import json

    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _listing(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values)


def explain(err: Any, nouns: Mapping[frozenset, str]) -> str:
    """One ``jsonschema`` error as a sentence; ``nouns`` names the vocabularies (the set of
    nation ids -> ``"nation"``, ...) so that an unknown name is called what it is."""
    kind = err.validator
    value = err.instance
    spec = err.validator_value
    schema = err.schema if isinstance(err.schema, Mapping) else {}
    if kind == "enum":
        return _not_a_choice(value, list(spec), nouns)
    if kind == "const":
        return f"must be {_shown(spec)}, not {_shown(value)}"
    if kind == "additionalProperties" and isinstance(value, Mapping):
        return _unknown_keys(value, list(schema.get("properties", {})), nouns)
    if kind == "required":
        return _missing_keys(value, spec, schema)
    if kind == "type":
        wanted = [spec] if isinstance(spec, str) else list(spec)
        words = " or ".join(TYPES.get(t, t) for t in wanted)
        return f"must be {words}, not {_shown(value)}"
    if kind in _SIZES or (kind == "minProperties" and isinstance(value, Mapping)):
        return _size(kind, value, spec)
    if kind == "pattern":
        return _not_in_form(value, spec)
    if kind in ("oneOf", "anyOf"):
        return _alternatives(err, nouns)
    if kind == "not":
        return f"{_shown(value)} is not allowed here"
    return err.message


def _not_a_choice(value: Any, choices: list[Any], nouns: Mapping[frozenset, str]) -> str:
    """``enum``: a value that is none of ``choices``, with the closest ones first."""
    noun = nouns.get(frozenset(map(str, choices)))
    what = f"a known {noun}" if noun else "one of the allowed values"
    if not isinstance(value, str):
        return f"{_shown(value)} is not {what}: write one of {_listing(choices)}"
    return f"{_shown(value)} is not {what}{did_you_mean(value, map(str, choices))} (one of: {_listing(choices)})"


def _unknown_keys(value: Mapping[str, Any], allowed: list[str], nouns: Mapping[frozenset, str]) -> str:
    """``additionalProperties``: each key of ``value`` that is not ``allowed``, called what
    the allowed keys are (a nation, ...) where ``nouns`` knows."""
    unknown = [k for k in value if k not in allowed]
    noun = nouns.get(frozenset(a for a in allowed if a != "default"))
    parts = []
    for key in unknown:
        if noun:
            parts.append(f"{_shown(key)} is not a {noun} in this game{did_you_mean(key, allowed)}")
        else:
            parts.append(f"{_shown(key)} is not a key that belongs here{did_you_mean(key, allowed)}")
    return "; ".join(parts) + f" (allowed here: {_listing(allowed)})"


def _missing_keys(value: Any, spec: Any, schema: Mapping[str, Any]) -> str:
    """``required``: the keys missing, and a key written that looks like a misspelling of one."""
    missing = [k for k in spec if isinstance(value, Mapping) and k not in value]
    near = []
    if isinstance(value, Mapping):
        near = [k for k in value if k not in schema.get("properties", {}) and closest(k, missing)]
    written = f" ({', '.join(_shown(k) for k in near)} looks like a misspelling)" if near else ""
    names = " and ".join(repr(k) for k in missing) or _listing(spec)
    return f"{names} {'is' if len(missing) == 1 else 'are'} missing here{written}; needed: {_listing(spec)}"


_BOUNDS = {"minimum": "at least", "exclusiveMinimum": "more than",
           "maximum": "at most", "exclusiveMaximum": "less than"}
_SIZES = frozenset({*_BOUNDS, "minLength", "maxLength", "minItems", "maxItems", "uniqueItems"})
"""The keywords :func:`_size` words (and ``minProperties``, of an object)."""


def _size(kind: str, value: Any, spec: Any) -> str:
    """A number out of bounds, a text too short or too long, a list or an object with too
    few or too many entries, or a list that names an entry twice."""
    if kind in _BOUNDS:
        return f"must be {_BOUNDS[kind]} {spec}, not {_shown(value)}"
    if kind == "minLength":
        return "must not be empty" if spec == 1 else f"must be at least {spec} characters long"
    if kind == "maxLength":
        return f"is too long: at most {spec} characters"
    if kind == "minProperties":
        named = f"names only {_listing(_shown(k) for k in value)}" if value else "is empty"
        return f"{named}, but needs at least {spec} key{'' if spec == 1 else 's'}"
    if kind == "minItems":
        return "must not be an empty list" if spec == 1 else f"must list at least {spec} entries"
    if kind == "maxItems":
        return f"lists too many entries: at most {spec}"
    return "names the same entry twice; each may appear once"


def _not_in_form(value: Any, spec: Any) -> str:
    """``pattern``: an id written otherwise than as ids are (with the id it could be), a
    blank text, or another text not in the expected form (never the regular expression)."""
    if spec in ID_PATTERNS and isinstance(value, str):
        suggestion = "_".join(value.strip().lower().replace("-", " ").split())
        example = f" (for example {suggestion!r})" if re.fullmatch(r"[a-z][a-z0-9_]*", suggestion) else ""
        return (f"{_shown(value)} is not written as a name the referee knows: names are written in "
                f"lowercase letters and digits with _ for a space{example}")
    if spec == "\\S":
        return "must not be blank"
    return f"{_shown(value)} is not in the expected form"


def _alternatives(err: Any, nouns: Mapping[frozenset, str]) -> str:
    """A value that fits none (or several) of a ``oneOf``: name the keys that tell the
    alternatives apart if there are such, else explain the closest alternative's problem."""
    value = err.instance
    branches = err.validator_value
    keys = [b["required"][0] for b in branches if isinstance(b, Mapping) and len(b.get("required", ())) == 1]
    if not isinstance(value, Mapping) and keys and len(keys) == len(branches):
        return ""  # not an object at all: the type error beside this one says so
    if isinstance(value, Mapping) and keys and len(keys) == len(branches):
        present = [k for k in keys if k in value]
        if len(present) > 1:
            return f"has both {' and '.join(repr(k) for k in present)}: each entry does one thing; split it in two"
        guesses = [k for k in value if closest(k, keys)]
        hint = (f" ({', '.join(repr(k) for k in guesses)}: did you mean "
                f"{' or '.join(repr(c) for g in guesses for c in closest(g, keys))}?)") if guesses else ""
        return f"must start with one of the keys {_listing(keys)}{hint}"
    from jsonschema.exceptions import best_match

    best = best_match(err.context) if err.context else None
    if best is None:
        return f"{_shown(value)} is not in any of the allowed forms"
    return explain(best, nouns)
