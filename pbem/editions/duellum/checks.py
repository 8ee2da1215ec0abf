"""Antike Duellum's consistency checks (its pieces facet's :meth:`consistency_problems
<pbem.editions.duellum.holdings.DuellumPieces.consistency_problems>`), asked when a game file is read and
after every GM edit, each broken one named by its place in the game file: the recruitment
box within the 12 units a nation has (001 L19-21, L93-95), the variant's special unit once and
only in the variant (001 L435), at most 6 town walls (001 L39), walls only in cities, the
city tokens of each type (001 L33-38), cards of this game only, and from revision 3 of the
rules every event card of the deck in exactly one place (:func:`card_problems`; 001 L67-71,
L113, L415-431).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import pbem.editions.duellum.cards as cards
from pbem.editions.duellum.pieces import tokens_used, walls_of
from pbem.editions.duellum.rules import SPECIAL_UNITS, TOKENS, WALLS_PER_NATION
from pbem.errors import Problem

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition
    from pbem.kernel.state import GameState


def consistency_problems(edition: Edition, state: GameState, board: Board) -> list[Problem]:
    """Every broken invariant above, each with the JSON path of the field at fault."""
    out = []
    cap = edition.rules_for(state.table).cap
    catalogue = cards.catalogue(state.table.data)
    for n in state.table.seats:
        held = state.nations[n].extra
        at = f"$.state.nations.{n}"
        for unit, count in held["recruitment"].items():
            if unit in ("admiral", "commander"):
                if unit != SPECIAL_UNITS[n] or not state.table.has("special_units"):
                    out.append(Problem(f"{at}.recruitment.{unit}", f"the {n} have no {unit} in this game"))
                continue
            if count + state.units_on_board(n, unit) > cap(unit):
                out.append(Problem(f"{at}.recruitment.{unit}",
                                   f"{count} {unit}s in the box and {state.units_on_board(n, unit)} on the "
                                   f"board: more than the {cap(unit)} a nation has"))
        if state.table.has("special_units"):
            special = SPECIAL_UNITS[n]
            boxed, placed = held["recruitment"].get(special, 0), state.units_on_board(n, special)
            if boxed + placed != 1:
                out.append(Problem(f"{at}.recruitment.{special}",
                                   f"the {n}' {special} is in the box {boxed} time(s) and on the board "
                                   f"{placed} time(s): it is in exactly one of them, once"))
        built = len(walls_of(state, n))
        if built + held["walls_supply"] > WALLS_PER_NATION:
            out.append(Problem(f"{at}.walls_supply", f"{built} walls built and {held['walls_supply']} in the "
                                                     f"supply: more than the {WALLS_PER_NATION} a nation has"))
        for i, cid in enumerate(held["hand"]):
            if cid != cards.HIDDEN and cid not in catalogue:
                out.append(Problem(f"{at}.hand[{i}]", f"{cid!r} is not an event card of this game"))
    for part in ("deck", "display", "discards"):
        for i, cid in enumerate(state.extra[part]):
            if cid != cards.HIDDEN and cid not in catalogue:
                out.append(Problem(f"$.state.{part}[{i}]", f"{cid!r} is not an event card of this game"))
    for pid, prov in state.provinces.items():
        for n, held in prov.units.items():
            for unit in (u for u, count in held.items() if count and u in ("admiral", "commander")):
                if unit != SPECIAL_UNITS.get(n) or not state.table.has("special_units"):
                    why = "without the variant special_units" if unit == SPECIAL_UNITS.get(n) else \
                        f"(the {n}' special unit is the {SPECIAL_UNITS.get(n)}, 001 L435)"
                    out.append(Problem(f"$.state.provinces.{pid}.units.{n}.{unit}",
                                       f"a {unit} of the {n} in {pid}: there is none in a game {why}"
                                       if unit == SPECIAL_UNITS.get(n) else
                                       f"a {unit} of the {n} in {pid}: the {n} have no {unit} {why}"))
        if prov.extra.get("wall") and prov.owner is None:
            out.append(Problem(f"$.state.provinces.{pid}.wall", "a town wall stands only in a city"))
    for resource, tokens in TOKENS.items():
        used = tokens_used(state, board, resource)
        if used > tokens:
            out.append(Problem("$.state.provinces", f"{used} {resource} cities: the bank has {tokens} such tokens"))
    return out + card_problems(state)



def card_problems(state: GameState) -> list[Problem]:
    """From revision :data:`~.cards.OPEN_TABLE`: the deck, the display, the discards and the
    hands hold every card of the game's deck (:func:`~.cards.deck_of`) exactly once, so no
    edit can make a second copy or lose one. A player's copy hides some as ``"?"``: there
    the cards it shows are counted against the deck, and the hidden ones fill the rest."""
    if state.table.revision < cards.OPEN_TABLE:
        return []  # a game set up before may hold a card twice (a GM's hand edit made a copy)
    placed = Counter([*state.extra["deck"], *state.extra["display"], *state.extra["discards"],
                      *(c for n in state.table.seats for c in state.nations[n].extra["hand"])])
    hidden = placed.pop(cards.HIDDEN, 0)
    wanted = Counter(cards.deck_of(state.table))
    out = [Problem("$.state", f"event card {cid!r} is in the game {n} times; the deck holds it "
                              f"{wanted[cid]} time{'' if wanted[cid] == 1 else 's'}: every card is in one place, once")
           for cid, n in sorted(placed.items()) if n > wanted[cid]]
    total = sum(wanted.values())
    if not out and sum(placed.values()) + hidden != total:
        missing = sorted((wanted - placed).elements())
        out.append(Problem("$.state", f"the deck, the display, the discards and the hands hold "
                                      f"{sum(placed.values()) + hidden} event cards, the game's deck {total}"
                                      + (f" (not found: {', '.join(missing)})" if missing and not hidden else "")
                                      + ": every card is in one place, once"))
    return out
