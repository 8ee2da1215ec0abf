"""Antike Duellum's event cards played: on one's own turn at the moment the orders name
(001 L427: "whenever they wish during their own turns if the card description does not
indicate otherwise"), and during the opponent's conquest (FORTRESS, 001 L429).

A card of a game of revision :data:`~pbem.editions.duellum.cards.PRINTED_DECK` is data
(:mod:`pbem.editions.duellum.effects`): its moments, its wedge and its steps, carried out
here one by one (:func:`_steps`). A game set up before plays the cards of its first kit as
it did (:func:`_revision_1_effect`), so that it replays as it was played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.effects as effects
import pbem.editions.duellum.lots as lots
from pbem.editions.duellum.deck import discard, draw
from pbem.editions.duellum.effects import DURING_CONQUEST
from pbem.editions.duellum.pieces import box, opponent, set_wall, to_box
from pbem.editions.duellum.rules import SPECIAL_MOVES_AS
from pbem.kernel import queries
from pbem.kernel.vocab import MOMENTS, UNITS

if TYPE_CHECKING:
    from pbem.kernel.protocols import TurnView

SAVES = "when it saves the city"
"""The standing order ``fortress`` that plays a card during the opponent's conquest only
where it makes the city hold (besides ``always`` and ``never``)."""
FORTRESS_CHOICES = ("always", "never", SAVES)


# -- the moment of each card --------------------------------------------------------------


def moment_of(t: TurnView, entry: dict[str, Any]) -> str:
    """When in the turn an ``events`` entry is played: the ``when`` it gives, else before
    the rondel move where its card allows that, else the first moment the card allows
    (ACADEMY: after the rondel move)."""
    if "when" in entry:
        return entry["when"]
    if t.state.table.revision < cards.PRINTED_DECK:
        return MOMENTS[0]
    card = effects.normalised(cards.catalogue(t.state.table.data).get(entry["play"], {}), _after_wedge(t))
    own = [w for w in card["when"] if w in MOMENTS]
    return MOMENTS[0] if not own or MOMENTS[0] in own else own[0]


def _after_wedge(t: TurnView) -> bool:
    """Whether a card of a wedge without ``when`` is played only after the move to it (a
    game of revision :data:`~pbem.editions.duellum.cards.OPEN_TABLE`)."""
    return t.state.table.revision >= cards.OPEN_TABLE


def play_cards(t: TurnView, when: str, orders: dict[str, Any], echo: dict[str, Any]) -> None:
    """The ``events`` of an order file marked for the moment ``when`` of the turn, in the
    order given, each from the hand (001 L427). The echo lists every entry in the order
    given, with the moment the referee chose where the orders left it open."""
    entries = orders.get("events")
    if not entries:
        return
    if when == MOMENTS[0]:
        out = []
        for i, entry in enumerate(entries):
            shown = dict(entry)
            moment = moment_of(t, entry)
            if "when" not in entry and moment != MOMENTS[0]:
                shown["when"] = moment
                t.note_default(f"$.events[{i}].when", f"{entry['play']} is played {effects.moments_words([moment])} "
                                                     "(no \"when\" given: the first moment the card allows)")
            out.append(shown)
        echo["events"] = out
    known = cards.catalogue(t.state.table.data)
    for i, entry in enumerate(echo["events"]):
        if entry.get("when", MOMENTS[0]) != when:
            continue
        path = f"$.events[{i}]"
        cid = entry["play"]
        name = cards.describe(known.get(cid), cid)
        hand = t.state.nations[t.nation].extra["hand"]
        if cid not in hand:
            t.reject("card/not-in-hand", f"{path}.play", nation=t.nation, card=name)
            continue
        if t.state.table.revision >= cards.PRINTED_DECK:
            _play(t, cid, known.get(cid) or {}, entry, path, orders, name, when)
        elif _revision_1_effect(t, cards.legacy_effect(cid, t.state.table.data), entry, path, orders, name, when):
            _to_discards(t, t.nation, cid)


def _to_discards(t: TurnView, holder: str, cid: str) -> None:
    """The card played leaves its holder's hand for the discards (001 L431)."""
    new_hand = list(t.state.nations[holder].extra["hand"])
    new_hand.remove(cid)
    t.state.nation(holder).extra["hand"] = new_hand
    discard(t.state, cid, t.events)


