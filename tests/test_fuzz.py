"""Bad input never hurts a game: broken order files, GM edits, game files, tampered
histories, board files and order mails, through the real command line.

First every input in the regression corpus (tests/fuzz_corpus/: each once broke
something), then a few hundred new ones per kind from fixed seeds (tests/fuzzkit.py makes
and judges them), a handful through the installed console script, and files that are no
files. Each must end in a documented exit code other than 1, say what is wrong in one
message starting with ``antike-ref:``, leave the game file byte for byte as it was, and
``verify`` must name the first tampered history entry. ``bench/soak_fuzz.py`` runs the same
generators for as long as one likes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import warnings

import pytest

import fuzzkit
from conftest import cli_run

SEED = 20261123
"""The seed of the inputs made here; the soak run takes others."""

PER_KIND = {"orders": 70, "textorders": 45, "edit": 50, "game": 70, "history": 110, "map": 35, "mail": 160}
"""How many new inputs of each kind a test run tries (about half a minute in all)."""
ANTIKE2_INPUTS = 150
"""New inputs made only from the Antike II material (orders, text orders, GM edits, game
files and histories, in turn), beside those the kinds above draw from it."""
DUELLUM_INPUTS = 120
"""New inputs made only from the Antike Duellum material (:func:`duellum_base`), in the
same turn of kinds."""

PENDING: dict[str, str] = {}
"""Corpus inputs whose fix belongs to a file another change is rewriting: expected to fail
until then (strict, so the day they pass the entry must leave this list)."""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return fuzzkit.build_base(tmp_path_factory.mktemp("fuzz-base"))


def _corpus_names() -> list[str]:
    return sorted(p.name for p in fuzzkit.CORPUS.iterdir() if p.name != "README.md")


def _report(label: str, problems: list[str]) -> str:
    return f"{label}:\n  " + "\n  ".join(problems)


@pytest.mark.slow
@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=PENDING[n])) if n in PENDING else n
    for n in _corpus_names()])
def test_the_corpus_replays_first(base, tmp_path, name):
    """Every input that ever broke something is handled now."""
    cases = dict(fuzzkit.corpus_cases(base))
    problems = fuzzkit.run_case(cases[name], base, tmp_path / "run")
    assert problems == [], _report(name, problems)


def test_the_corpus_is_small_and_named_for_what_it_broke():
    names = _corpus_names()
    assert len(names) >= 20
    for name in names:
        assert name.split("-", 1)[0] in fuzzkit.KINDS, name
        assert (fuzzkit.CORPUS / name).stat().st_size < 4096, f"{name}: store a recipe instead"
    assert set(PENDING) <= set(names)


def test_the_unbroken_inputs_pass(base, tmp_path):
    """What the fuzzer starts from is valid as it is: every sample game verifies, shows,
    renders and takes its order file and GM edit; every board makes a game; every mail
    but a reply that only quotes orders holds them. (A fix that refuses good files shows
    here first.)"""
    for sample in base.samples:
        game = tmp_path / f"{sample.name}.json"
        game.write_bytes(sample.game)
        orders = fuzzkit._dumps(sample.orders)
        edit = fuzzkit._dumps(sample.edit)
        (tmp_path / "orders.json").write_bytes(orders)
        (tmp_path / "edit.json").write_bytes(edit)
        for args in (["verify", game], ["show", game, "--json"], ["history", game],
                     ["render", game, "--format", "txt,svg", "--out", tmp_path / "out"],
                     ["render", game, "--turn", 2, "--format", "txt", "--out", tmp_path / "out"],
                     ["check", game, tmp_path / "orders.json"], ["gm-edit", game, tmp_path / "edit.json", "-o",
                                                                 tmp_path / "edited.json"]):
            result = cli_run(*args)
            assert result.exit_code == 0, (sample.name, args[0], result.stderr)
        assert game.read_bytes() == sample.game
    for name, (text, beside) in base.maps.items():
        folder = tmp_path / f"map-{name}"
        folder.mkdir()
        (folder / "board.json").write_bytes(text)
        for table, content in beside.items():
            (folder / table).write_bytes(content)
        case = fuzzkit.Case("map", "valid", text, "new --board", position=name)
        made = cli_run("new", folder / "game.json", "--board", folder / "board.json", "--nations",
                       fuzzkit._nations_for(case), "--kdf-iterations", 1000)
        assert made.exit_code == 0, (name, made.stderr)
    from pbem.mail.inbox import read_message
    from pbem.mail.router import find_orders

    for k, raw in enumerate(base.mails):
        assert fuzzkit.mail_problems(raw, base) == []
        found = find_orders(read_message(raw))
        if k < len(base.mails) - 1:  # the last one only quotes orders: it holds none
            assert found is not None and (found.given is not None or "HTML" in found.problem), k
        else:
            assert found is None


@pytest.mark.parametrize("kind", [pytest.param(k, marks=pytest.mark.slow) if k == "history" else k
                                  for k in fuzzkit.KINDS])
def test_broken_inputs_hurt_nothing(base, tmp_path, kind):
    rng = random.Random(f"{SEED}-{kind}")
    failures, pending = [], []
    for i in range(PER_KIND[kind]):
        case = fuzzkit.make_case(kind, rng, base)
        problems = fuzzkit.run_case(case, base, tmp_path / "run")
        if not problems:
            continue
        keep = fuzzkit.save_case(case, tmp_path / "failed", f"{kind}-{i}", problems)
        (pending if fuzzkit.is_pending(problems) else failures).append(
            _report(f"#{i} {case.label()} (input kept as {keep})", problems))
    for item in pending:
        warnings.warn(f"a known problem whose fix is pending: {item[:300]}", stacklevel=1)
    assert failures == [], f"{len(failures)} of {PER_KIND[kind]} {kind} inputs:\n" + "\n".join(failures[:5])


def _edition_inputs(make, material, name: str, count: int, tmp_path) -> list[str]:
    """``count`` broken inputs made by ``make`` from one edition's ``material``, the kinds
    of :data:`fuzzkit.DUELLUM_KINDS` in turn, each run and judged; what went wrong."""
    rng = random.Random(f"{SEED}-{name}")
    kinds = fuzzkit.DUELLUM_KINDS
    failures = []
    for i in range(count):
        case = make(kinds[i % len(kinds)], rng, material)
        problems = fuzzkit.run_case(case, material, tmp_path / "run")
        if problems:
            keep = fuzzkit.save_case(case, tmp_path / "failed", f"{name}-{i}", problems)
            failures.append(_report(f"#{i} {case.label()} (input kept as {keep})", problems))
    return failures


@pytest.mark.slow
def test_antike2_inputs_hurt_nothing(base, tmp_path):
    """Antike II's own inputs, broken: order files with a trade for several chips, a free
    BELLONA unit and a chosen city type; GM edits of neutral temples, city types and
    BELLONA; its game files (one on a board from a file) and their histories."""
    a2 = fuzzkit.antike2_base(base)
    assert {p.name for p in a2.positions} == {"a2-trade", "a2-bellona", "a2-found"}
    assert all(json.loads(s.game)["rules"]["edition"] == "antike2" for s in a2.samples)
    failures = _edition_inputs(fuzzkit.make_case, a2, "antike2", ANTIKE2_INPUTS, tmp_path)
    assert failures == [], f"{len(failures)} of {ANTIKE2_INPUTS} Antike II inputs:\n" + "\n".join(failures[:5])


@pytest.mark.slow
def test_duellum_inputs_hurt_nothing(base, tmp_path):
    """Antike Duellum's own inputs, broken: order files with walls, recruiting, event cards
    and a city of a chosen type, its standing orders; GM edits of walls, the recruitment
    box, hands and the VP marker; its game files (one on a board from a file) with their
    secrets and their histories."""
    du = fuzzkit.duellum_base(base)
    assert {p.name for p in du.positions} == {"du-walls", "du-recruit", "du-found"}
    assert all(json.loads(s.game)["rules"]["edition"] == "duellum" for s in du.samples)
    failures = _edition_inputs(fuzzkit.duellum_case, du, "duellum", DUELLUM_INPUTS, tmp_path)
    assert failures == [], f"{len(failures)} of {DUELLUM_INPUTS} Duellum inputs:\n" + "\n".join(failures[:5])


def test_recipes_can_name_the_antike2_material(base, tmp_path):
    """A corpus recipe may change an Antike II sample (``"sample"``) or position (by name)."""
    game = json.loads(next(s for s in base.samples if s.name == "antike2").game)
    at = next(i for i, e in enumerate(game["history"]) if e.get("kind") == "turn" and i > 3)
    recipes = [
        {"kind": "history", "sample": "antike2", "patch": [[["history", at, "orders", "rondel"], {"to": "duellum"}]],
         "first_bad": at},
        {"kind": "orders", "position": "a2-bellona", "patch": [[["arm", 0, "free"], "yes"]]},
        {"kind": "orders", "position": "a2-found", "patch": [[["found", 0, "resource"], "coin"]]},
        {"kind": "edit", "sample": "antike2", "patch": [[["edits", 0, "neutral_temple"], None]]},
    ]
    for k, recipe in enumerate(recipes):
        case = fuzzkit.from_recipe(recipe, base, f"recipe-{k}")
        assert b'"antike2"' in (case.data if case.kind == "history" else case.game), k
        assert fuzzkit.run_case(case, base, tmp_path / f"run-{k}") == [], recipe
        assert fuzzkit.LAST[case.kind] in (3, 6), (recipe, fuzzkit.LAST[case.kind])


@pytest.mark.slow
def test_through_the_console_script(base, tmp_path):
    """The same judge on real processes of the installed ``antike-ref``: a few inputs of
    every kind a command reads, two from the corpus and three of Antike II's."""
    rng = random.Random(f"{SEED}-subprocess")
    cases = [fuzzkit.make_case(kind, rng, base) for kind in fuzzkit.KINDS if kind != "mail" for _ in range(2)]
    corpus = dict(fuzzkit.corpus_cases(base))
    cases += [corpus["history-rondel-shorthand.recipe.json"],
              corpus["textorders-word-of-100000-characters.recipe.json"]]
    a2 = fuzzkit.antike2_base(base)
    material = [base] * len(cases) + [a2] * 3
    cases += [fuzzkit.make_case(kind, rng, a2) for kind in ("orders", "edit", "game")]
    failures = []
    for k, (case, given) in enumerate(zip(cases, material)):
        problems = fuzzkit.run_case(case, given, tmp_path / f"run-{k}", subprocess_mode=True)
        if problems:
            failures.append(_report(case.label(), problems))
    assert failures == [], "\n".join(failures)


