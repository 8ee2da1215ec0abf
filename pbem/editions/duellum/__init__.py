"""Antike Duellum (Mac Gerdts, 2012): the two-player Antike, with hidden event cards.

What it shares with the other editions comes from the kernel (production with a coin,
temples, arming, know-how, the maneuver, founding on choice sites, trade), driven by its
rule table (:mod:`.rules`). What is its own: here its rondel, vocabulary and the state it
keeps; in its facets the rest: set-up (:mod:`.setup`), the turn and units (:mod:`.turn`:
town walls, the recruitment box, automatic battles, its conquest, the VP track, the special
units of the variant, from :mod:`.play`, :mod:`.special` and :mod:`.cardplay`), the pieces
shown and checked (:mod:`.holdings`), the player's view that keeps the other's hand and the
deck's order secret (:mod:`.secrets`), event cards (:mod:`.cards`), GM edits (:mod:`.edits`),
its words in reports (:mod:`.phrases`), in ``options`` (:mod:`.lines`) and in text orders
(:mod:`.orderwords`), its schema parts (:mod:`.schema`) and its bots (:mod:`.strategy`).
Every rule cites the English rulebook (key 001); what the rulebook does not give is a ruling (docs/duellum.md).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING

from pbem.editions.duellum import play
from pbem.editions.duellum.cards import HIDDEN_DRAWS, OPEN_TABLE, DuellumCards
from pbem.editions.duellum.edits import DuellumEdits
from pbem.editions.duellum.holdings import DuellumPieces
from pbem.editions.duellum.orderwords import DuellumLanguage
from pbem.editions.duellum.phrases import DuellumPhrases
from pbem.editions.duellum.rules import DATA_KEYS, RULES, SPECIAL_MOVES_AS, with_data
from pbem.editions.duellum.schema import DuellumSchema
from pbem.editions.duellum.secrets import DuellumSecrets
from pbem.editions.duellum.setup import DuellumSetUp
from pbem.editions.duellum.turn import DuellumForces, DuellumTurn
from pbem.kernel.actions import Arm, Maneuver, Produce
from pbem.kernel.edition import Edition, Extras, NationInfo, facet
from pbem.kernel.events import NATION
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.rondel import Field, Rondel
from pbem.kernel.vocab import ACTION_KEYS

if TYPE_CHECKING:
    from pbem.editions.duellum.lines import DuellumLines
    from pbem.editions.duellum.strategy import DuellumStrategy

NATIONS = MappingProxyType({
    # 001 L13-17: brown and beige pieces; 001 L119: Carthaginians against Romans on the front,
    # Greeks against Persians on the back; brown is Carthage (at Roma, 001 L384) and Greece (001 L400).
    "carthaginians": NationInfo("Carthaginians", "#7b4a26"),
    "romans": NationInfo("Romans", "#cdb27a"),
    "greeks": NationInfo("Greeks", "#7b4a26"),
    "persians": NationInfo("Persians", "#cdb27a"),
})

_DUELLUM = Maneuver()
RONDEL = Rondel(
    fields=(  # clockwise (001 L215-230, the example at L221): each use opposite its production
        Field("ferrum", "FERRUM", Produce("iron"), "#c9d6e3"),
        Field("templum", "TEMPLUM", play.Templum(), "#e4dcef"),
        Field("aurum", "AURUM", Produce("gold"), "#f3e2a6"),
        Field("duellum", "DUELLUM", _DUELLUM, "#f0c9c1"),
        Field("militia", "MILITIA", Arm(), "#d9d2c5"),
        Field("marmor", "MARMOR", Produce("marble"), "#f4f4f1"),
        Field("scientia", "SCIENTIA", play.Scientia(), "#cfe5cf"),
        Field("duellum", "DUELLUM", _DUELLUM, "#f0c9c1"),
    ),
    free_steps=3,  # 001 L219
    aliases=MappingProxyType({
        "iron": "ferrum", "temple": "templum", "gold": "aurum", "maneuver": "duellum", "movere": "duellum",
        "arming": "militia", "marble": "marmor", "knowhow": "scientia",
    }),
)

CODES = MappingProxyType({
    "wall/not-own-city": "{city} is not a city of {nation}{hint}",
    "wall/already": "{city} already has a town wall (one per city)",
    "wall/none-left": "{nation} has no town wall left in its supply (walls come with the VP track: at 1, 2, 3, 5 "
                      "and 7 personages)",
    "recruit/no-supply": "{nation} has {left} {unit}(s) left in its supply, {asked} asked",
    "card/not-in-hand": "{nation} holds no {card} card",
    "card/field": "the {card} card takes no {field!r}",
    "card/not-now": "{card} is played only in the opponent's turn, when it conquers "
                    "(by the standing order \"fortress\")",
    "card/no-wall": "{card}: {city} has no town wall to destroy (name a city with one: \"city\"){hint}",
    "card/not-scientia": "{card} is played only in a turn on SCIENTIA",
    "card/wrong-wedge": "{card} is played only in a turn whose rondel move goes to {wedge}",
    "card/wrong-moment": "{card} is played {moments}, not {when} (\"when\")",
    "card/needs-field": "{card} needs {what}",
    "card/cannot-pay": "{card}: {nation} cannot pay what the card asks ({what})",
    "card/no-stone": "{card}: the stone of {nation} is not on the rondel yet",
    "card/not-a-rival-city": "{card}: {city} is no city of {nation}",
    "card/nothing-there": "{card}: {nation} have no {unit} in {at}{hint}",
    "card/unknown-effect": "{card} cannot be played: its text is not entered; the GM enters it from the printed card "
                           "(new --data FILE, or gm-edit during the game)",
    "edit/card-entry": "{problem}",
    "edit/card-unavailable": "{card} is not in the deck, the open display or the discards of this game (a card "
                             "held is given to a hand with \"hand\")",
    "edit/card-held": "{card} is in the hand of the {holder}: every card is in one place only (a hand edit of the "
                      "{holder} takes it out first, to the discards)",
    "edit/card-unknown": "{card} is no event card of this game's deck (show --json lists its cards under \"cards\"; "
                         "a blank card joins it once the GM has written it, with \"event_cards\")",
    "trade/no-knowhow": "{nation} may trade with the bank only with COMMERCIUM (3 chips for 2), developed in an "
                        "earlier turn",
    "found/no-token": "the bank has no {resource} city token left ({tokens} in the game)",
    "arm/special-needs-temple": "the {unit} is armed only at a city with a temple; {at} has none",
    "conquer/special-not-used": "the {unit} helps a conquest where it stands (the defence is 1 lower) but is not "
                                "one of the units used: leave it out of \"with\"",
})
"""Duellum's own rejections (docs/rejections.md)."""

