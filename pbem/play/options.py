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


def option_lines(data: dict[str, Any]) -> list[str]:
    """The text ``antike-ref options`` prints for :func:`options`' result (without the
    template): what the nation holds, then one line per rondel target."""
    lines = [f"turn {data['turn']}: {data['nation']} holds "
             + ", ".join(f"{v} {k}" for k, v in data["resources"].items()) + f", {data['coins']} coin(s)"]
    for t in data["targets"]:
        cost = "free" if t["cost"] == 0 else f"{t['cost']} resource(s)"
        head = f"  {t['index']} {t['wedge'].upper():<9} {t['steps']} step(s), {cost}: "
        lines.append(head + (effect_line(t["effect"]) if t["legal"] else "cannot afford"))
    return lines


def effect_line(effect: dict[str, Any]) -> str:
    """What a wedge would let the nation do, in a few words."""
    if "produce" in effect:
        (res, n), = effect["produce"].items()
        return f"produce {n} {res}"
    if "cities" in effect:
        return f"up to {effect['affordable']} temple(s) in {', '.join(effect['cities']) or 'no city'}"
    if "places" in effect:
        stock = ", ".join(f"{n} {unit}s" for unit, n in effect["stock"].items())
        return f"arm up to {effect['affordable']} unit(s) (stock {stock})"
    if "knowhow" in effect:
        offers = [f"{o['name']} {o['price']}" for o in effect["knowhow"] if o["affordable"]]
        return "buy " + (", ".join(offers) if offers else "nothing affordable")
    groups = len(effect["groups"])
    targets = ", ".join(f"{c['city']} (defence {c['defence']})" for c in effect["conquerable"])
    return f"{groups} unit group(s) can move; conquerable: {targets or 'none'}"