def _play(t: TurnView, cid: str, card: dict[str, Any], entry: dict[str, Any], path: str, orders: dict[str, Any],
          name: str, when: str) -> bool:
    """A card of the vocabulary played on its holder's own turn; ``False`` (and the
    rejections) if it cannot be played now."""
    card = effects.normalised(card, _after_wedge(t))
    if card["steps"] is None:
        t.reject("card/unknown-effect", f"{path}.play", card=name)
        return False
    if DURING_CONQUEST in card["when"]:
        t.reject("card/not-now", f"{path}.play", card=name)
        return False
    if when not in card["when"]:
        t.reject("card/wrong-moment", f"{path}.when", card=name, moments=effects.moments_words(card["when"]),
                 when=effects.moments_words([when]))
        return False
    if card.get("wedge") and t.edition.rondel.canonical(orders["rondel"]["to"]) != card["wedge"]:
        # the code ACADEMY's refusal has always had; another wedge a GM's card names, its own
        code = "card/not-scientia" if card["wedge"] == "scientia" else "card/wrong-wedge"
        t.reject(code, f"{path}.play", card=name, wedge=card["wedge"].upper())
        return False
    needed = effects.needs(card["steps"], card["when"])
    given = [k for k in effects.ORDER_FIELDS if k in entry]
    wrong = False
    for key in given:
        if key not in needed:
            t.reject("card/field", f"{path}.{key}", card=name, field=key)
            wrong = True
    for key in needed:
        if key not in entry:
            t.reject("card/needs-field", f"{path}", card=name, field=key, what=_FIELD_WORDS[key])
            wrong = True
    if wrong:
        return False
    record: dict[str, Any] = {"type": "card", "nation": t.nation, "card": cid, "when": when, "effects": []}
    t.events.append(record)
    _to_discards(t, t.nation, cid)  # played: on the discards before it takes effect, as at the table
    return _steps(t, t.nation, card["steps"], entry, path, name, record["effects"])


_FIELD_WORDS = {"city": "the city (\"city\")", "at": "the region (\"at\")", "unit": "the unit (\"unit\")",
                "to": "the wedge (\"to\")", "cards": "the cards of your hand to discard (\"cards\")"}


def _steps(t: TurnView, holder: str, steps: list[dict[str, Any]], entry: dict[str, Any], path: str, name: str,
           out: list[dict[str, Any]]) -> bool:
    """Carry out a card's steps for its ``holder`` in order, each recorded in ``out`` by its
    kind's function (:data:`STEPS`); ``False`` (and a rejection) at the first that cannot be
    carried out."""
    for step in steps:
        carry_out = STEPS.get(step["kind"])
        if carry_out is not None and not carry_out(t, holder, step, entry, path, name, out):
            return False
    return True


def _gain(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
          out: list[dict[str, Any]]) -> bool:
    """Chips from the supply and coins from the bank (as many as it holds)."""
    times = effects.amount_per(t, holder, step)
    record: dict[str, Any] = {"kind": step["kind"]}
    ns = t.state.nation(holder)
    if "chips" in step:
        got = {r: n * times for r, n in step["chips"].items()}
        for r, n in got.items():
            ns.resources[r] += n
        record["chips"] = got
    if "coins" in step:
        coins = min(step["coins"] * times, t.state.bank.coins)
        ns.coins += coins
        t.state.bank.coins -= coins
        record["coins"] = coins
    out.append(record)
    return True


