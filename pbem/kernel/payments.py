"""Paying costs: check a spelled-out payment, or make one up by D7 (docs/rulings.md).

A cost is either *typed* (``{"marble": 5}``: each chip only for its own type, coins for
any of them, 000 L293-294) or *any* (``n`` resources of the payer's choice, the rondel's
extra steps, 000 L318-321).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.kernel.rejections import Rejection, reject
from pbem.kernel.state import NationState
from pbem.kernel.vocab import PAYMENT_KEYS, RESOURCES


@dataclass(frozen=True, slots=True)
class Cost:
    """What is owed: typed chips, or ``any`` resources of free choice."""

    typed: tuple[tuple[str, int], ...] = ()
    any: int = 0
    spare: str | None = None
    """For "any" costs: the chip type to keep on a tie (the one the coming action uses)."""
    coins: int = 0
    """Coins owed as coins, which no chip may stand in for (an edition's surcharges
    for neighbouring cities and temples, docs/rulings.md Q13)."""

    @classmethod
    def of(cls, **chips: int) -> Cost:
        return cls(tuple((r, chips[r]) for r in RESOURCES if chips.get(r)))

    @property
    def total(self) -> int:
        return self.any + self.coins + sum(n for _, n in self.typed)

    def times(self, k: int) -> Cost:
        return Cost(tuple((r, n * k) for r, n in self.typed), self.any * k, self.spare, self.coins * k)

    def plus_coins(self, n: int) -> Cost:
        """This cost and ``n`` coins more, to be paid as coins."""
        return Cost(self.typed, self.any, self.spare, self.coins + n)


def _tidy(pay: dict[str, int]) -> dict[str, int]:
    return {k: pay[k] for k in PAYMENT_KEYS if pay.get(k)}


def default_payment(ns: NationState, cost: Cost) -> dict[str, int] | None:
    """D7: exact chips first, coins for a shortfall; for "any", the chip held most, coins last.

    Ties among the chips held most go marble, iron, gold, except that ``cost.spare`` (the
    chip the coming action needs) is kept when another type is held as often.

    Returns ``None`` when the nation cannot pay at all.
    """
    pay = {k: 0 for k in PAYMENT_KEYS}
    pay["coin"] = cost.coins
    for chip, need in cost.typed:
        use = min(ns.resources[chip], need)
        pay[chip] += use
        pay["coin"] += need - use
    left = {r: ns.resources[r] - pay[r] for r in RESOURCES}
    for _ in range(cost.any):
        best = max(RESOURCES, key=lambda r: (left[r], r != cost.spare, -RESOURCES.index(r)))
        if left[best] > 0:
            left[best] -= 1
            pay[best] += 1
        else:
            pay["coin"] += 1
    if pay["coin"] > ns.coins:
        return None
    return _tidy(pay)


def describe_cost(cost: Cost) -> str:
    """A cost as a player reads it: ``5 marble``, ``2 resources of any kind``."""
    parts = [f"{n} {chip}" for chip, n in cost.typed]
    if cost.any:
        parts.append(f"{cost.any} resource{'s' if cost.any != 1 else ''} of any kind")
    if cost.coins:
        parts.append(f"{cost.coins} coin{'s' if cost.coins != 1 else ''}")
    return " and ".join(parts) or "nothing"


def describe_payment(pay: dict[str, int]) -> str:
    """A payment as a player reads it: ``1 iron and 2 coins``."""
    parts = [f"{n} {chip}" + ("s" if chip == "coin" and n != 1 else "") for chip, n in pay.items() if n]
    return " and ".join(parts) or "nothing"


def describe_holdings(ns: NationState) -> str:
    """What a nation holds to pay with: ``0 marble, 1 iron, 2 gold, 3 coins``."""
    coins = f"{ns.coins} coin{'s' if ns.coins != 1 else ''}"
    return ", ".join([*(f"{ns.resources[r]} {r}" for r in RESOURCES), coins])


def check_payment(ns: NationState, nation: str, cost: Cost, pay: dict[str, int] | None,
                  what: str, path: str) -> tuple[dict[str, int] | None, list[Rejection]]:
    """Validate ``pay`` (or make up the default) for ``cost``; return it and any rejections.

    Every refusal says what the whole thing costs and what the nation holds, so that a
    player can write a payment that works without looking anything up.
    """
    holds = describe_holdings(ns)
    if pay is None:
        made = default_payment(ns, cost)
        if made is None:
            held = ns.coins + sum(
                min(ns.resources[c], n) for c, n in cost.typed) + (sum(ns.resources.values()) if cost.any else 0)
            return None, [reject("pay/cannot-afford", path, what=what, cost=cost.total, nation=nation, held=held,
                                 spelled=describe_cost(cost), holds=holds)]
        return made, []
    out: list[Rejection] = []
    paid = sum(pay.values())
    if paid != cost.total:
        out.append(reject("pay/wrong-total", f"{path}.pay", what=what, cost=cost.total, paid=paid,
                          spelled=describe_cost(cost)))
    if cost.coins and pay.get("coin", 0) < cost.coins:
        out.append(reject("pay/coins-only", f"{path}.pay.coin", what=what, coins=cost.coins,
                          paid=pay.get("coin", 0)))
    if not cost.any:
        typed = dict(cost.typed)
        for chip in RESOURCES:
            if pay.get(chip, 0) > typed.get(chip, 0):
                if chip in typed:
                    out.append(reject("pay/too-many", f"{path}.pay.{chip}", what=what, need=typed[chip], chip=chip))
                else:
                    out.append(reject("pay/wrong-chip", f"{path}.pay.{chip}", what=what, chip=chip))
    for chip in PAYMENT_KEYS:
        need = pay.get(chip, 0)
        held = ns.coins if chip == "coin" else ns.resources[chip]
        if need > held:
            out.append(reject("pay/not-enough", f"{path}.pay.{chip}", what=what, nation=nation,
                              held=held, chip=chip, need=need, spelled=describe_cost(cost), holds=holds))
    return (None, out) if out else (_tidy(pay), [])


def spend(ns: NationState, pay: dict[str, int]) -> int:
    """Take a checked payment from the nation; return the coins paid (they go to the bank)."""
    for chip in RESOURCES:
        ns.resources[chip] -= pay.get(chip, 0)
    ns.coins -= pay.get("coin", 0)
    return pay.get("coin", 0)
