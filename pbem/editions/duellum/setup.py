"""Setting up Antike Duellum (``antike-ref new --edition duellum``): its set-up facet
(:class:`DuellumSetUp`).

001 L91-113: each nation has 3 start cities with a token of the printed type, 3 marble,
3 iron and 3 gold, one town wall in its supply and one legion and one galley in its
recruitment box (no unit on the board); the start player is drawn and the other receives a
coin; the event cards are shuffled and three laid open. The variant's special units start
in the boxes (001 L435).
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

import pbem.editions.duellum.cards as cards
import pbem.editions.duellum.lots as lots
from pbem.editions.classic.setup import start_cities
from pbem.editions.duellum.edits import moments
from pbem.editions.duellum.rules import (
    BANK_COINS,
    DATA_KEYS,
    DISPLAY,
    GOAL,
    PRICES,
    SPECIAL_UNITS,
    START_BOX,
    TOKENS,
    data_problems,
)
from pbem.errors import UsageError
from pbem.kernel.bank import give_coin
from pbem.kernel.facets import SharedSetUp
from pbem.kernel.setup import SetupOptions, check_common, initial_state, start_nation_by_lot
from pbem.kernel.state import GameState, Table

if TYPE_CHECKING:
    from pbem.kernel.board import Board
    from pbem.kernel.edition import Edition


def start_nation(opts: SetupOptions, nations: list[str]) -> str:
    """``--first``, else drawn by lot from the game's seed (001 L103)."""
    return start_nation_by_lot(opts, nations)


def secret_of(seed: str | None, secret: str | None = None) -> str:
    """The secret the deck is shuffled by, held only in the GM's file (a player's copy has
    it as ``"?"``): made from the seed and the set-up's own ``secret``
    (:attr:`SetupOptions.secret`, which ``new`` makes from what only the GM holds), so that
    a seed guessed from a copy does not give the deck away. A game set up before that
    option existed has no such ``secret``: its deck came from the seed alone, as then."""
    if secret is None:
        return hashlib.sha256(f"{seed}:duellum event cards".encode()).hexdigest()
    return hashlib.sha256(f"{seed}:{secret}:duellum event cards".encode()).hexdigest()


def setup(edition: Edition, opts: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
    check_common(opts, edition)
    nations = list(opts.nations)
    if len(nations) != 2:
        raise UsageError(f"--nations: Antike Duellum is played by exactly two nations, got {len(nations)}")
    on_board = set(board.nations.get(2, ()))
    if set(nations) != on_board:
        raise UsageError(f"--nations: on {board.id} the two nations are {', '.join(sorted(on_board))} "
                         "(rulebook, 'Overview of the game flow')")
    if opts.players not in (None, 2):
        raise UsageError(f"--players {opts.players}: Antike Duellum is for two players")
    if opts.goal not in (None, GOAL):
        raise UsageError(f"--goal {opts.goal}: Antike Duellum is won with {GOAL} personages "
                         "(rulebook, 'Goal of the game')")
    for unused in ("teams", "picks"):
        if getattr(opts, unused):
            raise UsageError(f"--{unused.rstrip('s')}: not an Antike Duellum option")
    opts = opts.replace(variants=sorted(set(opts.variants)))
    first = start_nation(opts, nations)
    cities = start_cities(opts.replace(variants=[]), board, 2)
    data = json.dumps(opts.data, sort_keys=True, separators=(",", ":")) if opts.data else ""
    table = Table(opts.game_id, edition.id, tuple(opts.variants), GOAL, 2, tuple(nations), first, data,
                  opts.revision or 1)
    state = initial_state(table, edition, cities)
    tokens = {r: 0 for r in TOKENS}
    for pid in (c for cs in cities.values() for c in cs):
        tokens[board.province(pid).resource] = tokens.get(board.province(pid).resource, 0) + 1
    short = [r for r, n in tokens.items() if n > TOKENS.get(r, 0)]
    if short:
        raise UsageError(f"the start cities need more {short[0]} tokens than the bank's {TOKENS[short[0]]}")
    for n in nations:
        held = state.nations[n].extra
        held["recruitment"] = dict(START_BOX)
        if table.has("special_units"):
            held["recruitment"][SPECIAL_UNITS[n]] = 1
    if opts.chance is not None:  # a game without a game master: no secret, every card drawn by lot (:mod:`.lots`)
        state.extra.update(lots.set_up(data, opts.chance, table.revision))
    else:
        secret = secret_of(opts.seed, opts.secret)
        deck, display = cards.new_deck(data, secret, DISPLAY, table.revision)
        state.extra.update(deck=deck, display=display, discards=[], shuffles=0, secret=secret)
    events: list[dict[str, Any]] = []
    other = next(n for n in nations if n != first)
    give_coin(state, other, events, "compensation for not starting")  # 001 L103
    edition.turn.start_round(state, events)
    return state, events, opts.replace(first=first)


class DuellumSetUp(SharedSetUp):
    """Antike Duellum's set-up facet: :func:`setup`, its goal, two players with a nation
    each, and the values a GM who owns the game enters (``new --data``: prices, the bank's
    coins, event cards)."""

    edition: Edition

    def start(self, options: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
        return setup(self.edition, options, board)

    def goal(self, options: SetupOptions, nations: int, players: int) -> int:
        return GOAL

    def seating_problem(self, players: int, nations: int) -> str | None:
        if players != 2 or nations != 2:
            return "Antike Duellum is two players, one nation each"
        return None

    def data_problems(self, data: Any, board: Board) -> list[str]:
        problems = data_problems(data, self.edition.knowhows, self.edition.rondel.names) if data else []
        return [f"{p} (keys: {', '.join(DATA_KEYS)})" for p in problems[:1]] + problems[1:]

    def rulings(self, table: Table) -> list[str]:
        given = json.loads(table.data) if table.data else {}
        rules = self.edition.rules_for(table)
        knowhows = self.edition.knowhows
        out = []
        if set(given.get("knowhow_prices", {})) != set(PRICES):
            prices = ", ".join(f"{knowhows[k]} {s.price_first}/{s.price_later}" for k, s in rules.knowhows.items()
                               if k not in given.get("knowhow_prices", {}))
            out.append(f"know-how prices (first/later): {prices}")
        if "bank_coins" not in given:
            out.append(f"the bank's {BANK_COINS} coins")
        out.append(cards.deck_words(table.data, table.revision))
        return out + moments(table, given.get("event_cards", []))
