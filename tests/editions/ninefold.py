"""Ninefold: a MADE-UP variant of classic Antike, for the tests only.

It is not a published edition and no rulebook describes it. It exists to prove that an
edition is a plug-in: everything it changes is declared here, under ``tests/``, and the
referee's core (``pbem/``) is neither edited nor told about it. Importing this module
registers it with :mod:`pbem.editions` as ``ninefold`` (alias ``nine``), exactly as a
third-party package would.

What differs from classic Antike:

* **Nine rondel fields.** Classic's eight, then a ninth, BAZAAR (:class:`Bazaar`): one
  gold for every own city, whatever the city yields. Only the first **2** steps are free
  (classic: 3).
* **Other prices.** A temple costs 4 marble (5), arming 2 iron per unit (1), founding a
  city 1 marble, 1 iron and 2 gold (1 of each); each nation has 12 legions and 12 galleys
  (17).
* **A sixth personage, the merchant**: one for every :data:`MERCHANT_EVERY` gold the
  nation has produced in the whole game (on GOLD or BAZAAR), 6 cards in the bank. The gold
  produced so far is kept in the nation's own field ``gold_produced``; the merchant's
  threshold counter is ``earned.merchant`` like any personage's.
* **Goals** (:data:`GOALS`): one personage fewer than classic; the table may choose any
  goal with ``--goal``. There is no all-eight-know-hows personage and no all-personages
  ending; no variants.

Everything else (the board, the nations, know-how, the maneuver, trade, coins) is
classic's, reused from :mod:`pbem.editions.classic` and the kernel.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any

from pbem import editions
from pbem.editions import classic
from pbem.editions.classic import setup as classic_setup
from pbem.editions.classic.rules import RULES as CLASSIC_RULES
from pbem.errors import UsageError
from pbem.kernel.actions import Action
from pbem.kernel.edition import Edition, Extras, facet
from pbem.kernel.facets import Facet, SharedSetUp, SharedTurn
from pbem.kernel.personages import award
from pbem.kernel.rondel import Field, Rondel
from pbem.kernel.rules import frozen

# -- the rule table -----------------------------------------------------------------------

FREE_STEPS = 2
"""Rondel steps that cost nothing (classic: 3)."""

RULES = replace(
    CLASSIC_RULES,
    unit_cap=12,
    temple_marble=4,
    arming_iron=2,
    found_cost=frozen({"marble": 1, "iron": 1, "gold": 2}),
    personage_stacks=frozen({**CLASSIC_RULES.personage_stacks, "merchant": 6}),
)
"""Classic's numbers but for these five."""

KING_EVERY = 5
"""Cities per king (as in classic)."""
CITIZEN_EVERY = 3
"""Temples per citizen (as in classic)."""
NAVIGATOR_THRESHOLDS = (7, 14)
"""Provinces holding own galleys that each give a navigator (as in classic)."""
MERCHANT_EVERY = 10
"""Gold produced per merchant."""
GOALS = MappingProxyType({3: 9, 4: 8, 5: 7, 6: 6})
"""Personages to win, by number of nations, unless the table chose a goal."""

# -- the rondel ---------------------------------------------------------------------------


