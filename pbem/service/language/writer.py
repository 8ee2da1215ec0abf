"""Orders written as text: the canonical text of canonical orders, one order per line, so
that an echo of the orders can be read, copied and sent again (docs/text-orders.md).

What is written reads back as it was: ``canonical_orders(parse_text_orders(
format_text_orders(o))) == o`` for every canonical ``o`` the syntax can write
(:func:`pbem.service.language.textorders.parse_text_orders`). What an edition adds (its
own order keys and standing orders, a wedge's other names) comes from
:func:`pbem.service.language.names.spelling`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.kernel.vocab import MOMENTS, RESOURCES, UNITS
from pbem.service.language.mailtext import clean_spaces
from pbem.service.language.names import spelling
from pbem.service.language.tokens import FILLERS, word_key

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition

_ID = re.compile(r"[a-z][a-z0-9_]*")


def _name(value: str) -> str:
    """An id as written: bare, or in quotes if it could be read as something else."""
    if _ID.fullmatch(value) and word_key(value) not in FILLERS:
        return value
    if '"' in value or "\n" in value:
        raise ValueError(f"the name {value!r} cannot be written in the text syntax")
    return f'"{value}"'


def _amount_text(counts: Mapping[str, int]) -> str:
    """``2 gold 1 coin``; units and coins in the plural unless one; ``nothing`` for none."""
    words = []
    for key, count in counts.items():
        word = key if key in RESOURCES or count == 1 else key + "s"
        words.append(f"{count} {word}")
    return " ".join(words) or "nothing"


_MOMENT_WORDS = {MOMENTS[0]: "before ", MOMENTS[1]: "after move ", MOMENTS[2]: "after "}
"""How the echo writes a trade's or a card's ``when``, right after the order word."""


def _pay(entry: Mapping[str, Any]) -> str:
    return f" pay {_amount_text(entry['pay'])}" if "pay" in entry else ""


def _units(unit: str, count: int | None) -> str:
    return f"{count} {unit}" if count == 1 else f"{'' if count is None else f'{count} '}{unit}s"


def _step_text(step: Mapping[str, Any]) -> str:
    if "move" in step:
        path = " -> ".join(_name(p) for p in step["path"])
        return f"move {_units(step['move'], step['count'])} {_name(step['from'])} -> {path}"
    if "battle" in step:
        return (f"battle {_units(step['battle'], step.get('count'))} at {_name(step['at'])} "
                f"against {_name(step['against'])}")
    text = f"conquer {_name(step['conquer'])}"
    if "with" in step:
        text += f" with {_amount_text(step['with'])}"
    if "give_up" in step:
        text += f" give up {_name(step['give_up'])}"
    return text


def _card_text(word: str, entry: Mapping[str, Any]) -> str:
    """``play after move academy``, ``play levy at carthago legion``: an event card."""
    text = f"{word} {_MOMENT_WORDS[entry['when']] if 'when' in entry else ''}{_name(entry['play'])}"
    for key in ("city", "at"):
        if key in entry:
            text += f" at {_name(entry[key])}"
    if "unit" in entry:
        text += f" {entry['unit']}"
    if "to" in entry:
        text += f" to {_name(entry['to'])}"
    if "cards" in entry:
        text += " cards " + " ".join(_name(c) for c in entry["cards"])
    return text


def _raw(key: str, value: str) -> str:
    """The ``game`` or ``password`` line (the rest of the line is the value)."""
    if value != value.strip() or not value or clean_spaces(value) != value or (
            key == "game" and re.search(r"\s#", value)):
        raise ValueError(f"the {key} {value!r} cannot be written in the text syntax (it starts or "
                         "ends with a space, holds a line break, a tab or another kind of space, "
                         "or a comment)")
    return f"{key}: {value}" if value.startswith(":") else f"{key} {value}"


def _standing_lines(standing: Mapping[str, Any], own: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The standing orders' lines; ``own``: the edition's own standing orders that text
    orders can write, with their forms (:attr:`Spelling.standing
    <pbem.service.language.names.Spelling.standing>`)."""
    extra = [k for k in standing if k not in ("battle", "bonus_stack", "coin_substitute", *own)]
    if extra:
        raise ValueError(f"the standing order(s) {', '.join(extra)} cannot be written in the text syntax")
    lines = [f"standing battle {_name(key)} {stance}" for key, stance in standing.get("battle", {}).items()]
    if "bonus_stack" in standing:
        lines.append("standing bonus " + " ".join(_name(p) for p in standing["bonus_stack"]))
    if "coin_substitute" in standing:
        lines.append(f"standing coin {standing['coin_substitute']}")
    for key, spec in own.items():  # an edition's own, in the order it gives them
        if key not in standing:
            continue
        if spec["form"] == "choice":
            lines.append(f"standing {key} {standing[key]}")
        else:
            lines.append(f"standing {key} " + (" ".join(_name(c) for c in standing[key]) or "nothing"))
    return lines


