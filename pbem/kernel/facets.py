"""The shared rule of every facet of an edition: what an edition that gives no facet of its
own gets (the protocols are in :mod:`pbem.kernel.protocols` and :mod:`pbem.kernel.setup`).

A facet is made for its edition (``facet(SharedTurn)`` on the edition's class: the class is
called with the edition on first use), so it may ask the edition's rule table and
vocabulary. An edition whose rule differs subclasses the shared facet and overrides the
methods that differ. The facets of a feature some editions lack (cards, secrets, pieces of
their own, GM edits of their own, command-line lines, an order language) are ``None`` on an
edition without it; their ``Shared*`` classes here are what an edition's own facet may start
from (every method saying "nothing of the edition's own").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.kernel.bank import round_coins
from pbem.kernel.rejections import Rejection, reject

if TYPE_CHECKING:
    from pbem.errors import Problem
    from pbem.kernel.board import Board
    from pbem.kernel.protocols import CityMark, EditionView, TurnView
    from pbem.kernel.setup import SetupOptions
    from pbem.kernel.state import GameState, Table


class Facet:
    """A facet of one edition (:attr:`edition`)."""

    def __init__(self, edition: EditionView) -> None:
        self.edition = edition


class SharedSetUp(Facet):
    """Set-up (:class:`pbem.kernel.setup.SetUpRules`): one player per nation, no values a GM
    enters, no rulings to say; the state at the start and the goal are every edition's own."""

    seating_note = ""

    def start(self, options: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
        raise NotImplementedError(f"{self.edition!r} gives no set-up")

    def goal(self, options: SetupOptions, nations: int, players: int) -> int:
        raise NotImplementedError(f"{self.edition!r} gives no goal")

    def seating_problem(self, players: int, nations: int) -> str | None:
        if players != nations:
            return f"{players} players cannot play {nations} nations (one player per nation)"
        return None

    def data_problems(self, data: Any, board: Board) -> list[str]:
        return ["this edition takes no --data: its rulebook prints every value it uses"] if data else []

    def rulings(self, table: Table) -> list[str]:
        return []


class SharedTurn(Facet):
    """The turn (:class:`pbem.kernel.protocols.TurnRules`): with ``coin_each_round``, a coin
    for every nation when a round starts (000 L289-292); the score is the personages held;
    trading needs every know-how, owned since an earlier turn, 2 chips for 1 (000 L512-514,
    Q25); nothing else of the edition's own. The end of the turn is every edition's own."""

    def start_round(self, state: GameState, events: list[dict[str, Any]]) -> None:
        events.append({"type": "round", "round": state.status.round})
        if self.edition.rules_for(state.table).coin_each_round:
            round_coins(state, events)

    def end_of_turn(self, t: TurnView) -> None:
        raise NotImplementedError(f"{self.edition!r} gives no end of the turn")

    def score(self, state: GameState, nation: str) -> int:
        return state.nations[nation].personage_count()

    def bonus_cards(self, state: GameState, nation: str) -> int:
        return 0

    def trade_problem(self, state: GameState, nation: str) -> Rejection | None:
        """Why ``nation`` may not trade with the bank now, or ``None``: trading needs every
        know-how (000 L512-514, Q25)."""
        owned = len(state.nations[nation].knowhow)
        total = len(self.edition.rules_for(state.table).knowhows)
        if owned < total:
            return reject("trade/not-allowed", "$.trade", nation=nation, owned=owned, total=total)
        return None

    def trade_rates(self, state: GameState, nation: str) -> tuple[dict[int, int], Rejection | None]:
        problem = self.trade_problem(state, nation)
        return ({}, problem) if problem is not None else ({2: 1}, None)

    def at_moment(self, t: TurnView, when: str, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        pass

    def after_action(self, t: TurnView, field: Any) -> None:
        pass

    def found_problem(self, t: TurnView, city: str, resource: str, path: str) -> bool:
        return False

    def found_surcharge(self, t: TurnView, city: str, resource: str) -> int:
        return 0

    def temple_surcharge(self, t: TurnView, city: str) -> int:
        return 0


class SharedForces(Facet):
    """Units (:class:`pbem.kernel.protocols.Forces`): armed from the stock at the rule
    table's price, back to the stock when lost, battles when a side demands them (D1), the
    shared conquest and defence."""

    automatic_battles = False
    arm_source_words = "left in stock"

    def reserve(self, state: GameState, nation: str, unit: str) -> int:
        return 0

    def arm_source(self, state: GameState, nation: str, unit: str) -> int:
        from pbem.kernel.queries import stock

        return stock(state, self.edition, nation, unit)

    def arm_problem(self, t: TurnView, unit: str, at: str, path: str) -> bool:
        return False

    def arming_iron(self, t: TurnView, unit: str) -> int:
        return t.rules.arming_iron

    def armed(self, t: TurnView, unit: str, at: str, count: int) -> None:
        pass

    def free_units(self, t: TurnView) -> int:
        return 0

    def units_lost(self, t: TurnView, nation: str, unit: str, count: int, at: str) -> None:
        pass

    def entry_battles(self, t: TurnView, forces: Any, at: str, unit: str, moving: list[int]) -> list[int] | None:
        return None

    def conquer(self, t: TurnView, forces: Any, step: dict[str, Any], path: str) -> dict[str, Any] | None:
        return None

    def defence_bonus(self, state: GameState, city: str) -> int:
        return 0


class SharedPhrases(Facet):
    """The reports' words (:class:`pbem.kernel.protocols.Phrases`): the shared sentences
    only, the score in personages, the board page refined."""

    report_refined = True
    event_kinds: frozenset[str] = frozenset()
    city_marks: tuple[CityMark, ...] = ()

    def score_unit(self, state: GameState) -> str:
        return "personages"

    def event_line(self, ev: dict[str, Any], words: Any) -> str | None:
        return None

    def standing_words(self, change: dict[str, Any], words: Any) -> list[str]:
        return []

    def edit_line(self, edit: dict[str, Any], words: Any) -> str | None:
        return None

    def province_edit_words(self, edit: dict[str, Any], words: Any) -> list[str]:
        return []

    def nation_edit_words(self, edit: dict[str, Any], words: Any) -> dict[str, str]:
        return {}

    def status_lines(self, state: GameState, words: Any) -> list[dict[str, str]]:
        return []

    def nation_facts(self, state: GameState, nation: str, viewer: str | None,
                     words: Any) -> tuple[list[dict[str, str]], list[str], str | None]:
        return [], [], None


class SharedPieces(Facet):
    """What a facet of pieces (:class:`pbem.kernel.protocols.Pieces`) starts from: nothing
    shown beyond the shared state, nothing to check."""

    def view_extra(self, state: GameState) -> dict[str, Any]:
        return {}

    def view_nation(self, state: GameState, nation: str, viewer: str | None) -> dict[str, Any]:
        return {}

    def consistency_problems(self, state: GameState, board: Board) -> list[Problem]:
        return []

    def conservation_problems(self, state: GameState, board: Board) -> list[str]:
        return []


class SharedEdits(Facet):
    """What a facet of GM edits (:class:`pbem.kernel.protocols.GMEdits`) starts from: no
    edit item, province field or nation field of the edition's own, nothing to note."""

    def other(self, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> bool:
        return False

    def province(self, state: GameState, pid: str, edit: dict[str, Any], path: str, out: list[Rejection]) -> None:
        pass

    def nation(self, state: GameState, nation: str, edit: dict[str, Any], path: str,
               out: list[Rejection]) -> frozenset[str]:
        return frozenset()

    def notes(self, table: Table, edits: list[dict[str, Any]]) -> list[str]:
        return []


class SharedLines(Facet):
    """What a facet of command-line lines (:class:`pbem.kernel.protocols.CommandLines`)
    starts from: no line of the edition's own."""

    box = "outside the stock"

    def show(self, state: GameState) -> list[str]:
        return []

    def holdings(self, data: dict[str, Any], game: Any, name: Any, syntax: str) -> list[str]:
        return []

    def wedge(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str] | None:
        return None

    def effect(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str]:
        return []
