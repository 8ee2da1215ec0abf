"""Antike Duellum (Mac Gerdts, 2012): the two-player Antike, with hidden event cards.

What it shares with the other editions comes from the kernel (production with a coin,
temples, arming, know-how, the maneuver, founding on choice sites, trade), driven by its
rule table (:mod:`.rules`). What is its own lives here: the Duellum rondel, town walls,
the recruitment box, automatic battles, its conquest, event cards (:mod:`.cards`), the VP
track, the special units of the variant (:mod:`.special`), and the player's view that
keeps the other's hand and the deck's order secret. Every rule cites the English rulebook
(key 001); what the rulebook does not give is a ruling (docs/duellum.md).
"""

from __future__ import annotations

import json
from collections import Counter
from types import MappingProxyType
from typing import Any

from pbem.editions.duellum import cardplay, cards, checks, edits, effects, phrases, pieces, play, setup, special
from pbem.editions.duellum.rules import (BANK_COINS, DATA_KEYS, DISPLAY, GOAL, PRICES, RULES, SPECIAL_MOVES_AS,
                                         TOKENS, WALLS_PER_NATION, data_problems, with_data)
from pbem.errors import Problem
from pbem.kernel import queries
from pbem.kernel.actions import Arm, Maneuver, Produce
from pbem.kernel.edition import Edition, Extras, NationInfo
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.rejections import reject
from pbem.kernel.rondel import Field, Rondel
from pbem.kernel.vocab import ACTION_KEYS, MOMENTS

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
    "wall/none-left": "{nation} has no town wall left in its supply (walls come with the VP track: at 1, 2, 3, 5 and 7 personages)",
    "recruit/no-supply": "{nation} has {left} {unit}(s) left in its supply, {asked} asked",
    "card/not-in-hand": "{nation} holds no {card} card",
    "card/field": "the {card} card takes no {field!r}",
    "card/not-now": "{card} is played only in the opponent's turn, when it conquers (by the standing order \"fortress\")",
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
    "trade/no-knowhow": "{nation} may trade with the bank only with COMMERCIUM (3 chips for 2), developed in an earlier turn",
    "found/no-token": "the bank has no {resource} city token left ({tokens} in the game)",
    "arm/special-needs-temple": "the {unit} is armed only at a city with a temple; {at} has none",
    "conquer/special-not-used": "the {unit} helps a conquest where it stands (the defence is 1 lower) but is not "
                                "one of the units used: leave it out of \"with\"",
})
"""Duellum's own rejections (docs/rejections.md)."""

WORDING = MappingProxyType({"found/no-site": "{city} has no city site (a sea region)"})
"""Duellum's words for a kernel code: its regions without a city site are the sea's."""

UNIT_OBJECT = {"type": "object", "additionalProperties": False,
               "properties": {u: {"type": "integer", "minimum": 0} for u in ("legion", "galley", "admiral", "commander")},
               "required": ["legion", "galley"]}


