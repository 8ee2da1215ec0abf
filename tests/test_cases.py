"""The rule-case suite: every ``tests/cases/<section>/NAME.json`` (classic Antike),
``tests/cases/antike2/<section>/NAME.json`` (Antike II) and
``tests/cases/duellum/<section>/NAME.json`` (Antike Duellum) run through the public CLI.

Like the Diplomacy adjudicator test cases, each case is a small data file written only in
the public contract (docs/orders.md): ``new`` options, a ``gm-edit`` list for the position,
order files, and the expected outcome (rejection codes, events, a subset of
``show --json``). ``tests/cases/README.md`` describes the format; this one parametrised
test runs them all with ``typer.testing.CliRunner`` on ``pbem.cli.app``:
new → gm-edit → check/process --json → show --json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conftest import PASSWORDS, cli_run
from pbem import editions

CASES = Path(__file__).parent / "cases"
BOARDS = Path(__file__).parent / "data" / "boards"
MAPS = Path(__file__).parent.parent / "maps"
SECTIONS = ("rondel", "economy", "maneuver", "conquest", "personages", "victory", "standing")
FOUR = ["persians", "phoenicians", "arabs", "greeks"]
A2 = "antike2"
A2_CASES = CASES / A2
A2_SECTIONS = ("rondel", "economy", "maneuver", "conquest", "personages", "victory", "variants")
A2_DEFAULTS = {"edition": "antike2", "board": "antike2-mare-nostrum",
               "nations": ["romans", "carthaginians", "greeks", "germans"]}
CASE_KEYS = {"title", "rule", "new", "gm-edit", "orders", "expect", "comment"}
NEW_KEYS = {"nations", "first", "variants", "goal", "players", "start", "edition", "board", "data"}
EXPECT_KEYS = {"rejections", "events", "no_events", "show", "exit"}
DU = "duellum"
DU_CASES = CASES / DU
DU_SECTIONS = ("rondel", "economy", "maneuver", "conquest", "personages", "cards", "victory", "variants")
DU_DEFAULTS = {"edition": "duellum", "board": "duellum-rome-carthage", "nations": ["carthaginians", "romans"]}
EDITION_CASES = {A2: A2_CASES, DU: DU_CASES}
"""The editions whose cases live in their own folder, ``tests/cases/<edition>/<section>/``."""
A2_UNREACHABLE = {
    "found/no-site": "every region of the Antike II boards the cases can use (maps/antike2-*.json, "
                     "tests/data/boards/antike2-*.json) has a city site, so no `found` can name a region "
                     "without one",
}
"""Antike II rejection codes no case can show, and why; test_antike2_codes_are_covered
checks that the reason still holds."""
A2_KERNEL_CODES = {"found/neutral-temple", "found/no-site", "found/resource-needed", "found/resource-fixed",
                   "arm/no-free-unit", "arm/free-twice"}
"""Kernel codes only Antike II's rules reach among the editions with cases (neutral temples,
chosen city types, BELLONA's free unit): its cases must show them too."""
DU_UNREACHABLE = {
    "found/neutral-temple": "Duellum has no neutral temples: a GM edit cannot put one on its boards, so no "
                            "`found` can meet one",
}
"""Antike Duellum rejection codes no case can show, and why (test_duellum_codes_are_covered)."""
DU_KERNEL_CODES = {"found/neutral-temple", "found/no-site", "found/resource-needed", "found/resource-fixed"}
"""Kernel codes Duellum's boards reach (sea regions, sites of the founder's choice)."""


def case_files() -> list[Path]:
    """Classic cases (``cases/<section>/``), then the Antike II ones (``cases/antike2/<section>/``),
    then the Duellum ones (``cases/duellum/<section>/``)."""
    classic = [p for p in CASES.glob("*/*.json") if p.parent not in EDITION_CASES.values()]
    return sorted(classic) + sorted(A2_CASES.glob("*/*.json")) + sorted(DU_CASES.glob("*/*.json"))


def edition_of(path: Path) -> str | None:
    """``antike2`` or ``duellum`` for a case in that edition's folder, ``None`` for a classic one."""
    return next((e for e, folder in EDITION_CASES.items() if path.parent.parent == folder), None)


def is_antike2(path: Path) -> bool:
    return edition_of(path) == A2


