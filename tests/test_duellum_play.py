"""Antike Duellum played by the bots: what they do with its own rules, a few self-play
games (the 200-game run is bench/bench_duellum.py), and a whole game through the command
line.

The bots (pbem/play/bot.py) recruit into the recruitment box on SCIENTIA (001 L340), arm
from it on MILITIA (001 L284), build temples with their coin per neighbouring temple and
town walls on TEMPLUM (001 L262-266), found cities of a resource they choose where the
coin surcharge is lowest and a token is left (001 L197), conquer with every unit in the
region (001 L356), trade with COMMERCIUM 3 for 2 (001 L336), play the event cards they
hold (001 L427) and keep standing orders for FORTRESS and the cards they draw. They read
only what their nation may see (D18): the same orders come from the GM's file, from that
nation's copy, and from a game whose hidden cards are others. Each is checked here on a
small position (a GM edit of a new game), then all of them in whole games.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from conftest import ROOT, bot_order_file, cli_run, edit, edition_game, load_script, played
from pbem import editions
from pbem.editions.duellum.pieces import walls_of
from pbem.kernel.orders import canonical_orders
from pbem.kernel.turn import resolve
from pbem.play.bot import build_turn, play_turn
from pbem.play.options import option_lines, options
from pbem.play.selfplay import STALEMATE_TURNS, check_invariants, conservation_problems, lineup_for
from pbem.service import copies, turns
from pbem.service.boards import load_board, load_map_file
from pbem.service.store import game_from_data

DU = editions.get("duellum")
AEGEAN = ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"
FRONT = ["carthaginians", "romans"]


def du_game(first="carthaginians", variants=(), board="duellum-rome-carthage", nations=FRONT, seed="du-play"):
    on = load_map_file(AEGEAN) if board == "aegean" else load_board(board)
    return edition_game(DU, on, nations, "du", seed, first, variants)


def gm(game, *edits):
    return edit(game, *edits, reason="test position")


def greedy_turn(game, wedge, seed=1):
    """The greedy bot's fill of a move to ``wedge`` (as ``play_turn`` fills every target)."""
    return build_turn(game, {"to": wedge}, random.Random(seed), eager=1.0, greedy=True, march=True)


def of(events, kind):
    return [e for e in events if e["type"] == kind]


# -- the recruitment box ---------------------------------------------------------------------------

def test_the_bot_recruits_into_an_empty_box():
    """001 L340: SCIENTIA recruits from the supply into the box, 1 gold a legion and 2 a
    galley. Box empty, 5 gold, no know-how affordable: as many units as the three cities
    can arm, galleys and a legion."""
    g = gm(du_game(), {"nation": "carthaginians", "recruitment": {"legion": 0, "galley": 0},
                       "resources": {"gold": 5}})
    orders = greedy_turn(g, "scientia")
    assert orders["recruit"] == {"legion": 1, "galley": 2}
    recruit, = of(played(g, orders), "recruit")
    assert recruit["units"] == {"legion": 1, "galley": 2} and recruit["paid"] == {"gold": 5}


def test_the_bot_arms_only_what_the_box_holds():
    """001 L284: MILITIA arms units of the box only, 2 iron each, 1 per city without a
    temple. The box holds a legion and a galley: two units, 4 iron, the galley in a city
    on the sea."""
    g = gm(du_game(), {"nation": "carthaginians", "resources": {"iron": 9}})
    orders = greedy_turn(g, "militia")
    armed = of(played(g, orders), "arm")
    assert sorted((e["unit"], e["count"]) for e in armed) == [("galley", 1), ("legion", 1)]
    assert sum(e["paid"].get("iron", 0) for e in armed) == 4
    assert all(g.board.can_arm(e["at"], e["unit"]) for e in armed)
    empty = gm(g, {"nation": "carthaginians", "recruitment": {"legion": 0, "galley": 0}})
    assert "arm" not in greedy_turn(empty, "militia")


