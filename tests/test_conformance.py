"""The edition conformance kit (:mod:`pbem.conformance`, issue 37 item 5) on every shipped
edition and on both test editions, and proof that each of its checks can fail.

The default set plays a short game of each edition (a few turns, every check but the win);
the whole games to a win, by the random and the greedy bots, are ``slow`` (CI runs them).
The kit replaces the per-edition copies of these checks: Quadriga's random game to a win
and its check that no event is told as raw data.
"""

from __future__ import annotations

from types import MappingProxyType

import pytest

from pbem import editions
from pbem.conformance import check_edition, secret_problems, view_of
from pbem.kernel.edition import facet
from pbem.kernel.facets import SharedPhrases
from pbem.play.selfplay import bot_turn, start_game

EDITIONS = ("antike", "antike2", "duellum", "ninefold", "fourth")


def edition_of(name: str):
    """A shipped edition from the registry; a test edition from its module, not registered
    (the kit registers it for its checks and forgets it after)."""
    if name == "ninefold":
        from tests.editions.ninefold import EDITION
        return EDITION
    if name == "fourth":
        from tests.editions.fourth import EDITION
        return EDITION
    return editions.get(name)


@pytest.mark.parametrize("name", EDITIONS)
def test_a_short_game_of_every_edition_conforms(name):
    """Twelve turns of the greedy bots: the invariants, the schema, the events of the
    edition's own told, its order files through text orders and back, the secrets kept,
    the replay."""
    edition = edition_of(name)
    found = check_edition(edition, modes=("greedy",), max_turns=12)
    assert found.problems == []
    assert found.games == 1 and found.turns == 12
    if edition.event_kinds:
        assert sum(found.events.values()) > 0, found
    if len(edition.order_keys) > len(editions.get("classic").order_keys):
        assert found.round_trips > 0, found
    if name == "fourth":
        with pytest.raises(editions.UnknownEdition):
            editions.get("fourth")  # registered for the checks only


@pytest.mark.slow
@pytest.mark.parametrize("name", EDITIONS)
def test_every_edition_is_played_to_a_win_and_conforms(name):
    """Random and greedy bots, each to a win; every own event kind the games reached told,
    every own order file read back from text."""
    edition = edition_of(name)
    found = check_edition(edition)
    assert found.problems == []
    assert found.games == 2
    if name in ("duellum", "fourth"):
        assert found.round_trips > 0 and sum(found.events.values()) > 0


# -- each check can fail ----------------------------------------------------------------------

def variant(base, **attrs):
    """``base`` with ``attrs`` changed, played on its boards."""
    return type("Broken", (type(base),), {"id": "broken", "name": "Broken (test)", "aliases": (),
                                          "board_editions": (base.id,), **attrs})()


def test_an_edition_that_does_not_fit_together_is_not_played():
    odd = variant(editions.get("classic"), order_keys=(*editions.get("classic").order_keys, "tribute"))
    found = check_edition(odd, max_turns=1)
    assert found.games == 0 and found.problems == [
        "edition: order key 'tribute' has no words in the order language (language.order_words)"]


def test_an_event_told_as_raw_data_is_found():
    """Antike II without its phrases: BELLONA's events are told as their type and data."""
    a2 = editions.get("antike2")

    class Mute(SharedPhrases):
        event_kinds = frozenset({"bellona"})  # declared, but not told

    found = check_edition(variant(a2, phrases=facet(Mute), event_kinds=a2.event_kinds), modes=("random",),
                          max_turns=2)
    assert found.problems and all("the event 'bellona' has no sentence" in p for p in found.problems)


def test_a_broken_conservation_law_is_found():
    class Leaky(type(editions.get("classic").turn)):
        def end_of_turn(self, t):
            super().end_of_turn(t)
            t.state.bank.coins += 1  # a coin out of nowhere

    found = check_edition(variant(editions.get("classic"), turn=facet(Leaky)), modes=("random",), max_turns=3)
    assert len(found.problems) == 1 and "31 coins in the game exceed 30" in found.problems[0]


def test_a_secret_in_a_public_output_is_found(monkeypatch):
    """An edition whose status block lists every hand (as the reader may see them: the
    other's as "?") conforms; reports that forget to take the reader's view of the game show
    the real hands, and the kit finds that each differs from the report of the view."""
    from pbem.report import views

    du = editions.get("duellum")

    class Hands(type(du.phrases)):
        def status_lines(self, state, words):
            return [*super().status_lines(state, words),
                    *({"label": n, "value": " ".join(state.nations[n].extra["hand"])} for n in state.table.seats)]

    shown = variant(du, phrases=facet(Hands))
    editions.register(shown)
    try:
        game, plain = start_game("leak", ["carthaginians", "romans"], "leak", "broken", du.default_board)
        while not any(game.state.nations[n].extra["hand"] for n in game.seats):  # until a card is held
            game, _ = bot_turn(game, plain, "greedy")
        assert secret_problems(game) == []
        assert view_of(game, None).state.nations["romans"].extra["hand"] == \
            ["?"] * len(game.state.nations["romans"].extra["hand"])
        monkeypatch.setattr(views, "seen_by", lambda game, viewer=None: game)
        leaks = secret_problems(game)
    finally:
        editions.forget("broken")
    assert "the report (txt) for the public shows what the public may not see" in leaks
    holders = [n for n in game.seats if game.state.nations[n].extra["hand"]]
    others = [n for n in game.seats if any(h != n for h in holders)]
    assert others and all(f"the report (txt) for the {n} shows what the {n} may not see" in leaks for n in others)


def test_an_order_file_that_text_orders_cannot_write_is_found():
    """An edition whose own order words lose a field: its orders do not read back."""
    du = editions.get("duellum")
    words = dict(du.language.order_words)
    words["recruit"] = MappingProxyType({**words["recruit"], "form": "cities", "one": "recruit", "many": "recruits",
                                         "example": "recruit roma"})
    language = type("Lossy", (), {"order_words": MappingProxyType(words), "standing_words": du.language.standing_words})
    found = check_edition(variant(du, language=facet(lambda edition: language())), modes=("greedy",), max_turns=16)
    assert any("text orders" in p or "read back" in p for p in found.problems), found.problems
