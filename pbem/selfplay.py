"""Bot self-play: whole games with invariants checked after every turn.

Used by the self-play test and ``bench/bench_selfplay.py``. Each turn the bot's orders
go through the same checked entry point as ``antike-ref check`` (password included);
after every turn the conservation laws must hold; at the end the game must verify by
replay. A game that has no winner after :data:`STALEMATE_TURNS` turns is a stalemate.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pbem.board import load_board
from pbem.bot import play_turn
from pbem.engine import process
from pbem.game import Game, consistency_problems
from pbem.orders import canonical_orders
from pbem.replay import verify
from pbem.setup import SetupOptions, new_game
from pbem.store import game_text
from pbem.vocab import PERSONAGES, UNITS

STALEMATE_TURNS = 800
"""A game without a winner after this many turns counts as a documented stalemate."""

LINEUPS = {
    3: ["greeks", "persians", "arabs"],
    4: ["persians", "phoenicians", "arabs", "greeks"],
    5: ["greeks", "persians", "arabs", "phoenicians", "egyptians"],
    6: ["greeks", "persians", "arabs", "phoenicians", "egyptians", "babylonians"],
}


@dataclass
class GameRecord:
    """How one self-play game went."""

    seed: str
    nations: int
    mode: str
    variants: tuple[str, ...]
    turns: int
    winner: str | None


def check_invariants(game: Game) -> None:
    """Conservation and consistency after a turn; raises AssertionError naming the breach."""
    problems = consistency_problems(game)
    assert not problems, problems
    st = game.state
    rules = game.rules
    coins = st.bank.coins + sum(ns.coins for ns in st.nations.values())
    assert coins == rules.bank_coins, f"coins not conserved: {coins}"
    temples = st.bank.temples + sum(1 for p in st.provinces.values() if p.temple)
    assert temples == rules.bank_temples, f"temples not conserved: {temples}"
    for p in PERSONAGES:
        total = st.bank.personages[p] + sum(ns.personages[p] for ns in st.nations.values())
        assert total == rules.personage_stacks[p], f"{p} cards not conserved: {total}"
        for n, ns in st.nations.items():
            assert ns.personages[p] <= ns.earned[p] or p in ("king", "general", "citizen", "navigator", "scholar") and ns.all8_bonus, \
                f"{n} holds more {p} cards than it earned"
    for n in st.nations:
        for u in UNITS:
            assert st.units_on_board(n, u) <= rules.unit_cap
        assert st.cities(n), f"{n} lost its last city"


def play_game(seed: str, nations: int = 4, mode: str = "greedy", variants: tuple[str, ...] = (),
              passwords: dict[str, str] | None = None, check_every_turn: bool = True,
              verify_at_end: bool = True) -> tuple[Game, GameRecord]:
    """Play one whole game between bots; return the final game and its record."""
    lineup = LINEUPS[nations]
    plain = passwords or {n: f"pw-{n}" for n in lineup}
    opts = SetupOptions(game_id=f"self-{seed}", board="antike-east", nations=lineup,
                        variants=list(variants), seed=seed)
    game, _ = new_game(opts, load_board("antike-east"), plain)
    turns = 0
    while game.state.status.winner is None and turns < STALEMATE_TURNS:
        orders = play_turn(game, mode)
        orders = canonical_orders({**orders, "password": plain[orders["nation"]]})
        game, _ = process(game, orders)
        turns += 1
        if check_every_turn:
            check_invariants(game)
    if verify_at_end:
        text = game_text(game)
        verify(game, json.loads(text))
    return game, GameRecord(seed, nations, mode, tuple(variants), turns, game.state.status.winner)
