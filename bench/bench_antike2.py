"""Antike II self-play benchmark: bots play N whole games (default 240), every turn checked.

The games cycle through 3 to 6 nations on the Mare Nostrum board and 3 on the Orient
excerpt (tests/data/boards: a choice site and a neutral temple), both bot modes, and no
variant, ``nine_scholars`` or ``free_city_types``. Every turn goes through the checked entry
point (password included); after each turn the conservation laws hold
(``selfplay.check_invariants``: coins as the rule table has them, 30 unless ``--data`` says
otherwise; temples with the neutral ones; personage stacks with Pliny's ninth scholar in
the variant; each unit type within its own cap); every finished game must pass
``verify``. A game without a winner after STALEMATE_TURNS turns is a stalemate. Prints a
table: games, wins per nation, stalemates, mean turns, turns per second, and how often the
bots used what is Antike II's own (trades, neutral temples, free units, chosen city types).

    .venv/bin/python bench/bench_antike2.py --games 240 --jobs 2
    .venv/bin/python bench/bench_antike2.py --games 30 --data my-printed-values.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import editions  # noqa: E402
from pbem.play.selfplay import STALEMATE_TURNS, play_game  # noqa: E402

ORIENT = ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json"
ORIENT_LINEUP = ["greeks", "persians", "phoenicians"]
TABLES = [("antike2-mare-nostrum", 3), ("antike2-mare-nostrum", 4), ("antike2-mare-nostrum", 5),
          ("antike2-mare-nostrum", 6), ("orient-excerpt", 3)]
MODES = ("greedy", "random")
VARIANTS = [(), ("nine_scholars",), ("free_city_types",)]
CONFIGS = [(board, n, mode, variants) for variants in VARIANTS for mode in MODES for board, n in TABLES]
"""Every combination; game ``i`` plays ``CONFIGS[i % len(CONFIGS)]``."""


@dataclass
class Outcome:
    """One game: its record, how long it took and what the bots did that is Antike II's own."""

    index: int
    config: tuple
    turns: int = 0
    winner: str | None = None
    lineup: tuple[str, ...] = ()
    seconds: float = 0.0
    used: Counter = field(default_factory=Counter)
    failure: str = ""


def _board(name: str):
    if name == "orient-excerpt":
        from pbem.service.boards import load_map_file

        return load_map_file(ORIENT)
    return name


def one(i: int, data: dict | None = None, seed_prefix: str = "a2-bench") -> Outcome:
    """Play game ``i`` of the cycle (invariants after every turn, verify at the end)."""
    board, n, mode, variants = CONFIGS[i % len(CONFIGS)]
    lineup = ORIENT_LINEUP if board == "orient-excerpt" else list(editions.get("antike2").selfplay_lineups[n])
    out = Outcome(i, (board, n, mode, variants), lineup=tuple(lineup))
    start = time.perf_counter()
    try:
        game, rec = play_game(f"{seed_prefix}-{i}", n, mode, variants, edition="antike2", board=_board(board),
                              lineup=list(lineup), data=data)
        coins = game.state.bank.coins + sum(ns.coins for ns in game.state.nations.values())
        assert coins == (data or {}).get("bank_coins", 30), f"{coins} coins in play"
    except AssertionError:
        out.failure = traceback.format_exc(limit=-3)
        out.seconds = time.perf_counter() - start
        return out
    out.seconds = time.perf_counter() - start
    out.turns, out.winner = rec.turns, rec.winner
    for entry in game.history:
        if entry.get("orders", {}).get("trade"):
            out.used["turns with trades"] += 1
        for event in entry.get("events", []):
            kind = event.get("type")
            if kind == "trade":
                out.used["trades"] += 1
            elif kind == "conquer" and event.get("neutral_temple"):
                out.used["neutral temples destroyed"] += 1
            elif kind == "arm" and event.get("free"):
                out.used["units armed free (BELLONA)"] += 1
            elif kind == "found" and "resource" in event:
                out.used["cities of a chosen type"] += 1
            elif kind == "conquer":
                out.used["cities conquered"] += 1
    if game.state.status.extra.get("pliny"):
        out.used["Pliny won"] += 1
    return out


