"""A bot that plays a legal turn for any nation of any edition: random or greedy.

Orders are built step by step and every addition is checked by the rules themselves
(:func:`pbem.kernel.turn.resolve`), so whatever the bot sends is legal by construction;
if nothing else fits, it falls back to the GM default turn (D15), which is always legal.
It knows wedges only by the order keys their actions take (``temples``, ``arm``,
``knowhow``, ``maneuver``) and asks the rule queries (:mod:`pbem.kernel.queries`) for
costs, limits, paths and defences. Randomness comes only from a generator seeded with the
game's stored seed, the turn and the nation, so the same game always gets the same bot turn.

What an edition adds is used where its rules offer it, asked of the rules too, so the bots
play a classic game exactly as before: where the nation may trade with the bank at its
know-hows' rates (Antike II's MERCATURA and COMMERCIUM) it trades when an addition would
otherwise fail for want of a chip; neutral temples (``queries.conquerable`` with owner
``None``) are attacked like rival cities, temples first; where a conquest takes no
maneuver step (Antike II), or while neutral temples stand, the greedy bot's units march on
the nearest target every turn; a city founded where the founder chooses its resource gets
the resource the nation has fewest cities of; a unit the edition arms for free (Antike
II's BELLONA) is marked ``"free": true`` on the first entry armed.

An edition with a recruitment box (Antike Duellum) gets a play of its own (the second half
of this module): the bot recruits into the box and arms from it, builds town walls, plays
the event cards it holds, sets its standing orders for FORTRESS and the cards it draws,
chooses the resource of a new city with the coin surcharge in mind, and on the maneuver
wedge plans a campaign (conquests, settlers to free city sites, galleys spread over the
seas, the rest marching on the rival) in which every move comes before every conquest and
no path crosses hostile units of its type (battles there are automatic). An edition with
secrets is played from what the nation may see (:meth:`Edition.player_view
<pbem.kernel.edition.Edition.player_view>`): the other's hand and the deck are ``"?"``, and
its generator is seeded without the game's seed, which a player's copy does not hold, so
``bot`` gives the same orders on the GM's file and on that nation's copy.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from pbem.errors import Refused
from pbem.kernel import queries
from pbem.kernel.edition import Edition
from pbem.kernel.turn import Turn, resolve
from pbem.kernel.vocab import RESOURCES, SPECIAL_UNITS, UNITS

MODES = ("random", "greedy")


def rng_for(game, nation: str, salt: str = "") -> random.Random:
    seed = hashlib.sha256(f"{game.seed}|{game.state.status.turn}|{nation}|{salt}".encode()).hexdigest()
    return random.Random(int(seed[:16], 16))


def _legal(game, orders: dict[str, Any]):
    try:
        return resolve(game.state, orders, game.edition, game.board)
    except Refused:
        return None


class _Builder:
    """Grows one order file, keeping only additions the rules accept."""

    def __init__(self, game, nation: str, rondel: dict[str, Any]):
        self.game = game
        self.nation = nation
        self.orders = {"game": game.game_id, "nation": nation,
                       "turn": game.state.status.turn, "rondel": rondel}
        self.result = _legal(game, self.orders)
        self.rates = _trade_rates(game, nation)
        """Chips given -> chips received in a trade with the bank, where the edition's own
        trade rules allow one now (empty: the bot does not trade)."""
        self.free = game.edition.free_units(Turn(game.state, nation, game.edition, game.board))
        """Units the nation may arm for free this turn (Antike II's BELLONA)."""

    @property
    def ok(self) -> bool:
        return self.result is not None

    def try_add(self, key: str, item: dict[str, Any]) -> bool:
        if key == "arm" and self.free and not any(e.get("free") for e in self.orders.get("arm", [])):
            # the free unit goes on the first entry the rules accept (003 L254)
            if self._try({**self.orders, key: [*self.orders.get(key, []), {**item, "free": True}]}):
                return True
        trial = {**self.orders, key: [*self.orders.get(key, []), item]}
        if self._try(trial):
            return True
        return bool(self.rates) and self._try_with_trades(key, trial)

    def try_set(self, key: str, value: Any) -> bool:
        """Set an order key that takes one object (Duellum's ``recruit``), if the rules
        accept it, trading for a chip it lacks where the nation may trade."""
        trial = {**self.orders, key: value}
        if self._try(trial):
            return True
        return bool(self.rates) and self._try_with_trades(key, trial)

    def _try(self, trial: dict[str, Any]) -> bool:
        result = _legal(self.game, trial)
        if result is None:
            return False
        self.orders, self.result = trial, result
        return True

    def _try_with_trades(self, key: str, trial: dict[str, Any]) -> bool:
        """The addition in ``trial`` with one or two trades for a chip it needs, giving the
        chips held most (never the chip sought): before the rondel move for the wedge's
        action; for a city founded, after the action (``"when": "after"``, 000 L512-514,
        003 L401, 001 L336), so that what the action produced is traded too."""
        action = self.game.edition.rondel[self.result.state.nations[self.nation].rondel].action
        when = None
        if key == "found":
            wanted = [r for r in RESOURCES if self.game.edition.rules_for(self.game.state.table).found_cost.get(r)]
            when = "after"
        elif key in action.keys and action.spends:
            wanted = [action.spends]
        else:
            return False
        trades = list(trial.get("trade", []))
        if when is None:
            held = dict(self.game.state.nations[self.nation].resources)
            earlier = [d for d in trades if d.get("when", "before") == "before"]
        else:
            # what the nation holds once its turn so far is done; trades after the action come
            # before every founding, so the chips earlier foundings spent are not given away
            held = dict(self.result.state.nations[self.nation].resources)
            earlier = []
        for deal in earlier:
            for chip, n in deal["give"].items():
                held[chip] -= n
            for chip, n in _received(deal).items():
                held[chip] += n
        for _ in range(2):
            made = False
            for want in sorted(wanted, key=lambda r: (held[r], RESOURCES.index(r))):
                deal = _deal(self.rates, held, want)
                if deal is None:
                    continue
                if when is not None:
                    deal["when"] = when
                trades.append(deal)
                for chip, n in deal["give"].items():
                    held[chip] -= n
                for chip, n in _received(deal).items():
                    held[chip] += n
                made = True
                if self._try({**trial, "trade": list(trades)}):
                    return True
                break
            if not made:
                return False
        return False


def _trade_rates(game, nation: str) -> dict[int, int]:
    """The rates of a trade with the bank ``nation`` may make now, where the edition has
    trade rules of its own (Antike II: MERCATURA 2 for 1, COMMERCIUM 3 for 2, 003
    L401-402). Classic trade (all eight know-hows, 2 for 1) is left alone: the bots never
    traded there."""
    edition = game.edition
    if type(edition).trade_rates is Edition.trade_rates:
        return {}
    rates, problem = edition.trade_rates(game.state, nation)
    return {} if problem is not None else dict(rates)


def _received(deal: dict[str, Any]) -> dict[str, int]:
    return {deal["get"]: 1} if isinstance(deal["get"], str) else dict(deal["get"])


def _deal(rates: dict[int, int], held: dict[str, int], want: str) -> dict[str, Any] | None:
    """The cheapest trade for ``want`` at ``rates`` (given -> received), paid with the
    chips held most, or ``None`` when the nation holds too few other chips."""
    for give_n, get_n in sorted(rates.items(), key=lambda kv: (kv[0] / kv[1], kv[0])):
        spare = {r: held[r] for r in RESOURCES if r != want}
        if sum(spare.values()) < give_n:
            continue
        give: dict[str, int] = {}
        for _ in range(give_n):
            chip = max(spare, key=lambda r: (spare[r], -RESOURCES.index(r)))
            spare[chip] -= 1
            give[chip] = give.get(chip, 0) + 1
        return {"give": give, "get": want if get_n == 1 else {want: get_n}}
    return None


def _random_path(game, start: str, unit: str, length: int, rng: random.Random) -> list[str]:
    path, here = [], start
    for _ in range(length):
        nxt = sorted(game.board.province(here).neighbours(unit))
        if not nxt:
            break
        here = rng.choice(nxt)
        path.append(here)
    return path


def _attack(b: _Builder) -> None:
    """Greedy conquests: gather units that arrive with an action left on the enemy city with
    the most to gain (temples first: a general), then conquer it."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    cities = [p for p, prov in st.provinces.items()
              if (prov.owner not in (None, nation) or queries.neutral_temple(st, p))
              and queries.can_be_conquered(st, p)]
    cities.sort(key=lambda p: (not (st.provinces[p].temple or queries.neutral_temple(st, p)),
                               queries.defence(st, edition, p), p))
    # Where a conquest takes no maneuver action (Antike II), units may use all their steps.
    spare = 1 if edition.rules_for(st.table).conquest_uses_action else 0
    for city in cities[:4]:
        now = b.result.state
        target = now.provinces.get(city)
        need = queries.defence(now, edition, city) if target and (target.owner or queries.neutral_temple(now, city)) \
            else 0
        near = 0
        plan = []
        for pid in sorted(st.provinces):
            for unit in UNITS:
                n = b.result.state.provinces.get(pid) and b.result.state.provinces[pid].count(nation, unit)
                if not n:
                    continue
                path = queries.shortest_path(game.board, pid, city, unit,
                                             queries.allowance(st, edition, nation, unit) - spare)
                if path is not None:
                    plan.append((pid, unit, n, path))
                    near += n
        if not plan or near < need:
            continue
        for pid, unit, n, path in plan:
            if path:
                b.try_add("maneuver", {"move": unit, "count": n, "from": pid, "path": path})
        after = b.result.state.provinces.get(city)
        if after is not None:
            for other in sorted(after.units):
                for unit in UNITS:
                    if other not in (nation, after.owner) or not after.count(nation, unit) or not after.count(other, unit):
                        continue
                    if other == after.owner:
                        b.try_add("maneuver", {"battle": unit, "at": city, "against": other})
        b.try_add("maneuver", {"conquer": city})


def _march(b: _Builder) -> None:
    """Move every group of own units (but those in a rival city or on a neutral temple) as
    far as it may along a shortest path towards the nearest rival city or neutral temple it
    can get to."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    rivals = [p for p, prov in sorted(st.provinces.items())
              if prov.owner not in (None, nation) or queries.neutral_temple(st, p)]
    for pid in sorted(st.provinces):
        if pid in rivals:
            continue
        for unit in UNITS:
            n = b.result.state.provinces.get(pid) and b.result.state.provinces[pid].count(nation, unit)
            if not n:
                continue
            paths = [queries.shortest_path(game.board, pid, city, unit, len(game.board.provinces)) for city in rivals]
            paths = [path for path in paths if path]
            if paths:
                path = min(paths, key=len)[:queries.allowance(st, edition, nation, unit)]
                b.try_add("maneuver", {"move": unit, "count": n, "from": pid, "path": path})


