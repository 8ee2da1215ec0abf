"""A bot that plays a legal turn for any nation of any edition: random or greedy.

Orders are built step by step and every addition is checked by the rules themselves
(:func:`pbem.kernel.turn.resolve`), so whatever the bot sends is legal by construction;
if nothing else fits, it falls back to the GM default turn (D15), which is always legal.
It knows wedges only by the order keys their actions take (``temples``, ``arm``,
``knowhow``, ``maneuver``) and asks the rule queries (:mod:`pbem.kernel.queries`) for
costs, limits, paths and defences. Randomness comes only from a generator seeded with the
game's stored seed, the turn and the nation, so the same game always gets the same bot turn.

What an edition adds is used where its rules offer it, asked of the rules too, so the bots
play a classic game exactly as before: where the nation may trade with the bank at rates
of its edition's own (know-hows that allow trading) it trades when an addition would
otherwise fail for want of a chip; neutral temples (``queries.conquerable`` with owner
``None``) are attacked like rival cities, temples first; where a conquest takes no
maneuver step, or while neutral temples stand, the greedy bot's units march on the
nearest target every turn; a city founded where the founder chooses its resource gets the
resource the nation has fewest cities of; a unit the edition arms for free is marked
``"free": true`` on the first entry armed.

An edition whose play differs further (a recruitment box, town walls, event cards,
automatic battles) brings a strategy of its own (its strategy facet,
:class:`~pbem.kernel.protocols.BotStrategy`); every other edition is played by
:data:`SHARED`. A strategy fills a :class:`Builder`: the order file growing addition by
addition, which the strategy uses through ``game``, ``nation``, ``orders``, ``result``,
``try_add``, ``try_set``, ``try_orders`` and ``random_moves``
(:class:`~pbem.kernel.protocols.OrderBuilder`); it is handed the shared play
(:data:`SHARED`, a :class:`~pbem.kernel.protocols.SharedPlay`) for what it keeps of it, so an
edition's strategy needs nothing of this module. An edition with secrets is played from what
the nation may see (:meth:`Secrets.player_view <pbem.kernel.protocols.Secrets.player_view>`): the hidden
parts are ``"?"``, and its generator is seeded without the game's seed, which a player's
copy does not hold, so ``bot`` gives the same orders on the GM's file and on that nation's
copy.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from pbem.errors import Refused
from pbem.kernel import queries
from pbem.kernel.edition import Edition
from pbem.kernel.facets import SharedTurn
from pbem.kernel.turn import Turn, resolve
from pbem.kernel.vocab import RESOURCES, UNITS

MODES = ("random", "greedy")
"""The bots of this module: random additions and the greedy one-turn look (the searching
bot, ``strong``, is :mod:`pbem.play.search`, which builds on them)."""


def rng_for(game, nation: str, salt: str = "") -> random.Random:
    seed = hashlib.sha256(f"{game.seed}|{game.state.status.turn}|{nation}|{salt}".encode()).hexdigest()
    return random.Random(int(seed[:16], 16))


def _legal(game, orders: dict[str, Any]):
    try:
        return resolve(game.state, orders, game.edition, game.board)
    except Refused:
        return None


class Builder:
    """Grows one order file, keeping only additions the rules accept: what the bots and
    an edition's strategy build a turn with."""

    def __init__(self, game, nation: str, rondel: dict[str, Any]):
        self.game = game
        self.nation = nation
        self.orders = {"game": game.game_id, "nation": nation,
                       "turn": game.state.status.turn, "rondel": rondel}
        self.result = _legal(game, self.orders)
        self.rates = _trade_rates(game, nation)
        """Chips given -> chips received in a trade with the bank, where the edition's own
        trade rules allow one now (empty: the bot does not trade)."""
        self.free = game.edition.forces.free_units(Turn(game.state, nation, game.edition, game.board))
        """Units the nation may arm for free this turn (:meth:`Forces.free_units
        <pbem.kernel.protocols.Forces.free_units>`)."""

    @property
    def ok(self) -> bool:
        return self.result is not None

    def try_add(self, key: str, item: dict[str, Any]) -> bool:
        """Add ``item`` to the order list ``key`` if the rules accept it (a unit armed for
        free where the edition gives one, a trade for a chip it lacks where the nation may
        trade); whether it was added."""
        if key == "arm" and self.free and not any(e.get("free") for e in self.orders.get("arm", [])):
            # the free unit goes on the first entry the rules accept (003 L254)
            if self._try({**self.orders, key: [*self.orders.get(key, []), {**item, "free": True}]}):
                return True
        trial = {**self.orders, key: [*self.orders.get(key, []), item]}
        if self._try(trial):
            return True
        return bool(self.rates) and self._try_with_trades(key, trial)

    def try_set(self, key: str, value: Any) -> bool:
        """Set an order key that takes one object (a recruitment, in an edition with one),
        if the rules accept it, trading for a chip it lacks where the nation may trade."""
        trial = {**self.orders, key: value}
        if self._try(trial):
            return True
        return bool(self.rates) and self._try_with_trades(key, trial)

    def try_orders(self, trial: dict[str, Any]) -> bool:
        """Replace the whole order file with ``trial`` if the rules accept it."""
        return self._try(trial)

    def random_moves(self, rng: random.Random, eager: float) -> None:
        """Random moves of the nation's units (:func:`_random_moves`)."""
        _random_moves(self, rng, eager)

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
    trade rules of its own (know-hows that allow trades at their rates). Classic trade (all eight know-hows, 2 for 1) is left alone: the bots never
    traded there."""
    edition = game.edition
    if type(edition.turn).trade_rates is SharedTurn.trade_rates:
        return {}
    rates, problem = edition.turn.trade_rates(game.state, nation)
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


def _attack(b: Builder) -> None:
    """Greedy conquests: gather units that arrive with an action left on the enemy city with
    the most to gain (temples first: a general), then conquer it."""
    game, nation = b.game, b.nation
    st, edition = game.state, game.edition
    cities = [p for p, prov in st.provinces.items()
              if (prov.owner not in (None, nation) or queries.neutral_temple(st, p))
              and queries.can_be_conquered(st, p)]
    cities.sort(key=lambda p: (not (st.provinces[p].temple or queries.neutral_temple(st, p)),
                               queries.defence(st, edition, p), p))
    # Where a conquest takes no maneuver action, units may use all their steps.
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


def _march(b: Builder) -> None:
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


def _fill(b: Builder, rng: random.Random, eager: float, greedy: bool = False, march: bool = False) -> None:
    """Add an action and foundings to a rondel move; ``eager`` is the chance to try each;
    ``greedy`` attacks first, ``march`` then moves the units towards rival cities."""
    strategy_of(b.game.edition).fill(b, rng, eager, greedy, march, SHARED)


def _fill_shared(b: Builder, rng: random.Random, eager: float, greedy: bool = False, march: bool = False) -> None:
    """The shared play of a rondel move (:class:`SharedStrategy`): on the maneuver wedge
    the greedy conquests and the march first; then the wedge's action, found by the first
    of its order keys the bot knows (:data:`_ACTIONS`), each addition tried with the chance
    ``eager``; then cities founded where the nation's units stand on a free site."""
    keys = b.game.edition.rondel[b.result.state.nations[b.nation].rondel].action.keys
    if "maneuver" in keys and greedy:
        _attack(b)
    if "maneuver" in keys and march:
        _march(b)
    action = next((key for key in _ACTIONS if key in keys), None)
    if action is not None:
        _ACTIONS[action](b, rng, eager)
    _found_where_units_stand(b, rng, eager)