def _pay(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
         out: list[dict[str, Any]]) -> bool:
    """Chips and coins paid to the bank or the player: the holder all of it or the card is
    refused, the opponent as much as it holds."""
    times = effects.amount_per(t, holder, step)
    payer = holder if step.get("who") == "self" else opponent(t.state, holder)
    theirs = t.state.nation(payer)
    chips = {r: n * times for r, n in step.get("chips", {}).items()}
    coins = step.get("coins", 0) * times
    if payer == holder:
        short = [r for r, n in chips.items() if theirs.resources[r] < n] + (["coin"] if theirs.coins < coins else [])
        if short:
            t.reject("card/cannot-pay", f"{path}.play", card=name, nation=holder, what=effects.step_words(step))
            return False
    else:
        chips = {r: min(n, theirs.resources[r]) for r, n in chips.items()}
        coins = min(coins, theirs.coins)
    to = t.state.nation(holder) if step.get("to") == "player" else None
    for r, n in chips.items():
        theirs.resources[r] -= n
        if to is not None:
            to.resources[r] += n
    theirs.coins -= coins
    if to is not None:
        to.coins += coins
    else:
        t.state.bank.coins += coins
    record = {"kind": step["kind"], "nation": payer, "to": holder if to is not None else "bank"}
    if "chips" in step:
        record["chips"] = chips
    if "coins" in step:
        record["coins"] = coins
    out.append(record)
    return True


def _move_stone(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
                out: list[dict[str, Any]]) -> bool:
    """A stone moved on the rondel: some steps on, or to the wedge the entry names."""
    whose = opponent(t.state, holder) if step.get("whose") == "opponent" else holder
    now = t.state.nations[whose].rondel
    if now is None:
        t.reject("card/no-stone", f"{path}.play", card=name, nation=whose)
        return False
    rondel = t.edition.rondel
    if "steps" in step:
        to = (now + step["steps"]) % len(rondel)
    else:
        wedge = rondel.canonical(entry["to"])
        if wedge is None:
            t.reject("card/field", f"{path}.to", card=name, field="to")
            return False
        to = next((now + k) % len(rondel) for k in range(1, len(rondel) + 1)
                  if rondel[(now + k) % len(rondel)].name == wedge)
    t.state.nation(whose).rondel = to
    out.append({"kind": step["kind"], "nation": whose, "from": now, "to": to, "wedge": rondel[to].name})
    return True


def _free_steps(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
                out: list[dict[str, Any]]) -> bool:
    t.rondel_discount += step["steps"]
    out.append({"kind": step["kind"], "steps": step["steps"]})
    return True


def _defence(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
             out: list[dict[str, Any]]) -> bool:
    """The defence of an opponent's city changed for the holder's conquest of it this turn."""
    other = opponent(t.state, holder)
    city = entry["city"]
    prov = t.state.provinces.get(city)
    if prov is None or prov.owner not in (other,):
        t.reject("card/not-a-rival-city", f"{path}.city", card=name, city=city, nation=other)
        return False
    changes = t.extra.setdefault("defence_change", {})
    changes[city] = changes.get(city, 0) + step["change"]
    out.append({"kind": step["kind"], "city": city, "change": step["change"]})
    return True


def _draw(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
          out: list[dict[str, Any]]) -> bool:
    """Cards from the display for the holder or its opponent."""
    who = opponent(t.state, holder) if step.get("who") == "opponent" else holder
    played = cards.name_of(cards.catalogue(t.state.table.data).get(entry["play"]), entry["play"])
    for _ in range(step.get("count", 1)):
        draw(t.state, who, f"event card {played}", t.events, t.chance)
    out.append({"kind": step["kind"], "nation": who, "count": step.get("count", 1)})
    return True