def _fill(b: _Builder, rng: random.Random, eager: float, greedy: bool = False, march: bool = False) -> None:
    """Add an action and foundings to a rondel move; ``eager`` is the chance to try each;
    ``greedy`` attacks first, ``march`` then moves the units towards rival cities."""
    if boxed(b.game.edition):
        _fill_duel(b, rng, eager, greedy, march)
        return
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    keys = edition.rondel[b.result.state.nations[nation].rondel].action.keys
    if "maneuver" in keys and greedy:
        _attack(b)
    if "maneuver" in keys and march:
        _march(b)
    if "temples" in keys:
        for city in rng.sample(st.cities(nation), len(st.cities(nation))):
            if rng.random() < eager:
                b.try_add("temples", {"city": city})
    elif "arm" in keys:
        for city in rng.sample(st.cities(nation), len(st.cities(nation))):
            units = [u for u in UNITS if game.board.can_arm(city, u)]
            if units and rng.random() < eager:
                limit = queries.arm_limit(st, edition, city)
                b.try_add("arm", {"unit": rng.choice(units), "at": city, "count": rng.randint(1, limit)}) or \
                    b.try_add("arm", {"unit": rng.choice(units), "at": city, "count": 1})
    elif "knowhow" in keys:
        names = sorted(edition.rules.knowhows)
        rng.shuffle(names)
        for name in names:
            if rng.random() < eager:
                b.try_add("knowhow", {"name": name})
    elif "maneuver" in keys:
        _random_moves(b, rng, eager)
        after = b.result.state
        for pid in sorted(after.provinces):
            prov = after.provinces[pid]
            for unit in UNITS:
                if not prov.count(nation, unit):
                    continue
                for other in sorted(prov.units):
                    if other != nation and prov.count(other, unit) and rng.random() < eager / 2:
                        b.try_add("maneuver", {"battle": unit, "at": pid, "against": other})
        after = b.result.state
        for pid in sorted(after.provinces):
            prov = after.provinces[pid]
            if (prov.owner not in (None, nation) or queries.neutral_temple(after, pid)) \
                    and any(prov.count(nation, u) for u in UNITS):
                b.try_add("maneuver", {"conquer": pid})
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        if prov.owner is None and any(prov.count(nation, u) for u in UNITS) and rng.random() < max(eager, 0.7):
            _found(b, pid)


