"""Fuzz soak: the long form of tests/test_fuzz.py, on as many broken inputs as one likes.

The same generators and judge (tests/fuzzkit.py): order files (JSON and text), GM edits,
game files, tampered histories, board files with their provinces tables, and order mails,
each broken in one of many ways and run through the real command line (in-process; every
``--every``-th one as a process of the console script), or read as the mail cycle reads a
mail. Prints the inputs tried per kind, the failures (each input kept in ``--keep DIR``
with the files beside it and what went wrong) and the time taken; exits 1 if anything
failed.

    .venv/bin/python bench/soak_fuzz.py --inputs 20000 --seed 7 --keep out/fuzz-failures
    .venv/bin/python bench/soak_fuzz.py --inputs 3000 --antike2
    .venv/bin/python bench/soak_fuzz.py --inputs 3000 --duellum

``--antike2`` makes every input from the Antike II material only (its games, its order
files with trades, BELLONA's free unit and chosen city types, its GM edit); ``--duellum``
from Antike Duellum's (two bot games, order files with walls, recruiting, event cards and
chosen city types, its GM edit), four in ten order files and edits changed in what only
Duellum has.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import fuzzkit  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=20000, help="How many broken inputs to try (default 20000).")
    ap.add_argument("--seed", default="1", help="Seed of the generators (the same seed, the same inputs).")
    ap.add_argument("--keep", type=Path, default=None, help="Folder for the inputs that fail (default: a "
                                                            "temporary folder, named at the end).")
    ap.add_argument("--kinds", default=None, help="Comma-separated kinds (default: all; with --antike2 all "
                                                  "but map and mail).")
    ap.add_argument("--every", type=int, default=100,
                    help="Run every N-th input of a command as a process of the console script (0: never).")
    ap.add_argument("--antike2", action="store_true", help="Break only the Antike II material.")
    ap.add_argument("--duellum", action="store_true", help="Break only the Antike Duellum material.")
    args = ap.parse_args()
    narrow = args.antike2 or args.duellum
    if args.antike2 and args.duellum:
        ap.error("--antike2 or --duellum, not both")
    default = [k for k in fuzzkit.KINDS if not narrow or k not in ("map", "mail")]
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()] if args.kinds else default
    unknown = [k for k in kinds if k not in fuzzkit.KINDS]
    if unknown:
        ap.error(f"unknown kind(s) {', '.join(unknown)}: one of {', '.join(fuzzkit.KINDS)}")
    keep = args.keep or Path(tempfile.mkdtemp(prefix="soak-fuzz-failures-"))
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="soak-fuzz-") as tmp:
        work = Path(tmp)
        base = fuzzkit.build_base(work / "base")
        corpus = fuzzkit.corpus_cases(base)
        if narrow and set(kinds) & {"map", "mail"}:
            ap.error("--antike2, --duellum: the kinds orders, textorders, edit, game and history only")
        if args.antike2:
            base = fuzzkit.antike2_base(base)
        if args.duellum:
            base = fuzzkit.duellum_base(base)
        rngs = {k: random.Random(f"{args.seed}-{k}") for k in kinds}
        tried, failed, known, seconds = Counter(), Counter(), Counter(), Counter()
        processes = 0
        failures: list[str] = []

        def run(kind: str, case: fuzzkit.Case, stem: str, as_process: bool) -> None:
            began = time.perf_counter()
            problems = fuzzkit.run_case(case, base, work / "run", subprocess_mode=as_process)
            seconds[kind] += time.perf_counter() - began
            tried[kind] += 1
            if problems:
                failed[kind] += 1
                pending = fuzzkit.is_pending(problems)
                known[kind] += pending
                kept = fuzzkit.save_case(case, keep, stem, problems)
                note = " [known, fix pending]" if pending else ""
                failures.append(f"{case.label()}: {problems[0].splitlines()[0]}{note} (kept as {kept})")

        for name, case in corpus:
            run(case.kind, case, f"corpus-{name}", False)
        corpus_failures = len(failures)
        for i in range(args.inputs):
            kind = kinds[i % len(kinds)]
            case = (fuzzkit.duellum_case if args.duellum else fuzzkit.make_case)(kind, rngs[kind], base)
            as_process = bool(args.every) and kind != "mail" and i % args.every == args.every - 1
            processes += as_process
            run(kind, case, f"{kind}-{i}", as_process)
            if (i + 1) % 1000 == 0:
                print(f"  {i + 1} inputs, {sum(failed.values())} failures, "
                      f"{time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"seed {args.seed}: {args.inputs} inputs and {len(corpus)} from the corpus "
          f"({corpus_failures} of them failed), {processes} as processes, in {elapsed:.0f} s")
    print(f"{'kind':<12}{'inputs':>8}{'failures':>10}{'of them known':>15}{'ms each':>9}")
    for kind in kinds:
        n = tried[kind]
        print(f"{kind:<12}{n:>8}{failed[kind]:>10}{known[kind]:>15}{(seconds[kind] / n * 1000 if n else 0):>9.0f}")
    print(f"{'all':<12}{sum(tried.values()):>8}{sum(failed.values()):>10}{sum(known.values()):>15}")
    print("(known: a problem whose fix is pending, PENDING in tests/test_fuzz.py)")
    for line in failures[:50]:
        print(f"  {line}")
    if failures:
        print(f"failing inputs kept in {keep}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