def test_the_bot_arms_its_special_unit_at_a_temple_city():
    """001 L435 (variant): the Admiral costs 3 iron and is armed only at a city with a
    temple; the bot arms it first, then the box's other units."""
    g = du_game(first="romans", variants=("special_units",))
    g = gm(g, {"province": "roma", "temple": True}, {"nation": "romans", "resources": {"iron": 7}})
    orders = greedy_turn(g, "militia")
    assert orders["arm"][0] == {"unit": "admiral", "at": "roma", "count": 1}
    armed = of(played(g, orders), "arm")
    assert armed[0]["paid"] == {"iron": 3} and {e["unit"] for e in armed} == {"admiral", "legion", "galley"}
    text = "\n".join(option_lines(options(g), g))
    assert "in the recruitment box: 1 legion, 1 galley, 1 admiral" in text
    assert "the admiral costs 3 iron and is armed only at a city with a temple" in text


# -- TEMPLUM: temples and walls --------------------------------------------------------------------

def test_temples_cost_a_coin_per_neighbouring_temple_and_walls_guard_a_threatened_city():
    """001 L262: a temple costs 6 marble and a coin per temple already next to it (coins
    only), paid one after another. With a temple in Caesarea and no coin, Zama (next to
    Caesarea) cannot have one, Carthago can; with two coins both (Zama's second coin for
    Carthago's new temple). 001 L266: a town wall from the supply for 1 marble, where the
    rival's units could attack."""
    g = gm(du_game(), {"province": "caesarea", "temple": True},
           {"province": "mare_africum", "units": {"romans": {"legion": 0, "galley": 2}}},
           {"nation": "carthaginians", "resources": {"marble": 13}, "coins": 0})
    orders = greedy_turn(g, "templum")
    assert orders["temples"] == [{"city": "carthago"}]
    assert orders["walls"][0] == {"city": "carthago"}
    events = played(g, orders)
    assert of(events, "temple")[0]["paid"] == {"marble": 6}
    assert of(events, "wall")[0]["paid"] == {"marble": 1}
    # temples are paid one after another: Zama then has two temples next to it
    rich = gm(g, {"nation": "carthaginians", "coins": 2})
    orders = greedy_turn(rich, "templum")
    assert [t["city"] for t in orders["temples"]] == ["carthago", "zama"]
    zama = next(e for e in of(played(rich, orders), "temple") if e["city"] == "zama")
    assert zama["paid"] == {"marble": 6, "coin": 2}


def test_with_commercium_the_bot_trades_three_for_two():
    """001 L336: COMMERCIUM trades 3 chips for 2, never for coins. Four marble, no coin:
    3 gold buy the two marble a temple lacks."""
    g = gm(du_game(), {"nation": "carthaginians", "knowhow": ["commercium"],
                       "resources": {"marble": 4, "iron": 0, "gold": 3}, "coins": 0})
    orders = greedy_turn(g, "templum")
    assert orders["trade"] == [{"give": {"gold": 3}, "get": {"marble": 2}}]
    assert len(orders["temples"]) == 1


# -- founding -----------------------------------------------------------------------------------------

def test_a_new_city_takes_the_resource_with_the_fewest_neighbours_of_its_type():
    """001 L197: the founder chooses the resource, and pays a coin per neighbouring city of
    that resource. In Tacape, next to Carthago (gold) and Zama (marble), iron costs no coin."""
    g = gm(du_game(), {"province": "tacape", "units": {"carthaginians": {"legion": 1, "galley": 0}}})
    orders = greedy_turn(g, "ferrum")
    assert orders["found"] == [{"city": "tacape", "resource": "iron"}]
    found, = of(played(g, orders), "found")
    assert found["resource"] == "iron" and "coin" not in found["paid"]


def test_no_city_of_a_type_whose_tokens_ran_out():
    """001 L33-38, L467: 12 iron city tokens. With twelve iron cities on the board the bot
    founds Tacape as marble or gold (a coin for the neighbour of that type)."""
    iron = ["agrigentum", "ancona", "apollonia", "aquileia", "baecula", "carales", "cremona", "croton", "epidaurum",
            "genua"]
    g = gm(du_game(), *({"province": p, "owner": "romans", "resource": "iron"} for p in iron),
           {"province": "tacape", "units": {"carthaginians": {"legion": 1, "galley": 0}}},
           {"nation": "carthaginians", "coins": 1})
    orders = greedy_turn(g, "ferrum")
    assert orders["found"][0]["city"] == "tacape" and orders["found"][0]["resource"] in ("marble", "gold")
    assert of(played(g, orders), "found")[0]["paid"]["coin"] == 1


# -- the maneuver ---------------------------------------------------------------------------------------

