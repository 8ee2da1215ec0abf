"""Quadriga: a MADE-UP fourth edition, for the tests only, installed as a plug-in.

It is not a published edition and no rulebook describes it. It exists to prove that an
edition is a plug-in with rules, words and a bot of its own: everything it is lives in this
folder, and the referee (``pbem/``) is neither edited nor told about it. Importing this
package does NOT register it: the tests install it through the entry point group
``antike_ref.editions`` (object ``tests.editions.fourth:EDITION``), as a third-party
package would be installed, and :func:`pbem.editions.get` finds it there.

What it has of its own, beside classic Antike (board, nations, set-up, the shared rules):

* **a unit type, the war chariot** (:mod:`.chariots`): built in a city, at most
  :data:`~.rules.CHARIOTS_PER_CITY` a city and :data:`~.rules.CHARIOTS_PER_NATION` a
  nation; each adds 1 to its city's defence; lost with the city;
* **a wedge, the HIPPODROME** (the ninth field, between the second MANEUVER and IRON):
  chariots for 2 gold each (order key ``chariots``);
* **an event card, TRIUMPH** (:mod:`.cards`, ``cards.json``): granted with every personage
  won while the pile of six lasts, celebrated in the nation's own turn for a chariot for free
  (order key ``events``);
* **its own words** (:mod:`.phrases`) in reports and text orders, **its own bot strategy**
  (:mod:`.strategy`) and its own conservation checks;
* a shorter game (:data:`~.rules.GOALS`).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from pbem.editions import classic
from pbem.editions.classic import setup as classic_setup
from pbem.errors import Problem, UsageError
from pbem.kernel.edition import Edition, Extras, facet
from pbem.kernel.events import NATION
from pbem.kernel.facets import Facet, SharedForces, SharedPieces, SharedSetUp, SharedTurn
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.personages import award
from pbem.kernel.vocab import ACTION_KEYS

from . import cards, chariots, phrases
from .phrases import QuadrigaLines, QuadrigaPhrases
from .rules import CARD, CHARIOTS_PER_CITY, CHARIOTS_PER_NATION, CODES, GOALS, RULES, rondel

KING_EVERY, CITIZEN_EVERY, NAVIGATOR_THRESHOLDS = 5, 3, (7, 14)
"""Classic's personage thresholds."""


class QuadrigaSetUp(SharedSetUp):
    """Classic's set-up with Quadriga's goals."""

    def start(self, options, board):
        return classic_setup.setup(self.edition, options, board)

    def goal(self, options, nations: int, players: int) -> int:
        if options.goal is not None and options.goal < 1:
            raise UsageError(f"--goal {options.goal}: at least one personage")
        return options.goal or GOALS[nations]


