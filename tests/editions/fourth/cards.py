"""The TRIUMPH card: its catalogue (``cards.json``), drawing and celebrating.

A nation draws a TRIUMPH for every personage it wins while the pile lasts (the pile is
the state's ``triumphs``); it celebrates one in its own turn, at the moment it names
(``events``: ``{"play": "triumph", "city": C}``), for a war chariot in C for free; the card
goes back to the pile. The hands are public."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.kernel.vocab import MOMENTS

from . import chariots
from .rules import CARD

CATALOGUE = Path(__file__).with_name("cards.json")


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in json.loads(CATALOGUE.read_text(encoding="utf-8"))["cards"]}


def total() -> int:
    return sum(c.get("count", 1) for c in catalogue().values())


def hand(state, nation: str) -> list[str]:
    return list(state.nations[nation].extra["hand"])


def draw(t, nation: str, count: int) -> None:
    """``nation`` draws up to ``count`` TRIUMPH cards while the pile lasts."""
    drawn = min(count, t.state.extra["triumphs"])
    if drawn <= 0:
        return
    t.state.extra["triumphs"] -= drawn
    t.state.nation(nation).extra["hand"] = hand(t.state, nation) + [CARD] * drawn
    t.events.append({"type": "triumph-drawn", "nation": nation, "count": drawn})


def celebrate(t, when: str, orders: dict[str, Any], echo: dict[str, Any]) -> None:
    """The ``events`` of the orders marked for the moment ``when`` (``before`` unless they
    say otherwise), in the order given."""
    entries = orders.get("events")
    if not entries:
        return
    if when == MOMENTS[0]:
        echo["events"] = [dict(e) for e in entries]
    for i, entry in enumerate(entries):
        if entry.get("when", MOMENTS[0]) != when:
            continue
        path = f"$.events[{i}]"
        mine = hand(t.state, t.nation)
        if entry["play"] not in mine:
            t.reject("triumph/not-in-hand", f"{path}.play", nation=t.nation)
            continue
        if not chariots.place(t, entry["city"], f"{path}.city"):
            continue
        mine.remove(entry["play"])
        t.state.nation(t.nation).extra["hand"] = mine
        t.state.extra["triumphs"] += 1
        chariots.add(t, entry["city"])
        t.emit("triumph", card=entry["play"], city=entry["city"], when=when)
