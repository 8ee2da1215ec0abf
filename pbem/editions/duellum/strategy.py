"""How the bots play an edition with a recruitment box, town walls, event cards and
automatic battles (Antike Duellum): its strategy facet (:class:`DuellumStrategy`), which the
shared bot (:mod:`pbem.play.bot`) asks for, imported only when a bot plays.

The bot recruits into the box and arms from it, builds town walls (:mod:`.botwedges`), plays
the event cards it holds and sets its standing orders for FORTRESS and the cards it draws
(:mod:`.botcards`), chooses the resource of a new city with the coin surcharge in mind, and
on the maneuver wedge plans a campaign (:mod:`.campaign`: conquests, settlers to free city
sites, galleys spread over the seas, the rest marching on the rival) in which every move
comes before every conquest and no path crosses hostile units of its type (battles there are
automatic), reading the game as :mod:`.botsense` does.

The shared bot hands every function here a *builder*
(:class:`pbem.kernel.protocols.OrderBuilder`): one order file growing addition by addition,
each checked by the rules. It has ``game`` (as the nation may see it), ``nation``,
``orders``, ``result`` (the resolved turn so far), ``try_add(key, item)``, ``try_set(key,
value)``, ``try_orders(orders)`` and ``random_moves(rng, eager)``; the greedy turn gets a
function making a fresh builder for a rondel move. This module never imports the bot, so the
layers stay as they are (editions below play).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pbem.editions.duellum.botcards import play_cards, standing_orders
from pbem.editions.duellum.botsense import distances, rival_of, seas_pay
from pbem.editions.duellum.botwedges import arm_from_box, found_city, knowhow_and_recruit, temples_and_walls
from pbem.editions.duellum.campaign import campaign, random_maneuver
from pbem.editions.duellum.play import sea_points
from pbem.editions.duellum.rules import SPECIAL_MOVES_AS
from pbem.kernel.facets import Facet
from pbem.kernel.vocab import UNITS


class DuellumStrategy(Facet):
    """The bot play of Antike Duellum (its strategy facet), as the shared bot asks an
    edition's strategy (:class:`pbem.kernel.protocols.BotStrategy`); it plays every wedge
    its own way and needs nothing of the shared play it is handed."""

    def fill(self, b: Any, rng: random.Random, eager: float, greedy: bool, march: bool, shared: Any) -> None:
        """Add the wedge's action, cards, foundings and standing orders to ``b``'s rondel
        move (:func:`_fill`)."""
        _fill(b, rng, eager, greedy, march)

    def greedy_turn(self, game: Any, nation: str, rng: random.Random, choices: Any, builder: Any,
                    shared: Any) -> dict[str, Any] | None:
        """The greedy turn (:func:`_greedy`), or ``None`` when no rondel target is worth a
        try (the GM default turn then)."""
        return _greedy(game, nation, rng, choices, builder)

    def quick_turn(self, game: Any, nation: str, rng: random.Random, choices: Any, builder: Any,
                   shared: Any) -> dict[str, Any] | None:
        """The greedy turn as the searching bot's look-ahead plays it: every rondel target
        filled in its first way only, at about a third of the cost."""
        return _greedy(game, nation, rng, choices, builder, quick=True)

    def standing(self, game: Any, state: Any, nation: str) -> float:
        """How well ``nation`` stands in ``state`` by the greedy bot's value of a turn's
        outcome (:func:`_value`: personages, then cities, temples, units, walls, pressure
        on the rival, seas while they pay, less what the rival holds): the searching bot's
        value at the end of a look-ahead. ``game`` gives the board and the edition."""
        at = _Outcome(game.board, game.edition, state)
        return _value(at, nation, at)


@dataclass(frozen=True)
class _Outcome:
    """A state with its board and edition, read as both the game and the turn's result by
    :func:`_value`."""

    board: Any
    edition: Any
    state: Any


def _fill(b, rng: random.Random, eager: float, greedy: bool, march: bool,
               hold_seas: bool = True) -> None:
    """A Duellum turn on the wedge of ``b``'s rondel move: cards first (they are played
    before the move), the wedge's action, cities founded, standing orders. ``greedy`` plans
    the action for its gain; otherwise each addition is tried with the chance ``eager``."""
    game, nation = b.game, b.nation
    edition = game.edition
    keys = edition.rondel[b.result.state.nations[nation].rondel].action.keys
    if "events" in edition.turn_keys:
        play_cards(b, rng, eager, greedy, keys)
    if "temples" in keys:
        temples_and_walls(b, rng, eager, greedy)
    if "arm" in keys:
        arm_from_box(b, rng, eager, greedy)
    if "knowhow" in keys:
        knowhow_and_recruit(b, rng, eager, greedy)
    if "maneuver" in keys:
        if greedy or march:
            campaign(b, rng, attack=greedy, advance=march, hold_seas=hold_seas)
        else:
            random_maneuver(b, rng, eager)
            if rng.random() < eager / 2:
                campaign(b, rng, attack=True, advance=False, hold_seas=False, pioneers=False)
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        here = any(prov.count(nation, u) for u in UNITS)
        if prov.owner is None and here and (greedy or rng.random() < max(eager, 0.7)):
            found_city(b, pid, rng, greedy)
    if "draw" in edition.extras.standing and (greedy or rng.random() < eager):
        standing_orders(b)


def _greedy(game, nation: str, rng: random.Random, choices, builder, quick: bool = False) -> dict[str, Any] | None:
    """The greedy Duellum turn: every rondel target within one paid step, each filled in
    several ways (on the maneuver wedge: a campaign holding the seas, one marching with
    every galley, one without marching; everywhere a random one; ``quick``: the first
    only), the best by :func:`_value`."""
    best = None
    for tg in choices:
        if tg.cost > 1:
            continue
        plans = [(1.0, True, True, True)]
        if not quick and "maneuver" in game.edition.rondel[tg.index].action.keys:
            plans += [(1.0, True, True, False), (1.0, True, False, True)]
        if not quick:
            plans.append((0.5, False, False, True))
        for eager, greedy, march, hold in plans:
            b = builder(tg.order)
            if not b.ok:
                break
            _fill(b, rng, eager, greedy, march, hold)
            value = _value(game, nation, b.result) - tg.cost * 0.5
            if best is None or value > best[0]:
                best = (value, b.orders)
    return None if best is None else best[1]


def _value(game, nation: str, result) -> float:
    """Greedy evaluation of a Duellum turn: personages first, then cities, temples,
    know-hows, units on the board and in the box, walls, cards, seas held towards a
    navigator, chips; less what the rival holds."""
    st = result.state
    ns = st.nations[nation]
    other = rival_of(st, nation)
    won = 1000 if st.status.winner == nation else 0
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in UNITS)
    units += sum(3 * p.count(nation, u) for p in st.provinces.values() for u in SPECIAL_MOVES_AS)
    box = sum(n for u, n in ns.extra.get("recruitment", {}).items() if u in UNITS)
    walls = sum(1 for c in st.cities(nation) if st.provinces[c].extra.get("wall"))
    pressure = sum(st.provinces[c].count(nation, u) for c in st.cities(other) for u in UNITS)
    seas = min(sea_points(st, game.board, nation), 14) if seas_pay(game, game.state, nation) else 0
    # chips count less once the nation holds more than a few turns' needs of them
    chips = sum(min(n, 10) + 0.1 * max(0, n - 10) for n in [*ns.resources.values(), ns.coins])
    # units far from every rival city count a little less: a nation with nothing better to
    # do marches on the rival rather than producing what it cannot spend
    away = distances(game.board, st.cities(other))
    approach = sum(prov.count(nation, u) * min(away[u].get(pid, 6), 6)
                   for pid, prov in st.provinces.items() for u in UNITS)
    rival = 3 * len(st.cities(other)) + 3 * len(st.temples(other)) + 20 * st.nations[other].personage_count() \
        + 0.2 * st.nations[other].coins
    return (won + 50 * ns.personage_count() + 7 * len(st.cities(nation)) + 6 * len(st.temples(nation))
            + 4 * len(ns.knowhow) + 2.5 * units + 1.0 * box + 0.8 * pressure + 1.0 * walls
            + 0.2 * len(ns.extra.get("hand", [])) + 0.5 * seas + 0.3 * chips - 0.1 * approach - rival)
