"""The speed table: each figure against a floor timed side by side in the same run.

Absolute times drift by half between runs on a shared machine, so every command is timed
in pairs with its floor (floor, command, floor, command, ...) and the table gives the
median of each and the median of the per-pair ratios.

    .venv/bin/python bench/bench_speed.py            # 20 pairs, the table in the issue
    .venv/bin/python bench/bench_speed.py --pairs 5  # quicker

Beside the wall-clock ratio each row gives the ratio of the CPU time the two processes used
(user + system, median of the per-pair ratios): on a machine shared with other work the
wall clock measures the others too, the CPU time much less so. After the table, where the
milliseconds of one ``process`` of the bundled demo game go: the import time of each group
of modules (the least of five ``python -X importtime`` runs, module by module) and the
phases of the command under ``cProfile``, the password check on its own line (PBKDF2 at the
game's cost, which every command that takes orders pays by design).

The package is byte-compiled first, as pip compiles a wheel it installs: an editable
install run with ``PYTHONDONTWRITEBYTECODE`` set (some containers set it) and no ``.pyc``
files compiles every module of pbem again on every run, about 100 ms of CPU time that no
installed copy pays (``process`` then measured 1.8x its floor instead of 1.2x).

Figures and targets:

- ``process`` of a mid-game turn without reports, and ``check`` of the same turn, against
  ``python -c "import typer, jsonschema"``: at most 1.3x; the same for the last turn of the
  bundled demo game (demo/run.sh's ``new``, its passwords hashed at the default cost);
- ``antike-ref --help`` against ``python -c "import typer"``: at most 1.2x;
- ``verify`` in-process, turns per second over a long bot game: at least 5,000; and the
  whole ``antike-ref verify`` command on a 1,000-turn game: under 1 s;
- every report format of a turn (``render --turn N``) against the ``cairosvg`` command
  turning the same SVG into PNG and into PDF: at most 1.5x.
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import shlex
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


class Took(tuple):
    """How long one or more runs took: wall-clock seconds and CPU seconds (user + system of
    the child processes). Adding two adds both."""

    def __new__(cls, wall: float, cpu: float):
        return super().__new__(cls, (wall, cpu))

    def __add__(self, other: Took) -> Took:
        return Took(self[0] + other[0], self[1] + other[1])


def run(args: list[str]) -> Took:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode()[-400:]}")
    return Took(took, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def paired(floor: list[str] | callable, command: list[str] | callable, pairs: int) -> tuple[float, float, str, str]:
    """Median floor time, median command time, the median per-pair ratio of the wall-clock
    times with its spread (the quartiles of the ratios: half the pairs lie between them),
    and the median per-pair ratio of the CPU times."""
    def once(what) -> Took:
        return what() if callable(what) else run(what)
    once(floor), once(command)  # warm the file cache
    fl, cm = [], []
    for _ in range(pairs):
        fl.append(once(floor))
        cm.append(once(command))
    ratios = [c[0] / f[0] for f, c in zip(fl, cm)]
    cpu = statistics.median(c[1] / f[1] for f, c in zip(fl, cm) if f[1] > 0)
    low, _, high = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
    return (statistics.median(f[0] for f in fl), statistics.median(c[0] for c in cm),
            f"{statistics.median(ratios):.2f}x ({low:.2f}-{high:.2f})", f"{cpu:.2f}x")


def compiled() -> None:
    """Byte-compile the package the commands run (see the top of this file)."""
    import compileall

    compileall.compile_dir(str(ROOT / "pbem"), quiet=1)


def demo_game(folder: Path) -> tuple[Path, Path]:
    """The bundled demo game before its last turn: created with demo/run.sh's own ``new``
    command (its passwords hashed at the default cost), every order file of demo/orders/
    but the last processed. Returns the game file and the last order file."""
    script = (ROOT / "demo" / "run.sh").read_text(encoding="utf-8")
    found = re.search(r"^antike-ref new ((?:.*\\\n)*.*)$", script, re.M)
    if found is None:
        raise SystemExit("demo/run.sh: no `antike-ref new` command found")
    game = folder / "demo.json"
    words = [str(game) if w == "$GAME" else w for w in shlex.split(found.group(1).replace("\\\n", " "))]
    run([EXE, "new", *words])
    *played, last = sorted((ROOT / "demo" / "orders").glob("*.json"))
    for orders in played:
        run([EXE, "process", str(game), str(orders)])
    return game, last


def long_game(turns: int, seed: str):
    """A 6-nation bot game of exactly ``turns`` turns, with real-cost password hashes: the
    random bot plays, except that a turn which would win is replaced by the nation's
    default turn, so the game goes on as long as asked."""
    from pbem.kernel import queries
    from pbem.kernel.orders import canonical_orders
    from pbem.play.selfplay import start_game
    from pbem.service import turns as service_turns

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
    ap.add_argument("--startup", action="store_true",
                    help="only the start-up rows (process, check, --help) and the profile: no verify, no render")
    args = ap.parse_args()
    n = args.pairs
    rows: list[tuple[str, ...]] = []
    compiled()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        mid, plain = long_game(120, "bench-mid")
        g = tmp / "mid.json"
        g.write_text(game_text(mid), encoding="utf-8")
        orders = tmp / "orders.json"
        orders.write_text(json.dumps({**play_turn(mid, "greedy"), "password": plain[mid.state.status.active]}),
                          encoding="utf-8")
        demo, demo_orders = demo_game(tmp)
        demo_entries = len(json.loads(demo.read_text(encoding="utf-8"))["history"])

        def process(game: Path, given: Path):
            work = tmp / "work.json"
            text = game.read_bytes()

            def once() -> Took:
                work.write_bytes(text)
                return run([EXE, "process", str(work), str(given)])
            return once

        floor2 = [PY, "-c", "import typer, jsonschema"]
        for label, game, given in ((f"mid-game turn ({len(mid.history)} entries)", g, orders),
                                   (f"demo game, last turn ({demo_entries} entries)", demo, demo_orders)):
            f, c, r, cpu = paired(floor2, process(game, given), n)
            rows.append((f"process, {label}, no reports", f"{c * 1000:.0f} ms", "import typer, jsonschema",
                         f"{f * 1000:.0f} ms", f"{r} (target <= 1.3x)", cpu))
            f, c, r, cpu = paired(floor2, [EXE, "check", str(game), str(given)], n)
            rows.append(("check, same turn", f"{c * 1000:.0f} ms", "import typer, jsonschema",
                         f"{f * 1000:.0f} ms", f"{r} (target <= 1.3x)", cpu))
        f, c, r, cpu = paired([PY, "-c", "import typer"], [EXE, "--help"], n)
        rows.append(("antike-ref --help", f"{c * 1000:.0f} ms", "import typer", f"{f * 1000:.0f} ms",
                     f"{r} (target <= 1.2x)", cpu))

        if not args.startup:
            rows += slow_rows(tmp, g, n)

        head = ("figure", "now", "floor", "floor time", "ratio", "cpu ratio")
        print(f"median of {n} pairs (in brackets: the quartiles of the per-pair ratios); "
              f"python {sys.version.split()[0]}")
        print_table(head, rows)
        print()
        profile(demo, demo_orders, tmp)


def slow_rows(tmp: Path, g: Path, n: int) -> list[tuple[str, ...]]:
    """The rows of ``verify`` and ``render``, which take long games and reports."""
    rows = []
    # verify: in-process speed on a long game, and the whole command on 1,000 turns
    from pbem.service.replay import verify
    from pbem.service.schemas import read_json
    from pbem.service.store import load_game

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
                     "-", "-", "target >= 5,000 turns/s", "-"))
    cmd = statistics.median(run([EXE, "verify", str(long_file)])[0] for _ in range(max(3, n // 4)))
    rows.append((f"antike-ref verify, {len(big.history)} entries, {long_file.stat().st_size // 1024} KiB",
                 f"{cmd * 1000:.0f} ms", "-", "-", "target < 1,000 ms", "-"))

    # every report format of one turn, against cairosvg on the same SVG
    out = tmp / "reports"
    run([EXE, "render", str(g), "--turn", "60", "--out", str(out), "--format", "svg"])
    svg = next(out.glob("*.svg"))
    cairosvg = str(BIN / "cairosvg")

    def floor_reports() -> Took:
        return run([cairosvg, str(svg), "-o", str(tmp / "f.png")]) + \
            run([cairosvg, str(svg), "-o", str(tmp / "f.pdf")])

    f, c, r, cpu = paired(floor_reports, [EXE, "render", str(g), "--turn", "60", "--out", str(out)],
                          max(3, n // 2))
    rows.append(("render --turn 60, every format", f"{c * 1000:.0f} ms", "cairosvg SVG -> PNG, -> PDF",
                 f"{f * 1000:.0f} ms", f"{r} (target <= 1.5x)", cpu))
    return rows


def print_table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)) + " |")


IMPORT_GROUPS = (("pbem.cli", "pbem.cli"), ("pbem.service", "pbem.service"), ("pbem.kernel", "pbem.kernel"),
                 ("pbem.editions", "pbem.editions"), ("pbem.report", "pbem.report"), ("pbem", "pbem (errors, paths)"),
                 ("typer", "typer (and its click)"), ("annotated_doc", "typer (and its click)"),
                 ("shellingham", "typer (and its click)"))
"""Module name prefix -> the group it is counted in; any other module is the standard library's
or another package's."""


