"""`check` and `process` through the command line (docs/orders.md "check and process output",
"Exit codes"; docs/rulings.md "Orders are all-or-nothing").

Every refusal: its exit code, its code, message and JSON path (with --json on stdout, as
one line on stderr otherwise), and the game file byte-for-byte unchanged.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import PASSWORDS, cli_run, edit, held_lock, make_game, new_game_file, play, write_json
from pbem.cli.base import GUIDE
from pbem.service.store import save_game

HELP = f"antike-ref: help: {GUIDE}\n"

PH = "phoenicians"


@pytest.fixture
def game(tmp_path):
    return new_game_file(tmp_path, "--id", "demo")


def order_file(folder, name="orders.json", **fields):
    data = {"game": "demo", "nation": PH, "turn": 1, "password": PASSWORDS[PH], **fields}
    return write_json(folder / name, {k: v for k, v in data.items() if v is not None})


def show(path):
    result = cli_run("show", path, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_check_echoes_canonical_orders_payments_and_holdings_without_writing(game, tmp_path):
    """docs/orders.md: check validates without writing and echoes the canonical orders with
    every payment (000 L407-409: one iron per unit; L293-294: coins substitute)."""
    before = game.read_bytes()
    orders = order_file(tmp_path, rondel="arming",
                        arm=[{"unit": "legion", "at": "tyros"}, {"unit": "galley", "at": "paphos"}])
    result = cli_run("check", game, orders, "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["ok"] is True and (out["turn"], out["nation"]) == (1, PH)
    assert out["echo"] == {
        "game": "demo", "nation": PH, "turn": 1, "rondel": {"to": "arming", "pay": {}},
        "arm": [{"unit": "legion", "at": "tyros", "count": 1, "pay": {"iron": 1}},
                {"unit": "galley", "at": "paphos", "count": 1, "pay": {"coin": 1}}]}
    assert [e["type"] for e in out["events"]] == ["rondel", "arm", "arm"]
    assert out["holds"] == {"marble": 2, "iron": 0, "gold": 3, "coin": 0}
    assert "password" not in result.stdout and PASSWORDS[PH] not in result.stdout
    assert game.read_bytes() == before


def test_check_prints_the_orders_what_happens_and_the_holdings(game, tmp_path):
    """docs/orders.md: human lines by default, with every payment and the resulting resources."""
    result = cli_run("check", game, order_file(tmp_path, rondel="temple", temples=["alexandria"]))
    assert result.exit_code == 4
    result = cli_run("check", game, order_file(tmp_path, rondel="gold"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("would be accepted: turn 1 for Phoenicians\n")
    assert "phoenicians place their stone on GOLD (paid: free)" in result.stdout
    assert "phoenicians produce 1 gold" in result.stdout
    assert result.stdout.rstrip().endswith("Phoenicians then hold 2 marble, 1 iron, 4 gold, 1 coin")


def test_process_applies_the_turn_and_rewrites_the_game(game, tmp_path):
    """docs/orders.md: process applies the orders and rewrites GAME; the next nation in turn
    order is active (000 L298)."""
    result = cli_run("process", game, order_file(tmp_path, rondel="gold"), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["echo"]["rondel"] == {"to": "gold", "pay": {}}
    view = show(game)
    assert (view["turn"], view["active"]) == (2, "arabs")
    assert view["nations"][PH]["resources"]["gold"] == 4
    assert view["nations"][PH]["rondel"] == {"index": 2, "wedge": "gold"}
    again = cli_run("process", game, order_file(tmp_path, rondel="gold"))
    assert again.exit_code == 4 and "[orders/wrong-nation]" in again.stderr


def test_process_to_another_file_leaves_the_game_alone(game, tmp_path):
    """docs/orders.md: `process GAME ORDERS -o NEW` writes the next game to NEW."""
    before = game.read_bytes()
    new = tmp_path / "next.json"
    result = cli_run("process", game, order_file(tmp_path, rondel="gold"), "-o", new)
    assert result.exit_code == 0, result.stderr
    assert game.read_bytes() == before
    assert show(new)["turn"] == 2


def test_standing_orders_file_from_a_nation_not_active(game, tmp_path):
    """docs/orders.md: a standing-orders-only file may be sent at any time by any nation; its
    turn is ignored and it changes only that nation's standing orders."""
    before = show(game)
    orders = write_json(tmp_path / "so.json", {"game": "demo", "nation": "greeks", "turn": 40,
                                               "password": PASSWORDS["greeks"],
                                               "standing": {"battle": "always", "coin_substitute": "gold"}})
    result = cli_run("process", game, orders)
    assert result.exit_code == 0, result.stderr
    assert "standing orders for Greeks" in result.stdout
    after = show(game)
    assert after["nations"]["greeks"]["standing"]["battle"] == {"default": "always"}
    assert after["nations"]["greeks"]["standing"]["coin_substitute"] == "gold"
    after["nations"]["greeks"]["standing"] = before["nations"]["greeks"]["standing"]
    assert after.pop("recent")[-1]["kind"] == "standing"  # the change is in the history
    before.pop("recent")
    assert after == before