def test_units_in_a_rival_city_conquer_it_without_moving():
    """001 L356, L493: every unit in the region counts; no movement is needed. Neapolis
    (defence 1) falls to the legion standing in it."""
    g = gm(du_game(), {"province": "neapolis", "units": {"carthaginians": {"legion": 1, "galley": 0}}})
    orders = greedy_turn(g, "duellum")
    assert {"conquer": "neapolis"} in orders["maneuver"]
    assert not [s for s in orders["maneuver"] if s.get("from") == "neapolis"]
    conquest, = of(played(g, orders), "conquer")
    assert conquest["city"] == "neapolis" and conquest["used"] == {"legion": 1, "galley": 0}


def test_the_greedy_bot_gathers_units_and_takes_the_temple_city():
    """001 L358-369: a city with a temple defends with 3 and its units; its conquest
    destroys the temple, a general (001 L157). Two galleys sail in from the Tyrrhenian Sea
    to join the legion already in Roma; all moves come before the conquest."""
    g = gm(du_game(), {"province": "roma", "temple": True},
           {"province": "roma", "units": {"carthaginians": {"legion": 1, "galley": 0}}},
           {"province": "mare_tyrrhenum", "units": {"carthaginians": {"legion": 0, "galley": 2}}})
    orders = play_turn(g, "greedy")
    steps = orders["maneuver"]
    assert steps[-1] == {"conquer": "roma"} and all("move" in s for s in steps[:-1])
    events = played(g, orders)
    conquest, = of(events, "conquer")
    assert conquest["temple_destroyed"] is True and conquest["defence"] == 3
    assert any(e["type"] == "personage" and e["nation"] == "carthaginians" for e in events)


def test_galleys_spread_over_the_seas():
    """001 L165: a sea without a city counts double for navigators; the bot sends its
    galleys to seas no galley of its holds."""
    g = gm(du_game(), {"province": "mare_africum", "units": {"carthaginians": {"legion": 0, "galley": 3}}},
           {"nation": "carthaginians", "resources": {"marble": 0, "iron": 0, "gold": 0}})  # no settlers
    orders = build_turn(g, {"to": "duellum"}, random.Random(1), eager=1.0, greedy=False, march=False)
    assert orders is not None
    spread = build_turn(g, {"to": "duellum"}, random.Random(1), eager=1.0, greedy=True, march=False)
    moved = [s for s in spread["maneuver"] if "move" in s]
    ends = {s["path"][-1] for s in moved}
    assert len(moved) == 2 and len(ends) == 2 and all(g.board.province(p).double for p in ends)


# -- event cards and standing orders --------------------------------------------------------------------

def test_burglary_is_played_when_the_rival_holds_coins():
    """BURGLARY: the rival loses half of its coins, rounded down (docs/duellum.md)."""
    g = gm(du_game(), {"nation": "carthaginians", "hand": ["burglary"]}, {"nation": "romans", "coins": 7})
    orders = play_turn(g, "greedy")
    assert orders["events"] == [{"play": "burglary"}]
    card, = of(played(g, orders), "card")
    assert card["effects"] == [{"kind": "pay", "nation": "romans", "to": "bank", "coins": 3}]
    poor = gm(g, {"nation": "romans", "coins": 1})
    assert "events" not in play_turn(poor, "greedy")


def test_earthquake_breaks_the_wall_of_a_city_the_units_can_then_take():
    """EARTHQUAKE destroys a town wall (docs/duellum.md); Neapolis with its wall defends
    with 2, without it with 1: the legion standing there takes it."""
    g = gm(du_game(), {"nation": "carthaginians", "hand": ["earthquake"]}, {"province": "neapolis", "wall": True},
           {"province": "neapolis", "units": {"carthaginians": {"legion": 1, "galley": 0}}})
    orders = greedy_turn(g, "duellum")
    assert orders["events"] == [{"play": "earthquake", "city": "neapolis"}]
    assert {"conquer": "neapolis"} in orders["maneuver"]
    events = played(g, orders)
    assert of(events, "card")[0]["effects"] == [{"kind": "remove", "wall": "neapolis", "owner": "romans"}]
    assert of(events, "conquer")[0]["defence"] == 1


