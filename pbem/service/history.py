"""The history: one entry per processed turn, GM action or standing-order change.

Each entry carries ``prev`` (the previous entry's hash) and ``hash`` = SHA-256 over the
previous hash, the entry's own canonical JSON (without ``hash``) and the canonical JSON of
the game state that resulted, so any later hand edit of a state, an order or the order of
entries is detectable by replay.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False,
                      separators=(",", ":"))


def snapshot(game_json: dict[str, Any]) -> dict[str, Any]:
    """The part of a game file that an entry's hash covers: everything but the history."""
    return {k: v for k, v in game_json.items() if k != "history"}


def entry_hash(prev: str, body: dict[str, Any], game_json: dict[str, Any]) -> str:
    h = hashlib.sha256()
    h.update(prev.encode())
    h.update(canonical({k: v for k, v in body.items() if k != "hash"}).encode())
    h.update(canonical(snapshot(game_json)).encode())
    return h.hexdigest()


def last_hash(history: list[dict[str, Any]]) -> str:
    return history[-1]["hash"] if history else GENESIS


def append(game, body: dict[str, Any]) -> dict[str, Any]:
    """Append ``body`` to ``game.history`` as a chained entry and return it.

    ``game`` must already hold the state that results from the entry.
    """
    entry = {"seq": len(game.history), **body, "prev": last_hash(game.history)}
    entry["hash"] = entry_hash(entry["prev"], entry, game.to_json())
    game.history.append(entry)
    return entry
