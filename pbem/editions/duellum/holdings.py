"""Antike Duellum's pieces beside the shared state (its pieces facet, :class:`DuellumPieces`):
how ``show --json`` shows a nation's walls, box, VP marker and hand (the hand to its owner
only), the open display, the deck's size and the deck's cards; and the checks that every
piece is in one place (:mod:`.checks` when a game is read, :mod:`.conservation` after every
turn of self-play)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.checks as checks
import pbem.editions.duellum.conservation as conservation
from pbem.editions.duellum.pieces import walls_of
from pbem.kernel.facets import SharedPieces

if TYPE_CHECKING:
    from pbem.errors import Problem
    from pbem.kernel.board import Board
    from pbem.kernel.state import GameState


class DuellumPieces(SharedPieces):
    """The box, the walls, the VP track, the hands, the deck: shown and checked."""

    def view_nation(self, state: GameState, nation: str, viewer: str | None) -> dict[str, Any]:
        held = state.nations[nation].extra
        out = {"walls": walls_of(state, nation), "walls_supply": held["walls_supply"],
               "recruitment": dict(held["recruitment"]), "vp": held["vp"], "hand_size": len(held["hand"])}
        if viewer == nation:
            out["hand"] = list(held["hand"])
        return out

    def view_extra(self, state: GameState) -> dict[str, Any]:
        """The open display, the deck's size, and (an addition) ``cards``: every card of the
        game's deck by id, its name and printed text, and for a card whose text nobody
        entered the label :data:`~.cards.NOT_ENTERED` (the deck's composition is public;
        its order and the hands are not)."""
        known = cards.catalogue(state.table.data)
        listed = {}
        for cid in dict.fromkeys(cards.deck_of(state.table)):
            card = known.get(cid, {})
            listed[cid] = {"name": cards.name_of(card, cid), "text": card.get("text")}
            if not cards.entered(card):
                listed[cid]["label"] = cards.NOT_ENTERED
        return {"display": list(state.extra["display"]), "deck_size": len(state.extra["deck"]), "cards": listed}

    def consistency_problems(self, state: GameState, board: Board) -> list[Problem]:
        """The box, the special units, the walls, the tokens, the cards (:mod:`.checks`)."""
        return checks.consistency_problems(self.edition, state, board)

    def conservation_problems(self, state: GameState, board: Board) -> list[str]:
        """The box, the walls, the city tokens and the event cards (:mod:`.conservation`)."""
        return conservation.problems(self.edition, state, board)
