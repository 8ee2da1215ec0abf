"""Antike II played by the bots: what they do with its own rules, a few self-play games
(the 240-game run is bench/bench_antike2.py), and a whole game through the command line.

The bots use what Antike II adds where its rules offer it (pbem/play/bot.py): they trade
with the bank at MERCATURA's and COMMERCIUM's rates (003 L401-402) when an addition would
fail for want of a chip, attack neutral temples (003 L30, L208), choose the resource of a
city where the founder may (003 L106-108, L270-278) and mark BELLONA's free unit (003
L254). Each is checked here on a small position, then all of them in whole games.
"""

from __future__ import annotations

import json
import random

import pytest

from conftest import ROOT, bot_order_file, cli_run, edit, edition_game, load_script, played
from pbem import editions
from pbem.kernel.orders import canonical_orders
from pbem.play.bot import build_turn, play_turn
from pbem.play.options import option_lines, options
from pbem.play.selfplay import STALEMATE_TURNS, check_invariants, lineup_for, play_game
from pbem.service import turns
from pbem.service.boards import load_board, load_map_file

A2 = editions.get("antike2")
ORIENT = ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json"
THREE = ["romans", "carthaginians", "greeks"]


def a2_game(nations=THREE, first="romans", board="antike2-mare-nostrum", variants=()):
    on = load_map_file(ORIENT) if board == "orient" else load_board(board)
    return edition_game(A2, on, nations, "a2", "a2-play", first, variants)


def gm(game, *edits):
    return edit(game, *edits, reason="test position")


# -- what the bots do with Antike II's own rules ------------------------------------------------

def test_the_bot_trades_for_the_marble_a_temple_needs():
    """003 L401: MERCATURA trades 2 chips for 1. Four marble and no coin: 2 gold buy the
    fifth marble of a temple (003 L359)."""
    g = gm(a2_game(), {"nation": "romans", "knowhow": ["mercatura"],
                       "resources": {"marble": 4, "iron": 0, "gold": 3}, "coins": 0})
    orders = build_turn(g, {"to": "templum"}, random.Random(1), eager=1.0)
    assert orders["trade"] == [{"give": {"gold": 2}, "get": "marble"}]
    assert len(orders["temples"]) == 1
    assert [e["type"] for e in played(g, orders)][:2] == ["trade", "rondel"]


def test_with_commercium_the_bot_trades_three_for_two():
    """003 L402: COMMERCIUM trades 3 chips for 2, a better rate than MERCATURA's."""
    g = gm(a2_game(), {"nation": "romans", "knowhow": ["commercium", "mercatura"],
                       "resources": {"marble": 3, "iron": 0, "gold": 4}, "coins": 0})
    orders = build_turn(g, {"to": "templum"}, random.Random(1), eager=1.0)
    assert orders["trade"] == [{"give": {"gold": 3}, "get": {"marble": 2}}]
    assert len(orders["temples"]) == 1


def test_the_bot_trades_after_the_action_for_the_city_it_founds():
    """003 L401: trading "is possible at any time during a player's turn". On AURUM the
    Romans produce 3 gold (Tarentum has a temple) and a coin, and hold 2 marble, 1 gold and no
    iron: the coin pays for the iron of one city, and for the second the bot trades 2 of the
    gold produced for iron after the action ("when": "after"; before the move it held 1)."""
    g = gm(a2_game(), {"nation": "romans", "knowhow": ["mercatura"],
                       "resources": {"marble": 2, "iron": 0, "gold": 1}, "coins": 0},
           {"province": "tarentum", "temple": True}, {"province": "pisae", "units": {"romans": {"legion": 1}}},
           {"province": "mediolanum", "units": {"romans": {"legion": 1}}})
    orders = build_turn(g, {"to": "aurum"}, random.Random(1), eager=1.0)
    assert orders["trade"] == [{"give": {"gold": 2}, "get": "iron", "when": "after"}]
    assert sorted(f["city"] for f in orders["found"]) == ["mediolanum", "pisae"]
    kinds = [e["type"] for e in played(g, orders)]
    assert kinds.index("produce") < kinds.index("trade") < kinds.index("found")