REFUSALS = {
    "not the active nation": (dict(nation="greeks", password=PASSWORDS["greeks"], rondel="iron"),
                              "orders/wrong-nation", "$.nation", "it is the turn of phoenicians, not of greeks"),
    "another game": (dict(game="other", rondel="iron"),
                     "orders/wrong-game", "$.game", "these orders are for game 'other', this is game 'demo'"),
    "another turn": (dict(turn=2, rondel="iron"),
                     "orders/wrong-turn", "$.turn", "these orders are for turn 2, the game is at turn 1"),
    "no turn": (dict(turn=None, rondel="iron"),
                "orders/missing-turn", "$", "a turn's orders must say which turn they are for (the game is at turn 1)"),
    "wrong password": (dict(password="guess", rondel="iron"),
                       "orders/wrong-password", "$.password", "wrong password for phoenicians"),
    "nation not playing": (dict(nation="romans", rondel="iron"),
                           "orders/unknown-nation", "$.nation",
                           "romans does not play in this game "
                           "(the nations playing: arabs, greeks, persians, phoenicians)"),
    "action of another wedge": (dict(rondel="iron", temples=["tyros"]),
                                "orders/wrong-action", "$.temples", "'temples' does not fit the iron wedge"),
    "action without a rondel move": (dict(found=["cyrene"]),
                                     "orders/action-without-rondel", "$.found",
                                     "'found' needs a rondel move in the same file"),
    "illegal step": (dict(rondel="arming", arm=[{"unit": "legion", "at": "paphos"}]),
                     "arm/wrong-terrain", "$.arm[0].unit", "a legion cannot be armed in Paphos (sea-only)"),
    "secondary without its basic": (dict(rondel="knowhow", knowhow=["roads"]),
                    "knowhow/needs", "$.knowhow[0].name", "Roads needs Wheel first"),
}


@pytest.mark.parametrize("command", ["check", "process"])
@pytest.mark.parametrize("case", list(REFUSALS))
def test_refusals_exit_4_name_code_path_and_leave_the_game_unchanged(game, tmp_path, command, case):
    """docs/orders.md "Exit codes": 4 for orders refused by the rules; docs/rulings.md: stable code,
    message, JSON path, and the game file byte-for-byte unchanged."""
    fields, code, path, message = REFUSALS[case]
    orders = order_file(tmp_path, **fields)
    before = game.read_bytes()
    extra = ["-o", tmp_path / "next.json"] if command == "process" else []
    result = cli_run(command, game, orders, "--json", *extra)
    assert result.exit_code == 4
    assert json.loads(result.stdout) == {"ok": False, "rejections": [{"code": code, "path": path, "message": message}]}
    assert result.stderr == f"antike-ref: refused: {path}: {message} [{code}]\n" + HELP
    plain = cli_run(command, game, orders)
    assert plain.exit_code == 4 and plain.stdout == "" and f"[{code}]" in plain.stderr
    assert game.read_bytes() == before
    assert not (tmp_path / "next.json").exists()


