"""The report's view model: one plain dict built from the history and the state.

Every format (SVG, PDF pages, text, Markdown, BBCode) is a template over this one dict, so
no format repeats another's logic. Everything is listed in a fixed order (seats, board
province ids, vocabulary order), never in the order a dict happened to be filled, so the
same game gives the same bytes whichever way its state was reached (loaded or replayed).
Text that players supply (names, GM reasons) passes :func:`clean` first. E-mail
addresses never reach the model: players are shown by name only, and an address typed
into a name or a reason is hidden.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime
from typing import Any

from pbem.errors import UsageError
from pbem.kernel import queries
from pbem.kernel.vocab import RESOURCES, UNITS
from pbem.report.text import Words, edit_lines, event_line, produce_line, production_coin, standing_text
from pbem.service import witness
from pbem.service.clock import Deadline
from pbem.service.game import Game
from pbem.service.history import private_identity
from pbem.service.turns import TURN_KINDS

RESOURCE_COLOURS = {"marble": "#f2f2ef", "iron": "#5d7f9e", "gold": "#e6c24a"}

RECONSTRUCTION_NOTE = "Reconstructed board — not the printed game board"
"""What every report on a reconstructed board (``Board.reconstruction``) says about it."""

SITE_TEXT = {"choice": "resource of choice", "none": "no city site"}
"""How the reports name a province's resource where the board prints none: the founder
chooses it, or no city can stand there (boards of later editions)."""

SEA_KIND = "sea"
"""How the reports name the kind of a sea region (boards of an edition with seas: no city
site, galleys only; it counts double towards the navigator, 001 L165)."""


def is_sea(province) -> bool:
    """Whether a board province is a sea region: no city site, galleys only (boards of
    an edition with seas; the other boards' sea-only provinces are islands with a city site)."""
    return province.resource == "none" and province.sea_only

KIND_TEXT = {"coastal": "port", "sea_only": "sea-only"}
"""How the reports name a province's kind: a port takes galleys and legions, a sea-only
province (an island city) galleys only; an inland one (no word) legions only."""

MAX_TEXT = 80
"""Player-supplied text is cut to this many characters in reports."""

_BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_ADDRESS = re.compile(r"<?[^\s<>()\[\]@]+@[^\s<>()\[\]@]+>?")


def clean(text: str | None, limit: int = MAX_TEXT) -> str:
    """Player-supplied text made safe for every format.

    Control characters and line breaks become spaces, characters XML cannot carry
    (surrogates, U+FFFE, U+FFFF) and bidirectional overrides are dropped, runs of spaces
    collapse, and the result is cut to ``limit`` characters with an ellipsis. Escaping for
    XML, Markdown and BBCode is the templates' business (autoescape and finalize). Anything
    that looks like an e-mail address becomes ``(address hidden)``: reports go to forums.
    """
    if not text:
        return ""
    out = []
    for ch in _BIDI.sub("", text):
        cat = unicodedata.category(ch)
        if cat == "Cc" or ch in "\u2028\u2029\x85":
            out.append(" ")
        elif cat == "Cs" or ch in "\ufffe\uffff":
            continue
        else:
            out.append(ch)
    flat = " ".join(_ADDRESS.sub("(address hidden)", "".join(out)).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def plural(count: int, word: str) -> str:
    """``1 legion``, ``2 legions``, ``2 cities``."""
    if count == 1:
        return f"{count} {word}"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return f"{count} {word[:-1]}ies"
    return f"{count} {word}s"


def _listing(names: list[str]) -> str:
    return f"{len(names)}: {', '.join(names)}" if names else "none"


def _facts(n: dict[str, Any], goal: int, goal_unit: str) -> list[dict[str, str]]:
    """A nation's holdings as labelled sentences, shared by the text-like formats."""
    res = n["resources"]
    units, stock = n["units"], n["stock"]
    pers = ", ".join(f"{p['count']} {p['label']}" for p in n["personage_list"]) or "none"
    return [
        {"label": "Player", "value": n["player"] or "—"},
        {"label": "Resources", "value": f"{res['marble']} marble, {res['iron']} iron, {res['gold']} gold, "
                                        f"{plural(n['coins'], 'coin')}"},
        {"label": "Rondel", "value": n["rondel"]["label"] if n["rondel"] else "not placed yet"},
        {"label": "Cities", "value": _listing(n["cities"])},
        {"label": "Temples", "value": _listing(n["temples"])},
        {"label": "Units", "value": f"{plural(units['legion'], 'legion')} and {plural(units['galley'], 'galley')} "
                                    f"on the board; {stock['legion']} and {stock['galley']} in stock"},
        {"label": "Know-how", "value": ", ".join(n["knowhow"]) or "none"},
        {"label": "Personages", "value": f"{pers} (score {n['score']} of {goal} {goal_unit})"},
        {"label": "Standing orders", "value": n["standing"]},
    ]


def luminance(colour: str) -> float:
    """The relative luminance of ``colour`` (#rrggbb), as WCAG 2 defines it."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21; 4.5 is enough for text)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_for(colour: str) -> str:
    """Black or white, whichever has the higher contrast on ``colour`` (#rrggbb): for any
    colour that is at least 4.58 : 1."""
    return "#000000" if contrast(colour, "#000000") >= contrast(colour, "#ffffff") else "#ffffff"


def text_colour(colour: str, ground: str = "#ffffff") -> str:
    """``colour`` darkened just enough to be read as text on ``ground`` (contrast 4.5 : 1),
    for names printed in their nation's colour (BBCode on a light forum page)."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    for step in range(21):
        shade = "#" + "".join(f"{round(c * (1 - step / 20)):02x}" for c in rgb)
        if contrast(shade, ground) >= 4.5:
            return shade
    return "#000000"


def wedge_label(edition, index: int) -> str:
    """A rondel wedge's name for players: its label, with its number (0-7 clockwise, as
    docs/orders.md counts them) when another wedge has the same label: ``Maneuver (3)``."""
    fields = edition.rondel.fields
    label = fields[index].label
    if sum(1 for f in fields if f.label == label) > 1:
        return f"{label} ({index})"
    return label


def reader_of(game: Game) -> str | None:
    """Whose eyes the turn log is written for: the nation to play next (after the end of
    the game, the nation that played last)."""
    st = game.state
    if st.status.winner is None and st.status.active:
        return st.status.active
    last = game.history[-1]
    return last.get("nation")


def entry_for_turn(game: Game, turn: int | None) -> int:
    """Index of the history entry a report for ``turn`` shows.

    ``None``: the latest turn (the set-up before any turn). ``0``: the set-up. A GM edit or
    a standing-orders change belongs to the next turn's report.
    """
    hist = game.history
    if turn is None:
        for i in range(len(hist) - 1, -1, -1):
            if hist[i].get("kind") in TURN_KINDS or hist[i].get("kind") == "new":
                return i
        raise UsageError("the game has no history to report on")
    if turn == 0 and hist and hist[0].get("kind") == "new":
        return 0
    for i, entry in enumerate(hist):
        if entry.get("kind") in TURN_KINDS and entry.get("turn") == turn:
            return i
    played = [e["turn"] for e in hist if e.get("kind") in TURN_KINDS and "turn" in e]
    span = f"turns 0-{max(played)}" if played else "only turn 0 (the set-up)"
    raise UsageError(f"--turn {turn}: no such turn in the history of {game.game_id!r} ({span} can be rendered)")


def game_at(game: Game, index: int) -> Game:
    """The game right after history entry ``index``, its history ending there.

    The latest entry is the game itself; an earlier one is rebuilt by replaying the history
    through the rules, each entry checked against its stored hash (:mod:`pbem.service.replay`),
    so a past report is exactly what was sent at the time.
    """
    if index == len(game.history) - 1:
        return game
    from pbem.service.replay import replay

    return replay(game, upto=index).game


def log_start(game: Game) -> int:
    """The first history entry the turn log tells: the one after the last turn of the
    nation to play next (:func:`reader_of`), so that every player, reading the report
    before their own turn, sees everything since their own last turn: a whole round. The
    set-up is told only in its own report."""
    hist = game.history
    last = len(hist) - 1
    if hist[last].get("kind") == "new":
        return last
    reader = reader_of(game)
    for i in range(last, -1, -1):
        entry = hist[i]
        if entry.get("kind") in TURN_KINDS and entry.get("nation") == reader and i < last:
            return i + 1
        if entry.get("kind") == "new":
            return i + 1
    return 0


def _log(game: Game) -> list[dict[str, Any]]:
    """What happened since the next player's own last turn (:func:`log_start`): every
    turn, GM edit and standing-orders change, each as a titled block of sentences."""
    board = game.board
    edition = game.edition
    nation_name = edition.nation_name

    def place(pid: str) -> str:
        return board.province(pid).name if board.is_province(pid) else pid

    def wedge(index: int, name: str) -> str:
        if 0 <= index < len(edition.rondel.fields):
            return wedge_label(edition, index).upper()
        return name.upper()

    def knowhow(k: str) -> str:
        return edition.knowhows.get(k, k)

    card = card_namer(game)
    automatic = bool(getattr(edition, "automatic_battles", False))

    def tell(ev: dict[str, Any]) -> str:
        return event_line(ev, nation_name, place, wedge, knowhow, card, automatic, edition)

    blocks = []
    for entry in game.history[log_start(game):]:
        if private_identity(entry):  # a player's own new address or password: not the others' news
            continue
        kind = entry.get("kind")
        lines = _event_lines(entry.get("events", []), tell, nation_name)
        for chosen in entry.get("defaults", []):
            # What the orders left open and the referee chose (docs/orders.md, "defaults").
            lines.append(f"Default applied: {clean(chosen.get('default'), 400)}")
        if kind == "gm-edit":
            lines.extend(edit_lines(entry.get("edits", []), nation_name, place, wedge,
                                    lambda k: edition.knowhows.get(k, k), lambda p: edition.personages.get(p, p),
                                    edition, card, game.state.table.revision))
            if not lines:
                lines.append("no change to the game")
        blocks.append({"title": _entry_title(entry, nation_name), "kind": kind, "lines": lines,
                       "turn": entry.get("turn") if kind in TURN_KINDS else None,
                       "nation": entry.get("nation", "")})
    return blocks


def _entry_title(entry: dict[str, Any], nation_name) -> str:
    """A history entry's title in the turn log: ``Turn 7: Romans``, ``GM edit: REASON``."""
    kind = entry.get("kind")
    if kind == "new":
        return "The game is set up"
    if kind in TURN_KINDS:
        title = f"Turn {entry['turn']}: {nation_name(entry['nation'])}"
        if kind == "default-turn":
            title += " (default turn set by the GM)"
        elif kind == "bot-turn":
            title += f" (played by the {clean(entry.get('bot'))} bot for the GM)"
        return title
    if kind == "gm-edit":
        return f"GM edit: {clean(entry.get('reason'))}"
    if kind == "standing":
        return f"Standing orders: {nation_name(entry['nation'])}"
    return str(kind)


def _event_lines(events: list[dict[str, Any]], tell, nation_name) -> list[str]:
    """An entry's events as sentences (``tell``), in the order a reader follows them: the
    round's coins told with the round, a demanded battle after the move it happened in, a
    production and its coin as one."""
    lines = []
    i = 0
    while i < len(events):
        ev = events[i]
        if ev["type"] == "round":
            coins = []
            j = i + 1
            while j < len(events) and events[j]["type"] == "coin" and events[j]["coin"]:
                coins.append(nation_name(events[j]["nation"]))
                j += 1
            line = f"Round {ev['round']} begins"
            if coins:
                line += ": a coin each for " + ", ".join(coins)
            lines.append(line)
            i = j
            continue
        if ev["type"] == "battle" and ev["started_by"] != ev["nation"]:
            # A demanded battle happens during a move, whose event comes after it:
            # tell the move first.
            j = i
            while j < len(events) and events[j]["type"] == "battle":
                j += 1
            if j < len(events) and events[j]["type"] == "move":
                lines.append(tell(events[j]))
                lines.extend(tell(b) for b in events[i:j])
                i = j + 1
                continue
        if production_coin(events, i):
            lines.append(produce_line(ev, events[i + 1], nation_name))
            i += 2
            continue
        lines.append(tell(ev))
        i += 1
    return lines


def _marks(game: Game) -> dict[str, Any]:
    """This turn's moves, battles and conquests, for the board."""
    entry = game.history[-1]
    moves, battles, conquests = [], [], []
    for ev in entry.get("events", []):
        if ev["type"] == "move":
            route = [ev["from"], *ev["path"]]
            if ev["arrived"] == 0 and ev["to"] in ev["path"]:
                route = route[: ev["path"].index(ev["to"]) + 2]
            moves.append({"nation": ev["nation"], "unit": ev["unit"], "count": ev["count"],
                          "arrived": ev["arrived"], "route": route})
        elif ev["type"] == "battle":
            battles.append({"at": ev["at"], "unit": ev["unit"], "count": ev["count"],
                            "nations": [ev["nation"], ev["against"]], "started_by": ev["started_by"]})
        elif ev["type"] == "conquer":
            conquests.append({"city": ev["city"], "by": ev["nation"], "from": ev["defender"],
                              "temple_destroyed": ev["temple_destroyed"]})
    return {"moves": moves, "battles": battles, "conquests": conquests}


def _words(game: Game, card=None):
    """The reports' phrasing kit for ``game``'s edition hooks (:class:`~pbem.report.text.Words`):
    nations and provinces by their display names, cards by ``card`` (default: named and
    noted, :func:`card_namer`)."""
    board = game.board

    def place(pid: str) -> str:
        return board.province(pid).name if board.is_province(pid) else pid

    return Words(name=game.edition.nation_name, place=place, card=card or card_namer(game),
                 automatic=bool(getattr(game.edition, "automatic_battles", False)))


def edition_status(game: Game) -> list[dict[str, str]]:
    """What an edition keeps beyond the shared state, as labelled sentences for the status
    block (none in classic Antike), as the edition says it
    (:meth:`Edition.status_lines <pbem.kernel.edition.Edition.status_lines>`)."""
    return game.edition.status_lines(game.state, _words(game))


def card_namer(game: Game, noted: bool = True):
    """Card id -> the card's name in capitals, as the game's catalogue (with the GM's
    cards, ``new --data``) names it, with its note where it has one (a card whose text is
    not entered: ``CARD 05 (text not entered — ...)``) unless not ``noted``; the id itself
    in an edition without cards."""
    data, edition = game.state.table.data, game.edition

    def card(cid: str) -> str:
        note = edition.card_note(cid, data) if noted else ""
        return edition.card_name(cid, data).upper() + (f" ({note})" if note else "")

    return card


def _edition_facts(game: Game, nation: str, viewer: str | None) -> tuple[list[dict[str, str]], str, str | None]:
    """What an edition shows of a nation beyond the shared holdings (:meth:`Edition.nation_facts
    <pbem.kernel.edition.Edition.nation_facts>`), as labelled sentences, as one short line
    for the board page, and the cards held where the reader may see them."""
    facts, short, hand = game.edition.nation_facts(game.state, nation, viewer, _words(game))
    return facts, " · ".join(short), hand


DEADLINE_TEXT = 240
"""The deadline's sentence is cut to this many characters (a GM's pause reason is in it)."""


def deadline_sentence(game: Game, deadline: Deadline | None, now: datetime | None = None) -> str | None:
    """The sentence a report gives about the current turn's deadline (``Deadline for turn
    7: Wed 25 Nov 2026, 11:00 CET, in 31 h.``), or ``None``: no deadline, the game is
    over, or ``deadline`` is another turn's than the one ``game`` is at."""
    st = game.state.status
    if deadline is None or st.winner is not None or (deadline.turn, deadline.nation) != (st.turn, st.active):
        return None
    return clean(deadline.line(now), DEADLINE_TEXT) or None


def build_model(game: Game, png_name: str = "", viewer: str | None = None, *,
                deadline: Deadline | None = None, now: datetime | None = None) -> dict[str, Any]:
    """The view model of the report for the last entry of ``game.history``.

    ``game`` is the game right after that entry (see :func:`game_at`); ``png_name`` is
    how the Markdown and BBCode reports refer to the board picture. ``viewer``: whose
    report it is in an edition with secrets (a hand of cards): ``None``, the
    public report, or a nation, its private report; everything is read from what that
    reader may see (:func:`pbem.report.views.seen_by`).

    ``deadline``: the current turn's deadline (:mod:`pbem.service.clock`), for the report
    of the latest entry; the model's ``deadline`` is then its sentence
    (:meth:`Deadline.line <pbem.service.clock.Deadline.line>`), with the time left at
    ``now``, or, without ``now`` (a file read later), how long the turn has. A deadline of
    another turn than the one ``game`` is at is left out; without one ``deadline`` is
    ``None`` and every format is what it was before deadlines.

    Each part of the model has its own function below, in the order the model lists them.
    """
    from pbem.report.views import has_secrets, seen_by

    if viewer is not None and (not has_secrets(game.edition) or viewer not in game.seats):
        raise UsageError(f"a private report for {viewer!r}: only for a nation of a game with secrets")
    game = seen_by(game, viewer)
    st = game.state
    edition = game.edition
    nation_name = edition.nation_name
    entry = game.history[-1]
    kind = entry.get("kind")
    turn, title = _turn_and_title(game)
    private = None
    if viewer is not None:
        private = {"id": viewer, "name": nation_name(viewer)}
        title += f", for the {private['name']} only"
    winner = st.status.winner
    order = game.turn_order()
    unit = edition.score_unit(st)
    nations = [_nation(game, n) for n in order]
    nation_notes = _add_facts(game, nations, viewer, unit)
    status = edition_status(game)
    if private is not None:
        status.insert(0, {"label": "Private report",
                          "value": f"it shows the {edition.secrets_words} of the {private['name']}: "
                                   "do not pass it on (the public report shows none)"})
    next_nation = None if winner else st.status.active
    return {
        "status_lines": status,
        "deadline": deadline_sentence(game, deadline, now),
        "private": private,
        "nation_notes": nation_notes,
        "neutral_text": f"neutral temple, defence {edition.rules.neutral_temple_defence}",
        "game": _game_info(game, unit),
        "turn": turn,
        "kind": kind,
        "round": st.status.round,
        "title": title,
        "played": nation_name(entry["nation"]) if entry.get("kind") in TURN_KINDS else "",
        "next": None if next_nation is None else {
            "id": next_nation, "name": nation_name(next_nation), "turn": st.status.turn,
            "colour": game.meta[next_nation].colour,
            "text_colour": text_colour(game.meta[next_nation].colour)},
        "winner": None if winner is None else {"id": winner, "name": nation_name(winner)},
        "nations": nations,
        "provinces": _provinces(game, order),
        "rondel": _rondel(game, order),
        "knowhows": _knowhows(game, order),
        "personage_types": [{"id": p, "label": label, "left": st.bank.personages[p]}
                            for p, label in edition.personages.items()],
        "resource_types": [{"id": r, "label": r.capitalize(), "colour": RESOURCE_COLOURS[r]}
                           for r in RESOURCES],
        "bank": _bank(game),
        "log": _log(game),
        "log_title": _log_title(game),
        "marks": _marks(game),
        "png": png_name,
        # The hash of the entry reported: the player's witness of the history up to here
        # (pbem.service.witness; docs/orders.md, "Witness hashes").
        "witness": {"label": witness.label(entry), "hash": entry["hash"], "line": witness.line(entry)},
    }


def _turn_and_title(game: Game) -> tuple[int, str]:
    """The turn a report is of and its title: ``after turn 7``, ``set-up``, or for a GM
    edit or a standing-orders change reported on its own what came after the last turn."""
    entry = game.history[-1]
    kind = entry.get("kind")
    if kind in TURN_KINDS:
        return entry["turn"], f"after turn {entry['turn']}"
    if kind == "new":
        return 0, "set-up"
    turn = game.state.status.turn - 1
    what = "GM edit" if kind == "gm-edit" else f"standing orders of {game.edition.nation_name(entry.get('nation', ''))}"
    return turn, f"{'after turn ' + str(turn) if turn else 'set-up'}, then {what}"


def _nation(game: Game, n: str) -> dict[str, Any]:
    """One nation's row: its holdings, its place on the rondel, its standing orders."""
    st, edition, board = game.state, game.edition, game.board
    nation_name = edition.nation_name
    entry = game.history[-1]
    winner = st.status.winner
    ns = st.nations[n]
    colour = game.meta[n].colour
    player = clean(game.meta[n].player)
    return {
        "id": n,
        "name": nation_name(n),
        "initial": nation_name(n)[:2],
        "colour": colour,
        "ink": ink_for(colour),
        "text_colour": text_colour(colour),
        "player": player,
        "contact": player,
        "resources": {r: ns.resources[r] for r in RESOURCES},
        "coins": ns.coins,
        "rondel": None if ns.rondel is None else {
            "index": ns.rondel, "wedge": edition.rondel[ns.rondel].name,
            "label": wedge_label(edition, ns.rondel)},
        "cities": [board.province(c).name for c in st.cities(n)],
        "temples": [board.province(c).name for c in st.temples(n)],
        "units": {u: st.units_on_board(n, u) for u in UNITS},
        "stock": {u: queries.stock(st, edition, n, u) for u in UNITS},
        "knowhow": [label for k, label in edition.knowhows.items() if k in ns.knowhow],
        "personages": {p: ns.personages[p] for p in edition.personages},
        "personage_list": [{"label": label, "count": ns.personages[p]}
                           for p, label in edition.personages.items() if ns.personages[p]],
        "score": edition.score(st, n),
        "standing": standing_text(st.standing[n].to_json(), nation_name, card_namer(game), edition),
        "next": winner is None and n == st.status.active,
        "played": entry.get("nation") == n and entry.get("kind") in TURN_KINDS,
        "winner": winner == n,
    }


def _add_facts(game: Game, nations: list[dict[str, Any]], viewer: str | None, unit: str) -> list[dict[str, str]]:
    """Give each nation's row its labelled facts (the edition's before the standing
    orders) and its one-line summary; returns the notes of the board page: each nation's
    edition facts in short, and the hand the reader may see."""
    notes = []
    for n in nations:
        n["facts"] = _facts(n, game.goal, unit)
        more, short, hand = _edition_facts(game, n["id"], viewer)
        n["facts"][-1:-1] = more  # before the standing orders
        if short:
            notes.append({"label": n["name"], "value": short})
        if hand is not None:
            notes.append({"label": f"{n['name']}' hand", "value": hand})
        res = n["resources"]
        n["summary"] = (f"{res['marble']} marble, {res['iron']} iron, {res['gold']} gold, "
                        f"{plural(n['coins'], 'coin')} · {plural(len(n['cities']), 'city')}, "
                        f"{plural(len(n['temples']), 'temple')} · {plural(n['units']['legion'], 'legion')}, "
                        f"{plural(n['units']['galley'], 'galley')}")
    return notes


def _provinces(game: Game, order: list[str]) -> list[dict[str, Any]]:
    """Every province with a city, units or a neutral temple, by id."""
    st, board = game.state, game.board
    nation_name = game.edition.nation_name
    provinces = []
    for pid, prov in sorted(st.provinces.items()):
        units = []
        for n in order:
            if n in prov.units:
                counts = {u: prov.count(n, u) for u in UNITS}
                units.append({"nation": n, "name": nation_name(n), "colour": game.meta[n].colour,
                              "ink": ink_for(game.meta[n].colour), **counts})
        neutral = bool(prov.extra.get("neutral_temple"))  # an edition with neutral temples (003 L30)
        if prov.owner is None and not units and not neutral:
            continue
        p = board.province(pid)
        units_text = "; ".join(
            f"{u['name']} " + " and ".join(plural(u[k], k) for k in UNITS if u[k]) for u in units)
        # a city produces what its founder chose where the site let them
        resource = queries.city_resource(st, board, pid) if prov.owner else p.resource
        chosen = resource != p.resource
        sea = is_sea(p)  # an edition with seas
        provinces.append({
            "id": pid, "name": p.name, "units_text": units_text,
            "resource": f"{resource}, chosen" if chosen else SITE_TEXT.get(resource, resource),
            "resource_id": resource, "chosen": chosen,
            "kind": p.kind, "kind_text": SEA_KIND if sea else KIND_TEXT.get(p.kind, ""),
            "owner": prov.owner, "owner_name": nation_name(prov.owner) if prov.owner else "",
            "temple": prov.temple, "neutral_temple": neutral, "units": units,
            "wall": bool(prov.extra.get("wall")),  # an edition with town walls
        })
    return provinces


def _rondel(game: Game, order: list[str]) -> list[dict[str, Any]]:
    """The rondel's wedges, clockwise, with the nations whose stone is on each."""
    edition, st = game.edition, game.state
    return [{"index": i, "wedge": field.name, "label": wedge_label(edition, i),
             "short": field.label, "twin": wedge_label(edition, i) != field.label,
             "colour": field.colour,
             "nations": [n for n in order if st.nations[n].rondel == i]}
            for i, field in enumerate(edition.rondel.fields)]


def _knowhows(game: Game, order: list[str]) -> list[dict[str, Any]]:
    """The edition's know-hows, each with its owners."""
    edition, st = game.edition, game.state
    return [{"id": k, "label": label, "secondary": edition.rules.knowhows[k].requires is not None,
             "owners": [n for n in order if k in st.nations[n].knowhow]}
            for k, label in edition.knowhows.items()]


def _bank(game: Game) -> dict[str, Any]:
    """What the bank holds, as numbers and as a sentence."""
    bank, personages = game.state.bank, game.edition.personages
    return {"coins": bank.coins, "temples": bank.temples,
            "text": f"{plural(bank.coins, 'coin')}, {plural(bank.temples, 'temple')}; personages: "
                    + ", ".join(f"{bank.personages[p]} {label}" for p, label in personages.items()),
            "personages": {p: bank.personages[p] for p in personages},
            "personages_left": sum(bank.personages.values())}


def _log_title(game: Game) -> str:
    """The turn log's title: since whose last turn it tells (:func:`log_start`)."""
    start = log_start(game)
    before = game.history[start - 1] if start > 0 else None
    if game.history[-1].get("kind") == "new":
        return "Set-up"
    if before is not None and before.get("kind") in TURN_KINDS:
        return f"Since turn {before['turn']}, the last turn of the {game.edition.nation_name(before['nation'])}"
    return "Since the set-up"


def _game_info(game: Game, unit: str) -> dict[str, Any]:
    """The game's id, edition, board, variants and goal."""
    edition, board, st = game.edition, game.board, game.state
    return {
        "id": clean(game.game_id),
        "edition_id": edition.id,
        # whether the board page gets the later refinements (Edition.report_refined)
        "refined": edition.report_refined,
        # whether the game keeps the board's neutral temples in its state
        "neutral_temples": "temple" in edition.board_features,
        "board": board.name,
        "board_note": RECONSTRUCTION_NOTE if board.reconstruction else "",
        "edition": edition.name,
        "variants": sorted(st.table.variants),
        "goal": game.goal,
        "goal_unit": unit,
    }
