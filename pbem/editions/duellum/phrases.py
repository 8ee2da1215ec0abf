"""Antike Duellum in the reports' words (its phrases facet, :class:`DuellumPhrases`): town
walls (001 L266, L211, L367), the recruitment box (001 L340), battles that fight themselves
(001 L289, L346), the event cards (001 L415-429) and what each card's effect did
(:mod:`.effects`).

The reports hand these functions their phrasing kit (``words``: see
:class:`pbem.kernel.protocols.Phrases`); nothing here imports the reports. Each event
type has its own small function (:data:`EVENT_LINES`), each step of a card's effect too
(:data:`EFFECT_WORDS`).
"""

from __future__ import annotations

from typing import Any, Protocol

from pbem.editions.duellum.cards import OPEN_TABLE
from pbem.kernel.facets import SharedPhrases
from pbem.kernel.protocols import Cards, CityMark, EditionView, Pieces
from pbem.kernel.vocab import RESOURCES, UNITS


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _card_id(cid: str) -> str:
    """A card's id as a name, where the edit names no printed card: ``card_05`` -> ``CARD 05``."""
    return cid.replace("_", " ").upper()


def event_line(ev: dict[str, Any], words: Any) -> str | None:
    """The sentence for an event Antike Duellum tells its own way; ``None`` for the others."""
    told = EVENT_LINES.get(ev["type"])
    return told(ev, words.name(ev["nation"]) if ev.get("nation") else "", words) if told else None


def _battle(ev: dict[str, Any], n: str, words: Any) -> str | None:
    if not words.automatic:
        return None
    # 001 L289, L346: units of one type meet and cancel out, 1 for 1
    return (f"battle in {words.place(ev['at'])}: {n} and {words.name(ev['against'])} each lose "
            f"{words.count(ev['count'], ev['unit'])} (back into their recruitment boxes)")


def _conquer(ev: dict[str, Any], n: str, words: Any) -> str | None:
    if not ev.get("wall_destroyed"):  # 001 L367: the wall goes back into the owner's supply
        return None
    destroyed = ["its temple"] if ev["temple_destroyed"] else []
    return words.conquest(ev, [*destroyed, "its town wall"],
                          f" (the wall goes back to the {words.name(ev['defender'])}' supply)")


def _wall(ev: dict[str, Any], n: str, words: Any) -> str:  # TEMPLUM, 001 L266
    return f"{n} build a town wall in {words.place(ev['city'])} (paid: {words.pay(ev['paid'])})"


def _walls(ev: dict[str, Any], n: str, words: Any) -> str:  # the VP track, 001 L211
    walls = "a town wall" if ev["count"] == 1 else f"{ev['count']} town walls"
    return f"{n} reach {ev['vp']} on the VP track and receive {walls} for their supply"


def _recruit(ev: dict[str, Any], n: str, words: Any) -> str:  # SCIENTIA, 001 L340
    return f"{n} recruit {words.units(ev['units'])} into their recruitment box (paid: {words.pay(ev['paid'])})"


def _fortress(ev: dict[str, Any], n: str, words: Any) -> str:
    # 001 L429: played by the defender during the attacker's conquest
    defender, city = words.name(ev["defender"]), words.place(ev["city"])
    played = words.card(ev["card"]) if "card" in ev else "FORTRESS"
    if ev.get("held"):
        return (f"{defender} play {played} in {city}: the {n} lack the units for it, so the city holds "
                "and every unit stays")
    lost = ev.get("lost", "unit")
    if isinstance(lost, dict):  # more than one unit may be lost: {"legion": 2}
        lost = " and ".join(("one " + u) if c == 1 else words.count(c, u) for u, c in lost.items())
    else:
        lost = f"one {lost}"
    return f"{defender} play {played} in {city}: the {n} lose {lost} more"


def _draw(ev: dict[str, Any], n: str, words: Any) -> str:
    """A ``draw`` without its ``card`` is one masked for a reader who may not see it
    (:meth:`Duellum.mask_event`)."""
    why = f" ({ev['reason']})" if ev.get("reason") else ""
    if "card" in ev:
        return f"{n} take {words.card(ev['card'])} from the display{why}"
    return f"{n} take an event card from the display{why}"


