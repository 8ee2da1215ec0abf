"""Antike II's personages at the end of the turn and the end of the game.

003 L196-226 (the five kinds and when each is won), L240-246 (at the end of the turn,
never lost; the goal; the last temple), L102-110 and L218-220 (Pliny, nine scholars).
Thresholds are counters (``NationState.earned``), as in classic: a personage once won is
never lost and a threshold is never earned twice (003 L240-244).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.editions.antike2.rules import PERSONAGE_RULES as P
from pbem.kernel.personages import award

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView


def end_of_turn(t: TurnView) -> None:
    """Award the turn's personages, then see whether the active nation has won."""
    st, ns = t.state, t.ns
    cities, temples, seas = st.holdings(t.nation)
    # 003 L204: "For every 5 cities a nation owns it receives a king."
    award(t, "king", cities // P.king_every - ns.earned["king"], f"{cities} cities")
    # 003 L218: "For every new advance (new technology) a nation receives a scholar."
    award(t, "scholar", len(t.firsts), "first to develop " + ", ".join(t.edition.knowhows[k] for k in t.firsts))
    # 003 L208-210: a general for every temple destroyed, neutral temples included.
    generals_left = st.bank.personages["general"]
    award(t, "general", t.temples_destroyed, "temple destroyed")
    # 003 L214: "For every 3 temples a nation owns it receives a citizen."
    award(t, "citizen", temples // P.citizen_every - ns.earned["citizen"], f"{temples} temples")
    # 003 L226: "control of 7 sea areas" (docs/rulings.md Q20).
    reached = sum(1 for threshold in P.navigator_thresholds if seas >= threshold)
    award(t, "navigator", reached - ns.earned["navigator"], f"galleys in {seas} sea areas")
    if st.table.has("nine_scholars") and st.status.extra.get("pliny") is None \
            and len(ns.knowhow) == len(t.rules.knowhows):
        # 003 L218-220: Pliny the Elder goes to the first nation owning all 8 know-hows.
        st.status.extra["pliny"] = t.nation
        if st.bank.personages["scholar"] > 0:
            st.bank.personages["scholar"] -= 1
            ns.personages["scholar"] += 1
            t.emit("personage", personage="scholar", reason="Pliny the Elder: the first to own all eight know-hows")
    points = ns.personage_count()
    goal = st.table.goal
    status = st.status
    if points >= goal:
        status.winner = t.nation
        t.emit("won", score=points, goal=goal)
    elif t.temples_destroyed and generals_left < t.temples_destroyed and points == goal - 1:
        # 003 L246: "If a nation is short of winning by only 1 personage, it may win the
        # game by destroying a temple even if the bank has no more general".
        status.winner = t.nation
        t.emit("won", score=points, goal=goal, reason="temple destroyed one personage short, no general left")
