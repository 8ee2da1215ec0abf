"""Whose turn, rounds and their coin, standing-orders-only files, whole-file refusals.

000 L282-296 (start player, coin each round), L298 (clockwise turns), L878-887 (the bank
out of coins); docs/rulings.md Q4, D6; docs/rulings.md "Coin", "Standing orders are public";
docs/orders.md "Order file".
"""

from __future__ import annotations

import pytest

from conftest import (
    PASSWORDS,
    apply_orders,
    canonical_orders,
    codes,
    edit,
    make_game,
    pass_turn,
    pass_until,
    play,
    ready,
    refusal,
)
from pbem.errors import Refused

ORDER = ["phoenicians", "arabs", "greeks", "persians"]


def coins(game):
    return {n: ns.coins for n, ns in game.state.nations.items()}


def test_turns_go_round_in_seat_order_from_the_start_nation():
    """000 L282-287 (with four nations the Phoenicians start) and L298 "Players take turns
    round the table in clock-wise sequence"."""
    g = make_game()
    seen = []
    for turn in range(1, 10):
        assert (g.state.status.turn, g.state.status.round) == (turn, (turn - 1) // 4 + 1)
        seen.append(g.state.status.active)
        g = pass_turn(g)
    assert seen == ORDER * 2 + ORDER[:1]


def test_every_nation_gets_a_coin_at_the_start_of_each_round():
    """000 L289-292 "At the start of each round of play ... each nation receives a coin
    from the bank", round 1 included (docs/rulings.md Q4, docs/rulings.md)."""
    g = make_game()
    assert coins(g) == dict.fromkeys(ORDER, 1) and g.state.bank.coins == 26
    for _ in range(3):
        g = pass_turn(g)
    assert coins(g) == dict.fromkeys(ORDER, 1)
    g, result = play(g, rondel="iron")  # the last seat ends round 1
    assert coins(g) == dict.fromkeys(ORDER, 2) and g.state.bank.coins == 22
    assert result.events[-5:] == [{"type": "round", "round": 2}] + [
        {"type": "coin", "nation": n, "reason": "round", "coin": 1} for n in ORDER]


def test_coins_paid_go_back_to_the_bank_and_are_handed_out_again():
    """000 L289-292 (coins come from the bank) and L318-321 (payments go to the bank):
    the 30 coins are conserved (000 L47)."""
    g = ready(make_game(), rondel=0, coins=3)
    g, _ = play(g, rondel={"to": "knowhow", "pay": {"coin": 3}})
    total = g.state.bank.coins + sum(coins(g).values())
    assert total == 30 and coins(g)["phoenicians"] == 0


def test_bank_without_coins_gives_the_chip_held_least():
    """000 L295-296 "When the bank has no more coins, players can request 1-unit marble,
    iron or gold chips instead"; L885-887; docs/rulings.md D6 default: the type held least,
    ties marble, iron, gold."""
    g = pass_until(pass_turn(make_game()), "persians")
    g = edit(g, {"bank": {"coins": 2}},
             {"nation": "greeks", "resources": {"marble": 4, "iron": 0, "gold": 0}},
             {"nation": "persians", "resources": {"marble": 1, "iron": 1, "gold": 1}})
    before = {n: dict(ns.resources) for n, ns in g.state.nations.items()}
    g, result = play(g, rondel="temple")
    coin_events = [e for e in result.events if e["type"] == "coin"]
    assert coin_events == [
        {"type": "coin", "nation": "phoenicians", "reason": "round", "coin": 1},
        {"type": "coin", "nation": "arabs", "reason": "round", "coin": 1},
        {"type": "coin", "nation": "greeks", "reason": "round", "coin": 0, "instead": "iron"},
        {"type": "coin", "nation": "persians", "reason": "round", "coin": 0, "instead": "marble"},
    ]
    assert g.state.nations["greeks"].resources["iron"] == before["greeks"]["iron"] + 1
    assert g.state.bank.coins == 0


def test_standing_coin_substitute_is_used_when_the_bank_is_empty():
    """000 L295-296 (the nation chooses the chip); docs/rulings.md D6: a standing order names it.
    The standing-orders-only file comes from a nation that is not active."""
    g = pass_until(pass_turn(make_game()), "persians")
    g, result = play(g, nation="arabs", standing={"coin_substitute": "gold"})
    assert result.kind == "standing" and g.state.status.active == "persians"
    g = edit(g, {"bank": {"coins": 0}})
    gold = g.state.nations["arabs"].resources["gold"]
    g, _ = play(g, rondel="temple")
    assert g.state.nations["arabs"].resources["gold"] == gold + 1


def test_standing_orders_only_file_from_any_nation_at_any_time():
    """docs/orders.md: a file without rondel may come from any nation at any time, its turn is
    ignored, and it changes nothing but that nation's standing orders (docs/rulings.md D1)."""
    g = make_game()
    orders = canonical_orders({"game": "t", "nation": "greeks", "turn": 99, "password": PASSWORDS["greeks"],
                               "standing": {"battle": {"default": "never", "persians": "always"}}})
    result = apply_orders(g, orders)
    assert result.kind == "standing"
    assert result.state.standing["greeks"].battle == {"default": "never", "persians": "always"}
    assert result.state.status == g.state.status
    assert result.state.nations == g.state.nations and result.state.bank == g.state.bank
    assert result.events == [{"type": "standing", "nation": "greeks",
                              "standing": {"battle": {"default": "never", "persians": "always"}}}]
    assert result.echo == {"game": "t", "nation": "greeks", "turn": 99,
                           "standing": {"battle": {"default": "never", "persians": "always"}}}


def test_standing_orders_name_real_rivals():
    """docs/rulings.md D1: a stance per rival nation; not oneself, not a nation not playing."""
    g = make_game()
    rejections = refusal(g, nation="greeks", standing={"battle": {"greeks": "always", "romans": "never"}})
    assert [(r.code, r.path) for r in rejections] == [
        ("standing/self", "$.standing.battle.greeks"), ("standing/unknown-nation", "$.standing.battle.romans")]


def test_standing_change_in_a_turn_file_applies_after_the_turn():
    """docs/rulings.md: standing orders take effect "from the next event after the file that
    sets them is processed", so not yet at the round start that this turn triggers."""
    g = edit(pass_until(make_game(), "persians"), {"bank": {"coins": 0}},
             {"nation": "persians", "resources": {"marble": 0, "iron": 2, "gold": 2}})
    g, result = play(g, rondel="temple", standing={"coin_substitute": "gold"})
    assert g.state.standing["persians"].coin_substitute == "gold"
    assert [e["type"] for e in result.events][-2:] == ["coin", "standing"]
    assert result.events[-2] == {"type": "coin", "nation": "persians", "reason": "round", "coin": 0,
                                 "instead": "marble"}
    g = pass_until(pass_turn(g), "persians")
    g, result = play(g, rondel="iron")
    assert result.events[-1] == {"type": "coin", "nation": "persians", "reason": "round", "coin": 0, "instead": "gold"}


def test_header_refusals_are_reported_together():
    """docs/orders.md: game, nation, turn and password must match or the whole file is
    rejected; docs/rulings.md: every problem is listed."""
    g = make_game()
    orders = canonical_orders({"game": "other", "nation": "greeks", "turn": 7, "password": "nope", "rondel": "iron"})
    with pytest.raises(Refused) as info:
        apply_orders(g, orders)
    assert [(r.code, r.path, r.message) for r in info.value.rejections] == [
        ("orders/wrong-game", "$.game", "these orders are for game 'other', this is game 't'"),
        ("orders/wrong-password", "$.password", "wrong password for greeks"),
        ("orders/wrong-nation", "$.nation", "it is the turn of phoenicians, not of greeks"),
        ("orders/wrong-turn", "$.turn", "these orders are for turn 7, the game is at turn 1"),
    ]


def test_a_turn_needs_its_turn_number():
    """docs/orders.md: `turn` is the number of the turn being played and must match."""
    g = make_game()
    orders = canonical_orders({"game": "t", "nation": "phoenicians", "password": PASSWORDS["phoenicians"],
                               "rondel": "iron"})
    with pytest.raises(Refused) as info:
        apply_orders(g, orders)
    [r] = info.value.rejections
    assert (r.code, r.path) == ("orders/missing-turn", "$")
    assert "turn 1" in r.message


def test_a_nation_not_in_the_game():
    """docs/orders.md: `nation` must be one of the game's nations."""
    orders = canonical_orders({"game": "t", "nation": "romans", "turn": 1, "password": "x", "rondel": "iron"})
    with pytest.raises(Refused) as info:
        apply_orders(make_game(), orders)
    assert [(r.code, r.path) for r in info.value.rejections] == [("orders/unknown-nation", "$.nation")]


def test_nothing_is_accepted_once_the_game_is_won():
    """000 L231-234 (the first nation with the personages needed wins); docs/orders.md: orders
    and standing-orders-only files are refused once the game is over."""
    g = edit(make_game(), {"nation": "phoenicians", "personages": {"king": 9}})
    g, result = play(g, rondel="iron")
    assert g.state.status.winner == "phoenicians" and result.events[-1]["type"] == "won"
    [r] = refusal(g, rondel="iron")
    assert (r.code, r.path, r.message) == ("orders/game-over", "$", "the game is over: phoenicians has won")
    [r] = refusal(g, nation="greeks", standing={"coin_substitute": "gold"})
    assert (r.code, r.path) == ("standing/game-over", "$")


def test_a_bad_standing_order_is_reported_with_the_other_problems():
    """All problems of a file are reported together: an action problem and a stance
    towards a nation that does not play."""
    g = make_game()
    got = codes(g, rondel="gold", temples=["athen"], standing={"battle": {"egyptians": "always"}})
    assert sorted(got) == ["orders/wrong-action", "standing/unknown-nation"]
