"""Antike Duellum's event deck as printed (issue 28; docs/duellum.md, "Event cards").

- 001 L67-71, L111-113: a game of revision 2 shuffles the 25 event cards and the 2 blank ones
  (a game set up now, of revision 3, the 25 and a blank one once written:
  tests/test_duellum_table.py); the cards whose text nobody entered are labelled in every
  view and cannot be played;
- 001 L419, L431: the open display always shows three cards while any remain, and when the
  draw deck runs out the discards are shuffled into a new one by the game's secret, so a
  card owed is never lost while a card is left: over more than 25 draws;
- a game set up before (revision 1, recorded in the game) keeps its deck of the cards whose
  effect was known and its old display, so that it replays as it was played.
"""

from __future__ import annotations

import json
from pathlib import Path
from collections import Counter

import pytest

from conftest import edit, new_game
from pbem import editions
from pbem.editions.duellum import cards, deck
from pbem.errors import InconsistentGame
from pbem.kernel.setup import SetupOptions
from pbem.play.selfplay import conservation_problems
from pbem.service.boards import load_board
from pbem.service.replay import verify
from pbem.service.store import game_from_data, game_text
from pbem.service.view import show_json

DU = editions.get("duellum")
BOARD = load_board("duellum-rome-carthage")
FRONT = ["carthaginians", "romans"]
PRINTED = ["fortress", "earthquake", "burglary", "academy", *(f"card_{i:02d}" for i in range(5, 26)),
           "blank_1", "blank_2"]
WRITTEN_BLANKS = {"event_cards": [{"id": b, "name": f"Ours {b[-1]}", "effect": [{"kind": "gain", "coins": 1}]}
                                  for b in ("blank_1", "blank_2")]}
"""The two blank cards written by the GM (``new --data``): from revision 3 they join the 25."""


def du_game(revision=None, seed="deck", data=None):
    opts = SetupOptions(game_id="deck", board=BOARD.id, nations=FRONT, first="carthaginians", seed=seed,
                        data=dict(data or {}), revision=revision)
    return new_game(opts, BOARD, {n: f"pw-{n}" for n in FRONT}, DU)[0]


def held_everywhere(st) -> Counter:
    return Counter([*st.extra["deck"], *st.extra["display"], *st.extra["discards"],
                    *(c for ns in st.nations.values() for c in ns.extra["hand"])])


def test_a_game_of_revision_2_shuffles_the_deck_as_printed_and_records_its_revision():
    """Revision 2 (issue 28): all 27 cards, the blank ones too; a new game is of revision 3
    (the 25, tests/test_duellum_table.py), and with its blanks written it holds the 27."""
    game = du_game(revision=2)
    st = game.state
    assert st.table.revision == 2 < DU.revision
    assert held_everywhere(st) == Counter(PRINTED) and len(PRINTED) == 27
    assert len(st.extra["display"]) == 3 and len(st.extra["deck"]) == 24
    data = json.loads(game_text(game))
    assert data["rules"]["revision"] == 2 and data["history"][0]["setup"]["revision"] == 2
    verify(game, data)
    written = du_game(data=WRITTEN_BLANKS).state
    assert written.table.revision == 3 and held_everywhere(written) == Counter(PRINTED)


def test_a_game_of_revision_1_keeps_the_cards_whose_effect_was_known():
    """What a game set up before records (no revision): its deck as it was set up."""
    old = du_game(revision=1)
    assert old.state.table.revision == 1
    assert held_everywhere(old.state) == Counter(["fortress", "earthquake", "burglary", "academy"])
    data = json.loads(game_text(old))
    assert "revision" not in data["rules"] and "revision" not in data["history"][0]["setup"]
    verify(old, data)


def test_a_game_of_a_revision_this_release_does_not_know_is_refused():
    data = json.loads(game_text(du_game()))
    data["rules"]["revision"] = 4
    with pytest.raises(InconsistentGame, match="revision 4"):
        game_from_data(data, "future.json")


def test_every_view_labels_a_card_whose_text_is_not_entered():
    game = du_game()
    shown = show_json(game)
    assert set(shown["cards"]) == set(PRINTED) - {"blank_1", "blank_2"}  # an unwritten blank is in no deck
    assert shown["cards"]["fortress"] == {"name": "Fortress", "text": cards.catalogue("")["fortress"]["text"]}
    assert shown["cards"]["card_05"]["label"] == "text not entered — the GM enters it from the printed card"
    assert shown["cards"]["card_25"]["label"] == cards.NOT_ENTERED
    assert show_json(du_game(revision=2))["cards"]["blank_2"]["label"] == cards.NOT_ENTERED
    assert DU.cards.note("card_17", "") == cards.NOT_ENTERED and DU.cards.note("academy", "") == ""
    entered = du_game(data={"event_cards": [{"id": "card_05", "name": "Harvest", "text": "Take 2 gold.",
                                            "effect": {"kind": "gain", "chips": {"gold": 2}}}]})
    assert "label" not in show_json(entered)["cards"]["card_05"]


