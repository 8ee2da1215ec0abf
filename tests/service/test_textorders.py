"""The plain-text order syntax (pbem/service/language/, docs/text-orders.md).

- text -> JSON -> text round trips for every kind of order, over a set of canonical orders
  and over every turn of a bot game;
- every problem names its line and column (exactly in a few cases, and in general over the
  corpus);
- the corpus of hand-written order mails in tests/data/ordermail (see its README.md);
- every example in docs/text-orders.md parses, and its error and echo examples are what the
  referee prints.
"""

from __future__ import annotations

import codecs
import json
import re
from itertools import permutations
from pathlib import Path

import pytest

from conftest import CLASSIC, FOUR, PASSWORDS, canonical_orders, edit, make_game
from pbem.errors import InputError, Refused, clip
from pbem.kernel.edition import Extras
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.vocab import PAYMENT_KEYS, RESOURCES, UNITS, BattleStance, CoinSubstitute
from pbem.play.bot import play_turn
from pbem.service import schemas, turns
from pbem.service.boards import load_board
from pbem.service.language.mailtext import mail_lines, strip_mail
from pbem.service.language.names import ORDER_WORDS, Names
from pbem.service.language.textorders import looks_like_text_orders, parse_text_orders, read_text_orders
from pbem.service.language.writer import format_text_orders

ROOT = Path(__file__).resolve().parent.parent.parent
CORPUS = ROOT / "tests" / "data" / "ordermail"
DOC = ROOT / "docs" / "text-orders.md"
BOARD = load_board("antike-east")
HEADER = "game t\nnation phoenicians\nturn 1\npassword pw-phoenicians\n"
WEDGES = CLASSIC.rondel.names
KNOWHOWS = list(CLASSIC.knowhows)
PERSONAGES = list(CLASSIC.personages)
LOCATION = re.compile(r"line (\d+), column (\d+)")


def parse(text: str) -> dict:
    return parse_text_orders(text, CLASSIC, BOARD)


def fmt(orders: dict) -> str:
    return format_text_orders(orders, CLASSIC, BOARD)


def canon(text: str) -> dict:
    return canonical_orders(parse(text))


def problems(text: str) -> list[str]:
    """Every problem the text gets, as printed (fails the test if it parses)."""
    with pytest.raises(InputError) as info:
        parse(text)
    return [str(p) for p in info.value.problems]


def assert_round_trip(orders: dict) -> str:
    """format -> parse gives the canonical orders back, and formatting is stable."""
    text = fmt(orders)
    back = canonical_orders(parse(text))
    assert back == orders, text
    assert fmt(back) == text
    return text


# -- round trips over canonical orders -----------------------------------------------------


def _canonical_set() -> list[tuple[str, dict]]:
    """(id, canonical orders) for every kind of order the syntax writes."""
    head = {"game": "demo", "nation": "greeks", "turn": 12, "password": "correct-horse"}
    raw: list[tuple[str, dict]] = []
    for wedge in WEDGES:
        raw.append((f"rondel-{wedge}", {**head, "rondel": wedge}))
    raw += [
        ("rondel-steps-pay", {**head, "rondel": {"to": WEDGES[3], "steps": 5, "pay": {"gold": 1, "coin": 1}}}),
        ("rondel-steps-only", {**head, "rondel": {"to": WEDGES[3], "steps": 7}}),
        ("rondel-pay-every-key", {**head, "rondel": {"to": WEDGES[0], "steps": 8,
                                                     "pay": {k: 1 + i for i, k in enumerate(PAYMENT_KEYS)}}}),
        ("rondel-pay-nothing", {**head, "rondel": {"to": WEDGES[2], "pay": {}}}),
        ("rondel-pay-zero", {**head, "rondel": {"to": WEDGES[2], "pay": {"coin": 0, "gold": 1}}}),
        ("temples", {**head, "rondel": WEDGES[1], "temples": [
            "athen", {"city": "pella", "pay": {"marble": 4, "coin": 1}}, {"city": "leptis_magna"}]}),
        ("arm", {**head, "rondel": WEDGES[4], "arm": [
            {"unit": "legion", "at": "pella"}, {"unit": "galley", "at": "athen", "count": 3},
            {"unit": "legion", "at": "dyrrhachion", "count": 2, "pay": {"iron": 1, "coin": 1}}]}),
        ("knowhow-every-one", {**head, "rondel": WEDGES[6], "knowhow": [
            name if i % 2 else {"name": name, "pay": {"gold": 7}} for i, name in enumerate(KNOWHOWS)]}),
        ("maneuver-moves", {**head, "rondel": WEDGES[3], "maneuver": [
            {"move": "legion", "from": "pella", "path": ["athen"]},
            {"move": "galley", "count": 3, "from": "athen", "path": ["knossos", "cyrene", "leptis_magna"]},
            {"move": "legion", "count": 1, "from": "leptis_magna", "path": ["corniclanum"]}]}),
        ("maneuver-battles", {**head, "rondel": WEDGES[3], "maneuver": [
            {"battle": "galley", "at": "knossos", "against": "persians"},
            {"battle": "legion", "at": "athen", "against": "romans", "count": 1},
            {"battle": "galley", "at": "leptis_magna", "against": "carthaginians", "count": 4}]}),
        ("maneuver-conquests", {**head, "rondel": {"to": WEDGES[3], "steps": 5}, "maneuver": [
            {"conquer": "athen"},
            {"conquer": "pella", "with": {"legion": 2}},
            {"conquer": "knossos", "with": {"galley": 1}},
            {"conquer": "leptis_magna", "with": {"legion": 1, "galley": 2}, "give_up": "dyrrhachion"},
            {"conquer": "sparta", "with": {}},
            {"conquer": "tyros", "with": {"legion": 0, "galley": 2}},
            {"conquer": "petra", "give_up": "leptis_magna"}]}),
        ("maneuver-mixed-order", {**head, "rondel": WEDGES[3], "maneuver": [
            {"move": "galley", "count": 2, "from": "sparta", "path": ["knossos"]},
            {"battle": "galley", "at": "knossos", "against": "phoenicians"},
            {"move": "galley", "count": 1, "from": "sparta", "path": ["knossos", "alexandria"]},
            {"conquer": "alexandria", "with": {"galley": 1}},
            {"move": "legion", "from": "pella", "path": ["bycantium"]}]}),
        ("found", {**head, "rondel": WEDGES[2], "found": [
            "sparta", {"city": "bycantium", "pay": {"marble": 1, "iron": 1, "coin": 1}}]}),
        ("trade", {**head, "trade": [{"give": {"gold": 2}, "get": "iron"},
                                     {"give": {"marble": 1, "gold": 1}, "get": "iron"},
                                     {"give": {"iron": 2, "marble": 0}, "get": "marble"}],
                   "rondel": WEDGES[4], "arm": [{"unit": "legion", "at": "athen", "count": 3}]}),
        ("everything", {**head, "trade": [{"give": {"gold": 2}, "get": "iron"}],
                        "rondel": {"to": WEDGES[3], "pay": {"coin": 1}},
                        "maneuver": [{"move": "legion", "from": "pella", "path": ["athen"]}],
                        "found": ["sparta"], "standing": {"battle": "never", "coin_substitute": "gold"}}),
        ("no-password-no-turn", {"game": "demo", "nation": "greeks", "rondel": WEDGES[0]}),
        ("password-odd", {**head, "password": "Correct Horse #1 \"x\" > --", "rondel": WEDGES[0]}),
        ("password-colon", {**head, "password": ":colon: first", "rondel": WEDGES[0]}),
        ("game-odd", {**head, "game": "Demo 2026: final", "rondel": WEDGES[0]}),
    ]
    for stance in BattleStance:
        raw.append((f"standing-default-{stance.value}", {**head, "standing": {"battle": stance.value}}))
    raw.append(("standing-per-nation", {**head, "standing": {"battle": {
        n: list(BattleStance)[i % 3].value for i, n in enumerate(CLASSIC.nations)}}}))
    raw.append(("standing-default-and-nations", {**head, "standing": {"battle": {
        "persians": "always", "default": "home", "romans": "never"}}}))
    for i, stack in enumerate(list(permutations(PERSONAGES))[::40]):
        raw.append((f"standing-bonus-{i}", {**head, "standing": {"bonus_stack": list(stack)}}))
    for sub in CoinSubstitute:
        raw.append((f"standing-coin-{sub.value}", {**head, "standing": {"coin_substitute": sub.value}}))
    raw.append(("standing-all", {"game": "demo", "nation": "arabs", "password": "pw", "standing": {
        "battle": {"default": "always", "greeks": "never"}, "bonus_stack": PERSONAGES,
        "coin_substitute": "lowest"}}))
    return [(name, canonical_orders(data)) for name, data in raw]


