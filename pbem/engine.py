"""The referee's core: apply one order file to a game state. Pure: no files, clock or printing.

:func:`apply_orders` runs the order script step by step on a copy of the state. Either
every step is legal and the new state, the events and the canonical echo come back, or
:class:`pbem.errors.Refused` is raised with **every** problem found (RULINGS.md, "Orders
are all-or-nothing"). An illegal step is skipped and the simulation goes on, so later
problems are reported too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem import passwords
from pbem.bank import start_round
from pbem.errors import Refused
from pbem.game import Game
from pbem.orders import ACTION_KEYS
from pbem.payments import Cost, check_payment, spend
from pbem.rejections import Rejection, reject
from pbem.state import GameState
from pbem.personages import end_of_turn
from pbem.vocab import RESOURCES, RONDEL, UNITS


@dataclass
class Turn:
    """The working context of one turn: the state copy, what happened, what went wrong."""

    game: Game
    state: GameState
    nation: str
    events: list[dict[str, Any]] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    firsts: list[str] = field(default_factory=list)
    """Know-hows this nation acquired first this turn (a scholar each)."""
    temples_destroyed: int = 0
    """Temples this nation destroyed this turn (a general each)."""

    @property
    def rules(self):
        return self.game.rules

    @property
    def board(self):
        return self.game.board

    @property
    def ns(self):
        return self.state.nations[self.nation]

    def fail(self, rejection: Rejection) -> None:
        self.rejections.append(rejection)

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, "nation": self.nation, **data})

    def pay(self, cost: Cost, pay: dict | None, what: str, path: str) -> dict | None:
        """Check and take a payment; ``None`` (and a rejection) if it cannot be made."""
        made, problems = check_payment(self.ns, self.nation, cost, pay, what, path)
        if problems:
            self.rejections.extend(problems)
            return None
        self.state.bank.coins += spend(self.ns, made)
        return made


@dataclass(frozen=True, slots=True)
class TurnResult:
    """A legal turn: the state after it, its events, and the canonical echo of the orders."""

    state: GameState
    events: list[dict[str, Any]]
    echo: dict[str, Any]
    kind: str
    """``turn`` for a rondel turn, ``standing`` for a standing-orders-only file."""


def public_echo(orders: dict[str, Any]) -> dict[str, Any]:
    """The orders as echoed and stored: canonical, and never with the password."""
    return {k: v for k, v in orders.items() if k != "password"}


def _header(game: Game, orders: dict[str, Any], trusted: bool = False) -> list[Rejection]:
    """Whole-file checks: game, nation, turn, password, finished game."""
    st = game.state
    out: list[Rejection] = []
    if orders["game"] != game.game_id:
        out.append(reject("orders/wrong-game", "$.game", got=orders["game"], want=game.game_id))
    nation = orders["nation"]
    if nation not in st.nations:
        return out + [reject("orders/unknown-nation", "$.nation", nation=nation)]
    if not trusted and not passwords.verify(orders.get("password", ""), game.meta[nation].password):
        out.append(reject("orders/wrong-password", "$.password", nation=nation))
    if st.status.winner is not None:
        code = "orders/game-over" if "rondel" in orders else "standing/game-over"
        out.append(reject(code, "$", winner=st.status.winner))
        return out
    if "rondel" in orders:
        if nation != st.status.active:
            out.append(reject("orders/wrong-nation", "$.nation", active=st.status.active, nation=nation))
        if "turn" not in orders:
            out.append(reject("orders/missing-turn", "$", want=st.status.turn))
        elif orders["turn"] != st.status.turn:
            out.append(reject("orders/wrong-turn", "$.turn", got=orders["turn"], want=st.status.turn))
    return out


def apply_orders(game: Game, orders: dict[str, Any], trusted: bool = False) -> TurnResult:
    """Apply canonical ``orders`` to ``game``; raise :class:`Refused` with every problem."""
    problems = _header(game, orders, trusted)
    if problems:
        raise Refused(problems)
    t = Turn(game, game.state.copy(), orders["nation"])
    echo = public_echo(orders)
    if "rondel" not in orders:
        stray = [k for k in (*ACTION_KEYS.values(), "trade", "found") if k in orders]
        for key in stray:
            t.fail(reject("orders/action-without-rondel", f"$.{key}", key=key))
        _check_standing(t, orders.get("standing", {}))
        if t.rejections:
            raise Refused(t.rejections)
        _standing(t, orders.get("standing", {}))
        return TurnResult(t.state, t.events, echo, "standing")

    if "trade" in orders:
        _trades(t, orders["trade"])
    echo["rondel"], wedge = _rondel(t, orders["rondel"])
    _action(t, wedge, orders, echo)
    if "found" in orders:
        echo["found"] = _found(t, orders["found"])
    _check_standing(t, orders.get("standing", {}))
    if t.rejections:
        raise Refused(t.rejections)
    end_of_turn(t)
    _advance(t)
    # Standing orders change after everything this file sets off, including the round
    # start it may trigger (RULINGS.md: "from the next event after the file").
    _standing(t, orders.get("standing", {}))
    return TurnResult(t.state, t.events, echo, "turn")


def _check_standing(t: Turn, change: dict[str, Any]) -> None:
    """Battle stances may name only rival nations of this game."""
    for rival in change.get("battle", {}):
        if rival == "default":
            continue
        if rival == t.nation:
            t.fail(reject("standing/self", f"$.standing.battle.{rival}"))
        elif rival not in t.state.nations:
            t.fail(reject("standing/unknown-nation", f"$.standing.battle.{rival}", nation=rival))


def _standing(t: Turn, change: dict[str, Any]) -> None:
    """Standing orders change after the turn (RULINGS.md: 'from the next event')."""
    if not change:
        return
    from pbem.edit import merge_standing

    merge_standing(t.state.standing[t.nation], change)
    t.emit("standing", standing=change)


def _trades(t: Turn, trades: list[dict[str, Any]]) -> None:
    """All-eight bank trade, 2 chips for 1, before the rondel move (RULINGS.md; 000 L512-514)."""
    if len(t.ns.knowhow) < len(t.rules.knowhows):
        t.fail(reject("trade/not-allowed", "$.trade", nation=t.nation, owned=len(t.ns.knowhow)))
        return
    for i, trade in enumerate(trades):
        path = f"$.trade[{i}]"
        given = sum(trade["give"].values())
        if given != 2:
            t.fail(reject("trade/ratio", f"{path}.give", given=given))
            continue
        short = [c for c, n in trade["give"].items() if t.ns.resources[c] < n]
        for chip in short:
            t.fail(reject("trade/not-enough", f"{path}.give.{chip}", nation=t.nation,
                          held=t.ns.resources[chip], chip=chip, give=trade["give"][chip]))
        if short:
            continue
        for chip, n in trade["give"].items():
            t.ns.resources[chip] -= n
        t.ns.resources[trade["get"]] += 1
        t.emit("trade", give=dict(trade["give"]), get=trade["get"])


ACTION_CHIP = {"temple": "marble", "arming": "iron", "knowhow": "gold"}
"""The chip each using wedge spends (000 L447-451: opposite its production wedge)."""


def rondel_target(current: int | None, move: dict[str, Any]) -> tuple[int | None, int, Rejection | None]:
    """Where a rondel move lands: (index, steps, problem).

    ``maneuver`` means the nearer MANEUVER wedge clockwise; ``steps`` picks either one
    explicitly. On a nation's first move the stone is placed anywhere: then ``steps``
    counts from IRON (index 0), so ``{"to": "maneuver", "steps": 7}`` is the second
    MANEUVER wedge (docs/rulings.md).
    """
    to = move["to"]
    origin = 0 if current is None else current
    if "steps" in move:
        steps = move["steps"]
        lands = (origin + steps) % 8
        if current is None and steps == 8:
            lands = 0
        if RONDEL[lands] != to:
            return None, steps, reject("rondel/wrong-steps", "$.rondel.steps", steps=steps,
                                       start=RONDEL[origin].value if current is not None else "iron (first move)",
                                       to=to, lands=RONDEL[lands].value)
        return lands, steps, None
    if current is None:
        return RONDEL.index(to), 0, None
    for steps in range(1, 9):
        lands = (current + steps) % 8
        if RONDEL[lands] == to:
            return lands, steps, None
    raise AssertionError("every wedge is reachable")


def _rondel(t: Turn, move: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Move the stone and pay for the extra steps (000 L312-326; RULINGS.md Rondel).

    Returns the echo and the wedge aimed at, so that the action is still checked (and its
    problems reported) when the move itself is refused.
    """
    ns = t.ns
    current = ns.rondel
    target, steps, problem = rondel_target(current, move)
    echo = dict(move)
    if problem:
        t.fail(problem)
        return echo, move["to"]
    first = current is None
    cost = 0 if first else max(0, steps - t.rules.free_steps)
    # Canonical key order: to, steps, pay. A first move shows ``steps`` only when given
    # (they pick the second MANEUVER wedge), so that replaying the echo lands the same.
    echo = {"to": move["to"]}
    if not first or "steps" in move:
        echo["steps"] = steps
    what = "the first rondel move" if first else f"a rondel move of {steps} steps"
    if cost == 0 and move.get("pay") and sum(move["pay"].values()):
        t.fail(reject("pay/wrong-total", "$.rondel.pay", what=what, cost=0,
                      paid=sum(move["pay"].values())))
        return echo, move["to"]
    paid: dict = {}
    if cost:
        spare = ACTION_CHIP.get(RONDEL[target].value)
        made = t.pay(Cost(any=cost, spare=spare), move.get("pay"), what, "$.rondel")
        if made is None:
            return echo, move["to"]
        paid = made
    echo["pay"] = paid
    ns.rondel = target
    t.emit("rondel", **{"from": current}, to=target, wedge=RONDEL[target].value,
           steps=steps, paid=paid, first=first)
    return echo, move["to"]