def _draw_and_play(game, draws: int):
    """``draws`` cards drawn alternately by the two nations; every third draw, the drawer
    plays (discards) the oldest card of its hand. After each step: the display shows three
    cards while three are left outside the hands, no card is missed while one is left, and
    every card of the deck is in exactly one place."""
    st = game.state.copy()
    events: list[dict] = []
    for i in range(draws):
        nation = FRONT[i % 2]
        left = len(st.extra["deck"]) + len(st.extra["discards"]) + len(st.extra["display"])
        before = len(events)
        deck.draw(st, nation, "test", events)
        new = events[before:]
        if left:
            assert not any(e["type"] == "draw-missed" for e in new), (i, new)
        assert len(st.extra["display"]) == min(3, left - 1 if left else 0), (i, st.extra)
        if i % 3 == 2:
            held = st.nation(nation).extra
            cid, held["hand"] = held["hand"][0], held["hand"][1:]
            deck.discard(st, cid, events)
            outside = len(st.extra["deck"]) + len(st.extra["discards"]) + len(st.extra["display"])
            assert len(st.extra["display"]) == min(3, outside)
        assert held_everywhere(st) == Counter(cards.deck_of(st.table))
    return st, events


def test_more_than_25_draws_keep_the_display_at_three_and_reshuffle_the_discards():
    st, events = _draw_and_play(du_game(data=WRITTEN_BLANKS), 40)
    kinds = Counter(e["type"] for e in events)
    assert kinds["draw"] == 40 and kinds["shuffle"] >= 1 and not kinds["draw-missed"]
    assert st.extra["shuffles"] == kinds["shuffle"]


def test_a_card_is_missed_only_when_every_card_is_held():
    st = du_game(data=WRITTEN_BLANKS).state.copy()
    events: list[dict] = []
    for i in range(29):
        deck.draw(st, FRONT[i % 2], "test", events)
    assert sum(e["type"] == "draw" for e in events) == 27
    assert [e["type"] for e in events[-2:]] == ["draw-missed", "draw-missed"]
    assert st.extra["display"] == [] and st.extra["deck"] == [] and st.extra["discards"] == []
    # a card played comes back into the display at once, through a new deck
    held = st.nation("romans").extra
    cid, held["hand"] = held["hand"][0], held["hand"][1:]
    deck.discard(st, cid, events)
    assert [e["type"] for e in events[-2:]] == ["shuffle", "refill"]
    assert st.extra["display"] == [cid] and events[-1]["display"] == [cid]


def test_revision_1_keeps_its_shrinking_display():
    """A game set up before: the display shrinks when the deck is empty, and a card owed from
    an empty display is missed although discards wait (as such games were played)."""
    st = du_game(revision=1).state.copy()
    events: list[dict] = []
    for i in range(4):
        deck.draw(st, FRONT[i % 2], "test", events)
    assert [len(e["display"]) for e in events if e["type"] == "draw"] == [3, 2, 1, 0]
    held = st.nation("carthaginians").extra
    cid, held["hand"] = held["hand"][0], held["hand"][1:]
    deck.discard(st, cid, events)
    assert st.extra["display"] == [] and st.extra["discards"] == [cid]
    deck.draw(st, "romans", "test", events)
    assert events[-1]["type"] == "draw-missed"


def test_the_reshuffled_order_comes_from_the_secret_alone():
    """The new deck is shuffled by the game's secret (which only the GM's file holds) and
    the number of shuffles; the discards are sorted first, so the order in which they were
    played does not matter either; a player's copy (secret "?") shuffles nothing it could
    read."""
    discards = ["card_07", "academy", "card_19", "fortress", "blank_1"]
    one = cards.shuffled(sorted(discards), "a" * 64, 1)
    assert cards.shuffled(sorted(reversed(discards)), "a" * 64, 1) == one
    assert cards.shuffled(sorted(discards), "b" * 64, 1) != one or cards.shuffled(sorted(discards), "c" * 64, 1) != one
    assert cards.shuffled(sorted(discards), cards.HIDDEN, 1) == [cards.HIDDEN] * 5


def test_a_gm_edit_sets_the_display_from_the_deck_and_discards_the_cards_it_replaces():
    game = du_game()
    before = list(game.state.extra["display"])
    named = ["card_05", "academy"] if "academy" in before else ["card_05", "burglary"]
    assert "card_05" not in before
    after = edit(game, {"display": named})
    st = after.state
    assert st.extra["display"] == named
    assert st.extra["discards"] == [c for c in before if c not in named] and "card_05" not in st.extra["deck"]
    assert held_everywhere(st) == Counter(PRINTED[:25])
    assert not conservation_problems(after)


def test_the_duellum_game_of_an_earlier_release_keeps_its_deck_and_replays():
    """tests/data/legacy/duellum-82.json (written before revisions were recorded): revision 1,
    its deck of the four known cards and the two its GM entered, its events of the first
    kit; it verifies, and ``show --json`` labels none of its cards."""
    data = json.loads((Path(__file__).parent / "data" / "legacy" / "duellum-82.json").read_text())
    game = game_from_data(data, "duellum-82.json")
    assert game.state.table.revision == 1 and "revision" not in data["rules"]
    assert Counter(cards.deck_of(game.state.table)) == Counter(
        ["fortress", "earthquake", "burglary", "academy", "card_05", "card_06"])
    assert held_everywhere(game.state) == Counter(cards.deck_of(game.state.table))
    assert not any("label" in c for c in show_json(game)["cards"].values())
    played = [e for entry in data["history"] for e in entry.get("events", []) if e["type"] == "card"]
    assert played and not any("effects" in e for e in played)
    verify(game, data)


