"""The searching bot (``strong``): the greedy bot's candidate turns weighed by rollouts.

For the active nation it gathers a few candidate turns: the greedy bot's own turn, and
turns built the bots' way (:func:`pbem.play.bot.build_turn`) on every rondel target it
can afford, filled in several ways; duplicates dropped, the best by the greedy one-turn
value kept (the greedy turn always). Each candidate is then played on the same sampled
worlds, and every nation plays on with the greedy bot for a few turns (each nation about
twice); at the end the nation's standing (the edition's strategy's ``standing`` where it
has one, else :func:`pbem.play.bot.state_value`: a win, the score towards the edition's
goal, then growth) less the best rival's is the candidate's result. The candidates are
weighed by successive halving (:func:`choose`): round by round the weaker half is dropped,
so the budget goes to the best ones; the greedy turn stays to the end as the yardstick,
and another turn is played only when its mean beats it.

It sees only what its nation may see (:func:`pbem.play.bot.seen_by`): in an edition with
secrets each world is the nation's view with its hidden parts drawn from what the nation
cannot see (:meth:`Secrets.determinise <pbem.kernel.protocols.Secrets.determinise>`), never
the real ones. It is bounded and reproducible: the budget is a number of simulated turns,
never time, and every draw comes from a generator seeded by the hash of the nation's view,
the nation and the caller's ``seed``, so the same game file and seed give the same turn on
any machine (the player's copy of a game with secrets too).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from dataclasses import dataclass
from typing import Any

from pbem.errors import Refused
from pbem.kernel import queries
from pbem.kernel.turn import resolve
from pbem.play import bot
from pbem.play.bot import Seen, build_turn, seen_by, state_value

MODES = (*bot.MODES, "strong")
"""Every bot: ``random``, ``greedy`` (:mod:`pbem.play.bot`) and ``strong`` (this module)."""

DEFAULT_BUDGET = 240
"""Simulated turns per move by default (about a second on one core; docs in bench/bench_strength.py)."""

MAX_BUDGET = 20_000
"""The most simulated turns a move may spend (over a minute on one core): a larger budget
is refused rather than left to run for hours."""


def budget_problem(budget: int | None) -> str | None:
    """Why ``budget`` (simulated turns per move; ``None``: the default) cannot be spent."""
    if budget is not None and not 1 <= budget <= MAX_BUDGET:
        return f"--budget {budget}: between 1 and {MAX_BUDGET} simulated turns"
    return None


CANDIDATES = 12
"""Candidate turns weighed at most."""

FILLS = ((1.0, True, True), (1.0, True, False), (0.7, False, False))
"""How each rondel target's candidate turns are filled: (eager, greedy, march) of
:func:`pbem.play.bot.build_turn`."""


@dataclass(frozen=True)
class Candidate:
    """One turn weighed: its orders, how it was made, its mean result over the rollouts."""

    orders: dict[str, Any]
    label: str
    mean: float
    rollouts: int


@dataclass(frozen=True)
class Choice:
    """The searching bot's turn and what it saw: every candidate weighed (the greedy
    turn first), the chosen one, and the simulated turns spent."""

    orders: dict[str, Any]
    candidates: tuple[Candidate, ...]
    chosen: int
    simulated: int

    @property
    def gain(self) -> float:
        """The chosen turn's mean result less the greedy turn's: what the search expects
        to gain over the greedy bot (0 when it plays the greedy turn)."""
        return self.candidates[self.chosen].mean - self.candidates[0].mean


def margin(seen, st, nation: str) -> float:
    """``nation``'s standing in ``st`` less its best rival's: by the edition's strategy's
    ``standing`` where it has one, else :func:`state_value` (``seen`` gives the edition
    and the board)."""
    standing = getattr(bot.strategy_of(seen.edition), "standing", None)
    if standing is None:
        def standing(_, state, n):
            return state_value(seen.edition, state, n)
    mine = standing(seen, st, nation)
    rivals = [standing(seen, st, n) for n in sorted(st.nations) if n != nation]
    return mine - max(rivals, default=0.0)


def _key(orders: dict[str, Any]) -> str:
    return json.dumps(orders, sort_keys=True, ensure_ascii=False)


def _seed_of(seen, nation: str, seed: str) -> str:
    view = json.dumps(seen.state.to_json(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(f"{view}|{seen.seed}|{nation}|{seed}".encode()).hexdigest()


def _rng(base: str, salt: str) -> random.Random:
    return random.Random(int(hashlib.sha256(f"{base}|{salt}".encode()).hexdigest()[:16], 16))


def candidates(game, nation: str, base: str, limit: int = CANDIDATES) -> list[tuple[str, dict[str, Any]]]:
    """(label, orders) of the candidate turns, the greedy one first."""
    seen = seen_by(game, nation)
    found = [("greedy", bot.play_turn(game, "greedy", nation))]
    keys = {_key(found[0][1])}
    scored = []
    targets = [t for t in queries.rondel_targets(seen.state, seen.edition, nation) if t.affordable]
    for i, tg in enumerate(targets):
        for j, (eager, greedy, march) in enumerate(FILLS):
            orders = build_turn(game, tg.order, _rng(base, f"fill|{i}|{j}"), eager, greedy, march, nation)
            if orders is None or _key(orders) in keys:
                continue
            keys.add(_key(orders))
            try:
                after = resolve(seen.state, orders, seen.edition, seen.board).state
            except Refused:
                continue
            label = f"{json.dumps(tg.order, sort_keys=True)} fill {j}"
            scored.append((-margin(seen, after, nation), len(scored), label, orders))
    scored.sort(key=lambda s: (s[0], s[1]))
    return found + [(label, orders) for _, _, label, orders in scored[:max(0, limit - 1)]]


def horizon(nations: int) -> int:
    """Turns a rollout runs, the candidate's included: each nation about twice, at least six."""
    return max(6, 2 * nations)


