"""The invariants a game state must keep, each broken one named by its place in the file.

Checked when a game file is loaded (beyond its schema) and after a GM edit; the rules keep
them by themselves. Paths are those of the game file (``$.state.provinces.athen.owner``).
One function checks one invariant: of the table, of each nation, of each province, of the
bank; :func:`state_problems` runs them in that order, then the edition's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.errors import Problem
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition
    from pbem.kernel.rules import RuleTable
    from pbem.kernel.state import GameState, NationState, ProvinceState


@dataclass(frozen=True, slots=True)
class Facts:
    """What every check reads: the state, its edition's rules for this game, the board."""

    st: GameState
    edition: Edition
    board: Board
    rules: RuleTable
    seats: frozenset[str]


# -- the table -----------------------------------------------------------------------------

def _seated_once(f: Facts) -> Iterator[Problem]:
    if len(f.seats) != len(f.st.table.seats):
        yield Problem("$.seats", "a nation is seated twice")


def _nations_match_seats(f: Facts) -> Iterator[Problem]:
    for key, names in (("$.state.nations", f.st.nations), ("$.standing_orders", f.st.standing)):
        if set(names) != f.seats:
            yield Problem(key, f"nations {sorted(names)} do not match the seats {sorted(f.st.table.seats)}")


def _seating(f: Facts) -> Iterator[Problem]:
    problem = f.edition.setup.seating_problem(f.st.table.players, len(f.st.table.seats))
    if problem:
        yield Problem("$.rules.players", problem)


def _named_nations_seated(f: Facts) -> Iterator[Problem]:
    status = f.st.status
    if f.st.table.first not in f.seats:
        yield Problem("$.first", f"start nation {f.st.table.first!r} is not seated")
    if status.active not in f.seats:
        yield Problem("$.status.active", f"active nation {status.active!r} is not seated")
    if status.winner is not None and status.winner not in f.seats:
        yield Problem("$.status.winner", f"winner {status.winner!r} is not seated")


# -- each nation ---------------------------------------------------------------------------

def _knowhow(f: Facts, nation: str, ns: NationState) -> Iterator[Problem]:
    for name in ns.knowhow:
        spec = f.rules.knowhows.get(name)
        if spec is None:
            yield Problem(f"$.state.nations.{nation}.knowhow", f"unknown know-how {name!r}")
        elif spec.requires and spec.requires not in ns.knowhow:
            yield Problem(f"$.state.nations.{nation}.knowhow", f"{name} without {spec.requires}")


def _rondel_index(f: Facts, nation: str, ns: NationState) -> Iterator[Problem]:
    fields = len(f.edition.rondel)
    if ns.rondel is not None and not 0 <= ns.rondel < fields:
        yield Problem(f"$.state.nations.{nation}.rondel", f"rondel index {ns.rondel} is not 0-{fields - 1}")


def _city_stones(f: Facts, nation: str, ns: NationState) -> Iterator[Problem]:
    cities = len(f.st.cities(nation))
    if cities > f.rules.city_stones:
        yield Problem("$.state.provinces", f"{nation} has {cities} cities, more than its {f.rules.city_stones} stones")


def _unit_caps(f: Facts, nation: str, ns: NationState) -> Iterator[Problem]:
    for unit in UNITS:
        n = f.st.units_on_board(nation, unit)
        if n > f.rules.cap(unit):
            where = ", ".join(f"{pid} {prov.count(nation, unit)}" for pid, prov in sorted(f.st.provinces.items())
                              if prov.count(nation, unit))
            yield Problem("$.state.provinces",
                          f"{nation} has {n} {unit}s on the board, more than {f.rules.cap(unit)} ({where})")


# -- each province (of the board) ----------------------------------------------------------

def _owner_seated(f: Facts, pid: str, prov: ProvinceState) -> Iterator[Problem]:
    if prov.owner is not None and prov.owner not in f.seats:
        yield Problem(f"$.state.provinces.{pid}.owner", f"owner {prov.owner!r} is not seated")


