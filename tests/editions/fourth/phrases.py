"""Quadriga's own words: the sentences of its events and what a report shows of its
chariots and cards (its phrases facet, :class:`QuadrigaPhrases`), its lines for ``show`` and
``options`` (:class:`QuadrigaLines`), and the words of its text orders (``chariot
alexandria``, ``celebrate triumph in alexandria``)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pbem.kernel.facets import SharedLines, SharedPhrases

from .rules import CHARIOTS_PER_NATION

# -- reports ------------------------------------------------------------------------------


def _chariots(n: int) -> str:
    return f"{n} war chariot" + ("" if n == 1 else "s")


def event_line(ev: dict[str, Any], words: Any) -> str | None:
    kind = ev["type"]
    if kind == "chariot":
        return (f"{words.name(ev['nation'])} harness a war chariot in {words.place(ev['city'])} "
                f"(paid {words.pay(ev['paid'])})")
    if kind == "chariots-lost":
        return f"{words.name(ev['nation'])} lose {_chariots(ev['count'])} with {words.place(ev['city'])}"
    if kind == "triumph":
        return (f"{words.name(ev['nation'])} celebrate a TRIUMPH: a war chariot for free in "
                f"{words.place(ev['city'])}")
    if kind == "triumph-drawn":
        return f"{words.name(ev['nation'])} are granted {ev['count']} TRIUMPH card" + ("" if ev["count"] == 1 else "s")
    return None


def nation_facts(state, nation: str, words: Any) -> tuple[list[dict[str, str]], list[str], str | None]:
    extra = state.nations[nation].extra
    have = extra["chariots"]
    built = sum(have.values())
    where = ", ".join(f"{n} in {words.place(c)}" for c, n in sorted(have.items()))
    facts = [{"label": "War chariots", "value": (f"{built} ({where})" if built else "none")
              + f", {CHARIOTS_PER_NATION - built} in stock"},
             {"label": "Triumph cards", "value": str(len(extra["hand"]))}]
    short = [f"chariots {built}", f"triumphs {len(extra['hand'])}"]
    hand = ", ".join(words.card(c) for c in extra["hand"]) or "none"
    return facts, short, hand


def status_lines(state, words: Any) -> list[dict[str, str]]:
    return [{"label": "Triumph pile", "value": f"{state.extra['triumphs']} TRIUMPH card(s) left to be granted"}]


# -- text orders --------------------------------------------------------------------------

ORDER_WORDS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "chariot": MappingProxyType({"key": "chariots", "form": "cities", "also": ("chariots", "harness"),
                                 "one": "war chariot", "many": "chariots",
                                 "example": "chariot alexandria pay 2 gold"}),
    "celebrate": MappingProxyType({"key": "events", "form": "card", "also": ()}),
})
"""``chariot alexandria``, ``chariots tyros and paphos``, ``celebrate triumph in alexandria``."""


def wedge_lines(effect: dict[str, Any], name: Any, syntax: str) -> list[str] | None:
    """What the HIPPODROME would allow (its preview, ``options``), in lines; ``None`` for
    any other wedge."""
    if "chariots" not in effect:
        return None
    shown = effect["chariots"]
    price = " and ".join(f"{n} {chip}" for chip, n in shown["price"].items())
    how = 'a line "chariot CITY"' if syntax == "text" else '"chariots": [{"city": CITY}]'
    return [f"a war chariot costs {price} (coins may stand in); you can pay for {shown['affordable']} now; "
            f"{shown['left']} left in stock",
            f"cities with room for one ({how}): {', '.join(name(c) for c in shown['cities']) or 'none'}"]


class QuadrigaPhrases(SharedPhrases):
    """The reports' words for Quadriga's events, chariots and TRIUMPH pile."""

    event_kinds = frozenset({"chariot", "chariots-lost", "triumph", "triumph-drawn"})

    def event_line(self, ev, words):
        return event_line(ev, words)

    def nation_facts(self, state, nation, viewer, words):
        return nation_facts(state, nation, words)

    def status_lines(self, state, words):
        return status_lines(state, words)


class QuadrigaLines(SharedLines):
    """``options``' lines for the HIPPODROME, ``show``'s line for the TRIUMPH pile."""

    def wedge(self, effect, name, syntax):
        return wedge_lines(effect, name, syntax)

    def show(self, state) -> list[str]:
        return [f"TRIUMPH pile: {state.extra['triumphs']} card(s) left to be granted"]
