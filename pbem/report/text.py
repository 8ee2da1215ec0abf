"""One plain sentence per event: the turn log shared by every report format."""

from __future__ import annotations

from typing import Any


def _pay(paid: dict[str, int] | None) -> str:
    if not paid:
        return "free"
    return ", ".join(f"{n} {k}{'s' if k == 'coin' and n != 1 else ''}" for k, n in paid.items())


def event_line(ev: dict[str, Any]) -> str:
    """A short English sentence for one event."""
    n = ev.get("nation", "")
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
        return f"{n} build a temple in {ev['city']} (paid: {_pay(ev['paid'])})"
    if kind == "arm":
        return f"{n} arm {ev['count']} {ev['unit']}(s) in {ev['at']} (paid: {_pay(ev['paid'])})"
    if kind == "knowhow":
        first = ", first to do so" if ev["first"] else ""
        return f"{n} acquire {ev['name'].upper()} for {ev['price']} gold{first} (paid: {_pay(ev['paid'])})"
    if kind == "trade":
        return f"{n} trade {_pay(ev['give'])} for 1 {ev['get']}"
    if kind == "found":
        return f"{n} found a city in {ev['city']} (paid: {_pay(ev['paid'])})"
    if kind == "move":
        route = " → ".join([ev["from"], *ev["path"]])
        lost = ev["count"] - ev["arrived"]
        tail = f", {lost} lost on the way" if lost else ""
        return f"{n} move {ev['count']} {ev['unit']}(s) {route}{tail}"
    if kind == "battle":
        who = "demand" if ev["started_by"] != n else "start"
        starter = ev["started_by"]
        return (f"battle in {ev['at']}: {starter} {who} it; {n} and {ev['against']} each lose "
                f"{ev['count']} {ev['unit']}(s)")
    if kind == "conquer":
        used = ", ".join(f"{c} {u}(s)" for u, c in ev["used"].items() if c)
        temple = ", destroying its temple" if ev["temple_destroyed"] else ""
        give = f", giving up {ev['give_up']}" if ev.get("give_up") else ""
        return f"{n} conquer {ev['city']} from {ev['defender']} (defence {ev['defence']}, using {used}){temple}{give}"
    if kind == "personage":
        return f"{n} win a {ev['personage']} ({ev['reason']})"
    if kind == "personage-missed":
        return f"{n} earn a {ev['personage']} ({ev['reason']}), but the stack is empty"
    if kind == "won":
        return f"{n} WIN the game with {ev['score']} of {ev['goal']}"
    if kind == "standing":
        return f"{n} change their standing orders: {ev['standing']}"
    return f"{kind}: {ev}"