class Duellum(Edition):
    """Antike Duellum on the Rome/Carthage side (a reconstruction), two nations."""

    id = "duellum"
    name = "Antike Duellum"
    aliases = ("antike-duellum", "du")
    rules = RULES
    revision = cards.OPEN_TABLE
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
        cards.HIDDEN_DRAWS: "The card a nation takes from the open display is named only to that nation "
                            "(docs/duellum.md, 'Secrets').",
    })
    default_bonus_stack = ("general", "king", "citizen", "navigator", "scholar")
    """Duellum has no bonus personage; every edition's standing orders name a stack order."""
    players = (2, 2)
    order_keys = (*ORDER_KEYS[:5], "events", *ORDER_KEYS[5:7], "walls", *ORDER_KEYS[7:9], "recruit",
                  *ORDER_KEYS[9:])
    action_keys = (*ACTION_KEYS, "walls", "recruit")
    turn_keys = ("events",)
    automatic_battles = True
    arm_source_words = "in its recruitment box"
    special_units = SPECIAL_MOVES_AS
    codes = CODES
    wording = WORDING
    extras = Extras(
        nation={"recruitment": {"legion": 1, "galley": 1}, "walls_supply": 1, "vp": 0, "hand": []},
        status={},
        state={"deck": [], "display": [], "discards": [], "shuffles": 0, "secret": ""},
        standing={"fortress": "always", "draw": []},
    )
    secrets = True
    default_board = "duellum-rome-carthage"
    board_features = frozenset({"choice", "none", "double"})

    def rules_for(self, table):
        return with_data(table.data)

    def setup(self, options, board):
        return setup.setup(self, options, board)

    def goal(self, options, nations: int, players: int) -> int:
        return GOAL

    def seating_problem(self, players: int, nations: int) -> str | None:
        if players != 2 or nations != 2:
            return "Antike Duellum is two players, one nation each"
        return None

    # -- the turn ----------------------------------------------------------------------

    def end_of_turn(self, t) -> None:
        play.end_of_turn(t)

    def at_moment(self, t, when, orders, echo) -> None:
        """001 L427: event cards are played "whenever they wish during their own turns":
        those of the orders' ``events`` marked for this moment (:mod:`.cardplay`)."""
        cardplay.play_cards(t, when, orders, echo)

    def defence_bonus(self, state, city: str) -> int:
        """001 L364: +1 "if the city has a town wall"; the variant's special unit defending
        it +1 (001 L437)."""
        return (1 if state.provinces[city].extra.get("wall") else 0) + special.defence_help(state, city)

    def trade_rates(self, state, nation: str):
        """001 L336: COMMERCIUM trades 3 chips for 2 (never coins), "at any time during a
        player's turn, but not during the turn in which the player develops Trade" (the turn
        asks this of the state its turn began with)."""
        if "commercium" in state.nations[nation].knowhow:
            return {3: 2}, None
        return {}, reject("trade/no-knowhow", "$.trade", codes=CODES, nation=self.nation_name(nation))

    def reserve(self, state, nation: str, unit: str) -> int:
        return pieces.box(state, nation).get(unit, 0)

    def units_lost(self, t, nation: str, unit: str, count: int, at: str) -> None:
        pieces.to_box(t.state, nation, unit, count)

    def conquer(self, t, forces, step, path):
        return play.conquer(t, forces, step, path)

    def found_problem(self, t, city: str, resource: str, path: str) -> bool:
        """001 L197, L467: a city takes a token of its type from the bank; none left, none founded."""
        if pieces.tokens_used(t.state, t.board, resource) >= TOKENS[resource]:
            t.reject("found/no-token", f"{path}.city", resource=resource, tokens=TOKENS[resource])
            return True
        return False

    def found_surcharge(self, t, city: str, resource: str) -> int:
        """001 L197: "one additional coin for each adjacent city which produces the same
        resource", any owner, land or sea border (coins only, Q13 in docs/rulings.md)."""
        here = t.board.province(city)
        return sum(1 for p in here.land | here.sea
                   if (prov := t.state.provinces.get(p)) is not None and prov.owner is not None
                   and queries.city_resource(t.state, t.board, p) == resource)

    def temple_surcharge(self, t, city: str) -> int:
        return play.temple_surcharge(t, city)

    def arm_source(self, state, nation: str, unit: str) -> int:
        """001 L284: "Only units that are inside the recruitment box at the beginning of the
        turn may be armed" (counted once, when the action starts)."""
        return pieces.box(state, nation).get(unit, 0)

    def armed(self, t, unit: str, at: str, count: int) -> None:
        play.armed(t, unit, at, count)

    def arm_problem(self, t, unit: str, at: str, path: str) -> bool:
        return special.arm_problem(t, unit, at, path)

    def arming_iron(self, t, unit: str) -> int:
        return special.arming_iron(t, unit)

    def entry_battles(self, t, forces, at: str, unit: str, moving):
        return special.entry_battles(t, forces, at, unit, moving)

    # -- views ---------------------------------------------------------------------------

    def player_view(self, state, nation):
        """What ``nation`` may see (``None``: the public): the other's hand and the deck's
        order are hidden (``"?"``), and the secret they are shuffled by (D18 in
        docs/rulings.md; docs/duellum.md, "Secrets")."""
        view = state.copy()
        for n in state.table.seats:
            if n != nation and any(c != cards.HIDDEN for c in state.nations[n].extra["hand"]):
                held = view.nation(n)
                held.extra["hand"] = [cards.HIDDEN] * len(held.extra["hand"])
        view.extra["deck"] = [cards.HIDDEN] * len(state.extra["deck"])
        view.extra["secret"] = cards.HIDDEN
        return view

    def determinise(self, view, nation, rng):
        """The view's hidden cards (the other's hand, the deck's order) drawn with ``rng``
        from the cards ``nation`` cannot see: the deck built at set-up less its own hand,
        the display, the discards and every card shown; the secret a fresh one, so a
        reshuffle in the look-ahead reveals nothing either."""
        state = view.copy()
        unseen = Counter(cards.deck_of(state.table))
        unseen.subtract([*state.extra["display"], *state.extra["discards"]])
        for n in state.table.seats:
            unseen.subtract(c for c in state.nations[n].extra["hand"] if c != cards.HIDDEN)
        pool = sorted(unseen.elements())
        rng.shuffle(pool)
        for n in state.table.seats:
            hand = state.nations[n].extra["hand"]
            if any(c == cards.HIDDEN for c in hand):
                held = state.nation(n)
                held.extra["hand"] = [pool.pop() if c == cards.HIDDEN else c for c in hand]
        state.extra["deck"] = [pool.pop() if c == cards.HIDDEN else c for c in state.extra["deck"]]
        state.extra["secret"] = f"{rng.getrandbits(64):016x}"
        return state

    def view_nation(self, state, nation: str, viewer) -> dict[str, Any]:
        held = state.nations[nation].extra
        out = {"walls": pieces.walls_of(state, nation), "walls_supply": held["walls_supply"],
               "recruitment": dict(held["recruitment"]), "vp": held["vp"], "hand_size": len(held["hand"])}
        if viewer == nation:
            out["hand"] = list(held["hand"])
        return out

    def view_extra(self, state) -> dict[str, Any]:
        """The open display, the deck's size, and (an addition) ``cards``: every card of the
        game's deck by id, its name and printed text, and for a card whose text nobody
        entered the label :data:`~.cards.NOT_ENTERED` (the deck's composition is public;
        its order and the hands are not)."""
        known = cards.catalogue(state.table.data)
        listed = {}
        for cid in dict.fromkeys(cards.deck_of(state.table)):
            card = known.get(cid, {})
            listed[cid] = {"name": cards.name_of(card, cid), "text": card.get("text")}
            if not cards.entered(card):
                listed[cid]["label"] = cards.NOT_ENTERED
        return {"display": list(state.extra["display"]), "deck_size": len(state.extra["deck"]), "cards": listed}

    def mask_event(self, event, viewer):
        """A card taken from the open display is named to everyone where the draw is public
        (``"public": true``, :func:`.deck.open_draws`), else to its drawer only; the cards a
        card's effect discards at random from a hand (``"random": true``) are never public
        (D18 in docs/rulings.md)."""
        kind = event.get("type")
        if kind == "draw" and event.get("nation") != viewer and "card" in event and not event.get("public"):
            return {k: v for k, v in event.items() if k != "card"}
        if kind == "card" and viewer is None and any(e.get("random") for e in event.get("effects", ())):
            return {**event, "effects": [{k: v for k, v in e.items() if k != "cards"} | {"count": len(e["cards"])}
                                         if e.get("random") else e for e in event["effects"]]}
        return event

    def mask_edit(self, edit, viewer):
        """A GM's ``hand`` edit of the other nation shows as many ``"?"`` as cards: which
        cards a hand holds is its holder's secret, in the history as in the state."""
        if "hand" in edit and edit.get("nation") != viewer and isinstance(edit["hand"], list):
            return {**edit, "hand": [cards.HIDDEN] * len(edit["hand"])}
        return edit

    # -- edits, data, checks -------------------------------------------------------------

    def edit_other(self, state, edit, path, out) -> bool:
        """``{"display": [CARD, ...]}`` and ``{"event_cards": [ENTRY, ...]}`` (:mod:`.edits`)."""
        if "event_cards" in edit:
            edits.enter_cards(self, state, edit, f"{path}.event_cards", out)
        elif "display" in edit:
            edits.display_edit(self, state, edit, path, out)
        else:
            return False
        return True

    def edit_nation(self, state, nation, edit, path, out) -> frozenset[str]:
        """From revision 3 a ``hand`` edit conserves the deck (:func:`.edits.edit_hand`)."""
        if "hand" not in edit:
            return frozenset()
        if state.table.revision < cards.OPEN_TABLE:
            hidden = [i for i, c in enumerate(edit["hand"]) if c == cards.HIDDEN]
            for i in hidden:  # a copy's mask, never a card (revision 3 refuses it as no card of the deck)
                out.append(reject("edit/card-unknown", f"{path}.hand[{i}]", codes=self.codes, card=cards.HIDDEN))
            return frozenset({"hand"}) if hidden else frozenset()
        edits.edit_hand(self, state, nation, edit["hand"], path, out)
        return frozenset({"hand"})

    def edit_province(self, state, pid, edit, path, out) -> None:
        edits.edit_province(state, pid, edit, path, out)

    def data_problems(self, data, board) -> list[str]:
        problems = data_problems(data, self.knowhows, self.rondel.names) if data else []
        return [f"{p} (keys: {', '.join(DATA_KEYS)})" for p in problems[:1]] + problems[1:]

    def rulings(self, table) -> list[str]:
        given = json.loads(table.data) if table.data else {}
        rules = self.rules_for(table)
        out = []
        if set(given.get("knowhow_prices", {})) != set(PRICES):
            prices = ", ".join(f"{self.knowhows[k]} {s.price_first}/{s.price_later}" for k, s in rules.knowhows.items()
                               if k not in given.get("knowhow_prices", {}))
            out.append(f"know-how prices (first/later): {prices}")
        if "bank_coins" not in given:
            out.append(f"the bank's {BANK_COINS} coins")
        out.append(cards.deck_words(table.data, table.revision))
        return out + self._moments(table, given.get("event_cards", []))

    def edit_notes(self, table, edits) -> list[str]:
        """The moments of a card a GM entered without ``when`` (:meth:`_moments`)."""
        return self._moments(table, [c for e in edits for c in e.get("event_cards", [])])

    def _moments(self, table, entries) -> list[str]:
        """For each card of ``entries`` (a GM's) whose ``when`` nobody gave: the moments it
        gets (from revision 3, a card of a wedge only after the move to it)."""
        if table.revision < cards.PRINTED_DECK:
            return []  # the first kit's cards are played at any moment of the turn
        known = cards.catalogue(table.data)
        ids = dict.fromkeys(e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str))
        after = table.revision >= cards.OPEN_TABLE
        return [f"{cards.name_of(known[c], c)} ({c}), entered without \"when\": "
                f"{effects.when_words(known[c], after)}" for c in ids
                if c in known and cards.entered(known[c]) and "when" not in known[c]]

    def event_cards(self, data: str):
        return cards.catalogue(data)

    def card_name(self, cid: str, data: str) -> str:
        return cards.name_of(cards.catalogue(data).get(cid), cid)

    def card_text(self, cid: str, data: str, revision: int | None = None) -> str:
        """What card ``cid`` does and when it is played, in words (:func:`.effects.words`);
        for a card whose text is not entered, :data:`.cards.NOT_ENTERED`. In a game set up
        before the printed deck, a card of the first kit is played at any moment."""
        card = cards.catalogue(data).get(cid)
        if cid == cards.HIDDEN or card is None:
            return ""
        if revision is not None and revision < cards.PRINTED_DECK:
            legacy = cards.legacy_effect(cid, data)
            if not legacy:
                return ""
            said = effects.normalised({"effect": legacy})
            if said["when"] != [effects.DURING_CONQUEST]:
                said["when"] = list(MOMENTS)
            return effects.words({"when": said["when"], "wedge": said["wedge"], "effect": said["steps"]})
        after = revision is None or revision >= cards.OPEN_TABLE
        return effects.words(card, after) if cards.entered(card) else cards.NOT_ENTERED

    def card_fields(self, cid: str, data: str) -> tuple[str, ...]:
        """The fields an ``events`` entry playing ``cid`` names (``city``, ``at``, ...)."""
        card = cards.catalogue(data).get(cid)
        if not card:
            return ()
        card = effects.normalised(card)
        return tuple(effects.needs(card["steps"], card["when"]))

    def card_play(self, cid: str, table) -> dict[str, Any] | None:
        """A card as :mod:`.effects` reads it; in a game set up before the printed deck, the
        first kit's effect said in the vocabulary, at any moment of the turn (as it is
        played there)."""
        if table.revision < cards.PRINTED_DECK:
            legacy = cards.legacy_effect(cid, table.data)
            if not legacy:
                return None
            card = effects.normalised({"effect": legacy})
            return {**card, "when": card["when"] if card["when"] == [effects.DURING_CONQUEST] else list(MOMENTS)}
        card = cards.catalogue(table.data).get(cid)
        if not cards.entered(card):
            return None
        return effects.normalised(card, table.revision >= cards.OPEN_TABLE)

    def card_spellings(self, cid: str, data: str) -> tuple[str, ...]:
        """The German name where the catalogue has one, then the English one (or the id)."""
        card = cards.catalogue(data).get(cid)
        if card is None:
            return ()
        return (*([card["name_de"]] if card.get("name_de") else []), card.get("name") or cid)

    def hand(self, state, nation: str) -> tuple[str, ...]:
        return tuple(state.nations[nation].extra["hand"])

    def order_words(self):
        from pbem.editions.duellum.orderwords import ORDER_WORDS

        return ORDER_WORDS

    def standing_order_words(self):
        from pbem.editions.duellum.orderwords import STANDING_WORDS

        return STANDING_WORDS

    def card_note(self, cid: str, data: str) -> str:
        if cid == cards.HIDDEN or cards.entered(cards.catalogue(data).get(cid)):
            return ""
        return cards.NOT_ENTERED

    def consistency_problems(self, state, board) -> list[Problem]:
        """The box, the special units, the walls, the tokens, the cards (:mod:`.checks`)."""
        return checks.consistency_problems(self, state, board)

    def schema_extensions(self, kind: str) -> dict[str, dict[str, Any]]:
        card = {"type": "string", "pattern": "^([a-z0-9_]+|[?])$"}
        cards_list = {"type": "array", "items": card}
        standing = {
            "fortress": {"description": "Play FORTRESS (or another card for the opponent's conquest), if held, when "
                                        "the opponent conquers a city of this nation: always, never, or only when "
                                        "it saves the city.",
                         "enum": list(cardplay.FORTRESS_CHOICES)},
            "draw": {"description": "Which display cards to take first when this nation draws in the other's turn.",
                     "type": "array", "items": {"type": "string", "pattern": "^[a-z0-9_]+$"}},
        }
        if kind == "game":
            return {
                "nation_state": {"properties": {
                    "recruitment": {"description": "Units in the recruitment box (001 L95, L284).", **UNIT_OBJECT},
                    "walls_supply": {"description": "Town walls in the personal supply, not yet built.",
                                     "type": "integer", "minimum": 0, "maximum": WALLS_PER_NATION},
                    "vp": {"description": "The marker on the VP track.", "type": "integer", "minimum": 0},
                    "hand": {"description": "Event cards held; \"?\" in a player's copy for a card it may not see.",
                             **cards_list}},
                    "required": ["recruitment", "walls_supply", "vp", "hand"]},
                "province": {"properties": {"wall": {"description": "A town wall stands in this city.", "const": True},
                                            "resource": {"description": "The resource its founder chose.",
                                                         "enum": ["marble", "iron", "gold"]}}},
                "units": {"properties": {u: {"type": "integer", "minimum": 0} for u in ("admiral", "commander")}},
                "state": {"properties": {
                    "deck": {"description": "The event deck, top first (\"?\" in a player's copy).", **cards_list},
                    "display": {"description": "The open display of event cards.", **cards_list},
                    "discards": {"description": "Played event cards.", **cards_list},
                    "shuffles": {"description": "How often the discards were shuffled into a new deck.",
                                 "type": "integer", "minimum": 0},
                    "secret": {"description": "What the deck is shuffled by; \"?\" in a player's copy.",
                               "type": "string"}},
                    "required": ["deck", "display", "discards", "shuffles", "secret"]},
                "standing": {"properties": standing, "required": list(standing)},
            }
        if kind == "orders":
            wall = {"type": "object", "additionalProperties": False, "required": ["city"],
                    "properties": {"city": {"$ref": "#/$defs/province"}, "pay": {"$ref": "#/$defs/payment"}}}
            return {
                "#": {"properties": {
                    "events": {"description": "Event cards played, in order, each at the moment its \"when\" "
                                              "names (before the rondel move by default), with what the card "
                                              "leaves open (docs/duellum.md).",
                               "type": "array", "items": {
                                   "type": "object", "additionalProperties": False, "required": ["play"],
                                   "properties": {"play": {"type": "string", "pattern": "^[a-z0-9_]+$"},
                                                  "when": {"$ref": "#/$defs/moment"},
                                                  "city": {"$ref": "#/$defs/province"},
                                                  "at": {"$ref": "#/$defs/province"},
                                                  "unit": {"$ref": "#/$defs/unit"},
                                                  "to": {"$ref": "#/$defs/wedge"},
                                                  "cards": {"type": "array", "minItems": 1, "items": {
                                                      "type": "string", "pattern": "^[a-z0-9_]+$"}}}}},
                    "walls": {"description": "TEMPLUM: town walls to build (1 marble each).",
                              "type": "array", "items": wall},
                    "recruit": {"description": "SCIENTIA: units from the supply into the recruitment box "
                                               "(1 gold per legion, 2 per galley).",
                                "type": "object", "additionalProperties": False, "minProperties": 1,
                                "properties": {"legion": {"$ref": "#/$defs/amount"},
                                               "galley": {"$ref": "#/$defs/amount"},
                                               "pay": {"$ref": "#/$defs/payment"}}}}},
                "unit": {"enum": ["admiral", "commander"]},
                "unit_counts": {"properties": {u: {"$ref": "#/$defs/amount"} for u in ("admiral", "commander")}},
                "city_order": {"properties": {"resource": {
                    "description": "The new city's resource (the founder chooses it, 001 L197).",
                    "$ref": "#/$defs/resource"}}},
                "standing": {"properties": standing},
            }
        if kind == "edit":
            return {
                "nation_edit": {"properties": {
                    "walls_supply": {"type": "integer", "minimum": 0, "maximum": WALLS_PER_NATION},
                    "recruitment": UNIT_OBJECT,
                    "vp": {"type": "integer", "minimum": 0},
                    "hand": {"description": "The cards in hand afterwards (\"?\" for each card of the other's "
                                            "hand in a player's copy of the history: never a card to give).",
                             **cards_list}}},
                "unit_counts": {"properties": {u: {"$ref": "#/$defs/amount"} for u in ("admiral", "commander")}},
                "province_edit": {"properties": {
                    "wall": {"description": "A town wall stands in this city.", "type": "boolean"},
                    "resource": {"description": "The city's resource where its founder chose it.",
                                 "oneOf": [{"$ref": "#/$defs/resource"}, {"type": "null"}]}}},
                "standing": {"properties": standing},
                "display_edit": {"type": "object", "additionalProperties": False, "required": ["display"],
                                 "properties": {"display": {
                                     "description": "The open display as the GM sets it: the cards named come "
                                                    "out of the deck or the discards, the others go to the discards.",
                                     "type": "array", "maxItems": DISPLAY,
                                     "items": {"type": "string", "pattern": "^[a-z0-9_]+$"}}}},
                "event_cards_edit": {"type": "object", "additionalProperties": False, "required": ["event_cards"],
                                     "properties": {"event_cards": {
                                         "description": "Printed cards of the game's deck the GM enters during the "
                                                        "game, and blank cards the GM writes (docs/duellum.md, "
                                                        "\"Entering a card\").",
                                         "type": "array", "minItems": 1,
                                         "items": {"type": "object", "required": ["id"]}},
                                         "blanks_to": {"description": "Where a blank card the GM writes now joins "
                                                                      "the game: the deck (at a place drawn by the "
                                                                      "game's secret, the default) or the discards.",
                                                       "enum": ["deck", "discards"]}}},
                "edit": {"oneOf": [{"required": ["display"]}, {"required": ["event_cards"]}],
                         "allOf": [{"if": {"required": ["display"]}, "then": {"$ref": "#/$defs/display_edit"}},
                                   {"if": {"required": ["event_cards"]},
                                    "then": {"$ref": "#/$defs/event_cards_edit"}}]},
            }
        return {}

    # -- hooks for reports (the words: .phrases) -----------------------------------------

    legend_marks = ("wall",)
    secrets_words = "event cards"

    def event_line(self, ev, words):
        return phrases.event_line(ev, words)

    def standing_words(self, change, words):
        return phrases.standing_words(change, words)

    def edit_line(self, edit, words):
        return phrases.edit_line(edit, words)

    def province_edit_words(self, edit, words):
        return phrases.province_edit_words(edit, words)

    def nation_edit_words(self, edit, words):
        return phrases.nation_edit_words(edit, words)

    def status_lines(self, state, words):
        data = state.table.data
        return phrases.status_lines(self.view_extra(state), len(state.extra.get("discards", [])),
                                    lambda c: self.card_name(c, data).upper(), lambda c: self.card_note(c, data))

    def nation_facts(self, state, nation, viewer, words):
        return phrases.nation_facts(self.view_nation(state, nation, viewer), words)

    # -- hooks for bots and self-play checks --

    def bot_strategy(self):
        """The bots play a box, walls, cards and automatic battles their own way
        (:mod:`pbem.editions.duellum.strategy`)."""
        from pbem.editions.duellum.strategy import STRATEGY

        return STRATEGY

    def selfplay_lineups(self):
        """The two nations of the Rome/Carthage side (maps/duellum-rome-carthage.json)."""
        return LINEUPS

    def conservation_problems(self, state, board) -> list[str]:
        """The box, the walls, the city tokens and the event cards
        (:mod:`pbem.editions.duellum.conservation`)."""
        from pbem.editions.duellum.conservation import problems

        return problems(self, state, board)


LINEUPS = MappingProxyType({2: ("carthaginians", "romans")})
"""The nations of a self-play game on the edition's default board."""

EDITION = Duellum()

__all__ = ["EDITION", "DATA_KEYS"]
