"""Kill and race harness for tests/cli/test_crash.py and bench/soak_crash.py.

A command that changes a game (``process``, with and without ``--report-dir``, ``gm-edit``,
``undo``) is run as the real console script in a fresh copy of one prepared game and
killed with SIGKILL after a delay. What is left is then judged: the game file must be
byte for byte the old one or the one an uninterrupted run writes, ``verify`` must pass on
it, and a temporary file or lock file it left must be cleared by the next run, which
must succeed. Delays come from a seeded :class:`random.Random`, so a schedule is the same
on every machine; where a kill lands in a run depends on the machine, so only outcomes
are judged, never times.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from conftest import PASSWORDS, cli_run, new_game_file, write_json
from pbem.service.store import temp_pattern

ROOT = Path(__file__).resolve().parent.parent
EXE = Path(sys.executable).with_name("antike-ref")
if not EXE.exists():
    EXE = ROOT / ".venv" / "bin" / "antike-ref"

GAME = "game.json"
LOCK = GAME + ".lock"
REPORTS = "rep"


@dataclass(frozen=True)
class Command:
    """A command run in a trial folder, with paths relative to it."""

    name: str
    args: tuple[str, ...]

    @property
    def reports(self) -> bool:
        return "--report-dir" in self.args


COMMANDS = {
    "process": Command("process", ("process", GAME, "orders.json")),
    "process+reports": Command("process+reports", ("process", GAME, "orders.json", "--report-dir", REPORTS)),
    "gm-edit": Command("gm-edit", ("gm-edit", GAME, "edit.json")),
    "undo": Command("undo", ("undo", GAME, "--turns", "1", "--reason", "killed")),
}
FOLLOW_UP = ("gm-edit", GAME, "follow-up.json")
"""A change that always applies: the next run after a kill that left the new file."""


def orders(game_id: str, nation: str, turn: int, wedge: str) -> dict:
    return {"game": game_id, "nation": nation, "turn": turn, "password": PASSWORDS[nation], "rondel": wedge}


def status(path: Path) -> dict:
    """``show --json`` of a game (whose turn, which turn)."""
    result = cli_run("show", path, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def verify_ok(path: Path) -> str | None:
    """None if ``antike-ref verify`` passes on ``path``, else what it said."""
    result = cli_run("verify", path, "--quiet")
    return None if result.exit_code == 0 else f"verify exit {result.exit_code}: {result.stderr.strip()}"


EDITIONS = {
    "classic": ((), None, "gold", ("greeks", "arabs")),
    # Duellum writes a private report per nation beside the public one: more files to kill in
    "duellum": (("--edition", "duellum"), ["carthaginians", "romans"], "aurum", ("romans", "carthaginians")),
}
"""Per edition: ``new``'s options, its nations (None: conftest's four), a wedge whose
first placement is free, and the nations the two GM edit files give coins to."""


def prepare_base(folder: Path, edition: str = "classic") -> Path:
    """A game of ``edition`` after its first turn (so ``undo`` has a turn to take back), an
    order file for the second turn, and two GM edit files; returns the folder."""
    options, nations, wedge, edited = EDITIONS[edition]
    folder.mkdir(parents=True, exist_ok=True)
    path = new_game_file(folder, "--kdf-iterations", "1000", *options, **({"nations": nations} if nations else {}))
    shown = status(path)
    first = write_json(folder / "first.json", orders("game", shown["active"], 1, wedge))
    result = cli_run("process", path, first)
    assert result.exit_code == 0, result.stderr
    first.unlink()
    shown = status(path)
    write_json(folder / "orders.json", orders("game", shown["active"], shown["turn"], wedge))
    write_json(folder / "edit.json", {"game": "game", "reason": "lost mail",
                                      "edits": [{"nation": edited[0], "coins": 3}]})
    write_json(folder / "follow-up.json", {"game": "game", "reason": "after a kill",
                                           "edits": [{"nation": edited[1], "coins": 2}]})
    return folder


def leftovers(folder: Path) -> list[str]:
    """What a run may leave beside the game: its temporary files and its lock file."""
    pattern = temp_pattern(GAME)
    return sorted(n for n in os.listdir(folder) if pattern.fullmatch(n) or n == LOCK)


def report_leftovers(folder: Path) -> list[str]:
    reports = folder / REPORTS
    return sorted(n for n in os.listdir(reports) if n.endswith(".tmp")) if reports.is_dir() else []


def report_files(folder: Path) -> list[str]:
    reports = folder / REPORTS
    return sorted(n for n in os.listdir(reports) if not n.startswith(".")) if reports.is_dir() else []


def audit_lines(folder: Path) -> int:
    log = folder / "game.audit.jsonl"
    return len(log.read_text(encoding="utf-8").splitlines()) if log.exists() else 0


@dataclass
class Reference:
    """An uninterrupted run of a command: the file before and after, how long it took and
    when the game file was replaced (seconds from the start)."""

    command: Command
    old: bytes
    new: bytes
    duration: float
    saved_at: float
    reports: list[str] = field(default_factory=list)


def reference(base: Path, work: Path, command: Command) -> Reference:
    """Run ``command`` uninterrupted on a copy of ``base``, watching when the game file is
    replaced (its inode changes)."""
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(base, work, symlinks=True)
    game = work / GAME
    old = game.read_bytes()
    inode = game.stat().st_ino
    saved_at = None
    start = time.monotonic()
    proc = subprocess.Popen([str(EXE), *command.args], cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    while proc.poll() is None:
        if saved_at is None:
            try:
                if os.stat(game).st_ino != inode:
                    saved_at = time.monotonic() - start
            except FileNotFoundError:
                pass
        time.sleep(0.0005)
    duration = time.monotonic() - start
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.stderr.close()
    assert proc.returncode == 0, f"{command.name}: exit {proc.returncode}: {err}"
    new = game.read_bytes()
    assert new != old, command.name
    problem = verify_ok(game)
    assert problem is None, problem
    assert leftovers(work) == [] and report_leftovers(work) == []
    return Reference(command, old, new, duration, duration if saved_at is None else saved_at,
                     report_files(work))


def schedule(rng: random.Random, count: int, ref: Reference) -> list[float]:
    """``count`` delays: two in three spread evenly over 0 .. 1.1 times the run, one in three
    drawn near the moment the reference run replaced the game file (where a kill can
    land between writing the temporary file and renaming it)."""
    delays = []
    for i in range(count):
        if i % 3 == 2:
            delays.append(rng.uniform(max(0.0, ref.saved_at - 0.06), min(ref.saved_at + 0.02, 1.1 * ref.duration)))
        else:
            delays.append(rng.uniform(0.0, 1.1 * ref.duration))
    return delays


@dataclass
class Trial:
    command: str
    delay: float
    phase: str = ""
    """``old`` (killed before the save), ``new`` (killed after it) or ``finished`` (the run
    ended before the kill); ``torn`` is a failure."""
    left: list[str] = field(default_factory=list)
    report_left: list[str] = field(default_factory=list)
    unlogged_undo: bool = False
    reports_missing: bool = False
    failures: list[str] = field(default_factory=list)


def kill_once(base: Path, work: Path, ref: Reference, delay: float) -> Trial:
    """One trial: run the command on a fresh copy of ``base``, SIGKILL it after ``delay``
    seconds, judge what is left, and if it left a temporary or lock file let the next run
    clear it."""
    command = ref.command
    trial = Trial(command.name, delay)
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(base, work, symlinks=True)
    game = work / GAME
    logged_before = audit_lines(work)
    proc = subprocess.Popen([str(EXE), *command.args], cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    if proc.returncode not in (0, -signal.SIGKILL):
        trial.failures.append(f"exit {proc.returncode} without a kill")
    data = game.read_bytes()
    if data == ref.old:
        trial.phase = "old"
    elif data == ref.new:
        trial.phase = "finished" if proc.returncode == 0 else "new"
    else:
        trial.phase = "torn"
        trial.failures.append(f"game file is neither the old nor the new one ({len(data)} bytes)")
        return trial
    problem = verify_ok(game)
    if problem:
        trial.failures.append(problem)
    trial.left = leftovers(work)
    trial.report_left = report_leftovers(work)
    if command.reports and trial.phase != "old":
        trial.reports_missing = report_files(work) != ref.reports
    if command.name == "undo" and trial.phase != "old":
        trial.unlogged_undo = audit_lines(work) == logged_before
    if trial.left:
        next_run = command.args if trial.phase == "old" else FOLLOW_UP
        done = subprocess.run([str(EXE), *next_run], cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            trial.failures.append(f"the run after the kill failed (exit {done.returncode}): {done.stderr.strip()}")
        elif trial.phase == "old" and game.read_bytes() != ref.new:
            trial.failures.append("the run after the kill wrote another file than an uninterrupted run")
        still = leftovers(work)
        if still:
            trial.failures.append(f"the run after the kill left {still} (the kill left {trial.left})")
        problem = verify_ok(game)
        if problem:
            trial.failures.append(f"after the next run: {problem}")
    return trial


def kill_campaign(folder: Path, plan: dict[str, int], seed: int,
                  progress=None, edition: str = "classic") -> tuple[list[Trial], dict[str, Reference]]:
    """Run ``plan[name]`` kills of each command in :data:`COMMANDS` on a game of ``edition``;
    returns every trial and the reference run of each command."""
    rng = random.Random(seed)
    base = prepare_base(folder / "base", edition)
    trials, refs = [], {}
    for name, count in plan.items():
        if not count:
            continue
        ref = refs[name] = reference(base, folder / "ref", COMMANDS[name])
        for delay in schedule(rng, count, ref):
            trial = kill_once(base, folder / "trial", ref, delay)
            trials.append(trial)
            if progress:
                progress(trial)
    return trials, refs


def summary(trials: list[Trial]) -> dict:
    """Counts per command and phase, failures, leftovers."""
    per = {}
    for name in dict.fromkeys(t.command for t in trials):
        mine = [t for t in trials if t.command == name]
        per[name] = {"kills": len(mine), **Counter(t.phase for t in mine),
                     "left lock": sum(LOCK in t.left for t in mine),
                     "left temp": sum(any(n.endswith(".tmp") for n in t.left) for t in mine),
                     "left report temp": sum(bool(t.report_left) for t in mine),
                     "reports missing": sum(t.reports_missing for t in mine),
                     "undo not logged": sum(t.unlogged_undo for t in mine),
                     "failures": sum(bool(t.failures) for t in mine)}
    return per


# --- races ------------------------------------------------------------------------------

RELEASED = r"""
import os, sys, time
barrier = sys.argv[1]
from pbem.cli import main
import pbem.service.service  # imported by the command; loaded before the start
print("ready", flush=True)
while not os.path.exists(barrier):
    time.sleep(0.0005)
