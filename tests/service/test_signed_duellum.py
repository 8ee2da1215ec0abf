"""Antike Duellum without a game master (issue 39 item 4): every card drawn from the game's
chance source, pending until the reveals it needs, so the deck's order never exists in
any file; two players, each in a folder of their own, exchanging nothing but the blocks
(docs/without-gm.md, "Chance")."""

from __future__ import annotations

import json

import pytest

from pbem import editions
from pbem.editions.duellum import deck, lots
from pbem.kernel.setup import SetupOptions
from pbem.service import store
from pbem.service.boards import load_board
from pbem.service.signed import chain
from pbem.service.signed.verify import verify_signed
from signedkit import Table, openssh_accepts

SEATS = ["carthaginians", "romans"]
BOARD = "duellum-rome-carthage"


class Script:
    """A chance source for the rules alone: pending for every purpose until ``open``, then
    the index ``answers`` gives (else 0); notes every question."""

    def __init__(self, answers=None):
        self.answers, self.open, self.asked = dict(answers or {}), False, []

    def below(self, n, purpose):
        self.asked.append((purpose, n))
        if not self.open:
            return None
        return self.answers.get(purpose, 0) % n


def _state(chance):
    opts = SetupOptions("demo", BOARD, SEATS, chance=chance, revision=editions.get("duellum").revision)
    state, _, _ = editions.get("duellum").setup.start(opts, load_board(BOARD))
    return state


def test_the_set_up_draws_the_display_by_lot_and_keeps_the_deck_without_an_order():
    """001 L111-113: three cards laid open; without a GM they are drawn by the set-up's lots
    (each an index among the cards left), and the deck holds the other cards sorted."""
    chance = Script({"display 0": 3, "display 1": 3, "display 2": 3})
    chance.open = True
    state = _state(chance)
    whole = sorted([*state.extra["deck"], *state.extra["display"]])
    assert state.extra["display"] == [whole[3], whole[4], whole[5]]
    assert state.extra["deck"] == sorted(state.extra["deck"]) and state.extra["secret"] == ""
    assert state.extra["pending"] == [] and state.extra["drawn"] == 0
    assert [p for p, _ in chance.asked] == ["start nation", "display 0", "display 1", "display 2"]


def test_the_replacement_of_a_pick_is_drawn_after_it_and_taken_without_replacement():
    """001 L419: the card taken is replaced at once; without a GM the replacement is pending
    (the picker cannot see it), and two draws pending at once never take the same card."""
    chance = Script()
    chance.open = True
    state = _state(chance)
    chance.open = False
    before = list(state.extra["deck"])
    events: list = []
    deck.draw(state, "romans", "test", events, chance)
    deck.draw(state, "romans", "test", events, chance)
    assert len(state.nations["romans"].extra["hand"]) == 2 and len(state.extra["display"]) == 1
    assert [(p["purpose"], p["n"]) for p in state.extra["pending"]] == [("event card 0", 22), ("event card 1", 21)]
    assert state.extra["deck"] == before  # nothing drawn yet: the picker learns nothing
    chance.open = True
    chance.answers = {"event card 0": 0, "event card 1": 0}
    lots.settle(state, events, chance)
    assert state.extra["display"][1:] == before[:2] and state.extra["pending"] == []
    assert state.extra["deck"] == before[2:]
    assert events[-1] == {"type": "refill", "display": state.extra["display"]}


def test_two_picks_in_a_row_follow_one_ranked_choice_fixed_before_either():
    """Issue 39 item 4: two picks in a row are sent as one ranked choice, the standing order
    ``draw`` (the cards to take first, in order of preference), fixed before the opponent's
    turn that makes the picks. Each pick takes the first card of the list still in the
    display; the first pick's replacement is still pending when the second is made, so no
    ranking can depend on a card the picker has seen drawn."""
    chance = Script()
    chance.open = True
    state = _state(chance)
    chance.open = False
    first, second, third = state.extra["display"]
    state.standing["romans"].extra["draw"] = [third, state.extra["deck"][0], first]
    events: list = []
    deck.draw(state, "romans", "the opponent won a personage", events, chance)
    deck.draw(state, "romans", "lost a city", events, chance)
    assert state.nations["romans"].extra["hand"] == [third, first]
    assert state.extra["display"] == [second]
    assert [p["purpose"] for p in state.extra["pending"]] == ["event card 0", "event card 1"]
    assert [e["card"] for e in events if e["type"] == "draw"] == [third, first]


def test_the_discards_join_the_deck_when_every_card_left_is_promised_and_a_card_owed_comes_from_it():
    """001 L431: the discards make a new deck when the deck runs out; a card owed while every
    card of the display is still to be drawn is drawn from the deck to the hand."""
    chance = Script()
    chance.open = True
    state = _state(chance)
    chance.open = False
    state.extra["discards"] = state.extra["deck"][:2]
    state.extra["deck"] = state.extra["deck"][2:4]
    events: list = []
    for _ in range(3):
        deck.draw(state, "romans", "test", events, chance)
    assert state.extra["display"] == [] and state.extra["shuffles"] == 1
    assert {"type": "shuffle", "cards": 2} in events
    deck.draw(state, "carthaginians", "owed", events, chance)
    assert [p["card"] for p in state.extra["pending"]] == ["display", "display", "display", "carthaginians"]
    chance.open = True
    lots.settle(state, events, chance)
    assert len(state.extra["display"]) == 3 and len(state.nations["carthaginians"].extra["hand"]) == 1
    assert state.extra["deck"] == [] and state.extra["pending"] == []
    assert events[-2]["type"] == "draw" and events[-2]["reason"] == "owed"