def _found(b: _Builder, pid: str) -> bool:
    """Found a city in ``pid``; where the founder chooses its resource (a choice site, or
    any site in a free-choice variant), the resource the nation has fewest cities of, the
    one it holds least of on a tie (the printed one kept where it is among them)."""
    game = b.game
    site = game.board.province(pid).site
    st = b.result.state
    if site == "none" or queries.neutral_temple(st, pid):
        return False  # no city site, or a neutral temple to destroy first (003 L270)
    rules = game.edition.rules_for(game.state.table)
    if site == "fixed" and not rules.free_city_types:
        return b.try_add("found", {"city": pid})
    have = {r: 0 for r in RESOURCES}
    for city in st.cities(b.nation):
        kind = queries.city_resource(st, game.board, city)
        if kind in have:
            have[kind] += 1
    held = st.nations[b.nation].resources
    printed = game.board.province(pid).resource
    best = min(RESOURCES, key=lambda r: (have[r], r != printed, held[r], RESOURCES.index(r)))
    if site == "fixed" and have[best] == have[printed]:
        return b.try_add("found", {"city": pid})
    return b.try_add("found", {"city": pid, "resource": best})


def _value(game, nation: str, result) -> float:
    """Greedy evaluation of the state after a turn: score first, then growth."""
    if boxed(game.edition):
        return _value_duel(game, nation, result)
    st = result.state
    ns = st.nations[nation]
    score = game.edition.score(st, nation)
    cities = len(st.cities(nation))
    temples = len(st.temples(nation))
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in UNITS)
    chips = sum(ns.resources.values()) + ns.coins
    won = 1000 if st.status.winner == nation else 0
    return won + 50 * score + 6 * cities + 5 * temples + 4 * len(ns.knowhow) + 1.5 * min(units, 12) + 0.3 * chips


def play_turn(game, mode: str = "random", nation: str | None = None) -> dict[str, Any]:
    """Canonical orders (without password) for the active nation's turn of ``game``
    (anything with ``state``, ``edition``, ``board`` and ``seed``)."""
    nation = nation or game.state.status.active
    game = seen_by(game, nation)
    rng = rng_for(game, nation, mode)
    choices = [t for t in queries.rondel_targets(game.state, game.edition, nation) if t.affordable]
    if mode == "random":
        free = [t for t in choices if t.cost == 0]
        pool = free if free and rng.random() < 0.8 else choices
        rng.shuffle(pool)
        for tg in pool:
            b = _Builder(game, nation, tg.order)
            if b.ok:
                _fill(b, rng, eager=0.6, greedy=rng.random() < 0.3)
                return b.orders
    elif mode == "greedy" and boxed(game.edition):
        orders = _greedy_duel(game, nation, rng, choices)
        if orders is not None:
            return orders
    elif mode == "greedy":
        best = None
        # Where a conquest takes no maneuver step (Antike II), or while neutral temples stand,
        # the units also march on the nearest target: next turn they take it with every step.
        march = not game.edition.rules_for(game.state.table).conquest_uses_action or \
            any(queries.neutral_temple(game.state, p) for p in game.state.provinces)
        for tg in choices:
            if tg.cost > 1:
                continue
            for attempt in range(2):
                b = _Builder(game, nation, tg.order)
                if not b.ok:
                    break
                _fill(b, rng, eager=1.0 if attempt == 0 else 0.5, greedy=attempt == 0,
                      march=attempt == 0 and march)
                value = _value(game, nation, b.result) - tg.cost * 0.5
                if best is None or value > best[0]:
                    best = (value, b.orders)
        if best is not None:
            return best[1]
    else:
        raise ValueError(f"unknown bot mode {mode!r}")
    return queries.default_orders(game.state, game.edition, game.board, nation)


def build_turn(game, rondel: dict[str, Any], rng: random.Random, eager: float = 0.6,
               greedy: bool = False, march: bool = False, nation: str | None = None) -> dict[str, Any] | None:
    """Canonical orders (without password) that move the active nation's stone with the
    ``rondel`` order and add the wedge's action and foundings as the bots do, each addition
    checked by the rules; ``None`` when the move itself is refused. The randomness is the
    caller's ``rng`` (property tests draw it), ``eager`` the chance to try each addition;
    on a MANEUVER wedge ``greedy`` first gathers units for a conquest, and ``march`` then
    moves every group towards the nearest rival city."""
    nation = nation or game.state.status.active
    b = _Builder(seen_by(game, nation), nation, rondel)
    if not b.ok:
        return None
    _fill(b, rng, eager, greedy, march)
    return b.orders


# -- Antike Duellum: the recruitment box, town walls, event cards, automatic battles --------------

@dataclass(frozen=True)
class Seen:
    """A game as one nation may see it: what the bot reads (``state`` is the edition's
    player view) and a ``seed`` for its generator that the view holds too."""

    state: Any
    edition: Any
    board: Any
    seed: str
    game_id: str


def seen_by(game, nation: str):
    """``game`` as ``nation`` may see it. An edition without secrets shows everything:
    ``game`` itself. One with secrets (Antike Duellum) shows its player view (the other's
    hand and the deck are ``"?"``), and the bot's generator is seeded by the game's id
    instead of its seed, which a player's copy does not hold (D18 in docs/rulings.md)."""
    edition = game.edition
    if type(edition).player_view is Edition.player_view:
        return game
    return Seen(edition.player_view(game.state, nation), edition, game.board, f"game {game.game_id}", game.game_id)


def boxed(edition) -> bool:
    """Whether the edition arms from a recruitment box filled on its know-how wedge
    (Antike Duellum): then the bot plays it the Duellum way."""
    return "recruit" in edition.action_keys


def _other(st, nation: str) -> str:
    return next(n for n in st.table.seats if n != nation)


def _box(st, nation: str) -> dict[str, int]:
    return dict(st.nations[nation].extra.get("recruitment", {}))


def _cards(game, st) -> dict[str, dict[str, Any]]:
    """Card id -> the card as data (its moments, wedge and steps: the edition's
    :meth:`card_play <pbem.kernel.edition.Edition.card_play>`), for every card of this game
    that can be played; memoised per game and deck."""
    key = (st.table, tuple(sorted(game.edition.event_cards(st.table.data))))
    if _CARDS.get("key") != key:
        _CARDS.clear()
        _CARDS["key"] = key
        _CARDS["cards"] = {cid: card for cid in game.edition.event_cards(st.table.data)
                           if (card := game.edition.card_play(cid, st.table)) is not None}
    return _CARDS["cards"]


