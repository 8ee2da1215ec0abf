"""Random maneuver scripts on random positions: every accepted turn conserves units.

STYLE.md habit 9. For each accepted script, the units that left the board are exactly
those the events account for: battles cost both sides ``count`` units of the battle's type
(000 L605-609), a conquest removes the conqueror's units ``used`` and the defender's
``defender_lost`` (000 L689-702), and moving never creates or destroys a unit. Refused
scripts leave the game untouched (docs/rulings.md, all-or-nothing).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import apply_orders, edit, make_game, orders_for
from pbem.errors import Refused
from pbem.service.store import game_text

NATIONS = ["persians", "phoenicians", "arabs", "greeks"]
ACTIVE = "phoenicians"


def random_position(base, rng):
    board = base.board
    edits = []
    for pid in rng.sample(sorted(board.provinces), 10):
        prov = board.province(pid)
        units = {}
        for n in rng.sample(NATIONS, rng.randint(1, 3)):
            units[n] = {"legion": rng.randint(0, 3) if prov.land else 0,
                        "galley": rng.randint(0, 3) if prov.sea else 0}
        e = {"province": pid, "units": units}
        if rng.random() < 0.4:
            e["owner"] = rng.choice(NATIONS)
        edits.append(e)
    knowhow = rng.sample(["wheel", "sailing"], rng.randint(0, 2))
    knowhow += [s for b, s in (("wheel", "roads"), ("sailing", "navigation")) if b in knowhow and rng.random() < 0.5]
    edits.append({"nation": ACTIVE, "knowhow": knowhow})
    edits += [{"nation": n, "standing": {"battle": rng.choice(["always", "never", "home"])}} for n in NATIONS]
    try:
        return edit(base, *edits)
    except Refused:  # over a unit cap (17): draw again
        return random_position(base, rng)


def random_script(game, rng):
    st, board = game.state, game.board
    steps = []
    for _ in range(rng.randint(1, 6)):
        mine = [(p, u) for p, s in sorted(st.provinces.items()) for u in ("legion", "galley") if s.count(ACTIVE, u)]
        roll = rng.random()
        if roll < 0.6 and mine:
            start, unit = rng.choice(mine)
            path, here = [], start
            for _ in range(rng.randint(1, 3)):
                here = rng.choice(sorted(board.province(here).neighbours(unit)))
                path.append(here)
            steps.append({"move": unit, "count": rng.randint(1, 3), "from": start, "path": path})
        elif roll < 0.8 and mine:
            at, unit = rng.choice(mine)
            steps.append({"battle": unit, "at": at, "against": rng.choice([n for n in NATIONS if n != ACTIVE])})
        else:
            cities = sorted(p for p, s in st.provinces.items() if s.owner not in (None, ACTIVE))
            if cities:
                steps.append({"conquer": rng.choice(cities)})
    return steps


def on_board(state):
    return Counter({(n, u): state.units_on_board(n, u) for n in NATIONS for u in ("legion", "galley")})


@pytest.mark.slow
def test_random_scripts_conserve_units():
    base = make_game()
    rng = random.Random(20260401)
    accepted = refused = 0
    while accepted < 60:
        game = random_position(base, rng)
        orders = orders_for(game, rondel="maneuver", maneuver=random_script(game, rng))
        before_text = game_text(game)
        try:
            result = apply_orders(game, orders)
        except Refused:
            refused += 1
            assert game_text(game) == before_text
            continue
        accepted += 1
        lost = Counter()
        for ev in result.events:
            if ev["type"] == "battle":
                lost[(ev["nation"], ev["unit"])] += ev["count"]
                lost[(ev["against"], ev["unit"])] += ev["count"]
            elif ev["type"] == "conquer":
                for unit in ("legion", "galley"):
                    lost[(ev["nation"], unit)] += ev["used"][unit]
                    lost[(ev["defender"], unit)] += ev["defender_lost"][unit]
        before, after = on_board(game.state), on_board(result.state)
        for key in before:
            assert before[key] - after[key] == lost[key], (key, orders["maneuver"], result.events)
        for pid, prov in result.state.provinces.items():
            for held in prov.units.values():
                assert min(held.values()) >= 0 and any(held.values()), pid
    assert refused > 0
