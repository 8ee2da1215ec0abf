"""The turn log of a report: which history entry a report shows (:func:`entry_for_turn`,
:func:`game_at`), since when its log tells (:func:`log_start`), the log itself as titled
blocks of sentences (:func:`turn_log`), and the moves, battles and conquests the board draws
(:func:`move_marks`)."""

from __future__ import annotations

from typing import Any

from pbem.errors import UsageError
from pbem.report.style import clean, wedge_label
from pbem.report.text import edit_lines, event_line, produce_line, production_coin
from pbem.report.wording import card_namer
from pbem.service.game import Game
from pbem.service.history import private_identity
from pbem.service.turns import TURN_KINDS


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


def turn_log(game: Game) -> list[dict[str, Any]]:
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
    automatic = edition.forces.automatic_battles

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


def move_marks(game: Game) -> dict[str, Any]:
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


def log_title(game: Game) -> str:
    """The turn log's title: since whose last turn it tells (:func:`log_start`)."""
    start = log_start(game)
    before = game.history[start - 1] if start > 0 else None
    if game.history[-1].get("kind") == "new":
        return "Set-up"
    if before is not None and before.get("kind") in TURN_KINDS:
        return f"Since turn {before['turn']}, the last turn of the {game.edition.nation_name(before['nation'])}"
    return "Since the set-up"
