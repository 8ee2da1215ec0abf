"""One plain sentence per event: the turn log shared by every report format.

``event_line(ev)`` names nations and provinces by their ids (``check`` and ``process``
print it); reports pass ``name`` and ``place`` to use display names instead, and every
caller the game's ``edition``, whose phrases facet says the events of its own rules
(:meth:`Phrases.event_line <pbem.kernel.protocols.Phrases.event_line>`). Without one, only
the shared sentences are said (an event of an edition's own is then written as its type and
data).
Each shared event type has its own small function (:data:`SHARED_LINES`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pbem.kernel.vocab import PAYMENT_KEYS, UNITS

Namer = Callable[[str], str]
WedgeNamer = Callable[[int, str], str]
"""``(index, wedge name) -> label``: how a rondel wedge is named in a sentence."""


def _same(x: str) -> str:
    return x


def _upper(index: int, wedge: str) -> str:
    return wedge.upper()


def _card_id(card: str) -> str:
    """A card's id as a name: ``card_05`` -> ``CARD 05`` (reports pass the card's printed
    name instead)."""
    return card.replace("_", " ").upper()


def _knowhow_id(name: str) -> str:
    """A know-how's id as a name: ``res_publica`` -> ``res publica`` (reports pass the
    edition's label instead)."""
    return name.replace("_", " ")


def _chips(counts: dict[str, int]) -> str:
    """Chips received, in resource order: ``1 iron and 1 marble``."""
    from pbem.kernel.vocab import RESOURCES

    return " and ".join(f"{counts[r]} {r}" for r in RESOURCES if counts.get(r))


MOMENT_WORDS = {"after_move": " after the rondel move", "after": " after the action"}
"""A trade's or a card's moment of the turn (``when``), where it is not before the rondel move."""


