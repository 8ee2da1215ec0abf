"""Antike Duellum's turn and units: its facets for the steps of a turn (event cards at each
moment, the VP track and the end of the game, trading with COMMERCIUM, the city tokens and
the coins a founding or a temple costs) and for units (the recruitment box, automatic
battles, its conquest, town walls and the special units in a city's defence). The rules
themselves are in :mod:`.play`, :mod:`.cardplay`, :mod:`.special` and :mod:`.pieces`; every
rule cites the English rulebook (key 001).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cardplay as cardplay
import pbem.editions.duellum.lots as lots
import pbem.editions.duellum.pieces as pieces
import pbem.editions.duellum.play as play
import pbem.editions.duellum.special as special
from pbem.editions.duellum.rules import TOKENS
from pbem.kernel import queries
from pbem.kernel.facets import SharedForces, SharedTurn
from pbem.kernel.rejections import Rejection, reject
from pbem.kernel.vocab import MOMENTS

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView
    from pbem.kernel.state import GameState


class DuellumTurn(SharedTurn):
    """The turn: event cards at their moments, the VP track and the end of the game,
    COMMERCIUM's trades, the city tokens, the coins beside a founding's or a temple's cost."""

    def end_of_turn(self, t: TurnView) -> None:
        play.end_of_turn(t)

    def at_moment(self, t: TurnView, when: str, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        """001 L427: event cards are played "whenever they wish during their own turns":
        those of the orders' ``events`` marked for this moment (:mod:`.cardplay`). In a
        game without a game master the draws still pending are made first, when the
        reveals they wait for are in, and the display is filled up (:mod:`.lots`)."""
        if when == MOMENTS[0] and lots.by_lot(t.state):
            lots.settle(t.state, t.events, t.chance)
            lots.top_up(t.state, t.events, t.chance)
        cardplay.play_cards(t, when, orders, echo)

    def trade_rates(self, state: GameState, nation: str) -> tuple[dict[int, int], Rejection | None]:
        """001 L336: COMMERCIUM trades 3 chips for 2 (never coins), "at any time during a
        player's turn, but not during the turn in which the player develops Trade" (the turn
        asks this of the state its turn began with)."""
        if "commercium" in state.nations[nation].knowhow:
            return {3: 2}, None
        return {}, reject("trade/no-knowhow", "$.trade", codes=self.edition.codes,
                          nation=self.edition.nation_name(nation))

    def found_problem(self, t: TurnView, city: str, resource: str, path: str) -> bool:
        """001 L197, L467: a city takes a token of its type from the bank; none left, none founded."""
        if pieces.tokens_used(t.state, t.board, resource) >= TOKENS[resource]:
            t.reject("found/no-token", f"{path}.city", resource=resource, tokens=TOKENS[resource])
            return True
        return False

    def found_surcharge(self, t: TurnView, city: str, resource: str) -> int:
        """001 L197: "one additional coin for each adjacent city which produces the same
        resource", any owner, land or sea border (coins only, Q13 in docs/rulings.md)."""
        here = t.board.province(city)
        return sum(1 for p in here.land | here.sea
                   if (prov := t.state.provinces.get(p)) is not None and prov.owner is not None
                   and queries.city_resource(t.state, t.board, p) == resource)

    def temple_surcharge(self, t: TurnView, city: str) -> int:
        return play.temple_surcharge(t, city)


class DuellumForces(SharedForces):
    """Units: armed from the recruitment box and back into it when lost, battles that fight
    themselves, the conquest with town walls and FORTRESS, the special units of the variant."""

    automatic_battles = True
    arm_source_words = "in its recruitment box"

    def reserve(self, state: GameState, nation: str, unit: str) -> int:
        return pieces.box(state, nation).get(unit, 0)

    def arm_source(self, state: GameState, nation: str, unit: str) -> int:
        """001 L284: "Only units that are inside the recruitment box at the beginning of the
        turn may be armed" (counted once, when the action starts)."""
        return pieces.box(state, nation).get(unit, 0)

    def arm_problem(self, t: TurnView, unit: str, at: str, path: str) -> bool:
        return special.arm_problem(t, unit, at, path)

    def arming_iron(self, t: TurnView, unit: str) -> int:
        return special.arming_iron(t, unit)

    def armed(self, t: TurnView, unit: str, at: str, count: int) -> None:
        play.armed(t, unit, at, count)

    def units_lost(self, t: TurnView, nation: str, unit: str, count: int, at: str) -> None:
        pieces.to_box(t.state, nation, unit, count)

    def entry_battles(self, t: TurnView, forces: Any, at: str, unit: str, moving: list[int]) -> list[int] | None:
        return special.entry_battles(t, forces, at, unit, moving)

    def conquer(self, t: TurnView, forces: Any, step: dict[str, Any], path: str) -> dict[str, Any] | None:
        return play.conquer(t, forces, step, path)

    def defence_bonus(self, state: GameState, city: str) -> int:
        """001 L364: +1 "if the city has a town wall"; the variant's special unit defending
        it +1 (001 L437)."""
        return (1 if state.provinces[city].extra.get("wall") else 0) + special.defence_help(state, city)
