"""The interface every edition implements, and the defaults for the rules they share.

An edition (a built-in one, or a variant defined elsewhere) is one
object: its rule table, its rondel, its vocabulary with display names, its set-up, its
end-of-turn steps, its schema parts and its view of the game for one player. The kernel
is handed an edition and asks it; it never imports one. Editions are found by name in the
registry (:mod:`pbem.editions`), like python-chess finds a variant.

A method here either must be given by the edition (it raises ``NotImplementedError``) or
carries the rule shared by the editions that keep it; an edition whose rule differs
overrides that one method.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pbem.errors import Problem
from pbem.kernel.rejections import Rejection, catalogue, reject
from pbem.kernel.bank import round_coins
from pbem.kernel.orders import ORDER_KEYS
from pbem.kernel.protocols import NO_EXTRAS, Extras, NationInfo  # described there; offered here too
from pbem.kernel.state import GameState, Standing, Table
from pbem.kernel.vocab import ACTION_KEYS, MOVES_AS

if TYPE_CHECKING:
    import random

    from pbem.kernel.board import Board
    from pbem.kernel.protocols import TurnView
    from pbem.kernel.rondel import Rondel
    from pbem.kernel.rules import RuleTable
    from pbem.kernel.setup import SetupOptions


class Edition:
    """One edition of the game. Subclasses set the attributes and override what differs."""

    id: str
    """The edition's id in game files (``rules.edition``)."""
    name: str
    """Its printed name."""
    aliases: tuple[str, ...] = ()
    """Other names ``new --edition`` accepts."""
    rules: RuleTable
    revision: int = 1
    """The revision of the edition's rules that ``new`` sets a game up under, recorded in the
    game (``rules.revision``). Raised when a rule changes what an order file of an older
    game would do: the edition then asks :attr:`Table.revision
    <pbem.kernel.state.Table.revision>` which rule a game plays by, so every older game
    replays and plays on as it was set up (docs/architecture.md, "Game files")."""
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
    automatic_battles: bool = False
    """Units entering or crossing a region with hostile units of the same type always fight
    (001 L350); otherwise a battle is fought when a side demands it (D1)."""
    arm_source_words: str = "left in stock"
    """Where the units :meth:`arm_source` counts are, in a refusal's words."""
    special_units: Mapping[str, str] = MappingProxyType({})
    """Units of the edition's own beyond legions and galleys (a variant's special units)
    -> the unit type each moves as; the board learns them when the edition class is
    defined (:data:`pbem.kernel.vocab.MOVES_AS`)."""
    codes: Mapping[str, str] = MappingProxyType({})
    """Rejection codes of the edition's own rules, with their message templates."""
    wording: Mapping[str, str] = MappingProxyType({})
    """The edition's own message templates for codes of the kernel's catalogue
    (:data:`pbem.kernel.rejections.CODES`): the same code, with values the kernel passes."""
    extras: Extras = NO_EXTRAS
    players: tuple[int, int] = (3, 6)
    """The fewest and most nations a game seats."""
    seating_note: str = ""
    """Said after the number of nations ``new`` needs (classic: " (2 players play 4)")."""
    secrets: bool = False
    """Whether the edition keeps anything from a player (an edition's event cards): its
    :meth:`player_view` and :meth:`mask_event` then hide it, each nation gets a private
    report beside the public one and a player's copy of the game (docs/rulings.md D18)."""
    default_board: str = "antike-east"
    """The shipped board ``new`` plays on when no ``--board`` is given."""
    board_editions: tuple[str, ...] = ()
    """Other editions whose boards this one is played on (a variant edition of classic
    plays on classic's boards); its own boards always."""
    board_features: frozenset[str] = frozenset()
    """What this edition's boards may have beyond provinces with a printed resource:
    ``choice`` (the founder picks the resource), ``none`` (no city site), ``temple``
    (neutral temples at set-up), ``double`` (regions that count double for navigators)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for unit, kind in cls.__dict__.get("special_units", {}).items():
            if MOVES_AS.get(unit, kind) != kind:
                raise TypeError(f"{cls.__name__}: unit {unit!r} moves as {kind!r}, another edition's as {MOVES_AS[unit]!r}")
            MOVES_AS[unit] = kind

    def __repr__(self) -> str:
        return f"<Edition {self.id}>"

    def problems(self) -> list[str]:
        """What does not fit together in the edition's own description (checked when it is
        registered): the vocabulary and the rule table must name the same know-hows and
        personages, the bonus stack all personages once, the rondel every action key; its
        rejection codes none of the kernel's, its words for kernel codes only kernel values."""
        out = []
        if list(self.personages) != list(self.rules.personage_stacks):
            out.append(f"personages {list(self.personages)} but stacks for {list(self.rules.personage_stacks)}")
        if list(self.knowhows) != list(self.rules.knowhows):
            out.append(f"know-hows {list(self.knowhows)} but rules for {list(self.rules.knowhows)}")
        if self.default_bonus_stack and sorted(self.default_bonus_stack) != sorted(self.personages):
            out.append(f"default bonus stack {list(self.default_bonus_stack)} is not the personages, each once")
        keys = {k for f in self.rondel.fields for k in f.action.keys}
        if not keys <= set(self.action_keys):
            out.append(f"rondel actions take {sorted(keys - set(self.action_keys))}, not among the action keys")
        if not set(self.action_keys) <= set(self.order_keys):
            out.append("every action key must be an order key")
        try:
            catalogue(self.codes, self.wording)
        except ValueError as exc:
            out.append(str(exc))
        return out

    def rules_for(self, table: Table) -> RuleTable:
        """The rule table of one game: the edition's, changed by the game's variants where
        a variant changes a number (classic's two-player double nation doubles the caps)."""
        return self.rules

    # -- vocabulary ------------------------------------------------------------------

    def nation_name(self, nation: str) -> str:
        info = self.nations.get(nation)
        return info.name if info else nation.capitalize()

    def personage_label(self, name: str) -> str:
        return self.personages.get(name, name)

    def score_unit(self, state: GameState) -> str:
        """What the score counts, in words (``personages``)."""
        return "personages"

    # -- set-up ----------------------------------------------------------------------

    def setup(self, options: SetupOptions, board: Board) -> tuple[GameState, list[dict[str, Any]], SetupOptions]:
        """The state at the start of a game, the events of its set-up (a first round's
        coins), and the options as recorded (start nation and seed filled in).
        Raise :class:`pbem.errors.UsageError` naming the option at fault."""
        raise NotImplementedError

    def seating_problem(self, players: int, nations: int) -> str | None:
        """Why ``players`` players cannot play ``nations`` nations, or ``None``."""
        if players != nations:
            return f"{players} players cannot play {nations} nations (one player per nation)"
        return None

    def goal(self, options: SetupOptions, nations: int, players: int) -> int:
        """What a nation needs to win (for a set-up like classic's, which asks it)."""
        raise NotImplementedError

    def default_standing(self) -> Standing:
        """A nation's standing orders before it changes them (docs/rulings.md)."""
        return Standing({"default": "home"}, list(self.default_bonus_stack or self.personages), "lowest",
                        dict(self.extras.standing))

    # -- the turn --------------------------------------------------------------------

    def start_round(self, state: GameState, events: list[dict[str, Any]]) -> None:
        """What happens when a new round starts: with ``coin_each_round``, a coin for every
        nation in turn order (000 L289-292)."""
        events.append({"type": "round", "round": state.status.round})
        if self.rules_for(state.table).coin_each_round:
            round_coins(state, events)

    def end_of_turn(self, t: TurnView) -> None:
        """Personages and the end of the game, after the action and the foundings."""
        raise NotImplementedError

    def score(self, state: GameState, nation: str) -> int:
        """What counts towards the goal: personages held."""
        return state.nations[nation].personage_count()

    def bonus_cards(self, state: GameState, nation: str) -> int:
        """Personage cards a nation may hold beyond the thresholds it earned (a card won
        for something other than a threshold)."""
        return 0

    def defence_bonus(self, state: GameState, city: str) -> int:
        """Defence an edition adds beyond city, temple, units and know-how."""
        return 0

    def trade_problem(self, state: GameState, nation: str) -> Rejection | None:
        """Why ``nation`` may not trade with the bank now (a rejection), or ``None``:
        trading needs every know-how, owned since an earlier turn (000 L512-514, Q25)."""
        owned = len(state.nations[nation].knowhow)
        total = len(self.rules_for(state.table).knowhows)
        if owned < total:
            return reject("trade/not-allowed", "$.trade", nation=nation, owned=owned, total=total)
        return None

    def trade_rates(self, state: GameState, nation: str) -> tuple[dict[int, int], Rejection | None]:
        """The trades ``nation`` may make with the bank, chips given -> chips received (one
        entry may trade a multiple of a rate), or a rejection saying why it may not trade:
        by default 2 for 1 once :meth:`trade_problem` allows it. The turn asks this of the
        state its turn began with, so a know-how bought in the turn never counts, whenever
        in the turn the trade is made (Q25, Q31)."""
        problem = self.trade_problem(state, nation)
        return ({}, problem) if problem is not None else ({2: 1}, None)

    def at_moment(self, t: TurnView, when: str, orders: dict[str, Any], echo: dict[str, Any]) -> None:
        """What the edition does at the moment ``when`` of the turn (one of
        :data:`pbem.kernel.vocab.MOMENTS`), after the trades of that moment: an edition with
        event cards plays those the orders mark for it."""

    def reserve(self, state: GameState, nation: str, unit: str) -> int:
        """Units of ``nation`` neither on the board nor in its stock (an edition's
        recruitment box): the stock is the cap less the board less these."""
        return 0

    def units_lost(self, t: TurnView, nation: str, unit: str, count: int, at: str) -> None:
        """``count`` units of ``nation`` left the board in a battle or a conquest (they go
        back to the stock; an edition with a recruitment box puts them there)."""

    def conquer(self, t: TurnView, forces, step: dict[str, Any], path: str) -> dict[str, Any] | None:
        """Carry out a conquest step the edition's own way and return its echo, or ``None``
        for the shared rule (:mod:`pbem.kernel.maneuver`)."""
        return None

    def found_problem(self, t: TurnView, city: str, resource: str, path: str) -> bool:
        """Refuse a founding for a rule of the edition's own (record the rejection and
        return ``True``); ``resource`` is what the new city would produce."""
        return False

    def found_surcharge(self, t: TurnView, city: str, resource: str) -> int:
        """Coins a founding costs beyond the founding cost, to be paid as coins (one per
        neighbouring city of the same resource in an edition that asks it, 001 L197)."""
        return 0

    def free_units(self, t: TurnView) -> int:
        """Units the active nation may arm for free this turn (an edition with a free unit, such as BELLONA's)."""
        return 0

    def after_action(self, t: TurnView, field) -> None:
        """What follows the wedge's action in this edition (one with BELLONA passes it on)."""

    def edit_other(self, state: GameState, edit: dict[str, Any], path: str, out: list[Rejection]) -> bool:
        """Apply a GM edit item of this edition's own (not a nation, province, bank or
        active edit); ``False`` if the item is not one."""
        return False

    def edit_province(self, state: GameState, pid: str, edit: dict[str, Any], path: str,
                      out: list[Rejection]) -> None:
        """Apply the fields of a GM province edit that are the edition's own (an edition with
        town walls: ``wall``), after the shared ones."""

    def edit_nation(self, state: GameState, nation: str, edit: dict[str, Any], path: str,
                    out: list[Rejection]) -> frozenset[str]:
        """Apply the fields of a GM nation edit that are the edition's own and move more than
        the field itself (an edition with a deck of cards: a hand's cards come out of the
        deck); returns those fields. Every other field of :attr:`extras` is set as given."""
        return frozenset()

    def edit_notes(self, table: Table, edits: list[dict[str, Any]]) -> list[str]:
        """What a GM should know of the edits just applied, one sentence each (an edition
        with cards: the moments of a card entered without them); none by default."""
        return []

    def temple_surcharge(self, t: TurnView, city: str) -> int:
        """Coins a new temple costs beyond its marble, to be paid as coins (one per temple
        already in a neighbouring region in an edition that asks it, 001 L262)."""
        return 0

    def arm_source(self, state: GameState, nation: str, unit: str) -> int:
        """Units of a type ``nation`` may arm this turn: its stock (an edition with
        a recruitment box: the box, 001 L284)."""
        from pbem.kernel.queries import stock

        return stock(state, self, nation, unit)

    def arm_problem(self, t: TurnView, unit: str, at: str, path: str) -> bool:
        """Refuse arming ``unit`` at ``at`` for a rule of the edition's own (record the
        rejection and return ``True``): special units that need a temple."""
        return False

    def arming_iron(self, t: TurnView, unit: str) -> int:
        """Iron to arm one ``unit`` (special units may cost more, 001 L435)."""
        return t.rules.arming_iron

    def entry_battles(self, t: TurnView, forces, at: str, unit: str, moving: list[int]) -> list[int] | None:
        """Fight the battles of units entering ``at`` the edition's own way and return the
        actions left of those still moving, or ``None`` for the shared rule."""
        return None

    def armed(self, t: TurnView, unit: str, at: str, count: int) -> None:
        """``count`` units were just armed at ``at`` (an edition with a recruitment box takes
        them out of it and lets them fight hostile units of their type there, 001 L289)."""

    def data_problems(self, data: Any, board: Board) -> list[str]:
        """What is wrong with values a GM entered for what the rulebook does not print
        (``new --data``, kept as ``rules.data``), in words; an edition without such
        values takes none."""
        return ["this edition takes no --data: its rulebook prints every value it uses"] if data else []

    def rulings(self, table: Table) -> list[str]:
        """The values of this game that are the project's rulings rather than printed ones
        (data the rulebook does not give), in words, for ``new`` to say."""
        return []

    # -- views, files and checks -------------------------------------------------------

    def player_view(self, state: GameState, nation: str | None) -> GameState:
        """What ``nation`` may see of the game (``None``: the public view). Everything is
        public unless an edition has secrets (docs/rulings.md D18)."""
        return state

    def schema_extensions(self, kind: str) -> dict[str, dict[str, Any]]:
        """Additions to the shared schema ``kind`` (``game``, ``orders``, ``edit``): for a
        ``$defs`` entry that is an object, ``{"properties": {...}, "required": [...]}`` to
        merge into it (``oneOf``/``anyOf``/``allOf`` lists are appended to its own); a name
        that is not a ``$defs`` entry yet is added as a definition of the edition's own.
        The vocabulary (nations, wedges, know-hows, personages, variants) is filled in from
        the attributes above and needs nothing here."""
        return {}

    def view_extra(self, state: GameState) -> dict[str, Any]:
        """Top-level additions of this edition to ``show --json`` (an edition with BELLONA: ``bellona``)."""
        return {}

    def view_nation(self, state: GameState, nation: str, viewer: str | None) -> dict[str, Any]:
        """Additions of this edition to one nation in ``show --json``, as ``viewer`` (a
        nation, or ``None`` for the public) may see them (an edition with walls, a
        recruitment box and cards: those, the hand to its owner only)."""
        return {}

    def mask_event(self, event: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """An event as ``viewer`` may read it (a card drawn is its drawer's secret)."""
        return event

    def mask_edit(self, edit: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        """One edit of a GM edit file as ``viewer`` may read it in their copy of the history
        (a hand the GM set is its holder's secret)."""
        return edit

    def event_cards(self, data: str) -> Mapping[str, Mapping[str, Any]]:
        """The event cards of a game whose ``rules.data`` is ``data``, by id (an edition
        with cards: the shipped catalogue with the cards a GM entered); none in an edition without."""
        return {}

    def card_name(self, cid: str, data: str) -> str:
        """Event card ``cid`` as players read its name."""
        return cid

    def card_text(self, cid: str, data: str, revision: int | None = None) -> str:
        """What event card ``cid`` does and when it may be played, in words (``check`` and
        ``options`` say it), in a game whose rules are of ``revision`` (``None``: the
        edition's current one); empty where the edition has no such card."""
        return ""

    def card_fields(self, cid: str, data: str) -> tuple[str, ...]:
        """The fields an order playing event card ``cid`` must give besides the card (an
        edition with cards: ``city``, ``at``, ``unit``, ``to``, ``cards``), in the order written."""
        return ()

    def card_play(self, cid: str, table: Table) -> dict[str, Any] | None:
        """Event card ``cid`` of a game (``table``) as data, for the bots: ``{"when":
        [MOMENT, ...], "wedge": WEDGE or None, "steps": [STEP, ...]}`` (the
        vocabulary of the edition's cards), or ``None`` for a card that cannot be played."""
        return None

    def card_note(self, cid: str, data: str) -> str:
        """What every view says beside event card ``cid``'s name (that its text is not
        entered yet); empty for nothing."""
        return ""

    def consistency_problems(self, state: GameState, board: Board) -> list[Problem]:
        """Problems of a loaded state that only this edition's rules can see."""
        return []

    # -- hooks for reports ---------------------------------------------------------------
    # The reports (pbem.report) phrase what every edition shares and ask the edition for
    # the rest. ``words`` is the reports' phrasing kit, handed in as a plain object:
    # ``words.name`` (nation id -> name), ``words.place`` (province id -> name),
    # ``words.card`` (card id -> name), ``words.wedge`` / ``words.knowhow`` (as
    # :func:`pbem.report.text.event_line` takes them), ``words.automatic`` (battles fight
    # themselves), and the shared helpers ``words.pay(paid)``, ``words.count(n, word)``,
    # ``words.units(counts)``, ``words.moment(when)`` and ``words.conquest(ev, destroyed,
    # note)``. An edition never imports the reports.

    report_refined: bool = True
    """Whether the report's board page gets the refinements made after classic's page was
    first drawn (wedge labels clear of the numbers, chart headers inside the panel). An
    edition whose reports must stay byte for byte what its players were sent says no."""
    legend_marks: tuple[str, ...] = ()
    """Marks of this edition's games that the report's legend explains beyond the board's
    own (``wall``: a city's town wall), in legend order."""
    secrets_words: str = "secrets"
    """What a private report shows that the public one does not, in words (``event cards``)."""

    def event_line(self, ev: dict[str, Any], words: Any) -> str | None:
        """The sentence for event ``ev`` where this edition says it its own way (an event of
        its own rules, or a shared event with fields of its own); ``None``: the reports'
        shared sentence."""
        return None

    def standing_words(self, change: dict[str, Any], words: Any) -> list[str]:
        """This edition's standing orders in ``change`` in words (``play X: always``), said
        after the shared ones."""
        return []

    def edit_line(self, edit: dict[str, Any], words: Any) -> str | None:
        """The sentence for a GM edit of this edition's own (not a nation, a province, the
        bank or the active nation); ``None``: not one of this edition's."""
        return None

    def province_edit_words(self, edit: dict[str, Any], words: Any) -> list[str]:
        """What a province edit sets of this edition's own fields, in words, said after the
        owner and temple."""
        return []

    def nation_edit_words(self, edit: dict[str, Any], words: Any) -> dict[str, str]:
        """What a nation edit sets of this edition's own fields: field -> words, said after
        the shared ones (a field named here is not also listed as merely ``changed``)."""
        return {}

    def status_lines(self, state: GameState, words: Any) -> list[dict[str, str]]:
        """What this edition keeps beyond the shared state, as ``{"label", "value"}``
        sentences for a report's status block (``state`` as the reader may see it)."""
        return []

    def nation_facts(self, state: GameState, nation: str, viewer: str | None,
                     words: Any) -> tuple[list[dict[str, str]], list[str], str | None]:
        """What this edition shows of ``nation`` beyond the shared holdings, as ``viewer``
        may see it: labelled sentences, short phrases for the board page, and the cards it
        holds where the reader may see them (``None``: not shown)."""
        return [], [], None

    # -- hooks for bots and self-play checks --

    def bot_strategy(self) -> Any:
        """How the bots play this edition where the shared play of :mod:`pbem.play.bot`
        does not fit it, or ``None`` for the shared play. A strategy is an object with
        ``fill(builder, rng, eager, greedy, march)``, which adds the wedge's action and
        whatever else the turn takes to a builder's rondel move, and ``greedy_turn(game,
        nation, rng, choices, new_builder)``, which returns the greedy bot's orders (or
        ``None`` for the GM default turn); the builder is described in
        :mod:`pbem.play.bot`. A strategy may add ``quick_turn`` (the same arguments): a
        cheaper greedy turn that the searching bot's look-ahead plays for every nation, and
        ``standing(game, state, nation)``: how well a nation stands, the look-ahead's value
        (else the shared one, :func:`pbem.play.bot.state_value`). The edition keeps it in a
        module of its own, which never imports the bot."""
        return None

    def determinise(self, view: GameState, nation: str, rng: random.Random) -> GameState:
        """A full state consistent with ``view`` (what ``nation`` may see: :meth:`player_view`),
        its hidden parts drawn with ``rng`` from what ``nation`` cannot see: what a searching
        bot plays its look-ahead on, never the real secrets. An edition without secrets
        returns ``view`` itself."""
        return view

    def selfplay_lineups(self) -> Mapping[int, tuple[str, ...]]:
        """The nations a self-play game on the edition's :attr:`default_board` seats, by
        their number (one entry: the edition seats that many only); empty for the shared
        lineups of the East board (:data:`pbem.play.selfplay.LINEUPS`)."""
        return {}

    def conservation_problems(self, state: GameState, board: Board) -> list[str]:
        """What breaks the edition's own conservation laws after a turn, in words, beyond
        those every edition keeps (coins, temples, personage cards, units, city stones:
        :func:`pbem.play.selfplay.check_invariants`): pieces the edition adds, such as a
        recruitment box, walls or a deck of cards, each in exactly one place."""
        return []

    # -- hooks for the command line --

    def show_lines(self, state: GameState) -> list[str]:
        """What this edition keeps beyond the shared state, one line each, for ``show``'s
        summary to print under the turn line (``state`` is the view being shown); none in
        classic Antike."""
        return []

    # -- hooks for the order language and mail --

    def order_words(self) -> Mapping[str, Mapping[str, Any]]:
        """The words of text orders (docs/text-orders.md) for the edition's own order keys:
        the word as the echo writes it -> how a line starting with it is read, as
        ``{"key": the order key it writes, "form": FORM, "also": (other spellings, ...)}``
        and what the form asks besides. The forms the text syntax knows:

        - ``card``: ``WORD [before|after move|after] CARD [at PLACE] [UNIT] [to WEDGE]
          [cards CARD ...]``, an event card played; a list of entries;
        - ``cities``: ``WORD CITY [and CITY] ...`` or ``WORD CITY pay ...``, a list of
          ``{"city": ...}``; ``one`` names an entry, ``many`` several, ``example`` shows a
          paid line (a payment belongs to one city);
        - ``units``: ``WORD N UNITS ... [pay ...]``, given once: unit counts, at least one.

        None by default: the shared order words are the syntax's own."""
        return {}

    def standing_order_words(self) -> Mapping[str, Mapping[str, Any]]:
        """Standing orders of the edition's own that text orders can write (``standing KEY
        ...``): key -> ``{"form": "choice", "choices": (...), "what": ...}`` (one of the
        choices, which may be several words) or ``{"form": "cards", "what": ...}`` (event
        cards, or ``nothing``); ``what`` says what is expected after the key. None by default."""
        return {}

    def card_spellings(self, cid: str, data: str) -> tuple[str, ...]:
        """The names players may write for event card ``cid`` besides its id (in an edition
        with cards: the printed names, in each language the edition knows), the name shown
        in messages last; empty where the edition has no such card."""
        return ()

    def hand(self, state: GameState, nation: str) -> tuple[str, ...] | None:
        """The event cards ``nation`` holds, by id, in an edition with cards (what its own
        player is told); ``None`` in an edition without."""
        return None

    # -- hooks for plug-in editions --

    def wedge_lines(self, effect: dict[str, Any], name: Any, syntax: str) -> list[str] | None:
        """What a wedge of this edition's own would let the nation do, from its action's
        preview (``effect``), as lines of text for ``options`` and the mail's options:
        ``name`` shows a province or nation as the board does, ``syntax`` says how a hint
        spells an order (``json``: an order file, ``text``: an order mail). ``None``: a
        preview of a kind the shared lines tell (production, temples, arming, know-how,
        the maneuver)."""
        return None