_CARDS: dict[str, Any] = {}


def _defends(card: dict[str, Any]) -> int:
    """How much a card raises the defence of a city the opponent conquers (FORTRESS: 1);
    0 for a card not played then."""
    if card["when"] != ["opponent_conquest"]:
        return 0
    return sum(s["change"] for s in card["steps"] if s["kind"] == "defence")


def _routes(game, st, nation: str, start: str, unit: str, steps: int) -> dict[str, list[str]]:
    """Where a unit of ``unit`` in ``start`` can get to in ``steps`` crossings without
    passing through a region with hostile units of its type (a battle there is automatic,
    001 L350); such a region may be the end of the path: destination -> path."""
    seen = {start: []}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for here in frontier:
            if here != start and _hostile(st, nation, here, unit):
                continue  # a battle would stop the way here
            for p in sorted(game.board.province(here).neighbours(unit)):
                if p not in seen:
                    seen[p] = [*seen[here], p]
                    nxt.append(p)
        frontier = nxt
    del seen[start]
    return seen


def _pieces(prov, nation: str) -> list[str]:
    """The kinds of unit ``nation`` has in a province: legions, galleys, then a special
    unit of the variant (Duellum's Admiral or Commander)."""
    held = prov.units.get(nation, {})
    return [u for u in (*UNITS, *SPECIAL_UNITS) if held.get(u)]


def _hostile(st, nation: str, pid: str, unit: str) -> int:
    """The rival's units in ``pid`` that a unit of ``unit`` fights on entering: those of
    its type, a special unit moving as that type included (001 L350, L439)."""
    prov = st.provinces.get(pid)
    if prov is None:
        return 0
    other = _other(st, nation)
    kind = SPECIAL_UNITS.get(unit, unit)
    return sum(n for u, n in prov.units.get(other, {}).items() if SPECIAL_UNITS.get(u, u) == kind)


def _threatened(game, st, nation: str) -> set[str]:
    """Own cities that the rival's units could take next turn: enough of its units within
    a move of the city to meet its defence."""
    other = _other(st, nation)
    reach: dict[str, int] = {}
    for pid, prov in st.provinces.items():
        for unit in _pieces(prov, other):
            n = prov.count(other, unit) if unit in UNITS else 1  # a special unit: the defence 1 lower
            if n:
                steps = queries.allowance(st, game.edition, other, unit)
                for dest in [pid, *queries.reachable(game.board, pid, unit, steps)]:
                    reach[dest] = reach.get(dest, 0) + n
    return {c for c in st.cities(nation) if reach.get(c, 0) >= queries.defence(st, game.edition, c) - 1
            and reach.get(c, 0)}


_SEAS_PAY: dict[tuple, bool] = {}
"""The last answer of :func:`_seas_pay`, by (state, nation)."""


def _seas_pay(game, st, nation: str) -> bool:
    """Whether holding more regions with galleys can still win ``nation`` a personage
    (navigators, 001 L165: none may be left in the bank, or the nation may have won every
    one the seas give). Asked of the rules: the end of a turn as things stand, and again
    with a galley of the nation in every region a galley can reach, must award different
    numbers of personages."""
    key = (id(st), st.status.turn, nation)
    if key not in _SEAS_PAY:
        _SEAS_PAY.clear()
        counts = []
        for flood in (False, True):
            state = st.copy()
            if flood:
                for pid, prov in game.board.provinces.items():
                    if prov.sea:
                        state.province(pid).add(nation, "galley", 1)
            t = Turn(state, nation, game.edition, game.board)
            game.edition.end_of_turn(t)
            counts.append(t.state.nations[nation].personage_count())
        _SEAS_PAY[key] = counts[1] > counts[0]
    return _SEAS_PAY[key]


def _fortress_risk(game, st, nation: str) -> bool:
    """Whether the rival may hold FORTRESS: it holds cards, and not every FORTRESS of the
    game is in sight (the display, the discards, the bot's own hand)."""
    other = _other(st, nation)
    if not st.nations[other].extra.get("hand"):
        return False
    shields = {cid for cid, card in _cards(game, st).items() if _defends(card) > 0}
    catalogue = game.edition.event_cards(st.table.data)
    total = sum(catalogue[cid].get("count", 1) for cid in shields)
    seen = [*st.extra.get("display", []), *st.extra.get("discards", []), *st.nations[nation].extra.get("hand", [])]
    return sum(1 for cid in seen if cid in shields) < total


def _fill_duel(b: _Builder, rng: random.Random, eager: float, greedy: bool, march: bool,
               hold_seas: bool = True) -> None:
    """A Duellum turn on the wedge of ``b``'s rondel move: cards first (they are played
    before the move), the wedge's action, cities founded, standing orders. ``greedy`` plans
    the action for its gain; otherwise each addition is tried with the chance ``eager``."""
    game, nation = b.game, b.nation
    edition = game.edition
    keys = edition.rondel[b.result.state.nations[nation].rondel].action.keys
    if "events" in edition.turn_keys:
        _play_cards(b, rng, eager, greedy, keys)
    if "temples" in keys:
        _temples_and_walls(b, rng, eager, greedy)
    if "arm" in keys:
        _arm_from_box(b, rng, eager, greedy)
    if "knowhow" in keys:
        _knowhow_and_recruit(b, rng, eager, greedy)
    if "maneuver" in keys:
        if greedy or march:
            _campaign(b, rng, attack=greedy, advance=march, hold_seas=hold_seas)
        else:
            _random_maneuver(b, rng, eager)
            if rng.random() < eager / 2:
                _campaign(b, rng, attack=True, advance=False, hold_seas=False, pioneers=False)
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        here = any(prov.count(nation, u) for u in UNITS)
        if prov.owner is None and here and (greedy or rng.random() < max(eager, 0.7)):
            _found_duel(b, pid, rng, greedy)
    if "draw" in edition.extras.standing and (greedy or rng.random() < eager):
        _standing_duel(b)


