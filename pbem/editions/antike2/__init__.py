"""Antike II (Mac Gerdts, 2014): the edition most groups play today.

What it shares with classic comes from the kernel (production, temples, arming, know-how,
the maneuver, founding, trade), driven by its rule table (:mod:`.rules`). What is its own
lives here: the Latin rondel and know-hows, BELLONA (a free unit on MILITIA, then passed
on), neutral temples, sites whose resource the founder chooses, the +1 defence of small
nations, the trade rates of MERCATURA and COMMERCIUM, its personages (:mod:`.personages`)
and set-up (:mod:`.setup`). Every rule cites the English rulebook (key 003); what the
rulebook does not give is a ruling (docs/antike2.md).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from pbem.editions.antike2 import personages, phrases, setup
from pbem.editions.antike2.rules import (BANK_COINS, DATA_KEYS, GOALS, PERSONAGE_RULES, PRICES, RULES,
                                         data_problems, with_data)
from pbem.errors import Problem
from pbem.kernel.actions import Arm, BuildTemples, BuyKnowHow, Maneuver, Produce
from pbem.kernel.edition import Edition, Extras, NationInfo
from pbem.kernel.rejections import reject
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

CODES = MappingProxyType({
    "trade/no-knowhow": "{nation} may trade with the bank only with MERCATURA (2 chips for 1) or COMMERCIUM "
                        "(3 for 2), developed in an earlier turn",
})
"""Antike II's own rejection (docs/rejections.md): trading without MERCATURA or COMMERCIUM."""

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

    def rules_for(self, table):
        return with_data(table.data, table.has("nine_scholars"), table.has("free_city_types"))

    def setup(self, options, board):
        return setup.setup(self, options, board)

    def goal(self, options, nations: int, players: int) -> int:
        return setup.goal(options, nations)

    def seating_problem(self, players: int, nations: int) -> str | None:
        if players != nations:
            return (f"{players} players cannot play {nations} nations: Antike II is one nation per player, "
                    "3 to 6 (docs/rulings.md Q10: two players are not supported)")
        return None

    def end_of_turn(self, t) -> None:
        personages.end_of_turn(t)

    def bonus_cards(self, state, nation: str) -> int:
        """Pliny the Elder is the one card not won at a threshold (nine-scholars variant)."""
        return 1 if state.status.extra.get("pliny") == nation else 0

    def defence_bonus(self, state, city: str) -> int:
        """003 L248: "If a nation only owns 0, 1, or 2 personages its cities have an extra
        defense strength of +1" (docs/rulings.md Q9: the rule applies, examples aside)."""
        owner = state.provinces[city].owner
        return 1 if state.nations[owner].personage_count() <= PERSONAGE_RULES.small_nation else 0

    def trade_rates(self, state, nation: str):
        """003 L401-402: MERCATURA trades 2 chips for 1, COMMERCIUM 3 for 2 (any chips in,
        chips of one's choice out, never coins); "at any time during a player's turn, but not
        during the turn in which the player develops MERCATURA" (the turn asks this of the
        state its turn began with)."""
        owned = state.nations[nation].knowhow
        rates = {}
        if "mercatura" in owned:
            rates[2] = 1
        if "commercium" in owned:
            rates[3] = 2
        if not rates:
            return {}, reject("trade/no-knowhow", "$.trade", codes=CODES, nation=self.nation_name(nation))
        return rates, None

    def free_units(self, t) -> int:
        """003 L254: the nation holding BELLONA that enters MILITIA "receives an extra
        military unit for free"."""
        return 1 if t.state.extra.get("bellona") == t.nation else 0

    def after_action(self, t, field) -> None:
        """003 L254: the holder entering MILITIA "hands the card over to the next nation to
        the right, counter-clockwise (there is no option to keep it)", used or not
        (docs/rulings.md Q24)."""
        if field.name != "militia" or t.state.extra.get("bellona") != t.nation:
            return
        seats = t.state.table.seats
        nxt = seats[(seats.index(t.nation) - 1) % len(seats)]
        t.state.extra["bellona"] = nxt
        t.emit("bellona", to=nxt)

    def edit_other(self, state, edit: dict[str, Any], path: str, out) -> bool:
        if "bellona" not in edit:
            return False
        holder = edit["bellona"]
        if holder not in state.nations:
            out.append(reject("edit/unknown-nation", f"{path}.bellona", nation=holder, playing=", ".join(state.nations)))
        else:
            state.extra["bellona"] = holder
        return True

    def view_extra(self, state) -> dict[str, Any]:
        return {"bellona": state.extra.get("bellona")}

    def data_problems(self, data, board) -> list[str]:
        problems = data_problems(data, self.knowhows, board.provinces) if data else []
        return [f"{p} (keys: {', '.join(DATA_KEYS)})" for p in problems[:1]] + problems[1:]

    def rulings(self, table) -> list[str]:
        import json

        given = json.loads(table.data) if table.data else {}
        rules = self.rules_for(table)
        out = []
        if "knowhow_prices" not in given or set(given["knowhow_prices"]) != set(PRICES):
            prices = ", ".join(f"{self.knowhows[k]} {s.price_first}/{s.price_later}" for k, s in rules.knowhows.items()
                               if k not in given.get("knowhow_prices", {}))
            out.append(f"know-how prices (first/later): {prices}")
        if str(len(table.seats)) not in given.get("goals", {}) and len(table.seats) in (4, 5):
            out.append(f"the goal, {GOALS[len(table.seats)]} personages with {len(table.seats)} nations")
        if "bank_coins" not in given:
            out.append(f"the bank's {BANK_COINS} coins")
        if "neutral_temples" not in given:
            out.append("where the neutral temples stand (the board's)")
        return out

    def consistency_problems(self, state, board) -> list[Problem]:
        out = []
        holder = state.extra.get("bellona")
        if holder is not None and holder not in state.nations:
            out.append(Problem("$.state.bellona", f"BELLONA is held by {holder!r}, who does not play"))
        for pid, prov in state.provinces.items():
            if prov.extra.get("neutral_temple") and (prov.owner is not None or prov.temple):
                out.append(Problem(f"$.state.provinces.{pid}", "a neutral temple stands only where no city is"))
            chosen = prov.extra.get("resource")
            if chosen is not None and prov.owner is None:
                out.append(Problem(f"$.state.provinces.{pid}.resource", "a city type without a city"))
        pliny = state.status.extra.get("pliny")
        if pliny is not None and pliny not in state.nations:
            out.append(Problem("$.status.pliny", f"Pliny was won by {pliny!r}, who does not play"))
        return out

    def schema_extensions(self, kind: str) -> dict[str, dict[str, Any]]:
        resource = {"$ref": "#/$defs/resource"}
        if kind == "orders":
            return {
                "arm_order": {"properties": {"free": {
                    "description": "The BELLONA holder's free unit is one of this entry's (at most one entry).",
                    "type": "boolean"}}},
                "city_order": {"properties": {"resource": {
                    "description": "The new city's resource, where the founder chooses it (a site showing all "
                                   "three, or the free-choice variant).", **resource}}},
            }
        if kind == "edit":
            return {
                "province_edit": {"properties": {
                    "neutral_temple": {"description": "A neutral temple stands here (no city).", "type": "boolean"},
                    "resource": {"description": "The city's resource where its founder chose it; null: "
                                                "the printed one.", "oneOf": [resource, {"type": "null"}]}}},
                "bellona_edit": {"type": "object", "additionalProperties": False, "required": ["bellona"],
                                 "properties": {"bellona": {"$ref": "#/$defs/nation"}}},
                "edit": {"oneOf": [{"required": ["bellona"]}],
                         "allOf": [{"if": {"required": ["bellona"]}, "then": {"$ref": "#/$defs/bellona_edit"}}]},
            }
        if kind == "game":
            return {
                "state": {"properties": {"bellona": {
                    "description": "The nation holding BELLONA (003 L254).", "$ref": "#/$defs/nation"}},
                    "required": ["bellona"]},
                "status": {"properties": {"pliny": {
                    "description": "The nation that won Pliny the Elder (nine-scholars variant), or null.",
                    "oneOf": [{"type": "null"}, {"$ref": "#/$defs/nation"}]}}, "required": ["pliny"]},
                "province": {"properties": {
                    "neutral_temple": {"description": "A neutral temple stands here.", "const": True},
                    "resource": {"description": "The resource its founder chose.",
                                 "enum": ["marble", "iron", "gold"]}}},
            }
        return {}

    # -- hooks for reports (the words: .phrases) -----------------------------------------

    def event_line(self, ev, words):
        return phrases.event_line(ev, words)

    def edit_line(self, edit, words):
        return phrases.edit_line(edit, words)

    def province_edit_words(self, edit, words):
        return phrases.province_edit_words(edit, words)

    def status_lines(self, state, words):
        return phrases.status_lines(state, words)

    # -- hooks for bots and self-play checks --

    def selfplay_lineups(self):
        """The nations the Mare Nostrum board's start lines seat, by their number."""
        return LINEUPS

    # -- hooks for the command line --

    def show_lines(self, state) -> list[str]:
        lines = []
        holder = state.extra.get("bellona")
        if holder and state.status.winner is None:
            lines.append(f"BELLONA: {holder} (one unit free when they next take MILITIA, then it passes on)")
        if "pliny" in state.status.extra and state.table.has("nine_scholars"):
            lines.append(f"Pliny the Elder (the ninth scholar): {state.status.extra.get('pliny') or 'not won yet'}")
        return lines


LINEUPS = MappingProxyType({
    3: ("romans", "carthaginians", "greeks"),
    4: ("romans", "carthaginians", "greeks", "germans"),
    5: ("romans", "carthaginians", "greeks", "germans", "phoenicians"),
    6: ("romans", "carthaginians", "greeks", "germans", "phoenicians", "persians"),
})
"""The nations of a self-play game on the edition's default board (maps/antike2-mare-nostrum.json)."""


EDITION = Antike2()

__all__ = ["EDITION", "DATA_KEYS"]