def _special_inputs(folder):
    """Paths that are no ordinary file: a folder, a named pipe nobody writes to, a device,
    a dangling symbolic link, and a file that is not there."""
    fifo = folder / "pipe.json"
    os.mkfifo(fifo)
    (folder / "dangling.json").symlink_to(folder / "nowhere.json")
    (folder / "folder.json").mkdir()
    return {"folder": folder / "folder.json", "pipe": fifo, "device": os.devnull,
            "dangling link": folder / "dangling.json", "missing": folder / "missing.json"}


@pytest.mark.slow
@pytest.mark.parametrize("role", ["orders", "edit", "game", "map"])
def test_files_that_are_no_files_are_bad_input(base, tmp_path, role):
    game = tmp_path / "game.json"
    game.write_bytes(base.game)
    edit = tmp_path / "edit.json"
    edit.write_text(json.dumps(base.edit), encoding="utf-8")
    for what, path in _special_inputs(tmp_path).items():
        args = {"orders": ["check", game, path], "edit": ["gm-edit", game, path], "game": ["verify", path],
                "map": ["new", tmp_path / "new.json", "--board", path, "--nations", "greeks,persians,arabs"]}[role]
        # a real process with a time limit: reading a pipe must not wait for a writer
        done = subprocess.run([fuzzkit.EXE, *map(str, args)], capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=60)
        assert done.returncode == 3, (what, done.stderr)
        first = done.stderr.splitlines()[0]
        assert first.startswith("antike-ref:") and os.path.basename(str(path)) in first, (what, done.stderr)
        assert game.read_bytes() == base.game, what
    assert not (tmp_path / "new.json").exists()