def test_academy_is_played_on_scientia():
    """ACADEMY: on SCIENTIA, after the rondel move (001 L427: its text fixes the moment), 1 gold
    per know-how the rival owns; the gold buys a know-how in the same turn."""
    g = gm(du_game(), {"nation": "carthaginians", "hand": ["academy"], "resources": {"gold": 4}},
           {"nation": "romans", "knowhow": ["strata", "moneta"]})
    orders = greedy_turn(g, "scientia")
    assert orders["events"] == [{"play": "academy", "when": "after_move"}]
    assert orders["knowhow"] == [{"name": "navigatio"}]
    assert of(played(g, orders), "card")[0]["effects"] == [{"kind": "gain", "chips": {"gold": 2}}]
    assert "events" not in greedy_turn(g, "aurum")


def test_fortress_is_never_played_on_its_own_turn_and_the_standing_orders_rank_the_cards():
    """FORTRESS is played by the standing order in the rival's turn (001 L429); the bot
    keeps it ``always`` and ranks the cards it would draw: EARTHQUAKE first while the
    rival has walls."""
    g = gm(du_game(), {"nation": "carthaginians", "hand": ["fortress"]},
           {"province": "roma", "wall": True}, {"province": "neapolis", "wall": True},
           {"standing": {"fortress": "never"}, "nation": "carthaginians"})
    orders = play_turn(g, "greedy")
    assert "events" not in orders
    assert orders["standing"]["fortress"] == "always"
    assert orders["standing"]["draw"][0] == "earthquake"
    after = resolve(g.state, orders, DU, g.board).state
    assert after.standing["carthaginians"].extra["draw"][0] == "earthquake"


# -- only what the nation may see ------------------------------------------------------------------------

def _swapped(game):
    """``game`` with every card the active nation may not see changed, and the seed."""
    st = game.state.copy()
    other = next(n for n in st.table.seats if n != st.status.active)
    kinds = sorted(DU.cards.catalogue(st.table.data))
    st.nation(other).extra["hand"] = [kinds[(kinds.index(c) + 1) % len(kinds)] for c in st.nations[other].extra["hand"]]
    st.extra["deck"] = list(reversed(st.extra["deck"]))
    st.extra["secret"] = "0" * 64
    changed = game.copy_with(st, list(game.history))
    changed.seed = "another seed"
    return changed


SMALL_DECK = {"event_cards": [
    *({"id": f"card_{i:02d}", "name": f"Harvest {i}", "effect": [{"kind": "gain", "chips": {"gold": 1}}]} for i in (5, 6)),
    *({"id": c, "count": 0} for c in [*(f"card_{i:02d}" for i in range(7, 26)), "blank_1", "blank_2"])]}
"""Six cards the bots can play: the deck runs out and the discards are reshuffled soon."""


@pytest.mark.parametrize("data", [None, SMALL_DECK], ids=["printed-deck", "reshuffled-deck"])
def test_the_bot_reads_only_its_own_nations_view(data):
    """D18: the other's hand, the deck, the shuffle secret and the seed are not the bot's
    to read. Over 40 turns of a bot game its orders are the same from the GM's file, from
    the nation's copy (copies.player_copy) and from a game whose hidden cards are others;
    also over the reshuffles of the discards into a new deck (001 L431)."""
    from pbem.play.selfplay import bot_turn, start_game

    game, plain = start_game("du-view", FRONT, "view-1", "duellum", "duellum-rome-carthage", data=data)
    hands = 0
    for _ in range(40):
        nation = game.state.status.active
        copy = game_from_data(copies.player_copy(game, nation), "copy")
        for mode in ("greedy", "random"):
            orders = play_turn(game, mode)
            assert play_turn(copy, mode) == orders
            assert play_turn(_swapped(game), mode) == orders
        hands += len(game.state.nations[nation].extra["hand"]) > 0
        game, _ = bot_turn(game, plain, "greedy")
    assert hands > 0
    if data is not None:
        assert game.state.extra["shuffles"] > 0, "no reshuffle in the game: the test proved nothing"


# -- options ------------------------------------------------------------------------------------------------