def test_all_problems_of_a_file_are_reported_together(game, tmp_path):
    """docs/rulings.md: the whole file is rejected with every problem listed."""
    orders = order_file(tmp_path, rondel="arming", arm=[{"unit": "legion", "at": "paphos"},
                                                       {"unit": "legion", "at": "athen"}],
                        found=["cyrene"])
    before = game.read_bytes()
    result = cli_run("process", game, orders, "--json")
    assert result.exit_code == 4
    assert [(r["code"], r["path"]) for r in json.loads(result.stdout)["rejections"]] == [
        ("arm/wrong-terrain", "$.arm[0].unit"), ("arm/not-own-city", "$.arm[1].at"),
        ("found/no-unit", "$.found[0].city")]
    assert result.stderr.startswith("antike-ref: refused (3 problems):\n")
    assert game.read_bytes() == before


def test_orders_for_a_finished_game_are_refused(tmp_path):
    """docs/orders.md: orders and standing-orders-only files are refused once the game is over
    (000 L231-234: the first nation with the personages needed wins)."""
    g = edit(make_game(game_id="demo"), {"nation": PH, "personages": {"king": 9}})
    g, _ = play(g, rondel="iron")
    path = tmp_path / "won.json"
    save_game(g, path)
    before = path.read_bytes()
    for fields, code in [(dict(turn=2, nation="arabs", password=PASSWORDS["arabs"], rondel="iron"), "orders/game-over"),
                         (dict(nation="greeks", password=PASSWORDS["greeks"], standing={"battle": "never"}),
                          "standing/game-over")]:
        result = cli_run("process", path, order_file(tmp_path, **fields), "--json")
        assert result.exit_code == 4
        assert json.loads(result.stdout)["rejections"] == [
            {"code": code, "path": "$", "message": "the game is over: phoenicians has won"}]
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", ["check", "process"])
def test_an_order_file_that_is_not_json_exits_3(game, tmp_path, command):
    """docs/orders.md "Exit codes": 3 when an input file is not JSON."""
    bad = tmp_path / "orders.json"
    bad.write_text('{"game": "demo",', encoding="utf-8")
    before = game.read_bytes()
    result = cli_run(command, game, bad, "--json")
    assert result.exit_code == 3
    [r] = json.loads(result.stdout)["rejections"]
    assert (r["code"], r["path"]) == ("input/invalid", "$") and r["message"].startswith(f"{bad}: ")
    assert str(bad) in result.stderr
    assert game.read_bytes() == before


@pytest.mark.parametrize("command", ["check", "process"])
def test_an_order_file_of_the_wrong_shape_exits_3_with_its_path(game, tmp_path, command):
    """docs/orders.md "Exit codes": 3 for the wrong shape (schema: unknown wedge, unknown key)."""
    orders = order_file(tmp_path, rondel={"to": "forum"}, tribute=3)
    before = game.read_bytes()
    result = cli_run(command, game, orders, "--json")
    assert result.exit_code == 3
    rejections = json.loads(result.stdout)["rejections"]
    assert [(r["code"], r["path"]) for r in rejections] == [("input/invalid", "$"), ("input/invalid", "$.rondel.to")]
    assert "'tribute' is not a key that belongs here" in rejections[0]["message"]
    assert "'forum' is not a known wedge (one of: iron" in rejections[1]["message"]
    assert "$.rondel.to: 'forum'" in result.stderr
    assert game.read_bytes() == before


@pytest.mark.parametrize("command", ["check", "process"])
def test_missing_files_exit_3(game, tmp_path, command):
    """docs/orders.md "Exit codes": 3 when an input file is unreadable."""
    result = cli_run(command, game, tmp_path / "none.json", "--json")
    assert result.exit_code == 3 and json.loads(result.stdout)["ok"] is False
    result = cli_run(command, tmp_path / "nogame.json", order_file(tmp_path, rondel="iron"), "--json")
    assert result.exit_code == 3 and json.loads(result.stdout)["ok"] is False
    assert "nogame.json" in result.stderr
    assert not (tmp_path / "nogame.json").exists()


