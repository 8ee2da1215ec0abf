"""The history: one entry per processed turn, GM action or standing-order change.

Each entry carries ``prev`` (the previous entry's hash) and ``hash`` = SHA-256 over the
previous hash, the entry's own canonical JSON (without ``hash``) and the canonical JSON of
the game state that resulted, so any later hand edit of a state, an order or the order of
entries is detectable by replay.

The chain is not keyed: whoever holds the file can compute it again after rewriting a turn.
The hashes players were sent in reports and mails are what detects that
(:mod:`pbem.service.witness`, ``verify --expect`` / ``--receipts``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from pbem.errors import Problem
from pbem.kernel.events import event_problems

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition

GENESIS = "0" * 64
TURN_KINDS = ("turn", "default-turn", "bot-turn")
"""History entries that are a nation's turn."""


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))


_FAST: Any = None
"""``orjson`` once :func:`use_fast_encoder` has loaded it (about 10 times faster than
``json`` at the canonical form, but 14 ms to import: worth it only for callers that hash a
whole history)."""

_DIGITS = frozenset(b"0123456789")


def _may_differ(out: bytes) -> bool:
    """Whether ``orjson``'s output may differ from ``json``'s: only a number smaller than
    0.0001 does (``orjson`` writes ``0.00001`` and ``1e-7`` where ``json`` writes ``1e-05``
    and ``1e-07``). Every other value (integers of up to 64 bits, other numbers, texts,
    ``true``/``false``/``null``, lists, objects with sorted keys) comes out byte for byte the
    same (``tests/test_canonical.py``). A text that merely looks like such a number only
    costs the slower path."""
    if b"0.0000" in out:
        return True
    i = out.find(b"e-")
    while i > 0:
        if out[i - 1] in _DIGITS:
            return True
        i = out.find(b"e-", i + 2)
    return False


def use_fast_encoder() -> None:
    """Let :func:`canonical_bytes` use ``orjson`` (when installed) from now on."""
    global _FAST
    if _FAST is None:
        try:
            import orjson
        except ImportError:  # pragma: no cover - a dependency, but the json form is the definition
            _FAST = False
        else:
            _FAST = orjson


def canonical_bytes(data: Any) -> bytes:
    """:func:`canonical` as UTF-8 bytes, by ``orjson`` after :func:`use_fast_encoder` unless
    its output may differ (see :func:`_may_differ`) or it refuses the value (an integer
    beyond 64 bits): then ``json`` writes it, so the bytes are always those of
    :func:`canonical`."""
    out = _fast_dumps(data)
    if out is not None and not _may_differ(out):
        return out
    return canonical(data).encode()


def _fast_dumps(data: Any) -> bytes | None:
    """``orjson``'s sorted JSON of ``data``; ``None`` without the fast encoder or for a
    value it refuses."""
    if not _FAST:
        return None
    try:
        return _FAST.dumps(data, option=_FAST.OPT_SORT_KEYS)
    except TypeError:
        return None


def part_bytes(data: Any) -> bytes:
    """:func:`canonical_bytes` of a part of the game's own state (few texts, no dots or
    dashes): written by ``orjson`` and checked by one quick look for a ``.`` or a ``-``,
    with which it goes the careful way."""
    out = _fast_dumps(data)
    if out is not None and b"." not in out and b"-" not in out:
        return out
    return canonical_bytes(data)


def fast() -> bool:
    """Whether :func:`use_fast_encoder` has loaded ``orjson``."""
    return bool(_FAST)


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same JSON, not merely equal in Python (where
    ``1 == 1.0 == True``). Keys are compared sorted; texts must be valid Unicode."""
    if _FAST:
        try:
            sort = _FAST.OPT_SORT_KEYS
            return _FAST.dumps(a, option=sort) == _FAST.dumps(b, option=sort)
        except TypeError:  # an integer beyond 64 bits, a lone surrogate: json tells
            pass
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def snapshot(game_json: dict[str, Any]) -> dict[str, Any]:
    """The part of a game file that an entry's hash covers: everything but the history."""
    return {k: v for k, v in game_json.items() if k != "history"}


def entry_hash(prev: str, body: dict[str, Any], snapshot_bytes: bytes) -> str:
    """SHA-256 over ``prev``, the canonical ``body`` (without ``hash``) and the canonical
    snapshot of the game after it (:meth:`pbem.service.game.Game.snapshot_bytes`)."""
    h = hashlib.sha256()
    h.update(prev.encode())
    h.update(canonical_bytes({k: v for k, v in body.items() if k != "hash"}))
    h.update(snapshot_bytes)
    return h.hexdigest()


def last_hash(history: list[dict[str, Any]]) -> str:
    return history[-1]["hash"] if history else GENESIS


def append(game, body: dict[str, Any]) -> dict[str, Any]:
    """Append ``body`` to ``game.history`` as a chained entry and return it.

    ``game`` must already hold the state that results from the entry.
    """
    entry = {"seq": len(game.history), **body, "prev": last_hash(game.history)}
    entry["hash"] = entry_hash(entry["prev"], entry, game.snapshot_bytes())
    game.history.append(entry)
    return entry


# -- what is read back from a game file ----------------------------------------------------------

_TEXT_NOTES = ("bot", "mail", "deadline", "absent")
"""Notes an entry may carry, each a text (:data:`pbem.service.turns.NOTES`)."""


