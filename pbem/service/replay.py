"""Replaying a game's history from its recorded set-up: ``verify``, ``undo``, past turns.

The first history entry (``new``) records the set-up options; every later entry records
the canonical orders or the GM edit that was applied. Replaying them through the same
rules must reproduce every entry, hash for hash, and finally the file itself. No password
is hashed or checked on the way: the identities and hashes are the file's own.

What an entry records is read from a file that anyone may have edited: its set-up, orders
and edits are checked against their schemas before they are applied, so a damaged entry
is named (:class:`EntryDoesNotReplay`) instead of breaking the rules that would read it.
``verify`` reports such an entry as :class:`~pbem.errors.VerifyFailed` (exit code 6);
everyone else who replays (a past turn's report, ``undo``, the web site) as a game file
that is not what it claims to be (exit code 3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pbem.errors import InconsistentGame, PbemError, Problem, VerifyFailed
from pbem.kernel.orders import canonical_edit, canonical_orders
from pbem.kernel.setup import SetupOptions
from pbem.service import turns
from pbem.service.creation import record, recorded_options, start
from pbem.service.game import Game
from pbem.service.history import same_json, use_fast_encoder


def _same(stored: Any, replayed: Any) -> bool:
    """Whether an entry (or a file) as stored is exactly what the replay gives: the same
    JSON, not merely equal in Python (where ``1 == 1.0 == True``)."""
    return same_json(stored, replayed)


class EntryDoesNotReplay(InconsistentGame):
    """History entry ``entry`` of a game file does not replay to what the file records."""

    def __init__(self, game: Game, entry: int, reason: str):
        self.entry = entry
        self.reason = reason
        source = game.source or f"game {game.game_id!r}"
        super().__init__(source, [Problem(f"$.history[{entry}]", f"history entry {entry} does not replay: {reason} "
                                          "(antike-ref verify checks the whole history)")])


def _setup_options(game: Game, data: Any) -> SetupOptions:
    """The recorded set-up options, each of the type ``new`` wrote."""
    try:
        return recorded_options(data)
    except ValueError as exc:
        raise EntryDoesNotReplay(game, 0, str(exc)) from None


def initial_game(game: Game) -> Game:
    """The game as ``new`` created it, with the file's nation identities and password hashes."""
    first = game.history[0]
    if first.get("kind") != "new" or "setup" not in first:
        raise EntryDoesNotReplay(game, 0, "the history does not start with the set-up ('new') entry")
    setup = _setup_options(game, first["setup"])
    kept = {"setup": first["setup"]}
    if "signed" in first:  # a game without a game master: its set-up's draws come from the reveals
        from pbem.service.signed.setup import setup_lots

        setup = setup.replace(chance=setup_lots(first["signed"]))
        kept["signed"] = first["signed"]
    try:
        created, entry = start(game.edition, setup, game.board)
    except PbemError as exc:
        raise EntryDoesNotReplay(game, 0, f"its set-up is refused: {exc}") from None
    created.meta = turns.original_meta(game)
    created.source = game.source
    return record(created, {**entry, **kept})


def _orders(game: Game, i: int, entry: dict[str, Any]) -> dict[str, Any]:
    """The orders an entry records, checked against the order schema, in canonical form."""
    from pbem.service.schemas import problems

    orders = entry.get("orders")
    if not isinstance(orders, dict):
        raise EntryDoesNotReplay(game, i, "its 'orders' are not an object")
    wrong = problems("orders", {"password": "-", **orders}, game.edition)
    if wrong:
        raise EntryDoesNotReplay(game, i, f"its orders are not an order file: "
                                          f"$.history[{i}].orders{wrong[0].path[1:]}: {wrong[0].message}")
    return canonical_orders(orders, game.edition)


