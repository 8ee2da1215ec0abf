"""Command latency: start-up, `show --json`, `check` and `process` on a mid-game file.

Builds a 4-nation game, lets the bots play 120 turns, then times each command as a
separate process (what a GM waits for), median of several runs.

    .venv/bin/python bench/bench_cli.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.play.bot import play_turn  # noqa: E402
from pbem.play.selfplay import bot_turn, start_game  # noqa: E402
from pbem.service.passwords import ITERATIONS  # noqa: E402
from pbem.service.store import game_text  # noqa: E402

EXE = str(Path(sys.executable).with_name("antike-ref"))
RUNS = 7


def timed(args: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    nations = ["persians", "phoenicians", "arabs", "greeks"]
    # passwords at a real game's cost, so that check and process pay for them as a GM's do
    game, plain = start_game("bench", nations, "bench", iterations=ITERATIONS)
    for _ in range(120):
        game, _ = bot_turn(game, plain)
    with tempfile.TemporaryDirectory() as tmp:
        g = Path(tmp) / "g.json"
        g.write_text(game_text(game), encoding="utf-8")
        o = {**play_turn(game, "greedy"), "password": plain[game.state.status.active]}
        orders = Path(tmp) / "o.json"
        orders.write_text(json.dumps(o), encoding="utf-8")
        print(f"mid-game file: {len(game.history)} history entries, {g.stat().st_size // 1024} KiB")
        print(f"python -c 'import pbem.cli': {timed([sys.executable, '-c', 'import pbem.cli']) * 1000:.0f} ms")
        print(f"antike-ref --help:           {timed([EXE, '--help']) * 1000:.0f} ms")
        print(f"antike-ref show --json:      {timed([EXE, 'show', str(g), '--json']) * 1000:.0f} ms")
        print(f"antike-ref check:            {timed([EXE, 'check', str(g), str(orders)]) * 1000:.0f} ms")
        copy = Path(tmp) / "copy.json"
        times = []
        for _ in range(RUNS):
            shutil.copy(g, copy)
            start = time.perf_counter()
            subprocess.run([EXE, "process", str(copy), str(orders)], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        print(f"antike-ref process:          {statistics.median(times) * 1000:.0f} ms")
        start = time.perf_counter()
        subprocess.run([EXE, "verify", str(g)], check=True, capture_output=True)
        print(f"antike-ref verify (121 entries): {(time.perf_counter() - start) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
