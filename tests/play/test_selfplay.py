"""Self-play (issue 6; STYLE.md habit 9): bots play whole games; every turn legal, every
invariant kept, every game verifying by replay. The 1,000-game run is bench/bench_selfplay.py."""

from __future__ import annotations

import pytest

from pbem.play.selfplay import STALEMATE_TURNS, play_game


@pytest.mark.slow
@pytest.mark.parametrize("nations,mode,variants", [
    (3, "greedy", ()), (4, "greedy", ()), (5, "random", ()), (6, "greedy", ()),
    (4, "random", ("expert",)), (4, "greedy", ("military",)), (3, "random", ("longer",)),
    (5, "greedy", ("military",)), (6, "random", ()),
])
def test_bots_play_whole_games(nations, mode, variants):
    for k in range(2):
        game, rec = play_game(f"t{nations}{mode}{k}{''.join(variants)}", nations, mode, variants)
        assert rec.winner is not None or rec.turns == STALEMATE_TURNS
        if rec.winner:
            assert game.score(rec.winner) >= game.goal or game.state.status.extra["all_awarded_turn"]


@pytest.mark.slow
def test_one_quick_game_reaches_a_result():
    game, rec = play_game("quick", 4, "greedy")
    assert rec.turns > 20
    assert rec.winner is not None or rec.turns == STALEMATE_TURNS
