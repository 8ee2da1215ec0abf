"""Antike Duellum's schema parts (its schema facet, :class:`DuellumSchema`): what a game file
keeps of the box, the walls, the VP track, the hands and the deck; what an order file adds
(event cards, town walls, recruiting, the special units, a chosen city type, its standing
orders); what a GM edit adds (the same pieces, the open display, cards entered)."""

from __future__ import annotations

import copy
from typing import Any

from pbem.editions.duellum.cardplay import FORTRESS_CHOICES
from pbem.editions.duellum.rules import DISPLAY, WALLS_PER_NATION
from pbem.kernel.facets import Facet

UNIT_OBJECT = {"type": "object", "additionalProperties": False,
               "properties": {u: {"type": "integer", "minimum": 0}
                              for u in ("legion", "galley", "admiral", "commander")},
               "required": ["legion", "galley"]}
CARD = {"type": "string", "pattern": "^([a-z0-9_]+|[?])$"}
"""A card's id, or ``"?"`` in a player's copy for a card it may not see."""
CARDS = {"type": "array", "items": CARD}
CARD_ID = {"type": "string", "pattern": "^[a-z0-9_]+$"}
SPECIAL_COUNTS = {"properties": {u: {"$ref": "#/$defs/amount"} for u in ("admiral", "commander")}}
STANDING = {
    "fortress": {"description": "Play FORTRESS (or another card for the opponent's conquest), if held, when "
                                "the opponent conquers a city of this nation: always, never, or only when "
                                "it saves the city.",
                 "enum": list(FORTRESS_CHOICES)},
    "draw": {"description": "Which display cards to take first when this nation draws in the other's turn.",
             "type": "array", "items": CARD_ID},
}
"""Duellum's own standing orders."""


def game_parts() -> dict[str, dict[str, Any]]:
    """A game file: a nation's box, walls, VP marker and hand; a wall in a city; the special
    units; the deck, display and discards; the standing orders."""
    return {
        "nation_state": {"properties": {
            "recruitment": {"description": "Units in the recruitment box (001 L95, L284).", **UNIT_OBJECT},
            "walls_supply": {"description": "Town walls in the personal supply, not yet built.",
                             "type": "integer", "minimum": 0, "maximum": WALLS_PER_NATION},
            "vp": {"description": "The marker on the VP track.", "type": "integer", "minimum": 0},
            "hand": {"description": "Event cards held; \"?\" in a player's copy for a card it may not see.",
                     **CARDS}},
            "required": ["recruitment", "walls_supply", "vp", "hand"]},
        "province": {"properties": {"wall": {"description": "A town wall stands in this city.", "const": True},
                                    "resource": {"description": "The resource its founder chose.",
                                                 "enum": ["marble", "iron", "gold"]}}},
        "units": {"properties": {u: {"type": "integer", "minimum": 0} for u in ("admiral", "commander")}},
        "state": {"properties": {
            "deck": {"description": "The event deck, top first (\"?\" in a player's copy).", **CARDS},
            "display": {"description": "The open display of event cards.", **CARDS},
            "discards": {"description": "Played event cards.", **CARDS},
            "shuffles": {"description": "How often the discards were shuffled into a new deck.",
                         "type": "integer", "minimum": 0},
            "secret": {"description": "What the deck is shuffled by; \"?\" in a player's copy.",
                       "type": "string"},
            "pending": {"description": "A game without a game master: the draws still waiting for the reveals "
                                       "they need, in the order asked (docs/without-gm.md, \"Chance\").",
                        "type": "array", "items": {"type": "object"}},
            "drawn": {"description": "A game without a game master: how many draws were asked.",
                      "type": "integer", "minimum": 0}},
            "required": ["deck", "display", "discards", "shuffles", "secret"]},
        "standing": {"properties": STANDING, "required": list(STANDING)},
    }


EVENTS_ORDER = {
    "description": "Event cards played, in order, each at the moment its \"when\" names (before the rondel move "
                   "by default), with what the card leaves open (docs/duellum.md).",
    "type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["play"],
        "properties": {"play": CARD_ID, "when": {"$ref": "#/$defs/moment"},
                       "city": {"$ref": "#/$defs/province"}, "at": {"$ref": "#/$defs/province"},
                       "unit": {"$ref": "#/$defs/unit"}, "to": {"$ref": "#/$defs/wedge"},
                       "cards": {"type": "array", "minItems": 1, "items": CARD_ID}}}}