CANONICAL = _canonical_set()


@pytest.mark.parametrize("orders", [o for _, o in CANONICAL], ids=[n for n, _ in CANONICAL])
def test_canonical_orders_round_trip(orders):
    assert schemas.problems("orders", {"password": "x", **orders}, CLASSIC) == []
    text = assert_round_trip(orders)
    lines = text.splitlines()
    assert text.endswith("\n") and all(line == line.strip() and line for line in lines)
    count = sum(len(v) if isinstance(v, list) else 1 for k, v in orders.items() if k != "standing")
    standing = orders.get("standing", {})
    count += len(standing.get("battle", {})) + ("bonus_stack" in standing) + ("coin_substitute" in standing)
    assert len(lines) == count  # one order per line
    assert ("password" in orders) == any(line.startswith("password ") or line.startswith("password:")
                                         for line in lines)


def test_the_canonical_set_covers_every_order_kind():
    seen = {key for _, o in CANONICAL for key in o}
    assert seen == set(ORDER_KEYS)
    assert {o["rondel"]["to"] for _, o in CANONICAL if "rondel" in o} == set(WEDGES)
    steps = {next(iter(step)) for _, o in CANONICAL for step in o.get("maneuver", [])}
    assert steps == {"move", "battle", "conquer"}
    assert {n["name"] for _, o in CANONICAL for n in o.get("knowhow", [])} == set(KNOWHOWS)


def test_the_canonical_text_uses_ids_and_fixed_words():
    orders = dict(CANONICAL)["maneuver-conquests"]
    assert fmt(orders) == (
        "game demo\nnation greeks\nturn 12\npassword correct-horse\n"
        f"rondel {WEDGES[3]} steps 5\n"
        "conquer athen\n"
        "conquer pella with 2 legions\n"
        "conquer knossos with 1 galley\n"
        "conquer leptis_magna with 1 legion 2 galleys give up dyrrhachion\n"
        "conquer sparta with nothing\n"
        "conquer tyros with 0 legions 2 galleys\n"
        "conquer petra give up leptis_magna\n")
    text = fmt(dict(CANONICAL)["maneuver-battles"])
    assert "battle galleys at knossos against persians\n" in text
    assert "battle 1 legion at athen against romans\n" in text
    assert "move 3 galleys athen -> knossos -> cyrene -> leptis_magna\n" in fmt(dict(CANONICAL)["maneuver-moves"])


def test_bot_game_echoes_round_trip():
    """About 150 turns of a greedy bot game: every turn's orders and canonical echo."""
    game = make_game(FOUR, seed="text-orders")
    seen: set[str] = set()
    for _ in range(150):
        if game.state.status.winner is not None:
            break
        nation = game.state.status.active
        orders = canonical_orders({**play_turn(game, "greedy"), "password": PASSWORDS[nation]}, game.edition)
        game, result = turns.play(game, orders)
        assert "password" not in result.echo
        for sent in (orders, result.echo):
            text = format_text_orders(sent, game.edition, game.board)
            assert canonical_orders(parse_text_orders(text, game.edition, game.board), game.edition) == sent
        seen |= set(result.echo) | {next(iter(s)) for s in result.echo.get("maneuver", [])}
    assert game.state.status.turn > 100
    assert {"temples", "arm", "knowhow", "maneuver", "found", "move", "conquer"} <= seen