def test_a_locked_game_exits_5_and_is_not_touched(game, tmp_path):
    """docs/orders.md "Exit codes": 5 when the game file is locked by another run."""
    before = game.read_bytes()
    with held_lock(game):
        result = cli_run("process", game, order_file(tmp_path, rondel="iron"), "--json")
    assert result.exit_code == 5 and result.stdout == ""
    assert "locked" in result.stderr
    assert game.read_bytes() == before


def _cities(n):
    """GM edits giving the Phoenicians ``n`` more cities on free sites (not Cyrene)."""
    g = make_game()
    free = [p for p in sorted(g.board.provinces) if p not in g.state.provinces and p != "cyrene"]
    return [{"province": p, "owner": PH} for p in free[:n]]


ALL8 = ["wheel", "roads", "sailing", "navigation", "market", "currency", "monarchy", "democracy"]
AT_IRON = {"nation": PH, "rondel": 0}
UNIT_IN_CYRENE = {"province": "cyrene", "units": {PH: {"legion": 1}}}
RICH = {"nation": PH, "resources": {"marble": 10, "iron": 10, "gold": 20}}

STEP_REFUSALS = {
    # code: (GM edits, order fields, path, message); the Phoenicians hold 2 marble, 1 iron,
    # 3 gold and 1 coin unless an edit says otherwise.
    "rondel/wrong-steps": ([], dict(rondel={"to": "gold", "steps": 3}), "$.rondel.steps",
                           "3 steps from iron (first move) do not lead to gold (that would be maneuver)"),
    "pay/wrong-total": ([AT_IRON], dict(rondel={"to": "marble", "pay": {"coin": 1}}), "$.rondel.pay",
                        "a rondel move of 5 steps costs 2 (2 resources of any kind); the payment adds up to 1"),
    "pay/not-enough": ([AT_IRON], dict(rondel={"to": "marble", "pay": {"iron": 2}}), "$.rondel.pay.iron",
                       "a rondel move of 5 steps costs 2 resources of any kind; the payment asks for 2 iron but "
                       "Phoenicians has 1 (all it holds: 2 marble, 1 iron, 3 gold, 1 coin)"),
    "pay/cannot-afford": ([], dict(rondel="knowhow", knowhow=["wheel"]), "$.knowhow[0]",
                          "Wheel (7 gold) costs 7 gold; Phoenicians has only 4 in chips and coins that could pay it "
                          "(all it holds: 2 marble, 1 iron, 3 gold, 1 coin)"),
    "pay/wrong-chip": ([RICH], dict(rondel="temple", temples=[{"city": "tyros", "pay": {"marble": 4, "gold": 1}}]),
                       "$.temples[0].pay.gold", "a temple in Tyros cannot be paid with gold"),
    "pay/too-many": ([UNIT_IN_CYRENE],
                     dict(rondel="temple", found=[{"city": "cyrene", "pay": {"marble": 2, "gold": 1}}]),
                     "$.found[0].pay.marble",
                     "a city in Cyrene needs only 1 marble; pay the rest with coins or the right chips"),
    "temple/not-own-city": ([RICH], dict(rondel="temple", temples=["athen"]), "$.temples[0].city",
                            "Athen is not a city of Phoenicians"),
    "temple/already": ([RICH, {"province": "tyros", "temple": True}], dict(rondel="temple", temples=["tyros"]),
                       "$.temples[0].city", "Tyros already has a temple"),
    "temple/twice": ([RICH], dict(rondel="temple", temples=["tyros", "tyros"]), "$.temples[1].city",
                     "Tyros is named twice"),
    "temple/bank-empty": ([RICH, {"bank": {"temples": 0}}], dict(rondel="temple", temples=["tyros"]),
                          "$.temples[0].city", "the bank has no temple left"),
    "arm/not-own-city": ([], dict(rondel="arming", arm=[{"unit": "legion", "at": "athen"}]), "$.arm[0].at",
                         "Athen is not a city of Phoenicians"),
    "arm/limit": ([], dict(rondel="arming", arm=[{"unit": "legion", "at": "tyros", "count": 2}]), "$.arm[0].count",
                  "Tyros may arm 1 unit(s) this turn (2 asked)"),
    "arm/wrong-terrain": ([], dict(rondel="arming", arm=[{"unit": "legion", "at": "paphos"}]), "$.arm[0].unit",
                          "a legion cannot be armed in Paphos (sea-only)"),
    "arm/no-stock": ([{"province": "cyrene", "units": {PH: {"legion": 17}}}],
                     dict(rondel="arming", arm=[{"unit": "legion", "at": "tyros"}]), "$.arm[0].count",
                     "Phoenicians has 0 legion(s) left in stock, 1 asked"),
    "knowhow/owned": ([RICH, {"nation": PH, "knowhow": ["wheel"]}], dict(rondel="knowhow", knowhow=["wheel"]),
                      "$.knowhow[0].name", "Phoenicians already owns Wheel"),
    "knowhow/needs": ([RICH], dict(rondel="knowhow", knowhow=["democracy"]), "$.knowhow[0].name",
                      "Democracy needs Monarchy first"),
    "knowhow/twice": ([RICH], dict(rondel="knowhow", knowhow=["wheel", "wheel"]), "$.knowhow[1].name",
                      "Wheel is named twice"),
    "found/not-a-province": ([], dict(rondel="iron", found=["atlantis"]), "$.found[0].city",
                             "'atlantis' is not a province of this board"),
    "found/occupied": ([], dict(rondel="iron", found=["athen"]), "$.found[0].city",
                       "Athen already has a city (Greeks)"),
    "found/no-unit": ([], dict(rondel="iron", found=["cyrene"]), "$.found[0].city",
                      "Phoenicians has no legion or galley in Cyrene"),
    "found/no-stone": (_cities(22) + [UNIT_IN_CYRENE], dict(rondel="iron", found=["cyrene"]), "$.found[0].city",
                       "Phoenicians has no city stone left (25 cities)"),
    "found/twice": ([RICH, UNIT_IN_CYRENE], dict(rondel="iron", found=["cyrene", "cyrene"]), "$.found[1].city",
                    "Cyrene is named twice"),
    "trade/not-allowed": ([], dict(trade=[{"give": {"gold": 2}, "get": "iron"}], rondel="iron"), "$.trade",
                          "phoenicians owns 0 of the 8 know-hows; trading with the bank needs all 8, owned since "
                          "an earlier turn"),
    "trade/ratio": ([{"nation": PH, "knowhow": ALL8, "all8_bonus": True}],
                    dict(trade=[{"give": {"gold": 3}, "get": "iron"}], rondel="iron"), "$.trade[0].give",
                    "a trade gives 2 chips for 1 (or 4 for 2, 6 for 3, ...), each entry at one rate; "
                    "this one gives 3 for 1"),
    "trade/not-enough": ([{"nation": PH, "knowhow": ALL8, "all8_bonus": True}],
                         dict(trade=[{"give": {"iron": 2}, "get": "gold"}], rondel="iron"), "$.trade[0].give.iron",
                         "Phoenicians has 1 iron, the trade gives 2"),
    "standing/self": ([], dict(standing={"battle": {"phoenicians": "never"}}), "$.standing.battle.phoenicians",
                      "a nation has no battle stance towards itself"),
    "standing/unknown-nation": ([], dict(standing={"battle": {"romans": "never"}}), "$.standing.battle.romans",
                                "Romans does not play in this game "
                                "(the nations playing: arabs, greeks, persians, phoenicians)"),
}


