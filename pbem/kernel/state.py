"""The game state as typed values, to and from the JSON of the game file's state parts.

Everything the rules read or change lives here: the :class:`Table` fixed at creation (who
plays, in which order, to what goal), the bank, each nation's holdings, the provinces, whose
turn it is and the public standing orders. Passwords, player identities and the history
are not part of it (the game service keeps them).

An edition may keep state of its own beside the shared fields (a card hand, a wall, the
holder of a token): each value type has an ``extra`` dict whose keys the edition declares
with their defaults (:attr:`Edition.extras <pbem.kernel.edition.Edition.extras>`). Extra
keys are written beside the shared ones in the same JSON object, so an edition without
extras writes exactly the shared fields.

The kernel works on a :meth:`GameState.copy` and never on a state it was given, so a
refused order file cannot leave a half-changed state behind; serialising never changes a
state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol, TypeVar

from pbem.kernel.vocab import RESOURCES, UNITS

_SCALARS = frozenset({str, int, bool, float, type(None)})


def _read_only(self: object, *args: object, **kwargs: object) -> NoReturn:
    raise SharedStateError("this belongs to a nation shared by two game states; change it through GameState.nation()")


K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


class FrozenDict(dict[K, V]):
    """A dict that cannot be changed (a shared nation's chips, personages, extras): it
    reads, compares and serialises as a plain dict."""

    __slots__ = ()
    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = __ior__ = _read_only


class FrozenList(list[T]):
    """A list that cannot be changed (a shared nation's know-hows)."""

    __slots__ = ()
    __setitem__ = __delitem__ = append = extend = insert = remove = pop = clear = sort = reverse = _read_only
    __iadd__ = __imul__ = _read_only


class Keeps(Protocol):
    """What :func:`_kept_value` needs of the object it keeps a value for."""

    _ro: bool
    _kept: Any


def _kept_value(self: Keeps, make: Callable[[Any], Any]) -> Any:
    """``make(self)``, made once and kept while the object is read-only (and so cannot
    change): the hashing of a replay writes only what a turn changed. One ``make`` per
    process; the value must not be changed. (The ``kept`` of provinces, nations and
    standing orders.)"""
    if not self._ro:
        return make(self)
    if self._kept is None:
        self._kept = make(self)
    return self._kept


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists and scalars), faster than ``deepcopy``."""
    kind = type(value)
    if kind is dict or kind is FrozenDict:
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in value.items()}
    if kind is list or kind is FrozenList:
        return [v if type(v) in _SCALARS else copy_json(v) for v in value]
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def _split(data: dict[str, Any], shared: tuple[str, ...]) -> dict[str, Any]:
    """The keys of ``data`` that are not ``shared``: an edition's own (copied)."""
    return {k: copy_json(v) for k, v in data.items() if k not in shared}


@dataclass(frozen=True, slots=True)
class Table:
    """What is fixed when the game is created: edition, who plays in which seat, the goal."""

    game_id: str
    edition: str
    variants: tuple[str, ...]
    goal: int
    players: int
    seats: tuple[str, ...]
    first: str
    data: str = ""
    """Values the GM entered for what the rulebook does not print (``new --data``), as
    canonical JSON text; empty for none (the edition's rulings apply)."""
    revision: int = 1
    """The revision of the edition's rules the game was set up under
    (:attr:`Edition.revision <pbem.kernel.edition.Edition.revision>`): a rule that would
    change what an order file of an older game did applies from the revision that brought
    it, so every older history replays as it was played. 1: every game set up before
    revisions were recorded."""

    def turn_order(self) -> tuple[str, ...]:
        """Seats rotated so that the start nation comes first."""
        i = self.seats.index(self.first)
        return self.seats[i:] + self.seats[:i]

    def has(self, variant: str) -> bool:
        return variant in self.variants


@dataclass(slots=True)
class Standing:
    """A nation's public standing orders (docs/rulings.md, "Standing orders are public").

    Shared read-only by the states :meth:`GameState.copy` makes; changed only on the copy
    :meth:`GameState.standing_to_change` gives."""

    battle: dict[str, str]
    bonus_stack: list[str]
    coin_substitute: str = "lowest"
    extra: dict[str, Any] = field(default_factory=dict)
    _ro: bool = field(default=False, init=False, repr=False, compare=False)
    _kept: Any = field(default=None, init=False, repr=False, compare=False)

    _SHARED = ("battle", "bonus_stack", "coin_substitute")

    kept = _kept_value

    def stance(self, rival: str) -> str:
        """The battle stance (always / never / home) towards ``rival``."""
        return self.battle.get(rival, self.battle.get("default", "home"))

    def to_json(self) -> dict[str, Any]:
        return {"battle": dict(self.battle), "bonus_stack": list(self.bonus_stack),
                "coin_substitute": self.coin_substitute, **copy_json(self.extra)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Standing:
        return cls(dict(data["battle"]), list(data["bonus_stack"]), data["coin_substitute"],
                   _split(data, cls._SHARED))

    def copy(self) -> Standing:
        return Standing(dict(self.battle), list(self.bonus_stack), self.coin_substitute,
                        copy_json(self.extra))


@dataclass(slots=True)
class NationState:
    """What one nation holds.

    Like provinces, nations are shared read-only by the states :meth:`GameState.copy`
    makes (their dicts and list then refuse changes), and changed only on the copy
    :meth:`GameState.nation` gives.
    """

    _ro: bool = field(default=False, init=False, repr=False, compare=False)
    resources: dict[str, int]
    coins: int
    rondel: int | None
    knowhow: list[str]
    personages: dict[str, int]
    earned: dict[str, int]
    """Threshold counters behind the personages: spent thresholds are never earned again."""
    extra: dict[str, Any] = field(default_factory=dict)
    _kept: Any = field(default=None, init=False, repr=False, compare=False)

    _SHARED = ("resources", "coins", "rondel", "knowhow", "personages", "earned")

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "_ro" and self._ro and name != "_kept":
            raise SharedStateError(f"a nation shared by two game states cannot change its {name!r}; "
                                   "change it through GameState.nation()")
        object.__setattr__(self, name, value)

    def freeze(self) -> None:
        """Make this nation read-only (it is about to be shared by two states)."""
        if self._ro:
            return
        for name in ("resources", "personages", "earned", "extra"):
            object.__setattr__(self, name, FrozenDict(getattr(self, name)))
        object.__setattr__(self, "knowhow", FrozenList(self.knowhow))
        object.__setattr__(self, "_ro", True)

    kept = _kept_value

    @classmethod
    def fresh(cls, resources: dict[str, int], personages: tuple[str, ...],
              extra: dict[str, Any] | None = None) -> NationState:
        """A nation at the start: these chips, no coin, no know-how, no personage."""
        return cls(dict(resources), 0, None, [], dict.fromkeys(personages, 0),
                   dict.fromkeys(personages, 0), copy_json(extra or {}))

    def to_json(self) -> dict[str, Any]:
        return {
            "resources": {r: self.resources[r] for r in RESOURCES},
            "coins": self.coins,
            "rondel": self.rondel,
            "knowhow": sorted(self.knowhow),
            "personages": dict(self.personages),
            "earned": dict(self.earned),
            **copy_json(self.extra),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NationState:
        return cls(
            resources={r: data["resources"][r] for r in RESOURCES},
            coins=data["coins"],
            rondel=data["rondel"],
            knowhow=sorted(data["knowhow"]),
            personages=dict(data["personages"]),
            earned=dict(data["earned"]),
            extra=_split(data, cls._SHARED),
        )

    def copy(self) -> NationState:
        return NationState(dict(self.resources), self.coins, self.rondel, list(self.knowhow),
                           dict(self.personages), dict(self.earned), copy_json(self.extra))

    def personage_count(self) -> int:
        return sum(self.personages.values())


class SharedStateError(RuntimeError):
    """A province shared between two game states was about to be changed in place."""


def _unit_counts(held: dict[str, int]) -> dict[str, int]:
    """A nation's units in a province as written: legions and galleys always, a special
    unit (an edition's variant) only where it stands."""
    out = {u: held[u] for u in UNITS}
    for unit in sorted(held):
        if unit not in out and held[unit]:
            out[unit] = held[unit]
    return out


@dataclass(slots=True)
class ProvinceState:
    """A province with a city, a temple or units in it.

    :meth:`GameState.copy` does not copy provinces: both states share them, read-only, until
    :meth:`GameState.province` gives one state a copy of its own to change. Changing a
    shared province (setting a field, :meth:`add`) raises :class:`SharedStateError`; an
    edition's ``extra`` values must be changed the same way, through
    :meth:`GameState.province`.
    """

    _ro: bool = field(default=False, init=False, repr=False, compare=False)
    """Shared by more than one state: read-only (set first, so ``__setattr__`` can read it)."""
    owner: str | None = None
    temple: bool = False
    units: dict[str, dict[str, int]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    _kept: Any = field(default=None, init=False, repr=False, compare=False)
    """What :meth:`kept` made while read-only."""

    _SHARED = ("owner", "temple", "units")

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "_ro" and self._ro and name != "_kept":
            raise SharedStateError(f"a province shared by two game states cannot change its {name!r}; "
                                   "change it through GameState.province()")
        object.__setattr__(self, name, value)

    def count(self, nation: str, unit: str) -> int:
        return self.units.get(nation, {}).get(unit, 0)

    def add(self, nation: str, unit: str, n: int) -> None:
        if self._ro:
            raise SharedStateError("a province shared by two game states cannot change its units; "
                                   "change it through GameState.province()")
        held = self.units.setdefault(nation, dict.fromkeys(UNITS, 0))
        held[unit] = held.get(unit, 0) + n
        if held[unit] < 0:
            raise ValueError(f"negative {unit} count for {nation}")
        if not any(held.values()):
            del self.units[nation]

    def is_empty(self) -> bool:
        return self.owner is None and not self.temple and not self.units and not self.extra

    def to_json(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "temple": self.temple,
            "units": {n: _unit_counts(self.units[n]) for n in sorted(self.units)},
            **copy_json(self.extra),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProvinceState:
        units = {n: {**{u: c.get(u, 0) for u in UNITS}, **{u: k for u, k in c.items() if u not in UNITS and k}}
                 for n, c in data.get("units", {}).items()}
        return cls(data.get("owner"), data.get("temple", False),
                   {n: c for n, c in units.items() if any(c.values())}, _split(data, cls._SHARED))

    def copy(self) -> ProvinceState:
        return ProvinceState(self.owner, self.temple, {n: dict(c) for n, c in self.units.items()},
                             copy_json(self.extra) if self.extra else {})

    kept = _kept_value


@dataclass(slots=True)
class Bank:
    """The bank's limited pieces; resource chips are unlimited (docs/rulings.md Q5)."""

    coins: int
    temples: int
    personages: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"coins": self.coins, "temples": self.temples, "personages": dict(self.personages)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Bank:
        return cls(data["coins"], data["temples"], dict(data["personages"]))

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
    extra: dict[str, Any] = field(default_factory=dict)

    _SHARED = ("active", "round", "turn", "winner")

    def to_json(self) -> dict[str, Any]:
        return {"active": self.active, "round": self.round, "turn": self.turn,
                "winner": self.winner, **copy_json(self.extra)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Status:
        return cls(data["active"], data["round"], data["turn"], data["winner"],
                   _split(data, cls._SHARED))

    def copy(self) -> Status:
        return Status(self.active, self.round, self.turn, self.winner, copy_json(self.extra))


@dataclass(slots=True)
class GameState:
    """Everything the rules read or change."""

    table: Table
    bank: Bank
    nations: dict[str, NationState]
    provinces: dict[str, ProvinceState]
    status: Status
    standing: dict[str, Standing]
    extra: dict[str, Any] = field(default_factory=dict)
    _frozen: bool = field(default=False, init=False, repr=False, compare=False)
    """Every province, nation and standing order is read-only (:meth:`freeze`)."""
    _fresh: list[ProvinceState | NationState | Standing] | None = field(default=None, init=False, repr=False,
                                                                        compare=False)
    """The objects :meth:`province`, :meth:`nation` and :meth:`standing_to_change` made
    since the state was copied (all others are shared and read-only); ``None``: not known
    (a state read from a file or set up), so :meth:`freeze` looks at every one."""

    _SHARED = ("bank", "nations", "provinces")

    def copy(self) -> GameState:
        """A state to change without changing this one. Provinces and nations are shared
        read-only until :meth:`province` or :meth:`nation` copies one (most of them do not
        change in a turn); standing orders until :meth:`standing_to_change` copies them."""
        self.freeze()
        new = GameState(
            self.table,
            self.bank.copy(),
            dict(self.nations),
            dict(self.provinces),
            self.status.copy(),
            dict(self.standing),
            copy_json(self.extra),
        )
        new._fresh = []
        return new

    def province(self, pid: str) -> ProvinceState:
        """The province's state, to change: created empty on first use (removed again by
        :meth:`prune`), copied first when it is shared with another state. Read through
        ``provinces``; change only what this returns, and fetch it again after anything
        else may have changed the province."""
        prov = self.provinces.get(pid)
        if prov is None:
            prov = self.provinces[pid] = ProvinceState()
            self._made(prov)
        elif prov._ro:
            prov = self.provinces[pid] = prov.copy()
            self._made(prov)
        return prov

    def freeze(self) -> None:
        """Make the provinces, nations and standing orders read-only: the state is final
        (hashed into the history) or about to be shared by a copy. Changing one then means
        :meth:`province`, :meth:`nation` or :meth:`standing_to_change`, which copy it."""
        if self._frozen:
            return
        if self._fresh is None:
            for prov in self.provinces.values():
                if not prov._ro:
                    object.__setattr__(prov, "_ro", True)
            for standing in self.standing.values():
                standing._ro = True
            for held in self.nations.values():
                held.freeze()
        else:
            for made in self._fresh:
                if isinstance(made, NationState):
                    made.freeze()
                elif isinstance(made, ProvinceState):
                    object.__setattr__(made, "_ro", True)
                else:
                    made._ro = True
        self._fresh = []
        self._frozen = True

    def nation(self, nation: str) -> NationState:
        """``nation``'s holdings, to change: copied first when shared with another state.
        Read through ``nations``; change only what this returns."""
        held = self.nations[nation]
        if held._ro:
            held = self.nations[nation] = held.copy()
            self._made(held)
        return held

    def standing_to_change(self, nation: str) -> Standing:
        """``nation``'s standing orders, to change: a copy of its own (read them through
        ``standing``, which another state may share)."""
        own = self.standing[nation] = self.standing[nation].copy()
        self._made(own)
        return own

    def _made(self, obj: ProvinceState | NationState | Standing) -> None:
        """``obj`` was just made for this state to change: not read-only, so neither is the state."""
        self._frozen = False
        if self._fresh is not None:
            self._fresh.append(obj)

    def prune(self) -> None:
        """Forget provinces with nothing in them."""
        for pid in [p for p, s in self.provinces.items() if s.is_empty()]:
            del self.provinces[pid]

    def cities(self, nation: str) -> list[str]:
        return sorted(p for p, s in self.provinces.items() if s.owner == nation)

    def temples(self, nation: str) -> list[str]:
        return sorted(p for p, s in self.provinces.items() if s.owner == nation and s.temple)

    def holdings(self, nation: str) -> tuple[int, int, int]:
        """How many cities, temples and provinces with own galleys ``nation`` has (one pass)."""
        cities = temples = seas = 0
        for prov in self.provinces.values():
            if prov.owner == nation:
                cities += 1
                temples += prov.temple
            held = prov.units.get(nation)
            if held and held.get("galley"):
                seas += 1
        return cities, temples, seas

    def units_on_board(self, nation: str, unit: str) -> int:
        return sum(s.count(nation, unit) for s in self.provinces.values())

    def provinces_json(self) -> dict[str, Any]:
        """Every province with something in it, by id."""
        return {p: self.provinces[p].to_json() for p in sorted(self.provinces)
                if not self.provinces[p].is_empty()}

    def to_json(self) -> dict[str, Any]:
        """The ``state`` object of the game file (status and standing orders live beside it)."""
        return {
            "bank": self.bank.to_json(),
            "nations": {n: self.nations[n].to_json() for n in sorted(self.nations)},
            "provinces": self.provinces_json(),
            **copy_json(self.extra),
        }

    def status_json(self) -> dict[str, Any]:
        return self.status.to_json()

    def standing_json(self) -> dict[str, Any]:
        return {n: self.standing[n].to_json() for n in sorted(self.standing)}

    @classmethod
    def from_json(cls, table: Table, state: dict[str, Any], status: dict[str, Any],
                  standing: dict[str, Any]) -> GameState:
        return cls(
            table,
            Bank.from_json(state["bank"]),
            {n: NationState.from_json(d) for n, d in state["nations"].items()},
            {p: ProvinceState.from_json(d) for p, d in state["provinces"].items()},
            Status.from_json(status),
            {n: Standing.from_json(d) for n, d in standing.items()},
            _split(state, cls._SHARED),
        )
