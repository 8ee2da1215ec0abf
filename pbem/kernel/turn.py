"""The referee's core: one order file applied to a game state. Pure.

:func:`resolve` takes a state, canonical orders, the edition and the board, and returns the
next state with its events and the canonical echo of the orders, or raises
:class:`pbem.errors.Refused` with **every** problem found (docs/rulings.md, "Orders are
all-or-nothing"). An illegal step is skipped and the simulation goes on, so later problems
are reported too. It reads no file, checks no password (who sent the orders is the game
service's question), writes no history and changes neither the state nor the orders it is
given.

A turn runs: the trades and edition steps marked ``before`` (the default), the rondel move,
those marked ``after_move``, the wedge's action (each wedge's action is the edition's,
:mod:`pbem.kernel.actions`), those marked ``after``, foundings, the edition's end-of-turn
steps (personages, the end of the game), passing the turn on (a new round starts eagerly),
and last the standing orders the file changes. Trades may be made "at any time" of one's own
turn (000 L512-514, L891-894; 003 L401; 001 L336), so each names its moment
(:data:`pbem.kernel.vocab.MOMENTS`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.errors import Refused
from pbem.kernel import actions
from pbem.kernel.payments import Cost, check_payment, describe_payment, spend
from pbem.kernel.rejections import CODES, Rejection, reject
from pbem.kernel.state import GameState, NationState, copy_json
from pbem.kernel.vocab import MOMENTS

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.chance import Chance
    from pbem.kernel.edition import Edition
    from pbem.kernel.rondel import Field
    from pbem.kernel.rules import RuleTable
    from pbem.kernel.state import Standing


@dataclass
class Turn:
    """The working context of one turn: the state copy, what happened, what went wrong."""

    state: GameState
    nation: str
    edition: Edition
    board: Board
    events: list[dict[str, Any]] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    firsts: list[str] = field(default_factory=list)
    """Know-hows this nation acquired first this turn."""
    temples_destroyed: int = 0
    """Temples this nation destroyed this turn."""
    produced: dict[str, int] = field(default_factory=dict)
    """Chips this nation produced this turn, by resource."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What an edition notes during the turn for its end-of-turn steps (an edition with
    town walls: the nations that lost a city)."""
    defaults: list[dict[str, str]] = field(default_factory=list)
    """Choices the orders left open and the referee made by a documented default:
    ``{"path": ..., "default": ...}``, said in the echo and the report."""
    start: GameState | None = None
    """The state as the turn began (never changed): what holds "since an earlier turn"
    (the know-hows a trade needs, 000 L512-514, 003 L401, 001 L336) is read there."""
    rondel_discount: int = 0
    """Steps this turn's rondel move costs less than the rondel says (an event card's free
    steps, played before the move)."""
    chance: Chance | None = None
    """Where a draw during this turn comes from when the game has a source of its own (a
    game without a game master: :mod:`pbem.kernel.chance`, whose answer may be pending);
    ``None``: the edition draws as it always has."""

    @property
    def rules(self) -> RuleTable:
        return self.edition.rules_for(self.state.table)

    @property
    def ns(self) -> NationState:
        return self.state.nation(self.nation)

    def fail(self, rejection: Rejection) -> None:
        self.rejections.append(rejection)

    def reject(self, code: str, path: str, **values: Any) -> None:
        """Record a problem by its code: the edition's own, or the kernel's in the edition's
        words (:attr:`Edition.wording <pbem.kernel.edition.Edition.wording>`) or its own.

        Ids of provinces, nations and know-hows among the values are shown by their display
        names (``Leptis Magna``, ``Phoenicians``, ``Wheel``), as the board and the report
        name them; anything else (an unknown name, a number) is shown as given.
        """
        shown = {key: self.display(value) for key, value in values.items()}
        edition = self.edition
        codes = edition.codes if code in edition.codes else edition.wording if code in edition.wording else CODES
        self.fail(reject(code, path, codes=codes, **shown))

    def display(self, value: Any) -> Any:
        """The display name of a province, nation or know-how id; other values unchanged."""
        if not isinstance(value, str):
            return value
        province = self.board.provinces.get(value)
        if province is not None:
            return province.name
        info = self.edition.nations.get(value)
        if info is not None:
            return info.name
        return self.edition.knowhows.get(value, value)

    def hint(self, name: str) -> str:
        """``" (did you mean Sparta (sparta)?)"`` for a name that is no province of the board
        (a misspelling), naming the closest provinces; ``""`` for a province."""
        return "" if self.board.is_province(name) else self.board.hint(name)

    def note_default(self, path: str, text: str) -> None:
        """Say that the referee chose for the player at ``path`` (and how, in ``text``)."""
        self.defaults.append({"path": path, "default": text})

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append({"type": kind, "nation": self.nation, **data})

    def produce(self, resource: str, amount: int) -> None:
        """The nation receives ``amount`` chips of ``resource`` as production."""
        self.ns.resources[resource] += amount
        self.produced[resource] = self.produced.get(resource, 0) + amount
        self.emit("produce", resource=resource, amount=amount)

    def pay(self, cost: Cost, pay: dict[str, int] | None, what: str, path: str) -> dict[str, int] | None:
        """Check and take a payment; ``None`` (and a rejection) if it cannot be made."""
        made, problems = check_payment(self.ns, self.display(self.nation), cost, pay, what, path)
        if problems:
            self.rejections.extend(problems)
            return None
        assert made is not None  # a payment without problems is made
        if pay is None and cost.total and (cost.any or made.get("coin", 0) > cost.coins):
            # A real choice was made: resources of any kind, or coins standing in for chips.
            self.note_default(f"{path}.pay", f"{what}: paid {describe_payment(made)} (no \"pay\" given: "
                                             "the chips the cost names first, then the chip held most, coins last)")
        self.state.bank.coins += spend(self.ns, made)
        return made


@dataclass(frozen=True, slots=True)
class TurnResult:
    """A legal order file: the state after it, its events, and the canonical echo."""

    state: GameState
    events: list[dict[str, Any]]
    echo: dict[str, Any]
    kind: str
    """``turn`` for a rondel turn, ``standing`` for a standing-orders-only file."""
    defaults: tuple[dict[str, str], ...] = ()
    """The defaults the referee applied (:meth:`Turn.note_default`)."""


def public_echo(orders: dict[str, Any]) -> dict[str, Any]:
    """The orders as echoed and stored: canonical, and never with the password. Its values
    are those of ``orders`` (:func:`resolve` works on a copy of its own)."""
    return {k: v for k, v in orders.items() if k != "password"}


def header_problems(state: GameState, orders: dict[str, Any]) -> list[Rejection]:
    """Whole-file checks but the password: game, nation, finished game, whose turn, turn number."""
    out: list[Rejection] = []
    if orders["game"] != state.table.game_id:
        out.append(reject("orders/wrong-game", "$.game", got=orders["game"], want=state.table.game_id))
    nation = orders["nation"]
    if nation not in state.nations:
        return out + [reject("orders/unknown-nation", "$.nation", nation=nation, playing=", ".join(state.nations))]
    status = state.status
    if status.winner is not None:
        code = "orders/game-over" if "rondel" in orders else "standing/game-over"
        return out + [reject(code, "$", winner=status.winner)]
    if "rondel" in orders:
        if nation != status.active:
            out.append(reject("orders/wrong-nation", "$.nation", active=status.active, nation=nation))
        if "turn" not in orders:
            out.append(reject("orders/missing-turn", "$", want=status.turn))
        elif orders["turn"] != status.turn:
            out.append(reject("orders/wrong-turn", "$.turn", got=orders["turn"], want=status.turn))
    return out


def resolve(state: GameState, orders: dict[str, Any], edition: Edition, board: Board,
            owned: bool = False, chance: Chance | None = None) -> TurnResult:
    """Apply canonical ``orders`` to ``state``; raise :class:`Refused` with every problem.

    The echo is built from a copy of ``orders``; a caller that hands over orders made for
    this call alone (``owned``, a replay's freshly canonicalised entry) saves the copy.
    ``chance``: the game's source of draws, if it has one (:attr:`Turn.chance`)."""
    problems = header_problems(state, orders)
    if problems:
        raise Refused(problems)
    if not owned:
        orders = copy_json(orders)
    t = Turn(state.copy(), orders["nation"], edition, board, start=state, chance=chance)
    echo = public_echo(orders)
    standing = orders.get("standing", {})
    if "rondel" not in orders:
        for key in (*edition.action_keys, *edition.turn_keys, "trade", "found"):
            if key in orders:
                t.reject("orders/action-without-rondel", f"$.{key}", key=key)
        _check_standing(t, standing)
        if t.rejections:
            raise Refused(t.rejections)
        _change_standing(t, standing)
        return TurnResult(t.state, t.events, echo, "standing")

    rates = _trade_rates(t, orders)
    _moment(t, MOMENTS[0], orders, echo, rates)
    echo["rondel"], field_ = _rondel(t, orders["rondel"])
    _moment(t, MOMENTS[1], orders, echo, rates)
    _action(t, field_, orders, echo)
    edition.turn.after_action(t, field_)
    _moment(t, MOMENTS[2], orders, echo, rates)
    if "found" in orders:
        echo["found"] = actions.found(t, orders["found"])
    _check_standing(t, standing)
    if t.rejections:
        raise Refused(t.rejections)
    edition.turn.end_of_turn(t)
    _advance(t)
    # Standing orders change after everything this file sets off, including the round
    # start it may trigger (docs/rulings.md: "from the next event after the file").
    _change_standing(t, standing)
    return TurnResult(t.state, t.events, echo, "turn", tuple(t.defaults))


def _trade_rates(t: Turn, orders: dict[str, Any]) -> dict[int, int] | None:
    """The trades the nation may make this turn, chips given -> chips received, as its
    know-hows allow at the start of the turn (never one acquired in it: Q25, Q31 in
    docs/rulings.md); ``None`` (and the rejection) when it may not trade and trades."""
    if not orders.get("trade"):
        return None
    rates, problem = t.edition.turn.trade_rates(t.start or t.state, t.nation)
    if problem is not None:
        t.fail(problem)
        return None
    return rates


def _moment(t: Turn, when: str, orders: dict[str, Any], echo: dict[str, Any], rates: dict[int, int] | None) -> None:
    """What the orders do at the moment ``when`` of the turn: their trades of that moment,
    then the edition's own steps (an edition with event cards plays them)."""
    if rates is not None:
        actions.trade(t, orders["trade"], rates, when)
    t.edition.turn.at_moment(t, when, orders, echo)


def _check_standing(t: Turn, change: dict[str, Any]) -> None:
    """Battle stances may name only rival nations of this game."""
    for rival in change.get("battle", {}):
        if rival == "default":
            continue
        if rival == t.nation:
            t.reject("standing/self", f"$.standing.battle.{rival}")
        elif rival not in t.state.nations:
            t.reject("standing/unknown-nation", f"$.standing.battle.{rival}", nation=rival,
                     playing=", ".join(t.state.nations))


def merge_standing(current: Standing, change: dict[str, Any]) -> None:
    """Apply a (canonical) ``standing`` change to a nation's standing orders."""
    for key, value in change.items():
        if key == "battle":
            current.battle.update(value)
        elif key == "bonus_stack":
            current.bonus_stack = list(value)
        elif key == "coin_substitute":
            current.coin_substitute = value
        else:
            current.extra[key] = copy_json(value)


def _change_standing(t: Turn, change: dict[str, Any]) -> None:
    """Standing orders change after the turn (docs/rulings.md: 'from the next event')."""
    if not change:
        return
    merge_standing(t.state.standing_to_change(t.nation), change)
    t.emit("standing", standing=change)


def _rondel(t: Turn, move: dict[str, Any]) -> tuple[dict[str, Any], Field]:
    """Move the stone and pay for the extra steps (000 L312-326; docs/rulings.md Rondel).

    Returns the echo and the field aimed at, so that the action is still checked, and its
    problems reported, when the move is refused (with wrong ``steps``: the first field of
    the wedge named).
    """
    rondel = t.edition.rondel
    current = t.ns.rondel
    target, steps, problem = rondel.target(current, move)
    echo = dict(move)
    if problem:
        t.fail(problem)
        to = rondel.canonical(move["to"])
        assert to is not None  # the orders are canonical: Rondel.target checked the wedge
        return echo, rondel[rondel.first_index(to)]
    assert target is not None  # a move without a problem lands
    field_ = rondel[target]
    landing = rondel.landing(current, target)
    # Canonical key order: to, steps, pay. A first move shows ``steps`` only when given
    # (they pick between fields of the same name), so that replaying the echo lands the same.
    echo = {"to": rondel.canonical(move["to"])}  # an alias (classic's "arming") echoes as the edition's name
    if not landing.first or "steps" in move:
        echo["steps"] = steps
    what = "the first rondel move" if landing.first else f"a rondel move of {steps} steps"
    cost = max(0, landing.cost - t.rondel_discount)
    if cost < landing.cost:
        what += f" ({min(landing.cost, t.rondel_discount)} of them free by an event card)"
    if cost == 0 and move.get("pay") and sum(move["pay"].values()):
        t.reject("pay/wrong-total", "$.rondel.pay", what=what, cost=0, paid=sum(move["pay"].values()),
                 spelled="nothing")
        return echo, field_
    paid: dict[str, int] = {}
    if cost:
        made = t.pay(Cost(any=cost, spare=field_.action.spends), move.get("pay"), what, "$.rondel")
        if made is None:
            return echo, field_
        paid = made
    echo["pay"] = paid
    t.ns.rondel = target
    t.emit("rondel", **{"from": current}, to=target, wedge=field_.name,
           steps=steps, paid=paid, first=landing.first)
    return echo, field_


def _action(t: Turn, field_: Field, orders: dict[str, Any], echo: dict[str, Any]) -> None:
    """Carry out the chosen field's action; action keys of other wedges do not fit it."""
    for key in t.edition.action_keys:
        if key in orders and key not in field_.action.keys:
            t.reject("orders/wrong-action", f"$.{key}", key=key, wedge=orders["rondel"]["to"])
    field_.action.run(t, orders, echo)


def _advance(t: Turn) -> None:
    """Pass the turn on; a new round starts eagerly (docs/rulings.md)."""
    status = t.state.status
    status.turn += 1
    if status.winner is not None:
        return
    order = t.state.table.turn_order()
    nxt = order[(order.index(t.nation) + 1) % len(order)]
    status.active = nxt
    if nxt == order[0]:
        status.round += 1
        t.edition.turn.start_round(t.state, t.events)
