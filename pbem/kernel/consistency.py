"""The invariants a game state must keep, each broken one named by its place in the file.

Checked when a game file is loaded (beyond its schema) and after a GM edit; the rules keep
them by themselves. Paths are those of the game file (``$.state.provinces.athen.owner``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.errors import Problem
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition
    from pbem.kernel.state import GameState


def state_problems(st: GameState, edition: Edition, board: Board) -> list[Problem]:
    """Every broken invariant of ``st``, each with the JSON path of the field at fault."""
    out: list[Problem] = []
    rules = edition.rules_for(st.table)
    table = st.table
    seats = list(table.seats)
    seat_set = set(seats)

    def bad(path: str, message: str) -> None:
        out.append(Problem(path, message))

    if len(seat_set) != len(seats):
        bad("$.seats", "a nation is seated twice")
    for key, names in (("$.state.nations", st.nations), ("$.standing_orders", st.standing)):
        if set(names) != seat_set:
            bad(key, f"nations {sorted(names)} do not match the seats {sorted(seats)}")
    problem = edition.seating_problem(table.players, len(seats))
    if problem:
        bad("$.rules.players", problem)
    if table.first not in seat_set:
        bad("$.first", f"start nation {table.first!r} is not seated")
    if st.status.active not in seat_set:
        bad("$.status.active", f"active nation {st.status.active!r} is not seated")
    if st.status.winner is not None and st.status.winner not in seat_set:
        bad("$.status.winner", f"winner {st.status.winner!r} is not seated")
    for nation, ns in st.nations.items():
        base = f"$.state.nations.{nation}"
        for name in ns.knowhow:
            spec = rules.knowhows.get(name)
            if spec is None:
                bad(f"{base}.knowhow", f"unknown know-how {name!r}")
            elif spec.requires and spec.requires not in ns.knowhow:
                bad(f"{base}.knowhow", f"{name} without {spec.requires}")
        fields = len(edition.rondel)
        if ns.rondel is not None and not 0 <= ns.rondel < fields:
            bad(f"{base}.rondel", f"rondel index {ns.rondel} is not 0-{fields - 1}")
        cities = len(st.cities(nation))
        if cities > rules.city_stones:
            bad("$.state.provinces", f"{nation} has {cities} cities, more than its {rules.city_stones} stones")
        for unit in UNITS:
            n = st.units_on_board(nation, unit)
            if n > rules.cap(unit):
                where = ", ".join(f"{pid} {prov.count(nation, unit)}" for pid, prov in sorted(st.provinces.items())
                                  if prov.count(nation, unit))
                bad("$.state.provinces", f"{nation} has {n} {unit}s on the board, more than {rules.cap(unit)} ({where})")
    for pid, prov in st.provinces.items():
        base = f"$.state.provinces.{pid}"
        if not board.is_province(pid):
            bad(base, f"{pid!r} is not a province of board {board.id!r}")
            continue
        if prov.owner is not None and prov.owner not in seat_set:
            bad(f"{base}.owner", f"owner {prov.owner!r} is not seated")
        if prov.temple and prov.owner is None:
            bad(f"{base}.temple", "a temple without a city")
        site = board.province(pid).site
        if prov.owner is not None and site == "none":
            bad(f"{base}.owner", f"a city in {pid}, where the board has no city site")
        elif prov.owner is not None and site == "choice" and not prov.extra.get("resource"):
            bad(f"{base}.resource", f"the city in {pid} produces nothing: on this site its founder "
                                    "chooses marble, iron or gold (a GM edit sets \"resource\")")
        for nation, held in prov.units.items():
            if nation not in seat_set:
                bad(f"{base}.units.{nation}", f"units of {nation!r}, who is not seated")
            for unit, n in held.items():
                if n and not board.province(pid).neighbours(unit):
                    bad(f"{base}.units.{nation}.{unit}", f"a {unit} cannot stand in {pid}")
    placed = sum(1 for p in st.provinces.values() if p.temple or p.extra.get("neutral_temple"))
    if placed + st.bank.temples > rules.bank_temples:
        bad("$.state.bank.temples", f"{placed} temples placed and {st.bank.temples} in the bank exceed {rules.bank_temples}")
    coins = st.bank.coins + sum(ns.coins for ns in st.nations.values())
    if coins > rules.bank_coins:
        bad("$.state.bank.coins", f"{coins} coins in the game exceed {rules.bank_coins} "
                                  f"(bank {st.bank.coins}, nations {coins - st.bank.coins})")
    for p, stack in rules.personage_stacks.items():
        total = st.bank.personages[p] + sum(ns.personages[p] for ns in st.nations.values())
        if total > stack:
            bad(f"$.state.bank.personages.{p}", f"{total} {p} cards in the game exceed {stack}")
    return out + edition.consistency_problems(st, board)
