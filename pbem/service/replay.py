"""Replaying a game's history from its recorded set-up: ``verify``, ``undo``, past turns.

The first history entry (``new``) records the set-up options; every later entry records
the canonical orders or the GM edit that was applied. Replaying them through the same
rules must reproduce every entry, hash for hash, and finally the file itself. No password
is hashed or checked on the way: the identities and hashes are the file's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator

from pbem.errors import PbemError, VerifyFailed
from pbem.kernel.setup import SetupOptions
from pbem.service import turns
from pbem.service.game import Game
from pbem.service.setup import record, start


def initial_game(game: Game) -> Game:
    """The game as ``new`` created it, with the file's nation identities and password hashes."""
    first = game.history[0]
    if first.get("kind") != "new" or "setup" not in first:
        raise VerifyFailed(0, "the history does not start with the set-up ('new') entry")
    setup = SetupOptions(**first["setup"])
    created, entry = start(game.edition, setup, game.board)
    created.meta = turns.original_meta(game)
    return record(created, {**entry, "setup": first["setup"]})


def apply_entry(game: Game, entry: dict[str, Any]) -> Game:
    """Apply one stored entry (not ``new``) to ``game`` and return the next game."""
    kind = entry.get("kind")
    if kind in turns.ORDER_KINDS:
        return turns.replay_orders(game, entry)
    if kind == "gm-edit":
        change = {"game": game.game_id, "reason": entry["reason"], "edits": entry["edits"]}
        if "identities" in entry:
            change["identities"] = entry["identities"]
        return turns.edit(game, change)
    raise VerifyFailed(entry.get("seq", -1), f"unknown history entry kind {kind!r}")


def _describe(i: int, stored: dict[str, Any], replayed: dict[str, Any]) -> str:
    for key in ("seq", "kind", "prev"):
        if stored.get(key) != replayed.get(key):
            return f"its {key!r} is {stored.get(key)!r}, the replay gives {replayed.get(key)!r} (entries edited, removed or reordered)"
    if stored.get("events") != replayed.get("events"):
        return "its recorded events differ from what its orders produce"
    return "its hash does not match the replayed state (the state, orders or hash were edited by hand)"


@dataclass
class Replay:
    """The outcome of a full replay: the rebuilt game and the number of entries checked."""

    game: Game
    entries: int


def replay(game: Game, upto: int | None = None,
           progress: Callable[[int, int], None] | None = None, check: bool = True) -> Replay:
    """Replay ``game.history`` (entries ``0..upto``), checking each entry against the file.

    Raises :class:`VerifyFailed` naming the first entry that differs.
    """
    last = len(game.history) - 1 if upto is None else upto
    current = game
    for i, current in enumerate(replayed(game, last, check)):
        if progress and i:
            progress(i, last)
    return Replay(current, last + 1)


def replayed(game: Game, upto: int, check: bool = True) -> Iterator[Game]:
    """The game right after each history entry ``0..upto``, in order, replayed once
    through the rules; with ``check``, :class:`VerifyFailed` names the first entry that
    does not replay to what the file records."""
    stored = game.history
    current = initial_game(game)
    if check and current.history[0] != stored[0]:
        raise VerifyFailed(0, _describe(0, stored[0], current.history[0]))
    yield current
    for i in range(1, upto + 1):
        entry = stored[i]
        try:
            current = apply_entry(current, entry)
        except VerifyFailed:
            raise
        except PbemError as exc:
            raise VerifyFailed(i, f"its {entry.get('kind')} no longer applies: {exc}") from None
        if check and current.history[i] != entry:
            raise VerifyFailed(i, _describe(i, entry, current.history[i]))
        yield current


def verify(game: Game, raw: dict[str, Any], progress=None) -> Replay:
    """Replay everything and compare the result with the file as read (``raw``)."""
    result = replay(game, progress=progress)
    rebuilt = result.game.to_json()
    if rebuilt != raw:
        keys = sorted(k for k in set(rebuilt) | set(raw) if rebuilt.get(k) != raw.get(k))
        raise VerifyFailed(len(game.history) - 1,
                           f"the file's {', '.join(keys)} differ from the replayed game (edited after the last entry)")
    return result


def game_after(game: Game, entry_index: int) -> Game:
    """The game as it was right after history entry ``entry_index`` (no checks)."""
    return replay(game, upto=entry_index, check=False).game


def turn_entries(game: Game) -> Iterator[tuple[int, dict[str, Any]]]:
    for i, entry in enumerate(game.history):
        if entry.get("kind") in turns.TURN_KINDS:
            yield i, entry