sys.argv = ["antike-ref", *sys.argv[2:]]
sys.exit(main())
"""
"""Runs ``antike-ref ARGS`` (the console script's ``main``) once the barrier file exists;
its imports are done before, so that every run reaches the lock at about the same time."""


def race(folder: Path, runs: list[list[str]], barrier: bool = True) -> list[subprocess.CompletedProcess]:
    """Start every run in ``runs`` together (all loaded, then released by a barrier file;
    without ``barrier`` the console script is simply started that many times at once)."""
    gate = folder.parent / f".barrier-{os.getpid()}-{time.monotonic_ns()}"
    procs = []
    for args in runs:
        cmd = [sys.executable, "-c", RELEASED, str(gate), *args] if barrier else [str(EXE), *args]
        procs.append(subprocess.Popen(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    if barrier:
        for proc in procs:
            assert proc.stdout.readline() == "ready\n"
        gate.touch()
    done = []
    for args, proc in zip(runs, procs):
        out, err = proc.communicate(timeout=120)
        done.append(subprocess.CompletedProcess(args, proc.returncode, out, err))
    gate.unlink(missing_ok=True)
    return done


LOST_RACE = {5: "locked by another run", 4: "[orders/wrong-"}
"""How a run that lost the race ends: the lock was held (exit 5), or the turn had been
played already when it got the lock (exit 4, refused: wrong nation or turn)."""


def lost_cleanly(result: subprocess.CompletedProcess) -> bool:
    return result.returncode in LOST_RACE and LOST_RACE[result.returncode] in result.stderr

