"""Editions are plug-ins: a variant defined only under tests/ plays through the whole referee.

The made-up "ninefold" edition (tests/editions/ninefold.py: nine rondel fields, 2 free
steps, other prices, a sixth personage, the merchant) registers itself when imported, and
is then found, validated, played, bot-played, verified and driven from the command line
exactly like classic Antike, without a line of ``pbem/`` knowing it. Classic keeps its
own numbers beside it.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

from conftest import FOUR, PASSWORDS, cli_run, make_game, new_game, new_game_file
from pbem import editions
from pbem.editions import classic
from pbem.errors import Refused, UsageError
from pbem.kernel import queries
from pbem.kernel.orders import canonical_edit, canonical_orders
from pbem.kernel.setup import SetupOptions
from pbem.play.selfplay import STALEMATE_TURNS, play_game
from pbem.service import turns
from pbem.service.boards import load_board
from pbem.service.schemas import compose, problems
from tests.editions import ninefold

NINE = ninefold.EDITION
CLASSIC = editions.get("classic")
PH = "phoenicians"
"""The start nation of a four-nation game on the East board: Alexandria (marble),
Tyros (iron), Paphos (gold)."""


# -- helpers: games of either edition, orders and GM edits checked against its schemas ----

def nine_game(nations=FOUR, **opts):
    """A new ninefold game on the East board, in memory, with the test passwords."""
    setup = SetupOptions(game_id="nf", board="antike-east", nations=list(nations), seed="nine", **opts)
    game, _ = new_game(setup, load_board("antike-east"), {n: PASSWORDS[n] for n in nations}, edition=NINE)
    return game


def gm(game, *edits):
    """``game`` after GM edits, which must fit the game's edition's edit schema."""
    data = {"game": game.game_id, "reason": "test set-up", "edits": list(edits)}
    assert problems("edit", data, game.edition) == []
    return turns.edit(game, canonical_edit(data, game.edition))


def orders(game, **fields):
    """The active nation's orders for this turn, valid against its edition's order schema."""
    nation = game.state.status.active
    data = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
            "password": PASSWORDS[nation], **fields}
    assert problems("orders", data, game.edition) == []
    return canonical_orders(data, game.edition)


def play(game, **fields):
    return turns.play(game, orders(game, **fields))


def refused(game, **fields) -> list[str]:
    with pytest.raises(Refused) as info:
        turns.check(game, orders(game, **fields))
    return [r.code for r in info.value.rejections]


def events(result, kind):
    return [e for e in result.events if e["type"] == kind]


# -- 1. the registry ------------------------------------------------------------------------

def test_both_editions_resolve_by_id_and_alias_in_any_case():
    assert editions.get("ninefold") is NINE
    assert editions.get("NINE") is NINE and editions.get(" NineFold ") is NINE
    assert editions.get("antike") is CLASSIC is classic.EDITION
    assert editions.get("Classic") is CLASSIC and editions.get("ANTIKE") is CLASSIC
    assert {"antike", "classic", "ninefold", "nine"} <= set(editions.names())
    assert NINE in editions.registered() and CLASSIC in editions.registered()


def test_an_unknown_edition_is_a_usage_error_listing_both():
    with pytest.raises(editions.UnknownEdition) as info:
        editions.get("tenfold")
    assert isinstance(info.value, UsageError)
    for name in ("antike", "classic", "ninefold", "nine"):
        assert name in str(info.value)


def test_importing_the_edition_again_keeps_the_registered_one():
    """The module may run twice (another import name, a reload): no error, one edition."""
    spec = importlib.util.spec_from_file_location("ninefold_again", ninefold.__file__)
    again = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(again)
    assert again.EDITION is NINE is editions.get("ninefold")


def test_another_edition_cannot_take_a_registered_name():
    class Impostor(ninefold.Ninefold):
        aliases = ("classic",)

    with pytest.raises(ValueError, match="taken"):
        editions.register(Impostor())
    assert editions.get("classic") is CLASSIC and editions.get("ninefold") is NINE


# -- 2. the composed schemas ----------------------------------------------------------------

ALL_SIX = ["general", "king", "citizen", "navigator", "scholar", "merchant"]


def order_data(**fields):
    return {"game": "g", "nation": "greeks", "turn": 3, "password": "x", **fields}


def test_the_orders_schema_takes_nine_steps_the_bazaar_and_the_merchant():
    data = order_data(rondel={"to": "bazaar", "steps": 9, "pay": {"gold": 7}},
                      standing={"bonus_stack": ALL_SIX})
    assert problems("orders", data, NINE) == []
    classic_problems = {p.path for p in problems("orders", data, CLASSIC)}
    assert {"$.rondel.to", "$.rondel.steps", "$.standing.bonus_stack"} <= classic_problems
    assert any(p.path == "$.standing.bonus_stack[5]" for p in problems("orders", data, CLASSIC))


def test_the_orders_schema_wants_every_personage_in_the_bonus_stack_and_nine_steps_at_most():
    five = order_data(rondel="iron", standing={"bonus_stack": ALL_SIX[:5]})
    assert [p.path for p in problems("orders", five, NINE)] == ["$.standing.bonus_stack"]
    assert problems("orders", five, CLASSIC) == []
    ten = order_data(rondel={"to": "iron", "steps": 10})
    assert [p.path for p in problems("orders", ten, NINE)] == ["$.rondel.steps"]
    schema = compose("orders", NINE)
    assert schema["$defs"]["rondel_steps"]["maximum"] == 9
    assert "bazaar" in schema["$defs"]["wedge"]["enum"]
    assert schema["$defs"]["personage"]["enum"] == list(NINE.personages)


def test_the_game_schema_requires_the_merchant_and_the_gold_produced():
    data = nine_game().to_json()
    assert data["rules"]["edition"] == "ninefold"
    assert problems("game", data, NINE) == []
    del data["state"]["bank"]["personages"]["merchant"]
    del data["state"]["nations"]["greeks"]["gold_produced"]
    paths = [p.path for p in problems("game", data, NINE)]
    assert paths == ["$.state.bank.personages", "$.state.nations.greeks"]
    # Classic's schema refuses a ninefold game, and ninefold's a classic one.
    assert problems("game", nine_game().to_json(), CLASSIC)
    assert problems("game", make_game().to_json(), NINE)


def test_the_composed_schemas_are_valid_schemas():
    from jsonschema import Draft202012Validator

    for kind in ("game", "orders", "edit"):
        Draft202012Validator.check_schema(compose(kind, NINE))


def test_the_edit_schema_takes_the_gold_produced_for_ninefold_only():
    data = {"game": "g", "reason": "r", "edits": [{"nation": "greeks", "gold_produced": 4,
                                                    "personages": {"merchant": 1}}]}
    assert problems("edit", data, NINE) == []
    assert len(problems("edit", data, CLASSIC)) >= 2


# -- 3. the rules as declared -----------------------------------------------------------------

def test_the_ninth_field_yields_a_gold_for_every_city():
    g, res = play(nine_game(), rondel="bazaar")
    assert g.state.nations[PH].rondel == 8
    assert events(res, "produce") == [{"type": "produce", "nation": PH, "resource": "gold", "amount": 3}]
    assert g.state.nations[PH].resources["gold"] == 3 + 3
    assert g.state.nations[PH].extra["gold_produced"] == 3


def test_the_rondel_has_nine_fields_and_two_free_steps():
    g = gm(nine_game(), {"nation": PH, "rondel": 0})  # on IRON
    costs = [t.cost for t in queries.rondel_targets(g.state, NINE, PH)]
    assert costs == [7, 0, 0, 1, 2, 3, 4, 5, 6]  # a full turn is 9 steps, 2 of them free
    _, res = play(g, rondel="gold")  # 2 steps: free
    assert res.echo["rondel"] == {"to": "gold", "steps": 2, "pay": {}}
    _, res = play(g, rondel="maneuver")  # 3 steps: one resource
    assert res.echo["rondel"]["steps"] == 3 and sum(res.echo["rondel"]["pay"].values()) == 1
    g = gm(g, {"nation": PH, "rondel": 7})  # the second MANEUVER
    _, res = play(g, rondel="iron")  # over BAZAAR: 2 steps, free
    assert res.echo["rondel"] == {"to": "iron", "steps": 2, "pay": {}}


def test_a_temple_costs_four_marble():
    g = gm(nine_game(), {"nation": PH, "resources": {"marble": 5}})
    g2, res = play(g, rondel="temple", temples=["tyros"])
    assert res.echo["temples"] == [{"city": "tyros", "pay": {"marble": 4}}]
    assert g2.state.nations[PH].resources["marble"] == 1
    assert refused(gm(g, {"nation": PH, "resources": {"marble": 3}, "coins": 0}), rondel="temple",
                   temples=["tyros"]) == ["pay/cannot-afford"]


def test_arming_costs_two_iron_a_unit_and_the_cap_is_twelve():
    g = gm(nine_game(), {"nation": PH, "resources": {"iron": 5}})
    g2, res = play(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros"}])
    assert res.echo["arm"] == [{"unit": "legion", "at": "tyros", "count": 1, "pay": {"iron": 2}}]
    assert g2.state.nations[PH].resources["iron"] == 3
    assert queries.stock(g2.state, NINE, PH, "legion") == 11
    gm(g, {"province": "cyrene", "units": {PH: {"legion": 12}}})  # the whole cap: fine
    with pytest.raises(Refused) as info:
        gm(g, {"province": "cyrene", "units": {PH: {"legion": 13}}})
    assert [r.code for r in info.value.rejections] == ["edit/inconsistent"]
    assert "more than 12" in info.value.rejections[0].message


def test_founding_costs_two_gold():
    g = gm(nine_game(), {"nation": PH, "resources": {"marble": 5, "iron": 5, "gold": 5}},
           {"province": "cyrene", "units": {PH: {"legion": 1}}})
    g2, res = play(g, rondel="temple", found=["cyrene"])
    assert res.echo["found"] == [{"city": "cyrene", "pay": {"marble": 1, "iron": 1, "gold": 2}}]
    assert g2.state.nations[PH].resources == {"marble": 4, "iron": 4, "gold": 3}


def test_a_merchant_for_every_ten_gold_produced():
    g = gm(nine_game(), {"nation": PH, "rondel": 7, "gold_produced": 8})
    score = NINE.turn.score(g.state, PH)
    g, res = play(g, rondel="bazaar")  # 3 gold: 11 produced
    assert [(e["personage"], e["reason"]) for e in events(res, "personage")] == [("merchant", "11 gold produced")]
    ns = g.state.nations[PH]
    assert (ns.personages["merchant"], ns.earned["merchant"], ns.extra["gold_produced"]) == (1, 1, 11)
    assert g.state.bank.personages["merchant"] == 5
    assert NINE.turn.score(g.state, PH) == score + 1
    # The threshold is a counter: the next merchant needs 20 gold in all.
    g = gm(g, {"active": PH}, {"nation": PH, "rondel": 7})
    g, res = play(g, rondel="bazaar")  # 14 produced
    assert events(res, "personage") == [] and g.state.nations[PH].personages["merchant"] == 1
    g = gm(g, {"active": PH}, {"nation": PH, "rondel": 1, "gold_produced": 25})
    g, res = play(g, rondel="gold")  # Paphos: 1 gold, 26 produced: the 20-gold merchant
    assert [e["personage"] for e in events(res, "personage")] == ["merchant"]
    assert g.state.nations[PH].earned["merchant"] == 2


def test_the_merchant_counts_towards_the_goal():
    g = nine_game()
    assert g.state.table.goal == ninefold.GOALS[4] == 8
    g = gm(g, {"nation": PH, "rondel": 7, "gold_produced": 9, "personages": {"king": 7}})
    g, res = play(g, rondel="bazaar")
    assert g.state.status.winner == PH
    assert events(res, "won") == [{"type": "won", "nation": PH, "score": 8, "goal": 8}]
    assert refused(g, rondel="iron") == ["orders/game-over"]


def test_the_default_turn_takes_the_wedge_that_yields_most():
    """D15: the nearest free production wedge that yields the most. From the second
    MANEUVER both BAZAAR (4 gold: four cities) and IRON (3 iron: three iron cities) are
    free; BAZAAR yields more."""
    g = gm(nine_game(), {"nation": PH, "rondel": 7}, {"province": "paphos", "owner": None},
           {"province": "ammonion", "owner": PH}, {"province": "attalia", "owner": PH})
    assert NINE.rondel[8].action.preview(g.state, NINE, g.board, PH, {}) == {"produce": {"gold": 4}}
    assert queries.production(g.state, NINE, g.board, PH, "iron") == 3
    assert queries.default_orders(g.state, NINE, g.board, PH)["rondel"]["to"] == "bazaar"


def test_the_table_may_choose_a_goal_and_nothing_else():
    assert nine_game(goal=3).state.table.goal == 3
    assert nine_game(["greeks", "persians", "arabs"]).state.table.goal == 9
    with pytest.raises(UsageError, match="variant"):
        nine_game(variants=["expert"])
    with pytest.raises(UsageError, match="--players"):
        nine_game(players=2)


# -- 4. the bot plays it to a win ------------------------------------------------------------

def check_bot_game(seed, nations, mode):
    game, rec = play_game(seed, nations, mode, edition="ninefold")  # invariants + verify inside
    assert game.state.table.edition == "ninefold" and game.edition is NINE
    assert rec.winner is not None and rec.turns < STALEMATE_TURNS
    assert game.score(rec.winner) >= game.goal
    wedges = {e["orders"]["rondel"]["to"] for e in game.history if "orders" in e and "rondel" in e["orders"]}
    assert "bazaar" in wedges
    assert game.state.bank.personages["merchant"] < NINE.rules.personage_stacks["merchant"]
    return rec


@pytest.mark.slow
@pytest.mark.parametrize("nations,mode", [(3, "greedy"), (4, "random"), (5, "greedy"), (6, "random")])
def test_bots_play_ninefold_to_a_win(nations, mode):
    check_bot_game(f"nine-{nations}-{mode}", nations, mode)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["random", "greedy"])
@pytest.mark.parametrize("nations", [3, 4, 5, 6])
def test_bots_play_many_ninefold_games(nations, mode):
    for k in range(2):
        check_bot_game(f"nine-many-{nations}-{mode}-{k}", nations, mode)


# -- 5. through the command line ----------------------------------------------------------------

def test_a_ninefold_game_from_new_to_a_verified_win(tmp_path):
    three = ["greeks", "persians", "arabs"]
    path = new_game_file(tmp_path, "--edition", "nine", "--goal", "4", nations=three)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["rules"] == {"edition": "ninefold", "variants": [], "goal": 4, "players": 3}
    options = json.loads(cli_run("options", path, "--json").stdout)
    assert [t["wedge"] for t in options["targets"]][-1] == "bazaar" and len(options["targets"]) == 9
    for _ in range(200):
        result = cli_run("bot", path, "--apply")
        assert result.exit_code == 0, result.stderr
        shown = json.loads(cli_run("show", path, "--json").stdout)
        if shown["winner"]:
            break
    winner = shown["nations"][shown["winner"]]
    assert shown["edition"] == "ninefold" and winner["score"] >= 4
    assert set(winner["personages"]) == set(NINE.personages)
    assert "merchant" in shown["bank"]["personages"]
    result = cli_run("verify", path)
    assert result.exit_code == 0, result.stderr


def test_the_schema_command_composes_ninefold():
    result = cli_run("schema", "orders", "--edition", "ninefold")
    assert result.exit_code == 0, result.stderr
    schema = json.loads(result.stdout)
    assert schema["$defs"]["rondel_steps"]["maximum"] == 9
    assert schema == compose("orders", NINE)
    game_schema = json.loads(cli_run("schema", "game", "--edition", "NINE").stdout)
    assert "merchant" in game_schema["$defs"]["personages"]["required"]


def test_new_with_an_unknown_edition_names_the_known_ones(tmp_path):
    result = cli_run("new", tmp_path / "g.json", "--edition", "tenfold", "--nations", "greeks,persians,arabs")
    assert result.exit_code == 2
    assert "ninefold" in result.stderr and "classic" in result.stderr
    assert not (tmp_path / "g.json").exists()


# -- 6. classic is unaffected --------------------------------------------------------------------

def test_classic_keeps_its_numbers():
    rules = CLASSIC.rules
    assert (len(CLASSIC.rondel), CLASSIC.rondel.free_steps) == (8, 3)
    assert (rules.temple_marble, rules.arming_iron, rules.unit_cap) == (5, 1, 17)
    assert dict(rules.found_cost) == {"marble": 1, "iron": 1, "gold": 1}
    assert list(CLASSIC.personages) == ["king", "scholar", "general", "citizen", "navigator"]
    assert "merchant" not in rules.personage_stacks
    assert compose("orders", CLASSIC)["$defs"]["rondel_steps"]["maximum"] == 8
    result = cli_run("schema", "orders", "--edition", "classic")
    assert json.loads(result.stdout)["$defs"]["rondel_steps"]["maximum"] == 8


def test_classic_still_charges_classic_prices():
    g = gm(make_game(), {"nation": PH, "rondel": 0, "resources": {"marble": 6, "iron": 3}})
    costs = [t.cost for t in queries.rondel_targets(g.state, CLASSIC, PH)]
    assert costs == [5, 0, 0, 0, 1, 2, 3, 4]
    _, res = play(g, rondel="maneuver")  # 3 steps: free in classic
    assert res.echo["rondel"]["pay"] == {}
    _, res = play(g, rondel="temple", temples=["tyros"])
    assert res.echo["temples"] == [{"city": "tyros", "pay": {"marble": 5}}]
    _, res = play(g, rondel="arming", arm=[{"unit": "legion", "at": "tyros"}])
    assert res.echo["arm"][0]["pay"] == {"iron": 1}
    assert "gold_produced" not in g.state.nations[PH].extra
    assert "bazaar" in refused_orders_schema(g, rondel="bazaar")


def refused_orders_schema(game, **fields) -> str:
    data = {"game": game.game_id, "nation": PH, "turn": 1, "password": "x", **fields}
    return " ".join(p.message for p in problems("orders", data, game.edition))