def test_options_show_the_box_the_supply_walls_recruiting_and_the_own_hand_only():
    g = gm(du_game(), {"nation": "carthaginians", "hand": ["burglary"], "recruitment": {"legion": 2, "galley": 0}},
           {"nation": "romans", "hand": ["earthquake"]}, {"province": "carthago", "wall": True},
           {"province": "caesarea", "temple": True})
    data = options(g)
    assert data["hand"] == ["burglary"] and data["hand_size"] == 1
    assert data["recruitment"] == {"legion": 2, "galley": 0} and data["supply"] == {"legion": 10, "galley": 12}
    assert data["walls"] == ["carthago"] and data["walls_supply"] == 1
    assert set(data["display"]) | {"burglary", "earthquake"} >= set(data["display"]) and "deck_size" in data
    by_wedge = {t["wedge"]: t for t in data["targets"]}
    assert by_wedge["militia"]["effect"]["box"] == {"legion": 2, "galley": 0}
    assert by_wedge["scientia"]["effect"]["recruit"]["price"] == {"legion": {"gold": 1}, "galley": {"gold": 2}}
    assert by_wedge["templum"]["effect"]["walls"]["supply"] == 1
    assert by_wedge["templum"]["effect"]["surcharge"] == {"zama": 1}
    text = "\n".join(option_lines(data, g))
    assert "recruitment box: 2 legions, 0 galleys (MILITIA arms only these); supply: 10 legions, 12 galleys" in text
    assert "town walls: 1 in the supply; built in: Carthago" in text
    assert "Burglary (burglary): played before the rondel move, after the rondel move or after the action: the opponent pays 1 coin for each 2 coins the opponent holds (rounded down)" in text
    assert "1 gold a legion, 2 gold a galley" in text
    assert "in the recruitment box: 2 legions, 0 galleys" in text
    assert "plus 1 coin per temple in a neighbouring region, paid in coins: Zama 1" in text
    # the romans' card is nowhere, unless it lies open on the display
    if "earthquake" not in data["display"]:
        assert "earthquake" not in json.dumps(data).lower() and "Earthquake" not in text
    assert options(_swapped(g)) == data


# -- self-play: a few whole games (bench/bench_duellum.py plays 240) ---------------------------------------

def _bench():
    return load_script("bench/bench_duellum.py")


def test_lineups_and_invariants():
    seats = json.loads((ROOT / "maps" / "duellum-rome-carthage.json").read_text(encoding="utf-8"))["nations"]
    lineups = {n: list(v) for n, v in editions.get("duellum").selfplay_lineups.items()}
    assert {int(k): v for k, v in seats.items()} == lineups
    assert lineup_for("duellum", 4) == FRONT
    g = du_game()
    check_invariants(g)
    broken = g.copy_with(g.state.copy(), list(g.history))
    broken.state.nation("romans").extra["recruitment"] = {"legion": 13, "galley": 1}
    assert any("romans legions" in p for p in conservation_problems(broken))
    broken = g.copy_with(g.state.copy(), list(g.history))
    broken.state.extra["display"] = broken.state.extra["display"][1:]
    assert any(p.startswith("event cards") for p in conservation_problems(broken))
    with pytest.raises(AssertionError):
        check_invariants(broken)


@pytest.mark.slow
def test_a_few_bot_games_to_a_win_keep_every_invariant():
    """The bench's short version: both boards, both modes, both variants; after every turn
    the file validates and writes back byte for byte, the same orders give the same bytes,
    the conservation laws hold, and every tenth turn the orders do not depend on the cards
    the bot may not see; verify at the end. Between them the bots recruit, build walls,
    play and draw cards, conquer, fight, and FORTRESS is played."""
    bench = _bench()
    picked = [16, 13, 3, 22]
    configs = [bench.CONFIGS[i % len(bench.CONFIGS)] for i in picked]
    assert {c[0] for c in configs} == {"duellum-rome-carthage", "aegean-excerpt"}
    assert {c[2] for c in configs} == {"greedy", "random"} and {c[3] for c in configs} == {(), ("special_units",)}
    outcomes = [bench.one(i) for i in picked]
    assert [o.failure for o in outcomes] == [""] * len(picked)
    assert all(o.winner is not None for o in outcomes)
    used = sum((o.used for o in outcomes), Counter())
    for what in ("recruitments", "walls built", "cards played", "cards drawn", "conquests", "battles",
                 "cities founded", "special unit armed", "orders checked against hidden cards"):
        assert used[what] > 0, (what, used)
    assert used["FORTRESS held a city"] + used["FORTRESS cost a unit"] > 0
    lines = bench.table(outcomes, 1.0, 1)
    assert lines[-1].startswith("every turn accepted by check")


