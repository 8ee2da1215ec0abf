"""Crash soak: kill the commands that change a game with SIGKILL many times.

The long form of tests/cli/test_crash.py (the harness is tests/crashkit.py): ``process`` with
and without ``--report-dir``, ``gm-edit`` and ``undo`` each run as the console script on a
fresh copy of one game and are killed at moments drawn from a seeded generator, spread
over the whole run and bunched near the save. After each kill the game file must be the
old one or exactly the new one and must verify; a lock or temporary file left behind must
be cleared by the next run, which must succeed. Prints the kills per command and phase,
the failures and leftovers, and the time taken; exits 1 if anything failed.

    .venv/bin/python bench/soak_crash.py --kills 500 --seed 7
    .venv/bin/python bench/soak_crash.py --kills 200 --edition duellum
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from crashkit import COMMANDS, kill_campaign, summary  # noqa: E402

COLUMNS = ["kills", "old", "new", "finished", "torn", "left lock", "left temp", "left report temp",
           "reports missing", "undo not logged", "failures"]


def plan_for(kills: int) -> dict[str, int]:
    """The kills shared evenly between the commands (the first ones get the remainder)."""
    names = list(COMMANDS)
    return {name: kills // len(names) + (i < kills % len(names)) for i, name in enumerate(names)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=500, help="how many kills in all (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill schedule (default 1)")
    parser.add_argument("--quiet", action="store_true", help="no progress dots")
    parser.add_argument("--edition", default="classic", choices=["classic", "duellum"],
                        help="the edition of the game killed in (default classic)")
    args = parser.parse_args()

    def progress(trial) -> None:
        if not args.quiet:
            mark = "F" if trial.failures else {"old": ".", "new": "n", "finished": "f"}.get(trial.phase, "?")
            print(mark, end="", flush=True)

    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="soak-crash-") as tmp:
        trials, refs = kill_campaign(Path(tmp), plan_for(args.kills), args.seed, progress, args.edition)
    seconds = time.monotonic() - start
    if not args.quiet:
        print()
    print(f"crash soak: {len(trials)} kills, {args.edition}, seed {args.seed}, {seconds:.0f} s")
    print("reference runs: " + ", ".join(
        f"{name} {ref.duration * 1000:.0f} ms (saved at {ref.saved_at * 1000:.0f} ms)" for name, ref in refs.items()))
    table = summary(trials)
    width = max(len(n) for n in table) + 2
    print("command".ljust(width) + "  ".join(c.rjust(len(c)) for c in COLUMNS))
    totals = dict.fromkeys(COLUMNS, 0)
    for name, row in table.items():
        print(name.ljust(width) + "  ".join(str(row.get(c, 0)).rjust(len(c)) for c in COLUMNS))
        for c in COLUMNS:
            totals[c] += row.get(c, 0)
    print("all".ljust(width) + "  ".join(str(totals[c]).rjust(len(c)) for c in COLUMNS))
    print("phases: old = killed before the save (old file kept), new = killed after it (new file "
          "written), finished = the run ended before the kill; left: what the kill left beside the game "
          "(each cleared by the next run), reports missing: killed after the save, before every report "
          "was written; undo not logged: killed between an undo's save and its audit-log line")
    failed = [t for t in trials if t.failures]
    for t in failed[:20]:
        print(f"FAILED {t.command} killed at {t.delay * 1000:.0f} ms ({t.phase}): {'; '.join(t.failures)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
