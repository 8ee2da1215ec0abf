"""What the active nation can do now: every rondel target with its cost and what the
wedge would yield or allow (``antike-ref options``), plus an order-file template.

Every figure comes from the rule queries and the actions' own previews
(:mod:`pbem.kernel.queries`, :mod:`pbem.kernel.actions`), the same code the turn runs, so
a target shown as legal is accepted by ``check``.

Everything is read from what the active nation may see (an edition's secrets facet,
:meth:`Secrets.player_view <pbem.kernel.protocols.Secrets.player_view>`). An edition with
pieces of its own adds what its view of the nation shows (:meth:`Pieces.view_nation
<pbem.kernel.protocols.Pieces.view_nation>`: a box, a supply, walls, its own hand of cards,
never the other's) and its top-level view (an open display, a deck's size); where its units
are armed from elsewhere than the stock, the arming wedge says so, and where a temple costs
coins beside the marble, the temple wedge. The lines of an edition's own pieces and wedges
are its command-line facet's (:class:`~pbem.kernel.protocols.CommandLines`).
"""

from __future__ import annotations

from typing import Any

from pbem.kernel import queries
from pbem.kernel.facets import SharedForces, SharedLines, SharedTurn
from pbem.kernel.turn import Turn
from pbem.kernel.vocab import RESOURCES, UNITS


def options(game) -> dict[str, Any]:
    """Everything ``antike-ref options`` shows for the active nation of ``game`` (anything
    with ``state``, ``edition`` and ``board``)."""
    edition, board = game.edition, game.board
    nation = game.state.status.active
    st = edition.secrets.player_view(game.state, nation) if edition.secrets else game.state
    ns = st.nations[nation]
    free = edition.forces.free_units(Turn(st, nation, edition, board))
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
            if "conquerable" in entry["effect"] and not edition.rules_for(st.table).conquest_uses_action:
                # a conquest takes no step in this edition: units that end their move there conquer
                entry["effect"]["conquest_takes_a_step"] = False
            if free and "places" in entry["effect"]:
                # units armed for free on this wedge (the edition's free_units)
                entry["effect"]["free"] = free
            _edition_effect(st, edition, board, nation, entry["effect"])
        out.append(entry)
    template = {"game": st.table.game_id, "nation": nation, "turn": st.status.turn,
                "password": "YOUR-PASSWORD", "rondel": _template_rondel(edition, out)}
    data = {"game": st.table.game_id, "turn": st.status.turn, "nation": nation,
            "resources": dict(ns.resources), "coins": ns.coins, "rondel": ns.rondel,
            "targets": out, "template": template}
    rates, problem = edition.turn.trade_rates(st, nation)
    if problem is None and rates:
        # chips given -> chips received with the bank (before the rondel move, after it, or after the action)
        data["trade"] = [{"give": give, "get": get} for give, get in sorted(rates.items())]
    held = edition.pieces.view_nation(st, nation, nation) if edition.pieces else {}
    if held:
        # an edition's own pieces (a box, walls, a hand: its view, never the other's cards),
        # the supply, and its top-level view (a display, a deck's size)
        data.update(held)
        data["supply"] = {u: queries.stock(st, edition, nation, u) for u in UNITS}
        # the lines name and label the cards themselves
        data.update({k: v for k, v in edition.pieces.view_extra(st).items() if k != "cards"})
    return data


def _edition_effect(st, edition, board, nation: str, effect: dict[str, Any]) -> None:
    """What an edition adds to a wedge's preview where its units facet arms from elsewhere than
    the stock (a recruitment box: and only as many as it holds, special units too), or its turn
    facet charges coins for a temple beside its marble."""
    forces = edition.forces
    if "places" in effect and type(forces).arm_source is not SharedForces.arm_source:
        box = {u: forces.arm_source(st, nation, u) for u in UNITS}
        special = {u: n for u in edition.special_units if (n := forces.arm_source(st, nation, u))}  # the variant's
        box.update(special)
        effect["box"] = box
        if special:
            t = Turn(st, nation, edition, board)
            effect["special"] = {u: {"iron": forces.arming_iron(t, u)} for u in special}
        effect["affordable"] = min(effect["affordable"], sum(box.values()))
    if "cities" in effect and type(edition.turn).temple_surcharge is not SharedTurn.temple_surcharge:
        t = Turn(st, nation, edition, board)
        coins = {c: edition.turn.temple_surcharge(t, c) for c in effect["cities"]}
        effect["surcharge"] = {c: n for c, n in coins.items() if n}


