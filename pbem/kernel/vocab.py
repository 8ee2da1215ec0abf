"""The vocabulary every edition shares: resources, units, order-file keys, standing orders.

Wedges, know-hows, personages, nations and variants belong to an edition
(:class:`pbem.kernel.edition.Edition`); nothing here names one. The standing orders'
choices are ``StrEnum`` members, so that they compare equal to the lowercase ids used in
files.
"""

from __future__ import annotations

from enum import StrEnum


RESOURCES: tuple[str, ...] = ("marble", "iron", "gold")
"""Chip types (white marble, blue iron, yellow gold; unlimited, docs/rulings.md Q5), in the
tie-break order of D6 and D7 (docs/rulings.md)."""
PAYMENT_KEYS: tuple[str, ...] = RESOURCES + ("coin",)
"""What a ``pay`` object may name: the chips, and coins standing in for any chip."""
UNITS: tuple[str, ...] = ("legion", "galley")
"""Military unit types: a legion crosses land (red) and combined borders, a galley sea
(blue) and combined borders."""
TERRAIN: dict[str, str] = {"legion": "land", "galley": "sea"}
"""Which border layer each unit type crosses (combined borders are in both layers). A unit of
an edition's own moves as one of these (:meth:`Edition.moves_as
<pbem.kernel.edition.Edition.moves_as>`)."""


class BattleStance(StrEnum):
    """Standing order: when a non-active nation demands a battle (D1)."""

    ALWAYS = "always"
    """Whenever a rival's units of a type it has there enter the province."""
    NEVER = "never"
    """Never."""
    HOME = "home"
    """Only in provinces where it owns the city."""


class CoinSubstitute(StrEnum):
    """Standing order: which chip to take when the bank has no coin (D6)."""

    LOWEST = "lowest"
    """The type held least; ties marble, iron, gold."""
    MARBLE = "marble"
    """Always marble."""
    IRON = "iron"
    """Always iron."""
    GOLD = "gold"
    """Always gold."""


HEADER_KEYS: tuple[str, ...] = ("game", "nation", "turn", "password")
"""Who sends an order file and for which turn; checked before anything it orders."""
ACTION_KEYS: tuple[str, ...] = ("temples", "arm", "knowhow", "maneuver")
"""Order keys that carry a wedge's action, named by what they do, the same in every
edition; an edition's rondel says which of them each wedge takes."""
MOMENTS: tuple[str, ...] = ("before", "after_move", "after")
"""When in a nation's own turn a step it may take "at any time" is carried out (a trade with
the bank, an event card; docs/orders.md, "Order file"): ``before`` the rondel move (the
default), ``after_move`` (after the move and its payment, before the wedge's action) or
``after`` (after the action and its production, before founding)."""
