"""Antike Duellum's GM edits of its event cards and town walls (its edits facet,
:class:`DuellumEdits`; docs/duellum.md, "Event cards"; docs/orders.md, "GM edit file").

- ``{"display": [CARD, ...]}``: the open display as the GM sets it;
- ``{"event_cards": [ENTRY, ...]}``: printed cards the GM enters during the game, and the
  blank cards the GM writes, which then join the deck (revision 3 of the rules,
  :data:`~pbem.editions.duellum.cards.OPEN_TABLE`; ``"blanks_to"``: the deck or the discards);
- a nation's ``hand``: from revision 3 the cards given come out of the deck, the display or
  the discards and the cards taken away go to the discards, so that the deck is conserved
  (every card in exactly one place, which the consistency check of every edit asks too:
  :func:`pbem.editions.duellum.conservation.card_problems`); in a game set up before, the
  hand is set as given, as it always was;
- a province's ``wall``.

Each refusal is a rejection of its own code (docs/rejections.md); the kernel applies the
edits (:mod:`pbem.kernel.edit`), all or none.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.deck as deck
import pbem.editions.duellum.effects as effects
from pbem.editions.duellum.pieces import set_wall
from pbem.kernel.facets import SharedEdits
from pbem.kernel.rejections import reject

if TYPE_CHECKING:
    from pbem.kernel.rejections import Rejection
    from pbem.kernel.state import GameState


def display_edit(edition: Any, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> None:
    """The open display as the GM sets it (a position to set up, a mistake to correct): each
    card named comes out of the deck, the display or the discards (never out of a hand), and
    the display's cards not named go to the discards, face up, so that no player learns
    anything of the deck's order."""
    display, pile, discards = (list(state.extra[k]) for k in ("display", "deck", "discards"))
    for i, cid in enumerate(edit["display"]):
        for held in (display, pile, discards):
            if cid in held:
                held.remove(cid)
                break
        else:
            out.append(reject("edit/card-unavailable", f"{path}.display[{i}]", codes=edition.codes,
                              card=edition.cards.name(cid, state.table.data)))
            return
    state.extra.update(display=list(edit["display"]), deck=pile, discards=discards + display)


