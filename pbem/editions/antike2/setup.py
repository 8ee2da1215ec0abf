"""Setting up Antike II (``antike-ref new --edition antike2``).

003 L98-110 and L160 (three cities, one of each resource, 3 marble, 3 iron and 3 gold),
L254 (a random start nation; the last nation in turn order holds BELLONA), L246 (the
goal), and the neutral temples of the board (docs/antike2.md, "Neutral temples").
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pbem.editions.antike2.rules import GOALS
from pbem.editions.classic.setup import check_nations, start_cities
from pbem.errors import UsageError
from pbem.kernel.setup import SetupOptions, check_common, initial_state, start_nation_by_lot
from pbem.kernel.state import GameState, ProvinceState, Table

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition


def goal(opts: SetupOptions, count: int) -> int:
    """Personages to win: 7 with six nations, 10 with three (003 L246); 9 and 8 with four
    and five (docs/rulings.md Q10), or the GM's ``goals`` (``--data``)."""
    goals = {**GOALS, **{int(k): v for k, v in opts.data.get("goals", {}).items()}}
    if opts.goal is not None and opts.goal != goals[count]:
        raise UsageError(f"--goal {opts.goal}: Antike II plays to {goals[count]} personages with {count} nations "
                         "(rulebook, 'Goal of the game'); a GM with the printed board may set \"goals\" with --data")
    return goals[count]


def start_nation(opts: SetupOptions, nations: list[str]) -> str:
    """``--first``, else a nation drawn by lot from the game's seed: "The starting nation
    is decided randomly" (003 L254)."""
    return start_nation_by_lot(opts, nations)


def neutral_temples(opts: SetupOptions, board: Board, cities: dict[str, list[str]]) -> list[str]:
    """The provinces with a neutral temple at the start: the board's (``temple``), or the
    GM's list (``--data``); never a start city."""
    chosen = list(opts.data.get("neutral_temples", [p.id for p in board.provinces.values() if p.temple]))
    taken = {c: n for n, cs in cities.items() for c in cs}
    for pid in chosen:
        if pid in taken:
            raise UsageError(f"a neutral temple cannot stand in {pid}: it is a start city of the {taken[pid]}")
        if board.province(pid).site == "none":
            raise UsageError(f"a neutral temple cannot stand in {pid}: it has no city site")
    return sorted(chosen)


def setup(edition: Edition, opts: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
    check_common(opts, edition)
    nations = list(opts.nations)
    count = len(nations)
    check_nations(nations, board, edition)
    players = opts.players or count
    problem = edition.seating_problem(players, count)
    if problem:
        raise UsageError(f"--players {players}: {problem}")
    for unused in ("teams", "picks"):
        if getattr(opts, unused):
            raise UsageError(f"--{unused.rstrip('s')}: not an Antike II option")
    opts = opts.replace(variants=sorted(set(opts.variants)))
    first = start_nation(opts, nations)
    cities = start_cities(opts.replace(variants=[]), board, count)
    temples = neutral_temples(opts, board, cities)
    data = json.dumps(opts.data, sort_keys=True, separators=(",", ":")) if opts.data else ""
    table = Table(opts.game_id, edition.id, tuple(opts.variants), goal(opts, count), players, tuple(nations),
                  first, data, opts.revision or 1)
    state = initial_state(table, edition, cities)
    for pid in temples:
        state.provinces[pid] = ProvinceState(extra={"neutral_temple": True})
    state.bank.temples -= len(temples)
    order = table.turn_order()
    # 003 L254: "the last nation in turn order receives the BELLONA card".
    state.extra["bellona"] = order[-1]
    events: list[dict[str, Any]] = [{"type": "bellona", "nation": order[-1], "reason": "set-up"}]
    edition.start_round(state, events)
    return state, events, opts.replace(first=first)