def _arm(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
         out: list[dict[str, Any]]) -> bool:
    """Units of the holder set up free in one of its cities, from its recruitment box (or
    its supply); the board's terrain decides, and a hostile unit of the type there fights
    each at once, as when armed (001 L289)."""
    at = entry["at"]
    unit = step.get("unit", "any")
    if unit == "any":
        unit = entry["unit"]
        if unit not in UNITS:
            t.reject("card/field", f"{path}.unit", card=name, field="unit")
            return False
    count = step.get("count", 1)
    prov = t.state.provinces.get(at)
    if not t.board.is_province(at) or prov is None or prov.owner != holder:
        t.reject("arm/not-own-city", f"{path}.at", at=at, nation=holder, hint=t.hint(at))
        return False
    if not t.board.can_arm(at, unit):
        t.reject("arm/wrong-terrain", f"{path}.unit" if "unit" in entry else f"{path}.at", unit=unit, at=at,
                 kind=t.board.province(at).kind.replace("_", "-"))
        return False
    source = step.get("from", "box")
    left = box(t.state, holder).get(unit, 0) if source == "box" else queries.stock(t.state, t.edition, holder, unit)
    if left < count:
        t.reject("arm/no-stock", f"{path}.at", nation=holder, left=left, unit=unit, asked=count,
                 where="in its recruitment box" if source == "box" else "in its supply")
        return False
    if source == "box":
        held = dict(box(t.state, holder))
        held[unit] -= count
        t.state.nation(holder).extra["recruitment"] = held
    t.state.province(at).add(holder, unit, count)
    out.append({"kind": "arm", "unit": unit, "at": at, "count": count})
    arm_fight(t, holder, unit, at, count)
    return True


def arm_fight(t: TurnView, holder: str, unit: str, at: str, count: int) -> None:
    """Units just set up where hostile units of their type stand fight them at once, 1 for
    1, both back into their boxes (001 L289); a special unit is killed only in the movement
    phase (001 L439)."""
    if unit in SPECIAL_MOVES_AS:
        return
    other = opponent(t.state, holder)
    k = min(count, t.state.provinces[at].count(other, unit))
    if k:
        here = t.state.province(at)
        here.add(other, unit, -k)
        here.add(holder, unit, -k)
        to_box(t.state, other, unit, k)
        to_box(t.state, holder, unit, k)
        t.emit("battle", at=at, unit=unit, against=other, count=k, started_by=holder)


def _remove(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
            out: list[dict[str, Any]]) -> bool:
    """A town wall destroyed (back to its owner's supply, 001 L367), or units in a region
    removed into their owner's recruitment box (001 L493)."""
    other = opponent(t.state, holder)
    whose = step.get("whose", "opponent")
    owners = {"opponent": (other,), "self": (holder,), "any": (holder, other)}[whose]
    if step.get("piece") == "wall":
        city = entry["city"]
        prov = t.state.provinces.get(city)
        if prov is None or not prov.extra.get("wall") or prov.owner not in owners:
            t.reject("card/no-wall", f"{path}.city", card=name, city=city, hint=t.hint(city))
            return False
        set_wall(t.state, city, False)
        t.state.nation(prov.owner).extra["walls_supply"] += 1
        out.append({"kind": "remove", "wall": city, "owner": prov.owner})
        return True
    at = entry["at"]
    unit = entry["unit"] if step.get("piece") == "unit" else step["piece"]
    owner = owners[0]
    prov = t.state.provinces.get(at)
    there = prov.count(owner, unit) if prov is not None and unit in UNITS else 0
    if not there:
        t.reject("card/nothing-there", f"{path}.at", card=name, nation=owner, unit=unit, at=at, hint=t.hint(at))
        return False
    n = min(there, step.get("count", 1))
    t.state.province(at).add(owner, unit, -n)
    to_box(t.state, owner, unit, n)
    out.append({"kind": "remove", "unit": unit, "at": at, "nation": owner, "count": n})
    return True


