"""The rule-case suite: every ``tests/cases/<section>/NAME.json`` run through the public CLI.

Like the Diplomacy adjudicator test cases, each case is a small data file written only in
the public contract (docs/orders.md): ``new`` options, a ``gm-edit`` list for the position,
order files, and the expected outcome (rejection codes, events, a subset of
``show --json``). ``tests/cases/README.md`` describes the format; this one parametrised
test runs them all with ``typer.testing.CliRunner`` on ``pbem.cli.app``:
new → gm-edit → check/process --json → show --json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import PASSWORDS, cli_run

CASES = Path(__file__).parent / "cases"
SECTIONS = ("rondel", "economy", "maneuver", "conquest", "personages", "victory", "standing")
FOUR = ["persians", "phoenicians", "arabs", "greeks"]
CASE_KEYS = {"title", "rule", "new", "gm-edit", "orders", "expect", "comment"}
EXPECT_KEYS = {"rejections", "events", "no_events", "show", "exit"}


def case_files() -> list[Path]:
    return sorted(CASES.glob("*/*.json"))


def _json(result, what: str) -> Any:
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        pytest.fail(f"{what}: no JSON on stdout (exit {result.exit_code}): {result.stdout!r} {result.stderr!r}")


def matches(expected: Any, actual: Any) -> bool:
    """``expected`` is a subset of ``actual``: objects by the keys named (``null`` also
    matches a missing key), lists and scalars by equality."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        return all(matches(v, actual.get(k)) if v is not None else actual.get(k) is None
                   for k, v in expected.items())
    return expected == actual


def in_order(patterns: list[dict], events: list[dict]) -> bool:
    """Each pattern matches an event, in this order (other events may come between)."""
    it = iter(events)
    return all(any(matches(p, e) for e in it) for p in patterns)


def new_args(options: dict[str, Any], path: Path) -> list[str]:
    nations = options.get("nations", FOUR)
    args = ["new", str(path), "--nations", ",".join(nations), "--id", "case", "--seed", "case"]
    for n in nations:
        args += ["--password", f"{n}={PASSWORDS[n]}"]
    if options.get("first"):
        args += ["--first", options["first"]]
    for v in options.get("variants", []):
        args += ["--variant", v]
    if options.get("goal") is not None:
        args += ["--goal", str(options["goal"])]
    if options.get("players") is not None:
        args += ["--players", str(options["players"])]
    for n, cities in options.get("start", {}).items():
        args += ["--start", f"{n}={','.join(cities)}"]
    return args


