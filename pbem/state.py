"""The game state as typed values, to and from the JSON of the game file.

The engine works on a :meth:`GameState.copy` and never on the loaded original, so a
refused order file cannot leave a half-changed state behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.vocab import PERSONAGES, RESOURCES, RONDEL, UNITS

DEFAULT_BONUS_STACK: tuple[str, ...] = ("general", "king", "citizen", "navigator", "scholar")
"""RULINGS.md (D5): tie preference for the all-eight-know-hows personage."""


def _zeros(keys) -> dict[str, int]:
    return {k: 0 for k in keys}


@dataclass(slots=True)
class Standing:
    """A nation's public standing orders (RULINGS.md, "Standing orders are public")."""

    battle: dict[str, str] = field(default_factory=lambda: {"default": "home"})
    bonus_stack: list[str] = field(default_factory=lambda: list(DEFAULT_BONUS_STACK))
    coin_substitute: str = "lowest"

    def stance(self, rival: str) -> str:
        """The battle stance (always / never / home) towards ``rival``."""
        return self.battle.get(rival, self.battle.get("default", "home"))

    def to_json(self) -> dict[str, Any]:
        return {"battle": dict(self.battle), "bonus_stack": list(self.bonus_stack),
                "coin_substitute": self.coin_substitute}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standing:
        return cls(dict(data["battle"]), list(data["bonus_stack"]), data["coin_substitute"])

    def copy(self) -> Standing:
        return Standing(dict(self.battle), list(self.bonus_stack), self.coin_substitute)


@dataclass(slots=True)
class NationState:
    """What one nation holds."""

    resources: dict[str, int]
    coins: int = 0
    rondel: int | None = None
    knowhow: list[str] = field(default_factory=list)
    personages: dict[str, int] = field(default_factory=lambda: _zeros(PERSONAGES))
    earned: dict[str, int] = field(default_factory=lambda: _zeros(PERSONAGES))
    """Threshold counters behind the personages: spent thresholds are never earned again."""
    all8_bonus: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "resources": {r: self.resources[r] for r in RESOURCES},
            "coins": self.coins,
            "rondel": self.rondel,
            "knowhow": sorted(self.knowhow),
            "personages": {p: self.personages[p] for p in PERSONAGES},
            "earned": {p: self.earned[p] for p in PERSONAGES},
            "all8_bonus": self.all8_bonus,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NationState:
        return cls(
            resources={r: data["resources"][r] for r in RESOURCES},
            coins=data["coins"],
            rondel=data["rondel"],
            knowhow=sorted(data["knowhow"]),
            personages={p: data["personages"][p] for p in PERSONAGES},
            earned={p: data["earned"][p] for p in PERSONAGES},
            all8_bonus=data["all8_bonus"],
        )

    def copy(self) -> NationState:
        return NationState(dict(self.resources), self.coins, self.rondel, list(self.knowhow),
                           dict(self.personages), dict(self.earned), self.all8_bonus)

    @property
    def wedge(self) -> str | None:
        return None if self.rondel is None else RONDEL[self.rondel].value

    def personage_count(self) -> int:
        return sum(self.personages.values())