def rollout(seen, world, orders: dict[str, Any], nation: str, turns: int, seed: str) -> tuple[float, int]:
    """Play ``orders`` on ``world`` (a full state), then the greedy bot for every nation
    (its ``quick`` play, :func:`pbem.play.bot.play_turn`) up to ``turns`` turns in all;
    ``nation``'s :func:`margin` at the end and the turns simulated."""
    edition, board = seen.edition, seen.board
    try:
        st = resolve(world, orders, edition, board).state
    except Refused:
        return float("-inf"), 1
    played = 1
    while played < turns and st.status.winner is None:
        active = st.status.active
        here = Seen(st, edition, board, seed, seen.game_id)
        step = bot.play_turn(here, "quick", active)
        try:
            st = resolve(st, step, edition, board).state
        except Refused:
            st = resolve(st, queries.default_orders(st, edition, board, active), edition, board).state
        played += 1
    return margin(seen, st, nation), played


def _rounds(count: int) -> int:
    """Rounds of halving that bring ``count`` candidates down to one (at least one round)."""
    return max(1, math.ceil(math.log2(count)))


def choose(game, nation: str | None = None, budget: int = DEFAULT_BUDGET, seed: str = "") -> Choice:
    """The searching bot's turn for ``nation`` (the active one by default) of ``game``,
    spending at most ``budget`` simulated turns.

    Successive halving: every candidate is weighed on the same sampled worlds, round by
    round; after each round the better half stays (the greedy turn always, as the yardstick)
    until two are left, and each round may spend about an equal share of the budget, the
    last two what remains, so the finalists get the most rollouts. The turn played is the
    better mean of the two (the greedy turn on a tie)."""
    nation = nation or game.state.status.active
    seen = seen_by(game, nation)
    base = _seed_of(seen, nation, seed)
    turns = horizon(len(seen.state.nations))
    limit = max(1, min(CANDIDATES, budget // turns))
    found = candidates(game, nation, base, limit)
    if len(found) == 1:
        return Choice(found[0][1], (Candidate(found[0][1], found[0][0], 0.0, 0),), 0, 0)
    share = budget // _rounds(len(found))
    totals, counts = [0.0] * len(found), [0] * len(found)
    alive = list(range(len(found)))
    simulated = worlds = 0
    while len(alive) > 1:
        cost = turns * len(alive)
        runs = min(max(1, share // cost), (budget - simulated) // cost)
        if runs <= 0:
            break
        for _ in range(runs):
            secrets = seen.edition.secrets
            world = secrets.determinise(seen.state, nation, _rng(base, f"world|{worlds}")) if secrets else seen.state
            for i in alive:
                value, played = rollout(seen, world, found[i][1], nation, turns, f"{base}|{worlds}")
                totals[i] += value
                counts[i] += 1
                simulated += played
            worlds += 1
        if len(alive) > 2:
            ranked = sorted(alive, key=lambda i: (-totals[i] / counts[i], i))
            alive = sorted({0, *ranked[:(len(alive) + 1) // 2]})
    weighed = tuple(Candidate(orders, label, totals[i] / max(1, counts[i]), counts[i])
                    for i, (label, orders) in enumerate(found))
    best = max(alive, key=lambda i: (weighed[i].mean, -i))
    return Choice(weighed[best].orders, weighed, best, simulated)


def play_turn(game, mode: str = "random", nation: str | None = None, budget: int | None = None,
              seed: str = "") -> dict[str, Any]:
    """Canonical orders (without password) for the active nation's turn of ``game`` by
    the bot ``mode`` (:data:`MODES`); ``budget`` (simulated turns, :data:`DEFAULT_BUDGET`
    by default) and ``seed`` are the searching bot's."""
    if mode == "strong":
        return choose(game, nation, DEFAULT_BUDGET if budget is None else budget, seed).orders
    return bot.play_turn(game, mode, nation)


def hint(game, budget: int | None = None, seed: str = "") -> dict[str, Any]:
    """The turn the searching bot would play for the active nation, and why: the mean
    result (the nation's standing less its best rival's after the look-ahead) it saw for
    that turn and for the greedy turn, and the expected gain of one over the other."""
    nation = game.state.status.active
    budget = DEFAULT_BUDGET if budget is None else budget
    choice = choose(game, nation, budget, seed)
    chosen = choice.candidates[choice.chosen]
    return {"nation": nation, "orders": choice.orders, "made": chosen.label, "mean": round(chosen.mean, 2),
            "greedy_mean": round(choice.candidates[0].mean, 2), "gain": round(choice.gain, 2),
            "candidates": len(choice.candidates), "rollouts": chosen.rollouts,
            "horizon": horizon(len(game.state.nations)), "budget": budget, "simulated": choice.simulated}


def hint_lines(data: dict[str, Any], orders: list[str] | None = None) -> list[str]:
    """``hint`` in words, then the orders it suggests: ``orders``, their lines in the text
    syntax players write, or else as JSON."""
    rondel = data["orders"].get("rondel", {})
    where = f"to {rondel['to']}" if "to" in rondel else json.dumps(rondel, sort_keys=True)
    lines = [f"hint for {data['nation']}: the strong bot would move {where}"
             + (" (the greedy bot's turn)" if data["made"] == "greedy" else f" (candidate {data['made']})"),
             f"  why: over {data['rollouts']} rollout(s) of {data['horizon']} turns ({data['candidates']} "
             f"candidates, halved round by round while the budget lasts; {data['simulated']} simulated turns), "
             f"its mean margin over the best rival was {data['mean']:+.1f}, "
             f"the greedy turn's {data['greedy_mean']:+.1f}: an expected gain of {data['gain']:+.1f}",
             "  orders:"]
    shown = orders if orders is not None else json.dumps(data["orders"], ensure_ascii=False, indent=1).splitlines()
    lines += ["    " + line if orders is not None else "  " + line for line in shown]
    return lines