def _play_cards(b: _Builder, rng: random.Random, eager: float, greedy: bool, keys) -> None:
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
    known = _cards(game, st)
    wedge = game.edition.rondel[b.result.state.nations[nation].rondel].name
    targeted: set[str] = set()
    for cid in st.nations[nation].extra.get("hand", []):
        card = known.get(cid)
        if card is None or "opponent_conquest" in card["when"] or card.get("wedge") not in (None, wedge):
            continue
        entry = _card_entry(b, cid, card, rng, greedy, keys, targeted)
        if entry is not None and (greedy or rng.random() < eager) and b.try_add("events", entry):
            targeted |= {entry[k] for k in ("city", "at") if k in entry}


def _card_entry(b: _Builder, cid: str, card: dict[str, Any], rng: random.Random, greedy: bool, keys,
                targeted: set[str]) -> dict[str, Any] | None:
    """The ``events`` entry that plays ``cid`` with what its card leaves open chosen, or
    ``None`` when the bot keeps the card."""
    game, nation = b.game, b.nation
    st = game.state
    other = _other(st, nation)
    theirs = st.nations[other]
    entry: dict[str, Any] = {"play": cid}
    useful = False
    for step in card["steps"]:
        kind = step["kind"]
        if kind in ("gain", "draw"):
            useful = useful or _times(game, st, nation, step) > 0
        elif kind == "pay":
            if step.get("who") == "self":
                return None
            has = (step.get("coins") and theirs.coins) or any(theirs.resources[r] for r, n in step.get("chips", {}).items() if n)
            useful = useful or bool(has and _times(game, st, nation, step) > 0)
        elif kind == "discard":
            if step.get("who") == "self":
                return None
            useful = useful or bool(theirs.extra.get("hand"))
        elif kind == "remove" and step.get("piece") == "wall":
            walls = [c for c in st.cities(other) if st.provinces[c].extra.get("wall") and c not in targeted]
            if greedy:
                near = queries.in_reach(st, game.edition, game.board, nation) if "maneuver" in keys else {}
                walls = [c for c in walls if near.get(c, 0) >= queries.defence(st, game.edition, c) - 1
                         and queries.can_be_conquered(st, c)]
                walls.sort(key=lambda c: (not st.provinces[c].temple, c))
            if not walls or step.get("whose") == "self":
                return None
            entry["city"] = walls[0] if greedy else rng.choice(walls)
            useful = True
        elif kind == "remove":
            if step.get("whose") == "self":
                return None
            types = UNITS if step["piece"] == "unit" else (step["piece"],)
            spots = sorted(((st.provinces[p].count(other, u), p, u) for p in st.provinces for u in types
                            if st.provinces[p].count(other, u) and p not in targeted), reverse=True)
            if not spots:
                return None
            _, entry["at"], unit = spots[0]
            if step["piece"] == "unit":
                entry["unit"] = unit
            useful = True
        elif kind == "arm":
            source = _box(st, nation) if step.get("from", "box") == "box" else \
                {u: queries.stock(st, game.edition, nation, u) for u in UNITS}
            types = UNITS if step.get("unit", "any") == "any" else (step["unit"],)
            spots = [(c, u) for c in st.cities(nation) for u in types
                     if game.board.can_arm(c, u) and source.get(u, 0) >= step.get("count", 1)]
            if not spots:
                return None
            entry["at"], unit = spots[0] if greedy else rng.choice(spots)
            if step.get("unit", "any") == "any":
                entry["unit"] = unit
            useful = True
        elif kind == "defence":
            if "maneuver" not in keys or step["change"] >= 0:
                return None
            near = queries.in_reach(st, game.edition, game.board, nation)
            cities = sorted((c for c in st.cities(other) if near.get(c) and queries.can_be_conquered(st, c)
                             and c not in targeted), key=lambda c: (not st.provinces[c].temple, c))
            if not cities:
                return None
            entry["city"] = cities[0]
            useful = True
        else:  # a stone moved, free steps: the bot's rondel move is chosen already
            return None
    if not useful:
        return None
    moments = [m for m in ("before", "after_move", "after") if m in card["when"]]
    if moments and moments[0] != "before":
        entry["when"] = moments[0]
    return entry


def _times(game, st, nation: str, step: dict[str, Any]) -> int:
    """How often a step's amounts count now (its ``per``: know-hows, cities, ... of a nation)."""
    per = step.get("per")
    if not per:
        return 1
    who = _other(st, nation) if per.get("of") == "opponent" else nation
    ns = st.nations[who]
    count = {"knowhows": len(ns.knowhow), "cities": len(st.cities(who)), "temples": len(st.temples(who)),
             "walls": sum(1 for c in st.cities(who) if st.provinces[c].extra.get("wall")), "coins": ns.coins,
             "personages": ns.personage_count(), "cards": len(ns.extra.get("hand", []))}[per["count"]]
    return count // per.get("divided_by", 1)


def _temples_and_walls(b: _Builder, rng: random.Random, eager: float, greedy: bool) -> None:
    """TEMPLUM: temples where the fewest temples stand around (each costs a coin more, 001
    L262), then town walls from the supply (1 marble, 001 L266): the greedy bot walls the
    cities the rival threatens and its temple cities."""
    game, nation = b.game, b.nation
    st = game.state
    cities = st.cities(nation)
    if greedy:
        def near_temples(c):
            here = game.board.province(c)
            return sum(1 for p in here.land | here.sea if (q := st.provinces.get(p)) is not None and q.temple)
        order = sorted(cities, key=lambda c: (near_temples(c), c))
    else:
        order = rng.sample(cities, len(cities))
    for city in order:
        if greedy or rng.random() < eager:
            b.try_add("temples", {"city": city})
    now = b.result.state
    if not now.nations[nation].extra.get("walls_supply"):
        return
    open_ = [c for c in now.cities(nation) if not now.provinces[c].extra.get("wall")]
    if greedy:
        danger = _threatened(game, st, nation)
        order = sorted((c for c in open_ if c in danger or now.provinces[c].temple),
                       key=lambda c: (c not in danger, not now.provinces[c].temple, c))
    else:
        order = [c for c in rng.sample(open_, len(open_)) if rng.random() < eager]
    for city in order:
        b.try_add("walls", {"city": city})


