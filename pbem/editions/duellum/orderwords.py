"""Antike Duellum's words in text orders (its order-language facet, :class:`DuellumLanguage`;
docs/text-orders.md, docs/duellum.md): the lines of its own order keys (event cards, town
walls, recruiting) and its own standing orders, described for the text syntax, which reads
each by its form (:class:`pbem.kernel.protocols.OrderLanguage`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pbem.editions.duellum.cardplay import FORTRESS_CHOICES
from pbem.kernel.facets import Facet

ORDER_WORDS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "play": MappingProxyType({"key": "events", "form": "card", "also": ("event", "events")}),
    "wall": MappingProxyType({"key": "walls", "form": "cities", "also": ("walls",), "one": "town wall",
                              "many": "walls", "example": "wall roma pay 1 marble"}),
    "recruit": MappingProxyType({"key": "recruit", "form": "units", "also": ()}),
})
"""``play earthquake at roma``, ``wall roma``, ``recruit 2 legions 1 galley pay 4 gold``."""

STANDING_WORDS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "fortress": MappingProxyType({"form": "choice", "choices": FORTRESS_CHOICES, "what": "when to play FORTRESS"}),
    "draw": MappingProxyType({"form": "cards", "what": "the event cards to take first"}),
})
"""``standing fortress never``, ``standing draw fortress academy`` (or ``nothing``)."""


class DuellumLanguage(Facet):
    """The order language of Antike Duellum: :data:`ORDER_WORDS` and :data:`STANDING_WORDS`."""

    order_words = ORDER_WORDS
    standing_words = STANDING_WORDS