def is_duellum(path: Path) -> bool:
    return edition_of(path) == DU


def case_id(path: Path) -> str:
    """``conquest/tyros-two-galleys``, ``antike2/conquest/pella-...``, ``duellum/conquest/tarraco-...``."""
    stem = f"{path.parent.name}/{path.stem}"
    edition = edition_of(path)
    return f"{edition}/{stem}" if edition else stem


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


def board_arg(board: str) -> str:
    """A shipped board's id, or a board file's name in ``tests/data/boards/``."""
    return str(BOARDS / board) if board.endswith(".json") else board


def new_args(options: dict[str, Any], path: Path, antike2: bool = False, duellum: bool = False) -> list[str]:
    """``antike-ref new`` for a case. A classic case gets the East board's four nations; an
    Antike II case ``--edition antike2 --board antike2-mare-nostrum`` with the Romans,
    Carthaginians, Greeks and Germans, the Romans first when they play (else the first
    nation listed); a Duellum case ``--edition duellum --board duellum-rome-carthage`` with
    the Carthaginians and the Romans, the first nation listed first; unless ``options`` says
    otherwise."""
    defaults = A2_DEFAULTS if antike2 else DU_DEFAULTS if duellum else {"nations": FOUR}
    options = {**defaults, **options}
    nations = options["nations"]
    if antike2 and not options.get("first"):
        options["first"] = "romans" if "romans" in nations else nations[0]
    if duellum and not options.get("first"):
        options["first"] = nations[0]
    args = ["new", str(path), "--nations", ",".join(nations), "--id", "case", "--seed", "case"]
    for n in nations:
        args += ["--password", f"{n}={PASSWORDS[n]}"]
    if options.get("edition"):
        args += ["--edition", options["edition"]]
    if options.get("board"):
        args += ["--board", board_arg(options["board"])]
    if "data" in options:
        data = path.parent / "data.json"
        data.write_text(json.dumps(options["data"]))
        args += ["--data", str(data)]
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

    def edit_file(self, edits: list[dict]) -> Path:
        self.count += 1
        path = self.folder / f"edit-{self.count}.json"
        path.write_text(json.dumps({"game": "case", "reason": "rule case set-up", "edits": edits}))
        return path

    def gm_edit(self, edits: list[dict]) -> None:
        result = cli_run("gm-edit", self.game, self.edit_file(edits))
        assert result.exit_code == 0, f"gm-edit refused: {result.stderr}"

    def order_file(self, orders: dict[str, Any]) -> Path:
        """Write ``orders``, filling in game, password and (for a turn) the current turn; an
        entry with ``text`` (order lines of docs/text-orders.md) is written as text orders,
        with the ``game``, ``nation``, ``turn`` and ``password`` lines filled in likewise."""
        data = dict(orders)
        data.setdefault("game", "case")
        if data.get("nation") in PASSWORDS:
            data.setdefault("password", PASSWORDS[data["nation"]])
        text = data.pop("text", None)
        if "rondel" in data or any(line.split()[:1] == ["rondel"] for line in text or []):
            data.setdefault("turn", self.show()["turn"])
        self.count += 1
        if text is not None:
            head = [f"{key} {data[key]}" for key in ("game", "nation", "turn", "password") if key in data]
            path = self.folder / f"orders-{self.count}.txt"
            path.write_text("\n".join([*head, *text]) + "\n", encoding="utf-8")
            return path
        path = self.folder / f"orders-{self.count}.json"
        path.write_text(json.dumps(data))
        return path

    def process(self, orders: dict[str, Any]):
        return cli_run("process", self.game, self.order_file(orders), "--json")


EDIT_REFUSAL = re.compile(r"^\s*(?P<path>\$\S*): (?P<message>.*) \[(?P<code>[a-z0-9_/-]+)\]$")


def edit_rejections(stderr: str) -> list[dict[str, str]]:
    """The rejections of a refused ``gm-edit``, one per line of its message:
    ``$.edits[0].neutral_temple: ... [edit/neutral-temple-in-city]``."""
    lines = (EDIT_REFUSAL.match(line.removeprefix("antike-ref: refused: ")) for line in stderr.splitlines())
    return [m.groupdict() for m in lines if m]