# -- a whole game through the command line ----------------------------------------------------------------

@pytest.mark.slow
def test_a_whole_duellum_game_through_the_command_line(tmp_path):
    """``new --edition duellum``, then every turn by the bot: its order file (``bot -o``,
    the password put in) checked and processed like a player's, or played at once (``bot
    --apply``), now and then ``options`` and ``show --json --as`` first; until a nation
    wins. Then ``verify`` passes and the last turn's report renders."""
    game = tmp_path / "du.json"
    pw = [a for n in FRONT for a in ("--password", f"{n}=pw-{n}")]
    made = cli_run("new", game, "--edition", "duellum", "--nations",  # the edition's board by default
                   ",".join(FRONT), "--seed", "cli-du", "--kdf-iterations", 1000, *pw,
                   "--report-dir", tmp_path / "r", "--format", "txt,svg")
    assert made.exit_code == 0, made.stderr
    said = sorted(line for line in made.stdout.splitlines() if line.startswith("reports:"))
    stem = tmp_path / "r" / "du-turn-000"
    assert said == sorted(f"reports: {stem}{private}.{{svg,txt}}" for private in ("", *(f".{n}" for n in FRONT))), \
        made.stdout  # one line per report: the public one and each nation's private one
    assert json.loads(game.read_text(encoding="utf-8"))["board"]["id"] == "duellum-rome-carthage"
    orders = tmp_path / "orders.json"
    played_turns = 0
    while not json.loads(game.read_text(encoding="utf-8"))["status"]["winner"]:
        assert played_turns < STALEMATE_TURNS
        if played_turns % 2:
            done = cli_run("bot", game, "--mode", "greedy", "--apply")
            assert done.exit_code == 0, done.stderr
        else:
            data = bot_order_file(game, orders, "greedy")
            if played_turns % 20 == 0:
                assert cli_run("check", game, orders).exit_code == 0
                shown = cli_run("options", game)
                assert shown.exit_code == 0 and "recruitment box:" in shown.stdout
                view = json.loads(cli_run("show", game, "--json", "--as", data["nation"]).stdout)
                other = next(n for n in FRONT if n != data["nation"])
                assert "hand" in view["nations"][data["nation"]] and "hand" not in view["nations"][other]
            done = cli_run("process", game, orders)
            assert done.exit_code == 0, done.stderr
        played_turns += 1
    assert cli_run("verify", game).exit_code == 0
    view = json.loads(cli_run("show", game, "--json").stdout)
    assert view["winner"] in FRONT
    assert view["nations"][view["winner"]]["score"] >= 9
    final = json.loads(game.read_text(encoding="utf-8"))
    kinds = Counter(e["type"] for entry in final["history"] for e in entry.get("events", []))
    assert {"recruit", "arm", "wall", "conquer", "found", "draw", "won"} <= set(kinds)
    out = tmp_path / "reports"
    rendered = cli_run("render", game, "--format", "txt,svg", "--out", out)
    assert rendered.exit_code == 0, rendered.stderr
    text = next(out.glob("*.txt")).read_text(encoding="utf-8")
    assert DU.nations[view["winner"]].name in text
    after = cli_run("bot", game, "--mode", "greedy", "--apply")
    assert after.exit_code == 4 and "orders/game-over" in after.stderr