class QuadrigaTurn(SharedTurn):
    """TRIUMPH cards celebrated at their moments; chariots lost with their cities, classic's
    personages with a TRIUMPH for each, the goal."""

    def at_moment(self, t, when, orders, echo) -> None:
        cards.celebrate(t, when, orders, echo)

    def end_of_turn(self, t) -> None:
        chariots.sweep(t)
        st, ns = t.state, t.ns
        cities, temples = len(st.cities(t.nation)), len(st.temples(t.nation))
        seas = sum(1 for prov in st.provinces.values() if prov.count(t.nation, "galley"))
        before = len(t.events)
        due = {
            "king": (cities // KING_EVERY - ns.earned["king"], f"{cities} cities"),
            "scholar": (len(t.firsts), "first to acquire " + ", ".join(t.firsts)),
            "general": (t.temples_destroyed, "temple destroyed"),
            "citizen": (temples // CITIZEN_EVERY - ns.earned["citizen"], f"{temples} temples"),
            "navigator": (sum(seas >= n for n in NAVIGATOR_THRESHOLDS) - ns.earned["navigator"],
                          f"galleys in {seas} provinces"),
        }
        for personage, (count, reason) in due.items():
            award(t, personage, count, reason)
        cards.draw(t, t.nation, sum(1 for e in t.events[before:] if e["type"] == "personage"))
        points = self.score(st, t.nation)
        if points >= st.table.goal:
            st.status.winner = t.nation
            t.emit("won", score=points, goal=st.table.goal)


class QuadrigaForces(SharedForces):
    """A war chariot adds to its city's defence."""

    def defence_bonus(self, state, city: str) -> int:
        return chariots.defence(state, city)


class QuadrigaCards(Facet):
    """The TRIUMPH card (:mod:`.cards`): the same in every game, its hands public."""

    def catalogue(self, data: str):
        return cards.catalogue()

    def name(self, cid: str, data: str) -> str:
        return cards.catalogue().get(cid, {}).get("name", cid)

    def text(self, cid: str, data: str, revision: int | None = None) -> str:
        return cards.catalogue().get(cid, {}).get("text", "")

    def note(self, cid: str, data: str) -> str:
        return ""

    def fields(self, cid: str, data: str) -> tuple[str, ...]:
        return ("city",) if cid in cards.catalogue() else ()

    def play(self, cid: str, table) -> dict[str, Any] | None:
        return None  # the bot's strategy plays TRIUMPH its own way

    def spellings(self, cid: str, data: str) -> tuple[str, ...]:
        return (self.name(cid, data),) if cid in cards.catalogue() else ()

    def hand(self, state, nation: str):
        return tuple(state.nations[nation].extra["hand"])


class QuadrigaPieces(SharedPieces):
    """Chariots and TRIUMPH cards in ``show --json``, and their checks."""

    def view_nation(self, state, nation: str, viewer) -> dict[str, Any]:
        extra = state.nations[nation].extra
        return {"chariots": dict(extra["chariots"]), "hand": list(extra["hand"])}

    def view_extra(self, state) -> dict[str, Any]:
        return {"triumphs": state.extra["triumphs"]}

    def consistency_problems(self, state, board) -> list[Problem]:
        return [Problem(path, text) for path, text in _problems(state)]

    def conservation_problems(self, state, board) -> list[str]:
        return [text for _, text in _problems(state)]


class QuadrigaSchema(Facet):
    """Chariots and TRIUMPH cards in game files, order files and GM edits."""

    def parts(self, kind: str) -> dict[str, dict[str, Any]]:
        chariot_map = {"type": "object", "propertyNames": {"pattern": "^[a-z0-9_]+$"},
                       "additionalProperties": {"type": "integer", "minimum": 1, "maximum": CHARIOTS_PER_CITY}}
        hand = {"type": "array", "items": {"enum": list(cards.catalogue())}}
        nation = {"chariots": {"description": "War chariots by city.", **chariot_map},
                  "hand": {"description": "TRIUMPH cards held.", **hand}}
        if kind == "game":
            return {"nation_state": {"properties": nation, "required": list(nation)},
                    "state": {"properties": {"triumphs": {"description": "TRIUMPH cards left to be granted.",
                                                          "type": "integer", "minimum": 0}},
                              "required": ["triumphs"]}}
        if kind == "orders":
            city = {"$ref": "#/$defs/province"}
            return {"#": {"properties": {
                "chariots": {"description": "HIPPODROME: one war chariot a city named (2 gold each).",
                             "type": "array", "items": {
                                 "type": "object", "additionalProperties": False, "required": ["city"],
                                 "properties": {"city": city, "pay": {"$ref": "#/$defs/payment"}}}},
                "events": {"description": "TRIUMPH cards celebrated: a war chariot for free in a city.",
                           "type": "array", "items": {
                               "type": "object", "additionalProperties": False, "required": ["play", "city"],
                               "properties": {"play": {"enum": list(cards.catalogue())},
                                              "when": {"$ref": "#/$defs/moment"}, "city": city}}}}}}
        if kind == "edit":
            return {"nation_edit": {"properties": nation}}
        return {}


class QuadrigaLanguage(Facet):
    """Its words in text orders (:data:`.phrases.ORDER_WORDS`); no standing orders of its own."""

    order_words = phrases.ORDER_WORDS
    standing_words: dict[str, Any] = {}


class Quadriga(Edition):
    """The made-up Quadriga edition (see the package): identity and data, and its facets."""

    id = "fourth"
    name = "Quadriga (test edition)"
    aliases = ("quadriga",)
    board_editions = ("antike",)
    rules = RULES
    rondel = rondel(chariots.Hippodrome())
    nations = classic.NATIONS
    knowhows = classic.EDITION.knowhows
    personages = classic.EDITION.personages
    variants = MappingProxyType({})
    default_bonus_stack = classic.EDITION.default_bonus_stack
    order_keys = (*ORDER_KEYS[:5], "events", *ORDER_KEYS[5:10], "chariots", *ORDER_KEYS[10:])
    action_keys = (*ACTION_KEYS, "chariots")
    turn_keys = ("events",)
    codes = CODES
    extras = Extras(nation={"chariots": {}, "hand": []}, status={}, state={"triumphs": cards.total()}, standing={})
    event_kinds = MappingProxyType({kind: MappingProxyType({"nation?": NATION}) for kind in
                                    ("chariot", "chariots-lost", "triumph", "triumph-drawn")})

    setup = facet(QuadrigaSetUp)
    turn = facet(QuadrigaTurn)
    forces = facet(QuadrigaForces)
    cards = facet(QuadrigaCards)
    pieces = facet(QuadrigaPieces)
    schema = facet(QuadrigaSchema)
    phrases = facet(QuadrigaPhrases)
    lines = facet(QuadrigaLines)
    language = facet(QuadrigaLanguage)
    strategy = facet("tests.editions.fourth.strategy:QuadrigaStrategy")


def _problems(state) -> list[tuple[str, str]]:
    """Chariots only in their nation's cities, within the limits; every TRIUMPH card in a
    hand or on the pile, once."""
    out = []
    held = 0
    for n in state.table.seats:
        extra = state.nations[n].extra
        at = f"$.state.nations.{n}"
        for city, count in extra["chariots"].items():
            prov = state.provinces.get(city)
            if prov is None or prov.owner != n:
                out.append((f"{at}.chariots.{city}", f"war chariots of the {n} in {city}, which is not their city"))
            if not 1 <= count <= CHARIOTS_PER_CITY:
                out.append((f"{at}.chariots.{city}", f"{count} war chariots in {city}: 1 to {CHARIOTS_PER_CITY}"))
        if sum(extra["chariots"].values()) > CHARIOTS_PER_NATION:
            out.append((f"{at}.chariots", f"the {n} have more than {CHARIOTS_PER_NATION} war chariots"))
        if any(c != CARD for c in extra["hand"]):
            out.append((f"{at}.hand", f"the {n} hold a card that is no TRIUMPH"))
        held += len(extra["hand"])
    if held + state.extra["triumphs"] != cards.total():
        out.append(("$.state.triumphs", f"{held} TRIUMPH cards held and {state.extra['triumphs']} on the pile: "
                                        f"the game has {cards.total()}"))
    return out


EDITION = Quadriga()
"""The edition, as the entry point names it (``tests.editions.fourth:EDITION``)."""

__all__ = ["EDITION"]