def test_without_a_trading_know_how_the_bot_does_not_trade():
    g = gm(a2_game(), {"nation": "romans", "resources": {"marble": 4, "iron": 0, "gold": 3}, "coins": 0})
    orders = build_turn(g, {"to": "templum"}, random.Random(1), eager=1.0)
    assert "trade" not in orders and "temples" not in orders


def test_the_greedy_bot_destroys_a_neutral_temple():
    """003 L30, L208: a neutral temple (defence 3) falls to three units, the temple goes
    back to the bank and the conqueror earns a general; in Antike II units that end their
    move there conquer (003 L15)."""
    g = gm(a2_game(), {"province": "roma", "units": {"romans": {"legion": 3, "galley": 0}}})
    orders = play_turn(g, "greedy")
    assert orders["rondel"]["to"] == "movere"
    assert {"conquer": "ancona"} in orders["maneuver"]
    events = played(g, orders)
    conquest = next(e for e in events if e["type"] == "conquer")
    assert conquest["neutral_temple"] is True and conquest["defender"] is None
    assert {"type": "personage", "nation": "romans", "personage": "general", "reason": "temple destroyed"} in events


def test_bellona_arms_a_free_unit_marked_free():
    """003 L254: the holder of BELLONA entering MILITIA arms a unit for free, even with no
    iron and no coin; the bot marks the entry ``"free": true``, and BELLONA passes on."""
    g = gm(a2_game(), {"bellona": "romans"},
           {"nation": "romans", "resources": {"marble": 3, "iron": 0, "gold": 3}, "coins": 0})
    orders = build_turn(g, {"to": "militia"}, random.Random(2), eager=1.0)
    assert len(orders["arm"]) == 1 and orders["arm"][0]["free"] is True and orders["arm"][0]["count"] == 1
    events = played(g, orders)
    assert next(e for e in events if e["type"] == "arm")["free"] == 1
    assert next(e for e in events if e["type"] == "bellona")["to"] == "greeks"
    # without BELLONA nothing is marked (and nothing can be armed without iron or coins)
    g2 = gm(g, {"bellona": "greeks"})
    assert "arm" not in build_turn(g2, {"to": "militia"}, random.Random(2), eager=1.0)


def test_a_city_on_a_choice_site_gets_the_resource_held_least():
    """003 L270-278: on a site showing all three resources the founder chooses; the bot
    takes the type it has fewest cities of (here one of each), then the chip it holds least."""
    g = a2_game(["greeks", "persians", "phoenicians"], first="greeks", board="orient")
    g = gm(g, {"province": "paphos", "units": {"greeks": {"legion": 0, "galley": 1}}},
           {"nation": "greeks", "resources": {"marble": 5, "iron": 5, "gold": 1}})
    orders = build_turn(g, {"to": "templum"}, random.Random(3), eager=0.0)
    assert orders["found"] == [{"city": "paphos", "resource": "gold"}]
    events = played(g, orders)
    assert next(e for e in events if e["type"] == "found")["resource"] == "gold"


def test_free_city_types_choose_the_type_the_nation_lacks_and_keep_the_printed_one_else():
    """003 L106-108 (variant): every founder chooses. The Romans own two gold cities and one
    each of marble and iron: a city on a gold site becomes an iron one (the chip held
    least); on a marble site the printed marble is as good as any, so nothing is asked."""
    g = a2_game(variants=("free_city_types",))
    g = gm(g, {"province": "syracus", "owner": "romans"},
           {"province": "aquileia", "units": {"romans": {"legion": 1, "galley": 0}}},
           {"nation": "romans", "resources": {"marble": 3, "iron": 1, "gold": 3}, "coins": 0})
    orders = build_turn(g, {"to": "templum"}, random.Random(4), eager=0.0)
    assert orders["found"] == [{"city": "aquileia", "resource": "iron"}]
    played(g, orders)
    g = gm(g, {"province": "aquileia", "units": {"romans": {"legion": 0, "galley": 0}}},
           {"province": "pisae", "units": {"romans": {"legion": 1, "galley": 0}}},
           {"province": "syracus", "owner": None})
    orders = build_turn(g, {"to": "templum"}, random.Random(4), eager=0.0)
    assert orders["found"] == [{"city": "pisae"}]


