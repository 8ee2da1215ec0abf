"""An edition: a small core (identity and data) composed of facets.

An edition (a built-in one, or a variant defined elsewhere) is one object: its identity,
its rule table, its rondel, its vocabulary with display names, the state it keeps beside the
shared fields, and its **facets**, each saying what one part of the referee asks of it
(docs/architecture.md, "Adding an edition", has the table):

``setup``, ``turn``, ``forces``, ``phrases``
    set-up, the steps of a turn, units, the reports' words: every edition has them; the
    shared rule is the default (:mod:`pbem.kernel.facets`);
``schema``, ``pieces``, ``secrets``, ``cards``, ``edits``, ``lines``, ``language``, ``strategy``
    schema parts, the pieces it keeps and their checks, what it keeps from a player, event
    cards, GM edits, command-line lines, text-order words and the bots' play of its own:
    ``None`` where the edition has none, so a caller asks ``if edition.cards:``.

Each facet is a :class:`typing.Protocol` (:mod:`pbem.kernel.protocols`,
:class:`pbem.kernel.setup.SetUpRules`), so each layer types against the facets it uses. The
kernel is handed an edition and asks it; it never imports one. Editions are found by name in
the registry (:mod:`pbem.editions`), like python-chess finds a variant.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from pbem.kernel.facets import SharedForces, SharedPhrases, SharedSetUp, SharedTurn
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.protocols import NO_EXTRAS, Extras, NationInfo  # described there; offered here too
from pbem.kernel.rejections import catalogue
from pbem.kernel.vocab import ACTION_KEYS

if TYPE_CHECKING:
    from pbem.kernel.protocols import (
        BotStrategy,
        Cards,
        CommandLines,
        Forces,
        GMEdits,
        OrderLanguage,
        Phrases,
        Pieces,
        SchemaParts,
        Secrets,
        TurnRules,
    )
    from pbem.kernel.rondel import Rondel
    from pbem.kernel.rules import RuleTable
    from pbem.kernel.setup import SetUpRules
    from pbem.kernel.state import Table

__all__ = ["Edition", "Extras", "NationInfo", "NO_EXTRAS", "facet"]

F = TypeVar("F", covariant=True)


class facet(Generic[F]):  # noqa: N801 (used like a function in a class body, as ``property`` is)
    """A facet of an edition's class: ``turn = facet(MyTurn)``. On first use the
    facet is made for the edition (``make(edition)``) and kept on it. ``make`` may be a
    ``"module:name"`` string, imported only then: a facet that only some commands need
    (a bot's strategy, the words of text orders) costs nothing to the others."""

    def __init__(self, make: Callable[[Any], F] | str) -> None:
        self.make = make
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, edition: None, owner: type) -> facet[F]: ...

    @overload
    def __get__(self, edition: Edition, owner: type) -> F: ...

    def __get__(self, edition: Edition | None, owner: type) -> facet[F] | F:
        if edition is None:
            return self
        value = self.built(edition)
        edition.__dict__[self.name] = value
        return value

    def built(self, edition: Edition) -> F:
        """The facet made for ``edition`` (not kept)."""
        make = self.make
        if isinstance(make, str):
            module, _, name = make.partition(":")
            make = getattr(importlib.import_module(module), name)
        return make(edition)


def absent(edition: Edition) -> None:
    """The facet of a feature the edition does not have."""
    return None