GOOD_ENTRIES = [
    {"id": "card_05", "name": "Harvest", "text": "Take 2 gold and a coin.",
     "effect": [{"kind": "gain", "chips": {"gold": 2}, "coins": 1}]},
    {"id": "card_06", "effect": [{"kind": "pay", "who": "opponent", "coins": 1, "to": "player",
                                  "per": {"count": "cities", "of": "opponent", "divided_by": 3}}]},
    {"id": "card_07", "when": ["after"], "effect": [{"kind": "arm", "unit": "any", "count": 2, "from": "supply"}]},
    {"id": "card_08", "effect": [{"kind": "remove", "piece": "unit", "whose": "opponent"}]},
    {"id": "card_09", "wedge": "scientia", "effect": [{"kind": "move_stone", "whose": "opponent", "steps": 3}]},
    {"id": "card_10", "when": ["before"], "effect": [{"kind": "free_steps", "steps": 1}]},
    {"id": "card_11", "when": ["opponent_conquest"], "effect": [{"kind": "defence", "change": 2},
                                                                {"kind": "draw", "count": 1}]},
    {"id": "card_12", "count": 0},
    {"id": "card_13", "effect": {"kind": "opponent_pays", "chips": {"iron": 1}}},
    {"id": "blank_1", "name": "Our card", "effect": [{"kind": "discard", "who": "self", "count": 1},
                                                     {"kind": "draw", "count": 2}]},
]
BAD_ENTRIES = [
    {"id": "card_05", "effect": [{"kind": "steal"}]},
    {"id": "card_05", "effect": [{"kind": "gain", "chips": {"silver": 1}}]},
    {"id": "card_05", "effect": [{"kind": "gain", "coins": 1, "per": {"count": "legions"}}]},
    {"id": "card_05", "count": 28},
    {"id": "card_05", "when": ["before", "opponent_conquest"], "effect": [{"kind": "defence", "change": 1}]},
    {"id": "card_05", "effect": [{"kind": "remove", "piece": "temple"}]},
    {"id": "card_05", "effect": [{"kind": "defence", "change": 0}]},
    {"id": "card_05", "effect": []},
    {"id": "Card 5"},
    {"id": "card_05", "colour": "red"},
]
CHECKER_ONLY = [  # what a schema does not say: a step that does not fit its card's moments
    {"id": "card_05", "effect": [{"kind": "free_steps", "steps": 1}]},
    {"id": "card_05", "effect": [{"kind": "defence", "change": -1}]},
    {"id": "card_05", "when": ["opponent_conquest"], "effect": [{"kind": "arm", "unit": "legion"}]},
    {"id": "card_05", "when": ["opponent_conquest"], "effect": [{"kind": "defence", "change": -1}]},
    {"id": "card_05", "effect": [{"kind": "gain"}]},
]


def test_the_catalogue_and_the_cards_a_gm_enters_are_schema_checked():
    """The vocabulary of event cards is a schema (schemas/duellum-event-cards.schema.json):
    the shipped catalogue matches it, and the entries a GM gives (new --data, gm-edit) are
    accepted or refused alike by the schema and by the referee's own check, which also says
    what a schema cannot (a step that does not fit the moments of its card)."""
    from jsonschema import Draft202012Validator

    root = Path(__file__).resolve().parent.parent
    schema = json.loads((root / "schemas" / "duellum-event-cards.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert not list(Draft202012Validator(schema).iter_errors(json.loads(cards.CATALOGUE.read_text(encoding="utf-8"))))
    card_schema = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/card"})
    wedges = DU.rondel.names
    for entry in GOOD_ENTRIES:
        assert not list(card_schema.iter_errors(entry)), entry
        assert cards.card_problems([entry], wedges) == [], entry
    for entry in BAD_ENTRIES:
        assert list(card_schema.iter_errors(entry)), entry
        assert cards.card_problems([entry], wedges), entry
    for entry in CHECKER_ONLY:
        assert cards.card_problems([entry], wedges), entry
    for card in cards.printed():
        assert cards.card_problems([card], wedges) == [], card["id"]


def test_the_reports_tell_the_gm_edits_of_the_display_and_of_the_cards_entered():
    from pbem.report.text import edit_lines

    # the game's edition is handed down: the reports never ask "the editions loaded"
    assert edit_lines([{"display": ["fortress", "card_05"]}, {"event_cards": [{"id": "card_07", "name": "Levy"},
                                                                               {"id": "blank_1"}]}],
                      edition=DU) == [
        "The open display set to FORTRESS, CARD 05 (the cards it held go to the discards)",
        "Event cards entered from the printed cards: Levy, BLANK 1"]
