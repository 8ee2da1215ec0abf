"""One plain sentence per event: the turn log shared by every report format.

``event_line(ev)`` names nations and provinces by their ids (``check`` and ``process``
print it); reports pass ``name`` and ``place`` to use display names instead.
"""

from __future__ import annotations

from typing import Any, Callable

from pbem.kernel.vocab import PAYMENT_KEYS

Namer = Callable[[str], str]


def _same(x: str) -> str:
    return x


def _pay(paid: dict[str, int] | None) -> str:
    """A payment in words, chips before coins (``1 iron, 2 coins``) whatever order the dict
    has: events read back from a game file have their keys sorted."""
    if not paid:
        return "free"
    return ", ".join(f"{paid[k]} {k}{'s' if k == 'coin' and paid[k] != 1 else ''}"
                     for k in PAYMENT_KEYS if paid.get(k))


def standing_text(change: dict[str, Any], name: Namer = _same) -> str:
    """Standing orders (or a change to them) in words: ``battle: home, Persians always; ...``."""
    parts = []
    if "battle" in change:
        battle = change["battle"]
        stances = [battle["default"]] if "default" in battle else []
        stances += [f"{name(k)} {v}" for k, v in sorted(battle.items()) if k != "default"]
        parts.append("battle: " + ", ".join(stances))
    if "bonus_stack" in change:
        parts.append("bonus stack: " + " > ".join(change["bonus_stack"]))
    if "coin_substitute" in change:
        parts.append("coin substitute: " + change["coin_substitute"])
    return "; ".join(parts) or "no change"


def event_line(ev: dict[str, Any], name: Namer = _same, place: Namer = _same) -> str:
    """A short English sentence for one event.

    ``name`` turns a nation id into the name shown, ``place`` a province id.
    """
    n = name(ev["nation"]) if ev.get("nation") else ""
    kind = ev["type"]
    if kind == "round":
        return f"Round {ev['round']} begins"
    if kind == "coin":
        return f"{n} receive a coin" if ev["coin"] else f"{n} take 1 {ev['instead']} (the bank has no coins)"
    if kind == "rondel":
        where = "place their stone on" if ev["first"] else f"move {ev['steps']} step(s) to"
        return f"{n} {where} {ev['wedge'].upper()} (paid: {_pay(ev['paid'])})"
    if kind == "produce":
        return f"{n} produce {ev['amount']} {ev['resource']}"
    if kind == "temple":
        return f"{n} build a temple in {place(ev['city'])} (paid: {_pay(ev['paid'])})"
    if kind == "arm":
        return f"{n} arm {ev['count']} {ev['unit']}(s) in {place(ev['at'])} (paid: {_pay(ev['paid'])})"
    if kind == "knowhow":
        first = ", first to do so" if ev["first"] else ""
        return f"{n} acquire {ev['name'].upper()} for {ev['price']} gold{first} (paid: {_pay(ev['paid'])})"
    if kind == "trade":
        return f"{n} trade {_pay(ev['give'])} for 1 {ev['get']}"
    if kind == "found":
        return f"{n} found a city in {place(ev['city'])} (paid: {_pay(ev['paid'])})"
    if kind == "move":
        route = " → ".join(place(p) for p in [ev["from"], *ev["path"]])
        lost = ev["count"] - ev["arrived"]
        tail = f", {lost} lost on the way" if lost else ""
        return f"{n} move {ev['count']} {ev['unit']}(s) {route}{tail}"
    if kind == "battle":
        who = "demand" if ev["started_by"] != ev["nation"] else "start"
        starter = name(ev["started_by"])
        return (f"battle in {place(ev['at'])}: {starter} {who} it; {n} and {name(ev['against'])} each lose "
                f"{ev['count']} {ev['unit']}(s)")
    if kind == "conquer":
        used = ", ".join(f"{c} {u}(s)" for u, c in ev["used"].items() if c)
        temple = ", destroying its temple" if ev["temple_destroyed"] else ""
        give = f", giving up {place(ev['give_up'])}" if ev.get("give_up") else ""
        return (f"{n} conquer {place(ev['city'])} from {name(ev['defender'])} "
                f"(defence {ev['defence']}, using {used}){temple}{give}")
    if kind == "personage":
        return f"{n} win a {ev['personage']} ({ev['reason']})"
    if kind == "personage-missed":
        return f"{n} earn a {ev['personage']} ({ev['reason']}), but the stack is empty"
    if kind == "won":
        why = f" ({ev['reason']})" if ev.get("reason") else ""
        return f"{n} WIN the game with {ev['score']} of {ev['goal']}{why}"
    if kind == "standing":
        return f"{n} change their standing orders: {standing_text(ev['standing'], name)}"
    if kind == "player-replaced":
        who = ev.get("player") or "a new player"
        return f"{n} are now played by {who} (the GM replaced the player)"
    return f"{kind}: {ev}"