def _discard(t: TurnView, holder: str, step: dict[str, Any], entry: dict[str, Any], path: str, name: str,
             out: list[dict[str, Any]]) -> bool:
    """The opponent discards cards drawn at random from its hand (by the game's secret), or
    the holder the cards of its hand the order names."""
    n = step.get("count", 1)
    if step.get("who") == "self":
        hand = list(t.state.nations[holder].extra["hand"])
        chosen = list(entry["cards"])
        for c in chosen:
            if c not in hand:
                t.reject("card/not-in-hand", f"{path}.cards", nation=holder,
                         card=cards.describe(cards.catalogue(t.state.table.data).get(c), c))
                return False
            hand.remove(c)
        if len(chosen) != n:
            t.reject("card/field", f"{path}.cards", card=name, field="cards")
            return False
        whose = holder
    elif lots.by_lot(t.state):  # a game without a game master: drawn by the game's chance, once revealed
        whose = opponent(t.state, holder)
        asked = sum(lots.ask_discard(t.state, whose, t.events, t.chance) for _ in range(n))
        out.append({"kind": "discard", "nation": whose, "count": asked, "random": True})
        return True
    else:
        whose = opponent(t.state, holder)
        hand = list(t.state.nations[whose].extra["hand"])
        chosen = []
        for k in range(min(n, len(hand))):
            i = effects.random_index(t.state.extra["secret"], t.state.status.turn, whose, k, len(hand))
            chosen.append(hand.pop(i))
    t.state.nation(whose).extra["hand"] = hand
    for c in chosen:
        discard(t.state, c, t.events)
    # drawn at random: never public (from revision 3, which marks it so; D18)
    random = {"random": True} if whose != holder and t.state.table.revision >= cards.OPEN_TABLE else {}
    out.append({"kind": "discard", "nation": whose, "cards": chosen, **random})
    return True


STEPS = {"gain": _gain, "pay": _pay, "arm": _arm, "remove": _remove, "move_stone": _move_stone,
         "free_steps": _free_steps, "defence": _defence, "draw": _draw, "discard": _discard}
"""Each kind of step of the vocabulary (:mod:`.effects`) -> the function that carries it out."""


# -- during the opponent's conquest ---------------------------------------------------------


def defence_card(t: TurnView, defender: str, spare: int) -> tuple[str, int] | None:
    """The card ``defender`` plays when the active nation conquers one of its cities, by its
    standing order ``fortress`` (D10 in docs/rulings.md): ``always`` the first such card of
    its hand, ``never`` none, ``when it saves the city`` the first whose defence change the
    attacker cannot meet with its ``spare`` units there. Returns the card and the change of
    the defence (FORTRESS: +1, 001 L429); the card is discarded and its other steps are
    carried out (for the defender)."""
    order = t.state.standing[defender].extra.get("fortress", "always")
    if order == "never":
        return None
    data = t.state.table.data
    hand = t.state.nations[defender].extra["hand"]
    found: list[tuple[str, int, list]] = []
    if t.state.table.revision < cards.PRINTED_DECK:
        found = [(cid, 1, []) for cid in hand if (cards.legacy_effect(cid, data) or {}).get("kind") == "fortress"]
    else:
        known = cards.catalogue(data)
        for cid in hand:
            card = effects.normalised(known.get(cid) or {})
            if card["steps"] is not None and card["when"] == [DURING_CONQUEST]:
                change = sum(s["change"] for s in card["steps"] if s["kind"] == "defence")
                found.append((cid, change, [s for s in card["steps"] if s["kind"] != "defence"]))
    if order == SAVES:
        found = [f for f in found if f[1] > spare]
    if not found:
        return None
    cid, change, rest = found[0]
    _to_discards(t, defender, cid)
    if rest:
        record: dict[str, Any] = {"type": "card", "nation": defender, "card": cid, "when": DURING_CONQUEST,
                                  "effects": []}
        t.events.append(record)
        _steps(t, defender, rest, {"play": cid}, "$", cards.name_of(cards.catalogue(data).get(cid), cid),
               record["effects"])
    return cid, change


# -- revision 1: the first kit, as it was played ---------------------------------------------