def compare_rejections(want: list, got: list[dict], verb: str) -> None:
    assert len(got) == len(want), f"{verb}: rejections {got}"
    for w, g in zip(want, got):
        assert matches({"code": w} if isinstance(w, str) else w, g), f"{verb}: {w} vs {g}"


def run_case(case: dict[str, Any], folder: Path, antike2: bool = False, duellum: bool = False) -> None:
    assert set(case) <= CASE_KEYS, f"unknown keys {sorted(set(case) - CASE_KEYS)}"
    expect = case["expect"]
    assert set(expect) <= EXPECT_KEYS, f"unknown expect keys {sorted(set(expect) - EXPECT_KEYS)}"
    options = case.get("new", {})
    assert set(options) <= NEW_KEYS, f"unknown new keys {sorted(set(options) - NEW_KEYS)}"
    assert (options.get("edition", A2 if antike2 else DU if duellum else "antike") == A2) == antike2, \
        "Antike II cases live in tests/cases/antike2/, and only they"
    assert (options.get("edition", DU if duellum else A2 if antike2 else "antike") == DU) == duellum, \
        "Antike Duellum cases live in tests/cases/duellum/, and only they"
    assert case["orders"], "a case needs at least one order file"
    r = Runner(folder)
    created = cli_run(*new_args(options, r.game, antike2, duellum))
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

    if "gm-edit" in last:
        # A refused GM edit: the last step may be one when the case expects rejections.
        assert set(expect) <= {"rejections", "exit"}, "a GM edit as the last step can only be expected refused"
        saved = r.game.read_bytes()
        result = cli_run("gm-edit", r.game, r.edit_file(last["gm-edit"]))
        assert result.exit_code == expect.get("exit", 4), f"gm-edit: exit {result.exit_code}, {result.stderr}"
        compare_rejections(expect["rejections"], edit_rejections(result.stderr), "gm-edit")
        assert r.game.read_bytes() == saved, "a refused GM edit changed the game file"
        return

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
            compare_rejections(expect["rejections"], out["rejections"], verb)
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


A2_RULE = re.compile(r"^(003 L\d+|(Q|D)\d+ in docs/rulings\.md|docs/antike2\.md)")
"""What an Antike II case's ``rule`` starts with: the Antike II rulebook (key 003), an
entry of docs/rulings.md, or docs/antike2.md (the values the rulebook does not print)."""
DU_RULE = re.compile(r"^(001 L\d+|(Q|D)\d+ in docs/rulings\.md|docs/duellum\.md|docs/orders\.md)")
"""What a Duellum case's ``rule`` starts with: the Duellum rulebook (key 001), an entry of
docs/rulings.md, docs/duellum.md (the values the rulebook does not print) or docs/orders.md
(the contract's own additions: event-card orders, standing orders, ``new --data``)."""


@pytest.mark.parametrize("path", case_files(), ids=case_id)
def test_case(path, tmp_path):
    """One rule case (its ``rule`` names the rulebook line, e.g. ``000 L612-620``)."""
    case = json.loads(path.read_text(encoding="utf-8"))
    antike2, duellum = is_antike2(path), is_duellum(path)
    sections = A2_SECTIONS if antike2 else DU_SECTIONS if duellum else SECTIONS
    assert path.parent.name in sections, f"cases live in one of {sections}"
    assert case.get("title") and case.get("rule"), "every case has a title and cites its rule"
    if antike2:
        assert A2_RULE.match(case["rule"]), "an Antike II case cites 003 L..., docs/rulings.md or docs/antike2.md"
    if duellum:
        assert DU_RULE.match(case["rule"]), \
            "a Duellum case cites 001 L..., docs/rulings.md, docs/duellum.md or docs/orders.md"
    run_case(case, tmp_path, antike2, duellum)


def _cases(files: list[Path]) -> list[dict[str, Any]]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in files]


