"""Antike Duellum's own conservation laws, which the self-play checks ask after every turn
(its pieces facet's :meth:`conservation_problems
<pbem.editions.duellum.holdings.DuellumPieces.conservation_problems>`): 12 legions and 12 galleys a nation
on the board, in its recruitment box and in its supply (001 L19-21, L93-95), the variant's
special unit once (001 L435); at most 6 town walls a nation built and in its supply (001
L39, L209-211); the city tokens of each type (001 L33-38); every event card of the deck
built at set-up in exactly one place: the deck, the display, the discards or a hand (001
L67-71, L415-431); nothing below zero.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pbem.editions.duellum.cards as cards
from pbem.editions.duellum.pieces import tokens_used, walls_of
from pbem.editions.duellum.rules import SPECIAL_UNITS, TOKENS, WALLS_PER_NATION
from pbem.kernel import queries
from pbem.kernel.vocab import UNITS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition
    from pbem.kernel.state import GameState


def problems(edition: Edition, st: GameState, board: Board) -> list[str]:
    """What breaks the laws above in ``st``, in words."""
    rules = edition.rules_for(st.table)
    out = []
    for n, ns in st.nations.items():
        box = ns.extra["recruitment"]
        for u in UNITS:
            placed, held = st.units_on_board(n, u), box.get(u, 0)
            supply = queries.stock(st, edition, n, u)
            if held < 0 or supply < 0 or placed + held + supply != rules.cap(u):
                out.append(f"{n} {u}s: {placed} on the board, {held} in the box, {supply} in the supply")
        special = SPECIAL_UNITS[n]
        count = box.get(special, 0) + sum(p.units.get(n, {}).get(special, 0) for p in st.provinces.values())
        if count != (1 if st.table.has("special_units") else 0):
            out.append(f"{n}: {count} {special}s")
        built, supply = len(walls_of(st, n)), ns.extra["walls_supply"]
        if supply < 0 or built + supply > WALLS_PER_NATION:
            out.append(f"{n}: {built} walls built and {supply} in the supply")
        if ns.extra["vp"] < 0 or ns.extra["vp"] > ns.personage_count():
            out.append(f"{n}: VP marker at {ns.extra['vp']} with {ns.personage_count()} personages")
        if any(v < 0 for v in ns.resources.values()) or ns.coins < 0:
            out.append(f"{n} hold {dict(ns.resources)} and {ns.coins} coins")
    for resource, tokens in TOKENS.items():
        used = tokens_used(st, board, resource)
        if used > tokens:
            out.append(f"{used} {resource} cities, {tokens} tokens")
    where = [*st.extra["deck"], *st.extra["display"], *st.extra["discards"],
             *(c for ns in st.nations.values() for c in ns.extra["hand"])]
    if Counter(where) != Counter(cards.deck_of(st.table)):
        out.append(f"event cards: {sorted(Counter(where).items())} in play, the deck was "
                   f"{sorted(Counter(cards.deck_of(st.table)).items())}")
    if st.bank.coins < 0 or st.bank.temples < 0 or any(v < 0 for v in st.bank.personages.values()):
        out.append(f"the bank below zero: {st.bank.to_json()}")
    return out