def _arm_from_box(b: _Builder, rng: random.Random, eager: float, greedy: bool) -> None:
    """MILITIA: units from the recruitment box (2 iron each, 001 L284), as many as each
    city takes (1, 3 with a temple): the greedy bot arms temple cities and cities the rival
    threatens first, galleys where they can go (the seas are its way to the rival and to
    navigators), legions elsewhere; the variant's special unit (3 iron, a temple city only,
    001 L435) first of all, where most of its type stand."""
    game, nation = b.game, b.nation
    st = game.state
    box = {u: n for u, n in _box(st, nation).items() if n}
    cities = st.cities(nation)
    if greedy:
        danger = _threatened(game, st, nation)
        cities = sorted(cities, key=lambda c: (not st.provinces[c].temple, c not in danger, c))
    else:
        cities = rng.sample(cities, len(cities))
    used: dict[str, int] = {}
    for special in [u for u in box if u in SPECIAL_UNITS]:
        temples = [c for c in cities if st.provinces[c].temple and game.board.can_arm(c, special)]
        if greedy:
            temples.sort(key=lambda c: -st.provinces[c].count(nation, SPECIAL_UNITS[special]))
        elif rng.random() >= eager:
            temples = []
        for city in temples:
            if b.try_add("arm", {"unit": special, "at": city, "count": 1}):
                used[city] = 1
                break
    for city in cities:
        if not any(box.get(u) for u in UNITS):
            return
        if not greedy and rng.random() >= eager:
            continue
        left = queries.arm_limit(st, game.edition, city) - used.get(city, 0)
        kinds = [u for u in ("galley", "legion") if game.board.can_arm(city, u) and box.get(u)]
        if not greedy:
            rng.shuffle(kinds)
        for unit in kinds:
            for count in range(min(left, box[unit]), 0, -1):
                if b.try_add("arm", {"unit": unit, "at": city, "count": count}):
                    box[unit] -= count
                    left -= count
                    break


