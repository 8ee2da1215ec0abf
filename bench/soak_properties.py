"""Soak test: long random legal games of every edition, every invariant after every turn.

The checks are those of ``tests/kernel/test_properties.py`` (:class:`Run`): after every history
entry the game file matches its schema, loads back and writes back byte for byte, the same
orders give the same bytes, the edition's conservation laws hold and nothing is negative;
every ``--check-every`` entries and at the end ``verify`` passes and every report rendered
again from the history equals the one ``process`` wrote. Games cycle through every edition
on every board it plays on, 3-6 nations; the choices come from one generator per game,
seeded from ``--seed`` and the game's number, so a failure is replayed with the same
arguments (``--only N`` plays game N alone; ``--edition antike2`` only that edition's
configurations: Mare Nostrum and the Orient excerpt).

    .venv/bin/python bench/soak_properties.py --games 200 --max-turns 400 --seed 1 --jobs 2
    .venv/bin/python bench/soak_properties.py --games 40 --edition antike2 --jobs 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests", ROOT / "tests" / "kernel"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def configs(edition: str | None) -> list[tuple[str, str]]:
    """The configurations played in turn: every one of the property tests, or one edition's."""
    import test_properties as props

    return [c for c in props.CONFIGS if edition is None or c[0] == edition]


def one(job: tuple[int, str, int, int, str | None]) -> dict:
    """Play game number ``i``; return what happened (never raises)."""
    import test_properties as props

    i, seed, max_turns, check_every, only_edition = job
    chosen = configs(only_edition)
    edition, board = chosen[i % len(chosen)]
    draw = props.Draw(rng=random.Random(f"{seed}/{i}"))
    start = time.perf_counter()
    out = {"game": i, "edition": edition, "board": board, "turns": 0, "entries": 0, "winner": None,
           "failure": None}
    run = None
    try:
        run = props.drawn_run(draw, edition, board)
        props.play_on(draw, run, max_turns, check_every)
    except Exception as exc:  # noqa: BLE001 - a soak counts failures, it does not stop at one
        out["failure"] = f"{type(exc).__name__}: {exc}"
        out["where"] = "".join(traceback.format_tb(exc.__traceback__)[-3:])
    if run is not None and run.game is not None:  # a run whose set-up failed has no game
        out.update(turns=run.turns, entries=run.entries, winner=run.game.state.status.winner,
                   label=run.label)
        seen = Counter()
        for entry in run.game.history:
            seen[f"entry {entry['kind']}"] += 1
            seen.update(ev["type"] for ev in entry.get("events", []))
        out["seen"] = seen
    out["seconds"] = time.perf_counter() - start
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--max-turns", type=int, default=400, help="turns per game unless a nation wins first")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--check-every", type=int, default=50,
                    help="history entries between two verify and render-again checks (and at the end)")
    ap.add_argument("--only", type=int, default=None, help="play only game number N")
    ap.add_argument("--edition", default=None, help="play only this edition's configurations (e.g. antike2)")
    args = ap.parse_args()
    if args.edition is not None and not configs(args.edition):
        ap.error(f"--edition {args.edition}: no configuration plays it")
    numbers = [args.only] if args.only is not None else list(range(args.games))
    jobs = [(i, args.seed, args.max_turns, args.check_every, args.edition) for i in numbers]
    start = time.perf_counter()
    results = []
    if args.jobs > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for res in pool.map(one, jobs):
                results.append(res)
                _progress(res)
    else:
        for job in jobs:
            res = one(job)
            results.append(res)
            _progress(res)
    wall = time.perf_counter() - start
    failures = [r for r in results if r["failure"]]
    turns = sum(r["turns"] for r in results)
    print(f"games: {len(results)}  turns: {turns}  history entries: {sum(r['entries'] for r in results)}  "
          f"failures: {len(failures)}  seconds: {wall:.1f}")
    seen = sum((r.get("seen", Counter()) for r in results), Counter())
    print("history entries and events: " + ", ".join(f"{k} {n}" for k, n in sorted(seen.items())))
    played = Counter(r["edition"] + "/" + r["board"] for r in results)
    print(f"finished with a winner: {sum(1 for r in results if r['winner'])}; by edition and board: {dict(played)}")
    seed = args.seed
    also = f" --edition {args.edition}" if args.edition else ""
    for r in failures[:10]:
        print(f"\nFAILED game {r['game']} (--seed {seed} --only {r['game']}{also}):\n{r['failure']}\n{r['where']}")
    return 1 if failures else 0


def _progress(res: dict) -> None:
    mark = "FAIL" if res["failure"] else "ok"
    print(f"  game {res['game']:4d} {res['edition']:>9}/{res['board']:<22} {res['turns']:4d} turns "
          f"{res['seconds']:6.1f} s {mark}" + (f"  winner {res['winner']}" if res["winner"] else ""), flush=True)


if __name__ == "__main__":
    sys.exit(main())
