"""Order files and GM edit files in canonical form: shorthands expanded, keys in order.

This is the step after *parse*: data that has the right shape (the edition's order or
edit schema, checked where files are read) gets one canonical form, so the turn never sees
a shorthand; whether the orders fit the game (board, turn, wedge, costs) is the turn's
business. The canonical form is also what ``check`` echoes back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from pbem.kernel.vocab import PAYMENT_KEYS, RESOURCES, UNITS

if TYPE_CHECKING:
    from pbem.kernel.protocols import EditionView

ORDER_KEYS: tuple[str, ...] = (
    "game", "nation", "turn", "password", "trade", "rondel",
    "temples", "arm", "knowhow", "maneuver", "found", "standing",
)
"""Keys of a canonical order file, in the order they are written."""


def _amounts(counts: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, int]:
    """The named counts in vocabulary order; integral floats (``2.0``) become ints."""
    return {key: int(counts[key]) for key in keys if key in counts}


def _with_pay(entry: dict[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """Add ``source``'s payment to ``entry`` if it has one; a missing one stays missing."""
    if "pay" in source:
        entry["pay"] = _amounts(source["pay"], PAYMENT_KEYS)
    return entry


def _trade(trades: list[Any]) -> list[dict[str, Any]]:
    """Trades; ``get`` stays a chip's name, or the chips received in resource order;
    ``when`` is kept as given (without it, the trade is made before the rondel move)."""
    out = []
    for t in trades:
        entry = {"give": _amounts(t["give"], RESOURCES),
                 "get": t["get"] if isinstance(t["get"], str) else _amounts(t["get"], RESOURCES)}
        if "when" in t:
            entry["when"] = t["when"]
        out.append(entry)
    return out


