"""Report rendering benchmark: time per format for one turn of a mid-game state.

Bots play a 4-nation game to turn 60 (same seed, same game every run); then the report
of the latest turn and of a past turn (rebuilt by replay) is rendered in every format.
"Cold" is the first render in this process (templates compiled, fonts loaded, board
geometry computed); "warm" is the median of the following runs.

    .venv/bin/python bench/bench_render.py [--turns 60] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.play.selfplay import bot_turn, start_game  # noqa: E402

NATIONS = ["persians", "phoenicians", "arabs", "greeks"]


def mid_game(turns: int):
    """A bot game (greedy), stopped after ``turns`` turns or at its end."""
    game, plain = start_game("bench", NATIONS, "bench-render")
    for _ in range(turns):
        if game.state.status.winner:
            break
        game, _ = bot_turn(game, plain)
    return game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=60)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()

    game = mid_game(args.turns)
    t0 = time.perf_counter()
    import cairosvg  # noqa: F401
    import jinja2  # noqa: F401
    imports = time.perf_counter() - t0
    from pbem.report import FORMATS, prepare

    played = game.state.status.turn - 1
    print(f"game: {played} turns played, {len(game.state.provinces)} provinces with a city or units")
    print(f"importing jinja2 + cairosvg: {imports * 1000:.0f} ms (once per process)")

    for label, turn in (("latest turn", None), (f"turn {played // 2} (replayed)", played // 2)):
        t0 = time.perf_counter()
        report = prepare(game, turn)
        model_ms = (time.perf_counter() - t0) * 1000
        times: dict[str, list[float]] = {f: [] for f in FORMATS}
        sizes = {}
        for _ in range(args.runs + 1):
            report._cache.clear()
            for fmt in FORMATS:
                t0 = time.perf_counter()
                data = report.render(fmt)
                times[fmt].append((time.perf_counter() - t0) * 1000)
                sizes[fmt] = len(data)
        print(f"\n{label}: view model (incl. replay) {model_ms:.0f} ms")
        print(f"{'format':8} {'cold ms':>8} {'warm ms':>8} {'bytes':>9}")
        for fmt in FORMATS:
            cold, warm = times[fmt][0], statistics.median(times[fmt][1:])
            print(f"{fmt:8} {cold:8.0f} {warm:8.0f} {sizes[fmt]:9d}")
        total_warm = sum(statistics.median(times[f][1:]) for f in FORMATS)
        print(f"{'all':8} {sum(times[f][0] for f in FORMATS):8.0f} {total_warm:8.0f}")
    print("\n(formats run in the order shown; pdf draws the board page once and png replays that"
          " drawing, as write_reports does; each run starts from an empty cache)")


if __name__ == "__main__":
    main()
