"""Text orders for Antike II (pbem/service/language/, docs/text-orders.md "Antike II").

- the Latin wedge and know-how names, and the classic wedge names Antike II accepts too
  (the echo writes the Latin ones);
- BELLONA's free unit (``arm ... free``), the founder's choice of resource (``found P as
  R``) and a trade getting two chips (``for 1 iron 1 marble``): read, written, and round
  trips; refused in classic Antike with classic's messages;
- messages in the edition's words (a move's example path on the game's own board);
- every Antike II example of docs/text-orders.md parses, fits the orders schema and is
  accepted in a position on Mare Nostrum.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import canonical_edit, new_game
from pbem import editions
from pbem.errors import InputError
from pbem.kernel.orders import canonical_orders
from pbem.kernel.setup import SetupOptions
from pbem.service import schemas, turns
from pbem.service.boards import load_board, load_map_file
from pbem.service.language.textorders import parse_text_orders, read_text_orders
from pbem.service.language.writer import format_text_orders

ROOT = Path(__file__).resolve().parent.parent.parent
A2 = editions.get("antike2")
CLASSIC = editions.get("classic")
MARE = load_board("antike2-mare-nostrum")
ORIENT = load_map_file(ROOT / "tests" / "data" / "boards" / "antike2-orient-excerpt.json")
HEADER = "game mare\nnation romans\nturn 3\npassword pw\n"
HEAD = {"game": "mare", "nation": "romans", "turn": 3, "password": "pw"}


def parse(text: str, board=MARE, edition=A2) -> dict:
    return canonical_orders(parse_text_orders(text, edition, board), edition)


def fmt(orders: dict, board=MARE) -> str:
    return format_text_orders(orders, A2, board)


def problems(text: str, board=MARE, edition=A2) -> list[str]:
    with pytest.raises(InputError) as info:
        parse_text_orders(text, edition, board)
    return [str(p) for p in info.value.problems]


def round_trip(orders: dict, board=MARE) -> str:
    """format -> parse gives the canonical orders back, and formatting is stable."""
    canon = canonical_orders(orders, A2)
    text = fmt(canon, board)
    back = parse(text, board)
    assert back == canon, text
    assert fmt(back, board) == text
    return text


# -- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize("written, wedge", [
    ("ferrum", "ferrum"), ("TEMPLUM", "templum"), ("Aurum", "aurum"), ("movere", "movere"),
    ("militia", "militia"), ("marmor", "marmor"), ("scientia", "scientia"), ("scien", "scientia"),
    ("iron", "iron"), ("arming", "arming"), ("know-how", "knowhow"), ("maneuver", "maneuver"),
])
def test_latin_wedges_and_the_classic_names_antike2_accepts(written, wedge):
    orders = parse(HEADER + f"rondel {written}\n")
    assert orders["rondel"] == {"to": wedge}
    # the echo names the wedge in the edition's words, and reads back as the same move
    echo = fmt(orders)
    own = A2.rondel.aliases.get(wedge, wedge)
    assert f"rondel {own}\n" in echo
    assert A2.rondel.aliases.get(parse(echo)["rondel"]["to"], own) == own


def test_the_farther_movere_is_chosen_by_steps():
    assert parse(HEADER + "rondel movere steps 7 pay 2 gold 2 coins\n")["rondel"] == {
        "to": "movere", "steps": 7, "pay": {"gold": 2, "coin": 2}}


@pytest.mark.parametrize("written", ["res publica", "RES PUBLICA", "res_publica", "Res-Publica", "respublica",
                                     "res pub"])
def test_know_hows_by_their_latin_names(written):
    assert parse(HEADER + f"rondel scientia\nknowhow regnum\nknow-how {written}\n")["knowhow"] == [
        {"name": "regnum"}, {"name": "res_publica"}]


def test_an_unknown_or_classic_know_how_is_named_in_antike2_words():
    assert problems(HEADER + "rondel scientia\nknowhow democracy\n") == [
        "line 6, column 9: unknown know-how 'democracy'; expected one of: mercatura, commercium, metallum, moneta, "
        "regnum, res_publica, strata, navigatio"]
    assert problems(HEADER + "rondel scientia\nknowhow me\n")[0].endswith(
        "'me' is ambiguous: mercatura, metallum; write more of the know-how's name")


def test_the_bonus_stack_names_antike2_personages():
    orders = parse(HEADER + "standing bonus king scholar general citizen navigator\n")
    assert orders["standing"] == {"bonus_stack": ["king", "scholar", "general", "citizen", "navigator"]}


# -- BELLONA's free unit ------------------------------------------------------------------------


def test_arm_free_marks_bellonas_unit():
    orders = parse(HEADER + "rondel militia\narm 1 legion at roma free\narm galley neapolis free pay 2 iron\n"
                            "arm 2 legions in tarentum\n")
    assert orders["arm"] == [
        {"unit": "legion", "at": "roma", "count": 1, "free": True},
        {"unit": "galley", "at": "neapolis", "count": 1, "free": True, "pay": {"iron": 2}},
        {"unit": "legion", "at": "tarentum", "count": 2}]
    assert fmt(orders).splitlines()[-3:] == [
        "arm 1 legion at roma free", "arm 1 galley at neapolis free pay 2 iron", "arm 2 legions at tarentum"]


def test_free_is_a_word_of_antike2_only():
    assert problems(HEADER + "rondel militia\narm legion roma freely\n") == [
        "line 6, column 17: unexpected 'freely'; expected 'free', 'pay' or the end of the line"]
    classic = "game t\nnation greeks\nturn 3\npassword pw\nrondel arming\narm legion pella free\n"
    assert problems(classic, load_board("antike-east"), CLASSIC) == [
        "line 6, column 18: unexpected 'free'; expected 'pay' or the end of the line"]


# -- founding with a chosen resource -----------------------------------------------------------------


def test_found_takes_the_chosen_resource():
    head = "game o\nnation greeks\nturn 3\npassword pw\nrondel aurum\n"
    orders = parse(head + "found paphos as gold\nfound Paphos iron pay 1 marble 1 iron 1 coin\nfound attalia\n",
                   ORIENT)
    assert orders["found"] == [
        {"city": "paphos", "resource": "gold"},
        {"city": "paphos", "resource": "iron", "pay": {"marble": 1, "iron": 1, "coin": 1}},
        {"city": "attalia"}]
    assert fmt(orders, ORIENT).splitlines()[-3:] == [
        "found paphos as gold", "found paphos as iron pay 1 marble 1 iron 1 coin", "found attalia"]
    assert problems(head + "found paphos as wood\n", ORIENT) == [
        "line 6, column 17: expected the city's resource (marble, iron, gold), not 'wood'"]
    assert problems(head + "found paphos soon\n", ORIENT) == [
        "line 6, column 14: unexpected 'soon'; expected 'as' and the city's resource, 'pay' or the end of the line "
        "(one city per line)"]


def test_a_multi_word_province_before_its_resource():
    assert parse(HEADER + "rondel aurum\nfound carthago nova as gold\nfound Leptis Magna marble\n")["found"] == [
        {"city": "carthago_nova", "resource": "gold"}, {"city": "leptis_magna", "resource": "marble"}]


def test_classic_has_no_chosen_resource():
    classic = "game t\nnation greeks\nturn 3\npassword pw\nrondel gold\nfound sparta as gold\n"
    assert problems(classic, load_board("antike-east"), CLASSIC) == [
        "line 6, column 14: unexpected 'as'; expected 'pay' or the end of the line (one city per line)"]


# -- trades ------------------------------------------------------------------------------------------


def test_trades_of_one_and_two_chips():
    orders = parse(HEADER + "trade 3 gold for 1 iron 1 marble\ntrade 3 gold for 2 iron\ntrade 2 gold for iron\n"
                            "trade 1 gold 1 iron for 1 marble\ntrade 3 marble -> 1 iron and 1 gold\nrondel militia\n")
    assert orders["trade"] == [
        {"give": {"gold": 3}, "get": {"marble": 1, "iron": 1}},
        {"give": {"gold": 3}, "get": {"iron": 2}},
        {"give": {"gold": 2}, "get": "iron"},
        {"give": {"iron": 1, "gold": 1}, "get": "marble"},
        {"give": {"marble": 3}, "get": {"iron": 1, "gold": 1}}]
    assert fmt(orders).splitlines()[4:9] == [
        "trade 3 gold for 1 marble 1 iron", "trade 3 gold for 2 iron", "trade 2 gold for iron",
        "trade 1 iron 1 gold for marble", "trade 3 marble for 1 iron 1 gold"]
    assert problems(HEADER + "trade 3 gold for 2 coins\n") == [
        "line 5, column 20: expected what the 2 counts (marble, iron, gold), not 'coins'"]
    assert problems(HEADER + "trade 3 gold for 0 iron\n") == ["line 5, column 14: a trade gets at least one chip"]


def test_classic_trades_may_get_several_chips():
    """000 L891-894: "trade 3 gold and 1 marble units for 2 iron units" is one trade, in
    every edition's text syntax; whether the rate fits is the rules' business."""
    classic = "game t\nnation greeks\nturn 3\npassword pw\ntrade 3 gold 1 marble for 2 iron\n"
    assert parse(classic, load_board("antike-east"), CLASSIC)["trade"] == [
        {"give": {"gold": 3, "marble": 1}, "get": {"iron": 2}}]


# -- round trips ------------------------------------------------------------------------------------


CANONICAL = [
    {**HEAD, "rondel": "militia", "arm": [{"unit": "legion", "at": "roma", "free": True},
                                          {"unit": "galley", "at": "neapolis", "count": 2, "pay": {"iron": 4}}]},
    {**HEAD, "trade": [{"give": {"gold": 3}, "get": {"iron": 1, "marble": 1}}, {"give": {"iron": 2}, "get": "gold"},
                       {"give": {"marble": 1, "iron": 1, "gold": 1}, "get": {"gold": 2}}], "rondel": "ferrum"},
    {**HEAD, "rondel": {"to": "movere", "steps": 7, "pay": {"gold": 1, "coin": 3}},
     "maneuver": [{"move": "legion", "count": 3, "from": "roma", "path": ["ancona"]},
                  {"conquer": "ancona", "with": {"legion": 3}}]},
    {**HEAD, "rondel": "scientia", "knowhow": ["mercatura", {"name": "res_publica", "pay": {"gold": 13}}]},
    {**HEAD, "rondel": "aurum", "found": [{"city": "carthago_nova", "resource": "gold"}, "pisae",
                                          {"city": "leptis_magna", "pay": {"coin": 3}}]},
    {**HEAD, "standing": {"battle": {"default": "home", "germans": "always"},
                          "bonus_stack": ["navigator", "king", "scholar", "general", "citizen"]}},
]


@pytest.mark.parametrize("orders", CANONICAL, ids=["arm", "trade", "movere", "scientia", "found", "standing"])
def test_round_trips(orders):
    text = round_trip(orders)
    assert not re.search(r"\b(arming|maneuver|knowhow wheel)\b", text)


def test_round_trips_over_a_bot_game():
    """Every turn a bot plays on Mare Nostrum: its orders as text read back the same."""
    from pbem.play import selfplay

    game, plain = selfplay.start_game("mn", ["romans", "carthaginians", "greeks", "germans"], "t",
                                      "antike2", "antike2-mare-nostrum")
    for _ in range(60):
        game, _ = selfplay.bot_turn(game, plain, "greedy")
        orders = game.history[-1]["orders"]
        round_trip({**orders, "game": game.game_id, "password": "pw"})


def test_a_move_example_in_the_games_own_provinces():
    assert problems(HEADER + "rondel movere\nmove 2 legions roma\n") == [
        "line 6, column 20: the line ends too early: expected the provinces to move to (ancona -> aquileia)"]
    assert problems("game t\nnation greeks\nturn 3\npassword pw\nmove legion pella\n",
                    load_board("antike-east"), CLASSIC)[0].endswith("(pella -> athen)")


# -- the documentation ----------------------------------------------------------------------------


DOC = ROOT / "docs" / "text-orders.md"


def _examples() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return re.findall(r"^```text orders-antike2\n(.*?)^```$", text, flags=re.S | re.M)


def _position():
    """Mare Nostrum, the Romans to play their first turn, holding BELLONA, MERCATURA and
    COMMERCIUM, plenty of chips, three legions in Roma and one in Pisae."""
    opts = SetupOptions(game_id="mare", board=MARE.id, nations=["romans", "carthaginians", "greeks", "germans"],
                        seed="s", first="romans")
    game, _ = new_game(opts, MARE, {"romans": "correct-horse", "carthaginians": "c", "greeks": "g", "germans": "x"},
                       edition=A2)
    change = {"game": "mare", "reason": "docs", "edits": [
        {"bellona": "romans"},
        {"province": "roma", "units": {"romans": {"legion": 3}}},
        {"province": "pisae", "units": {"romans": {"legion": 1}}},
        {"nation": "romans", "knowhow": ["mercatura", "commercium"],
         "resources": {"marble": 6, "iron": 6, "gold": 40}}]}
    return turns.edit(game, canonical_edit(change, A2))


def test_every_antike2_example_in_the_docs_is_accepted():
    examples = _examples()
    assert len(examples) == 4
    game = _position()
    wedges = set()
    for text in examples:
        data = parse_text_orders(text, A2, MARE)
        assert schemas.problems("orders", data, A2) == [], text
        orders = canonical_orders({**data, "turn": 1}, A2)
        result = turns.check(game, orders)  # refused orders raise
        wedges.add(result.echo["rondel"]["to"])
        round_trip(canonical_orders(data, A2))
    assert wedges == {"militia", "movere", "aurum", "scientia"}


def test_the_docs_table_of_antike2_lines_reads_as_it_says():
    section = DOC.read_text(encoding="utf-8").split("## Antike II", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| .*? \| `(.+)` \|$", section, flags=re.M)
    assert len(rows) >= 8
    for line, json_text in rows:
        board = ORIENT if "paphos" in line else MARE
        data = parse_text_orders(HEADER + line + "\n", A2, board)
        key = json_text.split('"')[1]
        assert key in data, line
        if "..." not in json_text:
            import json

            assert {key: data[key]} == json.loads("{" + json_text + "}"), line


# -- the line of every order (docs/text-orders.md, "Errors") ------------------------------------


def test_every_antike2_order_has_its_line():
    text = ("Ave!\n"
            "game mare\nnation romans\nturn 3\npassword pw\n"  # 2-5
            "trade 3 gold for 1 marble 1 iron\n"               # 6
            "rondel militia\n"                                 # 7
            "arm 1 legion at roma free\n"                      # 8
            "arm 1 galley at neapolis pay 2 iron\n"            # 9
            "found pisae as gold\n")                           # 10
    read = read_text_orders(text, A2, MARE)
    assert read.ignored == ((1, "Ave!"),)
    assert [read.line_of(p)
            for p in ("$.trade[0].get.iron", "$.arm[0].free", "$.arm[1].pay", "$.found[0].resource")] == [
        (6, "trade 3 gold for 1 marble 1 iron"), (8, "arm 1 legion at roma free"),
        (9, "arm 1 galley at neapolis pay 2 iron"), (10, "found pisae as gold")]
    assert read.describe("$.arm[0].free", "Romans do not hold BELLONA", "arm/no-free-unit") == (
        'line 8 ("arm 1 legion at roma free"): Romans do not hold BELLONA [arm/no-free-unit]')
