"""What the kernel's modules need of an edition, a turn and a wedge's action, as protocols.

The edition (:class:`~pbem.kernel.edition.Edition`) hands the turn its hooks, the turn
(:class:`~pbem.kernel.turn.Turn`) hands every hook and action itself, and a rondel field
carries an action (:class:`~pbem.kernel.actions.Action`) that the rule queries ask. Were
these modules to name each other's classes, even only for the type checker, they would
import each other in a circle. They name these protocols instead: each says what one side
needs of the other, this module imports none of them, and the classes fit the protocols by
their shape (``Edition`` is an :class:`EditionView`, ``Turn`` a :class:`TurnView`,
``Action`` a :class:`WedgeAction`).

The descriptions an edition gives of its nations (:class:`NationInfo`) and of the state it
keeps beside the shared fields (:class:`Extras`) live here too, since the protocols name
them; :mod:`pbem.kernel.edition` offers them under their old names as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.payments import Cost
    from pbem.kernel.rules import RuleTable
    from pbem.kernel.state import GameState, NationState, Standing, Table


@dataclass(frozen=True, slots=True)
class NationInfo:
    """How a nation is shown: its name and its colour (``#rrggbb``)."""

    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Extras:
    """The state an edition keeps beside the shared fields, each key with its default.

    Keys are written into the same JSON objects as the shared fields (a nation's, a
    province's, the status, the state, the standing orders) and must appear in the
    edition's game schema (:meth:`Edition.schema_extensions
    <pbem.kernel.edition.Edition.schema_extensions>`).
    """

    nation: Mapping[str, Any]
    status: Mapping[str, Any]
    state: Mapping[str, Any]
    standing: Mapping[str, Any]


NO_EXTRAS = Extras({}, {}, {}, {})


class EditionView(Protocol):
    """What the shared rules (the actions, the maneuver, the rule queries, the set-up and
    the order files) ask of an edition: its vocabulary, its rule table and the hooks where
    its rule differs. Documented on :class:`~pbem.kernel.edition.Edition`."""

    nations: Mapping[str, NationInfo]
    variants: Mapping[str, str]
    extras: Extras
    order_keys: tuple[str, ...]
    automatic_battles: bool
    arm_source_words: str
    special_units: Mapping[str, str]

    def rules_for(self, table: Table) -> RuleTable: ...

    def default_standing(self) -> Standing: ...

    def reserve(self, state: GameState, nation: str, unit: str) -> int: ...

    def defence_bonus(self, state: GameState, city: str) -> int: ...

    def arm_source(self, state: GameState, nation: str, unit: str) -> int: ...

    def arm_problem(self, t: TurnView, unit: str, at: str, path: str) -> bool: ...

    def arming_iron(self, t: TurnView, unit: str) -> int: ...

    def armed(self, t: TurnView, unit: str, at: str, count: int) -> None: ...

    def free_units(self, t: TurnView) -> int: ...

    def temple_surcharge(self, t: TurnView, city: str) -> int: ...

    def found_problem(self, t: TurnView, city: str, resource: str, path: str) -> bool: ...

    def found_surcharge(self, t: TurnView, city: str, resource: str) -> int: ...

    def units_lost(self, t: TurnView, nation: str, unit: str, count: int, at: str) -> None: ...

    def entry_battles(self, t: TurnView, forces: Any, at: str, unit: str, moving: list[int]) -> list[int] | None: ...

    def conquer(self, t: TurnView, forces: Any, step: dict[str, Any], path: str) -> dict[str, Any] | None: ...


class TurnView(Protocol):
    """What an action, the maneuver, a personage award and an edition's hook need of the
    turn under way: the state it changes, who plays, and how to record what happens and
    what is refused. Documented on :class:`~pbem.kernel.turn.Turn`."""

    state: GameState
    nation: str
    board: Board
    events: list[dict[str, Any]]
    firsts: list[str]
    temples_destroyed: int
    produced: dict[str, int]
    extra: dict[str, Any]
    start: GameState | None

    @property
    def edition(self) -> EditionView: ...

    @property
    def rules(self) -> RuleTable: ...

    @property
    def ns(self) -> NationState: ...

    def reject(self, code: str, path: str, **values: Any) -> None: ...

    def display(self, value: Any) -> Any: ...

    def hint(self, name: str) -> str: ...

    def note_default(self, path: str, text: str) -> None: ...

    def emit(self, kind: str, **data: Any) -> None: ...

    def produce(self, resource: str, amount: int) -> None: ...

    def pay(self, cost: Cost, pay: dict | None, what: str, path: str) -> dict | None: ...


class WedgeAction(Protocol):
    """What the rondel, the turn and the rule queries need of the action a rondel field
    carries. Documented on :class:`~pbem.kernel.actions.Action`."""

    keys: tuple[str, ...]
    produces: str | None
    spends: str | None

    def run(self, t: TurnView, orders: dict[str, Any], echo: dict[str, Any]) -> None: ...

    def preview(self, state: GameState, edition: EditionView, board: Board, nation: str,
                budget: dict[str, int]) -> dict[str, Any]: ...

    def yields(self, state: GameState, edition: EditionView, board: Board, nation: str) -> int | None: ...
