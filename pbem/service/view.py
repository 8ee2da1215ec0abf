"""Views of a game for readers: the ``show --json`` object (docs/orders.md) and the rows
that ``history`` and ``undo`` list.

A view is built from what the viewer may see (the edition's secrets facet,
:meth:`Secrets.player_view <pbem.kernel.protocols.Secrets.player_view>`): everything in an
edition without secrets.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pbem.kernel import queries
from pbem.kernel.vocab import RESOURCES, UNITS
from pbem.service.clock import Deadline, TurnClock, local_day
from pbem.service.game import Game

RECENT_TURNS = 4
"""How many history entries ``show`` lists at its end."""


def show_json(game: Game, viewer: str | None = None, *, clock: TurnClock | None = None,
              now: datetime | None = None) -> dict[str, Any]:
    """The ``show --json`` object exactly as docs/orders.md specifies it, as ``viewer``
    (a nation, or ``None`` for the public view) may see it. ``clock``: the game's clock
    (:func:`pbem.service.clockfile.read_clock`), told at ``now`` (:func:`clock_json`);
    none for a game not run by mail."""
    edition = game.edition
    if viewer is None:
        viewer = game.copy_of  # a player's copy shows what its player sees
    st = edition.secrets.player_view(game.state, viewer) if edition.secrets else game.state
    nations = {}
    for n in game.seats:
        ns = st.nations[n]
        nations[n] = {
            "resources": {r: ns.resources[r] for r in RESOURCES},
            "coins": ns.coins,
            "rondel": None if ns.rondel is None else {"index": ns.rondel, "wedge": edition.rondel[ns.rondel].name},
            "knowhow": sorted(ns.knowhow),
            "personages": dict(ns.personages),
            "score": edition.turn.score(st, n),
            "goal": st.table.goal,
            "cities": st.cities(n),
            "temples": st.temples(n),
            "stock": {u: queries.stock(st, edition, n, u) for u in UNITS},
            "standing": st.standing[n].to_json(),
            **(edition.pieces.view_nation(st, n, viewer) if edition.pieces else {}),
        }
    return {
        "game": game.game_id,
        "edition": st.table.edition,
        "board": game.board.id,
        "variants": sorted(st.table.variants),
        "turn": st.status.turn,
        "round": st.status.round,
        "active": st.status.active,
        "winner": st.status.winner,
        "bank": st.bank.to_json(),
        "nations": nations,
        "provinces": _provinces(st, game.board),
        **(edition.pieces.view_extra(st) if edition.pieces else {}),
        # an addition to the contract: the last few history entries' events
        "recent": [{k: _masked(edition, e[k], viewer) if k == "events" else e[k]
                    for k in ("seq", "kind", "turn", "nation", "reason", "events") if k in e}
                   for e in recent_entries(game, RECENT_TURNS)],
        # another: the current turn's deadline, a pause, the players away (a game run by mail)
        **clock_json(game, clock or TurnClock(), now),
    }


def _masked(edition, events: Any, viewer: str | None) -> Any:
    """History events as ``viewer`` may read them (a drawn card is its drawer's)."""
    if not isinstance(events, list) or not edition.secrets:
        return events
    return [edition.secrets.mask_event(e, viewer) if isinstance(e, dict) else e for e in events]


def _provinces(st, board) -> dict[str, Any]:
    """Every province with something in it; a city also with the resource it produces
    (docs/orders.md, "Editions": chosen where the site lets the founder choose)."""
    out = st.provinces_json()
    for pid, prov in out.items():
        if prov["owner"] is not None:
            prov["resource"] = queries.city_resource(st, board, pid)
    return out


def recent_entries(game: Game, count: int) -> list[dict[str, Any]]:
    """The last ``count`` history entries after the set-up, oldest first."""
    return game.history[1:][-count:]


def entry_row(entry: dict[str, Any]) -> dict[str, Any]:
    """One history entry as ``history`` lists it: number, kind, turn, nation, a summary
    (the wedge chosen, or the GM's reason) and how many events it had."""
    orders = entry.get("orders") or {}
    rondel = orders.get("rondel") if isinstance(orders, dict) else None
    # the orders as the file holds them: a hand-edited entry may have any shape here
    to = rondel.get("to", "") if isinstance(rondel, dict) else rondel if isinstance(rondel, str) else ""
    summary = entry.get("reason") or to
    if entry.get("kind") == "bot-turn":
        summary = f"{summary} (by the {entry.get('bot')} bot)"
    return {"seq": entry["seq"], "kind": entry["kind"], "turn": entry.get("turn"),
            "nation": entry.get("nation"), "summary": summary, "events": len(entry.get("events", []))}


def current_deadline(game: Game, clock: TurnClock) -> Deadline | None:
    """The deadline of ``game``'s current turn from its clock (as
    :func:`pbem.service.clockfile.read_clock` reads it beside the game file): ``None`` when
    the game is not run by mail, is over, or the mail cycle has not started this turn's
    clock yet."""
    st = game.state.status
    return clock.deadline(st.turn, st.active, st.winner)


def clock_json(game: Game, clock: TurnClock, now: datetime | None) -> dict[str, Any]:
    """What ``show --json`` adds about the clock of a game run by mail (docs/orders.md):
    ``deadline`` (:meth:`Deadline.to_json <pbem.service.clock.Deadline.to_json>` at ``now``,
    or ``None``), ``paused`` (whether the GM has paused the game) and ``absent`` (each
    nation away on ``now``'s day in the game's time zone, with the last day of its
    absence; never its reason)."""
    deadline = current_deadline(game, clock)
    away = clock.away(today(clock, now)) if now is not None else {}
    return {"deadline": deadline.to_json(now) if deadline is not None else None,
            "paused": clock.paused is not None,
            "absent": {n: day.isoformat() for n, day in sorted(away.items()) if n in game.seats}}


def today(clock: TurnClock, now: datetime) -> date:
    """``now``'s day in the game's time zone (the clock's; UTC without one)."""
    return local_day(now, clock.zone)
