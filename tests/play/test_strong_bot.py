"""The searching bot (``strong``, :mod:`pbem.play.search`): legal, bounded by its budget,
reproducible, blind to what its nation may not see; chosen by ``bot --level strong``,
``options --hint`` and the mail configuration (``bot = "strong"``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from conftest import PASSWORDS, cli_run, new_game_file

BUDGET = 36
"""A small budget: the tests check the search's plumbing, bench/bench_strength.py its strength."""


def _played(edition: str, turns: int, seed: str = "strong-test", board=None, lineup=None):
    from pbem import editions
    from pbem.play.selfplay import bot_turn, lineup_for, start_game

    ed = editions.get(edition)
    nations = lineup or lineup_for(edition, 4)
    game, plain = start_game(f"strong-{edition}", list(nations), seed, edition, board or ed.default_board)
    for _ in range(turns):
        game, _ = bot_turn(game, plain, "greedy")
    return game, plain


@pytest.mark.parametrize("edition", ["antike", "antike2", "duellum"])
def test_the_strong_turn_is_legal_reproducible_and_within_its_budget(edition):
    from pbem.kernel.orders import canonical_orders
    from pbem.play.search import choose
    from pbem.play.selfplay import check_invariants
    from pbem.service import turns

    game, plain = _played(edition, 12)
    first = choose(game, budget=BUDGET)
    again = choose(game, budget=BUDGET)
    assert first.orders == again.orders and first.candidates == again.candidates
    assert first.simulated <= BUDGET
    assert first.candidates[0].label == "greedy"
    nation = game.state.status.active
    new, _ = turns.play(game, canonical_orders({**first.orders, "password": plain[nation]}, game.edition))
    check_invariants(new)