@pytest.mark.parametrize("code", list(STEP_REFUSALS))
def test_each_illegal_step_is_refused_through_the_cli(tmp_path, code):
    """One case per rejection code of the economy and standing orders (rules as cited in
    docs/rejections.md and the rule tests): exit 4, the code, its JSON path and message,
    and the game file byte-for-byte unchanged, with and without --json."""
    edits, fields, path, message = STEP_REFUSALS[code]
    g = make_game(game_id="demo")
    if edits:
        g = edit(g, *edits)
    game = tmp_path / "game.json"
    save_game(g, game)
    before = game.read_bytes()
    orders = order_file(tmp_path, **fields)
    result = cli_run("process", game, orders, "--json")
    assert result.exit_code == 4, result.stderr
    assert json.loads(result.stdout)["rejections"] == [{"code": code, "path": path, "message": message}]
    plain = cli_run("check", game, orders)
    assert plain.exit_code == 4
    assert plain.stderr == f"antike-ref: refused: {path}: {message} [{code}]\n" + HELP
    assert game.read_bytes() == before


def test_every_order_rejection_code_has_a_cli_case():
    """Each code an order file can get (docs/rejections.md, all but maneuver's) is shown
    through the CLI in this file."""
    from pbem.kernel.rejections import CODES

    covered = {code for _, code, _, _ in REFUSALS.values()} | set(STEP_REFUSALS) | {
        "orders/game-over", "standing/game-over", "input/invalid",
        "standing/already-applied",  # through the CLI in tests/service/test_integrity.py
        "standing/nothing-to-change",  # through the CLI in tests/service/test_integrity.py
        "pay/coins-only",  # only Duellum's surcharges owe coins: tests/cases/duellum (process through the CLI)
        # only the boards and free units of Antike II and Duellum reach these: their cases
        # (tests/test_cases.py, A2_KERNEL_CODES and DU_KERNEL_CODES)
        "arm/no-free-unit", "arm/free-twice", "found/neutral-temple", "found/no-site",
        "found/resource-needed", "found/resource-fixed"}
    economy = {c for c in CODES if c.split("/")[0] in
               {"input", "orders", "rondel", "pay", "temple", "arm", "knowhow", "found", "trade", "standing"}}
    assert economy - covered == set()


