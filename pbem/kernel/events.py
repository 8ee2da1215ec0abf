"""The shape of the events a turn records: which fields each kind of event has.

Events are written by the rules (:meth:`Turn.emit <pbem.kernel.turn.Turn.emit>`, the bank,
the round) and read back from a game file's history by everyone who tells them (the turn
log of ``check`` and ``process``, ``history``, the reports, the mails). A game file is
only checked by its hash chain when it is replayed (``verify``), so what is read back is
checked against this table first (:func:`event_problems`): a hand-edited or damaged event
is named by its JSON path instead of breaking whatever tells it.

An event of an edition's own kind is checked as the edition describes it
(:attr:`Edition.event_kinds <pbem.kernel.edition.Edition.event_kinds>`); one of a kind
nobody describes needs only its ``type``, and a ``nation``, if it names one, must be a nation
of the game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from types import MappingProxyType
from typing import Any

INT, BOOL, TEXT, NATION, PROVINCE, ROUTE, CHIPS, STANDING, CHIP_OR_CHIPS = (
    "an integer", "true or false", "a text", "a nation of this game", "a province of this board",
    "a list of provinces of this board", "an object of chips and counts", "an object of standing orders",
    "a chip's name or an object of chips and counts")

EVENTS: dict[str, dict[str, str]] = {
    "round": {"round": INT},
    "coin": {"nation": NATION, "coin": INT, "reason?": TEXT, "instead?": TEXT},
    "rondel": {"nation": NATION, "from": INT + "?", "to": INT, "wedge": TEXT, "steps": INT,
               "paid": CHIPS, "first": BOOL},
    "produce": {"nation": NATION, "resource": TEXT, "amount": INT},
    "standing": {"nation": NATION, "standing": STANDING},
    "temple": {"nation": NATION, "city": PROVINCE, "paid": CHIPS},
    "arm": {"nation": NATION, "unit": TEXT, "at": PROVINCE, "count": INT, "paid": CHIPS, "free?": INT},
    "knowhow": {"nation": NATION, "name": TEXT, "price": INT, "paid": CHIPS, "first": BOOL},
    "found": {"nation": NATION, "city": PROVINCE, "paid": CHIPS, "resource?": TEXT},
    "trade": {"nation": NATION, "give": CHIPS, "get": CHIP_OR_CHIPS},
    "move": {"nation": NATION, "unit": TEXT, "count": INT, "from": PROVINCE, "path": ROUTE, "to": PROVINCE,
             "arrived": INT},
    "battle": {"nation": NATION, "at": PROVINCE, "unit": TEXT, "against": NATION, "count": INT,
               "started_by": NATION},
    "conquer": {"nation": NATION, "city": PROVINCE, "defender": NATION + "?", "defence": INT, "used": CHIPS,
                "temple_destroyed": BOOL, "give_up?": PROVINCE + "?", "neutral_temple?": BOOL},
    "personage": {"nation": NATION, "personage": TEXT, "reason": TEXT},
    "personage-missed": {"nation": NATION, "personage": TEXT, "reason": TEXT},
    "won": {"nation": NATION, "score": INT, "goal": INT, "reason?": TEXT},
    "player-replaced": {"nation": NATION, "player": TEXT + "?"},
}
"""Each kind of event every edition shares: its fields and what each holds. A name ending in
``?`` may be left out; a kind ending in ``?`` may also be ``null``. An edition describes its
own kinds the same way (:attr:`Edition.event_kinds <pbem.kernel.edition.Edition.event_kinds>`)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_CHECKS = {
    INT: lambda v, nations, provinces: _is_int(v),
    BOOL: lambda v, nations, provinces: isinstance(v, bool),
    TEXT: lambda v, nations, provinces: isinstance(v, str),
    NATION: lambda v, nations, provinces: isinstance(v, str) and v in nations,
    PROVINCE: lambda v, nations, provinces: isinstance(v, str) and v in provinces,
    ROUTE: lambda v, nations, provinces: isinstance(v, list) and all(
        isinstance(p, str) and p in provinces for p in v),
    CHIPS: lambda v, nations, provinces: isinstance(v, dict) and all(_is_int(n) for n in v.values()),
    CHIP_OR_CHIPS: lambda v, nations, provinces: isinstance(v, str) or (
        isinstance(v, dict) and all(_is_int(n) for n in v.values())),
    STANDING: lambda v, nations, provinces: _standing_ok(v),
}


def _value_problem(value: Any, kind: str, nations: Collection[str], provinces: Collection[str]) -> str | None:
    """What is wrong with ``value`` as ``kind``, or ``None``."""
    if kind.endswith("?"):
        if value is None:
            return None
        kind = kind[:-1]
    return None if _CHECKS[kind](value, nations, provinces) else f"must be {kind}"


def _standing_ok(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    battle = value.get("battle", "")
    if not (isinstance(battle, str) or (isinstance(battle, dict) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in battle.items()))):
        return False
    stack = value.get("bonus_stack", [])
    return (isinstance(stack, list) and all(isinstance(p, str) for p in stack)
            and isinstance(value.get("coin_substitute", ""), str))


def event_problems(event: Any, path: str, nations: Collection[str], provinces: Collection[str],
                   own: Mapping[str, Mapping[str, str]] = MappingProxyType({})) -> list[tuple[str, str]]:
    """Everything wrong with one recorded event, as (JSON path, message) pairs; ``own``:
    the kinds of the game's edition (:attr:`Edition.event_kinds
    <pbem.kernel.edition.Edition.event_kinds>`)."""
    if not isinstance(event, dict):
        return [(path, "an event must be an object")]
    kind = event.get("type")
    if not isinstance(kind, str):
        return [(f"{path}.type", "an event's type must be a text")]
    fields = EVENTS.get(kind) or own.get(kind) or {"nation?": NATION}
    out = []
    for name, what in fields.items():
        key = name.rstrip("?")
        if key not in event:
            if not name.endswith("?"):
                out.append((path, f"a {kind!r} event needs {key!r}"))
            continue
        problem = _value_problem(event[key], what, nations, provinces)
        if problem:
            out.append((f"{path}.{key}", f"{problem} (in a {kind!r} event)"))
    if kind == "coin" and not out and not event["coin"] and not isinstance(event.get("instead"), str):
        out.append((path, "a 'coin' event without a coin must say what was taken 'instead'"))
    return out