# -- the forms that mean the same ------------------------------------------------------------


SAME = [
    ("move 2 legions pella athen sparta", "move 2 legions pella -> athen -> sparta"),
    ("move 2 legions from pella to athen to sparta", "move 2 legions pella -> athen -> sparta"),
    ("Move 2 Legions Pella\u2192Athen=>Sparta", "move 2 legions pella -> athen -> sparta"),
    ("move legion pella -> athen", "move 1 legion pella -> athen"),
    ("move 1 legions from Leptis Magna to Corniclanum", "move 1 legion leptis_magna -> corniclanum"),
    ("battle galleys knossos persians count 2", "battle 2 galleys at knossos against persians"),
    ("battle 2 galleys at knossos against persians", "battle 2 galleys at knossos against persians"),
    ("battle galley knossos vs pers", "battle galleys at knossos against persians"),
    ("conquer athen with 2 legions and 1 galley give up pella",
     "conquer athen with 2 legions 1 galley give up pella"),
    ("conquer athen giveup pella with 1 galley", "conquer athen with 1 galley give up pella"),
    ("arm 2 legions pella", "arm 2 legions at pella"),
    ("arm legion at pella", "arm 1 legion at pella"),
    ("arm 3 galleys in athen pay 3 irons", "arm 3 galleys at athen pay 3 iron"),
    ("temples athen, pay 3 marble, 2 coins", "temple athen pay 3 marble 2 coins"),
    ("knowhow sailing pay 10 golds", "knowhow sailing pay 10 gold"),
    ("know-how Sailing", "knowhow sailing"),
    ("Know How: sailing", "knowhow sailing"),
    ("KNOW_HOW SAIL", "knowhow sailing"),
    ("found Leptis-Magna pay 1 marble 1 iron 1 gold", "found leptis_magna pay 1 marble 1 iron 1 gold"),
    ("found LeptisMagna", "found leptis_magna"),
    ("found 'Leptis Magna'", "found leptis_magna"),
    ("found \u201cleptis magna\u201d", "found leptis_magna"),
    ("found Athén", "found athen"),
    ("found ATHEN.", "found athen"),
    ("found athen # a comment", "found athen"),
    ("rondel to maneuver", "rondel maneuver"),
    ("rondel Know-how", "rondel knowhow"),
    ("rondel man pay 1 gold and 2 coins steps 5", "rondel maneuver steps 5 pay 1 gold 2 coins"),
    ("rondel gold pay nothing", "rondel gold pay nothing"),
    ("trade 2 gold -> iron", "trade 2 gold for iron"),
    ("trade 2 gold for 1 iron", "trade 2 gold for iron"),
    ("standing battle always", "standing battle default always"),
    ("standing battle default home persians always",
     "standing battle default home\nstanding battle persians always"),
    ("standing battle Pers alw", "standing battle persians always"),
    ("standing bonus stack king general citizen navigator scholar",
     "standing bonus king general citizen navigator scholar"),
    ("standing bonus_stack KING, General, Cit, Nav, Scholar",
     "standing bonus king general citizen navigator scholar"),
    ("standing coin_substitute low", "standing coin lowest"),
    ("standing coin substitute marble", "standing coin marble"),
]


@pytest.mark.parametrize("written, canonical", SAME, ids=[s[0] for s in SAME])
def test_other_forms_mean_the_same(written, canonical):
    assert canon(HEADER + written) == canon(HEADER + canonical)
    assert fmt(canon(HEADER + written)) == HEADER + canonical + "\n"


def test_header_lines_keep_what_is_written():
    orders = parse("Game:  Demo 2026 \nNATION: GREEKS\nTurn: 3\nPassword:   Correct Horse #1  \n")
    assert orders == {"game": "Demo 2026", "nation": "greeks", "turn": 3, "password": "Correct Horse #1"}
    assert parse("game demo  # the demo game\npassword a # b\n") == {"game": "demo", "password": "a # b"}
    assert parse("password ::x\n")["password"] == ":x"


# -- names ----------------------------------------------------------------------------------


def test_names_match_ids_display_names_accents_and_prefixes():
    provinces = Names("province", [(p.id, p.name) for p in BOARD.provinces.values()])
    for written in ("leptis_magna", "Leptis Magna", "LEPTIS-MAGNA", "leptismagna", "Léptis Mágna", "lept",
                    "leptis m"):
        assert provinces.lookup(written) == ("leptis_magna", None), written
    assert provinces.lookup("Athén") == ("athen", None)


def test_an_exact_name_wins_over_a_longer_name_it_begins():
    names = Names("province", [("petra", "Petra"), ("petraea", "Petraea"), ("nova_petra", "Nova Petra")])
    assert names.lookup("petra") == ("petra", None)
    assert names.lookup("PETRA") == ("petra", None)
    assert names.lookup("petrae") == ("petraea", None)
    value, problem = names.lookup("pet")
    assert value is None and problem == "'pet' is ambiguous: petra, petraea; write more of the province's name"
    value, problem = names.lookup("xyzzy")
    assert value is None and problem == "unknown province 'xyzzy'; expected one of: petra, petraea, nova_petra"


def test_a_wedge_alias_is_kept_as_written():
    """An edition's other names for a wedge are accepted; written in full they stay as written
    (the turn reads them), shortened they name the wedge."""
    names = Names("wedge", [("ferrum", "Ferrum")], {"iron": "ferrum"})
    assert names.lookup("iron") == ("iron", None)
    assert names.lookup("ferr") == ("ferrum", None)
    assert names.lookup("Ferrum") == ("ferrum", None)