# -- text order files: problems by line (docs/text-orders.md, "Errors") -------------------------


def text_file(folder, *lines, name="orders.txt"):
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


TEXT_HEAD = ("game demo", "nation phoenicians", "turn 1", f"password {PASSWORDS[PH]}")


@pytest.mark.parametrize("command", ["check", "process"])
def test_a_refused_text_file_names_and_quotes_the_lines(game, tmp_path, command):
    """The refusal of a text order file names the line and quotes it where an order file
    names the JSON path; with --json the answer is that of the same orders in JSON."""
    orders = text_file(tmp_path, "Hi GM,", "", *TEXT_HEAD, "rondel arming", "arm legion at paphos",
                       "arm 1 legion in athen", "", "Thanks, Ann")
    before = game.read_bytes()
    extra = ["-o", tmp_path / "next.json"] if command == "process" else []
    result = cli_run(command, game, orders, *extra)
    assert result.exit_code == 4 and result.stdout == ""
    assert result.stderr == (
        "antike-ref: refused (2 problems):\n"
        '  line 8 ("arm legion at paphos"): a legion cannot be armed in Paphos (sea-only) [arm/wrong-terrain]\n'
        '  line 9 ("arm 1 legion in athen"): Athen is not a city of Phoenicians [arm/not-own-city]\n' + HELP)
    as_json = cli_run(command, game, orders, "--json", *extra)
    same = order_file(tmp_path, rondel="arming", arm=[{"unit": "legion", "at": "paphos"},
                                                      {"unit": "legion", "at": "athen", "count": 1}])
    from_json = cli_run(command, game, same, "--json", *extra)
    assert as_json.exit_code == from_json.exit_code == 4
    assert as_json.stdout == from_json.stdout
    assert [r["path"] for r in json.loads(as_json.stdout)["rejections"]] == ["$.arm[0].unit", "$.arm[1].at"]
    assert from_json.stderr.startswith("antike-ref: refused (2 problems):\n  $.arm[0].unit: a legion cannot")
    assert game.read_bytes() == before
    assert not (tmp_path / "next.json").exists()