def _edit(game: Game, i: int, entry: dict[str, Any]) -> dict[str, Any]:
    """The GM edit an entry records, checked against the edit schema, in canonical form,
    with the player changes it made."""
    from pbem.service.history import entry_problems
    from pbem.service.schemas import problems

    change = {"game": game.game_id, "reason": entry.get("reason"), "edits": entry.get("edits")}
    if change["edits"] == []:  # a new player alone (antike-ref player) is an edit without edits
        wrong = [] if isinstance(change["reason"], str) else [Problem("$.reason", "must be a text")]
    else:
        wrong = problems("edit", change, game.edition)
    wrong += [
        p for p in entry_problems(i, entry, game.edition, game.seats, game.board) if ".identities" in p.path]
    if wrong:
        where = wrong[0].path if wrong[0].path.startswith("$.history") else f"$.history[{i}]{wrong[0].path[1:]}"
        raise EntryDoesNotReplay(game, i, f"its edit is not a GM edit: {where}: {wrong[0].message}")
    change = canonical_edit(change, game.edition)
    for key in ("identities", "signed"):  # a player change; the arbiters' signatures of a ruling
        if key in entry:
            change[key] = entry[key]
    return change


def apply_entry(game: Game, entry: dict[str, Any], i: int | None = None) -> Game:
    """Apply stored entry ``i`` (not ``new``) to ``game`` and return the next game."""
    i = len(game.history) if i is None else i
    kind = entry.get("kind")
    if kind in turns.ORDER_KINDS:
        return turns.replay_orders(game, {**entry, "orders": _orders(game, i, entry)}, owned=True)
    if kind == "gm-edit":
        return turns.edit(game, _edit(game, i, entry))
    raise EntryDoesNotReplay(game, i, f"{'a second set-up' if kind == 'new' else f'an entry of kind {kind!r}'} "
                                      "cannot be replayed here")


def _describe(i: int, stored: dict[str, Any], replayed: dict[str, Any]) -> str:
    for key in ("seq", "kind", "prev"):
        if stored.get(key) != replayed.get(key):
            return (f"its {key!r} is {stored.get(key)!r}, the replay gives {replayed.get(key)!r} "
                    "(entries edited, removed or reordered)")
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

    Raises :class:`EntryDoesNotReplay` naming the first entry that differs.
    """
    last = len(game.history) - 1 if upto is None else upto
    current = game
    for i, after in enumerate(replayed(game, last, check)):
        current = after
        if progress and i:
            progress(i, last)
    return Replay(current, last + 1)


def replayed(game: Game, upto: int, check: bool = True) -> Iterator[Game]:
    """The game right after each history entry ``0..upto``, in order, replayed once
    through the rules; with ``check``, :class:`EntryDoesNotReplay` names the first entry
    that does not replay to what the file records (canonical JSON, so ``1`` and ``1.0`` or
    ``true`` are not the same)."""
    use_fast_encoder()
    stored = game.history
    current = initial_game(game)
    if check and not _same(stored[0], current.history[0]):
        raise EntryDoesNotReplay(game, 0, _describe(0, stored[0], current.history[0]))
    yield current
    for i in range(1, upto + 1):
        entry = stored[i]
        try:
            current = apply_entry(current, entry, i)
        except EntryDoesNotReplay:
            raise
        except PbemError as exc:
            raise EntryDoesNotReplay(game, i, f"its {entry.get('kind')} no longer applies: {exc}") from None
        if check and not _same(entry, current.history[i]):
            raise EntryDoesNotReplay(game, i, _describe(i, entry, current.history[i]))
        yield current


def verify(game: Game, raw: dict[str, Any], progress=None) -> Replay:
    """Replay everything and compare the result with the file as read (``raw``); raise
    :class:`~pbem.errors.VerifyFailed` naming the first entry that differs."""
    try:
        result = replay(game, progress=progress)
    except EntryDoesNotReplay as exc:
        raise VerifyFailed(exc.entry, exc.reason, game.source) from None
    rebuilt = result.game.to_json()
    if not _same(raw, rebuilt):
        keys = sorted(k for k in set(rebuilt) | set(raw) if not _same(raw.get(k), rebuilt.get(k)))
        raise VerifyFailed(len(game.history) - 1,
                           f"the file's {', '.join(keys)} differ from the replayed game (edited after the last entry)",
                           game.source)
    return result


def game_after(game: Game, entry_index: int) -> Game:
    """The game as it was right after history entry ``entry_index``, every entry up to it
    checked as it is replayed: what ``undo`` keeps must be what the file records, so that
    taking entries back never writes a hand-edited history anew with fresh hashes."""
    return replay(game, upto=entry_index).game