@dataclass(slots=True)
class ProvinceState:
    """A province with a city, a temple or units in it."""

    owner: str | None = None
    temple: bool = False
    units: dict[str, dict[str, int]] = field(default_factory=dict)

    def count(self, nation: str, unit: str) -> int:
        return self.units.get(nation, {}).get(unit, 0)

    def add(self, nation: str, unit: str, n: int) -> None:
        held = self.units.setdefault(nation, _zeros(UNITS))
        held[unit] += n
        if held[unit] < 0:
            raise ValueError(f"negative {unit} count for {nation}")
        if not any(held.values()):
            del self.units[nation]

    def is_empty(self) -> bool:
        return self.owner is None and not self.temple and not self.units

    def to_json(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "temple": self.temple,
            "units": {n: {u: self.units[n][u] for u in UNITS} for n in sorted(self.units)},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProvinceState:
        units = {n: {u: c.get(u, 0) for u in UNITS} for n, c in data.get("units", {}).items()}
        return cls(data.get("owner"), data.get("temple", False),
                   {n: c for n, c in units.items() if any(c.values())})

    def copy(self) -> ProvinceState:
        return ProvinceState(self.owner, self.temple, {n: dict(c) for n, c in self.units.items()})


@dataclass(slots=True)
class Bank:
    """The bank's limited pieces; resource chips are unlimited (rules-digest Q5)."""

    coins: int
    temples: int
    personages: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"coins": self.coins, "temples": self.temples,
                "personages": {p: self.personages[p] for p in PERSONAGES}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bank:
        return cls(data["coins"], data["temples"], {p: data["personages"][p] for p in PERSONAGES})

    def copy(self) -> Bank:
        return Bank(self.coins, self.temples, dict(self.personages))


@dataclass(slots=True)
class Status:
    """Whose turn it is and how far the game has come."""

    active: str
    round: int = 1
    turn: int = 1
    """The number of the turn being played: processed turns + 1."""
    winner: str | None = None
    all_awarded_turn: int | None = None
    """The turn in which the last personage card left the bank (rules-digest Q28)."""

    def to_json(self) -> dict[str, Any]:
        return {"active": self.active, "round": self.round, "turn": self.turn,
                "winner": self.winner, "all_awarded_turn": self.all_awarded_turn}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Status:
        return cls(data["active"], data["round"], data["turn"], data["winner"],
                   data.get("all_awarded_turn"))

    def copy(self) -> Status:
        return Status(self.active, self.round, self.turn, self.winner, self.all_awarded_turn)


@dataclass(slots=True)
class GameState:
    """Everything the rules change: bank, nations, provinces, status, standing orders."""

    bank: Bank
    nations: dict[str, NationState]
    provinces: dict[str, ProvinceState]
    status: Status
    standing: dict[str, Standing]

    def copy(self) -> GameState:
        return GameState(
            self.bank.copy(),
            {n: s.copy() for n, s in self.nations.items()},
            {p: s.copy() for p, s in self.provinces.items()},
            self.status.copy(),
            {n: s.copy() for n, s in self.standing.items()},
        )

    def province(self, pid: str) -> ProvinceState:
        """The province's state, created empty on first use (pruned by :meth:`prune`)."""
        prov = self.provinces.get(pid)
        if prov is None:
            prov = self.provinces[pid] = ProvinceState()
        return prov

    def prune(self) -> None:
        for pid in [p for p, s in self.provinces.items() if s.is_empty()]:
            del self.provinces[pid]

    def cities(self, nation: str) -> list[str]:
        return sorted(p for p, s in self.provinces.items() if s.owner == nation)

    def temples(self, nation: str) -> list[str]:
        return sorted(p for p, s in self.provinces.items() if s.owner == nation and s.temple)

    def units_on_board(self, nation: str, unit: str) -> int:
        return sum(s.count(nation, unit) for s in self.provinces.values())

    def units_json(self) -> dict[str, Any]:
        self.prune()
        return {p: self.provinces[p].to_json() for p in sorted(self.provinces)}

    def to_json(self) -> dict[str, Any]:
        """The ``state`` object of the game file (status and standing orders live beside it)."""
        return {
            "bank": self.bank.to_json(),
            "nations": {n: self.nations[n].to_json() for n in sorted(self.nations)},
            "provinces": self.units_json(),
        }

    @classmethod
    def from_json(cls, state: dict[str, Any], status: dict[str, Any],
                  standing: dict[str, Any]) -> GameState:
        return cls(
            Bank.from_json(state["bank"]),
            {n: NationState.from_json(d) for n, d in state["nations"].items()},
            {p: ProvinceState.from_json(d) for p, d in state["provinces"].items()},
            Status.from_json(status),
            {n: Standing.from_json(d) for n, d in standing.items()},
        )