class Runner:
    """One case's game file in a temporary folder, driven through the CLI."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.game = folder / "case.json"
        self.count = 0

    def show(self) -> dict[str, Any]:
        result = cli_run("show", self.game, "--json")
        assert result.exit_code == 0, result.stderr
        return _json(result, "show --json")

    def gm_edit(self, edits: list[dict]) -> None:
        self.count += 1
        path = self.folder / f"edit-{self.count}.json"
        path.write_text(json.dumps({"game": "case", "reason": "rule case set-up", "edits": edits}))
        result = cli_run("gm-edit", self.game, path)
        assert result.exit_code == 0, f"gm-edit refused: {result.stderr}"

    def order_file(self, orders: dict[str, Any]) -> Path:
        """Write ``orders``, filling in game, password and (for a turn) the current turn."""
        data = dict(orders)
        data.setdefault("game", "case")
        if data.get("nation") in PASSWORDS:
            data.setdefault("password", PASSWORDS[data["nation"]])
        if "rondel" in data:
            data.setdefault("turn", self.show()["turn"])
        self.count += 1
        path = self.folder / f"orders-{self.count}.json"
        path.write_text(json.dumps(data))
        return path

    def process(self, orders: dict[str, Any]):
        return cli_run("process", self.game, self.order_file(orders), "--json")


def run_case(case: dict[str, Any], folder: Path) -> None:
    assert set(case) <= CASE_KEYS, f"unknown keys {sorted(set(case) - CASE_KEYS)}"
    expect = case["expect"]
    assert set(expect) <= EXPECT_KEYS, f"unknown expect keys {sorted(set(expect) - EXPECT_KEYS)}"
    assert case["orders"], "a case needs at least one order file"
    r = Runner(folder)
    created = cli_run(*new_args(case.get("new", {}), r.game))
    assert created.exit_code == 0, created.stderr
    if case.get("gm-edit"):
        r.gm_edit(case["gm-edit"])
    *before, last = case["orders"]
    for i, step in enumerate(before):
        if "gm-edit" in step:
            r.gm_edit(step["gm-edit"])
            continue
        result = r.process(step)
        assert result.exit_code == 0, f"order file {i} refused: {result.stdout} {result.stderr}"
    assert "gm-edit" not in last, "the last step must be an order file"

    if "rejections" in expect:
        want_exit = expect.get("exit", 4)
        saved = r.game.read_bytes()
        path = r.order_file(last)
        checked = cli_run("check", r.game, path, "--json")
        processed = cli_run("process", r.game, path, "--json")
        for result, verb in ((checked, "check"), (processed, "process")):
            assert result.exit_code == want_exit, f"{verb}: exit {result.exit_code}, {result.stdout} {result.stderr}"
            out = _json(result, verb)
            assert out["ok"] is False
            got = out["rejections"]
            want = expect["rejections"]
            assert len(got) == len(want), f"{verb}: rejections {got}"
            for w, g in zip(want, got):
                assert matches({"code": w} if isinstance(w, str) else w, g), f"{verb}: {w} vs {g}"
        assert r.game.read_bytes() == saved, "a refused order file changed the game file"
        return

    result = r.process(last)
    assert result.exit_code == expect.get("exit", 0), f"refused: {result.stdout} {result.stderr}"
    out = _json(result, "process")
    assert out["ok"] is True
    events = out["events"]
    if "events" in expect:
        assert in_order(expect["events"], events), f"events {json.dumps(events, indent=1)}"
    for pattern in expect.get("no_events", []):
        assert not any(matches(pattern, e) for e in events), f"unexpected event {pattern} in {events}"
    if "show" in expect:
        shown = r.show()
        assert matches(expect["show"], shown), f"show --json {json.dumps(shown, indent=1)}"


@pytest.mark.parametrize("path", case_files(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case(path, tmp_path):
    """One rule case (its ``rule`` names the rulebook line, e.g. ``000 L612-620``)."""
    case = json.loads(path.read_text(encoding="utf-8"))
    assert path.parent.name in SECTIONS, f"cases live in one of {SECTIONS}"
    assert case.get("title") and case.get("rule"), "every case has a title and cites its rule"
    run_case(case, tmp_path)


def test_there_are_cases_in_every_section():
    """The suite covers every rule section, with legal outcomes and refusals alike."""
    files = case_files()
    assert {p.parent.name for p in files} == set(SECTIONS)
    cases = [json.loads(p.read_text(encoding="utf-8")) for p in files]
    assert len(cases) >= 40
    assert sum("rejections" in c["expect"] for c in cases) >= 10
    assert sum("rejections" not in c["expect"] for c in cases) >= 20


def test_matching_rules_of_the_format():
    """The README's matching rules: subsets for objects, equality for lists, ``null`` for
    missing, events in order with others in between."""
    assert matches({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}, "d": 3})
    assert not matches({"a": [1]}, {"a": [1, 2]})
    assert matches({"x": None}, {"y": 1}) and not matches({"y": None}, {"y": 1})
    assert in_order([{"t": 1}, {"t": 3}], [{"t": 1}, {"t": 2}, {"t": 3}])
    assert not in_order([{"t": 3}, {"t": 1}], [{"t": 1}, {"t": 2}, {"t": 3}])
