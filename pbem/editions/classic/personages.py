"""Classic personages at the end of the turn, the score, and the end of the game: classic's
turn facet (:class:`ClassicTurn`).

000 L205-278 (personages), L231-240 (goals, all 35 awarded), L508-512 (all eight
know-hows), L1033-1047 (expert and military variants); docs/rulings.md Q19, Q27-Q29.
Thresholds are counters (``NationState.earned``): never lost, never earned twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.editions.classic.rules import PERSONAGE_RULES as P
from pbem.kernel.facets import SharedTurn
from pbem.kernel.personages import award as _award

if TYPE_CHECKING:
    from pbem.kernel.state import GameState
    from pbem.kernel.protocols import TurnView
    from pbem.kernel.turn import Turn

PERSONAGES = ("king", "scholar", "general", "citizen", "navigator")


def score(state: GameState, nation: str) -> int:
    """Personages held, or victory points in the military variant (000 L1039-1041)."""
    held = state.nations[nation].personages
    if state.table.has("military"):
        return sum(P.military_points[p] * held[p] for p in PERSONAGES)
    return sum(held.values())


def end_of_turn(t: Turn) -> None:
    """Award personages (Q19 order), then check for a winner (000 L205-278, Q27, Q28)."""
    st, ns = t.state, t.ns
    bank_before = sum(st.bank.personages.values())
    cities, temples, seas = st.holdings(t.nation)
    _award(t, "king", max(0, cities // P.king_every - ns.earned["king"]), f"{cities} cities")
    _award(t, "scholar", len(t.firsts), "first to acquire " + ", ".join(t.firsts))
    _award(t, "general", t.temples_destroyed, "temple destroyed")
    _award(t, "citizen", max(0, temples // P.citizen_every - ns.earned["citizen"]), f"{temples} temples")
    reached = sum(1 for threshold in P.navigator_thresholds if seas >= threshold)
    _award(t, "navigator", max(0, reached - ns.earned["navigator"]), f"galleys in {seas} provinces")
    if (len(ns.knowhow) == len(t.rules.knowhows) and not ns.extra["all8_bonus"]
            and not (st.table.has("expert") or st.table.has("military"))):
        # 000 L508-512: one extra personage from the largest stack; ties by standing order (D5).
        ns.extra["all8_bonus"] = True
        stacks = st.bank.personages
        largest = max(stacks.values())
        if largest > 0:
            prefs = st.standing[t.nation].bonus_stack
            choice = min((p for p in stacks if stacks[p] == largest), key=prefs.index)
            stacks[choice] -= 1
            ns.personages[choice] += 1
            t.emit("personage", personage=choice, reason="all eight know-hows")
    status = st.status
    if bank_before and not sum(st.bank.personages.values()) and status.extra["all_awarded_turn"] is None:
        status.extra["all_awarded_turn"] = status.turn
    points = score(st, t.nation)
    goal = st.table.goal
    if points >= goal:
        status.winner = t.nation
        t.emit("won", score=points, goal=goal)
    elif not bank_before and t.temples_destroyed:
        # The bank was empty before this turn's awards, so the last card went out in an
        # earlier turn (or was taken out by a GM edit, which leaves all_awarded_turn unset).
        # 000 L236-240: once all 35 are out, the first nation to destroy a temple wins.
        status.winner = t.nation
        t.emit("won", score=points, goal=goal, reason="temple destroyed after all personages were awarded")


class ClassicTurn(SharedTurn):
    """Classic's turn facet: the shared turn, with its personages and end of the game
    (:func:`end_of_turn`), its score (:func:`score`) and the all-eight-know-hows card."""

    def end_of_turn(self, t: TurnView) -> None:
        end_of_turn(t)

    def score(self, state: GameState, nation: str) -> int:
        return score(state, nation)

    def bonus_cards(self, state: GameState, nation: str) -> int:
        """The all-eight-know-hows personage is the one card not won by a threshold."""
        return 1 if state.nations[nation].extra["all8_bonus"] else 0
