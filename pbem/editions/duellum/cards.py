"""Duellum's event cards: the catalogue, the deck, the open display, the hands; its cards
facet (:class:`DuellumCards`).

001 L67-71, L111-113: 25 event cards and 2 blank ones; shuffled, three laid open as the
display. 001 L415-431: a card taken from the display is replaced at once; a nation takes
one card per personage its opponent wins and one in a turn in which it lost a city; cards
are played on one's own turn, in any combination, FORTRESS only in the opponent's turn;
played cards are discarded, and the discards are shuffled into a new deck when the deck
runs out.

The rulebook prints the text of FORTRESS only. The catalogue (``event-cards.json``, checked
by ``schemas/duellum-event-cards.schema.json``) holds the four cards whose text is known and
an entry for each of the others, which a GM who owns the game fills in from the printed
cards with ``new --data`` (``event_cards``). A game of revision 2 of the edition's rules
(:attr:`Table.revision <pbem.kernel.state.Table.revision>`) shuffled the deck as printed:
the 25 cards and the 2 blank ones, those whose text nobody entered labelled
(:data:`NOT_ENTERED`) and refused when played. From revision 3 (:data:`OPEN_TABLE`) the
deck holds the 25 cards (001 L113: "The 25 event cards are shuffled"), and a blank card
joins it only once a GM has written it (:func:`deck_cards`). A game set up before keeps the
deck it was set up with (revision 1: only the cards whose effect was known; docs/duellum.md,
"Event cards").

The deck's order and the hands are secret. The deck is shuffled from ``secret``, which only
the GM's game file holds; a player's copy holds ``"?"`` for every card it may not see, and
so can play a turn through (``check``) without knowing them.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pbem.editions.duellum.effects as effects
from pbem.kernel.facets import Facet
from pbem.kernel.vocab import MOMENTS

HIDDEN = "?"
"""A card a player's copy may not show (in the other's hand, in the deck)."""

NOT_ENTERED = "text not entered — the GM enters it from the printed card"
"""How every view labels a card of the printed deck whose text is not in the rulebook and
that no GM has entered yet (such a card cannot be played)."""

PRINTED_DECK = 2
"""The first revision of the edition's rules whose games shuffle the deck as printed (25
cards and 2 blank ones), keep the display at three cards and shuffle the discards into a
new deck whenever the draw deck runs out."""

OPEN_TABLE = 3
"""The first revision of the edition's rules whose games play the deck as it is at the
table: the 25 event cards, a blank one only once a GM has written it; a GM's ``hand`` edit
that conserves the deck; the card a nation takes from the open display named in the public
report (unless the variant :data:`HIDDEN_DRAWS`); the default draw a card that can be
played; a card of a wedge without ``when`` played after the move to it."""

HIDDEN_DRAWS = "hidden_draws"
"""The variant of a game of revision :data:`OPEN_TABLE` whose draws are named only to their
drawer, as in every game set up before."""

BLANKS = ("blank_1", "blank_2")
"""The two blank cards of the box, "may be filled with text as desired" (001 L71)."""

CATALOGUE = Path(__file__).with_name("event-cards.json")

CARD_KEYS = ("id", "name", "name_de", "text", "source", "count", "when", "wedge", "effect")
"""What a card entry may say (``schemas/duellum-event-cards.schema.json``, ``$defs.card``)."""

LEGACY_EFFECTS: dict[str, dict[str, str]] = {
    "fortress": {"kind": "fortress"}, "earthquake": {"kind": "destroy_wall"},
    "burglary": {"kind": "halve_coins"}, "academy": {"kind": "gold_per_knowhow"},
}
"""The four known cards as games of revision 1 play them (the first kit's effects)."""


@lru_cache(maxsize=1)
def printed() -> tuple[dict[str, Any], ...]:
    """The shipped catalogue's cards, in its order."""
    return tuple(json.loads(CATALOGUE.read_text(encoding="utf-8"))["cards"])


@lru_cache(maxsize=64)
def catalogue(data_text: str) -> dict[str, dict[str, Any]]:
    """Card id -> card, the shipped catalogue with the GM's entries (``new --data``,
    ``event_cards``; an entry replaces the card with its id or adds one)."""
    cards = {c["id"]: c for c in printed()}
    data = json.loads(data_text) if data_text else {}
    for entry in data.get("event_cards", []):
        cards[entry["id"]] = {**cards.get(entry["id"], {}), **entry}
    return cards


def in_deck(cid: str, card: dict[str, Any], revision: int) -> bool:
    """Whether card ``cid`` is one of the deck of a game of ``revision``: from revision
    :data:`OPEN_TABLE` every card but a blank one nobody has written (001 L113); at revision
    :data:`PRINTED_DECK` every card of the catalogue, as printed (001 L67-71); before, only
    the cards with an effect."""
    if revision >= OPEN_TABLE:
        return cid not in BLANKS or entered(card)
    return revision >= PRINTED_DECK or bool(card.get("effect"))


def deck_cards(data_text: str, revision: int = 1) -> list[str]:
    """Every card of the deck of a game whose ``rules.data`` is ``data_text`` (with the
    blank cards its GM wrote, in a game of revision :data:`OPEN_TABLE`), in catalogue order,
    each as often as its ``count``."""
    return [cid for cid, card in catalogue(data_text).items() if in_deck(cid, card, revision)
            for _ in range(card.get("count", 1))]


def deck_of(table) -> list[str]:
    """The cards of the deck ``table``'s game was set up with (its data and revision)."""
    return deck_cards(table.data, table.revision)


def entered(card: dict[str, Any] | None) -> bool:
    """Whether the card's effect is known to the referee (from the rulebook, from players'
    reports of the printed card, or entered by the GM)."""
    return bool((card or {}).get("effect"))


def legacy_effect(cid: str, data_text: str) -> dict[str, Any] | None:
    """The effect a game set up before revision :data:`PRINTED_DECK` plays card ``cid``
    with: the GM's entry (an effect of the first kit), else the four known cards' own."""
    data = json.loads(data_text) if data_text else {}
    for entry in data.get("event_cards", []):
        if entry.get("id") == cid and "effect" in entry:
            return entry["effect"] if isinstance(entry["effect"], dict) else None
    return LEGACY_EFFECTS.get(cid)


def card_problems(entries: Any, wedges: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with a GM's ``event_cards`` list, in words (the same checks as
    ``schemas/duellum-event-cards.schema.json``, and what a schema cannot say: each id once,
    a step that fits the moments of its card)."""
    if not isinstance(entries, list):
        return ["a list of card entries"]
    out = []
    seen = set()
    for i, e in enumerate(entries):
        where = f"[{i}]"
        if not isinstance(e, dict):
            out.append(f"{where}: a card entry is an object")
            continue
        out += [f"{where}: unknown key {k!r} (one of {', '.join(CARD_KEYS)})" for k in e if k not in CARD_KEYS]
        cid = e.get("id")
        if not (isinstance(cid, str) and cid.replace("_", "").isalnum() and cid.islower() and cid != HIDDEN):
            out.append(f"{where}.id: a lowercase id of letters, digits and _")
        elif cid in seen:
            out.append(f"{where}.id: {cid!r} is entered twice")
        else:
            seen.add(cid)
        for key in ("name", "name_de", "text", "source"):
            if key in e and not isinstance(e[key], (str, type(None))):
                out.append(f"{where}.{key}: a text")
        if "count" in e and not (isinstance(e["count"], int) and not isinstance(e["count"], bool)
                                 and 0 <= e["count"] <= 27):
            out.append(f"{where}.count: copies in the deck, 0 (none) to 27")
        out += [f"{where}.{p}" for p in effects.card_problems(e, wedges)]
    return out


def shuffled(cards: list[str], secret: str, round_no: int) -> list[str]:
    """``cards`` shuffled by the game's secret (a Fisher-Yates shuffle drawn from SHA-256,
    the same on every machine and Python version). Without the secret (a player's copy),
    every card is hidden."""
    if secret == HIDDEN:
        return [HIDDEN] * len(cards)
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        digest = hashlib.sha256(f"{secret}:shuffle {round_no}:{i}".encode()).digest()
        j = int.from_bytes(digest[:8], "big") % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def insert_at(secret: str, cid: str, shuffles: int, size: int) -> int:
    """Where in a draw deck of ``size`` cards a blank card the GM has just written goes
    (0: on top), drawn from the game's secret, so that nobody learns where from a copy."""
    digest = hashlib.sha256(f"{secret}:written {cid}:{shuffles}:{size}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (size + 1)


def new_deck(data_text: str, secret: str, display: int, revision: int = 1) -> tuple[list[str], list[str]]:
    """The shuffled deck and the display of ``display`` cards drawn from it (001 L111-113)."""
    deck = shuffled(deck_cards(data_text, revision), secret, 0)
    return deck[display:], deck[:display]


def name_of(card: dict[str, Any] | None, cid: str) -> str:
    """A card's name alone: the printed (or entered) name, else its id as words."""
    if cid == HIDDEN:
        return "a hidden card"
    return (card or {}).get("name") or cid.replace("_", " ").title()


def describe(card: dict[str, Any] | None, cid: str) -> str:
    """A card's name as players read it, with :data:`NOT_ENTERED` for a card whose text
    is not entered (``Card 05 (text not entered — ...)``)."""
    if cid == HIDDEN or entered(card):
        return name_of(card, cid)
    return f"{name_of(card, cid)} ({NOT_ENTERED})"




def deck_words(data_text: str, revision: int) -> str:
    """What ``new`` says of the deck it made, counted from that deck: how many cards, which
    ones, how many of them have no text yet."""
    deck = deck_cards(data_text, revision)
    known = catalogue(data_text)
    entered_ids = sorted({c for c in deck if entered(known.get(c))})
    if revision < PRINTED_DECK:
        return (f"the event deck: {len(deck)} card(s) whose effect is known ({', '.join(entered_ids)}), "
                "each once unless entered otherwise")
    how = "and cannot be played until the GM enters them (new --data, or gm-edit during the game)"
    if revision < OPEN_TABLE:
        missing = len({c for c in deck if not entered(known.get(c))})
        return (f"the event deck: {len(deck)} cards as printed (25 and 2 blank ones); the text of "
                f"{len(entered_ids)} is known ({', '.join(entered_ids)}), each once unless entered otherwise"
                + (f"; {missing} are labelled \"{NOT_ENTERED}\" {how}" if missing else ""))
    missing = sum(1 for c in deck if not entered(known.get(c)))
    printed_ids = [c["id"] for c in printed() if c["id"] not in BLANKS]
    blanks = [c for c in deck if c in BLANKS]
    added = [c for c in deck if c not in printed_ids and c not in BLANKS]
    copies = {c: deck.count(c) for c in printed_ids}
    changed = [f"{c} {'left out' if n == 0 else f'{n} times'}" for c, n in copies.items() if n != 1]
    parts = [f"the {len(printed_ids)} printed event cards" + (f" ({', '.join(changed)})" if changed else "")]
    if blanks:
        parts.append(f"{_count(len(blanks), 'blank card')} the GM wrote ({', '.join(blanks)})")
    if added:
        parts.append(f"{_count(len(added), 'card')} the GM added ({', '.join(sorted(set(added)))})")
    unwritten = [b for b in BLANKS if b not in blanks]
    later = {2: "; the 2 blank cards join the deck once the GM writes them",
             1: "; the other blank card joins the deck once the GM writes it"}.get(len(unwritten), "")
    return (f"the event deck: {len(deck)} cards, " + " and ".join(parts) + " (001 L67-71, L113); the text of "
            f"{len(deck) - missing} is known ({', '.join(entered_ids)}), each card once unless entered otherwise"
            + (f"; {missing} of them have no text yet: they are labelled \"{NOT_ENTERED}\" {how}" if missing else "")
            + later)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


class DuellumCards(Facet):
    """Antike Duellum's event cards (its cards facet): a game's catalogue, each card's
    name, text, fields and play, and a nation's hand."""

    def catalogue(self, data: str) -> dict[str, dict[str, Any]]:
        return catalogue(data)

    def name(self, cid: str, data: str) -> str:
        return name_of(catalogue(data).get(cid), cid)

    def text(self, cid: str, data: str, revision: int | None = None) -> str:
        """What card ``cid`` does and when it is played, in words (:func:`.effects.words`);
        for a card whose text is not entered, :data:`NOT_ENTERED`. In a game set up
        before the printed deck, a card of the first kit is played at any moment."""
        card = catalogue(data).get(cid)
        if cid == HIDDEN or card is None:
            return ""
        if revision is not None and revision < PRINTED_DECK:
            legacy = legacy_effect(cid, data)
            if not legacy:
                return ""
            said = effects.normalised({"effect": legacy})
            if said["when"] != [effects.DURING_CONQUEST]:
                said["when"] = list(MOMENTS)
            return effects.words({"when": said["when"], "wedge": said["wedge"], "effect": said["steps"]})
        after = revision is None or revision >= OPEN_TABLE
        return effects.words(card, after) if entered(card) else NOT_ENTERED

    def note(self, cid: str, data: str) -> str:
        if cid == HIDDEN or entered(catalogue(data).get(cid)):
            return ""
        return NOT_ENTERED

    def fields(self, cid: str, data: str) -> tuple[str, ...]:
        """The fields an ``events`` entry playing ``cid`` names (``city``, ``at``, ...)."""
        card = catalogue(data).get(cid)
        if not card:
            return ()
        card = effects.normalised(card)
        return tuple(effects.needs(card["steps"], card["when"]))

    def play(self, cid: str, table: Any) -> dict[str, Any] | None:
        """A card as :mod:`.effects` reads it; in a game set up before the printed deck, the
        first kit's effect said in the vocabulary, at any moment of the turn (as it is
        played there)."""
        if table.revision < PRINTED_DECK:
            legacy = legacy_effect(cid, table.data)
            if not legacy:
                return None
            card = effects.normalised({"effect": legacy})
            return {**card, "when": card["when"] if card["when"] == [effects.DURING_CONQUEST] else list(MOMENTS)}
        card = catalogue(table.data).get(cid)
        if not entered(card):
            return None
        return effects.normalised(card, table.revision >= OPEN_TABLE)

    def spellings(self, cid: str, data: str) -> tuple[str, ...]:
        """The German name where the catalogue has one, then the English one (or the id)."""
        card = catalogue(data).get(cid)
        if card is None:
            return ()
        return (*([card["name_de"]] if card.get("name_de") else []), card.get("name") or cid)

    def hand(self, state: Any, nation: str) -> tuple[str, ...]:
        return tuple(state.nations[nation].extra["hand"])