def test_options_tell_trades_free_units_and_neutral_temples():
    g = gm(a2_game(), {"nation": "romans", "knowhow": ["commercium", "mercatura"]}, {"bellona": "romans"},
           {"province": "roma", "units": {"romans": {"legion": 3, "galley": 0}}})
    data = options(g)
    assert data["trade"] == [{"give": 2, "get": 1}, {"give": 3, "get": 2}]
    militia = next(t for t in data["targets"] if t["wedge"] == "militia")
    assert militia["effect"]["free"] == 1
    movere = next(t for t in data["targets"] if t["wedge"] == "movere")
    assert {"city": "ancona", "owner": None, "defence": 3, "units_in_reach": 3, "temple": True} \
        in movere["effect"]["conquerable"]
    text = "\n".join(option_lines(data, g))
    assert "may trade with the bank at any time of the turn: 2 chips for 1, 3 chips for 2, or a multiple" in text
    assert "1 unit armed free (BELLONA)" in text
    assert "can conquer the neutral temple in Ancona: defence 3, 3 of your units can reach it this turn" in text
    assert "None" not in text
    assert "trade" not in options(a2_game())


# -- self-play: a few whole games (bench/bench_antike2.py plays 240) ------------------------------

def _bench():
    return load_script("bench/bench_antike2.py")


def test_lineups_are_the_boards():
    seats = json.loads((ROOT / "maps" / "antike2-mare-nostrum.json").read_text(encoding="utf-8"))["nations"]
    lineups = {n: list(v) for n, v in editions.get("antike2").selfplay_lineups.items()}
    assert {int(k): v for k, v in seats.items()} == lineups
    assert lineup_for("a2", 4) == lineups[4]
    game, rec = play_game("lineup", 3, "random", edition="antike2", check_every_turn=False, verify_at_end=False)
    assert rec.board == "antike2-mare-nostrum" and list(rec.lineup) == lineups[3]


@pytest.mark.slow
def test_a_few_bot_games_to_a_win_keep_every_invariant():
    """The bench's short version: 3 to 6 nations, both boards, both modes, both variants and
    none; invariants after every turn and verify at the end (inside ``play_game``). Between
    them the bots trade, destroy neutral temples, arm free units and choose city types."""
    bench = _bench()
    picked = [11, 8, 14, 25, 17]
    configs = [bench.CONFIGS[i] for i in picked]
    assert {c[1] for c in configs} == {3, 4, 5, 6} and {c[2] for c in configs} == {"greedy", "random"}
    assert {c[3] for c in configs} == {(), ("nine_scholars",), ("free_city_types",)}
    outcomes = [bench.one(i) for i in picked]
    assert [o.failure for o in outcomes] == [""] * len(picked)
    for o in outcomes:
        assert o.winner is not None or o.turns == STALEMATE_TURNS
    used = sum((o.used for o in outcomes), type(outcomes[0].used)())
    for what in ("trades", "neutral temples destroyed", "units armed free (BELLONA)", "cities of a chosen type"):
        assert used[what] > 0, (what, used)
    lines = bench.table(outcomes, 1.0, 1)
    assert lines[-1].startswith("every turn accepted by check")
    assert any(line.startswith("wins per nation") for line in lines)


