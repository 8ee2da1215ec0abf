"""What the kernel's modules need of an edition, a turn and a wedge's action, as protocols.

The edition (:class:`~pbem.kernel.edition.Edition`) hands the turn its hooks, the turn
(:class:`~pbem.kernel.turn.Turn`) hands every hook and action itself, and a rondel field
carries an action (:class:`~pbem.kernel.actions.Action`) that the rule queries ask. Were
these modules to name each other's classes, even only for the type checker, they would
import each other in a circle. They name these protocols instead: each says what one side
needs of the other, this module imports none of them, and the classes fit the protocols by
their shape (``Edition`` is an :class:`EditionView`, ``Turn`` a :class:`TurnView`,
``Action`` a :class:`WedgeAction`).

The descriptions an edition gives of its nations (:class:`NationInfo`) and of the state it
keeps beside the shared fields (:class:`Extras`) live here too, since the protocols name
them; :mod:`pbem.kernel.edition` offers them under their old names as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import random

    from pbem.errors import Problem
    from pbem.kernel.board import Board
    from pbem.kernel.chance import Chance
    from pbem.kernel.payments import Cost
    from pbem.kernel.rejections import Rejection
    from pbem.kernel.rules import RuleTable
    from pbem.kernel.state import GameState, NationState, Table


@dataclass(frozen=True, slots=True)
class NationInfo:
    """How a nation is shown: its name and its colour (``#rrggbb``)."""

    name: str
    colour: str


@dataclass(frozen=True, slots=True)
class Extras:
    """The state an edition keeps beside the shared fields, each key with its default.

    Keys are written into the same JSON objects as the shared fields (a nation's, a
    province's, the status, the state, the standing orders) and must appear in the
    edition's game schema (:meth:`Edition.schema_extensions
    <pbem.kernel.edition.Edition.schema_extensions>`).
    """

    nation: Mapping[str, Any]
    status: Mapping[str, Any]
    state: Mapping[str, Any]
    standing: Mapping[str, Any]


NO_EXTRAS = Extras({}, {}, {}, {})


class EditionView(Protocol):
    """What the shared rules (the actions, the maneuver, the rule queries, the set-up and
    the order files) ask of an edition: its vocabulary, its rule table and the facets of its
    rules where they differ (:class:`TurnRules`, :class:`Forces`, :class:`SetUpRules`).
    Documented on :class:`~pbem.kernel.edition.Edition`."""

    nations: Mapping[str, NationInfo]
    knowhows: Mapping[str, str]
    personages: Mapping[str, str]
    variants: Mapping[str, str]
    default_bonus_stack: tuple[str, ...]
    extras: Extras
    order_keys: tuple[str, ...]
    special_units: Mapping[str, str]
    codes: Mapping[str, str]

    @property
    def rondel(self) -> RondelView: ...

    @property
    def turn(self) -> TurnRules: ...

    @property
    def forces(self) -> Forces: ...

    def rules_for(self, table: Table) -> RuleTable: ...

    def nation_name(self, nation: str) -> str: ...

    def moves_as(self, unit: str) -> str: ...


# -- the facets of an edition ---------------------------------------------------------------
# Each facet says what one part of the referee asks of an edition. The shared rule is the
# default (pbem.kernel.facets); an edition whose rule differs gives a facet of its own, and
# where a feature is absent (cards, secrets, an order language of its own) the edition's
# facet is ``None``. docs/architecture.md, "Adding an edition", has the table.


@runtime_checkable
class TurnRules(Protocol):
    """The steps of a turn where an edition's rule differs: a new round, the moments of
    the turn, after the action, the end of the turn (personages, the end of the game), the
    score, trading with the bank, and what founding and temples cost."""

    def start_round(self, state: GameState, events: list[dict[str, Any]]) -> None:
        """What happens when a new round starts (a coin for every nation)."""
        ...

    def end_of_turn(self, t: TurnView) -> None:
        """Personages and the end of the game, after the action and the foundings."""
        ...

    def score(self, state: GameState, nation: str) -> int:
        """What counts towards the goal."""
        ...

    def bonus_cards(self, state: GameState, nation: str) -> int:
        """Personage cards a nation may hold beyond the thresholds it earned."""
        ...

    def trade_rates(self, state: GameState, nation: str) -> tuple[dict[int, int], Rejection | None]:
        """The trades ``nation`` may make with the bank, chips given -> chips received, or
        a rejection saying why it may not trade (asked of the state its turn began with)."""
        ...

    def at_moment(self, t: TurnView, when: str, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        """The edition's own steps at the moment ``when`` of the turn (event cards)."""
        ...

    def after_action(self, t: TurnView, field: Any) -> None:
        """What follows the wedge's action (a token passed on)."""
        ...

    def found_problem(self, t: TurnView, city: str, resource: str, path: str) -> bool:
        """Refuse a founding for a rule of the edition's own (record it, return ``True``)."""
        ...

    def found_surcharge(self, t: TurnView, city: str, resource: str) -> int:
        """Coins a founding costs beyond the founding cost."""
        ...

    def temple_surcharge(self, t: TurnView, city: str) -> int:
        """Coins a new temple costs beyond its marble."""
        ...


@runtime_checkable
class Forces(Protocol):
    """Units: where they are armed from and what it costs, what else may stop an arming,
    where lost units go, battles on entering a region, a conquest, a city's defence."""

    automatic_battles: bool
    """Units entering or crossing a region with hostile units of the same type always fight
    (001 L350); otherwise a battle is fought when a side demands it (D1)."""
    arm_source_words: str
    """Where the units :meth:`arm_source` counts are, in a refusal's words."""

    def reserve(self, state: GameState, nation: str, unit: str) -> int:
        """Units neither on the board nor in stock (a recruitment box)."""
        ...

    def arm_source(self, state: GameState, nation: str, unit: str) -> int:
        """Units of a type ``nation`` may arm this turn (its stock, or a box)."""
        ...

    def arm_problem(self, t: TurnView, unit: str, at: str, path: str) -> bool:
        """Refuse arming ``unit`` at ``at`` for a rule of the edition's own."""
        ...

    def arming_iron(self, t: TurnView, unit: str) -> int:
        """Iron to arm one ``unit``."""
        ...

    def armed(self, t: TurnView, unit: str, at: str, count: int) -> None:
        """``count`` units were just armed at ``at``."""
        ...

    def free_units(self, t: TurnView) -> int:
        """Units the active nation may arm for free this turn."""
        ...

    def units_lost(self, t: TurnView, nation: str, unit: str, count: int, at: str) -> None:
        """``count`` units of ``nation`` left the board in a battle or a conquest."""
        ...

    def entry_battles(self, t: TurnView, forces: Any, at: str, unit: str, moving: list[int]) -> list[int] | None:
        """Fight the battles of units entering ``at`` the edition's own way, or ``None``."""
        ...

    def conquer(self, t: TurnView, forces: Any, step: dict[str, Any], path: str) -> dict[str, Any] | None:
        """Carry out a conquest the edition's own way and return its echo, or ``None``."""
        ...

    def defence_bonus(self, state: GameState, city: str) -> int:
        """Defence beyond city, temple, units and know-how."""
        ...


@runtime_checkable
class Pieces(Protocol):
    """The pieces an edition keeps beside the shared state (:attr:`Extras`): how ``show
    --json`` shows them, and the checks that each is in one place."""

    def view_extra(self, state: GameState) -> dict[str, Any]:
        """Top-level additions to ``show --json``."""
        ...

    def view_nation(self, state: GameState, nation: str, viewer: str | None) -> dict[str, Any]:
        """Additions to one nation in ``show --json``, as ``viewer`` may see them."""
        ...

    def consistency_problems(self, state: GameState, board: Board) -> list[Problem]:
        """Problems of a loaded state that only this edition's rules can see."""
        ...

    def conservation_problems(self, state: GameState, board: Board) -> list[str]:
        """What breaks the edition's own conservation laws after a turn, in words."""
        ...


@runtime_checkable
class Secrets(Protocol):
    """What an edition keeps from a player (docs/rulings.md D18): a player's view of the
    state, of each event and GM edit of the history, and a full state a searching bot may
    play its look-ahead on without knowing the secrets."""

    words: str
    """What a private report shows that the public one does not (``event cards``)."""

    draws_by_chance: bool
    """Whether the edition draws what it hides (a deck, a card at random) from the game's
    chance source in a game without a game master (:attr:`Turn.chance
    <pbem.kernel.turn.Turn.chance>`), so that ``new --signed`` may set it up."""

    def player_view(self, state: GameState, nation: str | None) -> GameState:
        """What ``nation`` may see of the game (``None``: the public)."""
        ...

    def mask_event(self, event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """An event as ``viewer`` may read it."""
        ...

    def mask_edit(self, edit: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """One edit of a GM edit file as ``viewer`` may read it."""
        ...

    def determinise(self, view: GameState, nation: str, rng: random.Random) -> GameState:
        """A full state consistent with ``view``, its hidden parts drawn with ``rng``."""
        ...


@runtime_checkable
class Cards(Protocol):
    """An edition's event cards: the catalogue of a game, each card's names, text, fields
    and play, and the hand a nation holds."""

    def catalogue(self, data: str) -> Mapping[str, Mapping[str, Any]]:
        """The event cards of a game whose ``rules.data`` is ``data``, by id."""
        ...

    def name(self, cid: str, data: str) -> str:
        """Card ``cid`` as players read its name."""
        ...

    def text(self, cid: str, data: str, revision: int | None = None) -> str:
        """What card ``cid`` does and when it may be played, in words."""
        ...

    def note(self, cid: str, data: str) -> str:
        """What every view says beside the card's name (its text is not entered), or ``""``."""
        ...

    def fields(self, cid: str, data: str) -> tuple[str, ...]:
        """The fields an order playing ``cid`` must give besides the card."""
        ...

    def play(self, cid: str, table: Table) -> dict[str, Any] | None:
        """The card as data for the bots (``when``, ``wedge``, ``steps``), or ``None``."""
        ...

    def spellings(self, cid: str, data: str) -> tuple[str, ...]:
        """The names players may write for ``cid`` besides its id, the shown one last."""
        ...

    def hand(self, state: GameState, nation: str) -> tuple[str, ...]:
        """The cards ``nation`` holds, by id."""
        ...


@runtime_checkable
class Phrases(Protocol):
    """The reports' words for what is the edition's own. ``words`` is the reports' phrasing
    kit (:class:`pbem.report.text.Words`), handed in: an edition never imports the reports."""

    report_refined: bool
    """Whether the board page gets the refinements made after classic's page was first drawn."""
    event_kinds: frozenset[str]
    """The event kinds :meth:`event_line` tells (its own, and shared ones it tells its way)."""
    city_marks: tuple[CityMark, ...]
    """Marks of the edition's own that a city may carry (a town wall), in legend order."""

    def score_unit(self, state: GameState) -> str:
        """What the score counts, in words (``personages``)."""
        ...

    def event_line(self, ev: dict[str, Any], words: Any) -> str | None:
        """The sentence for ``ev`` where the edition says it its own way, else ``None``."""
        ...

    def standing_words(self, change: dict[str, Any], words: Any) -> list[str]:
        """The edition's own standing orders in ``change``, in words."""
        ...

    def edit_line(self, edit: dict[str, Any], words: Any) -> str | None:
        """The sentence for a GM edit of the edition's own, else ``None``."""
        ...

    def province_edit_words(self, edit: dict[str, Any], words: Any) -> list[str]:
        """What a province edit sets of the edition's own fields, in words."""
        ...

    def nation_edit_words(self, edit: dict[str, Any], words: Any) -> dict[str, str]:
        """What a nation edit sets of the edition's own fields: field -> words."""
        ...

    def status_lines(self, state: GameState, words: Any) -> list[dict[str, str]]:
        """What the edition keeps beyond the shared state, for a report's status block."""
        ...

    def nation_facts(self, state: GameState, nation: str, viewer: str | None,
                     words: Any) -> tuple[list[dict[str, str]], list[str], str | None]:
        """What the edition shows of ``nation``: labelled sentences, short phrases for the
        board page, and the cards it holds where the reader may see them."""
        ...


@dataclass(frozen=True, slots=True)
class CityMark:
    """A mark of an edition's own that a city may carry (a town wall): the province key
    that says so, how the board draws it (``battlements``: a stone frame with merlons round
    the city square), and its words (the legend's and the province list's, and a short one
    for the PDF's table)."""

    key: str
    shape: str
    words: str
    short: str


@runtime_checkable
class CommandLines(Protocol):
    """Plain-text lines of the edition's own for ``show`` and ``options`` (and the options
    a mail sends): what it keeps beyond the shared state, what a nation holds of its own,
    what its wedges allow beyond the shared lines. ``syntax`` says how a hint spells an
    order (``json``: an order file, ``text``: an order mail); ``name`` shows a province or
    nation as the board does."""

    box: str
    """Where the units an arming takes are, where they are not the stock (the preview's
    ``box``, :attr:`Forces.arm_source`): ``in the recruitment box``."""

    def show(self, state: GameState) -> list[str]:
        """Lines for ``show``'s summary, under the turn line."""
        ...

    def holdings(self, data: dict[str, Any], game: Any, name: Any, syntax: str) -> list[str]:
        """What the nation holds of the edition's own (``options``' data), after its chips."""
        ...

    def wedge(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str] | None:
        """A wedge of the edition's own from its preview, or ``None`` for a shared one."""
        ...

    def effect(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str]:
        """Lines after a shared wedge's own (walls on a temple wedge, a free unit)."""
        ...


@runtime_checkable
class OrderLanguage(Protocol):
    """The words of text orders (docs/text-orders.md) for the edition's own order keys and
    standing orders. ``order_words``: the word as the echo writes it -> ``{"key": the order
    key, "form": "card" | "cities" | "units", "also": (other spellings, ...)}`` and what
    the form asks besides; ``standing_words``: key -> ``{"form": "choice", "choices":
    (...), "what": ...}`` or ``{"form": "cards", "what": ...}``."""

    order_words: Mapping[str, Mapping[str, Any]]
    standing_words: Mapping[str, Mapping[str, Any]]


@runtime_checkable
class GMEdits(Protocol):
    """GM edits of the edition's own pieces (docs/orders.md, "GM edit file")."""

    def other(self, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> bool:
        """Apply an edit item of the edition's own; ``False`` if the item is not one."""
        ...

    def province(self, state: GameState, pid: str, edit: dict[str, Any], path: str, out: list[Rejection]) -> None:
        """Apply a province edit's fields of the edition's own, after the shared ones."""
        ...

    def nation(self, state: GameState, nation: str, edit: dict[str, Any], path: str,
               out: list[Rejection]) -> frozenset[str]:
        """Apply a nation edit's own fields that move more than the field; return them."""
        ...

    def notes(self, table: Table, edits: list[dict[str, Any]]) -> list[str]:
        """What a GM should know of the edits just applied, one sentence each."""
        ...


@runtime_checkable
class SchemaParts(Protocol):
    """Additions to the shared schemas (``game``, ``orders``, ``edit``)."""

    def parts(self, kind: str) -> dict[str, dict[str, Any]]:
        """Additions to schema ``kind``: for a ``$defs`` entry that is an object,
        ``{"properties": {...}, "required": [...]}`` to merge into it (``oneOf`` /
        ``anyOf`` / ``allOf`` lists are appended to its own); a name that is not a
        ``$defs`` entry yet is added as a definition of the edition's own."""
        ...


class OrderBuilder(Protocol):
    """One order file growing addition by addition, each checked by the rules: what the
    shared bot (:mod:`pbem.play.bot`) hands a strategy."""

    game: Any
    nation: str
    orders: dict[str, Any]
    result: Any

    def try_add(self, key: str, item: dict[str, Any]) -> bool: ...

    def try_set(self, key: str, value: Any) -> bool: ...

    def try_orders(self, trial: dict[str, Any]) -> bool: ...

    def random_moves(self, rng: random.Random, eager: float) -> None: ...


class SharedPlay(Protocol):
    """The bots' shared play, handed to an edition's strategy (which never imports
    :mod:`pbem.play`): ``fill`` a rondel move as every edition does, and ``best_turn``,
    the greedy loop with the strategy's own ``fill`` and ``value(game, nation, result)``."""

    def fill(self, b: OrderBuilder, rng: random.Random, eager: float, greedy: bool = False,
             march: bool = False) -> None: ...

    def best_turn(self, game: Any, nation: str, rng: random.Random, choices: Any, builder: Any, fill: Any,
                  value: Any, march: bool = False) -> dict[str, Any] | None: ...


@runtime_checkable
class BotStrategy(Protocol):
    """How the bots play an edition where the shared play does not fit it. ``fill`` adds
    the wedge's action and whatever else the turn takes to a builder's rondel move;
    ``greedy_turn`` returns the greedy bot's orders (or ``None``: the GM default turn);
    ``shared`` is the shared play. A strategy may also have ``quick_turn`` (the same
    arguments; the searching bot's cheaper look-ahead) and ``standing(game, state,
    nation)`` (the look-ahead's value of a nation's standing)."""

    def fill(self, b: OrderBuilder, rng: random.Random, eager: float, greedy: bool, march: bool,
             shared: SharedPlay) -> None: ...

    def greedy_turn(self, game: Any, nation: str, rng: random.Random, choices: Any, builder: Any,
                    shared: SharedPlay) -> dict[str, Any] | None: ...


class TurnView(Protocol):
    """What an action, the maneuver, a personage award and an edition's hook need of the
    turn under way: the state it changes, who plays, and how to record what happens and
    what is refused. Documented on :class:`~pbem.kernel.turn.Turn`."""

    state: GameState
    nation: str
    board: Board
    events: list[dict[str, Any]]
    firsts: list[str]
    temples_destroyed: int
    produced: dict[str, int]
    extra: dict[str, Any]
    start: GameState | None
    rondel_discount: int
    chance: Chance | None
    """The game's own source of draws (a game without a game master), else ``None``."""

    @property
    def edition(self) -> EditionView: ...

    @property
    def rules(self) -> RuleTable: ...

    @property
    def ns(self) -> NationState: ...

    def reject(self, code: str, path: str, **values: Any) -> None: ...

    def display(self, value: Any) -> Any: ...

    def hint(self, name: str) -> str: ...

    def note_default(self, path: str, text: str) -> None: ...

    def emit(self, kind: str, **data: Any) -> None: ...

    def produce(self, resource: str, amount: int) -> None: ...

    def pay(self, cost: Cost, pay: dict[str, int] | None, what: str, path: str) -> dict[str, int] | None: ...


class RondelField(Protocol):
    """A field of the rondel as an edition's own rules read it (a
    :class:`~pbem.kernel.rondel.Field`)."""

    @property
    def name(self) -> str: ...


class RondelView(Protocol):
    """The rondel as an edition's own rules read it (a :class:`~pbem.kernel.rondel.Rondel`):
    its fields by index, and the wedge a name stands for."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> RondelField: ...

    def canonical(self, name: str) -> str | None: ...


class WedgeAction(Protocol):
    """What the rondel, the turn and the rule queries need of the action a rondel field
    carries. Documented on :class:`~pbem.kernel.actions.Action`. Its attributes are only
    read (properties here, so that an action may give a narrower type)."""

    @property
    def keys(self) -> tuple[str, ...]: ...

    @property
    def produces(self) -> str | None: ...

    @property
    def spends(self) -> str | None: ...

    def run(self, t: TurnView, orders: dict[str, Any], echo: dict[str, Any]) -> None: ...

    def preview(self, state: GameState, edition: EditionView, board: Board, nation: str,
                budget: dict[str, int]) -> dict[str, Any]: ...

    def yields(self, state: GameState, edition: EditionView, board: Board, nation: str) -> int | None: ...
