"""What the active nation can do now: every rondel target with its cost and what the
wedge would yield or allow (``antike-ref options``), plus an order-file template.

Every figure comes from the rule queries and the actions' own previews
(:mod:`pbem.kernel.queries`, :mod:`pbem.kernel.actions`), the same code the turn runs, so
a target shown as legal is accepted by ``check``.

Everything is read from what the active nation may see (:meth:`Edition.player_view
<pbem.kernel.edition.Edition.player_view>`). An edition with a recruitment box, walls and
event cards adds what its view of the nation shows (:meth:`Edition.view_nation
<pbem.kernel.edition.Edition.view_nation>`: the box, the supply, the town walls, its own hand
of cards, never the other's), the open display and the deck's size; its arming wedge arms
from the box, its temple wedge also builds walls and may charge coins beside the marble, its
know-how wedge also recruits into the box.
"""

from __future__ import annotations

from typing import Any

from pbem.kernel import queries
from pbem.kernel.edition import Edition
from pbem.kernel.turn import Turn
from pbem.kernel.vocab import RESOURCES, UNITS


def options(game) -> dict[str, Any]:
    """Everything ``antike-ref options`` shows for the active nation of ``game`` (anything
    with ``state``, ``edition`` and ``board``)."""
    edition, board = game.edition, game.board
    nation = game.state.status.active
    st = edition.player_view(game.state, nation)
    ns = st.nations[nation]
    free = edition.free_units(Turn(st, nation, edition, board))
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
    rates, problem = edition.trade_rates(st, nation)
    if problem is None and rates:
        # chips given -> chips received with the bank (before the rondel move, after it, or after the action)
        data["trade"] = [{"give": give, "get": get} for give, get in sorted(rates.items())]
    held = edition.view_nation(st, nation, nation)
    if held:
        # an edition with a box and cards: the box, supply, walls, VP marker and the nation's own hand (its view:
        # never the other's cards), with the open display and the deck's size
        data.update(held)
        data["supply"] = {u: queries.stock(st, edition, nation, u) for u in UNITS}
        # the display and the deck's size; the lines name and label the cards themselves
        data.update({k: v for k, v in edition.view_extra(st).items() if k != "cards"})
    return data


def _edition_effect(st, edition, board, nation: str, effect: dict[str, Any]) -> None:
    """What an edition adds to a wedge's preview (one with a recruitment box): units armed from a box (and
    only as many as it holds), the coins a temple costs beside its marble."""
    if "places" in effect and type(edition).arm_source is not Edition.arm_source:
        box = {u: edition.arm_source(st, nation, u) for u in UNITS}
        special = {u: n for u in edition.special_units if (n := edition.arm_source(st, nation, u))}  # the variant's
        box.update(special)
        effect["box"] = box
        if special:
            t = Turn(st, nation, edition, board)
            effect["special"] = {u: {"iron": edition.arming_iron(t, u)} for u in special}
        effect["affordable"] = min(effect["affordable"], sum(box.values()))
    if "cities" in effect and type(edition).temple_surcharge is not Edition.temple_surcharge:
        t = Turn(st, nation, edition, board)
        coins = {c: edition.temple_surcharge(t, c) for c in effect["cities"]}
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
        "walls": '"walls": [{"city": P}]',
        "recruit": '"recruit": {"legion": N, "galley": M}',
        "play": 'play one with "events": [{"play": CARD}]',
        "free": 'mark {which} entry "free": true',
    },
    "text": {
        "trade": 'a line such as "trade 2 gold for iron", or "trade after 2 gold for iron" after the action',
        "walls": 'a line "wall CITY"',
        "recruit": 'a line "recruit N legions M galleys"',
        "play": 'play one with a line "play CARD"',
        "free": 'end {which} arm line with "free"',
    },
}
"""How each order that needs a hint is written: in an order file (``json``, what
``antike-ref options`` prints) or in the text syntax of an order mail (``text``,
docs/text-orders.md)."""


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
    if "recruitment" in data:
        lines.extend("  " + line for line in holding_lines(data, game, name, syntax))
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
        own = game.edition.wedge_lines(t["effect"], name, syntax) if game is not None else None
        lines.extend("      " + line for line in (effect_lines(t["effect"], name, syntax) if own is None else own))
    return lines


def _units(counts: dict[str, int]) -> str:
    """``1 legion, 2 galleys`` (legions first, then galleys, then a special unit)."""
    order = [u for u in UNITS if u in counts] + sorted(u for u in counts if u not in UNITS)
    return ", ".join(f"{counts[u]} {u}{'' if counts[u] == 1 else 's'}" for u in order) or "none"