def _action(t: Turn, wedge: str | None, orders: dict[str, Any], echo: dict[str, Any]) -> None:
    """Carry out the chosen wedge's action; other action keys do not fit the wedge."""
    allowed = ACTION_KEYS.get(wedge)
    for key in ACTION_KEYS.values():
        if key in orders and key != allowed:
            t.fail(reject("orders/wrong-action", f"$.{key}", key=key, wedge=wedge or "chosen"))
    if wedge in RESOURCES:
        produce(t, wedge)
    elif wedge == "temple" and "temples" in orders:
        echo["temples"] = _temples(t, orders["temples"])
    elif wedge == "arming" and "arm" in orders:
        echo["arm"] = _arm(t, orders["arm"])
    elif wedge == "knowhow" and "knowhow" in orders:
        echo["knowhow"] = _knowhow(t, orders["knowhow"])
    elif wedge == "maneuver" and "maneuver" in orders:
        from pbem.maneuver import run_maneuver

        echo["maneuver"] = run_maneuver(t, orders["maneuver"])


def production(game: Game, state: GameState, nation: str, resource: str) -> int:
    """1 per city of that type, 3 with a temple, plus the best MARKET/CURRENCY bonus.

    000 L360-362 and L542-545; the bonus applies even with no such city (rules-digest Q8).
    """
    rules = game.rules
    amount = 0
    for pid, prov in state.provinces.items():
        if prov.owner == nation and game.board.province(pid).resource == resource:
            amount += rules.production_per_temple_city if prov.temple else rules.production_per_city
    owned = state.nations[nation].knowhow
    amount += max((b for k, b in rules.production_bonus.items() if k in owned), default=0)
    return amount


