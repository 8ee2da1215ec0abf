"""Closed vocabularies of the public contract (ORDERS.md, "Vocabulary").

Members are ``StrEnum`` so that they compare equal to the lowercase ids used in files.
"""

from __future__ import annotations

from enum import StrEnum


class Nation(StrEnum):
    """The nations of the Antike family."""

    GREEKS = "greeks"
    """Greeks (both classic boards)."""
    PERSIANS = "persians"
    """Persians."""
    ARABS = "arabs"
    """Arabs (East board)."""
    PHOENICIANS = "phoenicians"
    """Phoenicians."""
    EGYPTIANS = "egyptians"
    """Egyptians (East board)."""
    BABYLONIANS = "babylonians"
    """Babylonians (East board)."""
    ROMANS = "romans"
    """Romans (West board)."""
    GERMANS = "germans"
    """Germanic tribes (West board)."""
    CARTHAGINIANS = "carthaginians"
    """Carthaginians (West board)."""


class Wedge(StrEnum):
    """Rondel wedge kinds; the rondel itself lists them by index (RULINGS.md, Rondel)."""

    IRON = "iron"
    """Produce iron."""
    TEMPLE = "temple"
    """Build temples with marble."""
    GOLD = "gold"
    """Produce gold."""
    MANEUVER = "maneuver"
    """Move, battle, conquer (printed twice)."""
    ARMING = "arming"
    """Arm legions and galleys with iron."""
    MARBLE = "marble"
    """Produce marble."""
    KNOWHOW = "knowhow"
    """Buy know-hows with gold."""


RONDEL: tuple[Wedge, ...] = (
    Wedge.IRON, Wedge.TEMPLE, Wedge.GOLD, Wedge.MANEUVER,
    Wedge.ARMING, Wedge.MARBLE, Wedge.KNOWHOW, Wedge.MANEUVER,
)
"""The eight fields clockwise, index 0-7 (rules-digest 1.2)."""


class Resource(StrEnum):
    """Resource chips (unlimited, rules-digest Q5)."""

    MARBLE = "marble"
    """White marble."""
    IRON = "iron"
    """Blue iron."""
    GOLD = "gold"
    """Yellow gold."""


RESOURCES: tuple[str, ...] = ("marble", "iron", "gold")
"""Chip types in the tie-break order of D6/D7."""
PAYMENT_KEYS: tuple[str, ...] = RESOURCES + ("coin",)


class Unit(StrEnum):
    """Military unit types."""

    LEGION = "legion"
    """Crosses land (red) and combined borders."""
    GALLEY = "galley"
    """Crosses sea (blue) and combined borders."""


UNITS: tuple[str, ...] = ("legion", "galley")


class KnowHow(StrEnum):
    """Classic know-hows: four basics, each with a secondary."""

    WHEEL = "wheel"
    """Legions get 2 maneuver actions."""
    ROADS = "roads"
    """Legions get 3 maneuver actions (needs WHEEL)."""
    SAILING = "sailing"
    """Galleys get 2 maneuver actions."""
    NAVIGATION = "navigation"
    """Galleys get 3 maneuver actions (needs SAILING)."""
    MARKET = "market"
    """+1 on every production action."""
    CURRENCY = "currency"
    """+2 on every production action (needs MARKET)."""
    MONARCHY = "monarchy"
    """+1 defence for every own city."""
    DEMOCRACY = "democracy"
    """+2 defence for every own city (needs MONARCHY)."""


class Personage(StrEnum):
    """Ancient personages (score cards)."""

    KING = "king"
    """One per 5 cities."""
    SCHOLAR = "scholar"
    """One per know-how acquired first."""
    GENERAL = "general"
    """One per temple destroyed."""
    CITIZEN = "citizen"
    """One per 3 temples owned."""
    NAVIGATOR = "navigator"
    """At 7 and 14 provinces holding own galleys."""


PERSONAGES: tuple[str, ...] = ("king", "scholar", "general", "citizen", "navigator")


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


class Variant(StrEnum):
    """Classic variants fixed at creation (rules-digest 2.10)."""

    EXPERT = "expert"
    """No extra personage for all eight know-hows."""
    MILITARY = "military"
    """Generals score 2 points; other goals; no all-eight personage."""
    LONGER = "longer"
    """Each nation starts with one city."""