@pytest.mark.slow
def test_the_budget_bounds_the_search():
    from pbem.play.search import CANDIDATES, choose, horizon

    game, _ = _played("antike", 16)
    assert choose(game, budget=1).simulated == 0  # one candidate only: the greedy turn, no rollout
    wide = choose(game, budget=400)
    assert wide.simulated <= 400 and 2 < len(wide.candidates) <= min(CANDIDATES, 400 // horizon(4))
    # Successive halving: every candidate weighed at least once on the first round's
    # worlds, the greedy turn (the yardstick) to the end, the finalists the most.
    rollouts = [c.rollouts for c in wide.candidates]
    assert min(rollouts) >= 1 and rollouts[0] == max(rollouts) > min(rollouts)
    assert wide.candidates[wide.chosen].rollouts == rollouts[0]
    assert wide.chosen == 0 or wide.candidates[wide.chosen].mean > wide.candidates[0].mean
    narrow = choose(game, budget=horizon(4) * 3)  # one round only: three candidates, one rollout each
    assert [c.rollouts for c in narrow.candidates] == [1, 1, 1] and narrow.simulated <= horizon(4) * 3


@pytest.mark.parametrize("edition", ["antike", "antike2", "duellum"])
def test_the_look_aheads_quick_greedy_turn_is_legal(edition):
    """The rollouts play ``quick`` turns (Duellum: one fill per rondel target); a refused
    one would fall back to the default turn unseen, so each is sent through the checked
    entry point here."""
    from pbem.play.selfplay import bot_turn, check_invariants

    game, plain = _played(edition, 4)
    acting = 0
    for _ in range(12):
        game, orders = bot_turn(game, plain, "quick")  # turns.play raises if refused
        check_invariants(game)
        acting += any(key not in ("game", "nation", "turn", "rondel", "password") for key in orders)
    assert acting >= 4  # it plays the wedges' actions, not only rondel moves (production has none)


def _hidden_changed(game, shift: int):
    """``game`` with what the active nation may not see changed consistently: the other's
    hand and the deck hold the same cards in another arrangement, the secret and the seed
    are others."""
    st = game.state.copy()
    nation = st.status.active
    other = next(n for n in st.table.seats if n != nation)
    hand = list(st.nations[other].extra["hand"])
    pool = hand + list(st.extra["deck"])
    pool = pool[shift:] + pool[:shift]
    st.nation(other).extra["hand"] = pool[:len(hand)]
    st.extra["deck"] = list(reversed(pool[len(hand):]))
    st.extra["secret"] = f"another secret {shift}"
    changed = game.copy_with(st, list(game.history))
    changed.seed = f"another seed {shift}"
    return changed


@pytest.mark.slow
def test_the_duellum_strong_bot_never_reads_the_other_hand_or_the_deck():
    from pbem.play.search import choose

    game, plain = _played("duellum", 0, seed="hidden-cards")
    from pbem.play.selfplay import bot_turn

    checked = 0
    for turn in range(16):
        if turn % 4 == 0:
            st = game.state
            other = next(n for n in st.table.seats if n != st.status.active)
            move = choose(game, budget=BUDGET)
            for shift in (1, 3):
                changed = _hidden_changed(game, shift)
                if shift < len(st.nations[other].extra["hand"]) + len(st.extra["deck"]):
                    assert changed.state.nations[other].extra["hand"] != st.nations[other].extra["hand"] or \
                        changed.state.extra["deck"] != st.extra["deck"]
                assert choose(changed, budget=BUDGET) == move, "the strong bot read a card it may not see"
            checked += 1
        game, _ = bot_turn(game, plain, "greedy")
    assert checked == 4


def test_a_determinised_duellum_world_keeps_what_the_nation_sees_and_every_card_once():
    import random

    from pbem.play.bot import seen_by

    game, _ = _played("duellum", 9, seed="worlds")
    nation = game.state.status.active
    view = seen_by(game, nation).state
    worlds = [game.edition.secrets.determinise(view, nation, random.Random(i)) for i in range(5)]
    for world in worlds:
        assert world.nations[nation].extra["hand"] == game.state.nations[nation].extra["hand"]
        assert world.extra["display"] == game.state.extra["display"]
        assert world.extra["discards"] == game.state.extra["discards"]
        assert "?" not in world.extra["deck"] and all("?" not in ns.extra["hand"] for ns in world.nations.values())
        assert not game.edition.pieces.conservation_problems(world, game.board)
        assert Counter(world.extra["deck"]) + Counter(h for n, ns in world.nations.items() if n != nation
                                                      for h in ns.extra["hand"]) == \
            Counter(game.state.extra["deck"]) + Counter(h for n, ns in game.state.nations.items() if n != nation
                                                        for h in ns.extra["hand"])
    assert len({json.dumps(w.extra["deck"]) for w in worlds}) > 1
    assert game.edition.secrets.determinise(view, nation, random.Random(0)).extra["deck"] == worlds[0].extra["deck"]


def test_an_edition_without_secrets_is_its_own_world():
    """An edition without secrets has no secrets facet: the searching bot plays on the
    state itself (pbem.play.search)."""
    game, _ = _played("antike", 3)
    assert game.edition.secrets is None


def test_bot_level_strong_writes_an_order_file_that_check_accepts(tmp_path):
    game = new_game_file(tmp_path)
    out = tmp_path / "orders.json"
    result = cli_run("bot", game, "--level", "strong", "--budget", BUDGET, "-o", out)
    assert result.exit_code == 0, result.stderr
    orders = json.loads(out.read_text())
    orders["password"] = PASSWORDS[orders["nation"]]
    out.write_text(json.dumps(orders))
    assert cli_run("check", game, out).exit_code == 0
    again = tmp_path / "again.json"
    assert cli_run("bot", game, "--level", "strong", "--budget", BUDGET, "-o", again).exit_code == 0
    assert json.loads(again.read_text())["rondel"] == orders["rondel"]
    assert cli_run("bot", game, "--level", "stronk").exit_code != 0
    assert cli_run("bot", game, "--level", "strong", "--budget", "0").exit_code != 0


def test_options_hint_says_the_strong_move_and_the_gain_it_saw(tmp_path):
    game = new_game_file(tmp_path)
    result = cli_run("options", game, "--hint", "--budget", BUDGET)
    assert result.exit_code == 0, result.stderr
    assert "the strong bot would move" in result.stdout and "expected gain" in result.stdout
    data = json.loads(cli_run("options", game, "--hint", "--budget", BUDGET, "--json").stdout)
    hint = data["hint"]
    assert hint["gain"] >= 0 and hint["simulated"] <= BUDGET and hint["orders"]["nation"] == hint["nation"]
    assert "hint" not in json.loads(cli_run("options", game, "--json").stdout)


def test_the_mail_configuration_takes_the_strong_bot(tmp_path):
    from mailkit import config
    from pbem.errors import UsageError
    from pbem.mail.config import load_config

    game = new_game_file(tmp_path)
    cfg = load_config(config(tmp_path, game, defaults='missed = "bot"\nbot = "strong"'))
    assert cfg.games[0].bot == "strong"
    with pytest.raises(UsageError, match="greedy, random or strong"):
        load_config(config(tmp_path, game, defaults='bot = "clever"'))


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["antike", "antike2", "duellum"])
def test_whole_games_with_a_strong_seat_keep_the_invariants_and_verify(edition):
    from pbem.play.selfplay import lineup_for, play_game

    nations = lineup_for(edition, 4)
    _, rec = play_game(f"strong-{edition}", 4, "greedy", edition=edition, lineup=nations,
                       seats={nations[1]: "strong"}, budget=48)  # invariants every turn, verify at the end
    assert rec.winner is not None


def test_a_budget_out_of_bounds_or_an_unknown_level_is_refused_and_the_game_untouched(tmp_path):
    """A budget that would run for hours is refused at once, as is none at all; the message
    names the option the user wrote; the game file keeps every byte."""
    from pbem.play.search import MAX_BUDGET

    game = new_game_file(tmp_path)
    before = game.read_bytes()
    for args in (("bot", game, "--level", "strong", "--budget", str(MAX_BUDGET + 1)),
                 ("options", game, "--hint", "--budget", "99999999999999999999"),
                 ("options", game, "--hint", "--budget", "-5")):
        result = cli_run(*args)
        assert result.exit_code == 2 and f"between 1 and {MAX_BUDGET}" in result.stderr, result.stderr
    result = cli_run("bot", game, "--level", "strongest")
    assert result.exit_code == 2 and "--level 'strongest': one of random, greedy, strong" in result.stderr
    assert game.read_bytes() == before
