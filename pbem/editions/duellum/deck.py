"""Antike Duellum's event deck: the open display, drawing, discarding and the reshuffle.

001 L111-113: the cards are shuffled and three laid open as the display. 001 L419: a card
taken from the display is replaced at once, "in every situation there is the choice of 3
different cards". 001 L431: played cards are discarded, and when the draw deck runs out the
discards are shuffled into a new one. The deck's order and the shuffles come from the
game's secret only (:func:`pbem.editions.duellum.cards.shuffled`).

A game set up before revision :data:`~pbem.editions.duellum.cards.PRINTED_DECK` of the
edition's rules keeps the display it was played with (:func:`draw`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.lots as lots
from pbem.editions.duellum.rules import DISPLAY

if TYPE_CHECKING:
    from pbem.kernel.chance import Chance
    from pbem.kernel.state import GameState


def discard(state: GameState, cid: str, events: list[dict[str, Any]]) -> None:
    """A card played goes to the discards (001 L431); a display short of three is filled
    up again (:func:`refill`)."""
    state.extra["discards"] = [*state.extra["discards"], cid]
    refill(state, events)


def draw(state: GameState, nation: str, reason: str, events: list[dict[str, Any]],
         chance: Chance | None = None) -> None:
    """``nation`` takes a card from the open display: the first its standing ``draw`` list
    names, else the first of the display (D9); the display is refilled at once (001 L419).

    From revision :data:`~.cards.PRINTED_DECK` the display always shows three cards while
    any remain: before the pick it is topped up, and whenever the draw deck runs out the
    discards are shuffled into a new one by the game's secret (001 L431), so a card owed is
    never lost while a card is left in the deck or the discards. A game set up before keeps
    its old display: no top-up, so the display shrinks once the deck and the discards are
    both empty, and a card owed from an empty display is missed.

    In a game without a game master (:func:`.lots.by_lot`) the cards come from the game's
    ``chance`` instead (:mod:`.lots`): the replacement is drawn after the pick, and a card
    owed while every card of the display is still to be drawn comes from the deck."""
    if lots.by_lot(state):
        _draw_by_lot(state, nation, reason, events, chance)
        return
    if state.table.revision >= cards.PRINTED_DECK:
        _top_up(state, events)
    display = list(state.extra["display"])
    if not display:
        events.append({"type": "draw-missed", "nation": nation, "reason": reason})
        return
    slot = pick(state, nation, display)
    card = display.pop(slot)
    nxt = _next_card(state, events)
    if nxt is not None:
        display.insert(slot, nxt)  # the new card takes the taken card's place
    state.extra["display"] = display
    held = state.nation(nation).extra
    held["hand"] = [*held["hand"], card]
    seen = {"public": True} if open_draws(state.table) else {}
    events.append({"type": "draw", "nation": nation, "card": card, "reason": reason, "display": list(display),
                   **seen})


def pick(state: GameState, nation: str, display: list[str]) -> int:
    """The place in ``display`` of the card ``nation`` takes: the first its standing
    ``draw`` list names, else the default (D9)."""
    wanted = state.standing[nation].extra.get("draw", [])
    slot = next((display.index(c) for c in wanted if c in display), None)
    return _default_slot(state, display) if slot is None else slot


def _draw_by_lot(state: GameState, nation: str, reason: str, events: list[dict[str, Any]],
                 chance: Chance | None) -> None:
    """:func:`draw` in a game without a game master (:mod:`.lots`)."""
    lots.top_up(state, events, chance)
    display = list(state.extra["display"])
    if not display:
        if not lots.ask_card(state, nation, events, chance, reason):
            events.append({"type": "draw-missed", "nation": nation, "reason": reason})
        return
    card = display.pop(pick(state, nation, display))
    state.extra["display"] = display
    held = state.nation(nation).extra
    held["hand"] = [*held["hand"], card]
    seen = {"public": True} if open_draws(state.table) else {}
    events.append({"type": "draw", "nation": nation, "card": card, "reason": reason, "display": list(display),
                   **seen})
    lots.top_up(state, events, chance)


def open_draws(table) -> bool:
    """Whether the card a nation takes from the open display is named to everyone, as the
    opponent sees it taken at the table (001 L369, L411-419): in a game of revision
    :data:`~.cards.OPEN_TABLE` without the variant :data:`~.cards.HIDDEN_DRAWS`. The draw's
    event then says so (``"public": true``); any other is named to its drawer only."""
    return table.revision >= cards.OPEN_TABLE and not table.has(cards.HIDDEN_DRAWS)


def _default_slot(state: GameState, display: list[str]) -> int:
    """The card taken without a standing ``draw`` that names one of the display (D9): the
    first of the display; from revision :data:`~.cards.OPEN_TABLE` the first whose text is
    entered (a card that can be played), else the first."""
    if state.table.revision < cards.OPEN_TABLE:
        return 0
    known = cards.catalogue(state.table.data)
    return next((i for i, c in enumerate(display) if cards.entered(known.get(c))), 0)


def take(state: GameState, cid: str, events: list[dict[str, Any]]) -> bool:
    """Card ``cid`` taken out of the open display (refilled at once, the new card in its
    place, as after a pick: 001 L419), the draw deck or the discards, for a GM's edit of a
    hand; ``False`` if it is in none of them."""
    display = list(state.extra["display"])
    if cid in display:
        slot = display.index(cid)
        display.pop(slot)
        nxt = _next_card(state, events)
        if nxt is not None:
            display.insert(slot, nxt)
        state.extra["display"] = display
        return True
    for pile in ("deck", "discards"):
        if cid in state.extra[pile]:
            cards_left = list(state.extra[pile])
            cards_left.remove(cid)
            state.extra[pile] = cards_left
            return True
    return False


def place_written(state: GameState, cid: str, to: str, events: list[dict[str, Any]]) -> None:
    """A blank card the GM has just written joins the game (revision
    :data:`~.cards.OPEN_TABLE`): into the draw deck at a place drawn from the game's secret,
    or onto the discards; a display short of three cards is filled up again."""
    if to == "discards":
        discard(state, cid, events)
        return
    deck = list(state.extra["deck"])
    deck.insert(cards.insert_at(state.extra["secret"], cid, state.extra["shuffles"], len(deck)), cid)
    state.extra["deck"] = deck
    refill(state, events)


def _next_card(state: GameState, events: list[dict[str, Any]]) -> str | None:
    """The top card of the draw deck, taken off it; when the deck has run out, the discards
    are first shuffled into a new deck by the game's secret (001 L431); ``None`` when both
    are empty (every card is in the display or a hand)."""
    deck = list(state.extra["deck"])
    if not deck and state.extra["discards"]:
        state.extra["shuffles"] += 1
        deck = cards.shuffled(sorted(state.extra["discards"]), state.extra["secret"], state.extra["shuffles"])
        state.extra["discards"] = []
        events.append({"type": "shuffle", "cards": len(deck)})
    if not deck:
        state.extra["deck"] = deck
        return None
    card = deck.pop(0)
    state.extra["deck"] = deck
    return card


def _top_up(state: GameState, events: list[dict[str, Any]]) -> bool:
    """Fill the open display up to its three cards from the draw deck (revision
    :data:`~.cards.PRINTED_DECK`); whether a card was laid out."""
    display = list(state.extra["display"])
    added = False
    while len(display) < DISPLAY:
        nxt = _next_card(state, events)
        if nxt is None:
            break
        display.append(nxt)
        added = True
    state.extra["display"] = display
    return added


def refill(state: GameState, events: list[dict[str, Any]]) -> None:
    """After a card went to the discards: a display short of three cards (every other card
    was in a hand) is filled up again, the discards shuffled into a new deck (revision
    :data:`~.cards.PRINTED_DECK`; 001 L419, L431)."""
    if lots.by_lot(state):
        return  # the display's missing cards are asked for at the end of the turn (:func:`.lots.top_up`)
    if state.table.revision >= cards.PRINTED_DECK and len(state.extra["display"]) < DISPLAY \
            and _top_up(state, events):
        events.append({"type": "refill", "display": list(state.extra["display"])})
