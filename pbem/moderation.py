"""GM moderation: undo by replay, and the default turn for a missing player (D15)."""

from __future__ import annotations

from typing import Any

from pbem.engine import TurnResult, process, production
from pbem.errors import Refused, UsageError
from pbem.game import Game
from pbem.options import targets
from pbem.rejections import reject
from pbem.replay import game_after, turn_entries
from pbem.vocab import RESOURCES


def undo(game: Game, turns: int = 1) -> tuple[Game, list[dict[str, Any]]]:
    """Take back the last ``turns`` turns (with everything recorded after them) by replay.

    Returns the earlier game and the removed history entries (for the GM's audit log).
    The result is the file exactly as it was before those turns, so processing the same
    orders again gives a byte-identical file.
    """
    if turns < 1:
        raise UsageError("--turns must be at least 1")
    entries = [i for i, _ in turn_entries(game)]
    if len(entries) < turns:
        raise UsageError(f"only {len(entries)} turn(s) have been played; cannot undo {turns}")
    cut = entries[-turns]
    earlier = game_after(game, cut - 1)
    return earlier, game.history[cut:]


def default_orders(game: Game, nation: str) -> dict[str, Any]:
    """D15: the nearest production wedge within the free steps that yields the most, produce,
    found nothing; with none in reach, one step on and no action.

    On a first move every wedge is free: the best-yielding production wedge, ties by rondel
    order. Ties within reach go to the nearest wedge.
    """
    ns = game.state.nations[nation]
    first = ns.rondel is None
    best = None
    for tg in targets(game, nation):
        if tg.wedge not in RESOURCES or tg.cost > 0:
            continue
        amount = production(game, game.state, nation, tg.wedge)
        key = (-amount, tg.steps, tg.index)
        if best is None or key < best[0]:
            best = (key, tg)
    if best is not None:
        rondel = best[1].order(first)
    else:
        nxt = (ns.rondel + 1) % 8
        rondel = {"to": targets(game, nation)[nxt].wedge, "steps": 1}
    return {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
            "rondel": rondel}


def default_turn(game: Game, nation: str) -> tuple[Game, TurnResult]:
    """Apply the default turn for ``nation`` (it must be the active nation); logged as such."""
    active = game.state.status.active
    if game.state.status.winner is None and nation != active:
        raise Refused([reject("orders/wrong-nation", "$.nation", active=active, nation=nation)])
    return process(game, default_orders(game, nation), trusted=True, kind="default-turn")
