"""The kernel is pure: one call takes a state, orders, the edition and the board, and
returns the next state with its events, or every problem found.

It reads no file, checks no password, writes no history and changes neither the state nor
the orders it is given; serialising a state changes nothing either.
"""

from __future__ import annotations

import builtins
import copy
import io
import json
import os

import pytest

from conftest import CLASSIC, PASSWORDS, canonical_edit, edit, make_game, orders_for, pass_until
from pbem.errors import Refused
from pbem.kernel.edit import apply_edit
from pbem.kernel.state import ProvinceState
from pbem.kernel.turn import TurnResult, resolve
from pbem.service import turns


def snapshot(state) -> str:
    return json.dumps([state.to_json(), state.status_json(), state.standing_json()], sort_keys=True)


@pytest.fixture
def busy():
    """A position with units, temples and a choice of conquests for the Greeks."""
    g = edit(make_game(),
             {"nation": "greeks", "resources": {"marble": 9, "iron": 9, "gold": 20}, "coins": 3},
             {"province": "pella", "units": {"greeks": {"legion": 3}}},
             {"province": "sirmium", "units": {"greeks": {"legion": 1}}},
             {"province": "bycantium", "owner": "persians", "units": {"greeks": {"legion": 2}}})
    return pass_until(g, "greeks")


def test_a_turn_reads_no_file(busy, monkeypatch):
    orders = orders_for(busy, rondel="maneuver", maneuver=[{"move": "legion", "count": 2, "from": "pella",
                                                            "path": ["bycantium"]}])

    def no_files(*args, **kwargs):
        raise AssertionError(f"the kernel opened a file: {args[:1]}")

    for module, name in ((builtins, "open"), (io, "open"), (os, "open")):
        monkeypatch.setattr(module, name, no_files)
    result = resolve(busy.state, orders, busy.edition, busy.board)
    assert isinstance(result, TurnResult) and result.kind == "turn"


def test_a_turn_checks_no_password(busy):
    """Who sent the orders is the service's question: the kernel accepts any password,
    the service (``turns.check``) refuses a wrong one."""
    orders = {**orders_for(busy, rondel="gold"), "password": "not-the-password"}
    assert resolve(busy.state, orders, busy.edition, busy.board).kind == "turn"
    with pytest.raises(Refused) as info:
        turns.check(busy, orders)
    assert [r.code for r in info.value.rejections] == ["orders/wrong-password"]


def test_a_turn_writes_no_history(busy):
    before = list(busy.history)
    result = resolve(busy.state, orders_for(busy, rondel="gold"), busy.edition, busy.board)
    assert busy.history == before
    assert not hasattr(result.state, "history") and not hasattr(result, "history")


@pytest.mark.parametrize("fields, legal", [
    ({"rondel": "gold", "found": ["sirmium"]}, True),
    ({"rondel": "temple", "temples": [{"city": "pella"}, {"city": "athen"}]}, True),
    ({"rondel": "maneuver", "maneuver": [
        {"move": "legion", "count": 2, "from": "pella", "path": ["sirmium"]},
        {"conquer": "bycantium", "with": {"legion": 1}}]}, True),
    ({"rondel": "knowhow", "knowhow": ["wheel", "roads"], "standing": {"battle": "always"}}, True),
    ({"rondel": "arming", "arm": [{"unit": "legion", "at": "athen", "count": 2}]}, False),
], ids=["found", "temples", "conquest", "knowhow", "refused-arm"])
def test_a_turn_changes_neither_state_nor_orders(busy, fields, legal):
    orders = orders_for(busy, **fields)
    given = copy.deepcopy(orders)
    before = snapshot(busy.state)
    try:
        result = resolve(busy.state, orders, busy.edition, busy.board)
        assert legal and snapshot(result.state) != before
    except Refused:
        assert not legal
    assert orders == given
    assert snapshot(busy.state) == before


def test_a_turn_is_a_function_of_its_inputs(busy):
    orders = orders_for(busy, rondel="maneuver", maneuver=[
        {"move": "legion", "count": 2, "from": "pella", "path": ["bycantium"]}])
    one = resolve(busy.state, orders, busy.edition, busy.board)
    two = resolve(busy.state, orders, busy.edition, busy.board)
    assert (snapshot(one.state), one.events, one.echo) == (snapshot(two.state), two.events, two.echo)


def test_every_problem_is_returned_and_nothing_changes(busy):
    orders = orders_for(busy, rondel="temple", temples=[{"city": "babylon"}, {"city": "pella"}],
                        found=["nowhere_at_all"])
    before = snapshot(busy.state)
    with pytest.raises(Refused) as info:
        resolve(busy.state, orders, busy.edition, busy.board)
    assert [r.code for r in info.value.rejections] == ["temple/not-own-city", "found/not-a-province"]
    assert snapshot(busy.state) == before


def test_an_edit_changes_nothing_it_is_given(busy):
    change = canonical_edit({"game": busy.game_id, "reason": "r",
                             "edits": [{"nation": "greeks", "coins": 5}, {"province": "pella", "temple": True}]})
    given = copy.deepcopy(change)
    before = snapshot(busy.state)
    after = apply_edit(busy.state, change, busy.edition, busy.board)
    assert snapshot(after) != before and snapshot(busy.state) == before and change == given


def test_serialising_changes_nothing(busy):
    """An empty province left in the working state is not written, and not removed either."""
    state = busy.state.copy()
    state.provinces["napoca"] = ProvinceState()
    first = state.to_json()
    assert "napoca" not in first["provinces"] and "napoca" in state.provinces
    assert state.to_json() == first


def test_the_same_orders_on_the_service_record_who_played(busy):
    """The history entry is the service's: a player's turn, the GM's default, a bot's."""
    orders = orders_for(busy, rondel="gold")
    assert turns.play(busy, orders)[0].history[-1]["kind"] == "turn"
    no_password = {k: v for k, v in orders.items() if k != "password"}
    assert turns.play(busy, no_password, turns.GM)[0].history[-1]["kind"] == "default-turn"
    entry = turns.play(busy, no_password, turns.bot("greedy"))[0].history[-1]
    assert (entry["kind"], entry["bot"]) == ("bot-turn", "greedy")
    assert CLASSIC.id == "antike" and PASSWORDS["greeks"] == "pw-greeks"
