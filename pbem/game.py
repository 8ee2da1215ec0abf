"""The whole game file: set-up facts, the state, and the history.

:func:`game_from_json` checks consistency beyond the schema (caps, owners, whose turn)
and names the offending field; :meth:`Game.to_json` is deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.board import Board, known_boards, load_board
from pbem.errors import InconsistentGame, Problem
from pbem.rules import rules_for
from pbem.rules.table import RuleTable
from pbem.state import GameState
from pbem.vocab import PERSONAGES, RONDEL, UNITS

FORMAT = 1
SCHEMA_ID = "https://antike-ref.invalid/schemas/game.schema.json"


@dataclass(slots=True)
class NationMeta:
    """Who plays a nation: public identity and the salted password hash."""

    player: str | None
    email: str | None
    colour: str
    password: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "email": self.email, "colour": self.colour,
                "password": self.password}


@dataclass(slots=True)
class Game:
    """A game file in memory."""

    game_id: str
    edition: str
    variants: list[str]
    goal: int
    players: int
    board: Board
    seats: list[str]
    first: str
    seed: str
    meta: dict[str, NationMeta]
    state: GameState
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rules(self) -> RuleTable:
        return rules_for(self.edition)

    @property
    def military(self) -> bool:
        return "military" in self.variants

    def turn_order(self) -> list[str]:
        """Seats rotated so that the start nation comes first."""
        i = self.seats.index(self.first)
        return self.seats[i:] + self.seats[:i]

    def score(self, nation: str, state: GameState | None = None) -> int:
        """Personages held, or victory points in the military variant (000 L1039-1041),
        in ``state`` (default: the game's own state)."""
        held = (state or self.state).nations[nation].personages
        if self.military:
            points = self.rules.military_points
            return sum(points[p] * held[p] for p in PERSONAGES)
        return sum(held.values())

    def to_json(self) -> dict[str, Any]:
        st = self.state
        return {
            "$schema": SCHEMA_ID,
            "format": FORMAT,
            "game_id": self.game_id,
            "rules": {"edition": self.edition, "variants": sorted(self.variants),
                      "goal": self.goal, "players": self.players},
            "board": {"id": self.board.id, "sha256": self.board.sha256},
            "seed": self.seed,
            "seats": list(self.seats),
            "first": self.first,
            "nations": {n: self.meta[n].to_json() for n in sorted(self.meta)},
            "state": st.to_json(),
            "status": st.status.to_json(),
            "standing_orders": {n: st.standing[n].to_json() for n in sorted(st.standing)},
            "history": self.history,
        }

    def copy_with(self, state: GameState, history: list[dict[str, Any]]) -> Game:
        return Game(self.game_id, self.edition, list(self.variants), self.goal, self.players,
                    self.board, list(self.seats), self.first, self.seed, dict(self.meta), state,
                    history)


def game_from_json(data: dict[str, Any], source: str) -> Game:
    """Build a :class:`Game` from schema-valid JSON; raise if it is inconsistent."""
    if data["board"]["id"] not in known_boards():
        raise InconsistentGame(source, [Problem(
            "$.board.id", f"unknown board {data['board']['id']!r}; known boards: {', '.join(known_boards())}")])
    board = load_board(data["board"]["id"])
    if data["board"]["sha256"] != board.sha256:
        raise InconsistentGame(source, [Problem(
            "$.board.sha256",
            f"the game was created on a different version of board {board.id!r} "
            f"(file {data['board']['sha256'][:12]}…, installed {board.sha256[:12]}…)")])
    rules = data["rules"]
    meta = {n: NationMeta(m["player"], m["email"], m["colour"], m["password"])
            for n, m in data["nations"].items()}
    state = GameState.from_json(data["state"], data["status"], data["standing_orders"])
    game = Game(data["game_id"], rules["edition"], list(rules["variants"]), rules["goal"],
                rules["players"], board, list(data["seats"]), data["first"], data["seed"], meta,
                state, data["history"])
    problems = consistency_problems(game)
    if problems:
        raise InconsistentGame(source, problems)
    return game


def consistency_problems(game: Game) -> list[Problem]:
    """Every broken invariant of ``game``, each with the JSON path of the field at fault."""
    out: list[Problem] = []
    rules = game.rules
    st = game.state
    seats = game.seats
    seat_set = set(seats)

    def bad(path: str, message: str) -> None:
        out.append(Problem(path, message))

    if len(seat_set) != len(seats):
        bad("$.seats", "a nation is seated twice")
    for key, names in (("$.nations", game.meta), ("$.state.nations", st.nations),
                       ("$.standing_orders", st.standing)):
        if set(names) != seat_set:
            bad(key, f"nations {sorted(names)} do not match the seats {sorted(seats)}")
    if game.players != len(seats) and not (game.players == 2 and len(seats) == 4):
        bad("$.rules.players", f"{game.players} players cannot play {len(seats)} nations "
                               "(one player per nation, or 2 players with 4 nations)")
    if game.first not in seat_set:
        bad("$.first", f"start nation {game.first!r} is not seated")
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
        if ns.rondel is not None and not 0 <= ns.rondel < len(RONDEL):
            bad(f"{base}.rondel", f"rondel index {ns.rondel} is not 0-7")
        cities = len(st.cities(nation))
        if cities > rules.city_stones:
            bad("$.state.provinces", f"{nation} has {cities} cities, more than its {rules.city_stones} stones")
        for unit in UNITS:
            n = st.units_on_board(nation, unit)
            if n > rules.unit_cap:
                where = ", ".join(f"{pid} {prov.count(nation, unit)}" for pid, prov in sorted(st.provinces.items())
                                  if prov.count(nation, unit))
                bad("$.state.provinces", f"{nation} has {n} {unit}s on the board, more than {rules.unit_cap} ({where})")
    for pid, prov in st.provinces.items():
        base = f"$.state.provinces.{pid}"
        if not game.board.is_province(pid):
            bad(base, f"{pid!r} is not a province of board {game.board.id!r}")
            continue
        if prov.owner is not None and prov.owner not in seat_set:
            bad(f"{base}.owner", f"owner {prov.owner!r} is not seated")
        if prov.temple and prov.owner is None:
            bad(f"{base}.temple", "a temple without a city")
        for nation, held in prov.units.items():
            if nation not in seat_set:
                bad(f"{base}.units.{nation}", f"units of {nation!r}, who is not seated")
            for unit, n in held.items():
                if n and not game.board.province(pid).neighbours(unit):
                    bad(f"{base}.units.{nation}.{unit}", f"a {unit} cannot stand in {pid}")
    placed = sum(1 for p in st.provinces.values() if p.temple)
    if placed + st.bank.temples > rules.bank_temples:
        bad("$.state.bank.temples", f"{placed} temples placed and {st.bank.temples} in the bank exceed {rules.bank_temples}")
    coins = st.bank.coins + sum(ns.coins for ns in st.nations.values())
    if coins > rules.bank_coins:
        bad("$.state.bank.coins", f"{coins} coins in the game exceed {rules.bank_coins} "
                                  f"(bank {st.bank.coins}, nations {coins - st.bank.coins})")
    for p in PERSONAGES:
        total = st.bank.personages[p] + sum(ns.personages[p] for ns in st.nations.values())
        if total > rules.personage_stacks[p]:
            bad(f"$.state.bank.personages.{p}", f"{total} {p} cards in the game exceed {rules.personage_stacks[p]}")
    return out

