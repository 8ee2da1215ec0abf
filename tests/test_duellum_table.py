"""Antike Duellum's event deck as it is at the table (issue 36; docs/duellum.md, "Event
cards"; revision 3 of the edition's rules):

- 001 L67-71, L113: the deck holds the 25 event cards ("The 25 event cards are shuffled");
  a blank card joins it only once a GM has written it;
- a GM ``hand`` edit conserves the deck: a card given to a hand comes out of the deck, the
  display (refilled at once, 001 L419) or the discards, a card another hand holds or no
  card of the game is refused, a card taken out of a hand goes to the discards; no sequence
  of GM edits makes a second copy of a card;
- cards are chosen from the open display (001 L369, L411-419): the public report names the
  card taken, unless the game has the variant ``hidden_draws``; the deck's order is never
  public;
- the default draw takes a card that can be played (D9);
- a card of a wedge without ``when`` is played after the move to it, never before (001 L427:
  "if the card description does not indicate otherwise"), so its gold cannot pay for the
  steps to the wedge;
- entered cards are named by their entered names in ``check`` and the reports; ``options``
  names every field an order must give.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import cli_run, edit, new_game, write_json
from pbem import editions
from pbem.editions.duellum import cards
from pbem.errors import Refused
from pbem.kernel.setup import SetupOptions
from pbem.report import prepare
from pbem.service import turns
from pbem.service.boards import load_board
from pbem.service.view import show_json

DU = editions.get("duellum")
BOARD = load_board("duellum-rome-carthage")
FRONT = ["carthaginians", "romans"]
LEGACY = Path(__file__).resolve().parent / "data" / "legacy"
TWENTY_FIVE = ["fortress", "earthquake", "burglary", "academy", *(f"card_{i:02d}" for i in range(5, 26))]
LEVY = {"id": "card_07", "name": "Levy", "text": "Set up one unit of your recruitment box in one of your cities, free.",
        "effect": [{"kind": "arm", "unit": "any", "count": 1}]}
LIBRARY = {"id": "card_09", "name": "Library", "text": "On SCIENTIA, take 3 gold.", "wedge": "scientia",
           "effect": [{"kind": "gain", "chips": {"gold": 3}}]}
OUR_CARD = {"id": "blank_1", "name": "Our card", "text": "Take 1 gold.", "effect": [{"kind": "gain", "chips": {"gold": 1}}]}


def du_game(data=None, variants=(), seed="table-36", revision=None):
    opts = SetupOptions(game_id="duel", board=BOARD.id, nations=FRONT, first="carthaginians", seed=seed,
                        data=dict(data or {}), variants=list(variants), revision=revision)
    return new_game(opts, BOARD, {n: f"pw-{n}" for n in FRONT}, DU)[0]


def places(state) -> Counter:
    return Counter([*state.extra["deck"], *state.extra["display"], *state.extra["discards"],
                    *(c for ns in state.nations.values() for c in ns.extra["hand"])])


def new_file(tmp_path, *extra, name="duel.json"):
    path = tmp_path / name
    done = cli_run("new", path, "--id", "duel", "--edition", "duellum", "--nations", ",".join(FRONT),
                   "--first", "carthaginians",
                   "--seed", "table-36-seed-long-enough", "--kdf-iterations", "1000",
                   *(a for n in FRONT for a in ("--password", f"{n}=pw-{n}")), *extra)
    assert done.exit_code == 0, done.output
    return path, done.stdout


def gm_edit_file(path, tmp_path, *edits, reason="test"):
    change = write_json(tmp_path / "edit.json", {"game": "duel", "reason": reason, "edits": list(edits)})
    return cli_run("gm-edit", path, change)


def shown(path, *args):
    return json.loads(cli_run("show", path, "--json", *args).stdout)


# -- 1. the deck of 25 ---------------------------------------------------------------------------


def test_a_new_game_deals_the_25_event_cards_and_says_so(tmp_path):
    """001 L67-71: "25 event cards" and "2 empty event cards (may be filled with text as
    desired)"; 001 L113: "The 25 event cards are shuffled ... 3 event cards are drawn from
    top and used to form the open card display"."""
    path, said = new_file(tmp_path)
    view = shown(path)
    assert view["deck_size"] + len(view["display"]) == 25
    data = json.loads(path.read_text())
    assert data["rules"]["revision"] == 3 == DU.revision
    assert places(du_game().state) == Counter(TWENTY_FIVE)
    assert "the event deck: 25 cards" in said
    assert "21 of them have no text yet" in said
    assert "the 2 blank cards join the deck once the GM writes them" in said