def test_multi_word_names_are_read_where_words_are_split():
    orders = canon(HEADER + "move 1 galley from Leptis Magna to Cyrene to Leptis Magna\n"
                            "battle galleys at leptis magna against carthaginians count 1\n"
                            "conquer leptis magna with 1 galley give up leptis magna\n")
    assert orders["maneuver"] == [
        {"move": "galley", "count": 1, "from": "leptis_magna", "path": ["cyrene", "leptis_magna"]},
        {"battle": "galley", "at": "leptis_magna", "against": "carthaginians", "count": 1},
        {"conquer": "leptis_magna", "with": {"galley": 1}, "give_up": "leptis_magna"}]


# -- problems and where they are --------------------------------------------------------------


def test_problems_name_the_exact_line_and_column():
    text = ("Hello,\n"                                   # 1: before the orders, not read
            "game t\n"                                   # 2
            "nation greks\n"                             # 3
            "Hello again\n"                              # 4: between orders, an error
            "rondel maneuver steps 9\n"                  # 5
            "  move 2 legions pella atehns\n"            # 6
            "temple pe\n"                                # 7
            "conquer athen with 2 soldiers\n"            # 8
            "rondel gold\n"                              # 9
            "battle 2 galleys at knossos against persians count 2\n")  # 10
    assert problems(text) == [
        "line 3, column 8: unknown nation 'greks' (did you mean Greeks (greeks)?)",
        "line 4, column 1: unknown order word 'Hello'; an order line starts with one of: "
        + ", ".join(ORDER_WORDS),
        "line 5, column 23: the number of steps must be from 1 to 8, not 9",
        "line 6, column 24: unknown province 'atehns' (did you mean Athen (athen)?)",
        "line 7, column 8: 'pe' is ambiguous: pella, persepolis, petra; write more of the province's name",
        "line 8, column 22: expected what the 2 counts (legion, galley), not 'soldiers'",
        "line 9, column 1: a second 'rondel' line (the first is line 5); give it once",
        "line 10, column 46: the count is given twice (before the unit and after 'count')",
    ]


def test_columns_count_in_the_original_line():
    """Tabs and non-breaking spaces are one column each; the byte order mark is none;
    quoted lines and the signature keep the numbering of the lines around them."""
    text = "\ufeffgame\tt\r\n> quoted\r\nnation\u00a0\u00a0grek\r\n-- \r\nrondle"
    assert problems(text) == ["line 3, column 9: unknown nation 'grek' (did you mean Greeks (greeks)?)"]


def test_a_missing_word_is_placed_after_the_line():
    assert problems(HEADER + "rondel\n") == ["line 5, column 7: the line ends too early: expected a wedge"]
    assert problems(HEADER + "move 2 legions pella  \n")[0].startswith("line 5, column 21: the line ends too early")


def test_unclosed_quote_and_an_edition_key():
    assert problems(HEADER + 'found "leptis magna\n') == [
        "line 5, column 7: the quote opened here is not closed (a name in quotes ends with a \" on the same line)"]
    own = type("OwnKeys", (type(CLASSIC),), {"order_keys": (*ORDER_KEYS, "walls")})()
    with pytest.raises(InputError) as info:
        parse_text_orders(HEADER + "walls athen\n", own, BOARD)
    assert str(info.value.problems[0]) == ("line 5, column 1: 'walls' orders belong to this edition only and "
                                           "cannot be written as text orders; send them in an order file (JSON)")
    with pytest.raises(ValueError, match="walls"):
        format_text_orders({"game": "t", "nation": "greeks", "walls": [{"city": "athen"}]}, own, BOARD)
    fortress = type("OwnStanding", (type(CLASSIC),), {"extras": Extras({}, {}, {}, {"fortress": "always"})})()
    with pytest.raises(InputError) as info:
        parse_text_orders(HEADER + "standing battle always\nstanding fortress never\n", fortress, BOARD)
    assert [str(p) for p in info.value.problems] == [
        "line 6, column 10: the standing order 'fortress' belongs to this edition only and cannot be written "
        "as text orders; send it in an order file (JSON)"]
    with pytest.raises(ValueError, match="fortress"):
        fmt({"game": "t", "nation": "greeks", "standing": {"fortress": "always"}})
    for password in (" padded", "tab\there", "two\nlines", "no\u00a0break"):
        with pytest.raises(ValueError, match="password"):
            fmt({"game": "t", "nation": "greeks", "password": password})


def test_every_problem_is_reported_and_the_source_named():
    text = "\n".join(f"temple atehns{i}" for i in range(7))
    with pytest.raises(InputError) as info:
        parse_text_orders(text, CLASSIC, BOARD, "mail <m1@example.org>")
    assert len(info.value.problems) == 7
    assert [p.path for p in info.value.problems] == [f"line {i}, column 8" for i in range(1, 8)]
    assert str(info.value).startswith("mail <m1@example.org>: line 1, column 8: unknown province 'atehns0'")
    assert "(and 6 more)" in str(info.value)


def test_no_message_shows_a_regular_expression():
    corpus_messages = [m for case in _corpus_cases() for m in _messages(case)]
    for message in corpus_messages + problems("temple \u00a7\u00a7\n"):
        assert not re.search(r"\\[sdwb]|\[\^|\(\?|\.\*", message), message


# -- strip_mail and looks_like_text_orders ----------------------------------------------------


