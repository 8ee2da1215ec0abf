"""Classic Antike (Mac Gerdts, 2005): the edition the referee was first built for.

Its rule table (:mod:`.rules`), its facets: the turn with its personages and end of the
game (:mod:`.personages`), the set-up (:mod:`.setup`), and here its words and schema parts;
and here its rondel and vocabulary with display names. The shared
rules (production, temples, arming, know-how, the maneuver, founding, trade) come from the
kernel's actions; classic adds nothing to them.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from pbem.editions.classic.personages import ClassicTurn
from pbem.editions.classic.setup import ClassicSetUp
from pbem.editions.classic.rules import DOUBLE_RULES, FREE_STEPS, RULES
from pbem.kernel.actions import Arm, BuildTemples, BuyKnowHow, Maneuver, Produce
from pbem.kernel.edition import Edition, Extras, NationInfo, facet
from pbem.kernel.facets import Facet, SharedPhrases
from pbem.kernel.rondel import Field, Rondel

NATIONS = MappingProxyType({
    "greeks": NationInfo("Greeks", "#2f6fce"),
    "persians": NationInfo("Persians", "#c8352b"),
    "arabs": NationInfo("Arabs", "#2e9a47"),
    "phoenicians": NationInfo("Phoenicians", "#e0b21c"),
    "egyptians": NationInfo("Egyptians", "#8a5a2b"),
    "babylonians": NationInfo("Babylonians", "#7d4fb3"),
    "romans": NationInfo("Romans", "#7d4fb3"),
    "germans": NationInfo("Germans", "#555555"),
    "carthaginians": NationInfo("Carthaginians", "#e07a1c"),
})
"""Both board sides' nations: the East side seats the first six, the West side Greeks,
Romans, Germanic tribes, Phoenicians, Carthaginians and Persians. Nations that meet on one
side have different colours (the Romans share the Babylonians' purple: they never meet)."""

_MANEUVER = Maneuver()
RONDEL = Rondel(
    fields=(  # clockwise from index 0 (docs/rulings.md, "Rondel"; 000 L309-334, L447-453)
        Field("iron", "Iron", Produce("iron"), "#c9d6e3"),
        Field("temple", "Temple", BuildTemples(), "#e4dcef"),
        Field("gold", "Gold", Produce("gold"), "#f3e2a6"),
        Field("maneuver", "Maneuver", _MANEUVER, "#f0c9c1"),
        Field("arming", "Arming", Arm(), "#d9d2c5"),
        Field("marble", "Marble", Produce("marble"), "#f4f4f1"),
        Field("knowhow", "Know-how", BuyKnowHow(), "#cfe5cf"),
        Field("maneuver", "Maneuver", _MANEUVER, "#f0c9c1"),
    ),
    free_steps=FREE_STEPS,
)


class ClassicPhrases(SharedPhrases):
    """Classic's words in reports: its score in victory points in the military variant, and
    its board page as it was first drawn."""

    report_refined = False
    """A classic report rendered again, even years later, is byte for byte the one the
    players were sent: its board page stays as it was first drawn."""

    def score_unit(self, state) -> str:
        return "victory points" if state.table.has("military") else "personages"


class ClassicSchema(Facet):
    """Classic's schema parts: the all-eight-know-hows card and the turn all personages
    were out."""

    def parts(self, kind: str) -> dict[str, dict[str, Any]]:
        if kind == "game":
            return {
                "nation_state": {"properties": {"all8_bonus": {
                    "description": "Whether the all-eight-know-hows personage was already received.",
                    "type": "boolean"}}, "required": ["all8_bonus"]},
                "status": {"properties": {"all_awarded_turn": {
                    "description": "The turn in which the last personage card left the bank "
                                   "(docs/rulings.md Q28), or null.",
                    "oneOf": [{"type": "null"}, {"type": "integer", "minimum": 1}]}},
                    "required": ["all_awarded_turn"]},
            }
        if kind == "edit":
            return {"nation_edit": {"properties": {"all8_bonus": {
                "description": "Whether the all-eight-know-hows personage was already received.",
                "type": "boolean"}}}}
        return {}


class Classic(Edition):
    """Classic Antike on either side of its board, 3 to 6 nations (2 players play 4)."""

    id = "antike"
    name = "Antike"
    aliases = ("classic",)
    rules = RULES
    rondel = RONDEL
    nations = NATIONS
    knowhows = MappingProxyType({
        "wheel": "Wheel", "roads": "Roads", "sailing": "Sailing", "navigation": "Navigation",
        "market": "Market", "currency": "Currency", "monarchy": "Monarchy", "democracy": "Democracy",
    })
    personages = MappingProxyType({
        "king": "King", "scholar": "Scholar", "general": "General", "citizen": "Citizen",
        "navigator": "Navigator",
    })
    variants = MappingProxyType({
        "expert": "No extra personage for all eight know-hows (rulebook p. XIII, 'Expert Variation').",
        "military": "Generals score 2 victory points; other goals; no all-eight personage "
                    "(rulebook p. XIII, 'Military variation').",
        "longer": "Each nation starts with one city (rulebook p. XIII, 'Longer game').",
        "double": "Two players, one double nation each: twice the legions, galleys and city "
                  "stones, 15 personages to win, start cities picked in turns, start player by "
                  "lot (rulebook p. III, 'Antike for two players').",
    })
    default_bonus_stack = ("general", "king", "citizen", "navigator", "scholar")
    """D5 (docs/rulings.md): generals are scarce late and worth 2 in the military variant."""
    players = (2, 6)
    """Two nations only in the two-player double-nation variant; otherwise 3 to 6."""
    extras = Extras(
        nation={"all8_bonus": False},
        status={"all_awarded_turn": None},
        state={},
        standing={},
    )

    setup = facet(ClassicSetUp)
    turn = facet(ClassicTurn)
    phrases = facet(ClassicPhrases)
    schema = facet(ClassicSchema)

    def rules_for(self, table):
        """The double nation of the two-player variant has the materials of two nations
        (000 L187-189: "use two colors, and double the materials used")."""
        return DOUBLE_RULES if table.has("double") else RULES


EDITION = Classic()
