"""The edition conformance kit: one call, :func:`check_edition`, that says whether an edition
(a shipped one, or a plug-in: docs/architecture.md, "Adding an edition") works with the
whole referee.

For each game it asks for (``seeds`` x ``modes``), the bots play the edition from the set-up
to a win on its default board, and the kit checks:

- its description and its facets fit together (:meth:`Edition.problems
  <pbem.kernel.edition.Edition.problems>`);
- after every turn, the shared invariants and the edition's own conservation laws
  (:func:`pbem.play.selfplay.check_invariants`); and the game file valid against the
  edition's game schema, every key of its extra state included (every
  :data:`SCHEMA_EVERY` turns and after the last);
- a nation wins before the stalemate limit (:data:`pbem.play.selfplay.STALEMATE_TURNS`);
- every event of a kind of the edition's own (:attr:`Edition.event_kinds
  <pbem.kernel.edition.Edition.event_kinds>`) is told in a sentence of its own, never as its
  type and data;
- every order file that uses an order key of the edition's own is written as text orders
  and read back to the same orders (:mod:`pbem.service.language.textorders`);
- in an edition with secrets, no public output (the public report in every text format and
  the board picture, ``show --json``) and no nation's private one shows anything of the
  state or the history that the reader may not see: each is the same when built from the
  reader's view of the game alone (its player view, each event and GM edit masked);
- the history replays byte for byte to the game file (``verify``), and the file written
  and read again is the same bytes.

It lives above the reports and the bots, which it drives (a layer of its own,
tests/test_architecture.py). A plug-in author runs it on their edition, registered or
not::

    from pbem.conformance import check_edition
    assert check_edition(MY_EDITION).problems == []
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pbem import editions
from pbem.kernel.edition import Edition
from pbem.kernel.orders import ORDER_KEYS, canonical_orders
from pbem.play.selfplay import STALEMATE_TURNS, bot_turn, check_invariants, lineup_for, start_game
from pbem.report import prepare
from pbem.report.text import event_line
from pbem.service.game import Game
from pbem.service.language.textorders import parse_text_orders
from pbem.service.language.writer import format_text_orders
from pbem.service.replay import verify
from pbem.service.schemas import problems as schema_problems
from pbem.service.store import game_from_data, game_text
from pbem.service.readout import show_json

REPORT_FORMATS = ("txt", "md", "bbcode", "svg")
"""The report formats the secrets check compares (PDF and PNG are drawn from the SVG)."""
SCHEMA_EVERY = 10
"""The game file is validated against the edition's game schema every this many turns and
after the last (a whole validation costs more than a turn)."""
RAW = re.compile(r"^[a-z0-9_-]+: \{")
"""How the reports write an event nobody phrased: its type and its data."""


@dataclass
class Conformance:
    """What :func:`check_edition` found: the games played, their turns, the events of the
    edition's own kinds seen (and those never seen, which the games did not test), the
    order files of its own keys read back, and every problem (none: the edition conforms)."""

    edition: str
    games: int = 0
    turns: int = 0
    events: Counter = field(default_factory=Counter)
    unseen: tuple[str, ...] = ()
    round_trips: int = 0
    problems: list[str] = field(default_factory=list)


def check_edition(edition: Edition, *, seeds: tuple[str, ...] = ("conformance",),
                  modes: tuple[str, ...] = ("random", "greedy"), nations: int | None = None,
                  max_turns: int | None = None) -> Conformance:
    """Play and check ``edition`` (see the module): one game per seed and bot mode, each of
    ``nations`` nations (default: the fewest it seats, at least 3 where it seats 3) on its
    default board. ``max_turns`` cuts each game short (a quick check: no win is asked for);
    by default each is played to a win. The edition is registered for the checks if it is
    not (and forgotten again after)."""
    found = Conformance(edition.id)
    found.problems += [f"edition: {p}" for p in edition.problems()]
    if found.problems:
        return found
    added = _register(edition, found)
    try:
        count = nations or max(edition.players[0], min(3, edition.players[1]))
        for seed in seeds:
            for mode in modes:
                _one_game(edition, f"{seed}-{mode}", count, mode, max_turns, found)
    finally:
        if added:
            editions.forget(edition.id)
    found.unseen = tuple(k for k in edition.event_kinds if not found.events[k])
    return found


def _register(edition: Edition, found: Conformance) -> bool:
    """Register ``edition`` if it is not; whether it was registered here."""
    try:
        known = editions.get(edition.id)
    except editions.UnknownEdition:
        editions.register(edition)
        return True
    if known is not edition:
        found.problems.append(f"edition: another edition is registered as {edition.id!r}: {known!r}")
    return False


def _one_game(edition: Edition, seed: str, nations: int, mode: str, max_turns: int | None,
              found: Conformance) -> None:
    where = f"game {seed}"
    game, plain = start_game(f"conform-{seed}", lineup_for(edition.id, nations), seed, edition.id,
                             edition.default_board)
    found.games += 1
    played = 0
    while game.state.status.winner is None and played < (max_turns or STALEMATE_TURNS):
        game, _ = bot_turn(game, plain, mode)
        played += 1
        turn = f"{where}, turn {game.state.status.turn - 1}"
        try:
            check_invariants(game)
        except AssertionError as exc:
            found.problems.append(f"{turn}: {exc}")
            return
        if played % SCHEMA_EVERY == 0:
            found.problems += _schema(game, turn)
    found.turns += played
    found.problems += _schema(game, f"{where}, the end")
    if game.state.status.winner is None and max_turns is None:
        found.problems.append(f"{where}: no nation won in {STALEMATE_TURNS} turns")
    found.problems += [f"{where}: {p}" for p in _told(game, found) + _round_trips(game, found) + _replays(game)]
    if edition.secrets:
        found.problems += [f"{where}: {p}" for p in secret_problems(game)]


def _schema(game: Game, where: str) -> list[str]:
    return [f"{where}: the game schema: {p}" for p in schema_problems("game", game.to_json(), game.edition)]


def _told(game: Game, found: Conformance) -> list[str]:
    """Every event of a kind of the edition's own told in its own words."""
    edition, out = game.edition, []
    for i, entry in enumerate(game.history):
        for ev in entry.get("events", []):
            if ev.get("type") not in edition.event_kinds:
                continue
            found.events[ev["type"]] += 1
            line = event_line(ev, edition.nation_name, edition=edition, card=lambda c: c.upper())
            if RAW.match(line):
                out.append(f"history entry {i}: the event {ev['type']!r} has no sentence: {line}")
    return out


