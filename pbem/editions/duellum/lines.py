"""Antike Duellum's lines for ``options`` (and the options a mail sends): its command-line
facet (:class:`DuellumLines`). What a nation holds of its own (the recruitment box, the
supply, the town walls, the VP marker, its hand and the open display), town walls on the
temple wedge, recruiting on the know-how wedge; each hint spelt as an order file writes it
(``json``) or an order mail (``text``, docs/text-orders.md)."""

from __future__ import annotations

from typing import Any

from pbem.kernel.facets import SharedLines
from pbem.kernel.vocab import UNITS

HINTS: dict[str, dict[str, str]] = {
    "json": {
        "walls": '"walls": [{"city": P}]',
        "recruit": '"recruit": {"legion": N, "galley": M}',
        "play": 'play one with "events": [{"play": CARD}]',
    },
    "text": {
        "walls": 'a line "wall CITY"',
        "recruit": 'a line "recruit N legions M galleys"',
        "play": 'play one with a line "play CARD"',
    },
}
"""How each of the edition's orders that needs a hint is written, by syntax."""


def units(counts: dict[str, int]) -> str:
    """``1 legion, 2 galleys`` (legions first, then galleys, then a special unit)."""
    order = [u for u in UNITS if u in counts] + sorted(u for u in counts if u not in UNITS)
    return ", ".join(f"{counts[u]} {u}{'' if counts[u] == 1 else 's'}" for u in order) or "none"


def chips(pay: dict[str, int]) -> str:
    parts = [f"{n} {chip}{'s' if chip == 'coin' and n != 1 else ''}" for chip, n in pay.items() if n]
    return " and ".join(parts) or "nothing"


def wedge_label(game: Any, data: dict[str, Any], key: str, effect: str) -> str:
    """The wedge whose action takes the order key ``key``, as the board prints it; without
    a game, the first target whose preview shows ``effect`` (else ``key`` itself)."""
    if game is not None:
        for field in game.edition.rondel.fields:
            if key in field.action.keys:
                return field.label.upper()
    wedge = next((t["wedge"] for t in data["targets"] if effect in t.get("effect", {})), key)
    return wedge.upper()


def card_namer(game: Any, effects: bool = False) -> Any:
    """A card id -> ``Name (card_id)``, with its note (a card whose text is not entered),
    and with ``effects`` also what it does and when it is played, in words, from the game's
    catalogue (the cards facet's :meth:`~pbem.kernel.protocols.Cards.text`)."""
    if game is None:
        return lambda cid: cid
    cards, data = game.edition.cards, game.state.table.data

    def describe(cid: str) -> str:
        note = cards.note(cid, data)
        name = f"{cards.name(cid, data)} ({cid})"
        if not effects:
            return f"{name} ({note})" if note else name
        return f"{name}: {cards.text(cid, data, game.state.table.revision) or note}"
    return describe


class DuellumLines(SharedLines):
    """What a nation holds of Duellum's own pieces, and the walls and recruits its wedges allow."""

    box = "in the recruitment box"

    def holdings(self, data: dict[str, Any], game: Any, name: Any, syntax: str) -> list[str]:
        """The box, the supply, the walls, the VP marker, the nation's own hand and the open
        display. The wedges that arm from the box and recruit into it are named as the
        board prints them."""
        if "recruitment" not in data:
            return []
        arms, recruits = wedge_label(game, data, "arm", "box"), wedge_label(game, data, "recruit", "recruit")
        lines = [f"recruitment box: {units(data['recruitment'])} ({arms} arms only these); "
                 f"supply: {units(data['supply'])} ({recruits} recruits from it)",
                 f"town walls: {data['walls_supply']} in the supply; built in: "
                 f"{', '.join(name(c) for c in data['walls']) or 'none'}; VP marker at {data['vp']}"]
        hand = data.get("hand", [])
        if hand:
            lines.append(f"event cards in your hand ({HINTS[syntax]['play']}):")
            lines.extend(f"  {card_namer(game, True)(c)}" for c in hand)
        else:
            lines.append("event cards in your hand: none")
        shown = ", ".join(card_namer(game)(c) for c in data.get("display", [])) or "empty"
        lines.append(f"open display: {shown}; deck: {data.get('deck_size', 0)} "
                     f"card{'' if data.get('deck_size') == 1 else 's'}")
        return lines

    def effect(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str]:
        """Town walls on the temple wedge, recruiting on the know-how wedge."""
        hint = HINTS[syntax]
        if "cities" in effect and "walls" in effect:
            walls = effect["walls"]
            open_ = ", ".join(name(c) for c in walls["cities"]) or "none"
            return [f"town walls: {walls['supply']} in your supply, {chips(walls['price'])} each, "
                    f"one per city ({hint['walls']}); cities without one: {open_}"]
        if "knowhow" in effect and "recruit" in effect:
            prices = ", ".join(f"{chips(p)} a {u}" for u, p in effect["recruit"]["price"].items())
            return [f"recruit from the supply into the recruitment box: {prices} ({hint['recruit']}); "
                    f"in the supply: {units(effect['recruit']['supply'])}"]
        return []
