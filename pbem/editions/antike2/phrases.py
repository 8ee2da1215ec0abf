"""Antike II in the reports' words (its phrases facet, :class:`Antike2Phrases`): its coin
with every production (003 L312), BELLONA (003 L254), neutral temples (003 L30) and Pliny the
Elder (003 L218-220); and its lines for ``show`` and ``options`` (:class:`Antike2Lines`).

The reports hand these functions their phrasing kit (``words``: see
:class:`pbem.kernel.protocols.Phrases`); nothing here imports the reports.
"""

from __future__ import annotations

from typing import Any

from pbem.kernel.facets import SharedLines, SharedPhrases


def event_line(ev: dict[str, Any], words: Any) -> str | None:
    """The sentence for an event Antike II tells its own way; ``None`` for the others."""
    told = EVENT_LINES.get(ev["type"])
    return told(ev, words.name(ev["nation"]) if ev.get("nation") else "", words) if told else None


def _coin(ev: dict[str, Any], n: str, words: Any) -> str | None:
    if ev.get("reason") != "production":  # a coin with every production (003 L312)
        return None
    return (f"{n} receive a coin for their production" if ev["coin"] else
            f"{n} take 1 {ev['instead']} instead of a coin for their production (the bank has no coins)")


def _bellona(ev: dict[str, Any], n: str, words: Any) -> str:
    # 003 L254: the last nation in turn order starts with BELLONA; the holder entering
    # MILITIA passes it on, counter-clockwise.
    if ev.get("to"):
        return f"BELLONA passes to the {words.name(ev['to'])}"
    why = " (the last nation in turn order)" if ev.get("reason") == "set-up" else ""
    return f"The {n} hold BELLONA{why}: one unit free when they next take MILITIA"


def _arm(ev: dict[str, Any], n: str, words: Any) -> str | None:
    free = ev.get("free")
    if not free:  # BELLONA's unit
        return None
    units = f"{n} arm {words.count(ev['count'], ev['unit'])} in {words.place(ev['at'])}"
    if free >= ev["count"]:
        return f"{units}, free with BELLONA"
    return f"{units}, {free} of them free with BELLONA (paid: {words.pay(ev['paid'])})"


def _conquer(ev: dict[str, Any], n: str, words: Any) -> str | None:
    if not ev.get("neutral_temple"):  # no city, no defender; the temple goes back to the bank
        return None
    return (f"{n} destroy the neutral temple in {words.place(ev['city'])} "
            f"(defence {ev['defence']}, using {words.used(ev['used'])})")


EVENT_LINES = {"coin": _coin, "bellona": _bellona, "arm": _arm, "conquer": _conquer}
"""Event type -> its sentence in Antike II's words (``None``: the shared one)."""


def edit_line(edit: dict[str, Any], words: Any) -> str | None:
    """A GM edit of who holds BELLONA."""
    if "bellona" in edit:
        return f"BELLONA is now held by the {words.name(edit['bellona'])}"
    return None


def province_edit_words(edit: dict[str, Any], words: Any) -> list[str]:
    """A province edit's neutral temple."""
    if "neutral_temple" in edit:
        return ["neutral temple placed" if edit["neutral_temple"] else "no neutral temple"]
    return []


def status_lines(state: Any, words: Any) -> list[dict[str, str]]:
    """Who holds BELLONA (003 L254) and, in the nine-scholars variant, who won Pliny the
    Elder (003 L218-220)."""
    lines = []
    holder = state.extra.get("bellona")
    if holder and state.status.winner is None:
        lines.append({"label": "BELLONA", "value": f"held by the {words.name(holder)} (one unit free when they next "
                                                   "take MILITIA, then it passes on)"})
    if "pliny" in state.status.extra and state.table.has("nine_scholars"):
        pliny = state.status.extra.get("pliny")
        lines.append({"label": "Pliny the Elder", "value": f"the ninth scholar, won by the {words.name(pliny)}" if pliny
                      else "the ninth scholar, still to be won by the first nation owning all eight know-hows"})
    return lines


class Antike2Phrases(SharedPhrases):
    """The reports' words for Antike II's own events, edits and status."""

    event_kinds = frozenset(EVENT_LINES)

    def event_line(self, ev: dict[str, Any], words: Any) -> str | None:
        return event_line(ev, words)

    def edit_line(self, edit: dict[str, Any], words: Any) -> str | None:
        return edit_line(edit, words)

    def province_edit_words(self, edit: dict[str, Any], words: Any) -> list[str]:
        return province_edit_words(edit, words)

    def status_lines(self, state: Any, words: Any) -> list[dict[str, str]]:
        return status_lines(state, words)


FREE_HINTS = {"json": 'mark {which} entry "free": true', "text": 'end {which} arm line with "free"'}
"""How the free unit is marked: in an order file (``json``) or an order mail (``text``)."""


class Antike2Lines(SharedLines):
    """``show``'s lines (who holds BELLONA, Pliny) and ``options``' line for BELLONA's
    free unit on the arming wedge."""

    def show(self, state: Any) -> list[str]:
        lines = []
        holder = state.extra.get("bellona")
        if holder and state.status.winner is None:
            lines.append(f"BELLONA: {holder} (one unit free when they next take MILITIA, then it passes on)")
        if "pliny" in state.status.extra and state.table.has("nine_scholars"):
            lines.append(f"Pliny the Elder (the ninth scholar): {state.status.extra.get('pliny') or 'not won yet'}")
        return lines

    def effect(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str]:
        if "places" not in effect or not effect.get("free"):
            return []
        n = effect["free"]
        which = "its" if n == 1 else "their"
        return [f"{n} unit{'s' if n != 1 else ''} armed free (BELLONA): {FREE_HINTS[syntax].format(which=which)}"]