class Bazaar(Action):
    """BAZAAR: one gold for every own city, whatever it yields; temples and know-how add
    nothing. A production wedge (``produces``), so it takes no order key."""

    produces = "gold"

    @staticmethod
    def amount(state, nation: str) -> int:
        return len(state.cities(nation))

    def run(self, t, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        t.produce("gold", self.amount(t.state, t.nation))

    def preview(self, state, edition, board, nation, budget):
        return {"produce": {"gold": self.amount(state, nation)}}


RONDEL = Rondel(
    fields=(*classic.RONDEL.fields, Field("bazaar", "Bazaar", Bazaar(), "#e8c872")),
    free_steps=FREE_STEPS,
)
"""Classic's eight fields clockwise from IRON, then BAZAAR between MANEUVER and IRON."""

# -- the edition --------------------------------------------------------------------------


class NinefoldSetUp(SharedSetUp):
    """Classic's set-up (start lines, chips, start nation, first coins) with ninefold's goal;
    one player per nation."""

    def start(self, options, board):
        return classic_setup.setup(self.edition, options, board)

    def goal(self, options, nations: int, players: int) -> int:
        """:data:`GOALS`, or any goal the table chooses."""
        if options.goal is not None and options.goal < 1:
            raise UsageError(f"--goal {options.goal}: at least one personage")
        return options.goal or GOALS[nations]


class NinefoldTurn(SharedTurn):
    """The shared turn, with ninefold's personages and end of the game."""

    def end_of_turn(self, t) -> None:
        """Count the gold produced, award personages (classic's order, merchants last), then
        check for a winner."""
        st, ns = t.state, t.ns
        ns.extra["gold_produced"] += t.produced.get("gold", 0)
        cities, temples = len(st.cities(t.nation)), len(st.temples(t.nation))
        seas = sum(1 for prov in st.provinces.values() if prov.count(t.nation, "galley"))
        gold = ns.extra["gold_produced"]
        due = {
            "king": (cities // KING_EVERY - ns.earned["king"], f"{cities} cities"),
            "scholar": (len(t.firsts), "first to acquire " + ", ".join(t.firsts)),
            "general": (t.temples_destroyed, "temple destroyed"),
            "citizen": (temples // CITIZEN_EVERY - ns.earned["citizen"], f"{temples} temples"),
            "navigator": (sum(seas >= n for n in NAVIGATOR_THRESHOLDS) - ns.earned["navigator"],
                          f"galleys in {seas} provinces"),
            "merchant": (gold // MERCHANT_EVERY - ns.earned["merchant"], f"{gold} gold produced"),
        }
        for personage, (count, reason) in due.items():
            award(t, personage, count, reason)
        points = self.score(st, t.nation)
        if points >= st.table.goal:
            st.status.winner = t.nation
            t.emit("won", score=points, goal=st.table.goal)


class NinefoldSchema(Facet):
    """The nation's ``gold_produced`` in game files (required) and GM edits."""

    def parts(self, kind: str) -> dict[str, dict[str, Any]]:
        field = {"gold_produced": {"description": "Gold produced so far in the game (merchants).",
                                   "type": "integer", "minimum": 0}}
        if kind == "game":
            return {"nation_state": {"properties": field, "required": ["gold_produced"]}}
        if kind == "edit":
            return {"nation_edit": {"properties": field}}
        return {}


class Ninefold(Edition):
    """The made-up ninefold variant (see the module): classic on a nine-field rondel, made of
    the shared facets but its set-up, its end of the turn and its schema parts."""

    id = "ninefold"
    name = "Ninefold (test variant)"
    aliases = ("nine",)
    board_editions = ("antike",)
    """Played on classic Antike's boards."""
    rules = RULES
    rondel = RONDEL
    nations = classic.NATIONS
    knowhows = classic.EDITION.knowhows
    personages = MappingProxyType({**classic.EDITION.personages, "merchant": "Merchant"})
    variants = MappingProxyType({})
    default_bonus_stack = (*classic.EDITION.default_bonus_stack, "merchant")
    """Unused by ninefold's rules (it has no bonus personage), but every edition's standing
    orders carry a bonus stack naming all its personages."""
    extras = Extras(nation={"gold_produced": 0}, status={}, state={}, standing={})

    setup = facet(NinefoldSetUp)
    turn = facet(NinefoldTurn)
    schema = facet(NinefoldSchema)


def _registered() -> Edition:
    """The registered ninefold edition, registering it on the first import.

    This module may run more than once (imported under two names, or reloaded): the
    registry refuses a second, different object under a taken name, so a later run keeps
    the first run's edition instead of registering a new one.
    """
    try:
        known = editions.get(Ninefold.id)
    except editions.UnknownEdition:
        return editions.register(Ninefold())
    if type(known).__name__ != Ninefold.__name__:
        raise ValueError(f"edition name {Ninefold.id!r} is taken by {known!r}")
    return known


EDITION = _registered()