def test_strip_mail_keeps_order_lines_with_their_numbers():
    text = ("\ufeffgame t\r\n"
            "nation\tgreeks\r\n"
            "\r\n"
            "rondel gold\u00a0\r\n"
            "On Mon, 3 Nov 2026 at 10:00, Antike referee <referee@antike.test>\r\n"
            "wrote:\r\n"
            "> rondel iron\r\n"
            "  >> rondel marble\r\n"
            "temple athen\r\n"
            "-- \r\n"
            "Ann\r\n"
            "rondel iron\r\n")
    assert strip_mail(text) == [(1, "game t"), (2, "nation greeks"), (4, "rondel gold"), (9, "temple athen")]


@pytest.mark.parametrize("marker", ["--", "-- ", "-----Original Message-----",
                                    "---------- Forwarded message ---------", "________________________________"])
def test_strip_mail_drops_signatures_and_forwards_and_all_after(marker):
    assert strip_mail(f"rondel gold\n{marker}\nrondel iron\n> x\n") == [(1, "rondel gold")]


@pytest.mark.parametrize("trailer", ["Sent from my iPhone", "Sent from my phone", "Get Outlook for Android",
                                     "Von meinem iPhone gesendet", "Sent with Proton Mail secure email."])
def test_strip_mail_drops_a_trailer_only_at_the_end_of_the_mails_own_text(trailer):
    assert strip_mail(f"rondel gold\n\n{trailer}\n\n> x\n") == [(1, "rondel gold")]
    assert strip_mail(f"rondel gold\n{trailer}\n-- \nAnn\n") == [(1, "rondel gold")]
    # with the mail's own text after it, it is that text, never a cut
    assert strip_mail(f"rondel gold\n{trailer}\nrondel iron\n") == [(1, "rondel gold"), (2, trailer),
                                                                     (3, "rondel iron")]


def test_a_line_starting_with_sent_above_the_orders_is_the_players_own_text():
    """The mail a player sent after writing from the wrong address: it used to be cut at its
    first line, and was neither applied nor answered."""
    text = "Sent from the wrong address before, sorry.\ngame t\nnation greeks\nrondel gold\n"
    kept = mail_lines(text)
    assert kept.kept == [(1, "Sent from the wrong address before, sorry."), (2, "game t"), (3, "nation greeks"),
                         (4, "rondel gold")]
    assert kept.cut == ()
    assert reading(text).ignored == ((1, "Sent from the wrong address before, sorry."),)


def test_what_was_cut_is_named_with_its_reason():
    cut = mail_lines("rondel gold\nSent from my iPhone\nGet Outlook for iOS\n-- \nAnn\n").cut
    assert cut == ((2, "Sent from my iPhone", "a mail program's trailer at the end of the mail"),
                   (3, "Get Outlook for iOS", "a mail program's trailer at the end of the mail"),
                   (4, "--", "a signature: it and every line after it are not read"))
    with pytest.raises(InputError) as caught:
        reading("-- \nrondel gold\n")
    assert "line 1 was cut (--: a signature" in str(caught.value)


def test_strip_mail_keeps_a_wrote_line_that_is_no_reply_header():
    assert strip_mail("rondel gold\nI wrote:\ntemple athen\n") == [(1, "rondel gold"), (2, "I wrote:"),
                                                                   (3, "temple athen")]
    assert strip_mail("rondel gold\r--x\rAm 3.11. schrieb Ann:\r\r> y") == [(1, "rondel gold"), (2, "--x")]


def test_looks_like_text_orders():
    assert looks_like_text_orders("Hi,\n\nGame: demo\nNation: Greeks\n")
    assert looks_like_text_orders("nation greeks\nknow-how sailing")
    assert looks_like_text_orders("Nation: Greeks\nKnow how: sailing")
    assert looks_like_text_orders("RONDEL gold\nturn 3")
    # one line that happens to begin with an order word is chat, not orders
    assert not looks_like_text_orders("Game night on Friday?")
    assert not looks_like_text_orders("RONDEL gold\nrondel iron")
    assert not looks_like_text_orders("Hi Ann,\n\nare we still on for Friday?\n\n-- \ngame night\n")
    assert not looks_like_text_orders("Hi,\n> game demo\n> rondel gold\n")
    assert not looks_like_text_orders("")


# -- prose around the orders, and the line of every order ---------------------------------------


def reading(text: str, edition=CLASSIC, board=BOARD, data: str = ""):
    return read_text_orders(text, edition, board, data=data)


def test_prose_before_and_after_the_orders_is_not_read_and_is_listed():
    text = ("Hi GM,\n"                          # 1
            "here are my orders: rondel iron\n"  # 2: prose, even with an order word in it
            "\n"                                # 3
            "# my plan: gold first\n"           # 4: a comment, neither read nor listed
            "game t\n"                          # 5
            "nation phoenicians\n"              # 6
            "turn 1\n"                          # 7
            "password pw-phoenicians\n"         # 8
            "rondel gold   \n"                  # 9
            "\n"                                # 10
            "Thanks,\tand good luck!  \n"       # 11
            "Ann\n"                             # 12
            "-- \n"                             # 13: the signature and all after it: dropped
            "Ann Example\n"                     # 14
            "rondel iron\n")                    # 15
    read = reading(text)
    assert read.ignored == ((1, "Hi GM,"), (2, "here are my orders: rondel iron"), (11, "Thanks,\tand good luck!"),
                            (12, "Ann"))
    assert read.orders == {"game": "t", "nation": "phoenicians", "turn": 1, "password": "pw-phoenicians",
                           "rondel": {"to": "gold"}}
    assert parse(text) == read.orders
    assert read.line_of("$.rondel") == (9, "rondel gold")


