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
    from pbem.mail.cycle import find_orders
    from pbem.mail.inbox import read_message

    for k, raw in enumerate(base.mails):
        assert fuzzkit.mail_problems(raw, base) == []
        found = find_orders(read_message(raw))
        if k < len(base.mails) - 1:  # the last one only quotes orders: it holds none
            assert found is not None and (found.given is not None or "HTML" in found.problem), k
        else:
            assert found is None


@pytest.mark.parametrize("kind", fuzzkit.KINDS)
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
        warnings.warn(f"a known problem whose fix is pending: {item[:300]}")
    assert failures == [], f"{len(failures)} of {PER_KIND[kind]} {kind} inputs:\n" + "\n".join(failures[:5])


def test_antike2_inputs_hurt_nothing(base, tmp_path):
    """Antike II's own inputs, broken: order files with a trade for several chips, a free
    BELLONA unit and a chosen city type; GM edits of neutral temples, city types and
    BELLONA; its game files (one on a board from a file) and their histories."""
    a2 = fuzzkit.antike2_base(base)
    assert {p.name for p in a2.positions} == {"a2-trade", "a2-bellona", "a2-found"}
    assert all(json.loads(s.game)["rules"]["edition"] == "antike2" for s in a2.samples)
    rng = random.Random(f"{SEED}-antike2")
    kinds = ("orders", "textorders", "edit", "game", "history")
    failures = []
    for i in range(ANTIKE2_INPUTS):
        case = fuzzkit.make_case(kinds[i % len(kinds)], rng, a2)
        problems = fuzzkit.run_case(case, a2, tmp_path / "run")
        if problems:
            keep = fuzzkit.save_case(case, tmp_path / "failed", f"antike2-{i}", problems)
            failures.append(_report(f"#{i} {case.label()} (input kept as {keep})", problems))
    assert failures == [], f"{len(failures)} of {ANTIKE2_INPUTS} Antike II inputs:\n" + "\n".join(failures[:5])


DU_PASSWORDS = {n: f"pw-{n}" for n in ("carthaginians", "romans", "greeks", "persians")}
DU_ODD_VALUES: list = ["legion", "galley", "admiral", "commander", "fortress", "earthquake", "burglary", "academy",
                       "card_05", "?", "", None, True, 0, -1, 1, 3, 13, 99, {"legion": 1}, {"legion": -1},
                       {"galley": 1, "legion": 1, "admiral": 1}, {}, [], ["fortress", "fortress"], "roma",
                       "carthago", "mare_africum", "atlantis", "always", "never", "sometimes"]
"""Values near what Duellum's own order and edit fields take."""


def mutate_duellum(rng: random.Random, data: dict) -> tuple[dict, str]:
    """One change of a Duellum order file or GM edit in what only Duellum has: ``walls``
    (a rival's city, twice, a sea), ``recruit`` (too many, a special unit, below zero),
    ``events`` (a card not held, FORTRESS, EARTHQUAKE without or with a wrong city, a
    field a card does not take), the standing orders ``fortress`` and ``draw``, and the
    edit items ``walls_supply``, ``recruitment``, ``hand``, ``wall``, ``vp``."""
    import copy

    out = copy.deepcopy(data)
    how = "edit" if "edits" in out else rng.choice(["walls", "recruit", "events", "standing"])
    odd = DU_ODD_VALUES
    if how == "walls":
        walls = out.setdefault("walls", [{"city": "carthago"}])
        walls.append({"city": rng.choice(odd)} if rng.random() < 0.5 else dict(rng.choice(walls)))
        if rng.random() < 0.3:
            out["rondel"] = {"to": rng.choice(["templum", "temple", "militia", "duellum"])}
    elif how == "recruit":
        out["recruit"] = rng.choice([{"legion": 13}, {"galley": -1}, {"admiral": 1}, {},
                                     {"legion": 1, "pay": {"coin": 9}}, rng.choice(odd)])
        if rng.random() < 0.3:
            out["rondel"] = {"to": rng.choice(["scientia", "knowhow", "aurum"])}
    elif how == "events":
        events = out.setdefault("events", [])
        events.append(rng.choice([{"play": rng.choice(odd)}, {"play": "earthquake"},
                                  {"play": "earthquake", "city": rng.choice(odd)}, {"play": "fortress"},
                                  {"play": "burglary", "city": "roma"}, {"play": "academy", "gold": 5},
                                  {"city": "roma"}]))
    elif how == "standing":
        out["standing"] = {rng.choice(["fortress", "draw"]): rng.choice(odd)}
    else:
        edits = out["edits"]
        nation = rng.choice(["carthaginians", "romans", "greeks", "atlantis"])
        item = rng.choice([{"nation": nation, "walls_supply": rng.choice(odd)},
                           {"nation": nation, "recruitment": rng.choice(odd)},
                           {"nation": nation, "hand": rng.choice(odd)},
                           {"nation": nation, "vp": rng.choice(odd)},
                           {"province": rng.choice(["roma", "carthago", "tacape", "mare_africum"]),
                            "wall": rng.choice(odd)},
                           {"province": "roma", "units": {"romans": {"admiral": rng.choice(odd)}}}])
        edits.insert(rng.randrange(len(edits) + 1), item)
    return out, f"duellum {how}"


