"""Setting up Antike II (``antike-ref new --edition antike2``): its set-up facet
(:class:`Antike2SetUp`).

003 L98-110 and L160 (three cities, one of each resource, 3 marble, 3 iron and 3 gold),
L254 (a random start nation; the last nation in turn order holds BELLONA), L246 (the
goal), and the neutral temples of the board (docs/antike2.md, "Neutral temples").
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pbem.editions.antike2.rules import BANK_COINS, DATA_KEYS, GOALS, PRICES, data_problems
from pbem.editions.classic.setup import check_nations, start_cities
from pbem.errors import UsageError
from pbem.kernel.facets import SharedSetUp
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
    problem = edition.setup.seating_problem(players, count)
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
    edition.turn.start_round(state, events)
    return state, events, opts.replace(first=first)


class Antike2SetUp(SharedSetUp):
    """Antike II's set-up facet: :func:`setup`, :func:`goal`, one nation per player, and the
    values a GM with the printed board enters (``new --data``)."""

    def start(self, options: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
        return setup(self.edition, options, board)

    def goal(self, options: SetupOptions, nations: int, players: int) -> int:
        return goal(options, nations)

    def seating_problem(self, players: int, nations: int) -> str | None:
        if players != nations:
            return (f"{players} players cannot play {nations} nations: Antike II is one nation per player, "
                    "3 to 6 (docs/rulings.md Q10: two players are not supported)")
        return None

    def data_problems(self, data: Any, board: Board) -> list[str]:
        problems = data_problems(data, self.edition.knowhows, board.provinces) if data else []
        return [f"{p} (keys: {', '.join(DATA_KEYS)})" for p in problems[:1]] + problems[1:]

    def rulings(self, table: Table) -> list[str]:
        given = json.loads(table.data) if table.data else {}
        rules = self.edition.rules_for(table)
        knowhows = self.edition.knowhows
        out = []
        if "knowhow_prices" not in given or set(given["knowhow_prices"]) != set(PRICES):
            prices = ", ".join(f"{knowhows[k]} {s.price_first}/{s.price_later}" for k, s in rules.knowhows.items()
                               if k not in given.get("knowhow_prices", {}))
            out.append(f"know-how prices (first/later): {prices}")
        if str(len(table.seats)) not in given.get("goals", {}) and len(table.seats) in (4, 5):
            out.append(f"the goal, {GOALS[len(table.seats)]} personages with {len(table.seats)} nations")
        if "bank_coins" not in given:
            out.append(f"the bank's {BANK_COINS} coins")
        if "neutral_temples" not in given:
            out.append("where the neutral temples stand (the board's)")
        return out