def import_times(argv: list[str], runs: int, before) -> dict[str, tuple[int, str]]:
    """Module -> its own import time in microseconds (the least of ``runs`` runs of
    ``python -X importtime -m pbem ARGV``, ``before()`` called before each) and the
    top-level import that brought it in."""
    least: dict[str, tuple[int, str]] = {}
    for _ in range(runs):
        before()
        done = subprocess.run([PY, "-X", "importtime", "-m", "pbem", *argv], capture_output=True, text=True)
        stack: list[str] = []
        lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")][1:]
        for line in reversed(lines):  # a module is printed after the modules it imported
            own, _, name = line.removeprefix("import time:").split("|")
            depth = (len(name) - len(name.lstrip())) // 2
            name = name.strip()
            del stack[depth:]
            top = stack[0] if stack else name
            stack.append(name)
            us = int(own)
            least[name] = (min(us, least[name][0]) if name in least else us, top)
    return least


def group_of(module: str) -> str:
    for prefix, group in IMPORT_GROUPS:
        if module == prefix or module.startswith(prefix + "."):
            return group
    return "standard library and other packages"


def profile(game: Path, given: Path, tmp: Path) -> None:
    """Where one ``process`` of ``given`` on ``game`` spends its time: imports by group and
    the slowest modules, then the phases under cProfile (which slows Python code down more
    than C code: compare the phases with each other, not with the table)."""
    import pstats

    work = tmp / "profiled.json"
    text = game.read_bytes()
    argv = ["process", str(work), str(given)]

    def fresh() -> None:  # each run plays the turn on a fresh copy
        work.write_bytes(text)

    least = import_times(argv, 5, fresh)
    groups: dict[str, int] = {}
    for module, (us, _) in least.items():
        groups[group_of(module)] = groups.get(group_of(module), 0) + us
    total = sum(groups.values())
    print(f"where `antike-ref process` of the demo's last turn spends its time ({len(least)} modules imported)")
    print()
    print_table(("imports, by group", "ms (least of 5 runs)", "share"),
                [(g, f"{us / 1000:.1f}", f"{us / total:.0%}")
                 for g, us in sorted(groups.items(), key=lambda kv: -kv[1])]
                + [("all imports", f"{total / 1000:.1f}", "100%")])
    print()
    slowest = sorted(least.items(), key=lambda kv: -kv[1][0])[:15]
    print_table(("module (its own import time)", "ms", "imported for"),
                [(m, f"{us / 1000:.1f}", top) for m, (us, top) in slowest])
    print()

    fresh()
    stats_file = tmp / "process.prof"
    done = subprocess.run([PY, "-m", "cProfile", "-o", str(stats_file), "-m", "pbem", *argv], capture_output=True)
    if done.returncode != 0:
        raise SystemExit(f"cProfile run failed: {done.stderr.decode()[-400:]}")
    stats = pstats.Stats(str(stats_file)).stats

    def cumulative(path: str, function: str) -> float:
        return sum(row[3] for (file, _, name), row in stats.items()
                   if file.replace("\\", "/").endswith(path) and name == function) * 1000

    whole = cumulative("pbem/__main__.py", "<module>")
    password = cumulative("pbem/service/passwords.py", "verify")
    phases = [
        ("the command's module imported (pbem.cli.load)", cumulative("pbem/cli/__init__.py", "load")),
        ("the game loaded and checked (store.load_game)", cumulative("pbem/service/store.py", "load_game")),
        ("the password checked (passwords.verify: PBKDF2 at the game's cost, inherent)", password),
        ("the orders read and played, password aside", cumulative("pbem/service/service.py", "step") - password),
        ("the game saved, fsync included (store.save_game)", cumulative("pbem/service/store.py", "save_game")),
        ("the outcome printed (cli.game._turn_output)", cumulative("pbem/cli/game.py", "_turn_output")),
    ]
    rest = whole - sum(ms for _, ms in phases)
    print_table(("phase of one run under cProfile", "ms", "share"),
                [(what, f"{ms:.1f}", f"{ms / whole:.0%}") for what, ms in phases]
                + [("the rest: start-up, typer, other imports", f"{rest:.1f}", f"{rest / whole:.0%}"),
                   ("the whole run", f"{whole:.1f}", "100%")])


if __name__ == "__main__":
    main()
