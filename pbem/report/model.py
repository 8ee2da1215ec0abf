"""The report's view model: one plain dict built from the history and the state.

Every format (SVG, PDF pages, text, Markdown, BBCode) is a template over this one dict, so
no format repeats another's logic. How text and colours are written is :mod:`.style`, the
turn log :mod:`.turnlog`, the edition's words :mod:`.wording`. Everything is listed in a fixed order (seats, board
province ids, vocabulary order), never in the order a dict happened to be filled, so the
same game gives the same bytes whichever way its state was reached (loaded or replayed).
Text that players supply (names, GM reasons) passes :func:`clean` first. E-mail
addresses never reach the model: players are shown by name only, and an address typed
into a name or a reason is hidden.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pbem.errors import UsageError
from pbem.kernel import queries
from pbem.kernel.vocab import RESOURCES, UNITS
from pbem.report.style import (KIND_TEXT, RECONSTRUCTION_NOTE, RESOURCE_COLOURS, SEA_KIND, SITE_TEXT, clean, ink_for,
                               is_sea, plural, text_colour, wedge_label)
from pbem.report.text import standing_text
from pbem.report.turnlog import log_title, move_marks, turn_log
from pbem.report.wording import card_namer, edition_facts, edition_status
from pbem.service import witness
from pbem.service.clock import Deadline
from pbem.service.game import Game
from pbem.service.turns import TURN_KINDS

__all__ = ["RECONSTRUCTION_NOTE", "RESOURCE_COLOURS", "build_model", "card_namer", "clean", "deadline_sentence",
           "edition_status", "ink_for", "is_sea"]
"""What other modules read here: the model, and the helpers of :mod:`.style` and
:mod:`.wording` the reports share (kept here for those that always found them here)."""


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

    ``game`` is the game right after that entry (see :func:`~pbem.report.turnlog.game_at`); ``png_name`` is
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
    game = _seen(game, viewer)
    st, edition = game.state, game.edition
    entry = game.history[-1]
    turn, title = _turn_and_title(game)
    private = None if viewer is None else {"id": viewer, "name": edition.nation_name(viewer)}
    if private is not None:
        title += f", for the {private['name']} only"
    order = game.turn_order()
    unit = edition.phrases.score_unit(st)
    nations = [_nation(game, n) for n in order]
    nation_notes = _add_facts(game, nations, viewer, unit)
    return {
        "status_lines": _status(game, private),
        "deadline": deadline_sentence(game, deadline, now),
        "private": private,
        "nation_notes": nation_notes,
        "neutral_text": f"neutral temple, defence {edition.rules.neutral_temple_defence}",
        "game": _game_info(game, unit),
        "turn": turn,
        "kind": entry.get("kind"),
        "round": st.status.round,
        "title": title,
        **_who(game),
        "nations": nations,
        "provinces": _provinces(game, order),
        "rondel": _rondel(game, order),
        "knowhows": _knowhows(game, order),
        **_stocks(game),
        "log": turn_log(game),
        "log_title": log_title(game),
        "marks": move_marks(game),
        "png": png_name,
        # The hash of the entry reported: the player's witness of the history up to here
        # (pbem.service.witness; docs/orders.md, "Witness hashes").
        "witness": {"label": witness.label(entry), "hash": entry["hash"], "line": witness.line(entry)},
    }


def _seen(game: Game, viewer: str | None) -> Game:
    """``game`` as the reader of the report may see it (:func:`pbem.report.views.seen_by`);
    a private report only for a nation of a game with secrets."""
    from pbem.report.views import has_secrets, seen_by

    if viewer is not None and (not has_secrets(game.edition) or viewer not in game.seats):
        raise UsageError(f"a private report for {viewer!r}: only for a nation of a game with secrets")
    return seen_by(game, viewer)


def _status(game: Game, private: dict[str, str] | None) -> list[dict[str, str]]:
    """The status block: what the edition keeps beyond the shared state, after a private
    report's warning."""
    status = edition_status(game)
    if private is not None:
        status.insert(0, {"label": "Private report",
                          "value": f"it shows the {game.edition.secrets.words} of the {private['name']}: "
                                   "do not pass it on (the public report shows none)"})
    return status


def _who(game: Game) -> dict[str, Any]:
    """Who played the entry reported, who plays next, who won."""
    st, nation_name, entry = game.state, game.edition.nation_name, game.history[-1]
    winner = st.status.winner
    next_nation = None if winner else st.status.active
    return {
        "played": nation_name(entry["nation"]) if entry.get("kind") in TURN_KINDS else "",
        "next": None if next_nation is None else {
            "id": next_nation, "name": nation_name(next_nation), "turn": st.status.turn,
            "colour": game.meta[next_nation].colour,
            "text_colour": text_colour(game.meta[next_nation].colour)},
        "winner": None if winner is None else {"id": winner, "name": nation_name(winner)},
    }


def _stocks(game: Game) -> dict[str, Any]:
    """The personage stacks, the chip types and the bank."""
    return {
        "personage_types": [{"id": p, "label": label, "left": game.state.bank.personages[p]}
                            for p, label in game.edition.personages.items()],
        "resource_types": [{"id": r, "label": r.capitalize(), "colour": RESOURCE_COLOURS[r]}
                           for r in RESOURCES],
        "bank": _bank(game),
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
        "score": edition.turn.score(st, n),
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
        more, short, hand = edition_facts(game, n["id"], viewer)
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
    marks = game.edition.phrases.city_marks
    provinces = []
    for pid, prov in sorted(st.provinces.items()):
        units = []
        for n in order:
            if n in prov.units:
                counts = {u: prov.count(n, u) for u in UNITS}
                units.append({"nation": n, "name": nation_name(n), "colour": game.meta[n].colour,
                              "ink": ink_for(game.meta[n].colour), **counts})
        neutral = queries.neutral_temple(st, pid)  # a board feature of some editions (003 L30)
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
            # the edition's marks round the city (a town wall)
            "marks": [{"shape": m.shape, "words": m.words, "short": m.short} for m in marks if prov.extra.get(m.key)],
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


def _game_info(game: Game, unit: str) -> dict[str, Any]:
    """The game's id, edition, board, variants and goal."""
    edition, board, st = game.edition, game.board, game.state
    return {
        "id": clean(game.game_id),
        "edition_id": edition.id,
        # whether the board page gets the later refinements (Phrases.report_refined)
        "refined": edition.phrases.report_refined,
        # the edition's marks round a city, which the legend explains (Phrases.city_marks)
        "city_marks": [{"key": m.key, "shape": m.shape, "words": m.words, "short": m.short}
                       for m in edition.phrases.city_marks],
        # whether the game keeps the board's neutral temples in its state
        "neutral_temples": "temple" in edition.board_features,
        "board": board.name,
        "board_note": RECONSTRUCTION_NOTE if board.reconstruction else "",
        "edition": edition.name,
        "variants": sorted(st.table.variants),
        "goal": game.goal,
        "goal_unit": unit,
    }