def _temples_at_random(b: Builder, rng: random.Random, eager: float) -> None:
    """Temples in the nation's cities, in a random order."""
    cities = b.game.state.cities(b.nation)
    for city in rng.sample(cities, len(cities)):
        if rng.random() < eager:
            b.try_add("temples", {"city": city})


def _arm_at_random(b: Builder, rng: random.Random, eager: float) -> None:
    """Units of a random type armed in the nation's cities, a random number up to the
    city's limit (else one)."""
    game = b.game
    st = game.state
    for city in rng.sample(st.cities(b.nation), len(st.cities(b.nation))):
        units = [u for u in UNITS if game.board.can_arm(city, u)]
        if units and rng.random() < eager:
            limit = queries.arm_limit(st, game.edition, city)
            b.try_add("arm", {"unit": rng.choice(units), "at": city, "count": rng.randint(1, limit)}) or \
                b.try_add("arm", {"unit": rng.choice(units), "at": city, "count": 1})


def _knowhows_at_random(b: Builder, rng: random.Random, eager: float) -> None:
    """Know-hows in a random order."""
    names = sorted(b.game.edition.rules.knowhows)
    rng.shuffle(names)
    for name in names:
        if rng.random() < eager:
            b.try_add("knowhow", {"name": name})


def _maneuver_at_random(b: Builder, rng: random.Random, eager: float) -> None:
    """Random moves (:func:`_random_moves`), battles demanded where the nation's units
    stand with a rival's of their type (with the chance ``eager / 2``), then a conquest
    wherever its units stand in a rival city or on a neutral temple."""
    nation = b.nation
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