WORDING = MappingProxyType({"found/no-site": "{city} has no city site (a sea region)"})
"""Duellum's words for a kernel code: its regions without a city site are the sea's."""

EVENT_KINDS = ("wall", "walls", "recruit", "fortress", "draw", "draw-missed", "shuffle", "refill", "card",
               "discarded")
"""The kinds of event of Duellum's own rules."""


class Duellum(Edition):
    """Antike Duellum on the Rome/Carthage side (a reconstruction), two nations."""

    id = "duellum"
    name = "Antike Duellum"
    aliases = ("antike-duellum", "du")
    rules = RULES
    revision = OPEN_TABLE
    """Revision 3 (issue 36): the deck as at the table, the 25 event cards and a blank one
    only once the GM has written it; a GM's hand edit conserves the deck; the card taken
    from the open display named in the public report (the variant ``hidden_draws`` keeps
    it to its drawer); the default draw a card that can be played; a card of a wedge
    without ``when`` played after the move to it. Revision 2 (issue 28): the deck as
    printed, 25 cards and 2 blank ones (those whose text nobody entered labelled and
    refused when played); the display kept at three cards, the discards shuffled into a
    new deck whenever the draw deck runs out; event cards in the vocabulary of
    :mod:`.effects`, each at the moment of the turn it names (ACADEMY only after the rondel
    move). Revision 1 (every game set up before): the four cards whose effect was known, a
    display that shrinks, ACADEMY before the move."""
    rondel = RONDEL
    nations = NATIONS
    knowhows = MappingProxyType({
        "strata": "STRATA", "navigatio": "NAVIGATIO", "moneta": "MONETA", "res_publica": "RES PUBLICA",
        "commercium": "COMMERCIUM",
    })
    personages = MappingProxyType({
        "king": "King", "citizen": "Citizen", "scholar": "Scholar", "general": "General", "navigator": "Navigator",
    })
    variants = MappingProxyType({
        "special_units": "An Admiral for beige and a Commander for brown (rulebook, 'Variant').",
        HIDDEN_DRAWS: "The card a nation takes from the open display is named only to that nation "
                            "(docs/duellum.md, 'Secrets').",
    })
    default_bonus_stack = ("general", "king", "citizen", "navigator", "scholar")
    """Duellum has no bonus personage; every edition's standing orders name a stack order."""
    players = (2, 2)
    order_keys = (*ORDER_KEYS[:5], "events", *ORDER_KEYS[5:7], "walls", *ORDER_KEYS[7:9], "recruit",
                  *ORDER_KEYS[9:])
    action_keys = (*ACTION_KEYS, "walls", "recruit")
    turn_keys = ("events",)
    special_units = SPECIAL_MOVES_AS
    codes = CODES
    wording = WORDING
    extras = Extras(
        nation={"recruitment": {"legion": 1, "galley": 1}, "walls_supply": 1, "vp": 0, "hand": []},
        status={},
        state={"deck": [], "display": [], "discards": [], "shuffles": 0, "secret": ""},
        standing={"fortress": "always", "draw": []},
    )
    default_board = "duellum-rome-carthage"
    board_features = frozenset({"choice", "none", "double"})

    selfplay_lineups = MappingProxyType({2: ("carthaginians", "romans")})
    """The two nations of the Rome/Carthage side (maps/duellum-rome-carthage.json)."""
    event_kinds = MappingProxyType({kind: MappingProxyType({"nation?": NATION}) for kind in EVENT_KINDS})
    """Town walls built and received, recruits, FORTRESS, the event cards drawn, missed,
    shuffled, refilled and played (a nation, if named, is one of the game's)."""

    setup = facet(DuellumSetUp)
    turn = facet(DuellumTurn)
    forces = facet(DuellumForces)
    phrases = facet(DuellumPhrases)
    schema = facet(DuellumSchema)
    pieces = facet(DuellumPieces)
    secrets = facet(DuellumSecrets)
    cards = facet(DuellumCards)
    edits = facet(DuellumEdits)
    lines: facet[DuellumLines] = facet("pbem.editions.duellum.lines:DuellumLines")
    language = facet(DuellumLanguage)
    strategy: facet[DuellumStrategy] = facet("pbem.editions.duellum.strategy:DuellumStrategy")
    """The bots play a box, walls, cards and automatic battles their own way
    (:mod:`pbem.editions.duellum.strategy`, imported when a bot plays)."""

    def rules_for(self, table):
        return with_data(table.data)


EDITION = Duellum()

__all__ = ["EDITION", "DATA_KEYS"]