def holding_lines(data: dict[str, Any], game=None, name=lambda ident: ident, syntax: str = "json") -> list[str]:
    """An edition with a recruitment box and cards: the box, the supply, the walls, the VP
    marker, the nation's own hand and the open display, as lines of text (hints in
    ``syntax``, :data:`HINTS`). The wedges that arm from the box and recruit into it are
    named as the board prints them."""
    arms, recruits = _wedge_label(game, data, "arm", "box"), _wedge_label(game, data, "recruit", "recruit")
    lines = [f"recruitment box: {_units(data['recruitment'])} ({arms} arms only these); "
             f"supply: {_units(data['supply'])} ({recruits} recruits from it)",
             f"town walls: {data['walls_supply']} in the supply; built in: "
             f"{', '.join(name(c) for c in data['walls']) or 'none'}; VP marker at {data['vp']}"]
    hand = data.get("hand", [])
    if hand:
        lines.append(f"event cards in your hand ({HINTS[syntax]['play']}):")
        lines.extend(f"  {_card_namer(game, True)(c)}" for c in hand)
    else:
        lines.append("event cards in your hand: none")
    shown = ", ".join(_card_namer(game)(c) for c in data.get("display", [])) or "empty"
    lines.append(f"open display: {shown}; deck: {data.get('deck_size', 0)} "
                 f"card{'' if data.get('deck_size') == 1 else 's'}")
    return lines


def _wedge_label(game, data: dict[str, Any], key: str, effect: str) -> str:
    """The wedge whose action takes the order key ``key``, as the board prints it; without
    a game, the first target whose preview shows ``effect`` (else ``key`` itself)."""
    if game is not None:
        for field in game.edition.rondel.fields:
            if key in field.action.keys:
                return field.label.upper()
    wedge = next((t["wedge"] for t in data["targets"] if effect in t.get("effect", {})), key)
    return wedge.upper()


def _card_namer(game, effects: bool = False):
    """A card id -> ``Name (card_id)``, with its note (a card whose text is not entered),
    and with ``effects`` also what it does and when it is played, in words, from the game's
    catalogue (the edition's :meth:`card_text <pbem.kernel.edition.Edition.card_text>`)."""
    if game is None:
        return lambda cid: cid
    edition, data = game.edition, game.state.table.data

    def describe(cid: str) -> str:
        note = edition.card_note(cid, data)
        name = f"{edition.card_name(cid, data)} ({cid})"
        if not effects:
            return f"{name} ({note})" if note else name
        return f"{name}: {edition.card_text(cid, data, game.state.table.revision) or note}"
    return describe


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


def effect_lines(effect: dict[str, Any], name=lambda ident: ident, syntax: str = "json") -> list[str]:
    """Everything a wedge would let the nation do, as lines of text (hints in ``syntax``,
    :data:`HINTS`): one function per kind of wedge, found by what its preview holds."""
    hint = HINTS[syntax]
    for key, lines in (("produce", _produce_lines), ("cities", _temple_lines), ("places", _arm_lines),
                       ("knowhow", _knowhow_lines)):
        if key in effect:
            return lines(effect, name, hint)
    return _maneuver_lines(effect, name, hint)


def _produce_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    (res, n), = effect["produce"].items()
    return [f"produce {n} {res}"]


def _temple_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """Temples (their price, the cities without one, coins beside the marble), and walls
    where the wedge builds them too."""
    price = _chips(effect.get("price", {}))
    where = ", ".join(name(c) for c in effect["cities"]) or "none"
    out = [f"a temple costs {price} (coins may stand in for it); you can pay for {effect['affordable']} now",
           f"cities without a temple: {where}"]
    if effect.get("surcharge"):
        extra = ", ".join(f"{name(c)} {n}" for c, n in effect["surcharge"].items())
        out.append(f"plus 1 coin per temple in a neighbouring region, paid in coins: {extra}")
    if "walls" in effect:
        walls = effect["walls"]
        open_ = ", ".join(name(c) for c in walls["cities"]) or "none"
        out.append(f"town walls: {walls['supply']} in your supply, {_chips(walls['price'])} each, "
                   f"one per city ({hint['walls']}); cities without one: {open_}")
    return out


def _arm_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """Arming: the price, the stock or box, where and how many, a special unit, free units."""
    stock = ", ".join(f"{n} {unit}s" for unit, n in effect["stock"].items())
    price = _chips(effect.get("price", {}))
    places = "; ".join(f"{name(p['city'])} {p['limit']} ({' or '.join(p['units'])})" for p in effect["places"])
    held = f"in the recruitment box: {_units(effect['box'])}" if "box" in effect else f"in stock: {stock}"
    out = [f"each unit costs {price} (coins may stand in); you can pay for {effect['affordable']} now; {held}",
           f"where, and how many: {places or 'nowhere'}"]
    for unit, cost in effect.get("special", {}).items():
        out.append(f"the {unit} costs {_chips(cost)} and is armed only at a city with a temple")
    if effect.get("free"):
        n = effect["free"]
        which = "its" if n == 1 else "their"
        out.append(f"{n} unit{'s' if n != 1 else ''} armed free (BELLONA): {hint['free'].format(which=which)}")
    return out


def _knowhow_lines(effect: dict[str, Any], name, hint: dict[str, str]) -> list[str]:
    """Know-hows with their prices, and recruiting where the wedge recruits too."""
    out = []
    for o in effect["knowhow"]:
        note = " (needs " + name(o["needs"]) + " first)" if o.get("needs") else ""
        can = "can buy" if o["affordable"] else "cannot afford"
        out.append(f"{name(o['name'])}: {o['price']} gold{note}: {can}")
    if "recruit" in effect:
        prices = ", ".join(f"{_chips(p)} a {u}" for u, p in effect["recruit"]["price"].items())
        out.append(f"recruit from the supply into the recruitment box: {prices} ({hint['recruit']}); "
                   f"in the supply: {_units(effect['recruit']['supply'])}")
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