def _template_rondel(edition, targets: list[dict[str, Any]]) -> dict[str, Any]:
    """The template's rondel move: the cheapest legal target, a production wedge first among
    equals (then the nearest); with its payment spelled out when it costs anything, so the
    template never suggests paying with a chip when a cheaper way exists (the payment is the
    default one: the chip held most, coins last)."""
    legal = [t for t in targets if t["legal"]]
    if not legal:
        return {"to": edition.rondel[targets[0]["index"]].name} if targets else {}

    def key(t):
        return t["cost"], "produce" not in t.get("effect", {}), t["steps"]

    best = min(legal, key=key)
    move = dict(best["rondel"])
    if best["cost"]:
        move["pay"] = dict(best.get("pay", {}))
    return move


HINTS: dict[str, dict[str, str]] = {
    "json": {
        "trade": '"trade" in the order file, with "when": "after_move" or "after" for later in the turn',
    },
    "text": {
        "trade": 'a line such as "trade 2 gold for iron", or "trade after 2 gold for iron" after the action',
    },
}
"""How each shared order that needs a hint is written: in an order file (``json``, what
``antike-ref options`` prints) or in the text syntax of an order mail (``text``,
docs/text-orders.md). An edition's own orders are hinted in its own lines
(:class:`~pbem.kernel.protocols.CommandLines`)."""


def option_lines(data: dict[str, Any], game=None, syntax: str = "json") -> list[str]:
    """The text ``antike-ref options`` prints for :func:`options`' result (without the
    template): what the nation holds, then for every rondel target its steps, its cost with
    the payment the referee would take, and everything the wedge allows, as ``--json`` has
    it. With ``game``, names are shown as the board and the report show them. ``syntax``
    says how the hints spell an order (:data:`HINTS`): ``json`` for an order file,
    ``text`` for a mail answered in the text syntax."""
    name = _namer(game)
    hint = HINTS[syntax]
    coins = f"{data['coins']} coin{'' if data['coins'] == 1 else 's'}"
    lines = [f"turn {data['turn']}: {name(data['nation'])} hold "
             + ", ".join(f"{v} {k}" for k, v in data["resources"].items()) + f", {coins}"]
    if data.get("trade"):
        rates = ", ".join(f"{r['give']} chips for {r['get']}" for r in data["trade"])
        lines.append(f"  may trade with the bank at any time of the turn: {rates}, or a multiple in one trade "
                     f"({hint['trade']}; never coins)")
    own = game.edition.lines if game is not None else None
    if own:
        lines.extend("  " + line for line in own.holdings(data, game, name, syntax))
    labels = _labels(game, data)
    for t in data["targets"]:
        steps = f"{t['steps']} step{'' if t['steps'] == 1 else 's'}"
        if t["cost"] == 0:
            cost = "free"
        else:
            cost = f"costs {t['cost']} resource{'' if t['cost'] == 1 else 's'} of any kind"
            if t["legal"]:
                cost += f" (by default paid with {_chips(t.get('pay', {}))})"
        lines.append(f"  {t['index']} {labels[t['index']]}: {steps}, {cost}")
        if not t["legal"]:
            lines.append("      cannot afford it")
            continue
        told = own.wedge(t["effect"], name, syntax) if own else None
        if told is None:
            told = effect_lines(t["effect"], name, syntax, own.box if own else SharedLines.box)
            told += own.effect(t["effect"], name, syntax) if own else []
        lines.extend("      " + line for line in told)
    return lines


def _units(counts: dict[str, int]) -> str:
    """``1 legion, 2 galleys`` (legions first, then galleys, then a special unit)."""
    order = [u for u in UNITS if u in counts] + sorted(u for u in counts if u not in UNITS)
    return ", ".join(f"{counts[u]} {u}{'' if counts[u] == 1 else 's'}" for u in order) or "none"


def _labels(game, data) -> dict[int, str]:
    """Each target's wedge as the board prints it; a wedge name that occurs twice gets its
    index, as the report has it: ``MANEUVER (3)``."""
    names = {}
    for t in data["targets"]:
        label = t["wedge"].upper()
        if game is not None:
            label = game.edition.rondel[t["index"]].label.upper()
        names[t["index"]] = label
    twice = {v for v in names.values() if list(names.values()).count(v) > 1}
    return {i: f"{v} ({i})" if v in twice else v for i, v in names.items()}