def _run(args) -> Outcome:
    return one(*args)


def table(outcomes: list[Outcome], wall: float, jobs: int) -> list[str]:
    """The report: a line per configuration, wins per nation, totals and speed."""
    done = [o for o in outcomes if not o.failure]
    lines = [f"Antike II self-play: {len(outcomes)} games, {wall:.1f} s wall ({jobs} jobs); "
             f"stalemate = no winner after {STALEMATE_TURNS} turns", ""]
    head = f"{'board':<22}{'nations':>8}  {'mode':<7}{'variant':<17}{'games':>6}{'wins':>6}{'stalem.':>8}" \
           f"{'mean turns':>11}{'turns/s':>9}"
    lines += [head, "-" * len(head)]
    groups: dict[tuple, list[Outcome]] = defaultdict(list)
    for o in done:
        groups[o.config].append(o)
    for config in CONFIGS:
        got = groups.get(config)
        if not got:
            continue
        board, n, mode, variants = config
        turns = sum(o.turns for o in got)
        secs = sum(o.seconds for o in got)
        lines.append(f"{board:<22}{n:>8}  {mode:<7}{(','.join(variants) or '-'):<17}{len(got):>6}"
                     f"{sum(1 for o in got if o.winner):>6}{sum(1 for o in got if not o.winner):>8}"
                     f"{turns / len(got):>11.0f}{turns / secs:>9.0f}")
    turns = sum(o.turns for o in done)
    cpu = sum(o.seconds for o in done)
    lines.append("-" * len(head))
    if done:
        lines.append(f"{'all':<22}{'':>8}  {'':<7}{'':<17}{len(done):>6}{sum(1 for o in done if o.winner):>6}"
                     f"{sum(1 for o in done if not o.winner):>8}{turns / len(done):>11.0f}{turns / cpu:>9.0f}")
    lines.append("")
    played = Counter(n for o in done for n in o.lineup)
    won = Counter(o.winner for o in done if o.winner)
    lines.append("wins per nation (wins / games played): " + ", ".join(
        f"{n} {won[n]}/{played[n]}" for n in sorted(played, key=lambda n: (-won[n] / played[n], n))))
    for mode in MODES:
        got = [o for o in done if o.config[2] == mode]
        if got:
            lines.append(f"{mode}: {len(got)} games, {sum(1 for o in got if o.winner)} won, "
                         f"mean {sum(o.turns for o in got) / len(got):.0f} turns")
    used = sum((o.used for o in done), Counter())
    lines.append("Antike II's own, in all games: " + ", ".join(f"{k} {v}" for k, v in sorted(used.items())))
    lines.append(f"speed: {turns} turns, {turns / wall:.0f} turns/s wall, {turns / cpu:.0f} turns/s per core "
                 "(bot + engine + invariant checks after every turn + verify)")
    failed = [o for o in outcomes if o.failure]
    if failed:
        lines.append(f"FAILED: {len(failed)} games broke an invariant or did not verify:")
        for o in failed[:5]:
            lines.append(f"  game {o.index} {o.config}: {o.failure.strip().splitlines()[-1]}")
    else:
        lines.append("every turn accepted by check, invariants held after every turn, every game verified")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=240)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--data", type=Path, help="a new --data file (printed values) for every game")
    ap.add_argument("--seed", default="a2-bench", help="prefix of the games' seeds")
    args = ap.parse_args(argv)
    data = json.loads(args.data.read_text(encoding="utf-8")) if args.data else None
    start = time.perf_counter()
    work = [(i, data, args.seed) for i in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(_run, work, chunksize=2))
    else:
        outcomes = [_run(w) for w in work]
    wall = time.perf_counter() - start
    for line in table(outcomes, wall, args.jobs):
        print(line)
    return 1 if any(o.failure for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
