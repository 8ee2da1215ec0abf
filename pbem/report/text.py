"""One plain sentence per event: the turn log shared by every report format.

``event_line(ev)`` names nations and provinces by their ids (``check`` and ``process``
print it); reports pass ``name`` and ``place`` to use display names instead.
"""

from __future__ import annotations

from typing import Any, Callable

from pbem.kernel.vocab import PAYMENT_KEYS, UNITS

Namer = Callable[[str], str]
WedgeNamer = Callable[[int, str], str]
"""``(index, wedge name) -> label``: how a rondel wedge is named in a sentence."""


def _same(x: str) -> str:
    return x


def _upper(index: int, wedge: str) -> str:
    return wedge.upper()


def _card_id(card: str) -> str:
    """An event card's id as a name: ``card_05`` -> ``CARD 05`` (reports pass the card's
    printed name instead)."""
    return card.replace("_", " ").upper()


def _knowhow_id(name: str) -> str:
    """A know-how's id as a name: ``res_publica`` -> ``res publica`` (reports pass the
    edition's label instead)."""
    return name.replace("_", " ")


def _chips(counts: dict[str, int]) -> str:
    """Chips received, in resource order: ``1 iron and 1 marble``."""
    from pbem.kernel.vocab import RESOURCES

    return " and ".join(f"{counts[r]} {r}" for r in RESOURCES if counts.get(r))


MOMENT_WORDS = {"after_move": " after the rondel move", "after": " after the action"}
"""A trade's or a card's moment of the turn (``when``), where it is not before the rondel move."""