def _draw_missed(ev: dict[str, Any], n: str, words: Any) -> str:
    why = f" ({ev['reason']})" if ev.get("reason") else ""
    return f"{n} take no event card{why}: the display is empty"


def _shuffle(ev: dict[str, Any], n: str, words: Any) -> str:
    return f"The discarded event cards are shuffled into a new deck of {words.count(ev['cards'], 'card')}"


def _refill(ev: dict[str, Any], n: str, words: Any) -> str:  # 001 L419: the display shows three cards again
    return "The open display is filled up again: " + ", ".join(words.card(c) for c in ev["display"])


def _discarded(ev: dict[str, Any], n: str, words: Any) -> str:
    """A card discarded at random, drawn once the reveals were in (a game without a game
    master, :mod:`.lots`); without its ``cards`` for a reader who may not see them."""
    if "cards" not in ev:
        return f"{n} discard an event card drawn at random"
    return f"{n} discard {', '.join(words.card(c) for c in ev['cards'])}, drawn at random"


def _card(ev: dict[str, Any], n: str, words: Any) -> str:
    """A card played (001 L427): what it did, by the fields its effect records."""
    played = f"{n} play {words.card(ev['card'])}"
    if "effects" in ev:  # a card of the vocabulary (docs/duellum.md, "Entering a card")
        played += words.moment(ev.get("when")) or (" during the conquest" if ev.get("when") == "opponent_conquest"
                                                   else "")
        effects = ev["effects"]
        if len(effects) == 1 and effects[0]["kind"] == "gain":
            return f"{played} and receive {_gain(effects[0], words)}"
        return f"{played}: " + "; ".join(effect_words(e, words) for e in effects) if effects else played
    if "city" in ev:
        owner = words.name(ev["owner"]) if ev.get("owner") else "its owner"
        return f"{played}: the town wall of {words.place(ev['city'])} is destroyed and goes back to the {owner}' supply"
    if "gold" in ev:
        return f"{played} and receive {ev['gold']} gold, 1 for each know-how of their opponent"
    if ev.get("against") and "chips" not in ev:
        return f"{played}: the {words.name(ev['against'])} lose {words.count(ev.get('coins', 0), 'coin')} to the bank"
    if "chips" not in ev and "coins" not in ev:
        return played
    amount = words.pay({**ev.get("chips", {}), "coin": ev.get("coins", 0)})
    amount = "nothing" if amount in ("", "free") else amount
    if ev.get("against"):
        return f"{played}: the {words.name(ev['against'])} pay {amount} to the bank"
    return f"{played} and receive {amount}"


EVENT_LINES = {"battle": _battle, "conquer": _conquer, "wall": _wall, "walls": _walls, "recruit": _recruit,
               "fortress": _fortress, "draw": _draw, "draw-missed": _draw_missed, "shuffle": _shuffle,
               "refill": _refill, "card": _card, "discarded": _discarded}
"""Event type -> its sentence in Antike Duellum's words (``None``: the shared one)."""


def _gain(effect: dict[str, Any], words: Any) -> str:
    """What a card's step moved, every amount it names: ``2 gold, 1 coin``, ``0 gold``."""
    chips = effect.get("chips", {})
    parts = [f"{chips[r]} {r}" for r in RESOURCES if r in chips]
    if "coins" in effect:
        parts.append(words.count(effect["coins"], "coin"))
    return ", ".join(parts) or "nothing"


def _gain_step(e: dict[str, Any], words: Any) -> str:
    return f"they receive {_gain(e, words)}"


def _pay_step(e: dict[str, Any], words: Any) -> str:
    to = "the bank" if e.get("to", "bank") == "bank" else f"the {words.name(e['to'])}"
    return f"the {words.name(e['nation'])} pay {_gain(e, words)} to {to}"


def _arm_step(e: dict[str, Any], words: Any) -> str:
    return f"{words.count(e['count'], e['unit'])} set up in {words.place(e['at'])}, free"


