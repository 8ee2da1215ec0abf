"""Self-play benchmark: bots play N whole games (default 1,000), every turn checked.

Every turn goes through the checked entry point (password included), invariants are
checked after each turn, and every finished game must pass ``verify``. Prints games and
turns per second, winners, and stalemates (no winner after STALEMATE_TURNS turns).

    .venv/bin/python bench/bench_selfplay.py --games 1000 --jobs 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.play.selfplay import STALEMATE_TURNS, play_game  # noqa: E402

VARIANTS = [(), (), (), ("expert",), ("military",), ("longer",)]


def one(i: int):
    nations = 3 + i % 4
    mode = "greedy" if i % 2 == 0 else "random"
    variants = VARIANTS[(i // 2) % len(VARIANTS)]
    start = time.perf_counter()
    _, rec = play_game(f"bench-{i}", nations, mode, variants)
    return rec, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    start = time.perf_counter()
    records = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for rec, secs in pool.map(one, range(args.games), chunksize=4):
            records.append((rec, secs))
    wall = time.perf_counter() - start
    turns = sum(r.turns for r, _ in records)
    cpu = sum(s for _, s in records)
    stalemates = [r for r, _ in records if r.winner is None]
    print(f"games: {len(records)} in {wall:.1f} s wall ({args.jobs} jobs), {cpu:.1f} s of game time")
    print(f"turns: {turns} (mean {turns / len(records):.0f} per game, max {max(r.turns for r, _ in records)})")
    print(f"speed: {len(records) / wall:.2f} games/s, {turns / wall:.0f} turns/s wall; "
          f"{turns / cpu:.0f} turns/s per core (bot + engine + invariant checks + verify)")
    print(f"winners by mode: {dict(Counter((r.mode, r.winner is not None) for r, _ in records))}")
    print(f"stalemates (no winner after {STALEMATE_TURNS} turns): {len(stalemates)}"
          + (f" e.g. {[(r.seed, r.nations, r.mode, r.variants) for r in stalemates[:5]]}" if stalemates else ""))
    print("every turn accepted by check, invariants held, every game verified")


if __name__ == "__main__":
    main()