def test_the_bot_buys_the_eighth_know_how_and_wins_pliny():
    """003 L218-220 (nine scholars): the first nation owning all eight know-hows gets Pliny
    the Elder, a ninth scholar, a card beyond the thresholds it earned; the invariants
    still hold."""
    g = a2_game(variants=("nine_scholars",))
    seven = ["commercium", "mercatura", "metallum", "moneta", "regnum", "res_publica", "strata"]
    g = gm(g, {"nation": "romans", "knowhow": seven, "resources": {"gold": 9}})
    orders = build_turn(g, {"to": "scientia"}, random.Random(5), eager=1.0)
    assert orders["knowhow"] == [{"name": "navigatio"}]
    after, _ = turns.play(g, canonical_orders({**orders, "password": "pw-romans"}, A2))
    assert after.state.status.extra["pliny"] == "romans"
    assert after.state.nations["romans"].personages["scholar"] == 2
    check_invariants(after)


def test_invariants_count_neutral_temples_and_pliny():
    g = a2_game(variants=("nine_scholars",))
    check_invariants(g)
    rules = A2.rules_for(g.state.table)
    assert rules.personage_stacks["scholar"] == 9 and rules.bank_coins == 30
    assert g.state.bank.temples == 20 - 3
    broken = gm(g, {"province": "ancona", "neutral_temple": False})
    check_invariants(broken)  # the temple went back to the bank
    broken.state.bank.temples -= 1
    with pytest.raises(AssertionError, match="temples not conserved"):
        check_invariants(broken)


# -- a whole game through the command line ---------------------------------------------------------

@pytest.mark.slow
def test_a_whole_antike2_game_through_the_command_line(tmp_path):
    """``new --edition antike2``, then every turn by the bot: its order file (``bot -o``,
    the password put in) processed like a player's, or played at once (``bot --apply``),
    now and then ``check`` and ``options`` first; until a nation wins. Then ``verify``
    passes, ``show --json`` has BELLONA and the winner, and the last turn's report renders."""
    game = tmp_path / "a2.json"
    pw = [a for n in THREE for a in ("--password", f"{n}=pw-{n}")]
    made = cli_run("new", game, "--edition", "antike2", "--board", "antike2-mare-nostrum", "--nations",
                   ",".join(THREE), "--seed", "cli-a2", "--kdf-iterations", 1000, *pw)
    assert made.exit_code == 0, made.stderr
    assert "ruling, not printed" in made.stdout
    orders = tmp_path / "orders.json"
    played_turns = 0
    while not json.loads(game.read_text(encoding="utf-8"))["status"]["winner"]:
        assert played_turns < STALEMATE_TURNS
        if played_turns % 2:
            done = cli_run("bot", game, "--mode", "greedy", "--apply")
            assert done.exit_code == 0, done.stderr
        else:
            bot_order_file(game, orders, "greedy" if played_turns % 10 else "random")
            if played_turns % 20 == 0:
                assert cli_run("check", game, orders).exit_code == 0
                assert cli_run("options", game).exit_code == 0
            done = cli_run("process", game, orders)
            assert done.exit_code == 0, done.stderr
        played_turns += 1
    assert cli_run("verify", game).exit_code == 0
    view = json.loads(cli_run("show", game, "--json").stdout)
    assert view["bellona"] in THREE and view["winner"] in THREE
    assert view["nations"][view["winner"]]["score"] >= view["nations"][view["winner"]]["goal"]
    final = json.loads(game.read_text(encoding="utf-8"))
    kinds = {e["type"] for entry in final["history"] for e in entry.get("events", [])}
    assert {"trade", "bellona", "conquer", "found", "won"} <= kinds
    out = tmp_path / "reports"
    rendered = cli_run("render", game, "--format", "txt,svg", "--out", out)
    assert rendered.exit_code == 0, rendered.stderr
    text = next(out.glob("*.txt")).read_text(encoding="utf-8")
    assert A2.nations[view["winner"]].name in text
    assert next(out.glob("*.svg")).stat().st_size > 1000
    after = cli_run("bot", game, "--mode", "greedy", "--apply")
    assert after.exit_code == 4 and "orders/game-over" in after.stderr