def count(n: int, word: str) -> str:
    """``1 legion``, ``3 legions``, ``2 steps``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pay(paid: dict[str, int] | None) -> str:
    """A payment in words, chips before coins (``1 iron, 2 coins``) whatever order the dict
    has: events read back from a game file have their keys sorted."""
    if not paid:
        return "free"
    return ", ".join(f"{paid[k]} {k}{'s' if k == 'coin' and paid[k] != 1 else ''}"
                     for k in PAYMENT_KEYS if paid.get(k))


def standing_text(change: dict[str, Any], name: Namer = _same, card: Namer = _card_id) -> str:
    """Standing orders (or a change to them) in words: ``battle: home, Persians always; ...``;
    Antike Duellum's own (``fortress``, ``draw``) after the shared ones, ``card`` naming its
    event cards."""
    parts = []
    if "battle" in change:
        battle = change["battle"]
        if isinstance(battle, str):
            battle = {"default": battle}
        stances = [battle["default"]] if "default" in battle else []
        stances += [f"{name(k)} {v}" for k, v in sorted(battle.items()) if k != "default"]
        parts.append("battle: " + ", ".join(stances))
    if "bonus_stack" in change:
        parts.append("bonus stack: " + " > ".join(change["bonus_stack"]))
    if "coin_substitute" in change:
        parts.append("coin substitute: " + change["coin_substitute"])
    if "fortress" in change:  # Antike Duellum: play FORTRESS when a city is conquered
        parts.append("play FORTRESS: " + change["fortress"])
    if "draw" in change:  # Antike Duellum: the display's cards to take first
        parts.append("draw first: " + (", ".join(card(c) for c in change["draw"]) or "the first card of the display"))
    return "; ".join(parts) or "no change"


def event_line(ev: dict[str, Any], name: Namer = _same, place: Namer = _same,
               wedge: WedgeNamer = _upper, knowhow: Namer = _knowhow_id, card: Namer = _card_id,
               automatic: bool = False) -> str:
    """A short English sentence for one event.

    ``name`` turns a nation id into the name shown, ``place`` a province id, ``wedge`` a
    rondel wedge (its index and name: reports tell the two MANEUVER wedges apart),
    ``knowhow`` a know-how id (the edition's label; printed in capitals), ``card`` an
    event card's id (Antike Duellum; its name in capitals). ``automatic``: battles are
    fought by themselves (Antike Duellum), nobody starts or demands them.
    """
    n = name(ev["nation"]) if ev.get("nation") else ""
    kind = ev["type"]
    if kind == "round":
        return f"Round {ev['round']} begins"
    if kind == "coin":
        if ev.get("reason") == "production":  # Antike II: a coin with every production (003 L312)
            return (f"{n} receive a coin for their production" if ev["coin"] else
                    f"{n} take 1 {ev['instead']} instead of a coin for their production (the bank has no coins)")
        return f"{n} receive a coin" if ev["coin"] else f"{n} take 1 {ev['instead']} (the bank has no coins)"
    if kind == "bellona":
        # Antike II (003 L254): the last nation in turn order starts with BELLONA; the
        # holder entering MILITIA passes it on, counter-clockwise.
        if ev.get("to"):
            return f"BELLONA passes to the {name(ev['to'])}"
        why = " (the last nation in turn order)" if ev.get("reason") == "set-up" else ""
        return f"The {n} hold BELLONA{why}: one unit free when they next take MILITIA"
    if kind == "rondel":
        where = "place their stone on" if ev["first"] else f"move {count(ev['steps'], 'step')} to"
        return f"{n} {where} {wedge(ev['to'], ev['wedge'])} (paid: {_pay(ev['paid'])})"
    if kind == "produce":
        return f"{n} produce {ev['amount']} {ev['resource']}"
    if kind == "temple":
        return f"{n} build a temple in {place(ev['city'])} (paid: {_pay(ev['paid'])})"
    if kind == "arm":
        units = f"{n} arm {count(ev['count'], ev['unit'])} in {place(ev['at'])}"
        free = ev.get("free")
        if free:  # Antike II: BELLONA's unit
            if free >= ev["count"]:
                return f"{units}, free with BELLONA"
            return f"{units}, {free} of them free with BELLONA (paid: {_pay(ev['paid'])})"
        return f"{units} (paid: {_pay(ev['paid'])})"
    if kind == "knowhow":
        first = ", first to do so" if ev["first"] else ""
        return f"{n} acquire {knowhow(ev['name']).upper()} for {ev['price']} gold{first} (paid: {_pay(ev['paid'])})"
    if kind == "trade":
        get = ev["get"]
        return (f"{n} trade {_pay(ev['give'])} for {'1 ' + get if isinstance(get, str) else _chips(get)}"
                f"{MOMENT_WORDS.get(ev.get('when'), '')}")
    if kind == "found":
        chosen = f" producing {ev['resource']}" if ev.get("resource") else ""
        return f"{n} found a city{chosen} in {place(ev['city'])} (paid: {_pay(ev['paid'])})"
    if kind == "move":
        route = " → ".join(place(p) for p in [ev["from"], *ev["path"]])
        lost = ev["count"] - ev["arrived"]
        tail = f", {lost} lost on the way" if lost else ""
        return f"{n} move {count(ev['count'], ev['unit'])} {route}{tail}"
    if kind == "battle" and automatic:
        # Antike Duellum (001 L289, L346): units of one type meet and cancel out, 1 for 1
        return (f"battle in {place(ev['at'])}: {n} and {name(ev['against'])} each lose "
                f"{count(ev['count'], ev['unit'])} (back into their recruitment boxes)")
    if kind == "battle":
        who = "demand" if ev["started_by"] != ev["nation"] else "start"
        starter = name(ev["started_by"])
        return (f"battle in {place(ev['at'])}: {starter} {who} it; {n} and {name(ev['against'])} each lose "
                f"{count(ev['count'], ev['unit'])}")
    if kind == "conquer":
        # Units in vocabulary order (legions first), as for payments: events read back from
        # a game file have their keys sorted, and render must say what process said.
        used = ", ".join(count(ev["used"][u], u) for u in UNITS if ev["used"].get(u))
        if ev.get("neutral_temple"):  # Antike II: no city, no defender; the temple goes back to the bank
            return (f"{n} destroy the neutral temple in {place(ev['city'])} "
                    f"(defence {ev['defence']}, using {used})")
        temple = ", destroying its temple" if ev["temple_destroyed"] else ""
        if ev.get("wall_destroyed"):  # Antike Duellum (001 L367): back into the owner's supply
            temple = (f"{temple} and its town wall" if temple else ", destroying its town wall") + \
                f" (the wall goes back to the {name(ev['defender'])}' supply)"
        give = f", giving up {place(ev['give_up'])}" if ev.get("give_up") else ""
        return (f"{n} conquer {place(ev['city'])} from {name(ev['defender'])} "
                f"(defence {ev['defence']}, using {used}){temple}{give}")
    if kind in DUELLUM_EVENTS:
        return _duellum_line(ev, n, name, place, card)
    if kind == "personage":
        return f"{n} win a {ev['personage']} ({ev['reason']})"
    if kind == "personage-missed":
        return f"{n} earn a {ev['personage']} ({ev['reason']}), but the stack is empty"
    if kind == "won":
        why = f" ({ev['reason']})" if ev.get("reason") else ""
        return f"{n} WIN the game with {ev['score']} of {ev['goal']}{why}"
    if kind == "standing":
        return f"{n} change their standing orders: {standing_text(ev['standing'], name, card)}"
    if kind == "player-replaced":
        who = ev.get("player") or "a new player"
        return f"{n} are now played by {who} (the GM replaced the player)"
    return f"{kind}: {ev}"


DUELLUM_EVENTS = frozenset({"wall", "walls", "recruit", "card", "fortress", "draw", "draw-missed", "shuffle",
                            "refill"})
"""The events of Antike Duellum's own rules (town walls, the recruitment box, event cards)."""


def _units(counts: dict[str, int]) -> str:
    """``2 legions and 1 galley``: shared units first, then any other (special units)."""
    keys = [u for u in UNITS if counts.get(u)] + sorted(u for u in counts if u not in UNITS and counts[u])
    return " and ".join(count(counts[u], u) for u in keys) or "no unit"


def _duellum_line(ev: dict[str, Any], n: str, name: Namer, place: Namer, card: Namer) -> str:
    """A sentence for an event of Antike Duellum's own (:data:`DUELLUM_EVENTS`). A ``draw``
    without its ``card`` is one masked for a reader who may not see it
    (:meth:`Edition.mask_event <pbem.kernel.edition.Edition.mask_event>`)."""
    kind = ev["type"]
    if kind == "wall":  # TEMPLUM, 001 L266
        return f"{n} build a town wall in {place(ev['city'])} (paid: {_pay(ev['paid'])})"
    if kind == "walls":  # the VP track, 001 L211
        walls = "a town wall" if ev["count"] == 1 else f"{ev['count']} town walls"
        return f"{n} reach {ev['vp']} on the VP track and receive {walls} for their supply"
    if kind == "recruit":  # SCIENTIA, 001 L340
        return f"{n} recruit {_units(ev['units'])} into their recruitment box (paid: {_pay(ev['paid'])})"
    if kind == "fortress":  # 001 L429: played by the defender during the attacker's conquest
        defender, city = name(ev["defender"]), place(ev["city"])
        played = card(ev["card"]) if "card" in ev else "FORTRESS"
        if ev.get("held"):
            return (f"{defender} play {played} in {city}: the {n} lack the units for it, so the city holds "
                    "and every unit stays")
        lost = ev.get("lost", "unit")
        if isinstance(lost, dict):  # more than one unit may be lost: {"legion": 2}
            lost = " and ".join(("one " + u) if c == 1 else count(c, u) for u, c in lost.items())
        else:
            lost = f"one {lost}"
        return f"{defender} play {played} in {city}: the {n} lose {lost} more"
    if kind == "draw":
        why = f" ({ev['reason']})" if ev.get("reason") else ""
        if "card" in ev:
            return f"{n} take {card(ev['card'])} from the display{why}"
        return f"{n} take an event card from the display{why}"
    if kind == "draw-missed":
        why = f" ({ev['reason']})" if ev.get("reason") else ""
        return f"{n} take no event card{why}: the display is empty"
    if kind == "shuffle":
        return f"The discarded event cards are shuffled into a new deck of {count(ev['cards'], 'card')}"
    if kind == "refill":  # 001 L419: the display shows three cards again
        return "The open display is filled up again: " + ", ".join(card(c) for c in ev["display"])
    # a card played (001 L427): what it did, by the fields its effect records
    played = f"{n} play {card(ev['card'])}"
    if "effects" in ev:  # a card of the vocabulary (docs/duellum.md, "Entering a card")
        played += MOMENT_WORDS.get(ev.get("when"), " during the conquest" if ev.get("when") == "opponent_conquest" else "")
        effects = ev["effects"]
        if len(effects) == 1 and effects[0]["kind"] == "gain":
            return f"{played} and receive {_gain(effects[0])}"
        return f"{played}: " + "; ".join(_effect_words(e, name, place, card) for e in effects) if effects else played
    if "city" in ev:
        owner = name(ev["owner"]) if ev.get("owner") else "its owner"
        return f"{played}: the town wall of {place(ev['city'])} is destroyed and goes back to the {owner}' supply"
    if "gold" in ev:
        return f"{played} and receive {ev['gold']} gold, 1 for each know-how of their opponent"
    if ev.get("against") and "chips" not in ev:
        return f"{played}: the {name(ev['against'])} lose {count(ev.get('coins', 0), 'coin')} to the bank"
    if "chips" not in ev and "coins" not in ev:
        return played
    amount = _pay({**ev.get("chips", {}), "coin": ev.get("coins", 0)})
    amount = "nothing" if amount in ("", "free") else amount
    if ev.get("against"):
        return f"{played}: the {name(ev['against'])} pay {amount} to the bank"
    return f"{played} and receive {amount}"


def _gain(effect: dict[str, Any]) -> str:
    """What a card's step moved, every amount it names: ``2 gold, 1 coin``, ``0 gold``."""
    from pbem.kernel.vocab import RESOURCES

    chips = effect.get("chips", {})
    parts = [f"{chips[r]} {r}" for r in RESOURCES if r in chips]
    if "coins" in effect:
        parts.append(count(effect["coins"], "coin"))
    return ", ".join(parts) or "nothing"


def _effect_words(e: dict[str, Any], name: Namer, place: Namer, card: Namer) -> str:
    """One step a card carried out, as its record says (:mod:`pbem.editions.duellum.effects`)."""
    kind = e["kind"]
    if kind == "gain":
        return f"they receive {_gain(e)}"
    if kind == "pay":
        to = "the bank" if e.get("to", "bank") == "bank" else f"the {name(e['to'])}"
        return f"the {name(e['nation'])} pay {_gain(e)} to {to}"
    if kind == "arm":
        return f"{count(e['count'], e['unit'])} set up in {place(e['at'])}, free"
    if kind == "remove" and "wall" in e:
        return f"the town wall of {place(e['wall'])} is destroyed and goes back to the {name(e['owner'])}' supply"
    if kind == "remove":
        return (f"{count(e['count'], e['unit'])} of the {name(e['nation'])} in {place(e['at'])} go back to their "
                "recruitment box")
    if kind == "move_stone":
        return f"the stone of the {name(e['nation'])} moves on to {e['wedge'].upper()}"
    if kind == "free_steps":
        return f"{count(e['steps'], 'more free step')} for the rondel move"
    if kind == "defence":
        change = e["change"]
        return (f"the defence of {place(e['city'])} is {abs(change)} {'higher' if change > 0 else 'lower'} "
                "for its conquest this turn")
    if kind == "draw":
        return f"the {name(e['nation'])} take {count(e['count'], 'card')} from the open display"
    if kind == "discard":
        return f"the {name(e['nation'])} discard {', '.join(card(c) for c in e['cards']) or 'nothing'}"
    return f"{kind}: {e}"


def production_coin(events: list[dict[str, Any]], i: int) -> bool:
    """Whether ``events[i]`` is a production followed by the coin that production brings
    (Antike II, 003 L312): the two are told as one sentence (:func:`produce_line`)."""
    ev = events[i]
    if ev["type"] != "produce" or i + 1 >= len(events):
        return False
    nxt = events[i + 1]
    return nxt["type"] == "coin" and nxt.get("reason") == "production" and nxt.get("nation") == ev.get("nation")


def produce_line(ev: dict[str, Any], coin: dict[str, Any], name: Namer = _same) -> str:
    """A production and its coin in one sentence: ``Romans produce 4 marble and 1 coin``."""
    n = name(ev["nation"])
    if coin["coin"]:
        return f"{n} produce {ev['amount']} {ev['resource']} and 1 coin"
    return f"{n} produce {ev['amount']} {ev['resource']} and take 1 {coin['instead']} instead of a coin " \
           "(the bank has no coins)"


def event_lines(events: list[dict[str, Any]], name: Namer = _same, place: Namer = _same,
                wedge: WedgeNamer = _upper, knowhow: Namer = _knowhow_id, card: Namer = _card_id,
                automatic: bool = False) -> list[str]:
    """:func:`event_line` for each event, a production and its coin told as one."""
    out = []
    i = 0
    while i < len(events):
        if production_coin(events, i):
            out.append(produce_line(events[i], events[i + 1], name))
            i += 2
            continue
        out.append(event_line(events[i], name, place, wedge, knowhow, card, automatic))
        i += 1
    return out


def _listed(words: list[str]) -> str:
    return ", ".join(words) if words else "none"


def edit_lines(edits: list[dict[str, Any]], name: Namer = _same, place: Namer = _same,
               wedge: WedgeNamer = _upper, knowhow: Namer = _same, personage: Namer = _same) -> list[str]:
    """What a GM edit file changed, one sentence per edit, read from the edit itself.

    Each edit sets the fields it names (docs/orders.md, "GM edit file"), so the sentences
    say what each field was set to. Identities (a new player) are told by their own
    ``player-replaced`` events, and addresses never appear here.
    """
    lines = []
    for e in edits:
        if "bank" in e:
            bank = e["bank"]
            parts = []
            if "coins" in bank:
                parts.append(f"coins set to {bank['coins']}")
            if "temples" in bank:
                parts.append(f"temples set to {bank['temples']}")
            parts += [f"{personage(p)} set to {n}" for p, n in sorted(bank.get("personages", {}).items())]
            lines.append("Bank: " + (", ".join(parts) or "no change"))
        elif "active" in e:
            lines.append(f"{name(e['active'])} are now the nation to play")
        elif "bellona" in e:  # Antike II
            lines.append(f"BELLONA is now held by the {name(e['bellona'])}")
        elif "display" in e:  # Antike Duellum: the open display lies open, as at the table
            lines.append("The open display set to " + (", ".join(_card_id(c) for c in e["display"]) or "no card")
                         + " (the cards it held go to the discards)")
        elif "event_cards" in e:  # Antike Duellum: printed cards entered during the game
            lines.append("Event cards entered from the printed cards: "
                         + ", ".join(c.get("name") or _card_id(c["id"]) for c in e["event_cards"]))
        elif "province" in e:
            parts = []
            if "owner" in e:
                parts.append(f"city of {name(e['owner'])}" if e["owner"] else "no city any more")
            if "temple" in e:
                parts.append("temple built" if e["temple"] else "no temple")
            if "neutral_temple" in e:  # Antike II
                parts.append("neutral temple placed" if e["neutral_temple"] else "no neutral temple")
            if "wall" in e:  # Antike Duellum
                parts.append("town wall built" if e["wall"] else "no town wall")
            if "resource" in e:  # a city type chosen by its founder (Antike II)
                parts.append(f"the city produces {e['resource']}" if e["resource"]
                             else "the city produces the resource the board prints")
            if "units" in e:
                units = []
                for nation, counts in sorted(e["units"].items()):
                    held = [count(counts[u], u) for u in UNITS if counts.get(u)]
                    if held:
                        units.append(f"{name(nation)} {' and '.join(held)}")
                parts.append("units set to " + ("; ".join(units) if units else "none"))
            lines.append(f"{place(e['province'])}: " + (", ".join(parts) or "no change"))
        elif "nation" in e:
            parts = []
            res = e.get("resources", {})
            parts += [f"{k} set to {res[k]}" for k in ("marble", "iron", "gold") if k in res]
            if "coins" in e:
                parts.append(f"coins set to {e['coins']}")
            if "knowhow" in e:
                parts.append("know-how set to " + _listed([knowhow(k) for k in e["knowhow"]]))
            if e.get("personages"):
                parts.append("personages set to " + ", ".join(
                    f"{n} {personage(p)}" for p, n in sorted(e["personages"].items())))
            if e.get("earned"):
                parts.append("personages earned set to " + ", ".join(
                    f"{n} {personage(p)}" for p, n in sorted(e["earned"].items())))
            if "rondel" in e:
                r = e["rondel"]
                parts.append("rondel stone taken off" if r is None else f"rondel stone put on {wedge(r, '')}")
            if "standing" in e:
                parts.append("standing orders: " + standing_text(e["standing"], name))
            # Antike Duellum: the hand is told by its size only (its cards are its owner's secret)
            if "walls_supply" in e:
                parts.append(f"town walls in the supply set to {e['walls_supply']}")
            if "recruitment" in e:
                parts.append(f"recruitment box set to {_units(e['recruitment'])}")
            if "vp" in e:
                parts.append(f"VP marker set to {e['vp']}")
            if "hand" in e:
                parts.append(f"event cards in hand set to {count(len(e['hand']), 'card')}")
            known = {"nation", "resources", "coins", "knowhow", "personages", "earned", "rondel", "standing",
                     "walls_supply", "recruitment", "vp", "hand"}
            parts += [f"{k.replace('_', ' ')} changed" for k in sorted(e) if k not in known]
            lines.append(f"{name(e['nation'])}: " + (", ".join(parts) or "no change"))
        else:
            lines.append("an edit of " + ", ".join(sorted(e)))
    return lines