def count(n: int, word: str) -> str:
    """``1 legion``, ``3 legions``, ``2 steps``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _pay(paid: dict[str, int] | None) -> str:
    """A payment in words, chips before coins (``1 iron, 2 coins``) whatever order the dict
    has: events read back from a game file have their keys sorted."""
    if not paid:
        return "free"
    return ", ".join(f"{paid[k]} {k}{'s' if k == 'coin' and paid[k] != 1 else ''}"
                     for k in PAYMENT_KEYS if paid.get(k))


def _units(counts: dict[str, int]) -> str:
    """``2 legions and 1 galley``: shared units first, then any other (an edition's own)."""
    keys = [u for u in UNITS if counts.get(u)] + sorted(u for u in counts if u not in UNITS and counts[u])
    return " and ".join(count(counts[u], u) for u in keys) or "no unit"


@dataclass(frozen=True)
class Words:
    """The phrasing kit the reports hand an edition's phrases facet
    (:class:`pbem.kernel.protocols.Phrases`): the namers of one report and the shared
    helpers, so that an edition phrases its own events without importing the reports."""

    name: Namer = _same
    place: Namer = _same
    wedge: WedgeNamer = _upper
    knowhow: Namer = _knowhow_id
    card: Namer = _card_id
    automatic: bool = False
    """Battles are fought by themselves: nobody starts or demands them."""
    personage: Namer = _same
    revision: int = 1
    """The revision of the edition's rules the game plays by (an edition whose words of
    a GM edit changed with a revision keeps the older games' reports as they were)."""

    @staticmethod
    def pay(paid: dict[str, int] | None) -> str:
        return _pay(paid)

    @staticmethod
    def count(n: int, word: str) -> str:
        return count(n, word)

    @staticmethod
    def units(counts: dict[str, int]) -> str:
        return _units(counts)

    @staticmethod
    def used(counts: dict[str, int]) -> str:
        """Units used, in vocabulary order (legions first), as for payments: events read
        back from a game file have their keys sorted, and render must say what process said."""
        return ", ".join(count(counts[u], u) for u in UNITS if counts.get(u))

    @staticmethod
    def moment(when: str | None) -> str:
        """`` after the rondel move``, `` after the action``; empty for another moment."""
        return MOMENT_WORDS.get(when, "")

    def conquest(self, ev: dict[str, Any], destroyed: list[str], note: str = "") -> str:
        """A conquest in words, with what it destroyed (``["its temple"]``) and a note
        after that."""
        n = self.name(ev["nation"])
        lost = f", destroying {' and '.join(destroyed)}{note}" if destroyed else ""
        give = f", giving up {self.place(ev['give_up'])}" if ev.get("give_up") else ""
        return (f"{n} conquer {self.place(ev['city'])} from {self.name(ev['defender'])} "
                f"(defence {ev['defence']}, using {self.used(ev['used'])}){lost}{give}")


def _phrases(edition: Any) -> tuple[Any, ...]:
    """The phrases facet of the game's edition, handed down by the caller (none without an
    edition: the shared sentences only)."""
    return () if edition is None else (edition.phrases,)


def standing_text(change: dict[str, Any], name: Namer = _same, card: Namer = _card_id, edition: Any = None) -> str:
    """Standing orders (or a change to them) in words: ``battle: home, Persians always; ...``;
    an edition's own (:meth:`Phrases.standing_words
    <pbem.kernel.protocols.Phrases.standing_words>`) after the shared ones, ``card`` naming
    its cards."""
    parts = []
    if "battle" in change:
        battle = change["battle"]
        if isinstance(battle, str):
            battle = {"default": battle}
        stances = [battle["default"]] if "default" in battle else []
        stances += [f"{name(k)} {v}" for k, v in sorted(battle.items()) if k != "default"]
        parts.append("battle: " + ", ".join(stances))
    if "bonus_stack" in change:
        parts.append("bonus stack: " + " > ".join(change["bonus_stack"]))
    if "coin_substitute" in change:
        parts.append("coin substitute: " + change["coin_substitute"])
    words = Words(name=name, card=card)
    for phrases in _phrases(edition):
        parts += phrases.standing_words(change, words)
    return "; ".join(parts) or "no change"


def _round(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"Round {ev['round']} begins"


def _coin(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"{n} receive a coin" if ev["coin"] else f"{n} take 1 {ev['instead']} (the bank has no coins)"


def _rondel(ev: dict[str, Any], n: str, w: Words) -> str:
    where = "place their stone on" if ev["first"] else f"move {count(ev['steps'], 'step')} to"
    return f"{n} {where} {w.wedge(ev['to'], ev['wedge'])} (paid: {_pay(ev['paid'])})"


def _produce(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"{n} produce {ev['amount']} {ev['resource']}"


def _temple(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"{n} build a temple in {w.place(ev['city'])} (paid: {_pay(ev['paid'])})"


def _arm(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"{n} arm {count(ev['count'], ev['unit'])} in {w.place(ev['at'])} (paid: {_pay(ev['paid'])})"


def _knowhow(ev: dict[str, Any], n: str, w: Words) -> str:
    first = ", first to do so" if ev["first"] else ""
    return f"{n} acquire {w.knowhow(ev['name']).upper()} for {ev['price']} gold{first} (paid: {_pay(ev['paid'])})"


def _trade(ev: dict[str, Any], n: str, w: Words) -> str:
    get = ev["get"]
    return (f"{n} trade {_pay(ev['give'])} for {'1 ' + get if isinstance(get, str) else _chips(get)}"
            f"{MOMENT_WORDS.get(ev.get('when'), '')}")


def _found(ev: dict[str, Any], n: str, w: Words) -> str:
    chosen = f" producing {ev['resource']}" if ev.get("resource") else ""
    return f"{n} found a city{chosen} in {w.place(ev['city'])} (paid: {_pay(ev['paid'])})"


def _move(ev: dict[str, Any], n: str, w: Words) -> str:
    route = " → ".join(w.place(p) for p in [ev["from"], *ev["path"]])
    lost = ev["count"] - ev["arrived"]
    tail = f", {lost} lost on the way" if lost else ""
    return f"{n} move {count(ev['count'], ev['unit'])} {route}{tail}"


def _battle(ev: dict[str, Any], n: str, w: Words) -> str:
    who = "demand" if ev["started_by"] != ev["nation"] else "start"
    starter = w.name(ev["started_by"])
    return (f"battle in {w.place(ev['at'])}: {starter} {who} it; {n} and {w.name(ev['against'])} each lose "
            f"{count(ev['count'], ev['unit'])}")


def _conquer(ev: dict[str, Any], n: str, w: Words) -> str:
    return w.conquest(ev, ["its temple"] if ev["temple_destroyed"] else [])


def _personage(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"{n} win a {ev['personage']} ({ev['reason']})"


def _personage_missed(ev: dict[str, Any], n: str, w: Words) -> str:
    return f"{n} earn a {ev['personage']} ({ev['reason']}), but the stack is empty"


def _won(ev: dict[str, Any], n: str, w: Words) -> str:
    why = f" ({ev['reason']})" if ev.get("reason") else ""
    return f"{n} WIN the game with {ev['score']} of {ev['goal']}{why}"


def _player_replaced(ev: dict[str, Any], n: str, w: Words) -> str:
    who = ev.get("player") or "a new player"
    return f"{n} are now played by {who} (the GM replaced the player)"


SHARED_LINES: dict[str, Callable[[dict[str, Any], str, Words], str]] = {
    "round": _round, "coin": _coin, "rondel": _rondel, "produce": _produce, "temple": _temple, "arm": _arm,
    "knowhow": _knowhow, "trade": _trade, "found": _found, "move": _move, "battle": _battle,
    "conquer": _conquer, "personage": _personage, "personage-missed": _personage_missed, "won": _won,
    "player-replaced": _player_replaced,
}
"""Event type -> its sentence (the event, the nation's name, the namers): the events every
edition shares. ``standing`` needs the edition too (:func:`event_line`)."""


def event_line(ev: dict[str, Any], name: Namer = _same, place: Namer = _same,
               wedge: WedgeNamer = _upper, knowhow: Namer = _knowhow_id, card: Namer = _card_id,
               automatic: bool = False, edition: Any = None) -> str:
    """A short English sentence for one event.

    ``name`` turns a nation id into the name shown, ``place`` a province id, ``wedge`` a
    rondel wedge (its index and name: reports tell twin wedges apart), ``knowhow`` a
    know-how id (the edition's label; printed in capitals), ``card`` a card's id (its name
    in capitals). ``automatic``: battles are fought by themselves, nobody starts or demands
    them. ``edition``, the game's, phrases the events it says its own way.
    """
    words = Words(name, place, wedge, knowhow, card, automatic)
    for phrases in _phrases(edition):
        line = phrases.event_line(ev, words)
        if line is not None:
            return line
    kind = ev["type"]
    n = name(ev["nation"]) if ev.get("nation") else ""
    if kind == "standing":
        return f"{n} change their standing orders: {standing_text(ev['standing'], name, card, edition)}"
    told = SHARED_LINES.get(kind)
    return told(ev, n, words) if told else f"{kind}: {ev}"


def production_coin(events: list[dict[str, Any]], i: int) -> bool:
    """Whether ``events[i]`` is a production followed by the coin that production brings
    (an edition that pays a coin with every production): the two are told as one sentence
    (:func:`produce_line`)."""
    ev = events[i]
    if ev["type"] != "produce" or i + 1 >= len(events):
        return False
    nxt = events[i + 1]
    return nxt["type"] == "coin" and nxt.get("reason") == "production" and nxt.get("nation") == ev.get("nation")


def produce_line(ev: dict[str, Any], coin: dict[str, Any], name: Namer = _same) -> str:
    """A production and its coin in one sentence: ``Romans produce 4 marble and 1 coin``."""
    n = name(ev["nation"])
    if coin["coin"]:
        return f"{n} produce {ev['amount']} {ev['resource']} and 1 coin"
    return f"{n} produce {ev['amount']} {ev['resource']} and take 1 {coin['instead']} instead of a coin " \
           "(the bank has no coins)"


def event_lines(events: list[dict[str, Any]], name: Namer = _same, place: Namer = _same,
                wedge: WedgeNamer = _upper, knowhow: Namer = _knowhow_id, card: Namer = _card_id,
                automatic: bool = False, edition: Any = None) -> list[str]:
    """:func:`event_line` for each event, a production and its coin told as one."""
    out = []
    i = 0
    while i < len(events):
        if production_coin(events, i):
            out.append(produce_line(events[i], events[i + 1], name))
            i += 2
            continue
        out.append(event_line(events[i], name, place, wedge, knowhow, card, automatic, edition))
        i += 1
    return out


def _listed(words: list[str]) -> str:
    return ", ".join(words) if words else "none"


def _bank_edit(e: dict[str, Any], w: Words) -> str:
    bank = e["bank"]
    parts = []
    if "coins" in bank:
        parts.append(f"coins set to {bank['coins']}")
    if "temples" in bank:
        parts.append(f"temples set to {bank['temples']}")
    parts += [f"{w.personage(p)} set to {n}" for p, n in sorted(bank.get("personages", {}).items())]
    return "Bank: " + (", ".join(parts) or "no change")


def _province_edit(e: dict[str, Any], w: Words, editions: tuple[Any, ...]) -> str:
    parts = []
    if "owner" in e:
        parts.append(f"city of {w.name(e['owner'])}" if e["owner"] else "no city any more")
    if "temple" in e:
        parts.append("temple built" if e["temple"] else "no temple")
    for phrases in editions:
        parts += phrases.province_edit_words(e, w)
    if "resource" in e:  # a city type chosen by its founder
        parts.append(f"the city produces {e['resource']}" if e["resource"]
                     else "the city produces the resource the board prints")
    if "units" in e:
        units = []
        for nation, counts in sorted(e["units"].items()):
            held = [count(counts[u], u) for u in UNITS if counts.get(u)]
            if held:
                units.append(f"{w.name(nation)} {' and '.join(held)}")
        parts.append("units set to " + ("; ".join(units) if units else "none"))
    return f"{w.place(e['province'])}: " + (", ".join(parts) or "no change")


NATION_EDIT_KEYS = frozenset({"nation", "resources", "coins", "knowhow", "personages", "earned", "rondel",
                              "standing"})
"""The fields of a nation edit every edition shares; any other is the edition's
(:meth:`Phrases.nation_edit_words <pbem.kernel.protocols.Phrases.nation_edit_words>`) or
merely ``changed``."""


def _nation_edit(e: dict[str, Any], w: Words, editions: tuple[Any, ...], edition: Any) -> str:
    parts = []
    res = e.get("resources", {})
    parts += [f"{k} set to {res[k]}" for k in ("marble", "iron", "gold") if k in res]
    if "coins" in e:
        parts.append(f"coins set to {e['coins']}")
    if "knowhow" in e:
        parts.append("know-how set to " + _listed([w.knowhow(k) for k in e["knowhow"]]))
    if e.get("personages"):
        parts.append("personages set to " + ", ".join(
            f"{n} {w.personage(p)}" for p, n in sorted(e["personages"].items())))
    if e.get("earned"):
        parts.append("personages earned set to " + ", ".join(
            f"{n} {w.personage(p)}" for p, n in sorted(e["earned"].items())))
    if "rondel" in e:
        r = e["rondel"]
        parts.append("rondel stone taken off" if r is None else f"rondel stone put on {w.wedge(r, '')}")
    if "standing" in e:
        parts.append("standing orders: " + standing_text(e["standing"], w.name, edition=edition))
    known = set(NATION_EDIT_KEYS)
    for phrases in editions:
        own = phrases.nation_edit_words(e, w)
        parts += own.values()
        known |= set(own)
    parts += [f"{k.replace('_', ' ')} changed" for k in sorted(e) if k not in known]
    return f"{w.name(e['nation'])}: " + (", ".join(parts) or "no change")


def edit_lines(edits: list[dict[str, Any]], name: Namer = _same, place: Namer = _same,
               wedge: WedgeNamer = _upper, knowhow: Namer = _same, personage: Namer = _same,
               edition: Any = None, card: Namer = _card_id, revision: int = 1) -> list[str]:
    """What a GM edit file changed, one sentence per edit, read from the edit itself.

    Each edit sets the fields it names (docs/orders.md, "GM edit file"), so the sentences
    say what each field was set to; ``edition`` tells its own fields (``edit_line``,
    ``province_edit_words`` and ``nation_edit_words`` of its phrases facet,
    :class:`~pbem.kernel.protocols.Phrases`). Identities (a new player) are told by their own
    ``player-replaced`` events, and addresses never appear here. ``card`` names a card,
    ``revision`` is the game's (:attr:`Words.revision`).
    """
    w = Words(name=name, place=place, wedge=wedge, knowhow=knowhow, card=card, personage=personage,
              revision=revision)
    editions = _phrases(edition)
    lines = []
    for e in edits:
        if "bank" in e:
            lines.append(_bank_edit(e, w))
        elif "active" in e:
            lines.append(f"{name(e['active'])} are now the nation to play")
        elif (own := next((line for ph in editions if (line := ph.edit_line(e, w)) is not None), None)):
            lines.append(own)
        elif "province" in e:
            lines.append(_province_edit(e, w, editions))
        elif "nation" in e:
            lines.append(_nation_edit(e, w, editions, edition))
        else:
            lines.append("an edit of " + ", ".join(sorted(e)))
    return lines