class Edition:
    """One edition of the game. Subclasses set the attributes and give the facets that differ."""

    # -- identity ----------------------------------------------------------------------

    id: str
    """The edition's id in game files (``rules.edition``)."""
    name: str
    """Its printed name."""
    aliases: tuple[str, ...] = ()
    """Other names ``new --edition`` accepts."""
    revision: int = 1
    """The revision of the edition's rules that ``new`` sets a game up under, recorded in the
    game (``rules.revision``). Raised when a rule changes what an order file of an older
    game would do: the edition then asks :attr:`Table.revision
    <pbem.kernel.state.Table.revision>` which rule a game plays by, so every older game
    replays and plays on as it was set up (docs/architecture.md, "Game files")."""

    # -- data --------------------------------------------------------------------------

    rules: RuleTable
    rondel: Rondel
    nations: Mapping[str, NationInfo]
    """Every nation the edition has, in the order its vocabulary lists them."""
    knowhows: Mapping[str, str]
    """Know-how id -> display name, in display order."""
    personages: Mapping[str, str]
    """Personage id -> display name, in display order."""
    variants: Mapping[str, str]
    """Variant id -> what it changes, in one line."""
    default_bonus_stack: tuple[str, ...] = ()
    """Standing order D5: which personage stack to take first on a tie (all of them; empty:
    the personages in display order)."""
    order_keys: tuple[str, ...] = ORDER_KEYS
    """The keys of a canonical order file, in the order they are written."""
    action_keys: tuple[str, ...] = ACTION_KEYS
    """Order keys that carry a wedge's action in this edition (each wedge takes some)."""
    turn_keys: tuple[str, ...] = ()
    """Order keys of this edition that belong to a rondel turn without being a wedge's
    action (the playing of event cards, ``events``): refused in a standing-orders-only file."""
    special_units: Mapping[str, str] = MappingProxyType({})
    """Units of the edition's own beyond legions and galleys (a variant's special units)
    -> the unit type each moves as (:meth:`moves_as`)."""
    event_kinds: Mapping[str, Mapping[str, str]] = MappingProxyType({})
    """Kinds of event of the edition's own -> their fields, as :data:`pbem.kernel.events.EVENTS`
    describes the shared ones (a kind not described needs only its ``type``)."""
    codes: Mapping[str, str] = MappingProxyType({})
    """Rejection codes of the edition's own rules, with their message templates."""
    wording: Mapping[str, str] = MappingProxyType({})
    """The edition's own message templates for codes of the kernel's catalogue
    (:data:`pbem.kernel.rejections.CODES`): the same code, with values the kernel passes."""
    extras: Extras = NO_EXTRAS
    """The state the edition keeps beside the shared fields, each key with its default."""
    players: tuple[int, int] = (3, 6)
    """The fewest and most nations a game seats."""
    default_board: str = "antike-east"
    """The shipped board ``new`` plays on when no ``--board`` is given."""
    board_editions: tuple[str, ...] = ()
    """Other editions whose boards this one is played on (a variant edition plays on the
    boards of the edition it varies); its own boards always."""
    board_features: frozenset[str] = frozenset()
    """What this edition's boards may have beyond provinces with a printed resource:
    ``choice`` (the founder picks the resource), ``none`` (no city site), ``temple``
    (neutral temples at set-up), ``double`` (regions that count double for navigators)."""
    selfplay_lineups: Mapping[int, tuple[str, ...]] = MappingProxyType({})
    """The nations a self-play game on :attr:`default_board` seats, by their number (one
    entry: the edition seats that many only); empty for the shared lineups of the East
    board (:data:`pbem.play.selfplay.LINEUPS`)."""

    # -- facets ------------------------------------------------------------------------

    setup: facet[SetUpRules] = facet(SharedSetUp)
    turn: facet[TurnRules] = facet(SharedTurn)
    forces: facet[Forces] = facet(SharedForces)
    phrases: facet[Phrases] = facet(SharedPhrases)
    schema: facet[SchemaParts | None] = facet(absent)
    pieces: facet[Pieces | None] = facet(absent)
    secrets: facet[Secrets | None] = facet(absent)
    cards: facet[Cards | None] = facet(absent)
    edits: facet[GMEdits | None] = facet(absent)
    lines: facet[CommandLines | None] = facet(absent)
    language: facet[OrderLanguage | None] = facet(absent)
    strategy: facet[BotStrategy | None] = facet(absent)

    FACETS = ("setup", "turn", "forces", "phrases", "schema", "pieces", "secrets", "cards", "edits", "lines",
              "language", "strategy")
    """The facets, by name."""

    def __repr__(self) -> str:
        return f"<Edition {self.id}>"

    # -- the core's own questions ------------------------------------------------------

    def rules_for(self, table: Table) -> RuleTable:
        """The rule table of one game: the edition's, changed by the game's variants where
        a variant changes a number (a player holding two nations may double the caps)."""
        return self.rules

    def nation_name(self, nation: str) -> str:
        info = self.nations.get(nation)
        return info.name if info else nation.capitalize()

    def personage_label(self, name: str) -> str:
        return self.personages.get(name, name)

    def moves_as(self, unit: str) -> str:
        """The unit type of :data:`pbem.kernel.vocab.UNITS` that ``unit`` moves as (a special
        unit of the edition's own: the type it moves as; any other: itself)."""
        return self.special_units.get(unit, unit)

    def problems(self) -> list[str]:
        """What does not fit together in the edition's description (checked when it is
        registered): its own data (:func:`data_problems`), and its facets against each other
        (:func:`facet_problems`)."""
        return data_problems(self) + facet_problems(self)


