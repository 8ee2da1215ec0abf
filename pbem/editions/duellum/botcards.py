"""The Duellum bots and the event cards (:mod:`.strategy`): which cards of a game can be
played and what they do for the bot, the cards played in a turn (001 L427) with what each
leaves open, and the standing orders for the rival's turn (FORTRESS, the cards to draw first,
D9)."""

from __future__ import annotations

import random
from typing import Any

from pbem.editions.duellum.botsense import box_of, rival_of, threatened
from pbem.kernel import queries
from pbem.kernel.vocab import UNITS


def playable_cards(game, st) -> dict[str, dict[str, Any]]:
    """Card id -> the card as data (its moments, wedge and steps: the edition's
    :meth:`Cards.play <pbem.kernel.protocols.Cards.play>`), for every card of this game
    that can be played; memoised per game and deck."""
    key = (st.table, tuple(sorted(game.edition.cards.catalogue(st.table.data))))
    if _CARDS.get("key") != key:
        _CARDS.clear()
        _CARDS["key"] = key
        _CARDS["cards"] = {cid: card for cid in game.edition.cards.catalogue(st.table.data)
                           if (card := game.edition.cards.play(cid, st.table)) is not None}
    return _CARDS["cards"]


_CARDS: dict[str, Any] = {}


def defends(card: dict[str, Any]) -> int:
    """How much a card raises the defence of a city the opponent conquers (FORTRESS: 1);
    0 for a card not played then."""
    if card["when"] != ["opponent_conquest"]:
        return 0
    return sum(s["change"] for s in card["steps"] if s["kind"] == "defence")


def fortress_risk(game, st, nation: str) -> bool:
    """Whether the rival may hold FORTRESS: it holds cards, and not every FORTRESS of the
    game is in sight (the display, the discards, the bot's own hand)."""
    other = rival_of(st, nation)
    if not st.nations[other].extra.get("hand"):
        return False
    shields = {cid for cid, card in playable_cards(game, st).items() if defends(card) > 0}
    catalogue = game.edition.cards.catalogue(st.table.data)
    total = sum(catalogue[cid].get("count", 1) for cid in shields)
    seen = [*st.extra.get("display", []), *st.extra.get("discards", []), *st.nations[nation].extra.get("hand", [])]
    return sum(1 for cid in seen if cid in shields) < total


def play_cards(b, rng: random.Random, eager: float, greedy: bool, keys) -> None:
    """Play the event cards held when they help (001 L427), each at the first moment of the
    turn its card allows (before the rondel move where it may: its chips then pay for the
    action): a card that gives chips or cards, one that makes the rival pay what he holds,
    destroys a rival's wall (on the maneuver wedge the one of a city the bot's units can
    nearly take), removes rival units, arms units, or lowers the defence of a city the bot
    means to conquer. A card played during the rival's conquest (FORTRESS) is played by the
    standing order; a card that would cost the bot, move a stone or discard its own cards
    is kept."""
    game, nation = b.game, b.nation
    st = game.state
    known = playable_cards(game, st)
    wedge = game.edition.rondel[b.result.state.nations[nation].rondel].name
    targeted: set[str] = set()
    for cid in st.nations[nation].extra.get("hand", []):
        card = known.get(cid)
        if card is None or "opponent_conquest" in card["when"] or card.get("wedge") not in (None, wedge):
            continue
        entry = _card_entry(b, cid, card, rng, greedy, keys, targeted)
        if entry is not None and (greedy or rng.random() < eager) and b.try_add("events", entry):
            targeted |= {entry[k] for k in ("city", "at") if k in entry}


def _card_entry(b, cid: str, card: dict[str, Any], rng: random.Random, greedy: bool, keys,
                targeted: set[str]) -> dict[str, Any] | None:
    """The ``events`` entry that plays ``cid`` with what its card leaves open chosen, or
    ``None`` when the bot keeps the card: each step of the card in turn
    (:meth:`_CardChoice.step`), then the first moment of the turn the card allows."""
    choice = _CardChoice(b, rng, greedy, keys, targeted)
    entry: dict[str, Any] = {"play": cid}
    useful: bool | None = False
    for step in card["steps"]:
        useful = choice.step(step, entry, useful)
        if useful is None:
            return None
    if not useful:
        return None
    moments = [m for m in ("before", "after_move", "after") if m in card["when"]]
    if moments and moments[0] != "before":
        entry["when"] = moments[0]
    return entry