def test_a_blank_card_joins_the_deck_once_written(tmp_path):
    """Written with ``new --data``: in the deck from the start; written by ``gm-edit`` in the
    game: into the deck by the game's secret, or to the discards, as the GM says."""
    cards_file = write_json(tmp_path / "cards.json", {"event_cards": [OUR_CARD]})
    path, said = new_file(tmp_path, "--data", cards_file)
    view = shown(path)
    assert view["deck_size"] + len(view["display"]) == 26
    assert "the event deck: 26 cards" in said and "1 blank card the GM wrote" in said
    assert "20 of them have no text yet" not in said and "21 of them have no text yet" in said
    blank_2 = {"id": "blank_2", "name": "Second", "effect": [{"kind": "gain", "coins": 1}]}
    done = gm_edit_file(path, tmp_path, {"event_cards": [blank_2]})
    assert done.exit_code == 0, done.output
    view = shown(path)
    assert view["deck_size"] + len(view["display"]) == 27
    game = json.loads(path.read_text())
    assert game["state"]["deck"].count("blank_2") == 1
    # into the discards, as the GM says
    other, _ = new_file(tmp_path, name="other.json")
    done = gm_edit_file(other, tmp_path, {"event_cards": [blank_2], "blanks_to": "discards"})
    assert done.exit_code == 0, done.output
    assert json.loads(other.read_text())["state"]["discards"] == ["blank_2"]


def test_a_written_blank_cannot_be_taken_out_again():
    game = du_game(data={"event_cards": [OUR_CARD]})
    with pytest.raises(Refused) as info:
        edit(game, {"event_cards": [{"id": "blank_1", "effect": None}]})
    assert [r.code for r in info.value.rejections] == ["edit/card-entry"]


# -- 2. hand edits conserve the deck ---------------------------------------------------------------


def test_a_hand_edit_of_a_card_in_the_display_moves_it(tmp_path):
    path, _ = new_file(tmp_path)
    before = json.loads(path.read_text())["state"]
    card = before["display"][1]
    done = gm_edit_file(path, tmp_path, {"nation": "romans", "hand": [card]})
    assert done.exit_code == 0, done.output
    after = json.loads(path.read_text())["state"]
    assert after["nations"]["romans"]["hand"] == [card]
    assert card not in after["display"] and len(after["display"]) == 3
    assert after["display"][1] == before["deck"][0]  # the new card in the taken card's place
    assert len(after["deck"]) == len(before["deck"]) - 1
    everywhere = [*after["deck"], *after["display"], *after["discards"],
                  *(c for n in after["nations"].values() for c in n["hand"])]
    assert everywhere.count(card) == 1 and len(everywhere) == 25


def test_a_card_given_from_the_deck_or_the_discards_leaves_it_and_a_card_taken_away_is_discarded():
    game = du_game()
    top = game.state.extra["deck"][0]
    game = edit(game, {"nation": "carthaginians", "hand": [top]})
    assert top not in game.state.extra["deck"] and game.state.nations["carthaginians"].extra["hand"] == [top]
    game = edit(game, {"nation": "carthaginians", "hand": []})
    assert game.state.extra["discards"] == [top]
    game = edit(game, {"nation": "romans", "hand": [top]})
    assert game.state.extra["discards"] == [] and game.state.nations["romans"].extra["hand"] == [top]
    assert places(game.state) == Counter(TWENTY_FIVE)


def test_a_hand_edit_of_a_card_in_the_other_hand_or_of_no_card_is_refused(tmp_path):
    path, _ = new_file(tmp_path)
    card = json.loads(path.read_text())["state"]["display"][0]
    assert gm_edit_file(path, tmp_path, {"nation": "romans", "hand": [card]}).exit_code == 0
    before = path.read_bytes()
    done = gm_edit_file(path, tmp_path, {"nation": "carthaginians", "hand": [card]})
    assert done.exit_code == 4, done.output
    assert "edit/card-held" in done.stderr and "Romans" in done.stderr
    assert path.read_bytes() == before
    done = gm_edit_file(path, tmp_path, {"nation": "carthaginians", "hand": ["card_99"]})
    assert done.exit_code == 4 and "edit/card-unknown" in done.stderr
    assert path.read_bytes() == before
    # an unwritten blank is no card of the deck either
    done = gm_edit_file(path, tmp_path, {"nation": "carthaginians", "hand": ["blank_2"]})
    assert done.exit_code == 4 and "edit/card-unknown" in done.stderr
    assert path.read_bytes() == before


