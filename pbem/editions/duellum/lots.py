"""Antike Duellum's deck in a game without a game master: every card drawn at random from
the game's chance source, so the deck's order never exists (docs/without-gm.md, "Chance").

In a game a GM runs the deck is shuffled from the game's secret (:mod:`.deck`). A game
without a game master has no secret: every copy holds the same file. So there the deck is
kept as the cards still in it, in the order they came in (sorted at the set-up, the
discards sorted at the end of it when they make a new deck), which is no order of play:

- the set-up's display: three cards drawn one by one among the deck's cards, from every
  seat's first value together (:func:`set_up`);
- a card drawn from the deck (to refill the display after a pick, or straight to a hand
  when every card of the display is still to be drawn): an index among the cards still in
  the deck, asked of :attr:`Turn.chance <pbem.kernel.turn.Turn.chance>` with a purpose of
  its own (``event card N``). The answer is pending until the reveals made after the entry
  are in, so the nation that picked never sees the card that replaces its pick before its
  choice is fixed; the draw waits in ``pending`` and is made at the start of the next turn
  (:func:`settle`) in the order asked;
- the reshuffle: when every card left in the deck is promised to a pending draw, the
  discards join the deck (each draw picks uniformly among the cards left, so nothing is
  shuffled);
- a card an effect discards at random from a hand: the same, an index among the cards the
  hand held when the card was played (``discard N``).

A pending draw asked among the ``n`` cards the deck then had, less those promised to draws
before it, takes the ``i``-th of the deck when made: earlier draws took their cards from
the same front of the deck, and cards join it only at its end, so its first ``n`` cards
are then exactly the cards it could draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
from pbem.editions.duellum.rules import DISPLAY
from pbem.kernel.chance import lot

if TYPE_CHECKING:
    from pbem.kernel.chance import Chance
    from pbem.kernel.state import GameState


class _Never:
    """The chance of a turn played without the game's source (a bot's look-ahead): every
    draw stays pending."""

    def below(self, n: int, purpose: str) -> int | None:
        return None


NEVER = _Never()


def by_lot(state: GameState) -> bool:
    """Whether the game's deck is drawn by the chance source (a game without a game master)."""
    return "pending" in state.extra


def set_up(data_text: str, chance: Chance, revision: int) -> dict[str, Any]:
    """The state's deck of a game without a game master (001 L111-113): the display drawn
    among the deck's cards by the set-up's lots, the deck the cards left, sorted."""
    deck = sorted(cards.deck_cards(data_text, revision))
    display = [deck.pop(lot(chance, None, len(deck), f"display {i}")) for i in range(DISPLAY)]
    return {"deck": deck, "display": display, "discards": [], "shuffles": 0, "secret": "", "pending": [],
            "drawn": 0}


def _promised(state: GameState) -> int:
    return sum(1 for p in state.extra["pending"] if "discard" not in p)


def ask_card(state: GameState, to: str | None, events: list[dict[str, Any]], chance: Chance | None,
             reason: str = "") -> bool:
    """A card to be drawn from the deck for the display (``to`` ``None``) or a nation's
    hand; the discards make a new deck first when every card left is promised; ``False``
    when there is no card to draw."""
    free = len(state.extra["deck"]) - _promised(state)
    if free <= 0 and state.extra["discards"]:
        state.extra["deck"] = [*state.extra["deck"], *sorted(state.extra["discards"])]
        state.extra["shuffles"] += 1
        events.append({"type": "shuffle", "cards": len(state.extra["discards"]) + free})
        state.extra["discards"] = []
        free = len(state.extra["deck"]) - _promised(state)
    if free <= 0:
        return False
    draw = {"card": to, "n": free, "reason": reason} if to else {"card": "display", "n": free}
    _ask(state, draw, f"event card {state.extra['drawn']}", events, chance)
    return True


def ask_discard(state: GameState, nation: str, events: list[dict[str, Any]], chance: Chance | None) -> bool:
    """A card of ``nation``'s hand to be discarded at random; ``False`` for an empty hand."""
    waiting = sum(1 for p in state.extra["pending"] if p.get("discard") == nation)
    free = len(state.nations[nation].extra["hand"]) - waiting
    if free <= 0:
        return False
    _ask(state, {"discard": nation, "n": free}, f"discard {state.extra['drawn']}", events, chance)
    return True


def _ask(state: GameState, draw: dict[str, Any], purpose: str, events: list[dict[str, Any]],
         chance: Chance | None) -> None:
    state.extra["drawn"] += 1
    state.extra["pending"] = [*state.extra["pending"], {**draw, "purpose": purpose}]
    (chance or NEVER).below(draw["n"], purpose)  # asked now: the entry records it, its reveals decide it
    settle(state, events, chance)


def settle(state: GameState, events: list[dict[str, Any]], chance: Chance | None) -> None:
    """Make the pending draws whose reveals are in, in the order asked (a draw waits for
    every draw before it)."""
    pending = list(state.extra["pending"])
    refilled = False
    while pending:
        draw = pending[0]
        index = (chance or NEVER).below(draw["n"], draw["purpose"])
        if index is None:
            break
        pending.pop(0)
        state.extra["pending"] = pending
        if "discard" in draw:
            _discard_at(state, draw["discard"], index, events)
            continue
        deck = list(state.extra["deck"])
        card = deck.pop(index)
        state.extra["deck"] = deck
        if draw["card"] == "display":
            state.extra["display"] = [*state.extra["display"], card]
            refilled = True
        else:
            held = state.nation(draw["card"]).extra
            held["hand"] = [*held["hand"], card]
            events.append({"type": "draw", "nation": draw["card"], "card": card, "reason": draw["reason"],
                           "display": list(state.extra["display"])})
    if refilled:
        events.append({"type": "refill", "display": list(state.extra["display"])})


def _discard_at(state: GameState, nation: str, index: int, events: list[dict[str, Any]]) -> None:
    """The ``index``-th card of ``nation``'s hand discarded (the last if its holder has
    played cards since, so that the hand is shorter)."""
    hand = list(state.nations[nation].extra["hand"])
    if not hand:
        return
    card = hand.pop(min(index, len(hand) - 1))
    state.nation(nation).extra["hand"] = hand
    state.extra["discards"] = [*state.extra["discards"], card]
    events.append({"type": "discarded", "nation": nation, "cards": [card], "random": True})


def top_up(state: GameState, events: list[dict[str, Any]], chance: Chance | None) -> None:
    """Ask for the cards the display lacks of three, less those already to be drawn for it
    (001 L419)."""
    while len(state.extra["display"]) + sum(1 for p in state.extra["pending"] if p.get("card") == "display") \
            < DISPLAY:
        if not ask_card(state, None, events, chance):
            break