def _rondel(rondel: str | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(rondel, str):
        return {"to": rondel}
    move: dict[str, Any] = {"to": rondel["to"]}
    if "steps" in rondel:
        move["steps"] = int(rondel["steps"])
    return _with_pay(move, rondel)


def _named_list(key: str) -> Callable[[list[Any]], list[dict[str, Any]]]:
    """Canonicaliser for a list whose entries may be a bare string meaning ``{key: s}``."""

    def expand(entries: list[Any]) -> list[dict[str, Any]]:
        out = []
        for entry in entries:
            if isinstance(entry, str):
                out.append({key: entry})
            else:
                out.append(_with_pay({key: entry[key]}, entry))
        return out

    return expand


def _arm(entries: list[Any]) -> list[dict[str, Any]]:
    """Arming entries; ``"free": true`` (a unit armed for free, :meth:`Edition.free_units
    <pbem.kernel.edition.Edition.free_units>`) is kept, ``false`` dropped."""
    out = []
    for e in entries:
        entry: dict[str, Any] = {"unit": e["unit"], "at": e["at"], "count": int(e.get("count", 1))}
        if e.get("free"):
            entry["free"] = True
        out.append(_with_pay(entry, e))
    return out


def _found(entries: list[Any]) -> list[dict[str, Any]]:
    """Foundings: a bare city name, or ``{"city": ..., "resource": ...}`` where the founder
    chooses the city's type."""
    out = []
    for entry in entries:
        if isinstance(entry, str):
            out.append({"city": entry})
            continue
        city: dict[str, Any] = {"city": entry["city"]}
        if "resource" in entry:
            city["resource"] = entry["resource"]
        out.append(_with_pay(city, entry))
    return out


def _step(step: Mapping[str, Any]) -> dict[str, Any]:
    """One maneuver step; only ``move`` gets a default count (a battle's is 'all possible')."""
    if "move" in step:
        move = {
            "move": step["move"],
            "count": int(step.get("count", 1)),
            "from": step["from"],
            "path": list(step["path"]),
        }
        if "which" in step:
            move["which"] = step["which"]
        return move
    if "battle" in step:
        battle: dict[str, Any] = {"battle": step["battle"], "at": step["at"], "against": step["against"]}
        if "count" in step:
            battle["count"] = int(step["count"])
        return battle
    conquer: dict[str, Any] = {"conquer": step["conquer"]}
    if "with" in step:
        conquer["with"] = _amounts(step["with"], (*UNITS, *sorted(k for k in step["with"] if k not in UNITS)))
    if "give_up" in step:
        conquer["give_up"] = step["give_up"]
    return conquer


def _maneuver(steps: list[Any]) -> list[dict[str, Any]]:
    return [_step(step) for step in steps]


def canonical_standing(standing: Mapping[str, Any], edition: EditionView) -> dict[str, Any]:
    """Expand standing orders: a bare ``battle`` stance becomes ``{"default": stance}``.

    Stances are listed default first, then in the edition's nation order, so that the same
    orders always print the same way; an edition's own standing orders follow, as given.
    """
    out: dict[str, Any] = {}
    if "battle" in standing:
        battle = standing["battle"]
        if isinstance(battle, str):
            out["battle"] = {"default": battle}
        else:
            order = ("default", *edition.nations)
            out["battle"] = {key: battle[key] for key in order if key in battle}
    if "bonus_stack" in standing:
        out["bonus_stack"] = list(standing["bonus_stack"])
    if "coin_substitute" in standing:
        out["coin_substitute"] = standing["coin_substitute"]
    for key in standing:
        if key not in out and key not in ("battle", "bonus_stack", "coin_substitute"):
            out[key] = _plain(standing[key])
    return out


_CANONICAL: dict[str, Callable[[Any], Any]] = {
    "game": str,
    "nation": str,
    "turn": int,
    "password": str,
    "trade": _trade,
    "rondel": _rondel,
    "temples": _named_list("city"),
    "arm": _arm,
    "knowhow": _named_list("name"),
    "maneuver": _maneuver,
    "found": _found,
}


def canonical_orders(data: Mapping[str, Any], edition: EditionView) -> dict[str, Any]:
    """The canonical form of schema-valid order data, as a new dict.

    Shorthands are expanded (``"rondel": "gold"`` -> ``{"to": "gold"}``, a bare city or
    know-how name -> ``{"city": ...}`` / ``{"name": ...}``, a bare battle stance ->
    ``{"default": ...}``) and ``count`` is filled in (1) for ``arm`` entries and moves.
    ``$schema`` and ``comment`` are dropped. Nothing else is invented: absent payments,
    ``steps``, battle counts and conquest units stay absent, because the turn decides
    them from the game. Keys follow the edition's :attr:`order_keys
    <pbem.kernel.edition.Edition.order_keys>` (by default :data:`ORDER_KEYS`), so the echo
    of equal orders is equal text; a key of the edition's own is copied as given. The input
    is not modified.
    """
    out = {}
    for key in edition.order_keys:
        if key not in data:
            continue
        if key == "standing":
            out[key] = canonical_standing(data[key], edition)
        elif key in _CANONICAL:
            out[key] = _CANONICAL[key](data[key])
        else:
            out[key] = _plain(data[key])
    return out


def _plain(value: Any) -> Any:
    """A deep copy in which integral floats are ints (the schema allows ``2.0`` as integer)."""
    if isinstance(value, float):
        return int(value)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def canonical_edit(data: Mapping[str, Any], edition: EditionView) -> dict[str, Any]:
    """The canonical form of schema-valid GM edit data, as a new dict.

    Edits keep their keys as given (each edit sets exactly the fields it names); only
    standing orders are expanded as in :func:`canonical_standing`, and ``$schema`` is
    dropped.
    """
    edits = []
    for edit in data["edits"]:
        edit = _plain(edit)
        if "standing" in edit:
            edit["standing"] = canonical_standing(edit["standing"], edition)
        edits.append(edit)
    return {"game": data["game"], "reason": data["reason"], "edits": edits}
