"""Duellum's event cards: the catalogue, the deck, the open display, the hands.

001 L67-71, L111-113: 25 event cards and 2 blank ones; shuffled, three laid open as the
display. 001 L415-431: a card taken from the display is replaced at once; a nation takes
one card per personage its opponent wins and one in a turn in which it lost a city; cards
are played on one's own turn, in any combination, FORTRESS only in the opponent's turn;
played cards are discarded, and the discards are shuffled into a new deck when the deck
runs out.

The rulebook prints the text of FORTRESS only. The catalogue (``event-cards.json``, checked
by ``schemas/duellum-event-cards.schema.json``) holds the four cards whose text is known and
an entry for each of the others, which a GM who owns the game fills in from the printed
cards with ``new --data`` (``event_cards``). Until then the deck holds only the cards whose
effect is known (docs/duellum.md, "Event cards").

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

from pbem.kernel.vocab import RESOURCES

HIDDEN = "?"
"""A card a player's copy may not show (in the other's hand, in the deck)."""

CATALOGUE = Path(__file__).with_name("event-cards.json")

EFFECTS: dict[str, str] = {
    "fortress": "played by its holder when the opponent conquers one of its cities: the city holds if the "
                "attacker lacks one more unit, otherwise the attacker loses one unit more (001 L429)",
    "destroy_wall": "a town wall of the player's choice is destroyed and goes back to its owner's supply; "
                    "the order names the city: {\"play\": CARD, \"city\": P}",
    "halve_coins": "the opponent loses half of its coins to the bank, rounded down",
    "gold_per_knowhow": "played in a turn on SCIENTIA: 1 gold per know-how the opponent owns",
    "gain": "the player receives the chips and coins the card names (\"chips\", \"coins\")",
    "opponent_pays": "the opponent pays the bank the chips and coins the card names, as far as it holds them",
}
"""The effects a card may have, in words (what a GM may give a card it enters)."""

CARD_KEYS = ("id", "name", "name_de", "text", "source", "count", "effect")


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


def deck_cards(data_text: str) -> list[str]:
    """Every card of a new deck: each card with an effect, as often as its ``count``."""
    out: list[str] = []
    for cid, card in catalogue(data_text).items():
        if card.get("effect"):
            out.extend([cid] * card.get("count", 1))
    return out


def card_problems(entries: Any) -> list[str]:
    """What is wrong with a GM's ``event_cards`` list, in words."""
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
        seen.add(cid)
        for key in ("name", "name_de", "text", "source"):
            if key in e and not isinstance(e[key], (str, type(None))):
                out.append(f"{where}.{key}: a text")
        if "count" in e and not (isinstance(e["count"], int) and not isinstance(e["count"], bool)
                                 and 1 <= e["count"] <= 27):
            out.append(f"{where}.count: copies in the deck, 1 to 27")
        out += [f"{where}.effect: {p}" for p in effect_problems(e.get("effect"))]
    return out


def effect_problems(effect: Any) -> list[str]:
    """What is wrong with one card's ``effect`` (``null``: the card's effect is not known)."""
    if effect is None:
        return []
    if not isinstance(effect, dict) or effect.get("kind") not in EFFECTS:
        return [f"an object whose \"kind\" is one of {', '.join(EFFECTS)}"]
    allowed = {"kind"} | ({"chips", "coins"} if effect["kind"] in ("gain", "opponent_pays") else set())
    out = [f"{k!r} does not belong to a {effect['kind']} effect" for k in effect if k not in allowed]
    chips = effect.get("chips", {})
    if not isinstance(chips, dict) or any(k not in RESOURCES or not _amount(v) for k, v in chips.items()):
        out.append("chips: an object of marble, iron, gold -> a whole number from 0")
    if "coins" in effect and not _amount(effect["coins"]):
        out.append("coins: a whole number from 0")
    return out


def _amount(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99


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


def new_deck(data_text: str, secret: str, display: int) -> tuple[list[str], list[str]]:
    """The shuffled deck and the display of ``display`` cards drawn from it (001 L111-113)."""
    deck = shuffled(deck_cards(data_text), secret, 0)
    return deck[display:], deck[:display]


def describe(card: dict[str, Any] | None, cid: str) -> str:
    """A card's name as players read it."""
    if cid == HIDDEN:
        return "a hidden card"
    return (card or {}).get("name") or cid.replace("_", " ").title()