def _knowhow_and_recruit(b: _Builder, rng: random.Random, eager: float, greedy: bool) -> None:
    """SCIENTIA: know-hows (the greedy bot first those the rival lacks: a scholar, 001
    L313-317), then units recruited from the supply into the box (1 gold a legion, 2 a
    galley, 001 L340) when the box runs low: as many as the nation's cities can arm."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    names = sorted(edition.rules.knowhows)
    if greedy:
        names.sort(key=lambda k: (not queries.knowhow_offer(st, edition, nation, k).first,
                                  queries.knowhow_offer(st, edition, nation, k).price, k))
    else:
        rng.shuffle(names)
    for name in names:
        if name not in st.nations[nation].knowhow and (greedy or rng.random() < eager):
            b.try_add("knowhow", {"name": name})
    supply = {u: queries.stock(st, edition, nation, u) for u in UNITS}
    box = _box(st, nation)
    if greedy:
        capacity = sum(queries.arm_limit(st, edition, c) for c in st.cities(nation))
        want = max(0, min(capacity, 6) - sum(box.get(u, 0) for u in UNITS))
        if not want:
            return
        seaward = any(game.board.can_arm(c, "galley") for c in st.cities(nation))
        galleys = min(supply["galley"], (want + 1) // 2 if seaward else 0)
        legions = min(supply["legion"], want - galleys)
        tries = []
        for total in range(galleys + legions, 0, -1):
            g = min(galleys, (total + 1) // 2)
            tries.append({"legion": min(legions, total - g), "galley": g})
            tries.append({"legion": min(legions, total), "galley": max(0, total - min(legions, total))})
    else:
        if rng.random() >= eager:
            return
        tries = [{"legion": rng.randint(0, min(3, supply["legion"])),
                  "galley": rng.randint(0, min(2, supply["galley"]))}]
        tries.append({"legion": min(1, supply["legion"]), "galley": 0})
    for order in tries:
        order = {u: n for u, n in order.items() if n}
        if order and b.try_set("recruit", {"legion": order.get("legion", 0), "galley": order.get("galley", 0)}):
            return


def _random_moves(b: _Builder, rng: random.Random, eager: float) -> None:
    """Each group of the nation's units moves, with the chance ``eager``, some of its units
    a random number of steps along a random path."""
    game, nation = b.game, b.nation
    st = game.state
    groups = [(pid, u, st.provinces[pid].count(nation, u)) for pid in sorted(st.provinces)
              for u in UNITS if st.provinces[pid].count(nation, u)]
    for pid, unit, n in groups:
        if rng.random() < eager:
            steps = rng.randint(1, queries.allowance(st, game.edition, nation, unit))
            path = _random_path(game, pid, unit, steps, rng)
            if path:
                b.try_add("maneuver", {"move": unit, "count": rng.randint(1, n), "from": pid, "path": path})


def _random_maneuver(b: _Builder, rng: random.Random, eager: float) -> None:
    """Random moves (each move in one go: battles on the way are automatic), then a
    conquest wherever the units stand in a rival city."""
    nation = b.nation
    _random_moves(b, rng, eager)
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        if prov.owner not in (None, nation) and any(prov.count(nation, u) for u in UNITS):
            b.try_add("maneuver", {"conquer": pid})


def _campaign(b: _Builder, rng: random.Random, attack: bool = True, advance: bool = True,
              hold_seas: bool = True, pioneers: bool = True) -> None:
    """The greedy maneuver (001 L344-369): conquests of the rival's cities that enough
    units can reach (every unit in the region counts, no step needs to be left; temple
    cities first, a general), with one unit more where the rival may hold FORTRESS and the
    variant's special unit along where it can go safely (the defence is 1 lower, 001 L437);
    then one settler to each free city site the nation can pay to found a city on; then
    (``hold_seas``) galleys spread over the regions not yet held (a sea without a city
    counts double for navigators, 001 L165), one staying in each; then (``advance``) the
    rest march on the rival city that is easiest to take (a special unit with the units of
    its type it stands with), but units guarding a threatened city of their own. All moves
    come before the conquests (001 L354), no path crosses a region with hostile units of
    its type, and a path that ends in one fights there, 1 for 1."""
    game, nation = b.game, b.nation
    st, edition, board = game.state, game.edition, game.board
    other = _other(st, nation)
    pool: dict[tuple[str, str], int] = {}
    for pid, prov in sorted(st.provinces.items()):
        for unit in _pieces(prov, nation):
            pool[(pid, unit)] = prov.count(nation, unit)
    allow = {u: queries.allowance(st, edition, nation, u) for u in (*UNITS, *SPECIAL_UNITS)}
    routes = {key: _routes(game, st, nation, key[0], key[1], allow[key[1]]) for key in pool}
    moves: list[dict[str, Any]] = []
    here: dict[tuple[str, str], int] = {}
    """Units that end the maneuver in a region: (region, unit) -> count."""

    def send(pid: str, unit: str, count: int, path: list[str]) -> None:
        pool[(pid, unit)] -= count
        if path:
            moves.append({"move": unit, "count": count, "from": pid, "path": list(path)})
        dest = path[-1] if path else pid
        here[(dest, unit)] = here.get((dest, unit), 0) + count

    def way(pid: str, unit: str, dest: str) -> list[str] | None:
        return [] if pid == dest else routes[(pid, unit)].get(dest)

    conquests = []
    if attack:
        quaked = {e.get("city") for e in b.orders.get("events", []) if "city" in e}
        risk = _fortress_risk(game, st, nation)
        can_take = len(st.cities(other)) - 1
        def need_at(c: str) -> int:
            return queries.defence(st, edition, c) - (1 if c in quaked else 0)

        def standing(c: str) -> int:
            return sum(pool.get((c, u), 0) for u in UNITS)
        # temple cities first (a general), then the weakest, a wall an EARTHQUAKE broke,
        # the one the units already stand in
        targets = [c for c in st.cities(other) if queries.can_be_conquered(st, c)]
        targets.sort(key=lambda c: (not st.provinces[c].temple, need_at(c), c not in quaked, -standing(c), c))
        for city in targets:
            if len(conquests) >= can_take:
                break
            need = need_at(city)
            # the special unit goes along only where nothing of its type fights it on the way in
            leader = next(((pid, unit, path) for (pid, unit), n in pool.items() if unit in SPECIAL_UNITS and n
                           and (path := way(pid, unit, city)) is not None and not _hostile(st, nation, city, unit)),
                          None)
            if leader is not None:
                need = max(1, need - 1)
            sources = []
            for (pid, unit), n in pool.items():
                path = way(pid, unit, city) if n and unit in UNITS else None
                if path is not None:
                    sources.append((len(path), unit != "legion", pid, unit, n, path))
            sources.sort()
            have = sum(s[4] for s in sources)
            if have < need:
                continue
            want = need + 1 if risk and have > need else need
            for _, _, pid, unit, n, path in sources:
                take = min(n, want)
                if take:
                    send(pid, unit, take, path)
                    want -= take
            if leader is not None:
                send(*leader[:2], 1, leader[2])
            conquests.append(city)
    # settlers: one unit to each free city site the nation can pay for (1 marble, 1 iron,
    # 1 gold, coins standing in, 001 L195)
    res, coins = st.nations[nation].resources, st.nations[nation].coins
    afford = 0
    while sum(max(0, afford + 1 - res[r]) for r in RESOURCES) <= coins:
        afford += 1
    free = [p for p in sorted(board.provinces) if board.province(p).site != "none"
            and (st.provinces.get(p) is None or st.provinces[p].owner is None)]
    for site in free:
        for unit in UNITS:
            if pool.get((site, unit)) and afford:
                send(site, unit, 1, [])
                afford -= 1
                break
    for site in free:
        if not afford or any(here.get((site, u)) for u in UNITS):
            continue
        options = []
        for (pid, unit), n in pool.items():
            path = routes[(pid, unit)].get(site) if unit in UNITS else None
            if n and path and not _hostile(st, nation, site, unit):
                options.append((len(path), unit != "legion", -n, pid, unit, path))
        if options:
            _, _, _, pid, unit, path = min(options)
            send(pid, unit, 1, path)
            afford -= 1
    # pioneers: while free sites are left that no unit can reach this turn, one unit sets
    # out for each of the nearest, when the nation will have the chips to found there
    if pioneers and sum(res.values()) + coins >= 3:
        far = [site for site in free if not any(here.get((site, u)) for u in UNITS)]
        for site in far:
            options = []
            for (pid, unit), n in pool.items():
                if not n or unit not in UNITS or pid in st.cities(nation) and n == 1:
                    continue
                path = queries.shortest_path(board, pid, site, unit, len(board.provinces))
                if path:
                    options.append((len(path), unit != "legion", pid, unit, path))
            if not options:
                continue
            _, _, pid, unit, path = min(options)
            step = path[:allow[unit]]
            clear = routes[(pid, unit)]
            while step and (step[-1] not in clear or _hostile(st, nation, step[-1], unit)):
                step = step[:-1]
            if step:
                send(pid, unit, 1, clear[step[-1]])
    # galleys spread over regions no galley of the nation holds yet: seas without a city
    # first (2 points), then any (1), up to the second navigator's 14 points
    def holders(p: str) -> int:
        return here.get((p, "galley"), 0) + pool.get((p, "galley"), 0)

    def worth(p: str) -> int:
        return 2 if board.province(p).double else 1

    points = sum(worth(p) for p in board.provinces if holders(p))
    hold_seas = hold_seas and _seas_pay(game, st, nation)
    if hold_seas:
        for pid, unit in [key for key in sorted(pool) if key[1] == "galley"]:
            while pool[(pid, unit)] and points < 14:
                lose = worth(pid) if holders(pid) == 1 else 0
                options = [(lose - worth(dest), len(path), dest, path)
                           for dest, path in routes[(pid, unit)].items()
                           if not holders(dest) and not _hostile(st, nation, dest, unit)]
                options = [o for o in options if o[0] < 0]
                if not options:
                    break
                gain, _, dest, path = min(options)
                send(pid, unit, 1, path)
                points -= gain
    if advance:
        danger = _threatened(game, st, nation)
        rivals = [c for c in st.cities(other) if c not in conquests]
        near: dict[str, int] = {}
        for (pid, unit), n in pool.items():
            for dest in [pid, *board.province(pid).neighbours(unit)]:
                near[dest] = near.get(dest, 0) + n
        focus = sorted((c for c in rivals if queries.can_be_conquered(st, c)),
                       key=lambda c: (queries.defence(st, edition, c) - near.get(c, 0), not st.provinces[c].temple, c))
        marched: dict[tuple[str, str], list[str]] = {}
        for (pid, unit), n in sorted(pool.items()):
            if unit not in UNITS:
                continue
            if hold_seas and unit == "galley" and n and holders(pid) == n:
                n -= 1  # one stays to hold the region's sea points
            if not n or pid in danger or pid in rivals:
                continue
            path = next((p for c in focus if (p := queries.shortest_path(board, pid, c, unit, len(board.provinces)))),
                        None)
            if not path:
                continue
            step = path[:allow[unit]]
            clear = routes[(pid, unit)]
            while step and (step[-1] not in clear or _hostile(st, nation, step[-1], unit) > n):
                step = step[:-1]
            if step:
                send(pid, unit, n, clear[step[-1]])
                marched[(pid, unit)] = clear[step[-1]]
        for (pid, unit), n in sorted(pool.items()):
            path = marched.get((pid, SPECIAL_UNITS.get(unit, "")))
            if n and unit in SPECIAL_UNITS and path and len(path) <= allow[unit]:
                send(pid, unit, n, path)  # with its escort, which fights first
    for move in moves:
        b.try_add("maneuver", move)
    for city in conquests:
        b.try_add("maneuver", {"conquer": city})


def _found_duel(b: _Builder, pid: str, rng: random.Random, greedy: bool) -> bool:
    """Found a city in ``pid``. On a site whose resource the founder chooses (001 L197):
    the greedy bot takes the resource with the fewest adjacent cities of that type (each
    costs a coin more), then the one it has fewest cities of, then the chip it holds least;
    the random bot any. A type whose tokens ran out is refused and the next one tried."""
    game, nation = b.game, b.nation
    site = game.board.province(pid).site
    if site == "none":
        return False
    if site == "fixed":
        return b.try_add("found", {"city": pid})
    st = b.result.state
    here = game.board.province(pid)
    near = {r: 0 for r in RESOURCES}
    mine = {r: 0 for r in RESOURCES}
    for p in here.land | here.sea:
        prov = st.provinces.get(p)
        if prov is not None and prov.owner is not None and queries.city_resource(st, game.board, p) in near:
            near[queries.city_resource(st, game.board, p)] += 1
    for city in st.cities(nation):
        if queries.city_resource(st, game.board, city) in mine:
            mine[queries.city_resource(st, game.board, city)] += 1
    held = st.nations[nation].resources
    order = sorted(RESOURCES, key=lambda r: (near[r], mine[r], held[r], RESOURCES.index(r)))
    if not greedy:
        rng.shuffle(order)
    return any(b.try_add("found", {"city": pid, "resource": r}) for r in order)


def _standing_duel(b: _Builder) -> None:
    """Standing orders for the other's turn: FORTRESS ``always`` (the city holds or the
    attacker loses a unit more, 001 L429), and the cards to take first from the display
    (D9), ranked by what each would do now: a card for the rival's conquest while the rival
    can reach a city, one destroying walls while the rival has walls, one taking coins by
    the rival's coins, one giving gold by its know-hows, one giving chips."""
    game, nation = b.game, b.nation
    st = game.state
    other = _other(st, nation)
    theirs = st.nations[other]
    danger = bool(_threatened(game, st, nation))
    walls = any(st.provinces[c].extra.get("wall") for c in st.cities(other))

    def worth(card: dict[str, Any]) -> int:
        # a few steps only, so that the order changes when the situation does, not every turn
        if _defends(card):
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

    known = _cards(game, st)
    ranked = sorted(known, key=lambda c: (-worth(known[c]), c))
    change = {}
    if st.standing[nation].extra.get("fortress") != "always":
        change["fortress"] = "always"
    if list(st.standing[nation].extra.get("draw", [])) != ranked:
        change["draw"] = ranked
    if change:
        b._try({**b.orders, "standing": change})


