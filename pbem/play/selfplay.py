"""Bot self-play: whole games of any edition with invariants checked after every turn.

An edition with pieces of its own (a recruitment box, town walls, city tokens, event
cards) adds its own conservation laws (:func:`conservation_problems`, asked of the
edition's pieces facet, :meth:`Pieces.conservation_problems
<pbem.kernel.protocols.Pieces.conservation_problems>`).

Used by the self-play tests and ``bench/bench_selfplay.py``. Each turn the bot's orders
go through the same checked entry point as ``antike-ref check`` (password included);
after every turn the conservation laws must hold; at the end the game must verify by
replay. A game that has no winner after :data:`STALEMATE_TURNS` turns is a stalemate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pbem import editions
from pbem.kernel import queries
from pbem.kernel.board import Board
from pbem.kernel.orders import canonical_orders
from pbem.kernel.setup import SetupOptions
from pbem.kernel.vocab import UNITS
from pbem.play.search import play_turn
from pbem.service import turns
from pbem.service.boards import load_board
from pbem.service.game import Game, consistency_problems
from pbem.service.passwords import MIN_ITERATIONS
from pbem.service.replay import verify
from pbem.service.setup import new_game
from pbem.service.store import game_text

STALEMATE_TURNS = 800
"""A game without a winner after this many turns counts as a documented stalemate."""

LINEUPS = {
    3: ["greeks", "persians", "arabs"],
    4: ["persians", "phoenicians", "arabs", "greeks"],
    5: ["greeks", "persians", "arabs", "phoenicians", "egyptians"],
    6: ["greeks", "persians", "arabs", "phoenicians", "egyptians", "babylonians"],
}
"""The East board's nations by their number: the lineup of an edition that has none of its
own (:attr:`Edition.selfplay_lineups <pbem.kernel.edition.Edition.selfplay_lineups>`)."""


def lineup_for(edition: str, nations: int) -> list[str]:
    """The nations of a self-play game of ``edition`` on its default board (an edition
    played by one number of nations only takes that whatever the number)."""
    table = editions.get(edition).selfplay_lineups or LINEUPS
    if len(table) == 1:
        return list(next(iter(table.values())))
    return list(table[nations])


@dataclass
class GameRecord:
    """How one self-play game went."""

    seed: str
    nations: int
    mode: str
    variants: tuple[str, ...]
    turns: int
    winner: str | None
    edition: str = "antike"
    board: str = "antike-east"
    lineup: tuple[str, ...] = ()


def check_invariants(game: Game) -> None:
    """Conservation and consistency after a turn; raises AssertionError naming the breach."""
    problems = consistency_problems(game)
    assert not problems, problems
    st = game.state
    rules = game.edition.rules_for(st.table)
    coins = st.bank.coins + sum(ns.coins for ns in st.nations.values())
    assert coins == rules.bank_coins, f"coins not conserved: {coins}"
    # neutral temples come from the same stock as the nations' temples
    temples = st.bank.temples + sum(1 for pid, p in st.provinces.items()
                                    if p.temple or queries.neutral_temple(st, pid))
    assert temples == rules.bank_temples, f"temples not conserved: {temples}"
    for p, stack in rules.personage_stacks.items():
        total = st.bank.personages[p] + sum(ns.personages[p] for ns in st.nations.values())
        assert total == stack, f"{p} cards not conserved: {total}"
    for n, ns in st.nations.items():
        beyond = sum(max(0, ns.personages[p] - ns.earned[p]) for p in ns.personages)
        assert beyond <= game.edition.turn.bonus_cards(st, n), f"{n} holds more personage cards than it earned"
    for n in st.nations:
        for u in UNITS:
            assert st.units_on_board(n, u) <= rules.cap(u), f"{n} have more {u}s than the {rules.cap(u)} there are"
            assert queries.stock(st, game.edition, n, u) >= 0, f"{n} have more {u}s on the board and in reserve " \
                f"than the {rules.cap(u)} there are"
        assert st.cities(n), f"{n} lost its last city"
        assert len(st.cities(n)) <= rules.city_stones, f"{n} own more cities than their {rules.city_stones} stones"
    problems = conservation_problems(game)
    assert not problems, problems


def conservation_problems(game: Game) -> list[str]:
    """What breaks the conservation laws of ``game``'s edition's own pieces, in words
    (empty for an edition without: :meth:`Pieces.conservation_problems
    <pbem.kernel.protocols.Pieces.conservation_problems>`)."""
    pieces = game.edition.pieces
    return pieces.conservation_problems(game.state, game.board) if pieces else []


def start_game(game_id: str, nations: list[str], seed: str, edition: str = "antike",
               board: str | Board = "antike-east", variants: tuple[str, ...] = (),
               iterations: int = MIN_ITERATIONS, data: dict | None = None) -> tuple[Game, dict[str, str]]:
    """A new game for bots, in memory, with passwords ``pw-NATION`` (cheaply hashed unless
    ``iterations`` says otherwise); ``data`` as ``new --data`` takes it."""
    plain = {n: f"pw-{n}" for n in nations}
    on = load_board(board) if isinstance(board, str) else board
    opts = SetupOptions(game_id=game_id, board=on.id, nations=list(nations), variants=list(variants), seed=seed,
                        data=dict(data or {}))
    game, _ = new_game(editions.get(edition), opts, on, plain, iterations=iterations)
    return game, plain


def bot_turn(game: Game, plain: dict[str, str], mode: str = "greedy", budget: int | None = None) -> tuple[Game, dict]:
    """The bot's turn for the active nation, sent with the nation's password like a
    player's; returns the next game and the orders as sent (``budget``: the searching
    bot's, :func:`pbem.play.search.play_turn`)."""
    orders = {**play_turn(game, mode, budget=budget), "password": plain[game.state.status.active]}
    new, _ = turns.play(game, canonical_orders(orders, game.edition))
    return new, orders


def play_game(seed: str, nations: int = 4, mode: str = "greedy", variants: tuple[str, ...] = (),
              check_every_turn: bool = True,
              verify_at_end: bool = True, edition: str = "antike", board: str | Board | None = None,
              lineup: list[str] | None = None, data: dict | None = None,
              seats: dict[str, str] | None = None, budget: int | None = None) -> tuple[Game, GameRecord]:
    """Play one whole game between bots; return the final game and its record. Without a
    board, the edition's own (:attr:`Edition.default_board
    <pbem.kernel.edition.Edition.default_board>`); without a lineup, the edition's for
    ``nations`` (:func:`lineup_for`). ``seats`` gives some nations a bot of their own
    (nation -> mode; the others play ``mode``), ``budget`` the searching bot's."""
    board = board or editions.get(edition).default_board
    lineup = lineup or lineup_for(edition, nations)
    game, plain = start_game(f"self-{seed}", lineup, seed, edition, board, variants, data=data)
    played = 0
    while game.state.status.winner is None and played < STALEMATE_TURNS:
        game, _ = bot_turn(game, plain, (seats or {}).get(game.state.status.active, mode), budget)
        played += 1
        if check_every_turn:
            check_invariants(game)
    if verify_at_end:
        text = game_text(game)
        verify(game, json.loads(text))
    return game, GameRecord(seed, len(lineup), mode, tuple(variants), played, game.state.status.winner,
                            game.edition.id, game.board.id, tuple(lineup))
