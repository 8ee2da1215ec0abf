"""An edition is a small core composed of facets (issue 37, item 1): each facet a protocol
with the shared rule as its default, or ``None`` where the edition lacks the feature; the
facets checked against each other when an edition is registered (:meth:`Edition.problems
<pbem.kernel.edition.Edition.problems>`); a facet imported only when it is first asked for.
"""

from __future__ import annotations

import sys
from types import MappingProxyType

import pytest

from pbem import editions
from pbem.kernel.edition import Edition, Extras, facet
from pbem.kernel.facets import SharedForces, SharedPhrases, SharedSetUp, SharedTurn
from pbem.kernel.protocols import Cards, Forces, OrderLanguage, Phrases, Pieces, Secrets, TurnRules

CLASSIC = editions.get("classic")
A2 = editions.get("antike2")
DU = editions.get("duellum")


def variant(**attrs):
    """A variant of classic with ``attrs`` changed (a test edition, never registered)."""
    return type("Variant", (type(CLASSIC),), {"id": "variant", "name": "Variant (test)", "aliases": (), **attrs})()


def test_the_core_is_identity_data_and_facets():
    """The core's members: identity and data (24), twelve facets and five questions of its
    own, where ``Edition`` had 95 members before (42 of them hooks that did nothing by
    default)."""
    members = {n for n in vars(Edition) if not n.startswith("_")} | set(Edition.__annotations__)
    facets = set(Edition.FACETS)
    own = {"FACETS", "rules_for", "nation_name", "personage_label", "moves_as", "problems"}
    data = members - facets - own
    assert len(facets) == 12 and len(data) == 24, sorted(data)


def test_a_missing_feature_is_none_and_a_shared_rule_is_the_default():
    assert CLASSIC.cards is None and CLASSIC.secrets is None and CLASSIC.language is None
    assert CLASSIC.edits is None and CLASSIC.pieces is None and CLASSIC.lines is None and CLASSIC.strategy is None
    assert type(CLASSIC.forces) is SharedForces and isinstance(CLASSIC.turn, SharedTurn)
    assert isinstance(A2.setup, SharedSetUp) and isinstance(DU.phrases, SharedPhrases)
    assert A2.cards is None and A2.secrets is None and A2.edits is not None
    for edition in (CLASSIC, A2, DU):
        assert isinstance(edition.turn, TurnRules) and isinstance(edition.forces, Forces)
        assert isinstance(edition.phrases, Phrases)
    assert isinstance(DU.cards, Cards) and isinstance(DU.secrets, Secrets) and isinstance(DU.pieces, Pieces)
    assert isinstance(DU.language, OrderLanguage)


def test_a_facet_is_made_once_for_its_edition():
    assert DU.turn is DU.turn and DU.turn.edition is DU
    assert type(DU).__dict__["turn"].built(DU) is not DU.turn  # a new one only when asked for


def test_a_facet_named_by_its_module_is_imported_when_first_asked_for():
    import subprocess

    code = ("import sys; from pbem import editions; du = editions.get('duellum'); "
            "before = 'pbem.editions.duellum.strategy' in sys.modules; du.strategy; "
            "print(before, 'pbem.editions.duellum.strategy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["False", "True"], done.stderr


def test_the_shipped_editions_fit_together():
    for edition in (CLASSIC, A2, DU):
        assert edition.problems() == []


def test_an_own_order_key_needs_words_in_the_order_language():
    odd = variant(order_keys=(*CLASSIC.order_keys, "tribute"))
    assert odd.problems() == ["order key 'tribute' has no words in the order language (language.order_words)"]


def test_an_own_event_kind_needs_a_sentence():
    odd = variant(event_kinds=MappingProxyType({"tribute": MappingProxyType({"nation": "a nation of this game"})}))
    assert odd.problems() == ["event kind 'tribute' has no sentence (phrases.event_kinds)"]


def test_an_extra_state_key_must_be_in_the_game_schema():
    odd = variant(extras=Extras(nation={"all8_bonus": False, "gold": 0}, status={"all_awarded_turn": None},
                                state={"omen": None}, standing={}))
    assert odd.problems() == ["extra nation key 'gold' is not in the game schema (nation_state)",
                              "extra state key 'omen' is not in the game schema (state)"]


def test_cards_need_a_card_form_in_the_order_language():
    odd = variant(cards=facet(lambda edition: DU.cards))
    assert odd.problems() == ["event cards, but no order word of the form 'card' (language.order_words)"]
    spoken = variant(cards=facet(lambda edition: DU.cards), language=facet(lambda edition: DU.language))
    assert spoken.problems() == []


def test_secrets_need_a_player_view():
    class Half:
        words = "secrets"

        def player_view(self, state, nation):
            return state

    odd = variant(secrets=facet(lambda edition: Half()))
    assert odd.problems() == ["secrets, but no mask_event (secrets.mask_event)",
                              "secrets, but no mask_edit (secrets.mask_edit)",
                              "secrets, but no determinise (secrets.determinise)"]


def test_an_edition_that_does_not_fit_is_not_registered():
    odd = variant(order_keys=(*CLASSIC.order_keys, "tribute"))
    with pytest.raises(ValueError, match="order key 'tribute'"):
        editions.register(odd)
    with pytest.raises(editions.UnknownEdition):
        editions.get("variant")


def test_special_units_move_as_the_edition_says():
    assert DU.moves_as("admiral") == "galley" and DU.moves_as("commander") == "legion"
    assert CLASSIC.moves_as("admiral") == "admiral" and DU.moves_as("legion") == "legion"
