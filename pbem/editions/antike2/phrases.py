"""Antike II in the reports' words: its coin with every production (003 L312), BELLONA
(003 L254), neutral temples (003 L30) and Pliny the Elder (003 L218-220).

The reports hand these functions their phrasing kit (``words``: see the hooks for reports
of :class:`pbem.kernel.edition.Edition`); nothing here imports the reports.
"""

from __future__ import annotations

from typing import Any


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