def enter_cards(edition: Any, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> None:
    """The GM enters printed cards of this game's deck during the game, as ``new --data``
    takes them (docs/duellum.md, "Entering a card"): each entry sets the fields it names of
    the card with its id, kept in the game's ``rules.data`` and logged with the edit. The
    deck itself was fixed at set-up: no new card, no ``count``; a game set up before the
    printed deck (revision 1) enters none. From revision 3 a blank card the GM writes (gives
    an effect) joins the game, into the deck by the game's secret or onto the discards
    (``"blanks_to"``), and cannot be taken out again."""
    entries = edit["event_cards"]
    table = state.table
    problems = cards.card_problems(entries, edition.rondel.names)
    if table.revision < cards.PRINTED_DECK:
        problems.insert(0, "this game was set up before the printed deck (revision 1 of the rules): its deck "
                           "holds only the cards whose effect was known then, so it takes no card entered now")
    if "blanks_to" in edit and table.revision < cards.OPEN_TABLE:
        problems.append("blanks_to: the blank cards of this game have been in its deck since it was set up "
                        "(revision 2 of the rules)")
    known = cards.catalogue(table.data)
    ids = set(known) if table.revision >= cards.OPEN_TABLE else set(cards.deck_of(table))
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if not isinstance(entry, dict):
            continue
        if "count" in entry:
            problems.append(f"[{i}].count: the deck of a game is fixed when it is set up (\"count\" is for "
                            "new --data)")
        cid = entry.get("id")
        if isinstance(cid, str) and cid not in ids:
            problems.append(f"[{i}].id: {cid!r} is no card of this game's deck (its cards: {', '.join(sorted(ids))})")
        elif table.revision >= cards.OPEN_TABLE and cid in cards.BLANKS and cards.entered(known.get(cid)) \
                and "effect" in entry and not entry["effect"]:
            problems.append(f"[{i}].effect: {cid} joined the deck when it was written: it may be written anew, "
                            "not taken out of the game")
    if problems:
        out.extend(reject("edit/card-entry", path, codes=edition.codes, problem=p) for p in problems)
        return
    data = json.loads(table.data) if table.data else {}
    given = {e["id"]: e for e in data.get("event_cards", [])}
    for entry in entries:
        given[entry["id"]] = {**given.get(entry["id"], {}), **entry}
    data["event_cards"] = list(given.values())
    state.table = replace(table, data=json.dumps(data, sort_keys=True, separators=(",", ":")))
    if table.revision >= cards.OPEN_TABLE:
        before = Counter(cards.deck_of(table))
        for cid, copies in (Counter(cards.deck_of(state.table)) - before).items():
            for _ in range(copies):
                deck.place_written(state, cid, edit.get("blanks_to", "deck"), [])


def edit_hand(edition: Any, state: GameState, nation: str, hand: list[str], path: str,
              out: list[Rejection]) -> None:
    """A GM's ``hand`` edit in a game of revision 3: the cards the hand gains are taken out
    of the open display (refilled at once, as after a pick), the deck or the discards, the
    cards it loses go to the discards; a card another hand holds (``edit/card-held``) or
    that is no card of this game's deck (``edit/card-unknown``) is refused."""
    old = list(state.nations[nation].extra["hand"])
    gained = Counter(hand) - Counter(old)
    lost = Counter(old) - Counter(hand)
    state.nation(nation).extra["hand"] = list(hand)
    events: list[dict[str, Any]] = []
    for cid in lost.elements():
        deck.discard(state, cid, events)
    in_deck = Counter(cards.deck_of(state.table))
    for cid in gained.elements():
        if deck.take(state, cid, events):
            continue
        at = f"{path}.hand[{max(i for i, c in enumerate(hand) if c == cid)}]"
        if cid not in in_deck:
            out.append(reject("edit/card-unknown", at, codes=edition.codes, card=cid))
        else:
            holder = next((n for n in state.table.seats if n != nation and cid in state.nations[n].extra["hand"]),
                          nation)
            out.append(reject("edit/card-held", at, codes=edition.codes, card=edition.cards.name(cid, state.table.data),
                              holder=edition.nation_name(holder)))


def edit_province(state: GameState, pid: str, edit: dict[str, Any], path: str, out: list[Rejection]) -> None:
    """A town wall built or taken away by the GM (a city only)."""
    if "wall" not in edit:
        return
    prov = state.provinces.get(pid)
    if edit["wall"] and (prov is None or prov.owner is None):
        out.append(reject("edit/temple-without-city", f"{path}.wall", province=pid))
        return
    set_wall(state, pid, edit["wall"])


def moments(table: Any, entries: list[Any]) -> list[str]:
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


class DuellumEdits(SharedEdits):
    """Antike Duellum's GM edits (its edits facet): the open display and cards entered,
    a hand that conserves the deck, a town wall; and the moments of a card entered
    without them."""

    def other(self, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> bool:
        """``{"display": [CARD, ...]}`` and ``{"event_cards": [ENTRY, ...]}``."""
        if "event_cards" in edit:
            enter_cards(self.edition, state, edit, f"{path}.event_cards", out)
        elif "display" in edit:
            display_edit(self.edition, state, edit, path, out)
        else:
            return False
        return True

    def nation(self, state: GameState, nation: str, edit: dict[str, Any], path: str,
               out: list[Rejection]) -> frozenset[str]:
        """From revision 3 a ``hand`` edit conserves the deck (:func:`edit_hand`); in every
        revision a ``"?"`` (a player copy's mask of the other's card) is never a card to give."""
        if "hand" not in edit:
            return frozenset()
        if state.table.revision < cards.OPEN_TABLE:
            hidden = [i for i, c in enumerate(edit["hand"]) if c == cards.HIDDEN]
            for i in hidden:  # a copy's mask, never a card (revision 3 refuses it as no card of the deck)
                out.append(reject("edit/card-unknown", f"{path}.hand[{i}]", codes=self.edition.codes,
                                  card=cards.HIDDEN))
            return frozenset({"hand"}) if hidden else frozenset()
        edit_hand(self.edition, state, nation, edit["hand"], path, out)
        return frozenset({"hand"})

    def province(self, state: GameState, pid: str, edit: dict[str, Any], path: str, out: list[Rejection]) -> None:
        edit_province(state, pid, edit, path, out)

    def notes(self, table: Any, edits: list[dict[str, Any]]) -> list[str]:
        """The moments of a card a GM entered without ``when`` (:func:`moments`)."""
        return moments(table, [c for e in edits for c in e.get("event_cards", [])])
