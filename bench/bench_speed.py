"""The speed table: each figure against a floor timed side by side in the same run.

Absolute times drift by half between runs on a shared machine, so every command is timed
in pairs with its floor (floor, command, floor, command, ...) and the table gives the
median of each and the median of the per-pair ratios.

    .venv/bin/python bench/bench_speed.py            # 20 pairs, the table in the issue
    .venv/bin/python bench/bench_speed.py --pairs 5  # quicker

Figures and targets:

- ``process`` of a mid-game turn without reports, and ``check`` of the same turn, against
  ``python -c "import typer, jsonschema"``: at most 1.3x;
- ``antike-ref --help`` against ``python -c "import typer"``: at most 1.2x;
- ``verify`` in-process, turns per second over a long bot game: at least 5,000; and the
  whole ``antike-ref verify`` command on a 1,000-turn game: under 1 s;
- every report format of a turn (``render --turn N``) against the ``cairosvg`` command
  turning the same SVG into PNG and into PDF: at most 1.5x.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.play.bot import play_turn  # noqa: E402
from pbem.play.selfplay import LINEUPS  # noqa: E402
from pbem.service.passwords import ITERATIONS  # noqa: E402
from pbem.service.store import game_text  # noqa: E402

BIN = Path(sys.executable).parent
EXE = str(BIN / "antike-ref")
PY = sys.executable


def run(args: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode()[-400:]}")
    return took


def paired(floor: list[str] | callable, command: list[str] | callable, pairs: int) -> tuple[float, float, str]:
    """Median floor time, median command time, and the median per-pair ratio with its spread
    (the quartiles of the ratios: half the pairs lie between them)."""
    def once(what):
        return what() if callable(what) else run(what)
    once(floor), once(command)  # warm the file cache
    fl, cm = [], []
    for _ in range(pairs):
        fl.append(once(floor))
        cm.append(once(command))
    ratios = [c / f for f, c in zip(fl, cm)]
    low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
    return statistics.median(fl), statistics.median(cm), f"{statistics.median(ratios):.2f}x ({low:.2f}-{high:.2f})"


def long_game(turns: int, seed: str):
    """A 6-nation bot game of exactly ``turns`` turns, with real-cost password hashes: the
    random bot plays, except that a turn which would win is replaced by the nation's
    default turn, so the game goes on as long as asked."""
    from pbem.kernel import queries
    from pbem.play.selfplay import start_game
    from pbem.service import turns as service_turns
    from pbem.kernel.orders import canonical_orders

    game, plain = start_game("long", LINEUPS[6], seed, iterations=ITERATIONS)
    for _ in range(turns):
        nation = game.state.status.active
        orders = play_turn(game, "random")
        new, _ = service_turns.play(game, canonical_orders({**orders, "password": plain[nation]}, game.edition))
        if new.state.status.winner is not None:
            default = queries.default_orders(game.state, game.edition, game.board, nation)
            new, _ = service_turns.play(game, canonical_orders({**default, "password": plain[nation]},
                                                               game.edition))
        game = new
    return game, plain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=20)
    args = ap.parse_args()
    n = args.pairs
    rows: list[tuple[str, str, str, str, str]] = []

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        mid, plain = long_game(120, "bench-mid")
        g = tmp / "mid.json"
        g.write_text(game_text(mid), encoding="utf-8")
        orders = tmp / "orders.json"
        orders.write_text(json.dumps({**play_turn(mid, "greedy"), "password": plain[mid.state.status.active]}),
                          encoding="utf-8")
        work = tmp / "work.json"
        text = g.read_bytes()

        def process() -> float:
            work.write_bytes(text)
            return run([EXE, "process", str(work), str(orders)])

        floor2 = [PY, "-c", "import typer, jsonschema"]
        f, c, r = paired(floor2, process, n)
        rows.append(("process, mid-game turn (120 entries), no reports", f"{c * 1000:.0f} ms",
                     "import typer, jsonschema", f"{f * 1000:.0f} ms", f"{r} (target <= 1.3x)"))
        f, c, r = paired(floor2, [EXE, "check", str(g), str(orders)], n)
        rows.append(("check, same turn", f"{c * 1000:.0f} ms", "import typer, jsonschema",
                     f"{f * 1000:.0f} ms", f"{r} (target <= 1.3x)"))
        f, c, r = paired([PY, "-c", "import typer"], [EXE, "--help"], n)
        rows.append(("antike-ref --help", f"{c * 1000:.0f} ms", "import typer", f"{f * 1000:.0f} ms",
                     f"{r} (target <= 1.2x)"))

        # verify: in-process speed on a long game, and the whole command on 1,000 turns
        from pbem.service.replay import verify
        from pbem.service.store import load_game
        from pbem.service.schemas import read_json

        for turns in (330, 1000):
            big, _ = long_game(turns, "bench-long")
            long_file = tmp / f"long{turns}.json"
            long_file.write_text(game_text(big), encoding="utf-8")
            loaded, raw = load_game(long_file), read_json(long_file)
            times = []
            for _ in range(max(3, n // 4)):
                start = time.perf_counter()
                verify(loaded, raw)
                times.append(time.perf_counter() - start)
            per_s = len(big.history) / statistics.median(times)
            rows.append((f"verify in-process, 6 nations, {len(big.history)} entries", f"{per_s:,.0f} turns/s",
                         "-", "-", "target >= 5,000 turns/s"))
        cmd = statistics.median(run([EXE, "verify", str(long_file)]) for _ in range(max(3, n // 4)))
        rows.append((f"antike-ref verify, {len(big.history)} entries, {long_file.stat().st_size // 1024} KiB",
                     f"{cmd * 1000:.0f} ms", "-", "-", "target < 1,000 ms"))

        # every report format of one turn, against cairosvg on the same SVG
        out = tmp / "reports"
        run([EXE, "render", str(g), "--turn", "60", "--out", str(out), "--format", "svg"])
        svg = next(out.glob("*.svg"))
        cairosvg = str(BIN / "cairosvg")

        def floor_reports() -> float:
            return run([cairosvg, str(svg), "-o", str(tmp / "f.png")]) + \
                run([cairosvg, str(svg), "-o", str(tmp / "f.pdf")])

        f, c, r = paired(floor_reports, [EXE, "render", str(g), "--turn", "60", "--out", str(out)], max(3, n // 2))
        rows.append(("render --turn 60, every format", f"{c * 1000:.0f} ms", "cairosvg SVG -> PNG, -> PDF",
                     f"{f * 1000:.0f} ms", f"{r} (target <= 1.5x)"))

    head = ("figure", "now", "floor", "floor time", "ratio")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(5)]
    print(f"median of {n} pairs (in brackets: the quartiles of the per-pair ratios); python {sys.version.split()[0]}")
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |")


if __name__ == "__main__":
    main()