_ACTIONS = {"temples": _temples_at_random, "arm": _arm_at_random, "knowhow": _knowhows_at_random,
            "maneuver": _maneuver_at_random}
"""A wedge's order key -> how the shared play fills its action, in the order asked."""


def _found_where_units_stand(b: Builder, rng: random.Random, eager: float) -> None:
    """Cities founded (:func:`_found`) where the nation's units stand on a free site, each
    with the chance ``eager`` (at least 0.7)."""
    after = b.result.state
    for pid in sorted(after.provinces):
        prov = after.provinces[pid]
        if prov.owner is None and any(prov.count(b.nation, u) for u in UNITS) and rng.random() < max(eager, 0.7):
            _found(b, pid)


def _found(b: Builder, pid: str) -> bool:
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
    return state_value(game.edition, result.state, nation)


def state_value(edition, st, nation: str) -> float:
    """How well ``nation`` stands in ``st``: a win, then the score towards the edition's
    goal (:meth:`TurnRules.score <pbem.kernel.protocols.TurnRules.score>`), then growth (cities,
    temples, know-hows, units, chips): the greedy bot's evaluation, and the searching
    bot's (:mod:`pbem.play.search`) for every nation at the end of a look-ahead."""
    ns = st.nations[nation]
    score = edition.turn.score(st, nation)
    cities = len(st.cities(nation))
    temples = len(st.temples(nation))
    units = sum(p.count(nation, u) for p in st.provinces.values() for u in UNITS)
    chips = sum(ns.resources.values()) + ns.coins
    won = 1000 if st.status.winner == nation else 0
    return won + 50 * score + 6 * cities + 5 * temples + 4 * len(ns.knowhow) + 1.5 * min(units, 12) + 0.3 * chips


