"""Text orders for Antike Duellum (pbem/service/language/, docs/text-orders.md "Antike Duellum").

- the edition's wedge names (two DUELLUM wedges, ``steps`` picks the farther) and know-hows;
- ``play CARD [at CITY]`` (also ``event``), by id, English or German name or a prefix;
- ``wall CITY`` / ``walls A, B and C`` / ``wall CITY pay 1 marble``;
- ``recruit 2 legions 1 galley [pay ...]``, given once;
- ``found CITY as RESOURCE`` on the Duellum boards' sites of choice;
- ``standing fortress always|never`` and ``standing draw CARD ...`` / ``standing draw nothing``;
- each translates to the order file of docs/orders.md ("Antike Duellum"), the echo reads
  back as the same orders (also every turn a bot plays), and the words are errors in
  classic Antike, as before;
- every Duellum example of docs/text-orders.md parses, fits the orders schema and is
  accepted in a position on the Rome/Carthage board; its table says what the lines mean.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import canonical_edit, new_game
from pbem import editions
from pbem.errors import InputError
from pbem.kernel.orders import canonical_orders
from pbem.kernel.setup import SetupOptions
from pbem.service import schemas, turns
from pbem.service.boards import load_board
from pbem.service.language.textorders import parse_text_orders, read_text_orders
from pbem.service.language.writer import format_text_orders

ROOT = Path(__file__).resolve().parent.parent.parent
DU = editions.get("duellum")
CLASSIC = editions.get("classic")
BOARD = load_board("duellum-rome-carthage")
HEADER = "game duel\nnation romans\nturn 3\npassword pw\n"
HEAD = {"game": "duel", "nation": "romans", "turn": 3, "password": "pw"}


def parse(text: str, edition=DU, board=BOARD, data: str = "") -> dict:
    return canonical_orders(parse_text_orders(text, edition, board, data=data), edition)


def fmt(orders: dict) -> str:
    return format_text_orders(orders, DU, BOARD)


def problems(text: str, edition=DU, board=BOARD) -> list[str]:
    with pytest.raises(InputError) as info:
        parse_text_orders(text, edition, board)
    return [str(p) for p in info.value.problems]


def round_trip(orders: dict, data: str = "") -> str:
    """format -> parse gives the canonical orders back, and formatting is stable."""
    canon = canonical_orders(orders, DU)
    text = fmt(canon)
    back = parse(text, data=data)
    assert back == canon, text
    assert fmt(back) == text
    return text


# -- the rondel and the know-hows ------------------------------------------------------------


@pytest.mark.parametrize("written, wedge", [
    ("ferrum", "ferrum"), ("TEMPLUM", "templum"), ("aurum", "aurum"), ("duellum", "duellum"),
    ("militia", "militia"), ("Marmor", "marmor"), ("scientia", "scientia"), ("duel", "duellum"),
    ("iron", "iron"), ("arming", "arming"), ("maneuver", "maneuver"), ("knowhow", "knowhow"),
])
def test_the_duellum_wedges(written, wedge):
    orders = parse(HEADER + f"rondel {written}\n")
    assert orders["rondel"] == {"to": wedge}
    own = DU.rondel.aliases.get(wedge, wedge)
    assert f"rondel {own}\n" in fmt(orders)


def test_the_farther_duellum_and_the_know_hows():
    assert parse(HEADER + "rondel duellum steps 7 pay 1 gold\n")["rondel"] == {
        "to": "duellum", "steps": 7, "pay": {"gold": 1}}
    assert parse(HEADER + "rondel scientia\nknowhow res publica\nknow-how navig\n")["knowhow"] == [
        {"name": "res_publica"}, {"name": "navigatio"}]
    assert problems(HEADER + "rondel scientia\nknowhow sailing\n") == [
        "line 6, column 9: unknown know-how 'sailing'; expected one of: strata, navigatio, moneta, res_publica, "
        "commercium"]


# -- event cards -----------------------------------------------------------------------------


def test_play_names_a_card_and_its_city():
    orders = parse(HEADER + "play earthquake at roma\nplay burglary\nrondel templum\nplay Erdbeben in Neapolis\n"
                            "event aca\nPLAY Fortress zama\n")
    assert orders["events"] == [
        {"play": "earthquake", "city": "roma"}, {"play": "burglary"}, {"play": "earthquake", "city": "neapolis"},
        {"play": "academy"}, {"play": "fortress", "city": "zama"}]
    assert fmt(orders).splitlines()[4:9] == [
        "play earthquake at roma", "play burglary", "play earthquake at neapolis", "play academy",
        "play fortress at zama"]
    assert fmt(orders).splitlines()[9] == "rondel templum", "the cards come before the rondel move"


def test_card_names_are_matched_never_guessed():
    assert problems(HEADER + "play eartquake at roma\n") == [
        "line 5, column 6: unknown event card 'eartquake' (did you mean Earthquake (earthquake)?)"]
    assert problems(HEADER + "play card\n")[0].startswith(
        "line 5, column 6: 'card' is ambiguous: card_05, card_06,")
    assert problems(HEADER + "play\n") == ["line 5, column 5: the line ends too early: expected an event card"]
    assert problems(HEADER + "play burglary at roma now\n") == [
        "line 5, column 23: unexpected 'now'; expected the end of the line (one card per line)"]
    assert parse(HEADER + "play card_07\n")["events"] == [{"play": "card_07"}]


def test_the_cards_a_gm_entered_are_known_by_name_with_the_games_data():
    data = json.dumps({"event_cards": [{"id": "card_07", "name": "Harvest Festival",
                                        "effect": {"kind": "gain", "chips": {"gold": 2}}},
                                       {"id": "omen", "name": "Omen", "effect": {"kind": "gain", "coins": 1}}]})
    orders = parse(HEADER + "play harvest festival\nplay omen\nstanding draw omen harv\n", data=data)
    assert orders["events"] == [{"play": "card_07"}, {"play": "omen"}]
    assert orders["standing"] == {"draw": ["omen", "card_07"]}
    assert problems(HEADER + "play omen\n") == ["line 5, column 6: unknown event card 'omen'"]


# -- town walls and the recruitment box --------------------------------------------------------


def test_wall_lines():
    orders = parse(HEADER + "rondel templum\nwall roma\nwalls neapolis, brundisium and croton\n"
                            "wall Zama pay 1 marble\ntemple roma\n")
    assert orders["walls"] == [{"city": "roma"}, {"city": "neapolis"}, {"city": "brundisium"},
                               {"city": "croton"}, {"city": "zama", "pay": {"marble": 1}}]
    assert orders["temples"] == [{"city": "roma"}]
    assert fmt(orders).splitlines()[5:11] == ["temple roma", "wall roma", "wall neapolis", "wall brundisium",
                                              "wall croton", "wall zama pay 1 marble"]
    assert problems(HEADER + "wall roma neapolis pay 2 marble\n") == [
        "line 5, column 20: a payment belongs to one town wall: write the walls you pay for one per line "
        "('wall roma pay 1 marble')"]
    assert problems(HEADER + "wall\n") == ["line 5, column 5: the line ends too early: expected a province"]


def test_recruit_lines():
    assert parse(HEADER + "rondel scientia\nrecruit 2 legions 1 galley\n")["recruit"] == {"legion": 2, "galley": 1}
    orders = parse(HEADER + "rondel scientia\nrecruit 1 galley and 3 legions pay 5 gold\n")
    assert orders["recruit"] == {"galley": 1, "legion": 3, "pay": {"gold": 5}}
    assert fmt(orders).splitlines()[-1] == "recruit 3 legions 1 galley pay 5 gold"
    assert problems(HEADER + "recruit 2 legions\nrecruit 1 galley\n") == [
        "line 6, column 1: a second 'recruit' line (the first is line 5); give it once"]
    assert problems(HEADER + "recruit nothing\n") == ["line 5, column 9: recruit at least one unit"]
    assert problems(HEADER + "recruit 2 soldiers\n") == [
        "line 5, column 11: expected what the 2 counts (legion, galley), not 'soldiers'"]
    assert problems(HEADER + "recruit legions\n") == [
        "line 5, column 9: expected an amount after 'recruit' such as '2 legions 1 galley' (legion, galley), "
        "or 'nothing', not 'legions'"]


def test_found_takes_the_founders_resource():
    orders = parse(HEADER + "rondel aurum\nfound baecula as gold\nfound Carthago Nova marble pay 1 marble 1 iron "
                            "1 gold 1 coin\n")
    assert orders["found"] == [{"city": "baecula", "resource": "gold"},
                               {"city": "carthago_nova", "resource": "marble",
                                "pay": {"marble": 1, "iron": 1, "gold": 1, "coin": 1}}]
    assert fmt(orders).splitlines()[-2:] == ["found baecula as gold",
                                             "found carthago_nova as marble pay 1 marble 1 iron 1 gold 1 coin"]


# -- standing orders -------------------------------------------------------------------------------


def test_standing_fortress_and_draw():
    orders = parse(HEADER + "standing fortress never\nstanding draw fortress, academy\nstanding coin gold\n")
    assert orders["standing"] == {"fortress": "never", "draw": ["fortress", "academy"], "coin_substitute": "gold"}
    assert fmt(orders).splitlines()[4:] == ["standing coin gold", "standing fortress never",
                                            "standing draw fortress academy"]
    assert parse(HEADER + "standing draw nothing\nstanding fortress ALWAYS\n")["standing"] == {
        "draw": [], "fortress": "always"}
    assert fmt(parse(HEADER + "standing draw nothing\n")).splitlines()[-1] == "standing draw nothing"
    assert problems(HEADER + "standing fortress sometimes\n") == [
        "line 5, column 19: expected when to play FORTRESS (always, never, when it saves the city), not 'sometimes'"]
    assert problems(HEADER + "standing draw\n") == [
        "line 5, column 14: the line ends too early: expected the event cards to take first, or 'nothing'"]
    assert problems(HEADER + "standing fortress never\nstanding fortress always\n") == [
        "line 6, column 1: a second 'standing fortress' line (the first is line 5); give it once"]
    assert problems(HEADER + "standing walls\n") == [
        "line 5, column 10: expected battle, bonus, coin, fortress or draw after 'standing', not 'walls'"]


# -- in classic Antike the words are errors, as before ---------------------------------------------


def test_the_duellum_words_are_not_classic_orders():
    classic = "game t\nnation greeks\nturn 3\npassword pw\n"
    east = load_board("antike-east")
    words = ("game, nation, turn, password, trade, rondel, temple, arm, knowhow, move, battle, conquer, found, "
             "standing")
    assert problems(classic + "wall athen\n", CLASSIC, east) == [
        f"line 5, column 1: unknown order word 'wall'; an order line starts with one of: {words}"]
    assert problems(classic + "play earthquake\n", CLASSIC, east)[0].startswith(
        "line 5, column 1: unknown order word 'play'")
    assert problems(classic + "standing fortress never\n", CLASSIC, east) == [
        "line 5, column 10: expected battle, bonus or coin after 'standing', not 'fortress'"]
    with pytest.raises(ValueError, match="walls"):
        format_text_orders({"game": "t", "nation": "greeks", "walls": [{"city": "athen"}]}, CLASSIC, east)


def test_an_unknown_word_lists_the_duellum_words():
    assert problems(HEADER + "plya burglary\n") == [
        "line 5, column 1: unknown order word 'plya' (did you mean 'play'?); an order line starts with one of: "
        "game, nation, turn, password, trade, play, rondel, temple, wall, arm, knowhow, recruit, move, battle, "
        "conquer, found, standing"]


# -- round trips -------------------------------------------------------------------------------------


CANONICAL = [
    {**HEAD, "events": [{"play": "earthquake", "city": "zama"}, {"play": "burglary"}], "rondel": "templum",
     "temples": ["roma"], "walls": [{"city": "neapolis"}, {"city": "roma", "pay": {"marble": 1}}]},
    {**HEAD, "events": [{"play": "academy"}], "rondel": "scientia", "knowhow": ["strata"],
     "recruit": {"legion": 2, "galley": 1, "pay": {"gold": 4}}},
    {**HEAD, "rondel": {"to": "duellum", "steps": 7, "pay": {"gold": 1}},
     "maneuver": [{"move": "galley", "count": 1, "from": "mare_tyrrhenum", "path": ["mare_africum"]},
                  {"conquer": "carthago", "with": {"legion": 1}}]},
    {**HEAD, "rondel": "aurum", "found": [{"city": "baecula", "resource": "iron"}]},
    {**HEAD, "standing": {"fortress": "never", "draw": ["academy", "card_05"], "coin_substitute": "iron"}},
]


@pytest.mark.parametrize("orders", CANONICAL, ids=["templum", "scientia", "duellum", "aurum", "standing"])
def test_round_trips(orders):
    round_trip(orders)


def test_cards_at_every_moment_and_with_every_field_round_trip():
    """An event card's moment (001 L427) and what a card a GM entered leaves open (docs/duellum.md,
    "Entering a card") are written back as they are read: ``play after move academy``,
    ``play levy at carthago legion``, ``play after messenger to scientia``, ``play sacrifice cards
    burglary``; FORTRESS ``when it saves the city``."""
    orders = {**HEAD, "events": [{"play": "academy", "when": "after_move"}, {"play": "burglary", "when": "before"},
                                 {"play": "card_07", "at": "carthago", "unit": "legion"},
                                 {"play": "card_10", "when": "after", "to": "scientia"},
                                 {"play": "card_15", "cards": ["burglary", "fortress"]},
                                 {"play": "earthquake", "when": "after", "city": "roma"}],
              "rondel": "scientia", "standing": {"fortress": "when it saves the city"}}
    text = round_trip(orders, DOC_CARDS)
    assert "play after move academy\nplay before burglary\nplay card_07 at carthago legion\n" \
           "play after card_10 to scientia\nplay card_15 cards burglary fortress\n" \
           "play after earthquake at roma\n" in text
    assert "standing fortress when it saves the city\n" in text
    assert parse(HEADER + "trade after move 3 gold for 2 iron\ntrade before 2 gold 1 marble for 1 iron 1 gold\n")[
        "trade"] == [{"give": {"gold": 3}, "get": {"iron": 2}, "when": "after_move"},
                     {"give": {"marble": 1, "gold": 2}, "get": {"iron": 1, "gold": 1}, "when": "before"}]


def test_round_trips_over_a_bot_game():
    """Every turn a bot plays on the Rome/Carthage board, cards, walls and recruits
    included: its orders as text read back the same."""
    from pbem.play import selfplay

    entered = [{"id": f"card_{i:02d}", "name": f"Harvest {i}", "effect": {"kind": "gain", "chips": {"gold": 1}}}
               for i in range(5, 26)]  # the printed deck with every card playable, so that the bots play cards
    game, plain = selfplay.start_game("duel", ["carthaginians", "romans"], "t", "duellum", BOARD.id,
                                      data={"event_cards": entered})
    keys = set()
    for _ in range(80):
        if game.state.status.winner:
            break
        game, _ = selfplay.bot_turn(game, plain, "greedy")
        orders = game.history[-1]["orders"]
        keys |= set(orders)
        round_trip({**orders, "game": game.game_id, "password": "pw"})
    assert {"walls", "recruit", "events"} <= keys


# -- the documentation --------------------------------------------------------------------------------


DOC = ROOT / "docs" / "text-orders.md"


def _examples() -> list[str]:
    return re.findall(r"^```text orders-duellum\n(.*?)^```$", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)


def _position():
    """The Romans to play their first turn, holding EARTHQUAKE, BURGLARY and ACADEMY, two
    town walls in their supply and chips enough; Zama has a wall."""
    opts = SetupOptions(game_id="duel", board=BOARD.id, nations=["carthaginians", "romans"], seed="s",
                        first="romans")
    game, _ = new_game(opts, BOARD, {"romans": "correct-horse", "carthaginians": "c"}, edition=DU)
    change = {"game": "duel", "reason": "docs", "edits": [
        {"province": "zama", "wall": True},
        {"nation": "romans", "hand": ["earthquake", "burglary", "academy"], "walls_supply": 2,
         "resources": {"marble": 6, "iron": 6, "gold": 30}}]}
    return turns.edit(game, canonical_edit(change, DU))


def test_every_duellum_example_in_the_docs_is_accepted():
    examples = _examples()
    assert len(examples) == 4
    game = _position()
    wedges = set()
    for text in examples:
        data = parse_text_orders(text, DU, BOARD)
        assert schemas.problems("orders", data, DU) == [], text
        round_trip(canonical_orders(data, DU))
        if "rondel" not in data:
            assert set(data["standing"]) == {"fortress", "draw"}
            continue
        result = turns.check(game, canonical_orders({**data, "turn": 1}, DU))  # refused orders raise
        wedges.add(result.echo["rondel"]["to"])
    assert wedges == {"templum", "scientia", "militia"}


DOC_CARDS = json.dumps({"event_cards": [
    {"id": "card_07", "name": "Levy", "effect": [{"kind": "arm", "unit": "any"}]},
    {"id": "card_10", "name": "Messenger", "when": ["after"], "effect": [{"kind": "move_stone"}]},
    {"id": "card_15", "name": "Sacrifice", "effect": [{"kind": "discard", "who": "self"},
                                                      {"kind": "gain", "chips": {"gold": 3}}]}]},
    sort_keys=True, separators=(",", ":"))
"""The cards a GM entered that docs/text-orders.md plays (as docs/duellum.md enters them)."""


def test_the_docs_table_of_duellum_lines_reads_as_it_says():
    section = DOC.read_text(encoding="utf-8").split("## Antike Duellum", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| .*? \| `(.+)` \|$", section, flags=re.M)
    assert len(rows) >= 12
    for line, json_text in rows:
        data = parse_text_orders(HEADER + line + "\n", DU, BOARD, data=DOC_CARDS)
        key = json_text.split('"')[1]
        assert key in data, line
        assert {key: data[key]} == json.loads("{" + json_text + "}"), line


def test_check_process_and_the_inbox_read_a_gm_entered_card_by_name(tmp_path):
    """The commands pass the game's ``rules.data`` to the text-order reader: a card the GM
    entered with ``new --data`` is known by its printed name in an order file in the text
    syntax (not "unknown event card"), and the rules then judge the order (here: the card is
    not in the hand)."""
    from conftest import cli_run, new_game_file

    data = tmp_path / "cards.json"
    data.write_text(json.dumps({"event_cards": [{"id": "card_07", "name": "Harvest Festival",
                                                 "effect": {"kind": "gain", "chips": {"gold": 2}}}]}))
    game = new_game_file(tmp_path, "--edition", "duellum", "--data", data, nations=["carthaginians", "romans"])
    active = json.loads(game.read_text())["status"]["active"]
    from conftest import PASSWORDS

    orders = tmp_path / "orders.txt"
    orders.write_text(f"game game\nnation {active}\nturn 1\npassword {PASSWORDS[active]}\n"
                      "play harvest festival\nrondel templum\n")
    before = game.read_bytes()
    for command in ("check", "process"):
        result = cli_run(command, game, orders)
        assert result.exit_code == 4, result.output
        assert "unknown event card" not in result.output, result.output
    assert game.read_bytes() == before


# -- the line of every order (docs/text-orders.md, "Errors") ------------------------------------


def test_every_duellum_order_has_its_line():
    """``walls roma, neapolis`` writes two walls, both on its line; a greeting and thanks
    around the orders are not read; the lists keep their order in the canonical orders."""
    text = ("Salve,\n"                                  # 1
            "game duel\n"                               # 2
            "nation romans\n"                           # 3
            "turn 3\n"                                  # 4
            "password pw\n"                             # 5
            "play earthquake at zama\n"                 # 6
            "rondel templum\n"                          # 7
            "walls roma, neapolis and croton\n"         # 8
            "event burglary\n"                          # 9
            "wall zama pay 1 marble\n"                  # 10
            "recruit 2 legions 1 galley pay 4 gold\n"   # 11
            "standing fortress never\n"                 # 12
            "standing draw academy earthquake\n"        # 13
            "\n"
            "Vale\n")                                   # 15
    read = read_text_orders(text, DU, BOARD)
    assert read.ignored == ((1, "Salve,"), (15, "Vale"))
    assert {path: line for path, line in read.paths.items() if "[" in path or path.count(".") > 1} == {
        "$.events[0]": 6, "$.events[1]": 9, "$.walls[0]": 8, "$.walls[1]": 8, "$.walls[2]": 8, "$.walls[3]": 10,
        "$.standing.fortress": 12, "$.standing.draw": 13}
    assert [read.paths[p] for p in ("$.recruit", "$.rondel", "$.standing", "$.walls", "$.events")] == [11, 7, 12, 8, 6]
    assert read.line_of("$.walls[2].city") == (8, "walls roma, neapolis and croton")
    assert read.line_of("$.walls[3].pay") == (10, "wall zama pay 1 marble")
    assert read.line_of("$.recruit.legion") == (11, "recruit 2 legions 1 galley pay 4 gold")
    assert read.line_of("$.events[1]") == (9, "event burglary")
    assert read.line_of("$.standing.draw[1]") == (13, "standing draw academy earthquake")
    assert read.describe("$.walls[1].city", "Neapolis already has a town wall", "wall/already") == (
        'line 8 ("walls roma, neapolis and croton"): Neapolis already has a town wall [wall/already]')
    canonical = canonical_orders(read.orders, DU)
    assert [w["city"] for w in canonical["walls"]] == ["roma", "neapolis", "croton", "zama"]
    assert [e["play"] for e in canonical["events"]] == ["earthquake", "burglary"]


def test_a_duellum_word_after_the_orders_of_a_classic_game_is_an_error():
    east = load_board("antike-east")
    text = "game t\nnation greeks\nturn 3\npassword pw\nrondel gold\nplay burglary\n\nThanks!\n"
    assert problems(text, CLASSIC, east) == [
        "line 6, column 1: unknown order word 'play'; an order line starts with one of: game, nation, turn, "
        "password, trade, rondel, temple, arm, knowhow, move, battle, conquer, found, standing"]