def _remove_step(e: dict[str, Any], words: Any) -> str:
    if "wall" in e:
        return (f"the town wall of {words.place(e['wall'])} is destroyed and goes back to the "
                f"{words.name(e['owner'])}' supply")
    return (f"{words.count(e['count'], e['unit'])} of the {words.name(e['nation'])} in {words.place(e['at'])} go "
            "back to their recruitment box")


def _move_stone_step(e: dict[str, Any], words: Any) -> str:
    return f"the stone of the {words.name(e['nation'])} moves on to {e['wedge'].upper()}"


def _free_steps_step(e: dict[str, Any], words: Any) -> str:
    return f"{words.count(e['steps'], 'more free step')} for the rondel move"


def _defence_step(e: dict[str, Any], words: Any) -> str:
    change = e["change"]
    return (f"the defence of {words.place(e['city'])} is {abs(change)} {'higher' if change > 0 else 'lower'} "
            "for its conquest this turn")


def _draw_step(e: dict[str, Any], words: Any) -> str:
    return f"the {words.name(e['nation'])} take {words.count(e['count'], 'card')} from the open display"


def _discard_step(e: dict[str, Any], words: Any) -> str:
    if "cards" not in e:  # drawn at random, for a reader who may not see them (Duellum.mask_event)
        return f"the {words.name(e['nation'])} discard {words.count(e['count'], 'card')} drawn at random"
    return f"the {words.name(e['nation'])} discard {', '.join(words.card(c) for c in e['cards']) or 'nothing'}"


EFFECT_WORDS = {"gain": _gain_step, "pay": _pay_step, "arm": _arm_step, "remove": _remove_step,
                "move_stone": _move_stone_step, "free_steps": _free_steps_step, "defence": _defence_step,
                "draw": _draw_step, "discard": _discard_step}
"""A step's kind -> what it did, as its record says (:mod:`.effects`)."""


def effect_words(e: dict[str, Any], words: Any) -> str:
    """One step a card carried out, in words."""
    told = EFFECT_WORDS.get(e["kind"])
    return told(e, words) if told else f"{e['kind']}: {e}"


def standing_words(change: dict[str, Any], words: Any) -> list[str]:
    """Antike Duellum's standing orders: play FORTRESS when a city is conquered, the
    display's cards to take first."""
    parts = []
    if "fortress" in change:
        parts.append("play FORTRESS: " + change["fortress"])
    if "draw" in change:
        parts.append("draw first: " + (", ".join(words.card(c) for c in change["draw"])
                                       or "the first card of the display"))
    return parts


def edit_line(edit: dict[str, Any], words: Any) -> str | None:
    """A GM edit of the open display, or of event cards entered from the printed ones; a
    card by its name (from revision 3 of the rules: a game set up before keeps the words its
    reports had, ``CARD 05``)."""
    card = words.card if getattr(words, "revision", 1) >= OPEN_TABLE else _card_id
    if "display" in edit:  # the open display lies open, as at the table
        return ("The open display set to " + (", ".join(card(c) for c in edit["display"]) or "no card")
                + " (the cards it held go to the discards)")
    if "event_cards" in edit:
        return ("Event cards entered from the printed cards: "
                + ", ".join(c.get("name") or card(c["id"]) for c in edit["event_cards"]))
    return None


def province_edit_words(edit: dict[str, Any], words: Any) -> list[str]:
    """A province edit's town wall."""
    if "wall" in edit:
        return ["town wall built" if edit["wall"] else "no town wall"]
    return []


def nation_edit_words(edit: dict[str, Any], words: Any) -> dict[str, str]:
    """A nation edit's walls, recruitment box, VP marker and hand; the hand by its size
    only (its cards are its owner's secret)."""
    out = {}
    if "walls_supply" in edit:
        out["walls_supply"] = f"town walls in the supply set to {edit['walls_supply']}"
    if "recruitment" in edit:
        out["recruitment"] = f"recruitment box set to {words.units(edit['recruitment'])}"
    if "vp" in edit:
        out["vp"] = f"VP marker set to {edit['vp']}"
    if "hand" in edit:
        out["hand"] = f"event cards in hand set to {words.count(len(edit['hand']), 'card')}"
    return out