def test_the_password_line_of_a_refused_text_file_is_not_repeated(game, tmp_path):
    orders = text_file(tmp_path, *TEXT_HEAD[:3], "password wrong-horse", "rondel gold")
    result = cli_run("check", game, orders)
    assert result.exit_code == 4
    assert result.stderr == ('antike-ref: refused: line 4 ("password \u2026"): wrong password for phoenicians '
                             "[orders/wrong-password]\n" + HELP)
    assert "wrong-horse" not in result.stderr


def test_a_missing_line_of_a_text_file_is_named(game, tmp_path):
    orders = text_file(tmp_path, *TEXT_HEAD[:3], "rondel gold")
    result = cli_run("check", game, orders)
    assert result.exit_code == 3
    assert result.stderr == (f"antike-ref: {orders}: bad input: no 'password' line (orders need a line for each "
                             "of game, nation and password)\n" + HELP)
    as_json = cli_run("check", game, orders, "--json")
    assert as_json.exit_code == 3
    assert json.loads(as_json.stdout)["rejections"] == [
        {"code": "input/invalid", "path": "$",
         "message": f"{orders}: 'password' is missing here; needed: game, nation, password"}]


@pytest.mark.parametrize("command", ["check", "process"])
def test_the_lines_around_the_orders_are_listed_as_not_read(game, tmp_path, command):
    orders = text_file(tmp_path, "Hi GM,", "here are my orders:", "", *TEXT_HEAD, "rondel gold", "", "Cheers,", "Ann")
    extra = ["-o", tmp_path / "next.json"] if command == "process" else []
    result = cli_run(command, game, orders, *extra)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:7] == [
        "not read as orders (before the first and after the last order line):",
        "  line 1: Hi GM,", "  line 2: here are my orders:", "  line 10: Cheers,", "  line 11: Ann",
        "orders as understood:"]
    plain = text_file(tmp_path, *TEXT_HEAD, "rondel gold", name="plain.txt")
    if command == "process":
        extra = ["-o", tmp_path / "other.json"]
    without = cli_run(command, game, plain, *extra)
    assert "not read as orders" not in without.stdout
    assert cli_run(command, game, orders, "--json", *extra).stdout == cli_run(command, game, plain, "--json",
                                                                               *extra).stdout


def test_check_says_what_it_cut_from_a_text_and_why(game, tmp_path):
    """docs/text-orders.md, "What is ignored": a phone's trailer at the end and the signature
    are cut, and `check` says so; a line that only starts like a trailer is the player's."""
    orders = text_file(tmp_path, "Sent from the wrong address before, sorry.", *TEXT_HEAD, "rondel gold", "",
                       "Sent from my iPhone", "-- ", "Ann")
    result = cli_run("check", game, orders)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:6] == [
        "not read as orders (before the first and after the last order line):",
        "  line 1: Sent from the wrong address before, sorry.",
        "cut from the text, not read:",
        "  line 8: Sent from my iPhone (a mail program's trailer at the end of the mail)",
        "  line 9: -- (a signature: it and every line after it are not read)"]


def test_the_refusals_in_the_text_orders_guide_are_what_check_says(game, tmp_path):
    """docs/text-orders.md, "Errors": the example refusals of text orders."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent.parent / "docs" / "text-orders.md").read_text(encoding="utf-8")
    [block] = re.findall(r"^```text refusals\n(.*?)^```$", doc, flags=re.S | re.M)
    said = []
    for lines in ((*TEXT_HEAD, "rondel temple", "temple athen"),
                  (*TEXT_HEAD[:3], "password wrong", "rondel gold"),
                  (*TEXT_HEAD[:3], "rondel gold")):
        result = cli_run("check", game, text_file(tmp_path, *lines))
        assert result.exit_code in (3, 4)
        said.append(re.sub(r"^antike-ref: (refused|\S+: bad input): ", "", result.stderr.splitlines()[0]))
    assert said == block.splitlines()