def test_quoted_replies_and_signatures_are_dropped_not_listed():
    text = ("Hello,\n"                                                   # 1
            "On Mon, 3 Nov 2026, Antike referee <referee@antike.test> wrote:\n"  # 2
            "> It is your turn (Phoenicians).\n"                         # 3
            "> rondel iron\n"                                            # 4
            "game t\r\n"                                                 # 5
            "nation phoenicians\n"                                       # 6
            "password pw-phoenicians\n"                                  # 7
            "standing coin gold\n"                                       # 8
            "cheers\n"                                                   # 9
            "Sent from my phone\n"                                       # 10
            "-- \n"                                                      # 11
            "standing coin iron\n")                                      # 12
    read = reading(text)
    assert read.ignored == ((1, "Hello,"), (9, "cheers"))
    assert read.orders["standing"] == {"coin_substitute": "gold"}
    assert read.line_of("$.game") == (5, "game t")


def test_a_line_between_orders_must_be_an_order():
    text = "Hi,\ngame t\nnation phoenicians\nturn 1\nsee you on Friday\npassword pw-phoenicians\nrondel gold\nBye\n"
    assert problems(text) == [
        "line 5, column 1: unknown order word 'see'; an order line starts with one of: " + ", ".join(ORDER_WORDS)]


def test_a_text_without_an_order_line_has_no_orders():
    assert problems("\nHi GM,\n\nno orders from me this turn, sorry.\n-- \nAnn\n") == [
        "line 2, column 1: no orders found: an order mail has one order per line (starting with one of: "
        + ", ".join(ORDER_WORDS) + ")"]


def test_a_misspelt_or_foreign_order_word_after_the_orders_is_an_error_not_prose():
    """A line is never taken for prose if it starts like an order: a misspelt order word
    (the reader asks "did you mean ...?"), an order word of another edition, or an order key
    of the edition's own that the text syntax cannot write."""
    assert problems(HEADER + "rondel temple\ntemple tyros\ntempel alexandria\nThanks\n") == [
        "line 7, column 1: unknown order word 'tempel' (did you mean 'temple'?); an order line starts with one "
        "of: " + ", ".join(ORDER_WORDS)]
    assert problems("Rondle gold\n" + HEADER)[0].startswith("line 1, column 1: unknown order word 'Rondle' "
                                                            "(did you mean 'rondel'?)")
    assert problems(HEADER + "rondel gold\nLove, Ann\n")[0].startswith(
        "line 6, column 1: unknown order word 'Love' (did you mean 'move'?)")
    # like an order word of another edition only: no "did you mean", so prose
    assert reading(HEADER + "rondel gold\nWally\n").ignored == ((6, "Wally"),)
    assert problems(HEADER + "rondel gold\nrecruit 2 legions\n")[0].startswith(
        "line 6, column 1: unknown order word 'recruit'")
    own = type("OwnKeys", (type(CLASSIC),), {"order_keys": (*ORDER_KEYS, "tribute")})()
    with pytest.raises(InputError) as info:
        parse_text_orders(HEADER + "rondel gold\ntribute 3 gold\n", own, BOARD)
    assert [str(p) for p in info.value.problems] == [
        "line 6, column 1: 'tribute' orders belong to this edition only and cannot be written as text orders; "
        "send them in an order file (JSON)"]


def test_greetings_do_not_hide_an_order_mail():
    assert looks_like_text_orders("Hi GM,\n\ngame demo\nnation greeks\nrondel gold\n\nThanks, Ann\n")
    assert not looks_like_text_orders("Hi GM,\n\nthanks for the game!\n\nAnn\n")


CLASSIC_LINES = (
    "game t",                                                   # 1
    "nation phoenicians",                                       # 2
    "Turn: 1",                                                  # 3
    "password pw-phoenicians",                                  # 4
    "trade 2 gold for iron",                                    # 5
    "trade 1 marble 1 gold for iron",                           # 6
    "rondel maneuver steps 7 pay 1 gold",                       # 7
    "temple tyros",                                             # 8
    "arm 2 legions at tyros",                                   # 9
    "know how sailing",                                         # 10
    "move 2 legions tyros -> antiochia -> palmyra",             # 11
    "battle galleys at paphos against persians",                # 12
    "  conquer palmyra with 2 legions",                         # 13
    "temple alexandria pay 3 marble 2 coins",                   # 14
    "# a comment between orders",                               # 15
    "move galley paphos cyrene",                                # 16
    "found sidon",                                              # 17
    "standing battle persians never arabs always",              # 18
    "standing battle default home",                             # 19
    "standing bonus king general citizen navigator scholar",    # 20
    "standing coin gold",                                       # 21
    "arm galley\tat paphos",                                    # 22
    "knowhow navigation",                                       # 23
    "found cyrene",                                             # 24
)


def test_every_part_of_the_orders_has_its_line():
    text = "Dear GM,\n" + "\n".join(CLASSIC_LINES).replace("sidon", "petra") + "\n\nAnn\n"
    read = reading(text)
    expected = {
        "$.game": 2, "$.nation": 3, "$.turn": 4, "$.password": 5, "$.trade[0]": 6, "$.trade[1]": 7,
        "$.rondel": 8, "$.temples[0]": 9, "$.arm[0]": 10, "$.knowhow[0]": 11, "$.maneuver[0]": 12,
        "$.maneuver[1]": 13, "$.maneuver[2]": 14, "$.temples[1]": 15, "$.maneuver[3]": 17, "$.found[0]": 18,
        "$.standing": 19, "$.standing.battle": 19, "$.standing.battle.persians": 19, "$.standing.battle.arabs": 19,
        "$.standing.battle.default": 20, "$.standing.bonus_stack": 21, "$.standing.coin_substitute": 22,
        "$.arm[1]": 23, "$.knowhow[1]": 24, "$.found[1]": 25,
        "$.trade": 6, "$.temples": 9, "$.arm": 10, "$.knowhow": 11, "$.maneuver": 12, "$.found": 18,
    }
    assert dict(read.paths) == expected
    assert read.ignored == ((1, "Dear GM,"), (27, "Ann"))
    assert read.line_of("$.maneuver[1].path[0]") == (13, "battle galleys at paphos against persians")
    assert read.line_of("$.maneuver[0].path[1]") == (12, "move 2 legions tyros -> antiochia -> palmyra")
    assert read.line_of("$.maneuver[2].with.legion") == (14, "  conquer palmyra with 2 legions")
    assert read.line_of("$.temples[1].pay") == (15, "temple alexandria pay 3 marble 2 coins")
    assert read.line_of("$.temples[0].city") == (9, "temple tyros")
    assert read.line_of("$.arm[1].at") == (23, "arm galley\tat paphos")
    assert read.line_of("$.turn") == (4, "Turn: 1")
    assert read.line_of("$.rondel.pay.gold") == (8, "rondel maneuver steps 7 pay 1 gold")
    assert read.line_of("$.standing.battle.persians") == (19, "standing battle persians never arabs always")
    assert read.line_of("$.standing.battle.default") == (20, "standing battle default home")
    assert read.line_of("$.standing.bonus_stack[2]") == (21, "standing bonus king general citizen navigator scholar")
    # a whole list is its first line (as is an entry no line wrote, by its longest part)
    assert read.line_of("$.found") == (18, "found petra")
    assert read.line_of("$.found[2]") == (18, "found petra")
    assert read.line_of("$.found[1]") == (25, "found cyrene")
    # nothing wrote these: the whole orders, parts the orders lack, what is no path
    for path in ("$", "$.copy", "$.events[0]", "$.arm[1", "$.found[0]x", "$.found[1][", "found[0]", ""):
        assert read.line_of(path) is None, path