def test_a_copys_hidden_card_is_never_a_card_to_give(tmp_path):
    """A player copy's history shows the other's hand in a GM edit as "?" (so the edit's
    schema takes it); a GM edit that gives "?" is refused in every revision, never a card."""
    path, _ = new_file(tmp_path)
    old = json.loads((LEGACY / "duellum-44.json").read_text())
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    for game, game_id in ((path, "duel"), (tmp_path / "old.json", old["game_id"])):
        before = game.read_bytes()
        change = write_json(tmp_path / "edit.json", {"game": game_id, "reason": "test",
                                                      "edits": [{"nation": "romans", "hand": ["?"]}]})
        done = cli_run("gm-edit", game, change)
        assert done.exit_code == 4 and "edit/card-unknown" in done.stderr, done.output
        assert game.read_bytes() == before


def test_the_consistency_check_of_every_edit_keeps_each_card_in_one_place():
    """Whatever an edit does, a second copy is refused (``edit/inconsistent``): the check
    every GM edit runs applies the conservation law."""
    game = du_game()
    st = game.state.copy()
    st.extra["discards"] = [st.extra["display"][0]]  # a copy made by hand
    problems = DU.pieces.consistency_problems(st, BOARD)
    assert any("once" in p.message for p in problems), problems


EDIT_KINDS = ("hand", "hand-out", "display", "blank", "coins")


@st.composite
def edit_sequences(draw):
    steps = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(EDIT_KINDS))
        nation = draw(st.sampled_from(FRONT))
        picks = draw(st.lists(st.integers(0, 40), max_size=4))
        steps.append((kind, nation, picks, draw(st.sampled_from(["deck", "discards"]))))
    return steps


def _edit_of(game, kind, nation, picks, where):
    every = [*TWENTY_FIVE, "blank_1", "blank_2", "card_99"]
    chosen = [every[p % len(every)] for p in picks]
    hand = list(game.state.nations[nation].extra["hand"])
    if kind == "hand":
        return {"nation": nation, "hand": hand + chosen}
    if kind == "hand-out":
        return {"nation": nation, "hand": hand[len(picks):]}
    if kind == "display":
        return {"display": chosen[:3]}
    if kind == "blank":
        return {"event_cards": [{"id": f"blank_{1 + len(picks) % 2}", "effect": [{"kind": "gain", "coins": 1}]}],
                "blanks_to": where}
    return {"nation": nation, "coins": len(picks)}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edit_sequences())
def test_no_sequence_of_gm_edits_makes_a_second_copy(sequence):
    """Random GM edits (hands given and taken, the display set, blanks written into the deck
    or the discards, other edits between), each accepted or refused as a whole: after each,
    every card of the deck is in exactly one place, and a refused edit changed nothing."""
    game = du_game()
    for kind, nation, picks, where in sequence:
        change = _edit_of(game, kind, nation, picks, where)
        before = game.state.to_json()
        try:
            game = edit(game, change)
        except Refused:
            assert game.state.to_json() == before
        assert places(game.state) == Counter(cards.deck_of(game.state.table)), (change, places(game.state))


def test_a_game_of_revision_2_keeps_its_hand_edit():
    """A game set up before (revision 2) replays its old edits as they were: the hand is set
    as given (tests/data/legacy/duellum-44.json holds such an edit)."""
    old = du_game(revision=2)
    card = old.state.extra["display"][0]
    after = edit(old, {"nation": "romans", "hand": [card]})
    assert after.state.extra["display"] == old.state.extra["display"]


# -- 3. draws seen as at the table --------------------------------------------------------------------


