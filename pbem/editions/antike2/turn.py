"""Antike II's turn and units: its facets for the steps of a turn (the personages and the end
of the game, :mod:`.personages`; Pliny; trading with MERCATURA and COMMERCIUM; BELLONA passed
on) and for units (BELLONA's free unit, the +1 defence of small nations). Every rule cites
the English rulebook (key 003).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import pbem.editions.antike2.personages as personages
from pbem.editions.antike2.rules import PERSONAGE_RULES
from pbem.kernel.facets import SharedForces, SharedTurn
from pbem.kernel.rejections import Rejection, reject

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView
    from pbem.kernel.state import GameState

CODES = MappingProxyType({
    "trade/no-knowhow": "{nation} may trade with the bank only with MERCATURA (2 chips for 1) or COMMERCIUM "
                        "(3 for 2), developed in an earlier turn",
})
"""Antike II's own rejection (docs/rejections.md): trading without MERCATURA or COMMERCIUM."""


class Antike2Turn(SharedTurn):
    """The turn: its personages and end of the game, Pliny the Elder, trades at the rates
    of MERCATURA and COMMERCIUM, BELLONA passed on after MILITIA."""

    def end_of_turn(self, t: TurnView) -> None:
        personages.end_of_turn(t)

    def bonus_cards(self, state: GameState, nation: str) -> int:
        """Pliny the Elder is the one card not won at a threshold (nine-scholars variant)."""
        return 1 if state.status.extra.get("pliny") == nation else 0

    def trade_rates(self, state: GameState, nation: str) -> tuple[dict[int, int], Rejection | None]:
        """003 L401-402: MERCATURA trades 2 chips for 1, COMMERCIUM 3 for 2 (any chips in,
        chips of one's choice out, never coins); "at any time during a player's turn, but not
        during the turn in which the player develops MERCATURA" (the turn asks this of the
        state its turn began with)."""
        owned = state.nations[nation].knowhow
        rates = {}
        if "mercatura" in owned:
            rates[2] = 1
        if "commercium" in owned:
            rates[3] = 2
        if not rates:
            return {}, reject("trade/no-knowhow", "$.trade", codes=CODES, nation=self.edition.nation_name(nation))
        return rates, None

    def after_action(self, t: TurnView, field: Any) -> None:
        """003 L254: the holder entering MILITIA "hands the card over to the next nation to
        the right, counter-clockwise (there is no option to keep it)", used or not
        (docs/rulings.md Q24)."""
        if field.name != "militia" or t.state.extra.get("bellona") != t.nation:
            return
        seats = t.state.table.seats
        nxt = seats[(seats.index(t.nation) - 1) % len(seats)]
        t.state.extra["bellona"] = nxt
        t.emit("bellona", to=nxt)


class Antike2Forces(SharedForces):
    """Units: BELLONA's free unit and the +1 defence of small nations."""

    def free_units(self, t: TurnView) -> int:
        """003 L254: the nation holding BELLONA that enters MILITIA "receives an extra
        military unit for free"."""
        return 1 if t.state.extra.get("bellona") == t.nation else 0

    def defence_bonus(self, state: GameState, city: str) -> int:
        """003 L248: "If a nation only owns 0, 1, or 2 personages its cities have an extra
        defense strength of +1" (docs/rulings.md Q9: the rule applies, examples aside)."""
        owner = state.provinces[city].owner
        return 1 if state.nations[owner].personage_count() <= PERSONAGE_RULES.small_nation else 0