"""An order file's ``events``: the cards played."""


def order_parts() -> dict[str, dict[str, Any]]:
    """An order file: events, walls and recruiting; the special units; a chosen city type;
    the standing orders."""
    wall = {"type": "object", "additionalProperties": False, "required": ["city"],
            "properties": {"city": {"$ref": "#/$defs/province"}, "pay": {"$ref": "#/$defs/payment"}}}
    return {
        "#": {"properties": {
            "events": EVENTS_ORDER,
            "walls": {"description": "TEMPLUM: town walls to build (1 marble each).",
                      "type": "array", "items": wall},
            "recruit": {"description": "SCIENTIA: units from the supply into the recruitment box "
                                       "(1 gold per legion, 2 per galley).",
                        "type": "object", "additionalProperties": False, "minProperties": 1,
                        "properties": {"legion": {"$ref": "#/$defs/amount"},
                                       "galley": {"$ref": "#/$defs/amount"},
                                       "pay": {"$ref": "#/$defs/payment"}}}}},
        "unit": {"enum": ["admiral", "commander"]},
        "unit_counts": SPECIAL_COUNTS,
        "city_order": {"properties": {"resource": {
            "description": "The new city's resource (the founder chooses it, 001 L197).",
            "$ref": "#/$defs/resource"}}},
        "standing": {"properties": STANDING},
    }


def edit_parts() -> dict[str, dict[str, Any]]:
    """A GM edit: a nation's pieces, the special units, a wall, the standing orders, the
    open display, cards entered."""
    return {
        "nation_edit": {"properties": {
            "walls_supply": {"type": "integer", "minimum": 0, "maximum": WALLS_PER_NATION},
            "recruitment": UNIT_OBJECT,
            "vp": {"type": "integer", "minimum": 0},
            "hand": {"description": "The cards in hand afterwards (\"?\" for each card of the other's "
                                    "hand in a player's copy of the history: never a card to give).",
                     **CARDS}}},
        "unit_counts": SPECIAL_COUNTS,
        "province_edit": {"properties": {
            "wall": {"description": "A town wall stands in this city.", "type": "boolean"},
            "resource": {"description": "The city's resource where its founder chose it.",
                         "oneOf": [{"$ref": "#/$defs/resource"}, {"type": "null"}]}}},
        "standing": {"properties": STANDING},
        "display_edit": {"type": "object", "additionalProperties": False, "required": ["display"],
                         "properties": {"display": {
                             "description": "The open display as the GM sets it: the cards named come "
                                            "out of the deck or the discards, the others go to the discards.",
                             "type": "array", "maxItems": DISPLAY, "items": CARD_ID}}},
        "event_cards_edit": {"type": "object", "additionalProperties": False, "required": ["event_cards"],
                             "properties": {"event_cards": {
                                 "description": "Printed cards of the game's deck the GM enters during the "
                                                "game, and blank cards the GM writes (docs/duellum.md, "
                                                "\"Entering a card\").",
                                 "type": "array", "minItems": 1,
                                 "items": {"type": "object", "required": ["id"]}},
                                 "blanks_to": {"description": "Where a blank card the GM writes now joins "
                                                              "the game: the deck (at a place drawn by the "
                                                              "game's secret, the default) or the discards.",
                                               "enum": ["deck", "discards"]}}},
        "edit": {"oneOf": [{"required": ["display"]}, {"required": ["event_cards"]}],
                 "allOf": [{"if": {"required": ["display"]}, "then": {"$ref": "#/$defs/display_edit"}},
                           {"if": {"required": ["event_cards"]},
                            "then": {"$ref": "#/$defs/event_cards_edit"}}]},
    }


PARTS = {"game": game_parts, "orders": order_parts, "edit": edit_parts}


class DuellumSchema(Facet):
    """Antike Duellum's additions to the shared schemas (:data:`PARTS`), each a fresh copy."""

    def parts(self, kind: str) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(PARTS[kind]()) if kind in PARTS else {}