def _romans_draw(game):
    """The Carthaginians develop STRATA first (a scholar, 001 L209): the Romans take a card
    from the open display (001 L411-419)."""
    game = edit(game, {"nation": "carthaginians", "resources": {"gold": 6}})
    orders = {"game": "duel", "nation": "carthaginians", "turn": 1, "password": "pw-carthaginians",
              "rondel": {"to": "scientia"}, "knowhow": [{"name": "strata", "pay": {"gold": 6}}]}
    from pbem.kernel.orders import canonical_orders

    after, result = turns.play(game, canonical_orders(orders, DU))
    draw, = [e for e in result.events if e["type"] == "draw"]
    return after, draw


def _public_outputs(game) -> str:
    report = prepare(game)
    return "\n".join([*(report.render(f).decode() for f in ("txt", "md", "bbcode")), report.board_svg(),
                      json.dumps(show_json(game))])


def _deck_reordered(game):
    """The game with its draw deck in another order (and nothing else changed)."""
    st = game.state.copy()
    st.extra["deck"] = list(reversed(st.extra["deck"]))
    return game.copy_with(st, game.history)


def test_the_public_report_names_the_card_taken_from_the_display():
    game, draw = _romans_draw(du_game(data={"event_cards": [LEVY]}))
    name = DU.cards.name(draw["card"], game.state.table.data).upper()
    public = _public_outputs(game)
    assert f"Romans take {name} from the display" in prepare(game).render("txt").decode().replace("\n", " ")
    assert name in public
    assert _public_outputs(_deck_reordered(game)) == public  # the deck's order is in no public output
    assert '"deck":' not in json.dumps(show_json(game))


def test_with_hidden_draws_the_public_report_does_not_name_it():
    game, draw = _romans_draw(du_game(variants=["hidden_draws"]))
    text = prepare(game).render("txt").decode().replace("\n", " ")
    assert "Romans take an event card from the display" in text
    name = DU.cards.name(draw["card"], game.state.table.data).upper()
    assert f"take {name}" not in _public_outputs(game)
    assert f"take {name}" in prepare(game, viewer="romans").render("txt").decode().replace("\n", " ")
    assert _public_outputs(_deck_reordered(game)) == _public_outputs(game)


def test_a_card_discarded_at_random_is_not_public():
    """What a card's effect discards at random from a hand is never public."""
    thief = {"id": "card_08", "name": "Thief", "effect": [{"kind": "discard", "who": "opponent", "count": 1}]}
    game = du_game(data={"event_cards": [thief]})
    held = [c for c in game.state.extra["deck"] if c != "card_08"][:1]
    game = edit(game, {"nation": "carthaginians", "hand": ["card_08"]}, {"nation": "romans", "hand": held})
    from pbem.kernel.orders import canonical_orders

    orders = {"game": "duel", "nation": "carthaginians", "turn": 1, "password": "pw-carthaginians",
              "rondel": {"to": "ferrum"}, "events": [{"play": "card_08"}]}
    after, _ = turns.play(game, canonical_orders(orders, DU))
    lost = DU.cards.name(held[0], "").upper()
    assert lost not in prepare(after).render("txt").decode()
    assert lost in prepare(after, viewer="romans").render("txt").decode()


# -- 4. the default draw ---------------------------------------------------------------------------


def test_the_default_draw_takes_a_card_that_can_be_played():
    """D9: without a standing ``draw`` the first card of the display whose text is entered:
    CARD 05 (not entered) lies first, ACADEMY second."""
    game = edit(du_game(), {"display": ["card_05", "academy", "card_06"]})
    assert game.state.standing["romans"].extra["draw"] == []
    _, draw = _romans_draw(game)
    assert draw["card"] == "academy"
    # no card of the display can be played: the first
    game = edit(du_game(), {"display": ["card_05", "card_06", "card_10"]})
    assert _romans_draw(game)[1]["card"] == "card_05"


# -- 5. a card's moment follows its wedge ----------------------------------------------------------


def _library_turn(gold=0, **entry):
    game = du_game(data={"event_cards": [LIBRARY]})
    game = edit(game, {"nation": "carthaginians", "hand": ["card_09"], "rondel": 2,
                       "resources": {"gold": gold, "iron": 0, "marble": 0}, "coins": 0})
    from pbem.kernel.orders import canonical_orders

    return game, canonical_orders({"game": "duel", "nation": "carthaginians", "turn": 1, "password": "pw-carthaginians",
                                   "rondel": {"to": "scientia", "pay": {"gold": 1}},
                                   "events": [{"play": "card_09", **entry}]}, DU)