def _namer(game):
    if game is None:
        return lambda ident: ident
    edition, board = game.edition, game.board

    def name(ident: str) -> str:
        if ident in board.provinces:
            return board.provinces[ident].name
        if ident in edition.nations:
            return edition.nations[ident].name
        return edition.knowhows.get(ident, ident)
    return name


def _chips(pay: dict[str, int]) -> str:
    parts = [f"{n} {chip}{'s' if chip == 'coin' and n != 1 else ''}" for chip, n in pay.items() if n]
    return " and ".join(parts) or "nothing"


def effect_lines(effect: dict[str, Any], name=lambda ident: ident, syntax: str = "json",
                 box: str = SharedLines.box) -> list[str]:
    """Everything a wedge would let the nation do, as lines of text (hints in ``syntax``,
    :data:`HINTS`): one function per kind of wedge, found by what its preview holds; ``box``
    says where units armed from elsewhere than the stock are (:attr:`CommandLines.box
    <pbem.kernel.protocols.CommandLines>`)."""
    hint = {**HINTS[syntax], "box": box}
    for key, lines in (("produce", _produce_lines), ("cities", _temple_lines), ("places", _arm_lines),
                       ("knowhow", _knowhow_lines)):
        if key in effect:
            return lines(effect, name, hint)
    return _maneuver_lines(effect, name, hint)


def _produce_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    (res, n), = effect["produce"].items()
    return [f"produce {n} {res}"]


def _temple_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """Temples (their price, the cities without one, coins beside the marble)."""
    price = _chips(effect.get("price", {}))
    where = ", ".join(name(c) for c in effect["cities"]) or "none"
    out = [f"a temple costs {price} (coins may stand in for it); you can pay for {effect['affordable']} now",
           f"cities without a temple: {where}"]
    if effect.get("surcharge"):
        extra = ", ".join(f"{name(c)} {n}" for c, n in effect["surcharge"].items())
        out.append(f"plus 1 coin per temple in a neighbouring region, paid in coins: {extra}")
    return out


def _arm_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """Arming: the price, the stock or box, where and how many, a special unit."""
    stock = ", ".join(f"{n} {unit}s" for unit, n in effect["stock"].items())
    price = _chips(effect.get("price", {}))
    places = "; ".join(f"{name(p['city'])} {p['limit']} ({' or '.join(p['units'])})" for p in effect["places"])
    held = f"{hint['box']}: {_units(effect['box'])}" if "box" in effect else f"in stock: {stock}"
    out = [f"each unit costs {price} (coins may stand in); you can pay for {effect['affordable']} now; {held}",
           f"where, and how many: {places or 'nowhere'}"]
    for unit, cost in effect.get("special", {}).items():
        out.append(f"the {unit} costs {_chips(cost)} and is armed only at a city with a temple")
    return out


def _knowhow_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """Know-hows with their prices."""
    out = []
    for o in effect["knowhow"]:
        note = " (needs " + name(o["needs"]) + " first)" if o.get("needs") else ""
        can = "can buy" if o["affordable"] else "cannot afford"
        out.append(f"{name(o['name'])}: {o['price']} gold{note}: {can}")
    return out


def _maneuver_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """The groups of units with where they reach, and the cities they can conquer."""
    out = []
    for g in effect["groups"]:
        unit = g["unit"] + ("s" if g["count"] != 1 else "")
        reach = ", ".join(f"{name(p)} {n}" for p, n in sorted(g["reach"].items(), key=lambda kv: (kv[1], kv[0])))
        out.append(f"{g['count']} {unit} in {name(g['at'])} ({g['actions']} step{'s' if g['actions'] != 1 else ''} "
                   f"each) reach (province and steps): {reach or 'nowhere'}")
    if not effect["groups"]:
        out.append("no unit can move")
    for c in effect["conquerable"]:
        whose = f"{name(c['city'])} of {name(c['owner'])}" if c["owner"] is not None \
            else f"the neutral temple in {name(c['city'])}"
        left = " with a step left" if effect.get("conquest_takes_a_step", True) else " this turn"
        out.append(f"can conquer {whose}: defence {c['defence']}, "
                   f"{c['units_in_reach']} of your units can reach it{left}")
    if not effect["conquerable"]:
        out.append("no rival city within reach of enough units to conquer it")
    return out