class SharedStrategy:
    """How the bots play an edition that brings no strategy of its own (classic Antike and
    every edition whose turn is classic's with other numbers): the wedge's action chosen by
    its order keys, conquests and marches on the maneuver wedge, foundings; the greedy bot
    weighs every rondel target within one paid step, filled in two ways, by :func:`_value`."""

    def fill(self, b: Builder, rng: random.Random, eager: float, greedy: bool = False, march: bool = False,
             shared: Any = None) -> None:
        _fill_shared(b, rng, eager, greedy, march)

    def greedy_turn(self, game, nation: str, rng: random.Random, choices, builder,
                    shared: Any = None) -> dict[str, Any] | None:
        # Where a conquest takes no maneuver step, or while neutral temples stand, the units
        # also march on the nearest target: next turn they take it with every step.
        march = not game.edition.rules_for(game.state.table).conquest_uses_action or \
            any(queries.neutral_temple(game.state, p) for p in game.state.provinces)
        return self.best_turn(game, nation, rng, choices, builder, self.fill, _value, march)

    @staticmethod
    def best_turn(game, nation: str, rng: random.Random, choices, builder, fill, value,
                  march: bool = False) -> dict[str, Any] | None:
        """The greedy loop an edition's strategy may reuse with its own ``fill`` and
        ``value(game, nation, result)``: every rondel target within one paid step, filled
        eagerly (attacking first, marching with ``march``) and at half eagerness; the best
        by ``value`` less half a point a coin paid, or ``None`` when no target is open."""
        best = None
        for tg in choices:
            if tg.cost > 1:
                continue
            for attempt in range(2):
                b = builder(tg.order)
                if not b.ok:
                    break
                fill(b, rng, eager=1.0 if attempt == 0 else 0.5, greedy=attempt == 0,
                     march=attempt == 0 and march)
                score = value(game, nation, b.result) - tg.cost * 0.5
                if best is None or score > best[0]:
                    best = (score, b.orders)
        return None if best is None else best[1]


SHARED = SharedStrategy()
"""The bots' play of every edition without a strategy of its own."""


def strategy_of(edition: Edition):
    """The strategy the bots play ``edition`` with: its own (its strategy facet,
    :class:`~pbem.kernel.protocols.BotStrategy`), else :data:`SHARED`."""
    return edition.strategy or SHARED


def play_turn(game, mode: str = "random", nation: str | None = None) -> dict[str, Any]:
    """Canonical orders (without password) for the active nation's turn of ``game``
    (anything with ``state``, ``edition``, ``board`` and ``seed``) by the bot ``mode``
    (:data:`MODES`, or ``quick``: the greedy bot as the searching bot's look-ahead plays
    it, the strategy's cheaper ``quick_turn`` where it has one)."""
    nation = nation or game.state.status.active
    game = seen_by(game, nation)
    rng = rng_for(game, nation, "greedy" if mode == "quick" else mode)
    choices = [t for t in queries.rondel_targets(game.state, game.edition, nation) if t.affordable]
    if mode == "random":
        free = [t for t in choices if t.cost == 0]
        pool = free if free and rng.random() < 0.8 else choices
        rng.shuffle(pool)
        for tg in pool:
            b = Builder(game, nation, tg.order)
            if b.ok:
                _fill(b, rng, eager=0.6, greedy=rng.random() < 0.3)
                return b.orders
    elif mode in ("greedy", "quick"):
        strategy = strategy_of(game.edition)
        # a strategy may play the searching bot's look-ahead (``quick``) more cheaply
        turn = getattr(strategy, "quick_turn", strategy.greedy_turn) if mode == "quick" else strategy.greedy_turn
        orders = turn(game, nation, rng, choices, lambda rondel: Builder(game, nation, rondel), SHARED)
        if orders is not None:
            return orders
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
    b = Builder(seen_by(game, nation), nation, rondel)
    if not b.ok:
        return None
    _fill(b, rng, eager, greedy, march)
    return b.orders


# -- what the bot reads ---------------------------------------------------------------

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
    ``game`` itself. One with secrets (cards in a hand or a deck) shows its player view
    (what the nation may not see is ``"?"``), and the bot's generator is seeded by the game's id
    instead of its seed, which a player's copy does not hold (D18 in docs/rulings.md)."""
    edition = game.edition
    if not edition.secrets:
        return game
    return Seen(edition.secrets.player_view(game.state, nation), edition, game.board, f"game {game.game_id}",
                game.game_id)


def _random_moves(b: Builder, rng: random.Random, eager: float) -> None:
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