def test_the_judge_sees_what_it_must(base, tmp_path):
    """The judge itself can fail: a crash, an unexplained failure, a changed game file, a
    verify that names the wrong entry, each is reported."""
    case = fuzzkit.Case("history", "test", b"", "verify", first_bad=7)
    crash = fuzzkit.Ran(1, "", "antike-ref: internal error (a bug in antike-ref): KeyError: 'x'\n")
    assert any("exit code 1" in p for p in fuzzkit.judge(case, crash, "verify", {}, {}, []))
    bare = fuzzkit.Ran(3, "", "Traceback (most recent call last):\n")
    found = fuzzkit.judge(case, bare, "verify", {}, {}, [])
    assert any("Traceback" in p for p in found) and any("antike-ref:" in p for p in found)
    changed = fuzzkit.judge(case, fuzzkit.Ran(4, "", "antike-ref: refused: no\n"), "process",
                            {"game.json": "a"}, {"game.json": "b"}, [])
    assert any("game.json" in p for p in changed)
    wrong = fuzzkit.judge(case, fuzzkit.Ran(6, "", "antike-ref: history entry 8: differs\n"), "verify", {}, {}, [])
    assert any("history entry 7" in p for p in wrong)
    accepted = fuzzkit.judge(case, fuzzkit.Ran(0, "ok", ""), "verify", {}, {}, [])
    assert any("verify exits 0" in p for p in accepted)