def test_undo_default_turn_history_and_post_for_duellum(tmp_path):
    """The GM's tools in Duellum: ``undo`` takes back turns in which cards were drawn and
    the file is byte for byte the one written before them (the deck, the display and the
    hands come back with the replay); ``default-turn`` plays a missing player's turn
    (D15, Duellum's rondel) and is logged; ``history`` and ``post`` name no hidden card."""
    game = tmp_path / "du.json"
    pw = [a for n in FRONT for a in ("--password", f"{n}=pw-{n}")]
    names = ["Zephyrus", "Quincunx", "Vexillum", "Xanthippe", "Ozymandias", "Jugurtha"]
    cards = tmp_path / "cards.json"  # cards whose names appear nowhere else in a report
    cards.write_text(json.dumps({"event_cards": [{"id": f"card_{i + 5:02d}", "name": name, "effect": {
        "kind": "gain", "chips": {"gold": 1}}} for i, name in enumerate(names)]}), encoding="utf-8")
    assert cli_run("new", game, "--edition", "duellum", "--nations", ",".join(FRONT), "--seed", "undo-du",
                   "--kdf-iterations", 1000, "--data", cards, *pw).exit_code == 0
    saved, drawn, secret = None, 0, set()
    for turn in range(150):
        if saved is None and turn >= 8:
            saved, at = game.read_bytes(), turn
        assert cli_run("bot", game, "--mode", "greedy", "--apply").exit_code == 0
        data = json.loads(game.read_text(encoding="utf-8"))
        if data["status"]["winner"]:
            break
        events = [e for entry in data["history"] for e in entry.get("events", [])]
        played_openly = {e.get("card") for e in events if e["type"] in ("card", "fortress")}
        secret = {e["card"] for e in events if e["type"] == "draw"} - played_openly
        if saved is not None:
            drawn += sum(1 for e in data["history"][-1].get("events", []) if e["type"] == "draw")
            if drawn and secret:
                break
    assert drawn and secret, "no card drawn and kept hidden: the test proved nothing"
    for command in (("history", game), ("post", game)):
        out = cli_run(*command)
        assert out.exit_code == 0, out.stderr
        # the standing orders are public (D18): the cards a bot would draw first name them all
        text = "\n".join(line for line in out.stdout.upper().splitlines() if "DRAW" not in line)
        for cid in secret:  # a card drawn and never played is named nowhere public
            number = int(cid[5:]) - 5 if cid.startswith("card_") else len(names)
            name = names[number] if number < len(names) else cid
            assert cid.upper() not in text and name.upper() not in text, (command[0], cid)
    back = turn - at + 1
    undone = cli_run("undo", game, "--turns", back, "--reason", "test")
    assert undone.exit_code == 0, undone.stderr
    assert game.read_bytes() == saved
    active = json.loads(game.read_text(encoding="utf-8"))["status"]["active"]
    played = cli_run("default-turn", game, active)
    assert played.exit_code == 0, played.stderr
    data = json.loads(game.read_text(encoding="utf-8"))
    assert data["history"][-1]["kind"] == "default-turn" and data["status"]["active"] != active
    assert cli_run("verify", game).exit_code == 0


def test_the_vp_track_never_gives_a_seventh_wall():
    """Found by the property soak: a GM edit put walls into a nation's supply, and the VP
    track then gave its own wall too (seven walls; the game file no longer loaded). The
    track gives only what the nation lacks of its six (001 L39: 6 walls a player)."""
    game = du_game()
    nation = game.state.status.active
    built = len(walls_of(game.state, nation))
    game = gm(game, {"nation": nation, "walls_supply": 6 - built, "personages": {"king": 1}})
    assert game.state.nations[nation].extra["vp"] == 0  # an edit does not move the marker
    orders = {"game": "du", "nation": nation, "turn": game.state.status.turn, "password": f"pw-{nation}",
              "rondel": {"to": "marmor"}}
    new, result = turns.play(game, canonical_orders(orders, DU))
    after = new.state.nations[nation].extra
    assert after["vp"] == 1, "the marker did not pass a wall symbol: the test proved nothing"
    assert len(walls_of(new.state, nation)) + after["walls_supply"] == 6
    assert not of(result.events, "walls")
    assert conservation_problems(new) == []


def test_the_bots_play_duellum_by_its_own_strategy_and_classic_by_the_shared_one():
    """The edition hooks the bots and the self-play checks ask (issue 29): Duellum brings
    its strategy and its conservation laws; classic and Antike II take the shared play and
    have no laws of their own beyond the shared ones."""
    from pbem.editions.duellum.strategy import DuellumStrategy
    from pbem.play.bot import SHARED, strategy_of

    assert isinstance(strategy_of(editions.get("duellum")), DuellumStrategy)
    assert strategy_of(editions.get("duellum")) is editions.get("duellum").strategy
    assert strategy_of(editions.get("antike")) is SHARED and strategy_of(editions.get("antike2")) is SHARED
    g = du_game()
    assert g.edition.pieces.conservation_problems(g.state, g.board) == []
    assert editions.get("antike").pieces is None and editions.get("antike").strategy is None
    assert editions.get("antike").selfplay_lineups == {}