def test_there_are_cases_in_every_section():
    """The suite covers every rule section of both editions, with legal outcomes and
    refusals alike."""
    files = case_files()
    classic = [p for p in files if edition_of(p) is None]
    assert {p.parent.name for p in classic} == set(SECTIONS)
    cases = _cases(classic)
    assert len(cases) >= 40
    assert sum("rejections" in c["expect"] for c in cases) >= 10
    assert sum("rejections" not in c["expect"] for c in cases) >= 20

    a2 = [p for p in files if is_antike2(p)]
    assert {p.parent.name for p in a2} == set(A2_SECTIONS)
    assert not list(A2_CASES.glob("*.json")), "an Antike II case lives in a section folder"
    cases = _cases(a2)
    assert len(cases) >= 60
    assert sum("rejections" in c["expect"] for c in cases) >= 20
    assert sum("rejections" not in c["expect"] for c in cases) >= 60
    for section in A2_SECTIONS:
        assert sum(p.parent.name == section for p in a2) >= 2, f"antike2/{section} has a single case"


def test_there_are_duellum_cases_in_every_section():
    """The Duellum cases cover every section, with legal outcomes and refusals alike."""
    du = [p for p in case_files() if is_duellum(p)]
    assert {p.parent.name for p in du} == set(DU_SECTIONS)
    assert not list(DU_CASES.glob("*.json")), "a Duellum case lives in a section folder"
    cases = _cases(du)
    assert len(cases) >= 45
    assert sum("rejections" in c["expect"] for c in cases) >= 15
    assert sum("rejections" not in c["expect"] for c in cases) >= 30
    for section in DU_SECTIONS:
        assert sum(p.parent.name == section for p in du) >= 2, f"duellum/{section} has a single case"


def _rejection_codes(case: dict[str, Any]) -> set[str]:
    return {w if isinstance(w, str) else w.get("code") for w in case["expect"].get("rejections", [])}


def test_antike2_codes_are_covered():
    """Every rejection code of Antike II's own (``pbem.editions.get("antike2").codes``, the
    kernel's :data:`A2_KERNEL_CODES` and the GM edit's ``edit/neutral-temple-in-city``) is shown by at least one case, except
    those :data:`A2_UNREACHABLE` explains; and those still cannot be reached."""
    shown = set().union(*(_rejection_codes(c) for c in _cases([p for p in case_files() if is_antike2(p)])))
    wanted = set(editions.get(A2).codes) | A2_KERNEL_CODES | {"edit/neutral-temple-in-city"}
    assert set(A2_UNREACHABLE) <= wanted
    assert wanted - set(A2_UNREACHABLE) <= shown, f"no case shows {sorted(wanted - set(A2_UNREACHABLE) - shown)}"
    boards = [*MAPS.glob("antike2-*.json"), *BOARDS.glob("antike2-*.json")]
    assert boards
    sites = {p.get("resource") for b in boards for p in json.loads(b.read_text(encoding="utf-8"))["provinces"]}
    assert "none" not in sites, "a board has a region without a city site: add a found/no-site case"


def test_duellum_codes_are_covered():
    """Every rejection code of Duellum's own (``pbem.editions.get("duellum").codes``, and the
    kernel's :data:`DU_KERNEL_CODES`) is shown
    by at least one case, except those :data:`DU_UNREACHABLE` explains; and those still cannot
    be reached."""
    shown = set().union(*(_rejection_codes(c) for c in _cases([p for p in case_files() if is_duellum(p)])))
    wanted = set(editions.get(DU).codes) | DU_KERNEL_CODES
    assert set(DU_UNREACHABLE) <= wanted
    assert wanted - set(DU_UNREACHABLE) <= shown, f"no case shows {sorted(wanted - set(DU_UNREACHABLE) - shown)}"
    province_edit = editions.get(DU).schema.parts("edit").get("province_edit", {})
    assert "neutral_temple" not in province_edit.get("properties", {}), \
        "a Duellum GM edit can place a neutral temple: add a found/neutral-temple case"


def test_matching_rules_of_the_format():
    """The README's matching rules: subsets for objects, equality for lists, ``null`` for
    missing, events in order with others in between."""
    assert matches({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}, "d": 3})
    assert not matches({"a": [1]}, {"a": [1, 2]})
    assert matches({"x": None}, {"y": 1}) and not matches({"y": None}, {"y": 1})
    assert in_order([{"t": 1}, {"t": 3}], [{"t": 1}, {"t": 2}, {"t": 3}])
    assert not in_order([{"t": 3}, {"t": 1}], [{"t": 1}, {"t": 2}, {"t": 3}])