def status_lines(shown: dict[str, Any], discards: int, card: Any, note: Any) -> list[dict[str, str]]:
    """The open display and the deck (001 L415-419): ``shown`` as the edition's
    ``view_extra`` gives it, ``card`` naming a card without its note, ``note`` giving it."""
    notes = {c: note(c) for c in shown["display"]}
    display = ", ".join(card(c) + ("*" if notes[c] else "") for c in shown["display"]) or "empty"
    footnote = next((f"; * {n}" for n in notes.values() if n), "")
    return [{"label": "Event cards", "value": f"open display {display}; "
                                              f"{_plural(shown.get('deck_size', 0), 'card')} in the deck, "
                                              f"{discards} discarded{footnote}"}]


def nation_facts(shown: dict[str, Any], words: Any) -> tuple[list[dict[str, str]], list[str], str | None]:
    """Town walls, the recruitment box, the VP track, the event cards: their number, and
    the cards themselves only where the reader may see them (``shown``: the edition's
    ``view_nation``)."""
    facts: list[dict[str, str]] = []
    short: list[str] = []
    hand = None
    built = [words.place(c) for c in shown["walls"]]
    supply = shown.get("walls_supply", 0)
    facts.append({"label": "Town walls", "value": (f"{len(built)} built ({', '.join(built)})" if built
                                                   else "none built") + f", {supply} in the supply"})
    short.append(f"walls {len(built)} built, {supply} in supply")
    box = shown["recruitment"]
    keys = [u for u in UNITS if u in box] + sorted(u for u in box if u not in UNITS)
    facts.append({"label": "Recruitment box", "value": " and ".join(_plural(box[u], u) for u in keys) or "empty"})
    short.append("box " + " ".join(f"{box[u]}{u[0].upper()}" for u in keys))
    facts.append({"label": "VP track", "value": f"the marker on {shown['vp']}"})
    short.append(f"VP {shown['vp']}")
    size = shown["hand_size"]
    value = f"{_plural(size, 'card')} in hand" if size else "none in hand"
    if "hand" in shown:
        hand = ", ".join(words.card(c) for c in shown["hand"]) or "none"
        if size:
            value += f": {hand}"
    facts.append({"label": "Event cards", "value": value})
    short.append(_plural(size, "event card"))
    return facts, short, hand


class DuellumView(EditionView, Protocol):
    """What Antike Duellum's phrases read of their edition: its pieces and cards facets
    (which it has)."""

    @property
    def pieces(self) -> Pieces: ...

    @property
    def cards(self) -> Cards: ...


class DuellumPhrases(SharedPhrases):
    """Antike Duellum's words in reports (its phrases facet): its own events and those it
    tells its own way (automatic battles, a conquest that destroys a wall), its standing
    orders, its GM edits, the display and the deck, a nation's box, walls, VP and hand; a
    town wall on the board."""

    event_kinds = frozenset(EVENT_LINES)
    edition: DuellumView
    city_marks: tuple[CityMark, ...] = (CityMark("wall", "battlements", "town wall", "wall"),)

    def event_line(self, ev: dict[str, Any], words: Any) -> str | None:
        return event_line(ev, words)

    def standing_words(self, change: dict[str, Any], words: Any) -> list[str]:
        return standing_words(change, words)

    def edit_line(self, edit: dict[str, Any], words: Any) -> str | None:
        return edit_line(edit, words)

    def province_edit_words(self, edit: dict[str, Any], words: Any) -> list[str]:
        return province_edit_words(edit, words)

    def nation_edit_words(self, edit: dict[str, Any], words: Any) -> dict[str, str]:
        return nation_edit_words(edit, words)

    def status_lines(self, state: Any, words: Any) -> list[dict[str, str]]:
        data, edition = state.table.data, self.edition
        return status_lines(edition.pieces.view_extra(state), len(state.extra.get("discards", [])),
                            lambda c: edition.cards.name(c, data).upper(), lambda c: edition.cards.note(c, data))

    def nation_facts(self, state: Any, nation: str, viewer: str | None,
                     words: Any) -> tuple[list[dict[str, str]], list[str], str | None]:
        return nation_facts(self.edition.pieces.view_nation(state, nation, viewer), words)
