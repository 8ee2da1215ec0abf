"""Strength benchmark: the searching bot (``strong``) against the greedy and the random bot.

Each configuration seats one strong bot among bots of another mode; game ``i`` of a
configuration gives the strong bot seat ``i % nations``, so the seats rotate. Every turn
goes through the checked entry point (password included), the invariants are checked after
every turn (``selfplay.check_invariants``, the edition's own conservation laws included),
and every finished game must pass ``verify``. Prints, per configuration, the strong seat's
wins with a 95% Wilson interval, what a seat would win by chance (1 / nations), stalemates,
and the strong bot's time per move at the stated budget (simulated turns per move, never
wall time, so the moves are the same on any machine).

    .venv/bin/python bench/bench_strength.py --games 8 --jobs 2
    .venv/bin/python bench/bench_strength.py --games 40 --budget 240 --only classic-greedy
    .venv/bin/python bench/bench_strength.py --games 8 --first 8 --budget 120   # 8 more games
    .venv/bin/python bench/bench_strength.py --timing          # s per move at the default budget

Measured 2026-11-26 (successive halving, Duellum's own value and quick look-ahead) at
--budget 120, games 0-19 (0-9 against random), seats rotated; the strong seat's wins with
95% Wilson intervals:

    .venv/bin/python bench/bench_strength.py --games 20 --budget 120 --only duellum-rc-greedy
        --only duellum-aegean-greedy --only antike2-greedy --only classic-greedy    (one line)
    .venv/bin/python bench/bench_strength.py --games 10 --budget 120 --only classic-random
        --only antike2-random --only duellum-rc-random --only duellum-aegean-random (one line)

    duellum-rc-greedy      17/20  85%  [64%, 95%]  chance 50%  (romans 9/10, carthaginians 8/10)
    duellum-aegean-greedy  16/20  80%  [58%, 92%]  chance 50%  (greeks 9/10, persians 7/10)
    antike2-greedy         12/20  60%  [39%, 78%]  chance 25%
    classic-greedy         15/20  75%  [53%, 89%]  chance 25%
    classic-random         10/10 100%  [72%, 100%] chance 25%
    antike2-random         10/10 100%  [72%, 100%] chance 25%
    duellum-rc-random      10/10 100%  [72%, 100%] chance 50%
    duellum-aegean-random  10/10 100%  [72%, 100%] chance 50%  (all four: 40/40, [91%, 100%])

Greedy against greedy, Rome wins 10 of 10 on Rome/Carthage and Greece 9 of 10 on the
Aegean excerpt (games 0-9), so the strong Carthage and Persia win from the weaker seat. No
turn refused, every invariant held, every game verified; the first command took 1,774 s
and the second 440 s on 2 cores. At the same budget, the flat weighing of six
candidates won Antike II 5/16, and halving with the shared value Duellum Rome/Carthage
12/20. Time per move at the default budget (240), ``--timing``, one process: classic mean
1.24 s, slowest 1.78 s; Antike II 1.14 s, 1.68 s; Duellum Rome/Carthage 0.75 s, 1.16 s;
Aegean 0.65 s, 0.83 s.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.play.search import DEFAULT_BUDGET  # noqa: E402
from pbem.play.selfplay import STALEMATE_TURNS, bot_turn, check_invariants, lineup_for, start_game  # noqa: E402
from pbem.service.replay import verify  # noqa: E402
from pbem.service.store import game_text  # noqa: E402

AEGEAN = ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"
CONFIGS = {
    # name: (edition, board, nations, lineup or None, the others' mode)
    "classic-greedy": ("antike", "antike-east", 4, None, "greedy"),
    "antike2-greedy": ("antike2", "antike2-mare-nostrum", 4, None, "greedy"),
    "duellum-rc-greedy": ("duellum", "duellum-rome-carthage", 2, None, "greedy"),
    "duellum-aegean-greedy": ("duellum", "aegean-excerpt", 2, ("greeks", "persians"), "greedy"),
    "classic-random": ("antike", "antike-east", 4, None, "random"),
    "antike2-random": ("antike2", "antike2-mare-nostrum", 4, None, "random"),
    "duellum-rc-random": ("duellum", "duellum-rome-carthage", 2, None, "random"),
    "duellum-aegean-random": ("duellum", "aegean-excerpt", 2, ("greeks", "persians"), "random"),
}


@dataclass
class Outcome:
    config: str
    index: int
    strong: str
    winner: str | None = None
    turns: int = 0
    strong_moves: int = 0
    strong_seconds: float = 0.0
    failure: str = ""


def _board(name: str):
    if name == "aegean-excerpt":
        from pbem.service.boards import load_map_file

        return load_map_file(AEGEAN)
    return name


def one(job: tuple[str, int, int]) -> Outcome:
    config, i, budget = job
    edition, board, nations, lineup, others = CONFIGS[config]
    lineup = list(lineup or lineup_for(edition, nations))
    strong = lineup[i % len(lineup)]
    out = Outcome(config, i, strong)
    try:
        game, plain = start_game(f"strength-{config}-{i}", lineup, f"strength-{i}", edition, _board(board))
        while game.state.status.winner is None and out.turns < STALEMATE_TURNS:
            mode = "strong" if game.state.status.active == strong else others
            start = time.perf_counter()
            game, _ = bot_turn(game, plain, mode, budget)
            if mode == "strong":
                out.strong_seconds += time.perf_counter() - start
                out.strong_moves += 1
            out.turns += 1
            check_invariants(game)
        verify(game, json.loads(game_text(game)))
        out.winner = game.state.status.winner
    except Exception:  # noqa: BLE001 - reported per game
        out.failure = traceback.format_exc(limit=4)
    return out


TIMED_AT = (10, 40, 80, 120, 160)
"""Turns of a greedy game at which ``--timing`` times one strong move."""


def timing(budget: int) -> None:
    """One process, one core: the strong bot's time per move at ``budget`` on positions
    of a greedy game (:data:`TIMED_AT`) in each board configuration; mean and slowest."""
    from pbem.play.search import choose

    print(f"time per strong move at budget {budget}, one process (turns {', '.join(map(str, TIMED_AT))} "
          f"of a greedy game)")
    print(f"{'configuration':<24}{'moves':>6}{'mean s':>8}{'max s':>8}")
    for name, (edition, board, nations, lineup, _) in CONFIGS.items():
        if not name.endswith("-greedy"):
            continue
        game, plain = start_game(f"timing-{name}", list(lineup or lineup_for(edition, nations)), "timing",
                                 edition, _board(board))
        times = []
        for turn in range(max(TIMED_AT) + 1):
            if game.state.status.winner is not None:
                break
            if turn in TIMED_AT:
                start = time.perf_counter()
                choose(game, budget=budget)
                times.append(time.perf_counter() - start)
            game, _ = bot_turn(game, plain, "greedy")
        print(f"{name:<24}{len(times):>6}{sum(times) / max(len(times), 1):>8.2f}{max(times, default=0):>8.2f}")


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="games per configuration (default 4)")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="simulated turns per strong move")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first", type=int, default=0, help="index of the first game (later games: other seeds)")
    ap.add_argument("--only", action="append", choices=sorted(CONFIGS), help="configurations to play (repeatable)")
    ap.add_argument("--timing", action="store_true",
                    help="only time strong moves at the budget in one process (no games); see timing()")
    args = ap.parse_args()
    if args.timing:
        timing(args.budget)
        return
    names = args.only or list(CONFIGS)
    jobs = [(name, i, args.budget) for name in names for i in range(args.first, args.first + args.games)]
    start = time.perf_counter()
    outcomes = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for o in pool.map(one, jobs):
            outcomes.append(o)
            print(f"  {o.config} game {o.index}: strong {o.strong}, winner {o.winner}, {o.turns} turns"
                  + (" FAILED" if o.failure else ""), file=sys.stderr, flush=True)
    wall = time.perf_counter() - start
    print(f"budget {args.budget} simulated turns per strong move; {len(outcomes)} games in {wall:.0f} s "
          f"wall ({args.jobs} jobs)")
    print(f"{'configuration':<24}{'games':>6}{'wins':>6}{'rate':>7}{'95% interval':>16}{'chance':>8}"
          f"{'stalem.':>8}{'turns':>7}{'s/move':>8}")
    failed = [o for o in outcomes if o.failure]
    for name in names:
        got = [o for o in outcomes if o.config == name and not o.failure]
        if not got:
            continue
        wins = sum(o.winner == o.strong for o in got)
        lo, hi = wilson(wins, len(got))
        moves = sum(o.strong_moves for o in got)
        secs = sum(o.strong_seconds for o in got)
        nations = CONFIGS[name][2]
        print(f"{name:<24}{len(got):>6}{wins:>6}{wins / len(got):>7.0%}{f'{lo:.0%}-{hi:.0%}':>16}"
              f"{1 / nations:>8.0%}{sum(o.winner is None for o in got):>8}"
              f"{sum(o.turns for o in got) / len(got):>7.0f}{secs / max(moves, 1):>8.2f}")
    for o in failed:
        print(f"FAILED {o.config} game {o.index}:\n{o.failure}")
    if not failed:
        print("every turn accepted by check, invariants held after every turn, every game verified")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