def entry_problems(i: int, entry: dict[str, Any], edition: Edition, seats: Collection[str],
                   board: Board) -> list[Problem]:
    """Everything wrong with the shape of history entry ``i`` as a game file holds it, each
    named by its JSON path: the fields that the history list, the reports and the mails read
    back without replaying it (its kind's own fields, notes, events, a GM edit's edits and
    new identities). Whether the entry *replays* is ``verify``'s business; the schema has
    already checked ``seq``, ``kind``, ``prev`` and ``hash``."""
    at = f"$.history[{i}]"
    out: list[Problem] = []
    kind = entry.get("kind")

    def need(key: str, ok, what: str, required: bool = True) -> None:
        if key not in entry:
            if required:
                out.append(Problem(at, f"a {kind!r} entry needs {key!r}"))
        elif not ok(entry[key]):
            out.append(Problem(f"{at}.{key}", f"must be {what}"))

    need("turn", lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 1, "a turn number (1 or more)",
         kind in TURN_KINDS)
    need("nation", lambda v: isinstance(v, str) and v in seats, "a nation of this game",
         kind in TURN_KINDS or kind == "standing")
    if kind in TURN_KINDS or kind == "standing":
        need("orders", lambda v: isinstance(v, dict), "an object (the orders as applied)")
    if kind == "new":
        need("setup", lambda v: isinstance(v, dict), "an object (the set-up options)")
    for key in _TEXT_NOTES:
        need(key, lambda v: isinstance(v, str), "a text", False)
    need("defaults", lambda v: isinstance(v, list) and all(
        isinstance(d, dict) and isinstance(d.get("path"), str) and isinstance(d.get("default"), str) for d in v),
        'a list of {"path": ..., "default": ...} texts', False)
    if kind == "gm-edit":
        need("reason", lambda v: isinstance(v, str), "a text")
        need("edits", lambda v: isinstance(v, list), "a list of edits")
        if isinstance(entry.get("reason"), str) and entry.get("edits"):  # none for a new player alone
            from pbem.service.schemas import problems

            wrong = problems("edit", {"game": "g", "reason": entry["reason"], "edits": entry["edits"]}, edition)
            out += [Problem(at + p.path[1:], p.message) for p in wrong]
    if "identities" in entry:
        out += _identity_problems(f"{at}.identities", entry["identities"], seats)
    events = entry.get("events", [])
    if isinstance(events, list):  # the schema says so; checked again for a caller without it
        for j, event in enumerate(events):
            out += [Problem(path, message)
                    for path, message in event_problems(event, f"{at}.events[{j}]", seats, board.provinces,
                                                        edition.event_kinds)]
    return out


PRIVATE_CHANGES = ("address", "password")
"""Changes of a nation's identity that are the player's own, not a new player: ``address``
(the password kept: a new address or name) and ``password`` (a new password, the same
player at the same address). Recorded as ``change`` with the identity; told to the player
and the GM only, never in the public history (:func:`private_identity`)."""


def identity_change(was: dict[str, Any], who: dict[str, Any]) -> str | None:
    """What kind of change ``who`` is of ``was``: ``address`` or ``password`` (the
    player's own, :data:`PRIVATE_CHANGES`), or ``None`` for a new player."""
    if who.get("password") == was.get("password"):
        return "address"
    if (who.get("player"), (who.get("email") or "").lower()) == (was.get("player"), (was.get("email") or "").lower()):
        return "password"
    return None


def private_identity(entry: dict[str, Any]) -> bool:
    """Whether a history entry is only players' own changes of identity (an address moved,
    a new password): no news for anyone else, so reports and public views pass over it."""
    identities = entry.get("identities")
    return (entry.get("kind") == "gm-edit" and not entry.get("edits") and isinstance(identities, dict)
            and bool(identities) and all(isinstance(who, dict) and who.get("change") in PRIVATE_CHANGES
                                         for who in identities.values()))


def _identity_problems(at: str, identities: Any, seats: Collection[str]) -> list[Problem]:
    """A player change: per nation the new player, address and password hash, and under
    ``was`` the ones replaced."""
    if not isinstance(identities, dict):
        return [Problem(at, "must be an object of nation: new player")]
    out = []
    for nation, who in identities.items():
        if nation not in seats:
            out.append(Problem(f"{at}.{nation}", "not a nation of this game"))
            continue
        for where, record in ((f"{at}.{nation}", who), (f"{at}.{nation}.was",
                                                           who.get("was") if isinstance(who, dict) else None)):
            if not (isinstance(record, dict) and all(k in record and isinstance(record[k], (str, type(None)))
                                                      for k in ("player", "email"))
                    and isinstance(record.get("password"), str)):
                out.append(Problem(where, "must be an object with the player, email and password"))
        if isinstance(who, dict) and "change" in who and isinstance(who.get("was"), dict) \
                and who["change"] != identity_change(who["was"], who):
            out.append(Problem(f"{at}.{nation}.change", f"{who['change']!r} is not what the change is (a player's own "
                                                        "change keeps the password, or the player and the address)"))
    return out


def history_problems(history: list[dict[str, Any]], edition: Edition, seats: Collection[str],
                     board: Board) -> list[Problem]:
    """:func:`entry_problems` of every entry."""
    out: list[Problem] = []
    for i, entry in enumerate(history):
        if isinstance(entry, dict):
            out += entry_problems(i, entry, edition, seats, board)
    return out