def data_problems(edition: Edition) -> list[str]:
    """The vocabulary and the rule table must name the same know-hows and personages, the
    bonus stack all personages once, the rondel every action key; the rejection codes none
    of the kernel's, the words for kernel codes only kernel values."""
    out = []
    if list(edition.personages) != list(edition.rules.personage_stacks):
        out.append(f"personages {list(edition.personages)} but stacks for {list(edition.rules.personage_stacks)}")
    if list(edition.knowhows) != list(edition.rules.knowhows):
        out.append(f"know-hows {list(edition.knowhows)} but rules for {list(edition.rules.knowhows)}")
    if edition.default_bonus_stack and sorted(edition.default_bonus_stack) != sorted(edition.personages):
        out.append(f"default bonus stack {list(edition.default_bonus_stack)} is not the personages, each once")
    keys = {k for f in edition.rondel.fields for k in f.action.keys}
    if not keys <= set(edition.action_keys):
        out.append(f"rondel actions take {sorted(keys - set(edition.action_keys))}, not among the action keys")
    if not set(edition.action_keys) <= set(edition.order_keys):
        out.append("every action key must be an order key")
    try:
        catalogue(edition.codes, edition.wording)
    except ValueError as exc:
        out.append(str(exc))
    return out


EXTRA_PARTS = {"nation": "nation_state", "status": "status", "state": "state", "standing": "standing"}
"""Each part of :class:`Extras` -> the ``$defs`` entry of the game schema its keys go in."""
SECRET_VIEWS = ("player_view", "mask_event", "mask_edit", "determinise")
"""What an edition with secrets must say: each a method of its secrets facet."""


def facet_problems(edition: Edition) -> list[str]:
    """The facets against each other: an order key of the edition's own has words in its
    order language; an event kind of its own has a sentence in its phrases; every key of
    its extra state is in its game schema; cards imply a card form in the order language;
    secrets imply a player's view (of the state, an event, a GM edit, and a determinised
    state for a bot's look-ahead)."""
    out = []
    spoken = {spec["key"] for spec in edition.language.order_words.values()} if edition.language else set()
    own_keys = [k for k in edition.order_keys if k not in ORDER_KEYS]
    out += [f"order key {k!r} has no words in the order language (language.order_words)"
            for k in own_keys if k not in spoken]
    out += [f"event kind {k!r} has no sentence (phrases.event_kinds)"
            for k in edition.event_kinds if k not in edition.phrases.event_kinds]
    game = edition.schema.parts("game") if edition.schema else {}
    for part, where in EXTRA_PARTS.items():
        declared = game.get(where, {}).get("properties", {})
        out += [f"extra {part} key {k!r} is not in the game schema ({where})"
                for k in getattr(edition.extras, part) if k not in declared]
    if edition.cards and not any(spec.get("form") == "card" for spec in
                                 (edition.language.order_words.values() if edition.language else ())):
        out.append("event cards, but no order word of the form 'card' (language.order_words)")
    if edition.secrets:
        out += [f"secrets, but no {name} (secrets.{name})" for name in SECRET_VIEWS
                if not callable(getattr(edition.secrets, name, None))]
    return out
