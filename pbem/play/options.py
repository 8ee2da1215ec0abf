"""What the active nation can do now: every rondel target with its cost and what the
wedge would yield or allow (``antike-ref options``), plus an order-file template.

Every figure comes from the rule queries and the actions' own previews
(:mod:`pbem.kernel.queries`, :mod:`pbem.kernel.actions`), the same code the turn runs, so
a target shown as legal is accepted by ``check``.
"""

from __future__ import annotations

from typing import Any

from pbem.kernel import queries
from pbem.kernel.vocab import RESOURCES


def options(game) -> dict[str, Any]:
    """Everything ``antike-ref options`` shows for the active nation of ``game`` (anything
    with ``state``, ``edition`` and ``board``)."""
    st, edition, board = game.state, game.edition, game.board
    nation = st.status.active
    ns = st.nations[nation]
    out = []
    for tg in queries.rondel_targets(st, edition, nation):
        entry: dict[str, Any] = {"index": tg.index, "wedge": tg.wedge, "steps": tg.steps,
                                 "cost": tg.cost, "legal": tg.affordable, "rondel": tg.order}
        if tg.affordable:
            landing = edition.rondel.landing(ns.rondel, tg.index)
            pay = queries.surcharge_payment(st, edition, nation, landing) or {} if tg.cost else {}
            entry["pay"] = pay
            budget = {r: ns.resources[r] - pay.get(r, 0) for r in RESOURCES}
            budget["coin"] = ns.coins - pay.get("coin", 0)
            entry["effect"] = edition.rondel[tg.index].action.preview(st, edition, board, nation, budget)
        out.append(entry)
    template = {"game": st.table.game_id, "nation": nation, "turn": st.status.turn,
                "password": "YOUR-PASSWORD", "rondel": {"to": _template_wedge(edition)}}
    return {"game": st.table.game_id, "turn": st.status.turn, "nation": nation,
            "resources": dict(ns.resources), "coins": ns.coins, "rondel": ns.rondel,
            "targets": out, "template": template}


def _template_wedge(edition) -> str:
    """The template's example target: the first production wedge of the rondel that yields gold,
    else the first production wedge."""
    produces = [f for f in edition.rondel.fields if f.action.produces]
    gold = [f for f in produces if f.action.produces == "gold"]
    return (gold or produces or list(edition.rondel.fields))[0].name
