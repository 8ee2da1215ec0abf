"""Antike II (Mac Gerdts, 2014): the edition most groups play today.

What it shares with classic comes from the kernel (production, temples, arming, know-how,
the maneuver, founding, trade), driven by its rule table (:mod:`.rules`). What is its own
lives here: the Latin rondel and know-hows, BELLONA (a free unit on MILITIA, then passed
on), neutral temples, sites whose resource the founder chooses, the +1 defence of small
nations, the trade rates of MERCATURA and COMMERCIUM, its personages (:mod:`.personages`),
each in the facet it belongs to: set-up (:mod:`.setup`), the turn and units (:mod:`.turn`),
its pieces and their GM edits (:mod:`.pieces`), its words (:mod:`.phrases`) and schema parts
(:mod:`.schema`). Every rule cites the English rulebook (key 003); what the
rulebook does not give is a ruling (docs/antike2.md).
"""

from __future__ import annotations

from types import MappingProxyType

from pbem.editions.antike2.phrases import Antike2Lines, Antike2Phrases
from pbem.editions.antike2.pieces import Antike2Edits, Antike2Pieces
from pbem.editions.antike2.rules import DATA_KEYS, RULES, with_data
from pbem.editions.antike2.schema import Antike2Schema
from pbem.editions.antike2.setup import Antike2SetUp
from pbem.editions.antike2.turn import CODES, Antike2Forces, Antike2Turn
from pbem.kernel.actions import Arm, BuildTemples, BuyKnowHow, Maneuver, Produce
from pbem.kernel.edition import Edition, Extras, NationInfo, facet
from pbem.kernel.events import NATION, TEXT
from pbem.kernel.rondel import Field, Rondel

NATIONS = MappingProxyType({
    # 003 L170-172: yellow, red, green, blue, black and grey. Which nation has which colour
    # is not in the rulebook: the examples' Romans are yellow (003 L369).
    "romans": NationInfo("Romans", "#e0b21c"),
    "carthaginians": NationInfo("Carthaginians", "#c8352b"),
    "greeks": NationInfo("Greeks", "#2f6fce"),
    "germans": NationInfo("Germans", "#3a3a3a"),
    "phoenicians": NationInfo("Phoenicians", "#8c8c8c"),
    "persians": NationInfo("Persians", "#2e9a47"),
    "egyptians": NationInfo("Egyptians", "#c8352b"),
    "arabs": NationInfo("Arabs", "#3a3a3a"),
    "babylonians": NationInfo("Babylonians", "#8c8c8c"),
})
"""The classic ids; the board says which play (the Orient side's Egyptians, Arabs and
Babylonians share colours with Mare Nostrum nations they never meet)."""

_MOVERE = Maneuver()
RONDEL = Rondel(
    fields=(  # clockwise from index 0 (003 L258-293): utilisation opposite its production
        Field("ferrum", "FERRUM", Produce("iron"), "#c9d6e3"),
        Field("templum", "TEMPLUM", BuildTemples(), "#e4dcef"),
        Field("aurum", "AURUM", Produce("gold"), "#f3e2a6"),
        Field("movere", "MOVERE", _MOVERE, "#f0c9c1"),
        Field("militia", "MILITIA", Arm(), "#d9d2c5"),
        Field("marmor", "MARMOR", Produce("marble"), "#f4f4f1"),
        Field("scientia", "SCIENTIA", BuyKnowHow(), "#cfe5cf"),
        Field("movere", "MOVERE", _MOVERE, "#f0c9c1"),
    ),
    free_steps=3,  # 003 L260
    aliases=MappingProxyType({
        "iron": "ferrum", "temple": "templum", "gold": "aurum", "maneuver": "movere",
        "arming": "militia", "marble": "marmor", "knowhow": "scientia",
    }),
)

WORDING = MappingProxyType({
    "found/neutral-temple": "a neutral temple stands in {city}: conquer it first, then found the city",
    "found/resource-fixed": "a city in {city} produces {resource}, as the board shows; only choice sites (or the free-choice variant) take a \"resource\"",
    "arm/no-free-unit": "{nation} arms no unit for free this turn (only the nation holding BELLONA does)",
})
"""Antike II's words for kernel codes its rules reach: neutral temples, chosen city types,
BELLONA's free unit."""


class Antike2(Edition):
    """Antike II on a Mare Nostrum or Orient board (both reconstructed), 3 to 6 nations."""

    id = "antike2"
    name = "Antike II"
    aliases = ("antike-ii", "a2")
    rules = RULES
    rondel = RONDEL
    nations = NATIONS
    knowhows = MappingProxyType({
        "mercatura": "MERCATURA", "commercium": "COMMERCIUM", "metallum": "METALLUM", "moneta": "MONETA",
        "regnum": "REGNUM", "res_publica": "RES PUBLICA", "strata": "STRATA", "navigatio": "NAVIGATIO",
    })
    personages = MappingProxyType({
        "king": "King", "scholar": "Scholar", "general": "General", "citizen": "Citizen",
        "navigator": "Navigator",
    })
    variants = MappingProxyType({
        "nine_scholars": "A ninth scholar, Pliny the Elder, for the first nation owning all eight know-hows "
                         "(rulebook, 'Variants: Nine scholars').",
        "free_city_types": "The founder of every city chooses its resource (rulebook, 'Variants: Free choice "
                           "of city types').",
    })
    default_bonus_stack = ("general", "king", "citizen", "navigator", "scholar")
    """Antike II has no bonus personage; every edition's standing orders name a stack order."""
    players = (3, 6)
    codes = CODES
    wording = WORDING
    extras = Extras(nation={}, status={"pliny": None}, state={"bellona": None}, standing={})
    default_board = "antike2-mare-nostrum"
    board_features = frozenset({"choice", "temple"})

    selfplay_lineups = MappingProxyType({
        3: ("romans", "carthaginians", "greeks"),
        4: ("romans", "carthaginians", "greeks", "germans"),
        5: ("romans", "carthaginians", "greeks", "germans", "phoenicians"),
        6: ("romans", "carthaginians", "greeks", "germans", "phoenicians", "persians"),
    })
    """The nations of a self-play game on the edition's default board (maps/antike2-mare-nostrum.json),
    by their number: the Mare Nostrum board's start lines."""
    event_kinds = MappingProxyType({"bellona": MappingProxyType({"nation": NATION, "to?": NATION, "reason?": TEXT})})
    """BELLONA held at set-up or passed on (003 L254)."""

    setup = facet(Antike2SetUp)
    turn = facet(Antike2Turn)
    forces = facet(Antike2Forces)
    phrases = facet(Antike2Phrases)
    schema = facet(Antike2Schema)
    pieces = facet(Antike2Pieces)
    edits = facet(Antike2Edits)
    lines = facet(Antike2Lines)

    def rules_for(self, table):
        return with_data(table.data, table.has("nine_scholars"), table.has("free_city_types"))


EDITION = Antike2()

__all__ = ["EDITION", "DATA_KEYS"]