def duellum_base(base):
    """``base`` with Antike Duellum's material only: two bot games (the Rome/Carthage side
    in the special-units variant, the Aegean excerpt), positions whose order files build
    walls, recruit, play cards and found a city of a chosen type, and a GM edit of its own
    items."""
    import dataclasses

    from pbem import editions
    from pbem.kernel.orders import canonical_edit
    from pbem.kernel.turn import resolve
    from pbem.play.bot import build_turn
    from pbem.play.selfplay import bot_turn, start_game
    from pbem.service import turns
    from pbem.service.boards import load_map_file
    from pbem.service.store import game_text

    du = editions.get("duellum")
    positions = []

    def edited(game, *items):
        return turns.edit(game, canonical_edit({"game": game.game_id, "reason": "fuzz position",
                                                "edits": list(items)}, du))

    def position(name, game, orders):
        resolve(game.state, orders, game.edition, game.board)  # legal, or the kit is wrong
        orders = {**orders, "password": DU_PASSWORDS[orders["nation"]]}
        positions.append(fuzzkit.Position(name, game_text(game).encode(), orders, fuzzkit._orders_text(game, orders)))

    game, _ = start_game("fuzzdu", ["carthaginians", "romans"], "fuzz-du", "duellum", "duellum-rome-carthage",
                         ("special_units",), iterations=1000)
    for k in range(24):
        game, _ = bot_turn(game, DU_PASSWORDS, "random" if k % 2 else "greedy")
    nation = game.state.status.active
    other = next(n for n in game.seats if n != nation)
    rng = random.Random(2)
    walls = edited(game, {"nation": nation, "walls_supply": 2, "resources": {"marble": 3}, "rondel": 0})
    orders = build_turn(walls, {"to": "templum"}, rng, 1.0)
    assert orders.get("walls"), orders
    position("du-walls", walls, orders)
    recruit = edited(game, {"nation": nation, "recruitment": {"legion": 0, "galley": 0, du_special(nation): 1},
                            "resources": {"gold": 4}, "rondel": 5, "hand": ["academy"]},
                     {"nation": other, "coins": 4, "knowhow": ["strata"]})
    orders = build_turn(recruit, {"to": "scientia"}, rng, 1.0, greedy=True)
    assert orders.get("recruit") and orders.get("events"), orders
    position("du-recruit", recruit, orders)
    city = game.state.cities(other)[0]
    site = next(p for p in sorted(game.board.provinces) if game.board.province(p).site == "choice"
                and (p not in game.state.provinces or game.state.provinces[p].owner is None))
    found = edited(game, {"province": city, "wall": True}, {"nation": nation, "hand": ["earthquake", "burglary"],
                                                             "resources": {"marble": 2, "iron": 2, "gold": 2}},
                   {"province": site, "units": {nation: {"legion": 1, "galley": 0}}})
    orders = {"game": game.game_id, "nation": nation, "turn": game.state.status.turn,
              "events": [{"play": "earthquake", "city": city}, {"play": "burglary"}],
              "rondel": fuzzkit.orders_rondel(found, nation), "found": [{"city": site, "resource": "iron"}],
              "standing": {"fortress": "never", "draw": ["fortress"]}}
    position("du-found", found, orders)
    samples = [fuzzkit._sample("duellum", game, 0, DU_PASSWORDS)]
    aegean, _ = start_game("fuzzdu2", ["greeks", "persians"], "fuzz-du2", "duellum",
                           load_map_file(fuzzkit.ROOT / "tests" / "data" / "boards" / "duellum-aegean-excerpt.json"),
                           iterations=1000)
    for k in range(16):
        aegean, _ = bot_turn(aegean, DU_PASSWORDS, "greedy" if k % 2 else "random")
    samples.append(fuzzkit._sample("duellum-aegean", aegean, 0, DU_PASSWORDS))
    edit = {"game": game.game_id, "reason": "Duellum: <walls> & cards", "edits": [
        {"nation": nation, "walls_supply": 3, "recruitment": {"legion": 2, "galley": 1, du_special(nation): 1}},
        {"nation": other, "vp": 1},
        {"province": city, "wall": True},
        {"province": site, "owner": nation, "resource": "gold"},
    ]}
    vocabulary = sorted({*base.vocabulary, *du.nations, *game.board.provinces, *aegean.board.provinces,
                         *du.rondel.names, *du.knowhows, *du.personages, *du.variants, "walls", "recruit", "events",
                         "play", "wall", "hand", "recruitment", "walls_supply", "vp", "fortress", "draw", "admiral",
                         "commander", "earthquake", "burglary", "academy", "deck", "display", "discards", "secret"})
    return dataclasses.replace(base, positions=positions, samples=samples, game=samples[0].game,
                               game_json=samples[0].json, edit=edit, orders=samples[0].orders,
                               edits=[(samples[0].game, edit)], vocabulary=vocabulary)