def _temple_in_city(f: Facts, pid: str, prov: ProvinceState) -> Iterator[Problem]:
    if prov.temple and prov.owner is None:
        yield Problem(f"$.state.provinces.{pid}.temple", "a temple without a city")


def _city_site(f: Facts, pid: str, prov: ProvinceState) -> Iterator[Problem]:
    site = f.board.province(pid).site
    if prov.owner is not None and site == "none":
        yield Problem(f"$.state.provinces.{pid}.owner", f"a city in {pid}, where the board has no city site")
    elif prov.owner is not None and site == "choice" and not prov.extra.get("resource"):
        yield Problem(f"$.state.provinces.{pid}.resource", f"the city in {pid} produces nothing: on this site its "
                      "founder chooses marble, iron or gold (a GM edit sets \"resource\")")


def _units(f: Facts, pid: str, prov: ProvinceState) -> Iterator[Problem]:
    base = f"$.state.provinces.{pid}"
    for nation, held in prov.units.items():
        if nation not in f.seats:
            yield Problem(f"{base}.units.{nation}", f"units of {nation!r}, who is not seated")
        for unit, n in held.items():
            if n and not f.board.province(pid).neighbours(f.edition.moves_as(unit)):
                yield Problem(f"{base}.units.{nation}.{unit}", f"a {unit} cannot stand in {pid}")


# -- the bank ------------------------------------------------------------------------------

def _temples(f: Facts) -> Iterator[Problem]:
    placed = sum(1 for p in f.st.provinces.values() if p.temple or p.extra.get("neutral_temple"))
    bank, most = f.st.bank.temples, f.rules.bank_temples
    if placed + bank > most:
        yield Problem("$.state.bank.temples", f"{placed} temples placed and {bank} in the bank exceed {most}")


def _coins(f: Facts) -> Iterator[Problem]:
    bank = f.st.bank.coins
    coins = bank + sum(ns.coins for ns in f.st.nations.values())
    if coins > f.rules.bank_coins:
        yield Problem("$.state.bank.coins", f"{coins} coins in the game exceed {f.rules.bank_coins} "
                                            f"(bank {bank}, nations {coins - bank})")


def _personages(f: Facts) -> Iterator[Problem]:
    for p, stack in f.rules.personage_stacks.items():
        total = f.st.bank.personages[p] + sum(ns.personages[p] for ns in f.st.nations.values())
        if total > stack:
            yield Problem(f"$.state.bank.personages.{p}", f"{total} {p} cards in the game exceed {stack}")


TABLE_CHECKS = (_seated_once, _nations_match_seats, _seating, _named_nations_seated)
NATION_CHECKS = (_knowhow, _rondel_index, _city_stones, _unit_caps)
PROVINCE_CHECKS = (_owner_seated, _temple_in_city, _city_site, _units)
BANK_CHECKS = (_temples, _coins, _personages)


def state_problems(st: GameState, edition: Edition, board: Board) -> list[Problem]:
    """Every broken invariant of ``st``, each with the JSON path of the field at fault."""
    f = Facts(st, edition, board, edition.rules_for(st.table), frozenset(st.table.seats))
    out = [p for check in TABLE_CHECKS for p in check(f)]
    if out:  # the checks below, and the edition's, ask each seated nation's part of the state
        return out
    for nation, ns in st.nations.items():
        out += [p for check in NATION_CHECKS for p in check(f, nation, ns)]
    for pid, prov in st.provinces.items():
        if not board.is_province(pid):
            out.append(Problem(f"$.state.provinces.{pid}", f"{pid!r} is not a province of board {board.id!r}"))
            continue
        out += [p for check in PROVINCE_CHECKS for p in check(f, pid, prov)]
    out += [p for check in BANK_CHECKS for p in check(f)]
    return out + (edition.pieces.consistency_problems(st, board) if edition.pieces else [])