def _distances(board, targets: list[str]) -> dict[str, dict[str, int]]:
    """Unit type -> province -> the crossings a unit of that type needs to reach the
    nearest of ``targets``."""
    out = {}
    for unit in UNITS:
        dist = {t: 0 for t in targets}
        frontier = list(targets)
        while frontier:
            nxt = []
            for here in frontier:
                for p in board.province(here).neighbours(unit):
                    if p not in dist:
                        dist[p] = dist[here] + 1
                        nxt.append(p)
            frontier = nxt
        out[unit] = dist
    return out


def _greedy_duel(game, nation: str, rng: random.Random, choices) -> dict[str, Any] | None:
    """The greedy Duellum turn: every rondel target within one paid step, each filled in
    several ways (on the maneuver wedge: a campaign holding the seas, one marching with
    every galley, one without marching; everywhere a random one), the best by
    :func:`_value_duel`."""
    best = None
    for tg in choices:
        if tg.cost > 1:
            continue
        plans = [(1.0, True, True, True)]
        if "maneuver" in game.edition.rondel[tg.index].action.keys:
            plans += [(1.0, True, True, False), (1.0, True, False, True)]
        plans.append((0.5, False, False, True))
        for eager, greedy, march, hold in plans:
            b = _Builder(game, nation, tg.order)
            if not b.ok:
                break
            _fill_duel(b, rng, eager, greedy, march, hold)
            value = _value_duel(game, nation, b.result) - tg.cost * 0.5
            if best is None or value > best[0]:
                best = (value, b.orders)
    return None if best is None else best[1]


def _value_duel(game, nation: str, result) -> float:
    """Greedy evaluation of a Duellum turn: personages first, then cities, temples,
    know-hows, units on the board and in the box, walls, cards, seas held towards a
    navigator, chips; less what the rival holds."""
    from pbem.editions.duellum.play import sea_points

    st = result.state
    ns = st.nations[nation]
    other = _other(st, nation)
    won = 1000 if st.status.winner == nation else 0
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in UNITS)
    units += sum(3 * p.count(nation, u) for p in st.provinces.values() for u in SPECIAL_UNITS)
    box = sum(n for u, n in ns.extra.get("recruitment", {}).items() if u in UNITS)
    walls = sum(1 for c in st.cities(nation) if st.provinces[c].extra.get("wall"))
    pressure = sum(st.provinces[c].count(nation, u) for c in st.cities(other) for u in UNITS)
    seas = min(sea_points(st, game.board, nation), 14) if _seas_pay(game, game.state, nation) else 0
    # chips count less once the nation holds more than a few turns' needs of them
    chips = sum(min(n, 10) + 0.1 * max(0, n - 10) for n in [*ns.resources.values(), ns.coins])
    # units far from every rival city count a little less: a nation with nothing better to
    # do marches on the rival rather than producing what it cannot spend
    away = _distances(game.board, st.cities(other))
    approach = sum(prov.count(nation, u) * min(away[u].get(pid, 6), 6)
                   for pid, prov in st.provinces.items() for u in UNITS)
    rival = 3 * len(st.cities(other)) + 3 * len(st.temples(other)) + 20 * st.nations[other].personage_count() \
        + 0.2 * st.nations[other].coins
    return (won + 50 * ns.personage_count() + 7 * len(st.cities(nation)) + 6 * len(st.temples(nation))
            + 4 * len(ns.knowhow) + 2.5 * units + 1.0 * box + 0.8 * pressure + 1.0 * walls
            + 0.2 * len(ns.extra.get("hand", [])) + 0.5 * seas + 0.3 * chips - 0.1 * approach - rival)