class _CardChoice:
    """What the bot chooses for the steps of one card it may play: one method per kind of
    step, each given the entry so far and whether the card is useful so far, returning
    whether it is useful with this step, or ``None`` when the bot keeps the card (a step
    that would cost the bot, or one with nothing to act on)."""

    def __init__(self, b, rng: random.Random, greedy: bool, keys, targeted: set[str]) -> None:
        self.game, self.nation = b.game, b.nation
        self.st = self.game.state
        self.other = rival_of(self.st, self.nation)
        self.theirs = self.st.nations[self.other]
        self.rng, self.greedy, self.keys, self.targeted = rng, greedy, keys, targeted

    def step(self, step: dict[str, Any], entry: dict[str, Any], useful: bool) -> bool | None:
        kind = step["kind"]
        if kind in ("gain", "draw"):
            return useful or _times(self.game, self.st, self.nation, step) > 0
        if kind == "pay":
            return self.pay(step, useful)
        if kind == "discard":
            return None if step.get("who") == "self" else useful or bool(self.theirs.extra.get("hand"))
        if kind == "remove" and step.get("piece") == "wall":
            return self.remove_wall(step, entry)
        if kind == "remove":
            return self.remove_pieces(step, entry)
        if kind == "arm":
            return self.arm(step, entry)
        if kind == "defence":
            return self.lower_defence(step, entry)
        return None  # a stone moved, free steps: the bot's rondel move is chosen already

    def pay(self, step: dict[str, Any], useful: bool) -> bool | None:
        """The rival pays: useful when he holds some of what he pays."""
        if step.get("who") == "self":
            return None
        theirs = self.theirs
        has = (step.get("coins") and theirs.coins) or \
            any(theirs.resources[r] for r, n in step.get("chips", {}).items() if n)
        return useful or bool(has and _times(self.game, self.st, self.nation, step) > 0)

    def remove_wall(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """A rival's wall destroyed: the greedy bot's on the maneuver wedge is one of a city
        its units can nearly take, a temple city first."""
        st, game = self.st, self.game
        walls = [c for c in st.cities(self.other) if st.provinces[c].extra.get("wall") and c not in self.targeted]
        if self.greedy:
            near = queries.in_reach(st, game.edition, game.board, self.nation) if "maneuver" in self.keys else {}
            walls = [c for c in walls if near.get(c, 0) >= queries.defence(st, game.edition, c) - 1
                     and queries.can_be_conquered(st, c)]
            walls.sort(key=lambda c: (not st.provinces[c].temple, c))
        if not walls or step.get("whose") == "self":
            return None
        entry["city"] = walls[0] if self.greedy else self.rng.choice(walls)
        return True

    def remove_pieces(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """Rival units removed: where he has most of them."""
        if step.get("whose") == "self":
            return None
        st, other = self.st, self.other
        types = UNITS if step["piece"] == "unit" else (step["piece"],)
        spots = sorted(((st.provinces[p].count(other, u), p, u) for p in st.provinces for u in types
                        if st.provinces[p].count(other, u) and p not in self.targeted), reverse=True)
        if not spots:
            return None
        _, entry["at"], unit = spots[0]
        if step["piece"] == "unit":
            entry["unit"] = unit
        return True

    def arm(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """Units armed, from the box or the supply, at a city that can take them."""
        st, game, nation = self.st, self.game, self.nation
        source = box_of(st, nation) if step.get("from", "box") == "box" else \
            {u: queries.stock(st, game.edition, nation, u) for u in UNITS}
        types = UNITS if step.get("unit", "any") == "any" else (step["unit"],)
        spots = [(c, u) for c in st.cities(nation) for u in types
                 if game.board.can_arm(c, u) and source.get(u, 0) >= step.get("count", 1)]
        if not spots:
            return None
        entry["at"], unit = spots[0] if self.greedy else self.rng.choice(spots)
        if step.get("unit", "any") == "any":
            entry["unit"] = unit
        return True

    def lower_defence(self, step: dict[str, Any], entry: dict[str, Any]) -> bool | None:
        """The defence of a rival city lowered, on the maneuver wedge only: a city the
        bot's units can reach, a temple city first."""
        if "maneuver" not in self.keys or step["change"] >= 0:
            return None
        st, game = self.st, self.game
        near = queries.in_reach(st, game.edition, game.board, self.nation)
        cities = sorted((c for c in st.cities(self.other) if near.get(c) and queries.can_be_conquered(st, c)
                         and c not in self.targeted), key=lambda c: (not st.provinces[c].temple, c))
        if not cities:
            return None
        entry["city"] = cities[0]
        return True


def _times(game, st, nation: str, step: dict[str, Any]) -> int:
    """How often a step's amounts count now (its ``per``: know-hows, cities, ... of a nation)."""
    per = step.get("per")
    if not per:
        return 1
    who = rival_of(st, nation) if per.get("of") == "opponent" else nation
    ns = st.nations[who]
    count = {"knowhows": len(ns.knowhow), "cities": len(st.cities(who)), "temples": len(st.temples(who)),
             "walls": sum(1 for c in st.cities(who) if st.provinces[c].extra.get("wall")), "coins": ns.coins,
             "personages": ns.personage_count(), "cards": len(ns.extra.get("hand", []))}[per["count"]]
    return count // per.get("divided_by", 1)


def standing_orders(b) -> None:
    """Standing orders for the other's turn: FORTRESS ``always`` (the city holds or the
    attacker loses a unit more, 001 L429), and the cards to take first from the display
    (D9), ranked by what each would do now: a card for the rival's conquest while the rival
    can reach a city, one destroying walls while the rival has walls, one taking coins by
    the rival's coins, one giving gold by its know-hows, one giving chips."""
    game, nation = b.game, b.nation
    st = game.state
    other = rival_of(st, nation)
    theirs = st.nations[other]
    danger = bool(threatened(game, st, nation))
    walls = any(st.provinces[c].extra.get("wall") for c in st.cities(other))

    def worth(card: dict[str, Any]) -> int:
        # a few steps only, so that the order changes when the situation does, not every turn
        if defends(card):
            return 6 if danger else 3
        best = 0
        for step in card["steps"]:
            per = (step.get("per") or {}).get("count")
            if step["kind"] == "remove" and step.get("piece") == "wall":
                best = max(best, 5 if walls else 1)
            elif step["kind"] == "pay" and per == "coins":
                best = max(best, 4 if theirs.coins >= 4 else 1)
            elif step["kind"] == "gain" and per == "knowhows":
                best = max(best, 4 if len(theirs.knowhow) >= 2 else 2)
            elif step["kind"] == "gain":
                best = max(best, 4)
            else:
                best = max(best, 2)
        return best

    known = playable_cards(game, st)
    ranked = sorted(known, key=lambda c: (-worth(known[c]), c))
    change = {}
    if st.standing[nation].extra.get("fortress") != "always":
        change["fortress"] = "always"
    if list(st.standing[nation].extra.get("draw", [])) != ranked:
        change["draw"] = ranked
    if change:
        b.try_orders({**b.orders, "standing": change})