def _revision_1_effect(t: TurnView, effect: dict[str, Any] | None, entry: dict[str, Any], path: str,
                       orders: dict[str, Any], name: str, when: str) -> bool:
    """A card of a game set up before revision :data:`~pbem.editions.duellum.cards.PRINTED_DECK`,
    with the effect objects of the first kit, carried out and told as such games played
    them (so that they replay byte for byte); ``False`` (and a rejection) if it cannot be
    played now."""
    effect = effect or {}
    kind = effect.get("kind")
    moment = {} if when == MOMENTS[0] else {"when": when}
    extra_keys = [k for k in entry if k not in ("play", "city", "when")] + \
        (["city"] if "city" in entry and kind != "destroy_wall" else [])
    if extra_keys:
        t.reject("card/field", f"{path}.{extra_keys[0]}", card=name, field=extra_keys[0])
        return False
    if kind == "fortress":
        t.reject("card/not-now", f"{path}.play", card=name)
        return False
    carry_out = FIRST_KIT.get(kind) if kind is not None else None
    if carry_out is None:
        t.reject("card/unknown-effect", f"{path}.play", card=name)
        return False
    return carry_out(t, effect, entry, path, orders, name, moment)


def _destroy_wall(t: TurnView, effect: dict[str, Any], entry: dict[str, Any], path: str, orders: dict[str, Any],
                  name: str, moment: dict[str, str]) -> bool:
    city = entry.get("city")
    prov = t.state.provinces.get(city) if city else None
    if prov is None or not prov.extra.get("wall"):
        t.reject("card/no-wall", f"{path}.city", card=name, city=city or "(no city named)",
                 hint=t.hint(city) if city else "")
        return False
    assert city is not None and prov.owner is not None  # a wall stands in someone's city
    set_wall(t.state, city, False)
    t.state.nation(prov.owner).extra["walls_supply"] += 1
    t.emit("card", card=entry["play"], city=city, owner=prov.owner, **moment)
    return True


def _halve_coins(t: TurnView, effect: dict[str, Any], entry: dict[str, Any], path: str, orders: dict[str, Any],
                 name: str, moment: dict[str, str]) -> bool:
    other = opponent(t.state, t.nation)
    lost = t.state.nations[other].coins // 2
    t.state.nation(other).coins -= lost
    t.state.bank.coins += lost
    t.emit("card", card=entry["play"], against=other, coins=lost, **moment)
    return True


def _gold_per_knowhow(t: TurnView, effect: dict[str, Any], entry: dict[str, Any], path: str, orders: dict[str, Any],
                      name: str, moment: dict[str, str]) -> bool:
    if t.edition.rondel.canonical(orders["rondel"]["to"]) != "scientia":
        t.reject("card/not-scientia", f"{path}.play", card=name)
        return False
    gold = len(t.state.nations[opponent(t.state, t.nation)].knowhow)
    t.ns.resources["gold"] += gold
    t.emit("card", card=entry["play"], gold=gold, **moment)
    return True


def _first_gain(t: TurnView, effect: dict[str, Any], entry: dict[str, Any], path: str, orders: dict[str, Any],
                name: str, moment: dict[str, str]) -> bool:
    for chip, n in effect.get("chips", {}).items():
        t.ns.resources[chip] += n
    coins = min(effect.get("coins", 0), t.state.bank.coins)
    t.ns.coins += coins
    t.state.bank.coins -= coins
    t.emit("card", card=entry["play"], chips=dict(effect.get("chips", {})), coins=coins, **moment)
    return True


def _opponent_pays(t: TurnView, effect: dict[str, Any], entry: dict[str, Any], path: str, orders: dict[str, Any],
                   name: str, moment: dict[str, str]) -> bool:
    other = opponent(t.state, t.nation)
    theirs = t.state.nation(other)
    taken = {}
    for chip, n in effect.get("chips", {}).items():
        taken[chip] = min(n, theirs.resources[chip])
        theirs.resources[chip] -= taken[chip]
    coins = min(effect.get("coins", 0), theirs.coins)
    theirs.coins -= coins
    t.state.bank.coins += coins
    t.emit("card", card=entry["play"], against=other, chips=taken, coins=coins, **moment)
    return True


FIRST_KIT = {"destroy_wall": _destroy_wall, "halve_coins": _halve_coins, "gold_per_knowhow": _gold_per_knowhow,
             "gain": _first_gain, "opponent_pays": _opponent_pays}
"""Each effect of the first kit (revision 1) that is played on its holder's turn -> the
function that carries it out, as such games played it."""