def du_special(nation: str) -> str:
    from pbem.editions.duellum.rules import SPECIAL_UNITS

    return SPECIAL_UNITS[nation]


def test_duellum_inputs_hurt_nothing(base, tmp_path):
    """Antike Duellum's own inputs, broken: order files with walls, recruiting, event cards
    and a city of a chosen type, its standing orders; GM edits of walls, the recruitment
    box, hands and the VP marker; its game files (one on a board from a file) with their
    secrets and their histories."""
    du = duellum_base(base)
    assert {p.name for p in du.positions} == {"du-walls", "du-recruit", "du-found"}
    assert all(json.loads(s.game)["rules"]["edition"] == "duellum" for s in du.samples)
    rng = random.Random(f"{SEED}-duellum")
    kinds = ("orders", "textorders", "edit", "game", "history")
    failures = []
    for i in range(DUELLUM_INPUTS):
        kind = kinds[i % len(kinds)]
        if kind in ("orders", "edit") and rng.random() < 0.4:
            pos = rng.choice(du.positions)
            source, game = (pos.orders, pos.game) if kind == "orders" else (du.edit, du.game)
            changed, how = mutate_duellum(rng, source)
            case = fuzzkit.Case(kind, how, json.dumps(changed).encode(),
                                rng.choice(fuzzkit.ORDER_COMMANDS) if kind == "orders" else "gm-edit", game,
                                position=pos.name if kind == "orders" else "")
        else:
            case = fuzzkit.make_case(kind, rng, du)
        problems = fuzzkit.run_case(case, du, tmp_path / "run")
        if problems:
            keep = fuzzkit.save_case(case, tmp_path / "failed", f"duellum-{i}", problems)
            failures.append(_report(f"#{i} {case.label()} (input kept as {keep})", problems))
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