def test_the_password_line_is_never_quoted():
    read = reading("game t\nnation phoenicians\nPassword:  pw-phoenicians # not a comment\nrondel gold\n")
    assert read.orders["password"] == "pw-phoenicians # not a comment"
    assert read.line_of("$.password") == (3, "Password \u2026")
    assert not any("pw-phoenicians" in line for line in read.lines.values())
    assert read.describe("$.password", "wrong password for phoenicians", "orders/wrong-password") == (
        'line 3 ("Password \u2026"): wrong password for phoenicians [orders/wrong-password]')


def test_lines_are_numbered_and_quoted_as_written():
    text = "\ufeffgame t\r\nnation\u00a0phoenicians\r\n\r\nturn 1\rpassword pw-phoenicians\r\nrondel temple\r\n" \
           "\ttemple tyros  \r\n"
    read = reading(text)
    assert [read.line_of(p) for p in ("$.game", "$.nation", "$.turn", "$.rondel", "$.temples[0]")] == [
        (1, "game t"), (2, "nation\u00a0phoenicians"), (4, "turn 1"), (6, "rondel temple"), (7, "\ttemple tyros")]
    assert read.describe("$.temples[0].city", "Tyros is not a city of Greeks", "temple/not-own-city") == (
        'line 7 ("temple tyros"): Tyros is not a city of Greeks [temple/not-own-city]')


def test_a_refusal_is_told_by_its_line():
    read = reading(HEADER + "rondel maneuver\nmove 2 legions tyros -> " + " -> ".join(["antiochia", "palmyra"] * 8)
                   + "\nconquer palmyra\n")
    long = read.lines[6]
    assert len(long) > 100
    assert read.describe("$.maneuver[0].path[3]", "a legion cannot cross", "move/no-border") == (
        f'line 6 ("{clip(long)}"): a legion cannot cross [move/no-border]')
    assert clip(long).endswith(f"({len(long)} characters)")
    assert read.describe("$.maneuver[1].conquer", "there is no city in Palmyra", "conquer/no-city") == (
        'line 7 ("conquer palmyra"): there is no city in Palmyra [conquer/no-city]')
    # no line: the plain message (and its code)
    assert read.describe("$", "the game is over: greeks has won", "orders/game-over") == (
        "the game is over: greeks has won [orders/game-over]")
    assert read.describe("$.copy", "this file is a player's copy", "game/player-copy") == (
        "this file is a player's copy [game/player-copy]")
    # a problem the schema found at a line, and one of the whole orders when no line is missing
    assert read.describe("$.maneuver[1]", "must start with one of the keys move, battle, conquer") == (
        'line 7 ("conquer palmyra"): must start with one of the keys move, battle, conquer')
    assert read.describe("$", "names only 'x'") == "names only 'x'"


def test_a_missing_line_is_named():
    message = "'password' is missing here; needed: game, nation, password"
    assert reading("game t\nnation greeks\nturn 1\nrondel gold\n").describe("$", message) == (
        "no 'password' line (orders need a line for each of game, nation and password)")
    assert reading("game t\nstanding coin gold\n").describe("$", message) == (
        "no 'nation' and no 'password' line (orders need a line for each of game, nation and password)")
    assert reading("standing coin gold\n").required == ("game", "nation", "password")


def test_list_indices_are_the_same_in_raw_and_canonical_orders():
    """A refusal's path points into the canonical orders; the lines are recorded for the raw
    ones: every list keeps its entries in order, one for one."""
    raw = parse("\n".join(CLASSIC_LINES).replace("sidon", "petra"))
    canonical = canonical_orders(raw)
    lists = [key for key, value in raw.items() if isinstance(value, list)]
    assert lists == ["trade", "temples", "arm", "knowhow", "maneuver", "found"]
    for key in lists:
        assert len(canonical[key]) == len(raw[key]), key
        for before, after in zip(raw[key], canonical[key]):
            assert {k: v for k, v in after.items() if k in before} == before, key
    assert [next(iter(step)) for step in canonical["maneuver"]] == ["move", "battle", "conquer", "move"]
    assert [t["city"] for t in canonical["temples"]] == ["tyros", "alexandria"]
    assert set(canonical["standing"]["battle"]) == {"default", "persians", "arabs"}


# -- the corpus --------------------------------------------------------------------------------


def _corpus_cases() -> list[Path]:
    return sorted(CORPUS.glob("*.txt"))