def test_a_card_of_a_wedge_without_when_cannot_pay_for_reaching_the_wedge():
    """"on SCIENTIA, take 3 gold", entered without ``when``: played after the move to
    SCIENTIA (4 steps from AURUM, one paid), so its gold cannot pay that step."""
    game, orders = _library_turn()
    with pytest.raises(Refused) as info:
        turns.check(game, orders)
    assert [r.path[:len("$.rondel.pay")] for r in info.value.rejections] == ["$.rondel.pay"], \
        info.value.rejections
    game, orders = _library_turn(when="before")
    with pytest.raises(Refused) as info:
        turns.check(game, orders)
    assert "card/wrong-moment" in [r.code for r in info.value.rejections]
    game, orders = _library_turn(gold=1)
    result = turns.check(game, orders)
    card, = [e for e in result.events if e["type"] == "card"]
    assert card["when"] == "after_move"
    assert result.echo["events"] == [{"play": "card_09", "when": "after_move"}]


def test_new_and_gm_edit_say_which_moments_a_card_without_when_gets(tmp_path):
    cards_file = write_json(tmp_path / "cards.json", {"event_cards": [LIBRARY]})
    _, said = new_file(tmp_path, "--data", cards_file)
    assert "Library (card_09), entered without \"when\": played after the rondel move or after the action" in said
    path, _ = new_file(tmp_path, name="other.json")
    done = gm_edit_file(path, tmp_path, {"event_cards": [{**LIBRARY, "id": "card_10"}]})
    assert done.exit_code == 0, done.output
    assert "Library (card_10), entered without \"when\": played after the rondel move or after the action" \
        in done.stdout


# -- 6. entered cards speak their names --------------------------------------------------------------


def test_check_and_the_reports_name_an_entered_card_by_its_name(tmp_path):
    cards_file = write_json(tmp_path / "cards.json", {"event_cards": [LEVY]})
    path, _ = new_file(tmp_path, "--data", cards_file)
    assert gm_edit_file(path, tmp_path, {"nation": "carthaginians", "hand": ["card_07"]}).exit_code == 0
    orders = write_json(tmp_path / "o.json", {
        "game": "duel", "nation": "carthaginians", "turn": 1, "password": "pw-carthaginians",
        "rondel": {"to": "ferrum"}, "events": [{"play": "card_07", "at": "carthago", "unit": "legion"}]})
    done = cli_run("check", path, orders)
    assert done.exit_code == 0, done.output
    assert "play LEVY" in done.stdout and "CARD 07" not in done.stdout
    other, _ = new_file(tmp_path, "--data", cards_file, name="other.json")
    assert gm_edit_file(other, tmp_path, {"display": ["card_07", "academy", "card_06"]}).exit_code == 0
    out = tmp_path / "r"
    assert cli_run("render", other, "--entry", "1", "-f", "txt", "-o", out).exit_code == 0
    text = " ".join((out / "duel-entry-001.txt").read_text().split())
    assert "The open display set to LEVY, ACADEMY, CARD 06" in text


def test_options_name_every_field_the_order_gives():
    game = edit(du_game(data={"event_cards": [LEVY]}), {"nation": "carthaginians", "hand": ["card_07"]})
    text = DU.cards.text("card_07", game.state.table.data)
    assert "\"at\"" in text and "\"unit\"" in text


def test_history_and_show_name_an_entered_card_by_its_name(tmp_path):
    """``history --turn N`` and ``show``'s last entries tell a turn's events as ``check``
    does: LEVY, not CARD 07."""
    cards_file = write_json(tmp_path / "cards.json", {"event_cards": [LEVY]})
    path, _ = new_file(tmp_path, "--data", cards_file)
    assert gm_edit_file(path, tmp_path, {"nation": "carthaginians", "hand": ["card_07"]}).exit_code == 0
    orders = write_json(tmp_path / "o.json", {
        "game": "duel", "nation": "carthaginians", "turn": 1, "password": "pw-carthaginians",
        "rondel": {"to": "ferrum"}, "events": [{"play": "card_07", "at": "carthago", "unit": "legion"}]})
    assert cli_run("process", path, orders).exit_code == 0
    for args in (("history", path, "--turn", "1"), ("show", path)):
        done = cli_run(*args)
        assert done.exit_code == 0, done.output
        assert "play LEVY" in done.stdout and "CARD 07" not in done.stdout, args