def test_a_card_discarded_at_random_waits_for_the_reveals():
    chance = Script()
    chance.open = True
    state = _state(chance)
    chance.open = False
    state.nation("romans").extra["hand"] = ["academy", "burglary", "fortress"]
    events: list = []
    assert lots.ask_discard(state, "romans", events, chance) and lots.ask_discard(state, "romans", events, chance)
    assert [p["n"] for p in state.extra["pending"]] == [3, 2]
    assert state.nations["romans"].extra["hand"] == ["academy", "burglary", "fortress"]
    chance.open = True
    chance.answers = {"discard 0": 1, "discard 1": 1}
    lots.settle(state, events, chance)
    assert state.nations["romans"].extra["hand"] == ["academy"]
    assert state.extra["discards"] == ["burglary", "fortress"]
    masked = editions.get("duellum").secrets.mask_event(events[-1], "carthaginians")
    assert masked == {"type": "discarded", "nation": "romans", "random": True}


def test_a_duellum_game_by_two_folders_exchanging_only_blocks(tmp_path):
    """Issue 39 item 4, "Must show": 30 turns of Duellum without a GM; every draw asked is
    recorded by its entry and made from the reveals after it; both folders end with the
    same bytes and state hash; ``verify`` passes; OpenSSH accepts every entry; no file of
    either folder holds a deck order (the deck is kept sorted, the secret empty)."""
    table = Table(tmp_path / "players", seats=SEATS, edition="duellum", board=BOARD)
    for _ in range(30):
        if table.game().state.status.winner is not None:
            break
        table.play(hours=5)
    _same_game_everywhere(table, tmp_path)


RAIDS = {"event_cards": [{"id": f"card_0{i}", "name": f"Raid {i}", "text": "The opponent discards a card at random.",
                          "effect": [{"kind": "discard", "count": 1, "who": "opponent"}]} for i in (5, 6, 7, 8)]}
"""Four cards whose text the group enters in its proposal (as a GM's ``new --data``): each
makes the opponent discard a card at random, so the bots play cards and a card is drawn
from a hand by lot."""


@pytest.mark.slow
def test_a_whole_duellum_game_by_two_folders_exchanging_only_blocks(tmp_path):
    """Issue 39, "Must show": a whole Duellum game without a GM, played to its winner by two
    folders that exchange only the blocks, with every check of the 30-turn game above. With
    four cards entered (:data:`RAIDS`) the bots play cards, so on the way cards are
    discarded at random from a hand, the deck runs out and the discards join it (001 L431),
    each made from the reveals the same way in both folders. (17 s here.)"""
    table = Table(tmp_path / "players", seats=SEATS, edition="duellum", board=BOARD, data=RAIDS)
    for _ in range(400):
        if table.game().state.status.winner is not None:
            break
        table.play(hours=5)
    final = table.game()
    assert final.state.status.winner is not None
    kinds = [ev["type"] for e in final.history for ev in e.get("events", ())]
    assert kinds.count("card") > 0 and kinds.count("discarded") > 0
    assert kinds.count("shuffle") > 0 and final.state.extra["shuffles"] == kinds.count("shuffle")
    purposes = [d["purpose"] for e in final.history for d in e.get("draws", ())]
    assert any(p.startswith("discard ") for p in purposes)
    _same_game_everywhere(table, tmp_path)


def _same_game_everywhere(table: Table, tmp_path) -> None:
    files = table.files()
    assert len(set(files.values())) == 1
    assert len({chain.state_hash(store.load_game(f.path)) for f in table.folders.values()}) == 1
    final = table.game()
    asked = [d["purpose"] for e in final.history for d in e.get("draws", ())]
    assert any(p.startswith("event card ") for p in asked), "no card was drawn during play"
    # each draw asked once, in order, numbered on across cards drawn and cards discarded
    assert [p.rsplit(" ", 1) for p in asked] == [[p.rsplit(" ", 1)[0], str(i)] for i, p in enumerate(asked)]
    assert {p.rsplit(" ", 1)[0] for p in asked} <= {"event card", "discard"}
    assert final.state.extra["drawn"] == len(asked)
    # a draw waits for the reveals after it: only a game that has ended may leave some unmade
    assert not final.state.extra["pending"] or final.state.status.winner is not None
    verify_signed(final)
    check = tmp_path / "openssh"
    check.mkdir()
    for seat in SEATS:
        openssh_accepts(final, f"join:{seat}", check)
        openssh_accepts(final, f"reveal:{seat}", check)
    for i in range(1, len(final.history)):
        openssh_accepts(final, str(i), check)
    for folder in table.folders.values():
        for path in folder.path.parent.iterdir():
            if path.suffix == ".json":
                text = json.loads(path.read_text())
                assert '"secret": ""' in json.dumps(text) or "state" not in text, path
    assert final.state.extra["deck"] == sorted(final.state.extra["deck"])