@pytest.mark.slow
def test_the_fuzzer_finds_a_planted_bug(base, tmp_path, monkeypatch):
    """With the old bug planted again (a malformed history entry read back as it is, so
    that whatever reads it breaks), the history fuzzer finds it within its first inputs:
    what it makes reaches the code it is meant to guard."""
    from pbem.service import history

    real = history.entry_problems

    def planted(i, entry, *args):
        if real(i, entry, *args):
            raise KeyError("planted")
        return []

    monkeypatch.setattr(history, "entry_problems", planted)
    rng = random.Random(f"{SEED}-planted")
    found = []
    for _ in range(40):
        problems = fuzzkit.run_case(fuzzkit.make_case("history", rng, base), base, tmp_path / "run")
        found += [p for p in problems if p.startswith("exit code 1")]
    assert found


def test_a_tampered_history_is_named_by_verify_and_refused_by_the_rest(base, tmp_path):
    """The known bug, end to end: an order inside history entry 12 changed to a wrong type.
    ``verify`` names entry 12 (exit 6); a report of a later turn, which replays it, calls
    the file bad input naming the entry (exit 3); the file is never touched."""
    data = json.loads(base.game)
    data["history"][12]["orders"]["rondel"] = {"to": ["gold"]}
    game = tmp_path / "game.json"
    text = json.dumps(data, indent=1).encode()
    game.write_bytes(text)
    checked = cli_run("verify", game)
    assert checked.exit_code == 6, checked.stderr
    assert checked.stderr.startswith(f"antike-ref: {game}: history entry 12: its orders are not an order file: "
                                     "$.history[12].orders.rondel"), checked.stderr
    later = data["history"][20]["turn"]
    rendered = cli_run("render", game, "--turn", later, "--format", "txt", "--out", tmp_path / "out")
    assert rendered.exit_code == 3, rendered.stderr
    assert "game.json" in rendered.stderr and "$.history[12]" in rendered.stderr
    assert cli_run("undo", game, "--turns", 3).exit_code == 3
    assert game.read_bytes() == text
