"""Quadriga's numbers, its rondel with the HIPPODROME and its own refusals.

Everything but the chariots, the HIPPODROME and the TRIUMPH card is classic Antike's:
classic's rule table, board sides, nations and set-up (:mod:`pbem.editions.classic`), with a
shorter game (:data:`GOALS`) so that the bots finish one quickly.
"""

from __future__ import annotations

from types import MappingProxyType

from pbem.editions import classic
from pbem.editions.classic.rules import RULES as CLASSIC_RULES
from pbem.kernel.rondel import Field, Rondel

RULES = CLASSIC_RULES
"""Classic's rule table: the chariots' numbers are the edition's own (below)."""

CHARIOT = "chariot"
"""The unit type of this edition's own (a war chariot), as order files and events name it."""
CHARIOTS_PER_NATION = 4
"""War chariots a nation has in all (in its cities and in stock)."""
CHARIOTS_PER_CITY = 2
"""War chariots one city keeps at most."""
CHARIOT_PRICE = MappingProxyType({"gold": 2})
"""What a war chariot costs on the HIPPODROME (coins may stand in, as for any chip)."""
CHARIOT_DEFENCE = 1
"""Defence each war chariot adds to the city it stands in."""

CARD = "triumph"
"""The edition's event card."""

GOALS = MappingProxyType({3: 5, 4: 5, 5: 4, 6: 4})
"""Personages to win, by number of nations (shorter than classic's)."""

HIPPODROME = "hippodrome"
"""The wedge of this edition's own."""


def rondel(action) -> Rondel:
    """Classic's eight fields, then the HIPPODROME (whose action is ``action``) between the
    second MANEUVER and IRON; three free steps, as in classic."""
    return Rondel(fields=(*classic.RONDEL.fields, Field(HIPPODROME, "Hippodrome", action, "#d8b48a")),
                  free_steps=classic.RONDEL.free_steps)


CODES = MappingProxyType({
    "chariot/not-own-city": "a war chariot is built only in a city of {nation}: {city} is none{hint}",
    "chariot/city-full": "{city} keeps {most} war chariots at most and has {have}",
    "chariot/none-left": "{nation} has no war chariot left ({total} in all, every one of them in a city)",
    "triumph/not-in-hand": "{nation} holds no TRIUMPH card to celebrate",
})
"""Quadriga's own refusals, each with its message template."""