def _own_lines(word: str, spec: Mapping[str, Any], value: Any) -> list[str]:
    """The lines of an order key of the edition's own, written by its form."""
    if spec["form"] == "card":
        return [_card_text(word, e) for e in value]
    if spec["form"] == "cities":
        return [f"{word} {_name(e['city'])}{_pay(e)}" for e in value]
    units = {u: value[u] for u in UNITS if u in value}
    return [f"{word} {_amount_text(units)}{_pay(value)}"]


def format_text_orders(orders: Mapping[str, Any], edition: Edition, board: Board) -> str:
    """The canonical text of CANONICAL ``orders`` (the output of
    :func:`~pbem.kernel.orders.canonical_orders`): ids for every name, one order per line,
    in the canonical key order, with a newline at the end; the password line only if the
    orders have a password.

    ``canonical_orders(parse_text_orders(format_text_orders(o))) == o`` for every canonical
    ``o`` the syntax can write, and formatting is stable under a round trip; a wedge named
    by another name the edition accepts (a wedge of the first edition's name) is written
    by the edition's own, and a trade getting ``{"iron": 1}`` as ``for iron``. Raises
    ``ValueError`` for orders it cannot write: an edition's own order keys or standing
    orders, a game id or password that starts or ends with a space or spans lines.
    """
    words = spelling(edition)
    lines: list[str] = []
    keys = [k for k in words.order_keys if k in orders] + [k for k in orders if k not in words.order_keys]
    for key in keys:
        value = orders[key]
        if key in ("game", "password"):
            lines.append(_raw(key, value))
        elif key == "nation":
            lines.append(f"nation {_name(value)}")
        elif key == "turn":
            lines.append(f"turn {value}")
        elif key == "trade":
            lines += [f"trade {_MOMENT_WORDS[t['when']] if 'when' in t else ''}{_amount_text(t['give'])} for "
                      + (t["get"] if isinstance(t["get"], str) else _amount_text(t["get"])) for t in value]
        elif key == "rondel":
            steps = f" steps {value['steps']}" if "steps" in value else ""
            # the edition's own wedge name for a name it accepts as another (an older edition's)
            wedge = words.wedges.get(value["to"], value["to"])
            lines.append(f"rondel {_name(wedge)}{steps}{_pay(value)}")
        elif key == "temples":
            lines += [f"temple {_name(t['city'])}{_pay(t)}" for t in value]
        elif key == "arm":
            lines += [f"arm {_units(a['unit'], a['count'])} at {_name(a['at'])}{' free' if a.get('free') else ''}"
                      f"{_pay(a)}" for a in value]
        elif key == "knowhow":
            lines += [f"knowhow {_name(k['name'])}{_pay(k)}" for k in value]
        elif key == "maneuver":
            lines += [_step_text(step) for step in value]
        elif key == "found":
            lines += [f"found {_name(f['city'])}{' as ' + f['resource'] if f.get('resource') else ''}{_pay(f)}"
                      for f in value]
        elif key == "standing":
            lines += _standing_lines(value, words.standing)
        elif key in words.own:
            lines += _own_lines(*words.own[key], value)
        else:
            raise ValueError(f"'{key}' orders belong to the edition {words.edition_id} and cannot be written "
                             "in the text syntax")
    return "\n".join(lines) + "\n"