def _round_trips(game: Game, found: Conformance) -> list[str]:
    """Every order file with an order key of the edition's own, written as text orders and
    read back: the same orders."""
    edition, board, out = game.edition, game.board, []
    own = [k for k in edition.order_keys if k not in ORDER_KEYS]
    for i, entry in enumerate(game.history):
        orders = entry.get("orders")
        if not isinstance(orders, dict) or not any(k in orders for k in own):
            continue
        try:
            text = format_text_orders(orders, edition, board)
            back = canonical_orders(parse_text_orders(text, edition, board, data=game.state.table.data), edition)
        except Exception as exc:  # noqa: BLE001 (every failure is the edition's problem to see)
            out.append(f"history entry {i}: its orders do not go through text orders: {exc}")
            continue
        found.round_trips += 1
        if back != orders:
            out.append(f"history entry {i}: its orders read back from text differ: {orders} -> {text!r} -> {back}")
    return out


def _replays(game: Game) -> list[str]:
    """The history replays to the file, and the file reads back to the same bytes."""
    text = game_text(game)
    try:
        verify(game, json.loads(text))
    except Exception as exc:  # noqa: BLE001
        return [f"the history does not replay: {exc}"]
    again = game_text(game_from_data(json.loads(text), "conformance"))
    return [] if again == text else ["the game file read and written again is not the same bytes"]


def secret_problems(game: Game) -> list[str]:
    """In an edition with secrets: the public outputs (the report in every text format and
    the board picture, ``show --json``) and each nation's private report, each built from
    the game and from the reader's view of it alone (the player view of the state, the
    history's events and GM edits masked for the reader). Any difference shows a secret the
    output reads past the view."""
    out = []
    for viewer in (None, *game.seats):
        real, seen = _outputs(game, viewer), _outputs(view_of(game, viewer), viewer)
        who = "the public" if viewer is None else f"the {viewer}"
        out += [f"{what} for {who} shows what {who} may not see" for what in real if real[what] != seen[what]]
    return out


def view_of(game: Game, viewer: str | None) -> Game:
    """``game`` reduced to what ``viewer`` (a nation, ``None``: the public) may see."""
    secrets = game.edition.secrets
    assert secrets is not None
    history = []
    for entry in game.history:
        entry = dict(entry)
        if isinstance(entry.get("events"), list):
            entry["events"] = [secrets.mask_event(e, viewer) for e in entry["events"]]
        if isinstance(entry.get("edits"), list):
            entry["edits"] = [secrets.mask_edit(e, viewer) for e in entry["edits"]]
        history.append(entry)
    return game.copy_with(secrets.player_view(game.state, viewer), history)


def _outputs(game: Game, viewer: str | None) -> dict[str, Any]:
    report = prepare(game, viewer=viewer)
    out: dict[str, Any] = {f"the report ({fmt})": report.render(fmt) for fmt in REPORT_FORMATS}
    if viewer is None:
        out["show --json"] = show_json(game, None)
    return out