def produce(t: Turn, resource: str) -> None:
    amount = production(t.game, t.state, t.nation, resource)
    t.ns.resources[resource] += amount
    t.emit("produce", resource=resource, amount=amount)


def _temples(t: Turn, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Build temples: 5 marble each, one per own city, from the bank's 20 (000 L390-404)."""
    echo = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        path = f"$.temples[{i}]"
        city = entry["city"]
        out = dict(entry)
        echo.append(out)
        prov = t.state.provinces.get(city)
        if city in seen:
            t.fail(reject("temple/twice", f"{path}.city", city=city))
            continue
        seen.add(city)
        if prov is None or prov.owner != t.nation:
            t.fail(reject("temple/not-own-city", f"{path}.city", city=city, nation=t.nation))
            continue
        if prov.temple:
            t.fail(reject("temple/already", f"{path}.city", city=city))
            continue
        if t.state.bank.temples <= 0:
            t.fail(reject("temple/bank-empty", f"{path}.city"))
            continue
        paid = t.pay(Cost.of(marble=t.rules.temple_marble), entry.get("pay"), f"a temple in {city}", path)
        if paid is None:
            continue
        out["pay"] = paid
        t.state.bank.temples -= 1
        prov.temple = True
        t.emit("temple", city=city, paid=paid)
    return echo


def _arm(t: Turn, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Arm units: 1 iron each, at most 1 per own city (3 with a temple), within the caps.

    000 L407-428: galleys only where a sea border exists, legions only where a land
    border exists; foreign units do not block arming.
    """
    echo = []
    used: dict[str, int] = {}
    for i, entry in enumerate(entries):
        path = f"$.arm[{i}]"
        unit, at, count = entry["unit"], entry["at"], entry["count"]
        out = dict(entry)
        echo.append(out)
        prov = t.state.provinces.get(at)
        if prov is None or prov.owner != t.nation:
            t.fail(reject("arm/not-own-city", f"{path}.at", at=at, nation=t.nation))
            continue
        if not t.board.can_arm(at, unit):
            t.fail(reject("arm/wrong-terrain", f"{path}.unit", unit=unit, at=at,
                          kind=t.board.province(at).kind.replace("_", "-")))
            continue
        limit = t.rules.arm_per_temple_city if prov.temple else t.rules.arm_per_city
        if used.get(at, 0) + count > limit:
            t.fail(reject("arm/limit", f"{path}.count", at=at, limit=limit, asked=used.get(at, 0) + count))
            continue
        left = t.rules.unit_cap - t.state.units_on_board(t.nation, unit)
        if count > left:
            t.fail(reject("arm/no-stock", f"{path}.count", nation=t.nation, left=left, unit=unit, asked=count))
            continue
        paid = t.pay(Cost.of(iron=t.rules.arming_iron).times(count), entry.get("pay"),
                     f"{count} {unit}(s) in {at}", path)
        if paid is None:
            continue
        out["pay"] = paid
        used[at] = used.get(at, 0) + count
        prov.add(t.nation, unit, count)
        t.emit("arm", unit=unit, at=at, count=count, paid=paid)
    return echo


def _knowhow(t: Turn, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buy know-hows in order, with gold (000 L461-497): 7/3 basic, 10/5 secondary."""
    echo = []
    named: list[str] = []
    for i, entry in enumerate(entries):
        path = f"$.knowhow[{i}]"
        name = entry["name"]
        out = dict(entry)
        echo.append(out)
        spec = t.rules.knowhows[name]
        earlier = list(named)
        named.append(name)
        if name in earlier:
            t.fail(reject("knowhow/twice", f"{path}.name", name=name))
            continue
        if name in t.ns.knowhow:
            t.fail(reject("knowhow/owned", f"{path}.name", nation=t.nation, name=name))
            continue
        # A basic named earlier in the list is not missing: its own problem, if any, is
        # reported there, and this entry is still priced and checked.
        if spec.requires and spec.requires not in t.ns.knowhow and spec.requires not in earlier:
            t.fail(reject("knowhow/needs", f"{path}.name", name=name, requires=spec.requires))
            continue
        owned_by_other = any(name in ns.knowhow for n, ns in t.state.nations.items() if n != t.nation)
        price = t.rules.knowhow_price(name, owned_by_other)
        paid = t.pay(Cost.of(gold=price), entry.get("pay"), f"{name} ({price} gold)", path)
        if paid is None:
            continue
        out["pay"] = paid
        t.ns.knowhow = sorted(t.ns.knowhow + [name])
        if not owned_by_other:
            t.firsts.append(name)
        t.emit("knowhow", name=name, price=price, paid=paid, first=not owned_by_other)
    return echo


def _found(t: Turn, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Found cities after the action (000 L336-345): own unit there, 1 marble + 1 iron + 1 gold."""
    echo = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        path = f"$.found[{i}]"
        city = entry["city"]
        out = dict(entry)
        echo.append(out)
        if not t.board.is_province(city):
            t.fail(reject("found/not-a-province", f"{path}.city", city=city))
            continue
        if city in seen:
            t.fail(reject("found/twice", f"{path}.city", city=city))
            continue
        seen.add(city)
        prov = t.state.provinces.get(city)
        if prov is not None and prov.owner is not None:
            t.fail(reject("found/occupied", f"{path}.city", city=city, owner=prov.owner))
            continue
        if prov is None or not any(prov.count(t.nation, u) for u in UNITS):
            t.fail(reject("found/no-unit", f"{path}.city", nation=t.nation, city=city))
            continue
        stones = len(t.state.cities(t.nation))
        if stones >= t.rules.city_stones:
            t.fail(reject("found/no-stone", f"{path}.city", nation=t.nation, stones=stones))
            continue
        paid = t.pay(Cost.of(**t.rules.found_cost), entry.get("pay"), f"a city in {city}", path)
        if paid is None:
            continue
        out["pay"] = paid
        prov.owner = t.nation
        t.emit("found", city=city, paid=paid)
    return echo


def _advance(t: Turn) -> None:
    """Pass the turn on; a new round starts eagerly with every nation's coin (RULINGS.md)."""
    status = t.state.status
    status.turn += 1
    if status.winner is not None:
        return
    order = t.game.turn_order()
    nxt = order[(order.index(t.nation) + 1) % len(order)]
    status.active = nxt
    if nxt == order[0]:
        status.round += 1
        start_round(t.state, order, t.events)


def process(game: Game, orders: dict[str, Any], trusted: bool = False,
            kind: str | None = None) -> tuple[Game, TurnResult]:
    """Apply orders and return the next :class:`Game` with its history entry appended.

    ``trusted`` skips the password (replay of stored orders, GM default turns); ``kind``
    overrides the entry's kind (``default-turn``).
    """
    from pbem import history

    result = apply_orders(game, orders, trusted)
    new = game.copy_with(result.state, list(game.history))
    body = {"kind": kind or result.kind, "nation": orders["nation"], "orders": result.echo,
            "events": result.events}
    if result.kind == "turn":
        body["turn"] = game.state.status.turn
    history.append(new, body)
    return new, result
