"""What Antike Duellum keeps from a player (its secrets facet, :class:`DuellumSecrets`): the
other's hand, the deck's order and the secret it is shuffled by; a card drawn from the open
display where the draw is not public; the cards a card's effect discards at random; a GM's
edit of the other's hand (D18 in docs/rulings.md; docs/duellum.md, "Secrets")."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pbem.editions.duellum.cards as cards
from pbem.kernel.facets import Facet
from pbem.kernel.state import GameState


class DuellumSecrets(Facet):
    """The player's view of the state, of each event and GM edit, and a determinised state
    for a searching bot's look-ahead."""

    words = "event cards"
    draws_by_chance = True
    """Without a game master, every card is drawn by the game's chance (:mod:`.lots`)."""

    def player_view(self, state: GameState, nation: str | None) -> GameState:
        """What ``nation`` may see (``None``: the public): the other's hand and the deck's
        order are hidden (``"?"``), and the secret they are shuffled by (D18 in
        docs/rulings.md; docs/duellum.md, "Secrets")."""
        view = state.copy()
        for n in state.table.seats:
            if n != nation and any(c != cards.HIDDEN for c in state.nations[n].extra["hand"]):
                held = view.nation(n)
                held.extra["hand"] = [cards.HIDDEN] * len(held.extra["hand"])
        view.extra["deck"] = [cards.HIDDEN] * len(state.extra["deck"])
        view.extra["secret"] = cards.HIDDEN
        return view

    def determinise(self, view: GameState, nation: str, rng: random.Random) -> GameState:
        """The view's hidden cards (the other's hand, the deck's order) drawn with ``rng``
        from the cards ``nation`` cannot see: the deck built at set-up less its own hand,
        the display, the discards and every card shown; the secret a fresh one, so a
        reshuffle in the look-ahead reveals nothing either."""
        state = view.copy()
        unseen = Counter(cards.deck_of(state.table))
        unseen.subtract([*state.extra["display"], *state.extra["discards"]])
        for n in state.table.seats:
            unseen.subtract(c for c in state.nations[n].extra["hand"] if c != cards.HIDDEN)
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        for n in state.table.seats:
            hand = state.nations[n].extra["hand"]
            if any(c == cards.HIDDEN for c in hand):
                held = state.nation(n)
                held.extra["hand"] = [pool.pop() if c == cards.HIDDEN else c for c in hand]
        state.extra["deck"] = [pool.pop() if c == cards.HIDDEN else c for c in state.extra["deck"]]
        state.extra["secret"] = f"{rng.getrandbits(64):016x}"
        return state

    def mask_event(self, event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """A card taken from the open display is named to everyone where the draw is public
        (``"public": true``, :func:`.deck.open_draws`), else to its drawer only; the cards a
        card's effect discards at random from a hand (``"random": true``) are never public
        (D18 in docs/rulings.md)."""
        kind = event.get("type")
        if kind == "draw" and event.get("nation") != viewer and "card" in event and not event.get("public"):
            return {k: v for k, v in event.items() if k != "card"}
        if kind == "discarded" and event.get("nation") != viewer:
            return {k: v for k, v in event.items() if k != "cards"}
        if kind == "card" and viewer is None and any(e.get("random") for e in event.get("effects", ())):
            return {**event, "effects": [{k: v for k, v in e.items() if k != "cards"} | {"count": len(e["cards"])}
                                         if e.get("random") else e for e in event["effects"]]}
        return event

    def mask_edit(self, edit: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """A GM's ``hand`` edit of the other nation shows as many ``"?"`` as cards: which
        cards a hand holds is its holder's secret, in the history as in the state."""
        if "hand" in edit and edit.get("nation") != viewer and isinstance(edit["hand"], list):
            return {**edit, "hand": [cards.HIDDEN] * len(edit["hand"])}
        return edit