def _expect(case: Path) -> dict:
    return json.loads(case.with_name(case.stem + ".expect.json").read_text(encoding="utf-8"))


def _text(case: Path) -> str:
    """The mail body exactly as stored (byte order mark and line ends kept)."""
    return case.read_bytes().decode("utf-8")


def _messages(case: Path) -> list[str]:
    try:
        parse(_text(case))
    except InputError as exc:
        return [str(p) for p in exc.problems]
    return []


def test_the_corpus_is_large_and_each_case_has_its_expectation():
    cases = _corpus_cases()
    assert len(cases) >= 55
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+", c.stem) for c in cases)
    assert sorted(CORPUS.glob("*.expect.json")) == sorted(c.with_name(c.stem + ".expect.json") for c in cases)
    kinds = [next(k for k in ("errors", "check", "orders") if k in _expect(c)) for c in cases]
    assert kinds.count("errors") >= 20 and kinds.count("check") >= 20


@pytest.mark.parametrize("case", _corpus_cases(), ids=lambda p: p.stem)
def test_corpus(case):
    expect = _expect(case)
    text = _text(case)
    raw = case.read_bytes()
    if expect.get("raw", {}).get("crlf"):
        assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    if expect.get("raw", {}).get("bom"):
        assert raw.startswith(codecs.BOM_UTF8)
    if "errors" in expect:
        with pytest.raises(InputError) as info:
            parse_text_orders(text, CLASSIC, BOARD, case.name)
        got = info.value.problems
        assert len(got) == len(expect["errors"]), [str(p) for p in got]
        for problem, want in zip(got, expect["errors"]):
            assert problem.path == f"line {want['line']}, column {want['column']}", str(problem)
            assert want["contains"] in problem.message, str(problem)
        return
    reading = read_text_orders(text, CLASSIC, BOARD, case.name)
    data = reading.orders
    assert data == parse_text_orders(text, CLASSIC, BOARD, case.name)
    assert [list(line) for line in reading.ignored] == expect.get("ignored", [])
    orders = canonical_orders(data)
    assert orders == expect["orders"]
    found = [str(p) for p in schemas.problems("orders", data, CLASSIC)]
    if "schema" in expect:
        assert any(expect["schema"] in p for p in found), found
    else:
        assert found == []
    assert_round_trip(orders)
    if "check" in expect:
        game = make_game()
        if expect.get("setup"):
            game = edit(game, *expect["setup"])
        if expect["check"] == "accepted":
            result = turns.check(game, orders)
            assert_round_trip(result.echo)
        else:
            with pytest.raises(Refused) as refused:
                turns.check(game, orders)
            assert [r.code for r in refused.value.rejections] == expect["check"]


@pytest.mark.parametrize("case", [c for c in _corpus_cases() if "errors" in _expect(c)], ids=lambda p: p.stem)
def test_every_corpus_problem_points_into_the_mail(case):
    """Generic: a problem's column is that of a word of its line (or just after the line)."""
    lines = re.split(r"\r\n|\r|\n", _text(case).removeprefix("\ufeff"))
    for message in _messages(case):
        where = LOCATION.match(message)
        assert where, message
        line, column = int(where[1]), int(where[2])
        assert 1 <= line <= len(lines), message
        text = lines[line - 1]
        assert 1 <= column <= len(text.rstrip()) + 1, message
        if column <= len(text):
            assert not text[column - 1].isspace() and (column == 1 or not text[column - 2].isalnum()), message


# -- the documentation ---------------------------------------------------------------------------


def _blocks(info: str) -> list[str]:
    doc = DOC.read_text(encoding="utf-8")
    return re.findall(r"^```" + re.escape(info) + r"\n(.*?)^```$", doc, flags=re.S | re.M)


def test_every_example_in_the_docs_parses():
    examples = _blocks("text orders")
    assert len(examples) >= 12
    wedges, keys, steps = set(), set(), set()
    for text in examples:
        data = parse(text)
        assert schemas.problems("orders", data, CLASSIC) == [], text
        orders = canonical_orders(data)
        keys |= set(orders)
        if "rondel" in orders:
            wedges.add(orders["rondel"]["to"])
            steps.add((orders["rondel"]["to"], "steps" in orders["rondel"]))
    assert wedges == set(WEDGES)
    assert {(WEDGES[3], False), (WEDGES[3], True)} <= steps  # both maneuver wedges
    assert {"found", "trade", "standing", "temples", "arm", "knowhow", "maneuver"} <= keys


def test_the_error_example_in_the_docs_is_what_the_referee_says():
    (mail,), (answer,) = _blocks("text rejected"), _blocks("text answer")
    assert problems(mail) == answer.splitlines()


def test_the_echo_example_in_the_docs_is_the_canonical_text():
    (echo,) = _blocks("text echo")
    first = canon(_blocks("text orders")[0])
    del first["password"]
    assert fmt(first) == echo


def test_the_docs_name_every_order_word_and_unit():
    doc = DOC.read_text(encoding="utf-8")
    for word in (*ORDER_WORDS, *UNITS, *RESOURCES, "coin"):
        assert f"`{word}" in doc or f" {word} " in doc, word


def test_the_game_line_has_one_grammar():
    """:func:`line_value` (what the mail reads to find a text's game) reads a game line as
    the order reader does."""
    from pbem.service.language.tokens import line_value

    for line, value in [("game demo", "demo"), ("Game: demo  # ours", "demo"), ("GAME\tdemo#2", "demo#2"),
                        ("game :demo", "demo"), ("game", None), ("game demo # ours", "demo"),
                        ("Game-night was fun", None),
                        ("gamer demo", None), ("rondel gold", None), ('"game" demo', None)]:
        assert line_value(line, "game") == value, line
        if value is not None:
            assert parse(f"{line}\nnation greeks\npassword x\n")["game"] == value
    assert line_value("password: a b # c", "password") == "a b # c"
